/** Interfaces shared by search algorithms, heuristics and the h* oracle. */

/** A state heuristic over packed states of one GroundTask. Infinity means a proven dead end. */
export interface Heuristic {
  readonly name: string;
  evaluate(state: Uint32Array): number;
}

/** Per-query limits. A search that hits one ends with status "limit", never hangs. */
export interface SearchLimits {
  /** Maximum number of expansions (default: unlimited). */
  maxExpansions?: number;
  /** Wall-clock limit in milliseconds (default: unlimited). */
  timeMs?: number;
  /**
   * An absolute deadline (`performance.now()` ms) over every search made with these limits: a
   * judgement's or a labelling's whole budget, however many queries it takes.
   */
  deadline?: number;
}

/**
 * The deadline of a search started at `t0` under `limits`: its own time limit or the shared
 * deadline, whichever is first. `timeMs` 0 is "at once", unless `zeroIsNone` (as callers that
 * always read 0 as no limit).
 */
export function searchDeadline(limits: SearchLimits | undefined, t0: number, zeroIsNone = false): number {
  const ms = limits?.timeMs;
  const own = ms !== undefined && (!zeroIsNone || ms > 0) ? t0 + ms : Infinity;
  return Math.min(own, limits?.deadline ?? Infinity);
}

export interface SearchResult {
  status: "solved" | "unsolvable" | "limit";
  /** Optimal cost when solved, else null. */
  cost: number | null;
  /** Operator ids of the plan (empty unless solved). */
  plan: number[];
  /** Heuristic value of the start state (null if infinite... reported as null). */
  initialH: number | null;
  expanded: number;
  generated: number;
  evaluated: number;
  searchMs: number;
}

/** Thrown by the oracle when a query hits its limits. */
export class LimitError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "LimitError";
  }
}

/**
 * Exact cost-to-go for states of one task. Implementations: explicit state space (small tasks)
 * and A* + LM-Cut with a shared cache (large tasks).
 */
export interface HStarOracle {
  readonly mode: "explicit" | "search";
  /** h*(s): optimal cost from s to the goal, Infinity for dead ends. Throws LimitError. */
  hstar(state: Uint32Array): number;
  /** Operator ids a applicable in s with c(a) + h*(a(s)) = h*(s), in increasing id order. */
  optimalActions(state: Uint32Array): number[];
}
