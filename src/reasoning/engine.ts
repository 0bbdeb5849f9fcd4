/**
 * Exact answers to the reasoning questions (docs/reasoning.md): applicability and progression
 * read off the ground task; reachability, action reachability and landmarks proved by an
 * invariant (a mutex group), by the delete relaxation (a fact it cannot reach is unreachable)
 * or by an exhaustive search from the state; validation and justification by replaying plans;
 * the next action by the labeller's h*. Every answer carries how it was proved; a question whose
 * proof runs out of budget is skipped, never guessed.
 */
import { StateSpace } from "../search/space.js";
import { computeFactGroups, type GroundTask } from "../task/index.js";
import { applyOp, hasFact, isApplicable, isGoal } from "../task/state.js";

/** How an answer was proved. */
export type Proof = "state" | "effects" | "mutex" | "relaxation" | "search" | "replay" | "hstar";

/** An exact answer, or null when its proof ran out of budget. */
export interface Proved {
  answer: boolean;
  proof: Proof;
  /** States a search visited (0 without one). */
  states: number;
}

/** The budget of one search: states interned, and a wall-clock deadline (`performance.now()`). */
export interface SearchBudget {
  maxStates: number;
  deadline: number;
}

/** Operators applicable in `state`, in id order. */
export function applicableOps(task: GroundTask, state: Uint32Array): number[] {
  const out: number[] = [];
  for (let op = 0; op < task.numOps; op++) if (isApplicable(task, state, op)) out.push(op);
  return out;
}

/** The facts `op` makes true and false in `state` (the difference of the two states). */
export function progression(task: GroundTask, state: Uint32Array, op: number): { added: number[]; deleted: number[]; next: Uint32Array } {
  const next = applyOp(task, state, op);
  const added: number[] = [];
  const deleted: number[] = [];
  for (let f = 0; f < task.numFacts; f++) {
    const a = hasFact(state, f);
    const b = hasFact(next, f);
    if (!a && b) added.push(f);
    else if (a && !b) deleted.push(f);
  }
  return { added, deleted, next };
}

/**
 * Facts the delete relaxation reaches from `state` (every fact a relaxed plan could make true;
 * negative preconditions and conditions taken as satisfiable): a superset of what any plan
 * reaches, so a fact outside it is unreachable. With `without` (a fact false in `state`), what
 * relaxed plans reach that never make that fact true: a superset of what plans avoiding it reach.
 */
export function relaxedReachable(task: GroundTask, state: Uint32Array, without = -1): Uint8Array {
  const r = new Uint8Array(task.numFacts);
  for (let f = 0; f < task.numFacts; f++) if (hasFact(state, f)) r[f] = 1;
  // `without` never becomes true: an operator that adds it is never taken, an effect that adds it never fires
  // (and it is false in `state`, so what needs it never happens)
  const adds = (op: number): boolean => {
    for (let j = task.addStart[op]!; j < task.addStart[op + 1]!; j++) if (task.add[j] === without) return true;
    return false;
  };
  for (let changed = true; changed; ) {
    changed = false;
    for (let op = 0; op < task.numOps; op++) {
      let ok = true;
      for (let j = task.preStart[op]!; j < task.preStart[op + 1]! && ok; j++) ok = r[task.pre[j]!] === 1;
      if (!ok || (without >= 0 && adds(op))) continue;
      for (let j = task.addStart[op]!; j < task.addStart[op + 1]!; j++) if (r[task.add[j]!] === 0) (r[task.add[j]!] = 1), (changed = true);
      for (let e = task.ceStart[op]!; e < task.ceStart[op + 1]!; e++) {
        if (task.ceIsAdd[e] !== 1 || r[task.ceFact[e]!] === 1 || task.ceFact[e] === without) continue;
        let c = true;
        for (let j = task.ceCondStart[e]!; j < task.ceCondStart[e + 1]! && c; j++) c = r[task.ceCond[j]!] === 1;
        if (c) (r[task.ceFact[e]!] = 1), (changed = true);
      }
    }
    // derived facts: an axiom whose positive body is reached
    for (let x = 0; x < task.numAxioms; x++) {
      if (r[task.axHead[x]!] === 1 || task.axHead[x] === without) continue;
      let c = true;
      for (let j = task.axBodyStart[x]!; j < task.axBodyStart[x + 1]! && c; j++) c = r[task.axBody[j]!] === 1;
      if (c) (r[task.axHead[x]!] = 1), (changed = true);
    }
  }
  return r;
}

/** Mutex groups per fact (facts of one group are never true together in a reachable state). */
export class Mutexes {
  private readonly groupsOf: number[][];
  constructor(task: GroundTask) {
    this.groupsOf = Array.from({ length: task.numFacts }, () => []);
    // no time budget: a cut-off search would find other groups on a slower machine (same seed, same bytes)
    computeFactGroups(task).mutexGroups.forEach((g, k) => g.forEach((f) => this.groupsOf[f]!.push(k)));
  }
  /** Do `a` and `b` (distinct) share a mutex group? */
  exclusive(a: number, b: number): boolean {
    if (a === b) return false;
    const gb = this.groupsOf[b]!;
    return this.groupsOf[a]!.some((g) => gb.includes(g));
  }
}

/**
 * Breadth-first from `from` to a state where `goal` holds, never entering one where `avoid`
 * holds: true (a path exists), false (the reachable states are exhausted) or null (budget).
 */
export function searchReach(
  task: GroundTask,
  from: Uint32Array,
  goal: (s: Uint32Array) => boolean,
  avoid: ((s: Uint32Array) => boolean) | null,
  budget: SearchBudget,
): { answer: boolean | null; states: number } {
  if (avoid?.(from)) return { answer: false, states: 0 };
  if (goal(from)) return { answer: true, states: 1 };
  const space = new StateSpace(task);
  space.intern(from);
  const cur = new Uint32Array(task.words);
  const next = new Uint32Array(task.words);
  const ops: number[] = [];
  for (let id = 0; id < space.size; id++) {
    if (space.size > budget.maxStates || ((id & 255) === 255 && performance.now() > budget.deadline)) return { answer: null, states: space.size };
    space.getInto(id, cur);
    space.applicable(cur, ops);
    for (const op of ops) {
      space.apply(cur, op, next);
      if (avoid?.(next)) continue;
      const known = space.size;
      if (space.intern(next) < known) continue;
      if (goal(next)) return { answer: true, states: space.size };
    }
  }
  return { answer: false, states: space.size };
}

/**
 * Can a state where every fact of `facts` holds be reached from `state`? Proved by the state
 * itself, a mutex pair, the delete relaxation, or an exhaustive search.
 */
export function factsReachable(task: GroundTask, state: Uint32Array, facts: readonly number[], mutex: Mutexes, budget: SearchBudget): Proved | null {
  if (facts.every((f) => hasFact(state, f))) return { answer: true, proof: "state", states: 0 };
  for (let i = 0; i < facts.length; i++) for (let j = i + 1; j < facts.length; j++) if (mutex.exclusive(facts[i]!, facts[j]!)) return { answer: false, proof: "mutex", states: 0 };
  const relaxed = relaxedReachable(task, state);
  if (facts.some((f) => relaxed[f] === 0)) return { answer: false, proof: "relaxation", states: 0 };
  const r = searchReach(task, state, (s) => facts.every((f) => hasFact(s, f)), null, budget);
  return r.answer === null ? null : { answer: r.answer, proof: "search", states: r.states };
}

/** Can `op` become applicable from `state`? (its preconditions, negative ones included, hold at once) */
export function actionReachable(task: GroundTask, state: Uint32Array, op: number, mutex: Mutexes, budget: SearchBudget): Proved | null {
  if (isApplicable(task, state, op)) return { answer: true, proof: "state", states: 0 };
  const pre = Array.from(task.pre.subarray(task.preStart[op]!, task.preStart[op + 1]!));
  for (let i = 0; i < pre.length; i++) for (let j = i + 1; j < pre.length; j++) if (mutex.exclusive(pre[i]!, pre[j]!)) return { answer: false, proof: "mutex", states: 0 };
  const relaxed = relaxedReachable(task, state);
  if (pre.some((f) => relaxed[f] === 0)) return { answer: false, proof: "relaxation", states: 0 };
  const r = searchReach(task, state, (s) => isApplicable(task, s, op), null, budget);
  return r.answer === null ? null : { answer: r.answer, proof: "search", states: r.states };
}

/**
 * Is `fact` (false in `state`) a landmark from `state`: must every plan to the goal make it true?
 * Yes iff the goal cannot be reached through states where it is false (an exhaustive search that
 * avoids it); no when such a search finds the goal. The relaxation settles some cases first: a
 * goal fact is a landmark, and so is a fact without which the relaxed goal is unreachable.
 */
export function isLandmark(task: GroundTask, state: Uint32Array, fact: number, budget: SearchBudget): Proved | null {
  if (hasFact(state, fact)) return { answer: true, proof: "state", states: 0 };
  if (task.goalPos.includes(fact)) return { answer: true, proof: "state", states: 0 };
  // every plan is a relaxed plan: if no relaxed plan that leaves the fact false reaches the goal, no plan does
  const relaxed = relaxedReachable(task, state, fact);
  if (task.goalPos.some((g) => relaxed[g] === 0)) return { answer: true, proof: "relaxation", states: 0 };
  const r = searchReach(task, state, (s) => isGoal(task, s), (s) => hasFact(s, fact), budget);
  return r.answer === null ? null : { answer: !r.answer, proof: "search", states: r.states };
}

/** Replay `ops` from `state`: the first step not applicable (-1: none), and whether the goal holds after a fully applicable plan. */
export function replay(task: GroundTask, state: Uint32Array, ops: readonly number[]): { firstFailure: number; goal: boolean } {
  let s = state;
  for (let i = 0; i < ops.length; i++) {
    if (!isApplicable(task, s, ops[i]!)) return { firstFailure: i, goal: false };
    s = applyOp(task, s, ops[i]!);
  }
  return { firstFailure: -1, goal: isGoal(task, s) };
}

/** Is the plan `ops` valid from `state` (every step applicable in turn, the goal at the end)? */
export function validPlan(task: GroundTask, state: Uint32Array, ops: readonly number[]): boolean {
  const r = replay(task, state, ops);
  return r.firstFailure < 0 && r.goal;
}

/** How many steps each fact and operator is from a state (`depthsFrom`). */
export interface Depths {
  /** Per fact: the fewest steps to a state where it holds (0: holds now; -1: not within `complete`). */
  fact: Int32Array;
  /** Per operator: the fewest steps to a state where it is applicable (-1: not within `complete`). */
  op: Int32Array;
  /** Every state at most this many steps away was seen: a depth of -1 means "more than this". */
  complete: number;
  states: number;
}

/**
 * Breadth-first from `from`, layer by layer, up to `maxDepth` steps or `budget` states: the
 * fewest steps to every fact and to every operator's applicability, exact up to `complete`
 * (the layers searched in full; the search stops inside a layer only on the budget).
 */
export function depthsFrom(task: GroundTask, from: Uint32Array, maxDepth: number, budget: SearchBudget): Depths | null {
  const fact = new Int32Array(task.numFacts).fill(-1);
  const op = new Int32Array(task.numOps).fill(-1);
  const space = new StateSpace(task);
  space.intern(from);
  const depth: number[] = [0];
  const cur = new Uint32Array(task.words);
  const next = new Uint32Array(task.words);
  const ops: number[] = [];
  const see = (s: Uint32Array, d: number): void => {
    for (let w = 0; w < task.words; w++) {
      let bits = s[w]!;
      while (bits !== 0) {
        const b = 31 - Math.clz32(bits);
        bits &= ~(1 << b);
        const f = w * 32 + b;
        if (f < task.numFacts && fact[f] < 0) fact[f] = d;
      }
    }
  };
  see(from, 0);
  let complete = maxDepth;
  for (let id = 0; id < space.size; id++) {
    const d = depth[id]!;
    if (d >= maxDepth) break;
    if (space.size > budget.maxStates || ((id & 255) === 255 && performance.now() > budget.deadline)) {
      // the layer being expanded is complete (its parents were), the next one is not
      complete = d;
      break;
    }
    space.getInto(id, cur);
    space.applicable(cur, ops);
    for (const o of ops) {
      if (op[o]! < 0) op[o] = d;
      space.apply(cur, o, next);
      const known = space.size;
      if (space.intern(next) < known) continue;
      depth.push(d + 1);
      see(next, d + 1);
    }
    if (id === space.size - 1) complete = Number.MAX_SAFE_INTEGER; // every reachable state seen
  }
  if (complete === 0) return null;
  // operators: applicable at a state of depth <= complete - 1 is known only for expanded layers
  return { fact, op, complete, states: space.size };
}
