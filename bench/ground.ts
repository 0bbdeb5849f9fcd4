/**
 * Grounding and successor-generation benchmark: `npm run bench:ground` (after `npm run build`).
 * Needs the IPC corpus (../shared/ipc beside the package, or IPC_DIR=...).
 *  1. grounding time of every pair (median of several runs after a warm-up);
 *  2. a small blocksworld problem grounded many times (the labeller's common case);
 *  3. successor throughput: breadth-first search over the first `--states` states (default
 *     100k) of the largest problems: successor generation + apply + state registry.
 * Options: --states N, --top K (problems for part 3, default 6), --json.
 */
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { parseDomainFile, parseProblemFile, type Domain, type Problem } from "../src/pddl/index.js";
import { applyOp, ground, StateRegistry, SuccessorGenerator, type GroundTask } from "../src/task/index.js";
import { packageRoot } from "../src/util/paths.js";
import { checkBenchFlags } from "./args.js";

interface Pair {
  name: string;
  domain: string;
  problem: string;
}

function pairs(root: string): Pair[] {
  const out: Pair[] = [];
  for (const d of readdirSync(root).sort()) {
    const dir = join(root, d);
    for (const f of readdirSync(dir).sort()) {
      if (!f.endsWith(".pddl") || /domain/i.test(f)) continue;
      const m = /^(p\d+)/.exec(f);
      const own = m ? join(dir, `${m[1]}-domain.pddl`) : "";
      const dom = own && existsSync(own) ? own : join(dir, "domain.pddl");
      if (existsSync(dom)) out.push({ name: `${d}/${f.replace(/\.pddl$/, "")}`, domain: dom, problem: join(dir, f) });
    }
  }
  return out;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

function timeGround(d: Domain, p: Problem, minMs = 200, maxRuns = 50): { ms: number; task: GroundTask } {
  let task = ground(d, p); // warm-up
  const times: number[] = [];
  let total = 0;
  while (times.length < 3 || (total < minMs && times.length < maxRuns)) {
    const t0 = performance.now();
    task = ground(d, p);
    const dt = performance.now() - t0;
    times.push(dt);
    total += dt;
  }
  return { ms: median(times), task };
}

/** BFS over up to `limit` states; returns states/s (expanded) and generated successors/s. */
function bfs(task: GroundTask, limit: number): { states: number; expanded: number; generated: number; ms: number } {
  const reg = new StateRegistry(task.words, 1 << 16);
  const gen = new SuccessorGenerator(task);
  const ops: number[] = [];
  const next = new Uint32Array(task.words);
  reg.intern(task.init);
  let expanded = 0;
  let generated = 0;
  const t0 = performance.now();
  for (let id = 0; id < reg.size && expanded < limit; id++) {
    const s = reg.get(id);
    gen.applicable(s, ops);
    expanded++;
    for (const o of ops) {
      applyOp(task, s, o, next);
      reg.intern(next);
      generated++;
    }
  }
  return { states: reg.size, expanded, generated, ms: performance.now() - t0 };
}

export function main(argv: string[]): void {
  const flag = (n: string, def: number): number => {
    const i = argv.indexOf(n);
    return i >= 0 ? Number(argv[i + 1]) : def;
  };
  const json = argv.includes("--json");
  const limit = flag("--states", 100_000);
  const top = flag("--top", 6);
  const root = process.env.IPC_DIR ?? join(packageRoot(), "..", "shared", "ipc");
  if (!existsSync(root)) {
    process.stderr.write(`bench:ground: no IPC corpus at ${root} (set IPC_DIR)\n`);
    process.exitCode = 1;
    return;
  }
  const rows: Array<{ name: string; facts: number; ops: number; ms: number; task: GroundTask }> = [];
  const t0 = performance.now();
  for (const p of pairs(root)) {
    const d = parseDomainFile(p.domain);
    const pr = parseProblemFile(p.problem, d);
    const r = timeGround(d, pr);
    rows.push({ name: p.name, facts: r.task.numFacts, ops: r.task.numOps, ms: r.ms, task: r.task });
  }
  const wall = performance.now() - t0;
  const log = (s: string): void => {
    if (!json) process.stdout.write(s + "\n");
  };
  log(`grounding: ${rows.length} ipc pairs, sum of medians ${rows.reduce((a, r) => a + r.ms, 0).toFixed(1)} ms (bench wall ${(wall / 1000).toFixed(1)} s)`);
  const byOps = [...rows].sort((a, b) => b.ops - a.ops);
  log(`largest by operators:`);
  for (const r of byOps.slice(0, 8)) log(`  ${r.name.padEnd(44)} facts ${String(r.facts).padStart(5)}  ops ${String(r.ops).padStart(6)}  ${r.ms.toFixed(2).padStart(8)} ms`);
  const slow = [...rows].sort((a, b) => b.ms - a.ms);
  log(`slowest to ground:`);
  for (const r of slow.slice(0, 5)) log(`  ${r.name.padEnd(44)} facts ${String(r.facts).padStart(5)}  ops ${String(r.ops).padStart(6)}  ${r.ms.toFixed(2).padStart(8)} ms`);

  // The labeller's case: many small problems.
  const bw = pairs(root).find((p) => p.name === "blocks/probBLOCKS-4-0");
  let small: { name: string; us: number } | null = null;
  if (bw) {
    const d = parseDomainFile(bw.domain);
    const pr = parseProblemFile(bw.problem, d);
    for (let i = 0; i < 200; i++) ground(d, pr);
    const n = 2000;
    const t = performance.now();
    for (let i = 0; i < n; i++) ground(d, pr);
    small = { name: bw.name, us: ((performance.now() - t) / n) * 1000 };
    log(`small task: ${bw.name} grounds in ${small.us.toFixed(0)} us (mean of ${n})`);
  }

  log(`successor generation: BFS over the first ${limit} states (generate + apply + intern):`);
  const thr: Array<{ name: string; facts: number; ops: number; expanded: number; states: number; generated: number; ms: number; statesPerS: number; genPerS: number }> = [];
  for (const r of byOps.slice(0, top)) {
    bfs(r.task, Math.min(2000, limit)); // warm-up
    const b = bfs(r.task, limit);
    const e = { name: r.name, facts: r.facts, ops: r.ops, ...b, statesPerS: (b.expanded / b.ms) * 1000, genPerS: (b.generated / b.ms) * 1000 };
    thr.push(e);
    log(`  ${r.name.padEnd(44)} expanded ${String(b.expanded).padStart(7)}  generated ${String(b.generated).padStart(8)}  ${(b.ms / 1000).toFixed(2)} s  ${Math.round(e.statesPerS).toLocaleString("en-US").padStart(9)} states/s  ${Math.round(e.genPerS).toLocaleString("en-US").padStart(10)} successors/s`);
  }
  if (json)
    process.stdout.write(
      JSON.stringify({
        grounding: rows.map((r) => ({ name: r.name, facts: r.facts, operators: r.ops, ms: Math.round(r.ms * 1000) / 1000 })),
        small,
        successors: thr,
      }) + "\n",
    );
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  checkBenchFlags("bench/ground", "usage: npm run bench:ground -- [--states 100000] [--top 6] [--json]", { values: ["--states", "--top"], switches: ["--json"] });
  main(process.argv.slice(2));
}

