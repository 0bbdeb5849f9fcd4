/**
 * Deterministic pseudo-random numbers. Every random choice in pddl2prm flows from a
 * `Prng` seeded from (run seed, problem id), so output never depends on scheduling.
 */

/** 32-bit FNV-1a hash of a string, for seeding and stable bucketing. */
export function hashString(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/**
 * FNV-1a with a finalizer (murmur3's fmix32): every bit of the result depends on every
 * character. FNV-1a alone leaves the high bits of ids that differ in their last characters
 * ("p0001", "p0002") close together: a sample "hash / 2^32 < rate" of them kept 22% of the
 * problems at rates 0.13 and 0.26, and an order by it kept a problem's rows together.
 */
export function mixedHash(s: string): number {
  let h = hashString(s);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** A string's uniform bucket in [0, 1) (`mixedHash`). */
export function uniformOf(s: string): number {
  return mixedHash(s) / 4294967296;
}

/** sfc32 generator: small, fast, good statistical quality. */
export class Prng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number, stream = "") {
    this.a = seed >>> 0;
    this.b = hashString(stream) ^ 0x9e3779b9;
    this.c = Math.imul(seed ^ 0x85ebca6b, 0xc2b2ae35) >>> 0;
    this.d = 1;
    for (let i = 0; i < 15; i++) this.nextU32();
  }

  /** A generator for one problem: the same (seed, id) always gives the same stream. */
  static forProblem(seed: number, problemId: string): Prng {
    return new Prng(seed, problemId);
  }

  nextU32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** Uniform float in [0, 1). */
  next(): number {
    return this.nextU32() / 4294967296;
  }

  /** Uniform integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  /** Uniform integer in [lo, hi] (inclusive). */
  range(lo: number, hi: number): number {
    return lo + this.int(hi - lo + 1);
  }

  pick<T>(xs: readonly T[]): T {
    if (xs.length === 0) throw new Error("pick from empty list");
    return xs[this.int(xs.length)]!;
  }

  /** Fisher-Yates shuffle in place. */
  shuffle<T>(xs: T[]): T[] {
    for (let i = xs.length - 1; i > 0; i--) {
      const j = this.int(i + 1);
      const t = xs[i]!;
      xs[i] = xs[j]!;
      xs[j] = t;
    }
    return xs;
  }

  /** A child generator for an independent sub-stream (e.g. one per state of a walk). */
  fork(stream: string): Prng {
    return new Prng(this.nextU32(), stream);
  }
}
