/**
 * Partial problems (issue 38): a limit hit after the optimal walk keeps the states labelled by
 * then, whole states only, so every kept row is the row a full run makes; `--whole-problems`
 * skips the problem as before; a limit during the walk still skips it.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { builtinDomainFile, builtinProblemsDir, createLabelContext, ground, labelProblemAll, parseDomain, parseProblem, ProblemSkipped } from "../src/index.js";
import { labelProblemSteps, type LabelContext } from "../src/label/index.js";
import type { Oracle } from "../src/search/index.js";
import { LimitError } from "../src/search/types.js";
import { cliRunner } from "./cli-run.js";

/** The context's oracle, failing with LimitError from its `budget`-th call on. */
function failingAfter(ctx: LabelContext, budget: number): LabelContext {
  let calls = 0;
  const o = ctx.oracle;
  const tick = (): void => {
    if (++calls > budget) throw new LimitError(`test limit after ${budget} oracle calls`);
  };
  const oracle: Oracle = {
    mode: o.mode,
    hstar: (s) => (tick(), o.hstar(s)),
    hstarAtMost: (s, b) => (tick(), o.hstarAtMost(s, b)),
    optimalActions: (s) => (tick(), o.optimalActions(s)),
    deadEndProof: (s) => (tick(), o.deadEndProof(s)),
    known: (s) => o.known(s),
    reachableStates: () => o.reachableStates(),
    cachedStates: () => o.cachedStates(),
  };
  return { ...ctx, oracle, hstarCache: new Map(), deadEndProofs: new Map() };
}

describe("labelProblemSteps with partial: a whole-state prefix of the full run", () => {
  for (const name of ["blocksworld", "sokoban", "logistics"]) {
    it(`${name}: every cut keeps whole states equal to the full run's, or skips`, () => {
      const df = builtinDomainFile(name);
      const d = parseDomain(readFileSync(df, "utf8"), df);
      const dir = builtinProblemsDir(name);
      const file = join(dir, readdirSync(dir).sort().find((f) => f.endsWith(".pddl"))!);
      const task = ground(d, parseProblem(readFileSync(file, "utf8"), file, d));
      const opts = { problemId: `${name}/p`, seed: 7, samplesPerState: 6, oracleMaxStates: 0 };
      const full = labelProblemAll(task, opts);
      const planLength = full[0]!.planLength;
      let partials = 0;
      let skips = 0;
      for (let budget = 0; budget < 400; budget += 3) {
        const ctx = failingAfter(createLabelContext(task, { oracleMaxStates: 0 }), budget);
        let out;
        try {
          out = labelProblemSteps(task, { ...opts, context: ctx, partial: true });
        } catch (e) {
          expect(e).toBeInstanceOf(ProblemSkipped);
          skips++;
          continue;
        }
        const n = out.steps.length;
        expect(out.steps).toEqual(full.slice(0, n));
        if (out.cutReason === null) {
          expect(n).toBe(full.length);
          continue;
        }
        partials++;
        // whole states: the next row of the full run starts a new state
        expect(out.statesLabelled).toBeGreaterThan(0);
        expect(full[n]!.stateIndex).toBe(out.statesLabelled);
        expect(out.steps[n - 1]!.stateIndex).toBe(out.statesLabelled - 1);
        expect(out.statesLabelled + out.statesCut).toBe(planLength);
        expect(out.cutReason).toMatch(/test limit/);
        // without partial the same cut skips the problem
        const again = failingAfter(createLabelContext(task, { oracleMaxStates: 0 }), budget);
        expect(() => labelProblemSteps(task, { ...opts, context: again, partial: false })).toThrow(ProblemSkipped);
      }
      expect(skips).toBeGreaterThan(0);
      expect(partials).toBeGreaterThan(0);
    }, 60_000);
  }
});

// A two-step plan (advance, finish) whose second state offers a fall into a trap: 2^20 states
// from which the goal is reachable in the delete relaxation (p and q are both reached) but not
// in fact (p and q never hold together), so proving that candidate a dead end takes an
// exhaustive search far beyond a 3 s limit, while the walk and the first state take milliseconds.
const TRAP_DOMAIN = `(define (domain trap)
  (:requirements :strips :typing :negative-preconditions)
  (:types bit)
  (:predicates (start) (middle) (done) (trapped) (p) (q) (set ?b - bit))
  (:action advance :parameters () :precondition (start) :effect (and (middle) (not (start))))
  (:action z-finish :parameters () :precondition (and (middle) (not (trapped))) :effect (done))
  (:action fall :parameters () :precondition (and (middle) (not (trapped))) :effect (and (trapped) (p)))
  (:action toggle-up :parameters () :precondition (and (trapped) (p)) :effect (and (q) (not (p))))
  (:action toggle-down :parameters () :precondition (and (trapped) (q)) :effect (and (p) (not (q))))
  (:action flip :parameters (?b - bit) :precondition (trapped) :effect (set ?b))
  (:action escape :parameters () :precondition (and (trapped) (p) (q)) :effect (done)))`;
const TRAP_PROBLEM = `(define (problem p01) (:domain trap)
  (:objects ${Array.from({ length: 20 }, (_, i) => `b${i + 1}`).join(" ")} - bit)
  (:init (start)) (:goal (done)))`;

const tmp = mkdtempSync(join(tmpdir(), "pddl2prm-partial-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const run = cliRunner(tmp);

describe("generate: a problem a limit cuts short", () => {
  writeFileSync(join(tmp, "domain.pddl"), TRAP_DOMAIN);
  writeFileSync(join(tmp, "p01.pddl"), TRAP_PROBLEM);
  const args = (out: string) => ["generate", "--domain-file", "domain.pddl", "--problems", "p01.pddl", "--time-limit", "3", "--samples-per-state", "8", "--workers", "1", "--out", out];

  it("keeps the first state's rows by default and lists the problem as partial", async () => {
    const r = await run(args("part"));
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/wrote 8 rows from 1 problems \(1 in part: a limit cut their later states; see manifest\.json\)/);
    const m = JSON.parse(readFileSync(join(tmp, "part", "manifest.json"), "utf8"));
    expect(m.problems.labelled).toBe(1);
    expect(m.problems.skipped).toEqual([]);
    expect(m.problems.partial).toHaveLength(1);
    expect(m.problems.partial[0]).toMatchObject({ domain: "trap", problem: "p01", states_labelled: 1, states_cut: 1 });
    expect(m.problems.partial[0].reason).toMatch(/limit/);
    const rows = readFileSync(join(tmp, "part", "data", "train-00000-of-00001.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
    expect(rows).toHaveLength(8);
    // only the initial state's candidates, each labelled as a full run labels it
    expect(new Set(rows.map((x) => x.meta.state_index))).toEqual(new Set([0]));
    expect(readFileSync(join(tmp, "part", "README.md"), "utf8")).toMatch(/1 labelled in part: a limit cut 1 later state of its walk, the states before are whole; 0 skipped/);
  }, 60_000);

  it("--whole-problems skips it, as before", async () => {
    const r = await run([...args("whole"), "--whole-problems"]);
    expect(r.code).toBe(0);
    const m = JSON.parse(readFileSync(join(tmp, "whole", "manifest.json"), "utf8"));
    expect(m.problems.labelled).toBe(0);
    expect(m.problems.partial).toEqual([]);
    expect(m.problems.skipped).toHaveLength(1);
    expect(m.config.whole_problems).toBe(true);
  }, 60_000);
});

describe("optimal walk with zero-cost actions", () => {
  // From A, "a-to-b" (cost 0, the lowest id) is optimal, but every optimal plan from B returns
  // to A: the lowest-id walk cycles. The walk is then made again avoiding visited states.
  const DOMAIN = `(define (domain loop) (:requirements :strips :action-costs)
    (:predicates (at-a) (at-b) (at-g)) (:functions (total-cost) - number)
    (:action a-to-b :parameters () :precondition (at-a) :effect (and (at-b) (not (at-a))))
    (:action b-back :parameters () :precondition (at-b) :effect (and (at-a) (not (at-b))))
    (:action z-finish :parameters () :precondition (at-a) :effect (and (at-g) (not (at-a)) (increase (total-cost) 1))))`;
  const PROBLEM = `(define (problem loop1) (:domain loop) (:init (at-a) (= (total-cost) 0)) (:goal (at-g)) (:metric minimize (total-cost)))`;
  for (const randomOptimal of [false, true]) {
    it(`a walk that would cycle takes the optimal action whose plans avoid the visited states${randomOptimal ? " (--random-optimal)" : ""}`, () => {
      const d = parseDomain(DOMAIN, "loop.pddl");
      const task = ground(d, parseProblem(PROBLEM, "loop1.pddl", d));
      const steps = labelProblemAll(task, { problemId: "loop/loop1", seed: 3, samplesPerState: 3, randomOptimal });
      expect(steps.length).toBeGreaterThan(0);
      expect(new Set(steps.map((s) => s.planLength))).toEqual(new Set([1]));
      const byName = new Map(steps.map((s) => [s.candidate.name, s.category]));
      expect(byName.get("(z-finish)")).toBe("optimal");
      // a-to-b keeps the cost to go (0 + 1 = 1): optimal by DESIGN.md §6 (checked before
      // backtracking), though the walk cannot take it without coming back
      if (byName.has("(a-to-b)")) expect(byName.get("(a-to-b)")).toBe("optimal");
      expect(steps.every((s) => s.prefixOps.length === 0)).toBe(true);
    });
  }
});
