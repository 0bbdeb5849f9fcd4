import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { planRun, summarizeProblems } from "../src/dataset/pipeline.js";
import { problemTextOf, resolveProblems } from "../src/dataset/problems.js";
import { runJobSafe } from "../src/dataset/worker.js";
import { writeDataset } from "../src/dataset/write.js";
import { BUILTIN_DOMAINS, generateProblems, regenerateProblem } from "../src/generators/index.js";
import { UserError } from "../src/pddl/errors.js";

// A run's plan keeps no texts of problems read from files (58,856 of them held 60 MB of the main
// thread's heap at 4x the paper's corpus): the labelling thread reads each file again.
describe("problem texts of a run", () => {
  const tmp = mkdtempSync(join(tmpdir(), "pddl2prm-texts-"));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));
  const dir = join(tmp, "problems");
  mkdirSync(dir);
  for (const p of generateProblems("ferry", { count: 5, seed: 3, planLengths: false })) writeFileSync(join(dir, `${p.name}.pddl`), p.text);

  it("are dropped from the plan, for files and generated problems; the config digest is that of the texts", () => {
    const plan = planRun({ domain: "ferry", problems: dir, workers: 1 }, false);
    expect(plan.jobs).toHaveLength(5);
    expect(plan.problemSet.count).toBe(5);
    for (const j of plan.jobs) {
      expect(j.problemText).toBeNull();
      expect(j.problemSha256).toBe(createHash("sha256").update(readFileSync(j.problemFile, "utf8")).digest("hex"));
    }
    // the digest the config has always held: every `domain/id NUL text`, joined by NUL
    const joined = resolveProblems({ domains: ["ferry"], problems: dir, seed: 1 })
      .map((p) => `${p.domainName}/${p.problemId}\0${p.problemText}`)
      .join("\0");
    expect(plan.problemsSha256).toBe(createHash("sha256").update(joined).digest("hex"));

    // generated problems keep only the draw that made them, and are made again where labelled
    const gen = planRun({ domain: "ferry", count: 3, seed: 3, workers: 1 }, false);
    const made = generateProblems("ferry", { count: 3, seed: 3, planLengths: false });
    [...gen.jobs].forEach((j, i) => {
      expect(j.problemText).toBeNull();
      expect(j.generated).toEqual({ seed: 3, index: i + 1, attempt: made[i]!.attempt });
      expect(problemTextOf(j)).toBe(made[i]!.text);
    });
  });

  it("are summarized for the config as the whole list was: domain texts, which problem uses which, per-problem copies", () => {
    const sha = (t: string) => createHash("sha256").update(t).digest("hex");
    const all = [
      { domainName: "a", domainText: "(define (domain a))", problemId: "p1" },
      { domainName: "b", domainText: "(define (domain b))", problemId: "q1" },
      { domainName: "a", domainText: "(define (domain a) ; per-problem)", problemId: "p2" },
      { domainName: "b", domainText: "(define (domain b))", problemId: "q2" },
    ];
    const s = summarizeProblems(all);
    expect(s.count).toBe(4);
    expect(s.domainTexts).toEqual([...new Set(all.map((p) => p.domainText))]);
    expect(s.domainOfProblemSha256).toBe(sha(all.map((p) => `${p.problemId}\0${sha(p.domainText)}`).join("\0")));
    expect([...s.domainsWithSeveralFiles]).toEqual(["a"]);
    const one = summarizeProblems(all.filter((p) => p.domainName === "b"));
    expect(one).toEqual({ count: 2, domainTexts: ["(define (domain b))"], domainOfProblemSha256: null, domainsWithSeveralFiles: new Set() });
  });

  it("two files of one built-in domain with the same problem id are an error naming both", () => {
    const d = join(tmp, "dup");
    mkdirSync(d);
    const [p] = generateProblems("ferry", { count: 1, seed: 3, planLengths: false });
    writeFileSync(join(d, "p01.pddl"), p!.text);
    writeFileSync(join(d, "p01.PDDL"), p!.text);
    expect(() => resolveProblems({ domains: ["ferry"], problems: d, seed: 1 })).toThrow(UserError);
    expect(() => resolveProblems({ domains: ["ferry"], problems: d, seed: 1 })).toThrow(/p01\.pddl: duplicate problem id 'p01' in domain 'ferry' \(also .*p01\.PDDL\)/);
  });

  it("regenerateProblem makes every generated text again from its draw, retried draws included", () => {
    let retried = 0;
    for (const d of BUILTIN_DOMAINS) {
      const made = generateProblems(d.name, { count: 40, seed: 3, planLengths: false });
      made.forEach((p, i) => expect(regenerateProblem(d.name, 3, i + 1, p.attempt)).toBe(p.text));
      retried += made.filter((p) => p.attempt > 0).length;
    }
    expect(retried).toBeGreaterThan(0);
  });

  it("are read again where labelled, and a file edited since the plan is an error naming it", () => {
    const plan = planRun({ domain: "ferry", problems: dir, workers: 1 }, false);
    const job = plan.jobs.at(1);
    const text = readFileSync(job.problemFile, "utf8");
    expect(problemTextOf(job)).toBe(text);
    const reply = runJobSafe({ job, config: plan.config });
    expect(reply.ok && reply.result.problemText).toBe(text);
    writeFileSync(job.problemFile, text.replace("(:goal", "; edited\n  (:goal"));
    try {
      expect(() => problemTextOf(job)).toThrow(UserError);
      expect(() => problemTextOf(job)).toThrow(`${job.problemFile}: the file changed during the run`);
      const bad = runJobSafe({ job, config: plan.config });
      expect(bad).toEqual({ ok: false, kind: "user", message: expect.stringContaining("changed during the run") });
    } finally {
      writeFileSync(job.problemFile, text);
    }
  });

  it("are copied into the dataset from worker threads unchanged", async () => {
    const out = join(tmp, "out");
    await writeDataset({ domain: "ferry", problems: dir, workers: 2, out });
    for (const n of readdirSync(dir)) expect(readFileSync(join(out, "pddl", "ferry", n), "utf8")).toBe(readFileSync(join(dir, n), "utf8"));
  }, 60_000);
});
