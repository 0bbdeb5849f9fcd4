/**
 * bench/hstar-queries: the labeller's h* query against solve from the same state.
 *
 *   node dist/bench/hstar-queries.js --problems A.pddl,B.pddl | --list FILE [--states 6] [--time-limit 60] [--out FILE]
 *
 * For each problem (its domain file beside it, as `generate --problems` finds it): solve, then
 * take up to `--states` states of the optimal plan (evenly spread, the goal excluded) and one
 * candidate successor of each (a seeded applicable action off the plan): the states the labeller
 * asks h* of. For each state, both from cold caches:
 *   ours    a fresh search-mode oracle (`createOracle`, mode "search") asked `hstar(s)`: the
 *           labeller's query with nothing learnt yet, its slowest case (later queries of a
 *           problem reuse what earlier ones proved);
 *   solve   `solve` on the same task with s as its initial state (its search time: the
 *           heuristic and successor generator are built before its clock, as Fast Downward's).
 * Both must agree on h*; the report gives the ratio ours/solve per query (median, p95, max where
 * solve searched for at least 1, 10 and 100 ms) and the queries over 2x.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { domainFileFor } from "../src/pddl/files.js";
import { parseDomain, parseProblem } from "../src/pddl/index.js";
import { createOracle } from "../src/search/index.js";
import { solve } from "../src/search/solve.js";
import { LimitError } from "../src/search/types.js";
import { applyOp, ground, SuccessorGenerator } from "../src/task/index.js";
import type { GroundTask } from "../src/task/types.js";
import { Prng } from "../src/util/prng.js";
import { checkBenchFlags } from "./args.js";
import { arg, median } from "./reference.js";

interface Query {
  problem: string;
  kind: "plan" | "off-plan";
  index: number;
  hstar: number | null;
  oursMs: number | null;
  solveMs: number | null;
  note?: string;
}

function quantile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
}

function measure(task: GroundTask, s: Uint32Array, timeMs: number): { h: number | null; oursMs: number | null; solveMs: number | null; note?: string } {
  const at = { ...task, init: s } as GroundTask;
  const r = solve(at, { limits: { timeMs } });
  const solveMs = r.status === "limit" ? null : r.searchMs;
  const hSolve = r.status === "solved" ? r.cost! : r.status === "unsolvable" ? Infinity : null;
  const oracle = createOracle(task, { mode: "search", limits: { timeMs } });
  const t0 = performance.now();
  let h: number | null = null;
  let note: string | undefined;
  try {
    h = oracle.hstar(s);
  } catch (e) {
    if (!(e instanceof LimitError)) throw e;
    note = "ours: limit";
  }
  const oursMs = h === null ? null : performance.now() - t0;
  if (h !== null && hSolve !== null && h !== hSolve) throw new Error(`h* differs: ours ${h}, solve ${hSolve}`);
  return { h: h ?? hSolve, oursMs, solveMs, ...(note ? { note } : {}) };
}

function fail(message: string): never {
  process.stderr.write(`bench/hstar-queries: error: ${message}\n`);
  process.exit(2);
}

function main(): void {
  const list = arg("--list");
  if (list !== undefined && !existsSync(list)) fail(`--list: ${list} not found`);
  const files = [
    ...(arg("--problems")?.split(",") ?? []),
    ...(list ? readFileSync(list, "utf8").split("\n").map((l) => l.trim()).filter((l) => l !== "" && !l.startsWith("#")) : []),
  ];
  if (files.length === 0) fail("give problems with --problems A.pddl,B.pddl or --list FILE");
  for (const f of files) if (!existsSync(f)) fail(`${f}: no such problem file`);
  const perProblem = Number(arg("--states") ?? 6);
  const timeMs = Number(arg("--time-limit") ?? 60) * 1000;
  if (!(perProblem > 0)) fail(`--states expects a positive number, got '${arg("--states")}'`);
  if (!(timeMs > 0)) fail(`--time-limit expects a positive number of seconds, got '${arg("--time-limit")}'`);
  const queries: Query[] = [];
  for (const file of files) {
    const df = domainFileFor(dirname(file), file);
    if (df === null) continue;
    const d = parseDomain(readFileSync(df, "utf8"), df);
    const task = ground(d, parseProblem(readFileSync(file, "utf8"), file, d));
    const name = file.split("/").slice(-2).join("/");
    const base = solve(task, { limits: { timeMs } });
    if (base.status !== "solved") {
      process.stderr.write(`${name}: not solved by solve within the limit, skipped\n`);
      continue;
    }
    // warm-up outside the clocks: the task's relaxation, finite-domain view and kernels
    createOracle(task, { mode: "search", limits: { timeMs } }).hstar(task.init);
    const states: Uint32Array[] = [task.init];
    for (const op of base.plan) states.push(applyOp(task, states[states.length - 1]!, op));
    const n = states.length - 1;
    const picks = [...new Set(Array.from({ length: Math.min(perProblem, n) }, (_, k) => Math.floor((k * n) / Math.min(perProblem, n))))];
    const succ = new SuccessorGenerator(task);
    const prng = new Prng(1, name);
    for (const i of picks) {
      const s = states[i]!;
      const m = measure(task, s, timeMs);
      queries.push({ problem: name, kind: "plan", index: i, hstar: m.h, oursMs: m.oursMs, solveMs: m.solveMs, ...(m.note ? { note: m.note } : {}) });
      const ops: number[] = [];
      succ.applicable(s, ops);
      const off = ops.filter((o) => o !== base.plan[i]);
      if (off.length === 0) continue;
      const t = applyOp(task, s, prng.pick(off));
      const m2 = measure(task, t, timeMs);
      queries.push({ problem: name, kind: "off-plan", index: i, hstar: m2.h, oursMs: m2.oursMs, solveMs: m2.solveMs, ...(m2.note ? { note: m2.note } : {}) });
    }
    process.stderr.write(`${name}: ${picks.length} plan states measured\n`);
  }
  // a solve of under 1 ms is timer and JIT noise (a cold query of a few states pays for code
  // V8 has not optimised yet): the ratio is taken where solve searched for 1, 10, 100 ms or more
  const both = queries.filter((q) => q.oursMs !== null && q.solveMs !== null);
  const ratioLine = (min: number): string => {
    const rs = both.filter((q) => q.solveMs! >= min).map((q) => q.oursMs! / q.solveMs!);
    if (rs.length === 0) return `solve >= ${min} ms: no queries`;
    return `solve >= ${min} ms: ${rs.length} queries, median ${median(rs).toFixed(2)}, p95 ${quantile(rs, 0.95).toFixed(2)}, max ${Math.max(...rs).toFixed(2)}`;
  };
  const over = both.filter((q) => q.solveMs! >= 10 && q.oursMs! / q.solveMs! > 2);
  const lines = [
    `command: node dist/bench/hstar-queries.js ${process.argv.slice(2).join(" ")}`,
    `problems: ${new Set(queries.map((q) => q.problem)).size}, queries: ${queries.length} (${queries.filter((q) => q.kind === "plan").length} on the plan, ${queries.filter((q) => q.kind === "off-plan").length} one step off it)`,
    `ratio ours / solve per query, ${ratioLine(1)}; ${ratioLine(10)}; ${ratioLine(100)}`,
    `over 2x where solve >= 10 ms: ${over.length}${over.length ? ": " + over.map((q) => `${q.problem} ${q.kind} ${q.index} (${q.oursMs!.toFixed(1)} / ${q.solveMs!.toFixed(1)} ms)`).join("; ") : ""}`,
    `limits: ${queries.filter((q) => q.note).length}`,
    "",
    "| problem | state | h* | ours ms | solve ms | ratio |",
    "|---|---|---|---|---|---|",
    ...queries.map((q) => `| ${q.problem} | ${q.kind} ${q.index} | ${q.hstar ?? "-"} | ${q.oursMs?.toFixed(1) ?? q.note ?? "-"} | ${q.solveMs?.toFixed(1) ?? "limit"} | ${q.oursMs !== null && q.solveMs !== null ? (q.oursMs / Math.max(q.solveMs, 0.05)).toFixed(2) : "-"} |`),
  ];
  const out = arg("--out");
  if (out) writeFileSync(out, lines.join("\n") + "\n");
  process.stdout.write(lines.slice(0, 5).join("\n") + "\n");
}

checkBenchFlags("bench/hstar-queries", "usage: node dist/bench/hstar-queries.js --problems A.pddl,B.pddl | --list FILE [--states 6] [--time-limit 60] [--out FILE]", {
  values: ["--problems", "--list", "--states", "--time-limit", "--out"],
});
main();
