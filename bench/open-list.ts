/**
 * bench/open-list: is our typed-array binary heap `OpenList` (src/search/queue.ts) the right A*
 * open list, or would heap-js or a bucket queue be faster? (issue 4)
 *
 *   npm run build && npm run bench:open-list
 *
 * What it measures:
 *  1. Real open-list traces. `astarRun` is run on a few IPC instances while
 *     `OpenList.prototype.push` / `.pop` are wrapped (at runtime, src/ untouched) to record
 *     every push(f, h, id) and every popped id. The wrappers are removed afterwards.
 *  2. Each trace is replayed against three queues with the same (f, h, FIFO) order:
 *       OpenList  - ours, imported from the compiled src;
 *       heap-js   - `Heap` from the heap-js dependency, comparator on (f, h, seq), seq being an
 *                   insertion counter; two encodings are timed and the faster one is reported:
 *                   `obj` ({f, h, seq, id} objects) and `num` ((f, h, seq) packed into one
 *                   exact double, id kept in a side array indexed by seq);
 *       bucket    - a two-level bucket queue defined below (buckets by f, by h inside, FIFO
 *                   lists in a pooled linked list; no allocation per push once warm).
 *     Every replay checks that each popped id equals the recorded one and throws otherwise, so
 *     all three are proven to give OpenList's exact pop order on these traces.
 *     Timing covers only the replay loop (queue construction, pushes, pops, the id check):
 *     an untimed warm-up (one run, repeated on short traces until ~500k ops have gone through,
 *     so V8 has optimised the loop), then the median of 5 timed runs. Each (trace,
 *     implementation) pair runs in a fresh worker thread, i.e. its own V8 isolate and heap: in
 *     one process the two heap-js encodings share heap-js's functions, whose inline caches then
 *     go polymorphic (the `num` encoding measured 3x slower after `obj` had run), and GC of the
 *     search's state space or of another implementation's garbage would land in the wrong
 *     timings.
 *  3. The A* search time of the instance (`searchMs`: expansions + heuristic evaluations,
 *     without building the heuristic) from a second, un-instrumented run of the same
 *     deterministic search (the wrappers would inflate it), so `share` = OpenList replay ms /
 *     search ms estimates the open list's part of A* (in situ it is somewhat higher: there the
 *     queue's arrays compete for cache with the heuristic, which the hot replay loop does not).
 * Not in the trace: `peekF()` (astar calls it before each pop); it is an O(1) read in every
 * candidate (for the bucket queue: the f of the cursor bucket), so it would not change the ranking.
 * Output goes to stdout and to bench/results/open-list.txt. The IPC corpus is read from
 * $PDDL2PRM_SHARED/ipc, else ../shared/ipc beside the package; missing instances are skipped.
 */
import { existsSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";
import { Heap } from "heap-js";
import { parseDomainFile, parseProblemFile } from "../src/pddl/index.js";
import { ground } from "../src/task/ground.js";
import type { GroundTask } from "../src/task/types.js";
import { astarRun, createHeuristic, goalRelevance, type AStarRun, type HeuristicName } from "../src/search/index.js";
import { OpenList } from "../src/search/queue.js";
import { packageRoot } from "../src/util/paths.js";

const OP_PUSH = 1;
const OP_POP = 2;
const RUNS = 5;
/** Warm-up replays continue until this many ops were replayed (at least one run, at most 100). */
const WARMUP_OPS = 500_000;
/** Search time limit per run; all chosen instances finish far below it. */
const TIME_LIMIT_MS = 600_000;

/** A recorded open-list trace: `len` ops of 4 ints each (op code, f, h, id). */
interface Trace {
  data: Int32Array;
  len: number;
  pushes: number;
  pops: number;
  maxF: number;
  maxH: number;
}

/** Growable Int32Array the wrappers append to (doubling, so recording stays cheap). */
class Recorder {
  data = new Int32Array(1 << 16);
  len = 0;
  pushes = 0;
  pops = 0;
  maxF = 0;
  maxH = 0;

  add(op: number, f: number, h: number, id: number): void {
    let o = this.len * 4;
    if (o + 4 > this.data.length) {
      const d = new Int32Array(this.data.length * 2);
      d.set(this.data);
      this.data = d;
    }
    const a = this.data;
    a[o++] = op;
    a[o++] = f;
    a[o++] = h;
    a[o] = id;
    this.len++;
  }

  trace(): Trace {
    return { data: this.data, len: this.len, pushes: this.pushes, pops: this.pops, maxF: this.maxF, maxH: this.maxH };
  }
}

/**
 * Run `astarRun` with OpenList.push/pop wrapped to record the trace. The bucket queue and the
 * packed heap-js key need integer 0 <= h <= f (f = g + h with g >= 0): checked here, loudly.
 */
function recordSearch(task: GroundTask, heuristic: HeuristicName): { run: AStarRun; trace: Trace } {
  const proto = OpenList.prototype;
  const origPush = proto.push;
  const origPop = proto.pop;
  const rec = new Recorder();
  let owner: OpenList | null = null;
  // one search = one OpenList; a second instance would interleave two traces
  const check = (q: OpenList): void => {
    if (owner === null) owner = q;
    else if (owner !== q) throw new Error("open-list bench: more than one OpenList in one search");
  };
  proto.push = function (this: OpenList, f: number, h: number, val: number): void {
    check(this);
    if (!Number.isInteger(f) || !Number.isInteger(h) || h < 0 || h > f || f > 46340) {
      throw new Error(`open-list bench: push(f=${f}, h=${h}) outside integer 0 <= h <= f <= 46340`);
    }
    rec.pushes++;
    if (f > rec.maxF) rec.maxF = f;
    if (h > rec.maxH) rec.maxH = h;
    rec.add(OP_PUSH, f, h, val);
    origPush.call(this, f, h, val);
  };
  proto.pop = function (this: OpenList): number {
    check(this);
    const id = origPop.call(this);
    rec.pops++;
    rec.add(OP_POP, 0, 0, id);
    return id;
  };
  try {
    return { run: search(task, heuristic), trace: rec.trace() };
  } finally {
    proto.push = origPush;
    proto.pop = origPop;
  }
}

/** A* as bench:solve runs it: heuristic and relevance analysis built outside `searchMs`. */
function search(task: GroundTask, heuristic: HeuristicName): AStarRun {
  const heur = createHeuristic(task, heuristic);
  const rel = goalRelevance(task);
  return astarRun(task, heur, { limits: { timeMs: TIME_LIMIT_MS }, opMask: rel.ops, factMask: rel.factWords });
}

/**
 * Bucket queue for integer keys with 0 <= h <= f, popping by (f, h, FIFO) like OpenList.
 * Buckets by f, each split by h: bucket (f, h) lives at index f(f+1)/2 + h, so the f-levels are
 * consecutive ranges of f+1 buckets and increasing index is exactly increasing (f, h).
 * Each bucket is a FIFO linked list of pool entries; popped entries go to a free list, so once
 * the pool has grown to the peak queue size nothing is allocated. A cursor points at the
 * smallest possibly non-empty bucket; pushes below it (smaller h at the same f, or a lower f
 * with an inconsistent heuristic) move it back, pops scan it forward over empty buckets.
 */
class BucketOpenList {
  private heads = new Int32Array(1024).fill(-1);
  private tails = new Int32Array(1024);
  private next = new Int32Array(1024);
  private val = new Int32Array(1024);
  private poolSize = 0;
  private free = -1;
  private cursor = 0;
  private n = 0;

  get size(): number {
    return this.n;
  }

  push(f: number, h: number, id: number): void {
    const b = ((f * (f + 1)) >> 1) + h;
    if (b >= this.heads.length) this.growBuckets(b);
    let e = this.free;
    if (e !== -1) this.free = this.next[e]!;
    else {
      if (this.poolSize === this.val.length) this.growPool();
      e = this.poolSize++;
    }
    this.val[e] = id;
    this.next[e] = -1;
    if (this.heads[b] === -1) this.heads[b] = e;
    else this.next[this.tails[b]!] = e;
    this.tails[b] = e;
    if (b < this.cursor) this.cursor = b;
    this.n++;
  }

  /** Queue must be non-empty. */
  pop(): number {
    const heads = this.heads;
    let c = this.cursor;
    while (heads[c] === -1) c++;
    this.cursor = c;
    const e = heads[c]!;
    const next = this.next;
    heads[c] = next[e]!;
    next[e] = this.free;
    this.free = e;
    this.n--;
    return this.val[e]!;
  }

  private growBuckets(b: number): void {
    let m = this.heads.length * 2;
    while (m <= b) m *= 2;
    const h = new Int32Array(m).fill(-1);
    h.set(this.heads);
    this.heads = h;
    const t = new Int32Array(m);
    t.set(this.tails);
    this.tails = t;
  }

  private growPool(): void {
    const m = this.val.length * 2;
    const v = new Int32Array(m);
    v.set(this.val);
    this.val = v;
    const nx = new Int32Array(m);
    nx.set(this.next);
    this.next = nx;
  }
}

// One replay function per implementation, so each call site stays monomorphic for V8.
// Each returns -1, or the index of the first op whose popped id differs from the recording.

function replayOpenList(t: Trace): number {
  const q = new OpenList();
  const a = t.data;
  const end = t.len * 4;
  for (let i = 0; i < end; i += 4) {
    if (a[i] === OP_PUSH) q.push(a[i + 1]!, a[i + 2]!, a[i + 3]!);
    else if (q.pop() !== a[i + 3]) return i >> 2;
  }
  return -1;
}

function replayBucket(t: Trace): number {
  const q = new BucketOpenList();
  const a = t.data;
  const end = t.len * 4;
  for (let i = 0; i < end; i += 4) {
    if (a[i] === OP_PUSH) q.push(a[i + 1]!, a[i + 2]!, a[i + 3]!);
    else if (q.pop() !== a[i + 3]) return i >> 2;
  }
  return -1;
}

interface Node {
  f: number;
  h: number;
  seq: number;
  id: number;
}

const nodeCompare = (x: Node, y: Node): number => (x.f !== y.f ? x.f - y.f : x.h !== y.h ? x.h - y.h : x.seq - y.seq);

/** heap-js with one small object per entry (the idiomatic use). */
function replayHeapObj(t: Trace): number {
  const q = new Heap<Node>(nodeCompare);
  const a = t.data;
  const end = t.len * 4;
  let seq = 0;
  for (let i = 0; i < end; i += 4) {
    if (a[i] === OP_PUSH) q.add({ f: a[i + 1]!, h: a[i + 2]!, seq: seq++, id: a[i + 3]! });
    else if (q.pop()!.id !== a[i + 3]) return i >> 2;
  }
  return -1;
}

/** Multipliers packing (f, h, seq) into one double key, or null when it would not stay exact. */
function packing(t: Trace): { hb: number; sb: number } | null {
  const hb = t.maxH + 1;
  let sb = 1;
  while (sb < t.pushes) sb *= 2;
  return (t.maxF + 1) * hb * sb <= Number.MAX_SAFE_INTEGER ? { hb, sb } : null;
}

const numCompare = (x: number, y: number): number => x - y;

/**
 * heap-js on plain numbers: key = (f * hb + h) * sb + seq, exact below 2^53, so number order is
 * (f, h, seq) order; V8 keeps the heap's array unboxed. The id sits in ids[seq].
 */
function replayHeapNum(t: Trace): number {
  const p = packing(t)!;
  const hb = p.hb;
  const sb = p.sb;
  const ids = new Int32Array(t.pushes);
  const q = new Heap<number>(numCompare);
  const a = t.data;
  const end = t.len * 4;
  let seq = 0;
  for (let i = 0; i < end; i += 4) {
    if (a[i] === OP_PUSH) {
      ids[seq] = a[i + 3]!;
      q.add((a[i + 1]! * hb + a[i + 2]!) * sb + seq);
      seq++;
    } else if (ids[q.pop()! % sb] !== a[i + 3]) return i >> 2;
  }
  return -1;
}

const IMPLS = [
  { name: "OpenList", replay: replayOpenList },
  { name: "heap-js obj", replay: replayHeapObj },
  { name: "heap-js num", replay: replayHeapNum },
  { name: "bucket", replay: replayBucket },
] as const;
type ImplName = (typeof IMPLS)[number]["name"];

function median(xs: number[]): number {
  const a = xs.slice().sort((x, y) => x - y);
  const m = a.length >> 1;
  return a.length % 2 ? a[m]! : (a[m - 1]! + a[m]!) / 2;
}

interface Job {
  impl: ImplName;
  trace: Trace;
}

interface JobResult {
  /** Timed runs, ms (the warm-up excluded). */
  times: number[];
  /** -1, or the first op at which the popped id differed from the recording. */
  bad: number;
}

/** Worker side: warm-up then RUNS timed replays of one implementation on one trace. */
function runJob(job: Job): JobResult {
  const impl = IMPLS.find((x) => x.name === job.impl)!;
  const warmRuns = Math.min(100, Math.max(1, Math.ceil(WARMUP_OPS / Math.max(1, job.trace.len))));
  const times: number[] = [];
  for (let run = -warmRuns; run < RUNS; run++) {
    const t0 = performance.now();
    const bad = impl.replay(job.trace);
    const ms = performance.now() - t0;
    if (bad !== -1) return { times, bad };
    if (run >= 0) times.push(ms);
  }
  return { times, bad: -1 };
}

function inWorker(job: Job): Promise<JobResult> {
  return new Promise((resolve, reject) => {
    const w = new Worker(new URL(import.meta.url), { workerData: job });
    w.once("message", (r: JobResult) => resolve(r));
    w.once("error", reject);
    w.once("exit", (code) => {
      if (code !== 0) reject(new Error(`open-list bench: worker for ${job.impl} exited with ${code}`));
    });
  });
}

/** Median replay ms of each implementation; throws on the first pop-order difference. */
async function timeReplays(label: string, t: Trace): Promise<Map<ImplName, number>> {
  // only the recorded ops travel to the worker
  const trace: Trace = { ...t, data: t.data.slice(0, t.len * 4) };
  const res = new Map<ImplName, number>();
  for (const impl of IMPLS) {
    if (impl.name === "heap-js num" && packing(t) === null) continue;
    const r = await inWorker({ impl: impl.name, trace });
    if (r.bad !== -1) {
      throw new Error(`open-list bench: ${impl.name} pops a different id than OpenList did at op ${r.bad} of ${label}`);
    }
    res.set(impl.name, median(r.times));
  }
  return res;
}

interface Instance {
  problem: string;
  heuristic: HeuristicName;
}

const INSTANCES: Instance[] = [
  { problem: "gripper/prob04.pddl", heuristic: "lmcut" },
  { problem: "visitall-opt11-strips/problem05-full.pddl", heuristic: "lmcut" },
  { problem: "openstacks-opt08-adl/p07.pddl", heuristic: "hmax" },
  { problem: "sokoban-opt08-strips/p07.pddl", heuristic: "lmcut" },
  // blind search: f = g, h in {0, 1}, many (f, h) ties, the bucket queue's best case
  { problem: "gripper/prob04.pddl", heuristic: "blind" },
];

async function main(): Promise<void> {
  const ipc = join(process.env.PDDL2PRM_SHARED ?? join(packageRoot(), "..", "shared"), "ipc");
  const out: string[] = [];
  const say = (s: string): void => {
    console.log(s);
    out.push(s);
  };
  // the load average says whether other work shared the CPUs (absolute ms move with it)
  say(
    `open-list replay benchmark, node ${process.version}, ${cpus().length} x ${cpus()[0]?.model ?? "unknown cpu"}, ` +
      `load average ${loadavg()[0]!.toFixed(2)}`,
  );
  say(`queue ms = median of ${RUNS} replays after a warm-up; share = OpenList ms / A* search ms`);
  say("");
  const header = ["instance", "h", "pushes", "pops", "maxF", "OpenList ms", "heap-js ms", "bucket ms", "search ms", "queue share"];
  const rows: string[][] = [header];
  const notes: string[] = [];
  let sumOpen = 0;
  let sumHeap = 0;
  let sumBucket = 0;
  let sumSearch = 0;
  let maxShare = 0;
  let maxSavingHeap = 0;
  let maxSavingBucket = 0;
  for (const inst of INSTANCES) {
    const problem = join(ipc, inst.problem);
    const domain = join(ipc, inst.problem.split("/")[0]!, "domain.pddl");
    if (!existsSync(problem) || !existsSync(domain)) {
      notes.push(`skipped ${inst.problem} (${inst.heuristic}): not found under ${ipc}`);
      continue;
    }
    const d = parseDomainFile(domain);
    const task = ground(d, parseProblemFile(problem, d));
    const { run: recorded, trace } = recordSearch(task, inst.heuristic);
    // the wrappers cost time, so the search time comes from a clean rerun of the same search
    const clean = search(task, inst.heuristic);
    if (clean.expanded !== recorded.expanded || clean.generated !== recorded.generated || clean.status !== recorded.status) {
      throw new Error(`open-list bench: ${inst.problem} is not deterministic (${recorded.expanded} vs ${clean.expanded} expansions)`);
    }
    const label = `${inst.problem} (${inst.heuristic})`;
    const ms = await timeReplays(label, trace);
    const open = ms.get("OpenList")!;
    const obj = ms.get("heap-js obj")!;
    const num = ms.get("heap-js num");
    const heap = num !== undefined && num < obj ? num : obj;
    const bucket = ms.get("bucket")!;
    const share = open / clean.searchMs;
    sumOpen += open;
    sumHeap += heap;
    sumBucket += bucket;
    sumSearch += clean.searchMs;
    maxShare = Math.max(maxShare, share);
    maxSavingHeap = Math.max(maxSavingHeap, (open - heap) / clean.searchMs);
    maxSavingBucket = Math.max(maxSavingBucket, (open - bucket) / clean.searchMs);
    rows.push([
      inst.problem,
      inst.heuristic,
      String(trace.pushes),
      String(trace.pops),
      String(trace.maxF),
      open.toFixed(2),
      `${heap.toFixed(2)} (${heap === obj ? "obj" : "num"})`,
      bucket.toFixed(2),
      clean.searchMs.toFixed(0),
      `${(100 * share).toFixed(2)}%`,
    ]);
    notes.push(
      `${label}: ${clean.status}${clean.cost !== null ? ` cost ${clean.cost}` : ""}, ${clean.expanded} expanded; ` +
        `heap-js obj ${obj.toFixed(2)} ms, num ${num === undefined ? "- (key would not fit 2^53)" : `${num.toFixed(2)} ms`}; ` +
        `pop order identical in all ${ms.size} replays`,
    );
  }
  if (rows.length === 1) {
    say(`no instance found under ${ipc} (set PDDL2PRM_SHARED)`);
    process.exitCode = 1;
    return;
  }
  const widths = header.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  for (const r of rows) say(r.map((x, c) => (c < 2 ? x.padEnd(widths[c]!) : x.padStart(widths[c]!))).join("  "));
  say("");
  for (const n of notes) say(n);
  say("");
  say(
    `totals: OpenList ${sumOpen.toFixed(1)} ms, heap-js ${sumHeap.toFixed(1)} ms (${(sumHeap / sumOpen).toFixed(2)}x), ` +
      `bucket ${sumBucket.toFixed(1)} ms (${(sumBucket / sumOpen).toFixed(2)}x), A* search ${sumSearch.toFixed(0)} ms ` +
      `(OpenList share ${((100 * sumOpen) / sumSearch).toFixed(2)}%, max per instance ${(100 * maxShare).toFixed(2)}%)`,
  );
  say(verdict(sumOpen, sumHeap, sumBucket, sumSearch, maxSavingHeap, maxSavingBucket));
  const file = join(packageRoot(), "bench", "results", "open-list.txt");
  writeFileSync(file, out.join("\n") + "\n");
  console.log(`(saved to ${file})`);
}

/** One line, from the numbers: which queue is fastest, and whether switching would matter to A*. */
function verdict(open: number, heap: number, bucket: number, search: number, maxSavingHeap: number, maxSavingBucket: number): string {
  const vs = (x: number): string => (x > open ? `${(x / open).toFixed(2)}x slower` : `${(open / x).toFixed(2)}x faster`);
  const parts = `heap-js is ${vs(heap)} than OpenList on the same traces, the bucket queue ${vs(bucket)}`;
  const best = bucket <= heap ? { name: "the bucket queue", ms: bucket, max: maxSavingBucket } : { name: "heap-js", ms: heap, max: maxSavingHeap };
  const saving = (open - best.ms) / search;
  const share = `the open list is ${((100 * open) / search).toFixed(1)}% of A* search time`;
  // below ~2% of search time a queue change is lost in the run-to-run noise of the search itself
  if (best.ms < open && saving >= 0.02) {
    return `verdict: ${parts}; ${share}, so ${best.name} would save ${(100 * saving).toFixed(1)}% of it (max ${(100 * best.max).toFixed(1)}% on one instance): worth switching.`;
  }
  return `verdict: ${parts}; ${share}, so ${best.name} would save only ${(100 * Math.max(0, saving)).toFixed(1)}% of it (max ${(100 * Math.max(0, best.max)).toFixed(1)}% on one instance): keep OpenList.`;
}

if (isMainThread) {
  main().catch((e: unknown) => {
    console.error(e);
    process.exitCode = 1;
  });
} else parentPort!.postMessage(runJob(workerData as Job));
