/**
 * The worker thread of `judge --jsonl` (judge-stream.ts) and of `serve`'s pool (serve-pool.ts):
 * a warm session that answers the request lines of each message (one line, or a chunk of a batch
 * from `serve`) with their result lines. Its heap is
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

/**
 * A message to the thread: lines judged in order. A message each way per line costs about
 * 0.17 ms of CPU when both threads wait for each other (they wake up each time), half of what
 * judging a short plan costs, so `serve` hands a batch over in chunks. `claims` (one int32 a
 * line): the thread claims a line (0 -> 1) before judging it; a line the other thread took
 * back (2: given to an idle worker) is skipped.
 */
export interface JudgeWorkerChunk {
  items: JudgeWorkerRequest[];
  claims: SharedArrayBuffer;
}

/**
 * Answers of consecutive lines from `first` on. They are held a few ms to go out together, but
 * never into a phase where the other thread may stop this one (`onBlind`): a stop at a later
 * line's limit loses none. `done`: the chunk is through.
 */
export interface JudgeWorkerReply {
  first: number;
  answers: JudgeWorkerAnswer[];
  done: boolean;
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
  /** Two int32: 1 while reading or parsing, then the index in its chunk of the line being judged. */
  blind: SharedArrayBuffer;
  /** Present: a RewardSession with these options answers reward lines too. */
  reward?: RewardOptions;
}

const { session: options, blind, reward } = workerData as JudgeWorkerData;
/** Answers are held at most this long (one message for several saves CPU on both threads). */
const HOLD_MS = 2;
let held: JudgeWorkerAnswer[] = [];
let heldFirst = 0;
let heldSince = 0;
let heldDone = false;
function flush(): void {
  if (held.length === 0 && !heldDone) return;
  const reply: JudgeWorkerReply = { first: heldFirst, answers: held, done: heldDone };
  parentPort!.postMessage(reply);
  held = [];
  heldDone = false;
}

// 1 while the session reads or parses (no clock there): only then is a late request stopped
// from outside, which costs the thread's warm caches
const flag = new Int32Array(blind);
// answers held go out before a phase that may be stopped from outside: a stop loses nothing made
const onBlind = (on: boolean): void => {
  if (on) flush();
  Atomics.store(flag, 0, on ? 1 : 0);
};
const rewards = reward !== undefined ? new RewardSession({ ...options, ...reward, onBlind }) : null;
const session = rewards !== null ? rewards.judge : new JudgeSession({ ...options, onBlind });

/** Steps judged in a result: a judgement's steps, or the steps a reward judged (its extraction's). */
function stepsOf(out: Record<string, unknown>): number {
  const ex = out.extraction as { steps?: unknown } | undefined;
  if (ex !== undefined && typeof ex.steps === "number") return ex.steps;
  return Array.isArray(out.steps) ? out.steps.length : 0;
}

function answerOf(m: JudgeWorkerRequest): JudgeWorkerAnswer {
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
  return { out: JSON.stringify(out), steps: stepsOf(out), error: typeof out.error === "string" ? out.error : null };
}

parentPort!.on("message", (m: JudgeWorkerChunk) => {
  const claims = new Int32Array(m.claims);
  for (let i = 0; i < m.items.length; i++) {
    if (Atomics.compareExchange(claims, i, 0, 1) !== 0) continue;
    Atomics.store(flag, 1, i);
    const answer = answerOf(m.items[i]!);
    if (held.length > 0 && heldFirst + held.length !== i) flush();
    if (held.length === 0) {
      heldFirst = i;
      heldSince = performance.now();
    }
    held.push(answer);
    if (performance.now() - heldSince >= HOLD_MS) flush();
  }
  heldDone = true;
  flush();
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
