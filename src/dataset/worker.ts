import { PddlError, UserError } from "../pddl/errors.js";
import { runJob, type JobConfig, type JobResult, type ProblemJob } from "./job.js";

/** What crosses the thread boundary back: a result, or a user error to re-raise in the main thread. */
export type WorkerReply =
  | { ok: true; result: JobResult }
  | { ok: false; kind: "pddl"; message: string; file: string; line: number; column: number }
  | { ok: false; kind: "user"; message: string };

/** Run a job, turning user errors into data (class identity does not survive postMessage). */
export function runJobSafe(input: { job: ProblemJob; config: JobConfig }): WorkerReply {
  try {
    return { ok: true, result: runJob(input.job, input.config) };
  } catch (e) {
    if (e instanceof PddlError) return { ok: false, kind: "pddl", message: e.message, file: e.file, line: e.line, column: e.column };
    if (e instanceof UserError) return { ok: false, kind: "user", message: e.message };
    throw e;
  }
}

/** The piscina task entry point. */
export default function task(input: { job: ProblemJob; config: JobConfig }): WorkerReply {
  return runJobSafe(input);
}
