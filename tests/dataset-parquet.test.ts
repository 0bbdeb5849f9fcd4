/**
 * `generate --parquet`: the same rows as JSONL, read back from Parquet; the card's features as
 * the files' schema; ranks, resume, `stats --verify` and `audit` on Parquet folders.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { parquetMetadataAsync, asyncBufferFromFile } from "hyparquet";
import { features } from "../src/dataset/features.js";
import { parquetRowGroups, parquetSchema } from "../src/dataset/parquet.js";
import { cliRunner } from "./cli-run.js";
import { fileTempDir } from "./temp-dir.js";

const tmp = fileTempDir("pddl2prm-parquet-");
const cli = cliRunner(tmp);
const BASE = ["generate", "--domain", "blocksworld,ferry", "--count", "8", "--seed", "5", "--quiet"];

type Row = Record<string, unknown>;
/** A row without its null fields (Parquet has a null where JSON left a field out). */
function dropNulls(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(dropNulls);
  if (v !== null && typeof v === "object") return Object.fromEntries(Object.entries(v).filter(([, x]) => x !== null).map(([k, x]) => [k, dropNulls(x)]));
  return v;
}

function jsonlRows(dir: string): Row[] {
  return readdirSync(join(dir, "data"))
    .filter((n) => n.endsWith(".jsonl"))
    .sort()
    .flatMap((n) => readFileSync(join(dir, "data", n), "utf8").split("\n").filter((l) => l.length > 0).map((l) => JSON.parse(l) as Row));
}

async function parquetRows(dir: string): Promise<Row[]> {
  const out: Row[] = [];
  for (const n of readdirSync(join(dir, "data")).filter((x) => x.endsWith(".parquet")).sort()) {
    for await (const g of parquetRowGroups(join(dir, "data", n))) out.push(...g);
  }
  return out;
}

const dirs: Record<string, string> = {};
beforeAll(async () => {
  for (const [name, extra] of [
    ["jsonl", []],
    ["parquet", ["--parquet"]],
    ["feedback-jsonl", ["--format", "feedback"]],
    ["feedback-parquet", ["--format", "feedback", "--parquet"]],
  ] as [string, string[]][]) {
    const r = await cli([...BASE, ...extra, "--workers", "2", "--out", join(tmp, name)]);
    if (r.code !== 0) throw new Error(`${name}: ${r.stderr}`);
    dirs[name] = join(tmp, name);
  }
}, 300_000);

describe("generate --parquet", () => {
  it("writes the JSONL run's rows, row for row, as Parquet shards the card points to", async () => {
    for (const [p, j] of [["parquet", "jsonl"], ["feedback-parquet", "feedback-jsonl"]]) {
      const names = readdirSync(join(dirs[p]!, "data"));
      expect(names.every((n) => /^(train|validation|test)-00000-of-00001\.parquet$/.test(n)), names.join(",")).toBe(true);
      const rows = (await parquetRows(dirs[p]!)).map(dropNulls);
      expect(rows.length).toBeGreaterThan(100);
      expect(rows).toEqual(jsonlRows(dirs[j]!).map(dropNulls));
      const card = readFileSync(join(dirs[p]!, "README.md"), "utf8");
      expect(card).toMatch(/path: data\/train-\*\.parquet/);
      expect(card).not.toMatch(/\.jsonl/);
      // the card's features are the JSONL run's (the same YAML), and the files' schema
      const featuresOf = (c: string) => c.slice(c.indexOf("dataset_info:"), c.indexOf("  splits:"));
      expect(featuresOf(card)).toBe(featuresOf(readFileSync(join(dirs[j]!, "README.md"), "utf8")));
    }
  });

  it("the files' schema is the card's features: names, nesting and types", async () => {
    const config = JSON.parse(readFileSync(join(dirs["feedback-parquet"]!, "config.json"), "utf8")) as { config: Record<string, unknown> };
    const want = parquetSchema(features("feedback", false, String(config.config["style"])));
    const meta = await parquetMetadataAsync(await asyncBufferFromFile(join(dirs["feedback-parquet"]!, "data", "train-00000-of-00001.parquet")));
    expect(meta.schema.map((e) => [e.name, e.type ?? null, e.num_children ?? null, e.repetition_type ?? null])).toEqual(
      want.map((e) => [e.name, e.type ?? null, e.num_children ?? null, e.repetition_type ?? null]),
    );
    // int64 columns hold integers, float64 doubles: the meta of a native row
    const native = parquetSchema(features("native", false));
    expect(native.find((e) => e.name === "state_index")?.type).toBe("INT64");
    expect(native.find((e) => e.name === "h_before")?.type).toBe("DOUBLE");
  });

  it("two ranks, and a resumed rank, give the single run's rows; merge --verify, stats and audit read the shards", async () => {
    const ranks = join(tmp, "ranks");
    for (const rank of ["1", "0"]) {
      const r = await cli([...BASE, "--parquet", "--world", "2", "--rank", rank, "--workers", "1", "--out", ranks]);
      expect(r.code, r.stderr).toBe(0);
    }
    // rank 0 again: complete already, nothing rewritten
    const before = readFileSync(join(ranks, "data", "train-00000-of-00002.parquet"));
    const again = await cli([...BASE, "--parquet", "--world", "2", "--rank", "0", "--workers", "1", "--out", ranks]);
    expect(again.code, again.stderr).toBe(0);
    expect(readFileSync(join(ranks, "data", "train-00000-of-00002.parquet")).equals(before)).toBe(true);
    const byId = (rows: Row[]) => [...rows].sort((a, b) => String(a["id"]).localeCompare(String(b["id"])));
    expect(byId(await parquetRows(ranks))).toEqual(byId(await parquetRows(dirs["parquet"]!)));
    const merged = await cli(["merge", ranks, "--verify"]);
    expect(merged.code, merged.stderr).toBe(0);
    const stats = await cli(["stats", ranks]);
    expect(stats.code, stats.stderr).toBe(0);
    expect(stats.stdout).toMatch(new RegExp(`^${(await parquetRows(ranks)).length} rows`, "m"));
    const audit = await cli(["audit", dirs["parquet"]!]);
    expect(audit.code, audit.stderr).toBe(0);
    expect(audit.stdout).toMatch(/pass/);
  }, 300_000);

  it("a changed shard fails merge --verify; --gzip with --parquet is a usage error", async () => {
    const dir = join(tmp, "tampered");
    expect((await cli([...BASE, "--parquet", "--workers", "1", "--out", dir])).code).toBe(0);
    const shard = join(dir, "data", "train-00000-of-00001.parquet");
    const bytes = readFileSync(shard);
    bytes[100] = bytes[100]! ^ 0xff;
    writeFileSync(shard, bytes);
    const r = await cli(["merge", dir, "--verify"]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/train-00000-of-00001\.parquet/);
    const both = await cli([...BASE, "--parquet", "--gzip", "--out", join(tmp, "both")]);
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/--gzip or --parquet, not both/);
  }, 120_000);
});
