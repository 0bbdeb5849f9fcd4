/**
 * Reading a dataset folder for the audit: its settings (`config.json`) and its rows, shard by
 * shard, streamed (a paper-scale native dataset is gigabytes), each with the split its shard
 * file names.
 */
import { createReadStream, existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { createGunzip } from "node:zlib";
import { isFormat, type Format } from "../dataset/formats.js";
import { SPLITS, type Split } from "../dataset/row.js";
import { readConfigFile, readRankFile } from "../dataset/state-files.js";
import { UserError } from "../pddl/errors.js";
import { parquetRowGroups } from "../dataset/parquet.js";

/** What the audit needs to know about how a dataset was made. */
export interface DatasetInfo {
  dir: string;
  format: Format;
  config: Record<string, unknown>;
  /** Shard files under data/, sorted. */
  shards: string[];
  /** Rows per split, from the ranks' completion records (null where they cannot be read: see `countRows`). */
  rowsBySplit: Record<Split, number> | null;
  /** Problems with rows per split, from the same records (null where they cannot be read). */
  problemsBySplit: Record<Split, number> | null;
}

/** One row of a shard, parsed. */
export interface ShardRow {
  split: Split;
  obj: Record<string, unknown>;
  file: string;
  line: number;
}

/** The settings and shard list of a dataset folder; a clear error when `dir` is not one. */
export function openDataset(dir: string): DatasetInfo {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new UserError(`${dir}: no such folder`);
  const configPath = join(dir, "config.json");
  if (!existsSync(configPath)) throw new UserError(`${dir}: not a pddl2prm dataset folder (no config.json)`);
  const { config } = readConfigFile(configPath);
  const format = String(config["format"] ?? "native");
  if (!isFormat(format)) throw new UserError(`${configPath}: unknown format '${format}'`);
  const data = join(dir, "data");
  const shards = existsSync(data) ? readdirSync(data).filter((n) => /^(train|validation|test)-\d{5}-of-\d{5}\.(jsonl(\.gz)?|parquet)$/.test(n)).sort() : [];
  // a finished run whose splits are all empty writes no shard (write.ts), but its completion records
  if (shards.length === 0 && !existsSync(join(dir, "completions"))) throw new UserError(`${dir}: no shards under data/ (has the run finished?)`);
  const counts = countsBySplit(dir);
  return { dir, format, config, shards: shards.map((n) => join(data, n)), rowsBySplit: counts?.rows ?? null, problemsBySplit: counts?.problems ?? null };
}

function countsBySplit(dir: string): { rows: Record<Split, number>; problems: Record<Split, number> } | null {
  const rows = { train: 0, validation: 0, test: 0 };
  const problems = { train: 0, validation: 0, test: 0 };
  const marks = join(dir, "completions");
  if (!existsSync(marks)) return null;
  try {
    for (const n of readdirSync(marks).filter((x) => /^\d{5}$/.test(x))) {
      const rec = readRankFile(join(marks, n));
      for (const s of rec.shards) {
        const split = SPLITS.find((x) => s.path.startsWith(`data/${x}-`));
        if (split) rows[split] += s.rows;
      }
      for (const p of rec.problems) if (p.rows > 0) problems[p.split]++;
    }
  } catch {
    return null; // counts are a hint for sampling: without them the audit reads the rows alone
  }
  return { rows, problems };
}

/** Bytes of a line's start that `readRows` hands to `keep` (row ids come first in every format that has them). */
export const KEEP_HEAD_BYTES = 512;

/**
 * The lines of a shard as byte ranges, one batch per read chunk (a trailing "\r" dropped, as
 * readline's crlfDelay does): newlines are found with Buffer.indexOf and only the lines a
 * caller keeps are decoded, which is several times faster than readline on gigabytes of JSONL
 * where a sample is audited. A batch, not a line, per step of the generator: a step costs
 * promises and microtasks, which per line of a million-row dataset added up to seconds.
 */
async function* lineBatches(file: string): AsyncGenerator<{ buf: Buffer; ranges: number[] }> {
  if (file.endsWith(".parquet")) {
    // a row group at a time, as the JSON lines it was written from
    for await (const rows of parquetRowGroups(file)) {
      const buf = Buffer.from(rows.map((r) => JSON.stringify(r)).join("\n") + "\n");
      const ranges: number[] = [];
      for (let start = 0, nl = buf.indexOf(10); nl >= 0; start = nl + 1, nl = buf.indexOf(10, start)) ranges.push(start, nl);
      yield { buf, ranges };
    }
    return;
  }
  const opts = { highWaterMark: 1 << 20 };
  const input = file.endsWith(".gz") ? createReadStream(file, opts).pipe(createGunzip({ chunkSize: 1 << 20 })) : createReadStream(file, opts);
  let carry: Buffer[] = [];
  const cut = (buf: Buffer, start: number, nl: number): number => (nl > start && buf[nl - 1] === 13 ? nl - 1 : nl);
  for await (const chunk of input as AsyncIterable<Buffer>) {
    let start = 0;
    let nl = chunk.indexOf(10);
    if (nl < 0) {
      carry.push(chunk);
      continue;
    }
    const ranges: number[] = [];
    if (carry.length > 0) {
      // the line that spans chunks: only its own bytes are joined
      const line = Buffer.concat([...carry, chunk.subarray(0, nl)]);
      carry = [];
      yield { buf: line, ranges: [0, cut(line, 0, line.length)] };
      start = nl + 1;
      nl = chunk.indexOf(10, start);
    }
    for (; nl >= 0; nl = chunk.indexOf(10, start)) {
      ranges.push(start, cut(chunk, start, nl));
      start = nl + 1;
    }
    if (ranges.length > 0) yield { buf: chunk, ranges };
    if (start < chunk.length) carry.push(chunk.subarray(start));
  }
  if (carry.length > 0) {
    const line = Buffer.concat(carry);
    yield { buf: line, ranges: [0, cut(line, 0, line.length)] };
  }
}

/**
 * The rows of every shard, in shard order, a batch at a time (only lines `keep` accepts, if
 * given: it is shown the line's first `KEEP_HEAD_BYTES` bytes, before the line is decoded or
 * parsed). A line that is not a JSON object is an error naming it.
 */
export async function* readRowBatches(info: DatasetInfo, keep?: (head: string) => boolean): AsyncGenerator<ShardRow[]> {
  for (const file of info.shards) {
    const base = file.slice(file.lastIndexOf("/") + 1);
    const split = SPLITS.find((s) => base.startsWith(`${s}-`))!;
    let line = 0;
    try {
      for await (const { buf, ranges } of lineBatches(file)) {
        let rows: ShardRow[] = [];
        for (let i = 0; i < ranges.length; i += 2) {
          const start = ranges[i]!;
          const end = ranges[i + 1]!;
          line++;
          if (end === start) continue;
          if (keep !== undefined && !keep(buf.toString("utf8", start, Math.min(end, start + KEEP_HEAD_BYTES)))) continue;
          let obj: unknown;
          try {
            obj = JSON.parse(buf.toString("utf8", start, end));
          } catch {
            throw new UserError(`${file}:${line}: invalid JSON`);
          }
          if (obj === null || typeof obj !== "object" || Array.isArray(obj)) throw new UserError(`${file}:${line}: expected a JSON object`);
          rows.push({ split, obj: obj as Record<string, unknown>, file, line });
          // small batches: a chunk's parsed rows held at once would outlive young-generation GCs
          if (rows.length === ROWS_PER_BATCH) {
            yield rows;
            rows = [];
          }
        }
        if (rows.length > 0) yield rows;
      }
    } catch (e) {
      if (e instanceof UserError) throw e;
      throw new UserError(`${file}: cannot read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
    }
  }
}

const ROWS_PER_BATCH = 64;

/** Every row of every shard, in shard order (`readRowBatches`, a row at a time). */
export async function* readRows(info: DatasetInfo, keep?: (head: string) => boolean): AsyncGenerator<ShardRow> {
  for await (const rows of readRowBatches(info, keep)) yield* rows;
}

/** Rows per split, counted from the shards' lines (no parsing). */
export async function countRows(info: DatasetInfo): Promise<Record<Split, number>> {
  const out = { train: 0, validation: 0, test: 0 };
  for (const file of info.shards) {
    const base = file.slice(file.lastIndexOf("/") + 1);
    const split = SPLITS.find((s) => base.startsWith(`${s}-`))!;
    for await (const { ranges } of lineBatches(file)) for (let i = 0; i < ranges.length; i += 2) if (ranges[i + 1]! > ranges[i]!) out[split]++;
  }
  return out;
}
