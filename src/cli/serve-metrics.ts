/**
 * `serve`'s counters and their Prometheus text (GET /metrics): requests by endpoint and status,
 * requests in flight, the queue, workers, judged items and steps, errors, worker restarts and a
 * latency histogram per endpoint. Plain numbers in this thread: nothing grows with the traffic
 * (the label sets are fixed: endpoints and status codes seen, a handful).
 */

/** Latency buckets, seconds (upper bounds; +Inf is implicit). */
const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

/** How a judged item ended (the result's `error`, classified; see `itemOutcome`). */
export type ItemOutcome = "ok" | "bad_request" | "limit" | "internal";

/** The class of a result line's error: none, a limit, an internal error, or the request's fault. */
export function itemOutcome(error: string | null): ItemOutcome {
  if (error === null) return "ok";
  if (error.startsWith("limit reached")) return "limit";
  if (error.startsWith("internal error")) return "internal";
  return "bad_request";
}

class Histogram {
  readonly counts = new Array<number>(BUCKETS.length + 1).fill(0);
  sum = 0;
  observe(seconds: number): void {
    let i = 0;
    while (i < BUCKETS.length && seconds > BUCKETS[i]!) i++;
    this.counts[i]!++;
    this.sum += seconds;
  }
}

/** The server's metrics; the pool and the HTTP layer update them. */
export class ServeMetrics {
  private readonly requests = new Map<string, number>();
  private readonly latency = new Map<string, Histogram>();
  private readonly items = new Map<string, number>();
  inFlight = 0;
  judgedSteps = 0;
  workerRestarts = 0;
  /** Lines handed to a worker other than their problem's home worker (serve-pool.ts: to keep every worker busy). */
  awayFromHome = 0;
  /** Read when rendering: the pool's state. */
  gauges: () => { queue: number; queueCapacity: number; workers: number; busy: number } = () => ({ queue: 0, queueCapacity: 0, workers: 0, busy: 0 });

  /** One HTTP request answered: its endpoint (a known path, else "other"), status and duration. */
  request(endpoint: string, status: number, seconds: number): void {
    const key = `endpoint="${endpoint}",code="${status}"`;
    this.requests.set(key, (this.requests.get(key) ?? 0) + 1);
    let h = this.latency.get(endpoint);
    if (h === undefined) this.latency.set(endpoint, (h = new Histogram()));
    h.observe(seconds);
  }

  /** One request line judged (or answered without a worker): its kind and outcome. */
  item(kind: string, outcome: ItemOutcome, steps: number): void {
    const key = `kind="${kind}",outcome="${outcome}"`;
    this.items.set(key, (this.items.get(key) ?? 0) + 1);
    this.judgedSteps += steps;
  }

  /** The Prometheus text exposition (version 0.0.4). */
  render(): string {
    const g = this.gauges();
    const out: string[] = [];
    const metric = (name: string, type: string, help: string, lines: string[]): void => {
      out.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`, ...lines);
    };
    const sorted = (m: Map<string, number>): [string, number][] => [...m].sort((a, b) => (a[0] < b[0] ? -1 : 1));
    metric("pddl2prm_requests_total", "counter", "HTTP requests answered, by endpoint and status code.", sorted(this.requests).map(([k, v]) => `pddl2prm_requests_total{${k}} ${v}`));
    metric("pddl2prm_requests_in_flight", "gauge", "HTTP requests being answered.", [`pddl2prm_requests_in_flight ${this.inFlight}`]);
    metric("pddl2prm_queue_length", "gauge", "Request lines waiting for a worker.", [`pddl2prm_queue_length ${g.queue}`]);
    metric("pddl2prm_queue_capacity", "gauge", "Request lines the queue holds (--queue).", [`pddl2prm_queue_capacity ${g.queueCapacity}`]);
    metric("pddl2prm_workers", "gauge", "Worker threads.", [`pddl2prm_workers ${g.workers}`]);
    metric("pddl2prm_workers_busy", "gauge", "Worker threads judging a request.", [`pddl2prm_workers_busy ${g.busy}`]);
    metric("pddl2prm_items_total", "counter", "Request lines answered, by kind (reward, judge) and outcome (ok, bad_request, limit, internal).", sorted(this.items).map(([k, v]) => `pddl2prm_items_total{${k}} ${v}`));
    const errors = new Map<string, number>();
    for (const [k, v] of this.items) {
      const o = /outcome="([^"]+)"/.exec(k)![1]!;
      if (o !== "ok") errors.set(`reason="${o}"`, (errors.get(`reason="${o}"`) ?? 0) + v);
    }
    metric("pddl2prm_errors_total", "counter", "Request lines answered with an error, by reason.", sorted(errors).map(([k, v]) => `pddl2prm_errors_total{${k}} ${v}`));
    metric("pddl2prm_judged_steps_total", "counter", "Plan steps judged.", [`pddl2prm_judged_steps_total ${this.judgedSteps}`]);
    metric("pddl2prm_worker_restarts_total", "counter", "Worker threads replaced (a request past its limit while parsing, out of memory, a crash).", [`pddl2prm_worker_restarts_total ${this.workerRestarts}`]);
    metric("pddl2prm_lines_away_from_home_total", "counter", "Request lines judged by a worker other than the one that holds their problem's caches (no worker idles while lines wait).", [`pddl2prm_lines_away_from_home_total ${this.awayFromHome}`]);
    const hist: string[] = [];
    for (const [endpoint, h] of [...this.latency].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
      let cum = 0;
      BUCKETS.forEach((b, i) => {
        cum += h.counts[i]!;
        hist.push(`pddl2prm_request_duration_seconds_bucket{endpoint="${endpoint}",le="${b}"} ${cum}`);
      });
      cum += h.counts[BUCKETS.length]!;
      hist.push(`pddl2prm_request_duration_seconds_bucket{endpoint="${endpoint}",le="+Inf"} ${cum}`);
      hist.push(`pddl2prm_request_duration_seconds_sum{endpoint="${endpoint}"} ${h.sum}`);
      hist.push(`pddl2prm_request_duration_seconds_count{endpoint="${endpoint}"} ${cum}`);
    }
    metric("pddl2prm_request_duration_seconds", "histogram", "Time from a request's arrival to its answer, by endpoint.", hist);
    return out.join("\n") + "\n";
  }
}
