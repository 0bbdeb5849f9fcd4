import { createHash, type Hash } from "node:crypto";
import { createWriteStream, renameSync, rmSync, type WriteStream } from "node:fs";
import { createGzip, type Gzip } from "node:zlib";
import { once } from "node:events";
import { UserError } from "../pddl/errors.js";
import { diskReason } from "./disk.js";

export interface ShardInfo {
  /** Path relative to the dataset folder. */
  path: string;
  rows: number;
  bytes: number;
  sha256: string;
}

/**
 * `lines`, each ended by "\n", UTF-8 encoded into one buffer of its own (never Node's shared
 * pool), so that a worker can transfer it to the main thread. Each line is written straight into
 * the buffer: no joined copy of the text. Into `spare` where it is large enough (a buffer the
 * main thread has written and handed back, see BufferPool); a new buffer gets a quarter more
 * room than it needs, so that it can serve larger problems when it comes back.
 */
export function encodeLines(lines: readonly string[], spare: ArrayBuffer | null = null): Uint8Array {
  let size = lines.length;
  for (const l of lines) size += l.length; // exact for ASCII text, grown below otherwise
  let buf: Buffer =
    spare !== null && spare.byteLength >= size ? Buffer.from(spare) : Buffer.allocUnsafeSlow(size === 0 ? 0 : size + (size >> 2));
  let at = 0;
  for (const line of lines) {
    if (buf.length - at < line.length + 1) buf = ensure(buf, at, Buffer.byteLength(line) + 1);
    let n = buf.write(line, at, "utf8");
    // write() stops before a character that does not fit, which only happens in the last 3 bytes
    if (buf.length - at - n < 4 && n !== Buffer.byteLength(line)) {
      buf = ensure(buf, at, Buffer.byteLength(line) + 1);
      n = buf.write(line, at, "utf8");
    }
    at += n;
    buf = ensure(buf, at, 1);
    buf[at++] = 10;
  }
  return new Uint8Array(buf.buffer, buf.byteOffset, at);
}

/** `buf`, or a copy of its first `used` bytes with room for `need` more. */
function ensure(buf: Buffer, used: number, need: number): Buffer {
  if (buf.length - used >= need) return buf;
  const bigger = Buffer.allocUnsafeSlow(Math.max(buf.length * 2, used + need));
  buf.copy(bigger, 0, 0, used);
  return bigger;
}

/**
 * Bytes a shard may hold in memory while the disk catches up. With the stream's default (16 KB)
 * nearly every problem's bytes waited for the disk, the run loop stopped taking results, and
 * the workers ran out of queued problems: about 40% of their time idle on a busy disk.
 */
const WRITE_BUFFER_BYTES = 16 << 20;

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
  /** Rejects with the first error: a wait for "drain" or "end" must not outlive a failed stream. */
  private readonly failure: Promise<never>;
  private fail!: (e: Error) => void;

  constructor(
    private readonly finalPath: string,
    private readonly tmpPath: string,
    private readonly relPath: string,
    gzip: boolean,
  ) {
    this.failure = new Promise<never>((_, reject) => (this.fail = reject));
    this.failure.catch(() => undefined); // read through `failed`; never an unhandled rejection
    const onError = (what: string) => (e: unknown) => {
      if (this.failed !== null) return;
      this.failed = this.userError(what, e);
      this.fail(this.failed);
    };
    this.file = createWriteStream(tmpPath, { highWaterMark: WRITE_BUFFER_BYTES });
    this.file.on("error", onError("cannot write"));
    if (gzip) {
      this.gzip = createGzip({ level: 6 });
      this.gzip.on("data", (chunk: Buffer) => this.sink(chunk));
      this.gzip.on("error", onError("cannot compress"));
    } else {
      this.gzip = null;
    }
  }

  /** The temporary file the shard is written to until it is finished. */
  get tempPath(): string {
    return this.tmpPath;
  }

  /** A full disk or a folder in the way is the user's to fix: a UserError naming the shard. */
  private userError(what: string, e: unknown): UserError {
    return new UserError(`${this.finalPath}: ${what} (${(e as NodeJS.ErrnoException).code !== undefined ? diskReason(e) : e instanceof Error ? e.message : String(e)})`);
  }

  private sink(chunk: Buffer, written?: () => void): boolean {
    this.hash.update(chunk);
    this.bytes += chunk.length;
    return written === undefined ? this.file.write(chunk) : this.file.write(chunk, () => written());
  }

  /**
   * Append `rows` lines already encoded (`encodeLines`); the buffer is kept until written, so the
   * caller must not reuse it before `written` is called (also after a failed write). Resolves
   * when it is safe to write more.
   */
  async writeEncoded(bytes: Uint8Array, rows: number, written?: () => void): Promise<void> {
    if (this.failed) throw this.failed;
    if (bytes.length === 0) {
      written?.();
      return;
    }
    const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
    this.rows += rows;
    if (this.gzip) {
      // zlib has consumed the chunk when its write callback runs
      const more = written === undefined ? this.gzip.write(buf) : this.gzip.write(buf, () => written());
      if (!more) await Promise.race([once(this.gzip, "drain"), this.failure]);
    } else if (!this.sink(buf, written)) {
      await Promise.race([once(this.file, "drain"), this.failure]);
    }
  }

  /** Flush, close and rename into place. */
  async finish(): Promise<ShardInfo> {
    if (this.failed) throw this.failed;
    if (this.gzip) {
      const ended = once(this.gzip, "end");
      this.gzip.end();
      await Promise.race([ended, this.failure]);
    }
    if (!this.file.closed) {
      const closed = once(this.file, "close").catch(() => undefined);
      this.file.end();
      await closed;
    }
    if (this.failed) throw this.failed;
    try {
      renameSync(this.tmpPath, this.finalPath);
    } catch (e) {
      throw this.userError("cannot move the finished shard into place", e);
    }
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
