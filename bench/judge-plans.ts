/**
 * Random plans as an LLM or a user might write them, for `bench/judge.ts` and the judge tests:
 * steps of an optimal plan (which go stale once the plan drifts), random executable actions
 * (detours, backtracking, dead ends), random ground actions (mostly non-executable), garbage
 * and step text in the domain's language.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { BUILTIN_DOMAINS, builtinDomainFile, builtinProblemsDir } from "../src/generators/index.js";
import { loadTemplates } from "../src/nl/index.js";
import { parseDomain, parseProblem } from "../src/pddl/index.js";
import { createJudgeTask, type JudgeTask } from "../src/products/judge.js";
import { optimalWalk } from "../src/label/walk.js";
import { applicableOps, successor } from "../src/label/context.js";
import { isApplicable } from "../src/task/index.js";
import type { Candidate } from "../src/label/types.js";
import type { Prng } from "../src/util/prng.js";

const candidateOf = (jt: JudgeTask, op: number): Candidate => {
  const t = jt.task;
  return { schema: t.opSchema[op]!, args: Array.from(t.opArgs.subarray(t.opArgStart[op]!, t.opArgStart[op + 1]!)), name: t.opNames[op]!, op };
};

/** Shares of each kind of step (the rest: garbage). */
export interface RandomPlanMix {
  plan: number;
  executable: number;
  any: number;
  /** Of the steps that name an action, the share written as step text. */
  text: number;
}

export const DEFAULT_MIX: RandomPlanMix = { plan: 0.55, executable: 0.25, any: 0.15, text: 0.2 };

/** A random plan of about the optimal plan's length (+0..3 steps); PDDL or step text per step. */
export function randomPlan(jt: JudgeTask, prng: Prng, mix: RandomPlanMix = DEFAULT_MIX): string[] {
  const { task, ctx, renderer } = jt;
  const plan = optimalWalk(ctx, task.init, null).ops;
  const length = plan.length + prng.int(4);
  const out: string[] = [];
  let s = task.init;
  let next = 0;
  while (out.length < length) {
    const r = prng.next();
    let op = -1;
    if (r < mix.plan && next < plan.length) op = plan[next++]!;
    else if (r < mix.plan + mix.executable) {
      const ops = applicableOps(ctx, s);
      if (ops.length > 0) op = prng.pick(ops);
    } else if (r < mix.plan + mix.executable + mix.any) op = prng.int(task.numOps);
    if (op < 0) {
      out.push(prng.pick(["(frobnicate)", "I think about it for a while.", "(stack)", ""]));
      continue;
    }
    out.push(prng.next() < mix.text ? renderer.step(out.length + 1, candidateOf(jt, op), prng, s) : task.opNames[op]!);
    if (isApplicable(task, s, op)) s = successor(ctx, s, op);
  }
  return out;
}

/** The judge tasks of the first `n` shipped problems of each built-in domain (all, or those in `only`). */
export function* builtinJudgeTasks(n: number, only: readonly string[] = []): Generator<{ domain: string; problem: string; jt: JudgeTask }> {
  for (const d of BUILTIN_DOMAINS) {
    if (only.length > 0 && !only.includes(d.name)) continue;
    const file = builtinDomainFile(d.name);
    const domain = parseDomain(readFileSync(file, "utf8"), file);
    const templates = loadTemplates(d.name);
    for (let i = 1; i <= n; i++) {
      const problem = `p${String(i).padStart(4, "0")}`;
      const pfile = join(builtinProblemsDir(d.name), `${problem}.pddl`);
      yield { domain: d.name, problem, jt: createJudgeTask(domain, parseProblem(readFileSync(pfile, "utf8"), pfile, domain), { templates }) };
    }
  }
}
