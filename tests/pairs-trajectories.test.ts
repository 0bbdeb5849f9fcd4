import { describe, expect, it } from "vitest";
import { PERTURBATIONS, trajectoryReward, type TrajectoryPairRow, type TrajectorySide } from "../src/products/trajectories.js";
import { solve } from "../src/search/index.js";
import { validatePlan } from "../src/task/index.js";
import { CASES, freshContext, relabel, rowsOf } from "./pairs-helpers.js";

/** One side of a row, from its text and its `chosen_*` / `rejected_*` columns. */
function sideOf(r: TrajectoryPairRow, n: "chosen" | "rejected"): TrajectorySide {
  const c = r as unknown as Record<string, unknown>;
  return {
    steps: r[n].split("\n"),
    actions: c[`${n}_actions`] as string[],
    valid: c[`${n}_valid`] as boolean,
    cost: c[`${n}_cost`] as number | null,
    length: c[`${n}_length`] as number,
    first_error: c[`${n}_first_error`] as number,
    rewards: c[`${n}_rewards`] as number[],
  };
}

describe("trajectory-level pairs", () => {
  const all: TrajectoryPairRow[] = [];
  it.each(CASES)("%s %s: validity, cost and first error re-simulated", (domain, problem) => {
    const { rows } = rowsOf<TrajectoryPairRow>(domain, problem, "trajectories", 0);
    expect(rows.length).toBeGreaterThanOrEqual(3);
    const { task, ctx } = freshContext(domain, problem);
    const opt = solve(task, { heuristic: "lmcut" });
    for (const row of rows) {
      expect(row.level).toBe("trajectory");
      const r = { ...row, chosen: sideOf(row, "chosen"), rejected: sideOf(row, "rejected") };
      expect(row.prompt.endsWith("\n")).toBe(true);
      expect(row.margin).toBe(Math.round((1 - trajectoryReward(r.rejected, r.chosen.cost!)) * 1e4) / 1e4);
      expect(row.margin).toBeGreaterThan(0);
      for (const side of [r.chosen, r.rejected]) {
        const v = validatePlan(task, side.actions);
        expect(side.valid).toBe(v.valid);
        expect(side.cost).toBe(v.valid ? v.cost : null);
        expect(side.length).toBe(side.actions.length);
        expect(side.steps).toHaveLength(side.actions.length);
        const labels = relabel(ctx, side.actions);
        expect(side.rewards).toEqual(labels.map((l) => l.reward));
        let fe = labels.findIndex((l) => l.reward < 1);
        if (fe < 0 && !v.valid) fe = side.actions.length;
        expect(side.first_error).toBe(fe);
      }
      // Chosen is an optimal plan; rejected is strictly worse.
      expect(r.chosen.valid).toBe(true);
      expect(r.chosen.cost).toBe(opt.cost);
      expect(r.chosen.first_error).toBe(-1);
      expect(!r.rejected.valid || r.rejected.cost! > r.chosen.cost!).toBe(true);
      expect(r.rejected.first_error).toBeGreaterThanOrEqual(0);
      const longer = r.chosen.length > r.rejected.length ? "chosen" : r.chosen.length < r.rejected.length ? "rejected" : "equal";
      expect(r.meta.longer).toBe(longer);
      const fit = r.meta.length_fit;
      // a cut plan misses the goal; detours and inverses are valid as they are
      if (fit === "cut") expect(r.rejected.valid).toBe(false);
      if (fit === "as-is" && (r.perturbation === "detour" || r.perturbation === "inverse")) expect(r.rejected.valid).toBe(true);
      if (fit === "as-is" && r.perturbation === "drop") expect(r.rejected.length).toBe(r.chosen.length - 1);
      if (fit === "as-is" && r.perturbation === "inverse") expect(r.rejected.length).toBe(r.chosen.length + 2);
      if (fit === "as-is" && (r.perturbation === "swap" || r.perturbation === "substitute")) expect(r.rejected.length).toBe(r.chosen.length);
      // the perturbation is inside the rejected plan: it differs from the optimal plan by then
      expect(r.rejected.actions.slice(0, r.meta.position)).toEqual(r.chosen.actions.slice(0, r.meta.position));
      expect(r.rejected.first_error).toBeGreaterThanOrEqual(Math.min(r.meta.position, r.rejected.length));
    }
    all.push(...rows);
  });

  it("covers every perturbation; every length fit occurs", () => {
    expect(new Set(all.map((r) => r.perturbation))).toEqual(new Set(PERTURBATIONS));
    expect(new Set(all.map((r) => r.meta.length_fit))).toEqual(new Set(["as-is", "cut", "continued"]));
    expect(new Set(all.map((r) => r.first)).size).toBe(2);
  });

  it("length carries no label: per perturbation, the rejected plan is as often shorter as longer", () => {
    const by = new Map<string, { chosen: number; rejected: number; equal: number }>();
    for (const [domain, problem] of [["ferry", "p0001"], ["blocksworld", "p0001"]] as const) {
      for (let seed = 1; seed <= 10; seed++) {
        for (const r of rowsOf<TrajectoryPairRow>(domain, problem, "trajectories", 0, seed).rows) {
          const c = by.get(r.perturbation) ?? { chosen: 0, rejected: 0, equal: 0 };
          c[r.meta.longer]++;
          by.set(r.perturbation, c);
        }
      }
    }
    for (const [kind, c] of by) {
      // a length rule's accuracy: pick the shorter side as chosen, ties count half
      const acc = (c.chosen * 0 + c.rejected + c.equal / 2) / (c.chosen + c.rejected + c.equal);
      expect(Math.abs(acc - 0.5), `${kind} ${JSON.stringify(c)}`).toBeLessThan(0.2);
    }
  });

  it("is deterministic for a seed", () => {
    expect(rowsOf("rooms", "p0001", "trajectories", 0, 4).lines).toEqual(rowsOf("rooms", "p0001", "trajectories", 0, 4).lines);
  });
});
