import { LimitError } from "../search/types.js";
import { applyOp, explainAction, isGoal } from "../task/index.js";
import {
  applicableVariant,
  applicableOps,
  checkDeadline,
  hstar,
  hstarAtMost,
  knownHstar,
  stateId,
  successor,
  type LabelContext,
} from "./context.js";
import { REWARD, type Candidate, type Category, type DeadEndProof, type Evidence } from "./types.js";
import type { GroundTask } from "../task/types.js";

/** The label of one candidate: category, reward and evidence (DESIGN.md §6). */
export interface Label {
  category: Category;
  reward: number;
  evidence: Evidence;
}

function evidence(): Evidence {
  return {
    failedPreconditions: [],
    hBefore: null,
    hAfter: null,
    extraCost: null,
    cost: null,
    backtrackTo: null,
    deadEnd: null,
  };
}

function label(category: Category, ev: Evidence): Label {
  return { category, reward: REWARD[category], evidence: ev };
}

// The visited set of the last call, by array identity and length: the walk labels many
// candidates against the same V, and a walk (or a judged plan) that pushes its next state onto
// the same array gets its index extended by that state, not rebuilt: a walk of n states costs
// O(n) index work, not O(n^2) (issue 50: a 20,000-step plan took minutes).
let lastVisited: {
  ref: readonly Uint32Array[];
  len: number;
  last: Uint32Array | undefined;
  ctx: LabelContext;
  index: Map<number, number>;
} | null = null;

/**
 * Registry id -> smallest walk index j with s_j = that state. A visited array given again is
 * read as append-only: if it has grown at its end since the last call (its entry where it ended
 * is the same object), only the new entries are added.
 */
export function visitedIndex(ctx: LabelContext, visited: readonly Uint32Array[]): Map<number, number> {
  const last = visited[visited.length - 1];
  const c = lastVisited;
  if (c && c.ref === visited && c.ctx === ctx && c.len <= visited.length && c.len > 0 && visited[c.len - 1] === c.last) {
    for (let j = c.len; j < visited.length; j++) {
      const id = stateId(ctx, visited[j]!);
      if (!c.index.has(id)) c.index.set(id, j);
    }
    c.len = visited.length;
    c.last = last;
    return c.index;
  }
  const index = new Map<number, number>();
  for (let j = 0; j < visited.length; j++) {
    const id = stateId(ctx, visited[j]!);
    if (!index.has(id)) index.set(id, j);
  }
  lastVisited = { ref: visited, len: visited.length, last, ctx, index };
  return index;
}

/**
 * Does every optimal plan from s' pass through a visited state? Decided exactly: explore from s'
 * along optimal edges only (c(a) + h*(t') = h*(t); every optimal plan from s' uses only such
 * edges and every such path extends to an optimal plan) with the visited states forbidden. A
 * goal reached this way is an optimal plan avoiding V, i.e. the best V-avoiding cost equals
 * h*(s'); exhausting the exploration means that cost is > h*(s').
 *
 * `backtrackTo` is the smallest walk index j such that s_j is the first visited state met by some
 * optimal plan from s' (the index of s' itself when s' ∈ V). These s_j are exactly the visited
 * states one optimal edge away from the explored V-free region.
 */
export function backtrackCheck(
  ctx: LabelContext,
  next: Uint32Array,
  nextId: number,
  vIndex: ReadonlyMap<number, number>,
): { backtracking: boolean; backtrackTo: number | null } {
  const own = vIndex.get(nextId);
  if (own !== undefined) return { backtracking: true, backtrackTo: own };
  const task = ctx.task;
  const seen = new Set<number>([nextId]);
  // Depth-first and lazy: a successor's h* is asked only when the search gets to it, so a
  // V-free optimal plan (the common, suboptimal case) is found without the h* of every sibling.
  interface Frame {
    h: number;
    /** Successors (registry ids) in the order tried: known optimal edges first, then undecided ones. */
    ids: number[];
    costs: number[];
    next: number;
  }
  // Successors are made in one buffer and interned; a (registry) view is made only for those
  // the search gets to (it stops at the first V-free optimal plan).
  const ops: number[] = [];
  const scratch = new Uint32Array(task.words);
  const frame = (state: Uint32Array, h: number): Frame => {
    ctx.successors.applicable(state, ops); // ascending
    const f: Frame = { h, ids: [], costs: [], next: 0 };
    const later: number[] = [];
    for (const op of ops) {
      const c = task.opCost[op]!;
      if (c > h) continue;
      applyOp(task, state, op, scratch);
      const uid = stateId(ctx, scratch);
      // cached exact values decide an edge for free; only undecided ones cost a query
      const k = knownHstar(ctx, scratch, uid);
      if (k === k) {
        if (c + k !== h) continue;
        f.ids.push(uid);
        f.costs.push(c);
      } else {
        later.push(op, uid);
      }
    }
    for (let i = 0; i < later.length / 2; i++) {
      f.ids.push(later[2 * i + 1]!);
      f.costs.push(task.opCost[later[2 * i]!]!);
    }
    return f;
  };
  if (isGoal(task, next)) return { backtracking: false, backtrackTo: null };
  const stack: Frame[] = [frame(next, hstar(ctx, next, nextId))];
  let first = Infinity;
  while (stack.length > 0) {
    const f = stack[stack.length - 1]!;
    if (f.next >= f.ids.length) {
      stack.pop();
      continue;
    }
    const i = f.next++;
    const c = f.costs[i]!;
    const uid = f.ids[i]!;
    const u = ctx.registry.get(uid);
    const j = vIndex.get(uid);
    if (j !== undefined) {
      // only optimal edges into V count: plans through them meet V first there
      if (j < first && hstarAtMost(ctx, u, uid, f.h - c)) first = j;
      continue;
    }
    if (seen.has(uid)) continue;
    // h*(u) >= f.h - c always: the edge is optimal iff h*(u) <= f.h - c (a bounded query)
    if (!hstarAtMost(ctx, u, uid, f.h - c)) continue;
    seen.add(uid);
    if (isGoal(task, u)) return { backtracking: false, backtrackTo: null };
    stack.push(frame(u, f.h - c));
    if (seen.size > ctx.maxStates) throw new LimitError(`backtracking check exceeded ${ctx.maxStates} states`);
    if ((seen.size & 1023) === 0) checkDeadline(ctx);
  }
  if (first === Infinity) {
    // s' is solvable, so some optimal plan exists; if none avoids V, one must meet V.
    throw new Error("internal: optimal-edge exploration found neither the goal nor a visited state");
  }
  return { backtracking: true, backtrackTo: first };
}

/**
 * How h*(s') = ∞ is proved (by the oracle): the goal is unreachable even in the delete relaxation
 * (h^max = ∞), or an exhaustive search from s' (its state count) found no goal. Cached per s'.
 */
export function deadEndProof(ctx: LabelContext, next: Uint32Array, nextId: number): DeadEndProof {
  const hit = ctx.deadEndProofs.get(nextId);
  if (hit) return hit;
  checkDeadline(ctx);
  const t0 = performance.now();
  const proof = ctx.oracle.deadEndProof(next);
  ctx.stats.hstarMs += performance.now() - t0;
  ctx.deadEndProofs.set(nextId, proof);
  return proof;
}

/**
 * Label one candidate action at state s = st of a walk that visited s0..st (DESIGN.md §6, rows
 * checked in order): non-executable, dead-end, optimal, backtracking, suboptimal.
 * `visited` must end with `state`; an array given again may have grown at its end, but its
 * earlier entries must not change (see `visitedIndex`). Throws LimitError when a limit is hit.
 */
export function classify(
  ctx: LabelContext,
  state: Uint32Array,
  visited: readonly Uint32Array[],
  candidate: Candidate,
): Label {
  const task = ctx.task;
  const ev = evidence();
  const sId = stateId(ctx, state);
  const h = hstar(ctx, state, sId);
  ev.hBefore = h === Infinity ? null : h;

  const op = applicableVariant(ctx, state, candidate.schema, candidate.args);
  if (op < 0) {
    ev.failedPreconditions = explainAction(task, state, candidate.schema, candidate.args).failed;
    return label("non-executable", ev);
  }
  const cost = task.opCost[op]!;
  ev.cost = cost;
  const next = successor(ctx, state, op);
  const nextId = stateId(ctx, next);
  const h2 = hstar(ctx, next, nextId);
  if (h2 === Infinity) {
    ev.deadEnd = deadEndProof(ctx, next, nextId);
    return label("dead-end", ev);
  }
  ev.hAfter = h2;
  // s' solvable implies s solvable, so h is finite here.
  ev.extraCost = cost + h2 - h;
  if (cost + h2 === h) return label("optimal", ev);
  const bt = backtrackCheck(ctx, next, nextId, visitedIndex(ctx, visited));
  if (bt.backtracking) {
    ev.backtrackTo = bt.backtrackTo;
    return label("backtracking", ev);
  }
  return label("suboptimal", ev);
}

/** Labels of every executable action at s (one per distinct action name), by candidate name. */
export function labelExecutable(
  ctx: LabelContext,
  state: Uint32Array,
  visited: readonly Uint32Array[],
): { candidate: Candidate; label: Label }[] {
  const out: { candidate: Candidate; label: Label }[] = [];
  const names = new Set<string>();
  for (const op of applicableOps(ctx, state)) {
    const name = ctx.task.opNames[op]!;
    if (names.has(name)) continue;
    names.add(name);
    const candidate = opCandidate(ctx, op);
    out.push({ candidate, label: classify(ctx, state, visited, candidate) });
  }
  return out;
}

/** The candidate for ground operator `op` of `task` (its arguments copied without a view). */
export function operatorCandidate(task: GroundTask, op: number): Candidate {
  const from = task.opArgStart[op]!;
  const args: number[] = new Array(task.opArgStart[op + 1]! - from);
  for (let i = 0; i < args.length; i++) args[i] = task.opArgs[from + i]!;
  return { schema: task.opSchema[op]!, args, name: task.opNames[op]!, op };
}

/** The candidate for a ground operator of the task. */
export function opCandidate(ctx: LabelContext, op: number): Candidate {
  return operatorCandidate(ctx.task, op);
}
