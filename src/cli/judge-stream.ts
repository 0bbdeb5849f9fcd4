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
import type { JudgeWorkerChunk, JudgeWorkerData, JudgeWorkerReply, WorkerLineKind } from "./judge-worker.js";

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

/** A line for `StreamWorker.askMany`, with its clock (`performance.now()` times). */
export interface StreamItem {
  line: string;
  kind: WorkerLineKind;
  /** Its clock started here. */
  start: number;
  /** From here on it is stopped while it reads or parses (no clock there). */
  hardEnd: number;
  /** From here on it is stopped wherever it is. */
  backstop: number;
}

interface Chunk {
  items: readonly StreamItem[];
  onOutcome: (index: number, o: Outcome) => void;
  /** 1 once a line is answered (or blamed for the thread's end), 2 once taken back by `steal`. */
  state: Uint8Array;
  /** Shared with the thread: 0 free, 1 claimed by it, 2 taken back here. */
  claims: Int32Array;
  resolve: (notJudged: number[]) => void;
  timer: NodeJS.Timeout | undefined;
}

/**
 * One worker thread with its session (judge-worker.ts); `ask` answers one line, `askMany` a
 * chunk of lines in one message each way. Shared by `judge --jsonl` (one worker) and `serve` (a
 * pool of them, with `reward` options so that they answer reward lines too).
 */
export class StreamWorker {
  private readonly worker: Worker;
  private chunk: Chunk | null = null;
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

  /** [0]: 1 while the worker reads or parses (see `onBlind` of the session); [1]: the index of the line it judges. */
  private readonly blind = new Int32Array(new SharedArrayBuffer(8));

  constructor(session: JudgeSessionOptions, memoryMb: number, reward?: RewardOptions) {
    this.ready = new Promise<number>((resolve) => (this.onReady = resolve));
    const data: JudgeWorkerData = { session, blind: this.blind.buffer as SharedArrayBuffer, ...(reward !== undefined ? { reward } : {}) };
    this.worker = new Worker(WORKER_SCRIPT, { workerData: data, resourceLimits: { maxOldGenerationSizeMb: memoryMb } });
    this.worker.on("message", (m: JudgeWorkerReply | { ready: true }) => {
      if ("ready" in m) return this.onReady(performance.now());
      const c = this.chunk;
      if (c === null) return;
      for (let k = 0; k < m.answers.length; k++) {
        const a = m.answers[k]!;
        this.served++;
        c.state[m.first + k] = 1;
        c.onOutcome(m.first + k, { kind: "answer", line: a.out, steps: a.steps, error: a.error });
      }
      if (m.done) this.end(c, []);
    });
    this.worker.on("error", (e: Error & { code?: string }) => {
      this.error ??= e;
    });
    this.worker.on("exit", () => {
      this.dead = true;
      this.onReady(performance.now());
      const c = this.chunk;
      if (c === null) return;
      const e = this.error;
      const o: Outcome = this.stoppedForTime
        ? { kind: "time" }
        : e?.code === "ERR_WORKER_OUT_OF_MEMORY"
          ? { kind: "memory" }
          : { kind: "crash", message: e?.message ?? "the judging thread stopped" };
      // the line being judged takes the blame (the first unanswered one if none had started);
      // the others were not judged
      let at = Atomics.load(this.blind, 1);
      if (at < 0 || at >= c.items.length || c.state[at] !== 0) at = c.state.indexOf(0);
      if (at >= 0) {
        c.state[at] = 1;
        c.onOutcome(at, o);
      }
      const rest: number[] = [];
      for (let i = 0; i < c.items.length; i++) if (c.state[i] === 0) rest.push(i);
      this.end(c, rest);
    });
  }

  private end(c: Chunk, notJudged: number[]): void {
    clearTimeout(c.timer);
    this.chunk = null;
    c.resolve(notJudged);
  }

  /**
   * Judge `line`, whose clock started at `start` (`performance.now()`): stopped from `hardEnd` on
   * while it reads or parses, and at `backstop` wherever it is.
   */
  async ask(line: string, start: number, hardEnd: number, backstop: number, kind: WorkerLineKind = "judge"): Promise<Outcome> {
    let out: Outcome = { kind: "crash", message: "the judging thread stopped" };
    await this.askMany([{ line, kind, start, hardEnd, backstop }], (_, o) => (out = o));
    return out;
  }

  /**
   * Judge `items` in order (their `hardEnd`s and `backstop`s must not decrease) from one message
   * (answers come back a few at a time). `onOutcome` gets each line's answer as it
   * comes, or, when the thread stops (a limit, out of heap, a crash), the line it was judging
   * gets that outcome. Resolves with the indexes of the lines that got none (not judged, and not
   * taken back by `steal`), for the caller to hand to another worker.
   */
  askMany(items: readonly StreamItem[], onOutcome: (index: number, o: Outcome) => void): Promise<number[]> {
    if (this.dead || items.length === 0) {
      if (items.length > 0) onOutcome(0, { kind: "crash", message: "the judging thread stopped" });
      return Promise.resolve(items.map((_, i) => i).slice(1));
    }
    return new Promise<number[]>((resolve) => {
      const claims = new Int32Array(new SharedArrayBuffer(4 * items.length));
      const c: Chunk = { items, onOutcome, state: new Uint8Array(items.length), claims, resolve, timer: undefined };
      const current = (): StreamItem => {
        const at = Atomics.load(this.blind, 1);
        return items[at >= 0 && at < items.length ? at : 0]!;
      };
      const look = (): void => {
        const item = current();
        const now = performance.now();
        if ((Atomics.load(this.blind, 0) === 1 && now >= item.hardEnd) || now >= item.backstop) {
          this.stoppedForTime = true;
          void this.worker.terminate();
        } else c.timer = setTimeout(look, now < item.hardEnd ? item.hardEnd - now : POLL_MS);
      };
      c.timer = setTimeout(look, Math.max(0, items[0]!.hardEnd - performance.now()));
      this.chunk = c;
      Atomics.store(this.blind, 1, -1);
      const message: JudgeWorkerChunk = {
        items: items.map((it) => ({ line: it.line, startedAt: performance.timeOrigin + it.start, kind: it.kind })),
        claims: claims.buffer as SharedArrayBuffer,
      };
      this.worker.postMessage(message);
    });
  }

  /** Lines of the chunk being judged that the thread has not started yet. */
  get waiting(): number {
    const c = this.chunk;
    if (c === null) return 0;
    let n = 0;
    // from the end, past lines taken back before, up to the first the thread claimed
    for (let i = c.items.length - 1; i >= 0; i--) {
      const v = Atomics.load(c.claims, i);
      if (v === 1) break;
      if (v === 0) n++;
    }
    return n;
  }

  /** The thread has claimed a line of its chunk (before that, it is about to start: nothing to take back). */
  get started(): boolean {
    const c = this.chunk;
    if (c === null) return false;
    for (let i = 0; i < c.items.length; i++) if (Atomics.load(c.claims, i) === 1) return true;
    return false;
  }

  /**
   * Take back up to `max` lines the thread has not started (from the chunk's end; the thread
   * claims lines from its start), for an idle worker: their indexes, in order. `onOutcome` never
   * hears of them.
   */
  steal(max: number): number[] {
    const c = this.chunk;
    const out: number[] = [];
    if (c === null) return out;
    for (let i = c.items.length - 1; i >= 0 && out.length < max; i--) {
      const v = Atomics.compareExchange(c.claims, i, 0, 2);
      if (v === 2) continue;
      if (v === 1) break;
      c.state[i] = 2;
      out.push(i);
    }
    return out.reverse();
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
