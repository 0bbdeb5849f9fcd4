/**
 * First-error evaluation chains in ProcessBench's layout (`--format processbench`), and the
 * helpers the chain and trajectory formats share (a chain replayed through the classifier, with
 * the state each step is judged and rendered in).
 */
import { operatorCandidate, type Label } from "../label/classify.js";
import { applicableVariant, successor, type LabelContext } from "../label/context.js";
import { optimalWalk } from "../label/walk.js";
import type { Candidate, LabeledStep } from "../label/types.js";
import { isGoal } from "../task/index.js";
import { Prng } from "../util/prng.js";
import { errorDefName, firstBelow, lengthBucket, type ChainMeta, type ProductInput } from "./chains.js";
import { replaySteps } from "./judge.js";
import { jsonWithFloats } from "./layout.js";

/** The labels of a chain of steps replayed from s0 against the true state. */
export interface ChainReplay {
  labels: Label[];
  /**
   * The true state each step is judged in (before it; a rejected step leaves the state
   * unchanged, so the step after it is judged, and rendered, where the agent really is).
   */
  before: Uint32Array[];
  /** The chain ends in a goal state and every step was executable. */
  valid: boolean;
  /** Cost of the executable steps. */
  cost: number;
  /** The true state after the chain. */
  final: Uint32Array;
}

/**
 * Replay `candidates` from the initial state (`replaySteps` of the judge: each labelled by the
 * classifier at the true state reached so far; a non-executable step changes nothing, so later
 * steps are judged where the agent really is), as the chain formats read it. Every step of every
 * chain, right or wrong, is rendered in `before[i]`: the state it is judged in. Were steps after
 * a rejected one rendered without a state, conditional effects would read in their lifted form
 * ("for every ... such that ...") in wrong chains only, and the text alone would tell a wrong
 * chain from a right one.
 */
export function replayChain(ctx: LabelContext, candidates: readonly Candidate[]): ChainReplay {
  const r = replaySteps(ctx, candidates.map((candidate) => ({ candidate })));
  return {
    labels: r.steps.map((st) => st.label!),
    before: r.steps.map((st) => st.state),
    valid: r.steps.every((st) => st.executed) && isGoal(ctx.task, r.final),
    cost: r.cost,
    final: r.final,
  };
}

/** The candidate for a ground operator. */
export const candidateOf = operatorCandidate;

/** A processbench row (ProcessBench's field names plus our `meta`). */
export interface ProcessBenchRow {
  id: string;
  /** The problem text (= the prompt of the other formats). */
  problem: string;
  steps: string[];
  /** 0-based index of the first wrong step, or -1. */
  label: number;
  meta: ChainMeta & {
    domain: string;
    problem_id: string;
    split: string;
    /** What follows the wrong step: an optimal plan from the true state, or the stale old plan (both cut to the pair's drawn length). */
    continuation: "optimal" | "stale" | null;
  };
}

const FLOAT_KEYS = new Set(["step_rewards"]);

/** One JSON line of a processbench row. */
export function processBenchLine(row: ProcessBenchRow): string {
  return jsonWithFloats(row, FLOAT_KEYS);
}

/** A first-error chain before it is rendered: its steps and, with a wrong step, what follows it. */
export interface ChainDraft {
  cands: Candidate[];
  continuation: "optimal" | "stale" | null;
}

/**
 * The first-error chains of one problem, drawn with `prng` (processbench and verifier rows): one
 * error-free chain and, when a wrong candidate exists, one chain with a wrong step at a seeded
 * depth d (its category drawn evenly among those the sampler offered, its action schema the
 * replaced step's where one is on offer: see below). So that neither length,
 * nor reaching the goal, nor the two together tell them apart (issues 40 and 55), both chains
 * stop short of the goal and are equally long:
 * - the error-free chain is a correct prefix of c steps of the optimal plan;
 * - the wrong chain is the plan's first d steps, the wrong step, and a continuation (optimal
 *   from the true state when it keeps the chains' schema counts equal, else the rest of the
 *   old plan), cut to the same c steps;
 * - c is drawn uniformly from [a, b], a = max(ceil(L/2), d + 1) (the wrong step is in every
 *   cut), b = L - 1 (a correct prefix never reaches the goal), lowered below the first cut of
 *   the wrong chain that would reach it.
 * Lengths drawn apart from one range would be fair only on average: on 434 problems the rule
 * "the longer is right" strayed 0.03 from chance on one seed (issue 55); equal lengths tie it.
 * A chain that reaches the goal cannot take part: one without a wrong step is an optimal plan
 * (L steps) and one with a wrong step has at least L + 1 (unit costs), so in a pair where both
 * reached it the longer would be the wrong one, and in a pair where one did, reaching it or
 * the lengths would tell. A plan of one step has no shorter prefix: no chains. The gold `label`
 * is the first step whose replayed reward is under `threshold`. The error-free chain comes first.
 */
export function firstErrorChains(input: ProductInput, prng: Prng): ChainDraft[] {
  const { task, ctx, threshold } = input;
  const L = input.planOps.length;
  if (L < 2) return [];
  const plan = input.planOps.map((op) => candidateOf(task, op));
  const lo = Math.max(1, Math.ceil(L / 2));

  // Wrong candidates by depth, from the walk's labelled draws.
  const wrongAt = new Map<number, LabeledStep[]>();
  for (const st of input.steps) {
    if (st.reward >= threshold || (st.branch ?? 0) !== 0) continue;
    const list = wrongAt.get(st.stateIndex);
    if (list) list.push(st);
    else wrongAt.set(st.stateIndex, [st]);
  }
  const depthOrder = prng.shuffle(Array.from({ length: L }, (_, i) => i));
  // a depth whose wrong step fits in a chain that stops short of the goal
  const draw = (a: number, b: number): number => a + prng.int(b - a + 1);
  /** The wrong chain through `err` at depth d and its drawn cut, or null when no cut stops short of the goal. */
  const wrongChain = (d: number, err: LabeledStep, continuation: "optimal" | "stale"): { full: Candidate[]; c: number } | null => {
    let rest: Candidate[];
    if (continuation === "stale") {
      rest = plan.slice(d + 1);
    } else {
      const s = input.planStates[d]!;
      let from = s;
      if (err.category !== "non-executable") {
        from = successor(ctx, s, applicableVariant(ctx, s, err.candidate.schema, err.candidate.args));
      }
      // No visited set: after a backtracking step the optimal plan may cross states seen before.
      rest = optimalWalk(ctx, from, null).ops.map((op) => candidateOf(task, op));
    }
    const full = [...plan.slice(0, d), err.candidate, ...rest];
    const a = Math.max(lo, d + 1);
    const b = Math.min(L - 1, lastShortCut(ctx, full, a));
    return b < a ? null : { full, c: draw(a, b) };
  };
  // The two chains name each action schema equally often wherever the walk allows (issue 55):
  // unmatched, a probe on the chains' words read the extra actions (verifier +0.05 over chance;
  // elevator's wrong chains held a wrong move and the move that mends it). So the wrong step is
  // of the replaced step's schema where one is on offer, and an optimal continuation that would
  // change the counts gives way to the rest of the old plan (then the chains differ in the wrong
  // step alone). The category is drawn first, evenly among those offered with the replaced
  // step's schema (else among all offered), so that matching schemas does not thin out the
  // rarer kinds of error.
  const fits = (d: number): LabeledStep[] => (d + 1 > L - 1 ? [] : (wrongAt.get(d) ?? []));
  const sameSchema = (d: number) => (o: LabeledStep) => o.candidate.schema === plan[d]!.schema;
  const categories = (same: boolean): string[] => [...new Set(depthOrder.flatMap((d) => fits(d).filter((o) => !same || sameSchema(d)(o)).map((o) => o.category)))].sort();
  const matched = categories(true);
  const offered = matched.length > 0 ? matched : categories(false);
  if (offered.length === 0) return [{ cands: plan.slice(0, draw(lo, L - 1)), continuation: null }];
  const cat = prng.pick(offered);
  // passes: the category with the replaced step's schema, the category, any wrong step
  for (const pass of [0, 1, 2]) {
    for (const d of depthOrder) {
      let options = fits(d);
      if (pass < 2) options = options.filter((o) => o.category === cat && (pass === 1 || sameSchema(d)(o)));
      if (options.length === 0) continue;
      if (pass === 2) {
        const cats = [...new Set(options.map((o) => o.category))].sort();
        const c = prng.pick(cats);
        options = options.filter((o) => o.category === c);
      }
      const err = prng.pick(options);
      let continuation: "optimal" | "stale" = prng.next() < 0.5 ? "optimal" : "stale";
      if (err.category === "dead-end") continuation = "stale";
      let w = wrongChain(d, err, continuation);
      if (continuation === "optimal" && (w === null || !sameSchemas(plan, w.full, w.c))) {
        continuation = "stale";
        w = wrongChain(d, err, continuation);
      }
      if (w === null) continue;
      return [
        { cands: plan.slice(0, w.c), continuation: null },
        { cands: w.full.slice(0, w.c), continuation },
      ];
    }
  }
  // no wrong step fits: the error-free chain alone, a prefix like any other
  return [{ cands: plan.slice(0, draw(lo, L - 1)), continuation: null }];
}

/** The first c candidates of both chains name each action schema equally often. */
export function sameSchemas(a: readonly Candidate[], b: readonly Candidate[], c: number): boolean {
  const count = new Map<Candidate["schema"], number>();
  for (let i = 0; i < c; i++) {
    count.set(a[i]!.schema, (count.get(a[i]!.schema) ?? 0) + 1);
    count.set(b[i]!.schema, (count.get(b[i]!.schema) ?? 0) - 1);
  }
  for (const v of count.values()) if (v !== 0) return false;
  return true;
}

/**
 * The largest m such that no cut of `chain` to a length in [a, m] ends at the goal (a rejected
 * step changes nothing); a - 1 when the cut to a does.
 */
export function lastShortCut(ctx: LabelContext, chain: readonly Candidate[], a: number): number {
  const r = replayChain(ctx, chain);
  const atGoal = (m: number): boolean => isGoal(ctx.task, m < chain.length ? r.before[m]! : r.final);
  let m = a - 1;
  while (m + 1 <= chain.length && !atGoal(m + 1)) m++;
  return m;
}

/** Processbench rows of one problem: `firstErrorChains`, rendered; ids in seeded order. */
export function buildProcessBench(input: ProductInput): ProcessBenchRow[] {
  const { task, ctx } = input;
  const base = `${input.domain}/${input.problem}`;
  const prng = new Prng(input.seed, `${base}/processbench`);
  const L = input.planOps.length;
  const optimalCost = input.planOps.reduce((a, op) => a + task.opCost[op]!, 0);
  const threshold = input.threshold;
  const chains = firstErrorChains(input, prng);

  // Seeded id order; rows are emitted in id order.
  const order = prng.shuffle(chains.map((_, i) => i));
  const rows: ProcessBenchRow[] = [];
  for (let k = 0; k < order.length; k++) {
    const chain = chains[order[k]!]!;
    const id = `${base}/k${k}`;
    const rowPrng = new Prng(input.seed, id);
    const replay = replayChain(ctx, chain.cands);
    const rewards = replay.labels.map((l) => l.reward);
    const label = firstBelow(rewards, threshold);
    rows.push({
      id,
      problem: input.renderer.prompt(rowPrng),
      steps: chain.cands.map((c, i) => input.renderer.step(i + 1, c, rowPrng, replay.before[i])),
      label,
      meta: {
        domain: input.domain,
        problem_id: input.problem,
        split: input.split,
        error_def: errorDefName(threshold),
        category: label >= 0 ? replay.labels[label]!.category : null,
        continuation: label >= 0 ? chain.continuation : null,
        actions: chain.cands.map((c) => c.name),
        step_rewards: rewards,
        step_categories: replay.labels.map((l) => l.category),
        length: chain.cands.length,
        length_bucket: lengthBucket(chain.cands.length),
        plan_length: L,
        optimal_cost: optimalCost,
        seed: input.seed,
      },
    });
  }
  return rows;
}
