// bench/parquet-libraries: the measurement that chose hyparquet-writer. Needs two packages that are
// not dependencies: npm install --no-save parquet-wasm apache-arrow; then, after npm run build:
//   node bench/parquet-libraries.mjs OUT/data/train-00000-of-00001.jsonl native
// Parquet writers compared on one real shard: write time (parse excluded), size, and a read-back.
import { readFileSync, writeFileSync, statSync } from "node:fs";
import { ParquetWriter, ByteWriter } from "hyparquet-writer";
import { features } from "../dist/src/dataset/features.js";
import * as arrow from "apache-arrow";
import { createRequire } from "node:module"; const pw = createRequire(import.meta.url)("parquet-wasm/node");
const file = process.argv[2], format = process.argv[3] ?? "native";
const rows = readFileSync(file, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l));
const fs = features(format, false);
const prim = { string: { type: "BYTE_ARRAY", converted_type: "UTF8" }, int64: { type: "INT64" }, float64: { type: "DOUBLE" }, bool: { type: "BOOLEAN" } };
function schemaOf(f) {
  if ("dtype" in f) return [{ name: f.name, ...prim[f.dtype], repetition_type: "OPTIONAL" }];
  if ("sequence" in f) return [{ name: f.name, repetition_type: "OPTIONAL", converted_type: "LIST", num_children: 1 }, { name: "list", repetition_type: "REPEATED", num_children: 1 }, { name: "element", ...prim[f.sequence], repetition_type: "OPTIONAL" }];
  if ("struct" in f) return [{ name: f.name, repetition_type: "OPTIONAL", num_children: f.struct.length }, ...f.struct.flatMap(schemaOf)];
  return [{ name: f.name, repetition_type: "OPTIONAL", converted_type: "LIST", num_children: 1 }, { name: "list", repetition_type: "REPEATED", num_children: 1 }, { name: "element", repetition_type: "OPTIONAL", num_children: f.list.length }, ...f.list.flatMap(schemaOf)];
}
const schema = [{ name: "root", num_children: fs.length }, ...fs.flatMap(schemaOf)];
const conv = (f, v) => (v === undefined || v === null ? null : "dtype" in f && f.dtype === "int64" ? BigInt(v) : "sequence" in f && f.sequence === "int64" ? v.map(BigInt) : "struct" in f ? Object.fromEntries(f.struct.map((g) => [g.name, conv(g, v[g.name])])) : "list" in f ? v.map((e) => Object.fromEntries(f.list.map((g) => [g.name, conv(g, e[g.name])]))) : v);
let t = performance.now();
const w = new ByteWriter();
const pq = new ParquetWriter({ writer: w, schema });
for (let at = 0; at < rows.length; at += 10000) {
  const chunk = rows.slice(at, at + 10000);
  pq.write({ columnData: fs.map((f) => ({ name: f.name, data: chunk.map((r) => conv(f, r[f.name])) })), rowGroupSize: 10000 });
}
pq.finish();
const hyBytes = new Uint8Array(w.getBuffer());
const hyMs = performance.now() - t;

t = performance.now();
const at = { string: () => new arrow.Utf8(), int64: () => new arrow.Int64(), float64: () => new arrow.Float64(), bool: () => new arrow.Bool() };
const atype = (f) => ("dtype" in f ? at[f.dtype]() : "sequence" in f ? new arrow.List(new arrow.Field("item", at[f.sequence](), true)) : "struct" in f ? new arrow.Struct(f.struct.map((g) => new arrow.Field(g.name, atype(g), true))) : new arrow.List(new arrow.Field("item", new arrow.Struct(f.list.map((g) => new arrow.Field(g.name, atype(g), true))), true)));
const cols = {};
for (const f of fs) cols[f.name] = arrow.vectorFromArray(rows.map((r) => conv(f, r[f.name])), atype(f));
const table = new arrow.Table(cols);
const wt = pw.Table.fromIPCStream(arrow.tableToIPC(table, "stream"));
const props = new pw.WriterPropertiesBuilder().setCompression(pw.Compression.SNAPPY).build();
const wasmBytes = pw.writeParquet(wt, props);
const wasmMs = performance.now() - t;

const jsonl = statSync(file).size;
console.log(`${rows.length} rows, JSONL ${(jsonl / 1e6).toFixed(1)} MB`);
console.log(`hyparquet-writer (snappy, card schema): ${hyMs.toFixed(0)} ms, ${(hyBytes.length / 1e6).toFixed(1)} MB`);
console.log(`parquet-wasm + apache-arrow (snappy, the same schema): ${wasmMs.toFixed(0)} ms, ${(wasmBytes.length / 1e6).toFixed(1)} MB`);
