/** Plan files (Fast Downward format) and plan validation against a ground task. */
import { UserError } from "../pddl/errors.js";
import { explainAction, explainGoal, findOperator, resolveGroundAction } from "./explain.js";
import { applyOp, isApplicable, isGoal } from "./state.js";
import type { GroundTask } from "./types.js";

/**
 * Parse a plan file: one `(action args)` per line (several per line are accepted), `;` starts
 * a comment, case-insensitive. Returns normalised actions, e.g. "(pick-up a)".
 */
export function parsePlan(text: string): string[] {
  const out: string[] = [];
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    let line = lines[i]!;
    const semi = line.indexOf(";");
    if (semi >= 0) line = line.slice(0, semi);
    line = line.trim();
    if (!line) continue;
    const re = /\(([^()]*)\)/g;
    let rest = line;
    let m: RegExpExecArray | null;
    while ((m = re.exec(line)) !== null) {
      const parts = m[1]!.trim().toLowerCase().split(/\s+/).filter(Boolean);
      if (parts.length === 0) throw new UserError(`plan line ${i + 1}: empty action '()'`);
      out.push("(" + parts.join(" ") + ")");
      rest = rest.replace(m[0], "");
    }
    if (rest.trim()) throw new UserError(`plan line ${i + 1}: expected '(action args ...)', got '${lines[i]!.trim()}'`);
  }
  return out;
}

/** Result of `validatePlan` (DESIGN.md §10). */
export interface ValidationResult {
  valid: boolean;
  cost: number;
  steps: number;
  failure: null | { step: number; action: string; unsatisfied: string[] } | { step: number; unmet_goal: string[] };
}

/**
 * Execute `plan` (ground actions as text) from the initial state. Fails at the first step whose
 * action is unknown, ill-typed or not applicable (naming the false precondition literals), or
 * after the last step if the goal is not reached (naming the false goal literals). `cost` is the
 * cost of the executed prefix; `steps` the number of plan steps.
 */
export function validatePlan(task: GroundTask, plan: string[]): ValidationResult {
  let state = Uint32Array.from(task.init);
  let next = new Uint32Array(task.words);
  let cost = 0;
  for (let i = 0; i < plan.length; i++) {
    const action = plan[i]!;
    const r = resolveGroundAction(task, action);
    if ("error" in r) return { valid: false, cost, steps: plan.length, failure: { step: i + 1, action, unsatisfied: [r.error] } };
    let op = -1;
    for (const v of findOperator(task, r.schema, r.args))
      if (isApplicable(task, state, v)) {
        op = v;
        break;
      }
    if (op < 0) {
      const e = explainAction(task, state, r.schema, r.args);
      const unsatisfied = e.failed.length ? e.failed : ["(precondition)"];
      return { valid: false, cost, steps: plan.length, failure: { step: i + 1, action, unsatisfied } };
    }
    applyOp(task, state, op, next);
    [state, next] = [next, state];
    cost += task.opCost[op]!;
  }
  if (!isGoal(task, state)) {
    const unmet = explainGoal(task, state);
    return { valid: false, cost, steps: plan.length, failure: { step: plan.length + 1, unmet_goal: unmet.length ? unmet : ["(goal)"] } };
  }
  return { valid: true, cost, steps: plan.length, failure: null };
}
