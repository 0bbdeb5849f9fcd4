import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { JobList } from "../src/dataset/job-list.js";
import { planRun } from "../src/dataset/pipeline.js";
import { ProblemsDigest, resolveProblems, splitOf, type ProblemSource } from "../src/dataset/problems.js";
import type { ProblemJob } from "../src/dataset/records.js";
import { SPLITS } from "../src/dataset/row.js";
import { generateProblems } from "../src/generators/index.js";

const source = (i: number): ProblemSource => {
  const s: ProblemSource = {
    domainName: `d${i % 3}`,
    domainFile: i % 7 === 0 ? `/x/own-${i}.pddl` : `/x/d${i % 3}.pddl`,
    domainText: i % 7 === 0 ? `(define (domain d${i % 3}) ; ${i})` : `(define (domain d${i % 3}))`,
    problemId: `p${i}`,
    // relative names, names other than <id>.pddl, generated names
    problemFile: i % 5 === 0 ? `p${i}.pddl` : i % 5 === 1 ? `/probs/${i % 4}/P${i}.PDDL` : i % 5 === 2 ? `generated:d${i % 3}/p${i}.pddl` : `/probs/${i % 4}/p${i}.pddl`,
    problemText: i % 11 === 0 ? `(define (problem p${i}))` : null,
    builtinTemplates: i % 2 === 0 ? `d${i % 3}` : null,
    templatesFile: i % 2 === 0 ? null : "/t/templates.json",
  };
  if (i % 11 !== 0 && i % 5 !== 2) s.problemSha256 = ((i * 2654435761) >>> 0).toString(16).padStart(8, "0").repeat(8);
  if (i % 5 === 2) s.generated = { seed: 2 ** 40 + i, index: i + 1, attempt: i % 3 };
  return s;
};

describe("JobList", () => {
  it("gives back every job as the object it was made from, past the growth of its columns", () => {
    const list = new JobList();
    const expected: ProblemJob[] = [];
    for (let i = 0; i < 1000; i++) {
      const s = source(i);
      const split = SPLITS[i % 3]!;
      list.push(s, 3 * i + 1, split);
      expected.push({ ...s, index: 3 * i + 1, split });
    }
    expect(list.length).toBe(1000);
    for (let i = 0; i < 1000; i += 1) {
      expect(list.at(i)).toEqual(expected[i]);
      expect([list.domainName(i), list.problemId(i), list.split(i), list.domainText(i)]).toEqual([
        expected[i]!.domainName,
        expected[i]!.problemId,
        expected[i]!.split,
        expected[i]!.domainText,
      ]);
    }
    expect([...list]).toEqual(expected);
    expect(list.domainNames()).toEqual(new Set(["d0", "d1", "d2"]));
    expect(() => list.at(1000)).toThrow(RangeError);
    expect(() => list.at(-1)).toThrow(RangeError);
    expect(() => list.push({ ...source(3), problemSha256: "abc" }, 0, "train")).toThrow(/not a sha256 digest/);
    expect(list.length).toBe(1000);
  });

  it("keeps a domain's text apart when one file gave two texts", () => {
    const list = new JobList();
    const a = { ...source(1), domainText: "(define (domain d1) ; before)" };
    const b = { ...source(4), domainText: "(define (domain d1) ; after)" };
    list.push(a, 0, "train");
    list.push(b, 1, "train");
    expect(list.at(0).domainText).toBe(a.domainText);
    expect(list.at(1).domainText).toBe(b.domainText);
  });

  describe("in a run's plan", () => {
    const tmp = mkdtempSync(join(tmpdir(), "pddl2prm-jobs-"));
    afterAll(() => rmSync(tmp, { recursive: true, force: true }));
    for (const d of ["ferry", "hanoi"]) {
      mkdirSync(join(tmp, d));
      for (const p of generateProblems(d, { count: 7, seed: 5, planLengths: false })) writeFileSync(join(tmp, d, `${p.name}.pddl`), p.text);
    }

    it("holds this rank's share of the problems, as the sources with their run position and split", () => {
      for (const [world, rank] of [
        [1, 0],
        [3, 1],
      ] as const) {
        const plan = planRun({ domain: ["ferry", "hanoi"], problems: tmp, workers: 1, world, rank, holdoutDomain: "hanoi" }, false);
        const all = resolveProblems({ domains: ["ferry", "hanoi"], problems: tmp, seed: 1 }, new ProblemsDigest());
        const mine = all
          .map((p, index) => ({ ...p, index, split: splitOf(p.domainName, p.problemId, "hanoi") }))
          .filter((j) => j.index % world === rank);
        expect([...plan.jobs]).toEqual(mine);
        expect(plan.problemSet.count).toBe(14);
      }
    });
  });
});
