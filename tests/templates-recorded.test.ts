/**
 * A run's templates are the text it recorded (issue 37, finding 7): read once when the run
 * starts, carried to every job, hashed into config.json; `--templates` with only a built-in
 * domain is an error, not ignored in silence; `judge --templates` checks the file at once.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { preparePlan } from "../src/dataset/pipeline.js";
import { runJob } from "../src/dataset/job.js";
import { cliRunner, ROOT } from "./cli-run.js";
import { ferryTemplates } from "./ferry-templates.js";

const FIX = join(ROOT, "tests", "fixtures", "conformance", "per-problem-domains");
const tmp = mkdtempSync(join(tmpdir(), "pddl2prm-tpl-recorded-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const run = cliRunner(tmp);

const templates = (goal: string) => ferryTemplates(goal);

describe("templates edited during a run", () => {
  it("the jobs carry the text read when the run started; an edit afterwards does not reach the rows", async () => {
    const file = join(tmp, "ferry.json");
    writeFileSync(file, JSON.stringify(templates("The goal is that {goal}.")));
    const plan = await preparePlan({ domainFile: join(FIX, "domain_p01.pddl"), problems: join(FIX, "p01.pddl"), templates: file, workers: 1, seed: 1 }, true);
    writeFileSync(file, JSON.stringify(templates("Make sure that {goal}."))); // edited mid-run
    const job = plan.jobs.at(0);
    const r = runJob(job, { ...plan.config, samplesPerState: 8 });
    expect(r.skipped).toBeNull();
    expect(r.rows!.length).toBeGreaterThan(0);
    for (const row of r.rows!) {
      expect(row.prompt).toContain("The goal is that");
      expect(row.prompt).not.toContain("Make sure that");
    }
  });
});

describe("--templates where it cannot apply", () => {
  it("with only a built-in --domain: one line, exit 1, nothing written", async () => {
    const file = join(tmp, "any.json");
    writeFileSync(file, JSON.stringify(templates("The goal is that {goal}.")));
    const out = join(tmp, "builtin");
    const r = await run(["generate", "--domain", "ferry", "--count", "2", "--templates", file, "--out", out, "--workers", "1", "--quiet"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^pddl2prm: error: --templates: applies to a domain of your own/);
  });

  it("judge with a templates file that does not exist: an error at once", async () => {
    // (a stream: without DOMAIN PROBLEM PLAN a single judgement is a usage error first)
    const r = await run(["judge", "--jsonl", "--templates", join(tmp, "no-such.json")]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/no-such\.json: no such file/);
  });
});
