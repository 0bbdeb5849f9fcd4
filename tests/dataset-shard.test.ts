import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { encodeLines } from "../src/dataset/shard.js";
import { writeDataset } from "../src/dataset/write.js";
import { pregenerateProblems } from "../src/dataset/problem-pool.js";
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

  it("never returns a slice of Node's shared pool (its buffer is moved to another thread)", () => {
    const pooled = Buffer.from("x");
    const bytes = encodeLines(["short"]);
    expect(bytes.buffer).not.toBe(pooled.buffer);
    expect(bytes.byteOffset).toBe(0);
  });
});

describe("writeDataset bytes", () => {
  const tmp = mkdtempSync(join(tmpdir(), "pddl2prm-shard-"));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));
  const shards = (out: string): Record<string, string> =>
    Object.fromEntries(readdirSync(join(out, "data")).map((n) => [n, readFileSync(join(out, "data", n)).toString("base64")]));

  it("are the same in this thread (one worker, sets made in turn) and from worker threads (sets made in parallel, bytes moved)", async () => {
    const opts = { domain: ["hanoi", "ferry"], count: 3, seed: 7 };
    await writeDataset({ ...opts, out: join(tmp, "in-process"), workers: 1 });
    await writeDataset({ ...opts, out: join(tmp, "threads"), workers: 2 });
    const a = shards(join(tmp, "in-process"));
    expect(Object.values(a).some((s) => s.length > 1000)).toBe(true);
    expect(shards(join(tmp, "threads"))).toEqual(a);
  }, 120_000);
});

describe("pregenerateProblems", () => {
  it("makes the sets generateProblems makes, on threads, and nothing where it cannot help", async () => {
    const made = await pregenerateProblems({ domain: ["hanoi", "ferry", "spanner"], count: 4, seed: 9 }, 2);
    expect([...made.keys()]).toEqual(["hanoi", "ferry", "spanner"]);
    for (const [name, set] of made) {
      // a labelling run does not need plan lengths: the same problems, lengths only where not proved solvable
      expect(set).toEqual(generateProblems(name, { count: 4, seed: 9, planLengths: false }));
      expect(set.map((p) => p.text)).toEqual(generateProblems(name, { count: 4, seed: 9 }).map((p) => p.text));
    }
    expect((await pregenerateProblems({ domain: "hanoi", count: 4 }, 2)).size).toBe(0); // one domain: no gain
    expect((await pregenerateProblems({ domain: ["hanoi", "ferry"], count: 4 }, 1)).size).toBe(0);
    expect((await pregenerateProblems({ domain: ["hanoi", "nosuch"], count: 4 }, 2)).size).toBe(0);
    expect((await pregenerateProblems({ domain: ["hanoi", "ferry"], count: 0 }, 2)).size).toBe(0);
    // a set that cannot be made: the caller makes it and reports the error
    expect((await pregenerateProblems({ domain: ["blocksworld", "ferry"], count: 100_000, seed: 1, problems: "x" }, 2)).size).toBe(0);
  }, 60_000);

  it("all 11 domains with the caller's abort signal: no listener-leak warning; an abort gives an empty map", async () => {
    const warnings: string[] = [];
    const onWarning = (w: Error): void => void warnings.push(w.name);
    process.on("warning", onWarning);
    try {
      const ac = new AbortController();
      const made = await pregenerateProblems({ domain: "all", count: 1, seed: 2, signal: ac.signal }, 2);
      expect(made.size).toBe(11);
      // warnings are emitted on the next tick
      await new Promise((r) => setImmediate(r));
      expect(warnings).toEqual([]);
      const stopped = new AbortController();
      const pending = pregenerateProblems({ domain: "all", count: 50, seed: 2, signal: stopped.signal }, 2);
      stopped.abort(new Error("stop"));
      expect((await pending).size).toBe(0);
    } finally {
      process.off("warning", onWarning);
    }
  }, 60_000);
});
