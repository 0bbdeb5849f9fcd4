import type { GroundTask } from "../task/types.js";
import type { SuccessorGenerator } from "../task/index.js";
import { DeadlineClock, LimitError, searchDeadline, type Heuristic, type SearchLimits, type SearchResult } from "./types.js";
import { OpenList } from "./queue.js";
import { StateSpace } from "./space.js";
import { sortByKey } from "../util/sort.js";
import { countSearch } from "./work.js";

/** Extra knobs of the A* core (used by the oracle and the labeller's avoidance search). */
export interface AStarOptions {
  limits?: SearchLimits;
  /** Start state (default: the task's initial state). */
  start?: Uint32Array;
  /** Only look for plans of cost <= bound (nodes with f > bound are not opened). */
  bound?: number;
  /**
   * States for which this returns true are never entered (the start state is not checked).
   * The argument is a scratch buffer: read it, do not keep it.
   */
  forbidden?: (state: Uint32Array) => boolean;
  /**
   * Known exact h* of a state, or NaN when unknown. Used instead of the heuristic; a state with
   * an exact value ends the search when it is expanded (its f is then the optimal cost).
   */
  exact?: (state: Uint32Array) => number;
  /** Operators with mask 0 are never applied (e.g. `goalRelevance(task).ops`); default: all. */
  opMask?: Uint8Array;
  /**
   * Project every state onto these facts (a packed fact mask, e.g. `goalRelevance(task).factWords`):
   * facts outside are cleared. Only sound when no goal, applied operator or axiom reads them.
   */
  factMask?: Uint32Array;
  /** Reuse a successor generator across searches on the same task. */
  successorGenerator?: SuccessorGenerator;
  /**
   * Generate successors in increasing order of this position per operator (e.g.
   * `successorOrder(task)`); default: by operator id. Only ties among equal (f, h) depend on it.
   */
  successorOrder?: Int32Array;
}

/** A* outcome plus what the oracle needs to cache: the state space and the solution path. */
export interface AStarRun extends SearchResult {
  space: StateSpace;
  /** Ids (in `space`) of the states along the plan, start first; empty unless solved. */
  pathIds: number[];
  /** Exact remaining cost at the last path state (0 at a goal; a cached h* otherwise). */
  endH: number;
  /**
   * Expansions before the first expansion at the final f value (Fast Downward's "expanded until
   * last jump"): independent of tie-breaking among equal f, so it compares heuristics alone.
   */
  expandedUntilLastJump: number;
  /** Expanded states put back on the open list by a cheaper path (Fast Downward's "reopened"). */
  reopened: number;
}

const DEAD = -2;

/**
 * A* with reopening, tie-breaking on (f, h, FIFO) like Fast Downward's `astar`, goal test at
 * expansion. Counts follow Fast Downward: `expanded` includes the goal node, `generated` counts
 * every successor (duplicates included), `evaluated` counts heuristic evaluations (initial state
 * included; states are evaluated once, reopening reuses the value).
 */
export function astarRun(task: GroundTask, heuristic: Heuristic, options: AStarOptions = {}): AStarRun {
  const t0 = performance.now();
  const limits = options.limits ?? {};
  const maxExp = limits.maxExpansions ?? Infinity;
  // units of work for the clock: expansions and heuristic evaluations (the dear part)
  const clock = new DeadlineClock(searchDeadline(limits, t0));
  const bound = options.bound ?? Infinity;
  const forbidden = options.forbidden;
  const exact = options.exact;
  const opMask = options.opMask;
  const factMask = options.factMask;
  const words = task.words;
  // Small at first: most searches are the labeller's short h* queries, many per problem, and
  // zeroing tables for a thousand states each time cost more than growing the few large ones.
  let cap = 64;
  const space = new StateSpace(task, options.successorGenerator, cap);
  const opCost = task.opCost;
  const order = options.successorOrder;

  let g = new Int32Array(cap);
  let hv = new Int32Array(cap);
  let parent = new Int32Array(cap);
  let parentOp = new Int32Array(cap);
  let closed = new Uint8Array(cap);
  let exactFlag = new Uint8Array(cap);
  const grow = (need: number): void => {
    let n = cap;
    while (n <= need) n *= 2;
    const g2 = new Int32Array(n);
    g2.set(g);
    g = g2;
    const h2 = new Int32Array(n);
    h2.set(hv);
    hv = h2;
    const p2 = new Int32Array(n);
    p2.set(parent);
    parent = p2;
    const o2 = new Int32Array(n);
    o2.set(parentOp);
    parentOp = o2;
    const c2 = new Uint8Array(n);
    c2.set(closed);
    closed = c2;
    const e2 = new Uint8Array(n);
    e2.set(exactFlag);
    exactFlag = e2;
    cap = n;
  };

  let expanded = 0;
  let generated = 0;
  let evaluated = 0;
  let lastF = -1;
  let untilJump = 0;
  let reopened = 0;
  const result = (status: SearchResult["status"], initialH: number | null): AStarRun => (countSearch(expanded, generated, evaluated), {
    status,
    cost: null,
    plan: [],
    initialH,
    expanded,
    generated,
    evaluated,
    searchMs: performance.now() - t0,
    space,
    pathIds: [],
    endH: 0,
    expandedUntilLastJump: untilJump,
    reopened,
  });

  /** Heuristic value (or exact value) of a fresh state; DEAD for Infinity. */
  const evalState = (id: number, s: Uint32Array): number => {
    if (exact !== undefined) {
      const x = exact(s);
      if (x === x) {
        exactFlag[id] = 1;
        return x === Infinity ? DEAD : x;
      }
    }
    evaluated++;
    const h = heuristic.evaluate(s);
    return h === Infinity ? DEAD : h;
  };

  let start = options.start ?? task.init;
  if (factMask !== undefined) {
    start = start.slice();
    for (let w = 0; w < words; w++) start[w]! &= factMask[w]!;
  }
  const startId = space.intern(start);
  if (startId >= cap) grow(startId);
  let known = space.size;
  const h0 = evalState(startId, start);
  hv[startId] = h0;
  if (h0 === DEAD) return result("unsolvable", null);
  if (h0 > bound) return result("unsolvable", h0);
  g[startId] = 0;
  parent[startId] = -1;
  parentOp[startId] = -1;
  const open = new OpenList();
  open.push(h0, h0, startId);

  const cur = new Uint32Array(task.words);
  const next = new Uint32Array(task.words);
  const ops: number[] = [];

  while (open.size > 0) {
    const f = open.peekF();
    const id = open.pop();
    if (closed[id] === 1) continue;
    const gid = g[id]!;
    const hid = hv[id]!;
    if (f !== gid + hid) continue; // stale entry from before a cheaper path was found
    if (expanded >= maxExp) return result("limit", hv[startId] === DEAD ? null : hv[startId]!);
    if (clock.passed()) return result("limit", hv[startId]!);
    closed[id] = 1;
    if (f > lastF) {
      lastF = f;
      untilJump = expanded;
    }
    expanded++;
    space.getInto(id, cur);
    if (exactFlag[id] === 1 || space.isGoal(cur)) {
      const endH = exactFlag[id] === 1 ? hid : 0;
      const pathIds: number[] = [];
      const plan: number[] = [];
      for (let x = id; x !== -1; x = parent[x]!) {
        pathIds.push(x);
        if (parent[x] !== -1) plan.push(parentOp[x]!);
      }
      pathIds.reverse();
      plan.reverse();
      countSearch(expanded, generated, evaluated);
      return {
        status: "solved",
        cost: gid + endH,
        plan,
        initialH: hv[startId]!,
        expanded,
        generated,
        evaluated,
        searchMs: performance.now() - t0,
        space,
        pathIds,
        endH,
        expandedUntilLastJump: untilJump,
        reopened,
      };
    }
    space.applicable(cur, ops);
    // insertion sort at any length: successor lists are short
    if (order !== undefined) sortByKey(ops, order, Infinity);
    for (let i = 0; i < ops.length; i++) {
      const op = ops[i]!;
      if (opMask !== undefined && opMask[op] === 0) continue;
      space.applyProjected(cur, op, next, factMask);
      generated++;
      if (forbidden !== undefined && forbidden(next)) continue;
      const ng = gid + opCost[op]!;
      // (g is kept in 32 bits: a path past 2^31 - 1 is refused, never wrapped)
      if (ng > 0x7fffffff) throw new LimitError(`a path cost passes 2147483647 (pddl2prm adds costs in 32 bits)`);
      const sid = space.intern(next);
      if (sid >= known) {
        // a new state
        if (sid >= cap) grow(sid);
        known = space.size;
        const h = evalState(sid, next);
        hv[sid] = h;
        closed[sid] = 0;
        if (clock.passed()) return result("limit", hv[startId]!);
        if (h === DEAD) continue;
        g[sid] = ng;
        parent[sid] = id;
        parentOp[sid] = op;
        if (ng + h <= bound) open.push(ng + h, h, sid);
      } else {
        const h = hv[sid]!;
        if (h === DEAD || ng >= g[sid]!) continue;
        // cheaper path to a known state: reopen
        if (closed[sid] === 1) reopened++;
        g[sid] = ng;
        parent[sid] = id;
        parentOp[sid] = op;
        closed[sid] = 0;
        if (ng + h <= bound) open.push(ng + h, h, sid);
      }
    }
  }
  return result("unsolvable", hv[startId] === DEAD ? null : hv[startId]!);
}

/** A* from the task's initial state (see `astarRun` for counts, tie-breaking and `options`). */
export function astar(task: GroundTask, h: Heuristic, limits?: SearchLimits, options: AStarOptions = {}): SearchResult {
  const r = astarRun(task, h, { ...options, ...(limits ? { limits } : {}) });
  return {
    status: r.status,
    cost: r.cost,
    plan: r.plan,
    initialH: r.initialH,
    expanded: r.expanded,
    generated: r.generated,
    evaluated: r.evaluated,
    searchMs: r.searchMs,
  };
}

