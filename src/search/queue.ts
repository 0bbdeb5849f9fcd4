/**
 * Integer priority queues on typed arrays, reused across calls (no allocation per use once warm);
 * the A* open list falls back to heap-js when its keys do not suit buckets.
 */
import { Heap } from "heap-js";

/**
 * Min-queue of (integer key >= 0, integer value) pairs for Dijkstra-style explorations.
 * Bucket mode (Dial's algorithm: one LIFO list per key, a cursor on the smallest non-empty key;
 * LIFO as in Fast Downward's bucket queue, so LM-Cut breaks ties among equal costs the same way)
 * when keys stay small; a binary heap otherwise (large action costs would make buckets sparse).
 * Pushing a key below the cursor is allowed (incremental h^max re-seeds lower keys).
 */
export class IntMinQueue {
  private readonly bucketMode: boolean;
  // bucket mode: linked lists in a pool
  private heads: Int32Array;
  private poolVal: Int32Array;
  private poolNext: Int32Array;
  private poolSize = 0;
  private cursor = 0;
  private maxKey = -1;
  // heap mode
  private hKey: Float64Array;
  private hVal: Int32Array;
  private hSize = 0;
  private count = 0;
  /** Key of the last popped entry. */
  lastKey = 0;

  /** @param bucketMode use Dial buckets (choose when keys are bounded by a few thousand). */
  constructor(bucketMode: boolean) {
    this.bucketMode = bucketMode;
    this.heads = new Int32Array(bucketMode ? 256 : 0).fill(-1);
    this.poolVal = new Int32Array(bucketMode ? 1024 : 0);
    this.poolNext = new Int32Array(bucketMode ? 1024 : 0);
    this.hKey = new Float64Array(bucketMode ? 0 : 1024);
    this.hVal = new Int32Array(bucketMode ? 0 : 1024);
  }

  get empty(): boolean {
    return this.count === 0;
  }

  clear(): void {
    if (this.bucketMode) {
      // only buckets up to maxKey can be non-empty
      if (this.maxKey >= 0) this.heads.fill(-1, 0, this.maxKey + 1);
      this.poolSize = 0;
      this.cursor = 0;
      this.maxKey = -1;
    } else {
      this.hSize = 0;
    }
    this.count = 0;
  }

  push(key: number, val: number): void {
    this.count++;
    if (this.bucketMode) {
      if (key >= this.heads.length) {
        let n = this.heads.length * 2;
        while (n <= key) n *= 2;
        const h = new Int32Array(n).fill(-1);
        h.set(this.heads);
        this.heads = h;
      }
      if (this.poolSize === this.poolVal.length) {
        const n = this.poolVal.length * 2;
        const v = new Int32Array(n);
        v.set(this.poolVal);
        this.poolVal = v;
        const nx = new Int32Array(n);
        nx.set(this.poolNext);
        this.poolNext = nx;
      }
      const e = this.poolSize++;
      this.poolVal[e] = val;
      this.poolNext[e] = this.heads[key]!;
      this.heads[key] = e;
      if (key < this.cursor) this.cursor = key;
      if (key > this.maxKey) this.maxKey = key;
      return;
    }
    if (this.hSize === this.hKey.length) {
      const k = new Float64Array(this.hSize * 2);
      k.set(this.hKey);
      this.hKey = k;
      const v = new Int32Array(this.hSize * 2);
      v.set(this.hVal);
      this.hVal = v;
    }
    const keys = this.hKey;
    const vals = this.hVal;
    let i = this.hSize++;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (keys[p]! <= key) break;
      keys[i] = keys[p]!;
      vals[i] = vals[p]!;
      i = p;
    }
    keys[i] = key;
    vals[i] = val;
  }

  /** Remove and return the value with the smallest key (its key goes to `lastKey`). Queue must be non-empty. */
  pop(): number {
    this.count--;
    if (this.bucketMode) {
      const heads = this.heads;
      let c = this.cursor;
      while (heads[c] === -1) c++;
      this.cursor = c;
      const e = heads[c]!;
      heads[c] = this.poolNext[e]!;
      this.lastKey = c;
      if (this.count === 0) {
        // everything popped: recycle the pool
        this.poolSize = 0;
      }
      return this.poolVal[e]!;
    }
    const keys = this.hKey;
    const vals = this.hVal;
    const topVal = vals[0]!;
    this.lastKey = keys[0]!;
    const n = --this.hSize;
    if (n > 0) {
      const k = keys[n]!;
      const v = vals[n]!;
      let i = 0;
      for (;;) {
        let c = 2 * i + 1;
        if (c >= n) break;
        if (c + 1 < n && keys[c + 1]! < keys[c]!) c++;
        if (keys[c]! >= k) break;
        keys[i] = keys[c]!;
        vals[i] = vals[c]!;
        i = c;
      }
      keys[i] = k;
      vals[i] = v;
    }
    return topVal;
  }
}

/**
 * Fast Downward's adaptive priority queue, tie for tie, for LM-Cut's h^max explorations (which
 * element of equal cost pops first decides supporters, hence LM-Cut's values): LIFO buckets
 * until a push of key >= 100 exceeds the number of pushes since the last clear (plus "virtual"
 * pushes), then for good a binary heap ordered by key alone with libstdc++'s `push_heap`/`pop_heap`
 * sift rules, started from the bucket entries in (key, push) order. Keys are integers >= 0.
 */
export class AdaptiveQueue {
  private heap = false;
  // bucket mode: one LIFO list per key in a pool; a cursor on the smallest non-empty key
  private heads: Int32Array = new Int32Array(256).fill(-1);
  private poolVal: Int32Array = new Int32Array(1024);
  private poolNext: Int32Array = new Int32Array(1024);
  private poolSize = 0;
  private cursor = 0;
  private maxKey = -1;
  private pushes = 0;
  // heap mode
  private hKey: Int32Array = new Int32Array(0);
  private hVal: Int32Array = new Int32Array(0);
  private count = 0;
  /** Key of the last popped entry. */
  lastKey = 0;

  get empty(): boolean {
    return this.count === 0;
  }

  /** True once the queue has switched to a heap. */
  get isHeap(): boolean {
    return this.heap;
  }

  /** Empty the queue; in bucket mode the push count starts again (a heap stays a heap). */
  clear(): void {
    if (!this.heap) {
      if (this.maxKey >= 0) this.heads.fill(-1, 0, this.maxKey + 1);
      this.poolSize = 0;
      this.cursor = 0;
      this.maxKey = -1;
      this.pushes = 0;
    }
    this.count = 0;
  }

  /** Count `n` pushes that did not happen (delays the switch to a heap). */
  addVirtualPushes(n: number): void {
    if (!this.heap) this.pushes += n;
  }

  push(key: number, val: number): void {
    if (!this.heap) {
      if (key >= 100 && key > this.pushes) this.toHeap();
      else {
        this.pushes++;
        this.count++;
        if (key >= this.heads.length) {
          let n = this.heads.length * 2;
          while (n <= key) n *= 2;
          const h = new Int32Array(n).fill(-1);
          h.set(this.heads);
          this.heads = h;
        }
        if (this.poolSize === this.poolVal.length) {
          const v = new Int32Array(this.poolSize * 2);
          v.set(this.poolVal);
          this.poolVal = v;
          const nx = new Int32Array(this.poolSize * 2);
          nx.set(this.poolNext);
          this.poolNext = nx;
        }
        const e = this.poolSize++;
        this.poolVal[e] = val;
        this.poolNext[e] = this.heads[key]!;
        this.heads[key] = e;
        if (key < this.cursor) this.cursor = key;
        if (key > this.maxKey) this.maxKey = key;
        return;
      }
    }
    // push_heap: sift up while the parent's key is larger
    if (this.count === this.hKey.length) this.growHeap(this.count * 2 + 16);
    const keys = this.hKey;
    const vals = this.hVal;
    let hole = this.count++;
    let parent = (hole - 1) >> 1;
    while (hole > 0 && keys[parent]! > key) {
      keys[hole] = keys[parent]!;
      vals[hole] = vals[parent]!;
      hole = parent;
      parent = (hole - 1) >> 1;
    }
    keys[hole] = key;
    vals[hole] = val;
  }

  /** Remove and return a value of smallest key (its key goes to `lastKey`). Queue must be non-empty. */
  pop(): number {
    if (!this.heap) {
      this.count--;
      const heads = this.heads;
      let c = this.cursor;
      while (heads[c] === -1) c++;
      this.cursor = c;
      const e = heads[c]!;
      heads[c] = this.poolNext[e]!;
      this.lastKey = c;
      if (this.count === 0) this.poolSize = 0;
      return this.poolVal[e]!;
    }
    const keys = this.hKey;
    const vals = this.hVal;
    const topVal = vals[0]!;
    this.lastKey = keys[0]!;
    const len = --this.count;
    if (len > 0) {
      // pop_heap: the last entry goes into the hole left at the top, which first moves down
      // along the smaller child (the right one on ties), then up again
      const key = keys[len]!;
      const val = vals[len]!;
      let hole = 0;
      let child = 0;
      while (child < (len - 1) >> 1) {
        child = 2 * (child + 1);
        if (keys[child]! > keys[child - 1]!) child--;
        keys[hole] = keys[child]!;
        vals[hole] = vals[child]!;
        hole = child;
      }
      if ((len & 1) === 0 && child === (len - 2) >> 1) {
        child = 2 * (child + 1);
        keys[hole] = keys[child - 1]!;
        vals[hole] = vals[child - 1]!;
        hole = child - 1;
      }
      let parent = (hole - 1) >> 1;
      while (hole > 0 && keys[parent]! > key) {
        keys[hole] = keys[parent]!;
        vals[hole] = vals[parent]!;
        hole = parent;
        parent = (hole - 1) >> 1;
      }
      keys[hole] = key;
      vals[hole] = val;
    }
    return topVal;
  }

  private growHeap(n: number): void {
    const k = new Int32Array(n);
    k.set(this.hKey.subarray(0, this.count));
    this.hKey = k;
    const v = new Int32Array(n);
    v.set(this.hVal.subarray(0, this.count));
    this.hVal = v;
  }

  /** Switch to heap mode: the entries in (key, push order) order, which is a valid heap. */
  private toHeap(): void {
    this.heap = true;
    this.growHeap(Math.max(16, this.count * 2));
    let i = 0;
    const stack: number[] = [];
    for (let k = this.cursor; k <= this.maxKey; k++) {
      for (let e = this.heads[k]!; e !== -1; e = this.poolNext[e]!) stack.push(this.poolVal[e]!);
      // lists are LIFO: reverse to push order
      while (stack.length > 0) {
        this.hKey[i] = k;
        this.hVal[i++] = stack.pop()!;
      }
    }
    this.heads = new Int32Array(0);
    this.poolVal = new Int32Array(0);
    this.poolNext = new Int32Array(0);
  }
}

/** Largest f kept in buckets by default: (1025 * 1026 / 2) buckets x 2 Int32Array = 4.2 MB at most. */
export const OPEN_LIST_BUCKET_MAX_F = 1024;
/** Packed heap key fields: (f * 2^14 + h) * 2^25 + seq is exact (< 2^53) for 0 <= f, h < 2^14, seq < 2^25. */
const PACK_FH = 1 << 14;
const PACK_SEQ = 1 << 25;
const PACK_F_SHIFT = PACK_FH * PACK_SEQ;

const MODE_BUCKET = 0;
const MODE_PACKED = 1;
const MODE_OBJECT = 2;

/** Heap entry when keys do not pack into one exact double. */
interface OpenEntry {
  f: number;
  h: number;
  seq: number;
  val: number;
}

// plain comparisons rather than subtraction: exact for any finite keys (and +-Infinity)
const compareEntry = (a: OpenEntry, b: OpenEntry): number =>
  a.f < b.f ? -1 : a.f > b.f ? 1 : a.h < b.h ? -1 : a.h > b.h ? 1 : a.seq - b.seq;
const compareNumber = (a: number, b: number): number => a - b;

/** Test hook: smaller limits reach every mode with small inputs. */
export interface OpenListLimits {
  /** Largest f kept in buckets (default OPEN_LIST_BUCKET_MAX_F, at most 2^14 - 1). */
  bucketMaxF?: number;
  /** Entries numbered in packed-heap mode (migrated ones included) before the comparator heap takes over (default and max 2^25). */
  packedSeqLimit?: number;
}

/**
 * A* open list ordered by (f, h, insertion order): lexicographic, FIFO among equal (f, h),
 * like Fast Downward's A* tie-breaking.
 *
 * Bucket queue while keys are small integers with 0 <= h <= f (A* with f = g + h, g >= 0 and
 * modest action costs): O(1) push and amortised O(1) pop, 4-8x faster than a binary heap on
 * real A* traces (bench/results/open-list.txt). The first push outside that range (f above the bucket
 * limit, where large action costs would make buckets sparse and memory quadratic in f; or h > f,
 * a negative or non-integer key) moves everything, for good, into a heap-js heap: numeric keys
 * packing (f, h, seq) while exact, else a comparator on separate fields. Each switch carries the
 * entries over in their pop order, so the order never depends on the mode.
 */
export class OpenList {
  private mode = MODE_BUCKET;
  private n = 0;
  private readonly bucketMaxF: number;
  private readonly packedSeqLimit: number;
  // bucket mode: bucket (f, h) at index f(f+1)/2 + h, so index order is (f, h) order and each
  // bucket is a FIFO linked list of pool entries; popped entries go to a free list
  // small at first (grown on demand): the labeller runs many short searches per problem
  private heads: Int32Array = new Int32Array(256).fill(-1);
  private tails: Int32Array = new Int32Array(256);
  private next: Int32Array = new Int32Array(64);
  private val: Int32Array = new Int32Array(64);
  private poolSize = 0;
  private free = -1;
  /** No bucket below this index is non-empty. */
  private cursor = 0;
  /** No bucket above this index is non-empty. */
  private maxBucket = -1;
  // heap modes; seq = insertion counter since the switch (migrated entries numbered in pop order)
  private seq = 0;
  private packed: Heap<number> | null = null;
  /** Packed mode: value of the entry with insertion number seq. */
  private ids: Int32Array = new Int32Array(0);
  private objects: Heap<OpenEntry> | null = null;

  constructor(limits: OpenListLimits = {}) {
    this.bucketMaxF = Math.min(limits.bucketMaxF ?? OPEN_LIST_BUCKET_MAX_F, PACK_FH - 1);
    this.packedSeqLimit = Math.min(limits.packedSeqLimit ?? PACK_SEQ, PACK_SEQ);
  }

  get size(): number {
    return this.n;
  }

  push(f: number, h: number, val: number): void {
    if (this.mode === MODE_BUCKET) {
      // NaN fails the comparisons; (x | 0) === x is an integer test for |x| < 2^31
      if (h >= 0 && h <= f && f <= this.bucketMaxF && (f | 0) === f && (h | 0) === h) {
        this.bucketPush(((f * (f + 1)) >> 1) + h, val);
        this.n++;
        return;
      }
      this.bucketsToHeap();
    }
    if (this.mode === MODE_PACKED) {
      // the range checks come first, so (x | 0) === x is an exact integer test
      if (h >= 0 && f >= 0 && f < PACK_FH && h < PACK_FH && this.seq < this.packedSeqLimit && (f | 0) === f && (h | 0) === h) {
        const s = this.seq++;
        if (s === this.ids.length) this.growIds(s + 1);
        this.ids[s] = val;
        this.packed!.add((f * PACK_FH + h) * PACK_SEQ + s);
        this.n++;
        return;
      }
      this.packedToObjects();
    }
    this.objects!.add({ f, h, seq: this.seq++, val });
    this.n++;
  }

  /** f of the minimum entry (open list must be non-empty). */
  peekF(): number {
    if (this.mode === MODE_BUCKET) {
      const b = this.advanceCursor();
      // level of bucket b: largest f with f(f+1)/2 <= b (the sqrt is exact enough; corrected anyway)
      let f = Math.floor((Math.sqrt(8 * b + 1) - 1) / 2);
      while ((f * (f + 1)) / 2 > b) f--;
      while (((f + 1) * (f + 2)) / 2 <= b) f++;
      return f;
    }
    if (this.mode === MODE_PACKED) return Math.floor(this.packed!.peek()! / PACK_F_SHIFT);
    return this.objects!.peek()!.f;
  }

  /** Remove and return the value of the minimum entry (open list must be non-empty). */
  pop(): number {
    this.n--;
    if (this.mode === MODE_BUCKET) {
      const c = this.advanceCursor();
      const e = this.heads[c]!;
      const next = this.next;
      this.heads[c] = next[e]!;
      next[e] = this.free;
      this.free = e;
      return this.val[e]!;
    }
    if (this.mode === MODE_PACKED) return this.ids[this.packed!.pop()! % PACK_SEQ]!;
    return this.objects!.pop()!.val;
  }

  /** Move the cursor to the first non-empty bucket and return it (bucket mode, non-empty list). */
  private advanceCursor(): number {
    const heads = this.heads;
    let c = this.cursor;
    while (heads[c] === -1) c++;
    this.cursor = c;
    return c;
  }

  private bucketPush(b: number, val: number): void {
    if (b >= this.heads.length) this.growBuckets(b);
    let e = this.free;
    if (e !== -1) this.free = this.next[e]!;
    else {
      if (this.poolSize === this.val.length) this.growPool();
      e = this.poolSize++;
    }
    this.val[e] = val;
    this.next[e] = -1;
    if (this.heads[b] === -1) this.heads[b] = e;
    else this.next[this.tails[b]!] = e;
    this.tails[b] = e;
    // below the cursor: a smaller h at the same f, or a lower f (inconsistent heuristic)
    if (b < this.cursor) this.cursor = b;
    if (b > this.maxBucket) this.maxBucket = b;
  }

  private growBuckets(b: number): void {
    // capped at the bucket count of bucketMaxF, so the arrays never exceed the stated size
    const cap = ((this.bucketMaxF + 1) * (this.bucketMaxF + 2)) / 2;
    const m = Math.min(Math.max(this.heads.length * 2, b + 1), Math.max(cap, b + 1));
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

  private growIds(min: number): void {
    let m = Math.max(1024, this.ids.length * 2);
    while (m < min) m *= 2;
    const ids = new Int32Array(m);
    ids.set(this.ids);
    this.ids = ids;
  }

  /** Leave bucket mode: entries go over in pop order, numbered 0.. so FIFO order survives. */
  private bucketsToHeap(): void {
    const keys: number[] = [];
    const entries: OpenEntry[] = [];
    const toPacked = this.n < this.packedSeqLimit; // bucket keys always fit the packed fields
    if (toPacked) this.growIds(this.n);
    const heads = this.heads;
    const next = this.next;
    for (let b = this.cursor, f = 0; b <= this.maxBucket; b++) {
      if (heads[b] === -1) continue;
      while ((f + 1) * (f + 2) / 2 <= b) f++;
      const h = b - (f * (f + 1)) / 2;
      for (let e = heads[b]!; e !== -1; e = next[e]!) {
        const s = this.seq++;
        if (toPacked) {
          this.ids[s] = this.val[e]!;
          keys.push((f * PACK_FH + h) * PACK_SEQ + s);
        } else entries.push({ f, h, seq: s, val: this.val[e]! });
      }
    }
    // ascending keys already form a valid heap; init() heapifies anyway (O(n))
    if (toPacked) {
      this.packed = new Heap<number>(compareNumber);
      this.packed.init(keys);
      this.mode = MODE_PACKED;
    } else {
      this.objects = new Heap<OpenEntry>(compareEntry);
      this.objects.init(entries);
      this.mode = MODE_OBJECT;
    }
    this.heads = this.tails = this.next = this.val = new Int32Array(0);
  }

  /** Leave packed mode: decode every key; seq keeps the order, so heap position does not matter. */
  private packedToObjects(): void {
    const entries: OpenEntry[] = [];
    for (const key of this.packed!.heapArray) {
      const s = key % PACK_SEQ;
      const fh = (key - s) / PACK_SEQ;
      const h = fh % PACK_FH;
      entries.push({ f: (fh - h) / PACK_FH, h, seq: s, val: this.ids[s]! });
    }
    this.objects = new Heap<OpenEntry>(compareEntry);
    this.objects.init(entries);
    this.packed = null;
    this.ids = new Int32Array(0);
    this.mode = MODE_OBJECT;
  }
}
