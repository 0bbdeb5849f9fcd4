/**
 * What pddl2prm can prove it wrote in an output folder. Names prove nothing (a user's
 * `config.json`, `stats.csv` or `README.md` looks like ours): a file is ours when a record
 * pddl2prm wrote says so and the file still matches it.
 *
 * - `.pddl2prm-files.json`, the ledger written when a dataset is complete: every file of the
 *   dataset with its size and sha256 (a file edited since is no longer ours);
 * - `config.json` that parses as a run's settings, completion records (`completions/NNNNN`)
 *   that parse as such, the shards they list (at their recorded size) and the PDDL copies of
 *   the problems they list: an unfinished dataset has no ledger yet.
 */
import { createHash } from "node:crypto";
import { existsSync, lstatSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { writeDatasetFile } from "./disk.js";
import { readConfigFile, readRankFile } from "./state-files.js";
import type { RankRecord } from "./records.js";

/** The ledger's name in a dataset folder. */
export const LEDGER = ".pddl2prm-files.json";

const LedgerFile = z.object({
  generator: z.literal("pddl2prm"),
  files: z.array(z.object({ path: z.string().min(1), bytes: z.number().int().nonnegative(), sha256: z.string().regex(/^[0-9a-f]{64}$/) })),
});
type LedgerEntry = z.infer<typeof LedgerFile>["files"][number];

function isFile(path: string): boolean {
  try {
    return lstatSync(path).isFile();
  } catch {
    return false;
  }
}

function sizeOf(path: string): number | null {
  try {
    const s = lstatSync(path);
    return s.isFile() ? s.size : null;
  } catch {
    return null;
  }
}

function sha256Of(path: string): string {
  return createHash("sha256").update(readFileSync(path)).digest("hex");
}

/** A path inside the folder as the records write it: relative, forward slashes, no "..". */
function safeRel(rel: string): boolean {
  return !rel.startsWith("/") && !rel.split("/").some((p) => p === ".." || p === "" || p === ".");
}

function readLedger(out: string): LedgerEntry[] {
  try {
    const r = LedgerFile.safeParse(JSON.parse(readFileSync(join(out, LEDGER), "utf8")));
    return r.success ? r.data.files.filter((f) => safeRel(f.path)) : [];
  } catch {
    return [];
  }
}

function safeRank(path: string): RankRecord | null {
  try {
    return readRankFile(path);
  } catch {
    return null;
  }
}

/** The completion records of `out` that parse, by file name. */
function rankRecords(out: string): Map<string, RankRecord> {
  const dir = join(out, "completions");
  const outMap = new Map<string, RankRecord>();
  let names: string[] = [];
  try {
    names = statSync(dir).isDirectory() ? readdirSync(dir) : [];
  } catch {
    names = [];
  }
  for (const n of names) {
    if (!/^\d{5}$/.test(n) || !isFile(join(dir, n))) continue;
    const r = safeRank(join(dir, n));
    if (r !== null) outMap.set(n, r);
  }
  return outMap;
}

/** The PDDL copies a problem's record names (its problem file, and its domain file either way). */
function pddlCopies(domain: string, problem: string): string[] {
  return [`pddl/${domain}/${problem}.pddl`, `pddl/${domain}/domain.pddl`, `pddl/${domain}/${problem}.domain.pddl`];
}

/**
 * The files of `out` (relative paths, "/"-separated) that pddl2prm can prove it wrote: see the
 * module comment. Lock and temporary files are not included (their own rules apply).
 */
export function ownedFiles(out: string): Set<string> {
  const owned = new Set<string>();
  for (const f of readLedger(out)) {
    const p = join(out, f.path);
    if (sizeOf(p) === f.bytes && sha256Of(p) === f.sha256) owned.add(f.path);
  }
  if (owned.size > 0) owned.add(LEDGER);
  if (isFile(join(out, "config.json"))) {
    try {
      readConfigFile(join(out, "config.json"));
      owned.add("config.json");
    } catch {
      // not a run's settings: not ours
    }
  }
  // a manifest of this dataset's settings (written by a version without the ledger, or mid-merge)
  if (owned.has("config.json") && isFile(join(out, "manifest.json"))) {
    try {
      const m = JSON.parse(readFileSync(join(out, "manifest.json"), "utf8")) as { generator?: unknown; config_hash?: unknown };
      if (m.generator === "pddl2prm" && m.config_hash === readConfigFile(join(out, "config.json")).config_hash) owned.add("manifest.json");
    } catch {
      // not ours
    }
  }
  for (const [name, rec] of rankRecords(out)) {
    owned.add(`completions/${name}`);
    for (const s of rec.shards) if (safeRel(s.path) && sizeOf(join(out, s.path)) === s.bytes) owned.add(s.path);
    for (const p of rec.problems) {
      if (!safeRel(p.domain) || !safeRel(p.problem)) continue;
      for (const rel of pddlCopies(p.domain, p.problem)) if (isFile(join(out, rel))) owned.add(rel);
    }
  }
  return owned;
}

/** Whether pddl2prm may write `rel` in `out`: nothing is there, or what is there is provably its own. */
export function mayReplace(out: string, rel: string, owned: ReadonlySet<string>): boolean {
  return !existsSync(join(out, rel)) || owned.has(rel);
}

/**
 * Write the ledger of a complete dataset: every file the records name that exists, with its
 * size and sha256 (shards' hashes come from their completion records).
 */
export function writeLedger(out: string, written: readonly string[]): void {
  const files: LedgerEntry[] = [];
  const seen = new Set<string>();
  const shardHash = new Map<string, { bytes: number; sha256: string }>();
  for (const rec of rankRecords(out).values()) for (const s of rec.shards) shardHash.set(s.path, { bytes: s.bytes, sha256: s.sha256 });
  const add = (rel: string): void => {
    if (seen.has(rel) || !safeRel(rel) || !isFile(join(out, rel))) return;
    seen.add(rel);
    const known = shardHash.get(rel);
    const bytes = sizeOf(join(out, rel))!;
    files.push(known !== undefined && known.bytes === bytes ? { path: rel, ...known } : { path: rel, bytes, sha256: sha256Of(join(out, rel)) });
  };
  add("config.json");
  for (const [name, rec] of rankRecords(out)) {
    add(`completions/${name}`);
    for (const s of rec.shards) add(s.path);
    for (const p of rec.problems) for (const rel of pddlCopies(p.domain, p.problem)) add(rel);
  }
  for (const rel of written) add(rel);
  writeDatasetFile(join(out, LEDGER), JSON.stringify({ generator: "pddl2prm", files }) + "\n");
}

/**
 * Add files pddl2prm has just (re)written in a complete dataset (`stats` rewriting stats.csv or
 * drawing plots) to its ledger, keeping what the ledger proved before.
 */
export function recordWritten(out: string, rels: readonly string[], before: ReadonlySet<string>): void {
  if (!before.has(LEDGER)) return; // no ledger yet: the merge writes it
  writeLedger(out, [...[...before].filter((r) => r !== LEDGER), ...rels]);
}
