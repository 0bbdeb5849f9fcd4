import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseDomain, parseProblem, UserError } from "../src/pddl/index.js";
import { applyOp, ground, isGoal, parsePlan, StateRegistry, SuccessorGenerator, validatePlan, type GroundTask } from "../src/task/index.js";
import { naive } from "./task-naive.js";

const FX = join(import.meta.dirname, "fixtures", "task");
const text = (f: string) => readFileSync(join(FX, f), "utf8");
const D = parseDomain(text("bw-domain.pddl"), "bw-domain.pddl");
const P = parseProblem(text("bw-p4.pddl"), "bw-p4.pddl", D);
const task = ground(D, P);
const ref = naive(D, P);

/** Breadth-first search for a shortest plan (operator names). */
function bfs(t: GroundTask): string[] {
  const reg = new StateRegistry(t.words);
  const parent: Array<[number, number]> = [];
  reg.intern(t.init);
  parent.push([-1, -1]);
  const gen = new SuccessorGenerator(t);
  const ops: number[] = [];
  for (let id = 0; id < reg.size; id++) {
    const s = reg.get(id);
    if (isGoal(t, s)) {
      const plan: string[] = [];
      for (let x = id; parent[x]![0] >= 0; x = parent[x]![0]) plan.unshift(t.opNames[parent[x]![1]]!);
      return plan;
    }
    gen.applicable(s, ops);
    for (const o of ops) {
      const before = reg.size;
      const n = reg.intern(applyOp(t, s, o));
      if (n === before) parent.push([id, o]);
    }
  }
  throw new Error("unsolvable");
}

/** Verdict of the naive reference: valid iff every step is applicable and the goal holds at the end. */
function naiveValid(plan: string[]): boolean {
  let s = ref.init;
  for (const a of plan) {
    if (!ref.applicable(s).includes(a)) return false;
    s = ref.successor(s, a);
  }
  return ref.goal(s);
}

describe("validatePlan", () => {
  const plan = bfs(task);
  it("accepts an optimal plan and reports its cost", () => {
    expect(plan.length).toBe(8);
    expect(validatePlan(task, plan)).toEqual({ valid: true, cost: 8, steps: 8, failure: null });
  });
  it("rejects a dropped step", () => {
    for (let k = 0; k < plan.length; k++) {
      const bad = plan.filter((_, i) => i !== k);
      const r = validatePlan(task, bad);
      expect(r.valid).toBe(false);
      expect(naiveValid(bad)).toBe(false);
    }
    const r = validatePlan(task, plan.slice(1));
    expect(r.failure).toMatchObject({ step: 1, action: plan[1] });
    expect((r.failure as { unsatisfied: string[] }).unsatisfied.length).toBeGreaterThan(0);
  });
  it("rejects swapped steps, naming the first failing step and its false literals", () => {
    for (let k = 0; k + 1 < plan.length; k++) {
      const bad = [...plan];
      [bad[k], bad[k + 1]] = [bad[k + 1]!, bad[k]!];
      const r = validatePlan(task, bad);
      expect(r.valid).toBe(false);
      expect(r.failure && "action" in r.failure ? r.failure.step : -1).toBe(k + 1);
    }
  });
  it("agrees with the naive reference on every wrong-argument corruption", () => {
    let rejected = 0;
    for (let k = 0; k < plan.length; k++) {
      const parts = plan[k]!.slice(1, -1).split(" ");
      for (let j = 1; j < parts.length; j++)
        for (const o of task.objects) {
          if (o === parts[j]) continue;
          const bad = [...plan];
          const q = [...parts];
          q[j] = o;
          bad[k] = `(${q.join(" ")})`;
          const r = validatePlan(task, bad);
          expect(r.valid).toBe(naiveValid(bad));
          if (!r.valid) rejected++;
        }
    }
    expect(rejected).toBeGreaterThan(20);
  });
  it("rejects a truncated plan with the unmet goal literals", () => {
    const r = validatePlan(task, plan.slice(0, 4));
    expect(r.valid).toBe(false);
    expect(r.cost).toBe(4);
    expect(r.failure).toEqual({ step: 5, unmet_goal: expect.any(Array) });
    const unmet = (r.failure as { unmet_goal: string[] }).unmet_goal;
    expect(unmet.length).toBeGreaterThan(0);
    for (const g of unmet) expect(["(on b a)", "(on c d)", "(on d b)"]).toContain(g);
    expect(validatePlan(task, []).failure).toEqual({ step: 1, unmet_goal: ["(on b a)", "(on c d)", "(on d b)"] });
  });
  it("names unknown actions, wrong arity and unknown objects", () => {
    const f = (p: string[]) => validatePlan(task, p).failure as { step: number; action: string; unsatisfied: string[] };
    expect(f(["(fly a)"])).toEqual({ step: 1, action: "(fly a)", unsatisfied: ["unknown action 'fly'"] });
    expect(f([plan[0]!, "(pick-up)"]).unsatisfied[0]).toMatch(/expects 1 arguments, got 0/);
    expect(f(["(pick-up zz)"]).unsatisfied[0]).toMatch(/unknown object 'zz'/);
  });
  it("sums action costs", () => {
    const d = parseDomain(text("roads-domain.pddl"), "d");
    const t = ground(d, parseProblem(text("roads-p1.pddl"), "p", d));
    expect(validatePlan(t, ["(drive x y)", "(drive y z)", "(teleport z x)"])).toEqual({ valid: true, cost: 12, steps: 3, failure: null });
    expect(validatePlan(t, ["(drive x z)", "(teleport z x)"]).cost).toBe(16);
    expect(validatePlan(t, ["(drive x z)", "(drive z x)"]).failure).toEqual({ step: 2, action: "(drive z x)", unsatisfied: ["(road z x)"] });
  });
});

describe("parsePlan", () => {
  it("reads Fast Downward plan files: comments, case, blank lines", () => {
    expect(parsePlan("(Pick-Up A)\n\n  (stack  a b) ; why not\n; cost = 2 (unit cost)\n")).toEqual(["(pick-up a)", "(stack a b)"]);
    expect(parsePlan("")).toEqual([]);
    expect(parsePlan("(a)(b c)\r\n")).toEqual(["(a)", "(b c)"]);
  });
  it("rejects lines that are not actions", () => {
    expect(() => parsePlan("(pick-up a)\npick-up b\n")).toThrow(UserError);
    expect(() => parsePlan("(pick-up a)\npick-up b\n")).toThrow(/plan line 2/);
    expect(() => parsePlan("()")).toThrow(/empty action/);
  });
});
