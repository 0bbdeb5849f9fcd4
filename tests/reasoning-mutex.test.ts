/**
 * Unreachability proofs from the achievers' preconditions (issue 52): a fact whose every achiever
 * needs two mutex facts, and the delete relaxation with such achievers left out, answer questions
 * on 20-block blocksworld without searching; a best-first search finds witnesses deep in spaces
 * a breadth-first search of 100,000 states does not finish. On small problems, every answer is
 * compared with an exhaustive search: no reachable fact or action is ever called unreachable.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseDomain, parseProblem } from "../src/pddl/index.js";
import { actionReachable, Actions, factsReachable, isLandmark, Mutexes, Relaxation, relaxedReachable, searchReach } from "../src/reasoning/index.js";
import { StateSpace } from "../src/search/space.js";
import { ground, hasFact, isGoal, setFact } from "../src/task/index.js";
import type { GroundTask } from "../src/task/types.js";
import { ROOT } from "./pairs-helpers.js";

const BW = readFileSync(join(ROOT, "domains", "blocksworld", "domain.pddl"), "utf8");
const budget = (maxStates = 100_000) => ({ maxStates, deadline: Infinity });

/** 20 blocks in one tower, b1 on top, b20 on the table; the goal puts b20 on b1. */
function tower(n: number): GroundTask {
  const bs = Array.from({ length: n }, (_, i) => `b${i + 1}`);
  const on = bs.slice(0, -1).map((b, i) => `(on ${b} ${bs[i + 1]})`).join(" ");
  const text = `(define (problem tower${n}) (:domain blocksworld) (:objects ${bs.join(" ")} - block)
    (:init (handempty) (clear b1) (ontable b${n}) ${on}) (:goal (on b${n} b1)))`;
  const d = parseDomain(BW, "domain.pddl");
  return ground(d, parseProblem(text, "tower.pddl", d));
}
const fact = (t: GroundTask, name: string): number => {
  const f = t.factNames.indexOf(name);
  if (f < 0) throw new Error(`no fact ${name}`);
  return f;
};
const action = (t: GroundTask, name: string): number => {
  const o = t.opNames.indexOf(name);
  if (o < 0) throw new Error(`no action ${name}`);
  return o;
};

describe("20-block blocksworld", () => {
  const t = tower(20);
  const mutex = new Mutexes(t);

  it("(on b1 b1) is unreachable by its achievers' mutex preconditions, without a search", () => {
    // a fact of the ground task: the plain relaxation reaches it (stack b1 b1 needs holding b1 and clear b1)
    expect(relaxedReachable(t, t.init)[fact(t, "(on b1 b1)")]).toBe(1);
    for (const b of ["b1", "b7", "b20"]) {
      const r = factsReachable(t, t.init, [fact(t, `(on ${b} ${b})`)], mutex, budget());
      expect(r).toEqual({ answer: false, proof: "mutex", states: 0 });
      expect(actionReachable(t, t.init, action(t, `(stack ${b} ${b})`), mutex, budget())).toEqual({ answer: false, proof: "mutex", states: 0 });
    }
    // a breadth-first search cannot settle it within the budget
    expect(searchReach(t, t.init, (s) => hasFact(s, fact(t, "(on b1 b1)")), null, budget()).answer).toBeNull();
  });

  it("reachable facts far from the state stay reachable (a witness, found within the budget)", () => {
    for (const name of ["(on b20 b1)", "(ontable b19)", "(holding b20)"]) {
      const r = factsReachable(t, t.init, [fact(t, name)], mutex, budget());
      expect(r?.answer, name).toBe(true);
      expect(r?.proof).toBe("search");
    }
    // two facts together that are reachable together, and two that are not
    expect(factsReachable(t, t.init, [fact(t, "(on b20 b1)"), fact(t, "(on b1 b19)")], mutex, budget())?.answer).toBe(true);
    expect(factsReachable(t, t.init, [fact(t, "(holding b20)"), fact(t, "(holding b1)")], mutex, budget())).toMatchObject({ answer: false, proof: "mutex" });
    expect(actionReachable(t, t.init, action(t, "(pick-up b20)"), mutex, budget())?.answer).toBe(true);
  });

  it("landmarks: yes by the relaxation, no by a plan that avoids the fact", () => {
    expect(isLandmark(t, t.init, fact(t, "(holding b20)"), budget(), mutex)).toEqual({ answer: true, proof: "relaxation", states: 0 });
    const no = isLandmark(t, t.init, fact(t, "(ontable b10)"), budget(), mutex);
    expect(no?.answer).toBe(false);
    expect(no?.proof).toBe("search");
  });

  it("a state that breaks the mutex groups gets no mutex proof", () => {
    // holding b1 with b1 clear: not reachable from the task's init, and from it stack b1 b1 can be taken
    const s = new Uint32Array(t.words);
    for (const name of ["(holding b1)", "(clear b1)", "(clear b2)", "(ontable b20)"]) setFact(s, fact(t, name));
    for (let i = 2; i < 20; i++) setFact(s, fact(t, `(on b${i} b${i + 1})`));
    expect(mutex.holdsIn(s)).toBe(false);
    expect(mutex.holdsIn(t.init)).toBe(true);
    expect(factsReachable(t, s, [fact(t, "(on b1 b1)")], mutex, budget())).toMatchObject({ answer: true });
    expect(actionReachable(t, s, action(t, "(stack b1 b1)"), mutex, budget())).toMatchObject({ answer: true, proof: "state" });
  });
});

/** Small problems of several domains: every proof against an exhaustive search from sampled states. */
describe("the proofs never call a reachable fact or action unreachable", () => {
  const cases: [string, string][] = [
    ["blocksworld", "p0001"], ["blocksworld", "p0002"], ["ferry", "p0001"], ["hanoi", "p0001"], ["spanner", "p0001"],
    ["sokoban", "p0001"], ["rooms", "p0001"], ["elevator", "p0001"], ["logistics", "p0001"], ["visitgrid", "p0001"],
  ];
  for (const [domain, problem] of cases) {
    it(`${domain} ${problem}`, () => {
      const d = parseDomain(readFileSync(join(ROOT, "domains", domain, "domain.pddl"), "utf8"), "domain.pddl");
      const t = ground(d, parseProblem(readFileSync(join(ROOT, "problems", domain, `${problem}.pddl`), "utf8"), `${problem}.pddl`, d));
      const mutex = new Mutexes(t);
      const relax = new Relaxation(t, mutex);
      const actions = new Actions(t);
      const all = new StateSpace(t);
      all.intern(t.init);
      const ops: number[] = [];
      const cur = new Uint32Array(t.words);
      const next = new Uint32Array(t.words);
      for (let id = 0; id < all.size && all.size < 3000; id++) {
        all.getInto(id, cur);
        all.applicable(cur, ops);
        for (const o of ops) (all.apply(cur, o, next), all.intern(next));
      }
      // states spread over the explored part, the initial state first
      for (const id of [0, 1, 2, 3, 4].map((k) => Math.floor((k * (all.size - 1)) / 4))) {
        const s = all.get(id).slice();
        // truth: every state reachable from s (small spaces), the facts and actions seen there
        const from = new StateSpace(t);
        from.intern(s);
        const seenFact = new Uint8Array(t.numFacts);
        const seenOp = new Uint8Array(t.numOps);
        for (let j = 0; j < from.size && from.size <= 60_000; j++) {
          from.getInto(j, cur);
          for (let f = 0; f < t.numFacts; f++) if (hasFact(cur, f)) seenFact[f] = 1;
          from.applicable(cur, ops);
          for (const o of ops) ((seenOp[actions.of[o]!] = 1), from.apply(cur, o, next), from.intern(next));
        }
        const exhausted = from.size <= 60_000;
        const relaxed = relax.reachable(s);
        for (let f = 0; f < t.numFacts; f++) {
          if (seenFact[f]) expect(relaxed[f], `${t.factNames[f]} relaxed`).toBe(1);
          const r = factsReachable(t, s, [f], mutex, budget(60_000));
          if (r === null) continue;
          if (seenFact[f]) expect(r.answer, `${t.factNames[f]} from state ${id}`).toBe(true);
          else if (exhausted) expect(r.answer, `${t.factNames[f]} from state ${id}`).toBe(false);
        }
        for (const a of actions.all) {
          const r = actionReachable(t, s, a, mutex, budget(60_000), actions);
          if (r === null) continue;
          if (seenOp[a]) expect(r.answer, `${t.opNames[a]} from state ${id}`).toBe(true);
          else if (exhausted) expect(r.answer, `${t.opNames[a]} from state ${id}`).toBe(false);
        }
        // landmarks: against a breadth-first search that avoids the fact (no relaxation, no mutexes)
        if (isGoal(t, s)) continue;
        for (let f = 0; f < t.numFacts; f += Math.max(1, Math.floor(t.numFacts / 25))) {
          if (hasFact(s, f)) continue;
          const r = isLandmark(t, s, f, budget(60_000), mutex);
          const truth = searchReach(t, s, (x) => isGoal(t, x), (x) => hasFact(x, f), budget(60_000)).answer;
          if (r === null || truth === null) continue;
          expect(r.answer, `landmark ${t.factNames[f]} from state ${id}`).toBe(t.goalPos.includes(f) || !truth);
        }
      }
    }, 120_000);
  }
});
