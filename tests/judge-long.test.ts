/**
 * `judge` on long plans (issue 50): the work per step does not grow with the plan (a 20,000-step
 * plan took 2.3 GB and a minute: every step copied the prefix and rebuilt the visited index),
 * and a `--jsonl` request over its limit answers with a limit even when every h* it needs is
 * cached (no search ever looked at the clock: a 20,000-step request ran 146 s past 30 s).
 * The --jsonl bound on the wall clock: tests/load/judge-jsonl-limit.test.ts. Memory and time
 * figures: bench/judge-long.ts (bench/results/judge-long.txt).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { createJudgeTask, judgeSteps, parseDomain, parseProblem } from "../src/index.js";
import { visitedIndex } from "../src/label/classify.js";
import { replaySteps, resolveStep } from "../src/products/judge.js";
import { ROOT } from "./cli-run.js";

const visitgrid = () => {
  const d = parseDomain(readFileSync(join(ROOT, "domains", "visitgrid", "domain.pddl"), "utf8"), "domain.pddl");
  return createJudgeTask(d, parseProblem(readFileSync(join(ROOT, "problems", "visitgrid", "p0001.pddl"), "utf8"), "p0001.pddl", d));
};

/** visitgrid p0001 (the robot starts at r3c3): back and forth between two cells, n steps. */
const loop = (n: number): string[] => Array.from({ length: n }, (_, i) => (i % 2 === 0 ? "(move r3c3 r3c4)" : "(move r3c4 r3c3)"));

describe("judge: work per step independent of the plan's length", () => {
  it("a 4,000-step plan interns a bounded number of states per step (before: the whole visited set per step)", () => {
    const jt = visitgrid();
    const n = 4000;
    const intern = vi.spyOn(jt.ctx.registry, "intern");
    const j = judgeSteps(jt, loop(n));
    expect(j.steps).toHaveLength(n);
    expect(j.steps[n - 1]!.category).toBe("backtracking");
    expect(j.steps[n - 1]!.state_index).toBe(n - 1);
    // before: about n^2 / 2 = 8,000,000 (the index rebuilt for every step)
    expect(intern.mock.calls.length).toBeLessThan(20 * n);
  });

  it("the replayed steps share one walk: no prefix copy per step", () => {
    const jt = visitgrid();
    const r = replaySteps(jt.ctx, loop(100).map((t) => resolveStep(jt.ctx, jt.renderer, t)));
    expect(r.walk.ops).toHaveLength(100);
    expect(r.walk.states).toHaveLength(101);
    for (const [i, s] of r.steps.entries()) {
      expect(s.walk).toBe(r.walk);
      expect(s.stateIndex).toBe(i);
      expect(s.state).toBe(r.walk.states[i]);
    }
  });

  it("the visited index grows with an array that grows, and is rebuilt for another", () => {
    const jt = visitgrid();
    // (visitgrid's states remember the cells visited: s1 = s3 at r3c4, s2 = s4 back at r3c3)
    const r = replaySteps(jt.ctx, loop(4).map((t) => resolveStep(jt.ctx, jt.renderer, t)));
    const states = r.walk.states;
    const v: Uint32Array[] = [states[0]!];
    const a = visitedIndex(jt.ctx, v);
    expect([...a.values()]).toEqual([0]);
    v.push(states[1]!, states[2]!, states[3]!, states[4]!);
    const b = visitedIndex(jt.ctx, v);
    expect(b).toBe(a); // extended, not rebuilt
    expect([...b.values()]).toEqual([0, 1, 2]); // a state's first index stays
    expect(b.get(jt.ctx.registry.intern(states[3]!))).toBe(1);
    expect(b.get(jt.ctx.registry.intern(states[4]!))).toBe(2);
    // another array, or one whose end changed, gets an index of its own
    const c = visitedIndex(jt.ctx, [states[1]!]);
    expect(c).not.toBe(b);
    expect([...c.values()]).toEqual([0]);
  });

  it("a deadline holds between steps whose h* are all cached", () => {
    const jt = visitgrid();
    judgeSteps(jt, loop(4)); // every state of the loop is known now
    const t0 = performance.now();
    expect(() => judgeSteps(jt, loop(400_000), { deadline: performance.now() + 200 })).toThrow(/time limit reached/);
    // before: no search ran, so nothing looked at the clock (minutes for a long plan)
    expect(performance.now() - t0).toBeLessThan(200 * 1.1 + 500);
  }, 60_000);
});
