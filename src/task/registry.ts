/**
 * State registry: interns packed states to dense integer ids. States live in one growing
 * Uint32Array arena; an open-addressing hash table (linear probing, power-of-two size) of
 * (id, hash) pairs maps hashes to ids. Hashing is murmur3-style over the words: fast and deterministic.
 */

/** Deterministic 32-bit hash of a packed state (murmur3 mixing). */
export function hashState(a: Uint32Array, off = 0, words = a.length): number {
  let h = 0x9747b28c ^ words;
  for (let i = 0; i < words; i++) {
    let k = Math.imul(a[off + i]!, 0xcc9e2d51);
    k = (k << 15) | (k >>> 17);
    k = Math.imul(k, 0x1b873593);
    h ^= k;
    h = (h << 13) | (h >>> 19);
    h = (Math.imul(h, 5) + 0xe6546b64) | 0;
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Interns states of a fixed word count to ids 0, 1, 2, ... in insertion order. */
export class StateRegistry {
  readonly words: number;
  private arena: Uint32Array;
  /** (id, hash) per slot, id -1 when empty; `mask + 1` slots (a power of two). */
  private table: Int32Array;
  private mask: number;
  private count = 0;

  constructor(words: number, initialCapacity = 1024) {
    this.words = Math.max(1, words);
    const cap = Math.max(16, initialCapacity);
    this.arena = new Uint32Array(cap * this.words);
    let t = 32;
    while (t < cap * 2) t *= 2;
    this.table = new Int32Array(2 * t).fill(-1);
    this.mask = t - 1;
  }

  /** Number of interned states. */
  get size(): number {
    return this.count;
  }

  /** Id of `state` (first `words` words), interning a copy if it is new. */
  intern(state: Uint32Array): number {
    const w = this.words;
    const h = hashState(state, 0, w);
    const at = this.find(state, h);
    const table = this.table;
    if (table[at]! >= 0) return table[at]!;
    const id = this.count;
    if ((id + 1) * w > this.arena.length) this.growArena();
    // word by word: TypedArray.set costs more than the copy for a few words
    const arena = this.arena;
    for (let i = 0, base = id * w; i < w; i++) arena[base + i] = state[i]!;
    table[at] = id;
    table[at + 1] = h;
    this.count++;
    if (this.count * 2 > this.mask + 1) this.rehash();
    return id;
  }

  /** Id of `state`, or -1 if it was never interned. */
  lookup(state: Uint32Array): number {
    return this.table[this.find(state, hashState(state, 0, this.words))]!;
  }

  /**
   * Table index of `state` (hash `h`): its entry, or the empty entry where it would go. Entries
   * are (id, hash) pairs side by side, so a probe reads one cache line before the arena.
   */
  private find(state: Uint32Array, h: number): number {
    const w = this.words;
    const table = this.table;
    const arena = this.arena;
    const mask = this.mask;
    const hi = h | 0;
    for (let slot = h & mask; ; slot = (slot + 1) & mask) {
      const id = table[2 * slot]!;
      if (id < 0) return 2 * slot;
      if (table[2 * slot + 1] === hi) {
        let i = 0;
        for (let base = id * w; i < w; i++) if (arena[base + i] !== state[i]) break;
        if (i === w) return 2 * slot;
      }
    }
  }

  /** A read-only view of state `id` (stays valid and unchanged; do not mutate it). */
  get(id: number): Uint32Array {
    return this.arena.subarray(id * this.words, (id + 1) * this.words);
  }

  /** Copy state `id` into `out` and return it (word by word: no view is made). */
  getInto(id: number, out: Uint32Array): Uint32Array {
    const w = this.words;
    const arena = this.arena;
    for (let i = 0, base = id * w; i < w; i++) out[i] = arena[base + i]!;
    return out;
  }

  /**
   * Ids of the states in which every fact of `pos` is true and every fact of `neg` false (a
   * goal test over all states without a view per state).
   */
  matching(pos: Int32Array, neg: Int32Array): Int32Array {
    // one mask per word the facts touch: a state is tested with a few word operations
    const at: number[] = [];
    const must: number[] = [];
    const mustNot: number[] = [];
    const add = (facts: Int32Array, into: number[], other: number[]): void => {
      for (let i = 0; i < facts.length; i++) {
        const f = facts[i]!;
        let k = at.indexOf(f >>> 5);
        if (k < 0) {
          k = at.length;
          at.push(f >>> 5);
          into.push(0);
          other.push(0);
        }
        into[k] = into[k]! | (1 << (f & 31));
      }
    };
    add(pos, must, mustNot);
    add(neg, mustNot, must);
    const w = this.words;
    const arena = this.arena;
    const out: number[] = [];
    const m = at.length;
    for (let id = 0, base = 0; id < this.count; id++, base += w) {
      let k = 0;
      for (; k < m; k++) {
        const x = arena[base + at[k]!]!;
        if ((x & must[k]!) !== must[k]! || (x & mustNot[k]!) !== 0) break;
      }
      if (k === m) out.push(id);
    }
    return Int32Array.from(out);
  }

  /** Hash of state `id` (as computed at interning). */
  hashOf(id: number): number {
    return hashState(this.arena, id * this.words, this.words);
  }

  private growArena(): void {
    // Old views keep pointing at the old buffer, whose contents never change: still valid.
    const cap = (this.arena.length / this.words) * 2;
    const a = new Uint32Array(cap * this.words);
    a.set(this.arena);
    this.arena = a;
  }

  /**
   * Drop spare capacity, for a registry that is done growing and kept for long (a transition
   * graph shared by a run's problems): the arena shrinks to the states held, the table
   * to the least power of two that keeps it at most half full. Interning again grows them.
   */
  compact(): void {
    const cap = Math.max(16, this.count);
    if (this.arena.length > cap * this.words) this.arena = this.arena.slice(0, cap * this.words);
    let t = 32;
    while (t < this.count * 2) t *= 2;
    if (t < this.mask + 1) this.rebuildTable(t);
  }

  private rehash(): void {
    this.rebuildTable((this.mask + 1) * 2);
  }

  private rebuildTable(size: number): void {
    // the hashes come from the old table's entries: no per-state array of them is kept
    const old = this.table;
    const t = new Int32Array(2 * size).fill(-1);
    const mask = size - 1;
    for (let k = 0; k < old.length; k += 2) {
      const id = old[k]!;
      if (id < 0) continue;
      const h = old[k + 1]!;
      let slot = h & mask;
      while (t[2 * slot]! >= 0) slot = (slot + 1) & mask;
      t[2 * slot] = id;
      t[2 * slot + 1] = h;
    }
    this.table = t;
    this.mask = mask;
  }
}
