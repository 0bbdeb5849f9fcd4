import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { AdaptiveLmCutHeuristic, createHeuristic, LmCutHeuristic } from "../src/search/heuristics.js";
import { parseDomain, parseProblem } from "../src/pddl/index.js";
import { ground } from "../src/task/index.js";
import { fdrTaskOf } from "../src/task/fdr.js";
import { IntMinQueue } from "../src/search/queue.js";
import { astarRun } from "../src/search/astar.js";
import { StateSpace } from "../src/search/space.js";
import { buildRelaxedTask, causalFactRank } from "../src/search/relaxed.js";
import { handTask, mulberry, naiveHStar, randomTask, type HandOp } from "./search-helpers.js";

describe("heuristics on hand-made tasks", () => {
  it("two independent unit goals: hmax 1, lmcut 2", () => {
    const t = handTask(2, [
      { name: "a", pre: [], add: [0] },
      { name: "b", pre: [], add: [1] },
    ], [], [0, 1]);
    expect(createHeuristic(t, "hmax").evaluate(t.init)).toBe(1);
    expect(createHeuristic(t, "lmcut").evaluate(t.init)).toBe(2);
    expect(createHeuristic(t, "blind").evaluate(t.init)).toBe(1);
  });

  it("shared expensive precondition: hmax 4, lmcut 5 (cost-partitioned cuts)", () => {
    // o0: -> p (3); o1: p -> g1 (1); o2: p -> g2 (1); goal g1, g2
    const t = handTask(3, [
      { name: "o0", pre: [], add: [0], cost: 3 },
      { name: "o1", pre: [0], add: [1], cost: 1 },
      { name: "o2", pre: [0], add: [2], cost: 1 },
    ], [], [1, 2]);
    expect(createHeuristic(t, "hmax").evaluate(t.init)).toBe(4);
    expect(createHeuristic(t, "lmcut").evaluate(t.init)).toBe(5);
  });

  it("goal state gives 0, relaxed-unreachable goal gives Infinity", () => {
    const t = handTask(3, [{ name: "o", pre: [2], add: [1] }], [0], [0, 1]);
    for (const n of ["hmax", "lmcut"] as const) expect(createHeuristic(t, n).evaluate(t.init)).toBe(Infinity);
    const g = handTask(2, [{ name: "o", pre: [], add: [1] }], [0, 1], [0, 1]);
    for (const n of ["blind", "hmax", "lmcut"] as const) expect(createHeuristic(g, n).evaluate(g.init)).toBe(0);
  });

  it("alternative achievers: lmcut takes the cheaper cut", () => {
    // g reachable by o0 (cost 5) or o1 (cost 2) from p, p by o2 (cost 1)
    const t = handTask(2, [
      { name: "o0", pre: [], add: [1], cost: 5 },
      { name: "o1", pre: [0], add: [1], cost: 2 },
      { name: "o2", pre: [], add: [0], cost: 1 },
    ], [], [1]);
    expect(createHeuristic(t, "lmcut").evaluate(t.init)).toBe(3);
    expect(createHeuristic(t, "hmax").evaluate(t.init)).toBe(3);
  });

  it("negative goals and preconditions are seen by the relaxation (complement facts)", () => {
    // goal: f0 false; f0 is true and only o0 (cost 3) deletes it
    const g = handTask(2, [{ name: "o0", pre: [], add: [1], del: [0], cost: 3 }], [0], [], [0]);
    expect(createHeuristic(g, "hmax").evaluate(g.init)).toBe(3);
    expect(createHeuristic(g, "lmcut").evaluate(g.init)).toBe(3);
    // goal f2 needs f1 false (o1, cost 1); f1 is true and o0 (cost 2) deletes it
    const p = handTask(3, [
      { name: "o0", pre: [], add: [0], del: [1], cost: 2 },
      { name: "o1", pre: [], negPre: [1], add: [2], cost: 1 },
    ], [1], [2]);
    expect(createHeuristic(p, "hmax").evaluate(p.init)).toBe(3);
    expect(createHeuristic(p, "lmcut").evaluate(p.init)).toBe(3);
    // a delete the same operator re-adds does not make the fact false
    const a = handTask(2, [{ name: "o0", pre: [], add: [0, 1], del: [0] }], [0], [1], [0]);
    expect(createHeuristic(a, "lmcut").evaluate(a.init)).toBe(Infinity);
    expect(buildRelaxedTask(a).numComplements).toBe(1);
  });

  it("lmcut with conditional effects falls back to hmax", () => {
    const t = handTask(3, [
      { name: "o", pre: [], add: [], ce: [{ cond: [0], fact: 1, add: true }, { cond: [0], fact: 2, add: true }] },
      { name: "p", pre: [], add: [0] },
    ], [], [1, 2]);
    const h = createHeuristic(t, "lmcut");
    expect(h.name).toBe("hmax");
    expect(h.evaluate(t.init)).toBe(2);
  });
});

describe("admissibility on random tasks", () => {
  it("hmax <= lmcut <= h* on every reachable state (brute-force h*)", () => {
    const rnd = mulberry(42);
    let compared = 0;
    let strict = 0;
    for (let i = 0; i < 300; i++) {
      const t = randomTask(rnd);
      const hs = naiveHStar(t);
      const hmax = createHeuristic(t, "hmax");
      const lm = createHeuristic(t, "lmcut");
      const blind = createHeuristic(t, "blind");
      for (const { state, h } of hs.values()) {
        const a = hmax.evaluate(state);
        const b = lm.evaluate(state);
        expect(a).toBeLessThanOrEqual(b);
        expect(b).toBeLessThanOrEqual(h);
        expect(blind.evaluate(state)).toBeLessThanOrEqual(h);
        // relaxed dead ends are real dead ends
        if (a === Infinity) expect(h).toBe(Infinity);
        if (b > a) strict++;
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(1000);
    expect(strict).toBeGreaterThan(10); // LM-Cut really is stronger than hmax somewhere
  });

  it("hmax <= h* with conditional effects", () => {
    const rnd = mulberry(7);
    for (let i = 0; i < 200; i++) {
      const t = randomTask(rnd, true);
      const hs = naiveHStar(t);
      const hmax = createHeuristic(t, "hmax");
      const lm = createHeuristic(t, "lmcut");
      for (const { state, h } of hs.values()) {
        expect(hmax.evaluate(state)).toBeLessThanOrEqual(h);
        expect(lm.evaluate(state)).toBeLessThanOrEqual(h);
      }
    }
  });

  it("hmax <= lmcut <= h* with negative preconditions, effect conditions and goals", () => {
    const rnd = mulberry(11);
    let positive = 0;
    for (let i = 0; i < 300; i++) {
      const withCE = i % 2 === 0;
      const t = randomTask(rnd, withCE, true);
      const hs = naiveHStar(t);
      const hmax = createHeuristic(t, "hmax");
      const lm = createHeuristic(t, "lmcut");
      for (const { state, h } of hs.values()) {
        const a = hmax.evaluate(state);
        const b = lm.evaluate(state);
        expect(a).toBeLessThanOrEqual(h);
        expect(b).toBeLessThanOrEqual(h);
        if (!withCE) expect(a).toBeLessThanOrEqual(b);
        if (a === Infinity) expect(h).toBe(Infinity);
        if (t.goalNeg.length > 0 && b > 0) positive++;
      }
    }
    expect(positive).toBeGreaterThan(100); // negative goals do raise the estimate
  });

  it("evaluation is repeatable (no state leaks between calls)", () => {
    const rnd = mulberry(3);
    for (let i = 0; i < 50; i++) {
      const t = randomTask(rnd);
      const lm = createHeuristic(t, "lmcut");
      const states = [...naiveHStar(t).values()].map((x) => x.state);
      const first = states.map((s) => lm.evaluate(s));
      const fresh = createHeuristic(t, "lmcut");
      expect(states.map((s) => fresh.evaluate(s))).toEqual(first);
      expect(states.map((s) => lm.evaluate(s)).reverse()).toEqual(first.slice().reverse());
    }
  });
});

describe("LM-Cut keeps nothing from one evaluation to the next", () => {
  it("arbitrary states (dead ends, unreachable operators) in any order give the same values as a fresh heuristic", () => {
    // regression: an operator unreachable in this state but with a supporter left over from an
    // earlier state must not take part in the incremental h^max update
    const rnd = mulberry(17);
    for (let i = 0; i < 200; i++) {
      // bigger than randomTask: many operators per fact, zero costs, long supporter lists
      const nf = 10 + Math.floor(rnd() * 10);
      const pick = (k: number): number[] => [...new Set(Array.from({ length: k }, () => Math.floor(rnd() * nf)))];
      const ops: HandOp[] = Array.from({ length: 20 + Math.floor(rnd() * 30) }, (_, j) => ({
        name: `o${j}`,
        pre: pick(1 + Math.floor(rnd() * 3)),
        add: pick(1 + Math.floor(rnd() * 2)),
        cost: Math.floor(rnd() * 4),
      }));
      const t = handTask(nf, ops, [], pick(2 + Math.floor(rnd() * 3)));
      const lm = createHeuristic(t, "lmcut");
      for (let k = 0; k < 30; k++) {
        const s = new Uint32Array(t.words);
        for (let f = 0; f < t.numFacts; f++) if (rnd() < 0.35) s[f >>> 5]! |= 1 << (f & 31);
        expect(lm.evaluate(s)).toBe(createHeuristic(t, "lmcut").evaluate(s));
      }
    }
  });
});

describe("causalFactRank (LM-Cut's tie-breaking order)", () => {
  it("puts causes before effects: components of the precondition -> effect graph in topological order", () => {
    // truck t0 <-> t1 (facts 3, 4); package: at-a (2) -load[t0]-> in (1) -unload[t1]-> at-b (0)
    const t = handTask(
      5,
      [
        { name: "drive-0-1", pre: [3], add: [4], del: [3] },
        { name: "drive-1-0", pre: [4], add: [3], del: [4] },
        { name: "load", pre: [2, 3], add: [1], del: [2] },
        { name: "unload", pre: [1, 4], add: [0], del: [1] },
      ],
      [2, 3],
      [0],
    );
    const rank = causalFactRank(t);
    expect(rank.length).toBe(7); // TRUE and GOAL keep the last ranks
    expect([rank[5], rank[6]]).toEqual([5, 6]);
    // the truck's facts form one component and come first (by id inside it), then the package's
    expect([rank[3], rank[4]]).toEqual([0, 1]);
    expect([rank[2], rank[1], rank[0]]).toEqual([2, 3, 4]);
    // the relaxed task lists preconditions in that order
    const rt = buildRelaxedTask(t);
    const unload = Array.from(rt.pre.subarray(rt.preStart[3]!, rt.preStart[4]!));
    expect(unload).toEqual([4, 1]);
    expect(Array.from(rt.factOrder)).toEqual([3, 4, 2, 1, 0]);
  });

  it("is a permutation on random tasks", () => {
    const rnd = mulberry(11);
    for (let i = 0; i < 30; i++) {
      const t = randomTask(rnd);
      const rank = causalFactRank(t);
      expect([...rank].sort((a, b) => a - b)).toEqual(Array.from({ length: t.numFacts + 2 }, (_, k) => k));
    }
  });
});

describe("IntMinQueue", () => {
  it("pops by key (LIFO among equal keys in bucket mode, as Fast Downward's bucket queue), also after pushes below the last key and clear()", () => {
    const rnd = mulberry(5);
    for (const bucket of [true, false]) {
      const q = new IntMinQueue(bucket);
      for (let round = 0; round < 20; round++) {
        q.clear();
        const ref: [number, number][] = [];
        let seq = 0;
        let lastKey = 0;
        for (let step = 0; step < 300; step++) {
          if (ref.length > 0 && rnd() < 0.4) {
            let bi = 0;
            for (let i = 1; i < ref.length; i++) if (ref[i]![0] <= ref[bi]![0]) bi = i; // last = newest among equal keys
            const [k, v] = ref.splice(bi, 1)[0]!;
            const got = q.pop();
            expect(q.lastKey).toBe(k);
            if (bucket) expect(got).toBe(v);
            lastKey = k;
          } else {
            // keys near the last popped one, sometimes below it (incremental h^max does that)
            const k = Math.max(0, lastKey + Math.floor(rnd() * 40) - 5);
            ref.push([k, seq]);
            q.push(k, seq++);
          }
        }
        while (ref.length > 0) {
          const min = Math.min(...ref.map((e) => e[0]));
          q.pop();
          expect(q.lastKey).toBe(min);
          ref.splice(ref.findIndex((e) => e[0] === min), 1);
        }
        expect(q.empty).toBe(true);
      }
    }
  });
});

describe("AdaptiveLmCutHeuristic (the labeller's LM-Cut)", () => {
  it("gives plain LM-Cut's values up to its upgrade, Fast Downward's finite-domain LM-Cut's after, all admissible", () => {
    // the 8-puzzle: mutexes make the finite-domain view's values differ from the plain relaxation's
    const root = join(import.meta.dirname, "..");
    const dFile = join(root, "domains", "npuzzle", "domain.pddl");
    const pFile = join(root, "problems", "npuzzle", "p0001.pddl");
    const d = parseDomain(readFileSync(dFile, "utf8"), dFile);
    const task = ground(d, parseProblem(readFileSync(pFile, "utf8"), pFile, d));
    expect("unsupported" in fdrTaskOf(task)).toBe(false);
    const plain = new LmCutHeuristic(task);
    const fdr = createHeuristic(task, "lmcut");
    // the first 40 states breadth-first from the initial state
    const space = new StateSpace(task);
    space.intern(task.init);
    const ops: number[] = [];
    const next = new Uint32Array(task.words);
    for (let id = 0; space.size < 40; id++) {
      space.applicable(space.get(id), ops);
      for (const o of ops) space.intern(space.apply(space.get(id), o, next));
    }
    const adaptive = new AdaptiveLmCutHeuristic(task, 5);
    let differ = 0;
    for (let i = 0; i < 40; i++) {
      const state = space.get(i);
      const v = adaptive.evaluate(state);
      expect(v).toBe(i < 5 ? plain.evaluate(state) : fdr.evaluate(state));
      const hstar = astarRun(task, fdr, { start: state }).cost!;
      expect(v).toBeLessThanOrEqual(hstar);
      if (plain.evaluate(state) !== fdr.evaluate(state)) differ++;
    }
    // the two relaxations are not the same function here (else the test would show nothing)
    expect(differ).toBeGreaterThan(0);
  });
});
