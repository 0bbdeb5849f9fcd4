/**
 * The worker thread of `judge --jsonl` (judge-stream.ts): a JudgeSession that answers one request
 * line per message with its result line. Its heap is the stream's `--max-memory`; the thread that
 * started it stops it when a request runs past its limit while parsing (no clock there).
 */
import { parentPort, workerData } from "node:worker_threads";
import { JudgeSession, type JudgeSessionOptions } from "../products/judge-session.js";

/** A request: the line, and when its clock started (ms since the epoch, `performance.timeOrigin + now`). */
export interface JudgeWorkerRequest {
  line: string;
  startedAt: number;
}

const { session: options, blind } = workerData as { session: JudgeSessionOptions; blind: SharedArrayBuffer };
// 1 while the session reads or parses (no clock there): only then is a late request stopped
// from outside, which costs the thread's warm caches
const flag = new Int32Array(blind);
const session = new JudgeSession({ ...options, onBlind: (on) => void Atomics.store(flag, 0, on ? 1 : 0) });

parentPort!.on("message", (m: JudgeWorkerRequest) => {
  // the request's limit counts from its line, read by the other thread
  const start = m.startedAt - performance.timeOrigin;
  const deadline = options.timeMs !== undefined ? start + options.timeMs : Infinity;
  let out: Record<string, unknown>;
  try {
    out = session.judgeLine(m.line, deadline);
  } catch (e) {
    // a bug must not end the stream: report it on this line and on stderr
    process.stderr.write(`pddl2prm: internal error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    out = { error: `internal error: ${e instanceof Error ? e.message : String(e)}` };
  }
  parentPort!.postMessage(JSON.stringify(out));
});
// A fresh thread's code is cold: one small judgement first (a shipped problem, its result
// dropped) compiles the paths every request takes, so that a request's limit is spent on its
// own work. Then requests' clocks may start: a thread's start-up is not the next request's time.
try {
  new JudgeSession({ cacheSize: 1 }).judge({ domain: "blocksworld", problem: "p0001", steps: ["(pick-up a)", "(unstack a b)"] });
} catch {
  // (only a warm-up)
}
parentPort!.postMessage({ ready: true });
