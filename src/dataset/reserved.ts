/**
 * The names pddl2prm reserves inside an output folder, and how a path inside the folder is
 * checked before pddl2prm reads, moves or deletes what is there. Every file in the folder is
 * untrusted input (a dataset downloaded from someone else, or a name clash): a path is followed
 * only when it stays inside the folder without passing through a symbolic link.
 */
import { createHash } from "node:crypto";
import { closeSync, lstatSync, openSync, readSync, type BigIntStats } from "node:fs";
import { join } from "node:path";
import { TEMP_NAME } from "../util/atomic-write.js";

/** Where a forced run writes the new dataset, inside the output folder. */
export const STAGE = ".pddl2prm-next";
/** The swap's journal: written (whole, atomically) at the swap's commit point. */
export const JOURNAL = ".pddl2prm-swap.json";
/** The ledger: the files of a complete dataset with their sha256. */
export const LEDGER = ".pddl2prm-files.json";
/** Names of lock files (any rank). */
export const LOCK_NAME = /^\.pddl2prm-lock-\d{5}$/;

/** Whether a top-level name is one pddl2prm reserves (the stage, the journal, the ledger, their temporary files). */
export function reservedName(name: string): boolean {
  const base = name.replace(TEMP_NAME, "");
  return base === STAGE || base === JOURNAL || base === LEDGER;
}

/** A path inside the folder as the records write it: relative, forward slashes, no "..", ".", "" parts. */
export function safeRel(rel: string): boolean {
  return rel.length > 0 && !rel.startsWith("/") && !rel.includes("\\") && !rel.includes("\0") && !rel.split("/").some((p) => p === ".." || p === "" || p === ".");
}

/** What is at `out/rel`, looked at without following any link on the way (`out` itself may be a link). */
export type EntryKind = "file" | "dir" | "absent" | "link" | "other";

export function entryKind(out: string, rel: string): EntryKind {
  const parts = rel.split("/");
  let p = out;
  for (let i = 0; i < parts.length; i++) {
    p = join(p, parts[i]!);
    let s;
    try {
      s = lstatSync(p);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === "ENOENT") return "absent";
      if (code === "ENOTDIR") return "other";
      throw e;
    }
    if (s.isSymbolicLink()) return "link";
    if (i < parts.length - 1) {
      if (!s.isDirectory()) return "other";
      continue;
    }
    return s.isFile() ? "file" : s.isDirectory() ? "dir" : "other";
  }
  return "other";
}

/**
 * The lstat of the plain file `out/rel` reached without following a link (as `entryKind`), or
 * null. `dirs` holds the folders on the way already seen to be real folders (one pass over many
 * files of a folder: one lstat per file, not one per part of its path).
 */
export function plainFileStat(out: string, rel: string, dirs: Set<string>): BigIntStats | null {
  if (!safeRel(rel)) return null;
  const parts = rel.split("/");
  let p = out;
  let at = "";
  try {
    for (let i = 0; i < parts.length - 1; i++) {
      p = join(p, parts[i]!);
      at = at === "" ? parts[i]! : `${at}/${parts[i]!}`;
      if (dirs.has(at)) continue;
      const s = lstatSync(p);
      if (s.isSymbolicLink() || !s.isDirectory()) return null;
      dirs.add(at);
    }
    const s = lstatSync(join(p, parts[parts.length - 1]!), { bigint: true });
    return s.isFile() ? s : null;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return null;
    throw e;
  }
}

/**
 * sha256 of files by identity (device, inode, size, modification and change times in ns), as
 * git's index does: one pass that reads a folder twice hashes each unchanged file once.
 */
export class HashMemo {
  private readonly byPath = new Map<string, { id: string; sha256: string }>();
  /** sha256 of `path`, whose lstat is `st` (null when it cannot be read). */
  hash(path: string, st: BigIntStats): string | null {
    const id = `${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`;
    const m = this.byPath.get(path);
    if (m !== undefined && m.id === id) return m.sha256;
    try {
      const sha256 = fileHash(path);
      this.byPath.set(path, { id, sha256 });
      return sha256;
    } catch {
      return null;
    }
  }
}

/** Whether `rel` names a path pddl2prm may treat as a dataset file: safe, not a reserved or lock name at the top. */
export function datasetRel(rel: string): boolean {
  if (!safeRel(rel)) return false;
  const top = rel.split("/")[0]!;
  return !reservedName(top) && !LOCK_NAME.test(top) && !top.startsWith(".pddl2prm-lock-");
}

/** sha256 of the plain file `out/rel` (no link on the way), or null when it is not one. */
export function plainFileHash(out: string, rel: string): string | null {
  if (!safeRel(rel) || entryKind(out, rel) !== "file") return null;
  try {
    return fileHash(join(out, rel));
  } catch {
    return null;
  }
}

// Read in chunks: a shard can be gigabytes (a whole read held it in memory: +250 MiB of peak RSS
// on the main job's 258 MB train shard, and fails past 2 GiB).
const HASH_CHUNK = 1 << 20;

/** sha256 of a file, read in 1 MiB chunks. */
export function fileHash(path: string): string {
  const h = createHash("sha256");
  const buf = Buffer.allocUnsafe(HASH_CHUNK);
  const fd = openSync(path, "r");
  try {
    for (let n = readSync(fd, buf, 0, HASH_CHUNK, null); n > 0; n = readSync(fd, buf, 0, HASH_CHUNK, null)) h.update(buf.subarray(0, n));
  } finally {
    closeSync(fd);
  }
  return h.digest("hex");
}

/** sha256 of a text as it is written to disk (UTF-8). */
export function textHash(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}
