/**
 * Costs are added in 32 bits (g, h^max, LM-Cut): costs near 2^30 give the exact optimal cost
 * and labels while every sum fits, and a clean "costs too large" refusal past that, never a
 * wrapped sum (issue 37, finding 6).
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseDomain, parseProblem } from "../src/pddl/index.js";
import { ground, GroundingLimit } from "../src/task/index.js";
import { solve } from "../src/search/index.js";
import { labelProblem } from "../src/index.js";
import { cliRunner } from "./cli-run.js";
import { testTempDir } from "./temp-dir.js";

// a chain a -> b -> c with a costly shortcut a -> c: optimal is the chain when 2x < y
const DOMAIN = `(define (domain big) (:requirements :strips :action-costs)
  (:predicates (at ?x) (road ?x ?y)) (:functions (total-cost) (len ?x ?y))
  (:action go :parameters (?x ?y) :precondition (and (at ?x) (road ?x ?y))
    :effect (and (at ?y) (not (at ?x)) (increase (total-cost) (len ?x ?y)))))`;
const problem = (step: number, shortcut: number) => `(define (problem p) (:domain big) (:objects a b c)
  (:init (at a) (road a b) (road b c) (road a c) (= (len a b) ${step}) (= (len b c) ${step}) (= (len a c) ${shortcut}) (= (total-cost) 0))
  (:goal (at c)) (:metric minimize (total-cost)))`;

describe("costs near 2^30", () => {
  it("sums that fit in 32 bits: the exact optimal cost and labels", () => {
    const d = parseDomain(DOMAIN, "d.pddl");
    // 2 x 2^28 = 2^29 beats the shortcut 2^29 + 1; all costs sum to 2^30 + 1 < 2^31
    const t = ground(d, parseProblem(problem(2 ** 28, 2 ** 29 + 1), "p.pddl", d));
    const r = solve(t, { heuristic: "lmcut" });
    expect(r.status).toBe("solved");
    expect(r.cost).toBe(2 ** 29);
    const rows = [...labelProblem(t, { problemId: "p", seed: 1, samplesPerState: 8 })].filter((x) => x.stateIndex === 0);
    expect(rows.find((x) => x.candidate.name === "(go a c)")?.category).toBe("suboptimal");
    expect(rows.find((x) => x.candidate.name === "(go a b)")?.category).toBe("optimal");
  });

  it("costs summing past 2^31 - 1: a clean refusal (a grounding limit), never a wrapped cost", async () => {
    const d = parseDomain(DOMAIN, "d.pddl");
    expect(() => ground(d, parseProblem(problem(2 ** 30, 2 ** 30 + 5), "p.pddl", d))).toThrow(GroundingLimit);
    expect(() => ground(d, parseProblem(problem(2 ** 30, 2 ** 30 + 5), "p.pddl", d))).toThrow(/costs add up to 3221225477, past 2147483647/);
    const dir = testTempDir("costs-");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "domain.pddl"), DOMAIN);
    writeFileSync(join(dir, "p.pddl"), problem(2 ** 30, 2 ** 30 + 5));
    const run = cliRunner(dir);
    const s = await run(["solve", join(dir, "domain.pddl"), join(dir, "p.pddl")]);
    expect(s.code).toBe(1);
    expect(s.stderr).toMatch(/^pddl2prm: error: .*costs add up to 3221225477/);
    expect(s.stderr.split("\n").filter((l) => l !== "")).toHaveLength(1);
    // generate skips the problem with the reason, and labels nothing wrong
    const g = await run(["generate", "--problems", dir, "--out", join(dir, "out"), "--workers", "1", "--quiet"]);
    expect(g.code).toBe(0);
    const manifest = JSON.parse(readFileSync(join(dir, "out", "manifest.json"), "utf8"));
    expect(manifest.rows).toBe(0);
    expect(manifest.problems.skipped[0].reason).toMatch(/costs add up to 3221225477/);
  });
});
