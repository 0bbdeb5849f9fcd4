/**
 * A judgement's time limit holds inside every search it makes, not per h* query (issue 38):
 * a hard 15-puzzle state, judged with --time-ms, stops within 10% (or 100 ms) of the limit.
 * Before, each query had the whole limit to itself and the judgement ran for minutes. On a
 * busy machine: tests/load/wall-clock-limits.test.ts.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createJudgeTask, createLabelContext, ground, judgeSteps, labelProblemAll, parseDomain, parseProblem, ProblemSkipped } from "../src/index.js";
import { LimitError } from "../src/search/types.js";
import { ROOT } from "./cli-run.js";
import { hard15 } from "./hard-problems.js";


describe("judge: the time limit holds inside the searches", () => {
  it("--time-ms 1000 on a hard state: a limit within 10% (or 100 ms), twice in a row on warm caches", () => {
    const d = parseDomain(readFileSync(join(ROOT, "domains", "npuzzle", "domain.pddl"), "utf8"), "domain.pddl");
    const jt = createJudgeTask(d, parseProblem(hard15(), "hard15.pddl", d));
    for (let round = 0; round < 2; round++) {
      const t0 = performance.now();
      expect(() => judgeSteps(jt, ["(move t6 p20 p21)"], { timeMs: 1000 })).toThrow(LimitError);
      const ms = performance.now() - t0;
      expect(ms).toBeGreaterThanOrEqual(990);
      expect(ms).toBeLessThanOrEqual(1100);
    }
    // the judgement's deadline does not outlive it: the shared limits are as they were
    expect(jt.ctx.oracleLimits?.deadline).toBeUndefined();
  }, 30_000);
});

describe("labelling: a problem's time limit holds inside every search", () => {
  it("a query started late in the budget stops at the problem's deadline, not a whole limit later", () => {
    const d = parseDomain(readFileSync(join(ROOT, "domains", "npuzzle", "domain.pddl"), "utf8"), "domain.pddl");
    const task = ground(d, parseProblem(hard15(), "hard15.pddl", d));
    const t0 = performance.now();
    const ctx = createLabelContext(task, { limits: { timeMs: 1000 } });
    // earlier work of the problem used most of its budget
    while (performance.now() - t0 < 700) {
      /* busy */
    }
    // the reason names the problem's budget, not the query alone
    expect(() => ctx.oracle.hstar(task.init)).toThrow(/^time limit reached while labelling \(an h\* query stopped after \d+ expansions/);
    const ms = performance.now() - t0;
    // before: the query had its own 1,000 ms and stopped near 1,700 ms
    expect(ms).toBeGreaterThanOrEqual(990);
    expect(ms).toBeLessThanOrEqual(1100);
  }, 30_000);

  it("labelProblemAll under --time-limit 1000 on a hard problem: skipped within 10%", () => {
    const d = parseDomain(readFileSync(join(ROOT, "domains", "npuzzle", "domain.pddl"), "utf8"), "domain.pddl");
    const task = ground(d, parseProblem(hard15(), "hard15.pddl", d));
    const t0 = performance.now();
    expect(() => labelProblemAll(task, { problemId: "hard15", seed: 1, samplesPerState: 4, limits: { timeMs: 1000 } })).toThrow(ProblemSkipped);
    const ms = performance.now() - t0;
    expect(ms).toBeLessThanOrEqual(1100);
  }, 30_000);
});

describe("judge --jsonl: a request over its limit answers with a limit and the stream goes on", () => {
  it("--time-ms 500: the hard request gets 'limit reached' within 10% + 0.5 s, the next one its judgement", async () => {
    const { spawn } = await import("node:child_process");
    const { createInterface } = await import("node:readline");
    const child = spawn(process.execPath, [join(ROOT, "dist", "src", "cli", "main.js"), "judge", "--jsonl", "--time-ms", "500"], { stdio: ["pipe", "pipe", "pipe"] });
    const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
    // warm-up request: start-up and the first grounding are not part of the measured one
    child.stdin.write(JSON.stringify({ id: 0, domain: "npuzzle", problem: "p0001", steps: [] }) + "\n");
    expect(JSON.parse((await lines.next()).value as string).id).toBe(0);
    const t0 = performance.now();
    child.stdin.write(JSON.stringify({ id: 1, domain: "npuzzle", problem: hard15(), steps: ["(move t6 p20 p21)"] }) + "\n");
    const hard = JSON.parse((await lines.next()).value as string) as { id: number; error?: string };
    const ms = performance.now() - t0;
    expect(hard.id).toBe(1);
    expect(hard.error).toMatch(/^limit reached: /);
    // grounding the new problem is inside the request's time too; the bound is the documented one
    // (README: 10% + 0.5 s): with other test files on both cores, 100 ms of slack failed at 620 ms
    // (without a per-request limit the request runs for minutes)
    expect(ms).toBeLessThanOrEqual(500 * 1.1 + 500);
    child.stdin.write(JSON.stringify({ id: 2, domain: "npuzzle", problem: "p0001", steps: ["(move t1 p00 p01)"] }) + "\n");
    const next = JSON.parse((await lines.next()).value as string) as { id: number; error?: string; steps?: unknown[] };
    expect(next.id).toBe(2);
    expect(next.error).toBeUndefined();
    child.stdin.end();
    await new Promise((done) => child.on("close", done));
  }, 60_000);
});

