/**
 * Memory and thread bounds of a run: how many worker threads, and how much heap each may use
 * (`generate --workers`, `--max-memory`). A worker over its heap is stopped by Node and the
 * problem it was labelling is skipped; the main thread keeps a fixed reserve.
 */
import { availableParallelism, totalmem } from "node:os";

/** Most worker threads a run may ask for: far beyond any useful count, short of exhausting a machine. */
export const MAX_WORKERS = 256;
/** Memory kept for the main thread (problem texts, shard buffers, results in flight), MB. */
export const MAIN_RESERVE_MB = 256;
/** Least share of the budget a worker gets, MB: below this it cannot even load a mid-size task. */
export const MIN_WORKER_MB = 128;
/** What a worker uses beyond its old-generation heap (young generation, code, thread), MB. */
const WORKER_OVERHEAD_MB = 64;
/** Default budget: this fraction of the machine's memory (or of the container's limit). */
const DEFAULT_FRACTION = 0.75;

/** Memory of the machine, or of the container (cgroup) when that is smaller, in MB. */
export function machineMemoryMb(): number {
  let bytes = totalmem();
  const constrained = (process as { constrainedMemory?: () => number | undefined }).constrainedMemory?.();
  if (constrained !== undefined && constrained > 0 && constrained < bytes) bytes = constrained;
  return Math.floor(bytes / 2 ** 20);
}

/** The default `--max-memory`: three quarters of the machine's memory, MB. */
export function defaultMemoryBudgetMb(): number {
  return Math.max(MAIN_RESERVE_MB + MIN_WORKER_MB, Math.floor(machineMemoryMb() * DEFAULT_FRACTION));
}

/** The default worker count: one per core, as many as the budget allows. */
export function defaultWorkers(budgetMb: number): number {
  return Math.max(1, Math.min(availableParallelism(), Math.floor((budgetMb - MAIN_RESERVE_MB) / MIN_WORKER_MB)));
}

/**
 * Why `workers` threads do not fit in `budgetMb`, or null when they do. The caller turns the
 * text into its own error (a usage error on the command line).
 */
export function workerBudgetProblem(workers: number, budgetMb: number, flags = { workers: "--workers", memory: "--max-memory" }): string | null {
  if (workers > MAX_WORKERS) return `${flags.workers} must be <= ${MAX_WORKERS}, got ${workers}`;
  const need = MAIN_RESERVE_MB + workers * MIN_WORKER_MB;
  if (budgetMb < need) {
    return `${flags.workers} ${workers} needs ${flags.memory} of at least ${need} MB (${MAIN_RESERVE_MB} MB for the main thread, ${MIN_WORKER_MB} MB per worker), got ${budgetMb}`;
  }
  return null;
}

/**
 * Heap limit of each worker (V8 old generation), MB: an equal share of the budget after the
 * main thread's reserve, less what a thread uses outside that heap.
 */
export function workerHeapMb(workers: number, budgetMb: number): number {
  return Math.floor((budgetMb - MAIN_RESERVE_MB) / workers) - WORKER_OVERHEAD_MB;
}
