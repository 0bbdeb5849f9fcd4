import { move, transferableSymbol, valueSymbol } from "piscina";
import { PddlError, UserError } from "../pddl/errors.js";
import { runJob, type JobConfig, type ProblemJob } from "./job.js";
import type { EncodedJobResult } from "./records.js";
import { encodeLines } from "./shard.js";
import { workSince, workSnapshot } from "../search/work.js";

/** The pool's other task: a domain's fresh problem set (problem-pool.ts), made on the threads that then label it. */
export { makeProblemSet } from "./problem-worker.js";

/** What crosses the thread boundary back: a result, or a user error to re-raise in the main thread. */
export type WorkerReply =
  | { ok: true; result: EncodedJobResult }
  | { ok: false; kind: "pddl"; message: string; file: string; line: number; column: number }
  | { ok: false; kind: "user"; message: string };

/** A task: the problem, the run's settings, and a written shard buffer to reuse (BufferPool). */
export interface JobInput {
  job: ProblemJob;
  config: JobConfig;
  spare?: ArrayBuffer | null;
}

/**
 * Run a job and encode its lines as shard bytes, turning user errors into data (class identity
 * does not survive postMessage).
 */
export function runJobSafe(input: JobInput): WorkerReply {
  try {
    const before = workSnapshot();
    const { lines, ...rest } = runJob(input.job, input.config);
    return { ok: true, result: { ...rest, work: workSince(before), bytes: encodeLines(lines, input.spare ?? null), lineCount: lines.length } };
  } catch (e) {
    if (e instanceof PddlError) return { ok: false, kind: "pddl", message: e.message, file: e.file, line: e.line, column: e.column };
    if (e instanceof UserError) return { ok: false, kind: "user", message: e.message };
    throw e;
  }
}

/**
 * The piscina task entry point. The shard bytes are transferred, not cloned: the main thread
 * then only appends and hashes them.
 */
export default function task(input: JobInput): unknown {
  const reply = runJobSafe(input);
  if (!reply.ok) return reply;
  return move({ [transferableSymbol]: [reply.result.bytes.buffer], [valueSymbol]: reply } as unknown as ArrayBuffer);
}
