import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { compareLabels, labelCheckText, labelKey, median, pairOrder, parseCompareArgs, ratioStats } from "../bench/compare-lib.js";
import { testTempDir } from "./temp-dir.js";

describe("bench/compare: command line", () => {
  it("reads REF and the flags, with their defaults", () => {
    expect(parseCompareArgs(["f42665d"])).toEqual({ options: { ref: "f42665d", pairs: 3, jobs: ["main"], scale: 1, keep: false, json: false } });
    expect(parseCompareArgs(["--pairs", "5", "v1.0", "--job=all", "--keep", "--json", "--scale", "0.5"])).toEqual({
      options: { ref: "v1.0", pairs: 5, jobs: ["main", "corpus"], scale: 0.5, keep: true, json: true },
    });
    expect(parseCompareArgs(["HEAD~3", "--job", "corpus"])).toMatchObject({ options: { ref: "HEAD~3", jobs: ["corpus"] } });
    expect(parseCompareArgs(["main", "--help"])).toEqual({ help: true });
  });
  it("says what is wrong", () => {
    const error = (argv: string[]) => (parseCompareArgs(argv) as { error?: string }).error;
    expect(error([])).toBe("give REF, the commit, tag or branch to compare with");
    expect(error(["a", "b"])).toBe("unexpected argument 'b' (give one REF)");
    expect(error(["a", "--frobnicate"])).toBe("unknown flag --frobnicate");
    expect(error(["a", "--pairs"])).toBe("--pairs needs a value");
    expect(error(["a", "--pairs", "--keep"])).toBe("--pairs needs a value");
    expect(error(["a", "--pairs", "0"])).toBe("--pairs 0 is not valid (a whole number, at least 1)");
    expect(error(["a", "--pairs", "1.5"])).toBe("--pairs 1.5 is not valid (a whole number, at least 1)");
    expect(error(["a", "--pairs="])).toBe("--pairs  is not valid (a whole number, at least 1)");
    expect(error(["a", "--pairs", "2", "--pairs", "3"])).toBe("--pairs given twice");
    expect(error(["a", "--job", "fast"])).toBe("--job must be main, corpus or all, got 'fast'");
    expect(error(["a", "--job", "corpus", "--scale", "0"])).toBe("--scale 0 is not valid (a number above 0)");
    expect(error(["a", "--scale", "2"])).toBe("--scale applies to --job corpus and all only");
    expect(error(["a", "--keep=1"])).toBe("unknown flag --keep=1");
  });
});

describe("bench/compare: pairs and ratios", () => {
  it("alternates which build runs first", () => {
    expect([0, 1, 2, 3].map(pairOrder)).toEqual([
      ["ref", "current"],
      ["current", "ref"],
      ["ref", "current"],
      ["current", "ref"],
    ]);
  });
  it("takes the median and the spread of the per-pair ratios current/REF", () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNaN();
    const s = ratioStats([
      { current: 20, ref: 10 },
      { current: 15, ref: 10 },
      { current: 9, ref: 10 },
    ]);
    expect(s.ratios).toEqual([2, 1.5, 0.9]);
    expect(s).toMatchObject({ median: 1.5, min: 0.9, max: 2 });
    expect(ratioStats([{ current: 3, ref: 4 }])).toEqual({ ratios: [0.75], median: 0.75, min: 0.75, max: 0.75 });
    expect(ratioStats([{ current: 1, ref: 1 }, { current: 3, ref: 1 }]).median).toBe(2);
  });
});

describe("bench/compare: the label check", () => {
  const row = (id: string, category: string, labels: number[], text = "some words") =>
    JSON.stringify({ id, domain: "d", problem: "p", split: "train", prompt: text, completions: labels.map(() => text), labels, category, critique: text, meta: {} });
  /** A dataset folder with `shards` (name -> rows) under data/. */
  const dataset = (root: string, name: string, shards: Record<string, string[]>): string => {
    const dir = join(root, name);
    mkdirSync(join(dir, "data"), { recursive: true });
    for (const [file, rows] of Object.entries(shards)) {
      const text = rows.join("\n") + "\n";
      writeFileSync(join(dir, "data", file), file.endsWith(".gz") ? gzipSync(text) : text);
    }
    return dir;
  };

  it("keys a row on its label fields only", () => {
    expect(labelKey({ id: "x", category: "optimal", labels: [1, 0.75], prompt: "p" })).toBe("category=optimal labels=[1,0.75]");
    expect(labelKey({ id: "x", label: 2, reward: 0.5 })).toBe("label=2 reward=0.5");
  });

  it("finds the same labels whatever the wording, shard split and row order", async () => {
    const tmp = testTempDir("bench-compare-");
    const ref = dataset(tmp, "ref", {
      "train-00000-of-00001.jsonl": [row("a/1", "optimal", [1]), row("a/2", "dead-end", [1, 0]), row("a/3", "suboptimal", [1, 0.75])],
    });
    const current = dataset(tmp, "current", {
      "train-00000-of-00002.jsonl": [row("a/3", "suboptimal", [1, 0.75], "other words"), row("a/1", "optimal", [1.0])],
      "train-00001-of-00002.jsonl.gz": [row("a/2", "dead-end", [1, 0], "new text")],
    });
    const c = await compareLabels(ref, current);
    expect(c).toEqual({ same: true, refRows: 3, currentRows: 3, differences: 0, first: [] });
    expect(labelCheckText(c)).toBe("labels: same (3 rows)");
  });

  it("reports changed labels, missing and extra rows, and ids written twice", async () => {
    const tmp = testTempDir("bench-compare-");
    const ref = dataset(tmp, "ref", {
      "train.jsonl": [row("a/1", "optimal", [1]), row("a/2", "dead-end", [1, 0]), row("a/3", "suboptimal", [1, 0.75]), row("a/4", "optimal", [1])],
    });
    const current = dataset(tmp, "current", {
      "train.jsonl": [row("a/1", "optimal", [1]), row("a/2", "backtracking", [1, 0.5]), row("a/4", "optimal", [1]), row("a/4", "optimal", [1]), row("a/5", "optimal", [1])],
    });
    const c = await compareLabels(ref, current);
    expect(c.same).toBe(false);
    expect(c.refRows).toBe(4);
    expect(c.currentRows).toBe(5);
    expect(c.differences).toBe(4);
    expect(c.first).toEqual([
      { id: "a/2", ref: "category=dead-end labels=[1,0]", current: "category=backtracking labels=[1,0.5]" },
      { id: "a/4", ref: null, current: "category=optimal labels=[1] (id twice)" },
      { id: "a/5", ref: null, current: "category=optimal labels=[1]" },
      { id: "a/3", ref: "category=suboptimal labels=[1,0.75]", current: null },
    ]);
    expect((await compareLabels(ref, current, 2)).first).toHaveLength(2);
    const text = labelCheckText(c).split("\n");
    expect(text[0]).toBe("labels: 4 differences (REF 4 rows, current 5 rows); the first 4:");
    expect(text[1]).toBe("  a/2: REF category=dead-end labels=[1,0]; current category=backtracking labels=[1,0.5]");
    expect(text[4]).toBe("  a/3: REF category=suboptimal labels=[1,0.75]; current (no such row)");
  });

  it("fails on a folder without shards and on a line that is not JSON", async () => {
    const tmp = testTempDir("bench-compare-");
    const empty = dataset(tmp, "empty", {});
    const good = dataset(tmp, "good", { "train.jsonl": [row("a/1", "optimal", [1])] });
    const bad = dataset(tmp, "bad", { "train.jsonl": [row("a/1", "optimal", [1]), "{not json"] });
    await expect(compareLabels(empty, good)).rejects.toThrow(/no \.jsonl shards under data/);
    await expect(compareLabels(good, bad)).rejects.toThrow(/train\.jsonl:2: not JSON/);
  });
});
