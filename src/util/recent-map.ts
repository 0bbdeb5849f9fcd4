/**
 * A map that keeps the entries used recently and forgets the rest: two generations of at most
 * `limit` entries each. New and looked-up entries live in the young generation; when it is full
 * it becomes the old one (the previous old generation is dropped), and an entry found in the old
 * generation moves back to the young one. So an entry used at least once every `limit` new keys
 * is never lost, and the map never holds more than `2 * limit` entries.
 *
 * Why: per-thread memos of a labelling run (the oracle's mode by transition system, the explicit
 * build's outcome by task shape) are worth keeping only for systems that recur, and most of a
 * large corpus's problems are each a system of their own: memos that grew with every problem
 * (up to 100,000 entries) were a worker's largest growing memory over a long run.
 */
export class RecentMap<K, V> {
  private young = new Map<K, V>();
  private old = new Map<K, V>();

  constructor(readonly limit: number) {
    if (!(limit >= 1)) throw new RangeError(`RecentMap: limit must be >= 1, got ${limit}`);
  }

  /** The value of `key` (which then counts as recently used), or undefined. */
  get(key: K): V | undefined {
    const v = this.young.get(key);
    if (v !== undefined || this.young.has(key)) return v;
    if (!this.old.has(key)) return undefined;
    const w = this.old.get(key) as V;
    this.old.delete(key);
    this.put(key, w);
    return w;
  }

  set(key: K, value: V): this {
    if (this.young.has(key)) this.young.set(key, value);
    else {
      this.old.delete(key);
      this.put(key, value);
    }
    return this;
  }

  /** Entries held (at most `2 * limit`). */
  get size(): number {
    return this.young.size + this.old.size;
  }

  clear(): void {
    this.young = new Map();
    this.old = new Map();
  }

  private put(key: K, value: V): void {
    if (this.young.size >= this.limit) {
      this.old = this.young;
      this.young = new Map();
    }
    this.young.set(key, value);
  }
}
