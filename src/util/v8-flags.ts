import { setFlagsFromString } from "node:v8";

/**
 * V8 optimizing-compiler settings for labelling runs (process-wide, applied once).
 *
 * A worker labels problems of many domains with the same code; each new domain brings objects
 * of new shapes, so V8 throws away optimized code of the large once-per-problem functions
 * (grounding, the renderer's setup, the job) and compiles it again, on background threads that
 * share the machine's cores with the workers. With V8's default inlining, 2 workers on 2 cores
 * spent about 22 s of a 60 s CPU run of `generate --domain all --count 300` in those compiles
 * (bench/results/corpus-issue19.txt); without inlining Array builtins (map, forEach, sort and
 * their callbacks) into callers and with a third of the inlining budget, 10 s, and the run's
 * wall time fell by about 15%. The hot loops (search, heuristics) are plain loops over typed
 * arrays or WebAssembly. Runs of one domain keep V8's defaults: their shapes stay put, and one
 * large IPC problem (labyrinth-opt23-adl p01, JavaScript search with conditional effects)
 * labelled 5-10% faster with full inlining. Flags given to node explicitly win.
 */
export const JIT_FLAGS: ReadonlyArray<readonly [name: string, value: string]> = [
  ["turbo-inline-array-builtins", "--no-turbo-inline-array-builtins"],
  ["max-inlined-bytecode-size-cumulative", "--max-inlined-bytecode-size-cumulative=300"],
];

/**
 * V8 heap setting for long runs with worker threads (process-wide, applied once).
 *
 * A worker's live heap is small (about 25-35 MB at 4x the paper's corpus: the task, the shared
 * transition graphs, the renderer's caches), but V8 let its old generation grow to about three
 * times that before a full collection, and the typed arrays that died meanwhile (the search's
 * tables, off the JS heap) were freed only then: each worker grew by 60-80 MB as a run went on,
 * so peak RSS rose with the run's length (0.25x / 1x / 4x of the paper's corpus: 344 / 379 / 486
 * MiB). Growing the heap by half its live size instead: 4x peaked at 399-405 MiB against 497-550
 * MiB, 1x at 338-367 against 376-412, for about the same time (bench/results/corpus-issue19.txt,
 * session 13): full collections are more frequent, but each marks a small heap.
 */
export const HEAP_FLAGS: ReadonlyArray<readonly [name: string, value: string]> = [["heap-growing-percent", "--heap-growing-percent=50"]];

const applied = new Set<ReadonlyArray<readonly [string, string]>>();

function apply(flags: ReadonlyArray<readonly [string, string]>): void {
  if (applied.has(flags)) return;
  applied.add(flags);
  if (process.env.PDDL2PRM_V8_DEFAULTS === "1") return;
  const args = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? "").split(/\s+/)];
  for (const [name, flag] of flags) if (!flagGiven(name, args)) setFlagsFromString(flag);
}

/** Applies `JIT_FLAGS` (idempotent; skipped for a flag node was started with, or with PDDL2PRM_V8_DEFAULTS=1). */
export function tuneJitForLabelling(): void {
  apply(JIT_FLAGS);
}

/** Applies `HEAP_FLAGS`, before a long run's worker threads start (idempotent; the same exceptions as `tuneJitForLabelling`). */
export function boundHeapGrowth(): void {
  apply(HEAP_FLAGS);
}

/** Whether `args` set V8 flag `name` (either spelling, with or without `no-` or a value). */
export function flagGiven(name: string, args: readonly string[]): boolean {
  return args.some((a) => a.replace(/_/g, "-").replace(/^--no-/, "--").split("=")[0] === `--${name}`);
}
