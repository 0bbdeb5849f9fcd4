/**
 * The evaluation formats render each step in the state it is taken in while the chain so far is
 * executable, so conditional effects read as they fire; after a non-executable step the state
 * the text tells of is not the true one, and the effects stay lifted.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runJob, type ProblemJob } from "../src/dataset/job.js";
import type { ProcessBenchRow } from "../src/products/processbench.js";
import type { TrajectoryPairRow } from "../src/products/trajectories.js";
import type { Format } from "../src/dataset/formats.js";
import { FIXTURES } from "./nl-helpers.js";
import { config } from "./pairs-helpers.js";

const domainFile = join(FIXTURES, "user-domain.pddl");
const problemFile = join(FIXTURES, "user-problem.pddl");
const job: ProblemJob = {
  index: 0,
  domainName: "depot-lite",
  domainFile,
  domainText: readFileSync(domainFile, "utf8"),
  problemId: "user-problem",
  problemFile,
  problemText: readFileSync(problemFile, "utf8"),
  split: "test",
  builtinTemplates: null,
  templatesFile: null,
};

function rows<T>(format: Format, seed: number): T[] {
  const r = runJob(job, { ...config(format, 1.0, seed), samplesPerState: 12 });
  if (r.skipped !== null) throw new Error(`skipped: ${r.skipped}`);
  return r.lines.map((l) => JSON.parse(l) as T);
}

// drive-to's effects are conditional: lifted text says "for every cargo ...".
const LIFTED = "for every";

/** Check one chain; returns how many drive steps were rendered in a known state. */
function checkChain(steps: string[], actions: string[], nonExecutable: boolean[]): number {
  const first = nonExecutable.indexOf(true);
  let inState = 0;
  actions.forEach((a, i) => {
    if (!a.startsWith("(drive-to ")) return;
    if (first < 0 || i <= first) {
      expect(steps[i], `${a} at step ${i + 1}`).not.toContain(LIFTED);
      inState++;
    } else {
      expect(steps[i], `${a} at step ${i + 1} after a non-executable step`).toContain(LIFTED);
    }
  });
  return inState;
}

describe("evaluation formats render steps in their state", () => {
  it("processbench: conditional effects as they fire up to the first non-executable step", () => {
    let checked = 0;
    for (const seed of [1, 2, 3, 4]) {
      for (const r of rows<ProcessBenchRow>("processbench", seed)) {
        checked += checkChain(r.steps, r.meta.actions, r.meta.step_categories.map((c) => c === "non-executable"));
      }
    }
    expect(checked).toBeGreaterThan(0);
  });

  it("trajectories: both sides, as far as they are executable", () => {
    let checked = 0;
    for (const seed of [1, 2]) {
      for (const r of rows<TrajectoryPairRow>("trajectories", seed)) {
        for (const side of ["chosen", "rejected"] as const) {
          const steps = (r[side] as string).split("\n").filter((l) => l.startsWith("Step "));
          expect(steps).toHaveLength(r[`${side}_actions`].length);
          checked += checkChain(steps, r[`${side}_actions`], r[`${side}_rewards`].map((x) => x === 0));
        }
      }
    }
    expect(checked).toBeGreaterThan(0);
  });
});
