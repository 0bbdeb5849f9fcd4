import type { GroundTask } from "../task/types.js";
import { IntMinQueue } from "./queue.js";
import { StateSpace } from "./space.js";
import { LimitError } from "./types.js";
import { work } from "./work.js";

/**
 * The explicit transition system reachable from one or more initial states: states interned in
 * exploration order and edges (successor id, operator) in CSR form by source, closed under
 * successors. Tasks that differ only in initial state and goal (the blocksworld with n blocks,
 * the 8-puzzle) have the same transitions, so one graph serves all of them: h* for another goal
 * is one backward Dijkstra over edges already built (see `TransitionGraphCache`).
 */
export class TransitionGraph {
  readonly space: StateSpace;
  private edgeStart: Int32Array<ArrayBuffer> = new Int32Array(1024);
  private dst: Int32Array<ArrayBuffer> = new Int32Array(4096);
  private eop: Int32Array<ArrayBuffer> = new Int32Array(4096);
  private m = 0;
  /** States 0 .. expanded-1 have their edges; the graph is closed when expanded = size. */
  private expanded = 0;
  private rev: { n: number; start: Int32Array; src: Int32Array; cost: Int32Array; unit: boolean; maxCost: number } | null = null;

  constructor(readonly task: GroundTask) {
    this.space = new StateSpace(task);
  }

  get states(): number {
    return this.space.size;
  }

  get edges(): number {
    return this.m;
  }

  /**
   * Add the states reachable from `init` (a state of a task with the same transitions). Returns
   * false when the graph would pass `maxStates` or `maxEdges`: it is then no longer closed and
   * must not be used. Throws LimitError past `deadline` (performance.now() time).
   */
  extend(init: Uint32Array, maxStates: number, maxEdges: number, deadline = Infinity): boolean {
    const space = this.space;
    space.intern(init);
    const cur = new Uint32Array(this.task.words);
    const next = new Uint32Array(this.task.words);
    const ops = new Int32Array(Math.max(1, this.task.numOps));
    for (let id = this.expanded; id < space.size; id++) {
      work.graphStates++;
      // the build honours the time limit: a LimitError skips the problem instead of hanging
      if ((id & 1023) === 1023 && deadline !== Infinity && performance.now() > deadline) {
        throw new LimitError(`explicit h* oracle: time limit reached after exploring ${space.size} states`);
      }
      space.getInto(id, cur);
      if (id + 1 >= this.edgeStart.length) this.edgeStart = grow(this.edgeStart, id + 2);
      this.edgeStart[id] = this.m;
      const k = space.applicableInto(cur, ops);
      if (this.m + k > this.dst.length) {
        this.dst = grow(this.dst, this.m + k);
        this.eop = grow(this.eop, this.m + k);
      }
      const dst = this.dst;
      const eop = this.eop;
      let m = this.m;
      for (let i = 0; i < k; i++) {
        const op = ops[i]!;
        space.apply(cur, op, next);
        dst[m] = space.intern(next);
        eop[m] = op;
        m++;
      }
      this.m = m;
      this.expanded = id + 1;
      if (space.size > maxStates || this.m > maxEdges) return false;
    }
    this.edgeStart[space.size] = this.m;
    return true;
  }

  /**
   * Drop the spare capacity of a closed graph that is kept for later problems (most of a small
   * graph's arrays were room to grow: 6 of 9.6 MB over spanner's 181 cached graphs). A later
   * `extend` grows them again.
   */
  compact(): void {
    const n = this.space.size;
    if (this.edgeStart.length > n + 1) this.edgeStart = this.edgeStart.slice(0, n + 1);
    if (this.dst.length > this.m) {
      this.dst = this.dst.slice(0, this.m);
      this.eop = this.eop.slice(0, this.m);
    }
    this.space.registry.compact();
  }

  /** Reverse edges (CSR by destination), rebuilt after the graph grew. */
  private reverse(): NonNullable<TransitionGraph["rev"]> {
    const n = this.space.size;
    if (this.rev !== null && this.rev.n === n) return this.rev;
    const m = this.m;
    const edgeStart = this.edgeStart;
    const dst = this.dst;
    const eop = this.eop;
    const start = new Int32Array(n + 1);
    for (let e = 0; e < m; e++) start[dst[e]! + 1]!++;
    for (let v = 0; v < n; v++) start[v + 1]! += start[v]!;
    const opCost = this.task.opCost;
    let maxCost = 0;
    let minCost = Infinity;
    for (let e = 0; e < m; e++) {
      const c = opCost[eop[e]!]!;
      if (c > maxCost) maxCost = c;
      if (c < minCost) minCost = c;
    }
    // breadth-first order is distance order only when every transition costs 1
    const unit = m === 0 || (minCost === 1 && maxCost === 1);
    const fill = start.slice(0, n);
    const src = new Int32Array(m);
    // edge costs only for Dijkstra: breadth-first search never reads them
    const cost = new Int32Array(unit ? 0 : m);
    for (let u = 0; u < n; u++) {
      for (let e = edgeStart[u]!, end = edgeStart[u + 1]!; e < end; e++) {
        const k = fill[dst[e]!]!++;
        src[k] = u;
        if (!unit) cost[k] = opCost[eop[e]!]!;
      }
    }
    return (this.rev = { n, start, src, cost, unit, maxCost });
  }

  /**
   * h* for the goal of `task` (which must have this graph's transitions) on the closed graph,
   * computed lazily: a backward search from all goal states that runs only as far as queries need.
   */
  goalDistances(task: GroundTask): GoalDistances {
    const r = this.reverse();
    return new GoalDistances(r.n, r.start, r.src, r.cost, r.unit, r.maxCost, this.space.registry.matching(task.goalPos, task.goalNeg));
  }
}

/**
 * Distances to the goal over reverse edges, settled on demand: breadth-first with unit costs,
 * else Dijkstra. A labelling walk asks about states near an optimal plan, which the search
 * reaches long before it has covered a space of hundreds of thousands of states.
 */
export class GoalDistances {
  private readonly d: Float64Array;
  /** Unit costs: discovered = settled; a FIFO of discovered states not yet expanded. */
  private readonly fifo: Int32Array | null;
  private head = 0;
  private tail = 0;
  private readonly heap: IntMinQueue | null;
  private readonly settled: Uint8Array | null;

  constructor(
    n: number,
    private readonly start: Int32Array,
    private readonly src: Int32Array,
    private readonly cost: Int32Array,
    unit: boolean,
    maxCost: number,
    goals: Int32Array,
  ) {
    this.d = new Float64Array(n).fill(Infinity);
    if (unit) {
      this.fifo = new Int32Array(n);
      this.heap = null;
      this.settled = null;
    } else {
      this.fifo = null;
      this.heap = new IntMinQueue(maxCost <= 100);
      this.settled = new Uint8Array(n);
    }
    for (let i = 0; i < goals.length; i++) {
      const v = goals[i]!;
      this.d[v] = 0;
      if (this.fifo !== null) this.fifo[this.tail++] = v;
      else this.heap!.push(0, v);
    }
  }

  /** h* of state `id` (Infinity: no goal state is reachable from it). */
  of(id: number): number {
    if (this.fifo !== null) {
      const d = this.d;
      const fifo = this.fifo;
      const start = this.start;
      const src = this.src;
      while (d[id] === Infinity && this.head < this.tail) {
        const v = fifo[this.head++]!;
        const nd = d[v]! + 1;
        for (let k = start[v]!, end = start[v + 1]!; k < end; k++) {
          const u = src[k]!;
          if (d[u] === Infinity) {
            d[u] = nd;
            fifo[this.tail++] = u;
          }
        }
      }
      return d[id]!;
    }
    const q = this.heap!;
    const settled = this.settled!;
    const d = this.d;
    while (settled[id] === 0 && !q.empty) {
      const v = q.pop();
      const dv = q.lastKey;
      if (settled[v] !== 0 || dv > d[v]!) continue;
      settled[v] = 1;
      for (let k = this.start[v]!, end = this.start[v + 1]!; k < end; k++) {
        const u = this.src[k]!;
        const nd = dv + this.cost[k]!;
        if (nd < d[u]!) {
          d[u] = nd;
          q.push(nd, u);
        }
      }
    }
    return settled[id] !== 0 ? d[id]! : Infinity;
  }
}

function grow(a: Int32Array, need: number): Int32Array<ArrayBuffer> {
  let n = Math.max(16, a.length * 2); // a compacted array may be empty
  while (n < need) n *= 2;
  const b = new Int32Array(n);
  b.set(a);
  return b;
}

/** The arrays that decide a task's transitions (on packed states), for `sameTransitions`. */
function transitionArrays(t: GroundTask): ArrayLike<number>[] {
  return [
    t.opCost, t.preStart, t.pre, t.negPreStart, t.negPre, t.addStart, t.add, t.delStart, t.del,
    t.ceStart, t.ceCondStart, t.ceCond, t.ceNegCondStart, t.ceNegCond, t.ceFact, t.ceIsAdd,
    t.axHead, t.axLayer, t.axBodyStart, t.axBody, t.axNegBodyStart, t.axNegBody, t.factDerived,
  ];
}

/** A hash of everything that decides a task's transitions (not its initial state or goal). */
export function transitionHash(t: GroundTask): number {
  let h = Math.imul(0x811c9dc5 ^ t.numFacts, 16777619) ^ t.numOps;
  for (const a of transitionArrays(t)) {
    h = Math.imul(h ^ a.length, 16777619);
    for (let i = 0; i < a.length; i++) h = Math.imul(h ^ a[i]!, 16777619);
  }
  return h >>> 0;
}

/** True when `a` and `b` have the same facts, operators and transitions (names aside). */
export function sameTransitions(a: GroundTask, b: GroundTask): boolean {
  if (a.numFacts !== b.numFacts || a.numOps !== b.numOps || a.numAxioms !== b.numAxioms) return false;
  const xs = transitionArrays(a);
  const ys = transitionArrays(b);
  for (let k = 0; k < xs.length; k++) {
    const x = xs[k]!;
    const y = ys[k]!;
    if (x.length !== y.length) return false;
    for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
  }
  return true;
}

/**
 * The task as a cached graph keeps it: what decides its transitions, without the names and the
 * parsed problem's objects and facts. A graph outlives the problem that built it, and those were
 * most of its memory (spanner's 179 cached graphs held 9.6 MB of heap with them, 1.7 MB without).
 */
export function transitionsOnly(t: GroundTask): GroundTask {
  return { ...t, problem: { ...t.problem, objects: [], init: [] }, objects: [], objectTypes: [], factNames: [], factPredicate: [], opNames: [] };
}

interface CacheEntry {
  graph: TransitionGraph;
  lastUse: number;
}

/** Caps of a `TransitionGraphCache`. */
export interface TransitionGraphCaps {
  /** States and transitions of one graph. */
  maxStates: number;
  maxEdges: number;
  /**
   * Size of all graphs kept, in transitions plus `STATE_WEIGHT` per state (a state costs about
   * three transitions' worth of memory) plus `GRAPH_BASE_WEIGHT` per graph; the least recently
   * used graphs go first.
   */
  maxTotalWeight: number;
}

/** Memory of a state in a graph (registry, CSR offsets) in units of one transition (both directions). */
const STATE_WEIGHT = 3;
/**
 * Memory of a graph whatever its size, in the same units: the task it was built from, its
 * successor index and the arrays allocated up front, about 120 KB for an elevator system.
 * Without it, thousands of small graphs fitted under the cap (elevator at 4x the paper's corpus:
 * 41 graphs and 5 MB more per 2,000 problems, growing for the whole run).
 */
export const GRAPH_BASE_WEIGHT = 6_000;
const weightOf = (g: TransitionGraph): number => GRAPH_BASE_WEIGHT + g.edges + STATE_WEIGHT * g.states;

/** Transition systems remembered by hash alone (a collision there only means no graph). */
const MAX_REMEMBERED = 100_000;

/**
 * Transition graphs by transition system, for a run of many problems (one cache per thread):
 * a graph is built once, extended by each new initial state, and reused (only ever for tasks
 * whose transitions equal its own, compared in full). A system whose graph passes the caps is
 * remembered and not tried again. When to ask for a graph is the caller's policy.
 */
export class TransitionGraphCache {
  private readonly tooBig = new Set<number>();
  private readonly graphs = new Map<number, CacheEntry[]>();
  private clock = 0;
  private totalWeight = 0;
  /** True when the last `graphFor` built a new graph (rather than reusing or extending one). */
  lastBuiltNew = false;

  constructor(readonly caps: TransitionGraphCaps) {}

  /** Graphs kept. */
  get size(): number {
    let n = 0;
    for (const list of this.graphs.values()) n += list.length;
    return n;
  }

  /** The closed graph holding `task.init` for a recurring transition system, else null. */
  graphFor(task: GroundTask, deadline = Infinity): TransitionGraph | null {
    this.lastBuiltNew = false;
    const key = transitionHash(task);
    if (this.tooBig.has(key)) return null;
    const list = this.graphs.get(key);
    let e = list?.find((x) => sameTransitions(x.graph.task, task));
    if (e === undefined) {
      e = { graph: new TransitionGraph(transitionsOnly(task)), lastUse: 0 };
      if (list === undefined) this.graphs.set(key, [e]);
      else list.push(e);
    }
    e.lastUse = ++this.clock;
    const g = e.graph;
    this.lastBuiltNew = g.states === 0;
    const before = this.lastBuiltNew ? 0 : weightOf(g); // a new graph is counted from nothing
    const statesBefore = g.states;
    let ok = false;
    try {
      ok = g.extend(task.init, this.caps.maxStates, this.caps.maxEdges, deadline);
    } finally {
      this.totalWeight += weightOf(g) - before;
      // a graph that stopped half-way is not closed: drop it (over the caps: for good)
      if (!ok) {
        this.drop(key, e);
        if (g.states > this.caps.maxStates || g.edges > this.caps.maxEdges) {
          if (this.tooBig.size >= MAX_REMEMBERED) this.tooBig.clear();
          this.tooBig.add(key);
        }
      }
    }
    if (!ok) return null;
    if (g.states !== statesBefore) g.compact();
    this.evict(e);
    return g;
  }

  private drop(key: number, e: CacheEntry): void {
    const list = this.graphs.get(key);
    if (list === undefined) return;
    const i = list.indexOf(e);
    if (i < 0) return;
    list.splice(i, 1);
    if (list.length === 0) this.graphs.delete(key);
    this.totalWeight -= weightOf(e.graph);
  }

  /** Drop least recently used graphs (never `keep`) until the total fits the cap. */
  private evict(keep: CacheEntry): void {
    if (this.totalWeight <= this.caps.maxTotalWeight) return;
    const live: Array<[number, CacheEntry]> = [];
    for (const [key, list] of this.graphs) for (const x of list) live.push([key, x]);
    live.sort((a, b) => a[1].lastUse - b[1].lastUse);
    for (const [key, x] of live) {
      if (this.totalWeight <= this.caps.maxTotalWeight) break;
      if (x !== keep) this.drop(key, x);
    }
  }
}
