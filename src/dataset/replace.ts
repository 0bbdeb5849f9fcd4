/**
 * `--force` replaces a dataset without a moment in which neither the old nor the new one is
 * there: the new run writes into a staging folder inside the output folder, and only a complete
 * new dataset is swapped in.
 *
 * The swap: every check and every folder the new files need are done first (nothing changes
 * yet, and a full disk or a file of a user's in the way stops it with the old dataset intact);
 * then the journal is written, whole and atomically: the commit point. After it, only renames
 * and unlinks happen (they need no new space): each new file renamed over its old one, the old
 * files the new dataset does not have removed, then the journal. Whatever stops it, the next run
 * rolls the journal forward.
 *
 * The journal, like every file in the folder, is untrusted input (a dataset downloaded from
 * someone else): every path in it must stay inside the folder without passing through a link and
 * avoid the reserved names, every file it moves or removes must be a plain file with the sha256
 * it records, and a file it would replace must be one the old dataset's ledger proved. A journal
 * that fails any check is refused before anything moves. Files that are not pddl2prm's are never
 * moved, replaced or deleted.
 */
import { closeSync, fsyncSync, linkSync, openSync, readdirSync, readFileSync, renameSync, rmdirSync, rmSync, unlinkSync, writeSync } from "node:fs";
import { dirname, join } from "node:path";
import { z } from "zod";
import { UserError } from "../pddl/errors.js";
import { tempName } from "../util/atomic-write.js";
import { readConfigFile } from "./state-files.js";
import { ownedHashes } from "./ownership.js";
import { datasetRel, entryKind, JOURNAL, LEDGER, LOCK_NAME, plainFileHash, reservedName, STAGE } from "./reserved.js";
import { diskReason, makeFolders } from "./disk.js";

export { JOURNAL, reservedName, STAGE };

/** Files the new dataset may leave out where a user's file of that name is kept: the card, the stats, the plots. */
const OPTIONAL = /^(README\.md|stats\.csv|plots\/[a-z-]+\.svg)$/;

const Entry = z.object({ path: z.string().min(1), sha256: z.string().regex(/^[0-9a-f]{64}$/) });
// (`drop`: files of the new dataset left in the stage where a user's file is kept, removed with the stage)
const Journal = z.object({ generator: z.literal("pddl2prm"), old: z.array(Entry), new: z.array(Entry), drop: z.array(Entry) });
type JournalData = z.infer<typeof Journal>;
/** The journal of the versions before: paths only. */
const OldJournal = z.object({ old: z.array(z.string()), new: z.array(z.string()) });

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** A path the journal may name: a dataset file inside the folder, or the ledger (swapped with the files it proves). */
const journalRel = (rel: string): boolean => rel === LEDGER || datasetRel(rel);

/** Names a pddl2prm staging folder holds at its top (besides locks and temporary files). */
const STAGE_NAMES = new Set(["config.json", "manifest.json", "README.md", "stats.csv", LEDGER, "data", "completions", "pddl", "plots"]);

/**
 * Refuse a staging folder that is not pddl2prm's: a link, a file, or a folder holding anything a
 * stage of pddl2prm's does not (a user's folder of that name is never written into or removed).
 */
export function checkStage(out: string): void {
  const kind = entryKind(out, STAGE);
  if (kind === "absent") return;
  const stage = join(out, STAGE);
  const reserved = `pddl2prm reserves this name for the dataset a --force run makes; move it away, or use another --out`;
  if (kind !== "dir") throw new UserError(`${stage}: is ${kind === "link" ? "a symbolic link" : "not a folder"}; ${reserved}`);
  const names = readdirSync(stage).filter((n) => !LOCK_NAME.test(n) && !/\.tmp-\d+$/.test(n));
  const foreign = names.find((n) => !STAGE_NAMES.has(n));
  if (foreign !== undefined) throw new UserError(`${stage}: holds ${foreign}, which no pddl2prm run puts there; ${reserved}`);
  if (names.length === 0) return;
  let ok = entryKind(out, `${STAGE}/config.json`) === "file";
  if (ok) {
    try {
      readConfigFile(join(stage, "config.json"));
    } catch {
      ok = false;
    }
  }
  // (a stage without its settings cannot be told from a user's folder: a run of pddl2prm writes config.json first)
  if (!ok) throw new UserError(`${stage}: has no config.json of pddl2prm's; ${reserved}`);
}

/** Refuse a journal name that holds something other than a file (a link, a folder). */
function journalKind(out: string): "absent" | "file" {
  const kind = entryKind(out, JOURNAL);
  if (kind === "absent" || kind === "file") return kind;
  throw new UserError(`${join(out, JOURNAL)}: is ${kind === "link" ? "a symbolic link" : kind === "dir" ? "a folder" : "not a file"}; pddl2prm reserves this name for its swap journal and has not swapped anything: move it away and run again`);
}

/** Write the journal whole or not at all: a temporary file, synced, then linked in (fails if one is there). */
function writeJournal(out: string, j: JournalData): "written" | "exists" {
  const path = join(out, JOURNAL);
  const tmp = tempName(path);
  try {
    const fd = openSync(tmp, "w");
    try {
      writeSync(fd, JSON.stringify(j) + "\n");
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    linkSync(tmp, path);
    return "written";
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "EEXIST") return "exists";
    throw e;
  } finally {
    rmSync(tmp, { force: true });
  }
}

/**
 * Swap the complete dataset in `out/STAGE` into `out`. Throws a UserError, leaving both datasets
 * as they are, when a file of the new dataset would replace a file that is not pddl2prm's
 * (other than the card, stats and plots, which then stay the user's). Returns the user's files
 * kept in place of the new dataset's card, stats or plots.
 */
export function swapIn(out: string, reproduced: ReadonlyMap<string, string> = new Map()): string[] {
  const stage = join(out, STAGE);
  checkStage(out);
  if (journalKind(out) === "file") {
    finishSwap(out); // another rank is swapping, or was stopped doing it
    return [];
  }
  // (and the card, stats and plots that are what pddl2prm writes from the old records: `reproduced`)
  const old = ownedHashes(out);
  for (const [rel, h] of reproduced) if (!old.has(rel) && plainFileHash(out, rel) === h) old.set(rel, h);
  const incoming = ownedHashes(stage);
  const j: JournalData = { generator: "pddl2prm", old: [], new: [], drop: [] };
  for (const [path, sha256] of [...old].sort()) if (journalRel(path)) j.old.push({ path, sha256 });
  const kept: string[] = [];
  for (const [path, sha256] of [...incoming].sort()) {
    if (!journalRel(path)) continue;
    const kind = entryKind(out, path);
    if (kind === "absent" || (kind === "file" && old.has(path))) {
      j.new.push({ path, sha256 });
      continue;
    }
    if (kind === "file" && OPTIONAL.test(path)) {
      // the user's file stays; the new one is dropped with the stage
      j.drop.push({ path, sha256 });
      kept.push(path);
      continue;
    }
    throw new UserError(`--force: ${join(out, path)} is not a file pddl2prm wrote, and the new dataset has a file of that name; move it away and run again (the new dataset waits, complete, in ${stage})`);
  }
  // the folders the new files go into, made before the commit point: after it, nothing needs new space
  const made: string[] = [];
  try {
    for (const e of j.new) {
      const dir = dirname(e.path);
      if (dir === "." || entryKind(out, dir) === "dir") continue;
      if (entryKind(out, dir) !== "absent") throw new UserError(`--force: ${join(out, dir)} is not a folder of pddl2prm's; move it away and run again (the new dataset waits, complete, in ${stage})`);
      for (let d = dir; d !== "." && entryKind(out, d) === "absent"; d = dirname(d)) made.push(join(out, d));
      makeFolders(join(out, dir));
    }
    if (writeJournal(out, j) === "exists") {
      finishSwap(out); // another rank wrote its journal first: that swap is this one
      return [];
    }
  } catch (e) {
    for (const d of made.sort((a, b) => b.length - a.length)) {
      try {
        rmdirSync(d);
      } catch {
        // not empty, or gone: not ours to force
      }
    }
    if (e instanceof UserError || (e as NodeJS.ErrnoException).code === undefined) throw e;
    throw new UserError(`${join(out, JOURNAL)}: cannot write the swap journal (${diskReason(e)}); the old dataset is as it was and the new one waits, complete, in ${stage}: run again to swap it in`);
  }
  finishSwap(out);
  return kept;
}

/** Read and check the journal of `out` (see the module comment), or null when there is none. */
function readJournal(out: string): JournalData | null {
  if (journalKind(out) === "absent") return null;
  const journal = join(out, JOURNAL);
  const text = readFileSync(journal, "utf8");
  // An empty journal is the cut-off write of a version that wrote it in place: no file moves
  // before the journal is complete, so nothing was swapped and nothing is lost with it.
  if (text === "") {
    rmSync(journal);
    return null;
  }
  let j: JournalData;
  try {
    j = Journal.parse(JSON.parse(text));
  } catch {
    if (OldJournal.safeParse(safeJson(text)).success) {
      throw new UserError(`${journal}: the journal of a swap by an earlier version of pddl2prm; finish it with that version (run the same command with it again)`);
    }
    throw new UserError(`${journal}: not a swap journal pddl2prm wrote (it writes its journal whole, at once); nothing was swapped by it: move it away and run again`);
  }
  const bad = (why: string): never => {
    throw new UserError(`${journal}: ${why}; pddl2prm moved nothing: move the journal away and run again`);
  };
  const seen = new Set<string>();
  for (const e of [...j.old, ...j.new, ...j.drop]) if (!journalRel(e.path)) bad(`names ${JSON.stringify(e.path)}, not a dataset file inside the folder`);
  for (const e of [...j.new, ...j.drop]) {
    if (seen.has(e.path)) bad(`names ${e.path} twice`);
    seen.add(e.path);
  }
  return j;
}

/** Roll an interrupted swap forward (nothing to do without a journal). */
export function finishSwap(out: string): void {
  const j = readJournal(out);
  if (j === null) return;
  const journal = join(out, JOURNAL);
  const stage = join(out, STAGE);
  const oldHash = new Map(j.old.map((e) => [e.path, e.sha256]));
  const refuse = (why: string): never => {
    throw new UserError(`${journal}: ${why}; pddl2prm does not move or remove a file it cannot prove it wrote: move that file away and run again`);
  };
  // Every check first: a journal that would touch anything not proven ours moves nothing.
  const moves: [string, string][] = [];
  for (const e of j.new) {
    const inStage = plainFileHash(stage, e.path);
    const inPlace = entryKind(out, e.path);
    const placeHash = inPlace === "file" ? plainFileHash(out, e.path) : null;
    if (inStage === null) {
      if (placeHash === e.sha256) continue; // moved by an earlier try
      if (entryKind(stage, e.path) !== "absent") refuse(`${join(stage, e.path)} is not a plain file`);
      refuse(`${join(out, e.path)}: neither in ${stage} nor in place with the sha256 the journal records`);
    }
    if (inStage !== e.sha256) refuse(`${join(stage, e.path)} does not have the sha256 the journal records`);
    if (inPlace !== "absent" && (placeHash === null || oldHash.get(e.path) !== placeHash)) refuse(`${join(out, e.path)} would be replaced, and it is not the old dataset's file the journal records`);
    const dir = dirname(e.path);
    if (dir !== "." && !["dir", "absent"].includes(entryKind(out, dir))) refuse(`${join(out, dir)} is not a folder`);
    moves.push([join(stage, e.path), join(out, e.path)]);
  }
  const incoming = new Set(j.new.map((e) => e.path));
  const removals: string[] = [];
  for (const e of j.old) {
    if (incoming.has(e.path)) continue;
    // an old file the new dataset does not have: removed only as the journal records it
    if (plainFileHash(out, e.path) === e.sha256) removals.push(join(out, e.path));
  }
  for (const e of j.drop) if (plainFileHash(stage, e.path) === e.sha256) removals.push(join(stage, e.path));
  try {
    for (const [from, to] of moves) {
      makeFolders(dirname(to)); // made before the commit point; again only after a kill in between
      try {
        renameSync(from, to);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e; // ENOENT: another rank moved it
      }
    }
    for (const p of removals) rmSync(p, { force: true });
    // the stage's lock files (of ranks that are done) and the folders the old files and the stage left empty
    for (const n of entryKind(out, STAGE) === "dir" ? readdirSync(stage) : []) if (LOCK_NAME.test(n)) rmSync(join(stage, n), { force: true });
    const dirs = new Set<string>();
    for (const e of [...j.old, ...j.new, ...j.drop]) {
      for (let d = dirname(e.path); d !== "."; d = dirname(d)) {
        dirs.add(d);
        dirs.add(`${STAGE}/${d}`);
      }
    }
    dirs.add(STAGE);
    for (const d of [...dirs].sort((a, b) => b.length - a.length)) {
      if (entryKind(out, d) === "dir" && readdirSync(join(out, d)).length === 0) rmdirSync(join(out, d));
    }
    unlinkSync(journal);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === undefined) throw e;
    throw new UserError(`${journal}: the swap stopped (${diskReason(e)}); the new dataset is complete and the journal records the rest: run again to finish it`);
  }
}
