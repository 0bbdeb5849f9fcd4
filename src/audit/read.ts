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

/** What the audit needs to know about how a dataset was made. */
export interface DatasetInfo {
  dir: string;
  format: Format;
  config: Record<string, unknown>;
  /** Shard files under data/, sorted. */
  shards: string[];
  /** Rows per split, from the ranks' completion records (null where they cannot be read: see `countRows`). */
  rowsBySplit: Record<Split, number> | null;
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
  const shards = existsSync(data) ? readdirSync(data).filter((n) => /^(train|validation|test)-\d{5}-of-\d{5}\.jsonl(\.gz)?$/.test(n)).sort() : [];
  if (shards.length === 0) throw new UserError(`${dir}: no shards under data/ (has the run finished?)`);
  return { dir, format, config, shards: shards.map((n) => join(data, n)), rowsBySplit: rowsBySplit(dir) };
}

function rowsBySplit(dir: string): Record<Split, number> | null {
  const out = { train: 0, validation: 0, test: 0 };
  const marks = join(dir, "completions");
  if (!existsSync(marks)) return null;
  try {
    for (const n of readdirSync(marks).filter((x) => /^\d{5}$/.test(x))) {
      for (const s of readRankFile(join(marks, n)).shards) {
        const split = SPLITS.find((x) => s.path.startsWith(`data/${x}-`));
        if (split) out[split] += s.rows;
      }
    }
  } catch {
    return null; // counts are a hint for sampling: without them the audit reads the rows alone
  }
  return out;
}

/** Bytes of a line's start that `readRows` hands to `keep` (row ids come first in every format that has them). */
export const KEEP_HEAD_BYTES = 512;

/**
 * The lines of a shard as byte ranges (a trailing "\r" dropped, as readline's crlfDelay does):
 * newlines are found with Buffer.indexOf and only the lines a caller keeps are decoded, which
 * is several times faster than readline on gigabytes of JSONL where a sample is audited.
 */
async function* byteLines(file: string): AsyncGenerator<[Buffer, number, number]> {
  const input = file.endsWith(".gz") ? createReadStream(file, { highWaterMark: 1 << 20 }).pipe(createGunzip()) : createReadStream(file, { highWaterMark: 1 << 20 });
  let carry: Buffer | null = null;
  for await (const chunk of input as AsyncIterable<Buffer>) {
    const buf: Buffer = carry === null ? chunk : Buffer.concat([carry, chunk]);
    let start = 0;
    for (let nl = buf.indexOf(10, start); nl >= 0; nl = buf.indexOf(10, start)) {
      yield [buf, start, nl > start && buf[nl - 1] === 13 ? nl - 1 : nl];
      start = nl + 1;
    }
    carry = start < buf.length ? buf.subarray(start) : null;
  }
  if (carry !== null) yield [carry, 0, carry.length > 0 && carry[carry.length - 1] === 13 ? carry.length - 1 : carry.length];
}

/**
 * Every row of every shard, in shard order (only lines `keep` accepts, if given: it is shown
 * the line's first `KEEP_HEAD_BYTES` bytes, before the line is decoded or parsed). A line that
 * is not a JSON object is an error naming it.
 */
export async function* readRows(info: DatasetInfo, keep?: (head: string) => boolean): AsyncGenerator<ShardRow> {
  for (const file of info.shards) {
    const base = file.slice(file.lastIndexOf("/") + 1);
    const split = SPLITS.find((s) => base.startsWith(`${s}-`))!;
    let line = 0;
    try {
      for await (const [buf, start, end] of byteLines(file)) {
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
        yield { split, obj: obj as Record<string, unknown>, file, line };
      }
    } catch (e) {
      if (e instanceof UserError) throw e;
      throw new UserError(`${file}: cannot read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
    }
  }
}

/** Rows per split, counted from the shards' lines (no parsing). */
export async function countRows(info: DatasetInfo): Promise<Record<Split, number>> {
  const out = { train: 0, validation: 0, test: 0 };
  for (const file of info.shards) {
    const base = file.slice(file.lastIndexOf("/") + 1);
    const split = SPLITS.find((s) => base.startsWith(`${s}-`))!;
    for await (const [, start, end] of byteLines(file)) if (end > start) out[split]++;
  }
  return out;
}
