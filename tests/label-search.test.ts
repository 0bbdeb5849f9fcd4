import { describe, expect, it } from "vitest";
import {
  classify,
  createLabelContext,
  labelExecutable,
  labelProblemAll,
  optimalWalk,
  opCandidate,
  type LabelContext,
} from "../src/label/index.js";
import { createOracle, LimitError } from "../src/search/index.js";
import { isApplicable } from "../src/task/index.js";
import type { GroundTask } from "../src/task/types.js";
import { loadTask } from "./label-oracle.js";

// Small problems of several domains (dead ends included: rooms, sokoban, spanner).
const FIXTURES: [string, string][] = [
  ["blocksworld-3ops", "blocksworld-3ops-p1.pddl"],
  ["blocksworld", "blocksworld-p1.pddl"],
  ["npuzzle", "npuzzle-p1.pddl"],
  ["visitgrid", "visitgrid-p1.pddl"],
  ["sokoban", "sokoban-p1.pddl"],
  ["sokoban", "sokoban-p2.pddl"],
  ["spanner", "spanner-p1.pddl"],
  ["rooms", "rooms-p1.pddl"],
  ["rooms", "rooms-p2.pddl"],
  ["logistics", "logistics-p1.pddl"],
];

/** Every executable action and a few non-executable ones at every walk state, in both contexts. */
function everyLabel(ctx: LabelContext, task: GroundTask, states: readonly Uint32Array[]): string[] {
  const out: string[] = [];
  for (let t = 0; t + 1 < states.length; t++) {
    const visited = states.slice(0, t + 1);
    const s = states[t]!;
    for (const { candidate, label } of labelExecutable(ctx, s, visited)) out.push(`${t} ${candidate.name} ${JSON.stringify(label)}`);
    let n = 0;
    for (let op = 0; op < task.numOps && n < 3; op++) {
      if (isApplicable(task, s, op)) continue;
      n++;
      out.push(`${t} ${task.opNames[op]} ${JSON.stringify(classify(ctx, s, visited, opCandidate(ctx, op)))}`);
    }
  }
  return out;
}

describe("explicit build limits", () => {
  it("the explicit build honours the time limit with a LimitError", () => {
    const task = loadTask("npuzzle", "../../../problems/npuzzle/p0001.pddl");
    expect(() => createOracle(task, { mode: "explicit", maxStates: 10_000_000, limits: { timeMs: 1 } })).toThrow(LimitError);
    expect(() => createLabelContext(task, { oracleMaxStates: 10_000_000, limits: { timeMs: 1 } })).toThrow(LimitError);
  });
});

describe("search-mode oracle (bounded, learning queries) agrees with the explicit one", () => {
  for (const [domain, file] of FIXTURES) {
    it(`${domain} ${file}: every candidate of every walk state`, () => {
      const task = loadTask(domain, file);
      const ex = createLabelContext(task, { oracle: createOracle(task, { mode: "explicit" }) });
      const se = createLabelContext(task, { oracle: createOracle(task, { mode: "search" }) });
      expect(ex.oracle.mode).toBe("explicit");
      expect(se.oracle.mode).toBe("search");
      const walkEx = optimalWalk(ex, task.init, null);
      const walkSe = optimalWalk(se, task.init, null);
      expect(walkSe.ops).toEqual(walkEx.ops);
      const a = everyLabel(ex, task, walkEx.states);
      const b = everyLabel(se, task, walkEx.states);
      expect(a.length).toBeGreaterThan(0);
      expect(b).toEqual(a);
    });
  }

  it("whole problems (recovery branch, random optimal walk) are identical with a tiny explicit cap", () => {
    let steps = 0;
    for (const [domain, file] of FIXTURES.slice(0, 6)) {
      const task = loadTask(domain, file);
      const o = { problemId: file, seed: 3, samplesPerState: 12, recovery: true, randomOptimal: true };
      const a = labelProblemAll(task, { ...o, oracleMaxStates: 5_000_000 });
      const b = labelProblemAll(task, { ...o, oracleMaxStates: 1 });
      expect(JSON.stringify(b)).toBe(JSON.stringify(a));
      steps += a.length;
    }
    expect(steps).toBeGreaterThan(100);
  });

  it("the labeller's default policy picks search mode for mid-size spaces and explicit for tiny ones", () => {
    const big = loadTask("npuzzle", "../../../problems/npuzzle/p0001.pddl");
    const small = loadTask("hanoi", "hanoi-p1.pddl");
    expect(createLabelContext(big).oracle.mode).toBe("search");
    expect(createLabelContext(small).oracle.mode).toBe("explicit");
    // the transition cap alone also sends a task to search mode; an explicit cap overrides both
    expect(createOracle(small, { maxEdges: 5 }).mode).toBe("search");
    expect(createOracle(small, { maxEdges: 1e9 }).mode).toBe("explicit");
    expect(createLabelContext(big, { oracleMaxStates: 1e7 }).oracle.mode).toBe("explicit");
  });
});
