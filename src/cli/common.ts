import { readFileSync, realpathSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { isMainThread, workerData } from "node:worker_threads";
import type { Command } from "commander";
import { PddlError, UserError } from "../pddl/errors.js";
import type { GroundOptions } from "../task/index.js";

/** Exit codes of the CLI contract (DESIGN.md §10). */
export const EXIT_BAD_INPUT = 1;
export const EXIT_USAGE = 2;

/** Thrown for bad usage (bad flag values, missing arguments): exit 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

/** The CLI's entry script. */
export const MAIN_SCRIPT = fileURLToPath(new URL("./main.js", import.meta.url));

/** `path` with links resolved (npx runs the program through node_modules/.bin), or as given. */
function realPath(path: string): string {
  try {
    return realpathSync(resolve(path));
  } catch {
    return resolve(path);
  }
}

/** True when this process runs the pddl2prm program (not a test or a library calling a command). */
export function runsAsProgram(): boolean {
  return realPath(process.argv[1] ?? "") === MAIN_SCRIPT;
}

/**
 * `performance.now()` at the command's start, where its time limit starts. As the pddl2prm
 * program: the process's start (the clock's origin, 0), so that node's start-up and the loading
 * of modules count too (both take seconds on a busy machine); in a bounded worker (bounded.ts),
 * its parent's start; a command called in-process (a test) starts now.
 */
export function commandStart(): number {
  const parent = isMainThread ? undefined : (workerData as { pddl2prmTimeOrigin?: unknown } | null)?.pddl2prmTimeOrigin;
  if (typeof parent === "number") return parent - performance.timeOrigin;
  return isMainThread && runsAsProgram() ? 0 : performance.now();
}

/** Read a user file, turning a missing or unreadable file into a clear UserError. */
export function readUserFile(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ENOENT") throw new UserError(`${path}: no such file`);
    if (code === "EISDIR") throw new UserError(`${path}: is a directory, expected a file`);
    throw new UserError(`${path}: cannot read (${code ?? String(e)})`);
  }
}

/** Read a user file, or standard input for '-' (`what` names it in the error: "the plan"). */
export function readUserFileOrStdin(path: string, what: string): string {
  if (path !== "-") return readUserFile(path);
  try {
    return readFileSync(0, "utf8");
  } catch (e) {
    throw new UserError(`cannot read ${what} from stdin (${(e as NodeJS.ErrnoException).code ?? String(e)})`);
  }
}

/** Parse an integer flag value in [min, max] or throw a UsageError naming the flag. */
export function intFlag(name: string, value: string | undefined, min = 0, max = Number.MAX_SAFE_INTEGER): number | undefined {
  if (value === undefined) return undefined;
  if (!/^-?\d+$/.test(value.trim())) throw new UsageError(`${name} expects an integer, got '${value}'`);
  const n = Number(value);
  if (n < min) throw new UsageError(`${name} must be >= ${min}, got ${n}`);
  if (n > max) throw new UsageError(`${name} must be <= ${max}, got ${value.trim()}`);
  return n;
}

/** Parse a positive number of seconds or throw a UsageError naming the flag. */
export function secondsFlag(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^\s*\d+(\.\d*)?\s*$/.test(value) || !(n > 0)) throw new UsageError(`${name} expects a positive number of seconds, got '${value}'`);
  return n;
}

/** Flags of the grounding size caps, shared by every command that grounds. */
export interface GroundCapFlags {
  maxOps?: string;
  maxFacts?: string;
}

/** Add `--max-ops` and `--max-facts` (defaults: none, or the given ones; `then` says what follows). */
export function groundCapOptions(cmd: Command, defaults: { maxOps?: number; maxFacts?: number; then?: string } = {}): Command {
  const d = (v: number | undefined): string | undefined => (v === undefined ? undefined : String(v));
  const then = defaults.then ?? "exit 1";
  return cmd
    .option("--max-ops <n>", `stop grounding beyond n ground operators (${then})`, d(defaults.maxOps))
    .option("--max-facts <n>", `stop grounding beyond n facts (${then})`, d(defaults.maxFacts));
}

/** The grounding bounds of the cap flags and an absolute deadline (`performance.now()` ms). */
export function groundLimits(flags: GroundCapFlags, deadline?: number): GroundOptions {
  const o: GroundOptions = {};
  const maxOps = intFlag("--max-ops", flags.maxOps, 1);
  const maxFacts = intFlag("--max-facts", flags.maxFacts, 1);
  if (maxOps !== undefined) o.maxOps = maxOps;
  if (maxFacts !== undefined) o.maxFacts = maxFacts;
  if (deadline !== undefined) o.deadline = deadline;
  return o;
}

/**
 * Wrap a command action: user mistakes become one line on stderr and exit 1 (bad input) or
 * 2 (bad usage); only internal bugs show a stack trace.
 */
export function action<A extends unknown[]>(fn: (...args: A) => void | Promise<void>): (...args: A) => Promise<void> {
  return async (...args: A) => {
    try {
      await fn(...args);
    } catch (e) {
      process.exitCode = reportError(e);
    }
  };
}

/** Print an error the way the CLI contract says; returns the exit code. */
export function reportError(e: unknown): number {
  if (e instanceof PddlError) {
    process.stderr.write(e.format() + "\n");
    return EXIT_BAD_INPUT;
  }
  if (e instanceof UserError) {
    process.stderr.write(`pddl2prm: error: ${e.message}\n`);
    return EXIT_BAD_INPUT;
  }
  if (e instanceof UsageError) {
    process.stderr.write(`pddl2prm: error: ${e.message}\n`);
    return EXIT_USAGE;
  }
  process.stderr.write(`pddl2prm: internal error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  return 70;
}

/** Print one JSON object on stdout. */
export function printJson(obj: unknown): void {
  process.stdout.write(JSON.stringify(obj) + "\n");
}
