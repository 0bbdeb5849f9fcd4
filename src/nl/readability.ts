/**
 * Readability checks for rendered text (DESIGN.md §13 "Generic text"): no PDDL syntax leaks
 * (`?x`, "holds for", "is true", raw hyphenated or underscored names other than object names),
 * and every step's action clause starts with a verb. Used by the tests and by
 * `bench/readability.ts`, which runs them over a whole corpus.
 */
import type { Candidate, Category, LabeledStep } from "../label/types.js";
import { REWARD } from "../label/types.js";
import { operatorCandidate } from "../label/classify.js";
import { explainAction } from "../task/index.js";
import type { GroundTask } from "../task/types.js";
import { Prng } from "../util/prng.js";
import { canBeVerb } from "./lexicon.js";
import { createRenderer } from "./renderer.js";
import type { NlTemplates } from "./templates.js";

// Hyphenated or underscored tokens ("lift-at", "on_table", "city-3-loc-1").
const RAW_TOKEN = /[A-Za-z0-9]+(?:[-_][A-Za-z0-9]+)+/g;

/** Faults of a piece of text; `objects` are the names that may keep their hyphens. */
export function readabilityFaults(text: string, objects: ReadonlySet<string>): string[] {
  const out: string[] = [];
  if (text.includes("?")) out.push(`contains '?': ${around(text, text.indexOf("?"))}`);
  for (const bad of ["holds for", "does not hold for", "is true", "is false"]) {
    const i = text.indexOf(bad);
    if (i >= 0) out.push(`contains '${bad}': ${around(text, i)}`);
  }
  for (const m of text.matchAll(RAW_TOKEN)) {
    if (!objects.has(m[0].toLowerCase())) out.push(`raw PDDL token '${m[0]}': ${around(text, m.index)}`);
  }
  if (/[{}]/.test(text)) out.push("leftover brace");
  if (/\b(undefined|NaN|null)\b/.test(text)) out.push("undefined/NaN/null");
  return out;
}

/** The action clause of a step ("drive truck-1 from l1 to l2"), or null when there is none. */
export function actionClause(step: string): string | null {
  const body = step.replace(/^\s*Step \d+:\s*/, "");
  const m = /(?:^|, )I ([^.]+)\./.exec(body);
  return m === null ? null : m[1]!;
}

/** Faults of a rendered step: the text faults plus a missing verb at the head of the action clause. */
export function stepFaults(step: string, objects: ReadonlySet<string>): string[] {
  const out = readabilityFaults(step, objects);
  const clause = actionClause(step);
  if (clause === null) out.push(`no action clause: ${step.slice(0, 80)}`);
  else {
    const first = clause.split(" ")[0]!;
    if (!canBeVerb(first)) out.push(`action clause does not start with a verb: "I ${clause}"`);
  }
  return out;
}

function around(text: string, i: number): string {
  return JSON.stringify(text.slice(Math.max(0, i - 30), i + 40));
}

/** What `checkTask` found. */
export interface TaskTextReport {
  /** Texts checked (prompts, steps, critiques). */
  checked: number;
  /** Ground actions whose step text did not parse back to them. */
  roundTripFailures: string[];
  /** Readability faults, each prefixed with where it was found. */
  faults: string[];
}

/**
 * Render a task's prompt, a step for every ground action (in the initial state, so conditional
 * effects are concrete, and without a state) and a critique of each kind, and check them all:
 * readability faults, a verb in every action clause, and the exact text -> action round trip.
 */
export function checkTask(task: GroundTask, templates: NlTemplates | null, seed = 1): TaskTextReport {
  const r = createRenderer(task, templates);
  const objects = new Set(task.objects.map((o) => o.toLowerCase()));
  const rep: TaskTextReport = { checked: 0, roundTripFailures: [], faults: [] };
  const check = (where: string, faults: string[]): void => {
    rep.checked++;
    for (const f of faults) rep.faults.push(`${where}: ${f}`);
  };
  for (let v = 0; v < 4; v++) check(`prompt ${v}`, readabilityFaults(r.prompt(new Prng(seed, `prompt/${v}`)), objects));
  const seen = new Set<string>();
  const categories: Category[] = ["optimal", "suboptimal", "backtracking", "dead-end", "non-executable"];
  for (let op = 0; op < task.numOps; op++) {
    const name = task.opNames[op]!;
    if (seen.has(name)) continue;
    seen.add(name);
    const c: Candidate = operatorCandidate(task, op);
    const prng = new Prng(seed, name);
    for (const state of [task.init, undefined]) {
      const text = r.step(1, c, prng, state);
      check(name, stepFaults(text, objects));
      const back = r.parseStep(text);
      if (back === null || back.schema !== c.schema || back.args.join() !== c.args.join()) rep.roundTripFailures.push(`${name}: ${text}`);
    }
    const category = categories[op % categories.length]!;
    const step: LabeledStep = {
      problem: task.problem.name,
      stateIndex: 0,
      prefix: [],
      prefixOps: [],
      candidate: c,
      category,
      reward: REWARD[category],
      evidence: {
        failedPreconditions: category === "non-executable" ? explainAction(task, task.init, c.schema, c.args).failed : [],
        hBefore: category === "dead-end" || category === "non-executable" ? null : 12,
        hAfter: category === "dead-end" || category === "non-executable" ? null : category === "optimal" ? 11 : 13,
        extraCost: category === "suboptimal" || category === "backtracking" ? 2 : null,
        cost: category === "non-executable" ? null : task.opCost[op]!,
        backtrackTo: category === "backtracking" ? 0 : null,
        deadEnd: category === "dead-end" ? { kind: "exhaustive", states: 42 } : null,
      },
      planLength: 10,
      candidateIndex: 0,
    };
    check(`critique of ${name}`, readabilityFaults(r.critique(step, prng), objects));
  }
  // Type-correct groundings that are not operators of the task (non-executable candidates).
  const prng = new Prng(seed, "random");
  for (let i = 0; i < 30 && task.domain.actions.length > 0; i++) {
    const schema = prng.int(task.domain.actions.length);
    const args: number[] = [];
    for (const p of task.domain.actions[schema]!.params) {
      const ok: number[] = [];
      for (let o = 0; o < task.objects.length; o++) if (p.types.some((t) => task.objectTypes[o]!.includes(t))) ok.push(o);
      if (ok.length === 0) break;
      args.push(prng.pick(ok));
    }
    if (args.length !== task.domain.actions[schema]!.params.length) continue;
    const c: Candidate = { schema, args, name: `(${[task.domain.actions[schema]!.name, ...args.map((a) => task.objects[a]!)].join(" ")})`, op: -1 };
    const text = r.step(2, c, prng, task.init);
    check(c.name, stepFaults(text, objects));
    const back = r.parseStep(text);
    if (back === null || back.schema !== schema || back.args.join() !== args.join()) rep.roundTripFailures.push(`${c.name}: ${text}`);
  }
  return rep;
}
