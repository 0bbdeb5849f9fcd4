import { existsSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { writeFileAtomic } from "../util/atomic-write.js";
import { UserError } from "../pddl/errors.js";
import { undoCreated } from "./output-folder.js";

/**
 * The PDDL copies of a dataset folder (`pddl/<domain>/...`), each written as its problem's rows
 * arrive, to a temporary name and renamed into place. Written at once, on this thread: four
 * system calls per file cost less than handing them to libuv's threads (14,714 files: 0.8 s of
 * CPU against 2.6-3.3 s with fs/promises, which also took 1.1-1.4 s of the main thread; the
 * workers have queued problems meanwhile). Written one by one at the end instead, they held
 * the main thread for 1-10 s while the workers sat idle. A run that fails calls `undo`, which
 * removes the files and folders that did not exist before.
 */
export class PddlCopies {
  private readonly seen = new Set<string>();
  private readonly dirs = new Set<string>();
  /** Folders and files this run created, folders first. */
  private readonly created: string[] = [];

  constructor(private readonly out: string) {}

  /**
   * Write `text` to `rel` (relative to the folder) unless this run already wrote that file.
   * Throws a UserError naming the file when it cannot be written (a full disk, a folder without
   * write permission: the user's to fix).
   */
  add(rel: string, text: string): void {
    if (this.seen.has(rel)) return;
    this.seen.add(rel);
    const path = join(this.out, rel);
    const dir = dirname(path);
    try {
      if (!this.dirs.has(dir)) {
        // folders first in `created`, so that undoing removes their files before them
        for (const d of [dirname(dir), dir]) {
          if (!this.dirs.has(d) && !existsSync(d)) this.created.push(d);
          this.dirs.add(d);
        }
        mkdirSync(dir, { recursive: true });
      }
      if (!existsSync(path)) this.created.push(path);
      writeFileAtomic(path, text);
    } catch (e) {
      const why = (e as NodeJS.ErrnoException).code ?? (e instanceof Error ? e.message : String(e));
      throw new UserError(`${path}: cannot write the PDDL copy (${why})`);
    }
  }

  /** After an error: remove what this run created. */
  undo(): void {
    undoCreated(this.created);
  }
}
