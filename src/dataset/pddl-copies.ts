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
  /**
   * By folder, the files added so far and whether this run created each. Names by folder, not
   * whole paths in a list: a run over 58,856 problems held 43 MB of path strings otherwise.
   */
  private readonly files = new Map<string, Map<string, boolean>>();
  private readonly dirs = new Set<string>();
  /** Folders this run created, parents first. */
  private readonly createdDirs: string[] = [];

  constructor(private readonly out: string) {}

  /**
   * Write `text` to `rel` (relative to the folder) unless this run already wrote that file.
   * Throws a UserError naming the file when it cannot be written (a full disk, a folder without
   * write permission: the user's to fix).
   */
  add(rel: string, text: string): void {
    const path = join(this.out, rel);
    const dir = dirname(path);
    const name = basename(path);
    let names = this.files.get(dir);
    if (names?.has(name)) return;
    if (names === undefined) this.files.set(dir, (names = new Map()));
    names.set(name, false);
    try {
      if (!this.dirs.has(dir)) {
        for (const d of [dirname(dir), dir]) {
          if (!this.dirs.has(d) && !existsSync(d)) this.createdDirs.push(d);
          this.dirs.add(d);
        }
        mkdirSync(dir, { recursive: true });
      }
      if (!existsSync(path)) names.set(name, true);
      writeFileAtomic(path, text);
    } catch (e) {
      const why = (e as NodeJS.ErrnoException).code ?? (e instanceof Error ? e.message : String(e));
      throw new UserError(`${path}: cannot write the PDDL copy (${why})`);
    }
  }

  /** After an error: remove what this run created (files, then the folders left empty). */
  undo(): void {
    const created: string[] = [...this.createdDirs];
    for (const [dir, names] of this.files) for (const [name, mine] of names) if (mine) created.push(join(dir, name));
    undoCreated(created);
  }
}
