import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { runJob, type JobConfig, type ProblemJob } from "../src/dataset/job.js";
import { formatRow } from "../src/dataset/formats.js";
import { NativeRowSchema } from "../src/dataset/row.js";
import { builtinJob as job } from "./pairs-helpers.js";

const config: JobConfig = {
  seed: 3,
  samplesPerState: 6,
  format: "native",
  threshold: 0.75,
  randomOptimal: false,
  balance: false,
  nonExecutable: "near-miss",
  timeMs: 60_000,
  maxExpansions: 1_000_000,
  maxStates: 1_000_000,
  chat: false,
  maxLength: null,
  tokenizer: null,
  maxOps: 1_000_000,
  maxFacts: 1_000_000,
  genericFallback: false, wholeProblems: false,
  keepRows: true,
};

describe("runJob", () => {
  it("writes native lines byte-identical to formatRow, with valid rows and consistent counts", () => {
    for (const [d, p] of [["blocksworld", "p0003"], ["rooms", "p0002"], ["logistics", "p0001"]] as const) {
      const r = runJob(job(d, p), config);
      expect(r.skipped).toBeNull();
      expect(r.rows!.length).toBe(r.lines.length);
      expect(r.lines.length).toBeGreaterThan(10);
      r.rows!.forEach((row, i) => {
        NativeRowSchema.parse(row);
        expect(r.lines[i]).toBe(formatRow(row, "native", { threshold: 0.75 }));
        expect(JSON.parse(r.lines[i]!)).toEqual(row);
      });
      const total = Object.values(r.counts).reduce((a, b) => a + b, 0);
      expect(total).toBe(r.lines.length);
      // every state of the walk shares one prompt and one rendered prefix
      const byState = new Map<number, string>();
      for (const row of r.rows!) {
        const key = JSON.stringify([row.prompt, row.completions.slice(0, -1)]);
        if (byState.has(row.meta.state_index)) expect(byState.get(row.meta.state_index)).toBe(key);
        else byState.set(row.meta.state_index, key);
      }
    }
  });

  it("writes the same lines whether or not it makes row objects (steps rendered to JSON directly)", () => {
    const brief = join(import.meta.dirname, "fixtures", "task");
    const custom: ProblemJob = {
      index: 0,
      domainName: "brief",
      domainFile: join(brief, "brief-domain.pddl"),
      domainText: readFileSync(join(brief, "brief-domain.pddl"), "utf8"),
      problemId: "p1",
      problemFile: join(brief, "brief-p1.pddl"),
      problemText: readFileSync(join(brief, "brief-p1.pddl"), "utf8"),
      split: "train",
      builtinTemplates: null,
      templatesFile: null,
    };
    // built-in templates, and a generic domain with a conditional effect (steps rendered per state)
    for (const j of [job("blocksworld", "p0003"), job("elevator", "p0002"), custom]) {
      const withRows = runJob(j, config);
      const without = runJob(j, { ...config, keepRows: false });
      expect(without.rows).toBeNull();
      expect(without.lines.length).toBeGreaterThan(0);
      expect(without.lines).toEqual(withRows.lines);
    }
  });

  it("is deterministic for a seed and differs for another seed", () => {
    const a = runJob(job("ferry", "p0004"), config).lines;
    expect(runJob(job("ferry", "p0004"), config).lines).toEqual(a);
    expect(runJob(job("ferry", "p0004"), { ...config, seed: 4 }).lines).not.toEqual(a);
  });
});
