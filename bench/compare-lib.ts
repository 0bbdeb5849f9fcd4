/**
 * The pure parts of bench/compare (tested in tests/bench-compare.test.ts): its command line, the
 * ratio arithmetic, and the label check of two dataset folders. Importing this runs nothing.
 */
import { createReadStream, readdirSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { createGunzip } from "node:zlib";

export const COMPARE_USAGE = `usage: npm run bench:compare -- REF [--pairs 3] [--job main|corpus|all] [--scale 1] [--keep] [--json]
  REF      a commit, tag or branch: its build is run against this checkout's dist (npm run build first)
  --pairs  back-to-back pairs of runs per job, the order alternating (default 3, at least 1)
  --job    main: generate --domain all --count 100 --seed 7 --workers 2 (default);
           corpus: the paper-scale corpus of bench/corpus; all: both
  --scale  the corpus job's size, as bench:corpus --scale (default 1)
  --keep   keep the temporary worktree of REF and the output folders (their path is printed)
  --json   print one JSON object instead of the tables`;

export const JOBS = ["main", "corpus"] as const;
export type Job = (typeof JOBS)[number];

export interface CompareOptions {
  ref: string;
  pairs: number;
  jobs: Job[];
  scale: number;
  keep: boolean;
  json: boolean;
}

export type CompareArgs = { help: true } | { error: string } | { options: CompareOptions };

const VALUES = ["--pairs", "--job", "--scale"] as const;
const SWITCHES = ["--keep", "--json"] as const;

/** The command line of bench/compare (the arguments after the script), or what is wrong with it. */
export function parseCompareArgs(argv: readonly string[]): CompareArgs {
  if (argv.includes("--help") || argv.includes("-h")) return { help: true };
  const values = new Map<string, string>();
  const switches = new Set<string>();
  const positional: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const eq = a.indexOf("=");
    const name = a.startsWith("--") && eq > 0 ? a.slice(0, eq) : a;
    if ((VALUES as readonly string[]).includes(name)) {
      let v: string | undefined;
      if (name !== a) v = a.slice(eq + 1);
      else {
        v = argv[i + 1];
        if (v === undefined || (VALUES as readonly string[]).includes(v) || (SWITCHES as readonly string[]).includes(v)) return { error: `${name} needs a value` };
        i++;
      }
      if (values.has(name)) return { error: `${name} given twice` };
      values.set(name, v);
    } else if ((SWITCHES as readonly string[]).includes(a)) {
      switches.add(a);
    } else if (a.startsWith("-")) {
      return { error: `unknown flag ${a}` };
    } else {
      positional.push(a);
    }
  }
  if (positional.length === 0) return { error: "give REF, the commit, tag or branch to compare with" };
  if (positional.length > 1) return { error: `unexpected argument '${positional[1]}' (give one REF)` };
  const ref = positional[0]!;
  if (ref.trim() === "") return { error: "REF is empty" };

  const pairsText = values.get("--pairs") ?? "3";
  const pairs = Number(pairsText);
  if (pairsText.trim() === "" || !Number.isInteger(pairs) || pairs < 1) return { error: `--pairs ${pairsText} is not valid (a whole number, at least 1)` };

  const job = values.get("--job") ?? "main";
  if (job !== "main" && job !== "corpus" && job !== "all") return { error: `--job must be main, corpus or all, got '${job}'` };
  const jobs: Job[] = job === "all" ? [...JOBS] : [job];

  const scaleText = values.get("--scale");
  let scale = 1;
  if (scaleText !== undefined) {
    scale = Number(scaleText);
    if (scaleText.trim() === "" || !Number.isFinite(scale) || scale <= 0) return { error: `--scale ${scaleText} is not valid (a number above 0)` };
    if (!jobs.includes("corpus")) return { error: "--scale applies to --job corpus and all only" };
  }
  return { options: { ref, pairs, jobs, scale, keep: switches.has("--keep"), json: switches.has("--json") } };
}

/** Which build runs first in pair `i` (0-based): REF, current; then current, REF; and so on. */
export function pairOrder(i: number): ["ref", "current"] | ["current", "ref"] {
  return i % 2 === 0 ? ["ref", "current"] : ["current", "ref"];
}

/** The median of `xs` (the mean of the middle two for an even count); NaN for none. */
export function median(xs: readonly number[]): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** current/REF per pair, and their median and spread (min..max). */
export interface RatioStats {
  ratios: number[];
  median: number;
  min: number;
  max: number;
}

export function ratioStats(pairs: ReadonlyArray<{ current: number; ref: number }>): RatioStats {
  const ratios = pairs.map((p) => p.current / p.ref);
  return { ratios, median: median(ratios), min: Math.min(...ratios), max: Math.max(...ratios) };
}

/** The fields of a row that carry its label: compared by the label check (text is not). */
export const LABEL_FIELDS = ["category", "labels", "label", "reward", "rewards"] as const;

/** What the label check compares of a row: its label fields that are present, as one string. */
export function labelKey(row: Record<string, unknown>): string {
  const parts: string[] = [];
  for (const f of LABEL_FIELDS) if (row[f] !== undefined) parts.push(`${f}=${typeof row[f] === "string" ? row[f] : JSON.stringify(row[f])}`);
  return parts.join(" ");
}

/** The JSONL shards of a dataset folder (`DIR/data/**.jsonl[.gz]`), sorted. */
export function shardFiles(dir: string): string[] {
  const files: string[] = [];
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile() && (e.name.endsWith(".jsonl") || e.name.endsWith(".jsonl.gz"))) files.push(p);
    }
  };
  walk(join(dir, "data"));
  files.sort();
  return files;
}

/** Each row of a dataset folder's shards as (id, label key), read line by line. */
export async function* labelRows(dir: string): AsyncGenerator<{ id: string; key: string }> {
  const files = shardFiles(dir);
  if (files.length === 0) throw new Error(`${dir}: no .jsonl shards under data/`);
  for (const file of files) {
    const raw = createReadStream(file);
    const input = file.endsWith(".gz") ? raw.pipe(createGunzip()) : raw;
    const lines = createInterface({ input, crlfDelay: Infinity });
    let n = 0;
    for await (const line of lines) {
      n++;
      if (line.trim() === "") continue;
      let row: Record<string, unknown>;
      try {
        row = JSON.parse(line) as Record<string, unknown>;
      } catch {
        throw new Error(`${file}:${n}: not JSON`);
      }
      if (typeof row.id !== "string") throw new Error(`${file}:${n}: a row without an id`);
      yield { id: row.id, key: labelKey(row) };
    }
  }
}

/** One difference the label check found. */
export interface LabelDifference {
  id: string;
  ref: string | null;
  current: string | null;
}

export interface LabelCheck {
  same: boolean;
  refRows: number;
  currentRows: number;
  differences: number;
  first: LabelDifference[];
}

/**
 * Compare the rows of REF's dataset folder with the current build's by id: the label fields
 * must match (`labelKey`), and each id must be on both sides once. Holds one side's ids and keys
 * only (a Map), so a corpus of a million rows fits; `shown` differences are kept for printing.
 */
export async function compareLabels(refDir: string, currentDir: string, shown = 5): Promise<LabelCheck> {
  const check: LabelCheck = { same: true, refRows: 0, currentRows: 0, differences: 0, first: [] };
  const note = (d: LabelDifference): void => {
    check.differences++;
    if (check.first.length < shown) check.first.push(d);
  };
  const refKeys = new Map<string, string>();
  for await (const { id, key } of labelRows(refDir)) {
    check.refRows++;
    if (refKeys.has(id)) note({ id, ref: `${key} (id twice)`, current: null });
    else refKeys.set(id, key);
  }
  // a matched id keeps its entry, marked, so an id the current build writes twice is told apart
  // from one REF does not have, without a second set of ids
  const MATCHED = "\0";
  for await (const { id, key } of labelRows(currentDir)) {
    check.currentRows++;
    const r = refKeys.get(id);
    if (r === undefined) note({ id, ref: null, current: key });
    else if (r === MATCHED) note({ id, ref: null, current: `${key} (id twice)` });
    else {
      if (r !== key) note({ id, ref: r, current: key });
      refKeys.set(id, MATCHED);
    }
  }
  for (const [id, key] of refKeys) if (key !== MATCHED) note({ id, ref: key, current: null });
  check.same = check.differences === 0;
  return check;
}

/** "labels: same (N rows)", or the count of differences and the first few, one per line. */
export function labelCheckText(c: LabelCheck): string {
  if (c.same) return `labels: same (${c.refRows.toLocaleString("en-US")} rows)`;
  const lines = [
    `labels: ${c.differences.toLocaleString("en-US")} difference${c.differences === 1 ? "" : "s"} ` +
      `(REF ${c.refRows.toLocaleString("en-US")} rows, current ${c.currentRows.toLocaleString("en-US")} rows); the first ${c.first.length}:`,
  ];
  for (const d of c.first) lines.push(`  ${d.id}: REF ${d.ref ?? "(no such row)"}; current ${d.current ?? "(no such row)"}`);
  return lines.join("\n");
}
