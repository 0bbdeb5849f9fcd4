/**
 * bench/solve: A* + LM-Cut (h^max where the reference used h^max) on every instance of
 * ../shared/reference/fd-lmcut.jsonl, beside Fast Downward's figures.
 *
 *   npm run bench:solve [-- --time-limit S] [-- --filter substr] [-- --all] [-- --fd PATH]
 *
 * `--fd PATH` (path to fast-downward.py) also runs Fast Downward on each instance right before
 * ours, so both are timed under the same machine load; the `fd ms` column and the `live`
 * ratio use that run's search time (the stored reference times come from a quiet machine).
 * The shared folder comes from $PDDL2PRM_SHARED, else ../shared relative to the cwd.
 * Instances the reference did not solve are skipped unless --all. Times: `ms` is wall-clock
 * search time, `cpu` the process CPU time of the search (robust on a loaded machine); both
 * exclude building the heuristic and the relevance analysis, like Fast Downward's search time.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseDomainFile, parseProblem, parseProblemFile } from "../src/pddl/index.js";
import { ground } from "../src/task/ground.js";
import { applyOp, isApplicable, isGoal } from "../src/task/state.js";
import type { GroundTask } from "../src/task/types.js";
import { astarRun, createHeuristic, createOracle, goalRelevance, solve, successorOrder } from "../src/search/index.js";
import { packageRoot } from "../src/util/paths.js";
import { arg, median, readReferences, type FdReference } from "./reference.js";
import { checkBenchFlags } from "./args.js";



function planValid(task: GroundTask, plan: number[]): boolean {
  let s: Uint32Array = task.init.slice();
  for (const op of plan) {
    if (!isApplicable(task, s, op)) return false;
    s = applyOp(task, s, op);
  }
  return isGoal(task, s);
}

/** Fast Downward's search time (ms) on one instance, or NaN when it did not report one. */
function runFd(fd: string, domain: string, problem: string, config: string, timeLimit: number): number {
  const dir = mkdtempSync(join(tmpdir(), "bench-fd-"));
  try {
    const out = execFileSync(
      "python3",
      [fd, "--search-time-limit", `${timeLimit}s`, domain, problem, "--search", config],
      { cwd: dir, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"], maxBuffer: 64 << 20 },
    );
    const m = /Search time: ([0-9.]+)s/.exec(out);
    return m ? Number(m[1]) * 1000 : NaN;
  } catch {
    return NaN; // time limit or failure
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function sixBlocks(): GroundTask {
  const d = parseDomainFile(join(packageRoot(), "domains", "blocksworld", "domain.pddl"));
  const p = parseProblem(
    `(define (problem six) (:domain ${d.name}) (:objects a b c d e f - block)
      (:init (on a b) (on b c) (ontable c) (on d e) (on e f) (ontable f) (clear a) (clear d) (handempty))
      (:goal (and (on f e) (on e d) (on d c) (on c b) (on b a))))`,
    "six.pddl",
    d,
  );
  return ground(d, p);
}

/**
 * Untimed warm-up (a few ms): solve a 6-block task once per heuristic so the first table rows
 * time the search, not V8 compiling it (Fast Downward is compiled ahead of time).
 */
function warmUp(): void {
  const task = sixBlocks();
  for (const h of ["lmcut", "hmax"] as const) solve(task, { heuristic: h });
}

/** The explicit h* oracle on a 6-block blocksworld (4 operators): whole space, timed. */
function oracleBench(): void {
  const task = sixBlocks();
  for (let rep = 0; rep < 3; rep++) {
    const t0 = performance.now();
    const o = createOracle(task, { mode: "explicit" });
    const ms = performance.now() - t0;
    console.log(`explicit oracle, 6-block blocksworld: ${o.reachableStates()} states, h*(s0) = ${o.hstar(task.init)}, ${ms.toFixed(1)} ms (run ${rep + 1})`);
  }
}

function main(): void {
  const loaded = readReferences("bench:solve");
  if (loaded === null) return;
  const { shared } = loaded;
  const timeLimit = Number(arg("--time-limit") ?? "120");
  const filter = arg("--filter");
  const all = process.argv.includes("--all");
  const fd = arg("--fd");
  const refs = loaded.refs
    .filter((r) => (filter ? r.problem.includes(filter) : true))
    .filter((r) => all || r.solved);

  warmUp();
  const cols = ["instance", "h", "cost", "ref", "h0", "ref", "expanded", "ref", "dev%", "<jump", "ref", "ms", "cpu", "ref ms", "ratio", "valid"];
  if (fd) cols.push("fd ms", "live");
  const live: number[] = [];
  const liveBig: number[] = [];
  console.log(cols.join("\t"));
  const ratios: { name: string; r: number }[] = [];
  const refMsOf = new Map<string, number>();
  const devs: number[] = [];
  let jumpSame = 0;
  let jumpCompared = 0;
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
    const fdMs = fd
      ? runFd(fd, join(shared, "ipc", ref.domain), join(shared, "ipc", ref.problem), ref.search_config ?? `astar(${h}())`, timeLimit)
      : NaN;
    // as solve() does, but with the setup (heuristic tables, relevance analysis) outside the
    // timer: Fast Downward's "Search time" also excludes building its heuristic
    const heur = createHeuristic(task, h);
    const rel = goalRelevance(task);
    const order = successorOrder(task);
    const c0 = process.cpuUsage();
    const r = astarRun(task, heur, {
      limits: { timeMs: timeLimit * 1000 },
      opMask: rel.ops,
      factMask: rel.factWords,
      successorOrder: order,
    });
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
        if (ref.expanded_until_last_jump !== undefined) {
          jumpCompared++;
          if (r.expandedUntilLastJump === ref.expanded_until_last_jump) jumpSame++;
        }
        devs.push(dev);
        ratios.push({ name: ref.problem, r: cpuMs / Math.max(refMs, 1e-3) });
        refMsOf.set(ref.problem, refMs);
      }
      if (!Number.isNaN(fdMs) && fdMs > 0) live.push(cpuMs / fdMs);
      if (!Number.isNaN(fdMs) && fdMs > 0 && refMs >= 10) liveBig.push(cpuMs / fdMs);
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
        r.status === "solved" ? r.expandedUntilLastJump : "-",
        ref.expanded_until_last_jump ?? "-",
        r.searchMs.toFixed(1),
        cpuMs.toFixed(1),
        Number.isNaN(refMs) ? "-" : refMs.toFixed(1),
        ref.solved && r.status === "solved" ? (cpuMs / Math.max(refMs, 1e-3)).toFixed(2) : "-",
        valid === null ? "-" : valid ? "yes" : "NO",
        ...(fd ? [Number.isNaN(fdMs) ? "-" : fdMs.toFixed(1), r.status === "solved" && fdMs > 0 ? (cpuMs / Math.max(fdMs, 1e-3)).toFixed(2) : "-"] : []),
      ].join("\t"),
    );
  }
  const worst = ratios.reduce((a, b) => (b.r > a.r ? b : a), { name: "-", r: -Infinity });
  // below ~10 ms of reference time the ratio mostly measures JIT warm-up
  const big = ratios.filter((x) => refMsOf.get(x.name)! >= 10);
  const absDev = devs.map(Math.abs);
  const jumpLine = `expansions until the last f jump equal to the reference's: ${jumpSame}/${jumpCompared}`;
  console.log("");
  console.log(`instances: ${refs.length}, solved: ${solved}, limits: ${limits}, invalid plans: ${invalid}`);
  console.log(`cost mismatches vs reference: ${costMismatch}`);
  console.log(`initial_h agreement (lmcut): ${hAgree}/${hCompared} = ${((100 * hAgree) / Math.max(hCompared, 1)).toFixed(1)}%, initial_h > optimal cost: ${hOver}`);
  console.log(`time ratio ours(cpu)/ref: median ${median(ratios.map((x) => x.r)).toFixed(2)}, worst ${worst.r.toFixed(2)} (${worst.name})`);
  console.log(`time ratio on instances with ref search >= 10 ms (${big.length}): median ${median(big.map((x) => x.r)).toFixed(2)}`);
  if (fd) {
    console.log(
      `time ratio ours(cpu)/Fast Downward run alongside: median ${median(live).toFixed(2)} (${live.length}), on ref search >= 10 ms ${median(liveBig).toFixed(2)} (${liveBig.length})`,
    );
  }
  console.log(
    `expansions vs ref: median |dev| ${median(absDev).toFixed(1)}%, within 10%: ${absDev.filter((x) => x <= 10).length}/${absDev.length}, max |dev| ${Math.max(0, ...absDev).toFixed(1)}%`,
  );
  console.log(jumpLine);
}

checkBenchFlags("bench/solve", "usage: npm run bench:solve -- [--time-limit S] [--filter substr] [--all] [--fd PATH/fast-downward.py] [--oracle-only]", { values: ["--time-limit", "--filter", "--fd"], switches: ["--all", "--oracle-only"] });
if (process.argv.includes("--oracle-only")) oracleBench();
else {
  main();
  oracleBench();
}
