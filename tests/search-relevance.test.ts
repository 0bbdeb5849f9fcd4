import { describe, expect, it } from "vitest";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { FdrStateMap, goalRelevance, relevanceByVariable } from "../src/search/relaxed.js";
import { StateSpace } from "../src/search/space.js";
import { fdrTaskOf } from "../src/task/fdr.js";
import { parseDomain, parseProblem } from "../src/pddl/index.js";
import { ground } from "../src/task/index.js";
import type { GroundTask } from "../src/task/types.js";

const ROOT = join(import.meta.dirname, "..");

function builtin(domain: string, k: number): GroundTask {
  const dFile = join(ROOT, "domains", domain, "domain.pddl");
  const pFile = join(ROOT, "problems", domain, readdirSync(join(ROOT, "problems", domain)).filter((f) => f.endsWith(".pddl")).sort()[k]!);
  const d = parseDomain(readFileSync(dFile, "utf8"), dFile);
  return ground(d, parseProblem(readFileSync(pFile, "utf8"), pFile, d));
}

/** Breadth-first states of `task`, each successor projected onto `mask` (as solve's A* does). */
function projectedStates(task: GroundTask, mask: Uint32Array, limit: number): Uint32Array[] {
  const space = new StateSpace(task);
  const ids = [space.intern(task.init)];
  const ops: number[] = [];
  const out = new Uint32Array(task.words);
  for (let i = 0; i < ids.length && ids.length < limit; i++) {
    space.applicable(space.get(ids[i]!), ops);
    for (const op of ops) {
      const before = space.size;
      const id = space.intern(space.applyProjected(space.get(ids[i]!), op, out, mask));
      if (space.size > before) ids.push(id);
    }
  }
  return ids.slice(1).map((id) => space.get(id));
}

describe("goal relevance by finite-domain variable (solve's state projection)", () => {
  it("keeps every value of a variable that has one relevant value, and nothing else beyond the fact mask", () => {
    for (const domain of ["logistics", "elevator", "spanner", "sokoban", "rooms", "visitgrid"]) {
      const task = builtin(domain, 2);
      const fdr = fdrTaskOf(task);
      if ("unsupported" in fdr) throw new Error(domain);
      const narrow = goalRelevance(task).factWords;
      const wide = relevanceByVariable(fdr, narrow);
      const bit = (m: Uint32Array, f: number): boolean => ((m[f >>> 5]! >>> (f & 31)) & 1) === 1;
      for (let f = 0; f < task.numFacts; f++) if (bit(narrow, f)) expect(bit(wide, f)).toBe(true);
      for (const vals of fdr.values) {
        const facts = [...vals].filter((f) => f >= 0);
        const kept = facts.filter((f) => bit(wide, f)).length;
        expect(kept === 0 || kept === facts.length).toBe(true);
        if (facts.some((f) => bit(narrow, f))) expect(kept).toBe(facts.length);
        else for (const f of facts) expect(bit(wide, f)).toBe(bit(narrow, f));
      }
    }
  });

  it("leaves every projected state with one value per kept variable, so LM-Cut stays on the finite-domain view", () => {
    for (const domain of ["logistics", "elevator", "spanner", "sokoban", "rooms", "visitgrid", "ferry"]) {
      const task = builtin(domain, 3);
      const fdr = fdrTaskOf(task);
      if ("unsupported" in fdr) throw new Error(domain);
      const map = new FdrStateMap(fdr);
      const buf = new Uint32Array(map.words);
      const wide = relevanceByVariable(fdr, goalRelevance(task).factWords);
      for (const s of projectedStates(task, wide, 400)) expect(map.map(s, buf)).toBe(true);
    }
  });
});
