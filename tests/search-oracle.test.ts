import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseDomain, parseProblem } from "../src/pddl/index.js";
import { ground } from "../src/task/index.js";
import type { GroundTask } from "../src/task/types.js";
import { costAvoiding, createHeuristic, createOracle, LimitError } from "../src/search/index.js";
import { mulberry, naiveApply, naiveGoal, naiveHStar, randomTask } from "./search-helpers.js";

const F = join(import.meta.dirname, "fixtures", "search");
function load(domain: string, problem: string): GroundTask {
  const d = parseDomain(readFileSync(join(F, domain), "utf8"), domain);
  return ground(d, parseProblem(readFileSync(join(F, problem), "utf8"), problem, d));
}

/** Brute-force optimal actions from s given exact h* values. */
function naiveOptimal(t: GroundTask, hs: Map<string, { h: number }>, s: Uint32Array): number[] {
  const h = hs.get(s.join(","))!.h;
  if (h === Infinity) return [];
  const out: number[] = [];
  for (let o = 0; o < t.numOps; o++) {
    const n = naiveApply(t, s, o);
    if (n && t.opCost[o]! + hs.get(n.join(","))!.h === h) out.push(o);
  }
  return out;
}

/** Brute-force cheapest cost avoiding forbidden states (Bellman-Ford over the reachable space). */
function naiveAvoid(t: GroundTask, hs: Map<string, { state: Uint32Array }>, start: Uint32Array, bad: Set<string>): number {
  const d = new Map<string, number>();
  for (const [k, { state }] of hs) d.set(k, !bad.has(k) && naiveGoal(t, state) ? 0 : Infinity);
  for (let changed = true; changed; ) {
    changed = false;
    for (const [k, { state }] of hs) {
      if (bad.has(k)) continue;
      for (let o = 0; o < t.numOps; o++) {
        const n = naiveApply(t, state, o);
        if (!n) continue;
        const v = t.opCost[o]! + d.get(n.join(","))!;
        if (v < d.get(k)!) {
          d.set(k, v);
          changed = true;
        }
      }
    }
  }
  return bad.has(start.join(",")) ? Infinity : d.get(start.join(","))!;
}

describe("h* oracle", () => {
  it("explicit and search modes give the brute-force h* and optimal actions on random tasks", () => {
    const rnd = mulberry(5);
    let states = 0;
    for (let i = 0; i < 120; i++) {
      const t = randomTask(rnd, i % 4 === 0);
      const hs = naiveHStar(t);
      const ex = createOracle(t, { mode: "explicit" });
      const se = createOracle(t, { mode: "search" });
      expect(ex.mode).toBe("explicit");
      expect(se.mode).toBe("search");
      expect(ex.reachableStates()).toBe(hs.size);
      // query in a random order so the search cache is exercised from many sides
      const all = [...hs.values()].sort(() => rnd() - 0.5);
      for (const { state, h } of all) {
        expect(ex.hstar(state)).toBe(h);
        expect(se.hstar(state)).toBe(h);
        const opt = naiveOptimal(t, hs, state);
        expect(ex.optimalActions(state)).toEqual(opt);
        expect(se.optimalActions(state)).toEqual(opt);
        states++;
      }
      // repeated queries hit the cache and agree
      for (const { state, h } of all) expect(se.hstar(state)).toBe(h);
    }
    expect(states).toBeGreaterThan(500);
  });

  it("hstarAtMost (bounded, learning search) matches brute force, zero-cost cycles included", () => {
    const rnd = mulberry(17);
    let checks = 0;
    for (let i = 0; i < 150; i++) {
      const t = randomTask(rnd, i % 3 === 0);
      const hs = naiveHStar(t);
      // one oracle per task: bounds learnt by earlier queries must stay valid for later ones
      const se = createOracle(t, { mode: "search" });
      const ex = createOracle(t, { mode: "explicit" });
      const all = [...hs.values()].sort(() => rnd() - 0.5);
      for (const { state, h } of all) {
        const b = Math.floor(rnd() * 8) - 1;
        expect(se.hstarAtMost(state, b)).toBe(h <= b);
        expect(ex.hstarAtMost(state, b)).toBe(h <= b);
        // true answers leave the exact value behind
        if (h <= b) expect(se.known(state)).toBe(h);
        checks++;
      }
      for (const { state, h } of all) expect(se.hstar(state)).toBe(h);
    }
    expect(checks).toBeGreaterThan(500);
  });

  it("bounded and exact queries on one oracle match brute force where most actions cost 0", () => {
    // the deepening search skips a state met again with no more budget (issue 38: elevators'
    // zero-cost board and leave made it explore every ordering); its answers must not change
    const rnd = mulberry(41);
    let checks = 0;
    for (let i = 0; i < 300; i++) {
      const t = randomTask(rnd, false, i % 2 === 0);
      for (let o = 0; o < t.numOps; o++) if (rnd() < 0.6) t.opCost[o] = 0;
      const hs = naiveHStar(t);
      const se = createOracle(t, { mode: "search" });
      const all = [...hs.values()].sort(() => rnd() - 0.5);
      for (const { state, h } of all) {
        if (rnd() < 0.5) {
          const b = Math.floor(rnd() * 5) - 1;
          expect(se.hstarAtMost(state, b)).toBe(h <= b);
        } else {
          expect(se.hstar(state)).toBe(h);
        }
        checks++;
      }
      for (const { state, h } of all) expect(se.hstar(state)).toBe(h);
    }
    expect(checks).toBeGreaterThan(1000);
  });

  it("unbounded queries in solve's WebAssembly search (kernelAfter 0) give brute-force h*, conditional effects included", () => {
    const rnd = mulberry(43);
    let checks = 0;
    for (let i = 0; i < 200; i++) {
      const t = randomTask(rnd, i % 2 === 0, i % 3 === 0);
      const hs = naiveHStar(t);
      const se = createOracle(t, { mode: "search", kernelAfter: 0 });
      const all = [...hs.values()].sort(() => rnd() - 0.5);
      for (const { state, h } of all) {
        if (rnd() < 0.3) {
          const b = Math.floor(rnd() * 5) - 1;
          expect(se.hstarAtMost(state, b)).toBe(h <= b);
        } else {
          expect(se.hstar(state)).toBe(h);
        }
        expect(se.optimalActions(state)).toEqual(naiveOptimal(t, hs, state));
        checks++;
      }
    }
    expect(checks).toBeGreaterThan(1000);
  });

  it("search mode agrees with explicit mode on blocksworld states", () => {
    const t = load("bw-domain.pddl", "bw-4.pddl");
    const ex = createOracle(t, { mode: "explicit" });
    const se = createOracle(t, { mode: "search" });
    // random walks from the initial state
    const rnd = mulberry(9);
    let s = t.init.slice();
    const hmax = createHeuristic(t, "hmax");
    const lm = createHeuristic(t, "lmcut");
    for (let i = 0; i < 150; i++) {
      expect(se.hstar(s)).toBe(ex.hstar(s));
      // admissibility against the explicit h*
      expect(hmax.evaluate(s)).toBeLessThanOrEqual(lm.evaluate(s));
      expect(lm.evaluate(s)).toBeLessThanOrEqual(ex.hstar(s));
      expect(se.optimalActions(s)).toEqual(ex.optimalActions(s));
      const app: number[] = [];
      for (let o = 0; o < t.numOps; o++) if (naiveApply(t, s, o)) app.push(o);
      s = naiveApply(t, s, app[Math.floor(rnd() * app.length)]!)!;
    }
    expect(ex.hstar(t.init)).toBe(8);
  });

  it("explores the whole 6-block blocksworld (7057 states) and its h* is admissible-consistent", () => {
    const t = load("bw-domain.pddl", "bw-6.pddl");
    const o = createOracle(t);
    expect(o.mode).toBe("explicit");
    expect(o.reachableStates()).toBe(7057);
    const h0 = o.hstar(t.init);
    const lm = createHeuristic(t, "lmcut");
    expect(lm.evaluate(t.init)).toBeLessThanOrEqual(h0);
    // Bellman: h*(s) = min over successors of c + h*(s')
    const opt = o.optimalActions(t.init);
    expect(opt.length).toBeGreaterThan(0);
    for (const op of opt) expect(t.opCost[op]! + o.hstar(naiveApply(t, t.init, op)!)).toBe(h0);
  });

  it("detects dead ends in both modes, with proofs", () => {
    const t = load("token-domain.pddl", "token-unsolvable.pddl");
    for (const mode of ["explicit", "search"] as const) {
      const o = createOracle(t, { mode });
      expect(o.hstar(t.init)).toBe(Infinity);
      expect(o.optimalActions(t.init)).toEqual([]);
      const proof = o.deadEndProof(t.init);
      expect(proof.kind).toBe("exhaustive");
      if (proof.kind === "exhaustive") expect(proof.states).toBe(3);
      // after using the token for (a), (b) is relaxed-unreachable
      const useA = t.opNames.indexOf("(use-a)");
      const s = naiveApply(t, t.init, useA)!;
      expect(o.hstar(s)).toBe(Infinity);
      expect(o.deadEndProof(s)).toEqual({ kind: "relaxed-unreachable" });
    }
  });

  it("explicit mode answers states outside the explored space by search", () => {
    const t = load("token-domain.pddl", "token-unsolvable.pddl");
    const o = createOracle(t, { mode: "explicit" });
    const fact = (name: string): number => t.factNames.indexOf(name);
    const mk = (...names: string[]): Uint32Array => {
      const s = new Uint32Array(t.words);
      for (const n of names) s[fact(n) >>> 5]! |= 1 << (fact(n) & 31);
      return s;
    };
    expect(fact("(a)")).toBeGreaterThanOrEqual(0);
    expect(o.hstar(mk("(a)", "(b)"))).toBe(0); // a goal state the initial state cannot reach
    expect(o.hstar(mk("(b)", "(have)"))).toBe(1);
    expect(o.optimalActions(mk("(b)", "(have)"))).toEqual([t.opNames.indexOf("(use-a)")]);
    expect(o.known(mk("(b)", "(have)"))).toBe(1);
  });

  it("falls back to search mode over the state cap; forced explicit mode throws", () => {
    const t = load("bw-domain.pddl", "bw-4.pddl");
    const o = createOracle(t, { maxStates: 10 });
    expect(o.mode).toBe("search");
    expect(o.hstar(t.init)).toBe(8);
    expect(() => createOracle(t, { maxStates: 10, mode: "explicit" })).toThrow(LimitError);
  });

  it("search-mode queries respect limits with LimitError", () => {
    const t = load("bw-domain.pddl", "bw-6.pddl");
    const o = createOracle(t, { mode: "search", limits: { maxExpansions: 2 } });
    expect(() => o.hstar(t.init)).toThrow(LimitError);
  });

  it("costAvoiding equals a brute-force search that avoids the forbidden states", () => {
    const rnd = mulberry(21);
    let finite = 0;
    let blocked = 0;
    for (let i = 0; i < 80; i++) {
      const t = randomTask(rnd);
      const hs = naiveHStar(t);
      const keys = [...hs.keys()];
      for (const mode of ["explicit", "search"] as const) {
        const o = createOracle(t, { mode });
        for (const { state, h } of hs.values()) {
          const bad = new Set(keys.filter(() => rnd() < 0.3));
          const want = naiveAvoid(t, hs, state, bad);
          const forbidden = (s: Uint32Array): boolean => bad.has(s.join(","));
          expect(costAvoiding(t, o, state, forbidden, Infinity)).toBe(want);
          // with bound h*(s): finite iff some optimal plan avoids the forbidden states
          const got = costAvoiding(t, o, state, forbidden, h);
          expect(got).toBe(want <= h ? want : Infinity);
          if (got !== Infinity) finite++;
          else if (h !== Infinity) blocked++;
        }
      }
    }
    expect(finite).toBeGreaterThan(50);
    expect(blocked).toBeGreaterThan(20);
  });
});
