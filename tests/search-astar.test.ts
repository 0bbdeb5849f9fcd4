import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseDomain, parseProblem } from "../src/pddl/index.js";
import { ground, validatePlan } from "../src/task/index.js";
import type { GroundTask } from "../src/task/types.js";
import { astar, createHeuristic, formatPlan, goalRelevance, solve, successorOrder } from "../src/search/index.js";
import { handTask, mulberry, naiveApply, naiveGoal, naiveHStar, randomTask, type HandOp } from "./search-helpers.js";

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

  it("successorOrder: a permutation, preconditions compared in causal order with a prefix first; A* cost unchanged", () => {
    // f0 <-> f1 form one component before f2 (f0 -> f2 via c); d has no precondition
    const t = handTask(
      3,
      [
        { name: "a", pre: [1], add: [0], del: [1] },
        { name: "b", pre: [0], add: [1], del: [0] },
        { name: "c", pre: [0, 2], add: [2] },
        { name: "d", pre: [], add: [2] },
        { name: "e", pre: [0], add: [2] },
      ],
      [0],
      [2],
    );
    // ranks: f0 0, f1 1, f2 2 -> keys a [1], b [0], c [0, 2], d [], e [0]
    expect(Array.from(successorOrder(t))).toEqual([4, 1, 3, 0, 2]);
    const rnd = mulberry(23);
    for (let i = 0; i < 100; i++) {
      const r = randomTask(rnd, i % 3 === 0);
      const pos = successorOrder(r);
      expect([...pos].sort((x, y) => x - y)).toEqual(Array.from({ length: r.numOps }, (_, k) => k));
      const plain = astar(r, createHeuristic(r, "lmcut"));
      const ordered = astar(r, createHeuristic(r, "lmcut"), undefined, { successorOrder: pos });
      expect(ordered.status).toBe(plain.status);
      expect(ordered.cost).toBe(plain.cost);
    }
  });
});

describe("goal relevance (solve prunes what cannot matter)", () => {
  it("drops operators and facts no goal depends on, keeps the rest", () => {
    // f0 -a-> f1 (goal); noise: b toggles f2 on, c needs f2 and adds f3 (never needed);
    // d deletes f1's precondition-free cousin f4, which a's negative precondition reads.
    const t = handTask(
      5,
      [
        { name: "a", pre: [0], add: [1], negPre: [4] },
        { name: "b", pre: [], add: [2] },
        { name: "c", pre: [2], add: [3] },
        { name: "d", pre: [], add: [], del: [4] },
      ],
      [0, 4],
      [1],
    );
    const rel = goalRelevance(t);
    expect(Array.from(rel.ops)).toEqual([1, 0, 0, 1]);
    expect(Array.from(rel.facts)).toEqual([1, 1, 0, 0, 1]);
    expect(rel.numRelevantOps).toBe(2);
    const r = solve(t);
    expect(r.cost).toBe(2);
    expect(r.planNames).toEqual(["(d)", "(a)"]);
  });

  it("an operator that only re-adds its own precondition (or re-deletes a negative one) is not relevant", () => {
    // f0 -a-> f1 (goal) needs f2; b needs f2, re-adds it and adds f3 (never needed): a no-op on
    // relevant facts (like Rovers' communicate actions re-adding channel_free); c needs f4 to be
    // false and deletes it again
    const t = handTask(
      5,
      [
        { name: "a", pre: [0, 2], add: [1], negPre: [4] },
        { name: "b", pre: [2], add: [2, 3] },
        { name: "c", pre: [], negPre: [4], add: [3], del: [4] },
      ],
      [0, 2],
      [1],
    );
    const rel = goalRelevance(t);
    expect(Array.from(rel.ops)).toEqual([1, 0, 0]);
    expect(Array.from(rel.facts)).toEqual([1, 1, 1, 0, 1]);
    expect(solve(t).planNames).toEqual(["(a)"]);
  });

  it("projection merges states that differ only in irrelevant facts", () => {
    // a robot on a line of 4 cells must visit cell 3; 'seen' marks of the others are noise
    const pos = (i: number): number => i;
    const seen = (i: number): number => 4 + i;
    const ops: HandOp[] = [];
    for (let i = 0; i < 4; i++)
      for (const j of [i - 1, i + 1])
        if (j >= 0 && j < 4) ops.push({ name: `move-${i}-${j}`, pre: [pos(i)], add: [pos(j), seen(j)], del: [pos(i)] });
    const t = handTask(8, ops, [pos(0), seen(0)], [seen(3)]);
    const pruned = solve(t, { heuristic: "blind" });
    const full = solve(t, { heuristic: "blind", pruneIrrelevant: false });
    expect(pruned.cost).toBe(3);
    expect(full.cost).toBe(3);
    expect(pruned.expanded).toBeLessThan(full.expanded);
  });

  it("random tasks with negative preconditions, negative goals and conditional effects: same optimal cost, valid plans", () => {
    const rnd = mulberry(29);
    let solved = 0;
    let pruned = 0;
    for (let i = 0; i < 200; i++) {
      const nf = 4 + Math.floor(rnd() * 6);
      const pick = (k: number): number[] => [...new Set(Array.from({ length: k }, () => Math.floor(rnd() * nf)))];
      const ops: HandOp[] = [];
      const no = 3 + Math.floor(rnd() * 9);
      for (let k = 0; k < no; k++) {
        const op: HandOp = { name: `o${k}`, pre: pick(Math.floor(rnd() * 3)), add: pick(Math.floor(rnd() * 3)), del: pick(Math.floor(rnd() * 2)), negPre: pick(rnd() < 0.3 ? 1 : 0), cost: Math.floor(rnd() * 4) };
        if (rnd() < 0.3) op.ce = [{ cond: pick(1), fact: Math.floor(rnd() * nf), add: rnd() < 0.7 }];
        ops.push(op);
      }
      const t = handTask(nf, ops, pick(1 + Math.floor(rnd() * 3)), pick(1 + Math.floor(rnd() * 2)), pick(rnd() < 0.3 ? 1 : 0));
      const want = naiveHStar(t).get(t.init.join(","))!.h;
      const rel = goalRelevance(t);
      if (rel.numRelevantOps < t.numOps) pruned++;
      for (const h of HS) {
        const r = solve(t, { heuristic: h });
        if (want === Infinity) {
          expect(r.status).toBe("unsolvable");
          continue;
        }
        expect(r.status).toBe("solved");
        expect(r.cost).toBe(want);
        // the plan must work on the full (unprojected) task
        let s: Uint32Array | null = t.init.slice();
        let c = 0;
        for (const op of r.plan) {
          s = naiveApply(t, s!, op);
          expect(s).not.toBeNull();
          c += t.opCost[op]!;
        }
        expect(naiveGoal(t, s!)).toBe(true);
        expect(c).toBe(want);
      }
      if (want !== Infinity) solved++;
    }
    expect(solved).toBeGreaterThan(30);
    expect(pruned).toBeGreaterThan(30);
  });
});
