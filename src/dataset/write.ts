import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, rmSync, statSync } from "node:fs";
import { basename, join } from "node:path";
import { UserError } from "../pddl/errors.js";
import { packageVersion } from "../util/paths.js";
import { TEMP_NAME, tempName } from "../util/atomic-write.js";
import { makeFolders, writeDatasetFile } from "./disk.js";
import { onForcedExit } from "./emergency.js";
import { acquireLock, LOCK_NAME, otherLiveRanks, type Lock } from "./lock.js";
import { refuseLinks, removeOwnFiles, removeTempFiles, undoCreated } from "./output-folder.js";
import { checkStage, finishSwap, STAGE, swapIn } from "./replace.js";
import { LEDGER } from "./ownership.js";
import { PLOT_FILES } from "./plots.js";
import { emptyCounts, type CategoryCounts, type DatasetAuditor, type ProblemRecord, type RankRecord } from "./records.js";

export type { ProblemRecord, RankRecord };
import { mergeDataset, reproducedFiles } from "./manifest.js";
import { planRun, preparePlan, runJobs, RunInterrupted, type GenerateOptions, type Progress } from "./pipeline.js";
import { problemTextOf, type ProblemSource } from "./problems.js";
import { SPLITS, type Split } from "./row.js";
import { readConfigFile, readRankFile } from "./state-files.js";
import { BufferPool } from "./buffer-pool.js";
import { ShardWriter, type ShardInfo } from "./shard.js";
import { ParquetShardWriter } from "./parquet.js";
import { features } from "./features.js";
import { PddlCopies } from "./pddl-copies.js";
import { ACPBENCH_DIR, filesUnder, LAYOUTS, removeEmptyFolders, type Layout } from "./layout.js";
import { ProblemRecordList } from "./problem-records.js";
import { addWork, emptyWork, type WorkCounts } from "../search/work.js";

export interface WriteOptions extends GenerateOptions {
  /** Output folder. */
  out: string;
  gzip?: boolean;
  /** Parquet shards (snappy-compressed, the card's features as their schema) instead of JSONL. */
  parquet?: boolean;
  /** Delete an existing dataset made with other settings instead of refusing. */
  force?: boolean;
  /** Run on the finished dataset; its headline goes into manifest.json and the card. */
  audit?: DatasetAuditor;
  /** Files beside the shards: native (none, default) or acpbench (ACPBench's files, `--format acp` only; layout.ts). */
  layout?: Layout;
}

/** Milliseconds per stage: the first three summed over the workers, the others on the main thread. */
export interface StageTimes {
  grounding: number;
  labelling: number;
  translation: number;
  /** Appending the workers' bytes to the shards (hashing, waiting for the disk). */
  writing: number;
  /** Closing and renaming the shards, the PDDL copies, the completion marker. */
  finishing: number;
  /** manifest.json, the card, stats.csv and plots (when all ranks are complete). */
  merging: number;
}

export interface DatasetSummary {
  out: string;
  rank: number;
  world: number;
  /** True when this rank was already complete and nothing was recomputed. */
  resumed: boolean;
  rows: number;
  problems: number;
  skipped: number;
  /** Problems labelled in part: a limit cut their walk's later states (their rows are kept). */
  partial: number;
  /** Rows dropped for being longer than `maxLength` tokens. */
  dropped: number;
  counts: CategoryCounts;
  byDomain: Record<string, CategoryCounts>;
  ms: StageTimes;
  /** The workers' search work, summed (deterministic for a given job and worker count 1: tests/work-counters). */
  work: WorkCounts;
  wallMs: number;
  /** True when all ranks are complete and manifest.json, README.md and stats.csv were written. */
  merged: boolean;
  /** Files of a user's kept where the dataset's card, stats or plots would go (not written). */
  kept: string[];
  /** True when a `--force` run swapped its dataset in (past the commit point a signal no longer stops it). */
  swapped: boolean;
}

const pad5 = (n: number) => String(n).padStart(5, "0");

/** Shard file name of DESIGN.md §9. */
export function shardName(split: Split, rank: number, world: number, gzip: boolean, parquet = false): string {
  return `${split}-${pad5(rank)}-of-${pad5(world)}.${parquet ? "parquet" : `jsonl${gzip ? ".gz" : ""}`}`;
}

const sha = (text: string): string => createHash("sha256").update(text).digest("hex");

/** The settings that decide the bytes of a run; a resumed or merged run must match them. */
export function runConfig(options: WriteOptions, plan: ReturnType<typeof planRun>): Record<string, unknown> {
  return {
    domains: plan.domains,
    // file names only: the manifest is published with the dataset, local paths are private
    // (the texts themselves are hashed below)
    domain_file: options.domainFile !== undefined ? basename(options.domainFile) : null,
    pairs: options.pairs !== undefined ? basename(options.pairs) : null,
    problems: plan.problemSet.count,
    problems_sha256: plan.problemsSha256,
    domains_sha256: createHash("sha256").update(plan.problemSet.domainTexts.join("\0")).digest("hex"),
    // which domain file each problem uses, where the problems of one run use several
    ...(plan.problemSet.domainOfProblemSha256 !== null && options.domain === undefined
      ? { domain_of_problem_sha256: plan.problemSet.domainOfProblemSha256 }
      : {}),
    // the text a run writes depends on its templates
    ...(options.templates !== undefined
      ? { templates: basename(options.templates), templates_sha256: sha(recordedTemplates(plan) ?? readFileSync(options.templates, "utf8")), generic_fallback: plan.config.genericFallback }
      : {}),
    count: options.count ?? null,
    seed: plan.config.seed,
    samples_per_state: plan.config.samplesPerState > 0 ? plan.config.samplesPerState : "domain default",
    format: plan.config.format,
    threshold: plan.config.threshold,
    balance: plan.config.balance,
    random_optimal: plan.config.randomOptimal,
    non_executable: plan.config.nonExecutable,
    holdout_domain: options.holdoutDomain ?? null,
    gzip: options.gzip ?? false,
    ...(options.parquet ? { parquet: true } : {}),
    // (absent for native: the settings of earlier runs hash as before)
    ...(options.layout !== undefined && options.layout !== "native" ? { layout: options.layout } : {}),
    world: plan.world,
    limits: {
      time_ms: plan.config.timeMs,
      max_expansions: plan.config.maxExpansions,
      max_states: plan.config.maxStates,
      max_ops: plan.config.maxOps,
      max_facts: plan.config.maxFacts,
    },
    // length control and the chat layout change which rows are written and how
    ...(plan.config.wholeProblems ? { whole_problems: true } : {}),
    ...(plan.config.chat ? { chat: true } : {}),
    // feedback always records its layout: older feedback folders (dialogues, no style) never resume as turns
    ...(plan.config.style !== undefined && (plan.config.style !== "plain" || plan.config.format === "feedback") ? { style: plan.config.style } : {}),
    ...(plan.config.maxLength !== null
      ? { max_length: plan.config.maxLength, tokenizer: plan.config.tokenizer !== null ? { file: basename(plan.config.tokenizer), sha256: sha(readFileSync(plan.config.tokenizer, "utf8")) } : "estimate" }
      : {}),
    version: packageVersion(),
  };
}

/**
 * Label the selected problems and write the dataset folder of DESIGN.md §9 for this rank:
 * shards, the PDDL used, and a completion marker; when every rank is complete, also
 * manifest.json, README.md (dataset card) and stats.csv. Re-running skips finished ranks.
 */
export async function writeDataset(options: WriteOptions): Promise<DatasetSummary> {
  const t0 = performance.now();
  if (options.gzip && options.parquet) throw new UserError("gzip and parquet: give one (Parquet shards are compressed)");
  if (options.layout !== undefined && !(LAYOUTS as readonly string[]).includes(options.layout)) throw new UserError(`layout must be one of ${LAYOUTS.join(", ")}, got '${options.layout}'`);
  if (options.layout === "acpbench" && options.format !== "acp") throw new UserError("--layout acpbench writes ACPBench's files of reasoning questions: it needs --format acp");
  if (options.layout === "acpbench" && options.parquet) throw new UserError("--layout acpbench reads JSON Lines shards: give it without --parquet");
  const plan = await preparePlan(options, false);
  const out = options.out;
  const config = runConfig(options, plan);
  const configHash = createHash("sha256").update(JSON.stringify(config)).digest("hex");
  const summary: DatasetSummary = {
    out,
    rank: plan.rank,
    world: plan.world,
    resumed: false,
    rows: 0,
    problems: plan.jobs.length,
    skipped: 0,
    partial: 0,
    dropped: 0,
    counts: emptyCounts(),
    byDomain: {},
    ms: { grounding: 0, labelling: 0, translation: 0, writing: 0, finishing: 0, merging: 0 },
    work: emptyWork(),
    wallMs: 0,
    merged: false,
    kept: [],
    swapped: false,
  };

  // What this run creates, so that a run that fails (bad input found by a worker, Ctrl-C) leaves
  // the folder as it found it.
  const created: string[] = [];
  // and what undoes the PDDL copies of a lone rank, should its merge fail
  const undoCopies: Array<() => void> = [];
  let lock: Lock | null = null;
  const unregister = onForcedExit(() => {
    lock?.release(); // first: the lock file would keep the folder from being removed
    for (const undo of undoCopies) undo();
    undoCreated(created);
  });
  try {
    lock = await openFolder(out, plan.rank, created, configHash);
    // --force over other settings: the new dataset is made beside the old one and swapped in
    // complete (replace.ts); the old one stays in place until then, whatever stops the run
    const target = targetFolder(out, configHash, options, plan.rank);
    if (target !== out) {
      checkStage(out); // a user's folder of that name is refused, never written into
      // (ranks of one run started together race to make it: the one that loses finds it made)
      try {
        mkdirSync(target);
        created.push(target);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
      }
      refuseLinks(target);
      refuseFilesForFolders(target);
      removeTempFiles(target, plan.rank, otherLiveRanks(out, plan.rank).length === 0);
    }
    await prepareAndRun(plan, { ...options, out: target, force: target !== out }, config, configHash, summary, created, undoCopies);
    const tm = performance.now();
    // what the merge writes, to undo where it fails (a full disk) in a lone rank's run
    const mergeFiles = ["manifest.json", "README.md", "stats.csv", ...Object.values(PLOT_FILES), LEDGER];
    const before = new Set(mergeFiles.filter((f) => existsSync(join(target, f))));
    const layoutBefore = new Set(filesUnder(target, ACPBENCH_DIR));
    const layoutDirBefore = existsSync(join(target, ACPBENCH_DIR));
    const plotsBefore = existsSync(join(target, "plots"));
    const undoMerge = (): void => {
      if (plan.world !== 1) return;
      for (const f of mergeFiles) if (!before.has(f)) rmSync(join(target, f), { force: true });
      for (const f of filesUnder(target, ACPBENCH_DIR)) if (!layoutBefore.has(f)) rmSync(join(target, f), { force: true });
      if (!layoutDirBefore) removeEmptyFolders(join(target, ACPBENCH_DIR));
      if (!plotsBefore && existsSync(join(target, "plots")) && readdirSync(join(target, "plots")).length === 0) rmdirSync(join(target, "plots"));
    };
    // a forced stop (a second Ctrl-C) in the merge undoes it too: its files would keep the
    // folder (the stage of a --force run) from being removed and block the next run
    const unregisterMerge = onForcedExit(undoMerge);
    try {
      summary.merged = (await mergeDataset(target, { quietIfIncomplete: true, ...(options.audit ? { audit: options.audit } : {}), onKept: (k) => summary.kept.push(...k) })) !== null;
    } catch (e) {
      undoMerge();
      throw e;
    } finally {
      unregisterMerge();
    }
    if (plan.world === 1) {
      created.length = 0; // complete: nothing of it is undone any more
      undoCopies.length = 0;
    }
    if (summary.merged && target !== out) {
      // a signal before the commit point stops the run: the old dataset stays, the new one waits
      // complete in the stage; after it (the journal written) the swap is finished whatever comes
      if (options.signal?.aborted) throw new RunInterrupted(options.signal.reason);
      const reproduced = await reproducedFiles(out);
      if (options.signal?.aborted) throw new RunInterrupted(options.signal.reason);
      summary.kept = swapIn(out, reproduced);
      summary.swapped = true;
    }
    summary.ms.merging = performance.now() - tm;
  } catch (e) {
    lock?.release();
    lock = null;
    for (const undo of undoCopies) undo();
    undoCreated(created);
    throw e;
  } finally {
    unregister();
    lock?.release();
  }
  summary.wallMs = performance.now() - t0;
  return summary;
}

/**
 * Make sure `out` is a folder without links inside, create it if needed, take this rank's lock
 * and remove temporary files that killed runs left behind.
 */
async function openFolder(out: string, rank: number, created: string[], configHash: string): Promise<Lock> {
  if (existsSync(out) && !statSync(out).isDirectory()) throw new UserError(`--out ${out}: is a file, not a folder`);
  if (!existsSync(out)) {
    try {
      makeFolders(out);
    } catch (e) {
      throw new UserError(`--out ${out}: cannot create the folder (${(e as NodeJS.ErrnoException).code ?? String(e)})`);
    }
    created.push(out);
  }
  refuseLinks(out);
  refuseFilesForFolders(out);
  const lock = await acquireLock(out, rank, configHash);
  removeTempFiles(out, rank, otherLiveRanks(out, rank).length === 0);
  // a forced run stopped while swapping its dataset in: finish the swap (a journal refused
  // leaves no lock of this run behind either)
  try {
    finishSwap(out);
  } catch (e) {
    lock.release();
    throw e;
  }
  return lock;
}

/** The templates text the jobs carry (read once at the start: the text the rows are written with). */
function recordedTemplates(plan: ReturnType<typeof planRun>): string | null {
  return plan.jobs.length > 0 ? (plan.jobs.at(0).templatesText ?? null) : null;
}

/** A file where pddl2prm keeps one of its folders (data/, completions/, pddl/, plots/): a one-line error. */
function refuseFilesForFolders(out: string): void {
  for (const d of ["data", "completions", "pddl", "plots"]) {
    const p = join(out, d);
    if (existsSync(p) && !statSync(p).isDirectory()) throw new UserError(`${p}: is a file where pddl2prm keeps its ${d} folder; move it away, or use another --out`);
  }
}

/**
 * Where this run writes: `out`, or its staging folder when `--force` replaces a dataset made
 * with other settings. A config.json pddl2prm did not write is never replaced, with or without
 * `--force`; nor is a folder it did not make written into.
 */
function targetFolder(out: string, configHash: string, options: WriteOptions, rank: number): string {
  const configPath = join(out, "config.json");
  if (existsSync(configPath)) {
    let old: string;
    try {
      old = readConfigFile(configPath).config_hash;
    } catch (e) {
      const why = e instanceof UserError ? e.message.replace(/; remove it, or use --force.*$/, "") : String(e);
      throw new UserError(`${why}; pddl2prm does not replace a file it did not write: move it away, or use another --out`);
    }
    if (old === configHash) return out;
    if (!options.force) throw new UserError(`${out} holds a dataset made with other settings; use another --out, or --force to replace it`);
    // (ranks of this same run, started together, are not in the way: their locks name its settings)
    const busy = otherLiveRanks(out, rank, configHash);
    if (busy.length > 0) throw new UserError(`--force: ${out} is being written by other runs (ranks ${busy.join(", ")}); wait for them to finish`);
    return join(out, STAGE);
  }
  // Other ranks may be creating the same folder right now: only what no run of ours makes is a problem.
  // (a reserved name here is not pddl2prm's: it puts none in a folder before its config.json)
  const foreign = readdirSync(out).filter((n) => !/^(data|completions|\.keep)$/.test(n) && !LOCK_NAME.test(n) && !TEMP_NAME.test(n));
  for (const d of ["data", "completions"]) {
    const p = join(out, d);
    if (existsSync(p) && statSync(p).isDirectory()) foreign.push(...readdirSync(p).filter((n) => !TEMP_NAME.test(n)).map((n) => `${d}/${n}`));
    else if (existsSync(p)) foreign.push(d);
  }
  if (foreign.length > 0) {
    throw new UserError(`${out} exists and is not a pddl2prm dataset folder (it holds ${foreign[0]}${foreign.length > 1 ? ` and ${foreign.length - 1} more` : ""}); pddl2prm writes only into an empty folder or its own dataset: use another --out`);
  }
  return out;
}

/** Check or create the folder and config.json, then label this rank unless it is already done. */
async function prepareAndRun(
  plan: ReturnType<typeof planRun>,
  options: WriteOptions,
  config: Record<string, unknown>,
  configHash: string,
  summary: DatasetSummary,
  created: string[],
  undoCopies: Array<() => void>,
): Promise<void> {
  const out = options.out;
  const configPath = join(out, "config.json");
  const marker = join(out, "completions", pad5(plan.rank));
  const make = (dir: string): void => {
    if (!existsSync(dir)) created.push(dir);
    mkdirSync(dir, { recursive: true });
  };
  // (`out` here is the folder targetFolder chose; with `force`, the staging folder, all ours:
  // a dataset of other settings left in it by an earlier forced run is replaced)
  if (existsSync(configPath) && options.force) {
    let old: string | null = null;
    try {
      old = readConfigFile(configPath).config_hash;
    } catch {
      old = null;
    }
    if (old !== configHash) removeOwnFiles(out);
  }
  make(out);
  if (!existsSync(configPath)) {
    created.push(configPath);
    writeDatasetFile(configPath, JSON.stringify({ config_hash: configHash, config }, null, 2) + "\n");
  }
  make(join(out, "data"));
  make(join(out, "completions"));

  if (existsSync(marker)) {
    const rec = readRankFile(marker);
    summary.resumed = true;
    summary.rows = rec.shards.reduce((a, s) => a + s.rows, 0);
    summary.counts = rec.counts;
    summary.skipped = rec.problems.filter((p) => p.skipped !== null).length;
    summary.partial = rec.problems.filter((p) => p.cut !== undefined).length;
    summary.dropped = rec.problems.reduce((a, p) => a + (p.dropped ?? 0), 0);
  } else {
    await runRank(plan, options, out, options.gzip ?? false, configHash, summary, created, undoCopies);
  }
}

async function runRank(
  plan: ReturnType<typeof planRun>,
  options: WriteOptions,
  out: string,
  gzip: boolean,
  configHash: string,
  summary: DatasetSummary,
  created: string[],
  undoCopies: Array<() => void>,
): Promise<void> {
  const dataDir = join(out, "data");
  const writers = new Map<Split, ShardWriter | ParquetShardWriter>();
  const columns = options.parquet ? features(plan.config.format, plan.config.chat, plan.config.style) : null;
  try {
    for (const split of SPLITS) {
      const name = shardName(split, plan.rank, plan.world, gzip, columns !== null);
      const [final, temp] = [join(dataDir, name), tempName(join(dataDir, name))];
      writers.set(split, columns !== null ? new ParquetShardWriter(final, temp, `data/${name}`, columns) : new ShardWriter(final, temp, `data/${name}`, gzip));
    }
  } catch (e) {
    await Promise.all([...writers.values()].map((w) => w.abort()));
    throw e;
  }
  const problems = new ProblemRecordList(plan.jobs);
  const copies = new PddlCopies(out);
  // a forced stop (a second Ctrl-C) removes the temporary shards and this run's PDDL copies
  const tempShards = [...writers.values()].map((w) => w.tempPath);
  const unregister = onForcedExit(() => {
    for (const t of tempShards) rmSync(t, { force: true });
    copies.undo();
  });
  const perProblemDomain = plan.problemSet.domainsWithSeveralFiles;
  const t0 = performance.now();
  let done = 0;
  try {
    // written buffers go back to the workers (BufferPool): up to one per queued or running problem
    const buffers = new BufferPool(plan.workers * 4 + 4);
    for await (const r of runJobs(plan, buffers)) {
      const job = plan.jobs.at(done);
      done++;
      const tw = performance.now();
      const buffer = r.bytes.buffer as ArrayBuffer; // transferred from a worker: never shared
      await writers.get(r.split)!.writeEncoded(r.bytes, r.lineCount, () => buffers.give(buffer));
      summary.ms.writing += performance.now() - tw;
      summary.ms.grounding += r.ms.grounding;
      summary.ms.labelling += r.ms.labelling;
      summary.ms.translation += r.ms.translation;
      if (r.work !== undefined) addWork(summary.work, r.work);
      summary.rows += r.lineCount;
      if (r.skipped !== null) summary.skipped++;
      if (r.cut !== undefined) summary.partial++;
      summary.dropped += r.dropped;
      const dc = (summary.byDomain[r.domainName] ??= emptyCounts());
      for (const [k, v] of Object.entries(r.counts) as [keyof typeof r.counts, number][]) {
        summary.counts[k] += v;
        dc[k] += v;
      }
      problems.push(r);
      // one domain.pddl per domain name, or each problem's own domain file where they differ
      const domainRel = perProblemDomain.has(job.domainName) ? `${job.problemId}.domain.pddl` : "domain.pddl";
      if (perProblemDomain.has(job.domainName)) copies.addUnique(join("pddl", job.domainName, domainRel), job.domainText);
      else copies.add(join("pddl", job.domainName, domainRel), job.domainText);
      copies.addUnique(join("pddl", job.domainName, `${job.problemId}.pddl`), r.problemText ?? problemTextOf(job));
      const progress: Progress = {
        problemsDone: done,
        problemsTotal: plan.jobs.length,
        rows: summary.rows,
        elapsedMs: performance.now() - t0,
      };
      options.onProgress?.(progress);
    }
  } catch (e) {
    await Promise.all([...writers.values()].map((w) => w.abort()));
    copies.undo();
    throw e;
  }
  const tw = performance.now();
  const shards: ShardInfo[] = [];
  // Shards renamed into place belong to the run until its completion marker is written: a run
  // that fails before that removes them (without the marker they are no dataset, and they would
  // keep config.json, which guards a folder with data, from being removed).
  const finished = created.length;
  try {
    for (const split of SPLITS) {
      const w = writers.get(split)!;
      // an empty split gets no shard: `datasets.load_dataset` rejects a split with no data
      if (w.rows === 0) {
        await w.abort();
        continue;
      }
      const info = await w.finish();
      shards.push(info);
      created.push(join(out, info.path));
    }
    const rec: RankRecord = { rank: plan.rank, world: plan.world, config_hash: configHash, shards, problems: problems.toArray(), counts: summary.counts };
    writeDatasetFile(join(out, "completions", pad5(plan.rank)), JSON.stringify(rec) + "\n");
    created.push(join(out, "completions", pad5(plan.rank)));
  } catch (e) {
    await Promise.all([...writers.values()].map((w) => w.abort()));
    copies.undo();
    throw e;
  }
  // the rank is complete: in a run of several ranks its shards stay if merging fails (`pddl2prm
  // merge` finishes the folder); a lone rank's are undone with the rest (the folder as it was)
  if (plan.world > 1) created.splice(finished);
  else undoCopies.push(() => copies.undo());
  summary.ms.finishing = performance.now() - tw;
  unregister();
}
