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

/** Aimed-for time between two clock reads of a `DeadlineClock`, ms. */
const CLOCK_READ_MS = 4;
/** Most units of work between two clock reads (bounds the cost of a sudden run of dearer units). */
const MAX_STRIDE = 1024;

/**
 * A wall-clock deadline (`performance.now()` ms) checked in a hot loop: `passed()` is called once
 * per unit of work (an expansion, a heuristic evaluation) and reads the clock every `stride`
 * units, the stride adapted to what the units cost so that reads come about CLOCK_READ_MS
 * apart. A count fixed in advance is sized for one machine and one task: every 16 expansions
 * left 100-200 ms between reads on IPC tasks with LM-Cut (each expansion evaluates dozens of
 * successors), seconds on larger tasks, and more again on a busy machine.
 */
export class DeadlineClock {
  private left: number;
  private stride = 1;
  private last: number;

  constructor(readonly deadline: number) {
    this.last = deadline === Infinity ? 0 : performance.now();
    // no deadline: the countdown never reaches 0 (Infinity - 1 is Infinity)
    this.left = deadline === Infinity ? Infinity : 1;
  }

  /** True once the deadline has passed (read at most every `stride` calls). */
  passed(): boolean {
    return --this.left <= 0 && this.read();
  }

  private read(): boolean {
    const now = performance.now();
    if (now >= this.deadline) {
      this.left = 1;
      return true;
    }
    const dt = now - this.last;
    this.last = now;
    // cheap units: double the stride; dear ones: cut it to fit the interval at once
    this.stride = dt < CLOCK_READ_MS / 2 ? Math.min(this.stride * 2, MAX_STRIDE) : Math.max(1, Math.floor((this.stride * CLOCK_READ_MS) / dt));
    this.left = this.stride;
    return false;
  }
}

/**
 * Throw LimitError when `performance.now()` is past `deadline`: between steps that cannot read a
 * clock themselves (parsing, building the renderer), `what` saying which step ran out.
 */
export function checkTime(deadline: number, what: string): void {
  if (deadline !== Infinity && performance.now() > deadline) throw new LimitError(`time limit reached ${what}`);
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
