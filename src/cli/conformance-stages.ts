/**
 * The stages the conformance script runs on every (domain, problem) pair, in order. A stage
 * throws to fail (PddlError/UserError messages are printed as they are); later stages of a
 * pair are skipped after a failure. To add a stage (ground, solve, ...), append an entry to
 * `conformanceStages` below; stages share parsed data through `ctx`.
 */
import type { Domain, Problem } from "../pddl/index.js";
import { parseDomainFile, parseProblemFile } from "../pddl/index.js";
import { ground, validatePlan, type GroundTask } from "../task/index.js";
import { solve, type SearchResult } from "../search/index.js";
import { existsSync, readFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";

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
      ctx.data.set("solve", r);
      if (r.status !== "solved") return `${r.status} after ${r.expanded} expansions`;
      const v = validatePlan(task, r.planNames);
      if (!v.valid || v.cost !== r.cost) throw new Error(`solve: the plan found (cost ${r.cost}) does not validate`);
      if (r.initialH !== null && r.initialH > r.cost!) throw new Error(`solve: initial h ${r.initialH} exceeds the optimal cost ${r.cost} (inadmissible)`);
      return `cost ${r.cost}, h0 ${r.initialH}, ${r.expanded} expanded, ${r.searchMs.toFixed(1)} ms`;
    },
  },
  {
    // Where the problem's folder has an expected.json ({"p01.pddl": {"cost": 6, "initial_h": 6}},
    // figures from Fast Downward's A* + LM-Cut), the search must reproduce them exactly.
    name: "expect",
    run(_domainPath, problemPath, ctx) {
      const file = join(dirname(problemPath), "expected.json");
      if (!existsSync(file)) return;
      const want = (JSON.parse(readFileSync(file, "utf8")) as Record<string, Expected>)[basename(problemPath)];
      if (!want) return;
      const r = ctx.data.get("solve") as SearchResult | undefined;
      if (!r) throw new Error("expect stage needs the solve stage");
      const got: Expected = { cost: r.cost, initial_h: r.initialH };
      for (const k of ["cost", "initial_h"] as const) {
        if (want[k] !== undefined && want[k] !== got[k]) throw new Error(`expected ${k} ${want[k]} (${file}), got ${got[k]}`);
      }
      return "as expected";
    },
  },
];

interface Expected {
  cost?: number | null;
  initial_h?: number | null;
}
