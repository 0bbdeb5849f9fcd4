import { describe, expect, it } from "vitest";
import { editKind, type StepPairRow } from "../src/products/pairs.js";
import { classify, REWARD } from "../src/label/index.js";
import { cand, CASES, freshContext, rowsOf, statesOf } from "./pairs-helpers.js";

describe("step-level preference pairs", () => {
  const all: StepPairRow[] = [];
  it.each(CASES)("%s %s: every label re-derived by the classifier", (domain, problem) => {
    const { rows } = rowsOf<StepPairRow>(domain, problem, "pairs", 0);
    expect(rows.length).toBeGreaterThan(0);
    const { ctx } = freshContext(domain, problem);
    for (const r of rows) {
      expect(r.level).toBe("step");
      expect(r.prompt.match(/^Step \d+: /gm) ?? []).toHaveLength(r.meta.state_index);
      expect(r.meta.prefix_actions).toHaveLength(r.meta.state_index);
      const states = statesOf(ctx, r.meta.prefix_actions);
      const s = states[states.length - 1]!;
      const chosen = cand(ctx, r.chosen_action);
      const rejected = cand(ctx, r.rejected_action);
      const lc = classify(ctx, s, states, chosen);
      const lr = classify(ctx, s, states, rejected);
      expect(lc.category).toBe("optimal");
      expect(r.chosen_category).toBe(lc.category);
      expect(r.chosen_reward).toBe(REWARD[lc.category]);
      expect(r.rejected_category).toBe(lr.category);
      expect(r.rejected_reward).toBe(lr.reward);
      expect(lr.reward).toBeLessThan(1);
      expect(r.margin).toBe(lc.reward - lr.reward);
      expect(r.edit).toBe(editKind(chosen, rejected));
      expect(r.chosen.startsWith(`Step ${r.meta.state_index + 1}:`)).toBe(true);
      expect(r.rejected.startsWith(`Step ${r.meta.state_index + 1}:`)).toBe(true);
      expect(["chosen", "rejected"]).toContain(r.first);
    }
    // At most two pairs per state, with different rejected categories.
    const byState = new Map<number, StepPairRow[]>();
    for (const r of rows) byState.set(r.meta.state_index, [...(byState.get(r.meta.state_index) ?? []), r]);
    for (const list of byState.values()) {
      expect(list.length).toBeLessThanOrEqual(2);
      expect(new Set(list.map((r) => r.rejected_category)).size).toBe(list.length);
    }
    all.push(...rows);
  });

  it.each([...CASES, ["sokoban", "p0001"] as [string, string]])(
    "%s %s: every rejected step, in pairs and in trajectories, is a valid grounding: no fixed fact rules it out",
    (domain, problem) => {
      // a grounding the grounder prunes breaks a fixed fact (a non-adjacent move): wrong in any
      // state, so a model could reject it without reading the state
      const { ctx } = freshContext(domain, problem);
      const pairs = rowsOf<StepPairRow>(domain, problem, "pairs", 0).rows;
      for (const r of pairs) expect(cand(ctx, r.rejected_action).op, `${r.id} ${r.rejected_action}`).toBeGreaterThanOrEqual(0);
      const trajectories = rowsOf<{ id: string; rejected_actions: string[] }>(domain, problem, "trajectories", 0).rows;
      for (const r of trajectories) for (const a of r.rejected_actions) expect(cand(ctx, a).op, `${r.id} ${a}`).toBeGreaterThanOrEqual(0);
      expect(pairs.filter((r) => r.rejected_category === "non-executable").length).toBeGreaterThan(0);
    },
    60_000,
  );

  it("prefers minimal edits and shows both sides first", () => {
    const edits = new Set(all.map((r) => r.edit));
    expect(edits.has("argument")).toBe(true);
    expect(all.filter((r) => r.edit === "argument").length).toBeGreaterThan(all.length / 4);
    expect(new Set(all.map((r) => r.first)).size).toBe(2);
    expect(new Set(all.map((r) => r.rejected_category)).size).toBeGreaterThanOrEqual(4);
  });

  it("editKind classifies argument, operator and other edits", () => {
    const { ctx } = freshContext("blocksworld", "p0001");
    const objs = ctx.task.objects;
    const [a, b, c] = [objs[0]!, objs[1]!, objs[2]!];
    expect(editKind(cand(ctx, `(stack ${a} ${b})`), cand(ctx, `(stack ${a} ${c})`))).toBe("argument");
    expect(editKind(cand(ctx, `(stack ${a} ${b})`), cand(ctx, `(stack ${c} ${a})`))).toBe("other");
    expect(editKind(cand(ctx, `(stack ${a} ${b})`), cand(ctx, `(put-down ${a})`))).toBe("operator");
    expect(editKind(cand(ctx, `(pick-up ${a})`), cand(ctx, `(unstack ${a} ${c})`))).toBe("operator");
    expect(editKind(cand(ctx, `(pick-up ${a})`), cand(ctx, `(put-down ${b})`))).toBe("other");
  });

  it("--hard (threshold 0.75) keeps only suboptimal rejected steps, gap 0.25", () => {
    let n = 0;
    for (const [domain, problem] of [["hanoi", "p0001"], ["ferry", "p0001"], ["logistics", "p0001"]] as const) {
      const { rows } = rowsOf<StepPairRow>(domain, problem, "pairs", 0.75);
      const { ctx } = freshContext(domain, problem);
      for (const r of rows) {
        expect(r.rejected_category).toBe("suboptimal");
        expect(r.margin).toBe(0.25);
        const states = statesOf(ctx, r.meta.prefix_actions);
        expect(classify(ctx, states[states.length - 1]!, states, cand(ctx, r.rejected_action)).category).toBe("suboptimal");
      }
      n += rows.length;
    }
    expect(n).toBeGreaterThan(0);
  });

  it("threshold 0.5 keeps backtracking and suboptimal only", () => {
    const { rows } = rowsOf<StepPairRow>("blocksworld", "p0001", "pairs", 0.5);
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) expect(["backtracking", "suboptimal"]).toContain(r.rejected_category);
  });

  it("is deterministic for a seed and changes with it", () => {
    const a = rowsOf<StepPairRow>("ferry", "p0001", "pairs", 0, 11).lines;
    const b = rowsOf<StepPairRow>("ferry", "p0001", "pairs", 0, 11).lines;
    const c = rowsOf<StepPairRow>("ferry", "p0001", "pairs", 0, 12).lines;
    expect(b).toEqual(a);
    expect(c).not.toEqual(a);
    // Floats print as floats.
    expect(a[0]).toMatch(/"chosen_reward":1\.0/);
  });
});
