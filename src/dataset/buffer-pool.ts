/**
 * Shard buffers that go round: the main thread hands a written buffer back to a worker with its
 * next problem (transferred, not copied), and the worker encodes that problem's rows into it.
 *
 * Why: every buffer a worker transfers in is memory V8 counts against the main thread's heap
 * (external memory), and each few megabytes of it made V8 start a full mark-compact of that heap
 * on background threads (67 measured in generate --count 300, 0.8 GB; by that rate about 300 for
 * the paper-scale corpus's 3.4 GB), while the workers waited
 * for those cores. Buffers that go back and forth add nothing to that count.
 */
export class BufferPool {
  private readonly free: ArrayBuffer[] = [];
  private bytes = 0;

  /**
   * @param max buffers kept at most (the rest are left to the garbage collector)
   * @param maxBytes their total size at most (problems with huge outputs keep nothing back)
   */
  constructor(
    private readonly max: number,
    private readonly maxBytes = 64 << 20,
  ) {}

  /** A written buffer, the largest kept, or null. */
  take(): ArrayBuffer | null {
    const b = this.free.pop() ?? null;
    if (b !== null) this.bytes -= b.byteLength;
    return b;
  }

  /** Keep `buffer` for a later problem (it must be written and no longer used). */
  give(buffer: ArrayBuffer): void {
    if (buffer.byteLength === 0 || this.free.length >= this.max || this.bytes + buffer.byteLength > this.maxBytes) return;
    this.bytes += buffer.byteLength;
    // sorted ascending, so take() hands out the largest: fewer problems outgrow their buffer
    let i = this.free.length;
    while (i > 0 && this.free[i - 1]!.byteLength > buffer.byteLength) i--;
    this.free.splice(i, 0, buffer);
  }

  get size(): number {
    return this.free.length;
  }
}
