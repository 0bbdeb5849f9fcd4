/** Shared helpers of the pairs/trajectories/processbench tests: run a built-in problem, replay rows. */
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { runJob, type JobConfig, type ProblemJob } from "../src/dataset/job.js";
import type { Format } from "../src/dataset/formats.js";
import { classify, createLabelContext, groundingName, type Candidate, type Label, type LabelContext } from "../src/label/index.js";
import { parseDomain, parseProblem } from "../src/pddl/index.js";
import { applyOp, findOperator, ground, isApplicable, resolveGroundAction } from "../src/task/index.js";
import type { GroundTask } from "../src/task/types.js";

export const ROOT = resolve(__dirname, "..");

export function builtinJob(domain: string, problem: string): ProblemJob {
  const domainFile = join(ROOT, "domains", domain, "domain.pddl");
  const problemFile = join(ROOT, "problems", domain, `${problem}.pddl`);
  return {
    index: 0,
    domainName: domain,
    domainFile,
    domainText: readFileSync(domainFile, "utf8"),
    problemId: problem,
    problemFile,
    problemText: readFileSync(problemFile, "utf8"),
    split: "test",
    builtinTemplates: domain,
    templatesFile: null,
  };
}

export function config(format: Format, threshold: number, seed = 5): JobConfig {
  return {
    seed,
    samplesPerState: 6,
    format,
    threshold,
    randomOptimal: false,
    balance: false,
    nonExecutable: "near-miss",
    timeMs: 60_000,
    maxExpansions: 5_000_000,
    maxStates: 2_000_000,
    chat: false,
    maxLength: null,
    tokenizer: null,
    maxOps: 1_000_000,
    maxFacts: 1_000_000,
    genericFallback: false, wholeProblems: false,
    keepRows: false,
  };
}

/** Rows of one built-in problem in an evaluation format, parsed. */
export function rowsOf<T>(domain: string, problem: string, format: Format, threshold: number, seed = 5): { rows: T[]; lines: string[] } {
  const r = runJob(builtinJob(domain, problem), config(format, threshold, seed));
  if (r.skipped !== null) throw new Error(`skipped: ${r.skipped}`);
  return { rows: r.lines.map((l) => JSON.parse(l) as T), lines: r.lines };
}

/** A fresh task and labelling context, independent of the generator's. */
export function freshContext(domain: string, problem: string): { task: GroundTask; ctx: LabelContext } {
  const job = builtinJob(domain, problem);
  const d = parseDomain(job.domainText, job.domainFile);
  const task = ground(d, parseProblem(job.problemText!, job.problemFile, d));
  return { task, ctx: createLabelContext(task) };
}

export function cand(ctx: LabelContext, text: string): Candidate {
  const r = resolveGroundAction(ctx.task, text);
  if ("error" in r) throw new Error(r.error);
  const ops = findOperator(ctx.task, r.schema, r.args);
  return { schema: r.schema, args: r.args, name: groundingName(ctx, r.schema, r.args), op: ops[0] ?? -1 };
}

/**
 * Label each action of a chain from s0 at the true state (non-executable steps change nothing),
 * with the true states so far as the visited set. Written here from the classifier alone.
 */
export function relabel(ctx: LabelContext, actions: string[]): Label[] {
  const task = ctx.task;
  let s = task.init;
  const visited = [s];
  const out: Label[] = [];
  for (const a of actions) {
    const c = cand(ctx, a);
    out.push(classify(ctx, s, visited.slice(), c));
    const op = findOperator(task, c.schema, c.args).find((o) => isApplicable(task, s, o));
    if (op !== undefined) {
      s = applyOp(task, s, op);
      visited.push(s);
    }
  }
  return out;
}

/** States s0..sk of a chain of executable actions. */
export function statesOf(ctx: LabelContext, actions: string[]): Uint32Array[] {
  const out = [ctx.task.init];
  for (const a of actions) {
    const c = cand(ctx, a);
    const s = out[out.length - 1]!;
    const op = findOperator(ctx.task, c.schema, c.args).find((o) => isApplicable(ctx.task, s, o));
    if (op === undefined) throw new Error(`${a} not applicable`);
    out.push(applyOp(ctx.task, s, op));
  }
  return out;
}

/** Small problems of several built-in domains that keep each test file fast. */
export const CASES: [string, string][] = [
  ["blocksworld", "p0001"],
  ["hanoi", "p0001"],
  ["ferry", "p0001"],
  ["rooms", "p0001"],
  ["visitgrid", "p0001"],
  ["spanner", "p0001"],
  ["elevator", "p0001"],
  ["logistics", "p0001"],
];

/** One side of a pair as the length x goal rule sees it: does it end at the goal, how many steps. */
export interface GoalLength {
  goal: boolean;
  length: number;
}

/**
 * Share of pairs on which issue 55's rule picks the right side: where both reach the goal the
 * shorter, else the longer (ties half). 1.0 on the old chains (both to the goal, the wrong one
 * longer, or neither, the wrong one cut shorter); 0.5 when it says nothing.
 */
export function lengthGoalShare(pairs: readonly { right: GoalLength; wrong: GoalLength }[]): number {
  let credit = 0;
  for (const { right, wrong } of pairs) {
    if (right.length === wrong.length) credit += 0.5;
    else if ((right.goal && wrong.goal) === right.length < wrong.length) credit++;
  }
  return credit / pairs.length;
}
