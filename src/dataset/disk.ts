/**
 * Writing the files of a dataset folder: atomically (util/atomic-write.ts), and with a failure of
 * the disk (full, read-only, no permission) as a one-line error naming the file, never a stack
 * trace; the temporary file is gone either way.
 */
import { existsSync, mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { UserError } from "../pddl/errors.js";
import { writeFileAtomic } from "../util/atomic-write.js";

const WHY: Record<string, string> = {
  ENOSPC: "no space left on the disk",
  EDQUOT: "the disk quota is used up",
  EROFS: "the file system is read-only",
  EACCES: "permission denied",
  EPERM: "operation not permitted",
  EIO: "an input/output error",
  ENOTDIR: "a part of its path is a file, not a folder",
  EISDIR: "it is a folder",
};

/** The one-line reason of a file-system error ("ENOSPC: no space left on the disk"). */
export function diskReason(e: unknown): string {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === undefined) return String(e);
  return WHY[code] !== undefined ? `${code}: ${WHY[code]}` : code;
}

/** `writeFileAtomic`, with a file-system error as a UserError naming `path`. */
export function writeDatasetFile(path: string, text: string): void {
  try {
    writeFileAtomic(path, text);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === undefined) throw e;
    throw new UserError(`${path}: cannot write (${diskReason(e)})`);
  }
}

/**
 * `mkdir -p` one level at a time: Node's recursive mkdir spins forever where the kernel answers
 * ENOENT for a folder it will not create (`--out /proc/x`); here that is an error at once.
 */
export function makeFolders(path: string): void {
  const missing: string[] = [];
  let p = resolve(path);
  while (!existsSync(p)) {
    missing.push(p);
    const up = dirname(p);
    if (up === p) break;
    p = up;
  }
  for (const dir of missing.reverse()) {
    try {
      mkdirSync(dir);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
    }
  }
}
