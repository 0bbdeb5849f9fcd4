import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { countRows, KEEP_HEAD_BYTES, openDataset, readRows } from "../src/audit/read.js";

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** A dataset folder with the given shard files (name -> bytes). */
function dataset(shards: Record<string, Buffer | string>): string {
  const dir = mkdtempSync(join(tmpdir(), "pddl2prm-audit-read-"));
  dirs.push(dir);
  writeFileSync(join(dir, "config.json"), JSON.stringify({ config_hash: "x", config: { format: "native" } }));
  mkdirSync(join(dir, "data"));
  for (const [name, bytes] of Object.entries(shards)) writeFileSync(join(dir, "data", name), bytes);
  return dir;
}

async function all(dir: string, keep?: (head: string) => boolean): Promise<Array<[string, number, unknown]>> {
  const out: Array<[string, number, unknown]> = [];
  for await (const r of readRows(openDataset(dir), keep)) out.push([r.split, r.line, r.obj["id"]]);
  return out;
}

describe("readRows", () => {
  it("reads LF and CRLF lines, blank lines and a last line without a newline, across read chunks, plain and gzip", async () => {
    // long lines (over 1 MiB in all) so that lines cross the reader's chunks
    const pad = "é".repeat(40_000);
    const lines = Array.from({ length: 60 }, (_, i) => JSON.stringify({ id: `d/p${i}/t00/c0`, pad }));
    const text = lines.slice(0, 30).join("\n") + "\r\n\n" + lines.slice(30).join("\r\n");
    const dir = dataset({ "train-00000-of-00001.jsonl": text, "test-00000-of-00001.jsonl.gz": gzipSync(lines.slice(0, 3).join("\n") + "\n") });
    const rows = await all(dir);
    expect(rows.filter((r) => r[0] === "train").map((r) => r[2])).toEqual(lines.map((_, i) => `d/p${i}/t00/c0`));
    expect(rows.filter((r) => r[0] === "test").length).toBe(3);
    // line numbers count the blank line
    expect(rows.find((r) => r[2] === "d/p30/t00/c0")![1]).toBe(32);
    expect(await countRows(openDataset(dir))).toEqual({ train: 60, validation: 0, test: 3 });
  });

  it("shows `keep` the start of each line only and skips what it rejects", async () => {
    const lines = Array.from({ length: 10 }, (_, i) => JSON.stringify({ id: `d/p${i}/t00/c0`, pad: "x".repeat(2000) }));
    const dir = dataset({ "train-00000-of-00001.jsonl": lines.join("\n") + "\n" });
    const heads: number[] = [];
    const rows = await all(dir, (head) => {
      heads.push(head.length);
      return /"id":"d\/p[02468]\//.test(head);
    });
    expect(rows.map((r) => r[2])).toEqual(["d/p0/t00/c0", "d/p2/t00/c0", "d/p4/t00/c0", "d/p6/t00/c0", "d/p8/t00/c0"]);
    expect(Math.max(...heads)).toBe(KEEP_HEAD_BYTES);
  });

  it("names the file and line of a line that is not a JSON object", async () => {
    const dir = dataset({ "train-00000-of-00001.jsonl": '{"id":"a/b"}\n[1,2]\n' });
    await expect(all(dir)).rejects.toThrow(/train-00000-of-00001\.jsonl:2: expected a JSON object/);
    const bad = dataset({ "train-00000-of-00001.jsonl": '{"id":"a/b"}\r\n{"id":\r\n' });
    await expect(all(bad)).rejects.toThrow(/train-00000-of-00001\.jsonl:2: invalid JSON/);
  });
});
