/**
 * Reading the files a run keeps its state in (`config.json`, `completions/{rank}`): validated on
 * read, so that a corrupt or foreign file is a clear error naming it, never a stack trace.
 */
import { readFileSync } from "node:fs";
import { z } from "zod";
import { UserError } from "../pddl/errors.js";
import type { RankRecord } from "./records.js";
import { CATEGORIES, SPLITS } from "./row.js";

const Counts = z.object(Object.fromEntries(CATEGORIES.map((c) => [c, z.number().int().nonnegative()])) as Record<(typeof CATEGORIES)[number], z.ZodNumber>);

/** A domain or problem id as a file name: no path separators, not "." or "..". */
const safeName = (s: string): boolean => !/[\\/]/.test(s) && s !== "." && s !== "..";

const ConfigFile = z.object({ config_hash: z.string().min(1), config: z.record(z.unknown()) });

const RankFile = z.object({
  rank: z.number().int().nonnegative(),
  world: z.number().int().positive(),
  config_hash: z.string().min(1),
  // (a record names files by their place in the folder: a shard path or id that leaves it is no record of ours)
  shards: z.array(
    z.object({
      path: z.string().regex(/^data\/(train|validation|test)-\d{5}-of-\d{5}\.(jsonl(\.gz)?|parquet)$/, "a shard path inside data/"),
      rows: z.number().int().nonnegative(),
      bytes: z.number().int().nonnegative(),
      sha256: z.string().regex(/^[0-9a-f]{64}$/, "a sha256 in hex"),
    }),
  ),
  problems: z.array(
    z.object({
      domain: z.string().min(1).refine(safeName, "a name without '/' or '..'"),
      problem: z.string().min(1).refine(safeName, "a name without '/' or '..'"),
      split: z.enum(SPLITS as unknown as [string, ...string[]]),
      rows: z.number().int().nonnegative(),
      plan_length: z.number().int(),
      skipped: z.string().nullable(),
      counts: Counts,
      dropped: z.number().int().nonnegative().optional(),
      text: z
        .object({ rules_omitted: z.number().int().nonnegative(), fixed_omitted: z.number().int().nonnegative(), cost_omitted: z.number().int().nonnegative(), arithmetic: z.number().int().nonnegative() })
        .optional(),
      cut: z.object({ states_labelled: z.number().int().positive(), states_cut: z.number().int().positive(), reason: z.string() }).optional(),
    }),
  ),
  counts: Counts,
});

function readJson<T>(path: string, schema: z.ZodType<T>, what: string, advice: string): T {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(path, "utf8"));
  } catch (e) {
    const why = e instanceof SyntaxError ? "not JSON" : ((e as NodeJS.ErrnoException).code ?? String(e));
    throw new UserError(`${path}: cannot read the ${what} (${why}); ${advice}`);
  }
  const r = schema.safeParse(data);
  if (!r.success) {
    const issue = r.error.issues[0]!;
    const at = issue.path.length > 0 ? ` at ${issue.path.join(".")}` : "";
    throw new UserError(`${path}: not a valid ${what} (${issue.message}${at}); ${advice}`);
  }
  return r.data;
}

/** `config.json` of a dataset folder. */
export function readConfigFile(path: string): { config_hash: string; config: Record<string, unknown> } {
  return readJson(path, ConfigFile, "pddl2prm config", "remove it, or use --force to start the dataset again");
}

/** A rank's completion marker `completions/{rank}`. */
export function readRankFile(path: string): RankRecord {
  // (--force would not help: with the same settings it resumes, and reads this record again)
  return readJson(path, RankFile, "pddl2prm completion record", "remove it and run again: that rank is then labelled again") as RankRecord;
}
