/**
 * `serve`'s worker pool: N threads of judge-worker.ts (the `StreamWorker`s of `judge --jsonl`,
 * each with a warm RewardSession) and a bounded queue of request lines. Each problem has a home
 * worker (a hash of the line's domain and problem fields): its lines wait in that worker's queue,
 * so one session's h* cache sees all of a problem's completions, as one `reward --jsonl` process
 * does (spread over two workers, the same lines cost 0.26 ms of CPU a completion against 0.22).
 * An idle worker takes its own lines first, then the oldest of the others': no worker idles while
 * lines wait. Lines go in chunks (a worker's share of what waits, at most `MAX_CHUNK`: a message
 * each way per line costs half what judging a short plan does); a worker left idle with nothing
 * queued takes half the lines another has not started yet. A line's limit counts
 * from its arrival (time in the queue included), and
 * holds as in `judge --jsonl`: the worker stops itself at the limit where it can look at a clock,
 * and is stopped and replaced when it is still reading or parsing past the limit and a grace, or
 * not answering long after it. The pool never holds more than `queue` waiting lines.
 */
import type { JudgeSessionOptions } from "../products/judge-session.js";
import type { RewardOptions } from "../products/rl-reward.js";
import { backstopMs, lostAnswer, requestGraceMs, StreamWorker, type StreamItem } from "./judge-stream.js";
import type { WorkerLineKind } from "./judge-worker.js";
import { itemOutcome, type ItemOutcome, type ServeMetrics } from "./serve-metrics.js";

/** A request line's answer: the result line as `reward --jsonl` / `judge --jsonl` prints it. */
export interface PoolAnswer {
  line: string;
  outcome: ItemOutcome;
}

/** What the pool is made with. */
export interface PoolOptions {
  workers: number;
  /** Lines that may wait for a worker (beyond those being judged). */
  queue: number;
  /** Each line's limit from its arrival, ms. */
  timeMs: number;
  /** Heap limit of each worker, MB. */
  memoryMb: number;
  session: JudgeSessionOptions;
  reward: RewardOptions;
  metrics: ServeMetrics;
}

/**
 * Most lines given to a worker at once. A chunk of 16 short plans is ~6 ms of judging: the
 * hand-offs fall to ~1/10 without holding up a line behind a long chunk.
 */
const MAX_CHUNK = 16;

interface Job {
  kind: WorkerLineKind;
  line: string;
  /** Index of the queue (home worker) of the line's problem. */
  home: number;
  /** `performance.now()` at its arrival: its clock starts there. */
  arrival: number;
  resolve: (a: PoolAnswer) => void;
  cancelled: boolean;
  retried: boolean;
}

/** A handle on submitted lines: cancel drops those still waiting (a client that went away). */
export interface Submission {
  answers: Promise<PoolAnswer>[];
  cancel(): void;
}

/** A queue of jobs: pushed at the back, taken from the front, put back at the front. */
class JobQueue {
  private items: Job[] = [];
  private head = 0;

  get size(): number {
    return this.items.length - this.head;
  }

  /** The front job (undefined when empty). */
  peek(): Job | undefined {
    return this.items[this.head];
  }

  push(job: Job): void {
    this.items.push(job);
  }

  shift(): Job | undefined {
    if (this.head >= this.items.length) return undefined;
    const j = this.items[this.head++]!;
    // compact now and then: the array never holds more than the queue's lines for long
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items.splice(0, this.head);
      this.head = 0;
    }
    return j;
  }

  /** Put `jobs` back at the front, in their order. */
  unshift(jobs: Job[]): void {
    this.items.splice(this.head, 0, ...jobs);
  }
}

/** A request line's top-level "domain" and "problem" strings (up to 128 characters each), as read from the raw JSON. */
const PROBLEM_FIELD = /"(domain|problem)"\s*:\s*"((?:[^"\\]|\\.){0,128})/g;

/**
 * The home queue of a request line: a hash of its domain and problem fields (a name, path or
 * PDDL text: their first 128 characters), read from the raw line without parsing it (inside a
 * JSON string a quote is escaped, so a completion cannot pose as a field). Only a placement
 * hint: a line without the fields, or two problems on one queue, are judged all the same.
 */
export function homeOf(line: string, queues: number): number {
  // the two fields hashed apart, so that their order in the line does not matter
  const h = [0x811c9dc5, 0x811c9dc5];
  PROBLEM_FIELD.lastIndex = 0;
  for (let m = PROBLEM_FIELD.exec(line); m !== null; m = PROBLEM_FIELD.exec(line)) {
    const k = m[1] === "domain" ? 0 : 1;
    const t = m[2]!;
    let x = h[k]!;
    for (let i = 0; i < t.length; i++) x = Math.imul(x ^ t.charCodeAt(i), 0x01000193);
    h[k] = x;
  }
  return ((Math.imul(h[0]!, 31) ^ h[1]!) >>> 0) % queues;
}

export class WorkerPool {
  private readonly options: PoolOptions;
  private readonly idle: StreamWorker[] = [];
  private readonly all = new Set<StreamWorker>();
  /** The jobs of each worker's chunk being judged. */
  private readonly running = new Map<StreamWorker, Job[]>();
  /** Each worker's home queue; a replacement takes over its predecessor's. */
  private readonly queues: JobQueue[];
  private readonly homes = new Map<StreamWorker, number>();
  private waiting = 0;
  private busy = 0;
  private stopping = false;

  constructor(options: PoolOptions) {
    this.options = options;
    this.queues = Array.from({ length: options.workers }, () => new JobQueue());
    options.metrics.gauges = () => ({ queue: this.queued, queueCapacity: options.queue, workers: this.all.size, busy: this.busy });
  }

  /** Lines waiting for a worker. */
  get queued(): number {
    return this.waiting;
  }

  /** Start the workers; resolves once every one has loaded and warmed up. */
  async start(): Promise<void> {
    const ws = Array.from({ length: this.options.workers }, (_, i) => this.spawn(i));
    await Promise.all(ws.map((w) => w.ready));
    for (const w of ws) {
      if (w.dead) throw new Error("a worker thread did not start");
      this.idle.push(w);
    }
  }

  private spawn(home: number): StreamWorker {
    const w = new StreamWorker(this.options.session, this.options.memoryMb, this.options.reward);
    this.all.add(w);
    this.homes.set(w, home);
    return w;
  }

  /**
   * Queue `lines` (each with its kind), all arrived at `arrival`; null when the queue has no room
   * for all of them (the caller answers 503). Answers come in any order; each promise is its line's.
   */
  submit(lines: readonly { kind: WorkerLineKind; line: string }[], arrival: number): Submission | null {
    if (this.stopping || this.queued + lines.length > this.options.queue) return null;
    const jobs: Job[] = [];
    const answers = lines.map(
      (l) =>
        new Promise<PoolAnswer>((resolve) => {
          jobs.push({ kind: l.kind, line: l.line, home: homeOf(l.line, this.queues.length), arrival, resolve, cancelled: false, retried: false });
        }),
    );
    for (const j of jobs) this.queues[j.home]!.push(j);
    this.waiting += jobs.length;
    this.pump();
    return {
      answers,
      cancel: () => {
        for (const j of jobs) j.cancelled = true;
      },
    };
  }

  /** The next job for the worker of queue `home`: its own queue's front, else the oldest front of the others. */
  private take(home: number): Job | undefined {
    while (this.waiting > 0) {
      let q = this.queues[home]!;
      if (q.size === 0) {
        for (const o of this.queues) if (o.size > 0 && (q.size === 0 || o.peek()!.arrival < q.peek()!.arrival)) q = o;
      }
      const j = q.shift()!;
      this.waiting--;
      if (!j.cancelled) return j;
      j.resolve({ line: "", outcome: "ok" });
    }
    return undefined;
  }

  private pump(): void {
    while (this.idle.length > 0) {
      // an idle worker whose own queue has lines first (the most recently idle of those)
      let at = this.idle.length - 1;
      for (let i = at; i >= 0; i--) {
        if (this.queues[this.homes.get(this.idle[i]!)!]!.size > 0) {
          at = i;
          break;
        }
      }
      const worker = this.idle[at]!;
      const home = this.homes.get(worker)!;
      // an even share of what waits for each worker, so that a lone batch keeps them all busy
      const size = Math.min(MAX_CHUNK, Math.max(1, Math.ceil(this.queued / this.options.workers)));
      const chunk: Job[] = [];
      while (chunk.length < size) {
        const job = this.take(home);
        if (job === undefined) break;
        if (performance.now() >= job.arrival + this.options.timeMs) {
          // its time went by in the queue: answered without a worker
          this.finish(job, lostAnswer({ kind: "time" }, job.line, this.options.timeMs, this.options.memoryMb), null);
          continue;
        }
        chunk.push(job);
      }
      if (chunk.length === 0 && !this.stealInto(chunk)) return;
      this.idle.splice(at, 1);
      for (const j of chunk) if (j.home !== home) this.options.metrics.awayFromHome++;
      void this.run(worker, chunk);
    }
  }

  /**
   * Nothing waits in the queue: half the lines a busy worker has not started yet (once it has
   * started on its chunk) go to an idle one (a long line holds up only itself, and a lone batch ends on all workers together).
   */
  private stealInto(chunk: Job[]): boolean {
    let from: StreamWorker | null = null;
    let most = 0;
    for (const w of this.running.keys()) {
      // a thread that has not claimed a line yet is about to: its lines stay with it (their problem's home)
      if (!w.started) continue;
      const n = w.waiting;
      if (n > most) [from, most] = [w, n];
    }
    if (from === null) return false;
    const jobs = this.running.get(from)!;
    for (const i of from.steal(Math.ceil(most / 2))) chunk.push(jobs[i]!);
    return chunk.length > 0;
  }

  private finish(job: Job, out: Record<string, unknown> | string, error: string | null, steps = 0): void {
    const outcome = typeof out === "string" ? itemOutcome(error) : itemOutcome(typeof out.error === "string" ? out.error : null);
    this.options.metrics.item(job.kind, outcome, steps);
    job.resolve({ line: typeof out === "string" ? out : JSON.stringify(out), outcome });
  }

  private async run(worker: StreamWorker, chunk: Job[]): Promise<void> {
    this.busy++;
    const { timeMs, memoryMb } = this.options;
    const warm = worker.served > 0;
    const items: StreamItem[] = chunk.map((j) => ({
      line: j.line,
      kind: j.kind,
      start: j.arrival,
      hardEnd: j.arrival + timeMs + requestGraceMs(timeMs),
      backstop: j.arrival + backstopMs(timeMs),
    }));
    const again: Job[] = [];
    this.running.set(worker, chunk);
    const notJudged = await worker.askMany(items, (i, o) => {
      const job = chunk[i]!;
      if (o.kind === "answer") return this.finish(job, o.line, o.error, o.steps);
      // out of heap with other problems' caches held: once more, in a fresh worker, if time is left
      if (o.kind === "memory" && warm && !job.retried && performance.now() < job.arrival + timeMs) {
        job.retried = true;
        again.push(job);
      } else this.finish(job, lostAnswer(o, job.line, timeMs, memoryMb), null);
    });
    this.busy--;
    this.running.delete(worker);
    // lines the worker did not get to (it stopped): back to the head of the queue, in order
    for (const i of notJudged) again.push(chunk[i]!);
    again.sort((a, b) => a.arrival - b.arrival);
    for (const [i, q] of this.queues.entries()) {
      const back = again.filter((j) => j.home === i);
      if (back.length > 0) q.unshift(back);
    }
    this.waiting += again.length;
    if (worker.usable) this.release(worker);
    else this.replace(worker);
    this.pump();
  }

  private release(worker: StreamWorker): void {
    if (this.stopping) {
      this.all.delete(worker);
      void worker.stop();
    } else this.idle.push(worker);
  }

  /** A worker that is gone or being stopped: a fresh one takes its place once it has loaded. */
  private replace(worker: StreamWorker): void {
    const home = this.homes.get(worker)!;
    this.all.delete(worker);
    this.homes.delete(worker);
    void worker.stop();
    if (this.stopping) return;
    this.options.metrics.workerRestarts++;
    const fresh = this.spawn(home);
    void fresh.ready.then(() => {
      if (fresh.dead) {
        // could not even start: try again a little later rather than spin
        this.all.delete(fresh);
        this.homes.delete(fresh);
        setTimeout(() => this.stopping || this.replaceLater(home), 1000).unref();
        return;
      }
      this.release(fresh);
      this.pump();
    });
  }

  private replaceLater(home: number): void {
    const fresh = this.spawn(home);
    void fresh.ready.then(() => {
      this.release(fresh);
      this.pump();
    });
  }

  /** Stop the workers (answers still pending are the caller's to wait for first). */
  async stop(): Promise<void> {
    this.stopping = true;
    const ws = [...this.all];
    this.all.clear();
    this.idle.length = 0;
    await Promise.all(ws.map((w) => w.stop()));
  }
}
