import { existsSync, mkdirSync } from "node:fs";
import { basename, dirname, join } from "node:path";
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
  /** Paths given to `add` (domain files: one per domain, written for its first problem). */
  private readonly seen = new Set<string>();
  /**
   * By folder, the names of the files this run created (for `undo`), joined by "/" in chunks of
   * `CHUNK`: no object per file. A run over 58,856 problems held 43 MB of path strings as a list;
   * a name per file as a Map key held its whole path through V8's sliced strings.
   */
  private readonly created = new Map<string, { chunks: string[]; pending: string[] }>();
  private readonly dirs = new Set<string>();
  /** Folders this run created, parents first. */
  private readonly createdDirs: string[] = [];

  constructor(private readonly out: string) {}

  /**
   * Write `text` to `rel` (relative to the folder) unless this run already added that path.
   * Throws a UserError naming the file when it cannot be written (a full disk, a folder without
   * write permission: the user's to fix).
   */
  add(rel: string, text: string): void {
    if (this.seen.has(rel)) return;
    this.seen.add(rel);
    this.write(rel, text);
  }

  /** Write `text` to `rel`, a path this run writes only once (a problem's copy): nothing is kept per file but its name for `undo`. */
  addUnique(rel: string, text: string): void {
    this.write(rel, text);
  }

  private write(rel: string, text: string): void {
    const path = join(this.out, rel);
    const dir = dirname(path);
    try {
      if (!this.dirs.has(dir)) {
        for (const d of [dirname(dir), dir]) {
          if (!this.dirs.has(d) && !existsSync(d)) this.createdDirs.push(d);
          this.dirs.add(d);
        }
        mkdirSync(dir, { recursive: true });
      }
      if (!existsSync(path)) this.noteCreated(dir, basename(path));
      writeFileAtomic(path, text);
    } catch (e) {
      const why = (e as NodeJS.ErrnoException).code ?? (e instanceof Error ? e.message : String(e));
      throw new UserError(`${path}: cannot write the PDDL copy (${why})`);
    }
  }

  private noteCreated(dir: string, name: string): void {
    let c = this.created.get(dir);
    if (c === undefined) this.created.set(dir, (c = { chunks: [], pending: [] }));
    c.pending.push(name);
    if (c.pending.length === CHUNK) {
      c.chunks.push(c.pending.join("/")); // one flat string: the names (and the paths they were cut from) are let go
      c.pending = [];
    }
  }

  /** After an error: remove what this run created (files, then the folders left empty). */
  undo(): void {
    const created: string[] = [...this.createdDirs];
    for (const [dir, c] of this.created) {
      for (const chunk of c.chunks) for (const name of chunk.split("/")) created.push(join(dir, name));
      for (const name of c.pending) created.push(join(dir, name));
    }
    undoCreated(created);
  }
}

/** Names per chunk of `PddlCopies.created`. */
const CHUNK = 512;
