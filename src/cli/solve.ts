/**
 * `pddl2prm solve DOMAIN PROBLEM [--heuristic lmcut|hmax|blind] [--json] [--plan-file F]
 *  [--time-limit S] [--max-expansions N]` (DESIGN.md §10).
 *
 * Outcomes: solved -> exit 0; proven unsolvable -> exit 0 with `"solvable": false`;
 * a search limit -> exit 1 with `"solvable": false, "status": "limit"` in the JSON (and a
 * one-line message on stderr). The JSON always carries `"status"` ("solved" | "unsolvable" |
 * "limit") besides the contract's fields.
 */
import { writeFileSync } from "node:fs";
import type { Command } from "commander";
import { parseDomainFile, parseProblemFile, UserError } from "../pddl/index.js";
import { ground } from "../task/index.js";
import { formatPlan, HEURISTIC_NAMES, solve, type HeuristicName } from "../search/index.js";
import { action, intFlag, printJson, UsageError } from "./common.js";

interface SolveFlags {
  heuristic: string;
  json?: boolean;
  planFile?: string;
  timeLimit?: string;
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

function positiveSeconds(flag: string, v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!/^\s*\d+(\.\d*)?\s*$/.test(v) || !(n > 0)) throw new UsageError(`${flag} expects a positive number of seconds, got '${v}'`);
  return n;
}

const round = (x: number): number => Math.round(x * 1000) / 1000;

export function register(program: Command): void {
  program
    .command("solve")
    .description("find an optimal plan with A* (LM-Cut by default)")
    .argument("<domain>", "domain PDDL file")
    .argument("<problem>", "problem PDDL file")
    .option("--heuristic <name>", "lmcut | hmax | blind (lmcut falls back to hmax with conditional effects)", "lmcut")
    .option("--json", "print one JSON object")
    .option("--plan-file <file>", "write the plan in Fast Downward's plan format")
    .option("--time-limit <seconds>", "search time limit")
    .option("--max-expansions <n>", "search expansion limit")
    .action(
      action((domainPath: string, problemPath: string, opts: SolveFlags) => {
        const t0 = performance.now();
        if (!(HEURISTIC_NAMES as readonly string[]).includes(opts.heuristic)) {
          throw new UsageError(`--heuristic must be one of ${HEURISTIC_NAMES.join(", ")}, got '${opts.heuristic}'`);
        }
        const timeLimit = positiveSeconds("--time-limit", opts.timeLimit);
        const maxExpansions = intFlag("--max-expansions", opts.maxExpansions, 0);
        const d = parseDomainFile(domainPath);
        const p = parseProblemFile(problemPath, d);
        const task = ground(d, p);
        const r = solve(task, {
          heuristic: opts.heuristic as HeuristicName,
          limits: {
            ...(timeLimit !== undefined ? { timeMs: timeLimit * 1000 } : {}),
            ...(maxExpansions !== undefined ? { maxExpansions } : {}),
          },
        });
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
            `pddl2prm: error: search limit reached (${timeLimit !== undefined ? `--time-limit ${timeLimit}` : ""}${timeLimit !== undefined && maxExpansions !== undefined ? ", " : ""}${maxExpansions !== undefined ? `--max-expansions ${maxExpansions}` : ""}) after ${r.expanded} expansions\n`,
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
