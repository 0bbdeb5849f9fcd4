/** `pddl2prm label DOMAIN PROBLEM [--prefix PLANFILE] --action "(a b)" [--json]`: label one candidate. */
import type { Command } from "commander";
import { parseDomainFile, parseProblemFile, UserError } from "../pddl/index.js";
import { LimitError } from "../search/types.js";
import {
  applyOp,
  explainAction,
  findOperator,
  ground,
  isApplicable,
  parsePlan,
  resolveGroundAction,
} from "../task/index.js";
import { classify, createLabelContext } from "../label/index.js";
import { candidateFor } from "../products/judge.js";
import { action, commandStart, groundCapOptions, groundLimits, intFlag, printJson, readUserFileOrStdin, type GroundCapFlags } from "./common.js";
import { MAX_MEMORY_HELP, runBounded } from "./bounded.js";

interface LabelOpts extends GroundCapFlags {
  prefix?: string;
  action: string;
  json?: boolean;
  maxStates?: string;
  timeMs?: string;
  maxMemory?: string;
}

export function register(program: Command): void {
  const cmd = program
    .command("label")
    .description("the category, reward and evidence of one candidate action after a prefix of steps")
    .argument("<domain>", "domain PDDL file")
    .argument("<problem>", "problem PDDL file")
    .requiredOption("--action <action>", 'the candidate ground action, e.g. "(pick-up a)"')
    .option("--prefix <planfile>", "plan file of the steps taken so far ('-' reads stdin); default: none (initial state)")
    .option("--max-states <n>", "state cap of the h* oracle's explicit mode and of label searches")
    .option("--time-ms <n>", "wall-clock limit in milliseconds from the command's start (parsing and grounding included)")
    .option("--max-memory <mb>", MAX_MEMORY_HELP)
    .option("--json", "print one JSON object");
  groundCapOptions(cmd).action(
    action(async (domainPath: string, problemPath: string, opts: LabelOpts) => {
      const maxStates = intFlag("--max-states", opts.maxStates, 1);
      const timeMs = intFlag("--time-ms", opts.timeMs, 1);
      // in a bounded worker: --max-memory, and --time-ms stops even a parse that cannot look at
      // a clock (a 50 MB problem), counted from the command's start
      if (await runBounded("label", opts, undefined, timeMs)) return;
      // one deadline from the command's start: start-up, parsing, grounding and labelling
      const deadline = timeMs !== undefined ? commandStart() + timeMs : undefined;
      const d = parseDomainFile(domainPath);
      const p = parseProblemFile(problemPath, d);
      // (a parse cannot look at a clock: over the limit once it is done, this is the limit)
      if (deadline !== undefined && performance.now() > deadline) throw new UserError("limit reached: time limit reached while parsing");
      const task = ground(d, p, groundLimits(opts, deadline));

      // Replay the prefix, checking every step.
      let prefix: string[] = [];
      if (opts.prefix !== undefined) {
        const where = opts.prefix === "-" ? "<stdin>" : opts.prefix;
        try {
          prefix = parsePlan(readUserFileOrStdin(opts.prefix, "the prefix"));
        } catch (e) {
          if (e instanceof UserError) throw new UserError(`${where}: ${e.message}`);
          throw e;
        }
        for (const [i, text] of prefix.entries()) {
          const r = resolveGroundAction(task, text);
          if ("error" in r) throw new UserError(`${where}: step ${i + 1} ${text}: ${r.error}`);
        }
      }
      const visited: Uint32Array[] = [task.init];
      const prefixNames: string[] = [];
      for (const [i, text] of prefix.entries()) {
        const r = resolveGroundAction(task, text) as { schema: number; args: number[] };
        const s = visited[visited.length - 1]!;
        const op = findOperator(task, r.schema, r.args).find((o) => isApplicable(task, s, o));
        if (op === undefined) {
          const failed = explainAction(task, s, r.schema, r.args).failed;
          throw new UserError(
            `${opts.prefix === "-" ? "<stdin>" : opts.prefix}: step ${i + 1} ${text} is not executable: unsatisfied ${failed.join(" ")}`,
          );
        }
        visited.push(applyOp(task, s, op));
        prefixNames.push(task.opNames[op]!);
      }

      const r = resolveGroundAction(task, opts.action);
      if ("error" in r) throw new UserError(`--action: ${r.error}`);
      const state = visited[visited.length - 1]!;
      let l;
      let candidate;
      try {
        // (the oracle's explicit build runs under the deadline too)
        const ctx = createLabelContext(task, {
          ...(maxStates !== undefined ? { oracleMaxStates: maxStates } : {}),
          limits: { ...(maxStates !== undefined ? { maxStates } : {}), ...(deadline !== undefined ? { deadline } : {}) },
        });
        candidate = candidateFor(ctx, r.schema, r.args);
        l = classify(ctx, state, visited, candidate);
      } catch (e) {
        if (e instanceof LimitError) throw new UserError(`limit reached: ${e.message}`);
        throw e;
      }
      const ev = l.evidence;
      if (opts.json) {
        printJson({
          action: candidate.name,
          prefix_length: prefixNames.length,
          category: l.category,
          reward: l.reward,
          h_before: ev.hBefore,
          h_after: ev.hAfter,
          cost: ev.cost,
          extra_cost: ev.extraCost,
          failed_preconditions: ev.failedPreconditions,
          backtrack_to: ev.backtrackTo,
          dead_end_proof: ev.deadEnd,
          evidence: ev,
        });
        return;
      }
      const lines = [
        `action: ${candidate.name} after ${prefixNames.length} step${prefixNames.length === 1 ? "" : "s"}`,
        `category: ${l.category} (reward ${l.reward.toFixed(2)})`,
      ];
      if (l.category === "non-executable") {
        lines.push(`unsatisfied: ${ev.failedPreconditions.join(" ")}`);
        lines.push(`h*(s) = ${fmt(ev.hBefore)}`);
      } else if (l.category === "dead-end") {
        const proof = ev.deadEnd!;
        lines.push(
          `h*(s) = ${fmt(ev.hBefore)}, h*(s') = infinity, cost ${ev.cost}; proof: ` +
            (proof.kind === "relaxed-unreachable"
              ? "goal unreachable in the delete relaxation"
              : `exhaustive search of ${proof.states} states`),
        );
      } else {
        lines.push(`h*(s) = ${fmt(ev.hBefore)}, h*(s') = ${fmt(ev.hAfter)}, cost ${ev.cost}, extra cost ${ev.extraCost}`);
      }
      if (ev.backtrackTo !== null) {
        const j = ev.backtrackTo;
        lines.push(`returns to: state ${j}` + (j === 0 ? " (the initial state)" : ` (after step ${j}: ${prefixNames[j - 1]})`));
      }
      process.stdout.write(lines.join("\n") + "\n");
    }),
  );
}

function fmt(h: number | null): string {
  return h === null ? "infinity" : String(h);
}
