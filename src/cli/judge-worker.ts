/**
 * The worker thread of `judge --jsonl` (judge-stream.ts) and of `serve`'s pool (serve-pool.ts):
 * a warm session that answers one request line per message with its result line. Its heap is
 * `--max-memory`; the thread that started it stops it when a request runs past its limit while
 * parsing (no clock there). With `reward` options it holds a RewardSession, whose JudgeSession
 * also answers judge lines (one set of warm caches for both kinds).
 */
import { parentPort, workerData } from "node:worker_threads";
import { JudgeSession, type JudgeSessionOptions } from "../products/judge-session.js";
import { RewardSession, type RewardOptions } from "../products/rl-reward.js";

/** What a request line is: a `judge --jsonl` line (default) or a `reward --jsonl` line. */
export type WorkerLineKind = "judge" | "reward";

/** A request: the line, its kind, and when its clock started (ms since the epoch, `performance.timeOrigin + now`). */
export interface JudgeWorkerRequest {
  line: string;
  startedAt: number;
  kind?: WorkerLineKind;
}

/** An answer: the result line, how many steps it judged and its `error` if it has one (for `serve`). */
export interface JudgeWorkerAnswer {
  out: string;
  steps: number;
  error: string | null;
}

/** What the thread is started with. */
export interface JudgeWorkerData {
  session: JudgeSessionOptions;
  blind: SharedArrayBuffer;
  /** Present: a RewardSession with these options answers reward lines too. */
  reward?: RewardOptions;
}

const { session: options, blind, reward } = workerData as JudgeWorkerData;
// 1 while the session reads or parses (no clock there): only then is a late request stopped
// from outside, which costs the thread's warm caches
const flag = new Int32Array(blind);
const onBlind = (on: boolean): void => void Atomics.store(flag, 0, on ? 1 : 0);
const rewards = reward !== undefined ? new RewardSession({ ...options, ...reward, onBlind }) : null;
const session = rewards !== null ? rewards.judge : new JudgeSession({ ...options, onBlind });

/** Steps judged in a result: a judgement's steps, or the steps a reward judged (its extraction's). */
function stepsOf(out: Record<string, unknown>): number {
  const ex = out.extraction as { steps?: unknown } | undefined;
  if (ex !== undefined && typeof ex.steps === "number") return ex.steps;
  return Array.isArray(out.steps) ? out.steps.length : 0;
}

parentPort!.on("message", (m: JudgeWorkerRequest) => {
  // the request's limit counts from its line, read by the other thread
  const start = m.startedAt - performance.timeOrigin;
  const deadline = options.timeMs !== undefined ? start + options.timeMs : Infinity;
  let out: Record<string, unknown>;
  try {
    if (m.kind === "reward") {
      if (rewards === null) throw new Error("this thread has no reward session");
      out = rewards.rewardLine(m.line, deadline);
    } else out = session.judgeLine(m.line, deadline);
  } catch (e) {
    // a bug must not end the stream: report it on this line and on stderr
    process.stderr.write(`pddl2prm: internal error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    out = { error: `internal error: ${e instanceof Error ? e.message : String(e)}` };
  }
  const answer: JudgeWorkerAnswer = { out: JSON.stringify(out), steps: stepsOf(out), error: typeof out.error === "string" ? out.error : null };
  parentPort!.postMessage(answer);
});
// A fresh thread's code is cold: one small judgement first (a shipped problem, its result
// dropped) compiles the paths every request takes, so that a request's limit is spent on its
// own work. Then requests' clocks may start: a thread's start-up is not the next request's time.
try {
  new JudgeSession({ cacheSize: 1 }).judge({ domain: "blocksworld", problem: "p0001", steps: ["(pick-up a)", "(unstack a b)"] });
  if (rewards !== null) new RewardSession({ cacheSize: 1 }).reward({ domain: "blocksworld", problem: "p0001", completion: "1. (pick-up a)" });
} catch {
  // (only a warm-up)
}
parentPort!.postMessage({ ready: true });
