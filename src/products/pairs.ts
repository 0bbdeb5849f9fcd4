/**
 * Step-level preference pairs (`--format pairs`).
 */
import type { GroundTask } from "../task/types.js";
import { classify, labelExecutable, type Label } from "../label/classify.js";
import { optimalActions } from "../label/context.js";
import type { Candidate, Category } from "../label/types.js";
import { Prng } from "../util/prng.js";
import { candidateOf } from "./processbench.js";
import type { ProductInput } from "./chains.js";
import { groundingCandidate, paramPool } from "./trajectories.js";
import { oneLine, STEP_SEPARATOR, trainerPrompt } from "./layout.js";
import { preferenceLine, type PreferenceRow } from "./preference.js";

/** How the rejected action differs from the chosen one. */
export type EditKind = "argument" | "operator" | "other";
const EDIT_RANK: Record<EditKind, number> = { argument: 0, operator: 1, other: 2 };

/**
 * A step-level preference pair in TRL's preference layout with an explicit prompt: `prompt` is
 * the problem text and the steps before this state, each line ended by a newline, so that
 * `prompt + chosen` and `prompt + rejected` (what TRL's trainers tokenize) read as one chain of
 * steps; `chosen` and `rejected` are the candidate next steps ("Step k: ..."), on one line
 * each; `margin` = chosen_reward - rejected_reward. `--chat` writes the same strings as
 * messages (`preferenceLine`).
 */
export interface StepPairRow extends PreferenceRow {
  level: "step";
  /** PDDL ground actions, categories and rewards of the two sides. */
  chosen_action: string;
  chosen_category: Category;
  chosen_reward: number;
  rejected_action: string;
  rejected_category: Category;
  rejected_reward: number;
  /** argument: same operator, one argument changed; operator: another operator on the chosen step's objects; other. */
  edit: EditKind;
  /** Which side a format that shows both (and `score`'s side "a") shows first. */
  first: "chosen" | "rejected";
  meta: {
    state_index: number;
    prefix_actions: string[];
    h_before: number | null;
    chosen_extra_cost: number | null;
    rejected_extra_cost: number | null;
    failed_preconditions: string[];
    plan_length: number;
    seed: number;
  };
}

/** Pairs written per state at most. */
export const PAIRS_PER_STATE = 2;

const FLOAT_KEYS = new Set(["margin", "chosen_reward", "rejected_reward"]);

/** One JSON line of a step pair. */
export function stepPairLine(row: StepPairRow, chat = false): string {
  return preferenceLine(row, FLOAT_KEYS, chat);
}

/** The edit kind of `c` relative to `chosen`. */
export function editKind(chosen: Candidate, c: Candidate): EditKind {
  if (c.schema === chosen.schema && c.args.length === chosen.args.length) {
    let diff = 0;
    for (let i = 0; i < c.args.length; i++) if (c.args[i] !== chosen.args[i]) diff++;
    if (diff === 1) return "argument";
    return "other";
  }
  if (c.schema !== chosen.schema && c.args.length > 0 && chosen.args.length > 0) {
    const a = new Set(c.args);
    const b = new Set(chosen.args);
    const sub = [...a].every((x) => b.has(x)) || [...b].every((x) => a.has(x));
    if (sub) return "operator";
  }
  return "other";
}

/** Same-operator edits of `chosen`: one argument replaced by another object of the right type. */
function argumentEdits(task: GroundTask, chosen: Candidate): Candidate[] {
  const out: Candidate[] = [];
  const repeats = new Set(chosen.args).size !== chosen.args.length;
  for (let i = 0; i < chosen.args.length; i++) {
    for (const o of paramPool(task, chosen.schema, i)) {
      // (stack a a)-like groundings are not plausible steps unless the original repeats too.
      if (o === chosen.args[i] || (!repeats && chosen.args.includes(o))) continue;
      const args = chosen.args.slice();
      args[i] = o;
      out.push(groundingCandidate(task, chosen.schema, args));
    }
  }
  return out;
}

/** Other operators over (some of) the chosen step's objects, type-correct, without repeats. */
function operatorEdits(task: GroundTask, chosen: Candidate): Candidate[] {
  const out: Candidate[] = [];
  const objs = [...new Set(chosen.args)];
  task.domain.actions.forEach((a, schema) => {
    if (schema === chosen.schema || a.params.length === 0 || a.params.length > objs.length) return;
    const pools = a.params.map((_, i) => new Set(paramPool(task, schema, i)));
    const rec = (args: number[]): void => {
      if (args.length === a.params.length) {
        out.push(groundingCandidate(task, schema, args.slice()));
        return;
      }
      for (const o of objs) if (!args.includes(o) && pools[args.length]!.has(o)) rec([...args, o]);
    };
    rec([]);
  });
  return out;
}

interface Labelled {
  candidate: Candidate;
  label: Label;
  edit: EditKind;
}

/**
 * Step pairs of one problem. At every state s_t of the optimal walk: chosen = a seeded choice
 * among the optimal actions; the rejected pool = its one-argument edits, other operators on its
 * objects, every executable action, and the candidates the sampler drew at s_t, all labelled
 * by the classifier and kept when `threshold` <= reward < 1. Up to PAIRS_PER_STATE pairs per
 * state: each takes a category not used yet at this state (seeded order), and within it the
 * most minimal edit (argument, then operator, then other), seeded among equals.
 */
export function buildStepPairs(input: ProductInput): StepPairRow[] {
  const { task, ctx, renderer } = input;
  const base = `${input.domain}/${input.problem}`;
  const rows: StepPairRow[] = [];
  const L = input.planOps.length;
  const drawnAt = new Map<number, Candidate[]>();
  for (const st of input.steps) {
    if ((st.branch ?? 0) !== 0) continue;
    const l = drawnAt.get(st.stateIndex);
    if (l) l.push(st.candidate);
    else drawnAt.set(st.stateIndex, [st.candidate]);
  }
  for (let t = 0; t < L; t++) {
    const s = input.planStates[t]!;
    const visited = input.planStates.slice(0, t + 1);
    const prng = new Prng(input.seed, `${base}/t${t}/pairs`);
    const optNames = new Map<string, number>();
    for (const op of optimalActions(ctx, s)) if (!optNames.has(task.opNames[op]!)) optNames.set(task.opNames[op]!, op);
    const chosenOp = prng.pick([...optNames.values()]);
    const chosen = candidateOf(task, chosenOp);
    const chosenLabel = classify(ctx, s, visited, chosen);

    const pool = new Map<string, Labelled>();
    const add = (c: Candidate, label?: Label): void => {
      // only valid groundings, as the sampler's near misses: a grounding the grounder pruned
      // breaks a fixed fact (or can never apply), so it is rejectable without reading the state
      if (c.op < 0 || pool.has(c.name) || optNames.has(c.name)) return;
      const l = label ?? classify(ctx, s, visited, c);
      if (l.reward >= 1 || l.reward < input.threshold) return;
      pool.set(c.name, { candidate: c, label: l, edit: editKind(chosen, c) });
    };
    for (const c of argumentEdits(task, chosen)) add(c);
    for (const c of operatorEdits(task, chosen)) add(c);
    for (const x of labelExecutable(ctx, s, visited)) add(x.candidate, x.label);
    for (const c of drawnAt.get(t) ?? []) add(c);
    if (pool.size === 0) continue;

    const byCat = new Map<Category, Labelled[]>();
    for (const x of pool.values()) {
      const l = byCat.get(x.label.category);
      if (l) l.push(x);
      else byCat.set(x.label.category, [x]);
    }
    const cats = prng.shuffle([...byCat.keys()].sort());
    const picks: Labelled[] = [];
    for (const cat of cats.slice(0, PAIRS_PER_STATE)) {
      const list = byCat.get(cat)!;
      const best = Math.min(...list.map((x) => EDIT_RANK[x.edit]));
      picks.push(prng.pick(list.filter((x) => EDIT_RANK[x.edit] === best).sort((a, b) => (a.candidate.name < b.candidate.name ? -1 : 1))));
    }
    picks.forEach((rej, i) => {
      const id = `${base}/t${String(t).padStart(2, "0")}/p${i}`;
      const rp = new Prng(input.seed, id);
      const prefixCands = input.planOps.slice(0, t).map((op) => candidateOf(task, op));
      const problemText = renderer.prompt(rp);
      // each step rendered in the state it is taken in (conditional effects as they fire)
      const prefix = prefixCands.map((c, k) => oneLine(renderer.step(k + 1, c, rp, input.planStates[k])));
      rows.push({
        id,
        level: "step",
        domain: input.domain,
        problem: input.problem,
        split: input.split,
        prompt: trainerPrompt(problemText) + prefix.map((p) => p + STEP_SEPARATOR).join(""),
        chosen: oneLine(renderer.step(t + 1, chosen, rp, s)),
        rejected: oneLine(renderer.step(t + 1, rej.candidate, rp, s)),
        margin: chosenLabel.reward - rej.label.reward,
        chosen_action: chosen.name,
        chosen_category: chosenLabel.category,
        chosen_reward: chosenLabel.reward,
        rejected_action: rej.candidate.name,
        rejected_category: rej.label.category,
        rejected_reward: rej.label.reward,
        edit: rej.edit,
        first: rp.next() < 0.5 ? "chosen" : "rejected",
        meta: {
          state_index: t,
          prefix_actions: prefixCands.map((c) => c.name),
          h_before: chosenLabel.evidence.hBefore,
          chosen_extra_cost: chosenLabel.evidence.extraCost,
          rejected_extra_cost: rej.label.evidence.extraCost,
          failed_preconditions: rej.label.evidence.failedPreconditions,
          plan_length: L,
          seed: input.seed,
        },
      });
    });
  }
  return rows;
}
