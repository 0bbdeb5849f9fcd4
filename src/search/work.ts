/**
 * Deterministic counts of the search work done in this thread (issue 49): expansions, successor
 * generations, heuristic evaluations, the oracle's depth-first nodes, states of transition
 * graphs. Unlike time they do not depend on the machine or its load, so a fixed job's counts
 * are a test (a change of work is a failure; a change of speed is a benchmark's business).
 * Searches add their totals when they end; per-call counters are single increments.
 */
export interface WorkCounts {
  /** Searches run (A* in JavaScript or WebAssembly, breadth-first). */
  searches: number;
  /** Their expansions, generated successors and evaluations (as Fast Downward counts them). */
  expanded: number;
  generated: number;
  evaluated: number;
  /** Heuristic values computed outside the WebAssembly search (the oracle's, JavaScript A*'s). */
  heuristicCalls: number;
  /** Nodes of the oracle's iterative-deepening passes. */
  oracleNodes: number;
  /** States added to transition graphs (exhaustive h* by backward distances). */
  graphStates: number;
}

const counts: WorkCounts = { searches: 0, expanded: 0, generated: 0, evaluated: 0, heuristicCalls: 0, oracleNodes: 0, graphStates: 0 };

/** This thread's counters, to add to (hot paths increment fields directly). */
export const work: WorkCounts = counts;

/** A copy of this thread's counters. */
export function workSnapshot(): WorkCounts {
  return { ...counts };
}

/** Counts done since `before` (a `workSnapshot`). */
export function workSince(before: WorkCounts): WorkCounts {
  const out = workSnapshot();
  for (const k of Object.keys(out) as (keyof WorkCounts)[]) out[k] -= before[k];
  return out;
}

/** Adds `b` into `a`. */
export function addWork(a: WorkCounts, b: WorkCounts): void {
  for (const k of Object.keys(a) as (keyof WorkCounts)[]) a[k] += b[k];
}

export function emptyWork(): WorkCounts {
  return { searches: 0, expanded: 0, generated: 0, evaluated: 0, heuristicCalls: 0, oracleNodes: 0, graphStates: 0 };
}

/** A search's totals. */
export function countSearch(expanded: number, generated: number, evaluated: number): void {
  counts.searches++;
  counts.expanded += expanded;
  counts.generated += generated;
  counts.evaluated += evaluated;
}
