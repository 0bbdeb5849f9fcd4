/**
 * Golden text of one problem per domain: prompt, the optimal walk as steps, and one labelled
 * candidate (step + critique) per category the walk produced. Regenerate with
 * `UPDATE_GOLDEN=1 npx vitest run tests/nl-golden` (this also rewrites docs/examples.md), then
 * read the diff.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { labelProblemAll } from "../src/label/index.js";
import type { Category } from "../src/label/types.js";
import { createRenderer, loadTemplates } from "../src/nl/index.js";
import { applyOp, isApplicable, isGoal } from "../src/task/index.js";
import { Prng } from "../src/util/prng.js";
import { DOMAINS, FIXTURES, fixtureTask, opCand, ROOT } from "./nl-helpers.js";

const UPDATE = process.env["UPDATE_GOLDEN"] === "1";
const ORDER: Category[] = ["optimal", "suboptimal", "backtracking", "dead-end", "non-executable"];

function example(name: string): string {
  const task = fixtureTask(name);
  const r = createRenderer(task, loadTemplates(name));
  const prng = new Prng(1, name);
  const steps = labelProblemAll(task, { problemId: name, seed: 1, samplesPerState: 8 });
  const plan = steps.reduce((a, s) => (s.prefixOps.length > a.length ? s.prefixOps : a), [] as number[]);
  // The walk's last state is one step from the goal: any operator reaching the goal ends the plan.
  let s = task.init;
  for (const op of plan) s = applyOp(task, s, op);
  let lastOp = -1;
  for (let op = 0; op < task.numOps && lastOp < 0; op++) if (isApplicable(task, s, op) && isGoal(task, applyOp(task, s, op))) lastOp = op;
  const fullPlan = lastOp >= 0 ? [...plan, lastOp] : plan;
  const out: string[] = [];
  out.push(`## ${name}`, "", `Problem: \`tests/fixtures/nl/${name}.pddl\`.`, "", "### Prompt", "", "```text", r.prompt(prng), "```", "");
  out.push("### An optimal plan, step by step", "", "```text");
  fullPlan.forEach((op, k) => out.push(r.step(k + 1, opCand(task, op), prng)));
  out.push("```", "", "### Candidate steps with their labels and critiques", "");
  for (const cat of ORDER) {
    const s = steps.find((x) => x.category === cat);
    if (s === undefined) continue;
    out.push(
      `**${cat}** (reward ${s.reward.toFixed(2)}), candidate \`${s.candidate.name}\` after ${s.stateIndex} step${s.stateIndex === 1 ? "" : "s"}:`,
      "",
      "```text",
      r.step(s.stateIndex + 1, s.candidate, prng),
      `Critique: ${r.critique(s, prng)}`,
      "```",
      "",
    );
  }
  return out.join("\n");
}

describe("golden text, one problem per domain", () => {
  const all: string[] = [];
  for (const name of DOMAINS) {
    it(name, () => {
      const text = example(name);
      all.push(text);
      const file = join(FIXTURES, `${name}.txt`);
      if (UPDATE || !existsSync(file)) {
        if (!UPDATE) throw new Error(`${file} is missing: run with UPDATE_GOLDEN=1 and read it`);
        writeFileSync(file, text);
      }
      expect(text).toBe(readFileSync(file, "utf8"));
    });
  }
  if (UPDATE) {
    it("writes docs/examples.md", () => {
      const head = [
        "# Examples: one problem per built-in domain",
        "",
        "Generated from the golden files of `tests/nl-golden.test.ts` (`UPDATE_GOLDEN=1 npx vitest run tests/nl-golden`).",
        "Each example shows the prompt, an optimal plan rendered as reasoning steps, and one sampled",
        "candidate per label category with its critique. Labels come from the exact labeller",
        "(`labelProblemAll`, seed 1, 8 candidates per state); the text from `domains/<name>/nl.json`.",
        "A non-executable candidate is rendered with the claims it would make (that is what a wrong",
        "step looks like); the critique says which precondition is false. Paraphrases are drawn per",
        "row, so other rows of the same problem word the same facts differently.",
        "",
        "## Templates for your own domain",
        "",
        "Without templates, text is derived from the PDDL names (`(at truck1 loc2)` -> \"truck1 is at",
        "loc2\", `(on-table a)` -> \"a is on the table\", `(drive-to ?t ?from ?to)` -> \"drive truck1 from",
        "depot to loc1\"), and the prompt lists each action's conditions and effects (see the IPC",
        "examples at the end). For better text, start from `pddl2prm templates init --domain-file D",
        "--out nl.json` (the generic text as an editable file; docs/templates.md) or write an `nl.json`",
        "like `domains/blocksworld/nl.json` (validated by `NlJsonSchema` in `src/nl/schema.ts`; errors",
        "name the file, the key path and the bad placeholder):",
        "",
        "- `intro`: at least three paraphrases of the domain's rules in prose.",
        "- `types`: how objects are named: `noun`, `plural`, `phrase` with `{name}` and the named",
        "  groups of `match` (`\"match\": \"^f(?<n>\\\\d+)$\", \"phrase\": \"floor {n}\"` names `f3` \"floor 3\"),",
        "  `fallback` when `match` fails, `single` for the only object of its type (\"the ferry\").",
        "- `predicates`: per predicate, `true` and `false` paraphrases with placeholders named after the",
        "  predicate's parameters (`{x}` for `?x`), each using them all; optional `static` to list many",
        "  fixed facts compactly (`over`, `item`, `text`).",
        "- `actions`: per action, at least three what-I-do paraphrases (\"unstack {x} from {y}\"), each",
        "  using every parameter exactly once and no `.`, so every step parses back to its action.",
        "- `goal` (with `{goal}`) and `instruction`: paraphrases.",
        "",
        "Types an `nl.json` leaves out get generic nouns; a predicate or action it leaves out is an error",
        "unless `generate --generic-fallback` (then it gets the generic text).",
        "",
      ].join("\n");
      // The IPC before/after section at the end is written by hand from bench/text-example.js
      // output (the corpus is not shipped): keep it.
      const file = join(ROOT, "docs", "examples.md");
      const old = existsSync(file) ? readFileSync(file, "utf8") : "";
      const mark = old.indexOf("<!-- generic text on IPC domains");
      writeFileSync(file, head + "\n" + all.join("\n") + (mark >= 0 ? "\n" + old.slice(mark) : ""));
    });
  }
});
