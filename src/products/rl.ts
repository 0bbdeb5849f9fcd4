/**
 * Prompts for RL (`generate --format rl`, docs/rl.md): one row per problem, in TRL's prompt
 * layout (a string; `--chat`: one user message), asking for a plan written one step per line in
 * a syntax the judge reads (PDDL actions, or `--style text`: "Step k: I <action>." in the
 * domain's words), with a legend of the actions and objects. Each row carries what the reward
 * needs without the folder it came from: the domain and problem PDDL (and their sha256), the
 * optimal cost, the problem id; as flat columns (TRL passes extra columns to reward functions)
 * and in verl's layout (`data_source`, `ability`, `reward_model.ground_truth`, `extra_info`).
 */
import { createHash } from "node:crypto";
import type { Renderer } from "../nl/index.js";
import type { GroundTask } from "../task/types.js";
import { Prng } from "../util/prng.js";
import { trainerPrompt, type ChatMessage } from "./layout.js";

/** How the prompt asks the model to write its steps. */
export const RL_STYLES = ["pddl", "text"] as const;
export type RlStyle = (typeof RL_STYLES)[number];

/** What the reward needs, as verl's `reward_model.ground_truth` carries it (a JSON string). */
export interface RlGroundTruth {
  domain: string;
  problem: string;
  optimal_cost: number;
}

export interface RlRow {
  id: string;
  domain: string;
  problem: string;
  split: string;
  prompt: string | ChatMessage[];
  /** An optimal plan, one PDDL action per line (a reference; the reward does not use it). */
  answer: string;
  optimal_cost: number;
  plan_length: number;
  step_syntax: RlStyle;
  domain_pddl: string;
  problem_pddl: string;
  /** sha256 (hex) of domain_pddl + "\0" + problem_pddl. */
  pddl_sha256: string;
  data_source: string;
  ability: string;
  reward_model: { style: "rule"; ground_truth: string };
  extra_info: { id: string; domain: string; problem: string; split: string; optimal_cost: number; plan_length: number; pddl_sha256: string };
}

/** What one RL row is made from. */
export interface RlInput {
  task: GroundTask;
  renderer: Renderer;
  domain: string;
  problem: string;
  split: string;
  seed: number;
  domainText: string;
  problemText: string;
  /** An optimal plan's operators. */
  planOps: readonly number[];
}

/** sha256 of a domain and problem text, as rows and requests name a problem by content. */
export function pddlSha256(domainText: string, problemText: string): string {
  return createHash("sha256").update(domainText).update("\0").update(problemText).digest("hex");
}

/** Objects listed by PDDL name in a legend, at most. */
const LEGEND_OBJECTS = 300;

/** One example grounding per action schema (distinct arguments where the task has one). */
function examples(task: GroundTask): Array<{ schema: number; args: number[]; name: string }> {
  const best = new Map<number, { schema: number; args: number[]; name: string }>();
  for (let op = 0; op < task.numOps; op++) {
    const schema = task.opSchema[op]!;
    const args = Array.from(task.opArgs.subarray(task.opArgStart[op]!, task.opArgStart[op + 1]!));
    const distinct = new Set(args).size === args.length;
    const had = best.get(schema);
    if (had === undefined || (distinct && new Set(had.args).size !== had.args.length)) best.set(schema, { schema, args, name: task.opNames[op]! });
  }
  return [...best.values()].sort((a, b) => a.schema - b.schema);
}

/** The answer instruction and legend of a prompt. */
export function rlInstruction(task: GroundTask, renderer: Renderer, style: RlStyle): string {
  const goal = task.hasCosts
    ? "Find a plan that reaches the goal at the lowest total action cost."
    : "Find a plan that reaches the goal in as few steps as possible.";
  const ex = examples(task);
  if (style === "pddl") {
    const legend = ex.map((e) => `${e.name} means: ${renderer.actionText(e.schema, e.args, null)}`);
    const names = task.objects.map((o, i) => ({ o, phrase: renderer.objectPhrase(i) }));
    const shown = names.slice(0, LEGEND_OBJECTS);
    const objects =
      shown.every((n) => n.phrase === n.o)
        ? shown.map((n) => n.o).join(", ")
        : shown.map((n) => (n.phrase === n.o ? n.o : `${n.o} (${n.phrase})`)).join(", ");
    const more = names.length > shown.length ? `, and ${names.length - shown.length} more` : "";
    return [
      goal,
      "Write the plan in PDDL: one action per line, in the order the actions are done, each as its name and arguments in parentheses. The actions, each with an example:",
      legend.join("\n"),
      `The objects' PDDL names: ${objects}${more}.`,
      "You may reason first. End your answer with the plan: one action per line, nothing else on those lines.",
    ].join("\n\n");
  }
  const legend = ex.map((e) => `- ${renderer.actionText(e.schema, e.args, null)}`);
  return [
    goal,
    'Write the plan one step per line, in the order the steps are done, each as "Step k: I <what I do>." in the words of this text. The kinds of step, each with an example:',
    legend.join("\n"),
    `For example: "Step 1: I ${ex.length > 0 ? renderer.actionText(ex[0]!.schema, ex[0]!.args, null) : "..."}."`,
    'You may reason first. End your answer with the plan: one "Step k:" line per step.',
  ].join("\n\n");
}

/** The problem text (the renderer's prompt without its instruction paragraph) and the RL instruction. */
export function rlPrompt(input: RlInput, style: RlStyle): string {
  const prng = new Prng(input.seed, `${input.domain}/${input.problem}/rl`);
  const paras = input.renderer.prompt(prng).split("\n\n");
  // the renderer's last paragraph is its instruction (step-by-step reasoning text): ours replaces it
  if (paras.length > 1) paras.pop();
  return [...paras, rlInstruction(input.task, input.renderer, style)].join("\n\n");
}

/** The row of one problem. */
export function buildRl(input: RlInput, style: RlStyle, chat: boolean): RlRow {
  const text = rlPrompt(input, style);
  const cost = input.planOps.reduce((a, op) => a + input.task.opCost[op]!, 0);
  const sha = pddlSha256(input.domainText, input.problemText);
  const id = `${input.domain}/${input.problem}`;
  const truth: RlGroundTruth = { domain: input.domainText, problem: input.problemText, optimal_cost: cost };
  return {
    id,
    domain: input.domain,
    problem: input.problem,
    split: input.split,
    prompt: chat ? [{ role: "user", content: text }] : trainerPrompt(text),
    answer: input.planOps.map((op) => input.task.opNames[op]!).join("\n"),
    optimal_cost: cost,
    plan_length: input.planOps.length,
    step_syntax: style,
    domain_pddl: input.domainText,
    problem_pddl: input.problemText,
    pddl_sha256: sha,
    data_source: "pddl2prm",
    ability: "planning",
    reward_model: { style: "rule", ground_truth: JSON.stringify(truth) },
    extra_info: { id, domain: input.domain, problem: input.problem, split: input.split, optimal_cost: cost, plan_length: input.planOps.length, pddl_sha256: sha },
  };
}

/** One JSON line of an RL row (fixed key order; no float columns). */
export function rlLine(row: RlRow): string {
  return JSON.stringify(row);
}
