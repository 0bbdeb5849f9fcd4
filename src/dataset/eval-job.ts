/**
 * The entry point that runs one problem for the formats written per problem rather than per
 * labelled step: the products of src/products (pairs, trajectories, processbench, feedback,
 * verifier), their rows measured for `--max-length`.
 */
import type { GroundTask } from "../task/types.js";
import { createLabelContext, type LabelContext } from "../label/context.js";
import { labelProblemAll, optimalWalk, ProblemSkipped } from "../label/walk.js";
import type { LabeledStep } from "../label/types.js";
import { LimitError } from "../search/types.js";
import { createRenderer, type NlTemplates } from "../nl/index.js";
import { Prng } from "../util/prng.js";
import { buildFeedback, feedbackLine, feedbackTurnLine, feedbackTurns } from "../products/feedback.js";
import { buildVerifier, verifierLine } from "../products/verifier.js";
import { emptyCounts, type JobConfig, type JobResult, type ProblemJob } from "./records.js";
import type { ProductInput } from "../products/chains.js";
import { buildProcessBench, processBenchLine } from "../products/processbench.js";
import { buildTrajectoryPairs, trajectoryLine } from "../products/trajectories.js";
import { buildStepPairs, stepPairLine } from "../products/pairs.js";
import { EVAL_FORMATS, isEvalFormat, type EvalFormat } from "./formats.js";
import { trainerPrompt } from "../products/layout.js";
import { acpLine, buildAcp } from "../reasoning/index.js";
import { buildRl, rlLine, type RlStyle } from "../products/rl.js";

/** States one proof of a reasoning question may search (its question is skipped past them). */
const ACP_PROOF_STATES = 100_000;
import { feedbackTokens, preferenceTokens, promptCompletionTokens, stepwiseTokens, tokenCounter } from "./length.js";

export { EVAL_FORMATS, isEvalFormat, type EvalFormat };

/** The optimal plan `labelProblem` walks for these settings (same PRNG stream). */
function walkPlan(ctx: LabelContext, seed: number, problemKey: string, randomOptimal: boolean): { ops: number[]; states: Uint32Array[] } {
  const prng = randomOptimal ? Prng.forProblem(seed, problemKey).fork("walk") : null;
  return optimalWalk(ctx, ctx.task.init, prng);
}

/**
 * Run one grounded problem for an evaluation format: label the walk as `generate` does, then
 * build the format's rows. `result` comes in with grounding time set; counts are the labelled walk
 * candidates' categories, as for the step formats. A problem hitting a limit is skipped.
 */
export function runEvalJob(
  job: ProblemJob,
  config: JobConfig,
  task: GroundTask,
  templates: NlTemplates | null,
  result: JobResult,
  problemText?: string,
): JobResult {
  const format = config.format as string;
  const key = `${job.domainName}/${job.problemId}`;
  const t0 = performance.now();
  if (format === "rl") return runRlJob(job, config, task, templates, result, problemText ?? job.problemText ?? "", t0);
  let input: ProductInput;
  try {
    const ctx = createLabelContext(task, {
      limits: { timeMs: config.timeMs, maxExpansions: config.maxExpansions, maxStates: config.maxStates },
    });
    const steps: LabeledStep[] = labelProblemAll(task, {
      problemId: key,
      seed: config.seed,
      samplesPerState: config.samplesPerState,
      randomOptimal: config.randomOptimal,
      balance: config.balance,
      nonExecutable: config.nonExecutable,
      context: ctx,
    });
    const plan = walkPlan(ctx, config.seed, key, config.randomOptimal);
    input = {
      task,
      ctx,
      renderer: createRenderer(task, templates),
      domain: job.domainName,
      problem: job.problemId,
      split: job.split,
      seed: config.seed,
      steps,
      planOps: plan.ops,
      planStates: plan.states,
      threshold: config.threshold,
    };
    for (const st of steps) result.counts[st.category]++;
    result.planLength = plan.ops.length;
    result.states = plan.states.length;
    // rows longer than --max-length tokens in their trainer are dropped (src/dataset/length.ts)
    const counter = config.maxLength == null ? null : tokenCounter(config.tokenizer ?? null);
    const fits = (tokens: () => number): boolean => {
      if (counter === null || tokens() <= config.maxLength!) return true;
      result.dropped++;
      return false;
    };
    if (format === "pairs") {
      const rows = buildStepPairs(input).filter((r) => fits(() => preferenceTokens(counter!, r, config.chat)));
      result.lines = rows.map((r) => stepPairLine(r, config.chat));
    } else if (format === "trajectories") {
      const rows = buildTrajectoryPairs(input).filter((r) => fits(() => preferenceTokens(counter!, r, config.chat)));
      result.lines = rows.map((r) => trajectoryLine(r, config.chat));
    } else if (format === "processbench") {
      const rows = buildProcessBench(input).filter((r) => fits(() => stepwiseTokens(counter!, trainerPrompt(r.problem), r.steps)));
      result.lines = rows.map(processBenchLine);
    } else if (format === "feedback") {
      const rows = buildFeedback(input, { samplesPerState: config.samplesPerState, nonExecutable: config.nonExecutable });
      if (config.style === "dialogue") result.lines = rows.filter((r) => fits(() => feedbackTokens(counter!, r.messages))).map(feedbackLine);
      else result.lines = rows.flatMap(feedbackTurns).filter((r) => fits(() => promptCompletionTokens(counter!, r.prompt, r.completion))).map(feedbackTurnLine);
    } else if (format === "acp") {
      const rows = buildAcp({ ...input, maxStates: Math.min(config.maxStates, ACP_PROOF_STATES) });
      result.lines = rows.filter((r) => fits(() => promptCompletionTokens(counter!, r.prompt, r.completion))).map(acpLine);
    } else {
      const rows = buildVerifier(input, config.style === "rrm" ? "rrm" : "plain", config.chat);
      result.lines = rows.filter((r) => fits(() => promptCompletionTokens(counter!, r.prompt, r.completion))).map(verifierLine);
    }
  } catch (e) {
    skipOnLimit(e, result);
  }
  result.ms.labelling = performance.now() - t0;
  return result;
}

/** A problem a limit stopped is skipped (with the limit's reason); any other error is thrown on. */
function skipOnLimit(e: unknown, result: JobResult): void {
  const skip = e instanceof ProblemSkipped ? e.message : e instanceof LimitError ? e.message : null;
  if (skip === null) throw e;
  result.skipped = skip;
  result.lines = [];
  result.dropped = 0;
  result.counts = emptyCounts();
}

/**
 * `--format rl`: one prompt row per problem with what its reward needs (src/products/rl.ts). No
 * candidates are labelled: only the optimal plan is found (its cost is the row's optimal cost).
 */
function runRlJob(job: ProblemJob, config: JobConfig, task: GroundTask, templates: NlTemplates | null, result: JobResult, problemText: string, t0: number): JobResult {
  const key = `${job.domainName}/${job.problemId}`;
  try {
    const ctx = createLabelContext(task, { limits: { timeMs: config.timeMs, maxExpansions: config.maxExpansions, maxStates: config.maxStates } });
    const plan = walkPlan(ctx, config.seed, key, config.randomOptimal);
    const row = buildRl(
      {
        task,
        renderer: createRenderer(task, templates),
        domain: job.domainName,
        problem: job.problemId,
        split: job.split,
        seed: config.seed,
        domainText: job.domainText,
        problemText,
        planOps: plan.ops,
      },
      (config.style ?? "pddl") as RlStyle,
      config.chat,
    );
    result.planLength = plan.ops.length;
    result.states = plan.states.length;
    const counter = config.maxLength == null ? null : tokenCounter(config.tokenizer ?? null);
    if (counter !== null && promptCompletionTokens(counter, row.prompt, "") > config.maxLength!) {
      result.dropped++;
      result.lines = [];
    } else result.lines = [rlLine(row)];
  } catch (e) {
    skipOnLimit(e, result);
  }
  result.ms.labelling = performance.now() - t0;
  return result;
}
