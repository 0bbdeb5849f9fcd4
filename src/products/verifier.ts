/**
 * Generative-verifier data (`--format verifier`): the input is a problem and a chain of steps,
 * one error-free and one with a wrong step per problem, the pair of processbench
 * (`firstErrorChains`: both stop short of the goal and are equally long, so that neither
 * length nor reaching the goal, nor the two together, tell them apart); the target checks the chain
 * step by step from the exact label evidence, up to the first wrong step, then gives the
 * verdict. `--style rrm` writes the target as Agent-RRM's `<think>…</think>`,
 * `<critique>…</critique>`, `<score>…</score>`.
 *
 * Rows are TRL's prompt-completion layout (strings; with `--chat`, conversational), for
 * supervised fine-tuning of a verifier.
 */
import { REWARD, type Category } from "../label/types.js";
import { joinList } from "../nl/text.js";
import { isGoal } from "../task/index.js";
import { Prng } from "../util/prng.js";
import { errorDefName, firstBelow, lengthBucket, type ChainMeta, type ProductInput } from "./chains.js";
import { replaySteps, stepCritique, type ReplayedStep } from "./judge.js";
import { firstErrorChains } from "./processbench.js";
import { jsonWithFloats, oneLine, trainerPrompt, type ChatMessage } from "./layout.js";

/** Target layouts: plain verification text, or Agent-RRM's tags. */
export const VERIFIER_STYLES = ["plain", "rrm"] as const;
export type VerifierStyle = (typeof VERIFIER_STYLES)[number];

export interface VerifierRow {
  id: string;
  domain: string;
  problem: string;
  split: string;
  /** The problem, the chain and what to do (ends with a newline); with `--chat`, one user message. */
  prompt: string | ChatMessage[];
  /** The verification; with `--chat`, one assistant message. */
  completion: string | ChatMessage[];
  /** 0-based index of the first wrong step, or -1. */
  label: number;
  /**
   * The chain's process score in [0, 1]: the mean step reward with the steps after the first
   * wrong one counting 0 (1.0 for an optimal plan).
   */
  score: number;
  meta: { style: VerifierStyle } & ChainMeta;
}

const FLOAT_KEYS = new Set(["score", "step_rewards"]);

/** One JSON line of a verifier row. */
export function verifierLine(row: VerifierRow): string {
  return jsonWithFloats(row, FLOAT_KEYS);
}

/** What each category of step is, as the instruction names the wrong ones. */
const WRONG_WHEN: Record<Category, string> = {
  "non-executable": "it is not possible in the state reached",
  "dead-end": "it makes the goal unreachable",
  backtracking: "it undoes progress",
  suboptimal: "it is a detour that no optimal plan takes",
  optimal: "",
};
const WRONG_ORDER: Category[] = ["non-executable", "dead-end", "backtracking", "suboptimal"];

/** The task of the verifier, with the run's definition of a wrong step in words. */
export function verifierInstruction(threshold: number): string {
  const wrong = WRONG_ORDER.filter((c) => REWARD[c] < threshold).map((c) => WRONG_WHEN[c]);
  return (
    "Check this solution step by step. For each step, say whether it is correct and why, stopping at the first wrong step; then give your verdict." +
    (wrong.length > 0 ? ` A step is wrong when ${joinList(wrong, "or")}.` : "")
  );
}

/** The chain's process score: mean reward, steps after the first wrong one counting 0. */
export function processScore(rewards: readonly number[], firstWrong: number): number {
  if (rewards.length === 0) return 1;
  const upto = firstWrong < 0 ? rewards : rewards.slice(0, firstWrong + 1);
  return Math.round((upto.reduce((a, r) => a + r, 0) / rewards.length) * 100) / 100;
}

/** The verification of a replayed chain (plain text or Agent-RRM's tags). */
function target(
  input: ProductInput,
  replay: ReplayedStep[],
  atGoal: boolean,
  label: number,
  score: number,
  style: VerifierStyle,
  prng: Prng,
): string {
  const { task, renderer, threshold } = input;
  const n = label < 0 ? replay.length : label + 1;
  const lines: string[] = [];
  let firstCritique = "";
  for (let i = 0; i < n; i++) {
    const r = replay[i]!;
    const reward = r.label?.reward ?? 0;
    const critique = oneLine(stepCritique(task, renderer, r, prng));
    if (i === label) firstCritique = critique;
    // an optimal step's critique says it is correct; the others get the run's verdict
    const verdict = reward >= 1 ? "" : reward >= threshold ? " So this step is acceptable." : " So this step is wrong.";
    lines.push(`Step ${i + 1}: ${critique}${verdict}`);
  }
  const allOptimal = replay.every((r) => (r.label?.reward ?? 0) >= 1);
  const verdict =
    label >= 0
      ? `Verdict: step ${label + 1} is the first wrong step.`
      : allOptimal
        ? `Verdict: all ${replay.length} steps are correct${atGoal ? "" : "; the goal is not reached yet"}.`
        : `Verdict: no step is wrong${atGoal ? "" : "; the goal is not reached yet"}.`;
  if (style === "plain") return [...lines, verdict].join("\n");
  const critique =
    label >= 0
      ? `Step ${label + 1} is wrong. ${firstCritique}`
      : allOptimal
        ? `No step is wrong: every step is on an optimal plan${atGoal ? " and the plan reaches the goal" : ", though the goal is not reached yet"}.`
        : `No step is wrong, though not every step is optimal${atGoal ? "" : " and the goal is not reached yet"}.`;
  return `<think>\n${[...lines, verdict].join("\n")}\n</think>\n<critique>${critique}</critique>\n<score>${score.toFixed(2)}</score>`;
}

/**
 * The verifier rows of one problem: processbench's two chains (`firstErrorChains`: a prefix of
 * the optimal plan, and a chain with a wrong step at a seeded depth, its category drawn evenly
 * among those on offer there; both short of the goal, equally long). Both or
 * neither: a problem without a wrong candidate gives no rows. The two ids are in seeded order, so an id says
 * nothing about the label.
 */
export function buildVerifier(input: ProductInput, style: VerifierStyle, chat: boolean): VerifierRow[] {
  const { task, ctx, threshold } = input;
  const base = `${input.domain}/${input.problem}`;
  const prng = new Prng(input.seed, `${base}/verifier`);
  const L = input.planOps.length;
  // processbench's pair: both short of the goal, equally long, so that neither says which is wrong
  const chains = firstErrorChains(input, prng).map((c) => c.cands);
  if (chains.length < 2) return [];
  const optimalCost = input.planOps.reduce((a, op) => a + task.opCost[op]!, 0);
  const order = prng.shuffle([0, 1]);
  return order.map((c, k) => {
    const chain = chains[c]!;
    const id = `${base}/v${k}`;
    const rowPrng = new Prng(input.seed, id);
    const replayed = replaySteps(ctx, chain.map((candidate) => ({ candidate })));
    const replay = replayed.steps;
    const rewards = replay.map((r) => r.label!.reward);
    const label = firstBelow(rewards, threshold);
    const score = processScore(rewards, label);
    // every step is rendered in the state it is judged in (a rejected step leaves it unchanged),
    // in right and wrong chains alike: the text must not tell which chain has a wrong step
    const steps = chain.map((cand, i) => oneLine(input.renderer.step(i + 1, cand, rowPrng, replay[i]!.state)));
    const prompt = `${input.renderer.prompt(rowPrng)}\n\nProposed solution:\n${steps.join("\n")}\n\n${verifierInstruction(threshold)}`;
    const completion = target(input, replay, isGoal(task, replayed.final), label, score, style, rowPrng);
    return {
      id,
      domain: input.domain,
      problem: input.problem,
      split: input.split,
      prompt: chat ? [{ role: "user", content: prompt }] : trainerPrompt(prompt),
      completion: chat ? [{ role: "assistant", content: completion }] : completion,
      label,
      score,
      meta: {
        style,
        error_def: errorDefName(threshold),
        category: label >= 0 ? replay[label]!.label!.category : null,
        actions: chain.map((x) => x.name),
        step_rewards: rewards,
        step_categories: replay.map((r) => r.label!.category),
        length: chain.length,
        length_bucket: lengthBucket(chain.length),
        plan_length: L,
        optimal_cost: optimalCost,
        seed: input.seed,
      },
    };
  });
}
