/**
 * `--format acp`: every answer re-derived by brute force on small built-in problems (the whole
 * state space from the question's state, enumerated here; landmarks by a search with the fact's
 * achievers removed; plans by the validator; the next action by exact goal distances), and the
 * yes/no balance.
 */
import { describe, expect, it } from "vitest";
import type { AcpRow } from "../src/reasoning/index.js";
import { applyOp, findOperator, isApplicable, isGoal, resolveGroundAction, validatePlan } from "../src/task/index.js";
import { hasFact, stateKey, stateToFacts } from "../src/task/state.js";
import type { GroundTask } from "../src/task/types.js";
import { check, enumerate } from "../bench/acp-truth.js";
import { freshContext, rowsOf } from "./pairs-helpers.js";

const CASES: [string, string][] = [
  ["blocksworld", "p0001"],
  ["hanoi", "p0001"],
  ["ferry", "p0001"],
  ["rooms", "p0001"],
  ["rooms", "p0028"],
  ["spanner", "p0001"],
  ["logistics", "p0001"],
  ["elevator", "p0001"],
  ["sokoban", "p0001"],
  ["blocksworld-3ops", "p0001"],
  ["visitgrid", "p0001"],
];

const opOf = (task: GroundTask, name: string): number => {
  const r = resolveGroundAction(task, name);
  if ("error" in r) throw new Error(r.error);
  return findOperator(task, r.schema, r.args)[0]!;
};
const factOf = (task: GroundTask, name: string): number => {
  const f = task.factNames.indexOf(name);
  if (f < 0) throw new Error(`no fact ${name}`);
  return f;
};

/** Every state reachable from `s` (explicit breadth-first enumeration over all operators), each state's successors and its steps from `s`. */
function space(task: GroundTask, s: Uint32Array, opMask?: (op: number) => boolean): { states: Uint32Array[]; next: number[][]; index: Map<string, number>; depth: number[] } {
  const states = [s];
  const index = new Map([[stateKey(s), 0]]);
  const next: number[][] = [];
  const depth = [0];
  for (let i = 0; i < states.length; i++) {
    next.push([]);
    for (let op = 0; op < task.numOps; op++) {
      if (opMask !== undefined && !opMask(op)) continue;
      if (!isApplicable(task, states[i]!, op)) continue;
      const t = applyOp(task, states[i]!, op);
      const k = stateKey(t);
      let j = index.get(k);
      if (j === undefined) {
        index.set(k, (j = states.length));
        states.push(t);
        depth.push(depth[i]! + 1);
      }
      next[i]!.push(j);
    }
  }
  return { states, next, index, depth };
}

const distances = new WeakMap<object, Int32Array>();
/** Goal distances (unit costs) of every state of `sp`, by backward breadth-first search. */
function goalDistances(task: GroundTask, sp: ReturnType<typeof space>): Int32Array {
  const known = distances.get(sp);
  if (known !== undefined) return known;
  const d = new Int32Array(sp.states.length).fill(-1);
  const prev: number[][] = sp.states.map(() => []);
  sp.next.forEach((ns, i) => ns.forEach((j) => prev[j]!.push(i)));
  const queue: number[] = [];
  sp.states.forEach((x, i) => {
    if (isGoal(task, x)) (d[i] = 0), queue.push(i);
  });
  for (let q = 0; q < queue.length; q++) for (const i of prev[queue[q]!]!) if (d[i] < 0) (d[i] = d[queue[q]!]! + 1), queue.push(i);
  distances.set(sp, d);
  return d;
}

/** The brute-force truth of one item of a question of `row.kind` at state `s`. */
function truth(task: GroundTask, row: AcpRow, s: Uint32Array, item: string, sp: ReturnType<typeof space>): boolean {
  const from = (plan: string[]) => validatePlan({ ...task, init: s }, plan);
  switch (row.kind) {
    case "applicability":
      return isApplicable(task, s, opOf(task, item));
    case "progression":
      return stateToFacts(task, applyOp(task, s, opOf(task, row.meta.action!))).includes(item);
    case "reachability": {
      // within meta.horizon steps where it is set: a state at most that many steps away
      const f = factOf(task, item);
      const h = row.meta.horizon ?? Infinity;
      return sp.states.some((x, i) => hasFact(x, f) && sp.depth[i]! <= h);
    }
    case "action-reachability": {
      // as one of the next meta.horizon steps: applicable after at most horizon - 1 of them
      const op = opOf(task, item);
      const h = row.meta.horizon ?? Infinity;
      return sp.states.some((x, i) => isApplicable(task, x, op) && sp.depth[i]! <= h - 1);
    }
    case "landmarks": {
      // the goal unreachable once every action that adds the fact is removed
      const f = factOf(task, item);
      const adds = (op: number) => Array.from(task.add.subarray(task.addStart[op]!, task.addStart[op + 1]!)).includes(f);
      return !space(task, s, (op) => !adds(op)).states.some((x) => isGoal(task, x));
    }
    case "validation":
      // items are step numbers: "is this the first step that cannot be taken?"
      return firstFailure(task, s, row.meta.plan!) === Number(item);
    case "justification": {
      const cut = item.split("+").map((x) => Number(x) - 1);
      return from(row.meta.plan!.filter((_, i) => !cut.includes(i))).valid;
    }
    case "next-action": {
      const d = goalDistances(task, sp);
      if (!isApplicable(task, s, opOf(task, item))) return false;
      const t = applyOp(task, s, opOf(task, item));
      return d[sp.index.get(stateKey(t))!] === d[0]! - 1;
    }
  }
}

const LETTERS = ["A", "B", "C", "D"];

describe("--format acp: answers re-derived by brute force", () => {
  const all: AcpRow[] = [];
  it.each(CASES)("%s %s", (domain, problem) => {
    const { task } = freshContext(domain, problem);
    const spaces = new Map<string, ReturnType<typeof space>>();
    for (const seed of [1, 2]) {
      const rows = rowsOf<AcpRow>(domain, problem, "acp", 1.0, seed).rows;
      expect(rows.length).toBeGreaterThan(0);
      for (const row of rows) {
        all.push(row);
        let s = task.init;
        for (const a of row.meta.prefix) s = applyOp(task, s, opOf(task, a));
        // one enumeration per state (rows at a state share it)
        const key = stateKey(s);
        const sp = spaces.get(key) ?? spaces.set(key, space(task, s)).get(key)!;
        const why = `${row.id}: ${row.question.slice(row.question.lastIndexOf("\n\n") + 2)}`;
        if (row.form === "yes-no" && row.kind === "validation") {
          // about the whole plan
          expect(from(task, s, row.meta.plan!) ? "yes" : "no", why).toBe(row.answer);
        } else if (row.form === "yes-no") {
          expect(row.meta.items, why).toHaveLength(1);
          expect(truth(task, row, s, row.meta.items[0]!, sp) ? "yes" : "no", why).toBe(row.answer);
        } else if (row.form === "choice") {
          expect(row.choices, why).toHaveLength(4);
          const right = row.meta.items.map((x) => truth(task, row, s, x, sp));
          // exactly the answer's option is right
          expect(right.map((r, i) => (r ? LETTERS[i] : null)).filter((x) => x !== null), why).toEqual([row.answer]);
        } else {
          expect(row.meta.gold.set ?? row.meta.gold.accept, why).not.toBeNull();
          if (row.meta.items.length > 0) {
            // options listed in the question: the gold set is exactly the right ones
            const right = row.meta.items.flatMap((x, i) => (truth(task, row, s, x, sp) ? [LETTERS[i]!] : []));
            expect(row.meta.gold.set, why).toEqual(right);
          } else if (row.kind === "applicability") {
            const app = [];
            for (let op = 0; op < task.numOps; op++) if (isApplicable(task, s, op)) app.push(task.opNames[op]!);
            expect(row.meta.gold.set, why).toEqual(app.sort());
          } else if (row.kind === "progression") {
            const before = new Set(stateToFacts(task, s));
            const after = new Set(stateToFacts(task, applyOp(task, s, opOf(task, row.meta.action!))));
            const set = [...[...after].filter((f) => !before.has(f)).map((f) => `+${f}`), ...[...before].filter((f) => !after.has(f)).map((f) => `-${f}`)].sort();
            expect(row.meta.gold.set, why).toEqual(set);
          } else if (row.kind === "validation") {
            expect(row.meta.gold.accept, why).toEqual([String(firstFailure(task, s, row.meta.plan!))]);
          } else if (row.kind === "justification") {
            const plan = row.meta.plan!;
            const removable = plan.flatMap((_, i) => (validatePlan({ ...task, init: s }, plan.filter((__, j) => j !== i)).valid ? [String(i + 1)] : []));
            expect(row.meta.gold.set, why).toEqual(removable.sort());
          } else if (row.kind === "next-action") {
            const d = goalDistances(task, sp);
            const best = [];
            for (let op = 0; op < task.numOps; op++) if (isApplicable(task, s, op) && d[sp.index.get(stateKey(applyOp(task, s, op)))!] === d[0]! - 1) best.push(task.opNames[op]!);
            expect(row.meta.gold.accept, why).toEqual(best.sort());
          }
        }
      }
    }
  }, 120_000);

  it("bench/acp-check's brute force agrees on every row, and finds every flipped answer wrong", () => {
    const light = all.filter((r) => r.domain !== "sokoban" && r.domain !== "visitgrid");
    expect(light.length).toBeGreaterThan(500);
    const tasks = new Map<string, GroundTask>();
    for (const row of light) {
      const key = `${row.domain}/${row.problem}`;
      const task = tasks.get(key) ?? tasks.set(key, freshContext(row.domain, row.problem).task).get(key)!;
      let s = task.init;
      for (const a of row.meta.prefix) s = applyOp(task, s, opOf(task, a));
      const full = () => enumerate(task, s, 200_000);
      expect(check(task, row, s, full, 200_000), row.id).toBe(true);
      const flipped: AcpRow =
        row.form === "yes-no"
          ? { ...row, answer: row.answer === "yes" ? "no" : "yes" }
          : row.form === "choice"
            ? { ...row, answer: row.answer === "A" ? "B" : "A" }
            : { ...row, meta: { ...row.meta, gold: { ...row.meta.gold, set: row.meta.gold.set && [...row.meta.gold.set, "+(none)"], accept: row.meta.gold.accept && ["(none)"] } } };
      expect(check(task, flipped, s, full, 200_000), `${row.id} flipped`).toBe(false);
    }
  }, 120_000);

  it("every kind in every form; yes/no questions are balanced per kind", () => {
    const kinds = new Set(all.map((r) => `${r.kind}/${r.form}`));
    expect([...kinds].sort()).toEqual(["applicability", "progression", "reachability", "action-reachability", "validation", "justification", "landmarks", "next-action"].flatMap((k) => ["yes-no", "choice", "free"].map((f) => `${k}/${f}`)).sort());
    // the variants re-checked above are there: within-n-steps reachability, runs of three steps
    // to remove, next-action options that cannot be taken at all
    expect(all.filter((r) => r.kind === "reachability" && r.meta.horizon !== null).length).toBeGreaterThan(10);
    expect(all.filter((r) => r.kind === "action-reachability" && r.meta.horizon !== null).length).toBeGreaterThan(10);
    expect(all.filter((r) => r.kind === "justification" && r.meta.items.some((x) => x.split("+").length === 3)).length).toBeGreaterThan(0);
    expect(all.filter((r) => r.kind === "landmarks" && r.meta.proof === "relaxation").length).toBeGreaterThan(10);
    const byKind = new Map<string, { yes: number; n: number }>();
    for (const r of all) if (r.form === "yes-no") {
      const e = byKind.get(r.kind) ?? { yes: 0, n: 0 };
      e.n++;
      if (r.answer === "yes") e.yes++;
      byKind.set(r.kind, e);
    }
    // a seeded coin per question: within binomial noise of one half (4 standard errors)
    for (const [k, e] of byKind) expect(Math.abs(e.yes / e.n - 0.5), `${k}: ${e.yes} of ${e.n}`).toBeLessThan(4 * Math.sqrt(0.25 / e.n));
  });
});

function from(task: GroundTask, s: Uint32Array, plan: string[]): boolean {
  return validatePlan({ ...task, init: s }, plan).valid;
}

/** The 1-based number of the first step of `plan` not applicable from `s` (the validator's), or 0. */
function firstFailure(task: GroundTask, s: Uint32Array, plan: string[]): number {
  const f = validatePlan({ ...task, init: s }, plan).failure;
  return f !== null && "action" in f ? f.step : 0;
}
