/**
 * Integer priority queues on typed arrays, reused across calls (no allocation per use once warm).
 */

/**
 * Min-queue of (integer key >= 0, integer value) pairs for Dijkstra-style explorations.
 * Bucket mode (Dial's algorithm: one FIFO list per key, a cursor on the smallest non-empty key)
 * when keys stay small; a binary heap otherwise (large action costs would make buckets sparse).
 * Pushing a key below the cursor is allowed (incremental h^max re-seeds lower keys).
 */
export class IntMinQueue {
  private readonly bucketMode: boolean;
  // bucket mode: linked lists in a pool
  private heads: Int32Array;
  private tails: Int32Array;
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
    this.tails = new Int32Array(bucketMode ? 256 : 0);
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
        const t = new Int32Array(n);
        t.set(this.tails);
        this.tails = t;
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
      this.poolNext[e] = -1;
      if (this.heads[key] === -1) this.heads[key] = e;
      else this.poolNext[this.tails[key]!] = e;
      this.tails[key] = e;
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
 * A* open list ordered by (f, h, insertion order): lexicographic, FIFO among equal (f, h),
 * like Fast Downward's A* tie-breaking. Binary heap on typed arrays.
 */
export class OpenList {
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
