import { createReadStream } from "node:fs";
import { writeDatasetFile } from "./disk.js";
import { createInterface } from "node:readline";
import { createGunzip } from "node:zlib";
import { writeToString } from "fast-csv";
import { emptyCounts, type CategoryCounts, type ProblemRecord } from "./records.js";
import { CATEGORIES, SPLITS } from "./row.js";
import { parquetRowGroups } from "./parquet.js";

/** One line of stats.csv: a (domain, split) pair, or the totals with domain "all". */
export interface StatsRow {
  domain: string;
  split: string;
  problems: number;
  skipped: number;
  rows: number;
  mean_plan_length: number;
  counts: CategoryCounts;
}

export interface StatsTable {
  rows: StatsRow[];
  byDomainSplitCategory: Record<string, Record<string, CategoryCounts>>;
}

/** Counts per domain and split from per-problem records, plus an "all" total per split. */
export function statsTable(problems: readonly ProblemRecord[]): StatsTable {
  const groups = new Map<string, { domain: string; split: string; ps: ProblemRecord[] }>();
  const add = (domain: string, split: string, p: ProblemRecord) => {
    const key = `${domain}\0${split}`;
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { domain, split, ps: [] }));
    g.ps.push(p);
  };
  for (const p of problems) {
    add(p.domain, p.split, p);
    add(p.domain, "all", p);
    add("all", p.split, p);
    add("all", "all", p);
  }
  const splitOrder = [...SPLITS, "all"] as string[];
  const rows: StatsRow[] = [...groups.values()]
    .sort((a, b) => {
      if (a.domain !== b.domain) return a.domain === "all" ? 1 : b.domain === "all" ? -1 : a.domain < b.domain ? -1 : 1;
      return splitOrder.indexOf(a.split) - splitOrder.indexOf(b.split);
    })
    .map(({ domain, split, ps }) => {
      const counts = emptyCounts();
      for (const p of ps) for (const k of CATEGORIES) counts[k] += p.counts[k];
      const labelled = ps.filter((p) => p.skipped === null);
      const mean = labelled.length ? labelled.reduce((a, p) => a + p.plan_length, 0) / labelled.length : 0;
      return {
        domain,
        split,
        problems: ps.length,
        skipped: ps.length - labelled.length,
        rows: ps.reduce((a, p) => a + p.rows, 0),
        mean_plan_length: Math.round(mean * 100) / 100,
        counts,
      };
    });
  const byDomainSplitCategory: Record<string, Record<string, CategoryCounts>> = {};
  for (const r of rows) {
    if (r.domain === "all" || r.split === "all") continue;
    (byDomainSplitCategory[r.domain] ??= {})[r.split] = r.counts;
  }
  return { rows, byDomainSplitCategory };
}

/** Write stats.csv (one line per domain and split, totals last) atomically. */
export async function writeStatsCsv(path: string, table: StatsTable): Promise<void> {
  writeDatasetFile(path, await statsCsvText(table));
}

/** The text of stats.csv. */
export async function statsCsvText(table: StatsTable): Promise<string> {
  const records = table.rows.map((r) => ({
    domain: r.domain,
    split: r.split,
    problems: r.problems,
    skipped: r.skipped,
    rows: r.rows,
    mean_plan_length: r.mean_plan_length,
    ...Object.fromEntries(CATEGORIES.map((k) => [k, r.counts[k]])),
  }));
  return (await writeToString(records, { headers: true })) + "\n";
}

/** A plain-text table of the totals per domain (split "all") for the terminal. */
export function formatStatsTable(table: StatsTable): string {
  const head = ["domain", "problems", "rows", "MOPL", ...CATEGORIES];
  const lines = table.rows
    .filter((r) => r.split === "all")
    .map((r) => [r.domain, String(r.problems), String(r.rows), r.mean_plan_length.toFixed(2), ...CATEGORIES.map((k) => String(r.counts[k]))]);
  const widths = head.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const fmt = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ");
  return [fmt(head), fmt(widths.map((w) => "-".repeat(w))), ...lines.map(fmt)].join("\n");
}

/**
 * The key that holds a row's category in `format` (pairs: the rejected side's), or null for
 * the formats whose rows have none (trajectories, processbench, feedback, verifier, acp, rl).
 */
export function categoryKey(format: string): string | null {
  if (format === "pairs") return "rejected_category";
  if (format === "trajectories" || format === "processbench" || format === "feedback" || format === "verifier" || format === "acp" || format === "rl") return null;
  return "category";
}

/**
 * Count rows, and rows per category under `key` (see `categoryKey`), in one shard by scanning
 * its lines; `bad` counts rows without one.
 */
export async function countShard(path: string, key: string | null = "category"): Promise<{ rows: number; counts: CategoryCounts; bad: number }> {
  const counts = emptyCounts();
  let rows = 0;
  let bad = 0;
  if (path.endsWith(".parquet")) {
    for await (const group of parquetRowGroups(path)) {
      for (const row of group) {
        rows++;
        if (key === null) continue;
        const k = row[key] as keyof CategoryCounts | undefined;
        if (typeof k === "string" && k in counts) counts[k]++;
        else bad++;
      }
    }
    return { rows, counts, bad };
  }
  const input = path.endsWith(".gz") ? createReadStream(path).pipe(createGunzip()) : createReadStream(path);
  const rl = createInterface({ input, crlfDelay: Infinity });
  const re = new RegExp(`"${key ?? "category"}":"([a-z-]+)"`);
  for await (const line of rl) {
    if (line.length === 0) continue;
    rows++;
    if (key === null) continue;
    const m = re.exec(line);
    const k = m?.[1] as keyof CategoryCounts | undefined;
    if (k !== undefined && k in counts) counts[k]++;
    else bad++;
  }
  return { rows, counts, bad };
}
