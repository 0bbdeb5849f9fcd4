import type { Oracle } from "../search/index.js";
import { LimitError } from "../search/types.js";
import { isGoal } from "../task/index.js";
import type { GroundTask } from "../task/types.js";
import { Prng } from "../util/prng.js";
import {
  applicableOps,
  createLabelContext,
  noteLabellingTime,
  hstar,
  hstarAtMost,
  optimalActions,
  stateId,
  successor,
  type LabelContext,
  type LabelLimits,
} from "./context.js";
import { backtrackCheck } from "./classify.js";
import { drawCandidates, emptyTally, labelDrawn, schemasRepeatingObjects } from "./sample.js";
import type { LabeledStep } from "./types.js";

/** Options of one problem's walk (DESIGN.md §7). */
export interface LabelProblemOptions {
  /** Problem id; with `seed` it seeds the per-problem PRNG. */
  problemId: string;
  seed: number;
  /** y: candidates drawn per state. */
  samplesPerState: number;
  /** Follow a seeded random optimal action instead of the lowest operator id. */
  randomOptimal?: boolean;
  /** Draw candidates toward an even category mix (DESIGN.md §7). */
  balance?: boolean;
  nonExecutable?: "near-miss" | "any";
  /** Probability of drawing an executable candidate while both kinds remain (default 0.5). */
  executableShare?: number;
  /**
   * Also walk one recovery branch: at a seeded choice among the states where a suboptimal or
   * backtracking candidate was drawn, take it, then follow an optimal plan from there to the
   * goal, labelling candidates at every state relative to the whole branch walk (V includes
   * the states before the detour). These steps have `branch` = 1.
   */
  recovery?: boolean;
  limits?: LabelLimits;
  /** Explicit-space threshold of the h* oracle (DESIGN.md §5). */
  oracleMaxStates?: number;
  /** Reuse a context (e.g. to read its timing stats); must be for the same task. */
  context?: LabelContext;
  /** Reuse an oracle for this task. */
  oracle?: Oracle;
  /**
   * Keep the states labelled before a limit hit (whole states only: every step is still exact)
   * instead of skipping the problem; `labelProblemSteps` says how many states were cut. The
   * optimal walk itself must complete (no plan, no rows). Default false.
   */
  partial?: boolean;
}

/** What `labelProblemSteps` returns: the steps, and the states a limit cut (partial mode). */
export interface LabelOutcome {
  steps: LabeledStep[];
  /** States of the walk (and recovery branch) left unlabelled by a limit; 0 when complete. */
  statesCut: number;
  /** The states the steps come from. */
  statesLabelled: number;
  /** Why states were cut (the limit's message), or null. */
  cutReason: string | null;
}

/** A problem that could not be labelled completely; `reason` says why. No step of it is emitted. */
export class ProblemSkipped extends Error {
  readonly reason: "unsolvable" | "limit";
  constructor(reason: "unsolvable" | "limit", message: string) {
    super(message);
    this.name = "ProblemSkipped";
    this.reason = reason;
  }
}

/**
 * An optimal plan from `start` following the oracle: at each state the lowest-id optimal action,
 * or a `prng` choice among them. Optimal actions whose successor the plan already visited are
 * avoided (zero-cost cycles). Where zero-cost actions still lead that walk into a cycle (every
 * optimal action of a state returns to a visited state), the walk is made again choosing, at
 * each state, the first optimal action from which some optimal plan avoids every state visited
 * so far: such a walk never cycles. Walks that never cycled are unchanged by this. Returns
 * operator ids; throws ProblemSkipped if `start` is a dead end.
 */
export function optimalWalk(
  ctx: LabelContext,
  start: Uint32Array,
  prng: Prng | null,
  visited: readonly Uint32Array[] = [],
): { ops: number[]; states: Uint32Array[] } {
  if (hstar(ctx, start) === Infinity) throw new ProblemSkipped("unsolvable", "no plan exists from the initial state");
  try {
    return walkFrom(ctx, start, prng, visited, false);
  } catch (e) {
    if (!(e instanceof WalkCycles)) throw e;
    // forked only now: a walk that never cycles draws exactly what it drew before
    return walkFrom(ctx, start, prng?.fork("walk-again") ?? null, visited, true);
  }
}

/** The greedy walk met a state whose optimal actions all return to visited states. */
class WalkCycles extends Error {}

function walkFrom(
  ctx: LabelContext,
  start: Uint32Array,
  prng: Prng | null,
  visited: readonly Uint32Array[],
  avoiding: boolean,
): { ops: number[]; states: Uint32Array[] } {
  const seen = new Set<number>(visited.map((s) => stateId(ctx, s)));
  seen.add(stateId(ctx, start));
  const ops: number[] = [];
  const states: Uint32Array[] = [start];
  let s = start;
  while (!isGoal(ctx.task, s)) {
    const op = avoiding ? avoidingOptimal(ctx, s, seen, prng) : prng === null ? firstOptimal(ctx, s, seen) : randomOptimal(ctx, s, seen, prng);
    s = successor(ctx, s, op);
    if (seen.has(stateId(ctx, s))) {
      if (!avoiding) throw new WalkCycles();
      throw new Error("internal: the cycle-free walk revisited a state");
    }
    seen.add(stateId(ctx, s));
    ops.push(op);
    states.push(s);
  }
  return { ops, states };
}

/**
 * The lowest-id optimal action at s whose successor is not in `seen` (else the lowest-id optimal
 * one), asking only as many bounded h* questions as needed.
 */
function firstOptimal(ctx: LabelContext, s: Uint32Array, seen: ReadonlySet<number>): number {
  const h = hstar(ctx, s);
  const cost = ctx.task.opCost;
  const stale: number[] = [];
  for (const op of applicableOps(ctx, s)) {
    const c = cost[op]!;
    if (c > h) continue;
    const next = successor(ctx, s, op);
    const id = stateId(ctx, next);
    if (seen.has(id)) {
      stale.push(op);
      continue;
    }
    if (hstarAtMost(ctx, next, id, h - c)) return op;
  }
  for (const op of stale) {
    const next = successor(ctx, s, op);
    if (hstarAtMost(ctx, next, stateId(ctx, next), h - cost[op]!)) return op;
  }
  throw new Error("internal: a solvable non-goal state has no optimal action");
}

/**
 * The first optimal action at s (lowest id, or in a `prng` order) from whose successor some
 * optimal plan avoids every state in `seen` (s included): `backtrackCheck` says no. One exists
 * whenever s has an optimal plan avoiding the states seen before it, which each choice keeps
 * true for the next state.
 */
function avoidingOptimal(ctx: LabelContext, s: Uint32Array, seen: ReadonlySet<number>, prng: Prng | null): number {
  let ops = optimalActions(ctx, s);
  if (prng !== null) ops = prng.shuffle(ops.slice());
  const vIndex = new Map<number, number>();
  let j = 0;
  for (const id of seen) vIndex.set(id, j++);
  for (const op of ops) {
    const next = successor(ctx, s, op);
    const id = stateId(ctx, next);
    if (seen.has(id)) continue;
    if (!backtrackCheck(ctx, next, id, vIndex).backtracking) return op;
  }
  throw new Error("internal: no optimal action of a walk state avoids the states before it");
}

/** A `prng` choice among the optimal actions at s with unseen successors (else among all). */
function randomOptimal(ctx: LabelContext, s: Uint32Array, seen: ReadonlySet<number>, prng: Prng): number {
  let choices = optimalActions(ctx, s);
  const fresh = choices.filter((op) => !seen.has(stateId(ctx, successor(ctx, s, op))));
  if (fresh.length > 0) choices = fresh;
  if (choices.length === 0) throw new Error("internal: a solvable non-goal state has no optimal action");
  return prng.pick(choices);
}

/**
 * Label one problem (Algorithm 1): walk an optimal plan from s0 and at every non-goal state draw
 * `samplesPerState` candidates and label each. All steps are computed before this returns, so
 * a problem is either labelled completely or throws `ProblemSkipped` (unsolvable, or a limit).
 */
export function labelProblemAll(task: GroundTask, options: LabelProblemOptions): LabeledStep[] {
  return labelProblemSteps(task, { ...options, partial: false }).steps;
}

/** A limit (time, expansions, states, memory) as a message, or null for any other error. */
function limitMessage(e: unknown): string | null {
  if (e instanceof LimitError) return e.message;
  if (e instanceof RangeError && /memory|Map maximum size|Invalid array length/i.test(e.message)) return `out of memory: ${e.message}`;
  return null;
}

/**
 * `labelProblemAll` with the outcome: with `partial`, a limit hit while labelling the walk's
 * states keeps the states labelled before it (throws `ProblemSkipped` only when there are none).
 */
export function labelProblemSteps(task: GroundTask, options: LabelProblemOptions): LabelOutcome {
  try {
    return run(task, options);
  } catch (e) {
    const m = limitMessage(e);
    if (m !== null) throw new ProblemSkipped("limit", m);
    throw e;
  }
}

/** `labelProblemAll` as an iterable (the steps are buffered per problem). */
export function labelProblem(task: GroundTask, options: LabelProblemOptions): Iterable<LabeledStep> {
  return labelProblemAll(task, options);
}

/** A limit hit while labelling the walk's states, in partial mode: what was cut and why. */
class StatesCut extends Error {
  constructor(readonly reason: string, readonly cut: number) {
    super(reason);
  }
}

function run(task: GroundTask, o: LabelProblemOptions): LabelOutcome {
  const ctxOptions: Parameters<typeof createLabelContext>[1] = {};
  if (o.limits) ctxOptions.limits = o.limits;
  if (o.oracleMaxStates !== undefined) ctxOptions.oracleMaxStates = o.oracleMaxStates;
  if (o.oracle) ctxOptions.oracle = o.oracle;
  const t0 = performance.now();
  const ctx = o.context ?? createLabelContext(task, ctxOptions);
  const root = Prng.forProblem(o.seed, o.problemId);
  const walkPrng = root.fork("walk");
  const plan = optimalWalk(ctx, task.init, o.randomOptimal ? walkPrng : null);
  const sampleOptions = {
    nonExecutable: o.nonExecutable ?? "near-miss",
    executableShare: o.executableShare ?? 0.5,
    balance: o.balance ?? false,
    tally: emptyTally(),
    // near-misses may repeat an object only where such an action is executable on this walk
    repeatingSchemas: schemasRepeatingObjects(ctx, plan.states),
  } as const;

  const steps: LabeledStep[] = [];
  const prefix: string[] = [];
  let statesLabelled = 0;

  const labelStates = (
    states: readonly Uint32Array[],
    ops: readonly number[],
    before: { visited: Uint32Array[]; prefix: string[]; prefixOps: number[] },
    planLength: number,
    branch: number,
  ): void => {
    const visited = before.visited.slice();
    const pre = before.prefix.slice();
    const preOps = before.prefixOps.slice();
    for (let k = 0; k < ops.length; k++) {
      const s = states[k]!;
      visited.push(s);
      const t = visited.length - 1;
      const prng = root.fork(branch === 0 ? `t${t}` : `b${branch}t${t}`);
      let drawn: ReturnType<typeof drawCandidates>;
      let labels: ReturnType<typeof labelDrawn>;
      try {
        drawn = drawCandidates(ctx, s, o.samplesPerState, prng, { ...sampleOptions, visited });
        labels = labelDrawn(ctx, s, visited, drawn);
      } catch (e) {
        // a state's steps are kept only once all of them are labelled
        const m = o.partial ? limitMessage(e) : null;
        if (m !== null) throw new StatesCut(m, ops.length - k);
        throw e;
      }
      statesLabelled++;
      // one copy of the prefix per state, shared (read-only) by its steps
      const statePrefix = pre.slice();
      const statePrefixOps = preOps.slice();
      for (let i = 0; i < drawn.length; i++) {
        const l = labels[i]!;
        const step: LabeledStep = {
          problem: o.problemId,
          stateIndex: t,
          prefix: statePrefix,
          prefixOps: statePrefixOps,
          candidate: drawn[i]!.candidate,
          category: l.category,
          reward: l.reward,
          evidence: l.evidence,
          planLength,
          candidateIndex: i,
        };
        if (branch !== 0) step.branch = branch;
        steps.push(step);
      }
      pre.push(task.opNames[ops[k]!]!);
      preOps.push(ops[k]!);
    }
  };

  try {
    labelStates(plan.states, plan.ops, { visited: [], prefix, prefixOps: [] }, plan.ops.length, 0);
  } catch (e) {
    if (!(e instanceof StatesCut)) throw e;
    if (statesLabelled === 0) throw new ProblemSkipped("limit", e.reason);
    return { steps, statesCut: e.cut, statesLabelled, cutReason: e.reason };
  }

  if (o.recovery) {
    const detours = steps.filter(
      (st) => st.category === "suboptimal" || st.category === "backtracking",
    );
    if (detours.length > 0) {
      const d = root.fork("recovery").pick(detours);
      const t = d.stateIndex;
      const s = plan.states[t]!;
      const op = d.candidate.op;
      const next = successor(ctx, s, op);
      const visitedBefore = plan.states.slice(0, t + 1);
      let rest: ReturnType<typeof optimalWalk>;
      try {
        rest = optimalWalk(ctx, next, o.randomOptimal ? root.fork("recovery-walk") : null, []);
      } catch (e) {
        // the branch's walk did not finish: its states are cut (their number unknown: counted as one)
        const m = o.partial && !(e instanceof ProblemSkipped) ? limitMessage(e) : null;
        if (m === null) throw e;
        return { steps, statesCut: 1, statesLabelled, cutReason: m };
      }
      try {
        labelStates(
        rest.states,
        rest.ops,
        {
          visited: visitedBefore,
          prefix: [...d.prefix, task.opNames[op]!],
          prefixOps: [...d.prefixOps, op],
        },
        t + 1 + rest.ops.length,
        1,
      );
      } catch (e) {
        if (!(e instanceof StatesCut)) throw e;
        return { steps, statesCut: e.cut, statesLabelled, cutReason: e.reason };
      }
    }
  }
  if (o.context === undefined) noteLabellingTime(ctx, performance.now() - t0);
  return { steps, statesCut: 0, statesLabelled, cutReason: null };
}
