import type { GroundTask } from "../task/types.js";
import type { SuccessorGenerator } from "../task/index.js";
import { astarRun } from "./astar.js";
import type { SearchKernel } from "./astar-kernel.js";
import { solveKernel } from "./solve.js";
import { applyOp, StateRegistry } from "../task/index.js";
import { AdaptiveLmCutHeuristic, HMaxHeuristic } from "./heuristics.js";
import { StateSpace } from "./space.js";
import { TransitionGraph, type GoalDistances } from "./transition-graph.js";
import { DeadlineClock, LimitError, searchDeadline, type Heuristic, type HStarOracle, type SearchLimits } from "./types.js";
import { work } from "./work.js";

/** Options of `createOracle`. */
export interface OracleOptions {
  /** State cap of the explicit mode (default 2,000,000; the labeller uses a smaller one). */
  maxStates?: number;
  /** Per-query limits of the search mode (and of fallback queries). */
  limits?: SearchLimits;
  /**
   * Transition cap of the explicit mode (default: none). The build's cost is per transition, so
   * this is the better measure for domains with high branching.
   */
  maxEdges?: number;
  /** "auto" (default): explicit when the reachable space fits under `maxStates`, else search. */
  mode?: "auto" | "explicit" | "search";
  /**
   * A closed graph of the task's transitions holding its initial state (`TransitionGraphCache`):
   * explicit mode without a build of its own.
   */
  graph?: TransitionGraph;
  /**
   * Expansions of an unbounded search-mode query in JavaScript before it starts again in solve's
   * WebAssembly search (default 300; 0: the kernel at once, as tests use it).
   */
  kernelAfter?: number;
}

/** How a dead end was proved. */
export type DeadEndKind = { kind: "relaxed-unreachable" } | { kind: "exhaustive"; states: number };

/** The oracle of `createOracle`: HStarOracle plus extras for the labeller. */
export interface Oracle extends HStarOracle {
  /** h*(s) if already known without searching (explicit space or cache), else NaN. */
  known(state: Uint32Array): number;
  /** Number of states explored by the explicit mode (0 in search mode). */
  reachableStates(): number;
  /** Number of h* values cached by the search mode (or explored states in explicit mode). */
  cachedStates(): number;
  /** Why h*(s) = Infinity: unreachable goal in the delete relaxation, or an exhaustive search. */
  deadEndProof(state: Uint32Array): DeadEndKind;
  /**
   * Is h*(s) <= bound? Cheaper than `hstar` in search mode: a bounded A* that stops early, and
   * no search at all when a cached lower bound exceeds `bound`. When true, `known(s)` is then
   * exact. Throws LimitError.
   */
  hstarAtMost(state: Uint32Array, bound: number): boolean;
}

const DEFAULT_MAX_STATES = 2_000_000;
/**
 * Expansions of an unbounded h* query in JavaScript before it moves to the kernel
 * (`SearchOracle.run`). Measured: a cold query costs 1.0-1.05x solve's time with 0, 1.2-1.3x
 * with 300 and 1.8-2.1x with 2,000 (petri-net, floortile); 0 makes every problem of the
 * built-in set build a kernel (5% more CPU on `generate --domain all`), 300 does not.
 */
const KERNEL_AFTER = 300;
// One LM-Cut per task, shared by the search-mode oracle and the avoidance searches (building
// the relaxed task, and later the finite-domain view, is not free). Single-threaded: evaluations
// never nest.
const lmcutCache = new WeakMap<GroundTask, AdaptiveLmCutHeuristic>();
function labellerLmCut(task: GroundTask): AdaptiveLmCutHeuristic {
  let lm = lmcutCache.get(task);
  if (!lm) lmcutCache.set(task, (lm = new AdaptiveLmCutHeuristic(task)));
  return lm;
}

/**
 * The h* oracle (DESIGN.md §5). Explicit mode: forward exploration of the whole reachable space,
 * backward Dijkstra from all goal states, h* of every state at once. Search mode: searches per
 * query with caches shared across queries (exact h* of every state on a found plan, proven dead
 * ends, LM-Cut values and learnt lower bounds); `hstarAtMost` and queries with an upper bound
 * from a neighbour use bounded iterative deepening, unbounded ones A*.
 * With mode "explicit" a space over `maxStates` (or a build over `limits.timeMs`) throws LimitError.
 */
export function createOracle(task: GroundTask, options: OracleOptions = {}): Oracle {
  const mode = options.mode ?? "auto";
  if (mode === "search") return new SearchOracle(task, options.limits, undefined, undefined, options.kernelAfter);
  if (options.graph !== undefined) return ExplicitOracle.fromGraph(task, options.graph, options.limits);
  const ex = ExplicitOracle.build(task, options.maxStates ?? DEFAULT_MAX_STATES, options.limits, options.maxEdges ?? Infinity);
  if (ex) return ex;
  if (mode === "explicit") {
    throw new LimitError(`explicit h* oracle: more than ${options.maxStates ?? DEFAULT_MAX_STATES} reachable states or ${options.maxEdges ?? Infinity} transitions`);
  }
  return new SearchOracle(task, options.limits, undefined, undefined, options.kernelAfter);
}

function optimalActionsOf(o: Oracle, space: StateSpace, state: Uint32Array): number[] {
  const h = o.hstar(state);
  if (h === Infinity) return [];
  const ops: number[] = [];
  space.applicable(state, ops); // ascending
  const next = new Uint32Array(state.length);
  const cost = space.task.opCost;
  const out: number[] = [];
  for (const op of ops) {
    space.apply(state, op, next);
    const c = cost[op]!;
    if (c > h) continue;
    // h*(next) >= h - c always, so "optimal" is the bounded question h*(next) <= h - c
    if (o.hstarAtMost(next, h - c)) out.push(op);
  }
  return out;
}

function proveDeadEnd(task: GroundTask, hmax: Heuristic, state: Uint32Array, succ: SuccessorGenerator, limits?: SearchLimits): DeadEndKind {
  if (hmax.evaluate(state) === Infinity) return { kind: "relaxed-unreachable" };
  const r = astarRun(task, hmax, { start: state, successorGenerator: succ, ...(limits ? { limits } : {}) });
  if (r.status === "limit") throw new LimitError("dead-end proof hit the search limits");
  if (r.status === "solved") throw new Error("deadEndProof: the state is not a dead end");
  return { kind: "exhaustive", states: r.space.size };
}

/** Explicit state space: h* for every reachable state. */
class ExplicitOracle implements Oracle {
  readonly mode = "explicit" as const;
  private fallback: SearchOracle | null = null;
  private hmax: HMaxHeuristic | null = null;

  private constructor(
    private readonly task: GroundTask,
    private readonly space: StateSpace,
    private readonly h: GoalDistances,
    private readonly limits: SearchLimits | undefined,
  ) {}

  /** Explore and solve backwards; null when the space exceeds `maxStates`. */
  static build(task: GroundTask, maxStates: number, limits: SearchLimits | undefined, maxEdges = Infinity): ExplicitOracle | null {
    const graph = new TransitionGraph(task);
    const deadline = searchDeadline(limits, performance.now(), true);
    if (!graph.extend(task.init, maxStates, maxEdges, deadline)) return null;
    return ExplicitOracle.fromGraph(task, graph, limits);
  }

  /** h* for `task` from a closed graph of its transitions that holds its initial state. */
  static fromGraph(task: GroundTask, graph: TransitionGraph, limits: SearchLimits | undefined): ExplicitOracle {
    return new ExplicitOracle(task, graph.space, graph.goalDistances(task), limits);
  }

  private search(): SearchOracle {
    // explicit values are exact for every explored state the fallback searches run into
    const outer = (s: Uint32Array): number => {
      const id = this.space.lookup(s);
      return id >= 0 ? this.h.of(id) : NaN;
    };
    return (this.fallback ??= new SearchOracle(this.task, this.limits, this.space.successorGenerator, outer));
  }

  known(state: Uint32Array): number {
    const id = this.space.lookup(state);
    if (id >= 0) return this.h.of(id);
    return this.fallback ? this.fallback.known(state) : NaN;
  }

  hstar(state: Uint32Array): number {
    const id = this.space.lookup(state);
    // states outside the explored space (not reachable from the initial state) go to search
    return id >= 0 ? this.h.of(id) : this.search().hstar(state);
  }

  hstarAtMost(state: Uint32Array, bound: number): boolean {
    const id = this.space.lookup(state);
    return id >= 0 ? this.h.of(id) <= bound : this.search().hstarAtMost(state, bound);
  }

  optimalActions(state: Uint32Array): number[] {
    return optimalActionsOf(this, this.space, state);
  }

  reachableStates(): number {
    return this.space.size;
  }

  cachedStates(): number {
    return this.space.size;
  }

  deadEndProof(state: Uint32Array): DeadEndKind {
    this.hmax ??= new HMaxHeuristic(this.task);
    return proveDeadEnd(this.task, this.hmax, state, this.space.successorGenerator, this.limits);
  }
}

/**
 * A* + LM-Cut per query with shared caches (per task, one oracle per problem):
 * - `exact[id]`: proven h* (every state on a found optimal plan; dead ends of exhausted searches);
 * - `lower[id]`: a proven lower bound, the max of the state's LM-Cut value (computed once per
 *   state) and bounds learnt from failed bounded searches (h* > B when no plan of cost <= B).
 * Exact values end later searches at the cached state; lower bounds strengthen the heuristic.
 */
class SearchOracle implements Oracle {
  readonly mode = "search" as const;
  private readonly cache: StateSpace;
  private exact = new Float64Array(1024).fill(NaN);
  private lower = new Float64Array(1024).fill(NaN);
  private readonly lmcut: Heuristic;
  private hmax: HMaxHeuristic | null = null;
  private readonly exactFn: (s: Uint32Array) => number;
  private readonly heuristic: Heuristic;
  // id of the state of the last `exactFn` call: A* evaluates the heuristic right after it
  private pending = -1;
  private readonly ops: number[] = [];
  private readonly next: Uint32Array;
  /** A state copied out of the cache for one LM-Cut evaluation (`lowerOfId`). */
  private readonly probe: Uint32Array;
  /** The state the depth-first search expands (read only before it goes deeper). */
  private readonly cur: Uint32Array;
  private readonly positiveCosts: boolean;
  /** solve's WebAssembly search for unbounded queries (undefined: not made yet; null: none). */
  private kernel: SearchKernel | null | undefined;
  private kernelRuns = 0;
  /** The heuristic values of the states the kernel search generated, by projected state. */
  private projected: { reg: StateRegistry; h: Float64Array; mask: Uint32Array | null; scratch: Uint32Array } | null = null;

  constructor(
    private readonly task: GroundTask,
    private readonly limits: SearchLimits | undefined,
    succ?: SuccessorGenerator,
    private readonly outer?: (s: Uint32Array) => number,
    private readonly kernelAfter = KERNEL_AFTER,
  ) {
    this.cache = new StateSpace(task, succ);
    this.next = new Uint32Array(task.words);
    this.probe = new Uint32Array(task.words);
    this.cur = new Uint32Array(task.words);
    this.positiveCosts = task.opCost.every((c) => c > 0);
    this.lmcut = labellerLmCut(task);
    this.exactFn = (s) => {
      const id = this.cache.intern(s);
      this.grow(id);
      this.pending = id;
      const v = this.exact[id]!;
      if (v === v) return v;
      if (this.outer) {
        const o = this.outer(s);
        if (o === o) this.exact[id] = o;
        return o;
      }
      return NaN;
    };
    this.heuristic = {
      name: "lmcut+bounds",
      evaluate: (s) => {
        let id = this.pending;
        this.pending = -1;
        if (id < 0) {
          id = this.cache.intern(s);
          this.grow(id);
        }
        return this.lowerOf(id, s);
      },
    };
  }

  private grow(id: number): void {
    if (id < this.exact.length) return;
    let n = this.exact.length * 2;
    while (n <= id) n *= 2;
    const a = new Float64Array(n).fill(NaN);
    a.set(this.exact);
    this.exact = a;
    const b = new Float64Array(n).fill(NaN);
    b.set(this.lower);
    this.lower = b;
  }

  /** Best known lower bound of h*(state) (LM-Cut evaluated once per state). */
  private lowerOf(id: number, s: Uint32Array): number {
    const x = this.exact[id]!;
    if (x === x) return x;
    let l = this.lower[id]!;
    if (l !== l && this.projected !== null) {
      const p = this.projected;
      let q = s;
      if (p.mask !== null) {
        q = p.scratch;
        for (let w = 0; w < q.length; w++) q[w] = s[w]! & p.mask[w]!;
      }
      const k = p.reg.lookup(q);
      if (k >= 0) {
        l = p.h[k]!;
        this.lower[id] = l;
        if (l === Infinity) this.exact[id] = Infinity;
        return l;
      }
    }
    if (l !== l) {
      l = this.lmcut.evaluate(s);
      this.lower[id] = l;
      if (l === Infinity) this.exact[id] = Infinity;
    }
    return l;
  }

  /** `lowerOf` for a cached state: its words are copied out only when LM-Cut must run. */
  private lowerOfId(id: number): number {
    const x = this.exact[id]!;
    if (x === x) return x;
    const l = this.lower[id]!;
    return l === l ? l : this.lowerOf(id, this.cache.getInto(id, this.probe));
  }

  private setExact(state: Uint32Array, v: number): void {
    const id = this.cache.intern(state);
    this.grow(id);
    this.exact[id] = v;
  }

  known(state: Uint32Array): number {
    const id = this.cache.lookup(state);
    if (id >= 0) {
      const v = this.exact[id]!;
      if (v === v) return v;
    }
    return this.outer ? this.outer(state) : NaN;
  }

  /**
   * Why an h* query stopped: the run's time budget (a shared deadline, spent by the queries
   * before this one too: "23 ms" alone would read as a tiny query failing), or its own limits.
   */
  private limitError(expanded: number, ms: number | null): LimitError {
    const deadline = this.limits?.deadline;
    const took = ms === null ? "" : `, ${Math.round(ms)} ms`;
    if (deadline !== undefined && performance.now() >= deadline) {
      return new LimitError(`time limit reached while labelling (an h* query stopped after ${expanded} expansions${took})`);
    }
    return new LimitError(`h* query hit its limits after ${expanded} expansions${took}`);
  }

  /**
   * h*(state) by solve's own search (the WebAssembly kernel, from this state): the exact values
   * of the plan's states are cached. Null where the kernel does not run the task.
   */
  private runKernel(state: Uint32Array): number | null {
    if (this.kernel === undefined) this.kernel = this.outer === undefined ? solveKernel(this.task) : null;
    if (this.kernel === null) return null;
    this.kernelRuns++;
    const r = this.kernel.runFrom(state, this.limits ?? {});
    if (r.status === "limit") throw this.limitError(r.expanded, r.searchMs);
    const dead = r.status === "unsolvable";
    // What the search learnt stays, by projected state (h* of a state is that of its projection
    // onto the goal-relevant facts): each one's heuristic value, a lower bound of h* for every
    // state that projects to it, or after an exhausted search, that they are all dead ends.
    const reg = new StateRegistry(Math.max(1, this.task.words));
    const hs: number[] = [];
    this.kernel.forEachState((u, h) => {
      reg.intern(u);
      hs.push(dead ? Infinity : h);
    });
    this.projected = { reg, h: Float64Array.from(hs), mask: this.kernel.projection ?? null, scratch: new Uint32Array(Math.max(1, this.task.words)) };
    if (dead) {
      this.setExact(state, Infinity);
      return Infinity;
    }
    const cost = r.cost!;
    let s = state;
    let g = 0;
    this.setExact(s, cost);
    for (const op of r.plan) {
      s = applyOp(this.task, s, op);
      g += this.task.opCost[op]!;
      this.setExact(s, cost - g);
    }
    return cost;
  }

  /**
   * A* from `state` (optionally bounded); caches what it proves. Returns the cost or Infinity.
   * An unbounded query searches in JavaScript first (cached exact values end it early, and most
   * queries of small tasks are over within a few hundred states, less than making the kernel
   * costs); past `kernelAfter` expansions it starts again in solve's WebAssembly search.
   */
  private run(state: Uint32Array, bound: number): number {
    const maxExp = this.limits?.maxExpansions ?? Infinity;
    // once per oracle (kernelAfter 0: always): the kernel keeps nothing for later queries, while
    // the JavaScript search leaves every state's heuristic value and exact values on its plans
    // behind, which later queries of a problem need (folding's labels: 2.3 s after one kernel
    // search, 27 s with every long query in the kernel)
    const trial = bound === Infinity && this.kernel !== null && maxExp > this.kernelAfter && (this.kernelAfter === 0 || this.kernelRuns === 0);
    if (trial && this.kernelAfter === 0) {
      const k = this.runKernel(state);
      if (k !== null) return k;
    }
    const limits: SearchLimits | undefined = trial && this.kernel !== null ? { ...this.limits, maxExpansions: this.kernelAfter } : this.limits;
    const r = astarRun(this.task, this.heuristic, {
      start: state,
      exact: this.exactFn,
      successorGenerator: this.cache.successorGenerator,
      ...(bound !== Infinity ? { bound } : {}),
      ...(limits ? { limits } : {}),
    });
    this.pending = -1;
    if (trial && this.kernel !== null && r.status === "limit" && r.expanded >= this.kernelAfter) {
      const k = this.runKernel(state);
      if (k !== null) return k;
      return this.run(state, bound); // no kernel for this task: the JavaScript search, in full
    }
    if (r.status === "limit") throw this.limitError(r.expanded, r.searchMs);
    if (r.status === "unsolvable") {
      if (bound === Infinity) {
        // every state the search reached is reachable from `state`, hence a dead end too
        const sp = r.space;
        for (let id = 0; id < sp.size; id++) this.setExact(sp.get(id), Infinity);
        this.setExact(state, Infinity);
      } else {
        // no plan of cost <= bound: integer costs give h* >= bound + 1
        const id = this.cache.intern(state);
        this.grow(id);
        const l = this.lower[id]!;
        if (!(l >= bound + 1)) this.lower[id] = bound + 1;
      }
      return Infinity;
    }
    const cost = r.cost!;
    // h* along the plan: cost minus the cost so far
    let g = 0;
    for (let i = 0; i < r.pathIds.length; i++) {
      const s = r.space.get(r.pathIds[i]!);
      this.setExact(s, cost - g);
      if (i < r.plan.length) g += this.task.opCost[r.plan[i]!]!;
    }
    return cost;
  }

  hstar(state: Uint32Array): number {
    const k = this.known(state);
    if (k === k) return k;
    const id = this.cache.intern(state);
    this.grow(id);
    const lb = this.lowerOf(id, state);
    if (lb === Infinity) return Infinity;
    // An upper bound from successors with known h* (the walk's own plan is usually one step
    // away): then h* is ub unless a plan of cost <= ub - 1 exists, a bounded (cheaper) search.
    let ub = Infinity;
    const ops = this.ops;
    this.cache.applicable(state, ops);
    const next = this.next;
    const cost = this.task.opCost;
    for (let i = 0; i < ops.length && lb < ub; i++) {
      const c = cost[ops[i]!]!;
      if (c >= ub) continue;
      this.cache.apply(state, ops[i]!, next);
      const v = this.known(next);
      if (v === v && c + v < ub) ub = c + v;
    }
    if (ub === Infinity) return this.run(state, Infinity);
    if (lb < ub) {
      const r = this.deepen(id, ub - 1);
      if (r !== Infinity) return r;
    }
    this.setExact(state, ub);
    return ub;
  }

  hstarAtMost(state: Uint32Array, bound: number): boolean {
    if (bound === Infinity) return this.hstar(state) !== Infinity;
    const id = this.cache.intern(state);
    this.grow(id);
    const x = this.exact[id]!;
    if (x === x) return x <= bound;
    if (this.outer) {
      const o = this.outer(state);
      if (o === o) return o <= bound;
    }
    if (bound < 0 || this.lowerOf(id, state) > bound) return false;
    return this.deepen(id, bound) <= bound;
  }

  /**
   * h*(state with id `root`) if it is <= bound, else Infinity (and lower[root] > bound).
   * Iterative deepening with learning: each depth-first pass with budget b = lower[root] (a
   * proven lower bound) either finds a plan of cost b (then every state on it has exact h*
   * = its remaining budget, since h* >= b - g there) or raises the lower bound of every state it
   * gave up on to the cheapest c + lower over its successors (Bellman), so later passes and later
   * queries near the same states prune at once. LM-Cut runs at most once per state.
   */
  private deepen(root: number, bound: number): number {
    // units of work for the clock: expansions and successors' lower bounds (LM-Cut, the dear part)
    const clock = new DeadlineClock(searchDeadline(this.limits, performance.now()));
    const maxExp = this.limits?.maxExpansions ?? Infinity;
    let expanded = 0;
    // The budget each state was entered with in this pass. A state met again with no more
    // budget is skipped: whatever that visit can reach, the first one reaches too (a search of
    // (state, budget) pairs, pruned by dominance, is still complete). This also cuts cycles, and
    // it is what keeps zero-cost actions (elevators' board and leave) from exploding into every
    // ordering of the same moves.
    let seen = new Map<number, number>();
    const cost = this.task.opCost;
    const dfs = (u: number, budget: number, depth: number): boolean => {
      work.oracleNodes++;
      const state = this.cache.getInto(u, this.cur);
      if (this.cache.isGoal(state)) {
        this.exact[u] = 0;
        return true;
      }
      if (++expanded > maxExp || clock.passed() || depth > 10_000) {
        throw this.limitError(expanded, null);
      }
      // the successors are interned before going deeper: one buffer serves every level
      const ops = this.ops;
      this.cache.applicable(state, ops);
      const next = this.next;
      const ids: number[] = [];
      let best = Infinity;
      // known values first: a cached optimal plan from a successor ends the search at once
      for (let i = 0; i < ops.length; i++) {
        const c = cost[ops[i]!]!;
        this.cache.apply(state, ops[i]!, next);
        const v = this.cache.intern(next);
        this.grow(v);
        let x = this.exact[v]!;
        if (x !== x && this.outer) {
          x = this.outer(next);
          if (x === x) this.exact[v] = x;
        }
        if (x === x) {
          if (c + x <= budget) {
            this.exact[u] = budget;
            return true;
          }
          if (c + x < best) best = c + x;
        } else {
          ids.push(v, c);
        }
      }
      seen.set(u, budget);
      for (let i = 0; i < ids.length; i += 2) {
        const v = ids[i]!;
        const c = ids[i + 1]!;
        const l = this.lowerOfId(v);
        if (clock.passed()) throw this.limitError(expanded, null);
        if (c + l <= budget && !((seen.get(v) ?? -1) >= budget - c) && dfs(v, budget - c, depth + 1)) {
          this.exact[u] = budget;
          return true;
        }
        const l2 = this.exact[v] === this.exact[v] ? this.exact[v]! : this.lower[v]!;
        if (c + l2 < best) best = c + l2;
      }
      // Every visit has budget <= h*(u) (budget = b - g, b <= h*(root)). With positive costs an
      // optimal plan from u then never returns to an ancestor, and a state skipped as seen
      // either failed with at least this budget (so h* is above it) or is an ancestor, so a
      // failure proves h*(u) > budget (later passes and queries prune at once); Bellman:
      // h*(u) >= best in any case.
      if (this.positiveCosts && best < budget + 1) best = budget + 1;
      if (!(this.lower[u]! >= best)) this.lower[u] = best;
      if (best === Infinity) this.exact[u] = Infinity;
      return false;
    };
    for (;;) {
      const b = this.lowerOfId(root);
      if (b > bound) return Infinity;
      seen = new Map();
      if (dfs(root, b, 0)) return b;
      // a failed pass reached every state a plan of cost <= b could pass with its budget: h* > b. The
      // Bellman backup alone may not show it when zero-cost cycles lead back to the root.
      if (!(this.lower[root]! > b)) this.lower[root] = b + 1;
    }
  }

  optimalActions(state: Uint32Array): number[] {
    return optimalActionsOf(this, this.cache, state);
  }

  reachableStates(): number {
    return 0;
  }

  cachedStates(): number {
    return this.cache.size;
  }

  deadEndProof(state: Uint32Array): DeadEndKind {
    this.hmax ??= new HMaxHeuristic(this.task);
    return proveDeadEnd(this.task, this.hmax, state, this.cache.successorGenerator, this.limits);
  }
}

/**
 * Cheapest cost from `start` to a goal along a path that never enters a state for which
 * `forbidden` returns true (`start` included: a forbidden start gives Infinity), among paths of
 * cost <= `bound`; Infinity when no such path exists. A* with the oracle's h* (explicit mode) or
 * LM-Cut strengthened by cached h* values (search mode) as the admissible heuristic: with exact
 * h* and bound = h*(start), only optimal paths are explored. Throws LimitError on `limits`.
 *
 * The labeller's backtracking test (DESIGN.md §6): every optimal plan from s' passes through V
 * iff `costAvoiding(task, oracle, s', inV, hstar(s')) === Infinity`.
 */
export function costAvoiding(
  task: GroundTask,
  oracle: Oracle,
  start: Uint32Array,
  forbidden: (state: Uint32Array) => boolean,
  bound: number,
  limits?: SearchLimits,
): number {
  if (forbidden(start)) return Infinity;
  let h: Heuristic;
  if (oracle.mode === "explicit") {
    h = { name: "hstar", evaluate: (s) => oracle.hstar(s) };
  } else {
    const lmh = labellerLmCut(task);
    h = {
      name: "lmcut+cache",
      evaluate: (s) => {
        const k = oracle.known(s);
        return k === k ? k : lmh.evaluate(s);
      },
    };
  }
  const r = astarRun(task, h, { start, forbidden, bound, ...(limits ? { limits } : {}) });
  if (r.status === "limit") throw new LimitError(`avoidance search hit its limits after ${r.expanded} expansions`);
  return r.status === "solved" ? r.cost! : Infinity;
}
