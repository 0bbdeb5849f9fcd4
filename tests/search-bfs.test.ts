import { describe, expect, it } from "vitest";
import { breadthFirst, goalRelevance } from "../src/search/index.js";
import type { GroundTask } from "../src/task/types.js";
import { mulberry, naiveApply, naiveGoal, naiveHStar, randomTask } from "./search-helpers.js";

/** A random task with every operator at cost 1 (breadth-first search is optimal only there). */
function unitTask(seed: number, withCE: boolean, withNeg: boolean): GroundTask {
  const t = randomTask(mulberry(seed), withCE, withNeg);
  t.opCost.fill(1);
  return { ...t, hasCosts: false };
}

describe("breadthFirst", () => {
  it("finds a plan of optimal length, or proves none exists, on 300 random unit-cost tasks", () => {
    let solved = 0;
    let unsolvable = 0;
    for (let seed = 1; seed <= 300; seed++) {
      const t = unitTask(seed, seed % 3 === 0, seed % 2 === 0);
      const hstar = naiveHStar(t).get(t.init.join(","))!.h;
      const r = breadthFirst(t);
      if (hstar === Infinity) {
        expect(r.status, `seed ${seed}`).toBe("unsolvable");
        unsolvable++;
        continue;
      }
      expect(r.status, `seed ${seed}`).toBe("solved");
      expect(r.cost).toBe(hstar);
      expect(r.plan.length).toBe(hstar);
      let s: Uint32Array = t.init;
      for (const op of r.plan) s = naiveApply(t, s, op)!;
      expect(naiveGoal(t, s), `seed ${seed}`).toBe(true);
      solved++;
    }
    expect(solved).toBeGreaterThan(50);
    expect(unsolvable).toBeGreaterThan(10);
  });

  it("over goal-relevant operators and facts gives the same plan length as over the whole task", () => {
    for (let seed = 1; seed <= 200; seed++) {
      const t = unitTask(seed, false, false);
      const rel = goalRelevance(t);
      const a = breadthFirst(t);
      const b = breadthFirst(t, { opMask: rel.ops, factMask: rel.factWords });
      expect(b.status, `seed ${seed}`).toBe(a.status);
      expect(b.cost, `seed ${seed}`).toBe(a.cost);
    }
  });

  it("stops at its expansion limit and refuses tasks with action costs", () => {
    let limited = 0;
    for (let seed = 1; seed <= 100; seed++) {
      const t = unitTask(seed, false, false);
      const full = breadthFirst(t);
      if (full.status !== "solved" || full.expanded < 2) continue;
      const r = breadthFirst(t, { limits: { maxExpansions: full.expanded - 1 } });
      expect(r.status).toBe("limit");
      expect(r.plan).toEqual([]);
      limited++;
    }
    expect(limited).toBeGreaterThan(5);
    const withCosts = randomTask(mulberry(7));
    expect(() => breadthFirst({ ...withCosts, hasCosts: true })).toThrow(/action costs/);
  });
});
