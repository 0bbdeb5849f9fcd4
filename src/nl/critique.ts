/**
 * Critiques: why a step got its label, written from the label's evidence (DESIGN.md §6) and
 * the states of the walk. Part of the renderer; kept apart because it is about labels, not
 * about predicates and actions.
 */
import type { LabeledStep } from "../label/types.js";
import { applyOp } from "../task/index.js";
import type { GroundTask } from "../task/types.js";
import type { Prng } from "../util/prng.js";
import { capitalize, countWord, joinList } from "./text.js";

/** What the critic needs from its renderer. */
export interface CriticContext {
  task: GroundTask;
  /** What-I-do text of an action with the row's paraphrase draw. */
  actionText(schema: number, args: ArrayLike<number>, prng: Prng | null): string;
  /** A failed precondition literal ("(clear b)") said as what is true instead. */
  failedText(lit: string): string;
  /** Why the quantified or disjunctive parts of a candidate's precondition are false after `prefix`. */
  formulaReasons(c: LabeledStep["candidate"], prefix: readonly number[]): string[];
  /** The state after the first `n` operators of `ops` (memoised by the renderer). */
  stateAfterPrefix(ops: readonly number[], n: number): Uint32Array;
}

const unit = (n: number): string => `${countWord(n)} step${n === 1 ? "" : "s"}`;
const away = (n: number): string => `${countWord(n)} step${n === 1 ? "" : "s"} away`;

function sameState(a: Uint32Array, b: Uint32Array): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** The critique function of a renderer. */
export function critic(ctx: CriticContext): (ls: LabeledStep, prng: Prng) => string {
  const { task, actionText, failedText, formulaReasons, stateAfterPrefix } = ctx;
  return (ls: LabeledStep, prng: Prng): string => {
    const c = ls.candidate;
    const ev = ls.evidence;
    const act = actionText(c.schema, c.args, prng);
    // Pick the paraphrase first, then build only that string (this runs once per row).
    const v = prng.int(3);
    switch (ls.category) {
      case "non-executable": {
        // Failed literals say what is true instead; a failed quantified or disjunctive
        // condition is explained by the ground facts that make it false in this state.
        const lits = ev.failedPreconditions.filter((l) => !/^\(\s*(and|or|not\s*\(\s*(and|or|exists|forall|imply)|exists|forall|imply)\b/i.test(l));
        const reasons = lits.map(failedText);
        if (lits.length < ev.failedPreconditions.length) reasons.push(...formulaReasons(c, ls.prefixOps));
        const r = reasons.length > 0 ? joinList(reasons) : "its precondition does not hold";
        if (v === 0) return `This step is invalid: I cannot ${act} now, because ${r}.`;
        if (v === 1) return `The step is not possible here: ${r}, so I cannot ${act}.`;
        return `Wrong step. It is impossible to ${act} in this state, since ${r}.`;
      }
      case "dead-end": {
        const why =
          ev.deadEnd?.kind === "exhaustive"
            ? `exploring all ${ev.deadEnd.states} states reachable from there finds no way to the goal`
            : "even if no action ever undid anything, some goal condition could not be reached from there";
        if (v === 0) return `This step is a dead end: once I ${act}, the goal can no longer be reached, because ${why}.`;
        if (v === 1) return `If I ${act}, the goal becomes unreachable: ${why}.`;
        return `This ruins the task: once I ${act}, there is no way to reach the goal any more, since ${why}.`;
      }
      case "backtracking": {
        const j = ev.backtrackTo ?? 0;
        const where = j === 0 ? "the initial state" : `the state after step ${j}`;
        let exact = false;
        if (c.op >= 0 && ls.prefixOps.length >= j) {
          try {
            const s = stateAfterPrefix(ls.prefixOps, ls.prefixOps.length);
            exact = sameState(applyOp(task, s, c.op), stateAfterPrefix(ls.prefixOps, j));
          } catch {
            exact = false;
          }
        }
        const extra = ev.extraCost !== null && ev.extraCost > 0 ? (task.hasCosts ? `, which adds ${ev.extraCost} to the total cost` : `, which wastes ${unit(ev.extraCost)}`) : "";
        const lead = exact
          ? `if I ${act}, I am back in ${where}`
          : `if I ${act}, every optimal plan from there has to pass through ${where} again`;
        if (v === 0) return `This step undoes progress: ${lead}${extra}.`;
        if (v === 1) return `This goes backwards: ${lead}${extra}.`;
        return `Not useful. ${capitalize(lead)}${extra}, so the step only undoes what was done.`;
      }
      case "suboptimal": {
        const hb = ev.hBefore;
        const ha = ev.hAfter;
        const x = ev.extraCost ?? 0;
        if (task.hasCosts) {
          const own = ev.cost !== null ? ` and the step itself costs ${ev.cost}` : "";
          const detail = hb !== null && ha !== null ? ` Before it, the cheapest way to the goal costs ${hb}; after it, the rest of the way costs ${ha}${own}.` : "";
          if (v === 0) return `This step is possible and the goal stays reachable, but it is a detour: to ${act} makes the cheapest plan ${x} more expensive.${detail}`;
          if (v === 1) return `The step works but is not optimal: after I ${act}, the best plan costs ${x} more.${detail}`;
          return `A valid but wasteful step: I can ${act}, yet it adds ${x} to the total cost of the cheapest plan.${detail}`;
        }
        const detail =
          hb !== null && ha !== null ? ` Before it, the goal is ${away(hb)}; after it, it is ${ha === hb ? "still " : ""}${away(ha)}.` : "";
        if (v === 0) return `This step is possible and the goal stays reachable, but it is a detour: to ${act} costs ${unit(x)} more than an optimal plan.${detail}`;
        if (v === 1) return `The step works but is not optimal: after I ${act}, the best plan is longer by ${unit(x)}.${detail}`;
        return `A valid but wasteful step: I can ${act}, yet it adds ${unit(x)} to the shortest plan.${detail}`;
      }
      case "optimal": {
        const hb = ev.hBefore;
        const ha = ev.hAfter;
        if (ha === 0) {
          if (v === 0) return `This step is correct: when I ${act}, the goal is reached.`;
          if (v === 1) return `Correct: to ${act} completes the goal.`;
          return `Good step. Once I ${act}, every goal condition holds.`;
        }
        const detail =
          hb !== null && ha !== null
            ? task.hasCosts
              ? `the cost still to pay for the goal drops from ${hb} to ${ha}${ev.cost !== null ? `, exactly this step's cost of ${ev.cost}` : ""}`
              : `the goal goes from ${away(hb)} to ${away(ha)}`
            : "it starts an optimal plan";
        if (v === 0) return `This step is correct and on an optimal plan: when I ${act}, ${detail}.`;
        if (v === 1) return `Good step: to ${act} makes full progress, since ${detail}.`;
        return `Correct. It is optimal to ${act} here: ${detail}.`;
      }
    }
  };
}
