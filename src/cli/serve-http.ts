/**
 * `serve`'s HTTP side (node:http only): routing, bounded bodies, the endpoints' shapes, status
 * codes and metrics. Request lines go to the worker pool (serve-pool.ts); this thread only reads
 * bodies, checks their envelope and writes answers, so a slow or hostile client never holds a
 * worker. Nothing a client sends throws out of `handle`.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { WorkerLineKind } from "./judge-worker.js";
import type { ServeMetrics } from "./serve-metrics.js";
import type { PoolAnswer, WorkerPool } from "./serve-pool.js";
import { resolveLabel, responseOf, type ProblemIndex } from "./serve-labels.js";

/** What the HTTP side needs. */
export interface HttpOptions {
  pool: WorkerPool;
  metrics: ServeMetrics;
  /** Largest body accepted, bytes (--max-body). */
  maxBody: number;
  /** Lines the queue holds (--queue): a larger batch can never be admitted. */
  queue: number;
  workers: number;
  timeMs: number;
  index: ProblemIndex | null;
  version: string;
}

/** Endpoint -> the methods it answers. */
const ROUTES: Record<string, readonly string[]> = {
  "/reward": ["POST"],
  "/batch": ["POST"],
  "/get_reward": ["POST"],
  "/judge": ["POST"],
  "/health": ["GET", "HEAD"],
  "/metrics": ["GET", "HEAD"],
};
const ENDPOINTS = "POST /reward, /batch, /get_reward, /judge; GET /health, /metrics";

/** A request's own answer without the pool: status, body, headers. */
class HttpError {
  constructor(
    readonly status: number,
    readonly reason: string,
    readonly headers: Record<string, string> = {},
  ) {}
}

/** Status of a single result line by how it ended. */
function statusOf(a: PoolAnswer): number {
  return a.outcome === "bad_request" ? 400 : a.outcome === "internal" ? 500 : 200;
}

/** One line of an error for a 4xx/5xx body: `{"error": reason}`. */
const errorBody = (reason: string): string => JSON.stringify({ error: reason.replace(/\s*\n\s*/g, " ") }) + "\n";

export class ServeHttp {
  /** Set on SIGTERM: new requests get 503 and connections close after their answer. */
  draining = false;
  private readonly o: HttpOptions;
  /** Body bytes held by requests being read, all connections together. */
  private held = 0;
  /** The most body bytes held at once: past it a new body waits for no one, it gets 503. */
  private readonly budget: number;
  private readonly startedAt = Date.now();
  private idleWaiters: (() => void)[] = [];

  constructor(options: HttpOptions) {
    this.o = options;
    this.budget = Math.max(4 * options.maxBody, 256 * 2 ** 20);
  }

  /** Resolves once no request is being answered. */
  idle(): Promise<void> {
    if (this.o.metrics.inFlight === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** The request handler of the server. */
  handle(req: IncomingMessage, res: ServerResponse): void {
    const t0 = performance.now();
    const path = (req.url ?? "/").split("?")[0]!;
    const endpoint = path in ROUTES ? path : "other";
    const m = this.o.metrics;
    m.inFlight++;
    let done = false;
    let cancel: (() => void) | null = null;
    const finish = (status: number, body: string, type = "application/json", headers: Record<string, string> = {}): void => {
      if (done) return;
      done = true;
      m.inFlight--;
      m.request(endpoint, status, (performance.now() - t0) / 1000);
      if (m.inFlight === 0) for (const w of this.idleWaiters.splice(0)) w();
      if (res.destroyed || res.writableEnded) return;
      const h: Record<string, string | number> = { "Content-Type": type, "Content-Length": Buffer.byteLength(body), ...headers };
      if (this.draining) h["Connection"] = "close";
      res.writeHead(status, h);
      res.end(req.method === "HEAD" ? undefined : body);
    };
    // a client gone before its answer: what it still had waiting in the queue is dropped
    res.on("close", () => {
      if (done) return;
      cancel?.();
      finish(499, "");
    });
    const fail = (e: unknown): void => {
      if (e instanceof HttpError) finish(e.status, errorBody(e.reason), "application/json", e.headers);
      else {
        process.stderr.write(`pddl2prm serve: internal error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
        finish(500, errorBody(`internal error: ${e instanceof Error ? e.message : String(e)}`));
      }
    };
    try {
      const methods = ROUTES[path];
      if (methods === undefined) throw new HttpError(404, `no such endpoint: ${path.slice(0, 200)} (${ENDPOINTS})`);
      if (!methods.includes(req.method ?? "")) throw new HttpError(405, `${path} takes ${methods.join(" or ")}, not ${String(req.method).slice(0, 20)}`, { Allow: methods.join(", ") });
      if (this.draining) throw new HttpError(503, "the server is shutting down", { "Retry-After": "5" });
      if (path === "/health") return finish(200, this.health());
      if (path === "/metrics") return finish(200, m.render(), "text/plain; version=0.0.4; charset=utf-8");
      this.readBody(req)
        .then((body) => {
          if (body === null) return finish(499, "");
          const arrival = performance.now();
          const submit = (lines: { kind: WorkerLineKind; line: string }[]): Promise<PoolAnswer[]> => {
            if (lines.length > this.o.queue) throw new HttpError(413, `a batch of ${lines.length} requests is more than the queue holds (--queue ${this.o.queue}): send it in parts`);
            const s = this.o.pool.submit(lines, arrival);
            if (s === null) throw new HttpError(503, "the queue is full: retry later", { "Retry-After": this.retryAfter() });
            cancel = s.cancel;
            return Promise.all(s.answers);
          };
          return this.answer(path, body, submit).then(([status, text]) => finish(status, text));
        })
        .catch(fail);
    } catch (e) {
      fail(e);
    }
  }

  /** Seconds a client is told to wait when the queue is full: the queue's turn at a rough 20 ms a line. */
  private retryAfter(): string {
    return String(Math.min(30, Math.max(1, Math.ceil((this.o.pool.queued * 0.02) / this.o.workers))));
  }

  private health(): string {
    return (
      JSON.stringify({
        ok: !this.draining,
        ...(this.draining ? { draining: true } : {}),
        version: this.o.version,
        workers: this.o.workers,
        queue: this.o.pool.queued,
        queue_capacity: this.o.queue,
        in_flight: this.o.metrics.inFlight,
        time_ms: this.o.timeMs,
        problems_indexed: this.o.index?.size ?? 0,
        uptime_s: Math.round((Date.now() - this.startedAt) / 1000),
      }) + "\n"
    );
  }

  /**
   * The body as text, at most `maxBody` bytes; null when the client went away. Past the limit
   * the rest is read and dropped (so the client reads its 413 rather than a reset connection)
   * up to a cap, past which the connection is closed after the answer.
   */
  private readBody(req: IncomingMessage): Promise<string | null> {
    const max = this.o.maxBody;
    const declared = Number(req.headers["content-length"] ?? NaN);
    const dropCap = Math.max(max, 64 * 2 ** 20);
    if (Number.isFinite(declared) && declared > dropCap) {
      req.resume();
      return Promise.reject(new HttpError(413, `the body is ${declared} bytes, more than --max-body ${max}`, { Connection: "close" }));
    }
    return new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      let size = 0;
      let mine = 0;
      let over: HttpError | null = null;
      const release = (): void => {
        this.held -= mine;
        mine = 0;
      };
      req.on("data", (c: Buffer) => {
        size += c.length;
        if (over !== null) {
          if (size > dropCap) {
            req.removeAllListeners("data");
            req.resume();
            over = new HttpError(over.status, over.reason, { ...over.headers, Connection: "close" });
            reject(over);
          }
          return;
        }
        // (the connection closes after a 413: a client sending too much is not kept)
        if (size > max) over = new HttpError(413, `the body is more than --max-body ${max} bytes`, { Connection: "close" });
        else if (this.held + c.length > this.budget) over = new HttpError(503, "the server holds too many request bodies: retry later", { "Retry-After": "1" });
        if (over !== null) {
          chunks.length = 0;
          release();
          return;
        }
        chunks.push(c);
        mine += c.length;
        this.held += c.length;
      });
      req.on("end", () => {
        if (over !== null) return reject(over);
        const text = Buffer.concat(chunks).toString("utf8");
        release();
        resolve(text);
      });
      req.on("error", () => {
        release();
        resolve(null);
      });
      req.on("close", () => {
        if (!req.complete) {
          release();
          resolve(null);
        }
      });
    });
  }

  /** The status and body of a POST endpoint. */
  private async answer(path: string, body: string, submit: (lines: { kind: WorkerLineKind; line: string }[]) => Promise<PoolAnswer[]>): Promise<[number, string]> {
    if (path === "/reward" || path === "/judge") {
      // the body is the request line itself: the answer is the line `reward --jsonl` / `judge --jsonl` prints
      if (body.trim().length === 0) throw new HttpError(400, "the body is empty: send one JSON request");
      const [a] = await submit([{ kind: path === "/reward" ? "reward" : "judge", line: body }]);
      return [statusOf(a!), a!.line + "\n"];
    }
    const obj = parseJson(body);
    if (path === "/batch") {
      const requests = obj.requests;
      if (!Array.isArray(requests)) throw new HttpError(400, 'bad request: the body must be {"requests": [...]} (and optionally "kind": "reward" or "judge")');
      const kind = obj.kind ?? "reward";
      if (kind !== "reward" && kind !== "judge") throw new HttpError(400, `bad request: kind must be "reward" or "judge", got ${JSON.stringify(kind).slice(0, 40)}`);
      const answers = await submit(requests.map((r) => ({ kind, line: JSON.stringify(r) ?? "null" })));
      return [200, `{"results":[${answers.map((a) => a.line).join(",")}]}\n`];
    }
    // /get_reward: OpenRLHF's remote reward model
    const { query, prompts, labels } = obj;
    if (!Array.isArray(query) || !query.every((q) => typeof q === "string")) throw new HttpError(400, "bad request: query must be a list of strings");
    if (!Array.isArray(labels)) throw new HttpError(400, "bad request: labels must be a list, one per query, naming each problem (docs/rl.md: the reward server)");
    if (labels.length !== query.length) throw new HttpError(400, `bad request: ${query.length} queries but ${labels.length} labels`);
    if (prompts !== undefined && prompts !== null && (!Array.isArray(prompts) || prompts.length !== query.length)) throw new HttpError(400, `bad request: prompts must be a list of ${query.length} (one per query)`);
    const lines = query.map((q: string, i) => {
      let ref;
      try {
        ref = resolveLabel(labels[i], this.o.index);
      } catch (e) {
        throw new HttpError(400, `bad request: labels[${i}]: ${(e as Error).message}`);
      }
      return { kind: "reward" as const, line: JSON.stringify({ domain: ref.domain, problem: ref.problem, completion: responseOf(q, Array.isArray(prompts) ? prompts[i] : undefined) }) };
    });
    const answers = await submit(lines);
    const rewards: number[] = [];
    const logs = { outcome: [] as number[], process: [] as number[], progress: [] as number[], valid: [] as number[], error: [] as number[] };
    answers.forEach((a, i) => {
      const r = JSON.parse(a.line) as { reward?: number; outcome?: number; process?: number; progress?: number; valid?: boolean; error?: string };
      if (a.outcome === "bad_request") throw new HttpError(400, `bad request: query ${i}: ${r.error ?? "bad request"}`);
      if (a.outcome === "internal") throw new HttpError(500, `query ${i}: ${r.error ?? "internal error"}`);
      // a limit: reward 0, said in extra_logs.error
      rewards.push(r.reward ?? 0);
      logs.outcome.push(r.outcome ?? 0);
      logs.process.push(r.process ?? 0);
      logs.progress.push(r.progress ?? 0);
      logs.valid.push(r.valid === true ? 1 : 0);
      logs.error.push(r.error !== undefined ? 1 : 0);
    });
    return [200, JSON.stringify({ rewards, scores: rewards, extra_logs: logs }) + "\n"];
  }
}

/** The body as a JSON object, or a 400 with the parser's reason. */
function parseJson(body: string): Record<string, unknown> {
  let v: unknown;
  try {
    v = JSON.parse(body);
  } catch (e) {
    throw new HttpError(400, `not JSON: ${(e as Error).message}`);
  }
  if (v === null || typeof v !== "object" || Array.isArray(v)) throw new HttpError(400, "bad request: the body must be a JSON object");
  return v as Record<string, unknown>;
}
