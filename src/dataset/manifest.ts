import { createHash } from "node:crypto";
import { createReadStream, existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { UserError } from "../pddl/errors.js";
import { packageVersion } from "../util/paths.js";
import { datasetCard } from "./card.js";
import { emptyCounts, type CategoryCounts, type DatasetAuditor, type Manifest, type ProblemRecord, type RankRecord } from "./records.js";
import { CATEGORIES, SPLITS } from "./row.js";
import type { ShardInfo } from "./shard.js";
import { readConfigFile, readRankFile } from "./state-files.js";
import { statsCsvText, statsTable } from "./stats.js";
import { PLOT_FILES, plotTexts } from "./plots.js";
import { checkLedgerName, commitFiles, mayReplace, ownedFiles } from "./ownership.js";
import { removeStaleMergeTemps } from "./output-folder.js";
import { plainFileHash, textHash } from "./reserved.js";
import { layoutFiles, layoutOf } from "./layout.js";

export type { Manifest };

/** The ranks' completion records, or the list of missing ranks. */
export function readRanks(out: string): { config: Record<string, unknown>; configHash: string; world: number; ranks: RankRecord[]; missing: number[] } {
  const configPath = join(out, "config.json");
  if (!existsSync(configPath)) throw new UserError(`${out}: not a pddl2prm dataset folder (no config.json)`);
  const cfg = readConfigFile(configPath);
  const world = Number(cfg.config["world"] ?? 1);
  const ranks: RankRecord[] = [];
  const missing: number[] = [];
  const dir = join(out, "completions");
  for (let r = 0; r < world; r++) {
    const p = join(dir, String(r).padStart(5, "0"));
    if (!existsSync(p)) {
      missing.push(r);
      continue;
    }
    const rec = readRankFile(p);
    if (rec.config_hash !== cfg.config_hash) throw new UserError(`${p}: rank ${r} was made with other settings than ${configPath}`);
    ranks.push(rec);
  }
  return { config: cfg.config, configHash: cfg.config_hash, world, ranks, missing };
}

/** sha256 of a file, streamed. */
export async function sha256File(path: string): Promise<string> {
  const h = createHash("sha256");
  for await (const chunk of createReadStream(path)) h.update(chunk as Buffer);
  return h.digest("hex");
}

/** Check every shard of a complete dataset against its recorded size and sha256. */
export async function verifyShards(out: string, shards: ShardInfo[]): Promise<string[]> {
  const problems: string[] = [];
  for (const s of shards) {
    const p = join(out, s.path);
    if (!existsSync(p)) {
      problems.push(`${s.path}: missing`);
      continue;
    }
    if (statSync(p).size !== s.bytes) problems.push(`${s.path}: size ${statSync(p).size}, expected ${s.bytes}`);
    else if ((await sha256File(p)) !== s.sha256) problems.push(`${s.path}: sha256 mismatch`);
  }
  return problems;
}

/**
 * Combine the completion records of all ranks into manifest.json, README.md (with the plots of
 * plots/ and, given an `audit`, the shortcut audit's headline) and stats.csv.
 * Returns null (or throws, unless `quietIfIncomplete`) when some rank has not finished.
 */
export async function mergeDataset(
  out: string,
  opts: { quietIfIncomplete?: boolean; audit?: DatasetAuditor; /** Told the files of a user's kept where the card, stats or plots would go. */ onKept?: (rels: string[]) => void } = {},
): Promise<Manifest | null> {
  const { config, configHash, world, ranks, missing } = readRanks(out);
  if (missing.length > 0) {
    if (opts.quietIfIncomplete) return null;
    throw new UserError(`${out}: ranks not complete yet: ${missing.join(", ")} (of ${world})`);
  }
  removeStaleMergeTemps(out);
  const shards = ranks.flatMap((r) => r.shards);
  for (const s of shards) {
    const p = join(out, s.path);
    if (!existsSync(p) || statSync(p).size !== s.bytes) throw new UserError(`${out}: shard ${s.path} is missing or has the wrong size`);
  }
  const problems: ProblemRecord[] = ranks.flatMap((r) => r.problems);
  // Canonical order: independent of which rank handled which problem.
  problems.sort((a, b) => (a.domain === b.domain ? (a.problem < b.problem ? -1 : a.problem > b.problem ? 1 : 0) : a.domain < b.domain ? -1 : 1));
  const bySplit: Record<string, number> = {};
  for (const s of SPLITS) bySplit[s] = 0;
  const byDomain: Record<string, number> = {};
  const byCategory = emptyCounts();
  const byDsc: Record<string, Record<string, CategoryCounts>> = {};
  for (const r of ranks) for (const k of CATEGORIES) byCategory[k] += r.counts[k];
  for (const s of shards) {
    const split = SPLITS.find((x) => s.path.startsWith(`data/${x}-`))!;
    bySplit[split] = (bySplit[split] ?? 0) + s.rows;
  }
  for (const p of problems) byDomain[p.domain] = (byDomain[p.domain] ?? 0) + p.rows;
  const droppedBy: Record<string, number> = {};
  for (const p of problems) if (p.dropped) droppedBy[p.domain] = (droppedBy[p.domain] ?? 0) + p.dropped;
  const tok = config["tokenizer"];
  const manifest: Manifest = {
    generator: "pddl2prm",
    version: packageVersion(),
    config_hash: configHash,
    config,
    seed: Number(config["seed"]),
    world,
    rows: shards.reduce((a, s) => a + s.rows, 0),
    counts: { by_split: bySplit, by_domain: byDomain, by_category: byCategory, by_domain_split_category: byDsc },
    problems: {
      total: problems.length,
      labelled: problems.filter((p) => p.skipped === null).length,
      partial: problems.filter((p) => p.cut !== undefined).map((p) => ({ domain: p.domain, problem: p.problem, ...p.cut! })),
      skipped: problems.filter((p) => p.skipped !== null).map((p) => ({ domain: p.domain, problem: p.problem, reason: p.skipped! })),
    },
    dropped: {
      rows: Object.values(droppedBy).reduce((a, n) => a + n, 0),
      by_domain: droppedBy,
      max_length: typeof config["max_length"] === "number" ? config["max_length"] : null,
      counted_with: tok === undefined ? null : typeof tok === "string" ? tok : String((tok as { file?: unknown }).file),
    },
    shards,
  };
  // Prompts that summed something up to stay within their budget (absent when none did).
  const summed = problems.filter((p) => p.text !== undefined);
  if (summed.length > 0) {
    const sum = (k: keyof NonNullable<ProblemRecord["text"]>): number => summed.reduce((a, p) => a + p.text![k], 0);
    manifest.text = {
      rule: "rules of a generic domain past 5,000 characters, fixed facts past 3,500 and cost values past 3,000 are counted, not listed; a fixed relation proven to be arithmetic over numbered objects (succ, <, <=, sum, ...) is stated once as such; long generic lists name numbered runs as 'p1 to p40'",
      problems: summed.length,
      rules_omitted: sum("rules_omitted"),
      fixed_omitted: sum("fixed_omitted"),
      cost_omitted: sum("cost_omitted"),
      arithmetic_relations: sum("arithmetic"),
    };
  }
  const table = statsTable(problems);
  manifest.counts.by_domain_split_category = table.byDomainSplitCategory;
  if (opts.audit) manifest.audit = await opts.audit(out);
  // A file of the user's where the dataset's would go is kept: the manifest is required, the
  // card, stats and plots are not written over it (ownership.ts). Only those are asked about: the
  // shards need no hashing here.
  // --layout's files (acpbench: ACPBench's), listed in the manifest; like the manifest, never
  // written over a file of the user's
  const layout = layoutFiles(out, layoutOf(config), shards);
  if (layout !== null) manifest.layout = layout.record;
  const layoutRels = [...(layout?.texts.keys() ?? [])];
  const owned = ownedFiles(out, new Set(["manifest.json", "README.md", "stats.csv", ...Object.values(PLOT_FILES), ...layoutRels]));
  checkLedgerName(out);
  if (!mayReplace(out, "manifest.json", owned)) throw new UserError(`${join(out, "manifest.json")}: exists and pddl2prm did not write it; move it away, or use another --out`);
  for (const rel of layoutRels) if (!mayReplace(out, rel, owned)) throw new UserError(`${join(out, rel)}: exists and pddl2prm did not write it; move it away, or use another --out`);
  const texts = new Map<string, string>([["manifest.json", JSON.stringify(manifest, null, 2) + "\n"], ...(layout?.texts ?? [])]);
  const kept: string[] = [];
  if (Object.values(PLOT_FILES).every((rel) => mayReplace(out, rel, owned))) for (const [rel, svg] of await plotTexts(problems)) texts.set(rel, svg);
  else kept.push(...Object.values(PLOT_FILES).filter((rel) => !mayReplace(out, rel, owned)));
  if (mayReplace(out, "README.md", owned)) texts.set("README.md", datasetCard(manifest));
  else kept.push("README.md");
  if (mayReplace(out, "stats.csv", owned)) texts.set("stats.csv", await statsCsvText(table));
  else kept.push("stats.csv");
  // the ledger and the files together: no kill leaves one of them out of the other (ownership.ts)
  commitFiles(out, texts, []);
  opts.onKept?.(kept);
  return manifest;
}

/**
 * The card, stats.csv and plots of the complete dataset `out` that are byte for byte what
 * pddl2prm writes from the folder's own records (so provably its own even where the ledger that
 * named them is gone), each with its sha256.
 */
export async function reproducedFiles(out: string): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  try {
    const { ranks, missing } = readRanks(out);
    if (missing.length > 0) return found;
    const problems = ranks.flatMap((r) => r.problems);
    problems.sort((a, b) => (a.domain === b.domain ? (a.problem < b.problem ? -1 : a.problem > b.problem ? 1 : 0) : a.domain < b.domain ? -1 : 1));
    const texts = new Map<string, string>([["stats.csv", await statsCsvText(statsTable(problems))], ...(await plotTexts(problems))]);
    for (const [rel, text] of texts) if (plainFileHash(out, rel) === textHash(text)) found.set(rel, textHash(text));
  } catch {
    // records that do not read: nothing is proven this way
  }
  return found;
}

/** Names of all files of a finished dataset's shards (for tests and `stats`). */
export function shardFiles(out: string): string[] {
  const dir = join(out, "data");
  return existsSync(dir) ? readdirSync(dir).filter((n) => /\.(jsonl(\.gz)?|parquet)$/.test(n)).sort() : [];
}
