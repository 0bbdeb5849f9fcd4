/**
 * Critiques: why a step got its label, written from the label's evidence (DESIGN.md §6) and
 * the states of the walk. Part of the renderer; kept apart because it is about labels, not
 * about predicates and actions.
 */
import type { LabeledStep } from "../label/types.js";
import { applyOp, findOperator, isApplicable, isGoal } from "../task/index.js";
import type { GroundTask } from "../task/types.js";
import type { Prng } from "../util/prng.js";
import { relaxedReach, unreachableGoals, type RelaxedReach } from "./relaxed-goals.js";
import { capitalize, countWord, joinList } from "./text.js";

/** What the critic needs from its renderer. */
export interface CriticContext {
  task: GroundTask;
  /** What-I-do text of an action with the row's paraphrase draw. */
  actionText(schema: number, args: ArrayLike<number>, prng: Prng | null): string;
  /**
   * A failed precondition literal ("(clear b)") said as what is true instead. The critic also
   * passes a negation ("(not (on a b))") to get the text of the fact itself ("a is on b").
   */
  failedText(lit: string): string;
  /** Why the quantified or disjunctive parts of a candidate's precondition are false in `state`. */
  formulaReasons(c: LabeledStep["candidate"], state: Uint32Array): string[];
  /** The state after the first `n` operators of `ops` (memoised by the renderer). */
  stateAfterPrefix(ops: readonly number[], n: number): Uint32Array;
  /**
   * The parts of the problem's goal (its top-level conjuncts, as text) that a relaxed reach shows
   * unreachable: for a goal compiled into a derived fact, whose own fact has no sentence.
   */
  goalPartsUnreachable(reach: RelaxedReach): string[];
}

const unit = (n: number): string => `${countWord(n)} step${n === 1 ? "" : "s"}`;
const away = (n: number): string => `${countWord(n)} step${n === 1 ? "" : "s"} away`;

function sameState(a: Uint32Array, b: Uint32Array): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Each text once, in first-seen order. */
function unique(xs: readonly string[]): string[] {
  return xs.length < 2 ? [...xs] : [...new Set(xs)];
}

/** Goal facts named in a dead-end critique at most; the rest are counted. */
const MAX_NAMED_GOALS = 3;
/** Facts a dead-end critique names as lost for good at most (more: the relaxation's reason alone). */
const MAX_LOST = 3;
/** Facts lost for good that are looked at at most (each costs a relaxed reach). */
const MAX_LOST_TRIED = 16;

/** The critique function of a renderer. */
export function critic(ctx: CriticContext): (ls: LabeledStep, prng: Prng) => string {
  const { task, actionText, failedText, formulaReasons, stateAfterPrefix, goalPartsUnreachable } = ctx;

  // The walk index of the state the step is taken in, and the walk's state s_j: read off the
  // walk's states when the step carries them (a judged plan of any length: no per-step replay
  // or prefix key), else replayed from the prefix (memoised by the renderer).
  const here = (ls: LabeledStep): number => (ls.walkStates !== undefined ? ls.stateIndex : ls.prefixOps.length);
  const stateAt = (ls: LabeledStep, j: number): Uint32Array => {
    const w = ls.walkStates?.[j];
    return w !== undefined ? w : stateAfterPrefix(ls.prefixOps, j);
  };

  // The state the walk is in (s) and the candidate's successor (s'), or null when the candidate
  // is not executable there. The operator is the applicable variant of the candidate's action,
  // as the labeller picks it (variants of a split disjunction share the action).
  const states = (ls: LabeledStep): { s: Uint32Array; next: Uint32Array } | null => {
    const c = ls.candidate;
    try {
      const s = stateAt(ls, here(ls));
      let op = c.op >= 0 && isApplicable(task, s, c.op) ? c.op : -1;
      if (op < 0) for (const o of findOperator(task, c.schema, c.args)) if (op < 0 && isApplicable(task, s, o)) op = o;
      if (op < 0) return null;
      return { s, next: applyOp(task, s, op) };
    } catch {
      return null;
    }
  };

  // Dead ends proved by the relaxation: the goal conditions it shows unreachable from s', as
  // text: goal facts that can never become true, or false for a negated goal, and for a goal
  // compiled into a derived fact (a quantified or disjunctive goal) the goal's own conjuncts.
  const goalFactText = (f: number, pos: boolean): string => {
    const name = task.factNames[f]!;
    const lit = pos ? `(not ${name})` : name;
    const t = failedText(lit); // the text of a false negation: the fact itself; of a false fact: its negation
    return t === lit ? (pos ? name : `not ${name}`) : t;
  };
  // (the text depends on s' only: the last one is kept, by its content, for the candidates of a
  // state and the steps of a plan that stays in a dead end)
  let lastDeadEnd: { s: Uint32Array | null; next: Uint32Array | null; text: string | null; lost: string | null } | null = null;
  const deadEndTexts = (ls: LabeledStep): { text: string | null; lost: string | null } => {
    const st = states(ls);
    if (
      lastDeadEnd !== null &&
      (st === null
        ? lastDeadEnd.next === null
        : lastDeadEnd.next !== null && lastDeadEnd.s !== null && sameState(lastDeadEnd.next, st.next) && sameState(lastDeadEnd.s, st.s))
    ) {
      return lastDeadEnd;
    }
    let text: string | null = null;
    let lost: string | null = null;
    if (st !== null) {
      const reach = relaxedReach(task, st.next);
      const goals = unreachableGoals(task, reach);
      let items = [
        ...goals.pos.filter((f) => task.factDerived[f] === 0).map((f) => goalFactText(f, true)),
        ...goals.neg.filter((f) => task.factDerived[f] === 0).map((f) => goalFactText(f, false)),
      ];
      if (items.length === 0 && goals.pos.some((f) => task.factDerived[f] === 1)) items = goalPartsUnreachable(reach);
      items = unique(items);
      if (items.length > 0) {
        // (one left over is named, not counted: "and one more" hid a goal that one clause says)
        const named = items.slice(0, items.length === MAX_NAMED_GOALS + 1 ? items.length : MAX_NAMED_GOALS).map((t) => `that ${t}`);
        const more = items.length - named.length;
        if (more > 0) named.push(`${countWord(more)} more`);
        text = `${items.length === 1 ? "the goal condition" : "the goal conditions"} ${joinList(named)} could not be reached from there`;
        lost = lostFactsText(st.s, st.next, reach, goals);
      }
    }
    lastDeadEnd = { s: st?.s ?? null, next: st?.next ?? null, text, lost };
    return lastDeadEnd;
  };
  const unreachableGoalsText = (ls: LabeledStep): string | null => deadEndTexts(ls).text;

  // What the step lost for good (issue 51: readers asked for the concrete reason, not only the
  // relaxation's): the facts it made false (or true) that no sequence of actions makes true (false)
  // again, when giving them back is enough for the relaxation to reach every goal condition it
  // shows lost. Null when there is no such set of at most MAX_LOST facts. Said beside the
  // relaxation's reason, never as the cause ("so"): that they are needed is the relaxation's
  // view only (lunar lockout: a ship that can never come back to a cell the optimal walk also
  // leaves, round 13).
  const lostFactsText = (s: Uint32Array, next: Uint32Array, reach: RelaxedReach, goals: { pos: number[]; neg: number[] }): string | null => {
    const has = (x: Uint32Array, f: number): boolean => ((x[f >>> 5]! >>> (f & 31)) & 1) === 1;
    const deleted: number[] = [];
    const added: number[] = [];
    for (let f = 0; f < task.numFacts; f++) {
      if (task.factDerived[f] === 1) continue;
      const before = has(s, f);
      const after = has(next, f);
      if (before && !after && reach.pos[f] === 0) deleted.push(f);
      else if (!before && after && reach.neg[f] === 0) added.push(f);
    }
    if (deleted.length + added.length === 0 || deleted.length + added.length > MAX_LOST_TRIED) return null;
    // given back: `keep` of them (deleted first, then added)
    const lost = [...deleted, ...added];
    const enough = (keep: readonly boolean[]): boolean => {
      const back = next.slice();
      lost.forEach((f, i) => {
        if (!keep[i]) return;
        if (i < deleted.length) back[f >>> 5]! |= 1 << (f & 31);
        else back[f >>> 5]! &= ~(1 << (f & 31));
      });
      const r = relaxedReach(task, back);
      return !goals.pos.some((g) => r.pos[g] === 0) && !goals.neg.some((g) => r.neg[g] === 0);
    };
    const keep = lost.map(() => true);
    if (!enough(keep)) return null;
    // a set none of whose facts can be left out (in order: one such set, not the smallest)
    for (let i = 0; i < keep.length; i++) {
      keep[i] = false;
      if (!enough(keep)) keep[i] = true;
    }
    const named = lost.map((f, i) => (!keep[i] ? null : i < deleted.length ? goalFactText(f, false) : goalFactText(f, true))).filter((t): t is string => t !== null);
    if (named.length === 0 || named.length > MAX_LOST) return null;
    return `after this step ${joinList(unique(named))}, which no action can undo`;
  };

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
        const all = lits.map(failedText);
        if (lits.length < ev.failedPreconditions.length) {
          let s: Uint32Array | null;
          try {
            s = stateAt(ls, here(ls));
          } catch {
            s = null;
          }
          if (s !== null) all.push(...formulaReasons(c, s));
        }
        const reasons = unique(all);
        const r = reasons.length > 0 ? joinList(reasons) : "its precondition does not hold";
        if (v === 0) return `This step is invalid: I cannot ${act} now, because ${r}.`;
        if (v === 1) return `The step is not possible here: ${r}, so I cannot ${act}.`;
        return `Wrong step. It is impossible to ${act} in this state, since ${r}.`;
      }
      case "dead-end": {
        // An exhaustive proof names the goal conditions too when the relaxation shows them
        // unreachable (a goal compiled into a derived fact is out of h^max's sight).
        let why: string;
        if (ev.deadEnd?.kind === "exhaustive") {
          const named = unreachableGoalsText(ls);
          // (the states a complete search examined: fewer than every reachable state, since it
          // prunes those the relaxation proves hopeless and the grounder drops facts that never matter)
          why = `an exhaustive search from there (${ev.deadEnd.states} states examined) finds no way to the goal${named !== null ? `: even if no action ever undid anything, ${named}` : ""}`;
        } else {
          const t = deadEndTexts(ls);
          why = t.text === null ? "even if no action ever undid anything, some goal condition could not be reached from there" : t.lost !== null ? `${t.lost}, and even if no action ever undid anything, ${t.text}` : `even if no action ever undid anything, ${t.text}`;
        }
        if (v === 0) return `This step is a dead end: once I ${act}, the goal can no longer be reached, because ${why}.`;
        if (v === 1) return `If I ${act}, the goal becomes unreachable: ${why}.`;
        return `This ruins the task: once I ${act}, there is no way to reach the goal any more, since ${why}.`;
      }
      case "backtracking": {
        const j = ev.backtrackTo ?? 0;
        const where = j === 0 ? "the initial state" : `the state after step ${j}`;
        // s' = s (a step that changes nothing), s' = s_j (an exact return), or s' is new and
        // every optimal plan from it comes back through s_j.
        let loop = false;
        let exact = false;
        const st = here(ls) >= j ? states(ls) : null;
        if (st !== null) {
          loop = sameState(st.next, st.s);
          try {
            exact = !loop && sameState(st.next, stateAt(ls, j));
          } catch {
            exact = false;
          }
        }
        const extra = ev.extraCost !== null && ev.extraCost > 0 ? (task.hasCosts ? `, which adds ${ev.extraCost} to the total cost` : `, which wastes ${unit(ev.extraCost)}`) : "";
        if (loop) {
          if (v === 0) return `This step changes nothing: if I ${act}, the state stays exactly as it is${extra}.`;
          if (v === 1) return `This step is wasted: if I ${act}, nothing changes${extra}.`;
          const waste = task.hasCosts ? (ev.cost !== null ? `its cost of ${ev.cost}` : "its cost") : "a step";
          return `Not useful. If I ${act}, nothing changes, so the step only wastes ${waste}.`;
        }
        if (exact) {
          const lead = `if I ${act}, I am back in ${where}`;
          if (v === 0) return `This step undoes progress: ${lead}${extra}.`;
          if (v === 1) return `This goes backwards: ${lead}${extra}.`;
          return `Not useful. ${capitalize(lead)}${extra}, so the step only undoes what was done.`;
        }
        // Nothing was undone: the step leads off to a new state, and the way on from there
        // comes back through a state of the walk.
        const lead = `if I ${act}, every optimal plan from there has to pass through ${where} again`;
        if (v === 0) return `This step leads astray: ${lead}${extra}.`;
        if (v === 1) return `This step is a detour that has to come back: ${lead}${extra}.`;
        return `Not useful. ${capitalize(lead)}${extra}, so the step only leads away and back again.`;
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
        // h*(s') = 0 is the goal only without zero-cost actions: check s' itself.
        let atGoal = false;
        if (ha === 0) {
          const st = states(ls);
          atGoal = st === null || isGoal(task, st.next);
        }
        if (atGoal) {
          if (v === 0) return `This step is correct: when I ${act}, the goal is reached.`;
          if (v === 1) return `Correct: to ${act} completes the goal.`;
          return `Good step. Once I ${act}, every goal condition holds.`;
        }
        const tail = ha === 0 ? " The goal does not hold yet after it, but the rest of the way to it costs nothing." : "";
        const detail =
          hb !== null && ha !== null
            ? task.hasCosts
              ? hb === ha
                ? ha === 0
                  ? `this step costs ${ev.cost ?? 0}`
                  : `this step costs ${ev.cost ?? 0} and the cost still to pay for the goal stays at ${ha}`
                : `the cost still to pay for the goal drops from ${hb} to ${ha}${ev.cost !== null ? `, exactly this step's cost of ${ev.cost}` : ""}`
              : ha === 0
                ? "it starts an optimal plan"
                : `the goal goes from ${away(hb)} to ${away(ha)}`
            : "it starts an optimal plan";
        if (v === 0) return `This step is correct and on an optimal plan: when I ${act}, ${detail}.${tail}`;
        if (v === 1) return `Good step: to ${act} makes full progress, since ${detail}.${tail}`;
        return `Correct. It is optimal to ${act} here: ${detail}.${tail}`;
      }
    }
  };
}
