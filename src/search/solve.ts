import type { GroundTask } from "../task/types.js";
import { successorGeneratorOf } from "../task/index.js";
import { astar } from "./astar.js";
import { SearchKernel, searchKernelRuns, type SearchKernelOptions } from "./astar-kernel.js";
import { createHeuristic, type HeuristicName } from "./heuristics.js";
import { fdrTaskOf } from "../task/fdr.js";
import { fdrSuccessorOrder, goalRelevance, relevanceByVariable, successorOrder } from "./relaxed.js";
import type { SearchLimits, SearchResult } from "./types.js";

/** Options of `solve`. */
export interface SolveOptions {
  /** Default "lmcut" (h^max on tasks with conditional effects). */
  heuristic?: HeuristicName;
  limits?: SearchLimits;
  /** Skip operators and facts that cannot matter for the goal (backward relevance; default true). */
  pruneIrrelevant?: boolean;
  /** Search in JavaScript (`astar`) even where the WebAssembly search kernel runs (tests). */
  noKernel?: boolean;
}

/**
 * Optimal planning: A* with the chosen heuristic over the goal-relevant operators and
 * facts (see `goalRelevance`); `planNames` are the plan's PDDL actions, `heuristic` the name
 * of the heuristic used (lmcut falls back to hmax on conditional effects). The search runs in
 * WebAssembly (`SearchKernel`) where it can, else in JavaScript; both give the same result.
 */
export function solve(task: GroundTask, options: SolveOptions = {}): SearchResult & { planNames: string[]; heuristic: string } {
  const { h, kernel, options: options2 } = solveSetup(task, options);
  const r = kernel !== null ? kernel.run(options.limits) : astar(task, h, options.limits, options2);
  return { ...r, planNames: r.plan.map((op) => task.opNames[op]!), heuristic: h.name };
}

/**
 * solve's search, made once and run from any state as often as needed (the h* oracle's
 * unbounded queries): the WebAssembly kernel with solve's heuristic, successor order and
 * (unless `pruneIrrelevant` is false) goal-relevance projection, or null where the kernel does
 * not run the task.
 */
export function solveKernel(task: GroundTask, options: Pick<SolveOptions, "pruneIrrelevant"> = {}): SearchKernel | null {
  if (!searchKernelRuns(task)) return null;
  return solveSetup(task, options).kernel;
}

function solveSetup(task: GroundTask, options: SolveOptions): { h: ReturnType<typeof createHeuristic>; kernel: SearchKernel | null; options: SearchKernelOptions } {
  const useKernel = !options.noKernel && searchKernelRuns(task);
  // the search kernel evaluates the heuristic itself: then the JavaScript object only describes
  // it (and evaluates the rare states the finite-domain view rejects)
  const h = createHeuristic(task, options.heuristic ?? "lmcut", useKernel ? "js" : "wasm");
  const spec = useKernel ? h.kernelSpec?.() : undefined;
  // successors in Fast Downward's generator order where the task has its finite-domain view
  const fdr = fdrTaskOf(task);
  const order = "unsupported" in fdr ? successorOrder(task) : fdrSuccessorOrder(task, fdr);
  // built before the search, like the heuristic (Fast Downward's search time excludes both)
  const successorGenerator = successorGeneratorOf(task);
  const options2: SearchKernelOptions = { successorOrder: order, successorGenerator };
  if (options.pruneIrrelevant !== false) {
    const rel = goalRelevance(task);
    options2.opMask = rel.ops;
    options2.factMask = "unsupported" in fdr ? rel.factWords : relevanceByVariable(fdr, rel.factWords);
  }
  const kernel = spec !== undefined ? SearchKernel.create(task, spec, options2) : null;
  return { h, kernel, options: options2 };
}

/** Fast Downward plan-file text: one `(action args)` per line, then `; cost = N (unit cost|general cost)`. */
export function formatPlan(task: GroundTask, plan: readonly number[]): string {
  let cost = 0;
  const lines: string[] = [];
  for (const op of plan) {
    lines.push(task.opNames[op]!);
    cost += task.opCost[op]!;
  }
  lines.push(`; cost = ${cost} (${task.hasCosts ? "general cost" : "unit cost"})`);
  return lines.join("\n") + "\n";
}
