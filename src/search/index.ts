/** Optimal search: A*, heuristics (blind, h^max, LM-Cut), the h* oracle and `solve`. */
export * from "./types.js";
export { astar, astarRun, type AStarOptions, type AStarRun } from "./astar.js";
export { breadthFirst, type BreadthFirstOptions } from "./bfs.js";
export {
  createHeuristic,
  BlindHeuristic,
  HMaxHeuristic,
  LmCutHeuristic,
  HEURISTIC_NAMES,
  type HeuristicName,
  type HeuristicEngine,
} from "./heuristics.js";
export { LmCutKernel, lmcutKernelAvailable } from "./lmcut-kernel.js";
export { buildRelaxedTask, relaxedTaskOf, buildRelaxedTaskFromFdr, causalFactRank, fdrSuccessorOrder, FdrStateMap, goalRelevance, successorOrder, type Relevance, type RelaxedTask } from "./relaxed.js";
export { createOracle, costAvoiding, type Oracle, type OracleOptions, type DeadEndKind } from "./oracle.js";
export { solve, formatPlan, type SolveOptions } from "./solve.js";
export { StateSpace } from "./space.js";
export { work, workSnapshot, workSince, addWork, emptyWork, type WorkCounts } from "./work.js";
export { TransitionGraph, TransitionGraphCache, sameTransitions, transitionHash, type TransitionGraphCaps } from "./transition-graph.js";
