/**
 * A `merge` killed at the rename of its manifest or card left `manifest.json.tmp-PID` for good
 * (bench/kill-sweep.ts, issue 50): the next merge removes the temporary files of processes that
 * no longer run, and keeps those of one that does.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { writeDataset } from "../src/dataset/write.js";
import { mergeDataset } from "../src/dataset/manifest.js";

const tmp = mkdtempSync(join(tmpdir(), "pddl2prm-merge-temps-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** A PID no process has here (Linux's largest is 4,194,304). */
const GONE = 4_194_303;

describe("merge and the temporary files of a killed merge", () => {
  it("removes a dead process's manifest, card and plot temporaries; keeps a live process's", async () => {
    const out = join(tmp, "ds");
    await writeDataset({ domain: "hanoi", count: 3, seed: 1, workers: 1, out });
    const manifest = readFileSync(join(out, "manifest.json"), "utf8");
    const dead = ["manifest.json", "README.md", "stats.csv", "plots/categories.svg"].map((f) => join(out, `${f}.tmp-${GONE}`));
    const live = join(out, `README.md.tmp-${process.ppid}`);
    for (const f of [...dead, live]) writeFileSync(f, "half");
    await mergeDataset(out);
    for (const f of dead) expect(existsSync(f), f).toBe(false);
    expect(existsSync(live)).toBe(true);
    expect(readFileSync(join(out, "manifest.json"), "utf8")).toBe(manifest);
  }, 60_000);
});
