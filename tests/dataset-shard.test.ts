import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { gunzipSync } from "node:zlib";
import { BufferPool } from "../src/dataset/buffer-pool.js";
import { encodeLines, ShardWriter } from "../src/dataset/shard.js";
import { writeDataset } from "../src/dataset/write.js";
import { pregenerateProblems } from "../src/dataset/problem-pool.js";
import { claimPool } from "../src/dataset/labelling-pool.js";
import { workerHeapMb } from "../src/dataset/resources.js";
import { planRun } from "../src/dataset/pipeline.js";
import { generateProblems } from "../src/generators/index.js";

const joined = (lines: string[]): Buffer => Buffer.from(lines.map((l) => l + "\n").join(""), "utf8");

describe("encodeLines", () => {
  it("gives the bytes of the joined lines, for any text", () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.string(), fc.string({ unit: "binary" }), fc.string({ unit: "grapheme", maxLength: 300 }))), (lines) => {
        expect(Buffer.from(encodeLines(lines)).equals(joined(lines))).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it("grows past its first guess where a long line is not ASCII", () => {
    const lines = ["ab", "é".repeat(5000), "\u{1F600}".repeat(3000), "x", "\ud800", "z".repeat(70_000) + "€"];
    expect(Buffer.from(encodeLines(lines)).equals(joined(lines))).toBe(true);
    expect(encodeLines([]).length).toBe(0);
  });

  it("encodes into a spare buffer that is large enough, whatever it held before", () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: "grapheme", maxLength: 40 })), fc.nat(2000), (lines, size) => {
        const spare = new ArrayBuffer(size);
        new Uint8Array(spare).fill(0x7b);
        const bytes = encodeLines(lines, spare);
        expect(Buffer.from(bytes).equals(joined(lines))).toBe(true);
        const need = joined(lines).length;
        if (need > 0 && need <= size) expect(bytes.buffer).toBe(spare);
        if (need > size) expect(bytes.buffer).not.toBe(spare);
      }),
      { numRuns: 300 },
    );
  });

  it("never returns a slice of Node's shared pool (its buffer is moved to another thread)", () => {
    const pooled = Buffer.from("x");
    const bytes = encodeLines(["short"]);
    expect(bytes.buffer).not.toBe(pooled.buffer);
    expect(bytes.byteOffset).toBe(0);
  });
});

describe("BufferPool", () => {
  it("hands out the largest kept buffer, keeps at most max, ignores empty ones", () => {
    const pool = new BufferPool(3);
    expect(pool.take()).toBeNull();
    for (const n of [10, 40, 0, 20, 30]) pool.give(new ArrayBuffer(n));
    expect(pool.size).toBe(3);
    expect([pool.take()?.byteLength, pool.take()?.byteLength, pool.take()?.byteLength, pool.take()]).toEqual([40, 20, 10, null]);
  });

  it("keeps no more than maxBytes in all", () => {
    const pool = new BufferPool(10, 100);
    for (const n of [60, 50, 30, 10]) pool.give(new ArrayBuffer(n));
    expect(pool.size).toBe(3); // 60 + 30 + 10; 50 would pass 100
    expect(pool.take()?.byteLength).toBe(60);
    pool.give(new ArrayBuffer(50));
    expect([pool.take()?.byteLength, pool.take()?.byteLength, pool.take()?.byteLength, pool.take()]).toEqual([50, 30, 10, null]);
  });
});

describe("ShardWriter", () => {
  const tmp = mkdtempSync(join(tmpdir(), "pddl2prm-writer-"));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  for (const gzip of [false, true]) {
    it(`calls back once each chunk is consumed, so its buffer can go round (gzip: ${gzip})`, async () => {
      const path = join(tmp, `s${gzip}.jsonl`);
      const w = new ShardWriter(path, path + ".tmp", "s.jsonl", gzip);
      const lines = Array.from({ length: 2000 }, (_, i) => `{"row":${i},"text":"${"x".repeat(i % 97)}"}`);
      const calls: number[] = [];
      for (let i = 0; i < lines.length; i += 100) {
        const bytes = encodeLines(lines.slice(i, i + 100));
        await w.writeEncoded(bytes, 100, () => {
          calls.push(i);
          new Uint8Array(bytes.buffer).fill(0x21); // reused at once: must not reach the file
        });
      }
      await w.writeEncoded(new Uint8Array(0), 0, () => calls.push(-1));
      const info = await w.finish();
      expect(calls.length).toBe(21);
      const got = readFileSync(path);
      expect((gzip ? gunzipSync(got) : got).equals(joined(lines))).toBe(true);
      expect(info.rows).toBe(2000);
    });
  }
});

describe("writeDataset bytes", () => {
  const tmp = mkdtempSync(join(tmpdir(), "pddl2prm-shard-"));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));
  const shards = (out: string): Record<string, string> =>
    Object.fromEntries(readdirSync(join(out, "data")).map((n) => [n, readFileSync(join(out, "data", n)).toString("base64")]));

  it("are the same in this thread (one worker, sets made in turn) and from worker threads (sets made in parallel, bytes moved)", async () => {
    // enough problems that later ones get written buffers back (BufferPool)
    const opts = { domain: ["hanoi", "ferry"], count: 8, seed: 7 };
    await writeDataset({ ...opts, out: join(tmp, "in-process"), workers: 1 });
    await writeDataset({ ...opts, out: join(tmp, "threads"), workers: 2 });
    const a = shards(join(tmp, "in-process"));
    expect(Object.values(a).some((s) => s.length > 1000)).toBe(true);
    expect(shards(join(tmp, "threads"))).toEqual(a);
  }, 120_000);
});

describe("writeDataset failures", () => {
  const tmp = mkdtempSync(join(tmpdir(), "pddl2prm-shard-fail-"));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));
  const folder = (): string => mkdtempSync(join(tmp, "out-"));

  it("a run that fails while renaming its shards removes those already in place, and the others' temporary files", async () => {
    // (pddl2prm writes only into its own folders: the obstacle sits in the staging folder of a
    // forced run over an older dataset, which must stay as it was)
    const out = folder();
    await writeDataset({ domain: "hanoi", count: 3, seed: 1, workers: 1, out });
    const before = readdirSync(out, { recursive: true }).sort();
    const stage = join(out, ".pddl2prm-next");
    // a folder where the test shard should go: renaming onto it fails after train's rename
    // (6 hanoi problems have rows in train and test, none in validation)
    mkdirSync(join(stage, "data", "test-00000-of-00001.jsonl"), { recursive: true });
    writeFileSync(join(stage, "data", "test-00000-of-00001.jsonl", "x"), "x");
    // the staging folder of an earlier forced run with these settings (its config.json, written
    // first by every run): a folder of that name without one would be the user's, and refused
    const same = folder();
    await writeDataset({ domain: "hanoi", count: 6, seed: 2, workers: 1, out: same });
    writeFileSync(join(stage, "config.json"), readFileSync(join(same, "config.json")));
    await expect(writeDataset({ domain: "hanoi", count: 6, seed: 2, workers: 1, out, force: true })).rejects.toThrow(
      /test-00000-of-00001\.jsonl: cannot move the finished shard into place \(E[A-Z]+[):]/,
    );
    // train's shard is gone and the empty validation's temporary file too; config.json stays, as
    // always where data/ holds files the run did not make (another rank's, here the stray folder)
    expect(readdirSync(join(stage, "data"))).toEqual(["test-00000-of-00001.jsonl"]);
    expect(readdirSync(stage).sort()).toEqual(["config.json", "data"]);
    expect(readdirSync(out, { recursive: true }).filter((n) => !String(n).startsWith(".pddl2prm-next")).sort()).toEqual(before);
  });
});

describe("pregenerateProblems", () => {
  it("makes the sets generateProblems makes, on threads, and nothing where it cannot help", async () => {
    const made = await pregenerateProblems({ domain: ["hanoi", "ferry", "spanner"], count: 4, seed: 9 }, 2, 4096);
    expect([...made.keys()]).toEqual(["hanoi", "ferry", "spanner"]);
    for (const [name, set] of made) {
      // a labelling run does not need plan lengths: the same problems, lengths only where not proved solvable
      expect(set).toEqual(generateProblems(name, { count: 4, seed: 9, planLengths: false }));
      expect(set.map((p) => p.text)).toEqual(generateProblems(name, { count: 4, seed: 9 }).map((p) => p.text));
    }
    expect((await pregenerateProblems({ domain: "hanoi", count: 4 }, 2, 4096)).size).toBe(0); // one domain: no gain
    expect((await pregenerateProblems({ domain: ["hanoi", "ferry"], count: 4 }, 1, 4096)).size).toBe(0);
    expect((await pregenerateProblems({ domain: ["hanoi", "nosuch"], count: 4 }, 2, 4096)).size).toBe(0);
    expect((await pregenerateProblems({ domain: ["hanoi", "ferry"], count: 0 }, 2, 4096)).size).toBe(0);
    // a set that cannot be made: the caller makes it and reports the error
    expect((await pregenerateProblems({ domain: ["blocksworld", "ferry"], count: 100_000, seed: 1, problems: "x" }, 2, 4096)).size).toBe(0);
  }, 60_000);

  it("leaves its threads to the labelling run of the same shape, and to no other", async () => {
    await pregenerateProblems({ domain: ["hanoi", "ferry"], count: 3, seed: 9 }, 2, 4096);
    const shape = { threads: 2, heapMb: workerHeapMb(2, 4096) };
    expect(claimPool({ ...shape, heapMb: shape.heapMb - 1 })).toBeNull(); // another heap limit: destroyed
    expect(claimPool(shape)).toBeNull();
    await pregenerateProblems({ domain: ["hanoi", "ferry"], count: 3, seed: 9 }, 2, 4096);
    const pool = claimPool(shape);
    expect(pool).not.toBeNull();
    expect(pool!.threads.length).toBe(2);
    expect(claimPool(shape)).toBeNull(); // claimed once
    // the same threads label: the run's default task
    const plan = planRun({ domain: "hanoi", count: 1, seed: 3, workers: 2 }, false);
    const reply = (await pool!.run({ job: plan.jobs.at(0), config: plan.config })) as { ok: boolean };
    expect(reply.ok).toBe(true);
    await pool!.destroy();
  }, 60_000);

  it("all 11 domains with the caller's abort signal: no listener-leak warning; an abort gives an empty map", async () => {
    const warnings: string[] = [];
    const onWarning = (w: Error): void => void warnings.push(w.name);
    process.on("warning", onWarning);
    try {
      const ac = new AbortController();
      const made = await pregenerateProblems({ domain: "all", count: 1, seed: 2, signal: ac.signal }, 2, 4096);
      expect(made.size).toBe(11);
      // warnings are emitted on the next tick
      await new Promise((r) => setImmediate(r));
      expect(warnings).toEqual([]);
      const stopped = new AbortController();
      const pending = pregenerateProblems({ domain: "all", count: 50, seed: 2, signal: stopped.signal }, 2, 4096);
      stopped.abort(new Error("stop"));
      expect((await pending).size).toBe(0);
    } finally {
      process.off("warning", onWarning);
    }
  }, 60_000);
});
