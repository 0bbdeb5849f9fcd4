/**
 * `judge` and `judgePlan`: every step labelled as `pddl2prm label` labels it after the same
 * prefix (the steps executed before it), on optimal walks and random plans of every built-in
 * domain; rejected steps leave the state alone; the stream mode answers every line.
 */
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { randomPlan } from "../bench/judge-plans.js";
import { register as registerJudge } from "../src/cli/judge.js";
import { register as registerLabel } from "../src/cli/label.js";
import { BUILTIN_DOMAINS, builtinDomainFile, builtinProblemsDir } from "../src/generators/index.js";
import { optimalWalk } from "../src/label/walk.js";
import { loadTemplates } from "../src/nl/index.js";
import { parseDomain, parseProblem, PddlError } from "../src/pddl/index.js";
import { judgePlan } from "../src/products/judge-session.js";
import { createJudgeTask, judgeSteps, planSteps, type JudgeTask, type Judgement } from "../src/products/judge.js";
import { validatePlan } from "../src/task/index.js";
import { Prng } from "../src/util/prng.js";
import { runCommands } from "./cli-helpers.js";
import { fileTempDir } from "./temp-dir.js";

const ROOT = join(import.meta.dirname, "..");
const CLI = join(ROOT, "dist", "src", "cli", "main.js");
const tmp = fileTempDir("judge-");
const PROBLEMS = ["p0001", "p0002"];
const RANDOM_PLANS = 2;

const problemFile = (d: string, p: string): string => join(builtinProblemsDir(d), `${p}.pddl`);

function judgeTask(d: string, p: string): JudgeTask {
  const df = builtinDomainFile(d);
  const domain = parseDomain(readFileSync(df, "utf8"), df);
  const pf = problemFile(d, p);
  return createJudgeTask(domain, parseProblem(readFileSync(pf, "utf8"), pf, domain), { templates: loadTemplates(d) });
}

const optimalPlan = (jt: JudgeTask): string[] => optimalWalk(jt.ctx, jt.task.init, null).ops.map((op) => jt.task.opNames[op]!);

let files = 0;
/** `pddl2prm label` in process, after the given prefix. */
async function label(d: string, p: string, prefix: string[], action: string): Promise<{ code: number; json: Record<string, unknown> | null; err: string }> {
  const pf = join(tmp, `prefix-${files++}.plan`);
  writeFileSync(pf, prefix.join("\n") + "\n");
  const r = await runCommands([registerLabel], ["label", builtinDomainFile(d), problemFile(d, p), "--prefix", pf, "--action", action, "--json"]);
  return { code: r.code, json: r.code === 0 ? (JSON.parse(r.out) as Record<string, unknown>) : null, err: r.err };
}

/** Check every step of a judgement against `label` after the executed steps before it. */
async function agreesWithLabel(d: string, p: string, j: Judgement): Promise<void> {
  const executed: string[] = [];
  let deadEnd = false;
  for (const s of j.steps) {
    const where = `${d}/${p} step ${s.index} ${s.step}`;
    expect(s.state_index, where).toBe(executed.length);
    if (s.action === null) {
      expect(s.category, where).toBe("unparseable");
      expect(s.executed).toBe(false);
      if (s.step.trim().startsWith("(")) expect((await label(d, p, executed, s.step)).code, where).toBe(1);
    } else {
      const l = await label(d, p, executed, s.action);
      expect(l.code, `${where}: ${l.err}`).toBe(0);
      const want = l.json!;
      expect(
        {
          action: s.action,
          category: s.category,
          reward: s.reward,
          h_before: s.h_before,
          h_after: s.h_after,
          cost: s.cost,
          extra_cost: s.extra_cost,
          failed_preconditions: s.failed_preconditions,
          backtrack_to: s.backtrack_to,
          dead_end_proof: s.dead_end_proof,
        },
        where,
      ).toEqual({
        action: want["action"],
        category: want["category"],
        reward: want["reward"],
        h_before: want["h_before"],
        h_after: want["h_after"],
        cost: want["cost"],
        extra_cost: want["extra_cost"],
        failed_preconditions: want["failed_preconditions"],
        backtrack_to: want["backtrack_to"],
        dead_end_proof: want["dead_end_proof"],
      });
      expect(s.executed, where).toBe(s.category !== "non-executable");
      // after a dead end, every executable step is a dead end too
      if (deadEnd && s.executed) expect(s.category, where).toBe("dead-end");
      if (s.category === "dead-end") deadEnd = true;
    }
    expect(s.critique.length, where).toBeGreaterThan(20);
    expect(s.critique, where).not.toMatch(/\bI\b|\bmy\b/);
    if (s.executed) executed.push(s.action!);
  }
  const v = validatePlan(judgeTask(d, p).task, executed);
  expect(j.cost).toBe(v.cost);
  expect(j.goal_reached).toBe(v.valid);
  // valid: the plan as given, rejected and unparseable steps included, passes a validator
  const given = j.steps.map((s) => s.action);
  expect(j.valid).toBe(given.every((a) => a !== null) && validatePlan(judgeTask(d, p).task, given as string[]).valid);
  if (j.first_rejected !== null) expect(j.valid).toBe(false);
  const firstBad = j.steps.findIndex((s) => s.reward < 1);
  expect(j.first_error).toBe(firstBad < 0 ? null : firstBad);
}

describe("judge agrees with `label` with the same prefix, on every step", () => {
  for (const d of BUILTIN_DOMAINS) {
    it(`${d.name}: optimal walks and random plans`, async () => {
      for (const p of PROBLEMS) {
        const jt = judgeTask(d.name, p);
        const opt = judgeSteps(jt, optimalPlan(jt));
        expect(opt.steps.every((s) => s.category === "optimal")).toBe(true);
        expect(opt.goal_reached).toBe(true);
        expect(opt.first_error).toBeNull();
        expect(opt.cost).toBe(opt.optimal_cost);
        expect(opt.remaining_cost).toBe(0);
        await agreesWithLabel(d.name, p, opt);
        const prng = new Prng(7, `${d.name}/${p}/judge-test`);
        for (let k = 0; k < RANDOM_PLANS; k++) await agreesWithLabel(d.name, p, judgeSteps(jt, randomPlan(jt, prng)));
      }
    }, 300_000);
  }

  it("step text judges exactly as its PDDL action (every built-in domain, any paraphrase)", () => {
    for (const d of BUILTIN_DOMAINS) {
      const jt = judgeTask(d.name, "p0001");
      const prng = new Prng(3, d.name);
      const plan = randomPlan(jt, prng, { plan: 0.6, executable: 0.25, any: 0.15, text: 0 });
      const pddl = judgeSteps(jt, plan);
      const text = pddl.steps.map((s) => {
        if (s.action === null) return s.step;
        const c = jt.ctx.task.opNames.indexOf(s.action);
        if (c < 0) return s.step;
        const cand = { schema: jt.task.opSchema[c]!, args: Array.from(jt.task.opArgs.subarray(jt.task.opArgStart[c]!, jt.task.opArgStart[c + 1]!)), name: s.action, op: c };
        return jt.renderer.step(s.index + 1, cand, prng);
      });
      const judged = judgeSteps(jt, text);
      const strip = (j: Judgement) => j.steps.map(({ step: _s, critique: _c, ...rest }) => rest);
      expect(strip(judged), d.name).toEqual(strip(pddl));
    }
  });
});

describe("judgePlan (library)", () => {
  const d = readFileSync(builtinDomainFile("blocksworld"), "utf8");
  const p = readFileSync(problemFile("blocksworld", "p0001"), "utf8");

  it("takes PDDL text and built-in names alike, text steps in the built-in templates", () => {
    const steps = ["(unstack b3 b6)", "Step 2: Since I am holding block 3, I put block 3 down on the table. Now block 3 is on the table.", "(pick-up b9)", "fly away"];
    const a = judgePlan(d, p, steps);
    const b = judgePlan("blocksworld", "p0001", steps);
    expect(a).toEqual(b);
    expect(a.steps.map((s) => s.category)).toEqual(["optimal", "optimal", "unparseable", "unparseable"]);
    expect(a.steps[2]!.error).toBe("unknown object 'b9'");
    expect(a.steps[3]!.critique).toContain("nothing changes");
    expect(a.steps.map((s) => s.state_index)).toEqual([0, 1, 2, 2]);
  });

  it("a rejected step leaves the state as it is; the next step is judged where the plan really is", () => {
    const a = judgePlan(d, p, ["(unstack b3 b6)", "(unstack b6 b2)", "(put-down b3)", "(unstack b6 b2)"]);
    expect(a.steps.map((s) => [s.category, s.executed, s.state_index])).toEqual([
      ["optimal", true, 0],
      ["non-executable", false, 1],
      ["optimal", true, 1],
      ["optimal", true, 2],
    ]);
    expect(a.first_error).toBe(1);
    expect(a.first_rejected).toBe(1);
    expect(a.cost).toBe(3);
    expect(a.goal_reached).toBe(false);
    expect(a.remaining_cost).toBe(a.optimal_cost! - 3);
  });

  it("a domain that is not built-in (a renamed copy) reads step text derived from its PDDL names", () => {
    const d2 = d.replace(/\(domain blocksworld\)/, "(domain mybw)");
    const p2 = p.replace(/\(:domain blocksworld\)/, "(:domain mybw)");
    const domain = parseDomain(d2);
    const jt = createJudgeTask(domain, parseProblem(p2, "<p>", domain), { templates: null });
    const op = jt.task.opNames.indexOf("(unstack b3 b6)");
    const text = jt.renderer.step(1, { schema: jt.task.opSchema[op]!, args: Array.from(jt.task.opArgs.subarray(jt.task.opArgStart[op]!, jt.task.opArgStart[op + 1]!)), name: "(unstack b3 b6)", op }, new Prng(1, "x"));
    expect(text).not.toContain("block 3"); // not the built-in templates' phrase
    const j = judgePlan(d2, p2, [text]);
    expect(j.steps[0]).toMatchObject({ action: "(unstack b3 b6)", category: "optimal" });
  });

  it("bad PDDL is a PddlError naming the place", () => {
    let err: unknown = null;
    try {
      judgePlan("(define (domain x) (:predicates (p))", p, []);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(PddlError);
    expect((err as PddlError).format()).toMatch(/^<request domain>:1:\d+: error: unclosed/);
  });
});

describe("pddl2prm judge", () => {
  const DOM = builtinDomainFile("blocksworld");
  const PROB = problemFile("blocksworld", "p0001");
  const plan = join(tmp, "mixed.plan");
  writeFileSync(plan, "; a plan with mistakes\n(unstack b3 b6) (put-down b3)\n(unstack b6 b9)\nI pick up block 3 from the table.\n(stack b3 b6)\n");

  it("plan files: several actions on a line, comments skipped, other lines are step text", () => {
    expect(planSteps(readFileSync(plan, "utf8"))).toEqual(["(unstack b3 b6)", "(put-down b3)", "(unstack b6 b9)", "I pick up block 3 from the table.", "(stack b3 b6)"]);
  });

  it("--json prints steps, first_error, goal_reached, cost and optimal_cost", async () => {
    const r = await runCommands([registerJudge], ["judge", DOM, PROB, plan, "--json"]);
    expect(r.code, r.err).toBe(0);
    const j = JSON.parse(r.out) as Judgement;
    expect(Object.keys(j)).toEqual(["steps", "first_error", "first_rejected", "goal_reached", "valid", "cost", "optimal_cost", "remaining_cost"]);
    expect(Object.keys(j.steps[0]!).slice(0, 6)).toEqual(["index", "step", "action", "category", "reward", "executed"]);
    expect(j.steps.map((s) => s.category)).toEqual(["optimal", "optimal", "unparseable", "backtracking", "backtracking"]);
    expect(j.optimal_cost).toBe(14);
    expect(j.first_error).toBe(2);
  });

  it("prints a readable report without --json", async () => {
    const r = await runCommands([registerJudge], ["judge", "blocksworld", "p0001", plan]);
    expect(r.code).toBe(0);
    expect(r.out).toContain("step 5: (stack b3 b6)  backtracking (reward 0.50)");
    expect(r.out).toMatch(/first error: step 3 \(unparseable\); goal reached: no; valid plan: no; cost 4 \(optimal 14\)\n$/);
  });

  it("bad usage exits 2, bad input 1, one line each", async () => {
    const cases: [string[], number, RegExp][] = [
      [["judge", DOM, PROB], 2, /needs DOMAIN PROBLEM PLAN/],
      [["judge", DOM, PROB, plan, "--jsonl"], 2, /--jsonl reads its plans from stdin/],
      [["judge", join(tmp, "none.pddl"), PROB, plan], 1, /none\.pddl': no such file/],
      [["judge", DOM, PROB, join(tmp, "none.plan")], 1, /none\.plan: no such file/],
      [["judge", DOM, PROB, plan, "--max-states", "x"], 2, /--max-states expects an integer/],
    ];
    for (const [args, code, re] of cases) {
      const r = await runCommands([registerJudge], args);
      expect(r.code, args.join(" ")).toBe(code);
      expect(r.err).toMatch(re);
      expect(r.err.trim().split("\n")).toHaveLength(1);
    }
  });

  it("--jsonl answers every request line in order, bad ones with an error line, and keeps going", () => {
    const good = { id: 1, domain: "blocksworld", problem: "p0001", steps: ["(unstack b3 b6)", "(pick-up b2)"] };
    const lines = [
      JSON.stringify(good),
      "{not json",
      JSON.stringify({ id: "x", domain: "nosuch", problem: "p0001", steps: [] }),
      JSON.stringify({ id: 3, domain: "blocksworld", problem: "p0001" }),
      JSON.stringify({ id: 4, domain: "(define (domain d) (:predicates (p)) (:action a :parameters () :precondition (q) :effect (p)))", problem: "(define (problem q) (:domain d) (:init) (:goal (p)))", steps: ["(a)"] }),
      "",
      JSON.stringify({ ...good, id: 5, steps: ["(unstack b3 b6)", "(stack b3 b6)", "(frobnicate)"] }),
      JSON.stringify({ id: 6, domain: DOM, problem: PROB, steps: ["(unstack b3 b6)", "(pick-up b2)"] }),
    ];
    const r = spawnSync(process.execPath, [CLI, "judge", "--jsonl"], { input: lines.join("\n") + "\n", encoding: "utf8" });
    expect(r.status, r.stderr).toBe(0);
    const out = r.stdout.trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(out).toHaveLength(7);
    expect(out.map((o) => o["id"] ?? null)).toEqual([1, null, "x", 3, 4, 5, 6]);
    expect(out[1]!["error"]).toMatch(/^not JSON/);
    expect(out[2]!["error"]).toMatch(/domain 'nosuch': no such file/);
    expect(out[3]!["error"]).toMatch(/bad request: steps: Required/);
    expect(out[4]!["error"]).toMatch(/<request domain>:1:\d+: error: .*q/);
    const j5 = out[5] as unknown as Judgement;
    expect(j5.steps.map((s) => s.category)).toEqual(["optimal", "backtracking", "unparseable"]);
    // the same problem by name and by path: the same judgement
    const { id: _a, ...j0 } = out[0]!;
    const { id: _b, ...j6 } = out[6]!;
    expect(j6).toEqual(j0);
    expect(r.stderr).toBe("");
  });
});
