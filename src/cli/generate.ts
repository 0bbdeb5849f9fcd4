import type { Command } from "commander";
import { join } from "node:path";
import { writeDataset, type WriteOptions, type DatasetSummary } from "../dataset/write.js";
import { FORMAT_CONSUMERS, FORMATS, isFormat } from "../dataset/formats.js";
import { DEFAULT_MAX_FACTS, DEFAULT_MAX_OPS, RunInterrupted, type Progress } from "../dataset/pipeline.js";
import { defaultMemoryBudgetMb, machineMemoryMb, MAX_WORKERS, workerBudgetProblem } from "../dataset/resources.js";
import { BUILTIN_DOMAINS, MAX_PROBLEM_COUNT } from "../generators/index.js";
import { CATEGORIES } from "../dataset/row.js";
import { ERROR_DEFS, type ErrorDef } from "../products/chains.js";
import { isEvalFormat } from "../dataset/eval-job.js";
import { VERIFIER_STYLES, type VerifierStyle } from "../products/verifier.js";
import { FEEDBACK_STYLES, type FeedbackStyle } from "../products/feedback.js";
import { RL_STYLES, type RlStyle } from "../products/rl.js";
import { datasetAuditor } from "../audit/index.js";
import { action, groundCapOptions, intFlag, secondsFlag, UsageError, type GroundCapFlags } from "./common.js";
import { runForcedExitSteps } from "../dataset/emergency.js";
import { strayDataFiles } from "../dataset/integrity.js";
import { LAYOUTS, type Layout } from "../dataset/layout.js";

interface GenerateFlags extends GroundCapFlags {
  domain?: string;
  domainFile?: string;
  problems?: string;
  pairs?: string;
  templates?: string;
  count?: string;
  samplesPerState?: string;
  seed?: string;
  out?: string;
  format: string;
  threshold?: string;
  workers?: string;
  rank?: string;
  world?: string;
  balance?: boolean;
  holdoutDomain?: string;
  randomOptimal?: boolean;
  wholeProblems?: boolean;
  nonExecutable: string;
  gzip?: boolean;
  parquet?: boolean;
  force?: boolean;
  quiet?: boolean;
  timeLimit?: string;
  maxExpansions?: string;
  maxMemory?: string;
  genericFallback?: boolean;
  hard?: boolean;
  errorDef?: string;
  chat?: boolean;
  tokenizer?: string;
  maxLength?: string;
  style?: string;
  layout: string;
}

/**
 * The evaluation formats reuse --threshold (it is part of the run's config hash):
 * processbench, verifier: a step is an error iff reward < threshold (--error-def picks it);
 * pairs: the lowest reward the rejected side may have (--hard = 0.75, else 0).
 */
function evalThreshold(flags: GenerateFlags, explicit: boolean, threshold: number): number {
  if (flags.hard && flags.format !== "pairs") throw new UsageError("--hard applies to --format pairs only");
  if (flags.format === "processbench" || flags.format === "verifier") {
    const def = flags.errorDef ?? "reward-lt-1";
    if (!(def in ERROR_DEFS)) throw new UsageError(`--error-def must be one of ${Object.keys(ERROR_DEFS).join(", ")}, got '${def}'`);
    if (explicit && flags.errorDef !== undefined) throw new UsageError("give --error-def or --threshold, not both");
    return explicit ? threshold : ERROR_DEFS[def as ErrorDef];
  }
  if (flags.errorDef !== undefined) throw new UsageError("--error-def applies to --format processbench and verifier only");
  if (flags.format === "pairs") {
    if (explicit && flags.hard) throw new UsageError("give --hard or --threshold, not both");
    return flags.hard ? 0.75 : explicit ? threshold : 0;
  }
  return threshold;
}

/** Rank from --rank, else from the scheduler's array index (Slurm, Kubernetes Indexed Job). */
function resolveRank(flag: string | undefined): number | undefined {
  if (flag !== undefined) return intFlag("--rank", flag, 0);
  for (const env of ["SLURM_ARRAY_TASK_ID", "JOB_COMPLETION_INDEX"]) {
    const v = process.env[env];
    if (v !== undefined && v !== "") {
      if (!/^\d+$/.test(v)) throw new UsageError(`${env}='${v}' is not a rank`);
      return Number(v);
    }
  }
  return undefined;
}

function progressReporter(quiet: boolean): { onProgress: (p: Progress) => void; done: () => void } {
  if (quiet) return { onProgress: () => undefined, done: () => undefined };
  const tty = process.stderr.isTTY === true;
  let last = 0;
  const line = (p: Progress) => {
    const rate = p.elapsedMs > 0 ? (p.rows / p.elapsedMs) * 1000 : 0;
    const frac = p.problemsTotal ? p.problemsDone / p.problemsTotal : 1;
    const eta = frac > 0 ? ((p.elapsedMs / frac - p.elapsedMs) / 1000).toFixed(0) : "?";
    return `${p.problemsDone}/${p.problemsTotal} problems  ${p.rows} rows  ${rate.toFixed(0)} rows/s  ETA ${eta}s`;
  };
  return {
    onProgress: (p) => {
      const now = performance.now();
      if (tty) {
        if (now - last < 100 && p.problemsDone < p.problemsTotal) return;
        last = now;
        const width = 24;
        const filled = Math.round((p.problemsTotal ? p.problemsDone / p.problemsTotal : 1) * width);
        process.stderr.write(`\r[${"#".repeat(filled)}${".".repeat(width - filled)}] ${line(p)}\x1b[K`);
      } else if (now - last > 5000 || p.problemsDone === p.problemsTotal) {
        last = now;
        process.stderr.write(`progress: ${line(p)}\n`);
      }
    },
    done: () => {
      if (tty) process.stderr.write("\n");
    },
  };
}

function summaryText(s: DatasetSummary & { format?: string; maxLength?: number; tokenizer?: string }): string {
  const out: string[] = [];
  if (s.resumed) out.push(`rank ${s.rank} of ${s.world} was already complete in ${s.out}: nothing to do`);
  const total = s.rows;
  const notes = [
    ...(s.partial ? [`${s.partial} in part: a limit cut their later states`] : []),
    ...(s.skipped ? [`${s.skipped} skipped`] : []),
  ];
  out.push(`wrote ${total} rows from ${s.problems - s.skipped} problems${notes.length ? ` (${notes.join("; ")}; see manifest.json)` : ""} to ${s.out}`);
  if (s.maxLength !== undefined) {
    out.push(`dropped ${s.dropped} rows longer than ${s.maxLength} tokens (${s.tokenizer ?? "estimated: no --tokenizer"}); counts in manifest.json`);
    if (total === 0 && s.dropped > 0) out.push(`no row fits in ${s.maxLength} tokens: the dataset is empty; raise --max-length`);
  }
  const domains = Object.keys(s.byDomain).sort();
  // (rl rows are prompts, one per problem: nothing is labelled, no table)
  if (domains.length > 0 && s.format !== "rl") {
    // Evaluation formats: the table counts the labelled walk candidates behind the rows.
    const head = ["domain", s.format !== undefined && isEvalFormat(s.format) ? "labelled" : "rows", ...CATEGORIES];
    const rows = domains.map((d) => {
      const c = s.byDomain[d]!;
      return [d, String(CATEGORIES.reduce((a, k) => a + c[k], 0)), ...CATEGORIES.map((k) => String(c[k]))];
    });
    rows.push(["total", String(head[1] === "rows" ? total : CATEGORIES.reduce((a, k) => a + s.counts[k], 0)), ...CATEGORIES.map((k) => String(s.counts[k]))]);
    const w = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
    const fmt = (r: string[]) => r.map((c, i) => (i === 0 ? c.padEnd(w[i]!) : c.padStart(w[i]!))).join("  ");
    out.push("", fmt(head), ...rows.map(fmt));
  }
  if (!s.resumed) {
    const ms = s.ms;
    const sec = (x: number) => (x / 1000).toFixed(2);
    out.push(
      "",
      `time: wall ${sec(s.wallMs)}s; worker time: grounding ${sec(ms.grounding)}s, labelling ${sec(ms.labelling)}s, translation ${sec(ms.translation)}s; writing ${sec(ms.writing)}s; ${(total / (s.wallMs / 1000)).toFixed(0)} rows/s`,
    );
  }
  const wrote = ["README.md", "stats.csv"].filter((f) => !s.kept.includes(f));
  out.push(s.merged ? `dataset complete: ${[join(s.out, "manifest.json"), ...wrote].join(", ")}` : `rank ${s.rank} done; run the other ranks, then \`pddl2prm merge ${s.out}\``);
  return out.join("\n");
}

/** Exit codes of a run stopped by a signal (128 + signal number), after its temporary files are removed. */
const SIGNAL_EXIT: Record<string, number> = { SIGINT: 130, SIGTERM: 143 };

/**
 * Run `fn` with SIGINT/SIGTERM turned into an abort of its signal: the run stops its workers,
 * removes its temporary files and what it created, and the process exits 130/143. A second
 * signal exits at once.
 */
async function withSignals(fn: (signal: AbortSignal) => Promise<boolean>): Promise<void> {
  const stop = new AbortController();
  const onSignal = (sig: NodeJS.Signals): void => {
    if (stop.signal.aborted) {
      // a second signal: stop at once, but undo what the run made first (synchronously)
      runForcedExitSteps();
      process.stderr.write(`pddl2prm: ${sig}: stopped at once; temporary files removed\n`);
      process.exit(SIGNAL_EXIT[sig] ?? 1);
    }
    stop.abort(sig);
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  let complete = false;
  try {
    complete = await fn(stop.signal);
  } catch (e) {
    if (!(e instanceof RunInterrupted)) throw e;
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  }
  if (stop.signal.aborted && complete) {
    // the signal came after the dataset was complete (a --force run past its swap's commit
    // point finishes the swap): nothing was stopped, and saying so is the truth
    process.stderr.write(`pddl2prm: ${String(stop.signal.reason)}: came when the dataset was already complete; finished it\n`);
    return;
  }
  if (stop.signal.aborted) {
    const sig = String(stop.signal.reason);
    process.stderr.write(`pddl2prm: ${sig}: stopped; temporary files removed\n`);
    // exit now: while Node winds down on its own, a second Ctrl-C would find no handler and
    // end the process by the signal (the run is cleaned up either way)
    process.exit(SIGNAL_EXIT[sig] ?? 1);
  }
}

export function register(program: Command): void {
  const cmd = program
    .command("generate")
    .description("label problems and write a step-reward dataset (JSONL shards, manifest, dataset card)")
    .option("--domain <names>", "built-in domain(s), comma-separated, or 'all' (see `pddl2prm domains`)")
    .option("--domain-file <file>", "a PDDL domain file of your own for every problem of --problems")
    .option(
      "--problems <dir|glob>",
      "problem files: a folder or a glob like 'probs/p*.pddl' (with --domain: your problems for a built-in domain, one subfolder per domain; alone: each problem with its own domain file beside it, domain_p01.pddl, p01-domain.pddl, ... else domain.pddl)",
    )
    .option("--pairs <file>", "a list of 'DOMAIN PROBLEM' path pairs, one per line (paths relative to the list)")
    .option("--templates <file>", "nl.json templates for --domain-file (default: text from PDDL names)")
    .option("--generic-fallback", "with --templates: text from PDDL names for actions and predicates the file leaves out (else an error)")
    .option("--count <n>", `make N fresh problems per domain with the built-in generator instead of the default set (at most ${MAX_PROBLEM_COUNT})`)
    .option("--samples-per-state <y>", "candidates per state (default: the domain's y, 8 for your own domains)")
    .option("--seed <s>", "run seed; same seed, same bytes", "1")
    .option("--out <dir>", "output folder (default: out/<domain>)")
    .option("--format <f>", `row format: ${FORMATS.join(", ")} (the trainer each is for: below)`, "native")
    .option("--threshold <t>", "reward at or above which a step counts as good for boolean formats", "0.75")
    .option("--workers <w>", `worker threads (default: number of cores, as many as --max-memory allows; at most ${MAX_WORKERS})`)
    .option("--max-memory <mb>", "memory budget of the run in MB, shared by the workers as heap limits; a problem over its worker's share is skipped (default: 3/4 of the machine's memory)")
    .option("--rank <r>", "this machine's rank (default: $SLURM_ARRAY_TASK_ID or $JOB_COMPLETION_INDEX, else 0)")
    .option("--world <n>", "number of machines; rank r takes problems i with i mod n = r", "1")
    .option("--balance", "draw candidates toward a balanced category mix")
    .option("--holdout-domain <name>", "put every problem of this domain in the test split")
    .option("--random-optimal", "follow a seeded random optimal action instead of the first one")
    .option("--non-executable <mode>", "non-executable candidates: near-miss (ground operators) or any (type-correct)", "near-miss")
    .option("--time-limit <s>", "per-problem time limit in seconds (parsing, grounding, labelling); over it, the states labelled by then are kept (whole states: every row exact) and the rest cut, or the problem is skipped when its optimal plan is not found", "60")
    .option("--whole-problems", "skip a problem a limit cuts short instead of keeping its labelled states (evaluation formats always do)")
    .option("--max-expansions <n>", "per-problem search expansion limit", "5000000")
    .option("--hard", "pairs: keep only pairs whose rejected step is suboptimal (reward 0.75, gap 0.25)")
    .option("--error-def <def>", "processbench, verifier: a wrong step has reward-lt-1 (default) or reward-le-0.25")
    .option("--chat", "pairs, trajectories, verifier, rl: TRL's conversational layout (prompt, chosen, rejected, completion as chat messages)")
    .option("--style <style>", "verifier: the target as plain verification text (default) or rrm (Agent-RRM's <think>/<critique>/<score>); feedback: turns (default: a row per good turn, the episode before it as the prompt, so no mistake is trained on) or dialogue (the whole episode as messages); rl: the steps the prompt asks for, pddl (default: one PDDL action per line) or text (\"Step k: I ...\" in the domain's words)")
    .option("--max-length <n>", "drop rows longer than N tokens in their trainer, so no row loses its last label to truncation (counts in manifest.json)")
    .option("--tokenizer <file>", "a Hugging Face tokenizer.json (read locally) counting tokens for --max-length (default: a conservative estimate)")
    .option("--layout <layout>", "files beside the shards: native (none) or acpbench (with --format acp: ACPBench's <task>/<split>.<bool|mcq|gen>.json under acpbench/, for its evaluation scripts)", "native")
    .option("--gzip", "write .jsonl.gz shards")
    .option("--parquet", "write Parquet shards (snappy; the card's features as their schema) instead of JSONL: smaller, and what the Hugging Face Hub serves")
    .option("--force", "replace a dataset made with other settings: the new one is made beside it and swapped in when complete; only files pddl2prm can prove it wrote are replaced")
    .option("--quiet", "no progress display or summary")
    .addHelpText("after", `\nFormats and the trainer each is for:\n${FORMATS.map((f) => `  ${f.padEnd(14)}${FORMAT_CONSUMERS[f]}`).join("\n")}`);
  groundCapOptions(cmd, { maxOps: DEFAULT_MAX_OPS, maxFacts: DEFAULT_MAX_FACTS, then: "per problem; a problem over it is skipped" }).action(
    action(async (flags: GenerateFlags, cmd: Command) => {
      if (!isFormat(flags.format)) throw new UsageError(`--format must be one of ${FORMATS.join(", ")}, got '${flags.format}'`);
      if (flags.nonExecutable !== "near-miss" && flags.nonExecutable !== "any") {
        throw new UsageError(`--non-executable must be near-miss or any, got '${flags.nonExecutable}'`);
      }
      if (flags.pairs !== undefined) {
        if (flags.domain !== undefined || flags.domainFile !== undefined || flags.problems !== undefined || flags.count !== undefined) {
          throw new UsageError("give --pairs alone, without --domain, --domain-file, --problems or --count");
        }
      } else if (flags.domain === undefined && flags.domainFile === undefined && flags.problems === undefined) {
        throw new UsageError("give --domain NAME, --domain-file FILE --problems DIR, --problems DIR (domain files beside the problems) or --pairs FILE");
      }
      if (flags.domain !== undefined && flags.domainFile !== undefined) throw new UsageError("give --domain or --domain-file, not both");
      if (flags.domainFile !== undefined && flags.problems === undefined) throw new UsageError("--domain-file needs --problems DIR|GLOB");
      if (flags.problems !== undefined && flags.count !== undefined) throw new UsageError("give --problems or --count, not both");
      if (flags.count !== undefined && flags.domain === undefined) throw new UsageError("--count makes problems for built-in domains only");
      let threshold = Number(flags.threshold);
      if (!Number.isFinite(threshold) || threshold < 0 || threshold > 1) throw new UsageError(`--threshold must be a number in [0, 1], got '${flags.threshold}'`);
      threshold = evalThreshold(flags, cmd.getOptionValueSource("threshold") !== "default", threshold);
      if (flags.chat && !["pairs", "trajectories", "verifier", "rl"].includes(flags.format)) throw new UsageError("--chat applies to --format pairs, trajectories, verifier and rl only");
      if (flags.style !== undefined && flags.format !== "verifier" && flags.format !== "feedback" && flags.format !== "rl") throw new UsageError("--style applies to --format verifier, feedback and rl only");
      const styles: readonly string[] = flags.format === "feedback" ? FEEDBACK_STYLES : flags.format === "rl" ? RL_STYLES : VERIFIER_STYLES;
      if (flags.style !== undefined && !styles.includes(flags.style)) {
        throw new UsageError(`--style for --format ${flags.format} must be one of ${styles.join(", ")}, got '${flags.style}'`);
      }
      if (flags.tokenizer !== undefined && flags.maxLength === undefined) throw new UsageError("--tokenizer counts tokens for --max-length: give both");
      if (flags.gzip === true && flags.parquet === true) throw new UsageError("give --gzip or --parquet, not both (Parquet shards are compressed)");
      if (!(LAYOUTS as readonly string[]).includes(flags.layout)) throw new UsageError(`--layout must be one of ${LAYOUTS.join(", ")}, got '${flags.layout}'`);
      if (flags.layout === "acpbench" && flags.format !== "acp") throw new UsageError(`--layout acpbench writes ACPBench's files of reasoning questions: it needs --format acp, got --format ${flags.format}`);
      if (flags.layout === "acpbench" && flags.parquet === true) throw new UsageError("--layout acpbench reads JSON Lines shards: give it without --parquet");
      const timeLimit = secondsFlag("--time-limit", flags.timeLimit)!;
      const domains = flags.domain?.split(",").map((d) => d.trim()).filter((d) => d.length > 0);
      for (const d of domains ?? []) {
        if (d !== "all" && !BUILTIN_DOMAINS.some((b) => b.name === d.toLowerCase())) {
          throw new UsageError(`--domain: unknown domain '${d}' (built-in domains: ${BUILTIN_DOMAINS.map((b) => b.name).join(", ")}); for your own domain give --domain-file`);
        }
      }
      if (flags.genericFallback && flags.templates === undefined) throw new UsageError("--generic-fallback applies to --templates only");
      const maxMemory = intFlag("--max-memory", flags.maxMemory, 1) ?? defaultMemoryBudgetMb();
      // (a budget the machine does not have would end in the kernel's OOM killer, not a skip)
      if (maxMemory > machineMemoryMb()) throw new UsageError(`--max-memory ${maxMemory} is more than this machine's memory (${machineMemoryMb()} MB)`);
      const workers = intFlag("--workers", flags.workers, 1, MAX_WORKERS);
      if (workers !== undefined) {
        const why = workerBudgetProblem(workers, maxMemory);
        if (why !== null) throw new UsageError(why);
      }
      const world = intFlag("--world", flags.world, 1)!;
      const rank = resolveRank(flags.rank);
      if (rank !== undefined && rank >= world) throw new UsageError(`--rank ${rank} must be smaller than --world ${world}`);
      if (flags.out !== undefined && flags.out.trim() === "") throw new UsageError("--out must name a folder, got ''");
      const out =
        flags.out ?? join("out", domains ? (domains.length === 1 ? domains[0]! : "corpus") : "dataset");
      const quiet = flags.quiet === true;
      const progress = progressReporter(quiet);
      const opts: WriteOptions = {
        out,
        format: flags.format,
        threshold,
        seed: intFlag("--seed", flags.seed, 0)!,
        world,
        balance: flags.balance === true,
        randomOptimal: flags.randomOptimal === true,
        nonExecutable: flags.nonExecutable,
        wholeProblems: flags.wholeProblems === true,
        gzip: flags.gzip === true,
        ...(flags.parquet === true ? { parquet: true } : {}),
        ...(flags.layout !== "native" ? { layout: flags.layout as Layout } : {}),
        force: flags.force === true,
        timeMs: timeLimit * 1000,
        maxExpansions: intFlag("--max-expansions", flags.maxExpansions, 1)!,
        maxOps: intFlag("--max-ops", flags.maxOps, 1)!,
        maxFacts: intFlag("--max-facts", flags.maxFacts, 1)!,
        maxMemoryMb: maxMemory,
        genericFallback: flags.genericFallback === true,
        onProgress: progress.onProgress,
        // the card reports the shortcut audit's headline (`pddl2prm audit` for the whole table);
        // rl rows are prompts without steps or labels: nothing for the audit to read
        ...(flags.format === "rl" ? {} : { audit: datasetAuditor }),
      };
      if (domains !== undefined) opts.domain = domains;
      if (flags.domainFile !== undefined) opts.domainFile = flags.domainFile;
      if (flags.problems !== undefined) opts.problems = flags.problems;
      if (flags.pairs !== undefined) opts.pairs = flags.pairs;
      if (flags.templates !== undefined) opts.templates = flags.templates;
      if (rank !== undefined) opts.rank = rank;
      const count = intFlag("--count", flags.count, 1, MAX_PROBLEM_COUNT);
      if (count !== undefined) opts.count = count;
      const y = intFlag("--samples-per-state", flags.samplesPerState, 1);
      if (y !== undefined) opts.samplesPerState = y;
      if (workers !== undefined) opts.workers = workers;
      if (flags.holdoutDomain !== undefined) opts.holdoutDomain = flags.holdoutDomain;
      if (flags.chat) opts.chat = true;
      if (flags.style !== undefined) opts.style = flags.style as VerifierStyle | FeedbackStyle | RlStyle;
      const maxLength = intFlag("--max-length", flags.maxLength, 1);
      if (maxLength !== undefined) opts.maxLength = maxLength;
      if (flags.tokenizer !== undefined) opts.tokenizer = flags.tokenizer;
      await withSignals(async (signal) => {
        let summary: DatasetSummary;
        try {
          summary = await writeDataset({ ...opts, signal });
        } finally {
          progress.done();
        }
        if (!quiet && (!signal.aborted || summary.merged)) {
          const length = maxLength !== undefined ? { maxLength, ...(flags.tokenizer !== undefined ? { tokenizer: flags.tokenizer } : {}) } : {};
          process.stdout.write(summaryText({ ...summary, format: flags.format, ...length }) + "\n");
        }
        // a user's file the card's data/<split>-* patterns pick up: load_dataset would read it as rows
        if (summary.merged && !signal.aborted) for (const line of strayDataFiles(summary.out)) process.stderr.write(`pddl2prm: warning: ${line}\n`);
        // a user's card, stats or plots kept in place of the dataset's: said, with the way to get them written
        if (summary.kept.length > 0) {
          process.stderr.write(`pddl2prm: warning: kept ${summary.kept.map((k) => join(summary.out, k)).join(", ")} (not pddl2prm's: edited, or not in its ledger); to have the dataset's written, move ${summary.kept.length > 1 ? "them" : "it"} away and run \`pddl2prm merge ${summary.out}\`\n`);
        }
        return summary.merged;
      });
    }),
  );
}
