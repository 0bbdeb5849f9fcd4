import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseDomain, parseProblem } from "../src/pddl/index.js";
import { ground, validatePlan } from "../src/task/index.js";
import type { GroundTask } from "../src/task/types.js";
import { astar, createHeuristic, formatPlan, solve } from "../src/search/index.js";
import { mulberry, naiveHStar, randomTask } from "./search-helpers.js";

const F = join(import.meta.dirname, "fixtures", "search");
function load(domain: string, problem: string): GroundTask {
  const d = parseDomain(readFileSync(join(F, domain), "utf8"), domain);
  return ground(d, parseProblem(readFileSync(join(F, problem), "utf8"), problem, d));
}

const HS = ["blind", "hmax", "lmcut"] as const;

describe("A* finds optimal plans", () => {
  const cases: [string, string, number][] = [
    ["bw-domain.pddl", "bw-sussman.pddl", 6],
    ["bw-domain.pddl", "bw-4.pddl", 8],
    ["roads-domain.pddl", "roads-p1.pddl", 13],
    ["brief-domain.pddl", "brief-p1.pddl", 7],
    ["token-domain.pddl", "token-solvable.pddl", 2],
  ];
  for (const [d, p, cost] of cases) {
    it(`${p}: cost ${cost} with every heuristic, plans validate`, () => {
      const task = load(d, p);
      for (const h of HS) {
        const r = solve(task, { heuristic: h });
        expect(r.status).toBe("solved");
        expect(r.cost).toBe(cost);
        const v = validatePlan(task, r.planNames);
        expect(v.valid).toBe(true);
        expect(v.cost).toBe(cost);
        expect(r.initialH).not.toBeNull();
        expect(r.initialH!).toBeLessThanOrEqual(cost);
        expect(r.expanded).toBeGreaterThanOrEqual(r.plan.length + 1); // the goal node is counted
        expect(r.evaluated).toBeLessThanOrEqual(r.generated + 1);
      }
    });
  }

  it("the plan file ends with the cost line in Fast Downward's format", () => {
    const task = load("roads-domain.pddl", "roads-p1.pddl");
    const r = solve(task);
    const text = formatPlan(task, r.plan);
    const lines = text.trim().split("\n");
    expect(lines.at(-1)).toBe("; cost = 13 (general cost)");
    expect(lines.slice(0, -1)).toEqual(r.planNames);
    const bw = load("bw-domain.pddl", "bw-sussman.pddl");
    expect(formatPlan(bw, solve(bw).plan).trim().split("\n").at(-1)).toBe("; cost = 6 (unit cost)");
  });

  it("LM-Cut expands no more than h^max, h^max no more than blind", () => {
    const task = load("bw-domain.pddl", "bw-4.pddl");
    const [b, m, l] = HS.map((h) => solve(task, { heuristic: h }).expanded);
    expect(l).toBeLessThanOrEqual(m!);
    expect(m).toBeLessThanOrEqual(b!);
  });

  it("detects unsolvable tasks (relaxed solvable, really not)", () => {
    const task = load("token-domain.pddl", "token-unsolvable.pddl");
    for (const h of HS) {
      const r = solve(task, { heuristic: h });
      expect(r.status).toBe("unsolvable");
      expect(r.cost).toBeNull();
      expect(r.plan).toEqual([]);
    }
    expect(solve(task, { heuristic: "lmcut" }).initialH).toBe(2);
  });

  it("respects expansion and time limits", () => {
    const task = load("bw-domain.pddl", "bw-6.pddl");
    const r = solve(task, { heuristic: "blind", limits: { maxExpansions: 5 } });
    expect(r.status).toBe("limit");
    expect(r.expanded).toBe(5);
    expect(r.cost).toBeNull();
    const t = solve(task, { heuristic: "blind", limits: { timeMs: 0 } });
    expect(t.status).toBe("limit");
    expect(t.expanded).toBeLessThanOrEqual(200);
  });

  it("random tasks: every heuristic gives the brute-force optimal cost", () => {
    const rnd = mulberry(11);
    let solved = 0;
    let unsolvable = 0;
    for (let i = 0; i < 150; i++) {
      const t = randomTask(rnd, i % 3 === 0);
      const want = naiveHStar(t).get(t.init.join(","))!.h;
      for (const h of HS) {
        const r = astar(t, createHeuristic(t, h));
        if (want === Infinity) expect(r.status).toBe("unsolvable");
        else {
          expect(r.status).toBe("solved");
          expect(r.cost).toBe(want);
          let c = 0;
          for (const op of r.plan) c += t.opCost[op]!;
          expect(c).toBe(want);
        }
      }
      if (want === Infinity) unsolvable++;
      else solved++;
    }
    expect(solved).toBeGreaterThan(20);
    expect(unsolvable).toBeGreaterThan(5);
  });
});
