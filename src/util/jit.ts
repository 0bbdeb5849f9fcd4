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

let applied = false;

/** Applies the settings above (idempotent; skipped for a flag node was started with, or with PDDL2PRM_V8_DEFAULTS=1). */
export function tuneJitForLabelling(): void {
  if (applied) return;
  applied = true;
  if (process.env.PDDL2PRM_V8_DEFAULTS === "1") return;
  const args = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? "").split(/\s+/)];
  for (const [name, flag] of JIT_FLAGS) if (!flagGiven(name, args)) setFlagsFromString(flag);
}

/** Whether `args` set V8 flag `name` (either spelling, with or without `no-` or a value). */
export function flagGiven(name: string, args: readonly string[]): boolean {
  return args.some((a) => a.replace(/_/g, "-").replace(/^--no-/, "--").split("=")[0] === `--${name}`);
}
