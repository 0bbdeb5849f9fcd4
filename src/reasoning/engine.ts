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

/**
 * The actions as the user sees them: a name and its arguments, as written in a plan. The
 * grounder compiles an existential precondition (and a disjunction) into several operators of
 * one name, one per witness or disjunct (src/task/ground.ts, `operatorList`); they are one
 * action, taken when any of them is applicable (the validator takes the first applicable one,
 * and all of them lead to the same state). An action is named here by its lowest operator id,
 * so `task.opNames`, `opSchema` and `opArgs` read it as they read an operator.
 */
export class Actions {
  /** Per operator: its action (the lowest operator id of its name). */
  readonly of: Int32Array;
  /** Every action, ascending. */
  readonly all: number[];
  private readonly variants = new Map<number, number[]>();
  constructor(private readonly task: GroundTask) {
    this.of = new Int32Array(task.numOps);
    const byName = new Map<string, number>();
    this.all = [];
    for (let op = 0; op < task.numOps; op++) {
      const name = task.opNames[op]!;
      let a = byName.get(name);
      if (a === undefined) {
        byName.set(name, (a = op));
        this.all.push(op);
        this.variants.set(op, []);
      }
      this.of[op] = a;
      this.variants.get(a)!.push(op);
    }
  }
  /** The operators of action `a` (or of the action of operator `a`). */
  variantsOf(a: number): readonly number[] {
    return this.variants.get(this.of[a]!)!;
  }
  /** The first operator of the action of `a` applicable in `state` (-1: the action cannot be taken there). */
  variantIn(state: Uint32Array, a: number): number {
    for (const op of this.variantsOf(a)) if (isApplicable(this.task, state, op)) return op;
    return -1;
  }
  /** Can the action of `a` be taken in `state`? */
  applicable(state: Uint32Array, a: number): boolean {
    return this.variantIn(state, a) >= 0;
  }
  /** The actions that can be taken in `state`, ascending (one per name). */
  applicableIn(state: Uint32Array): number[] {
    const out: number[] = [];
    for (const a of this.all) if (this.applicable(state, a)) out.push(a);
    return out;
  }
  /** The state after taking the action of `a` in `state` (where it can be taken). */
  apply(state: Uint32Array, a: number): Uint32Array {
    const op = this.variantIn(state, a);
    if (op < 0) throw new Error(`${this.task.opNames[a]} cannot be taken here`);
    return applyOp(this.task, state, op);
  }
}

/**
 * The facts the action of `op` makes true and false in `state` (the difference of the two
 * states; derived facts left out, as the state's text leaves them out).
 */
export function progression(task: GroundTask, state: Uint32Array, op: number, actions: Actions = new Actions(task)): { added: number[]; deleted: number[]; next: Uint32Array } {
  const next = actions.apply(state, op);
  const added: number[] = [];
  const deleted: number[] = [];
  for (let f = 0; f < task.numFacts; f++) {
    if (task.factDerived[f]) continue;
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

/**
 * Can the action of `op` (any of its operators: the witnesses of an existential precondition)
 * be taken from `state`, now or later? Proved by the state, a mutex pair in every operator's
 * preconditions, the relaxation (an unreachable precondition in every operator), or a search.
 */
export function actionReachable(task: GroundTask, state: Uint32Array, op: number, mutex: Mutexes, budget: SearchBudget, actions: Actions = new Actions(task)): Proved | null {
  if (actions.applicable(state, op)) return { answer: true, proof: "state", states: 0 };
  const variants = actions.variantsOf(op);
  const pres = variants.map((v) => Array.from(task.pre.subarray(task.preStart[v]!, task.preStart[v + 1]!)));
  const mutexIn = (pre: number[]): boolean => pre.some((a, i) => pre.slice(i + 1).some((b) => mutex.exclusive(a, b)));
  if (pres.every(mutexIn)) return { answer: false, proof: "mutex", states: 0 };
  const relaxed = relaxedReachable(task, state);
  if (pres.every((pre) => pre.some((f) => relaxed[f] === 0))) return { answer: false, proof: "relaxation", states: 0 };
  const r = searchReach(task, state, (s) => actions.applicable(s, op), null, budget);
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

/**
 * Replay the actions `ops` from `state` (each taken by whichever of its operators is applicable,
 * as the validator does): the first step that cannot be taken (-1: none), and whether the goal
 * holds after a fully applicable plan.
 */
export function replay(task: GroundTask, state: Uint32Array, ops: readonly number[], actions: Actions = new Actions(task)): { firstFailure: number; goal: boolean } {
  let s = state;
  for (let i = 0; i < ops.length; i++) {
    const op = actions.variantIn(s, ops[i]!);
    if (op < 0) return { firstFailure: i, goal: false };
    s = applyOp(task, s, op);
  }
  return { firstFailure: -1, goal: isGoal(task, s) };
}

/** Is the plan `ops` valid from `state` (every step applicable in turn, the goal at the end)? */
export function validPlan(task: GroundTask, state: Uint32Array, ops: readonly number[], actions: Actions = new Actions(task)): boolean {
  const r = replay(task, state, ops, actions);
  return r.firstFailure < 0 && r.goal;
}

/** How many steps each fact and action is from a state (`depthsFrom`). */
export interface Depths {
  /** Per fact: the fewest steps to a state where it holds (0: holds now; -1: not within `complete`). */
  fact: Int32Array;
  /** Per action (`Actions`: its lowest operator id; other ids -1): the fewest steps to a state where it can be taken (-1: not within `complete`). */
  op: Int32Array;
  /** Every state at most this many steps away was seen: a depth of -1 means "more than this". */
  complete: number;
  states: number;
}

/**
 * Breadth-first from `from`, layer by layer, up to `maxDepth` steps or `budget` states: the
 * fewest steps to every fact and to every action's applicability, exact up to `complete`
 * (the layers searched in full; the search stops inside a layer only on the budget).
 */
export function depthsFrom(task: GroundTask, from: Uint32Array, maxDepth: number, budget: SearchBudget, actions: Actions = new Actions(task)): Depths | null {
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
      const a = actions.of[o]!;
      if (op[a]! < 0) op[a] = d;
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
