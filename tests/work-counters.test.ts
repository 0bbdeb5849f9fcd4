import { readFileSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { writeDataset, type WriteOptions } from "../src/index.js";
import { datasetAuditor } from "../src/audit/index.js";
import { auditWork } from "../src/audit/measures.js";
import { FIRST_WITHOUT_GRAPH } from "../src/label/context.js";
import { testTempDir } from "./temp-dir.js";

// Issue 49: the main job became 1.9x slower and 1.7x bigger in a week and no test noticed. Time is
// a benchmark's business (bench:compare); the work is not: a fixed job's search counts, rows and
// bytes are the same on every machine, so a change of any of them fails here until the expected
// file is updated on purpose (UPDATE_WORK_COUNTERS=1 npx vitest run tests/work-counters.test.ts),
// and the commit that changes it says why.

const EXPECTED = resolve(__dirname, "fixtures", "work-counters.json");

/** Fixed jobs: the main job's shape (every built-in domain) at a size a test affords, and one evaluation format. */
const JOBS: Record<string, Pick<WriteOptions, "domain" | "count" | "seed" | "format">> = {
  "native --domain all --count 2 --seed 7": { domain: "all", count: 2, seed: 7, format: "native" },
  "pairs --domain all --count 1 --seed 7": { domain: "all", count: 1, seed: 7, format: "pairs" },
};

async function measure(name: string): Promise<Record<string, unknown>> {
  const out = join(testTempDir("pddl2prm-work-"), "out");
  // one worker: problems share caches (transition graphs) in a worker's order; the CLI's card audit
  const before = { ...auditWork };
  const s = await writeDataset({ ...JOBS[name]!, workers: 1, out, audit: datasetAuditor });
  const audit = { examples: auditWork.examples - before.examples, weightUpdates: auditWork.weightUpdates - before.weightUpdates, bootstrapItems: auditWork.bootstrapItems - before.bootstrapItems };
  const shards: Record<string, { rows: number; bytes: number }> = {};
  const rank = JSON.parse(readFileSync(join(out, "completions", "00000"), "utf8")) as { shards: { path: string; rows: number }[] };
  for (const sh of rank.shards) shards[sh.path] = { rows: sh.rows, bytes: statSync(join(out, sh.path)).size };
  return { work: s.work, audit, rows: s.rows, counts: s.counts, shards };
}

describe("work counters of fixed jobs (a change of work is a failure, of speed a benchmark)", () => {
  it("no job is large enough for a timed choice", () => {
    // the labeller picks a shared transition graph or searches by measured time (label/context.ts),
    // but only from a system's third problem on: at most that many problems per domain keep the
    // counts free of time
    for (const j of Object.values(JOBS)) expect(j.count).toBeLessThanOrEqual(FIRST_WITHOUT_GRAPH);
  });

  const expected = JSON.parse(readFileSync(EXPECTED, "utf8")) as Record<string, unknown>;
  const got: Record<string, unknown> = {};
  for (const name of Object.keys(JOBS)) {
    it(name, async () => {
      got[name] = await measure(name);
      if (process.env["UPDATE_WORK_COUNTERS"] === "1") {
        writeFileSync(EXPECTED, JSON.stringify({ ...expected, ...got }, null, 2) + "\n");
        return;
      }
      expect(got[name], `the work of '${name}' changed: if on purpose, UPDATE_WORK_COUNTERS=1 npx vitest run tests/work-counters.test.ts and say why in the commit`).toEqual(expected[name]);
    }, 120_000);
  }
});
