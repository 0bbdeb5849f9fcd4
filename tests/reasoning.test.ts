/**
 * `--format acp`: every answer re-derived by brute force on small built-in problems, with the
 * committed checker's oracle (bench/acp-truth.ts: the lifted PDDL evaluated on states, the whole
 * state space from the question's state enumerated over all ground actions, its layers for
 * within-n-steps questions; plans replayed; the next action by exact goal costs), every flipped answer found wrong, each
 * landmark also by a second path (an enumeration with the fact's achievers removed), and the
 * yes/no balance.
 */
import { describe, expect, it } from "vitest";
import { join } from "node:path";
import { check, enumerate, stateOf, World, type Space } from "../bench/acp-truth.js";
import { Actions, OPEN_KINDS, type AcpRow } from "../src/reasoning/index.js";
import { applyOp, isApplicable, isGoal } from "../src/task/index.js";
import { stateKey } from "../src/task/state.js";
import type { GroundTask } from "../src/task/types.js";
import { freshContext, ROOT, rowsOf } from "./pairs-helpers.js";

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
const MAX = 200_000;


/** Landmark by a second path: no goal state reachable once every operator that adds the fact is removed. */
function landmarkWithoutAchievers(task: GroundTask, s: Uint32Array, fact: string): boolean {
  const f = task.factNames.indexOf(fact);
  expect(f, fact).toBeGreaterThanOrEqual(0);
  const adds = (op: number): boolean => Array.from(task.add.subarray(task.addStart[op]!, task.addStart[op + 1]!)).includes(f);
  const seen = new Set([stateKey(s)]);
  const queue = [s];
  for (let i = 0; i < queue.length; i++) {
    if (isGoal(task, queue[i]!)) return false;
    for (let op = 0; op < task.numOps; op++) {
      if (adds(op) || !isApplicable(task, queue[i]!, op)) continue;
      const t = applyOp(task, queue[i]!, op);
      if (!seen.has(stateKey(t))) seen.add(stateKey(t)), queue.push(t);
    }
  }
  return true;
}

/** The row with its answer made wrong: the other yes/no answer, another letter, a set or accepted answer that cannot match. */
function flipped(row: AcpRow): AcpRow {
  if (row.form === "yes-no") return { ...row, answer: row.answer === "yes" ? "no" : "yes" };
  if (row.form === "choice") return { ...row, answer: row.answer === "A" ? "B" : "A" };
  const g = row.meta.gold;
  return { ...row, meta: { ...row.meta, gold: { ...g, set: g.set && [...g.set, "+(none)"], accept: g.accept && ["(none)"] } } };
}

const LETTERS = ["A", "B", "C", "D"];

describe("--format acp: answers re-derived by brute force", () => {
  const all: AcpRow[] = [];
  it.each(CASES)("%s %s", async (domain, problem) => {
    const { task } = freshContext(domain, problem);
    const actions = new Actions(task);
    const w = World.fromFiles(join(ROOT, "domains", domain, "domain.pddl"), join(ROOT, "problems", domain, `${problem}.pddl`));
    const spaces = new Map<string, Space>();
    for (const seed of [1, 2]) {
      const rows = rowsOf<AcpRow>(domain, problem, "acp", 1.0, seed).rows;
      expect(rows.length).toBeGreaterThan(0);
      for (const row of rows) {
        // a turn of the event loop per row: vitest's worker RPC times out after 60 s of synchronous work
        await new Promise<void>((resolve) => setImmediate(resolve));
        all.push(row);
        // the state twice: in the lifted brute force, and in the grounded task (for the second landmark path)
        const ws = stateOf(w, row);
        let s = task.init;
        for (const a of row.meta.prefix) s = actions.apply(s, task.opNames.indexOf(a));
        // one enumeration per state (rows at a state share it)
        const key = stateKey(s);
        const full = (): Space => spaces.get(key) ?? spaces.set(key, enumerate(w, ws, MAX)).get(key)!;
        const why = `${row.id}: ${row.question.slice(row.question.lastIndexOf("\n\n") + 2)}`;
        if (row.form === "choice") expect(row.choices, why).toHaveLength(4);
        if (row.form === "yes-no" && row.kind !== "validation") expect(row.meta.items, why).toHaveLength(1);
        if (row.form === "free") expect(row.meta.gold.set ?? row.meta.gold.accept, why).not.toBeNull();
        expect(check(w, row, ws, full, MAX), why).toBe(true);
        expect(check(w, flipped(row), ws, full, MAX), `${why} (flipped)`).toBe(false);
        if (row.kind === "landmarks") {
          const right = row.meta.items.map((x) => landmarkWithoutAchievers(task, s, x));
          if (row.form === "yes-no") expect(right[0] ? "yes" : "no", why).toBe(row.answer);
          else if (row.form === "choice") expect(right.flatMap((r, i) => (r ? [LETTERS[i]] : [])), why).toEqual([row.answer]);
          else expect(right.flatMap((r, i) => (r ? [LETTERS[i]] : [])), why).toEqual(row.meta.gold.set);
        }
      }
    }
  }, 600_000);

  it("every kind in every form; yes/no questions are balanced per kind", () => {
    const cells = [...new Set(all.map((r) => `${r.kind}/${r.form}`))];
    // the open kinds (one fact or plan to name) are free answers only
    const open = (c: string): boolean => OPEN_KINDS.has(c.split("/")[0]! as AcpRow["kind"]);
    expect(cells.filter(open).every((c) => c.endsWith("/free")), cells.filter(open).join(", ")).toBe(true);
    const kinds = cells.filter((c) => !open(c));
    expect(kinds.sort()).toEqual(["applicability", "progression", "reachability", "action-reachability", "validation", "justification", "landmarks", "next-action"].flatMap((k) => ["yes-no", "choice", "free"].map((f) => `${k}/${f}`)).sort());
    // the variants re-checked above are there: within-n-steps reachability, runs of three steps
    // to remove, next-action options that cannot be taken at all
    expect(all.filter((r) => r.kind === "reachability" && r.meta.horizon !== null).length).toBeGreaterThan(10);
    // two facts at once ("(a) & (b)"), both answers, each re-checked above by the enumeration
    const pairs = all.filter((r) => r.kind === "reachability" && r.meta.items.some((x) => x.includes(" & ")));
    expect(new Set(pairs.filter((r) => r.form === "yes-no").map((r) => r.answer))).toEqual(new Set(["yes", "no"]));
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

