/**
 * Trajectory-level preference pairs (`--format trajectories`): the beginning of a better plan
 * (the optimal plan, or a valid costlier one with an undo in it) versus a perturbed plan, both
 * simulated and labelled step by step.
 */
import { labelExecutable } from "../label/classify.js";
import { applicableOps, applicableVariant, hstar, successor, stateId } from "../label/context.js";
import { optimalWalk } from "../label/walk.js";
import type { Candidate, Category } from "../label/types.js";
import { applyOp, findOperator, isApplicable, isGoal } from "../task/index.js";
import type { GroundTask } from "../task/types.js";
import { Prng } from "../util/prng.js";
import { oneLine, STEP_SEPARATOR, trainerPrompt } from "./layout.js";
import { preferenceLine, type PreferenceRow } from "./preference.js";
import { candidateOf, lastShortCut, replayChain, sameSchemas } from "./processbench.js";
import { firstBelow, type ProductInput } from "./chains.js";

/**
 * The perturbations of the optimal plan, in the order rows are emitted. (A plan cut short is
 * not a kind of its own: length alone would tell it; any rejected plan may be cut, see `perturb`.)
 */
export const PERTURBATIONS = ["detour", "inverse", "swap", "substitute", "drop"] as const;
export type Perturbation = (typeof PERTURBATIONS)[number];

/**
 * The perturbations that put an undo in a plan (an action, then later one that takes it back, or
 * a step off the optimal path): no optimal plan has one, so on rejected sides alone they would
 * tell the sides apart without the state (issue 55). The same kinds, still executable and not
 * a dead end, are the chosen side of as many pairs (`ChosenKind`, `buildTrajectoryPairs`).
 */
export const UNDO_KINDS = ["detour", "inverse"] as const satisfies readonly Perturbation[];
export type UndoKind = (typeof UNDO_KINDS)[number];

/** What the chosen side is a beginning of: the optimal plan, or a detour or inverse plan (valid, costlier). */
export type ChosenKind = "optimal" | UndoKind;

/** What is known about one side of a trajectory pair (written as `chosen_*` / `rejected_*`). */
export interface TrajectorySide {
  /** The rendered steps, one line each. */
  steps: string[];
  actions: string[];
  /** Every step executable and the goal reached (checked by simulation). */
  valid: boolean;
  /** Plan cost when valid, else null. */
  cost: number | null;
  length: number;
  /**
   * 0-based index of the first step that is not optimal where it is taken (classifier reward
   * < 1, judged at the true state), -1 when every step is (an optimal plan, or a prefix of one).
   */
  first_error: number;
  /** Classifier reward of every step at the true state (a non-executable step changes nothing). */
  rewards: number[];
}

/**
 * A trajectory-level pair in TRL's preference layout: `prompt` the problem text (ended by a
 * newline), `chosen` the beginning of a plan (a correct prefix of the optimal plan, or of a
 * detour or inverse plan that is still executable and not a dead end: `meta.chosen_kind`) and
 * `rejected` a strictly worse one (a perturbed plan, `perturbation`, cut to a length drawn as
 * the chosen one's), each as its steps on consecutive lines; what is known about each side
 * under `chosen_*` / `rejected_*`; `margin` = planReward(chosen) - planReward(rejected) > 0.
 */
export interface TrajectoryPairRow extends PreferenceRow {
  level: "trajectory";
  /** Which side a format that shows both (and `score`'s side "a") shows first. */
  first: "chosen" | "rejected";
  /** The rejected side's perturbation (of the optimal plan). */
  perturbation: Perturbation;
  chosen_actions: string[];
  chosen_valid: boolean;
  chosen_cost: number | null;
  chosen_length: number;
  chosen_first_error: number;
  chosen_rewards: number[];
  rejected_actions: string[];
  rejected_valid: boolean;
  rejected_cost: number | null;
  rejected_length: number;
  rejected_first_error: number;
  rejected_rewards: number[];
  meta: {
    /** 0-based plan index where the rejected side's perturbation applies. */
    position: number;
    /**
     * What the chosen side is a beginning of: "optimal" (a correct prefix of the optimal plan,
     * planReward 1), or a detour or inverse plan (its undo inside, planReward in (0, 1)).
     */
    chosen_kind: ChosenKind;
    /** 0-based plan index where the chosen side's detour or inverse applies (null: "optimal"). */
    chosen_position: number | null;
    optimal_cost: number;
    /** Which side has more steps. */
    longer: "chosen" | "rejected" | "equal";
    /** How the rejected plan got its drawn length: as perturbed, cut (misses the goal), or continued to the goal. */
    length_fit: LengthFit;
    /** Category of the rejected side's first wrong step (null when it is only cut short). */
    error_category: Category | null;
    seed: number;
  };
}

/**
 * The reward of a whole plan behind `margin`: 1 for an optimal plan, optimal cost / cost for a
 * valid costlier one, 0 for one that fails or misses the goal. Rounded to 4 decimals.
 */
export function trajectoryReward(side: Pick<TrajectorySide, "valid" | "cost">, optimalCost: number): number {
  if (!side.valid || side.cost === null) return 0;
  if (side.cost <= optimalCost) return 1;
  return Math.round((optimalCost / side.cost) * 1e4) / 1e4;
}

/**
 * The reward of a plan or of a plan's beginning: optimal cost / (its cost + h* of the state it
 * ends in), the share of the best plan through it that an optimal plan saves; 0 when a step is
 * rejected or it ends in a dead end. A complete plan: `trajectoryReward`; a correct prefix: 1.
 * Rounded to 4 decimals.
 */
export function planReward(optimalCost: number, executed: boolean, cost: number, hEnd: number): number {
  if (!executed || hEnd === Infinity) return 0;
  const best = cost + hEnd;
  if (best <= optimalCost) return 1;
  return Math.round((optimalCost / best) * 1e4) / 1e4;
}

const FLOAT_KEYS = new Set(["margin", "chosen_rewards", "rejected_rewards"]);

/** One JSON line of a trajectory pair (`chat`: TRL's conversational layout). */
export function trajectoryLine(row: TrajectoryPairRow, chat = false): string {
  return preferenceLine(row, FLOAT_KEYS, chat);
}

/** Objects usable for parameter `i` of action `schema` (sorted ids). */
export function paramPool(task: GroundTask, schema: number, i: number): number[] {
  const types = task.domain.actions[schema]!.params[i]!.types;
  const out: number[] = [];
  for (let o = 0; o < task.objects.length; o++) {
    const ts = task.objectTypes[o]!;
    if (types.length === 0 || types.some((t) => ts.includes(t))) out.push(o);
  }
  return out;
}

/** The candidate for a (possibly pruned) grounding. */
export function groundingCandidate(task: GroundTask, schema: number, args: number[]): Candidate {
  const name = args.length === 0 ? `(${task.domain.actions[schema]!.name})` : `(${task.domain.actions[schema]!.name} ${args.map((o) => task.objects[o]!).join(" ")})`;
  const ops = findOperator(task, schema, args);
  return { schema, args, name, op: ops.length > 0 ? ops[0]! : -1 };
}

/** A perturbed plan before its length is drawn. */
interface Core {
  cands: Candidate[];
  /** 0-based plan index where the perturbation applies. */
  position: number;
  /** Leading steps that must stay for the perturbation to be part of the plan. */
  keep: number;
}

/** How the rejected plan was brought to its drawn length (`meta.length_fit`). */
export type LengthFit = "as-is" | "cut" | "continued";

interface Perturbed {
  /** The rejected side. */
  cands: Candidate[];
  /** The chosen side: a prefix of the optimal plan or of the `ChosenPlan`'s. */
  chosen: Candidate[];
  position: number;
  fit: LengthFit;
}

/**
 * The plan the chosen side is a beginning of. "optimal": the optimal plan (every prefix has
 * planReward 1). An undo kind: a detour or inverse plan continued optimally to the goal; every
 * prefix that holds its undo has one planReward in (0, 1), as what follows it is optimal.
 */
interface ChosenPlan {
  kind: ChosenKind;
  /** The plan to the goal. */
  full: Candidate[];
  /** Leading steps the chosen side must hold (the undo: `Core.keep`; 0 for the optimal plan). */
  keep: number;
  /** planReward of any prefix of at least `keep` steps. */
  reward: number;
  /** 0-based plan index of the detour or inverse (null: "optimal"). */
  position: number | null;
}

/** Is `other` strictly worse than an optimal plan of cost `optCost`? (invalid, or valid and costlier) */
function worse(task: GroundTask, cands: Candidate[], optCost: number): boolean {
  const r = simulate(task, cands);
  return !r.valid || r.cost > optCost;
}

/** Execute a chain from the initial state: valid iff every step applies and the goal holds at the end. */
export function simulate(task: GroundTask, cands: readonly Candidate[]): { valid: boolean; cost: number } {
  let s = task.init;
  let cost = 0;
  for (const c of cands) {
    let op = -1;
    for (const v of findOperator(task, c.schema, c.args)) {
      if (isApplicable(task, s, v)) {
        op = v;
        break;
      }
    }
    if (op < 0) return { valid: false, cost };
    s = applyOp(task, s, op);
    cost += task.opCost[op]!;
  }
  return { valid: isGoal(task, s), cost };
}

/** The perturbed plans of one kind, position by position in seeded order. */
function* cores(kind: Perturbation, input: ProductInput, prng: Prng, optCost: number): Generator<Core> {
  const { task, ctx } = input;
  const plan = input.planOps.map((op) => candidateOf(task, op));
  const L = plan.length;
  const positions = prng.shuffle(Array.from({ length: L }, (_, i) => i));
  if (kind === "drop") {
    yield* dropCores(input, plan, positions, prng, optCost);
    return;
  }
  for (const t of positions) {
    switch (kind) {
      case "detour": {
        // A suboptimal or backtracking action, then an optimal plan from where it leads.
        const s = input.planStates[t]!;
        const visited = input.planStates.slice(0, t + 1);
        const bad = labelExecutable(ctx, s, visited).filter((x) => x.label.category === "suboptimal" || x.label.category === "backtracking");
        if (bad.length === 0) continue;
        const x = prng.pick(bad);
        // No visited set: the optimal plan from s' may well pass through states already seen.
        const rest = optimalWalk(ctx, successor(ctx, s, x.candidate.op), null).ops.map((op) => candidateOf(task, op));
        yield { cands: [...plan.slice(0, t), x.candidate, ...rest], position: t, keep: t + 1 };
        break;
      }
      case "inverse": {
        // An action and one that undoes it, inserted before step t.
        const s = input.planStates[t]!;
        const sId = stateId(ctx, s);
        const pairs: [number, number][] = [];
        for (const a of applicableOps(ctx, s)) {
          const s1 = successor(ctx, s, a);
          for (const b of applicableOps(ctx, s1)) if (stateId(ctx, successor(ctx, s1, b)) === sId) pairs.push([a, b]);
        }
        if (pairs.length === 0) continue;
        const [a, b] = prng.pick(pairs);
        yield { cands: [...plan.slice(0, t), candidateOf(task, a), candidateOf(task, b), ...plan.slice(t)], position: t, keep: t + 2 };
        break;
      }
      case "swap": {
        // Two adjacent steps whose order matters (the swapped plan fails or costs more).
        if (t + 1 >= L) continue;
        const cands = plan.slice();
        [cands[t], cands[t + 1]] = [cands[t + 1]!, cands[t]!];
        if (cands[t]!.name !== cands[t + 1]!.name && worse(task, cands, optCost)) yield { cands, position: t, keep: t + 2 };
        break;
      }
      case "substitute": {
        // One argument of one step replaced by another object of the right type.
        const c = plan[t]!;
        const options: Candidate[] = [];
        for (let i = 0; i < c.args.length; i++) {
          for (const o of paramPool(task, c.schema, i)) {
            if (o === c.args[i] || (c.args.includes(o) && !hasRepeat(c.args))) continue;
            const args = c.args.slice();
            args[i] = o;
            const sub = groundingCandidate(task, c.schema, args);
            // a valid grounding only: a pruned one breaks a fixed fact, wrong in any state
            if (sub.op >= 0) options.push(sub);
          }
        }
        prng.shuffle(options);
        for (const sub of options) {
          const cands = plan.slice();
          cands[t] = sub;
          if (worse(task, cands, optCost)) {
            yield { cands, position: t, keep: t + 1 };
            break;
          }
        }
        break;
      }
    }
  }
}

/**
 * The "drop" plans: one step left out, and what follows the step taken in its place either the
 * rest of the old plan ("stale") or an optimal plan from the true state ("optimal"). Which of
 * the two is drawn evenly first, then the positions are tried in seeded order for it, then for
 * the other. The stale plans alone made a rejected cut reach one step further into the plan
 * than a chosen cut of the same length, so a probe read the plan's late actions (unload,
 * depart, tighten) as "rejected": drop pairs 0.67 from the actions alone (issue 55). An optimal
 * continuation usually takes the left-out step again, and its cut reaches one step less far;
 * drawn evenly and tried first, the two even out (a fallback when one is not on offer at any
 * position would tilt it again).
 */
function* dropCores(input: ProductInput, plan: Candidate[], positions: number[], prng: Prng, optCost: number): Generator<Core> {
  const { task, ctx } = input;
  const L = plan.length;
  const stale = (t: number): Candidate[] => [...plan.slice(0, t), ...plan.slice(t + 1)];
  const optimal = (t: number): Candidate[] | null => {
    if (t + 1 >= L) return null;
    const s = input.planStates[t]!;
    const v = applicableVariant(ctx, s, plan[t + 1]!.schema, plan[t + 1]!.args);
    const s1 = v >= 0 ? successor(ctx, s, v) : s;
    if (isGoal(task, s1) || hstar(ctx, s1) === Infinity) return null;
    const cands = [...plan.slice(0, t), plan[t + 1]!, ...optimalWalk(ctx, s1, null).ops.map((op) => candidateOf(task, op))];
    // the step in the left-out one's place may be optimal there (two steps in either order):
    // then this plan has no wrong step
    return firstBelow(replayChain(ctx, cands).labels.map((l) => l.reward), 1.0) >= 0 ? cands : null;
  };
  const order = prng.next() < 0.5 ? [optimal, stale] : [stale, optimal];
  for (const make of order) {
    for (const t of positions) {
      if (!worse(task, stale(t), optCost)) continue;
      const cands = make(t);
      if (cands !== null) yield { cands, position: t, keep: Math.min(t + 1, cands.length) };
    }
  }
}

/**
 * `cands` followed by an optimal plan from the true state they reach (a non-executable step
 * changes nothing), unless that state is a goal or a dead end.
 */
function continueToGoal(input: ProductInput, cands: readonly Candidate[]): Candidate[] {
  const { ctx, task } = input;
  let s = task.init;
  for (const c of cands) {
    const op = applicableVariant(ctx, s, c.schema, c.args);
    if (op >= 0) s = successor(ctx, s, op);
  }
  if (isGoal(task, s) || hstar(ctx, s) === Infinity) return cands.slice();
  return [...cands, ...optimalWalk(ctx, s, null).ops.map((op) => candidateOf(task, op))];
}

/** `planReward` of a chain replayed from the initial state. */
function chainReward(input: ProductInput, cands: readonly Candidate[], optCost: number): number {
  const r = replayChain(input.ctx, cands);
  return planReward(optCost, r.labels.every((l) => l.category !== "non-executable"), r.cost, hstar(input.ctx, r.final));
}

/**
 * The rejected plan of a perturbation and the chosen side, cut from `chosen` (the optimal plan
 * when null). So that neither reaching the goal, nor length, nor the two together tell the
 * sides apart (issues 40 and 55), both sides stop short of the goal and their lengths are two
 * independent draws from one distribution: the chosen side is the first c steps of its plan,
 * the rejected one the perturbed plan (continued to the goal by an optimal plan from the true
 * state where it can be) cut to m steps, c and m uniform on [a, b], a = max(ceil(L/2), the
 * steps either side's perturbation needs, the rejected side's first wrong step + 1), b = L - 1,
 * lowered below the first cut of either plan that would reach the goal: the rejected side is
 * the longer as often as the shorter. (A pair where both sides reach the goal has the rejected
 * one longer: the chosen is an optimal plan, the rejected at least one step more; see
 * `firstErrorChains`.) Not one length for both, as the chains have: an inserted inverse pair
 * (often two moves) reads shorter than the two plan steps it pushes out, so at equal steps the
 * side with fewer characters was the rejected one in 60-62% of inverse pairs (issue 55;
 * `audit` fails it); drawn lengths blur that (0.56-0.58), they do not remove it. With a
 * detour or inverse chosen plan, a rejected plan is taken only if its shortest cut (a steps;
 * a plan's reward never rises with its length) is already worth less than the chosen side, so
 * that the order holds for every draw and taking it says nothing about c or m. Positions are
 * tried in seeded order; null when none gives a pair.
 */
function perturb(kind: Perturbation, input: ProductInput, prng: Prng, optCost: number, chosen: ChosenPlan | null = null): Perturbed | null {
  const L = input.planOps.length;
  if (L < 2) return null;
  const lo = Math.max(1, Math.ceil(L / 2));
  const plan = chosen?.full ?? input.planOps.map((op) => candidateOf(input.task, op));
  for (const core of cores(kind, input, prng, optCost)) {
    const full = continueToGoal(input, core.cands);
    const n = core.cands.length;
    const fe = firstBelow(replayChain(input.ctx, full).labels.map((l) => l.reward), 1.0);
    if (fe < 0) continue;
    const a = Math.max(lo, core.keep, fe + 1, chosen?.keep ?? 0);
    let b = Math.min(L - 1, lastShortCut(input.ctx, full, a));
    if (chosen !== null) b = Math.min(b, lastShortCut(input.ctx, chosen.full, a));
    if (b < a) continue;
    if (chosen !== null && !(chainReward(input, full.slice(0, a), optCost) < chosen.reward)) continue;
    let c: number;
    let m: number;
    if (kind === "drop" && chosen === null) {
      // One length for both, drawn among the cuts where the two sides name each action schema
      // equally often, as the chains do (`firstErrorChains`): a left-out step is mostly one
      // that prepares another (pick-up, board, load), so that any other cut had the rejected
      // side short of a preparing action and over in a completing one, read by a probe as
      // "rejected" (drop pairs 0.60-0.67 from the actions alone, issue 55). Equal lengths say
      // nothing here: the form of the two sides is alike by construction.
      const fit: number[] = [];
      for (let k = a; k <= b; k++) if (sameSchemas(plan, full, k)) fit.push(k);
      if (fit.length === 0) continue;
      c = m = prng.pick(fit);
    } else {
      c = a + prng.int(b - a + 1);
      m = a + prng.int(b - a + 1);
    }
    const cands = full.slice(0, m);
    // a cut that holds the first wrong step is worth less than a correct prefix (checked again by the caller)
    if (chainReward(input, cands, optCost) >= 1) throw new Error(`internal: a cut of perturbation ${kind} holds no wrong step`);
    return { cands, chosen: plan.slice(0, c), position: core.position, fit: m < n ? "cut" : m > n ? "continued" : "as-is" };
  }
  return null;
}

/** How many detour or inverse plans `undoPair` tries for the chosen side (each against every rejected position). */
const UNDO_TRIES = 3;

/**
 * A pair whose chosen side holds an undo: the beginning of a detour or inverse plan of the
 * optimal plan that is still executable and not a dead end (planReward in (0, 1)), drawn as a
 * rejected side's would be (`cores`, positions in seeded order), against a `kind` perturbation
 * of the optimal plan worth less (`perturb`); null when none gives a pair.
 */
function undoPair(kind: Perturbation, undo: UndoKind, input: ProductInput, prng: Prng, optCost: number): { p: Perturbed; chosen: ChosenPlan } | null {
  const L = input.planOps.length;
  if (L < 2) return null;
  const lo = Math.max(1, Math.ceil(L / 2));
  let tries = 0;
  for (const core of cores(undo, input, prng.fork("chosen"), optCost)) {
    const full = continueToGoal(input, core.cands);
    // the undo is inside every cut: a prefix of keep steps already holds the first step off the optimal path
    if (firstBelow(replayChain(input.ctx, full).labels.map((l) => l.reward), 1.0) < 0) continue;
    const a = Math.max(lo, core.keep);
    if (a > L - 1 || lastShortCut(input.ctx, full, a) < a) continue;
    const reward = chainReward(input, full.slice(0, core.keep), optCost);
    if (!(reward > 0 && reward < 1)) continue;
    const chosen: ChosenPlan = { kind: undo, full, keep: core.keep, reward, position: core.position };
    const p = perturb(kind, input, prng.fork(`rejected-${tries}`), optCost, chosen);
    if (p !== null) return { p, chosen };
    if (++tries >= UNDO_TRIES) break;
  }
  return null;
}

function hasRepeat(xs: readonly number[]): boolean {
  return new Set(xs).size !== xs.length;
}

function side(input: ProductInput, cands: Candidate[], prng: Prng): TrajectorySide & { errorCategory: Category | null } {
  const r = replayChain(input.ctx, cands);
  const rewards = r.labels.map((l) => l.reward);
  // -1: every step optimal where it is taken (the plan, or a correct prefix of it)
  const fe = firstBelow(rewards, 1.0);
  return {
    steps: cands.map((c, i) => oneLine(input.renderer.step(i + 1, c, prng, r.before[i]))),
    actions: cands.map((c) => c.name),
    valid: r.valid,
    cost: r.valid ? r.cost : null,
    length: cands.length,
    first_error: fe,
    rewards,
    errorCategory: fe >= 0 && fe < cands.length ? r.labels[fe]!.category : null,
  };
}

/** `chosen_*` or `rejected_*` columns of one side (the steps themselves are the side's text). */
function sideColumns(name: "chosen" | "rejected", s: TrajectorySide): Record<string, unknown> {
  return {
    [`${name}_actions`]: s.actions,
    [`${name}_valid`]: s.valid,
    [`${name}_cost`]: s.cost,
    [`${name}_length`]: s.length,
    [`${name}_first_error`]: s.first_error,
    [`${name}_rewards`]: s.rewards,
  };
}

/** One pair before it is rendered. */
interface Drawn {
  kind: Perturbation;
  p: Perturbed;
  chosen: ChosenPlan | null;
  /** The row's stream, after the draws of `p`. */
  prng: Prng;
}

/**
 * Trajectory pairs of one problem: for each perturbation that applies, the beginning of a
 * better plan (chosen) against the optimal plan perturbed at a seeded position (rejected),
 * both short of the goal, their lengths drawn alike (`perturb`).
 *
 * The chosen side is a correct prefix of the optimal plan ("optimal"), except in as many pairs
 * as there are rejected sides with an undo in them (the `UNDO_KINDS` pairs of the problem):
 * for each of those, one pair of another perturbation (drawn from the problem's stream) gets
 * the same kind of undo on its chosen side, the beginning of a detour or inverse plan that is
 * still valid (`undoPair`), and keeps its rejected side's perturbation (when no pair of that
 * kind can be made, the next one is tried). So in every problem as many chosen sides as
 * rejected ones hold an undo of each kind, and the undo (the actions, not only their count)
 * says nothing about which side is chosen: before, a text model picked the chosen side of
 * 55-56% of pairs by the rejected side's actions alone (issue 55; bench/chain-probes). Every
 * rejected side is checked by replay to have a lower `planReward` than the chosen one.
 */
export function buildTrajectoryPairs(input: ProductInput): TrajectoryPairRow[] {
  const base = `${input.domain}/${input.problem}`;
  const optCost = input.planOps.reduce((a, op) => a + input.task.opCost[op]!, 0);
  const drawn = new Map<Perturbation, Drawn>();
  for (const kind of PERTURBATIONS) {
    const prng = new Prng(input.seed, `${base}/j-${kind}`);
    // a fork, so that the draws after it do not depend on how many positions were tried
    const p = perturb(kind, input, prng.fork("perturb"), optCost);
    if (p !== null) drawn.set(kind, { kind, p, chosen: null, prng });
  }
  // the pairs whose chosen side gets an undo: one per rejected side with one, of another kind
  const mix = new Prng(input.seed, `${base}/j-mix`);
  const others = [...mix.shuffle((["swap", "substitute"] as Perturbation[]).filter((k) => drawn.has(k))), ...(drawn.has("drop") ? (["drop"] as Perturbation[]) : [])];
  for (const undo of UNDO_KINDS) {
    if (!drawn.has(undo)) continue;
    for (let i = 0; i < others.length; i++) {
      const kind = others[i]!;
      const prng = new Prng(input.seed, `${base}/j-${kind}`);
      const u = undoPair(kind, undo, input, prng.fork(`perturb-${undo}`), optCost);
      if (u === null) continue;
      drawn.set(kind, { kind, p: u.p, chosen: u.chosen, prng });
      others.splice(i, 1);
      break;
    }
  }
  const rows: TrajectoryPairRow[] = [];
  for (const kind of PERTURBATIONS) {
    const d = drawn.get(kind);
    if (d === undefined) continue;
    const { p, prng } = d;
    const id = `${base}/j-${kind}`;
    const first = prng.next() < 0.5 ? "chosen" : "rejected";
    const prompt = input.renderer.prompt(prng);
    const { errorCategory: _c, ...chosen } = side(input, p.chosen, prng);
    const { errorCategory, ...rejected } = side(input, p.cands, prng);
    const rewardChosen = chainReward(input, p.chosen, optCost);
    const rewardRejected = chainReward(input, p.cands, optCost);
    if (!(rewardRejected < rewardChosen)) throw new Error(`internal: perturbation ${kind} of ${base} is not worse than the chosen side`);
    if (d.chosen !== null && !(rewardChosen > 0 && rewardChosen < 1 && rewardChosen === d.chosen.reward)) throw new Error(`internal: the ${d.chosen.kind} chosen side of ${id} is not a valid costlier plan`);
    const margin = Math.round((rewardChosen - rewardRejected) * 1e4) / 1e4;
    rows.push({
      id,
      level: "trajectory",
      domain: input.domain,
      problem: input.problem,
      split: input.split,
      prompt: trainerPrompt(prompt),
      chosen: chosen.steps.join(STEP_SEPARATOR),
      rejected: rejected.steps.join(STEP_SEPARATOR),
      margin,
      first,
      perturbation: kind,
      ...sideColumns("chosen", chosen),
      ...sideColumns("rejected", rejected),
      meta: {
        position: p.position,
        chosen_kind: d.chosen?.kind ?? "optimal",
        chosen_position: d.chosen?.position ?? null,
        optimal_cost: optCost,
        longer: chosen.length > rejected.length ? "chosen" : chosen.length < rejected.length ? "rejected" : "equal",
        length_fit: p.fit,
        error_category: errorCategory,
        seed: input.seed,
      },
    } as TrajectoryPairRow);
  }
  return rows;
}
