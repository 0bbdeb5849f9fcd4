import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { AdaptiveQueue, OPEN_LIST_BUCKET_MAX_F, OpenList, type OpenListLimits } from "../src/search/queue.js";

type Op = { push: [number, number] } | { pop: true };

interface Ref {
  f: number;
  h: number;
  seq: number;
}

/**
 * Replays `ops` on an OpenList and on the reference (a stable sort by (f, h, seq) before each
 * pop); every pop must return the same value (the push index, so values are unique), every
 * peekF the reference's minimum f, and size must agree throughout.
 */
function check(ops: Op[], limits?: OpenListLimits): void {
  const q = new OpenList(limits);
  const ref: Ref[] = [];
  let seq = 0;
  const drainOne = (): void => {
    ref.sort((a, b) => (a.f !== b.f ? (a.f < b.f ? -1 : 1) : a.h !== b.h ? (a.h < b.h ? -1 : 1) : 0)); // stable: seq order kept
    const want = ref.shift()!;
    expect(q.peekF()).toBe(want.f);
    expect(q.pop()).toBe(want.seq);
  };
  for (const op of ops) {
    if ("push" in op) {
      const [f, h] = op.push;
      ref.push({ f, h, seq });
      q.push(f, h, seq++);
    } else if (ref.length > 0) drainOne();
    expect(q.size).toBe(ref.length);
  }
  while (ref.length > 0) drainOne();
  expect(q.size).toBe(0);
}

const pop = fc.constant<Op>({ pop: true });
const push = (key: fc.Arbitrary<[number, number]>): fc.Arbitrary<Op> => key.map((k) => ({ push: k }));
/** 0 <= h <= f <= maxF. */
const valid = (minF: number, maxF: number): fc.Arbitrary<[number, number]> =>
  fc.integer({ min: minF, max: maxF }).chain((f) => fc.tuple(fc.constant(f), fc.integer({ min: 0, max: f })));
/** h = f (a state whose g is 0, or a zero-cost path so far). */
const hEqF = fc.integer({ min: 0, max: 12 }).map((f): [number, number] => [f, f]);
/** The same few keys over and over: long FIFO runs inside one bucket. */
const repeated = fc.constantFrom<[number, number]>([5, 3], [5, 3], [5, 2], [6, 0]);
/** Beyond the default bucket limit; the second range also exceeds the packed 2^14 field. */
const largeF = fc.oneof(valid(OPEN_LIST_BUCKET_MAX_F - 3, OPEN_LIST_BUCKET_MAX_F + 3000), valid(16_380, 40_000));
const hAboveF = fc.integer({ min: 0, max: 10 }).chain((f) => fc.tuple(fc.constant(f), fc.integer({ min: f + 1, max: f + 5 })));
const odd = fc.constantFrom<[number, number]>([-3, -1], [2.5, 0.5], [4, -2], [3.5, 3.5], [1e6, 7], [2 ** 40, 2 ** 20]);

/**
 * Pops mixed into pushes; small f ranges make many pushes land below the bucket cursor (the
 * last popped key), as reopening and inconsistent heuristics do.
 */
const opsOf = (key: fc.Arbitrary<[number, number]>, maxLength = 300): fc.Arbitrary<Op[]> =>
  fc.array(fc.oneof({ arbitrary: push(key), weight: 3 }, { arbitrary: pop, weight: 2 }), { maxLength });

const bucketKeys = fc.oneof(
  { arbitrary: valid(0, 12), weight: 6 },
  { arbitrary: hEqF, weight: 2 },
  { arbitrary: repeated, weight: 3 },
  { arbitrary: valid(0, OPEN_LIST_BUCKET_MAX_F), weight: 1 },
);
/** Mostly bucket keys, so a switch usually happens mid-stream with entries already queued. */
const mixedKeys = fc.oneof(
  { arbitrary: bucketKeys, weight: 20 },
  { arbitrary: largeF, weight: 1 },
  { arbitrary: hAboveF, weight: 1 },
  { arbitrary: odd, weight: 1 },
);

describe("OpenList", () => {
  it("pops like a stable sort by (f, h, insertion order): bucket keys, below the cursor, h = f, repeated keys", () => {
    fc.assert(fc.property(opsOf(bucketKeys), (ops) => check(ops)), { numRuns: 400 });
  });

  it("keeps that order across mode switches: f beyond the bucket limit, h > f, negative, non-integer, unpackable keys", () => {
    fc.assert(fc.property(opsOf(mixedKeys), (ops) => check(ops)), { numRuns: 400 });
  });

  it("keeps that order with shrunk limits (every switch, packed-heap seq exhaustion included)", () => {
    const limits = fc.record({ bucketMaxF: fc.integer({ min: 0, max: 10 }), packedSeqLimit: fc.integer({ min: 0, max: 40 }) });
    const keys = fc.oneof(
      { arbitrary: valid(0, 12), weight: 8 },
      { arbitrary: repeated, weight: 3 },
      { arbitrary: hAboveF, weight: 1 },
      { arbitrary: valid(16_380, 16_390), weight: 1 },
    );
    fc.assert(fc.property(opsOf(keys), limits, (ops, lim) => check(ops, lim)), { numRuns: 400 });
  });

  it("reaches each mode in order, FIFO among equal keys preserved through each switch", () => {
    const q = new OpenList({ bucketMaxF: 8, packedSeqLimit: 6 });
    const mode = (): number => (q as unknown as { mode: number }).mode; // private, checked only here
    q.push(3, 1, 10);
    q.push(2, 2, 11);
    q.push(3, 1, 12);
    q.push(2, 2, 13);
    expect(mode()).toBe(0); // buckets
    q.push(9, 1, 14); // f above bucketMaxF
    expect(mode()).toBe(1); // packed heap-js keys
    q.push(3, 1, 15);
    q.push(2, 2, 16); // seq 6: packedSeqLimit reached by the next push
    q.push(2, 2, 17);
    expect(mode()).toBe(2); // heap-js comparator on entries
    q.push(3, 1, 18);
    expect(q.size).toBe(9);
    const got: [number, number][] = [];
    while (q.size > 0) got.push([q.peekF(), q.pop()]);
    expect(got).toEqual([
      [2, 11],
      [2, 13],
      [2, 16],
      [2, 17],
      [3, 10],
      [3, 12],
      [3, 15],
      [3, 18],
      [9, 14],
    ]);
  });

  it("a long bucket-mode run (pool and bucket arrays grow, entries recycled) matches the reference", () => {
    let x = 12345;
    const rnd = (): number => ((x = (Math.imul(x, 1103515245) + 12345) >>> 0) / 2 ** 32);
    const ops: Op[] = [];
    let base = 0;
    for (let i = 0; i < 30_000; i++) {
      if (rnd() < 0.45) ops.push({ pop: true });
      else {
        // f mostly climbs like in A*, sometimes dips below the cursor
        base = Math.min(OPEN_LIST_BUCKET_MAX_F - 5, base + (rnd() < 0.01 ? 7 : 0));
        const f = Math.max(0, base + Math.floor(rnd() * 6) - 2);
        ops.push({ push: [f, Math.floor(rnd() * (f + 1))] });
      }
    }
    check(ops);
  });

  it("peekF is the f of the entry pop returns next, in every mode", () => {
    const q = new OpenList();
    q.push(7, 3, 1);
    expect(q.peekF()).toBe(7);
    q.push(5, 5, 2);
    q.push(5, 0, 3);
    expect(q.peekF()).toBe(5);
    expect(q.peekF()).toBe(5); // no side effect
    expect(q.pop()).toBe(3); // (5, 0) before (5, 5)
    expect(q.peekF()).toBe(5);
    q.push(0, 0, 4); // below the cursor
    expect(q.peekF()).toBe(0);
    expect(q.pop()).toBe(4);
    expect(q.pop()).toBe(2);
    expect(q.peekF()).toBe(7);
    // levels near the bucket limit: the f of a bucket index is recovered exactly
    for (const f of [OPEN_LIST_BUCKET_MAX_F, OPEN_LIST_BUCKET_MAX_F - 1, 44, 45]) {
      for (const h of [0, f]) {
        const r = new OpenList();
        r.push(f, h, 9);
        expect(r.peekF()).toBe(f);
      }
    }
    q.push(OPEN_LIST_BUCKET_MAX_F + 100, 1, 5); // to packed heap-js keys
    expect(q.peekF()).toBe(7);
    expect(q.pop()).toBe(1);
    expect(q.peekF()).toBe(OPEN_LIST_BUCKET_MAX_F + 100);
    q.push(2.5, 0.5, 6); // to the comparator heap
    expect(q.peekF()).toBe(2.5);
    expect(q.pop()).toBe(6);
    expect(q.peekF()).toBe(OPEN_LIST_BUCKET_MAX_F + 100);
    expect(q.pop()).toBe(5);
    expect(q.size).toBe(0);
  });
});

describe("AdaptiveQueue (Fast Downward's LM-Cut queue)", () => {
  // tests/fixtures/queue: a script of pushes ("u key value"), pops ("o"), clears ("c") and virtual
  // pushes ("v n"), and the (key, value) pairs Fast Downward's queue semantics pop for it: LIFO
  // buckets, the switch to a heap, and std::priority_queue's tie order from libstdc++ (computed
  // once with g++ by a small C++ program; the numbers are the fixture).
  const dir = join(import.meta.dirname, "fixtures", "queue");
  const ops = readFileSync(join(dir, "adaptive-ops.txt"), "utf8").trim().split("\n");
  const expected = readFileSync(join(dir, "adaptive-pops.txt"), "utf8").trim().split("\n");

  it("pops what Fast Downward's adaptive queue pops, through the switch to a heap", () => {
    const q = new AdaptiveQueue();
    const got: string[] = [];
    let sawBuckets = false;
    for (const op of ops) {
      const t = op.split(" ");
      if (t[0] === "u") q.push(Number(t[1]), Number(t[2]));
      else if (t[0] === "o") {
        const v = q.pop();
        got.push(`${q.lastKey} ${v}`);
      }
      else if (t[0] === "c") q.clear();
      else q.addVirtualPushes(Number(t[1]));
      if (!q.isHeap && got.length > 10) sawBuckets = true;
    }
    expect(sawBuckets).toBe(true);
    expect(q.isHeap).toBe(true);
    expect(q.empty).toBe(true);
    expect(got).toEqual(expected);
  });

  it("never switches while keys stay below 100, and a clear restarts the push count", () => {
    const q = new AdaptiveQueue();
    for (let i = 0; i < 1000; i++) q.push(i % 99, i);
    expect(q.isHeap).toBe(false);
    q.clear();
    q.addVirtualPushes(200);
    q.push(150, 1); // 150 <= 200 pushes: still buckets
    expect(q.isHeap).toBe(false);
    q.clear();
    q.push(150, 1); // 150 > 0 pushes since the clear
    expect(q.isHeap).toBe(true);
  });
});
