import { describe, expect, it } from "vitest";
import { createRenderer, loadTemplates } from "../src/nl/index.js";
import { fill } from "../src/nl/text.js";
import { Prng } from "../src/util/prng.js";
import { DOMAINS, generatedTasks, opCand, randomCandidate } from "./nl-helpers.js";

const PROBLEMS = 20;

describe("round trip: every rendered step parses back to exactly its ground action", () => {
  for (const name of DOMAINS) {
    it(`${name}: every ground action of ${PROBLEMS} problems, every paraphrase, plus random groundings`, () => {
      const templates = loadTemplates(name)!;
      let checked = 0;
      for (const task of generatedTasks(name, PROBLEMS)) {
        const r = createRenderer(task, templates);
        // No two ground actions share a text: every paraphrase of every action, collected.
        const owner = new Map<string, string>();
        const seenAction = new Set<string>();
        for (let op = 0; op < task.numOps; op++) {
          const c = opCand(task, op);
          if (seenAction.has(c.name)) continue; // split variants of one action share a name
          seenAction.add(c.name);
          const phrases = c.args.map((a) => r.objectPhrase(a));
          for (const t of r.templates.actions.get(task.domain.actions[c.schema]!.name)!.text) {
            const text = fill(t, phrases);
            const prev = owner.get(text);
            if (prev !== undefined && prev !== c.name) throw new Error(`${task.problem.name}: "${text}" is both ${prev} and ${c.name}`);
            owner.set(text, c.name);
            // Every paraphrase parses, also inside a minimal step.
            expect(r.parseStep(`Step 9: I ${text}. Nothing changes.`), text).toEqual({ schema: c.schema, args: c.args });
          }
          // The full step, with several paraphrase draws.
          for (let s = 0; s < 2; s++) {
            const step = r.step(op + 1, c, new Prng(s, c.name));
            const back = r.parseStep(step);
            expect(back, step).toEqual({ schema: c.schema, args: c.args });
            checked++;
          }
        }
        // Non-executable candidates (any type-correct grounding) round-trip too.
        const prng = new Prng(5, task.problem.name);
        for (let i = 0; i < 50; i++) {
          const c = randomCandidate(task, prng);
          if (c === null) continue;
          const step = r.step(1, c, prng);
          expect(r.parseStep(step), step).toEqual({ schema: c.schema, args: c.args });
        }
      }
      expect(checked).toBeGreaterThan(0);
    });
  }

  it("rejects text that is not a step of the task", () => {
    const task = generatedTasks("blocksworld", 1)[0]!;
    const r = createRenderer(task, loadTemplates("blocksworld"));
    expect(r.parseStep("Step 1: I fly to the moon. Now nothing changes.")).toBeNull();
    expect(r.parseStep("")).toBeNull();
    expect(r.parseStep("Step 2: Since my hand is empty, I pick up block 99 from the table. Now I am holding it.")).toBeNull();
  });
});
