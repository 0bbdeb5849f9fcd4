/**
 * What pddl2prm owns in an output folder, and the rules for touching it: no symbolic links
 * inside it, temporary files removed, `--force` removing only its own files, and a failed run
 * undoing what it created.
 */
import { existsSync, lstatSync, readdirSync, rmdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { UserError } from "../pddl/errors.js";
import { TEMP_NAME } from "../util/atomic-write.js";
import { LOCK_NAME } from "./lock.js";
import { reservedName } from "./reserved.js";

const pad5 = (n: number) => String(n).padStart(5, "0");
const TMP = "(\\.tmp-\\d+)?";
const SHARD = new RegExp(`^(train|validation|test)-\\d{5}-of-\\d{5}\\.(jsonl(\\.gz)?|parquet)${TMP}$`);
const MARKER = new RegExp(`^\\d{5}${TMP}$`);
const PDDL = new RegExp(`\\.pddl${TMP}$`);
const TOP = new RegExp(`^(config\\.json|manifest\\.json|stats\\.csv)${TMP}$`);
const CARD = new RegExp(`^README\\.md${TMP}$`);
const PLOT = new RegExp(`^[a-z-]+\\.svg${TMP}$`);

/** Entries of a folder, or none when it does not exist or is not a folder. */
function entries(dir: string): string[] {
  try {
    return statSync(dir).isDirectory() ? readdirSync(dir) : [];
  } catch {
    return [];
  }
}

function isFile(path: string): boolean {
  try {
    return lstatSync(path).isFile();
  } catch {
    return false;
  }
}

function isLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

/**
 * Throw a UserError when anything pddl2prm reads or writes inside `out` is a symbolic link: it
 * would write (or delete, with --force) somewhere else. `out` itself may be a link.
 */
export function refuseLinks(out: string): void {
  const check = (rel: string): void => {
    if (isLink(join(out, rel))) {
      throw new UserError(`${join(out, rel)}: is a symbolic link; pddl2prm does not follow links inside its output folder (remove it, or use another --out)`);
    }
  };
  for (const n of entries(out)) if (TOP.test(n) || CARD.test(n) || LOCK_NAME.test(n) || reservedName(n) || ["data", "completions", "pddl", "plots"].includes(n)) check(n);
  for (const d of ["data", "completions", "plots"]) if (!isLink(join(out, d))) for (const n of entries(join(out, d))) check(join(d, n));
  if (!isLink(join(out, "pddl"))) {
    for (const d of entries(join(out, "pddl"))) {
      check(join("pddl", d));
      for (const n of entries(join(out, "pddl", d))) check(join("pddl", d, n));
    }
  }
}

/** Whether the temporary name `name` (`*.tmp-PID`) is of a process that no longer runs here. */
function staleTemp(name: string): boolean {
  const m = /\.tmp-(\d+)$/.exec(name);
  if (m === null || Number(m[1]) === process.pid) return false;
  try {
    process.kill(Number(m[1]), 0);
    return false;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "ESRCH";
  }
}

/**
 * Remove the temporary files a killed `merge` left beside what it writes (manifest, card, stats,
 * plots, ledger): of processes that no longer run (a merge running meanwhile keeps its own).
 * Before this, a merge killed at its manifest's or card's rename left `manifest.json.tmp-PID`
 * for good (bench/kill-sweep.ts).
 */
export function removeStaleMergeTemps(out: string): void {
  for (const n of entries(out)) if ((TOP.test(n) || CARD.test(n) || reservedName(n)) && staleTemp(n) && isFile(join(out, n))) rmSync(join(out, n), { force: true });
  for (const n of entries(join(out, "plots"))) if (PLOT.test(n) && staleTemp(n) && isFile(join(out, "plots", n))) rmSync(join(out, "plots", n), { force: true });
}

/**
 * Remove temporary files (`*.tmp-PID`) left in `out` by killed runs. Those of `rank` are removed
 * always (the caller holds the rank's lock); the shared ones (config, PDDL copies, manifest,
 * card, stats, plots, other ranks' shards) only when `alone`, i.e. no other rank may be writing.
 */
export function removeTempFiles(out: string, rank: number, alone: boolean): void {
  const mine = (n: string): boolean => n.includes(`-${pad5(rank)}-of-`) || n.startsWith(`${pad5(rank)}.tmp-`);
  const sweep = (dir: string, all: boolean): void => {
    for (const n of entries(dir)) if (TEMP_NAME.test(n) && (all || mine(n))) rmSync(join(dir, n), { force: true });
  };
  sweep(join(out, "data"), alone);
  sweep(join(out, "completions"), alone);
  if (!alone) return;
  // (the ledger's and the journal's too: a kill while they are written leaves one)
  for (const n of entries(out)) if ((TOP.test(n) || CARD.test(n) || reservedName(n) || /^\.pddl2prm-lock-\d{5}/.test(n)) && TEMP_NAME.test(n) && isFile(join(out, n))) rmSync(join(out, n), { force: true });
  for (const d of entries(join(out, "pddl"))) sweep(join(out, "pddl", d), true);
  sweep(join(out, "plots"), true);
}

/**
 * What `--force` removes: only what pddl2prm writes in a dataset folder (config.json, shards and
 * their temporary files, completion markers, the PDDL copies, manifest, card, stats.csv and plots),
 * then the folders it made if they are empty. Anything else stays where it is.
 */
export function removeOwnFiles(out: string): void {
  const own = (dir: string, re: RegExp): void => {
    const d = join(out, dir);
    if (!existsSync(d) || !statSync(d).isDirectory()) return;
    for (const n of readdirSync(d)) if (re.test(n)) rmSync(join(d, n), { recursive: true, force: true });
    if (readdirSync(d).length === 0) rmdirSync(d);
  };
  own("data", SHARD);
  own("completions", MARKER);
  own("plots", PLOT);
  const pddl = join(out, "pddl");
  if (existsSync(pddl) && statSync(pddl).isDirectory()) {
    for (const d of readdirSync(pddl)) own(join("pddl", d), PDDL);
    if (readdirSync(pddl).length === 0) rmdirSync(pddl);
  }
  // README.md is the dataset card only where a manifest says this is a dataset
  const card = existsSync(join(out, "manifest.json"));
  for (const n of readdirSync(out)) if (TOP.test(n) || (card && CARD.test(n))) rmSync(join(out, n), { force: true });
}

/**
 * Remove what a failed run created, newest first: folders only when empty (another rank may be
 * writing into the same dataset), config.json only when no rank's data or marker remains.
 */
export function undoCreated(created: string[]): void {
  for (const p of created.slice().reverse()) {
    try {
      if (!existsSync(p)) continue;
      if (statSync(p).isDirectory()) {
        if (readdirSync(p).length === 0) rmdirSync(p);
      } else {
        const dir = join(p, "..");
        const busy = ["data", "completions"].some((d) => entries(join(dir, d)).length > 0);
        if (!busy) rmSync(p, { force: true });
      }
    } catch {
      // best effort: the original error is what the user needs to see
    }
  }
}
