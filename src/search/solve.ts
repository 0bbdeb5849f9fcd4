import type { GroundTask } from "../task/types.js";
import { astar } from "./astar.js";
import { createHeuristic, type HeuristicName } from "./heuristics.js";
import type { SearchLimits, SearchResult } from "./types.js";

/** Options of `solve`. */
export interface SolveOptions {
  /** Default "lmcut" (h^max on tasks with conditional effects). */
  heuristic?: HeuristicName;
  limits?: SearchLimits;
}

/** Optimal planning: A* with the chosen heuristic; `planNames` are the plan's PDDL actions. */
export function solve(task: GroundTask, options: SolveOptions = {}): SearchResult & { planNames: string[] } {
  const h = createHeuristic(task, options.heuristic ?? "lmcut");
  const r = astar(task, h, options.limits);
  return { ...r, planNames: r.plan.map((op) => task.opNames[op]!) };
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
