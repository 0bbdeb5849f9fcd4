/**
 * The labelling workers' thread pool, and its hand-over from the problem-set generation that
 * precedes a `--count` run: the sets are made on the same threads that then label them. Each
 * thread of a separate pool cost a start, a load of the code and a warm-up of V8's compilers
 * (about 0.8 s of CPU each for `generate --domain all --count 100 --workers 2`: issue 49).
 */
import type { EventEmitter } from "node:events";
import { join } from "node:path";
import { Piscina } from "piscina";
import { UserError } from "../pddl/errors.js";
import { packageRoot } from "../util/paths.js";

/** What fixes a pool at creation: its threads and each thread's heap limit (MB). */
export interface PoolShape {
  threads: number;
  heapMb: number;
}

/**
 * Errors of the pool's workers that no task receives (piscina emits them on the pool when the
 * failing worker has no task in flight). A worker out of heap after its problem was already
 * stopped and recorded (the hard time limit reached while its heap was at the limit, issue 50)
 * is nothing more: piscina replaces the worker and the run goes on. Anything else fails the run
 * with one line (`failure`, read by `runJobs` as its results come in). Without a listener, the
 * event ended the process with a stack trace and left the folder's lock behind.
 */
export function watchPoolErrors(pool: EventEmitter): { failure(): UserError | null } {
  let failure: UserError | null = null;
  pool.on("error", (e: NodeJS.ErrnoException) => {
    if (e?.code === "ERR_WORKER_OUT_OF_MEMORY") return;
    failure ??= new UserError(`a worker thread failed: ${String(e?.message ?? e).split("\n")[0]}`);
  });
  return { failure: () => failure };
}

const watched = new WeakMap<Piscina, { failure(): UserError | null }>();

/** The failure of a pool made here outside its tasks (see `watchPoolErrors`), or null. */
export function poolFailure(pool: Piscina): UserError | null {
  return watched.get(pool)?.failure() ?? null;
}

/** A pool of `dist/src/dataset/worker.js` threads (default task: a problem; `makeProblemSet`: a domain's fresh set). */
export function createLabellingPool(shape: PoolShape): Piscina {
  const pool = new Piscina({
    filename: join(packageRoot(), "dist", "src", "dataset", "worker.js"),
    minThreads: shape.threads,
    maxThreads: shape.threads,
    idleTimeout: 1000,
    // (a young generation of 24 MiB, not V8's default of 48: labelling allocates short-lived
    // arrays per state, and the larger space only raised the peak RSS of two workers: issue 49)
    resourceLimits: { maxOldGenerationSizeMb: shape.heapMb, maxYoungGenerationSizeMb: 24 },
  });
  // from its start: a parked pool (problem sets, then labelling) is watched too
  watched.set(pool, watchPoolErrors(pool));
  return pool;
}

/**
 * How long a parked pool waits to be claimed: planning a run between the generation and the
 * labelling takes well under a second; a pool nobody claims (the run failed or resumed a
 * complete rank) is then destroyed. Its idle threads never keep the process alive.
 */
const PARK_MS = 30_000;

let parked: { pool: Piscina; shape: PoolShape; timer: NodeJS.Timeout } | null = null;

/** Keep `pool` for the labelling that follows (a pool parked before is destroyed). */
export function parkPool(pool: Piscina, shape: PoolShape): void {
  dropParked();
  const timer = setTimeout(dropParked, PARK_MS);
  timer.unref();
  parked = { pool, shape, timer };
}

/** The parked pool if it has exactly `shape` (else it is destroyed), or null. */
export function claimPool(shape: PoolShape): Piscina | null {
  if (parked === null) return null;
  const p = parked;
  parked = null;
  clearTimeout(p.timer);
  if (p.shape.threads === shape.threads && p.shape.heapMb === shape.heapMb) return p.pool;
  void p.pool.destroy();
  return null;
}

function dropParked(): void {
  if (parked === null) return;
  clearTimeout(parked.timer);
  void parked.pool.destroy();
  parked = null;
}
