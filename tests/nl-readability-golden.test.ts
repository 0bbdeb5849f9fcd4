/**
 * Golden generic text of the IPC-style fixtures (tests/fixtures/readability): the prompt, an
 * optimal plan as steps (each rendered in the state it is taken in, as rows are), and one
 * labelled candidate per category with its critique. Regenerate with
 * `UPDATE_GOLDEN=1 npx vitest run tests/nl-readability-golden`, then read the diff.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { labelProblemAll } from "../src/label/index.js";
import type { Category } from "../src/label/types.js";
import { createRenderer } from "../src/nl/index.js";
import { applyOp, isApplicable, isGoal } from "../src/task/index.js";
import { Prng } from "../src/util/prng.js";
import { opCand } from "./nl-helpers.js";
import { FIXTURE_DOMAINS, READ_FIXTURES, readabilityTask } from "./readability-helpers.js";

const UPDATE = process.env["UPDATE_GOLDEN"] === "1";
const ORDER: Category[] = ["optimal", "suboptimal", "backtracking", "dead-end", "non-executable"];

/** The golden text of one fixture. */
export function readabilityExample(name: string): string {
  const task = readabilityTask(name);
  const r = createRenderer(task, null);
  const prng = new Prng(1, name);
  const steps = labelProblemAll(task, { problemId: name, seed: 1, samplesPerState: 8 });
  const plan = steps.reduce((a, s) => (s.prefixOps.length > a.length ? s.prefixOps : a), [] as number[]);
  const states = [task.init];
  for (const op of plan) states.push(applyOp(task, states[states.length - 1]!, op));
  const last = states[states.length - 1]!;
  let lastOp = -1;
  for (let op = 0; op < task.numOps && lastOp < 0; op++) if (isApplicable(task, last, op) && isGoal(task, applyOp(task, last, op))) lastOp = op;
  const fullPlan = lastOp >= 0 ? [...plan, lastOp] : plan;
  const out: string[] = [`## ${name}`, "", `Problem: \`tests/fixtures/readability/${name}-p01.pddl\` (no nl.json: generic text).`, "", "### Prompt", "", "```text", r.prompt(prng), "```", ""];
  out.push("### An optimal plan, step by step", "", "```text");
  fullPlan.forEach((op, k) => out.push(r.step(k + 1, opCand(task, op), prng, states[k])));
  out.push("```", "", "### Candidate steps with their labels and critiques", "");
  for (const cat of ORDER) {
    const s = steps.find((x) => x.category === cat);
    if (s === undefined) continue;
    out.push(
      `**${cat}** (reward ${s.reward.toFixed(2)}), candidate \`${s.candidate.name}\` after ${s.stateIndex} step${s.stateIndex === 1 ? "" : "s"}:`,
      "",
      "```text",
      r.step(s.stateIndex + 1, s.candidate, prng, states[s.stateIndex]),
      `Critique: ${r.critique(s, prng)}`,
      "```",
      "",
    );
  }
  return out.join("\n");
}

describe("golden generic text of the IPC-style fixtures", () => {
  for (const name of FIXTURE_DOMAINS) {
    it(name, () => {
      const text = readabilityExample(name);
      const file = join(READ_FIXTURES, `${name}.txt`);
      if (UPDATE || !existsSync(file)) {
        if (!UPDATE) throw new Error(`${file} is missing: run with UPDATE_GOLDEN=1 and read it`);
        writeFileSync(file, text);
      }
      expect(text).toBe(readFileSync(file, "utf8"));
    });
  }
});
