import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseDomain, parseProblem } from "../src/pddl/index.js";
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
import { ground, isApplicable } from "../src/task/index.js";
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

  it("a task shape whose explicit builds went over the caps twice goes straight to search mode (default policy only)", () => {
    // 8-puzzles share their ground operators: each build explores up to the caps and gives up
    const root = join(import.meta.dirname, "..");
    const dFile = join(root, "domains", "npuzzle", "domain.pddl");
    const domain = parseDomain(readFileSync(dFile, "utf8"), dFile);
    const tasks = ["p0001", "p0002", "p0003", "p0004"].map((n) => {
      const pFile = join(root, "problems", "npuzzle", `${n}.pddl`);
      return ground(domain, parseProblem(readFileSync(pFile, "utf8"), pFile, domain));
    });
    const ctxs = tasks.map((t) => createLabelContext(t));
    expect(ctxs.map((c) => c.oracle.mode)).toEqual(["search", "search", "search", "search"]);
    expect(ctxs.map((c) => c.explicitSkipped)).toEqual([false, false, true, true]);
    // an explicit cap is always tried
    const capped = createLabelContext(tasks[0]!, { oracleMaxStates: 1e7 });
    expect(capped.explicitSkipped).toBe(false);
    expect(capped.oracle.mode).toBe("explicit");
    // the same labels either way
    const o = { problemId: "p0004", seed: 5, samplesPerState: 6 };
    expect(JSON.stringify(labelProblemAll(tasks[3]!, o))).toBe(JSON.stringify(labelProblemAll(tasks[3]!, { ...o, oracleMaxStates: 1e7 })));
  });
});
