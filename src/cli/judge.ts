/**
 * `pddl2prm judge DOMAIN PROBLEM PLAN|-`: the exact label, reward and critique of every step
 * of any plan; `--jsonl` judges a stream of requests (one result line per request line).
 */
import type { Command } from "commander";
import { UserError } from "../pddl/index.js";
import { readTemplatesFile } from "../nl/index.js";
import { LimitError } from "../search/types.js";
import { planSteps, type Judgement } from "../products/judge.js";
import { JudgeSession, type JudgeSessionOptions } from "../products/judge-session.js";
import { action, commandStart, groundCapOptions, groundLimits, intFlag, printJson, readUserFileOrStdin, runsAsProgram, UsageError, type GroundCapFlags } from "./common.js";
import { inBoundedWorker, MAX_MEMORY_HELP, maxMemoryMb, runBounded } from "./bounded.js";
import { streamBounded, streamLines } from "./judge-stream.js";

interface JudgeFlags extends GroundCapFlags {
  json?: boolean;
  jsonl?: boolean;
  templates?: string;
  maxStates?: string;
  timeMs?: string;
  seed?: string;
  cache?: string;
  maxMemory?: string;
}

function humanText(j: Judgement): string {
  const lines = j.steps.map((s) => {
    const head = `step ${s.index + 1}: ${s.action ?? JSON.stringify(s.step)}  ${s.category} (reward ${s.reward.toFixed(2)})${s.executed ? "" : ", rejected"}`;
    return `${head}\n  ${s.critique}`;
  });
  const fe = j.first_error === null ? "none" : `step ${j.first_error + 1} (${j.steps[j.first_error]!.category})`;
  const opt = j.optimal_cost === null ? "no plan exists" : `optimal ${j.optimal_cost}`;
  lines.push(`first error: ${fe}; goal reached: ${j.goal_reached ? "yes" : "no"}; valid plan: ${j.valid ? "yes" : "no"}; cost ${j.cost} (${opt})`);
  return lines.join("\n") + "\n";
}

/** A --jsonl request's time limit unless --time-ms says otherwise: an RL loop never waits on one plan for longer. */
const JSONL_DEFAULT_TIME_MS = 30_000;

export function register(program: Command): void {
  const cmd = program
    .command("judge")
    .description("label every step of a plan (PDDL actions or step text) against the state it reaches and the states it visited")
    .argument("[domain]", "domain PDDL file or built-in domain name")
    .argument("[problem]", "problem PDDL file (or, for a built-in domain, a shipped problem name like p0001)")
    .argument("[plan]", "plan file ('-' reads stdin): PDDL actions as in a plan file, or one step of text per line")
    .option("--json", "print one JSON object: {steps: [{index, action, category, reward, critique, ...}], first_error, goal_reached, valid, cost, optimal_cost, ...}")
    .option("--jsonl", "read {domain, problem, steps} requests from stdin, one JSON per line; write one result per line (DOMAIN and PROBLEM, if given, are the defaults)")
    .option("--templates <file>", "nl.json for step text of a domain that is not built-in (default: text from PDDL names)")
    .option("--max-states <n>", "state cap of the h* oracle's explicit mode and of label searches (as in `label`)")
    .option("--time-ms <n>", `wall-clock limit per plan in milliseconds, counted from the command's start (with --jsonl, from the request's line), parsing, grounding and every search included (default: none for one plan; ${JSONL_DEFAULT_TIME_MS} per request with --jsonl, so one plan cannot hold up the stream)`)
    .option("--seed <s>", "seed of the critiques' wording", "0")
    .option("--cache <n>", "--jsonl: ground tasks kept warm with their h* caches", "64")
    .option("--max-memory <mb>", `${MAX_MEMORY_HELP}; with --jsonl, a request over it answers with a limit and the stream goes on`)
    .addHelpText(
      "after",
      "\nA rejected step (non-executable, or text naming no action: 'unparseable') leaves the state as it is;" +
        "\nafter a dead end every executable step is a dead end too. Indices in the JSON are 0-based.",
    );
  groundCapOptions(cmd).action(
    action(async (domain: string | undefined, problem: string | undefined, plan: string | undefined, flags: JudgeFlags) => {
      const maxStates = intFlag("--max-states", flags.maxStates, 1);
      const timeMs = intFlag("--time-ms", flags.timeMs, 1) ?? (flags.jsonl ? JSONL_DEFAULT_TIME_MS : undefined);
      const seed = intFlag("--seed", flags.seed, 0)!;
      const cache = intFlag("--cache", flags.cache, 1)!;
      const memoryMb = maxMemoryMb(flags.maxMemory);
      if (flags.jsonl) {
        if (plan !== undefined) throw new UsageError("--jsonl reads its plans from stdin: give no PLAN");
        if (flags.json) throw new UsageError("give --json or --jsonl, not both");
      } else if (domain === undefined || problem === undefined || plan === undefined) {
        throw new UsageError("judge needs DOMAIN PROBLEM PLAN (or --jsonl)");
      }
      // a missing or unreadable templates file is an error now, not at the first request
      if (flags.templates !== undefined) readTemplatesFile(flags.templates);
      const options: JudgeSessionOptions = {
        ...(domain !== undefined ? { domain } : {}),
        ...(problem !== undefined ? { problem } : {}),
        ...(flags.templates !== undefined ? { templatesFile: flags.templates } : {}),
        ...(maxStates !== undefined ? { maxStates } : {}),
        ...(timeMs !== undefined ? { timeMs } : {}),
        cacheSize: cache,
        seed,
        groundCaps: groundLimits(flags),
      };
      // as the pddl2prm program, bounded like `solve`: a stream's requests each in a worker with
      // the heap of --max-memory, stopped past their --time-ms (parsing included); one plan in a
      // bounded worker (runBounded)
      const bounded = runsAsProgram() && !inBoundedWorker();
      if (flags.jsonl) {
        if (bounded) await streamBounded({ ...options, timeMs: timeMs! }, memoryMb);
        else {
          const session = new JudgeSession(options);
          await streamLines((line) => session.judgeLine(line));
        }
        return;
      }
      if (await runBounded("judge", flags, undefined, timeMs)) return;
      const session = new JudgeSession(options);
      const steps = planSteps(readUserFileOrStdin(plan!, "the plan"));
      let j: Judgement;
      try {
        // one plan: the limit counts from the command's start (node's start-up, loading the
        // modules, parsing, grounding: seconds on a busy machine); a --jsonl request's from its line
        j = session.judge({ steps }, timeMs, timeMs !== undefined ? commandStart() + timeMs : Infinity);
      } catch (e) {
        if (e instanceof LimitError) throw new UserError(`limit reached: ${e.message}`);
        throw e;
      }
      if (flags.json) printJson(j);
      else process.stdout.write(humanText(j));
    }),
  );
}
