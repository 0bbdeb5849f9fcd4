/**
 * CPython's `random.Random(seed)` for a non-negative integer seed: the same MT19937 stream
 * (seeded with `init_by_array` over the seed's 32-bit words) and the same `getrandbits` and
 * `randrange(n)` (rejection sampling on `n.bit_length()` bits). Needed where we must reproduce
 * a Python program's pseudo-random choices exactly (Fast Downward's invariant synthesis).
 * The generator core is the `mersenne-twister` package (a port of the reference mt19937ar.c).
 */
import MersenneTwister from "mersenne-twister";

export class PyRandom {
  private readonly mt: MersenneTwister;

  /** `seed` must be a non-negative safe integer. */
  constructor(seed: number) {
    if (!Number.isSafeInteger(seed) || seed < 0) throw new RangeError(`PyRandom: bad seed ${seed}`);
    // CPython splits abs(seed) into 32-bit words, least significant first; 0 gives [0].
    const key: number[] = [];
    for (let s = seed; s > 0; s = Math.floor(s / 0x100000000)) key.push(s % 0x100000000);
    if (key.length === 0) key.push(0);
    this.mt = new MersenneTwister(key);
  }

  /** `getrandbits(k)` for 0 <= k <= 32. */
  getrandbits(k: number): number {
    if (k === 0) return 0;
    if (k < 0 || k > 32) throw new RangeError(`PyRandom.getrandbits: k=${k} not in 0..32`);
    return this.mt.random_int() >>> (32 - k);
  }

  /** `randrange(n)`: uniform in [0, n) for 1 <= n < 2^32. */
  randrange(n: number): number {
    if (!Number.isInteger(n) || n < 1 || n > 0xffffffff) throw new RangeError(`PyRandom.randrange: n=${n}`);
    const k = 32 - Math.clz32(n);
    let r = this.getrandbits(k);
    while (r >= n) r = this.getrandbits(k);
    return r;
  }
}
