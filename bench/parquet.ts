/**
 * bench/parquet: Parquet shards against JSONL, per format: bytes on disk and the main thread's
 * write time for the same rows (the shard writers alone, fed the workers' encoded lines in
 * batches of one problem's size), and the time to read them back.
 *
 *   npm run bench:parquet -- [--count 20] [--formats native,trl,pairs,feedback] [--out bench/results/parquet.txt]
 *
 * Rows come from `writeDataset` on `--domain all --count N` (JSONL), read back, and written
 * again by ShardWriter (JSONL, and JSONL + gzip) and ParquetShardWriter, three times each; the
 * fastest time is reported.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { checkBenchFlags } from "./args.js";
import { writeDataset } from "../src/dataset/write.js";
import { encodeLines, ShardWriter } from "../src/dataset/shard.js";
import { ParquetShardWriter, parquetRowGroups } from "../src/dataset/parquet.js";
import { features } from "../src/dataset/features.js";
import { BUILTIN_DOMAINS } from "../src/generators/index.js";
import { isFormat } from "../src/dataset/formats.js";

const USAGE = "usage: npm run bench:parquet -- [--count 20] [--formats native,trl,pairs,feedback] [--out bench/results/parquet.txt]";
checkBenchFlags("bench/parquet", USAGE, { values: ["--count", "--formats", "--out"] });
const { values } = parseArgs({
  options: { count: { type: "string", default: "20" }, formats: { type: "string", default: "native,trl,pairs,feedback" }, out: { type: "string" } },
});
const count = Number(values.count);
const formats = values.formats.split(",");
const bad = !Number.isInteger(count) || count < 1 ? `--count must be a positive integer, got '${values.count}'` : formats.find((f) => !isFormat(f)) !== undefined ? `--formats: unknown format '${formats.find((f) => !isFormat(f))}'` : null;
if (bad !== null) {
  console.error(`bench/parquet: error: ${bad}\n${USAGE}`);
  process.exit(2);
}

const tmp = mkdtempSync(join(tmpdir(), "pddl2prm-bench-parquet-"));
const lines: string[] = [];
const out = (s: string) => {
  lines.push(s);
  process.stdout.write(s + "\n");
};
out(`bench/parquet: --domain all --count ${count}, one shard of all rows per format; write: fastest of 3 (main thread, shard writer only); read: parse every row back`);
out("");
out("format        rows     JSONL MB  gzip MB  Parquet MB  x smaller  JSONL ms  gzip ms  Parquet ms  Parquet rows/s  read JSONL ms  read Parquet ms");
try {
  for (const format of formats) {
    const dir = join(tmp, format);
    await writeDataset({ domain: BUILTIN_DOMAINS.map((d) => d.name), count, seed: 1, workers: 2, format: format as never, out: dir });
    const text = readdirSync(join(dir, "data"))
      .filter((n) => n.endsWith(".jsonl"))
      .sort()
      .map((n) => readFileSync(join(dir, "data", n), "utf8"))
      .join("");
    const rows = text.split("\n").filter((l) => l.length > 0);
    // the workers hand over one problem's rows at a time: batches of about that size
    const batches: Uint8Array[] = [];
    for (let i = 0; i < rows.length; i += 64) batches.push(encodeLines(rows.slice(i, i + 64)));
    const cfg = JSON.parse(readFileSync(join(dir, "config.json"), "utf8")) as { config: Record<string, unknown> };
    const cols = features(format, false, typeof cfg.config["style"] === "string" ? cfg.config["style"] : undefined);
    const time = async (kind: "jsonl" | "gzip" | "parquet"): Promise<{ ms: number; bytes: number; file: string }> => {
      let best = Infinity;
      let bytes = 0;
      const file = join(tmp, `${format}.${kind}`);
      for (let k = 0; k < 3; k++) {
        rmSync(file, { force: true });
        const t0 = performance.now();
        const w = kind === "parquet" ? new ParquetShardWriter(file, file + ".tmp", "x", cols) : new ShardWriter(file, file + ".tmp", "x", kind === "gzip");
        for (const b of batches) await w.writeEncoded(b, 64);
        await w.finish();
        best = Math.min(best, performance.now() - t0);
        bytes = statSync(file).size;
      }
      return { ms: best, bytes, file };
    };
    const j = await time("jsonl");
    const g = await time("gzip");
    const p = await time("parquet");
    let t0 = performance.now();
    let n = 0;
    for (const l of readFileSync(j.file, "utf8").split("\n")) if (l.length > 0 && JSON.parse(l) !== null) n++;
    const readJ = performance.now() - t0;
    t0 = performance.now();
    let m = 0;
    for await (const group of parquetRowGroups(p.file)) m += group.length;
    const readP = performance.now() - t0;
    if (n !== rows.length || m !== rows.length) throw new Error(`${format}: read ${n} / ${m} rows of ${rows.length}`);
    const mb = (b: number) => (b / 1e6).toFixed(1);
    out(
      `${format.padEnd(12)} ${String(rows.length).padStart(6)}  ${mb(j.bytes).padStart(9)}  ${mb(g.bytes).padStart(7)}  ${mb(p.bytes).padStart(10)}  ${(j.bytes / p.bytes).toFixed(1).padStart(9)}  ` +
        `${j.ms.toFixed(0).padStart(8)}  ${g.ms.toFixed(0).padStart(7)}  ${p.ms.toFixed(0).padStart(10)}  ${Math.round((rows.length / p.ms) * 1000).toString().padStart(14)}  ${readJ.toFixed(0).padStart(13)}  ${readP.toFixed(0).padStart(15)}`,
    );
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
if (values.out !== undefined) writeFileSync(values.out, lines.join("\n") + "\n");
