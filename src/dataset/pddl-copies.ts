import { existsSync } from "node:fs";
import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { tempName } from "../util/atomic-write.js";
import { UserError } from "../pddl/errors.js";
import { undoCreated } from "./output-folder.js";

/** Copies written at once; more wait in a queue (their texts are kept until written). */
const CONCURRENCY = 8;

/**
 * The PDDL copies of a dataset folder (`pddl/<domain>/...`), written while the run labels, on
 * libuv's threads: written one by one at the end, 14,714 small files held the main thread for
 * 1-10 s while the workers sat idle. Each file goes to a temporary name and is renamed into
 * place. A run that fails calls `undo`, which removes the files and folders that did not exist
 * before.
 */
export class PddlCopies {
  private readonly seen = new Set<string>();
  private readonly dirs = new Set<string>();
  private readonly queue: Array<[string, string]> = [];
  private inflight = 0;
  private failed: unknown = null;
  private idle: (() => void) | null = null;
  /** Folders and files this run created, folders first. */
  private readonly created: string[] = [];

  constructor(private readonly out: string) {}

  /** Write `text` to `rel` (relative to the folder) unless this run already wrote that file. */
  add(rel: string, text: string): void {
    if (this.seen.has(rel)) return;
    this.seen.add(rel);
    const path = join(this.out, rel);
    const dir = dirname(path);
    if (!this.dirs.has(dir)) {
      // folders first in `created`, so that undoing removes their files before them
      for (const d of [dirname(dir), dir]) {
        if (!this.dirs.has(d) && !existsSync(d)) this.created.push(d);
        this.dirs.add(d);
      }
    }
    if (!existsSync(path)) this.created.push(path);
    this.queue.push([path, text]);
    this.pump();
  }

  private pump(): void {
    while (this.inflight < CONCURRENCY && this.queue.length > 0) {
      const [path, text] = this.queue.shift()!;
      this.inflight++;
      void this.write(path, text).finally(() => {
        this.inflight--;
        this.pump();
        if (this.inflight === 0 && this.queue.length === 0) this.idle?.();
      });
    }
  }

  private async write(path: string, text: string): Promise<void> {
    if (this.failed !== null) return;
    const tmp = tempName(path);
    try {
      await mkdir(dirname(path), { recursive: true });
      await writeFile(tmp, text);
      await rename(tmp, path);
    } catch (e) {
      // a full disk or a folder without write permission is the user's to fix: name the file
      const why = (e as NodeJS.ErrnoException).code ?? (e instanceof Error ? e.message : String(e));
      this.failed ??= new UserError(`${path}: cannot write the PDDL copy (${why})`);
      await rm(tmp, { force: true }).catch(() => undefined);
    }
  }

  /** Wait until every queued copy is written; throws the first write error (a UserError naming the file). */
  async finish(): Promise<void> {
    if (this.inflight > 0 || this.queue.length > 0) await new Promise<void>((r) => (this.idle = r));
    this.idle = null;
    if (this.failed !== null) throw this.failed;
  }

  /** After an error: drop the queued copies, wait for those in progress, remove what this run created. */
  async undo(): Promise<void> {
    this.queue.length = 0;
    if (this.inflight > 0) await new Promise<void>((r) => (this.idle = r));
    this.idle = null;
    undoCreated(this.created);
  }
}
