/**
 * `pddl2prm reward DOMAIN PROBLEM ANSWER|-`: the RL rewards of a model's answer (outcome, exact
 * per-step rewards, their mix; docs/rl.md); `--jsonl` rewards a stream of requests, one result
 * line per request line, as `judge --jsonl` judges plans.
 */
import type { Command } from "commander";
import { UserError } from "../pddl/index.js";
import { readTemplatesFile } from "../nl/index.js";
import { LimitError } from "../search/types.js";
import { DEFAULT_OUTCOME_WEIGHT, RewardSession, type RewardResult } from "../products/rl-reward.js";
import { streamLines } from "./judge-stream.js";
import { action, commandStart, groundCapOptions, groundLimits, intFlag, printJson, readUserFileOrStdin, UsageError, type GroundCapFlags } from "./common.js";

interface RewardFlags extends GroundCapFlags {
  json?: boolean;
  jsonl?: boolean;
  templates?: string;
  maxStates?: string;
  timeMs?: string;
  seed?: string;
  cache?: string;
  scale: boolean;
  outcomeWeight?: string;
}

function humanText(r: RewardResult): string {
  const lines = r.steps.map((s) => {
    const what = s.action ?? (s.source.length > 0 ? JSON.stringify(s.source) : "(no plan)");
    const why = s.error !== null ? `: ${s.error}` : "";
    return `step ${s.index + 1}: ${what}  ${s.category} (reward ${s.reward.toFixed(2)})${why}`;
  });
  const opt = r.optimal_cost === null ? "no plan exists" : `optimal ${r.optimal_cost}`;
  lines.push(
    `reward ${r.reward.toFixed(4)} = outcome ${r.outcome.toFixed(4)} (valid plan: ${r.valid ? "yes" : "no"}, cost ${r.cost}, ${opt}) and process ${r.process.toFixed(4)} (progress ${r.progress.toFixed(4)})`,
  );
  return lines.join("\n") + "\n";
}

/** A --jsonl request's time limit unless --time-ms says otherwise (as `judge --jsonl`). */
const JSONL_DEFAULT_TIME_MS = 30_000;

export function register(program: Command): void {
  const cmd = program
    .command("reward")
    .description("RL rewards of a model's answer: the plan found in it, the exact reward of every step, the outcome and their mix (docs/rl.md)")
    .argument("[domain]", "domain PDDL file or built-in domain name")
    .argument("[problem]", "problem PDDL file (or, for a built-in domain, a shipped problem name like p0001)")
    .argument("[answer]", "the model's answer, a text file ('-' reads stdin)")
    .option("--json", "print one JSON object: {reward, outcome, process, progress, step_rewards, step_ends, steps, valid, ...}")
    .option("--jsonl", "read {id, domain, problem, completion} requests from stdin, one JSON per line; write one result per line (DOMAIN and PROBLEM, if given, are the defaults)")
    .option("--no-scale", "outcome 1 for any valid plan (default: optimal_cost / cost)")
    .option("--outcome-weight <w>", `weight of the outcome in reward, the rest is process (default ${DEFAULT_OUTCOME_WEIGHT})`)
    .option("--templates <file>", "nl.json for step text of a domain that is not built-in (default: text from PDDL names)")
    .option("--max-states <n>", "state cap of the h* oracle's explicit mode and of label searches (as in `judge`)")
    .option("--time-ms <n>", `wall-clock limit per answer in milliseconds (default: none for one answer; ${JSONL_DEFAULT_TIME_MS} per request with --jsonl)`)
    .option("--seed <s>", "seed of the critiques' wording", "0")
    .option("--cache <n>", "--jsonl: ground tasks kept warm with their h* caches", "64")
    .addHelpText(
      "after",
      "\nreward = w * outcome + (1 - w) * process; outcome = valid ? optimal_cost / cost : 0; process = mean step reward * progress." +
        "\nA line that is not a step is commentary; a step the judge cannot read is 'unparseable' (reward 0, with the reason)." +
        "\nWhat the extractor accepts: docs/rl.md.",
    );
  groundCapOptions(cmd).action(
    action(async (domain: string | undefined, problem: string | undefined, answer: string | undefined, flags: RewardFlags) => {
      const maxStates = intFlag("--max-states", flags.maxStates, 1);
      const timeMs = intFlag("--time-ms", flags.timeMs, 1) ?? (flags.jsonl ? JSONL_DEFAULT_TIME_MS : undefined);
      const seed = intFlag("--seed", flags.seed, 0)!;
      const cache = intFlag("--cache", flags.cache, 1)!;
      let outcomeWeight: number | undefined;
      if (flags.outcomeWeight !== undefined) {
        outcomeWeight = Number(flags.outcomeWeight);
        if (!Number.isFinite(outcomeWeight) || outcomeWeight < 0 || outcomeWeight > 1) throw new UsageError(`--outcome-weight must be a number in [0, 1], got '${flags.outcomeWeight}'`);
      }
      if (flags.templates !== undefined) readTemplatesFile(flags.templates);
      const session = new RewardSession({
        ...(domain !== undefined ? { domain } : {}),
        ...(problem !== undefined ? { problem } : {}),
        ...(flags.templates !== undefined ? { templatesFile: flags.templates } : {}),
        ...(maxStates !== undefined ? { maxStates } : {}),
        ...(timeMs !== undefined ? { timeMs } : {}),
        ...(outcomeWeight !== undefined ? { outcomeWeight } : {}),
        scaleByCost: flags.scale,
        cacheSize: cache,
        seed,
        groundCaps: groundLimits(flags),
      });
      if (flags.jsonl) {
        if (answer !== undefined) throw new UsageError("--jsonl reads its answers from stdin: give no ANSWER");
        if (flags.json) throw new UsageError("give --json or --jsonl, not both");
        await streamLines((line) => session.rewardLine(line));
        return;
      }
      if (domain === undefined || problem === undefined || answer === undefined) throw new UsageError("reward needs DOMAIN PROBLEM ANSWER (or --jsonl)");
      const text = readUserFileOrStdin(answer, "the answer");
      let r: RewardResult;
      try {
        const left = timeMs !== undefined ? Math.max(1, commandStart() + timeMs - performance.now()) : undefined;
        r = session.reward({ completion: text }, left);
      } catch (e) {
        if (e instanceof LimitError) throw new UserError(`limit reached: ${e.message}`);
        throw e;
      }
      if (flags.json) printJson(r);
      else process.stdout.write(humanText(r));
    }),
  );
}
