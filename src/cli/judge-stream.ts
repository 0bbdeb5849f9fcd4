/**
 * `judge --jsonl` under hard per-request bounds (issue 50). The requests are judged in a worker
 * thread whose heap is `--max-memory`; this thread reads the lines, hands them over one at a
 * time and writes the answers. The limit counts from the line: parsing, grounding and judging
 * included; the worker stops itself at the limit wherever it can look at a clock. A request
 * still reading or parsing a grace period past its limit (a 50 MB problem), or not answered
 * long after it whatever it does, or running out of heap, is answered here with one
 * `{"error": "limit reached: ..."}` line, the worker is replaced (its warm caches are lost) and
 * the stream goes on. A request's clock starts at its line, or when the thread that judges it
 * has loaded if that is later (the first request, the one after a replaced thread). A request that ran out of heap in a worker warm with earlier requests'
 * caches is tried once more in the fresh one, time permitting.
 */
import { once } from "node:events";
import { createInterface } from "node:readline";
import { Worker } from "node:worker_threads";
import type { JudgeSessionOptions } from "../products/judge-session.js";
import type { RewardOptions } from "../products/rl-reward.js";
import type { JudgeWorkerAnswer, JudgeWorkerData, JudgeWorkerRequest, WorkerLineKind } from "./judge-worker.js";

const WORKER_SCRIPT = new URL("./judge-worker.js", import.meta.url);

/**
 * Time past its limit a request gets to answer with its own limit before its worker is stopped,
 * if it is reading or parsing then (`onBlind`); elsewhere the worker watches the clock itself
 * and is left to answer (it keeps its warm caches), up to `backstopMs` past the limit.
 */
export function requestGraceMs(timeMs: number): number {
  return Math.max(250, timeMs * 0.05);
}
/** A request not answered this long past its limit is stopped wherever it is (a bug, not a limit). */
export function backstopMs(timeMs: number): number {
  return timeMs + 5000;
}
/** How often a request past its limit and grace is looked at. */
const POLL_MS = 50;

/** How a request given to a worker ended: its result line, or the worker is gone (and why). */
export type Outcome = { kind: "answer"; line: string; steps: number; error: string | null } | { kind: "memory" } | { kind: "time" } | { kind: "crash"; message: string };

/**
 * One worker thread with its session (judge-worker.ts); `ask` answers one line. Shared by
 * `judge --jsonl` (one worker) and `serve` (a pool of them, with `reward` options so that they
 * answer reward lines too).
 */
export class StreamWorker {
  private readonly worker: Worker;
  private pending: ((o: Outcome) => void) | null = null;
  private error: (Error & { code?: string }) | null = null;
  private stoppedForTime = false;
  /** Requests it answered (its caches are warm). */
  served = 0;
  dead = false;

  /** Neither gone nor being stopped (an answer can beat the stop by a hair). */
  get usable(): boolean {
    return !this.dead && !this.stoppedForTime;
  }

  /** Resolves with `performance.now()` once the thread has loaded its modules (or is gone). */
  readonly ready: Promise<number>;
  private onReady: (at: number) => void = () => undefined;

  /** 1 while the worker reads or parses (see `onBlind` of the session). */
  private readonly blind = new Int32Array(new SharedArrayBuffer(4));

  constructor(session: JudgeSessionOptions, memoryMb: number, reward?: RewardOptions) {
    this.ready = new Promise<number>((resolve) => (this.onReady = resolve));
    const data: JudgeWorkerData = { session, blind: this.blind.buffer as SharedArrayBuffer, ...(reward !== undefined ? { reward } : {}) };
    this.worker = new Worker(WORKER_SCRIPT, { workerData: data, resourceLimits: { maxOldGenerationSizeMb: memoryMb } });
    this.worker.on("message", (m: JudgeWorkerAnswer | { ready: true }) => {
      if ("ready" in m) return this.onReady(performance.now());
      this.served++;
      this.settle({ kind: "answer", line: m.out, steps: m.steps, error: m.error });
    });
    this.worker.on("error", (e: Error & { code?: string }) => {
      this.error ??= e;
    });
    this.worker.on("exit", () => {
      this.dead = true;
      this.onReady(performance.now());
      const e = this.error;
      this.settle(
        this.stoppedForTime
          ? { kind: "time" }
          : e?.code === "ERR_WORKER_OUT_OF_MEMORY"
            ? { kind: "memory" }
            : { kind: "crash", message: e?.message ?? "the judging thread stopped" },
      );
    });
  }

  private settle(o: Outcome): void {
    const p = this.pending;
    this.pending = null;
    p?.(o);
  }

  /**
   * Judge `line`, whose clock started at `start` (`performance.now()`): stopped from `hardEnd` on
   * while it reads or parses, and at `backstop` wherever it is.
   */
  ask(line: string, start: number, hardEnd: number, backstop: number, kind: WorkerLineKind = "judge"): Promise<Outcome> {
    if (this.dead) return Promise.resolve({ kind: "crash", message: "the judging thread stopped" });
    return new Promise<Outcome>((resolve) => {
      let timer: NodeJS.Timeout;
      const look = (): void => {
        if (Atomics.load(this.blind, 0) === 1 || performance.now() >= backstop) {
          this.stoppedForTime = true;
          void this.worker.terminate();
        } else timer = setTimeout(look, POLL_MS);
      };
      timer = setTimeout(look, Math.max(0, hardEnd - performance.now()));
      this.pending = (o) => {
        clearTimeout(timer);
        resolve(o);
      };
      const request: JudgeWorkerRequest = { line, startedAt: performance.timeOrigin + start, kind };
      this.worker.postMessage(request);
    });
  }

  async stop(): Promise<void> {
    if (!this.dead) await this.worker.terminate();
  }
}

/** The `id` of a request line, if it has one (for an answer made without the worker). */
export function requestId(line: string): unknown {
  try {
    const raw = JSON.parse(line) as unknown;
    return raw !== null && typeof raw === "object" && "id" in raw ? (raw as { id: unknown }).id : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The answer of a request whose worker is gone (`o` is not an answer): a limit or an internal
 * error, with the request's id (an internal error is also reported on stderr).
 */
export function lostAnswer(o: Exclude<Outcome, { kind: "answer" }>, line: string, timeMs: number, memoryMb: number): Record<string, unknown> {
  const error =
    o.kind === "memory"
      ? `limit reached: the request needs more than ${memoryMb} MB of memory (--max-memory ${memoryMb})`
      : o.kind === "time"
        ? `limit reached: the time limit of ${timeMs} ms is reached (--time-ms, parsing included)`
        : `internal error: ${o.message}`;
  if (o.kind === "crash") process.stderr.write(`pddl2prm: internal error: ${o.message}\n`);
  const id = requestId(line);
  return id === undefined ? { error } : { id, error };
}

/** Write one line, waiting when the pipe is full (a slow reader never makes us buffer without bound). */
export async function writeLine(text: string): Promise<void> {
  if (!process.stdout.write(text + "\n")) await once(process.stdout, "drain");
}

/**
 * Answer each request line of stdin with `answer` on this thread, one JSON line per request, in
 * order (blank lines skipped). An exception is a bug, not the client's: it is reported on its
 * line and on stderr, and the stream goes on.
 */
export async function streamLines(answer: (line: string) => Record<string, unknown>): Promise<void> {
  const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
  for await (const line of rl) {
    if (line.trim().length === 0) continue;
    let out: Record<string, unknown>;
    try {
      out = answer(line);
    } catch (e) {
      process.stderr.write(`pddl2prm: internal error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
      out = { error: `internal error: ${e instanceof Error ? e.message : String(e)}` };
    }
    await writeLine(JSON.stringify(out));
  }
}

/** Judge the request lines of stdin in a bounded worker (see the top of this file). */
export async function streamBounded(session: JudgeSessionOptions & { timeMs: number }, memoryMb: number): Promise<void> {
  const timeMs = session.timeMs;
  const grace = requestGraceMs(timeMs);
  // started now: its start-up overlaps the wait for the first line
  let worker = new StreamWorker(session, memoryMb);
  const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
  try {
    for await (const line of rl) {
      if (line.trim().length === 0) continue;
      const read = performance.now();
      let out: string | null = null;
      for (let attempt = 0; out === null; attempt++) {
        const warm = worker.served > 0;
        // the clock starts at the line, or when a thread started for it (after a stopped one)
        // has loaded: a replaced thread's start-up is not charged to the next request
        const start = Math.max(read, await worker.ready);
        const o = await worker.ask(line, start, start + timeMs + grace, start + backstopMs(timeMs));
        if (o.kind === "answer") {
          out = o.line;
          if (!worker.usable) worker = new StreamWorker(session, memoryMb);
          break;
        }
        // the worker is gone: a fresh one for what follows
        worker = new StreamWorker(session, memoryMb);
        // out of heap with other problems' caches held: once more, alone, if time is left
        if (o.kind === "memory" && warm && attempt === 0 && performance.now() < read + timeMs) continue;
        out = JSON.stringify(lostAnswer(o, line, timeMs, memoryMb));
      }
      await writeLine(out);
    }
  } finally {
    await worker.stop();
  }
}
