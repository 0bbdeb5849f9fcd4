import { UserError } from "../pddl/errors.js";
import type { NativeRow } from "./row.js";
import { stringifyWithFloats } from "./row.js";
// the text layout of rows is the products' (src/products/layout.ts)
import { oneLine, trainerPrompt } from "../products/layout.js";

/** Output formats of `generate --format` (DESIGN.md §9). */
export const FORMATS = ["native", "trl", "openrlhf", "math-shepherd", "paper-prm", "pairs", "trajectories", "processbench", "feedback", "verifier", "acp", "rl"] as const;
export type Format = (typeof FORMATS)[number];

/** The formats written per problem (src/dataset/eval-job.ts) rather than per labelled step. */
export const EVAL_FORMATS = ["pairs", "trajectories", "processbench", "feedback", "verifier", "acp", "rl"] as const;
export type EvalFormat = (typeof EVAL_FORMATS)[number];

export function isEvalFormat(f: string): f is EvalFormat {
  return (EVAL_FORMATS as readonly string[]).includes(f);
}

/**
 * The consumer each format is made for: the trainer (or tool) and the versions whose loading
 * code the rows were checked against (tests/trainer-contracts.test.ts replays it). One table,
 * shown by `generate --help`, the README and the dataset card.
 */
export const FORMAT_CONSUMERS: Record<Format, string> = {
  native:
    "graded rewards (0/0.25/0.5/0.75/1.0) for your own training code; NOT for TRL's PRMTrainer as is (it casts labels with int(): 0.75 -> 0): use --format trl, or map labels to l >= 0.75",
  trl: "TRL PRMTrainer, stepwise supervision (trl 0.13-0.25: trl.PRMTrainer; 0.26-1.9: trl.experimental.prm.PRMTrainer): boolean labels, step_separator \"\\n\"",
  openrlhf:
    "OpenRLHF 0.5.0-0.9.5 openrlhf.cli.train_prm (PRM training was removed in 0.9.6): --input_key input --label_key value --placeholder_token ки --reward_tokens + -",
  "math-shepherd": "the Math-Shepherd dataset layout (input/label/task), converted for TRL's PRMTrainer by to_stepwise of pddl2prm's docs/training.md (TRL's examples/datasets/math_shepherd.py drops the prompt's final newline)",
  "paper-prm":
    "the input of the PRMs released with the paper (Babelscape/Llama-3.1-8B-PRM800k-PDDL-r and its siblings): text = their build_prompt(problem, steps), 'Problem: ...\\nSteps:\\nStep 1: ...\\nки', one graded reward per ки marker for a scalar head",
  pairs: "TRL >= 0.24 RewardTrainer (uses margin) and DPOTrainer, preference with explicit prompt; --chat: conversational",
  trajectories: "TRL >= 0.24 RewardTrainer (uses margin) and DPOTrainer, preference with explicit prompt; --chat: conversational",
  processbench: "evaluation with `pddl2prm score` (ProcessBench's field names); not a training format",
  feedback:
    "TRL >= 0.24 SFTTrainer, conversational prompt-completion: a row per good step, the episode before it (mistakes and the environment's critiques too) as the prompt, so loss never falls on a mistake; --style dialogue: the whole episode as messages (every assistant turn with its reward)",
  verifier: "TRL >= 0.24 SFTTrainer, prompt-completion (a generative verifier; --style rrm: Agent-RRM's <think>/<critique>/<score>); --chat: conversational",
  rl: "online RL with verifiable rewards: TRL >= 0.24 GRPOTrainer (prompt; --chat: conversational; the other columns reach reward functions as keyword arguments), verl (data_source, reward_model.ground_truth, extra_info; --chat --parquet) and Reasoning-Gym-style score_answer; rewards by `pddl2prm reward` (docs/rl.md)",
  acp: "reasoning questions with exact answers (applicability ... next action; yes/no, choice of four, free): ACPBench's question/choices/answer, and TRL >= 0.24 SFTTrainer prompt-completion; graded by `pddl2prm score`",
};

/** The step marker of Math-Shepherd and OpenRLHF's PRM recipe. */
export const STEP_TAG = "ки";

export interface FormatOptions {
  /** A step whose reward is >= threshold counts as good where a format needs booleans. */
  threshold: number;
}

/** True when `name` is a known format. */
export function isFormat(name: string): name is Format {
  return (FORMATS as readonly string[]).includes(name);
}

function taggedInput(row: NativeRow, marks: string[]): string {
  if (row.prompt.includes(STEP_TAG) || row.completions.some((c) => c.includes(STEP_TAG))) {
    // the trainer would count a placeholder too many and misplace every label after it
    throw new UserError(`row ${row.id}: the text contains the step marker '${STEP_TAG}'; use --format trl`);
  }
  const steps = row.completions.map((c, i) => `${oneLine(c)} ${marks[i]}`);
  return `${row.prompt}\n${steps.join("\n")}`;
}

/** A step without its "Step k: " marker. */
function stepBody(step: string): string {
  const m = /^Step \d+:\s*/.exec(step);
  return m === null ? step : step.slice(m[0].length);
}

/**
 * The input of the paper's released PRMs, as their model cards' `build_prompt(problem, steps)`
 * lays it out: "Problem: {problem}\nSteps:\n" and every step as "Step {i}: {step}\nки", joined
 * by newlines; the PRM's scalar head is read at each marker.
 */
export function paperPrmText(problem: string, steps: readonly string[]): string {
  return `Problem: ${problem}\nSteps:\n${steps.map((s, i) => `Step ${i + 1}: ${s}\n${STEP_TAG}`).join("\n")}`;
}

/** One JSON line of `row` in `format`. Byte-stable: key order is fixed. */
export function formatRow(row: NativeRow, format: Format, opts: FormatOptions): string {
  const good = (l: number) => l >= opts.threshold;
  switch (format) {
    case "native":
      return stringifyWithFloats(
        {
          id: row.id,
          domain: row.domain,
          problem: row.problem,
          split: row.split,
          prompt: row.prompt,
          completions: row.completions,
          labels: row.labels,
          category: row.category,
          critique: row.critique,
          meta: row.meta,
        },
        ["labels"],
      );
    case "trl":
      // TRL's stepwise-supervision layout: boolean labels (the trainer casts with int()), graded
      // rewards kept alongside; the prompt ends with the separator TRL puts between steps.
      return stringifyWithFloats(
        {
          id: row.id,
          prompt: trainerPrompt(row.prompt),
          completions: row.completions.map(oneLine),
          labels: row.labels.map(good),
          rewards: row.labels,
          category: row.category,
        },
        ["rewards"],
      );
    case "openrlhf":
      // OpenRLHF's hard-label PRM layout: one placeholder per step, a reward token per step.
      return stringifyWithFloats(
        {
          id: row.id,
          input: taggedInput(row, row.labels.map(() => STEP_TAG)),
          value: row.labels.map((l) => (good(l) ? "+" : "-")),
          rewards: row.labels,
          category: row.category,
        },
        ["rewards"],
      );
    case "paper-prm": {
      // the layout of the model cards' build_prompt: each step after "Step i: ", the marker on a line of its own
      const steps = row.completions.map((c) => stepBody(oneLine(c)));
      if ([row.prompt, ...steps].some((t) => t.includes(STEP_TAG))) {
        throw new UserError(`row ${row.id}: the text contains the step marker '${STEP_TAG}'; use --format trl`);
      }
      return stringifyWithFloats(
        {
          id: row.id,
          domain: row.domain,
          problem_id: row.problem,
          split: row.split,
          problem: row.prompt,
          steps,
          rewards: row.labels,
          text: paperPrmText(row.prompt, steps),
          category: row.category,
        },
        ["rewards"],
      );
    }
    case "math-shepherd":
      // `task` is a column of the original dataset that TRL's conversion script removes by name.
      return JSON.stringify({
        id: row.id,
        input: taggedInput(row, row.labels.map(() => STEP_TAG)),
        label: taggedInput(row, row.labels.map((l) => (good(l) ? "+" : "-"))),
        task: row.domain,
        category: row.category,
      });
    default:
      // pairs, trajectories, processbench, feedback, verifier: written per problem by src/dataset/eval-job.ts.
      throw new Error(`internal: format ${format} is not written row by row`);
  }
}
