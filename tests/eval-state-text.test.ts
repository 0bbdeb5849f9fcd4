/**
 * The chain formats (processbench, verifier, trajectories) render every step of every chain in
 * the state the judge labels it in: the true state reached by the executed steps before it (a
 * rejected step leaves the state unchanged). Right and wrong chains are rendered the same way,
 * so conditional effects always read as they fire and never in their lifted form ("for every
 * passenger P such that ..."): were the steps after a rejected one rendered without a state, the
 * lifted form would appear in wrong chains only, and the text alone would give the label away.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runJob, type ProblemJob } from "../src/dataset/job.js";
import type { Format } from "../src/dataset/formats.js";
import { createLabelContext, type LabelContext } from "../src/label/index.js";
import { createRenderer, type Renderer } from "../src/nl/index.js";
import { parseDomain, parseProblem } from "../src/pddl/index.js";
import { oneLine, STEP_SEPARATOR } from "../src/products/layout.js";
import type { ProcessBenchRow } from "../src/products/processbench.js";
import type { TrajectoryPairRow } from "../src/products/trajectories.js";
import type { VerifierRow } from "../src/products/verifier.js";
import { applyOp, findOperator, ground, isApplicable } from "../src/task/index.js";
import { Prng } from "../src/util/prng.js";
import { cand, config, ROOT } from "./pairs-helpers.js";

interface Fixture {
  name: string;
  domainFile: string;
  problemFile: string;
  /** The action whose effects are conditional. */
  conditional: string;
}

// Both domains have conditional effects: depot-lite's drive-to carries the cargo in the truck
// ("for every cargo C such that C is in truck2, ..."), lift's stop boards and serves passengers.
const FIXTURES: Fixture[] = [
  {
    name: "depot-lite",
    domainFile: join(ROOT, "tests", "fixtures", "nl", "user-domain.pddl"),
    problemFile: join(ROOT, "tests", "fixtures", "nl", "user-problem.pddl"),
    conditional: "(drive-to ",
  },
  {
    name: "lift-adl",
    domainFile: join(ROOT, "tests", "fixtures", "readability", "lift-domain.pddl"),
    problemFile: join(ROOT, "tests", "fixtures", "readability", "lift-p01.pddl"),
    conditional: "(stop ",
  },
];

const LIFTED = "for every ";

function jobOf(f: Fixture): ProblemJob {
  return {
    index: 0,
    domainName: f.name,
    domainFile: f.domainFile,
    domainText: readFileSync(f.domainFile, "utf8"),
    problemId: "p01",
    problemFile: f.problemFile,
    problemText: readFileSync(f.problemFile, "utf8"),
    split: "test",
    builtinTemplates: null,
    templatesFile: null,
  };
}

function rows<T>(f: Fixture, format: Format, seed: number): T[] {
  const r = runJob(jobOf(f), { ...config(format, 1.0, seed), samplesPerState: 12 });
  if (r.skipped !== null) throw new Error(`skipped: ${r.skipped}`);
  return r.lines.map((l) => JSON.parse(l) as T);
}

/** A fresh task, labelling context and renderer (no nl.json: generic text, as the job has it). */
function setup(f: Fixture): { ctx: LabelContext; renderer: Renderer } {
  const d = parseDomain(readFileSync(f.domainFile, "utf8"), f.domainFile);
  const task = ground(d, parseProblem(readFileSync(f.problemFile, "utf8"), f.problemFile, d));
  return { ctx: createLabelContext(task), renderer: createRenderer(task, null) };
}

/**
 * The state each action of a chain is taken in, replayed here from the PDDL alone: a
 * non-executable action leaves the state unchanged. Also which actions were rejected.
 */
function judgedStates(ctx: LabelContext, actions: readonly string[]): { states: Uint32Array[]; rejected: boolean[] } {
  const task = ctx.task;
  let s = task.init;
  const states: Uint32Array[] = [];
  const rejected: boolean[] = [];
  for (const a of actions) {
    states.push(s);
    const c = cand(ctx, a);
    const op = findOperator(task, c.schema, c.args).find((o) => isApplicable(task, s, o));
    rejected.push(op === undefined);
    if (op !== undefined) s = applyOp(task, s, op);
  }
  return { states, rejected };
}

/** What the checks of one fixture saw. */
interface Seen {
  chains: number;
  /** Steps of the conditional action after a rejected step in their chain. */
  afterRejected: number;
}

/**
 * Check one chain: no step is lifted, and every step is the renderer's text in the state it is
 * judged in, drawn from `prng` in order (so a step's text does not depend on whether the chain
 * is right: only on the step, its state and the draws).
 */
function checkChain(f: Fixture, ctx: LabelContext, renderer: Renderer, steps: string[], actions: string[], prng: Prng, flat: boolean, seen: Seen): void {
  expect(steps).toHaveLength(actions.length);
  const { states, rejected } = judgedStates(ctx, actions);
  const firstRejected = rejected.indexOf(true);
  seen.chains++;
  actions.forEach((a, i) => {
    expect(steps[i], `${a} at step ${i + 1}`).not.toContain(LIFTED);
    const expected = renderer.step(i + 1, cand(ctx, a), prng, states[i]);
    expect(steps[i], `${a} at step ${i + 1}`).toBe(flat ? oneLine(expected) : expected);
    if (firstRejected >= 0 && i > firstRejected && a.startsWith(f.conditional)) seen.afterRejected++;
  });
}

describe.each(FIXTURES)("chain formats render every step in its judged state: $name", (f) => {
  const { ctx, renderer } = setup(f);

  it("processbench: right and wrong chains alike, conditional effects as they fire", () => {
    const seen: Seen = { chains: 0, afterRejected: 0 };
    // (as many seeds as verifier: half the chains stop short, so fewer steps follow a rejected one)
    for (const seed of Array.from({ length: 24 }, (_, i) => i + 1)) {
      for (const r of rows<ProcessBenchRow>(f, "processbench", seed)) {
        const prng = new Prng(seed, r.id);
        renderer.prompt(prng);
        checkChain(f, ctx, renderer, r.steps, r.meta.actions, prng, false, seen);
      }
    }
    expect(seen.chains).toBeGreaterThan(0);
    expect(seen.afterRejected).toBeGreaterThan(0);
  });

  it("verifier: the proposed solution's steps, right and wrong chains alike", () => {
    const seen: Seen = { chains: 0, afterRejected: 0 };
    // more seeds than processbench: half the chain pairs stop short, so fewer steps follow a rejected one
    for (const seed of Array.from({ length: 24 }, (_, i) => i + 1)) {
      for (const r of rows<VerifierRow>(f, "verifier", seed)) {
        const prompt = r.prompt as string;
        const steps = prompt.split("\n\nProposed solution:\n")[1]!.split("\n\n")[0]!.split("\n");
        // the row's draws: the steps, then the prompt
        checkChain(f, ctx, renderer, steps, r.meta.actions, new Prng(seed, r.id), true, seen);
      }
    }
    expect(seen.chains).toBeGreaterThan(0);
    expect(seen.afterRejected).toBeGreaterThan(0);
  });

  it("trajectories: chosen and rejected sides alike", () => {
    const seen: Seen = { chains: 0, afterRejected: 0 };
    for (const seed of [1, 2, 3, 4]) {
      for (const r of rows<TrajectoryPairRow>(f, "trajectories", seed)) {
        // the row's draws: the perturbation's fork, the side shown first, the prompt, then the steps
        const prng = new Prng(seed, r.id);
        prng.fork("perturb");
        prng.next();
        renderer.prompt(prng);
        for (const side of ["chosen", "rejected"] as const) {
          const steps = (r[side] as string).split(STEP_SEPARATOR);
          checkChain(f, ctx, renderer, steps, r[`${side}_actions`], prng, true, seen);
        }
      }
    }
    expect(seen.chains).toBeGreaterThan(0);
    expect(seen.afterRejected).toBeGreaterThan(0);
  });
});
