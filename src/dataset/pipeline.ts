import { createHash } from "node:crypto";
import { resolve } from "node:path";
import { PddlError, UserError } from "../pddl/errors.js";
import { getBuiltinDomain, type GeneratedProblem } from "../generators/index.js";
import { LONG_RUN_JOBS, pregenerateProblems } from "./problem-pool.js";
import { claimPool, createLabellingPool, poolFailure } from "./labelling-pool.js";
import { type Format } from "./formats.js";
import { isEvalFormat } from "./eval-job.js";
import { VERIFIER_STYLES, type VerifierStyle } from "../products/verifier.js";
import { FEEDBACK_STYLES, type FeedbackStyle } from "../products/feedback.js";
import { RL_STYLES, type RlStyle } from "../products/rl.js";
import { openRlhfTokenProblem, tokenCounter } from "./length.js";
import { emptyCounts, type EncodedJobResult, type JobConfig, type ProblemJob } from "./records.js";
import { type NativeRow } from "./row.js";
import { forEachProblem, ProblemsDigest, splitOf, type ProblemSelection, type ProblemSource } from "./problems.js";
import { JobList } from "./job-list.js";
import { runJobSafe, type JobInput, type WorkerReply } from "./worker.js";
import type { BufferPool } from "./buffer-pool.js";
import { defaultMemoryBudgetMb, defaultWorkers, workerBudgetProblem, workerHeapMb } from "./resources.js";
import { boundHeapGrowth, tuneJitForLabelling } from "../util/v8-flags.js";
import { setMaxListeners } from "node:events";

/** Options of `generate()` and `writeDataset()` (the CLI's flags, see `pddl2prm generate --help`). */
export interface GenerateOptions {
  /** Built-in domain name(s), or "all". */
  domain?: string | string[];
  /** A user domain file, with `problems`. */
  domainFile?: string;
  /**
   * Folder or glob of problem files: for `domainFile`, for built-in `domain`s, or alone, when
   * each problem has its own domain file beside it (`domain_p01.pddl`, `p01-domain.pddl`, ...,
   * else `domain.pddl`), as in many IPC folders.
   */
  problems?: string;
  /** A file listing `DOMAIN PROBLEM` path pairs, one per line (instead of `problems`). */
  pairs?: string;
  /** nl.json templates for a user domain (otherwise generic text from PDDL names). */
  templates?: string;
  /** Make N fresh problems per built-in domain with its generator (seeded by `seed`). */
  count?: number;
  /** Candidates per state (default: the domain's default y, 8 for user domains). */
  samplesPerState?: number;
  /** Run seed (default 1). */
  seed?: number;
  /**
   * Output format of `writeDataset` (default native). `generate()` always yields native rows
   * (`formatRow` converts them) and rejects the formats written per problem (pairs, trajectories,
   * processbench, feedback, verifier).
   */
  format?: Format;
  /** Reward threshold for boolean labels (trl, math-shepherd); default 0.75. */
  threshold?: number;
  /** Worker threads (default: number of cores, as many as `maxMemoryMb` allows; at most 256). */
  workers?: number;
  /**
   * Memory budget of the run in MB (default: 3/4 of the machine's memory). The workers share it
   * as heap limits; a problem whose worker runs out of heap is skipped and recorded. Given, the
   * problems always run in worker threads, even with one worker.
   */
  maxMemoryMb?: number;
  /** This machine's rank and the number of machines: rank R takes problems i with i mod N = R. */
  rank?: number;
  world?: number;
  balance?: boolean;
  holdoutDomain?: string;
  randomOptimal?: boolean;
  nonExecutable?: "near-miss" | "any";
  /**
   * Skip a problem whose limit is hit after its optimal walk instead of keeping the states
   * labelled by then (default false: they are kept, whole states only, so every row is exact,
   * and the manifest lists the problem under `problems.partial`). Evaluation formats (pairs,
   * trajectories, processbench) always skip: their rows need the whole walk.
   */
  wholeProblems?: boolean;
  /**
   * Per-problem limits; a problem that hits one is skipped and recorded. `timeMs` (default 60 s)
   * covers parsing, grounding and labelling; `maxOps`/`maxFacts` (default 1,000,000 each) cap
   * grounding.
   */
  timeMs?: number;
  maxExpansions?: number;
  maxStates?: number;
  /** pairs, trajectories, verifier, rl: TRL's conversational layout (messages instead of strings). */
  chat?: boolean;
  /** verifier: the target's layout, "plain" (default) or "rrm" (Agent-RRM's tags). */
  /** verifier: plain (default) or rrm; feedback: turns (default) or dialogue; rl: the steps asked for, pddl (default) or text. */
  style?: VerifierStyle | FeedbackStyle | RlStyle;
  /**
   * Drop rows longer than this many tokens in the trainer their format is for, so that no row
   * loses its candidate's label to truncation. Counted with `tokenizer`, else estimated.
   */
  maxLength?: number;
  /** A Hugging Face tokenizer.json (read locally) that counts tokens for `maxLength`. */
  tokenizer?: string;
  maxOps?: number;
  maxFacts?: number;
  /** Generic text for actions and predicates that `templates` leaves out (else an error). */
  genericFallback?: boolean;
  /** Stops the run (e.g. on Ctrl-C): workers are stopped and `runJobs` throws `RunInterrupted`. */
  signal?: AbortSignal;
  /** Called after every problem. */
  onProgress?: (p: Progress) => void;
}

export interface Progress {
  problemsDone: number;
  problemsTotal: number;
  rows: number;
  elapsedMs: number;
}

/** A fully resolved run: the jobs of this rank and the shared job config. */
export interface RunPlan {
  jobs: JobList;
  /** What the config hash and the PDDL copies need of all problems of the run (all ranks). */
  problemSet: ProblemSetSummary;
  /** sha256 of every problem's `domain/id`, NUL and text, joined by NUL, in run order (the config's `problems_sha256`). */
  problemsSha256: string;
  config: JobConfig;
  rank: number;
  world: number;
  workers: number;
  /** Heap limit of each worker thread in MB, or null to run in this thread (one worker, no budget). */
  workerHeapMb: number | null;
  domains: string[];
  options: GenerateOptions;
}

/**
 * All problems of a run (all ranks) as far as the run's config and folder layout depend on them,
 * kept instead of the problems themselves: the main thread's memory then grows with this rank's
 * jobs only.
 */
export interface ProblemSetSummary {
  count: number;
  /** The distinct domain texts, in the order first used. */
  domainTexts: string[];
  /**
   * Where the problems use several domain texts: sha256 of every problem's `id NUL sha256(its
   * domain text)`, joined by NUL, in run order; else null.
   */
  domainOfProblemSha256: string | null;
  /**
   * Domain names whose problems come with different domain texts (per-problem domain files): the
   * output then stores `pddl/<domain>/<problem>.domain.pddl` beside each problem instead of one
   * `pddl/<domain>/domain.pddl`. Decided over all ranks' problems, so every rank agrees.
   */
  domainsWithSeveralFiles: Set<string>;
}

/** Builds the `ProblemSetSummary` of a run's problems as they come, in run order. */
export class ProblemSetSummarizer {
  private count = 0;
  private readonly texts = new Map<string, string>(); // domain text -> its sha256
  private readonly first = new Map<string, string>();
  private readonly several = new Set<string>();
  private readonly domainOf = createHash("sha256");

  add(p: Pick<ProblemSource, "domainName" | "domainText" | "problemId">): void {
    let sha = this.texts.get(p.domainText);
    if (sha === undefined) {
      sha = createHash("sha256").update(p.domainText).digest("hex");
      this.texts.set(p.domainText, sha);
    }
    const t = this.first.get(p.domainName);
    if (t === undefined) this.first.set(p.domainName, p.domainText);
    else if (t !== p.domainText) this.several.add(p.domainName);
    // used only where the problems turn out to use several domain texts
    this.domainOf.update(`${this.count > 0 ? "\0" : ""}${p.problemId}\0${sha}`);
    this.count++;
  }

  /** The summary; call once, after the last `add`. */
  result(): ProblemSetSummary {
    const digest = this.domainOf.digest("hex");
    return {
      count: this.count,
      domainTexts: [...this.texts.keys()],
      domainOfProblemSha256: this.texts.size > 1 ? digest : null,
      domainsWithSeveralFiles: this.several,
    };
  }
}

/** The `ProblemSetSummary` of a run's problems. */
export function summarizeProblems(all: readonly Pick<ProblemSource, "domainName" | "domainText" | "problemId">[]): ProblemSetSummary {
  const s = new ProblemSetSummarizer();
  for (const p of all) s.add(p);
  return s.result();
}

const DEFAULT_Y_USER = 8;
/** Default grounding caps of `generate` (per problem). */
export const DEFAULT_MAX_OPS = 1_000_000;
export const DEFAULT_MAX_FACTS = 1_000_000;

/** The run was stopped through `GenerateOptions.signal`; `reason` is what the signal carried. */
export class RunInterrupted extends Error {
  constructor(readonly reason: unknown) {
    super(`interrupted${typeof reason === "string" ? ` (${reason})` : ""}`);
    this.name = "RunInterrupted";
  }
}

function checkInt(name: string, v: number | undefined, min: number): void {
  if (v !== undefined && (!Number.isInteger(v) || v < min)) throw new UserError(`${name} must be an integer >= ${min}, got ${v}`);
}

/**
 * `planRun` with the fresh problem sets of a `count` run made on worker threads first
 * (`pregenerateProblems`); the same plan, sooner.
 */
export async function preparePlan(options: GenerateOptions, keepRows: boolean): Promise<RunPlan> {
  const budgetMb = options.maxMemoryMb ?? defaultMemoryBudgetMb();
  const workers = options.workers ?? defaultWorkers(budgetMb);
  // bad worker or memory flags are reported by planRun at once, before any set is made
  const fits = Number.isInteger(workers) && workerBudgetProblem(workers, budgetMb, { workers: "workers", memory: "maxMemoryMb" }) === null;
  const generated = fits ? await pregenerateProblems(options, workers, budgetMb) : undefined;
  interrupted(options.signal);
  return planRun(options, keepRows, generated);
}

/**
 * Resolve options into the ordered jobs of this rank. Throws UserError/PddlError for bad input.
 * `generated`: problem sets of a `count` run already made, by domain name.
 */
export function planRun(options: GenerateOptions, keepRows: boolean, generated?: ReadonlyMap<string, readonly GeneratedProblem[]>): RunPlan {
  const seed = options.seed ?? 1;
  checkInt("seed", seed, 0);
  checkInt("count", options.count, 1);
  checkInt("samples-per-state", options.samplesPerState, 1);
  checkInt("workers", options.workers, 1);
  checkInt("max-memory", options.maxMemoryMb, 1);
  checkInt("max-ops", options.maxOps, 1);
  checkInt("max-facts", options.maxFacts, 1);
  const budgetMb = options.maxMemoryMb ?? defaultMemoryBudgetMb();
  if (options.workers !== undefined) {
    const why = workerBudgetProblem(options.workers, budgetMb, { workers: "workers", memory: "maxMemoryMb" });
    if (why !== null) throw new UserError(why);
  }
  const world = options.world ?? 1;
  const rank = options.rank ?? 0;
  checkInt("world", world, 1);
  checkInt("rank", rank, 0);
  if (rank >= world) throw new UserError(`rank ${rank} must be < world ${world}`);
  const threshold = options.threshold ?? 0.75;
  if (!(threshold >= 0 && threshold <= 1)) throw new UserError(`threshold must be in [0, 1], got ${threshold}`);
  const format = options.format ?? "native";
  checkInt("max-length", options.maxLength, 1);
  if (options.tokenizer !== undefined && options.maxLength === undefined) throw new UserError("--tokenizer counts tokens for --max-length: give both");
  if (options.chat && format !== "pairs" && format !== "trajectories" && format !== "verifier" && format !== "rl") throw new UserError("--chat applies to --format pairs, trajectories, verifier and rl only");
  const styles: readonly string[] = format === "feedback" ? FEEDBACK_STYLES : format === "rl" ? RL_STYLES : VERIFIER_STYLES;
  const style = (options.style ?? styles[0]) as VerifierStyle | FeedbackStyle | RlStyle;
  if (style !== "plain" && format !== "verifier" && format !== "feedback" && format !== "rl") throw new UserError("--style applies to --format verifier, feedback and rl only");
  if (!styles.includes(style)) throw new UserError(`--style for --format ${format} must be one of ${styles.join(", ")}, got '${style}'`);
  if (options.maxLength !== undefined) {
    // load it here, so that a bad file is one error before any work
    const counter = tokenCounter(options.tokenizer ?? null);
    const bad = format === "openrlhf" ? openRlhfTokenProblem(counter) : null;
    if (bad !== null) throw new UserError(`--tokenizer: ${bad}; use --format trl`);
  }
  const domains = options.domain === undefined ? [] : Array.isArray(options.domain) ? options.domain : [options.domain];
  const sel: ProblemSelection = { domains, seed };
  if (options.domainFile !== undefined) sel.domainFile = options.domainFile;
  if (options.problems !== undefined) sel.problems = options.problems;
  if (options.pairs !== undefined) sel.pairs = options.pairs;
  if (options.templates !== undefined && options.problems === undefined && options.domainFile === undefined && options.pairs === undefined) {
    // (not ignored in silence while config.json records it)
    throw new UserError("--templates: applies to a domain of your own (--problems, --domain-file or --pairs); a built-in --domain has its own text");
  }
  if (options.templates !== undefined) sel.templatesFile = options.templates;
  if (options.genericFallback !== undefined) sel.genericFallback = options.genericFallback;
  if (options.count !== undefined) sel.count = options.count;
  if (generated !== undefined && generated.size > 0) sel.generated = generated;
  const digest = new ProblemsDigest();
  const summary = new ProblemSetSummarizer();
  const names = new Set<string>();
  // this rank's problems are packed as they come: no object per problem stays (JobList)
  const jobs = new JobList();
  let index = 0;
  forEachProblem(
    sel,
    (p) => {
      summary.add(p);
      names.add(p.domainName);
      if (index % world === rank) jobs.push(p, index, splitOf(p.domainName, p.problemId, options.holdoutDomain));
      index++;
    },
    digest,
  );
  if (options.holdoutDomain !== undefined && !names.has(options.holdoutDomain)) {
    throw new UserError(`holdout-domain '${options.holdoutDomain}' is not among the run's domains`);
  }
  const domainNames = [...names];
  const problemsSha256 = digest.hex();
  let y = options.samplesPerState;
  if (y === undefined) {
    // One y per domain would make mixed runs harder to read; use each domain's default.
    y = 0;
  }
  const config: JobConfig = {
    seed,
    samplesPerState: y,
    format,
    threshold,
    randomOptimal: options.randomOptimal ?? false,
    balance: options.balance ?? false,
    nonExecutable: options.nonExecutable ?? "near-miss",
    timeMs: options.timeMs ?? 60_000,
    maxExpansions: options.maxExpansions ?? 5_000_000,
    maxStates: options.maxStates ?? 2_000_000,
    chat: options.chat ?? false,
    style,
    maxLength: options.maxLength ?? null,
    tokenizer: options.tokenizer !== undefined ? resolve(options.tokenizer) : null,
    maxOps: options.maxOps ?? DEFAULT_MAX_OPS,
    maxFacts: options.maxFacts ?? DEFAULT_MAX_FACTS,
    genericFallback: options.genericFallback ?? false,
    wholeProblems: options.wholeProblems ?? false,
    keepRows,
  };
  const workers = options.workers ?? defaultWorkers(budgetMb);
  // No thread is started for one worker without a budget (library use); a budget needs threads.
  const inProcess = workers <= 1 && options.maxMemoryMb === undefined;
  const heap = inProcess ? null : workerHeapMb(Math.min(workers, Math.max(1, jobs.length)), budgetMb);
  return { jobs, problemSet: summary.result(), problemsSha256, config, rank, world, workers, workerHeapMb: heap, domains: domainNames, options };
}

export function samplesFor(job: ProblemJob, config: JobConfig): number {
  if (config.samplesPerState > 0) return config.samplesPerState;
  if (job.builtinTemplates !== null) return getBuiltinDomain(job.domainName).defaultSamplesPerState;
  return DEFAULT_Y_USER;
}

function unwrap(reply: WorkerReply): EncodedJobResult {
  if (reply.ok) return reply.result;
  if (reply.kind === "pddl") throw new PddlError(reply.message, { file: reply.file, line: reply.line, column: reply.column });
  throw new UserError(reply.message);
}

/** The result of a problem that was stopped from outside (memory, hard time limit): skipped. */
function skippedResult(job: ProblemJob, reason: string): EncodedJobResult {
  return {
    index: job.index, domainName: job.domainName, problemId: job.problemId, split: job.split, bytes: new Uint8Array(0), lineCount: 0, rows: null,
    counts: emptyCounts(), planLength: 0, states: 0, skipped: reason, dropped: 0, ms: { grounding: 0, labelling: 0, translation: 0 },
  };
}

/**
 * Wall-clock time after which a worker still busy with one problem is stopped. The limits inside
 * the worker (grounding, labelling) normally stop it first with an exact reason; this bounds what
 * they cannot interrupt, such as parsing a huge file.
 */
export function hardTimeMs(timeMs: number): number {
  return timeMs + Math.max(5000, timeMs / 2);
}

function interrupted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new RunInterrupted(signal.reason);
}


/**
 * Run the jobs and yield their results in job order, whatever order the workers finish in, so
 * output bytes never depend on scheduling. A problem starts only when a worker is free (so its
 * clock starts with it), at most a few problems ahead of the oldest unfinished one. A worker that
 * runs out of heap or past the hard time limit is stopped and its problem skipped; the run goes on.
 * With `buffers`, each problem takes a written shard buffer from it to encode its rows into (the
 * caller gives results' buffers back once written).
 */
export async function* runJobs(plan: RunPlan, buffers?: BufferPool): AsyncGenerator<EncodedJobResult> {
  const signal = plan.options.signal;
  const input = (job: ProblemJob): JobInput => ({
    job,
    config: { ...plan.config, samplesPerState: samplesFor(job, plan.config) },
    spare: buffers?.take() ?? null,
  });
  interrupted(signal);
  // only where domains alternate: within one domain shapes stay put, and one large problem's
  // JavaScript search ran 5-10% faster with V8's full inlining (labyrinth-opt23-adl p01)
  if (plan.jobs.domainNames().size > 1) tuneJitForLabelling();
  if (plan.workerHeapMb === null) {
    for (const job of plan.jobs) {
      yield unwrap(runJobSafe(input(job)));
      await new Promise((r) => setImmediate(r)); // let progress timers and signals run
      interrupted(signal);
    }
    return;
  }
  if (plan.jobs.length === 0) return;
  // workers' peak memory flat over a very long run (see HEAP_FLAGS); a shorter run ends before its
  // heaps outgrow their work, and pays for the extra collections (about 10% of `generate --domain
  // all --count 300`, 3,300 problems; 12-18% of the paper's corpus, 14,714: LONG_RUN_JOBS)
  if (plan.jobs.length >= LONG_RUN_JOBS) boundHeapGrowth();
  const heapMb = plan.workerHeapMb;
  const threads = Math.min(plan.workers, plan.jobs.length);
  const shape = { threads, heapMb };
  const pool = claimPool(shape) ?? createLabellingPool(shape);
  const hardMs = hardTimeMs(plan.config.timeMs);
  // The caller's signal gets one listener; the tasks in flight (workers x queue, past Node's
  // warning at 10 listeners) listen to a signal of the run's own.
  const runStop = new AbortController();
  setMaxListeners(0, runStop.signal);
  const onCaller = (): void => runStop.abort(signal?.reason);
  if (signal?.aborted) onCaller();
  signal?.addEventListener("abort", onCaller, { once: true });
  const runSignal = runStop.signal;
  const runOne = async (job: ProblemJob): Promise<EncodedJobResult> => {
    const stop = new AbortController();
    const timer = setTimeout(() => stop.abort("time"), hardMs);
    const onSignal = (): void => stop.abort("interrupted");
    runSignal.addEventListener("abort", onSignal);
    try {
      const task = input(job);
      return unwrap(await pool.run(task, { signal: stop.signal, ...(task.spare ? { transferList: [task.spare] } : {}) }));
    } catch (e) {
      interrupted(signal);
      if ((e as NodeJS.ErrnoException).code === "ERR_WORKER_OUT_OF_MEMORY") {
        return skippedResult(job, `memory limit: the worker ran out of its ${heapMb} MB heap`);
      }
      if (stop.signal.aborted) return skippedResult(job, `time limit: still running after ${(hardMs / 1000).toFixed(0)} s, worker stopped`);
      throw e;
    } finally {
      clearTimeout(timer);
      runSignal.removeEventListener("abort", onSignal);
    }
  };
  const window = threads * 4;
  const results: Array<Promise<EncodedJobResult> | undefined> = [];
  let running = 0;
  let next = 0;
  let head = 0;
  let closed = false;
  const inFlight = new Set<Promise<EncodedJobResult>>();
  const launch = (): void => {
    while (!closed && running < threads && next < plan.jobs.length && next < head + window) {
      running++;
      const p: Promise<EncodedJobResult> = runOne(plan.jobs.at(next)).finally(() => {
        running--;
        inFlight.delete(p);
        launch();
      });
      inFlight.add(p);
      p.catch(() => undefined); // awaited in order below; the first error wins
      results[next++] = p;
    }
  };
  try {
    for (; head < plan.jobs.length; head++) {
      launch();
      const r = await results[head]!;
      results[head] = undefined;
      const failed = poolFailure(pool);
      if (failed !== null) throw failed;
      yield r;
    }
  } finally {
    closed = true;
    signal?.removeEventListener("abort", onCaller);
    // the run stopped early (a failed write): let the tasks still running finish (each within
    // its time limit) before the pool goes, so that no worker answers a pool that is gone;
    // cancelling them races piscina, which throws on a reply to a cancelled task
    if (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    await pool.destroy();
  }
}

/**
 * Label problems and yield native rows in a deterministic order (library entry point).
 * Problems that hit a limit are skipped silently here; `writeDataset` records them.
 */
export async function* generate(options: GenerateOptions): AsyncGenerator<NativeRow> {
  if (options.format !== undefined && isEvalFormat(options.format)) {
    // these are not per-candidate rows: the library would otherwise yield nothing
    throw new UserError(
      `generate() yields native rows; format '${options.format}' is written per problem by writeDataset({ format: '${options.format}', ... })`,
    );
  }
  const plan = await preparePlan(options, true);
  const t0 = performance.now();
  let done = 0;
  let rows = 0;
  for await (const r of runJobs(plan)) {
    done++;
    rows += r.lineCount;
    options.onProgress?.({ problemsDone: done, problemsTotal: plan.jobs.length, rows, elapsedMs: performance.now() - t0 });
    for (const row of r.rows ?? []) yield row;
  }
}
