import { createHash, type Hash } from "node:crypto";
import { createWriteStream, renameSync, rmSync, type WriteStream } from "node:fs";
import { createGzip, type Gzip } from "node:zlib";
import { once } from "node:events";

export interface ShardInfo {
  /** Path relative to the dataset folder. */
  path: string;
  rows: number;
  bytes: number;
  sha256: string;
}

/**
 * A JSONL shard written to a temporary name and renamed into place only when complete, so a
 * crash never leaves a file that looks finished. Optional gzip (deterministic: no mtime).
 */
export class ShardWriter {
  private readonly file: WriteStream;
  private readonly gzip: Gzip | null;
  private readonly hash: Hash = createHash("sha256");
  private bytes = 0;
  rows = 0;
  private failed: Error | null = null;

  constructor(
    private readonly finalPath: string,
    private readonly tmpPath: string,
    private readonly relPath: string,
    gzip: boolean,
  ) {
    this.file = createWriteStream(tmpPath);
    this.file.on("error", (e) => (this.failed = e));
    if (gzip) {
      this.gzip = createGzip({ level: 6 });
      this.gzip.on("data", (chunk: Buffer) => this.sink(chunk));
      this.gzip.on("error", (e) => (this.failed = e));
    } else {
      this.gzip = null;
    }
  }

  private sink(chunk: Buffer): boolean {
    this.hash.update(chunk);
    this.bytes += chunk.length;
    return this.file.write(chunk);
  }

  /** Append lines (each without its newline). Resolves when it is safe to write more. */
  async writeLines(lines: readonly string[]): Promise<void> {
    if (this.failed) throw this.failed;
    if (lines.length === 0) return;
    const buf = Buffer.from(lines.join("\n") + "\n", "utf8");
    this.rows += lines.length;
    if (this.gzip) {
      if (!this.gzip.write(buf)) await once(this.gzip, "drain");
    } else if (!this.sink(buf)) {
      await once(this.file, "drain");
    }
  }

  /** Flush, close and rename into place. */
  async finish(): Promise<ShardInfo> {
    if (this.gzip) {
      const ended = once(this.gzip, "end");
      this.gzip.end();
      await ended;
    }
    const closed = once(this.file, "close");
    this.file.end();
    await closed;
    if (this.failed) throw this.failed;
    renameSync(this.tmpPath, this.finalPath);
    return { path: this.relPath, rows: this.rows, bytes: this.bytes, sha256: this.hash.digest("hex") };
  }

  /**
   * Drop the temporary file (after an error). Waits for the stream to close first: a stream
   * destroyed before its file is open still creates the file.
   */
  async abort(): Promise<void> {
    this.gzip?.destroy();
    if (!this.file.closed) {
      const closed = once(this.file, "close").catch(() => undefined);
      this.file.destroy();
      await closed;
    }
    rmSync(this.tmpPath, { force: true });
  }
}
