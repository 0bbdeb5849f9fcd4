/**
 * Exact answers to the reasoning questions (docs/reasoning.md): applicability and progression
 * read off the ground task; reachability, action reachability and landmarks proved by an
 * invariant (a mutex group), by the delete relaxation (a fact it cannot reach is unreachable)
 * or by an exhaustive search from the state; validation and justification by replaying plans;
 * the next action by the labeller's h*. Every answer carries how it was proved; a question whose
 * proof runs out of budget is skipped, never guessed.
 */
import { Heap } from "heap-js";
import { weakMemo } from "../util/memo.js";
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
  /** Does some pair of `facts` share a mutex group (so they never hold together)? */
  pairIn(facts: ArrayLike<number>): boolean {
    for (let i = 0; i < facts.length; i++) for (let j = i + 1; j < facts.length; j++) if (this.exclusive(facts[i]!, facts[j]!)) return true;
    return false;
  }
  /**
   * Does `state` keep every group (at most one fact of each)? The groups are invariants of the
   * states reachable from the task's initial state; a state given from elsewhere may break them,
   * and then nothing proved with them holds from it.
   */
  holdsIn(state: Uint32Array): boolean {
    const seen = new Set<number>();
    for (let f = 0; f < this.groupsOf.length; f++) {
      if (!hasFact(state, f)) continue;
      for (const g of this.groupsOf[f]!) {
        if (seen.has(g)) return false;
        seen.add(g);
      }
    }
    return true;
  }
}

/** The mutex groups of `task`, computed once per task. */
export const mutexesOf: (task: GroundTask) => Mutexes = weakMemo((task: GroundTask) => new Mutexes(task));

/**
 * The delete relaxation as unit-cost relaxed actions (an operator's unconditional adds; each
 * conditional add with the operator's precondition and its condition; each axiom), with the ones
 * whose preconditions hold a mutex pair left out: no reachable state satisfies them, so no plan
 * takes them (h^2-style: a fact whose every achiever needs two mutex facts, or a fact only such
 * achievers lead to, is unreachable). Built once per task and mutex set.
 */
export class Relaxation {
  private readonly n: number;
  private readonly preStart: Int32Array;
  private readonly pre: Int32Array;
  private readonly add: Int32Array;
  /** Per relaxed action: the operator it comes from (-1: an axiom). */
  private readonly from: Int32Array;
  /** Per relaxed action: its operator adds this fact unconditionally (-1: none recorded here; see `addsAll`). */
  private readonly opAdds: Map<number, Set<number>>;
  /** Relaxed actions per precondition fact (CSR). */
  private readonly byPreStart: Int32Array;
  private readonly byPre: Int32Array;
  /** Relaxed actions without preconditions. */
  private readonly free: number[] = [];
  /** Per fact: every operator effect or axiom that adds it needs a mutex pair. */
  readonly achieversMutex: Uint8Array;
  constructor(private readonly task: GroundTask, readonly mutex: Mutexes | null) {
    const preStart: number[] = [0];
    const pre: number[] = [];
    const add: number[] = [];
    const from: number[] = [];
    const achievable = new Uint8Array(task.numFacts);
    const hasAchiever = new Uint8Array(task.numFacts);
    this.opAdds = new Map();
    const push = (p: number[], a: number, o: number): void => {
      hasAchiever[a] = 1;
      if (mutex?.pairIn(p)) return;
      achievable[a] = 1;
      pre.push(...p);
      preStart.push(pre.length);
      add.push(a);
      from.push(o);
    };
    for (let op = 0; op < task.numOps; op++) {
      const p = Array.from(task.pre.subarray(task.preStart[op]!, task.preStart[op + 1]!));
      const adds = new Set<number>();
      for (let j = task.addStart[op]!; j < task.addStart[op + 1]!; j++) adds.add(task.add[j]!);
      this.opAdds.set(op, adds);
      for (const a of adds) push(p, a, op);
      for (let e = task.ceStart[op]!; e < task.ceStart[op + 1]!; e++) {
        if (task.ceIsAdd[e] !== 1) continue;
        const c = Array.from(task.ceCond.subarray(task.ceCondStart[e]!, task.ceCondStart[e + 1]!));
        push([...p, ...c.filter((f) => !p.includes(f))], task.ceFact[e]!, op);
      }
    }
    for (let x = 0; x < task.numAxioms; x++) push(Array.from(task.axBody.subarray(task.axBodyStart[x]!, task.axBodyStart[x + 1]!)), task.axHead[x]!, -1);
    this.n = add.length;
    this.preStart = Int32Array.from(preStart);
    this.pre = Int32Array.from(pre);
    this.add = Int32Array.from(add);
    this.from = Int32Array.from(from);
    this.achieversMutex = new Uint8Array(task.numFacts);
    // a fact no operator adds keeps its value: that is the state's business, not a mutex's
    for (let f = 0; f < task.numFacts; f++) if (hasAchiever[f] && !achievable[f]) this.achieversMutex[f] = 1;
    const count = new Int32Array(task.numFacts + 1);
    for (let a = 0; a < this.n; a++) {
      if (this.preStart[a] === this.preStart[a + 1]) this.free.push(a);
      for (let j = this.preStart[a]!; j < this.preStart[a + 1]!; j++) count[this.pre[j]! + 1]!++;
    }
    for (let f = 0; f < task.numFacts; f++) count[f + 1]! += count[f]!;
    this.byPreStart = Int32Array.from(count);
    this.byPre = new Int32Array(this.pre.length);
    const fill = Int32Array.from(count);
    for (let a = 0; a < this.n; a++) for (let j = this.preStart[a]!; j < this.preStart[a + 1]!; j++) this.byPre[fill[this.pre[j]!]!++] = a;
  }

  /** Relaxed actions usable by plans that never make `without` true (its operator's unconditional adds would). */
  private usable(a: number, without: number): boolean {
    if (without < 0) return true;
    if (this.add[a] === without) return false;
    const o = this.from[a]!;
    return o < 0 || !this.opAdds.get(o)!.has(without);
  }

  /**
   * h^add from `state` (unit costs) of every fact: -1 where the relaxation cannot reach it.
   * With `without`, relaxed plans that never make that fact true.
   */
  costs(state: Uint32Array, without = -1): Int32Array {
    const task = this.task;
    const cost = new Int32Array(task.numFacts).fill(-1);
    const missing = new Int32Array(this.n);
    const acc = new Int32Array(this.n);
    for (let a = 0; a < this.n; a++) missing[a] = this.preStart[a + 1]! - this.preStart[a]!;
    const open = new Heap<[number, number]>((x, y) => x[0] - y[0] || x[1] - y[1]);
    for (let f = 0; f < task.numFacts; f++) if (hasFact(state, f) && f !== without) open.push([0, f]);
    const reach = (a: number): void => {
      if (!this.usable(a, without)) return;
      const c = acc[a]! + 1;
      const f = this.add[a]!;
      if (cost[f]! < 0) open.push([c, f]);
    };
    for (const a of this.free) reach(a);
    for (let top = open.pop(); top !== undefined; top = open.pop()) {
      const [c, f] = top;
      if (cost[f]! >= 0) continue;
      cost[f] = c;
      for (let j = this.byPreStart[f]!; j < this.byPreStart[f + 1]!; j++) {
        const a = this.byPre[j]!;
        acc[a]! += c;
        if (--missing[a]! === 0) reach(a);
      }
    }
    return cost;
  }

  /** Facts the relaxation (mutex-pruned) reaches from `state`; see `relaxedReachable`. */
  reachable(state: Uint32Array, without = -1): Uint8Array {
    const c = this.costs(state, without);
    const r = new Uint8Array(c.length);
    for (let f = 0; f < c.length; f++) r[f] = c[f]! >= 0 ? 1 : 0;
    return r;
  }
}

const relaxations = new WeakMap<GroundTask, WeakMap<object, Relaxation>>();
const NO_MUTEX = {};
/** The (cached) relaxation of `task` pruned by `mutex`, or unpruned where `state` breaks the groups. */
function relaxationFor(task: GroundTask, mutex: Mutexes | null, state: Uint32Array): Relaxation {
  const m = mutex !== null && mutex.holdsIn(state) ? mutex : null;
  let byMutex = relaxations.get(task);
  if (byMutex === undefined) relaxations.set(task, (byMutex = new WeakMap()));
  const key = m ?? NO_MUTEX;
  let r = byMutex.get(key);
  if (r === undefined) byMutex.set(key, (r = new Relaxation(task, m)));
  return r;
}

/** A witness search's question: from a state to one where `goal` holds, never through `avoid` (-1: none), guided towards `targets`. */
type ReachArgs = [task: GroundTask, from: Uint32Array, goal: (s: Uint32Array) => boolean, avoid: number, targets: readonly (readonly number[])[], relax: Relaxation, budget: SearchBudget];
type ReachAnswer = { answer: boolean | null; states: number };

/**
 * Greedy best-first from `from` (h^add of the `targets` facts, mutex-pruned relaxation) to a
 * state where `goal` holds, never entering one where `avoid` holds: a witness (true), the
 * reachable states exhausted (false), or null (budget). States whose targets the relaxation
 * cannot reach are dropped: no plan from them reaches the goal. It visits every reachable state
 * before it says false, like `searchReach`, but a witness deep in a large space is found first.
 */
export function guidedReach(...[task, from, goal, avoid, targets, relax, budget]: ReachArgs): ReachAnswer {
  if (avoid >= 0 && hasFact(from, avoid)) return { answer: false, states: 0 };
  if (goal(from)) return { answer: true, states: 1 };
  const h = (s: Uint32Array): number => {
    const c = relax.costs(s, avoid);
    let best = -1;
    for (const t of targets) {
      let sum = 0;
      for (const f of t) {
        if (c[f]! < 0) (sum = -1);
        if (sum < 0) break;
        sum += c[f]!;
      }
      if (sum >= 0 && (best < 0 || sum < best)) best = sum;
    }
    return best;
  };
  const space = new StateSpace(task);
  const h0 = h(from);
  if (h0 < 0) return { answer: false, states: 1 };
  space.intern(from);
  const open = new Heap<[number, number]>((x, y) => x[0] - y[0] || x[1] - y[1]);
  open.push([h0, 0]);
  const cur = new Uint32Array(task.words);
  const next = new Uint32Array(task.words);
  const ops: number[] = [];
  let popped = 0;
  for (let top = open.pop(); top !== undefined; top = open.pop()) {
    if (space.size > budget.maxStates || ((++popped & 255) === 255 && performance.now() > budget.deadline)) return { answer: null, states: space.size };
    space.getInto(top[1], cur);
    space.applicable(cur, ops);
    for (const op of ops) {
      space.apply(cur, op, next);
      if (avoid >= 0 && hasFact(next, avoid)) continue;
      const known = space.size;
      const id = space.intern(next);
      if (id < known) continue;
      if (goal(next)) return { answer: true, states: space.size };
      const v = h(next);
      if (v >= 0) open.push([v, id]);
    }
  }
  return { answer: false, states: space.size };
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

/** States of the best-first search for a witness before a breadth-first one exhausts the space (cheaper per state: no h^add). */
const GUIDED_STATES = 25_000;

/**
 * The breadth-first search with the whole budget (cheap per state: it decides most questions
 * and exhausts small spaces), then, only where it ran out, a best-first search for a witness
 * within `GUIDED_STATES` states (far witnesses in large spaces: 20 blocks). Guided first cost
 * npuzzle 25x the CPU: an h^add per state on every question the breadth-first search decides.
 */
function reachBoth(...[task, from, goal, avoid, targets, relax, budget]: ReachArgs): ReachAnswer {
  const b = searchReach(task, from, goal, avoid >= 0 ? (s) => hasFact(s, avoid) : null, budget);
  if (b.answer !== null) return { answer: b.answer, states: b.states };
  const g = guidedReach(task, from, goal, avoid, targets, relax, { maxStates: Math.min(GUIDED_STATES, budget.maxStates), deadline: budget.deadline });
  return g.answer !== null ? { answer: g.answer, states: b.states + g.states } : b;
}

/**
 * Can a state where every fact of `facts` holds be reached from `state`? Proved by the state
 * itself, a mutex pair among the facts, a fact whose every achiever needs a mutex pair (both
 * "mutex": invariants, whatever the state), the delete relaxation from the state with those
 * achievers left out ("relaxation"), or a search: best-first towards the facts, which finds a
 * witness far from the state within the budget, and otherwise exhausts the reachable states.
 */
export function factsReachable(task: GroundTask, state: Uint32Array, facts: readonly number[], mutex: Mutexes, budget: SearchBudget): Proved | null {
  if (facts.every((f) => hasFact(state, f))) return { answer: true, proof: "state", states: 0 };
  if (mutex.pairIn(facts)) return { answer: false, proof: "mutex", states: 0 };
  const relax = relaxationFor(task, mutex, state);
  if (relax.mutex !== null && facts.some((f) => !hasFact(state, f) && relax.achieversMutex[f] === 1)) return { answer: false, proof: "mutex", states: 0 };
  const relaxed = relax.reachable(state);
  if (facts.some((f) => relaxed[f] === 0)) return { answer: false, proof: "relaxation", states: 0 };
  const r = reachBoth(task, state, (s) => facts.every((f) => hasFact(s, f)), -1, [facts], relax, budget);
  return r.answer === null ? null : { answer: r.answer, proof: "search", states: r.states };
}

/**
 * Can the action of `op` (any of its operators: the witnesses of an existential precondition)
 * be taken from `state`, now or later? Proved by the state, a mutex pair in every operator's
 * preconditions, the relaxation (mutex-pruned, as in `factsReachable`: an unreachable
 * precondition in every operator), or a search towards the preconditions.
 */
export function actionReachable(task: GroundTask, state: Uint32Array, op: number, mutex: Mutexes, budget: SearchBudget, actions: Actions = new Actions(task)): Proved | null {
  if (actions.applicable(state, op)) return { answer: true, proof: "state", states: 0 };
  const variants = actions.variantsOf(op);
  const pres = variants.map((v) => Array.from(task.pre.subarray(task.preStart[v]!, task.preStart[v + 1]!)));
  if (pres.every((pre) => mutex.pairIn(pre))) return { answer: false, proof: "mutex", states: 0 };
  const relax = relaxationFor(task, mutex, state);
  const relaxed = relax.reachable(state);
  if (pres.every((pre) => pre.some((f) => relaxed[f] === 0) || (relax.mutex !== null && mutex.pairIn(pre)))) return { answer: false, proof: "relaxation", states: 0 };
  const r = reachBoth(task, state, (s) => actions.applicable(s, op), -1, pres, relax, budget);
  return r.answer === null ? null : { answer: r.answer, proof: "search", states: r.states };
}

/**
 * Is `fact` (false in `state`) a landmark from `state`: must every plan to the goal make it true?
 * Yes iff the goal cannot be reached through states where it is false (an exhaustive search that
 * avoids it); no when such a search finds the goal (best-first towards the goal: a plan that
 * avoids the fact). The relaxation settles some cases first: a goal fact is a landmark, and so is
 * a fact without which the relaxed goal (mutex-pruned, as in `factsReachable`) is unreachable.
 */
export function isLandmark(task: GroundTask, state: Uint32Array, fact: number, budget: SearchBudget, mutex: Mutexes | null = mutexesOf(task)): Proved | null {
  if (hasFact(state, fact)) return { answer: true, proof: "state", states: 0 };
  if (task.goalPos.includes(fact)) return { answer: true, proof: "state", states: 0 };
  // every plan is a relaxed plan: if no relaxed plan that leaves the fact false reaches the goal, no plan does
  const relax = relaxationFor(task, mutex, state);
  const relaxed = relax.reachable(state, fact);
  if (task.goalPos.some((g) => relaxed[g] === 0)) return { answer: true, proof: "relaxation", states: 0 };
  const r = reachBoth(task, state, (s) => isGoal(task, s), fact, [Array.from(task.goalPos)], relax, budget);
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
