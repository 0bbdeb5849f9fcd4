import { describe, expect, it } from "vitest";
import { ProblemRecordList } from "../src/dataset/problem-records.js";
import { emptyCounts, type ProblemRecord } from "../src/dataset/records.js";
import { CATEGORIES, SPLITS } from "../src/dataset/row.js";
import { Prng } from "../src/util/prng.js";

describe("ProblemRecordList", () => {
  it("gives back the records the run's results make, in order and in the same JSON", () => {
    const rng = new Prng(7);
    const n = 1000; // past the first growth of its arrays
    const jobs = Array.from({ length: n }, (_, i) => ({ domainName: `d${i % 3}`, problemId: `p${i}`, split: SPLITS[rng.int(3)]! }));
    const list = new ProblemRecordList({
      length: n,
      domainName: (i) => jobs[i]!.domainName,
      problemId: (i) => jobs[i]!.problemId,
      split: (i) => jobs[i]!.split,
    });
    const expected: ProblemRecord[] = [];
    jobs.forEach((job, i) => {
      const counts = emptyCounts();
      for (const k of CATEGORIES) counts[k] = rng.int(50);
      const r = {
        lineCount: CATEGORIES.reduce((a, k) => a + counts[k], 0),
        planLength: rng.int(30),
        skipped: i % 97 === 5 ? `time limit ${i}` : null,
        dropped: i % 13 === 0 ? rng.int(4) + 1 : 0,
        counts,
        // what a prompt summed up (DESIGN.md §14), on some problems
        ...(i % 11 === 3 ? { text: { rules_omitted: rng.int(5), fixed_omitted: rng.int(900) + 1, cost_omitted: rng.int(3), arithmetic: rng.int(2) } } : {}),
      };
      list.push(r);
      expected.push({
        domain: job.domainName,
        problem: job.problemId,
        split: job.split,
        rows: r.lineCount,
        plan_length: r.planLength,
        skipped: r.skipped,
        counts: r.counts,
        ...(r.dropped > 0 ? { dropped: r.dropped } : {}),
        ...("text" in r ? { text: r.text } : {}),
      });
    });
    expect(list.length).toBe(n);
    expect(JSON.stringify(list.toArray())).toBe(JSON.stringify(expected));
    expect(() => list.push({ lineCount: 0, planLength: 0, skipped: null, dropped: 0, counts: emptyCounts() })).toThrow(/more records than jobs/);
  });
});
