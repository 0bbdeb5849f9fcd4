/**
 * bench/corpus: builds the paper-scale corpus (DESIGN.md §11: all 11 domains, the paper's problem
 * counts, each domain's default y) and reports rows, wall time, rows/s, peak RSS and the time
 * per stage.
 *
 *   npm run bench:corpus -- [--scale 1.0] [--workers W] [--out out/corpus] [--problems out/corpus-problems]
 *
 * Step 1 makes the problem sets with `pddl2prm problems` (seeded, cached in --problems: a set
 * that already has the right count is reused; its time is reported separately). Step 2 is the
 * timed run: `writeDataset` over those problems, the same code as `pddl2prm generate`.
 */
import { spawn } from "node:child_process";
import { existsSync, readdirSync, rmSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { writeDataset } from "../src/dataset/write.js";
import { CATEGORIES } from "../src/dataset/row.js";
import { packageRoot } from "../src/util/paths.js";

/** The paper's corpus: problems per domain (and the mean optimal plan length it reports). */
const PAPER: Record<string, { problems: number; mopl: number; rows: number }> = {
  "blocksworld-3ops": { problems: 952, mopl: 5.29, rows: 51_990 },
  blocksworld: { problems: 1796, mopl: 9.58, rows: 125_402 },
  ferry: { problems: 858, mopl: 9.12, rows: 65_269 },
  hanoi: { problems: 1660, mopl: 3.84, rows: 65_745 },
  logistics: { problems: 669, mopl: 8.7, rows: 70_238 },
  elevator: { problems: 2089, mopl: 10.53, rows: 207_549 },
  npuzzle: { problems: 598, mopl: 9.05, rows: 42_027 },
  rooms: { problems: 916, mopl: 6.59, rows: 37_947 },
  sokoban: { problems: 437, mopl: 14.25, rows: 58_475 },
  spanner: { problems: 3563, mopl: 7.87, rows: 198_942 },
  visitgrid: { problems: 1176, mopl: 5.86, rows: 61_390 },
};

function flag(name: string, dflt: string): string {
  const i = process.argv.indexOf(name);
  return i >= 0 && i + 1 < process.argv.length ? process.argv[i + 1]! : dflt;
}

const scale = Number(flag("--scale", "1"));
const workers = Number(flag("--workers", String(availableParallelism())));
const out = flag("--out", "out/corpus");
const problemsDir = flag("--problems", "out/corpus-problems");
const seed = Number(flag("--seed", "1"));
const cli = join(packageRoot(), "dist", "src", "cli", "main.js");

function countOf(domain: string): number {
  return Math.max(1, Math.round(PAPER[domain]!.problems * scale));
}

function runCli(args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, ...args], { stdio: ["ignore", "inherit", "inherit"] });
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`pddl2prm ${args.join(" ")} exited ${code}`))));
  });
}

async function makeProblemSets(): Promise<number> {
  const t0 = performance.now();
  const todo = Object.keys(PAPER).filter((d) => {
    const dir = join(problemsDir, d);
    const have = existsSync(dir) ? readdirSync(dir).filter((n) => n.endsWith(".pddl")).length : 0;
    if (have === countOf(d)) return false;
    if (have > 0) rmSync(dir, { recursive: true, force: true });
    return true;
  });
  // Largest sets first; as many processes as workers.
  todo.sort((a, b) => countOf(b) - countOf(a));
  const queue = [...todo];
  await Promise.all(
    Array.from({ length: Math.max(1, workers) }, async () => {
      for (let d = queue.shift(); d !== undefined; d = queue.shift()) {
        await runCli(["problems", "--domain", d, "--count", String(countOf(d)), "--seed", String(seed), "--out", join(problemsDir, d)]);
      }
    }),
  );
  return performance.now() - t0;
}

async function main(): Promise<void> {
  console.log(`bench/corpus: scale ${scale}, ${workers} workers, seed ${seed}`);
  const genMs = await makeProblemSets();
  console.log(`problem sets ready in ${problemsDir} (${(genMs / 1000).toFixed(1)} s, not part of the timed run)`);

  const domains = Object.keys(PAPER);
  rmSync(out, { recursive: true, force: true }); // a finished dataset would be resumed, not rebuilt
  const t0 = performance.now();
  let lastLog = 0;
  const summary = await writeDataset({
    domain: domains,
    problems: problemsDir,
    out,
    force: true,
    workers,
    seed,
    onProgress: (p) => {
      const now = performance.now();
      if (now - lastLog > 15_000) {
        lastLog = now;
        console.log(`  ${p.problemsDone}/${p.problemsTotal} problems, ${p.rows} rows, ${((p.rows / p.elapsedMs) * 1000).toFixed(0)} rows/s`);
      }
    },
  });
  const wall = (performance.now() - t0) / 1000;
  const rss = process.resourceUsage().maxRSS / 1024; // KiB -> MiB; worker threads share the process

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
  console.log(`wall: ${wall.toFixed(1)} s, ${(summary.rows / wall).toFixed(0)} rows/s, peak RSS ${rss.toFixed(0)} MiB`);
  console.log(
    `stage time (summed over workers): grounding ${s(summary.ms.grounding)}, labelling incl. h* ${s(summary.ms.labelling)}, ` +
      `translation ${s(summary.ms.translation)}; writing (main thread) ${s(summary.ms.writing)}`,
  );
}

await main();
