/**
 * `parse`, `ground`, `solve`, `label` and `judge` under hard bounds: the command runs in a worker
 * thread with a heap limit (`--max-memory`) and is stopped at its time limit (`--time-limit` in
 * seconds, or `label`/`judge`'s `--time-ms`) counted from the start, parsing included (a parse
 * of a large file cannot check a clock itself). Either bound reached is one line and exit 1,
 * never an out-of-memory crash of the process.
 */
import { Worker } from "node:worker_threads";
import { commandStart, intFlag, MAIN_SCRIPT, runsAsProgram, secondsFlag } from "./common.js";

const IN_WORKER = "PDDL2PRM_BOUNDED";
/** Time a command past its limit gets to report the limit itself before it is stopped. */
const GRACE_MS = 250;

/**
 * Default heap limit, MB: with the typed arrays outside the heap and the main thread, a bounded
 * command stays under 2 GB of memory (a 42 MB problem: 1.9 GB peak, measured). A larger task
 * asks for more with --max-memory.
 */
export const DEFAULT_MAX_MEMORY_MB = 1280;

/** The `--max-memory` help text of the bounded commands. */
export const MAX_MEMORY_HELP = `heap limit in MB; over it, exit 1 with one line (default: ${DEFAULT_MAX_MEMORY_MB}, which keeps the process under 2 GB)`;

/** Is this the bounded worker of a command (bounded.ts), or a thread it started? */
export function inBoundedWorker(): boolean {
  return process.env[IN_WORKER] === "1";
}

/** The heap limit of `--max-memory`, MB (checked: at least 64). */
export function maxMemoryMb(flag: string | undefined): number {
  return intFlag("--max-memory", flag, 64) ?? DEFAULT_MAX_MEMORY_MB;
}

/**
 * Run the current command in a bounded worker, unless this already is one. Resolves true when it
 * ran there (its output and exit code are the command's), false when the caller runs it itself.
 * The time limit is `flags.timeLimit` (seconds) or `timeMs` (a command with `--time-ms`).
 */
export async function runBounded(
  command: string,
  flags: { timeLimit?: string; maxMemory?: string; json?: boolean },
  onLimit?: (ms: number) => void,
  timeMs?: number,
): Promise<boolean> {
  // (bounded only as the pddl2prm program: run in-process by a test or a library, it runs as called)
  if (inBoundedWorker() || !runsAsProgram()) return false;
  const t0 = commandStart();
  const seconds = timeMs !== undefined ? timeMs / 1000 : secondsFlag("--time-limit", flags.timeLimit);
  const limitText = timeMs !== undefined ? `${timeMs} ms (--time-ms)` : `${seconds} s`;
  const memoryMb = maxMemoryMb(flags.maxMemory);
  const worker = new Worker(MAIN_SCRIPT, {
    argv: process.argv.slice(2),
    env: { ...process.env, [IN_WORKER]: "1" },
    // the worker's limits count from this process's start, not its own (`commandStart`)
    workerData: { pddl2prmTimeOrigin: performance.timeOrigin },
    resourceLimits: { maxOldGenerationSizeMb: memoryMb },
  });
  let reason: string | null = null;
  // counted from the process's start: loading modules and starting the worker are inside it
  const timer = seconds === undefined ? null : setTimeout(() => {
    reason = `${command}: the time limit of ${limitText} is reached (parsing included)`;
    void worker.terminate();
  }, Math.max(0, t0 + seconds * 1000 + GRACE_MS - performance.now()));
  const code = await new Promise<number>((resolve) => {
    worker.on("error", (e: NodeJS.ErrnoException) => {
      if (e.code === "ERR_WORKER_OUT_OF_MEMORY") reason ??= `${command}: needs more than ${memoryMb} MB of memory (--max-memory ${memoryMb})`;
      else reason ??= `${command}: ${e.message}`;
    });
    worker.on("exit", resolve);
  });
  if (timer !== null) clearTimeout(timer);
  if (reason !== null) {
    process.stderr.write(`pddl2prm: error: ${reason}\n`);
    onLimit?.(performance.now() - t0);
    process.exitCode = 1;
  } else process.exitCode = code;
  return true;
}
