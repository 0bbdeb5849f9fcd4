/**
 * Fresh problem sets (`--count`) made on worker threads, one domain per thread at a time, before
 * a run is planned: made one after another on the main thread they kept the workers waiting.
 * The threads are the labelling pool's, parked for the run that follows (labelling-pool.ts).
 */
import { setMaxListeners } from "node:events";
import { BUILTIN_DOMAINS, MAX_PROBLEM_COUNT, type GeneratedProblem } from "../generators/index.js";
import { boundHeapGrowth, tuneJitForLabelling } from "../util/v8-flags.js";
import { createLabellingPool, parkPool } from "./labelling-pool.js";
import type { ProblemSetReply } from "./problem-worker.js";
import { workerHeapMb } from "./resources.js";

/**
 * Problems from which a run bounds its heaps' growth (`boundHeapGrowth`, before its threads start).
 * The bound costs CPU in extra full collections: on the paper's corpus (14,714 problems, 2
 * workers, 3 interleaved pairs) 72.9-81.1 s with it against 63.9-66.2 s without, for a peak of
 * 308-320 against 402-411 MB (issue 49). So runs up to twice that size go without it, and the
 * 4x runs that grew by 60-80 MB per worker without it (issue 19) keep it.
 */
export const LONG_RUN_JOBS = 30_000;

/** What `pregenerateProblems` needs of a run's options. */
export interface PregenerateOptions {
  domain?: string | string[];
  domainFile?: string;
  problems?: string;
  pairs?: string;
  count?: number;
  seed?: number;
  signal?: AbortSignal;
}

/**
 * The problem sets of a `count` run over several built-in domains, by domain name, made with
 * `generateProblems` on up to `workers` threads (the same sets: each depends only on domain,
 * count and seed). Purely a speed-up: anything unusual (bad options, a failed set, an abort)
 * gives an empty map, and the run's planning then makes the sets itself and reports the error.
 * The threads are those the run will label with (`budgetMb`: the run's memory budget), parked
 * for it when the sets are made.
 */
export async function pregenerateProblems(options: PregenerateOptions, workers: number, budgetMb: number): Promise<Map<string, GeneratedProblem[]>> {
  const made = new Map<string, GeneratedProblem[]>();
  const count = options.count;
  const seed = options.seed ?? 1;
  if (count === undefined || options.domainFile !== undefined || options.problems !== undefined || options.pairs !== undefined) return made;
  if (!Number.isInteger(count) || count < 1 || count > MAX_PROBLEM_COUNT || !Number.isInteger(seed) || seed < 0) return made;
  const asked = options.domain === undefined ? [] : Array.isArray(options.domain) ? options.domain : [options.domain];
  const names = [...new Set(asked.includes("all") ? BUILTIN_DOMAINS.map((d) => d.name) : asked)];
  if (names.length < 2 || workers < 2 || !names.every((n) => BUILTIN_DOMAINS.some((d) => d.name === n))) return made;
  tuneJitForLabelling();
  // the labelling run's pool (planRun: a thread per worker up to one per problem)
  const jobs = names.length * count;
  if (jobs >= LONG_RUN_JOBS) boundHeapGrowth();
  const threads = Math.min(workers, jobs);
  const shape = { threads, heapMb: workerHeapMb(threads, budgetMb) };
  const pool = createLabellingPool(shape);
  let keep = false;
  // One task per domain, each listening for an abort: on a signal of our own (the caller's gets
  // one listener), with room for all of them, else Node warns past 10 listeners (all 11 domains).
  const stop = new AbortController();
  setMaxListeners(names.length + 1, stop.signal);
  const onAbort = (): void => stop.abort(options.signal?.reason);
  if (options.signal?.aborted) stop.abort(options.signal.reason);
  options.signal?.addEventListener("abort", onAbort, { once: true });
  try {
    const replies = await Promise.all(names.map((name) => pool.run({ name, count, seed }, { signal: stop.signal, name: "makeProblemSet" }) as Promise<ProblemSetReply>));
    if (replies.every((r) => r.ok)) {
      names.forEach((n, i) => made.set(n, (replies[i] as { problems: GeneratedProblem[] }).problems));
      keep = true;
    }
  } catch {
    // aborted or a worker failed: the caller plans without these sets
  } finally {
    options.signal?.removeEventListener("abort", onAbort);
    if (keep) parkPool(pool, shape);
    else await pool.destroy();
  }
  return made;
}
