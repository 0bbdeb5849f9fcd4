/**
 * `pddl2prm solve DOMAIN PROBLEM [--heuristic lmcut|hmax|blind] [--json] [--plan-file F]
 *  [--time-limit S] [--max-expansions N]` (DESIGN.md §10).
 *
 * `--time-limit` (default 300 s) bounds parsing, grounding and search together; `--max-ops` and
 * `--max-facts` bound grounding. Outcomes: solved -> exit 0; proven unsolvable -> exit 0 with
 * `"solvable": false`; a limit (search or grounding) -> exit 1 with `"solvable": false, "status": "limit"` in the JSON (and a
 * one-line message on stderr). The JSON always carries `"status"` ("solved" | "unsolvable" |
 * "limit") besides the contract's fields.
 */
import { writeFileSync } from "node:fs";
import type { Command } from "commander";
import { parseDomainFile, parseProblemFile, UserError } from "../pddl/index.js";
import { ground, GroundingLimit } from "../task/index.js";
import { LimitError } from "../search/types.js";
import { formatPlan, HEURISTIC_NAMES, solve, type HeuristicName } from "../search/index.js";
import { action, commandStart, groundCapOptions, groundLimits, intFlag, printJson, secondsFlag, UsageError, type GroundCapFlags } from "./common.js";
import { MAX_MEMORY_HELP, runBounded } from "./bounded.js";

/** Default of `solve --time-limit`, in seconds: no run hangs, and the IPC tasks we solve take far less. */
export const SOLVE_DEFAULT_TIME_LIMIT_S = 300;

interface SolveFlags extends GroundCapFlags {
  heuristic: string;
  json?: boolean;
  planFile?: string;
  timeLimit: string;
  maxMemory?: string;
  maxExpansions?: string;
}

/** The JSON object of `solve --json`. */
export interface SolveJson {
  solvable: boolean;
  status: "solved" | "unsolvable" | "limit";
  cost: number | null;
  plan: string[];
  initial_h: number | null;
  /** The heuristic used: "lmcut" falls back to "hmax" on tasks with conditional effects. */
  heuristic: string;
  expanded: number;
  generated: number;
  evaluated: number;
  search_ms: number;
  total_ms: number;
}

const round = (x: number): number => Math.round(x * 1000) / 1000;

export function register(program: Command): void {
  const cmd = program
    .command("solve")
    .description("find an optimal plan with A* (LM-Cut by default)")
    .argument("<domain>", "domain PDDL file")
    .argument("<problem>", "problem PDDL file")
    .option("--heuristic <name>", "lmcut | hmax | blind (lmcut falls back to hmax with conditional effects)", "lmcut")
    .option("--json", "print one JSON object")
    .option("--plan-file <file>", "write the plan in Fast Downward's plan format")
    .option("--time-limit <seconds>", "time limit of parsing, grounding and search together", String(SOLVE_DEFAULT_TIME_LIMIT_S))
    .option("--max-expansions <n>", "search expansion limit")
    .option("--max-memory <mb>", MAX_MEMORY_HELP);
  groundCapOptions(cmd).action(
    action(async (domainPath: string, problemPath: string, opts: SolveFlags) => {
      // (a limit reached in the bounded worker: the same JSON as any limit outcome)
      if (await runBounded("solve", opts, (ms) => opts.json && printJson(limitJson(ms)))) return;
      // the limit counts from the command's start (module loading included), not from here
      const t0 = commandStart();
      if (!(HEURISTIC_NAMES as readonly string[]).includes(opts.heuristic)) {
        throw new UsageError(`--heuristic must be one of ${HEURISTIC_NAMES.join(", ")}, got '${opts.heuristic}'`);
      }
      const timeLimit = secondsFlag("--time-limit", opts.timeLimit)!;
      const maxExpansions = intFlag("--max-expansions", opts.maxExpansions, 0);
      const deadline = t0 + timeLimit * 1000;
      const d = parseDomainFile(domainPath);
      const p = parseProblemFile(problemPath, d);
      // A grounding limit, or a path cost past 32 bits, is a limit outcome like a search limit:
      // one line, the same exit code and JSON.
      const limitOutcome = (e: Error): void => {
        process.stderr.write(`pddl2prm: error: ${e.message}\n`);
        process.exitCode = 1;
        if (opts.json) printJson(limitJson(performance.now() - t0));
      };
      let task;
      let r;
      try {
        task = ground(d, p, groundLimits(opts, deadline));
        r = solve(task, {
          heuristic: opts.heuristic as HeuristicName,
          // the absolute deadline: building the heuristic and the kernel counts too
          limits: {
            deadline,
            ...(maxExpansions !== undefined ? { maxExpansions } : {}),
          },
        });
      } catch (e) {
        if (!(e instanceof GroundingLimit) && !(e instanceof LimitError)) throw e;
        limitOutcome(e);
        return;
      }
      if (r.status === "solved" && opts.planFile !== undefined) {
        try {
          writeFileSync(opts.planFile, formatPlan(task, r.plan));
        } catch (e) {
          throw new UserError(`${opts.planFile}: cannot write plan file (${(e as NodeJS.ErrnoException).code ?? String(e)})`);
        }
      }
      const out: SolveJson = {
        solvable: r.status === "solved",
        status: r.status,
        cost: r.cost,
        plan: r.planNames,
        initial_h: r.initialH,
        heuristic: r.heuristic,
        expanded: r.expanded,
        generated: r.generated,
        evaluated: r.evaluated,
        search_ms: round(r.searchMs),
        total_ms: round(performance.now() - t0),
      };
      if (r.status === "limit") {
        process.stderr.write(
          `pddl2prm: error: search limit reached (--time-limit ${timeLimit}${maxExpansions !== undefined ? `, --max-expansions ${maxExpansions}` : ""}) after ${r.expanded} expansions\n`,
        );
        process.exitCode = 1;
      }
      if (opts.json) return printJson(out);
      const lines: string[] = [];
      if (r.status === "solved") {
        lines.push(...r.planNames);
        lines.push(`; cost = ${r.cost} (${task.hasCosts ? "general cost" : "unit cost"})`);
      } else if (r.status === "unsolvable") {
        lines.push("unsolvable: the search space is exhausted without reaching the goal");
      }
      lines.push(
        `; initial h = ${r.initialH ?? "inf"}, expanded ${r.expanded}, generated ${r.generated}, evaluated ${r.evaluated}, search ${out.search_ms} ms, total ${out.total_ms} ms`,
      );
      process.stdout.write(lines.join("\n") + "\n");
    }),
  );
}

/** The JSON of a run stopped by a grounding limit (nothing searched). */
function limitJson(totalMs: number): SolveJson {
  return {
    solvable: false, status: "limit", cost: null, plan: [], initial_h: null, heuristic: "none",
    expanded: 0, generated: 0, evaluated: 0, search_ms: 0, total_ms: round(totalMs),
  };
}
