/**
 * bench/open-list: how fast is the A* open list `OpenList` (src/search/queue.ts: a bucket queue,
 * heap-js heap as a fallback) against heap-js alone and against the typed-array binary heap it
 * replaced? (issue 4)
 *
 *   npm run build && npm run bench:open-list
 *
 * What it measures:
 *  1. Real open-list traces. `astarRun` is run on a few IPC instances while
 *     `OpenList.prototype.push` / `.pop` are wrapped (at runtime, src/ untouched) to record
 *     every push(f, h, id) and, for every pop, the f that `peekF()` reported and the popped id.
 *     The wrappers are removed afterwards.
 *  2. Each trace is replayed against three queues with the same (f, h, FIFO) order:
 *       OpenList   - ours, imported from the compiled src; on these real traces (small integer
 *                    keys, 0 <= h <= f) it stays in bucket mode (column `OpenList mode`);
 *       heap-js    - `Heap` from the heap-js dependency, comparator on (f, h, seq), seq being an
 *                    insertion counter; two encodings are timed and the faster one is reported:
 *                    `obj` ({f, h, seq, id} objects) and `num` ((f, h, seq) packed into one
 *                    exact double, id kept in a side array indexed by seq);
 *       typed heap - `TypedHeapOpenList` below, the previous OpenList (typed-array binary heap),
 *                    kept here as the baseline.
 *     Each replay calls peekF() before every pop, as astar does. Every replay checks each
 *     peeked f and each popped id against the recording (made with OpenList in the search) and
 *     throws otherwise, so all of them, the typed heap included, are proven to give the exact
 *     order of the search on these traces.
 *     One synthetic row replays the first trace with f and h multiplied by 100 (same order, as
 *     with action costs 100x larger): f then passes OpenList's bucket limit, so that row times
 *     OpenList's heap-js fallback (its migration of the queued entries included).
 *     Timing covers only the replay loop (queue construction, pushes, peeks, pops, the checks):
 *     an untimed warm-up (one run, repeated on short traces until ~500k ops have gone through,
 *     so V8 has optimised the loop), then the median of 5 timed runs. Each (trace,
 *     implementation) pair runs in a fresh worker thread, i.e. its own V8 isolate and heap: in
 *     one process the two heap-js encodings share heap-js's functions, whose inline caches then
 *     go polymorphic (the `num` encoding measured 3x slower after `obj` had run), and GC of the
 *     search's state space or of another implementation's garbage would land in the wrong
 *     timings.
 *  3. The A* search time of the instance (`searchMs`: expansions + heuristic evaluations,
 *     without building the heuristic) from a second, un-instrumented run of the same
 *     deterministic search (the wrappers would inflate it), so `share` = replay ms / search ms
 *     estimates the open list's part of A* (in situ it is somewhat higher: there the queue's
 *     arrays compete for cache with the heuristic, which the hot replay loop does not).
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
import { OPEN_LIST_BUCKET_MAX_F, OpenList } from "../src/search/queue.js";
import { packageRoot } from "../src/util/paths.js";
import { median } from "./reference.js";

const OP_PUSH = 1;
const OP_POP = 2;
const RUNS = 5;
/** Warm-up replays continue until this many ops were replayed (at least one run, at most 100). */
const WARMUP_OPS = 500_000;
/** Search time limit per run; all chosen instances finish far below it. */
const TIME_LIMIT_MS = 600_000;

/** A recorded open-list trace: `len` ops of 4 ints each: (push, f, h, id) or (pop, peeked f, 0, id). */
interface Trace {
  data: Int32Array;
  len: number;
  pushes: number;
  pops: number;
  maxF: number;
  maxH: number;
  /** Some push had h > f (OpenList would then leave bucket mode). */
  hAboveF: boolean;
}

/** Growable Int32Array the wrappers append to (doubling, so recording stays cheap). */
class Recorder {
  data = new Int32Array(1 << 16);
  len = 0;
  pushes = 0;
  pops = 0;
  maxF = 0;
  maxH = 0;
  hAboveF = false;

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
    return { data: this.data, len: this.len, pushes: this.pushes, pops: this.pops, maxF: this.maxF, maxH: this.maxH, hAboveF: this.hAboveF };
  }
}

/**
 * Run `astarRun` with OpenList.push/pop wrapped to record the trace. The Int32Array trace and
 * the bench's packed heap-js key need integers 0 <= h, f < 2^31: checked here, loudly.
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
    if (!Number.isInteger(f) || !Number.isInteger(h) || h < 0 || f < 0 || f > 0x7fffffff || h > 0x7fffffff) {
      throw new Error(`open-list bench: push(f=${f}, h=${h}) outside integers 0 <= f, h < 2^31`);
    }
    rec.pushes++;
    if (f > rec.maxF) rec.maxF = f;
    if (h > rec.maxH) rec.maxH = h;
    if (h > f) rec.hAboveF = true;
    rec.add(OP_PUSH, f, h, val);
    origPush.call(this, f, h, val);
  };
  proto.pop = function (this: OpenList): number {
    check(this);
    const f = this.peekF();
    const id = origPop.call(this);
    rec.pops++;
    rec.add(OP_POP, f, 0, id);
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
 * Baseline: the typed-array binary heap that was `OpenList` before the bucket queue (copied
 * verbatim from src/search/queue.ts at commit 41fe925, only renamed), so the comparison with
 * the old open list stays meaningful after the switch. Orders by (f, h, insertion order).
 */
class TypedHeapOpenList {
  private f: Float64Array = new Float64Array(1024);
  private h: Float64Array = new Float64Array(1024);
  private seq: Float64Array = new Float64Array(1024);
  private val: Int32Array = new Int32Array(1024);
  private n = 0;
  private counter = 0;

  get size(): number {
    return this.n;
  }

  private grow(): void {
    const m = this.f.length * 2;
    const f = new Float64Array(m);
    f.set(this.f);
    this.f = f;
    const h = new Float64Array(m);
    h.set(this.h);
    this.h = h;
    const s = new Float64Array(m);
    s.set(this.seq);
    this.seq = s;
    const v = new Int32Array(m);
    v.set(this.val);
    this.val = v;
  }

  push(f: number, h: number, val: number): void {
    if (this.n === this.f.length) this.grow();
    const F = this.f;
    const H = this.h;
    const S = this.seq;
    const V = this.val;
    const s = this.counter++;
    let i = this.n++;
    while (i > 0) {
      const p = (i - 1) >> 1;
      const pf = F[p]!;
      if (pf < f || (pf === f && (H[p]! < h || (H[p]! === h && S[p]! < s)))) break;
      F[i] = pf;
      H[i] = H[p]!;
      S[i] = S[p]!;
      V[i] = V[p]!;
      i = p;
    }
    F[i] = f;
    H[i] = h;
    S[i] = s;
    V[i] = val;
  }

  /** f of the minimum entry (open list must be non-empty). */
  peekF(): number {
    return this.f[0]!;
  }

  pop(): number {
    const F = this.f;
    const H = this.h;
    const S = this.seq;
    const V = this.val;
    const top = V[0]!;
    const n = --this.n;
    if (n > 0) {
      const f = F[n]!;
      const h = H[n]!;
      const s = S[n]!;
      const v = V[n]!;
      let i = 0;
      for (;;) {
        let c = 2 * i + 1;
        if (c >= n) break;
        const d = c + 1;
        if (d < n) {
          const cf = F[c]!;
          const df = F[d]!;
          if (df < cf || (df === cf && (H[d]! < H[c]! || (H[d]! === H[c]! && S[d]! < S[c]!)))) c = d;
        }
        const cf = F[c]!;
        if (f < cf || (f === cf && (h < H[c]! || (h === H[c]! && s < S[c]!)))) break;
        F[i] = cf;
        H[i] = H[c]!;
        S[i] = S[c]!;
        V[i] = V[c]!;
        i = c;
      }
      F[i] = f;
      H[i] = h;
      S[i] = s;
      V[i] = v;
    }
    return top;
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
    else if (q.peekF() !== a[i + 1] || q.pop() !== a[i + 3]) return i >> 2;
  }
  return -1;
}

function replayTypedHeap(t: Trace): number {
  const q = new TypedHeapOpenList();
  const a = t.data;
  const end = t.len * 4;
  for (let i = 0; i < end; i += 4) {
    if (a[i] === OP_PUSH) q.push(a[i + 1]!, a[i + 2]!, a[i + 3]!);
    else if (q.peekF() !== a[i + 1] || q.pop() !== a[i + 3]) return i >> 2;
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
    else if (q.peek()!.f !== a[i + 1] || q.pop()!.id !== a[i + 3]) return i >> 2;
  }
  return -1;
}

/**
 * Multipliers packing (f, h, seq) into one double key, or null when it would not stay exact.
 * Powers of two, so f = floor(key / (hb * sb)) is exact too (peekF).
 */
function packing(t: Trace): { hb: number; sb: number } | null {
  let hb = 1;
  while (hb <= t.maxH) hb *= 2;
  let sb = 1;
  while (sb < t.pushes) sb *= 2;
  return (t.maxF + 1) * hb * sb <= Number.MAX_SAFE_INTEGER ? { hb, sb } : null;
}

const numCompare = (x: number, y: number): number => x - y;

/**
 * heap-js on plain numbers: key = (f * hb + h) * sb + seq, exact below 2^53, so number order is
 * (f, h, seq) order; V8 keeps the heap's array unboxed. The id sits in ids[seq]. (OpenList's own
 * heap-js fallback uses the same encoding with fixed field widths.)
 */
function replayHeapNum(t: Trace): number {
  const p = packing(t)!;
  const hb = p.hb;
  const sb = p.sb;
  const fb = hb * sb;
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
    } else if (Math.floor(q.peek()! / fb) !== a[i + 1] || ids[q.pop()! % sb] !== a[i + 3]) return i >> 2;
  }
  return -1;
}

const IMPLS = [
  { name: "OpenList", replay: replayOpenList },
  { name: "heap-js obj", replay: replayHeapObj },
  { name: "heap-js num", replay: replayHeapNum },
  { name: "typed heap", replay: replayTypedHeap },
] as const;
type ImplName = (typeof IMPLS)[number]["name"];

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
      throw new Error(`open-list bench: ${impl.name} peeks or pops differently from the recording at op ${r.bad} of ${label}`);
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
/** Key multiplier of the synthetic row (the first trace with costs 100x larger). */
const SCALE = 100;

/** The trace with every f and h (pushed and peeked) multiplied by `k`: same pop order. */
function scaled(t: Trace, k: number): Trace {
  if (t.maxF * k > 0x7fffffff) throw new Error(`open-list bench: f = ${t.maxF} x ${k} does not fit the Int32Array trace`);
  const d = t.data.slice(0, t.len * 4);
  for (let i = 0; i < d.length; i += 4) {
    d[i + 1]! *= k;
    d[i + 2]! *= k;
  }
  return { ...t, data: d, maxF: t.maxF * k, maxH: t.maxH * k };
}

/** Which OpenList mode a trace runs in (it leaves bucket mode at the first push outside it). */
function openListMode(t: Trace): string {
  return t.maxF <= OPEN_LIST_BUCKET_MAX_F && !t.hAboveF ? "bucket" : "heap";
}

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
  say(
    `queue ms = median of ${RUNS} replays after a warm-up; share = replay ms / A* search ms; ` +
      `OpenList = bucket queue (f <= ${OPEN_LIST_BUCKET_MAX_F}) with heap-js fallback, typed heap = the previous OpenList`,
  );
  say("");
  const header = [
    "instance", "h", "pushes", "pops", "maxF", "OpenList mode", "OpenList ms", "heap-js ms", "typed heap ms", "search ms", "OpenList share", "typed heap share",
  ];
  const rows: string[][] = [header];
  const notes: string[] = [];
  let sumOpen = 0;
  let sumHeap = 0;
  let sumTyped = 0;
  let sumSearch = 0;
  let first: { inst: Instance; label: string; trace: Trace } | null = null;
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
    first ??= { inst, label, trace };
    const ms = await timeReplays(label, trace);
    const { open, heap, typed, heapNote } = pick(ms);
    sumOpen += open;
    sumHeap += heap;
    sumTyped += typed;
    sumSearch += clean.searchMs;
    rows.push([
      inst.problem,
      inst.heuristic,
      String(trace.pushes),
      String(trace.pops),
      String(trace.maxF),
      openListMode(trace),
      open.toFixed(2),
      heapNote,
      typed.toFixed(2),
      clean.searchMs.toFixed(0),
      `${((100 * open) / clean.searchMs).toFixed(2)}%`,
      `${((100 * typed) / clean.searchMs).toFixed(2)}%`,
    ]);
    notes.push(
      `${label}: ${clean.status}${clean.cost !== null ? ` cost ${clean.cost}` : ""}, ${clean.expanded} expanded; ` +
        `${replayNote(ms)}; peeked f and popped id identical to the recording in all ${ms.size} replays`,
    );
  }
  if (first === null) {
    say(`no instance found under ${ipc} (set PDDL2PRM_SHARED)`);
    process.exitCode = 1;
    return;
  }
  // synthetic: costs 100x larger, so OpenList runs its heap-js fallback (not in the totals)
  const big = scaled(first.trace, SCALE);
  const bigLabel = `${first.label} keys x${SCALE}`;
  const bigMs = await timeReplays(bigLabel, big);
  const b = pick(bigMs);
  rows.push([
    `${first.inst.problem} keys x${SCALE}`,
    first.inst.heuristic,
    String(big.pushes),
    String(big.pops),
    String(big.maxF),
    openListMode(big),
    b.open.toFixed(2),
    b.heapNote,
    b.typed.toFixed(2),
    "-",
    "-",
    "-",
  ]);
  notes.push(
    `${bigLabel} (synthetic, not in the totals): ${replayNote(bigMs)}; ` +
      `peeked f and popped id identical to the recording in all ${bigMs.size} replays`,
  );
  const widths = header.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  for (const r of rows) say(r.map((x, c) => (c < 2 ? x.padEnd(widths[c]!) : x.padStart(widths[c]!))).join("  "));
  say("");
  for (const n of notes) say(n);
  say("");
  say(
    `totals (real traces): OpenList ${sumOpen.toFixed(1)} ms, heap-js ${sumHeap.toFixed(1)} ms, typed heap ${sumTyped.toFixed(1)} ms, ` +
      `A* search ${sumSearch.toFixed(0)} ms (share: OpenList ${((100 * sumOpen) / sumSearch).toFixed(2)}%, ` +
      `typed heap ${((100 * sumTyped) / sumSearch).toFixed(2)}%)`,
  );
  say(summary(sumOpen, sumHeap, sumTyped, sumSearch, b));
  const file = join(packageRoot(), "bench", "results", "open-list.txt");
  writeFileSync(file, out.join("\n") + "\n");
  console.log(`(saved to ${file})`);
}

/** Per-trace medians, heap-js as the faster of its two encodings. */
function pick(ms: Map<ImplName, number>): { open: number; heap: number; typed: number; heapNote: string } {
  const obj = ms.get("heap-js obj")!;
  const num = ms.get("heap-js num");
  const heap = num !== undefined && num < obj ? num : obj;
  return { open: ms.get("OpenList")!, heap, typed: ms.get("typed heap")!, heapNote: `${heap.toFixed(2)} (${heap === obj ? "obj" : "num"})` };
}

function replayNote(ms: Map<ImplName, number>): string {
  const num = ms.get("heap-js num");
  return `heap-js obj ${ms.get("heap-js obj")!.toFixed(2)} ms, num ${num === undefined ? "- (key would not fit 2^53)" : `${num.toFixed(2)} ms`}`;
}

/** Two lines from the numbers: OpenList against both alternatives, in bucket and heap mode. */
function summary(open: number, heap: number, typed: number, search: number, big: { open: number; heap: number; typed: number }): string {
  const vs = (x: number, y: number): string => (x > y ? `${(x / y).toFixed(2)}x slower` : `${(y / x).toFixed(2)}x faster`);
  return (
    `summary: on the real traces OpenList is ${vs(open, typed)} than the typed heap and ${vs(open, heap)} than heap-js, ` +
    `saving ${((100 * (typed - open)) / search).toFixed(1)}% of A* search time against the typed heap;\n` +
    `         in heap mode (keys x${SCALE}) it is ${vs(big.open, big.typed)} than the typed heap and ${vs(big.open, big.heap)} than heap-js alone.`
  );
}

if (isMainThread) {
  main().catch((e: unknown) => {
    console.error(e);
    process.exitCode = 1;
  });
} else parentPort!.postMessage(runJob(workerData as Job));
