/**
 * The stages the conformance script runs on every (domain, problem) pair, in order. A stage
 * throws to fail (PddlError/UserError messages are printed as they are); later stages of a
 * pair are skipped after a failure. To add a stage (ground, solve, ...), append an entry to
 * `conformanceStages` below; stages share parsed data through `ctx`.
 */
import type { Domain, Problem } from "../pddl/index.js";
import { parseDomainFile, parseProblemFile } from "../pddl/index.js";
import { ground } from "../task/index.js";

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
];
