/**
 * Feedback dialogues (`--format feedback`): an agent proposes one step per turn, the
 * environment answers with what is wrong or right about it (the critique of its exact label),
 * the agent recovers from its mistakes. Two layouts (`--style`):
 * - `turns` (default): one row per good turn in TRL's conversational prompt-completion layout;
 *   the prompt is the episode before it, mistakes and critiques included, the completion the
 *   turn. SFTTrainer puts loss on completions only, so a model learns to recover from its
 *   mistakes without learning to make them.
 * - `dialogue`: the whole episode as `messages` (conversational language modelling); with
 *   `assistant_only_loss` every assistant turn is trained, mistakes too: for trainers that
 *   weight turns by their `reward`.
 * Every assistant turn carries its reward.
 *
 * The walk: from s0, follow an optimal plan; every turn, a retry and a recovery step too, is a
 * mistake with probability MISTAKE_RATE, of a category drawn evenly among the wrong ones the
 * sampler offers there (balanced draw: every executable action labelled, plus near misses).
 * The environment rejects a non-executable step (the state stays put, the agent tries again);
 * after a detour or a backtracking step the agent follows an optimal plan from where it is; a
 * dead end ends the episode. Where a turn is, or what came before it, says nothing about
 * whether it is a mistake (`pddl2prm audit` checks: depth, attempt, the step before).
 * Labels and critiques come from replaying the proposed steps (src/products/judge.ts), so a
 * dialogue re-derives from its PDDL with `judge`.
 */
import { opCandidate } from "../label/classify.js";
import { labelDrawn, drawCandidates } from "../label/sample.js";
import { optimalWalk } from "../label/walk.js";
import type { Candidate, Category } from "../label/types.js";
import { isGoal } from "../task/index.js";
import { Prng } from "../util/prng.js";
import type { ProductInput } from "./chains.js";
import { replaySteps, stepCritique } from "./judge.js";
import { jsonWithFloats, type ChatMessage } from "./layout.js";
import { applicableVariant, successor } from "../label/context.js";

/** A message of a feedback dialogue: assistant turns carry the reward of their step. */
export interface FeedbackMessage extends ChatMessage {
  reward?: number;
}

/** One dialogue (TRL conversational language modelling: `messages`). */
export interface FeedbackRow {
  id: string;
  domain: string;
  problem: string;
  split: string;
  messages: FeedbackMessage[];
  meta: {
    /** PDDL of every assistant step, in order. */
    actions: string[];
    /** Category of every assistant step. */
    categories: Category[];
    /** The categories of the mistakes, in order. */
    mistakes: Category[];
    /** How the episode ends. */
    outcome: "goal" | "dead-end";
    /** Cost of the executed steps. */
    cost: number;
    optimal_cost: number;
    plan_length: number;
    seed: number;
  };
}

/** One trained turn of an episode (`--style turns`, TRL conversational prompt-completion). */
export interface FeedbackTurnRow {
  id: string;
  domain: string;
  problem: string;
  split: string;
  /** The episode before the turn: the problem, earlier steps (mistakes too) and their critiques. */
  prompt: FeedbackMessage[];
  /** The turn: one assistant message, an optimal step. */
  completion: FeedbackMessage[];
  meta: FeedbackRow["meta"] & {
    /** Index of the completion among the episode's assistant turns. */
    turn: number;
    /** The turn before it was a mistake: the completion is a recovery. */
    recovery: boolean;
  };
}

/** The layouts of `--format feedback` (`--style`); the first is the default. */
export const FEEDBACK_STYLES = ["turns", "dialogue"] as const;
export type FeedbackStyle = (typeof FEEDBACK_STYLES)[number];

/** What the first user turn adds to the problem text. */
export const FEEDBACK_INSTRUCTION =
  "Give one step per message. After each step you get feedback on it: whether it was possible, and whether it brought the goal closer. A step that is not possible changes nothing.";

const REJECTED = "Nothing has changed.";
const ENDED = "The episode ends here.";

const FLOAT_KEYS = new Set(["reward"]);

/** One JSON line of a feedback dialogue (rewards always print as floats). */
export function feedbackLine(row: FeedbackRow): string {
  return jsonWithFloats(row, FLOAT_KEYS);
}

/** One JSON line of a trained turn (rewards always print as floats). */
export function feedbackTurnLine(row: FeedbackTurnRow): string {
  return jsonWithFloats(row, FLOAT_KEYS);
}

/**
 * The trained turns of a dialogue: a row per optimal assistant turn, the episode before it as
 * the prompt. Mistakes appear only in prompts, so they get no loss; a mistake that ends the
 * episode (a dead end) or that no good turn follows is in no row.
 */
export function feedbackTurns(dialogue: FeedbackRow): FeedbackTurnRow[] {
  const out: FeedbackTurnRow[] = [];
  const cats = dialogue.meta.categories;
  let turn = -1;
  dialogue.messages.forEach((m, i) => {
    if (m.role !== "assistant") return;
    turn++;
    if (cats[turn] !== "optimal") return;
    out.push({
      id: `${dialogue.id}/t${turn}`,
      domain: dialogue.domain,
      problem: dialogue.problem,
      split: dialogue.split,
      prompt: dialogue.messages.slice(0, i),
      completion: [m],
      meta: { ...dialogue.meta, turn, recovery: turn > 0 && cats[turn - 1] !== "optimal" },
    });
  });
  return out;
}

/** Options of `buildFeedback`. */
export interface FeedbackOptions {
  /** Candidates drawn where a mistake is made (the run's y). */
  samplesPerState: number;
  nonExecutable: "near-miss" | "any";
}

/**
 * The chance that a turn is a mistake: the same for every turn (first try, retry, recovery,
 * early or late), so that neither a turn's depth nor its attempt nor the step before it tells
 * its label. About 2 mistakes in a plan of 10 steps; a dialogue may have none.
 */
export const MISTAKE_RATE = 0.2;

/** The steps the agent proposes: an optimal plan with mistakes at random turns, and recovery. */
function proposeSteps(input: ProductInput, options: FeedbackOptions, prng: Prng): { cands: Candidate[]; mistakes: Category[] } | null {
  const { ctx, task } = input;
  const L = input.planOps.length;
  if (L === 0) return null;
  // a guard, never reached in practice: each mistake costs a few turns at most
  const maxTurns = 4 * L + 16;
  let s = task.init;
  let visited: Uint32Array[] = [s];
  let plan = input.planOps.slice();
  let next = 0;
  const cands: Candidate[] = [];
  const mistakes: Category[] = [];
  while (!isGoal(task, s)) {
    const t = cands.length;
    if (t >= maxTurns) return null;
    if (prng.next() < MISTAKE_RATE) {
      const drawn = drawCandidates(ctx, s, options.samplesPerState, prng.fork(`draw${t}`), { visited, balance: true, nonExecutable: options.nonExecutable });
      const labels = labelDrawn(ctx, s, visited, drawn);
      const wrong = new Map<Category, Candidate[]>();
      labels.forEach((l, i) => {
        if (l.category === "optimal") return;
        const list = wrong.get(l.category) ?? [];
        list.push(drawn[i]!.candidate);
        wrong.set(l.category, list);
      });
      if (wrong.size > 0) {
        const cat = prng.pick([...wrong.keys()].sort());
        const c = prng.pick(wrong.get(cat)!);
        cands.push(c);
        mistakes.push(cat);
        if (cat === "non-executable") continue; // rejected: the agent tries again from s
        if (cat === "dead-end") break;
        s = successor(ctx, s, applicableVariant(ctx, s, c.schema, c.args));
        visited = [...visited, s];
        // recover: an optimal plan from where the agent is (it may cross visited states)
        plan = optimalWalk(ctx, s, null).ops;
        next = 0;
        continue;
      }
    }
    const op = plan[next++]!;
    cands.push(opCandidate(ctx, op));
    s = successor(ctx, s, op);
    visited = [...visited, s];
  }
  return { cands, mistakes };
}

/**
 * The feedback dialogue of one problem (none when the plan is empty). Deterministic in (seed,
 * domain, problem).
 */
export function buildFeedback(input: ProductInput, options: FeedbackOptions): FeedbackRow[] {
  const { task, ctx, renderer } = input;
  const id = `${input.domain}/${input.problem}/f0`;
  const prng = new Prng(input.seed, id);
  const proposal = proposeSteps(input, options, prng.fork("walk"));
  if (proposal === null) return [];
  const replay = replaySteps(ctx, proposal.cands.map((candidate) => ({ candidate })));
  const messages: FeedbackMessage[] = [{ role: "user", content: `${renderer.prompt(prng)}\n\n${FEEDBACK_INSTRUCTION}` }];
  replay.steps.forEach((r, i) => {
    const l = r.label!;
    const c = proposal.cands[i]!;
    // a retried step keeps its number: the rejected one did not happen
    messages.push({ role: "assistant", content: renderer.step(r.stateIndex + 1, c, prng, r.state), reward: l.reward });
    let feedback = stepCritique(task, renderer, r, prng);
    if (!r.executed) feedback += ` ${REJECTED}`;
    else if (l.category === "dead-end") feedback += ` ${ENDED}`;
    messages.push({ role: "user", content: feedback });
  });
  const categories = replay.steps.map((r) => r.label!.category);
  return [
    {
      id,
      domain: input.domain,
      problem: input.problem,
      split: input.split,
      messages,
      meta: {
        actions: proposal.cands.map((c) => c.name),
        categories,
        mistakes: proposal.mistakes,
        outcome: isGoal(task, replay.final) ? "goal" : "dead-end",
        cost: replay.cost,
        optimal_cost: input.planOps.reduce((a, op) => a + task.opCost[op]!, 0),
        plan_length: input.planOps.length,
        seed: input.seed,
      },
    },
  ];
}
