/**
 * What the products built per problem (pairs, trajectories, processbench, verifier, feedback)
 * share: their input (one labelled problem), the definitions of a wrong step, length buckets.
 */
import type { LabelContext } from "../label/context.js";
import type { Category, LabeledStep } from "../label/types.js";
import type { Renderer } from "../nl/index.js";
import type { GroundTask } from "../task/types.js";
import { formatFloat } from "./layout.js";

/** Everything a product needs about one labelled problem. */
export interface ProductInput {
  task: GroundTask;
  ctx: LabelContext;
  renderer: Renderer;
  domain: string;
  problem: string;
  /** The problem's split (train, validation, test), as the dataset stage assigned it. */
  split: string;
  seed: number;
  /** The labelled candidates of the main walk (branch 0), as `labelProblem` returned them. */
  steps: LabeledStep[];
  /** The optimal plan the walk follows: operator ids and the states s0..sL. */
  planOps: number[];
  planStates: Uint32Array[];
  /**
   * The run's `--threshold`. processbench, verifier: a step is wrong iff its reward < threshold
   * (1.0 = `--error-def reward-lt-1`, 0.5 = `reward-le-0.25`). pairs: the lowest reward the
   * rejected side may have (0 = any, 0.75 = `--hard`). trajectories, feedback: unused.
   */
  threshold: number;
}

/** What the chain rows (processbench, verifier) record about their chain under `meta`. */
export interface ChainMeta {
  error_def: string;
  /** Category of the first wrong step (null for a chain without one). */
  category: Category | null;
  actions: string[];
  step_rewards: number[];
  step_categories: Category[];
  length: number;
  length_bucket: string;
  plan_length: number;
  optimal_cost: number;
  seed: number;
}

/** Error definitions of `--error-def` and the threshold each stands for (error iff reward < threshold). */
export const ERROR_DEFS = { "reward-lt-1": 1.0, "reward-le-0.25": 0.5 } as const;
export type ErrorDef = keyof typeof ERROR_DEFS;

/** Name of the error definition a threshold stands for. */
export function errorDefName(threshold: number): string {
  for (const [k, v] of Object.entries(ERROR_DEFS)) if (v === threshold) return k;
  return `reward-lt-${formatFloat(threshold)}`;
}

/** Length buckets (number of steps) used in meta and in `score` breakdowns. */
export function lengthBucket(steps: number): string {
  if (steps <= 4) return "1-4";
  if (steps <= 8) return "5-8";
  if (steps <= 16) return "9-16";
  if (steps <= 32) return "17-32";
  return "33+";
}

/** Index of the first reward under `threshold`, or -1. */
export function firstBelow(rewards: readonly number[], threshold: number): number {
  for (let i = 0; i < rewards.length; i++) if (rewards[i]! < threshold) return i;
  return -1;
}
