/** Writing a file so that no reader ever sees it half-written. */
import { renameSync, rmSync, writeFileSync } from "node:fs";

/** The temporary name `writeFileAtomic` uses for `path`: `<path>.tmp-<pid>`. */
export function tempName(path: string): string {
  return `${path}.tmp-${process.pid}`;
}

/** Matches the temporary names of `tempName` (and of shards written under one). */
export const TEMP_NAME = /\.tmp-\d+$/;

/**
 * Write `text` to a temporary name beside `path`, then rename it into place (atomic on one file
 * system; a symbolic link at `path` is replaced, never written through). On failure the
 * temporary file is removed.
 */
export function writeFileAtomic(path: string, text: string): void {
  const tmp = tempName(path);
  try {
    writeFileSync(tmp, text);
    renameSync(tmp, path);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
}
