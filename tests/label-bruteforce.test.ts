import { describe, expect, it } from "vitest";
import { createLabelContext, labelProblemAll, optimalWalk, repeatsObject, schemasRepeatingObjects, type LabeledStep } from "../src/label/index.js";
import { BruteOracle, loadTask } from "./label-oracle.js";

// One small problem per built-in domain (tests/fixtures/label), small enough for the brute-force
// oracle to enumerate optimal plans.
const FIXTURES: [string, string][] = [
  ["blocksworld", "blocksworld-p1.pddl"],
  ["blocksworld-3ops", "blocksworld-3ops-p1.pddl"],
  ["ferry", "ferry-p1.pddl"],
  ["hanoi", "hanoi-p1.pddl"],
  ["logistics", "logistics-p1.pddl"],
  ["elevator", "elevator-p1.pddl"],
  ["npuzzle", "npuzzle-p1.pddl"],
  ["visitgrid", "visitgrid-p1.pddl"],
  ["sokoban", "sokoban-p1.pddl"],
  ["sokoban", "sokoban-p2.pddl"],
  ["spanner", "spanner-p1.pddl"],
  ["rooms", "rooms-p1.pddl"],
  ["rooms", "rooms-p2.pddl"],
];

// Totals over all fixtures, checked last: every category and both dead-end proofs occur, and so
// does backtracking whose s' is not itself visited (decided by the avoidance search).
const totals: Record<string, number> = {};
const bump = (k: string): void => {
  totals[k] = (totals[k] ?? 0) + 1;
};

/** Compare every step against the brute-force labeller; returns the category counts. */
function check(oracle: BruteOracle, steps: readonly LabeledStep[]): Record<string, number> {
  const task = oracle.task;
  const counts: Record<string, number> = {};
  const disagreements: string[] = [];
  for (const st of steps) {
    const visited = oracle.replay(st.prefixOps);
    expect(visited.length).toBe(st.stateIndex + 1);
    expect(st.prefix).toEqual(st.prefixOps.map((op) => task.opNames[op]));
    const ref = oracle.label(visited, st.candidate.name);
    counts[st.category] = (counts[st.category] ?? 0) + 1;
    bump(st.category);
    if (st.evidence.deadEnd) bump(st.evidence.deadEnd.kind);
    if (st.category === "backtracking" && st.evidence.backtrackTo !== null) {
      const next = oracle.replay([...st.prefixOps]);
      const known = new Set(next.map((s) => s.join(",")));
      const s2 = oracle.succOf(visited[visited.length - 1]!, st.candidate.name);
      if (!known.has(s2.join(","))) bump("backtracking-avoidance");
    }
    const ev = st.evidence;
    const got = {
      category: st.category,
      hBefore: ev.hBefore,
      hAfter: ev.hAfter,
      cost: ev.cost,
      backtrackTo: ev.backtrackTo,
    };
    const want = {
      category: ref.category,
      hBefore: ref.hBefore,
      hAfter: ref.hAfter,
      cost: ref.cost,
      backtrackTo: ref.backtrackTo,
    };
    if (JSON.stringify(got) !== JSON.stringify(want)) {
      disagreements.push(`${st.problem} t${st.stateIndex} ${st.candidate.name}: got ${JSON.stringify(got)} want ${JSON.stringify(want)}`);
      continue;
    }
    if (st.category === "non-executable") {
      expect(ev.failedPreconditions.length).toBeGreaterThan(0);
    } else {
      expect(ev.failedPreconditions).toEqual([]);
    }
    if (ref.hAfter !== null) expect(ev.extraCost).toBe(ref.cost! + ref.hAfter - ref.hBefore);
    else expect(ev.extraCost).toBeNull();
    if (st.category === "dead-end") {
      expect(ev.deadEnd).not.toBeNull();
      if (ref.deadEnd === "relaxed-unreachable") expect(ev.deadEnd!.kind).toBe("relaxed-unreachable");
      else {
        expect(ev.deadEnd!.kind).toBe("exhaustive");
        // the proof search saw at least s' and never more than what is reachable from it
        const states = (ev.deadEnd as { states: number }).states;
        expect(states).toBeGreaterThanOrEqual(1);
        expect(states).toBeLessThanOrEqual(ref.deadEnd as number);
      }
    } else {
      expect(ev.deadEnd).toBeNull();
    }
    expect(st.reward).toBe({ "non-executable": 0, "dead-end": 0.25, backtracking: 0.5, suboptimal: 0.75, optimal: 1 }[st.category]);
  }
  expect(disagreements).toEqual([]);
  return counts;
}

describe("labels agree with an independent brute-force oracle", () => {
  for (const [domain, file] of FIXTURES) {
    it(`${domain} ${file}`, () => {
      const task = loadTask(domain, file);
      const oracle = new BruteOracle(task);
      const h0 = oracle.hOf(task.init);
      expect(h0).toBeLessThan(Infinity);

      // The deterministic optimal walk is a valid optimal plan.
      const walk = optimalWalk(createLabelContext(task), task.init, null);
      const states = oracle.replay(walk.ops);
      expect(oracle.goal(states[states.length - 1]!)).toBe(true);
      expect(walk.ops.reduce((c, op) => c + task.opCost[op]!, 0)).toBe(h0);

      // Every candidate (all executable actions and all near misses) at every state of the walk.
      const all = labelProblemAll(task, { problemId: file, seed: 1, samplesPerState: 1_000_000 });
      expect(new Set(all.map((s) => s.stateIndex)).size).toBe(walk.ops.length);
      for (const st of all) {
        expect(st.prefixOps).toEqual(walk.ops.slice(0, st.stateIndex));
        expect(st.planLength).toBe(walk.ops.length);
      }
      const counts = check(oracle, all);
      // every ground operator is a candidate at every state (one per name), but those naming an
      // object twice where no such action is executable on the walk ((stack a a): false on its face)
      const repeating = schemasRepeatingObjects(createLabelContext(task), walk.states);
      const ops = Array.from({ length: task.numOps }, (_, op) => op).filter((op) => repeating.has(task.opSchema[op]!) || !repeatsObject(task, op));
      const names = new Set(ops.map((op) => task.opNames[op]));
      for (let t = 0; t < walk.ops.length; t++) {
        expect(all.filter((s) => s.stateIndex === t).length).toBe(names.size);
      }
      expect(counts.optimal).toBeGreaterThan(0);
      if (process.env.LABEL_COUNTS) console.log(file, JSON.stringify(counts));

      // Sampled walks: random optimal choice, any type-correct groundings, a recovery branch.
      for (const seed of [3, 11]) {
        const steps = labelProblemAll(task, {
          problemId: file,
          seed,
          samplesPerState: 6,
          randomOptimal: true,
          nonExecutable: "any",
          recovery: true,
        });
        check(oracle, steps);
        // the main walk follows an optimal plan
        const main = steps.filter((s) => !s.branch);
        const last = main.reduce((a, b) => (b.stateIndex > a.stateIndex ? b : a));
        const vs = oracle.replay(last.prefixOps);
        expect(oracle.hOf(task.init)).toBe(last.prefixOps.reduce((c, op) => c + task.opCost[op]!, 0) + oracle.hOf(vs[vs.length - 1]!));
        const balanced = labelProblemAll(task, { problemId: file, seed, samplesPerState: 5, balance: true });
        check(oracle, balanced);
      }
    });
  }
  it("covers every category, both dead-end proofs and avoidance-decided backtracking", () => {
    for (const k of ["non-executable", "dead-end", "backtracking", "suboptimal", "optimal", "relaxed-unreachable", "exhaustive", "backtracking-avoidance"]) {
      expect(totals[k] ?? 0, k).toBeGreaterThan(0);
    }
  });
});
