/**
 * bench/corpus: builds the paper-scale corpus (DESIGN.md §11: all 11 domains, the paper's problem
 * counts, each domain's default y) and reports rows, wall and CPU time, rows/s, peak RSS, the
 * time per stage, and the end-to-end time (problem sets + labelling + writing).
 *
 *   npm run bench:corpus -- [--scale 1.0] [--workers W] [--out out/corpus] [--problems out/corpus-problems]
 *                           [--fresh] [--gzip] [--seed 1] [--json]
 *   npm run bench:corpus -- --scales 0.25,1,4 [--gzip] ...   (one run per scale, each in its own process)
 *
 * Step 1 makes the problem sets as `generate --count` does, on worker threads (seeded, the files
 * `pddl2prm problems` writes; cached in --problems: a set that already has the right count is
 * reused, so the end-to-end figure holds only for fresh sets: --fresh makes them anew). Step 2 is the timed run: `writeDataset` over those problems,
 * the same code as `pddl2prm generate`. With --scales, the table shows whether rows/s stays
 * level and peak RSS flat as the corpus grows.
 *
 * Folders of an earlier run (the dataset, and the problem sets with --fresh) are renamed into
 * `<out>.old` and deleted only after the timed run (with --scales, after the last scale). On ext4
 * without a journal, creating a file skips the inodes deleted in the last 5 minutes: deleting
 * the previous 15,000-file dataset just before the run cost the run 1-3 s of the main thread.
 * Two runs less than 5 minutes apart still pay it.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { basename, join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { checkBenchFlags } from "./args.js";
import { PAPER } from "./paper-corpus.js";
import { fileURLToPath } from "node:url";
import { Piscina } from "piscina";
import { writeDataset } from "../src/dataset/write.js";
import { CATEGORIES } from "../src/dataset/row.js";
import type { ProblemSetReply } from "../src/dataset/problem-worker.js";
import { packageRoot } from "../src/util/paths.js";
import { tuneJitForLabelling } from "../src/util/v8-flags.js";

const USAGE = `usage: npm run bench:corpus -- [--scale 1] [--workers W] [--out out/corpus] [--problems out/corpus-problems]
                               [--fresh] [--gzip] [--seed 1] [--json]
       npm run bench:corpus -- --scales 0.25,1,4 [other flags]   (one run per scale, each in its own process)`;

checkBenchFlags("bench/corpus", USAGE, {
  values: ["--scale", "--scales", "--workers", "--out", "--problems", "--seed"],
  switches: ["--fresh", "--gzip", "--json"],
});
const args = parseArgs({
  options: {
    scale: { type: "string", default: "1" },
    scales: { type: "string", default: "" },
    workers: { type: "string", default: String(availableParallelism()) },
    out: { type: "string", default: "out/corpus" },
    problems: { type: "string", default: "out/corpus-problems" },
    seed: { type: "string", default: "1" },
    fresh: { type: "boolean", default: false },
    gzip: { type: "boolean", default: false },
    json: { type: "boolean", default: false },
  },
}).values;
function numberFlag(name: string, text: string, ok: (n: number) => boolean): number {
  const n = Number(text);
  if (text.trim() === "" || !ok(n)) {
    console.error(`bench/corpus: error: --${name} ${text} is not valid\n${USAGE}`);
    process.exit(2);
  }
  return n;
}
const scale = numberFlag("scale", args.scale, (n) => n > 0);
const workers = numberFlag("workers", args.workers, (n) => Number.isInteger(n) && n >= 1);
const out = args.out;
const problemsDir = args.problems;
const seed = numberFlag("seed", args.seed, (n) => Number.isInteger(n) && n >= 0);
const gzip = args.gzip;
const json = args.json;
const log = json ? (..._: unknown[]) => undefined : console.log;

const trash = `${resolve(out)}.old`; // resolve: "out/corpus/" must not put the trash inside itself
// a --scales child leaves the deleting to its parent, after the last scale
const SCALES_CHILD = "PDDL2PRM_BENCH_SCALES_CHILD";

/** Rename `dir` (if it exists) into the trash folder, to be deleted after the timed run. */
function setAside(dir: string): void {
  if (!existsSync(dir)) return;
  try {
    mkdirSync(trash, { recursive: true });
    renameSync(dir, join(trash, `${basename(dir)}-${process.pid}-${Date.now()}`));
  } catch (e) {
    const why = (e as NodeJS.ErrnoException).code ?? String(e);
    console.error(`bench/corpus: error: cannot move ${dir} aside into ${trash} (${why}); remove it or choose another --out / --problems`);
    process.exit(1);
  }
}

function emptyTrash(): void {
  if (process.env[SCALES_CHILD] === undefined) rmSync(trash, { recursive: true, force: true });
}

function countOf(domain: string): number {
  return Math.max(1, Math.round(PAPER[domain]!.problems * scale));
}

async function makeProblemSets(): Promise<{ ms: number; cpu: number; made: number }> {
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  if (args.fresh) setAside(problemsDir);
  const todo = Object.keys(PAPER).filter((d) => {
    const dir = join(problemsDir, d);
    const have = existsSync(dir) ? readdirSync(dir).filter((n) => n.endsWith(".pddl")).length : 0;
    if (have === countOf(d)) return false;
    if (have > 0) setAside(dir);
    return true;
  });
  // Largest sets first, on worker threads, as `generate --count` makes them (no plan lengths
  // where the generator proves solvability: the labeller finds the plans anyway).
  todo.sort((a, b) => countOf(b) - countOf(a));
  tuneJitForLabelling(); // as generate does before its pools
  const pool = new Piscina({
    filename: join(packageRoot(), "dist", "src", "dataset", "problem-worker.js"),
    minThreads: Math.max(1, workers),
    maxThreads: Math.max(1, workers),
  });
  try {
    // Above scale 1 a set is made of paper-size parts with seeds seed, seed+1, ... (files s2-p0001,
    // ...): a generator's default sizes allow only so many distinct problems (about 1,700
    // 8-puzzles), and a scaling run measures the work per problem, which a repeat still costs.
    const parts = todo.flatMap((d) => {
      const per = PAPER[d]!.problems;
      const total = countOf(d);
      return Array.from({ length: Math.ceil(total / per) }, (_, k) => ({ d, k, count: Math.min(per, total - k * per) }));
    });
    await Promise.all(
      parts.map(async ({ d, k, count }) => {
        const r = (await pool.run({ name: d, count, seed: seed + k })) as ProblemSetReply;
        if (!r.ok) throw new Error(`${d}: ${r.message}`);
        const dir = join(problemsDir, d);
        mkdirSync(dir, { recursive: true });
        const prefix = k === 0 ? "" : `s${k + 1}-`;
        for (const p of r.problems) writeFileSync(join(dir, `${prefix}${p.name}.pddl`), p.text);
        log(`made ${r.problems.length} ${d} problems${k > 0 ? ` (seed ${seed + k})` : ""} in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
      }),
    );
  } finally {
    await pool.destroy();
  }
  const c = process.cpuUsage(c0);
  return { ms: performance.now() - t0, cpu: (c.user + c.system) / 1e6, made: todo.length };
}

/** One result line of a run (--json), and what the scaling table shows. */
interface RunFigures {
  scale: number;
  rows: number;
  problemsWall: number;
  problemsCpu: number;
  problemSetsMade: number;
  wall: number;
  cpu: number;
  rowsPerS: number;
  endToEndWall: number;
  peakRssMiB: number;
  stages: Record<string, number>;
}

async function main(): Promise<void> {
  log(`bench/corpus: scale ${scale}, ${workers} workers, seed ${seed}${gzip ? ", gzip" : ""}`);
  const gen = await makeProblemSets();
  const cached = gen.made < Object.keys(PAPER).length;
  log(
    `problem sets: ${gen.made} of ${Object.keys(PAPER).length} made in ${(gen.ms / 1000).toFixed(1)} s wall, ${gen.cpu.toFixed(1)} s CPU` +
      (cached ? ` (the others cached in ${problemsDir}: --fresh for a true end-to-end figure)` : ""),
  );

  const domains = Object.keys(PAPER);
  setAside(out); // a finished dataset would be resumed, not rebuilt
  const c0 = process.cpuUsage(); // the workers are threads of this process: their CPU counts here
  const t0 = performance.now();
  let lastLog = 0;
  const summary = await writeDataset({
    domain: domains,
    problems: problemsDir,
    out,
    force: true,
    workers,
    seed,
    gzip,
    onProgress: (p) => {
      const now = performance.now();
      if (now - lastLog > 15_000) {
        lastLog = now;
        log(`  ${p.problemsDone}/${p.problemsTotal} problems, ${p.rows} rows, ${((p.rows / p.elapsedMs) * 1000).toFixed(0)} rows/s`);
      }
    },
  });
  const wall = (performance.now() - t0) / 1000;
  const cpuUse = process.cpuUsage(c0);
  const cpu = (cpuUse.user + cpuUse.system) / 1e6;
  const rss = process.resourceUsage().maxRSS / 1024; // KiB -> MiB; worker threads share the process
  const figures: RunFigures = {
    scale,
    rows: summary.rows,
    problemsWall: gen.ms / 1000,
    problemsCpu: gen.cpu,
    problemSetsMade: gen.made,
    wall,
    cpu,
    rowsPerS: summary.rows / wall,
    endToEndWall: gen.ms / 1000 + wall,
    peakRssMiB: rss,
    stages: Object.fromEntries(Object.entries(summary.ms).map(([k, v]) => [k, v / 1000])),
  };
  emptyTrash();
  if (json) {
    console.log(JSON.stringify(figures));
    return;
  }

  console.log("");
  console.log("domain              problems   rows    paper rows   " + CATEGORIES.map((c) => c.padStart(14)).join(""));
  let paperRows = 0;
  for (const d of domains) {
    const c = summary.byDomain[d] ?? { "non-executable": 0, "dead-end": 0, backtracking: 0, suboptimal: 0, optimal: 0 };
    const rows = CATEGORIES.reduce((a, k) => a + c[k], 0);
    paperRows += PAPER[d]!.rows;
    console.log(
      `${d.padEnd(18)} ${String(countOf(d)).padStart(9)} ${String(rows).padStart(7)} ${String(Math.round(PAPER[d]!.rows * scale)).padStart(12)}   ` +
        CATEGORIES.map((k) => String(c[k]).padStart(14)).join(""),
    );
  }
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  console.log("");
  console.log(`rows: ${summary.rows} (paper: ${Math.round(paperRows * scale)}), problems: ${summary.problems}, skipped: ${summary.skipped}`);
  console.log(`timed run: wall ${wall.toFixed(1)} s, CPU ${cpu.toFixed(1)} s (user ${(cpuUse.user / 1e6).toFixed(1)}, sys ${(cpuUse.system / 1e6).toFixed(1)}), ${figures.rowsPerS.toFixed(0)} rows/s, peak RSS ${rss.toFixed(0)} MiB`);
  console.log(
    `end to end: ${figures.endToEndWall.toFixed(1)} s wall (problem sets ${figures.problemsWall.toFixed(1)} s + timed run ${wall.toFixed(1)} s), ` +
      `${(gen.cpu + cpu).toFixed(1)} s CPU${cached ? "; problem sets partly cached" : ""}`,
  );
  console.log(
    `stages: grounding ${s(summary.ms.grounding)}, labelling incl. h* ${s(summary.ms.labelling)}, translation ${s(summary.ms.translation)} (summed over workers); ` +
      `main thread: writing ${s(summary.ms.writing)}, finishing ${s(summary.ms.finishing)}, merging ${s(summary.ms.merging)}`,
  );
}

/** --scales: one run per scale in a process of its own (peak RSS is per process), then the table. */
async function scaling(scales: number[]): Promise<void> {
  const self = fileURLToPath(import.meta.url);
  const pass = process.argv.slice(2).filter((a, i, all) => a !== "--scales" && all[i - 1] !== "--scales");
  const rows: RunFigures[] = [];
  for (const sc of scales) {
    const args = [self, ...pass.filter((a, i, all) => a !== "--scale" && all[i - 1] !== "--scale"), "--scale", String(sc), "--json"];
    const outText = await new Promise<string>((resolve, reject) => {
      const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "inherit"], env: { ...process.env, [SCALES_CHILD]: "1" } });
      let text = "";
      child.stdout.on("data", (d: Buffer) => (text += d.toString()));
      child.on("exit", (code) => (code === 0 ? resolve(text) : reject(new Error(`scale ${sc} exited ${code}`))));
    });
    const r = JSON.parse(outText.trim().split("\n").pop()!) as RunFigures;
    rows.push(r);
    console.log(`scale ${sc}: ${r.rows} rows, ${r.wall.toFixed(1)} s, ${r.rowsPerS.toFixed(0)} rows/s, ${r.peakRssMiB.toFixed(0)} MiB`);
  }
  emptyTrash();
  const base = rows.find((r) => r.scale === 1) ?? rows[0]!;
  console.log("");
  console.log("scale      rows   problems s   timed s    CPU s   rows/s  vs base   end-to-end s   peak RSS MiB");
  for (const r of rows) {
    console.log(
      `${String(r.scale).padEnd(6)} ${String(r.rows).padStart(9)} ${r.problemsWall.toFixed(1).padStart(12)} ${r.wall.toFixed(1).padStart(9)} ${r.cpu.toFixed(1).padStart(8)} ` +
        `${r.rowsPerS.toFixed(0).padStart(8)} ${(((r.rowsPerS / base.rowsPerS) - 1) * 100).toFixed(0).padStart(7)}% ${r.endToEndWall.toFixed(1).padStart(14)} ${r.peakRssMiB.toFixed(0).padStart(14)}`,
    );
  }
}

const scalesFlag = args.scales;
if (scalesFlag !== "") await scaling(scalesFlag.split(",").map((t) => numberFlag("scales", t, (n) => n > 0)));
else await main();
