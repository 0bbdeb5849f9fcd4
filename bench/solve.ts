/**
 * bench/solve: A* + LM-Cut (h^max where the reference used h^max) on every instance of
 * ../shared/reference/fd-lmcut.jsonl, beside Fast Downward's figures.
 *
 *   npm run bench:solve [-- --time-limit S] [-- --filter substr] [-- --all]
 *
 * The shared folder comes from $PDDL2PRM_SHARED, else ../shared relative to the cwd.
 * Instances the reference did not solve are skipped unless --all. Times: `ms` is wall-clock
 * search time, `cpu` the process CPU time of the search (robust on a loaded machine).
 */
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseDomainFile, parseProblem, parseProblemFile } from "../src/pddl/index.js";
import { ground } from "../src/task/ground.js";
import { applyOp, isApplicable, isGoal } from "../src/task/state.js";
import type { GroundTask } from "../src/task/types.js";
import { createOracle, solve } from "../src/search/index.js";
import { packageRoot } from "../src/util/paths.js";

interface Ref {
  domain: string;
  problem: string;
  solved: boolean;
  cost?: number;
  initial_h?: number | null;
  expanded?: number;
  search_s?: number;
  search_config?: string;
  timeout?: boolean;
  note?: string;
}

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

function planValid(task: GroundTask, plan: number[]): boolean {
  let s: Uint32Array = task.init.slice();
  for (const op of plan) {
    if (!isApplicable(task, s, op)) return false;
    s = applyOp(task, s, op);
  }
  return isGoal(task, s);
}

function median(xs: number[]): number {
  if (xs.length === 0) return NaN;
  const a = xs.slice().sort((x, y) => x - y);
  const m = a.length >> 1;
  return a.length % 2 ? a[m]! : (a[m - 1]! + a[m]!) / 2;
}

/** The explicit h* oracle on a 6-block blocksworld (4 operators): whole space, timed. */
function oracleBench(): void {
  const d = parseDomainFile(join(packageRoot(), "domains", "blocksworld", "domain.pddl"));
  const p = parseProblem(
    `(define (problem six) (:domain ${d.name}) (:objects a b c d e f - block)
      (:init (on a b) (on b c) (ontable c) (on d e) (on e f) (ontable f) (clear a) (clear d) (handempty))
      (:goal (and (on f e) (on e d) (on d c) (on c b) (on b a))))`,
    "six.pddl",
    d,
  );
  const task = ground(d, p);
  for (let rep = 0; rep < 3; rep++) {
    const t0 = performance.now();
    const o = createOracle(task, { mode: "explicit" });
    const ms = performance.now() - t0;
    console.log(`explicit oracle, 6-block blocksworld: ${o.reachableStates()} states, h*(s0) = ${o.hstar(task.init)}, ${ms.toFixed(1)} ms (run ${rep + 1})`);
  }
}

function main(): void {
  const shared = resolve(process.env.PDDL2PRM_SHARED ?? "../shared");
  const refPath = join(shared, "reference", "fd-lmcut.jsonl");
  if (!existsSync(refPath)) {
    process.stderr.write(`bench:solve: ${refPath} not found (set PDDL2PRM_SHARED)\n`);
    process.exitCode = 1;
    return;
  }
  const timeLimit = Number(arg("--time-limit") ?? "120");
  const filter = arg("--filter");
  const all = process.argv.includes("--all");
  const refs = readFileSync(refPath, "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Ref)
    .filter((r) => (filter ? r.problem.includes(filter) : true))
    .filter((r) => all || r.solved);

  const cols = ["instance", "h", "cost", "ref", "h0", "ref", "expanded", "ref", "dev%", "ms", "cpu", "ref ms", "ratio", "valid"];
  console.log(cols.join("\t"));
  const ratios: { name: string; r: number }[] = [];
  const refMsOf = new Map<string, number>();
  const devs: number[] = [];
  let costMismatch = 0;
  let hAgree = 0;
  let hCompared = 0;
  let hOver = 0;
  let solved = 0;
  let invalid = 0;
  let limits = 0;
  for (const ref of refs) {
    const h = (ref.search_config ?? ref.note ?? "").includes("hmax") ? "hmax" : "lmcut";
    const d = parseDomainFile(join(shared, "ipc", ref.domain));
    const p = parseProblemFile(join(shared, "ipc", ref.problem), d);
    const task = ground(d, p);
    const c0 = process.cpuUsage();
    const r = solve(task, { heuristic: h, limits: { timeMs: timeLimit * 1000 } });
    const cu = process.cpuUsage(c0);
    const cpuMs = (cu.user + cu.system) / 1000;
    const valid = r.status === "solved" ? planValid(task, r.plan) : null;
    const refMs = ref.search_s !== undefined ? ref.search_s * 1000 : NaN;
    let dev = NaN;
    if (r.status === "solved") {
      solved++;
      if (!valid) invalid++;
      if (ref.solved) {
        if (r.cost !== ref.cost) costMismatch++;
        dev = ((r.expanded - ref.expanded!) / ref.expanded!) * 100;
        devs.push(dev);
        ratios.push({ name: ref.problem, r: cpuMs / Math.max(refMs, 1e-3) });
        refMsOf.set(ref.problem, refMs);
      }
    } else if (r.status === "limit") limits++;
    if (ref.initial_h !== null && ref.initial_h !== undefined && h === "lmcut") {
      hCompared++;
      if (r.initialH === ref.initial_h) hAgree++;
      if (ref.solved && r.initialH !== null && r.initialH > ref.cost!) hOver++;
    }
    console.log(
      [
        ref.problem,
        h,
        r.status === "solved" ? r.cost : r.status,
        ref.solved ? ref.cost : "-",
        r.initialH ?? "inf",
        ref.initial_h ?? "-",
        r.expanded,
        ref.expanded ?? "-",
        Number.isNaN(dev) ? "-" : dev.toFixed(1),
        r.searchMs.toFixed(1),
        cpuMs.toFixed(1),
        Number.isNaN(refMs) ? "-" : refMs.toFixed(1),
        ref.solved && r.status === "solved" ? (cpuMs / Math.max(refMs, 1e-3)).toFixed(2) : "-",
        valid === null ? "-" : valid ? "yes" : "NO",
      ].join("\t"),
    );
  }
  const worst = ratios.reduce((a, b) => (b.r > a.r ? b : a), { name: "-", r: -Infinity });
  // below ~10 ms of reference time the ratio mostly measures JIT warm-up
  const big = ratios.filter((x) => refMsOf.get(x.name)! >= 10);
  const absDev = devs.map(Math.abs);
  console.log("");
  console.log(`instances: ${refs.length}, solved: ${solved}, limits: ${limits}, invalid plans: ${invalid}`);
  console.log(`cost mismatches vs reference: ${costMismatch}`);
  console.log(`initial_h agreement (lmcut): ${hAgree}/${hCompared} = ${((100 * hAgree) / Math.max(hCompared, 1)).toFixed(1)}%, initial_h > optimal cost: ${hOver}`);
  console.log(`time ratio ours(cpu)/ref: median ${median(ratios.map((x) => x.r)).toFixed(2)}, worst ${worst.r.toFixed(2)} (${worst.name})`);
  console.log(`time ratio on instances with ref search >= 10 ms (${big.length}): median ${median(big.map((x) => x.r)).toFixed(2)}`);
  console.log(
    `expansions vs ref: median |dev| ${median(absDev).toFixed(1)}%, within 10%: ${absDev.filter((x) => x <= 10).length}/${absDev.length}, max |dev| ${Math.max(0, ...absDev).toFixed(1)}%`,
  );
}

if (process.argv.includes("--oracle-only")) oracleBench();
else {
  main();
  oracleBench();
}
