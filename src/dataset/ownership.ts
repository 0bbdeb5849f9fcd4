/**
 * What pddl2prm can prove it wrote in an output folder. Names prove nothing (a user's
 * `config.json`, `stats.csv` or `README.md` looks like ours): a file is ours when a record
 * pddl2prm wrote says so and the file still matches it.
 *
 * - `.pddl2prm-files.json`, the ledger written when a dataset is complete: every file of the
 *   dataset with its size and sha256 (a file edited since is no longer ours);
 * - `config.json` that parses as a run's settings, completion records (`completions/NNNNN`)
 *   that parse as such, the shards they list (at their recorded sha256) and the PDDL copies of
 *   the problems they list: an unfinished dataset has no ledger yet;
 * - a card (`README.md`) byte-identical to the card of the folder's own manifest.
 *
 * No path is followed through a symbolic link, and no entry names a reserved name (reserved.ts).
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { z } from "zod";
import { UserError } from "../pddl/errors.js";
import { datasetCard } from "./card.js";
import { makeFolders, writeDatasetFile } from "./disk.js";
import { datasetRel, entryKind, HashMemo, LEDGER, plainFileHash, plainFileStat, safeRel, textHash } from "./reserved.js";
import { readConfigFile, readRankFile } from "./state-files.js";
import type { Manifest, RankRecord } from "./records.js";

export { LEDGER };

// (a path may appear more than once: while files are being rewritten, the ledger names both
// their old and their new contents, so that no kill leaves a file of pddl2prm's unproven)
const LedgerFile = z.object({
  generator: z.literal("pddl2prm"),
  files: z.array(z.object({ path: z.string().min(1), bytes: z.number().int().nonnegative(), sha256: z.string().regex(/^[0-9a-f]{64}$/) })),
});
type LedgerEntry = z.infer<typeof LedgerFile>["files"][number];

/** A plain file at `out/rel`, reached without following a link (a link could lead out of the folder). */
function isFile(out: string, rel: string): boolean {
  return safeRel(rel) && entryKind(out, rel) === "file";
}

function sizeOf(out: string, rel: string): number | null {
  if (!isFile(out, rel)) return null;
  try {
    return statSync(join(out, rel)).size;
  } catch {
    return null;
  }
}

/** The ledger of `out`: absent, pddl2prm's (a plain file that parses as a ledger), or something else under its name. */
export function ledgerState(out: string): "absent" | "ours" | "foreign" {
  const kind = entryKind(out, LEDGER);
  if (kind === "absent") return "absent";
  if (kind !== "file") return "foreign";
  try {
    return LedgerFile.safeParse(JSON.parse(readFileSync(join(out, LEDGER), "utf8"))).success ? "ours" : "foreign";
  } catch {
    return "foreign";
  }
}

/** Refuse to write the ledger over a file of that name that is not one (a user's file, or a link). */
export function checkLedgerName(out: string): void {
  if (ledgerState(out) === "foreign") {
    throw new UserError(`${join(out, LEDGER)}: is not a ledger pddl2prm wrote, and pddl2prm reserves this name for its ledger; move it away, or use another --out`);
  }
}

function readLedger(out: string): LedgerEntry[] {
  if (ledgerState(out) !== "ours") return [];
  const r = LedgerFile.safeParse(JSON.parse(readFileSync(join(out, LEDGER), "utf8")));
  return r.success ? r.data.files.filter((f) => datasetRel(f.path)) : [];
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
  const outMap = new Map<string, RankRecord>();
  if (entryKind(out, "completions") !== "dir") return outMap;
  const dir = join(out, "completions");
  for (const n of readdirSync(dir)) {
    if (!/^\d{5}$/.test(n) || !isFile(out, `completions/${n}`)) continue;
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
 * The files of `out` (relative paths, "/"-separated) that pddl2prm can prove it wrote, each with
 * its sha256: see the module comment. Lock and temporary files are not included (their own rules
 * apply), nor is anything reached through a link. With `only`, the ledger's and the records'
 * entries other than those are not examined (a shard is read whole to be hashed: a caller that
 * asks about the card need not read the shards).
 */
export function ownedHashes(out: string, only?: ReadonlySet<string>): Map<string, string> {
  const wanted = (rel: string): boolean => only === undefined || only.has(rel);
  const owned = new Map<string, string>();
  const hashes = new Map<string, string | null>();
  const hashOf = (rel: string): string | null => {
    if (!hashes.has(rel)) hashes.set(rel, plainFileHash(out, rel));
    return hashes.get(rel)!;
  };
  for (const f of readLedger(out)) {
    if (!wanted(f.path) || owned.has(f.path) || sizeOf(out, f.path) !== f.bytes) continue;
    const h = hashOf(f.path);
    if (h === f.sha256) owned.set(f.path, h);
  }
  if (owned.size > 0) owned.set(LEDGER, hashOf(LEDGER)!);
  let configHash: string | null = null;
  if (isFile(out, "config.json")) {
    try {
      configHash = readConfigFile(join(out, "config.json")).config_hash;
      owned.set("config.json", hashOf("config.json")!);
    } catch {
      // not a run's settings: not ours
    }
  }
  // a manifest of this dataset's settings (written by a version without the ledger, or mid-merge)
  let manifest: Manifest | null = null;
  if (configHash !== null && isFile(out, "manifest.json")) {
    try {
      const m = JSON.parse(readFileSync(join(out, "manifest.json"), "utf8")) as Manifest;
      if (m.generator === "pddl2prm" && m.config_hash === configHash) {
        owned.set("manifest.json", hashOf("manifest.json")!);
        manifest = m;
      }
    } catch {
      // not ours
    }
  }
  // the card of that manifest, byte for byte (the ledger that named it may be gone)
  if (manifest !== null && !owned.has("README.md") && isFile(out, "README.md")) {
    try {
      if (textHash(datasetCard(manifest)) === hashOf("README.md")) owned.set("README.md", hashOf("README.md")!);
    } catch {
      // a manifest the card cannot be drawn from: the card is not proven
    }
  }
  for (const [name, rec] of rankRecords(out)) {
    if (wanted(`completions/${name}`)) owned.set(`completions/${name}`, hashOf(`completions/${name}`)!);
    // a shard by its recorded sha256 (a same-size edit is the user's)
    for (const s of rec.shards) if (wanted(s.path) && datasetRel(s.path) && sizeOf(out, s.path) === s.bytes && hashOf(s.path) === s.sha256) owned.set(s.path, s.sha256);
    for (const p of rec.problems) {
      if (!safeRel(p.domain) || !safeRel(p.problem)) continue;
      for (const rel of pddlCopies(p.domain, p.problem)) if (wanted(rel) && !owned.has(rel) && isFile(out, rel)) owned.set(rel, hashOf(rel)!);
    }
  }
  return owned;
}

/** The files of `out` pddl2prm can prove it wrote (`ownedHashes` without the hashes). */
export function ownedFiles(out: string, only?: ReadonlySet<string>): Set<string> {
  return new Set(ownedHashes(out, only).keys());
}

/** Whether pddl2prm may write `rel` in `out`: nothing is there, or what is there is provably its own. */
export function mayReplace(out: string, rel: string, owned: ReadonlySet<string> | ReadonlyMap<string, string>): boolean {
  const kind = entryKind(out, rel);
  return kind === "absent" || (kind === "file" && owned.has(rel));
}

/**
 * The ledger entries of a complete dataset: every file the records name that exists, with its
 * size and sha256 (shards by the hashes of their completion records), and the files `written`.
 */
function ledgerEntries(out: string, written: readonly string[], memo = new HashMemo()): LedgerEntry[] {
  const files: LedgerEntry[] = [];
  const seen = new Set<string>();
  const ranks = rankRecords(out);
  const shardHash = new Map<string, { bytes: number; sha256: string }>();
  for (const rec of ranks.values()) for (const s of rec.shards) shardHash.set(s.path, { bytes: s.bytes, sha256: s.sha256 });
  // folders seen to be real folders in this pass (thousands of PDDL copies share a few)
  const dirs = new Set<string>();
  const add = (rel: string): void => {
    if (seen.has(rel) || !datasetRel(rel)) return;
    const st = plainFileStat(out, rel, dirs);
    if (st === null) return;
    seen.add(rel);
    const known = shardHash.get(rel);
    // a shard is listed by its record's hash only: a shard that no longer matches it is not ours
    if (known !== undefined) files.push({ path: rel, ...known });
    else {
      const sha256 = memo.hash(join(out, rel), st);
      if (sha256 !== null) files.push({ path: rel, bytes: Number(st.size), sha256 });
    }
  };
  add("config.json");
  for (const [name, rec] of ranks) {
    add(`completions/${name}`);
    for (const s of rec.shards) add(s.path);
    for (const p of rec.problems) for (const rel of pddlCopies(p.domain, p.problem)) add(rel);
  }
  for (const rel of written) add(rel);
  return files;
}

function putLedger(out: string, files: readonly LedgerEntry[]): void {
  checkLedgerName(out);
  writeDatasetFile(join(out, LEDGER), JSON.stringify({ generator: "pddl2prm", files }) + "\n");
}

/** Write the ledger of a complete dataset (`ledgerEntries`). */
export function writeLedger(out: string, written: readonly string[]): void {
  putLedger(out, ledgerEntries(out, written));
}

/**
 * Write the files of `texts` (relative path -> text) into the complete dataset `out` so that no
 * kill at any moment leaves a file of pddl2prm's out of its ledger: the ledger is written first
 * naming each file both as it is now (where provably ours: `keep`) and as it will be, then the
 * files, then the ledger naming them as they are. The ledger is the one commit point; a file of
 * a user's is never among `texts` (the caller checks `mayReplace`).
 */
export function commitFiles(out: string, texts: ReadonlyMap<string, string>, keep: readonly string[]): void {
  checkLedgerName(out);
  // (a file of `texts` that exists is provably ours: it is listed as it is now, too)
  // (the files not rewritten are hashed once for both ledgers)
  const memo = new HashMemo();
  const now = ledgerEntries(out, [...keep, ...texts.keys()], memo);
  const upcoming = [...texts].map(([path, text]) => ({ path, bytes: Buffer.byteLength(text), sha256: textHash(text) }));
  putLedger(out, [...now, ...upcoming]);
  for (const [rel, text] of texts) {
    try {
      makeFolders(join(out, dirname(rel)));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === undefined) throw e;
      throw new UserError(`${join(out, dirname(rel))}: cannot create the folder (${(e as NodeJS.ErrnoException).code})`);
    }
    writeDatasetFile(join(out, rel), text);
  }
  putLedger(out, ledgerEntries(out, [...keep, ...texts.keys()], memo));
}

/**
 * Add files pddl2prm is about to (re)write in a complete dataset (`stats` rewriting stats.csv or
 * drawing plots) to its ledger, keeping what the ledger proved before (`commitFiles`); without
 * a ledger (a dataset of a version before it) the files are only written.
 */
export function recordWritten(out: string, texts: ReadonlyMap<string, string>, before: ReadonlySet<string>): void {
  if (!before.has(LEDGER)) {
    for (const [rel, text] of texts) {
      makeFolders(join(out, dirname(rel)));
      writeDatasetFile(join(out, rel), text);
    }
    return;
  }
  commitFiles(out, texts, [...before].filter((r) => r !== LEDGER && !texts.has(r)));
}
