import { createOracle, TransitionGraphCache, transitionHash, type Oracle } from "../search/index.js";
import { LimitError, type SearchLimits } from "../search/types.js";
import { StateRegistry, successorGeneratorOf, type SuccessorGenerator, applyOp, findOperator, isApplicable } from "../task/index.js";
import type { GroundTask } from "../task/types.js";
import type { DeadEndProof } from "./types.js";
import { hashString } from "../util/prng.js";
import { RecentMap } from "../util/recent-map.js";

/** Limits for one problem (DESIGN.md §5, §12). */
export interface LabelLimits extends SearchLimits {
  /** Cap on states any single exploration of the labeller (or the oracle) may hold. */
  maxStates?: number;
}

export interface LabelContextOptions {
  /** Reuse an existing oracle for this task instead of creating one. */
  oracle?: Oracle;
  /**
   * Largest reachable space the oracle explores explicitly (DESIGN.md §5); default: the policy
   * `DEFAULT_ORACLE_MAX_STATES` / `DEFAULT_ORACLE_MAX_EDGES` (bigger spaces use the search mode,
   * which is faster there). Given, it is the only cap.
   */
  oracleMaxStates?: number;
  /**
   * Per-query limits for the oracle; `timeMs` (from now) and `deadline` (absolute) are also
   * deadlines for the whole context.
   */
  limits?: LabelLimits;
  /**
   * A deadline (`performance.now()` ms) for building the oracle only: a context that outlives
   * its first use (judge's, reused by later plans) keeps none, but its build counts against the
   * time of the call that makes it.
   */
  setupDeadline?: number;
}

/** Time spent in h* queries versus everything else (for bench/label). */
export interface LabelStats {
  hstarMs: number;
  hstarCalls: number;
}

/**
 * Everything the classifier, sampler and walk need for one task: the h* oracle (with its
 * dead-end proofs), the successor generator, a state registry for the labeller's own explorations, and
 * caches. One context per task; not thread-safe (one per worker).
 */
export interface LabelContext {
  readonly task: GroundTask;
  readonly oracle: Oracle;
  readonly successors: SuccessorGenerator;
  /** Ids for states the labeller touches (visited sets, backtracking and dead-end explorations). */
  readonly registry: StateRegistry;
  /** Cap on states of one labeller exploration. */
  readonly maxStates: number;
  /** performance.now() value after which work throws LimitError (Infinity: none). */
  readonly deadline: number;
  readonly stats: LabelStats;
  /** Dead-end proofs by registry id of s'. */
  readonly deadEndProofs: Map<number, DeadEndProof>;
  /** h* by registry id, so repeated queries skip the oracle's hashing. */
  readonly hstarCache: Map<number, number>;
  /** True when the oracle went to search mode without trying the explicit build (see `explicitOutcomes`). */
  readonly explicitSkipped: boolean;
  /** True when the oracle reads h* off a transition graph shared with other problems (see `sharedGraphs`). */
  readonly sharedGraph: boolean;
  /**
   * The limits object the oracle searches under (shared, by reference): a caller with a budget over
   * many queries (a judgement) sets its `deadline` for their duration. Absent for a given oracle.
   */
  readonly oracleLimits?: SearchLimits;
}

const DEFAULT_MAX_STATES = 2_000_000;

/**
 * The labeller's default explicit-mode caps of the h* oracle (states and transitions). Chosen by
 * measurement (bench/label, 20 problems per built-in domain, caps of 1k-12k states and 16k-150k
 * transitions): the explicit build pays for every reachable state and transition whether or not
 * labelling needs them (and for the part explored before giving up), while the search mode
 * (bounded, learning searches near the walk) stays cheap. Small spaces still go explicit (exact
 * for every state at once); larger or high-branching ones (blocksworld-3ops with 6-7 blocks,
 * npuzzle, visitgrid) go to search, where the old 2,000,000 cap made them 10-150x slower.
 */
export const DEFAULT_ORACLE_MAX_STATES = 2_500;
/** See `DEFAULT_ORACLE_MAX_STATES`. */
export const DEFAULT_ORACLE_MAX_EDGES = 16_000;

/**
 * Outcomes of the explicit build by task shape (the domain, and the ground operators by name),
 * per thread. Tasks of one shape share their transition system and differ only in the initial
 * state (the blocksworld with n blocks, the 8-puzzle), so a shape whose builds went over the caps
 * twice and never fitted goes straight to the search mode: a failed build explores up to the
 * caps for nothing (11% of labelling on the built-in corpus). Only the oracle's mode, never a
 * label, depends on it: both modes are exact.
 */
const explicitOutcomes = new WeakMap<object, RecentMap<string, { fit: number; over: number }>>();
/** Shapes remembered per domain: those seen again within this many new shapes (`RecentMap`). */
const RECENT_SHAPES_PER_DOMAIN = 1024;

/**
 * Transition graphs shared by the recurring transition systems of a run (per thread), so that
 * h* for another problem of a system is one lazy backward search over edges already built
 * instead of a build or searches of its own. Sized for the built-in systems that go over the
 * per-problem caps (blocksworld-3ops with 7 blocks: 37,633 states; one half of the 8-puzzle:
 * 181,440 states, 483,840 transitions) within about 25 MB per thread (at 2,000,000 transitions
 * of budget, sokoban's many maps held some 80 MB per worker at 4x the paper's corpus).
 */
const sharedGraphs = new TransitionGraphCache({ maxStates: 200_000, maxEdges: 600_000, maxTotalWeight: 1_200_000 });

/**
 * Labelling time per problem of a transition system without ([0]) and with ([1]) its shared
 * graph, per thread (moving averages, so that the slow first problems of a fresh thread fade).
 * The first problems of a system go without (a one-off problem must not pay for a large build);
 * then the graph is tried and kept while its problems label faster (where a walk needs most of a
 * large space, as in visitgrid, searches win). Now and then a problem takes the other mode to
 * keep both figures current, less often each time the choice holds. Timing decides only the
 * oracle's mode, never a label: both modes are exact.
 */
interface ModeCost {
  n: [number, number];
  avgMs: [number, number];
  problems: number;
  preferred: 0 | 1;
  period: number;
  nextSample: number;
}
/** Transition systems whose mode costs are kept: those seen again within this many new systems (`RecentMap`). */
const RECENT_SYSTEMS = 4096;
const modeCosts = new RecentMap<number, ModeCost>(RECENT_SYSTEMS);
/** ... and the first of them is not timed (warm-up). Exported for tests/work-counters: below it, no choice depends on time. */
export const FIRST_WITHOUT_GRAPH = 2;
const GRAPH_TRIALS = 3;
const FIRST_PERIOD = 16;
const MAX_PERIOD = 1024;

function wantGraph(c: ModeCost): boolean {
  c.problems++;
  if (c.n[0] < FIRST_WITHOUT_GRAPH) return false;
  // trials alternate the modes, so that both see the same stretch of the run
  if (c.n[1] < GRAPH_TRIALS) return c.n[1] < c.n[0] - 1;
  const preferred = c.avgMs[1] <= c.avgMs[0] ? 1 : 0;
  if (preferred !== c.preferred || c.nextSample === 0) {
    c.preferred = preferred;
    c.period = FIRST_PERIOD;
    c.nextSample = c.problems + FIRST_PERIOD;
  }
  if (c.problems >= c.nextSample) {
    c.period = Math.min(c.period * 2, MAX_PERIOD);
    c.nextSample = c.problems + c.period;
    return preferred === 0;
  }
  return preferred === 1;
}

/** What `noteLabellingTime` needs to know about a context made under the default policy. */
const contextMode = new WeakMap<LabelContext, { cost: ModeCost; graph: 0 | 1; setupMs: number }>();

/**
 * Record how long labelling with `ctx` took (oracle creation and the shared graph's growth
 * included, its first build excluded: that is paid once for many problems), for the policy above.
 */
export function noteLabellingTime(ctx: LabelContext, ms: number): void {
  const m = contextMode.get(ctx);
  if (m === undefined) return;
  const x = Math.max(0, ms - m.setupMs);
  const c = m.cost;
  const k = c.n[m.graph]++;
  // the first problem of a system pays for warming up its code paths: not a sample
  if (m.graph === 0 && k === 0) return;
  c.avgMs[m.graph] = k === (m.graph === 0 ? 1 : 0) ? x : c.avgMs[m.graph] + 0.25 * (x - c.avgMs[m.graph]);
}

function taskShape(task: GroundTask): string {
  return `${task.numFacts}/${task.numOps}/${hashString(task.opNames.join("\n"))}`;
}

/** Build the labelling context of a task (creates the h* oracle unless one is given). */
export function createLabelContext(task: GroundTask, options: LabelContextOptions = {}): LabelContext {
  const start = performance.now(); // the deadline covers building the oracle too
  const limits = options.limits ?? {};
  const maxStates = limits.maxStates ?? DEFAULT_MAX_STATES;
  const oracleLimits: SearchLimits = {};
  if (limits.maxExpansions !== undefined) oracleLimits.maxExpansions = limits.maxExpansions;
  if (limits.timeMs !== undefined) oracleLimits.timeMs = limits.timeMs;
  const deadline = Math.min(limits.timeMs !== undefined && limits.timeMs > 0 ? start + limits.timeMs : Infinity, limits.deadline ?? Infinity);
  // while the oracle is built, the build's deadline (the oracle keeps `oracleLimits`: see below)
  const buildDeadline = Math.min(deadline, options.setupDeadline ?? Infinity);
  if (buildDeadline !== Infinity) oracleLimits.deadline = buildDeadline;
  let oracle = options.oracle;
  let skipped = false;
  let mode: { cost: ModeCost; graph: 0 | 1; setupMs: number } | undefined;
  if (oracle === undefined && options.oracleMaxStates === undefined) {
    const key = transitionHash(task);
    let cost = modeCosts.get(key);
    if (cost === undefined) {
      modeCosts.set(key, (cost = { n: [0, 0], avgMs: [0, 0], problems: 0, preferred: 0, period: FIRST_PERIOD, nextSample: 0 }));
    }
    mode = { cost, graph: 0, setupMs: 0 };
    if (wantGraph(cost)) {
      const t0 = performance.now();
      const graph = sharedGraphs.graphFor(task, buildDeadline);
      if (sharedGraphs.lastBuiltNew) mode.setupMs = performance.now() - t0;
      if (graph !== null) {
        oracle = createOracle(task, { graph, limits: oracleLimits });
        mode.graph = 1;
      }
    }
  }
  if (oracle === undefined) {
    // the shape memo serves the default policy only: an explicit cap means try that cap
    const policy = options.oracleMaxStates === undefined;
    let byShape = policy ? explicitOutcomes.get(task.domain) : undefined;
    if (policy && byShape === undefined) explicitOutcomes.set(task.domain, (byShape = new RecentMap(RECENT_SHAPES_PER_DOMAIN)));
    const shape = byShape !== undefined ? taskShape(task) : "";
    const seen = byShape?.get(shape);
    const skip = seen !== undefined && seen.fit === 0 && seen.over >= 2;
    skipped = skip;
    oracle = createOracle(task, {
      maxStates: options.oracleMaxStates ?? Math.min(maxStates, DEFAULT_ORACLE_MAX_STATES),
      // the transition cap applies to the default policy only: an explicit option means that cap
      ...(policy ? { maxEdges: DEFAULT_ORACLE_MAX_EDGES } : {}),
      ...(skip ? { mode: "search" as const } : {}),
      limits: oracleLimits,
    });
    if (byShape !== undefined && !skip) {
      const rec = seen ?? { fit: 0, over: 0 };
      if (oracle.mode === "explicit") rec.fit++;
      else rec.over++;
      byShape.set(shape, rec);
    }
  }
  // then the context's budget, which holds inside every search too, not only between queries:
  // a query started near the end must not run a whole `timeMs` past it
  if (deadline !== Infinity) oracleLimits.deadline = deadline;
  else delete oracleLimits.deadline;
  const ctx: LabelContext = {
    task,
    oracle,
    successors: successorGeneratorOf(task),
    registry: new StateRegistry(task.words),
    maxStates,
    deadline,
    stats: { hstarMs: 0, hstarCalls: 0 },
    deadEndProofs: new Map(),
    hstarCache: new Map(),
    explicitSkipped: skipped,
    sharedGraph: mode?.graph === 1,
    ...(options.oracle === undefined ? { oracleLimits } : {}),
  };
  if (mode !== undefined) contextMode.set(ctx, mode);
  return ctx;
}

/** Throw LimitError when the context's deadline has passed. */
export function checkDeadline(ctx: LabelContext): void {
  if (ctx.deadline !== Infinity && performance.now() > ctx.deadline) {
    throw new LimitError("time limit reached while labelling");
  }
}

/** Registry id of a state (interned). */
export function stateId(ctx: LabelContext, state: Uint32Array): number {
  return ctx.registry.intern(state);
}

/** h*(s) through the oracle, cached by state id and timed. Infinity for dead ends. */
export function hstar(ctx: LabelContext, state: Uint32Array, id = stateId(ctx, state)): number {
  const hit = ctx.hstarCache.get(id);
  if (hit !== undefined) return hit;
  checkDeadline(ctx);
  const t0 = performance.now();
  const h = ctx.oracle.hstar(state);
  ctx.stats.hstarMs += performance.now() - t0;
  ctx.stats.hstarCalls++;
  ctx.hstarCache.set(id, h);
  return h;
}

/** h*(s) if known without searching (context cache or the oracle's), else NaN. */
export function knownHstar(ctx: LabelContext, state: Uint32Array, id: number): number {
  const hit = ctx.hstarCache.get(id);
  if (hit !== undefined) return hit;
  const k = ctx.oracle.known(state);
  if (k === k) ctx.hstarCache.set(id, k);
  return k;
}

/**
 * Is h*(s) <= bound? Cached exact values answer at once; otherwise the oracle's bounded query
 * (search mode: a bounded A* or a cached lower bound, much cheaper than computing h*). When the
 * answer is true, h*(s) becomes known and is cached. Timed as h* work.
 */
export function hstarAtMost(ctx: LabelContext, state: Uint32Array, id: number, bound: number): boolean {
  const hit = ctx.hstarCache.get(id);
  if (hit !== undefined) return hit <= bound;
  checkDeadline(ctx);
  const t0 = performance.now();
  const yes = ctx.oracle.hstarAtMost(state, bound);
  if (yes) ctx.hstarCache.set(id, ctx.oracle.known(state));
  ctx.stats.hstarMs += performance.now() - t0;
  ctx.stats.hstarCalls++;
  return yes;
}

/** Operator ids starting an optimal plan from s (increasing ids), timed as h* work. */
export function optimalActions(ctx: LabelContext, state: Uint32Array): number[] {
  checkDeadline(ctx);
  const t0 = performance.now();
  const ops = ctx.oracle.optimalActions(state);
  ctx.stats.hstarMs += performance.now() - t0;
  return ops;
}

/** The lowest-id applicable ground operator of a grounding (any split variant), or -1. */
export function applicableVariant(ctx: LabelContext, state: Uint32Array, schema: number, args: number[]): number {
  for (const op of findOperator(ctx.task, schema, args)) if (isApplicable(ctx.task, state, op)) return op;
  return -1;
}

/** Applicable ground operators in s, increasing ids. */
export function applicableOps(ctx: LabelContext, state: Uint32Array): number[] {
  const out: number[] = [];
  ctx.successors.applicable(state, out); // ascending
  return out;
}

/** s' = a(s), a fresh array. */
export function successor(ctx: LabelContext, state: Uint32Array, op: number): Uint32Array {
  return applyOp(ctx.task, state, op);
}
