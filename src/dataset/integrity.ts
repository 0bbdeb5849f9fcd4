/**
 * The integrity check of a dataset folder (`merge --verify`, `audit`): every file the records
 * name is there, whole and unchanged, and nothing that `datasets.load_dataset` would read is
 * there that they do not name. The records are the ranks' completion records (`completions/`:
 * each shard with its rows, bytes and sha256; each problem, hence its PDDL copies), the ledger
 * (`.pddl2prm-files.json`, ownership.ts: every file of the complete dataset with its bytes and
 * sha256) and `manifest.json` (the shards again). Each problem found is one line naming its file;
 * the check reads and hashes, it never writes.
 */
import { lstatSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { UserError } from "../pddl/errors.js";
import { TEMP_NAME } from "../util/atomic-write.js";
import { readRanks, sha256File } from "./manifest.js";
import { LEDGER } from "./ownership.js";
import { JOURNAL } from "./replace.js";
import { SPLITS } from "./row.js";
import type { ShardInfo } from "./shard.js";

export interface FolderCheckOptions {
  /**
   * The dataset is complete and merged (`audit`): `manifest.json` and the ledger must be there
   * and agree with the completion records, and every file the ledger lists must be there. False
   * before a merge (`merge --verify`), which (re)writes the manifest, the card, stats.csv, the
   * plots and the ledger: those are not checked, the rest is.
   */
  merged: boolean;
}

/** Files `merge` writes from the records (not checked before a merge). */
const MERGE_WRITES = /^(manifest\.json|README\.md|stats\.csv|plots\/[^/]+\.svg|\.pddl2prm-files\.json)$/;
/** Files a user may edit and pddl2prm then keeps as theirs (the card, stats, plots): a change is no damage, a removal is. */
const EDITABLE = /^(README\.md|stats\.csv|plots\/[^/]+\.svg)$/;

const LedgerFile = z.object({
  generator: z.literal("pddl2prm"),
  files: z.array(z.object({ path: z.string().min(1), bytes: z.number().int().nonnegative(), sha256: z.string().regex(/^[0-9a-f]{64}$/) })),
});

const ManifestShards = z.object({
  generator: z.literal("pddl2prm"),
  config_hash: z.string(),
  rows: z.number(),
  shards: z.array(z.object({ path: z.string(), rows: z.number(), bytes: z.number(), sha256: z.string() })),
});

/** A relative path as the records write it: no leading "/", no "..", "." or empty part. */
function safeRel(rel: string): boolean {
  return !rel.startsWith("/") && !rel.includes("\\") && !rel.split("/").some((p) => p === ".." || p === "" || p === ".");
}

type Kind = "file" | "dir" | "link" | "other" | null;

function kindOf(path: string): Kind {
  try {
    const s = lstatSync(path);
    return s.isFile() ? "file" : s.isDirectory() ? "dir" : s.isSymbolicLink() ? "link" : "other";
  } catch {
    return null;
  }
}

function sizeOf(path: string): number {
  return lstatSync(path).size;
}

/** A folder's entries, or none. */
function entries(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

const plural = (n: number, what: string): string => `${n} ${what}${n === 1 ? "" : "s"}`;

/**
 * Check the dataset folder `out`; returns one line per problem (`<path>: <what is wrong>`), none
 * when the folder is whole. Throws a UserError when `out` is no dataset folder at all (no folder,
 * no config.json, a corrupt config or completion record) or some rank has not finished.
 */
export async function checkDatasetFolder(out: string, opts: FolderCheckOptions): Promise<string[]> {
  if (!isFolder(out)) throw new UserError(`${out}: no such folder`);
  const problems: string[] = [];
  const at = (rel: string): string => join(out, rel);
  // a forced replacement stopped half-way: some files are the old dataset's, some the new one's
  if (kindOf(at(JOURNAL)) !== null) {
    problems.push(`${at(JOURNAL)}: a \`generate --force\` replacement of this dataset stopped half-way (files of the old and the new dataset are mixed); run the same \`pddl2prm generate ... --force\` command again to finish it`);
  }
  let records: ReturnType<typeof readRanks>;
  try {
    records = readRanks(out);
  } catch (e) {
    if (problems.length === 0 || !(e instanceof UserError)) throw e;
    return [...problems, e.message];
  }
  if (records.missing.length > 0) {
    const msg = `${out}: ranks not complete yet: ${records.missing.join(", ")} (of ${records.world})`;
    if (problems.length === 0) throw new UserError(msg);
    return [...problems, msg];
  }
  const reported = new Set<string>();
  const hashes = new Map<string, string>();
  /** The sha256 of `rel`, or "cannot read (CODE)" (a file the check cannot read is a problem, not a stack trace). */
  const hash = async (rel: string): Promise<string> => {
    let h = hashes.get(rel);
    if (h === undefined) {
      try {
        h = await sha256File(at(rel));
      } catch (e) {
        h = `cannot read (${(e as NodeJS.ErrnoException).code ?? String(e)})`;
      }
      hashes.set(rel, h);
    }
    return h;
  };
  /** What is wrong with `rel` against the `sha256` a record lists (null: nothing; `changed` when the content differs). */
  const differs = async (rel: string, sha256: string, changed: string): Promise<string | null> => {
    const h = await hash(rel);
    return h === sha256 ? null : h.startsWith("cannot read") ? h : changed;
  };
  const report = (rel: string, what: string): void => {
    reported.add(rel);
    problems.push(`${at(rel)}: ${what}`);
  };
  /** Whether `rel` or a folder it is in has been reported already (one line per problem). */
  const covered = (rel: string): boolean => {
    for (let i = rel.length; i > 0; i = rel.lastIndexOf("/", i - 1)) if (reported.has(rel.slice(0, i))) return true;
    return false;
  };

  /** The first folder on the way to `rel` that is a symbolic link, or null. */
  const linkedFolder = (rel: string): string | null => {
    for (let i = rel.indexOf("/"); i > 0; i = rel.indexOf("/", i + 1)) if (kindOf(at(rel.slice(0, i))) === "link") return rel.slice(0, i);
    return null;
  };

  // the shards: there, not emptied, the recorded size and content
  const shards: ShardInfo[] = records.ranks.flatMap((r) => r.shards);
  const listed = new Set(shards.map((s) => s.path));
  const dataKind = kindOf(at("data"));
  if (dataKind !== "dir" && (shards.length > 0 || dataKind !== null)) {
    report("data", dataKind === null ? `missing (the completion records list ${plural(shards.length, "shard")} in it)` : `not a folder (a ${dataKind})`);
  } else {
    for (const s of shards) {
      const kind = kindOf(at(s.path));
      if (kind === null) report(s.path, `missing (the completion records list it with ${plural(s.rows, "row")})`);
      else if (kind !== "file") report(s.path, `not a file (a ${kind}; the completion records list a shard of ${plural(s.rows, "row")})`);
      else {
        const size = sizeOf(at(s.path));
        if (size === 0 && s.bytes > 0) report(s.path, `empty (the completion records list ${plural(s.rows, "row")}, ${s.bytes} bytes)`);
        else if (size !== s.bytes) report(s.path, `${size} bytes, the completion records say ${s.bytes}`);
        else {
          const wrong = await differs(s.path, s.sha256, "changed (its sha256 is not the one the completion records list)");
          if (wrong !== null) report(s.path, wrong);
        }
      }
    }
  }

  // data/ holds the shards and nothing else: a file matching the card's data/<split>-* pattern is
  // read by load_dataset as rows of that split (hidden files no pattern picks up are let be)
  if (kindOf(at("data")) === "dir") {
    for (const n of entries(at("data")).sort()) {
      const rel = `data/${n}`;
      if (listed.has(rel) || n.startsWith(".")) continue;
      const split = loadedAs(n, listed);
      report(
        rel,
        TEMP_NAME.test(n)
          ? "a temporary file of a stopped run, not a shard of this dataset; remove it"
          : split !== null
            ? strayNote(split)
            : "not a shard of this dataset (no completion record lists it); data/ holds only the dataset's shards: move it out of data/",
      );
    }
  }

  // the PDDL copies of every problem: its problem file and its domain file (one per domain, or
  // one per problem); a whole folder missing is one line
  const byDomain = new Map<string, string[]>();
  for (const p of records.ranks.flatMap((r) => r.problems)) {
    let list = byDomain.get(p.domain);
    if (list === undefined) byDomain.set(p.domain, (list = []));
    list.push(p.problem);
  }
  const pddlKind = kindOf(at("pddl"));
  if (byDomain.size > 0 && pddlKind !== "dir") report("pddl", pddlKind === null ? `missing (the PDDL copies of the problems of ${plural(byDomain.size, "domain")})` : `not a folder (a ${pddlKind})`);
  else {
    for (const [domain, names] of [...byDomain].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
      const dir = `pddl/${domain}`;
      const dirKind = kindOf(at(dir));
      if (dirKind !== "dir") {
        report(dir, dirKind === null ? `missing (the PDDL copies of ${plural(names.length, "problem")})` : `not a folder (a ${dirKind})`);
        continue;
      }
      // one domain.pddl, or a domain file per problem where the domain's problems came with different ones
      const shared = `${dir}/domain.pddl`;
      const perProblem = kindOf(at(shared)) === null && names.some((p) => kindOf(at(`${dir}/${p}.domain.pddl`)) !== null);
      if (kindOf(at(shared)) === null && !perProblem && names.every((p) => kindOf(at(`${dir}/${p}.pddl`)) === null)) {
        report(dir, `holds none of the PDDL copies of its ${plural(names.length, "problem")}`);
        continue;
      }
      for (const problem of names) {
        checkCopy(`${dir}/${problem}.pddl`, `the PDDL copy of problem ${domain}/${problem}`);
        if (perProblem) checkCopy(`${dir}/${problem}.domain.pddl`, `the domain file of problem ${domain}/${problem}`);
      }
      if (!perProblem) checkCopy(shared, `the domain file of ${domain}'s problems`);
    }
  }
  function checkCopy(rel: string, what: string): void {
    if (covered(rel)) return;
    const kind = kindOf(at(rel));
    if (kind === null) report(rel, `missing (${what})`);
    else if (kind !== "file") report(rel, `not a file (a ${kind}; ${what})`);
    else if (sizeOf(at(rel)) === 0) report(rel, `empty (${what})`);
  }

  // the manifest: there, of this dataset's settings, listing exactly the records' shards
  if (opts.merged && !reported.has("manifest.json")) {
    const m = readManifest(at("manifest.json"));
    if (typeof m === "string") report("manifest.json", m);
    else {
      if (m.config_hash !== records.configHash) report("manifest.json", "made with other settings than config.json");
      const byPath = new Map(m.shards.map((s) => [s.path, s]));
      for (const s of shards) {
        const ms = byPath.get(s.path);
        if (ms === undefined) report("manifest.json", `does not list ${s.path} (a completion record does)`);
        else if (ms.rows !== s.rows || ms.bytes !== s.bytes || ms.sha256 !== s.sha256) report("manifest.json", `lists ${s.path} otherwise than its completion record (rows, bytes or sha256)`);
      }
      for (const p of byPath.keys()) if (!listed.has(p)) report("manifest.json", `lists ${p}, which no completion record lists`);
      const rows = shards.reduce((a, s) => a + s.rows, 0);
      if (m.rows !== rows) report("manifest.json", `says ${m.rows} rows, the completion records ${rows}`);
    }
  }
  // the ledger: every file it lists there, of its size and content
  const ledgerKind = kindOf(at(LEDGER));
  if (ledgerKind === null) {
    if (opts.merged) report(LEDGER, `missing (a complete dataset has this list of its files; \`pddl2prm merge ${out}\` writes it)`);
  } else {
    let files: z.infer<typeof LedgerFile>["files"] | null = null;
    try {
      const r = LedgerFile.safeParse(JSON.parse(readFileSync(at(LEDGER), "utf8")));
      if (r.success) files = r.data.files;
    } catch {
      files = null;
    }
    if (files === null) {
      if (opts.merged) report(LEDGER, `not a valid pddl2prm ledger; \`pddl2prm merge ${out}\` writes it again`);
    } else {
      // a merge stopped between its two ledger writes lists a file's old and new content: either is whole
      const versions = new Map<string, { bytes: number; sha256: string }[]>();
      for (const f of files) versions.set(f.path, [...(versions.get(f.path) ?? []), f]);
      for (const [path, vs] of versions) {
        const f = { path, ...vs[vs.length - 1]! };
        if (!safeRel(f.path)) {
          report(LEDGER, `lists ${JSON.stringify(f.path)}, a path outside the dataset folder`);
          continue;
        }
        if (covered(f.path) || (!opts.merged && MERGE_WRITES.test(f.path))) continue;
        const link = linkedFolder(f.path);
        if (link !== null) {
          report(link, "a symbolic link where the dataset has a folder (pddl2prm does not follow links inside its folder)");
          continue;
        }
        const kind = kindOf(at(f.path));
        if (kind === null) report(f.path, "missing (the ledger lists it)");
        else if (kind !== "file") report(f.path, `not a file (a ${kind}; the ledger lists a file)`);
        else if (EDITABLE.test(f.path)) continue; // the user's edit of the card, stats or plots
        else {
          const size = sizeOf(at(f.path));
          const sized = vs.filter((v) => v.bytes === size);
          if (size === 0 && f.bytes > 0) report(f.path, `empty (the ledger lists ${f.bytes} bytes)`);
          else if (sized.length === 0) report(f.path, `${size} bytes, the ledger says ${vs.map((v) => v.bytes).join(" or ")}`);
          else {
            let wrong: string | null = null;
            for (const v of sized) if ((wrong = await differs(f.path, v.sha256, "changed since pddl2prm wrote it (its sha256 is not the one the ledger lists)")) === null) break;
            if (wrong !== null) report(f.path, wrong);
          }
        }
      }
    }
  }

  return problems;
}

/** A folder, or a link to one (the dataset folder itself may be a link). */
function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function readManifest(path: string): z.infer<typeof ManifestShards> | string {
  const kind = kindOf(path);
  if (kind === null) return "missing (a complete dataset has one; `pddl2prm merge` writes it from the completion records)";
  if (kind !== "file") return `not a file (a ${kind})`;
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(path, "utf8"));
  } catch {
    return "not JSON (`pddl2prm merge` writes it again from the completion records)";
  }
  const r = ManifestShards.safeParse(data);
  return r.success ? r.data : "not a pddl2prm manifest (`pddl2prm merge` writes it again from the completion records)";
}

/** Lines `checkDatasetFolder` returns shown at most (a folder missing all of pddl/ would list every problem). */
const SHOWN = 40;

/** The UserError of a folder that fails its check: one line per problem (the first `SHOWN`), indented under a headline. */
export function folderCheckError(out: string, problems: readonly string[]): UserError {
  const lines = problems.slice(0, SHOWN);
  if (problems.length > SHOWN) lines.push(`... and ${problems.length - SHOWN} more`);
  return new UserError(`${out}: the dataset folder fails its check (${plural(problems.length, "problem")}):\n  ${lines.join("\n  ")}`);
}

/**
 * Files in `out/data` that no completion record lists and that the card's `data/<split>-*`
 * patterns pick up (`datasets.load_dataset` would read them as rows), each as a line naming it,
 * for a warning after a run; none when the records cannot be read.
 */
export function strayDataFiles(out: string): string[] {
  let listed: Set<string>;
  try {
    listed = new Set(readRanks(out).ranks.flatMap((r) => r.shards.map((s) => s.path)));
  } catch {
    return [];
  }
  const lines: string[] = [];
  for (const n of entries(join(out, "data")).sort()) {
    const split = listed.has(`data/${n}`) ? null : loadedAs(n, listed);
    if (split !== null) lines.push(`${join(out, "data", n)}: ${strayNote(split)}`);
  }
  return lines;
}

/**
 * The split `datasets.load_dataset` would read the file `data/<name>` into, by the card's
 * `data/<split>-*.<ext>` patterns (a split with shards, the shards' extension), or null.
 */
function loadedAs(name: string, shards: ReadonlySet<string>): string | null {
  for (const split of SPLITS) {
    if (!name.startsWith(`${split}-`)) continue;
    for (const p of shards) {
      const base = p.slice("data/".length);
      if (base.startsWith(`${split}-`) && name.endsWith(base.slice(base.indexOf(".")))) return split;
    }
  }
  return null;
}

const strayNote = (split: string): string =>
  `not a shard of this dataset (no completion record lists it), and load_dataset would read it as ${split} rows (the card's data/${split}-* pattern); move it out of data/`;
