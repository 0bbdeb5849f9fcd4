/**
 * Proofs of the open-ended questions (issue 52, docs/reasoning.md): "name a fact that can never
 * become true", "name a landmark", "give the plan with its needless steps removed", and whether
 * two facts can hold at once. An open question has many right answers, so its gold is the
 * complete set of them (every fact of the task decided, or no question), or, for a simplified
 * plan, a rule the grader checks by replay. Built on engine.ts; kept apart from it.
 */
import type { GroundTask } from "../task/index.js";
import { hasFact } from "../task/state.js";
import { Actions, depthsFrom, isLandmark, relaxedReachable, searchReach, validPlan, type Mutexes, type Proof, type SearchBudget } from "./engine.js";

/** A complete answer set and how it was proved. */
export interface FactSet {
  facts: number[];
  proof: Proof;
  states: number;
}

/**
 * Every fact of the task (derived ones left out) false in `state` that no plan from `state` can
 * make true, or null where some fact stays undecided within `budget`. Facts a later state of
 * the walk holds (`later`) are reachable; the delete relaxation proves the rest unreachable where
 * it can; one exhaustive breadth-first search decides what is left.
 */
export function unreachableFacts(task: GroundTask, state: Uint32Array, later: readonly Uint32Array[], budget: SearchBudget, actions: Actions): FactSet | null {
  const relaxed = relaxedReachable(task, state);
  const open: number[] = [];
  const never: number[] = [];
  for (let f = 0; f < task.numFacts; f++) {
    if (task.factDerived[f] || hasFact(state, f) || later.some((x) => hasFact(x, f))) continue;
    (relaxed[f] === 0 ? never : open).push(f);
  }
  if (open.length === 0) return { facts: never, proof: "relaxation", states: 0 };
  const d = depthsFrom(task, state, Number.MAX_SAFE_INTEGER, budget, actions);
  if (d === null || d.complete !== Number.MAX_SAFE_INTEGER) return null;
  for (const f of open) if (d.fact[f]! < 0) never.push(f);
  return { facts: never.sort((a, b) => a - b), proof: "search", states: d.states };
}

/**
 * Every landmark from `state` that is false there and not a goal fact (derived facts left out),
 * or null where some fact stays undecided: a fact the walk's own plan from `state` never makes
 * true (`later`: the states it passes) is none; each other one is proved by `isLandmark`, each
 * search within `budget`, all of them within `total` states.
 */
export function landmarkFacts(task: GroundTask, state: Uint32Array, later: readonly Uint32Array[], budget: SearchBudget, total: number): FactSet | null {
  // a goal with quantifiers or disjunctions is one derived fact after grounding: which facts are
  // "part of the goal" is then not the ground task's to say, so the question is not asked
  if (task.goalPos.some((f) => task.factDerived[f] === 1)) return null;
  const goal = new Set(task.goalPos);
  const yes: number[] = [];
  let states = 0;
  let proof: Proof = "replay";
  for (let f = 0; f < task.numFacts; f++) {
    if (task.factDerived[f] || hasFact(state, f) || goal.has(f) || !later.some((x) => hasFact(x, f))) continue;
    const r = isLandmark(task, state, f, { maxStates: Math.min(budget.maxStates, total - states), deadline: budget.deadline });
    if (r === null) return null;
    states += r.states;
    if (r.proof === "search" || (r.proof === "relaxation" && proof !== "search")) proof = r.proof;
    if (r.answer) yes.push(f);
  }
  return { facts: yes, proof, states };
}

/**
 * A plan obtained from `plan` by removing steps, valid from `state`, removing as much as a greedy
 * pass can (runs of up to three steps, then single steps, until none can go); null where nothing
 * can be removed. Any valid subsequence is a right answer; this one is the gold's example.
 */
export function simplifiedPlan(task: GroundTask, state: Uint32Array, plan: readonly number[], actions: Actions): number[] | null {
  let cur = [...plan];
  for (let changed = true; changed; ) {
    changed = false;
    for (let n = 3; n >= 1 && !changed; n--) {
      for (let i = 0; i + n <= cur.length && !changed; i++) {
        const next = [...cur.slice(0, i), ...cur.slice(i + n)];
        if (validPlan(task, state, next, actions)) (cur = next), (changed = true);
      }
    }
  }
  return cur.length < plan.length ? cur : null;
}

/** Is `sub` obtained from `plan` by removing at least one step (in order)? */
export function isStrictSubsequence<T>(plan: readonly T[], sub: readonly T[]): boolean {
  if (sub.length >= plan.length) return false;
  let i = 0;
  for (const x of plan) if (i < sub.length && sub[i] === x) i++;
  return i === sub.length;
}

/**
 * Can `a` and `b` (distinct, each reachable from `state` on its own) hold in one state reached
 * from `state`? Yes by a later state of the walk or a search; no by the delete relaxation (one
 * of them cut off) or an exhaustive search. A mutex pair is left to the caller: it is no in
 * every state, so the pair alone answers it.
 */
export function pairReachable(task: GroundTask, state: Uint32Array, a: number, b: number, later: readonly Uint32Array[], mutex: Mutexes, budget: SearchBudget): { answer: boolean; proof: Proof; states: number } | null {
  if (hasFact(state, a) && hasFact(state, b)) return { answer: true, proof: "state", states: 0 };
  if (later.some((x) => hasFact(x, a) && hasFact(x, b))) return { answer: true, proof: "replay", states: 0 };
  if (mutex.exclusive(a, b)) return { answer: false, proof: "mutex", states: 0 };
  const relaxed = relaxedReachable(task, state);
  if (relaxed[a] === 0 || relaxed[b] === 0) return { answer: false, proof: "relaxation", states: 0 };
  const r = searchReach(task, state, (s) => hasFact(s, a) && hasFact(s, b), null, budget);
  return r.answer === null ? null : { answer: r.answer, proof: "search", states: r.states };
}
