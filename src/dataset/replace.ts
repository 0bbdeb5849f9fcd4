/**
 * `--force` replaces a dataset without a moment in which neither the old nor the new one is
 * there: the new run writes into a staging folder inside the output folder, and only a complete
 * new dataset is swapped in. The swap writes a journal first, then moves the old dataset's files
 * (those pddl2prm can prove it wrote, ownership.ts) aside and the new ones into place; whatever
 * stops it, the next run rolls the journal forward (the new dataset was complete before the
 * journal existed). Files that are not pddl2prm's are never moved, replaced or deleted.
 */
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, rmdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { z } from "zod";
import { UserError } from "../pddl/errors.js";
import { LEDGER, ownedFiles } from "./ownership.js";
import { LOCK_NAME } from "./lock.js";
import { diskReason } from "./disk.js";

/** Where a forced run writes the new dataset, inside the output folder. */
export const STAGE = ".pddl2prm-next";
/** The swap's journal and the old dataset's files on their way out. */
export const JOURNAL = ".pddl2prm-swap.json";
const OLD = ".pddl2prm-old";

/** Files the new dataset may leave out where a user's file of that name is kept: the card, the stats, the plots. */
const OPTIONAL = /^(README\.md|stats\.csv|plots\/[a-z-]+\.svg)$/;

const Journal = z.object({ old: z.array(z.string()), new: z.array(z.string()) });

function exists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/** Every file under `dir` (relative, "/"-separated), without lock files. */
function filesUnder(dir: string, prefix = ""): string[] {
  const out: string[] = [];
  for (const n of readdirSync(join(dir, prefix))) {
    const rel = prefix === "" ? n : `${prefix}/${n}`;
    if (prefix === "" && LOCK_NAME.test(n)) continue;
    if (lstatSync(join(dir, rel)).isDirectory()) out.push(...filesUnder(dir, rel));
    else out.push(rel);
  }
  return out;
}

/** Move `from` to `to`, making `to`'s folder; a source already gone was moved by an earlier try. */
function move(from: string, to: string): void {
  if (!exists(from)) return;
  mkdirSync(dirname(to), { recursive: true });
  renameSync(from, to);
}

/** Remove `dir`'s empty folders, deepest first, and `dir` itself when it ends up empty. */
function pruneEmpty(dir: string): void {
  if (!exists(dir) || !lstatSync(dir).isDirectory()) return;
  for (const n of readdirSync(dir)) {
    const p = join(dir, n);
    if (lstatSync(p).isDirectory()) pruneEmpty(p);
  }
  if (readdirSync(dir).length === 0) rmdirSync(dir);
}

/**
 * Swap the complete dataset in `out/STAGE` into `out`. Throws a UserError, leaving both datasets
 * as they are, when a file of the new dataset would replace a file that is not pddl2prm's
 * (other than the card, stats and plots, which then stay the user's).
 */
export function swapIn(out: string): void {
  const stage = join(out, STAGE);
  const owned = ownedFiles(out);
  const incoming: string[] = [];
  for (const rel of filesUnder(stage)) {
    if (exists(join(out, rel)) && !owned.has(rel)) {
      if (OPTIONAL.test(rel)) continue; // the user's file stays; the new one is dropped with the stage
      throw new UserError(`--force: ${join(out, rel)} is not a file pddl2prm wrote, and the new dataset has a file of that name; move it away and run again (the new dataset waits, complete, in ${stage})`);
    }
    incoming.push(rel);
  }
  const journal = join(out, JOURNAL);
  try {
    writeFileSync(journal, JSON.stringify({ old: [...owned].sort(), new: incoming }) + "\n", { flag: "wx" });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "EEXIST") return finishSwap(out); // another rank is swapping
    rmSync(journal, { force: true });
    if ((e as NodeJS.ErrnoException).code === undefined) throw e;
    throw new UserError(`${journal}: cannot write the swap journal (${diskReason(e)}); the new dataset waits, complete, in ${stage}: run again to swap it in`);
  }
  finishSwap(out);
}

/** Roll an interrupted swap forward (nothing to do without a journal). */
export function finishSwap(out: string): void {
  const journal = join(out, JOURNAL);
  if (!existsSync(journal)) return;
  let j: z.infer<typeof Journal>;
  try {
    j = Journal.parse(JSON.parse(readFileSync(journal, "utf8")));
  } catch {
    throw new UserError(`${journal}: not a valid swap journal; pddl2prm cannot tell which files to move (move the folder ${join(out, STAGE)} away to keep the old dataset)`);
  }
  const stage = join(out, STAGE);
  const incoming = new Set(j.new);
  // the old files aside: those the new dataset has not replaced yet (a file of the new dataset in
  // place and no longer in the stage was moved by an earlier try)
  for (const rel of j.old) {
    if (incoming.has(rel) && !exists(join(stage, rel))) continue;
    move(join(out, rel), join(out, OLD, rel));
  }
  for (const rel of j.new) move(join(stage, rel), join(out, rel));
  rmSync(join(out, OLD), { recursive: true, force: true });
  // what is left in the stage: locks of finished ranks, user files the new dataset left out
  if (exists(stage)) {
    for (const n of readdirSync(stage)) if (LOCK_NAME.test(n)) rmSync(join(stage, n), { force: true });
    for (const rel of filesUnder(stage)) if (OPTIONAL.test(rel)) rmSync(join(stage, rel), { force: true });
    pruneEmpty(stage);
  }
  // folders the old files left empty (deepest first); other empty folders are not ours to remove
  const dirs = new Set<string>();
  for (const rel of j.old) for (let d = dirname(rel); d !== "."; d = dirname(d)) dirs.add(d);
  for (const d of [...dirs].sort((a, b) => b.length - a.length)) {
    const p = join(out, d);
    if (exists(p) && lstatSync(p).isDirectory() && readdirSync(p).length === 0) rmdirSync(p);
  }
  rmSync(journal, { force: true });
}

/** Whether `out` holds a swap journal or a staged dataset (names pddl2prm reserves). */
export function reservedName(name: string): boolean {
  return name === STAGE || name === JOURNAL || name === OLD || name === LEDGER;
}
