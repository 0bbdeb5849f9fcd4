/**
 * The stages the conformance script runs on every (domain, problem) pair, in order. A stage
 * throws to fail (PddlError/UserError messages are printed as they are); later stages of a
 * pair are skipped after a failure. To add a stage (ground, solve, ...), append an entry to
 * `conformanceStages` below; stages share parsed data through `ctx`.
 */
import type { Domain, Problem } from "../pddl/index.js";
import { parseDomainFile, parseProblemFile } from "../pddl/index.js";
import { ground, validatePlan, type GroundTask } from "../task/index.js";
import { solve } from "../search/index.js";

/** Data shared by the stages of one (domain, problem) pair. */
export interface StageContext {
  domainPath: string;
  problemPath: string;
  /** Set by the parse stage. */
  domain?: Domain;
  /** Set by the parse stage. */
  problem?: Problem;
  /** Free slots for later stages (e.g. the ground task). */
  data: Map<string, unknown>;
}

/** One conformance stage. `run` throws (or rejects) on failure; it may return a short note. */
export interface ConformanceStage {
  name: string;
  run(domainPath: string, problemPath: string, ctx: StageContext): void | string | Promise<void | string>;
}

/** Stage list, run in order; append new stages here. */
export const conformanceStages: ConformanceStage[] = [
  {
    name: "parse",
    run(domainPath, problemPath, ctx) {
      ctx.domain = parseDomainFile(domainPath);
      ctx.problem = parseProblemFile(problemPath, ctx.domain);
    },
  },
  {
    name: "ground",
    run(_domainPath, _problemPath, ctx) {
      if (!ctx.domain || !ctx.problem) throw new Error("ground stage needs the parse stage");
      const t0 = performance.now();
      const task = ground(ctx.domain, ctx.problem);
      ctx.data.set("task", task);
      return `${task.numFacts} facts, ${task.numOps} operators, ${(performance.now() - t0).toFixed(1)} ms`;
    },
  },
  {
    // A* + LM-Cut with a short time limit; a found plan must validate. A limit is not a failure.
    name: "solve",
    run(_domainPath, _problemPath, ctx) {
      const task = ctx.data.get("task") as GroundTask | undefined;
      if (!task) throw new Error("solve stage needs the ground stage");
      const r = solve(task, { limits: { timeMs: 2000 } });
      if (r.status !== "solved") return `${r.status} after ${r.expanded} expansions`;
      const v = validatePlan(task, r.planNames);
      if (!v.valid || v.cost !== r.cost) throw new Error(`solve: the plan found (cost ${r.cost}) does not validate`);
      return `cost ${r.cost}, ${r.expanded} expanded, ${r.searchMs.toFixed(1)} ms`;
    },
  },
];
