/**
 * Reasoning questions with exact answers at the states of the walk (`--format acp`,
 * docs/reasoning.md): eight kinds (applicability, progression, reachability, action
 * reachability, validation, justification, landmarks, next action), each as yes/no, a choice of
 * four, or a free answer. Answers come from `engine.ts`; a yes/no question is asked only where
 * both answers are on offer, and each problem asks as many yes as no of each kind; the
 * distractors of a choice are of the same kind as its answer (actions of the walk's candidates,
 * facts of the same predicates), and options are shuffled.
 */
import { hstar } from "../label/context.js";
import type { LabeledStep } from "../label/types.js";
import type { Renderer } from "../nl/index.js";
import { LimitError } from "../search/types.js";
import { applyOp, hasFact, isApplicable, isGoal } from "../task/state.js";
import { Prng } from "../util/prng.js";
import type { ProductInput } from "../products/chains.js";
import { trainerPrompt } from "../products/layout.js";
import { actionReachable, applicableOps, factsReachable, isLandmark, Mutexes, progression, replay, validPlan, type Proof, type SearchBudget } from "./engine.js";

export const ACP_KINDS = ["applicability", "progression", "reachability", "action-reachability", "validation", "justification", "landmarks", "next-action"] as const;
export type AcpKind = (typeof ACP_KINDS)[number];
export const ACP_FORMS = ["yes-no", "choice", "free"] as const;
export type AcpForm = (typeof ACP_FORMS)[number];

/** The structured gold answer a free answer is graded against (PDDL names, step numbers). */
export interface AcpGold {
  /** yes/no: the answer; choice: the letter. */
  answer: string;
  /** Free answers: every right answer (an action, a fact, a step number as text) ... */
  accept: string[] | null;
  /** ... or the exact set to list (applicability, progression: "+fact" / "-fact"; letters; step numbers). */
  set: string[] | null;
}

/** One question row. */
export interface AcpRow {
  id: string;
  domain: string;
  problem: string;
  split: string;
  kind: AcpKind;
  form: AcpForm;
  /** The problem statement, the current state, and the question (ACPBench's layout: question, choices, answer). */
  question: string;
  /** A choice's four options (null otherwise). */
  choices: string[] | null;
  /** The answer as text: "yes"/"no", "A".."D", or the free answer written out. */
  answer: string;
  /** TRL's prompt-completion layout of the same: the question and a newline, the answer. */
  prompt: string;
  completion: string;
  meta: {
    state_index: number;
    proof: Proof;
    gold: AcpGold;
    /** States searched for the proof (0: none needed). */
    states: number;
    /**
     * What the question asks about, in the order shown, in PDDL: actions ("(stack a b)"), facts,
     * fact pairs ("(on a b) & (on c d)"), step numbers ("3", "3+4" for two steps); empty for a
     * question about a whole state or plan.
     */
    items: string[];
    /** The walk's actions before the state the question is asked in (PDDL, from the initial state). */
    prefix: string[];
    /** The action of a progression question (PDDL), else null. */
    action: string | null;
    /** The plan of a validation or justification question (PDDL, from the current state), else null. */
    plan: string[] | null;
    seed: number;
  };
}

/** What one problem's questions need: a labelled problem, as the products get it, and the budget of one proof search. */
export interface AcpInput extends Omit<ProductInput, "threshold"> {
  maxStates: number;
}

const LETTERS = ["A", "B", "C", "D"];
/**
 * Wall-clock guard of one question's proofs. The budget that decides is the states each search
 * may visit (`AcpInput.maxStates`, the same on every machine); the guard only stops a question
 * that would run far longer, and where it does the output depends on the machine, as with
 * `--time-limit`.
 */
const QUESTION_MS = 10_000;

/** The problem statement: the prompt without its closing instruction (the last paragraph, a planning task). */
function statement(r: Renderer, prng: Prng): string {
  const p = r.prompt(prng);
  const cut = p.lastIndexOf("\n\n");
  return cut < 0 ? p : p.slice(0, cut);
}

/** The questions of one problem, in a seeded order of states and kinds. */
export function buildAcp(input: AcpInput): AcpRow[] {
  const { task, renderer } = input;
  const base = `${input.domain}/${input.problem}`;
  const prng = new Prng(input.seed, `${base}/acp`);
  const mutex = new Mutexes(task);
  const rows: AcpRow[] = [];
  const L = input.planOps.length;
  // one budget per question, shared by its proofs: a question whose proofs run out is not asked
  let budgetOf: SearchBudget = { maxStates: input.maxStates, deadline: 0 };
  const budget = (): SearchBudget => budgetOf;
  const act = (op: number, p: Prng): string => renderer.actionText(task.opSchema[op]!, task.opArgs.subarray(task.opArgStart[op]!, task.opArgStart[op + 1]!), p);
  const fact = (f: number, p: Prng): string => renderer.factText(f, true, p);
  const candidatesAt = new Map<number, LabeledStep[]>();
  for (const st of input.steps) if ((st.branch ?? 0) === 0) candidatesAt.set(st.stateIndex, [...(candidatesAt.get(st.stateIndex) ?? []), st]);
  const isGoalState = (x: Uint32Array): boolean => isGoal(task, x);
  const schemaOf = (op: number): string => String(task.opSchema[op]);
  // items never name an object twice: "(on a a)" is a fact of the ground task that no state
  // reaches, and its text alone would answer for it (the audit's repeated-object rule)
  const distinct = (xs: ArrayLike<number>): boolean => new Set(Array.from(xs)).size === xs.length;
  const plainFact = (f: number): boolean => !task.factDerived[f] && distinct(task.factArgs.subarray(task.factArgStart[f]!, task.factArgStart[f + 1]!));
  const plainOp = (o: number): boolean => distinct(task.opArgs.subarray(task.opArgStart[o]!, task.opArgStart[o + 1]!));
  const predicateOf = (f: number): string => task.factPredicate[f]!;
  /** Facts of the same predicates as `f` (distractors of its kind). */
  const sameKind = (f: number): number[] => {
    const out: number[] = [];
    for (let g = 0; g < task.numFacts; g++) if (g !== f && task.factPredicate[g] === task.factPredicate[f]) out.push(g);
    return out;
  };

  // yes/no answers alternate per kind from a seeded start, and a kind's odd last one is dropped:
  // every problem asks as many yes as no of each kind (a coin per question leaves domains at 40/60)
  const start = new Map(ACP_KINDS.map((kd) => [kd, new Prng(input.seed, `${base}/acp/${kd}`).next() < 0.5]));
  const asked = new Map<AcpKind, number>(ACP_KINDS.map((kd) => [kd, 0]));
  let want = true;
  for (let k = 0; k < L; k++) {
    const s = input.planStates[k]!;
    const here = candidatesAt.get(k) ?? [];
    const context = (p: Prng): string => `${statement(renderer, p)}\n\nThe current state: ${renderer.describeState(s)}.`;
    for (const kind of ACP_KINDS) {
      const id = `${base}/t${String(k).padStart(2, "0")}/${kind}`;
      const p = new Prng(input.seed, id);
      const form = ACP_FORMS[p.int(3)]!;
      budgetOf = { maxStates: input.maxStates, deadline: performance.now() + QUESTION_MS };
      want = start.get(kind)! === (asked.get(kind)! % 2 === 0);
      let q: Q | null;
      try {
        q = ask(kind, form, k, s, here, p);
      } catch (e) {
        // an h* query past the labeller's limits: this question is not asked, the others are
        if (!(e instanceof LimitError)) throw e;
        q = null;
      }
      if (q === null) continue;
      if (form === "yes-no") asked.set(kind, asked.get(kind)! + 1);
      const text = q.text.replace(/\s+$/, "");
      let question = `${context(p)}\n\n${text}`;
      let choices: string[] | null = null;
      if (form === "choice") {
        choices = q.options!;
        question += `\n${choices.map((c, i) => `${LETTERS[i]}. ${c}`).join("\n")}\nAnswer with the letter of the right option.`;
      } else if (form === "yes-no") question += `${text.includes("\n") ? "\n" : " "}Answer yes or no.`;
      rows.push({
        id: `${id}/${form}`,
        domain: input.domain,
        problem: input.problem,
        split: input.split,
        kind,
        form,
        question,
        choices,
        answer: q.gold.answer,
        prompt: trainerPrompt(question),
        completion: q.gold.answer,
        meta: {
          state_index: k,
          proof: q.proof,
          gold: q.gold,
          states: q.states,
          items: (q.about ?? []).map((x) => keyOf(kind, x)),
          prefix: input.planOps.slice(0, k).map((o) => task.opNames[o]!),
          action: q.action === undefined ? null : task.opNames[q.action]!,
          plan: q.plan === undefined ? null : q.plan.map((o) => task.opNames[o]!),
          seed: input.seed,
        },
      });
    }
  }
  for (const kind of ACP_KINDS) {
    if (asked.get(kind)! % 2 === 0) continue;
    let at = -1;
    rows.forEach((r, i) => (r.kind === kind && r.form === "yes-no" ? (at = i) : 0));
    rows.splice(at, 1);
  }
  return rows;

  /** An item of a question of `kind` in PDDL (see `meta.items`). */
  function keyOf(kind: AcpKind, x: unknown): string {
    switch (kind) {
      case "applicability":
      case "action-reachability":
      case "next-action":
        return task.opNames[x as number]!;
      case "progression":
      case "landmarks":
      case "reachability":
        return task.factNames[x as number]!;
      case "validation":
        return String((x as number) + 1);
      case "justification":
        return (x as number[]).map((i) => i + 1).join("+");
    }
  }

  /** One question of `kind` in `form` at state `s` (null: not askable here). */
  function ask(kind: AcpKind, form: AcpForm, k: number, s: Uint32Array, here: LabeledStep[], p: Prng): Q | null {
    switch (kind) {
      case "applicability": {
        const app = new Set(applicableOps(task, s));
        const yes = here.filter((c) => c.candidate.op >= 0 && app.has(c.candidate.op)).map((c) => c.candidate.op);
        const no = here.filter((c) => c.candidate.op >= 0 && !app.has(c.candidate.op)).map((c) => c.candidate.op);
        if (form === "free") {
          const set = [...app].map((o) => task.opNames[o]!).sort();
          return { text: "List every action I can take in the current state, one per line.", gold: { answer: [...app].map((o) => act(o, p)).join("\n"), accept: null, set }, proof: "state", states: 0 };
        }
        return yesNoOrChoice(form, p, yes, no, (o) => act(o, p), (o) => `Can I ${act(o, p)} in the current state?`, "Which of these actions can I take in the current state?", "state", schemaOf, want);
      }
      case "progression": {
        const app = here.filter((c) => c.candidate.op >= 0 && isApplicable(task, s, c.candidate.op)).map((c) => c.candidate.op);
        if (app.length === 0) return null;
        const op = p.pick(app);
        const { added, deleted, next } = progression(task, s, op);
        if (form === "free") {
          const set = [...added.map((f) => `+${task.factNames[f]!}`), ...deleted.map((f) => `-${task.factNames[f]!}`)].sort();
          const said = [added.length > 0 ? `Becomes true: ${added.map((f) => fact(f, p)).join("; ")}.` : "Nothing becomes true.", deleted.length > 0 ? `Becomes false: ${deleted.map((f) => fact(f, p)).join("; ")}.` : "Nothing becomes false."].join("\n");
          return { text: `If I ${act(op, p)}, which facts become true and which become false?`, gold: { answer: said, accept: null, set }, proof: "effects", states: 0, action: op };
        }
        // facts changed by the step or of the same predicates, true or false after it
        const pool = [...new Set([...added, ...deleted, ...added.flatMap(sameKind), ...deleted.flatMap(sameKind)])].filter(plainFact);
        const yes = pool.filter((f) => hasFact(next, f));
        const no = pool.filter((f) => !hasFact(next, f));
        const q = yesNoOrChoice(form, p, yes, no, (f) => fact(f, p), (f) => `If I ${act(op, p)}, will it be true afterwards that ${fact(f, p)}?`, `If I ${act(op, p)}, which of these will be true afterwards?`, "effects", predicateOf, want);
        return q && { ...q, action: op };
      }
      case "reachability": {
        // facts false now: reachable ones (a later state of the plan, or a search, proves it)
        // against ones this state has cut off (the relaxation or an exhaustive search proves it).
        // Never a mutex pair: "the man at two places" is no in every state, so its text alone
        // would answer it.
        const pool: number[] = [];
        for (let f = 0; f < task.numFacts; f++) if (!hasFact(s, f) && plainFact(f)) pool.push(f);
        const proved = new Map<number, { answer: boolean; proof: Proof; states: number }>();
        const yes: number[] = [];
        const no: number[] = [];
        for (const f of p.shuffle(pool).slice(0, 12)) {
          const r = factsReachable(task, s, [f], mutex, budget());
          if (r === null) continue;
          proved.set(f, r);
          (r.answer ? yes : no).push(f);
        }
        return provedQuestion(form, p, yes, no, (f) => proved.get(f)!, (f) => fact(f, p), (f) => `From the current state, can it become true that ${fact(f, p)}?`, "Which of these can still become true, from the current state?", "List the options that can still become true from the current state, one letter per line.", (f) => task.factNames[f]!, false, predicateOf, want);
      }
      case "action-reachability": {
        const ops: number[] = [];
        for (let o = 0; o < task.numOps; o++) if (!isApplicable(task, s, o) && plainOp(o)) ops.push(o);
        const yes: number[] = [];
        const no: number[] = [];
        const proved = new Map<number, { answer: boolean; proof: Proof; states: number }>();
        for (const o of p.shuffle(ops).slice(0, 12)) {
          const r = actionReachable(task, s, o, mutex, budget());
          // a mutex proof holds in every state (the action can never be taken): its text alone would answer it
          if (r === null || r.proof === "mutex") continue;
          proved.set(o, r);
          (r.answer ? yes : no).push(o);
        }
        return provedQuestion(form, p, yes, no, (o) => proved.get(o)!, (o) => act(o, p), (o) => `From the current state, can I ever ${act(o, p)}?`, "Which of these actions can I still take at some point, from the current state?", "List the options I can still take at some point from the current state, one letter per line.", (o) => task.opNames[o]!, false, schemaOf, want);
      }
      case "validation": {
        const rest = input.planOps.slice(k);
        if (rest.length === 0) return null;
        // a wrong plan: step j replaced by a near miss not applicable where it is taken
        const j = p.int(rest.length);
        let st = s;
        for (let i = 0; i < j; i++) st = applyOp(task, st, rest[i]!);
        const miss = nearMiss(st, p);
        if (miss < 0) return null;
        const bad = [...rest];
        bad[j] = miss;
        const planText = (ops: number[]): string => ops.map((o, i) => `${i + 1}. ${act(o, p)}`).join("\n");
        if (form === "yes-no") {
          const ops = want ? rest : bad;
          return { text: `Starting from the current state, is this a valid plan (every step possible in turn, and the goal reached at the end)?\n${planText(ops)}\n`, gold: { answer: validPlan(task, s, ops) ? "yes" : "no", accept: null, set: null }, proof: "replay", states: 0, plan: ops };
        }
        const at = replay(task, s, bad).firstFailure;
        if (form === "free") return { text: `Starting from the current state, which is the first step of this plan that cannot be taken? Answer with its number.\n${planText(bad)}\n`, gold: { answer: String(at + 1), accept: [String(at + 1)], set: null }, proof: "replay", states: 0, plan: bad };
        if (bad.length < 4) return null;
        // four consecutive steps around the wrong one, it at a drawn place among them: its number says nothing
        const from = Math.max(0, Math.min(bad.length - 4, at - p.int(4)));
        const nums = [at, ...[0, 1, 2, 3].map((i) => from + i).filter((i) => i !== at)];
        const q = choice(p, nums, (i) => `step ${i + 1}`, `Starting from the current state, which is the first step of this plan that cannot be taken?\n${planText(bad)}`, "replay");
        return q && { ...q, plan: bad };
      }
      case "justification": {
        // a valid plan with a detour: an executable step off the optimal plans, then an optimal
        // plan from where it leads; asked about single steps and adjacent pairs
        // the detour at a drawn place m of the rest of the plan, so the steps to remove are anywhere
        const m = p.int(L - k);
        const at = input.planStates[k + m]!;
        const detours = (candidatesAt.get(k + m) ?? []).filter((c) => c.candidate.op >= 0 && isApplicable(task, at, c.candidate.op) && c.category !== "optimal" && c.category !== "dead-end");
        if (detours.length === 0) return null;
        const d = p.pick(detours).candidate.op;
        const tail = optimalFrom(applyOp(task, at, d));
        if (tail === null) return null;
        const ops = [...input.planOps.slice(k, k + m), d, ...tail];
        const without = (cut: number[]): number[] => ops.filter((_, i) => !cut.includes(i));
        const removable = (cut: number[]): boolean => validPlan(task, s, without(cut));
        const cuts: number[][] = [...ops.map((_, i) => [i]), ...ops.slice(1).map((_, i) => [i, i + 1])];
        const yes = cuts.filter(removable);
        const no = cuts.filter((c) => !removable(c));
        const say = (c: number[]): string => (c.length === 1 ? `step ${c[0]! + 1}` : `steps ${c[0]! + 1} and ${c[1]! + 1}`);
        const planText = ops.map((o, i) => `${i + 1}. ${act(o, p)}`).join("\n");
        const lead = `Starting from the current state, this plan reaches the goal:\n${planText}\n`;
        const q = provedQuestion(
          form,
          p,
          yes,
          no,
          (c) => ({ answer: removable(c), proof: "replay", states: 0 }),
          say,
          (c) => `${lead}Can ${say(c)} be removed, the plan staying valid?`,
          `${lead}Which of these can be removed, the plan staying valid?`,
          `${lead}List the options that can be removed, each on its own, the plan staying valid, one letter per line.`,
          (c) => c.map((i) => i + 1).join("+"),
          false,
          (c) => String(c.length),
          want,
        );
        return q && { ...q, plan: ops };
      }
      case "landmarks": {
        const goal = new Set(task.goalPos);
        const pool: number[] = [];
        for (let f = 0; f < task.numFacts; f++) if (!hasFact(s, f) && !goal.has(f) && plainFact(f)) pool.push(f);
        const sample = p.shuffle(pool).slice(0, 8);
        const proved = new Map<number, { answer: boolean; proof: Proof; states: number }>();
        const yes: number[] = [];
        const no: number[] = [];
        for (const f of sample) {
          const r = isLandmark(task, s, f, budget());
          if (r === null) continue;
          proved.set(f, r);
          (r.answer ? yes : no).push(f);
        }
        return provedQuestion(form, p, yes, no, (f) => proved.get(f)!, (f) => fact(f, p), (f) => `Must every plan from the current state make it true, at some point, that ${fact(f, p)}?`, "Which of these must every plan from the current state make true at some point?", "List the options every plan from the current state must make true at some point, one letter per line.", (f) => task.factNames[f]!, false, predicateOf, want);
      }
      case "next-action": {
        const h = hstar(input.ctx, s);
        const app = applicableOps(task, s);
        const optimal = app.filter((o) => task.opCost[o]! + hstar(input.ctx, applyOp(task, s, o)) === h);
        if (form === "free") {
          return { text: "Which action should I take next, to reach the goal at the lowest cost?", gold: { answer: act(optimal[0]!, p), accept: optimal.map((o) => task.opNames[o]!).sort(), set: null }, proof: "hstar", states: 0 };
        }
        const opt = new Set(optimal);
        return yesNoOrChoice(form, p, optimal, app.filter((o) => !opt.has(o)), (o) => act(o, p), (o) => `Is it optimal to ${act(o, p)} next (on a lowest-cost plan to the goal)?`, "Which of these actions should I take next, to reach the goal at the lowest cost?", "hstar", schemaOf, want);
      }
    }
  }

  /** An operator not applicable in `st`, from the walk's candidates at any state (-1: none). */
  function nearMiss(st: Uint32Array, p: Prng): number {
    const pool = input.steps.filter((c) => c.candidate.op >= 0 && !isApplicable(task, st, c.candidate.op)).map((c) => c.candidate.op);
    return pool.length === 0 ? -1 : p.pick(pool);
  }

  /** An optimal plan from `st` by the labeller's h* (descent along h* + cost), or null (a dead end, or a cycle of zero-cost steps). */
  function optimalFrom(st: Uint32Array): number[] | null {
    const out: number[] = [];
    const seen = new Set<string>();
    let cur = st;
    let h = hstar(input.ctx, cur);
    if (!Number.isFinite(h)) return null;
    while (h > 0 && !isGoalState(cur)) {
      const key = cur.join(",");
      if (seen.has(key)) return null;
      seen.add(key);
      const next = applicableOps(task, cur).find((o) => task.opCost[o]! + hstar(input.ctx, applyOp(task, cur, o)) === h);
      if (next === undefined) return null;
      out.push(next);
      cur = applyOp(task, cur, next);
      h = hstar(input.ctx, cur);
    }
    return out;
  }
}

interface Q {
  text: string;
  options?: string[];
  gold: AcpGold;
  proof: Proof;
  states: number;
  /** The items the question is about, in the order shown (for their proofs and `meta.items`). */
  about?: unknown[];
  /** The action of a progression question, the plan of a validation or justification question. */
  action?: number;
  plan?: number[];
}

/** A choice of four: the right item first in `items`, then three distractors; shuffled. */
function choice<T>(p: Prng, items: T[], say: (x: T) => string, text: string, proof: Proof): Q | null {
  if (items.length < 4) return null;
  const order = p.shuffle([0, 1, 2, 3]);
  const options = order.map((i) => say(items[i]!));
  return { text, options, gold: { answer: LETTERS[order.indexOf(0)]!, accept: null, set: null }, proof, states: 0, about: order.map((i) => items[i]!) };
}

/**
 * Yes/no (only where both answers exist; `want` picks which) or a choice (one right, three
 * wrong), over items of one `shape` (an action's schema, a fact's predicate) on both sides, so
 * that the schema or predicate asked about says nothing.
 */
function yesNoOrChoice<T>(form: AcpForm, p: Prng, yes: T[], no: T[], say: (x: T) => string, yesNo: (x: T) => string, choiceText: string, proof: Proof, shape: ((x: T) => string) | undefined, want: boolean): Q | null {
  if (shape !== undefined) {
    const need = form === "choice" ? 3 : 1;
    const shapes = [...new Set(yes.map(shape))].filter((sh) => new Set(no.filter((x) => shape(x) === sh)).size >= need).sort();
    if (shapes.length === 0) return null;
    const sh = p.pick(shapes);
    yes = yes.filter((x) => shape(x) === sh);
    no = no.filter((x) => shape(x) === sh);
  }
  if (form === "yes-no") {
    if (yes.length === 0 || no.length === 0) return null;
    const y = want;
    const x = p.pick(y ? yes : no);
    return { text: yesNo(x), gold: { answer: y ? "yes" : "no", accept: null, set: null }, proof, states: 0, about: [x] };
  }
  if (yes.length === 0 || new Set(no).size < 3) return null;
  return choice(p, [p.pick(yes), ...p.shuffle([...new Set(no)]).slice(0, 3)], say, choiceText, proof);
}

type Proved1 = { answer: boolean; proof: Proof; states: number } | null;

/**
 * The same over items whose answers were proved one by one (`prove`): `meta.proof` is the
 * strongest method among the proofs of the items asked about, `states` their searches. The free
 * form lists four options (one or two right) and asks for the right ones, graded as a set; with
 * `numbered` (steps of a plan shown in the question) it asks for every right number.
 */
function provedQuestion<T>(
  form: AcpForm,
  p: Prng,
  yes: T[],
  no: T[],
  prove: (x: T) => Proved1,
  say: (x: T) => string,
  yesNo: (x: T) => string,
  choiceText: string,
  freeText: string,
  key: (x: T) => string,
  numbered: boolean,
  shape: ((x: T) => string) | undefined,
  want: boolean,
): Q | null {
  const finish = (q: Q | null, about: T[]): Q | null => {
    if (q === null) return null;
    const ps = about.map(prove);
    return { ...q, proof: strongest(ps), states: ps.reduce((a, x) => a + (x?.states ?? 0), 0) };
  };
  if (form === "free") {
    if (numbered) {
      if (yes.length === 0) return null;
      const right = yes.map(key);
      return finish({ text: freeText, gold: { answer: right.join("\n"), accept: null, set: [...right].sort() }, proof: "state", states: 0 }, [...yes, ...no]);
    }
    if (shape !== undefined) {
      const shapes = [...new Set(yes.map(shape))].filter((sh) => no.filter((x) => shape(x) === sh).length >= 2).sort();
      if (shapes.length === 0) return null;
      const sh = p.pick(shapes);
      yes = yes.filter((x) => shape(x) === sh);
      no = no.filter((x) => shape(x) === sh);
    }
    if (yes.length === 0 || no.length < 2) return null;
    const nYes = 1 + p.int(Math.min(2, yes.length));
    const items = p.shuffle([...p.shuffle([...yes]).slice(0, nYes), ...p.shuffle([...no]).slice(0, 4 - nYes)]);
    if (items.length < 4) return null;
    const right = items.flatMap((x, i) => (yes.includes(x) ? [LETTERS[i]!] : []));
    return finish({ text: `${freeText}\n${items.map((x, i) => `${LETTERS[i]}. ${say(x)}`).join("\n")}`, gold: { answer: right.join("\n"), accept: null, set: right }, proof: "state", states: 0, about: items }, items);
  }
  const q = yesNoOrChoice(form, p, yes, no, say, yesNo, choiceText, "state", shape, want);
  return finish(q, (q?.about ?? []) as T[]);
}

/** The strongest method among a question's proofs, for `meta.proof`. */
function strongest(ps: Proved1[]): Proof {
  const order: Proof[] = ["search", "hstar", "relaxation", "mutex", "replay", "effects", "state"];
  for (const o of order) if (ps.some((x) => x?.proof === o)) return o;
  return "state";
}

/** One JSON line of a question row. */
export function acpLine(row: AcpRow): string {
  return JSON.stringify(row);
}
