import { describe, expect, it } from "vitest";
import { buildFdrTask, type FdrGroups, type FdrTask } from "../src/task/fdr.js";
import { computeFactGroups } from "../src/task/invariants.js";
import type { GroundTask } from "../src/task/types.js";
import { FdrLmCutHeuristic } from "../src/search/heuristics.js";
import { buildRelaxedTaskFromFdr, FdrStateMap, fdrSuccessorOrder } from "../src/search/relaxed.js";
import { loadTask } from "./label-oracle.js";
import { handTask, naiveApply, naiveGoal, naiveHStar } from "./search-helpers.js";

const has = (s: Uint32Array, f: number): boolean => ((s[f >>> 5]! >>> (f & 31)) & 1) === 1;

/**
 * Mutex groups read off the reachable states (two facts are mutex if no reachable state has
 * both): greedy cliques in fact-name order, a partition of the facts. Independent of the
 * invariant synthesis, and exact for the task at hand.
 */
function groupsByEnumeration(task: GroundTask, states: Uint32Array[]): FdrGroups {
  const n = task.numFacts;
  const together = Array.from({ length: n }, () => new Uint8Array(n));
  for (const s of states) {
    const on: number[] = [];
    for (let f = 0; f < n; f++) if (has(s, f)) on.push(f);
    for (const a of on) for (const b of on) together[a]![b] = 1;
  }
  const byName = Array.from({ length: n }, (_, f) => f).sort((a, b) => (task.factNames[a]! < task.factNames[b]! ? -1 : 1));
  const covered = new Uint8Array(n);
  const groups: number[][] = [];
  for (const f of byName) {
    if (covered[f]) continue;
    const g = [f];
    covered[f] = 1;
    for (const x of byName) if (!covered[x] && g.every((y) => !together[x]![y])) {
      g.push(x);
      covered[x] = 1;
    }
    groups.push(g);
  }
  return { groups, mutexGroups: groups.filter((g) => g.length > 1) };
}

/** Apply an FDR operator to an FDR state (bitset over the relaxed facts); null if not applicable. */
function fdrApply(fdr: FdrTask, s: Uint32Array, k: number): Uint32Array | null {
  const offset = [0];
  for (let v = 0; v < fdr.ranges.length; v++) offset.push(offset[v]! + fdr.ranges[v]!);
  const op = fdr.ops[k]!;
  const holds = (v: number, x: number): boolean => has(s, offset[v]! + x);
  for (let i = 0; i < op.prevail.length; i += 2) if (!holds(op.prevail[i]!, op.prevail[i + 1]!)) return null;
  for (let i = 0; i < op.prePost.length; i += 3) if (op.prePost[i + 1]! !== -1 && !holds(op.prePost[i]!, op.prePost[i + 1]!)) return null;
  const n = s.slice();
  for (let i = 0; i < op.prePost.length; i += 3) {
    const v = op.prePost[i]!;
    for (let x = 0; x < fdr.ranges[v]!; x++) n[(offset[v]! + x) >>> 5]! &= ~(1 << ((offset[v]! + x) & 31));
    const p = offset[v]! + op.prePost[i + 2]!;
    n[p >>> 5]! |= 1 << (p & 31);
  }
  return n;
}

const DOMAINS = ["blocksworld", "blocksworld-3ops", "ferry", "hanoi", "logistics", "elevator", "npuzzle", "visitgrid", "sokoban", "spanner", "rooms"];

describe("buildFdrTask (the finite-domain view) on the built-in domains", () => {
  for (const name of DOMAINS) {
    it(`${name}: same transitions, same goal states, admissible LM-Cut`, () => {
      const task = loadTask(name, `${name}-p1.pddl`);
      const hs = naiveHStar(task);
      const states = [...hs.values()].map((x) => x.state);
      const fdr = buildFdrTask(task, groupsByEnumeration(task, states));
      if ("unsupported" in fdr) throw new Error(fdr.unsupported);
      const map = new FdrStateMap(fdr);
      const img = (s: Uint32Array): Uint32Array => {
        const out = new Uint32Array(map.words);
        expect(map.map(s, out)).toBe(true);
        return out;
      };
      const goalHolds = (x: Uint32Array): boolean => {
        const offset = [0];
        for (let v = 0; v < fdr.ranges.length; v++) offset.push(offset[v]! + fdr.ranges[v]!);
        for (let i = 0; i < fdr.goal.length; i += 2) if (!has(x, offset[fdr.goal[i]!]! + fdr.goal[i + 1]!)) return false;
        return true;
      };
      const h = new FdrLmCutHeuristic(task, fdr);
      let transitions = 0;
      for (const { state, h: hstar } of hs.values()) {
        const x = img(state);
        expect(goalHolds(x)).toBe(naiveGoal(task, state));
        // every FDR transition is a task transition
        const fdrSucc = new Set<string>();
        for (let k = 0; k < fdr.ops.length; k++) {
          const y = fdrApply(fdr, x, k);
          if (y === null) continue;
          const next = naiveApply(task, state, fdr.ops[k]!.origin);
          expect(next).not.toBeNull();
          expect(Array.from(img(next!))).toEqual(Array.from(y));
          fdrSucc.add(y.join(","));
          transitions++;
        }
        // every task transition that changes the FDR state is an FDR transition
        for (let o = 0; o < task.numOps; o++) {
          const next = naiveApply(task, state, o);
          if (next === null) continue;
          const y = img(next);
          if (y.join(",") !== x.join(",")) expect(fdrSucc.has(y.join(","))).toBe(true);
        }
        const v = h.evaluate(state);
        expect(v).toBeLessThanOrEqual(hstar);
        if (hstar === 0) expect(v).toBe(0);
      }
      expect(transitions).toBeGreaterThan(0);
      // the relaxed task and successor order are well formed
      const rt = buildRelaxedTaskFromFdr(fdr);
      expect(rt.numOps).toBe(fdr.ops.length + 1);
      const order = fdrSuccessorOrder(task, fdr);
      expect([...order].sort((a, b) => a - b)).toEqual(Array.from({ length: task.numOps }, (_, i) => i));
    });
  }
});

describe("buildFdrTask's typed-array path for operators without negative preconditions", () => {
  it("builds exactly what the general path builds, on every built-in domain", () => {
    for (const name of DOMAINS) {
      const task = loadTask(name, `${name}-p1.pddl`);
      const groups = computeFactGroups(task);
      const fast = buildFdrTask(task, groups);
      const general = buildFdrTask(task, groups, { fastPath: false });
      expect(fast).toEqual(general);
      expect("unsupported" in fast).toBe(false);
    }
  });
});

describe("buildFdrTask details", () => {
  // facts: 0 (at a), 1 (at b), 2 (at c), 3 (flag)
  const move = (from: number, to: number, extra: Partial<{ negPre: number[]; pre: number[] }> = {}) => ({
    name: `move f${from} f${to}`,
    pre: [from, ...(extra.pre ?? [])],
    negPre: extra.negPre,
    add: [to],
    del: [from],
  });

  it("drops an operator whose preconditions are mutex, and orders operators by name", () => {
    const t = handTask(4, [move(1, 2), move(0, 1), { name: "impossible", pre: [0, 1], add: [3] }, move(1, 0)], [0], [2]);
    const fdr = buildFdrTask(t, { groups: [[0, 1, 2], [3]], mutexGroups: [[0, 1, 2]] });
    if ("unsupported" in fdr) throw new Error(fdr.unsupported);
    expect(fdr.ops.map((o) => o.origin)).not.toContain(2);
    // the flag variable became irrelevant and disappeared; one variable with 3 reachable values
    expect(fdr.ranges.length).toBe(1);
  });

  it("expands a negative condition on a multi-valued variable into the other values", () => {
    // toggle flag if not at a: one FDR operator per other reachable location value
    const t = handTask(4, [move(0, 1), move(1, 2), { name: "set", pre: [], negPre: [0], add: [3] }], [0], [3]);
    const fdr = buildFdrTask(t, { groups: [[0, 1, 2], [3]], mutexGroups: [[0, 1, 2]] });
    if ("unsupported" in fdr) throw new Error(fdr.unsupported);
    const sets = fdr.ops.filter((o) => o.origin === 2);
    expect(sets.length).toBe(2);
    // and h(init) = 2 (move to b, then set)
    expect(new FdrLmCutHeuristic(t, fdr).evaluate(t.init)).toBe(2);
  });

  it("gives up where negative conditions multiply out beyond bounds (LM-Cut then runs on the plain relaxation)", () => {
    // 15 three-valued variables; "finish" needs none of them at value 0: 3^15 FDR operators (each variable has a fourth value, "none of them")
    // (Fast Downward's translator runs out of time on such tasks, e.g. slitherlink-sat23 p01)
    const n = 15;
    const ops = [];
    for (let i = 0; i < n; i++) ops.push({ name: `m${i}`, pre: [3 * i], add: [3 * i + 1], del: [3 * i] });
    ops.push({ name: "finish", pre: [], negPre: Array.from({ length: n }, (_, i) => 3 * i), add: [3 * n] });
    const groups = Array.from({ length: n }, (_, i) => [3 * i, 3 * i + 1, 3 * i + 2]);
    const init = Array.from({ length: n }, (_, i) => 3 * i);
    const t = handTask(3 * n + 1, ops, init, [3 * n]);
    const fdr = buildFdrTask(t, { groups: [...groups, [3 * n]], mutexGroups: groups });
    expect(fdr).toEqual({ unsupported: "(finish): negative conditions multiply out to 14348907 operators" });
    // the same bound on the goal
    const g = handTask(3 * n, ops.slice(0, n), init, [], init);
    expect(buildFdrTask(g, { groups, mutexGroups: groups })).toEqual({ unsupported: "the goal: negative conditions multiply out to 14348907 operators" });
  });

  it("reports what it does not cover", () => {
    const ce = handTask(2, [{ name: "a", pre: [0], add: [], ce: [{ cond: [0], fact: 1, add: true }] }], [0], [1]);
    expect(buildFdrTask(ce, { groups: [[0], [1]], mutexGroups: [] })).toEqual({ unsupported: "conditional effects" });
    const t = handTask(3, [move(0, 1)], [0], [1]);
    expect("unsupported" in buildFdrTask(t, { groups: [[0, 1], [1, 2]], mutexGroups: [] })).toBe(true);
  });
});
