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
import { hasFact, isGoal } from "../task/state.js";
import { Prng } from "../util/prng.js";
import type { ProductInput } from "../products/chains.js";
import { trainerPrompt } from "../products/layout.js";
import { landmarkFacts, pairReachable, simplifiedPlan, unreachableFacts } from "./open-ended.js";
import { actionReachable, Actions, depthsFrom, factsReachable, isLandmark, Mutexes, progression, replay, validPlan, type Depths, type Proof, type SearchBudget } from "./engine.js";

export const ACP_KINDS = ["applicability", "progression", "reachability", "action-reachability", "validation", "justification", "landmarks", "next-action", "unreachable-fact", "landmark-fact", "plan-simplification"] as const;
/** Open questions (issue 52): any of many answers is right, so only the free form asks them. */
export const OPEN_KINDS: ReadonlySet<AcpKind> = new Set(["unreachable-fact", "landmark-fact", "plan-simplification"]);
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
    /**
     * Reachability and action reachability within a number of steps (asked where the state has
     * cut nothing off of the kind: every item could be reached eventually), else null.
     */
    horizon: number | null;
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
/** The within-N-steps questions: at most this many steps, and states of their breadth-first search. */
const HORIZON_STEPS = 6;
const HORIZON_STATES = 20_000;
/** Open questions decide every fact: states of the one search for unreachable facts, and in all for landmarks. */
const OPEN_STATES = 50_000;
const OPEN_TOTAL_STATES = 400_000;
const steps = (n: number): string => (n === 1 ? "one step" : `${n} steps`);

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
  // one question per action as the user sees it: the operators of one name (the witnesses of an
  // existential precondition, the disjuncts of a disjunction) are one action, named by its
  // lowest operator id; it can be taken where any of them can
  const actions = new Actions(task);
  const canTake = (st: Uint32Array, a: number): boolean => actions.applicable(st, a);
  const take = (st: Uint32Array, a: number): Uint32Array => actions.apply(st, a);
  const applicableOps = (st: Uint32Array): number[] => actions.applicableIn(st);
  /** The actions of the walk's candidates at a state (distinct, in the order drawn). */
  const candidateActions = (cs: LabeledStep[]): number[] => [...new Set(cs.filter((c) => c.candidate.op >= 0).map((c) => actions.of[c.candidate.op]!))];
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
  // the form of a fact: its predicate and the types of its arguments ("package 3 is in truck 1"
  // against "... in airplane 1" differ in length by the type alone); distractors of the right
  // item's form first, of its predicate where no form offers enough
  const typesOf = (f: number): string => Array.from(task.factArgs.subarray(task.factArgStart[f]!, task.factArgStart[f + 1]!), (o) => task.objectTypes[o]!.join("|")).join(",");
  const factShapes: Shape<number>[] = [(f) => `${predicateOf(f)}/${typesOf(f)}`, predicateOf];
  /** Facts of the same predicates as `f` (distractors of its kind). */
  const sameKind = (f: number): number[] => {
    const out: number[] = [];
    for (let g = 0; g < task.numFacts; g++) if (g !== f && task.factPredicate[g] === task.factPredicate[f]) out.push(g);
    return out;
  };

  // yes/no answers alternate per kind from a seeded start, and a kind's odd last one gets a twin
  // (the other answer, at its state) or, failing that, is dropped: every problem asks as many
  // yes as no of each kind (a coin per question leaves domains at 40/60)
  const start = new Map(ACP_KINDS.map((kd) => [kd, new Prng(input.seed, `${base}/acp/${kd}`).next() < 0.5]));
  const asked = new Map<AcpKind, number>(ACP_KINDS.map((kd) => [kd, 0]));
  let want = true;
  /** One question of `kind` in `form` at the walk's state `k`, as a row (null: not askable there). */
  const rowAt = (kind: AcpKind, form: AcpForm, k: number, id: string, p: Prng): AcpRow | null => {
    const s = input.planStates[k]!;
    budgetOf = { maxStates: input.maxStates, deadline: performance.now() + QUESTION_MS };
    let q: Q | null;
    try {
      q = ask(kind, form, k, s, candidatesAt.get(k) ?? [], p);
    } catch (e) {
      // an h* query past the labeller's limits: this question is not asked, the others are
      if (!(e instanceof LimitError)) throw e;
      q = null;
    }
    if (q === null) return null;
    const text = q.text.replace(/\s+$/, "");
    let question = `${statement(renderer, p)}\n\nThe current state: ${renderer.describeState(s)}.\n\n${text}`;
    let choices: string[] | null = null;
    if (form === "choice") {
      choices = q.options!;
      question += `\n${choices.map((c, i) => `${LETTERS[i]}. ${c}`).join("\n")}\nAnswer with the letter of the right option.`;
    } else if (form === "yes-no") question += `${text.includes("\n") ? "\n" : " "}Answer yes or no.`;
    return {
      id,
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
        horizon: q.horizon ?? null,
        seed: input.seed,
      },
    };
  };
  for (let k = 0; k < L; k++) {
    for (const kind of ACP_KINDS) {
      const id = `${base}/t${String(k).padStart(2, "0")}/${kind}`;
      const p = new Prng(input.seed, id);
      const form = OPEN_KINDS.has(kind) ? "free" : ACP_FORMS[p.int(3)]!;
      want = start.get(kind)! === (asked.get(kind)! % 2 === 0);
      const row = rowAt(kind, form, k, `${id}/${form}`, p);
      if (row === null) continue;
      if (form === "yes-no") asked.set(kind, asked.get(kind)! + 1);
      rows.push(row);
    }
  }
  for (const kind of ACP_KINDS) {
    if (asked.get(kind)! % 2 === 0) continue;
    let at = -1;
    rows.forEach((r, i) => (r.kind === kind && r.form === "yes-no" ? (at = i) : 0));
    const last = rows[at]!;
    // the twin: the other answer at the same state (a kind this problem rarely offers, such as
    // justification in rooms, would otherwise never be asked as yes/no)
    want = last.answer !== "yes";
    const twin = rowAt(kind, "yes-no", last.meta.state_index, `${last.id}-2`, new Prng(input.seed, `${last.id}-2`));
    if (twin !== null && twin.answer === (want ? "yes" : "no")) rows.splice(at + 1, 0, twin);
    else rows.splice(at, 1);
  }
  return rows;

  /** An item of a question of `kind` in PDDL (see `meta.items`). */
  function keyOf(kind: AcpKind, x: unknown): string {
    switch (kind) {
      case "applicability":
      case "action-reachability":
      case "next-action":
        return task.opNames[x as number]!;
      case "reachability": {
        const pr = pairOf(x as number);
        return pr === null ? task.factNames[x as number]! : `${task.factNames[pr[0]]!} & ${task.factNames[pr[1]]!}`;
      }
      case "progression":
      case "landmarks":
        return task.factNames[x as number]!;
      case "validation":
        return String((x as number) + 1);
      case "justification":
        return (x as number[]).map((i) => i + 1).join("+");
      default:
        // open questions list no items
        return String(x);
    }
  }

  /** A pair of facts as one reachability item: ids from `numFacts` on (single facts below). */
  function pairId(a: number, b: number): number {
    return task.numFacts * (a + 1) + b;
  }
  function pairOf(x: number): [number, number] | null {
    return x < task.numFacts ? null : [Math.floor(x / task.numFacts) - 1, x % task.numFacts];
  }

  /**
   * Can two facts, each false now and each able to become true, hold at once in a state reached
   * from `s`? (ACPBench's reachability of a conjunction.) Pairs share an object, where clashes
   * live, or held together at an earlier state of the walk. Never asked: a pair ruled out by an
   * invariant (mutex), or a "no" pair that no state reachable from the initial state holds
   * ("block 1 on block 5 and block 5 on block 1"): its text alone would answer it. So a "no" is
   * one the walk's steps have made (the pair could hold before; one of its facts, or the two
   * together, can no longer). Yes by a later state of the walk or a search; no by the relaxation
   * or an exhaustive search; possible before by an earlier state of the walk or a search from
   * the initial state.
   */
  function conjunction(form: AcpForm, k: number, s: Uint32Array, pool: number[], p: Prng): Q | null {
    const objectsOf = (f: number): number[] => Array.from(task.factArgs.subarray(task.factArgStart[f]!, task.factArgStart[f + 1]!));
    const byObject = new Map<number, number[]>();
    for (const f of pool) for (const o of objectsOf(f)) byObject.set(o, [...(byObject.get(o) ?? []), f]);
    const pairs: number[] = [];
    const seen = new Set<number>();
    const inPool = new Set(pool);
    for (const [i, a] of p.shuffle([...pool]).slice(0, 32).entries()) {
      // half with an object in common, half any two facts (a clash made by the steps taken)
      const near = i % 2 === 0 ? [...new Set(objectsOf(a).flatMap((o) => byObject.get(o) ?? []))] : pool;
      if (near.length === 0) continue;
      add(a, p.pick(near));
    }
    // and pairs that held together at an earlier state of the walk: the steps since may have cut
    // them off together (a "no" the state decides)
    for (let t = 0; t < 8 && k > 0; t++) {
      const before = input.planStates[p.int(k)]!;
      const held = pool.filter((f) => hasFact(before, f));
      if (held.length >= 2) add(p.pick(held), p.pick(held));
    }
    function add(a: number, b: number): void {
      if (a === b || !inPool.has(a) || !inPool.has(b) || mutex.exclusive(a, b)) return;
      const id = pairId(Math.min(a, b), Math.max(a, b));
      if (!seen.has(id)) seen.add(id), pairs.push(id);
    }
    // proved: the earlier-state pairs first among the rest
    pairs.reverse();
    const later = input.planStates.slice(k + 1);
    const proved = new Map<number, { answer: boolean; proof: Proof; states: number }>();
    const yes: number[] = [];
    const no: number[] = [];
    for (const x of pairs.slice(0, 16)) {
      const [a, b] = pairOf(x)!;
      const r = pairReachable(task, s, a, b, later, mutex, budget());
      if (r === null || r.proof === "mutex") continue;
      if (!r.answer) {
        const before = pairReachable(task, task.init, a, b, input.planStates.slice(0, k), mutex, budget());
        if (before === null || !before.answer) continue;
      }
      proved.set(x, r);
      (r.answer ? yes : no).push(x);
    }
    const both = (x: number): [number, number] => pairOf(x)!;
    // the form of a pair: the forms of its two facts, in a fixed order
    const shapes: Shape<number>[] = factShapes.map((sh) => (x: number) => both(x).map(sh).sort().join(" & "));
    const say = (x: number): string => `${fact(both(x)[0], p)} and ${fact(both(x)[1], p)}`;
    return provedQuestion(
      form,
      p,
      yes,
      no,
      (x) => proved.get(x)!,
      say,
      (x) => `From the current state, can a state be reached where, at once, ${say(x)}?`,
      "Which of these pairs of facts can hold at once in some state reached from the current one?",
      "List the options that can hold at once in some state reached from the current one, one letter per line.",
      (x) => keyOf("reachability", x),
      false,
      shapes,
      want,
    );
  }

  /** One question of `kind` in `form` at state `s` (null: not askable here). */
  function ask(kind: AcpKind, form: AcpForm, k: number, s: Uint32Array, here: LabeledStep[], p: Prng): Q | null {
    switch (kind) {
      case "applicability": {
        const app = new Set(applicableOps(s));
        const yes = candidateActions(here).filter((a) => app.has(a));
        const no = candidateActions(here).filter((a) => !app.has(a));
        if (form === "free") {
          const set = [...app].map((o) => task.opNames[o]!).sort();
          return { text: "List every action I can take in the current state, one per line.", gold: { answer: [...app].map((o) => act(o, p)).join("\n"), accept: null, set }, proof: "state", states: 0 };
        }
        return yesNoOrChoice(form, p, yes, no, (o) => act(o, p), (o) => `Can I ${act(o, p)} in the current state?`, "Which of these actions can I take in the current state?", "state", schemaOf, want);
      }
      case "progression": {
        const app = candidateActions(here).filter((a) => canTake(s, a));
        if (app.length === 0) return null;
        const op = p.pick(app);
        const { added, deleted, next } = progression(task, s, op, actions);
        if (form === "free") {
          const set = [...added.map((f) => `+${task.factNames[f]!}`), ...deleted.map((f) => `-${task.factNames[f]!}`)].sort();
          const said = [added.length > 0 ? `Becomes true: ${added.map((f) => fact(f, p)).join("; ")}.` : "Nothing becomes true.", deleted.length > 0 ? `Becomes false: ${deleted.map((f) => fact(f, p)).join("; ")}.` : "Nothing becomes false."].join("\n");
          return { text: `If I ${act(op, p)}, which facts become true and which become false?`, gold: { answer: said, accept: null, set }, proof: "effects", states: 0, action: op };
        }
        // facts changed by the step or of the same predicates, true or false after it
        const pool = [...new Set([...added, ...deleted, ...added.flatMap(sameKind), ...deleted.flatMap(sameKind)])].filter(plainFact);
        const yes = pool.filter((f) => hasFact(next, f));
        const no = pool.filter((f) => !hasFact(next, f));
        const q = yesNoOrChoice(form, p, yes, no, (f) => fact(f, p), (f) => `If I ${act(op, p)}, will it be true afterwards that ${fact(f, p)}?`, `If I ${act(op, p)}, which of these will be true afterwards?`, "effects", factShapes, want);
        return q && { ...q, action: op };
      }
      case "reachability": {
        // facts false now: reachable ones (a later state of the plan, or a search, proves it)
        // against ones this state has cut off (the relaxation or an exhaustive search proves it).
        // Never a mutex pair: "the man at two places" is no in every state, so its text alone
        // would answer it.
        const pool: number[] = [];
        for (let f = 0; f < task.numFacts; f++) if (!hasFact(s, f) && plainFact(f)) pool.push(f);
        // a third of the time, two facts at once (on a stream of its own: where no pair question
        // can be asked, the single-fact question is the one asked without it)
        const pp = new Prng(input.seed, `${base}/t${k}/reachability/pair`);
        if (pp.int(3) === 0) {
          const c = conjunction(form, k, s, pool, pp);
          if (c !== null) return c;
        }
        const proved = new Map<number, { answer: boolean; proof: Proof; states: number }>();
        const yes: number[] = [];
        const no: number[] = [];
        for (const f of p.shuffle(pool).slice(0, 12)) {
          const r = factsReachable(task, s, [f], mutex, budget());
          if (r === null) continue;
          proved.set(f, r);
          (r.answer ? yes : no).push(f);
        }
        const q = provedQuestion(form, p, yes, no, (f) => proved.get(f)!, (f) => fact(f, p), (f) => `From the current state, can it become true that ${fact(f, p)}?`, "Which of these can still become true, from the current state?", "List the options that can still become true from the current state, one letter per line.", (f) => task.factNames[f]!, false, factShapes, want);
        if (q !== null) return q;
        // nothing cut off here (every step can be undone, say): within how many steps, which the state decides
        const d = depthsFrom(task, s, HORIZON_STEPS, { maxStates: Math.min(input.maxStates, HORIZON_STATES), deadline: budgetOf.deadline }, actions);
        if (d === null) return null;
        return withinSteps(form, p, pool, (f, n) => d.fact[f]! > 0 && d.fact[f]! <= n, 1, d, predicateOf, (f) => fact(f, p), (f) => task.factNames[f]!, (n) => ({
          yesNo: (f) => `From the current state, can it become true within ${steps(n)} that ${fact(f, p)}?`,
          choice: `Which of these can become true within ${steps(n)}, from the current state?`,
          free: `List the options that can become true within ${steps(n)} from the current state, one letter per line.`,
        }));
      }
      case "action-reachability": {
        const ops: number[] = [];
        for (const o of actions.all) if (!canTake(s, o) && plainOp(o)) ops.push(o);
        const yes: number[] = [];
        const no: number[] = [];
        const proved = new Map<number, { answer: boolean; proof: Proof; states: number }>();
        for (const o of p.shuffle(ops).slice(0, 12)) {
          const r = actionReachable(task, s, o, mutex, budget(), actions);
          // a mutex proof holds in every state (the action can never be taken): its text alone would answer it
          if (r === null || r.proof === "mutex") continue;
          proved.set(o, r);
          (r.answer ? yes : no).push(o);
        }
        const q = provedQuestion(form, p, yes, no, (o) => proved.get(o)!, (o) => act(o, p), (o) => `From the current state, can I ever ${act(o, p)}?`, "Which of these actions can I still take at some point, from the current state?", "List the options I can still take at some point from the current state, one letter per line.", (o) => task.opNames[o]!, false, schemaOf, want);
        if (q !== null) return q;
        const d = depthsFrom(task, s, HORIZON_STEPS, { maxStates: Math.min(input.maxStates, HORIZON_STATES), deadline: budgetOf.deadline }, actions);
        if (d === null) return null;
        // taken as one of the next n steps: applicable after at most n - 1 of them
        return withinSteps(form, p, ops, (o, n) => d.op[o]! > 0 && d.op[o]! <= n - 1, 2, d, schemaOf, (o) => act(o, p), (o) => task.opNames[o]!, (n) => ({
          yesNo: (o) => `From the current state, can I ${act(o, p)} as one of the next ${n} steps?`,
          choice: `Which of these actions can I take as one of the next ${n} steps, from the current state?`,
          free: `List the options I can take as one of the next ${n} steps from the current state, one letter per line.`,
        }));
      }
      case "validation": {
        const rest = input.planOps.slice(k);
        if (rest.length === 0) return null;
        // a wrong plan: step j replaced by a near miss not applicable where it is taken
        // a choice shows four consecutive step numbers: the window first, the wrong step in it, so
        // that every number shown is the wrong one 1 time in 4 (the wrong step drawn first, its
        // window clipped at the plan's ends, made "step 1" right 40% of the times it was shown)
        const from = form === "choice" && rest.length >= 4 ? p.int(rest.length - 3) : -1;
        const j = from >= 0 ? from + p.int(4) : p.int(rest.length);
        let st = s;
        for (let i = 0; i < j; i++) st = take(st, rest[i]!);
        const miss = nearMiss(st, p);
        if (miss < 0) return null;
        const bad = [...rest];
        bad[j] = miss;
        const planText = (ops: number[]): string => ops.map((o, i) => `${i + 1}. ${act(o, p)}`).join("\n");
        if (form === "yes-no") {
          const ops = want ? rest : bad;
          return { text: `Starting from the current state, is this a valid plan (every step possible in turn, and the goal reached at the end)?\n${planText(ops)}\n`, gold: { answer: validPlan(task, s, ops, actions) ? "yes" : "no", accept: null, set: null }, proof: "replay", states: 0, plan: ops };
        }
        const at = replay(task, s, bad, actions).firstFailure;
        if (form === "free") return { text: `Starting from the current state, which is the first step of this plan that cannot be taken? Answer with its number.\n${planText(bad)}\n`, gold: { answer: String(at + 1), accept: [String(at + 1)], set: null }, proof: "replay", states: 0, plan: bad };
        if (from < 0 || at < from || at > from + 3) return null;
        const nums = [at, ...[0, 1, 2, 3].map((i) => from + i).filter((i) => i !== at)];
        const q = choice(p, nums, (i) => `step ${i + 1}`, `Starting from the current state, which is the first step of this plan that cannot be taken?\n${planText(bad)}`, "replay");
        return q && { ...q, plan: bad };
      }
      case "justification": {
        const ops = detourPlan(k, p);
        if (ops === null) return null;
        const runs = (xs: number[]): number[][] => [1, 2, 3].flatMap((n) => xs.slice(n - 1).map((_, i) => Array.from({ length: n }, (__, j) => i + j)));
        const removableIn = (xs: number[], cut: number[]): boolean => validPlan(task, s, xs.filter((_, i) => !cut.includes(i)), actions);
        const plan = ops;
        const removable = (cut: number[]): boolean => removableIn(plan, cut);
        const cuts = runs(plan);
        const yes = cuts.filter(removable);
        const no = cuts.filter((c) => !removable(c));
        const say = (c: number[]): string => (c.length === 1 ? `step ${c[0]! + 1}` : c.length === 2 ? `steps ${c[0]! + 1} and ${c[1]! + 1}` : `steps ${c[0]! + 1} to ${c[c.length - 1]! + 1}`);
        const planText = plan.map((o, i) => `${i + 1}. ${act(o, p)}`).join("\n");
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
        return q && { ...q, plan };
      }
      case "landmarks": {
        // a landmark is made true on every plan, so on the walk's own plan from here: facts that
        // plan makes true are proved one by one (relaxation or search); the others are not
        // landmarks, the plan itself the proof. The distractors are drawn among the facts of a
        // landmark's form (every one the plan never makes true, with no search), so that four of
        // one predicate are found wherever the problem has them
        const goal = new Set(task.goalPos);
        const onPlan = new Uint8Array(task.numFacts);
        for (let i = k + 1; i <= L; i++) for (let f = 0; f < task.numFacts; f++) if (hasFact(input.planStates[i]!, f)) onPlan[f] = 1;
        const made: number[] = [];
        const off: number[] = [];
        for (let f = 0; f < task.numFacts; f++) if (!hasFact(s, f) && !goal.has(f) && plainFact(f)) (onPlan[f] === 1 ? made : off).push(f);
        const proved = new Map<number, { answer: boolean; proof: Proof; states: number }>();
        const yes: number[] = [];
        const no: number[] = [];
        const order = p.shuffle(made);
        const prove = (f: number): void => {
          const r = isLandmark(task, s, f, budget());
          if (r === null) return;
          proved.set(f, r);
          (r.answer ? yes : no).push(f);
        };
        order.slice(0, 8).forEach(prove);
        // then up to 8 more of the landmarks' predicates: in small problems the facts the plan
        // makes true without having to are most of the distractors of a landmark's form
        const wanted = new Set(yes.map(predicateOf));
        order.slice(8).filter((f) => wanted.has(predicateOf(f))).slice(0, 8).forEach(prove);
        for (const f of off) {
          proved.set(f, { answer: false, proof: "replay", states: 0 });
          no.push(f);
        }
        return provedQuestion(form, p, yes, no, (f) => proved.get(f)!, (f) => fact(f, p), (f) => `Must every plan from the current state make it true, at some point, that ${fact(f, p)}?`, "Which of these must every plan from the current state make true at some point?", "List the options every plan from the current state must make true at some point, one letter per line.", (f) => task.factNames[f]!, false, factShapes, want);
      }
      case "unreachable-fact": {
        // every fact false here decided (the gold lists every right answer), or no question;
        // asked where the state has cut off a fact with distinct objects, not only "(on a a)"
        const r = unreachableFacts(task, s, input.planStates.slice(k + 1, L + 1), { maxStates: Math.min(input.maxStates, OPEN_STATES), deadline: budgetOf.deadline }, actions);
        const plain = r?.facts.filter(plainFact) ?? [];
        if (r === null || plain.length === 0) return null;
        const text = "Name one fact that is false in the current state and can never become true, whatever is done from here. Answer with that fact alone.";
        return { text, gold: { answer: fact(p.pick(plain), p), accept: r.facts.map((f) => task.factNames[f]!).sort(), set: null }, proof: r.proof, states: r.states };
      }
      case "landmark-fact": {
        // the goal's own facts and facts true now are landmarks trivially (ACPBench asks for neither)
        const r = landmarkFacts(task, s, input.planStates.slice(k + 1, L + 1), budget(), OPEN_TOTAL_STATES);
        const plain = r?.facts.filter(plainFact) ?? [];
        if (r === null || plain.length === 0) return null;
        const text = "Name one fact that is false in the current state and is not part of the goal, but that every plan from the current state to the goal must make true at some point. Answer with that fact alone.";
        return { text, gold: { answer: fact(p.pick(plain), p), accept: r.facts.map((f) => task.factNames[f]!).sort(), set: null }, proof: r.proof, states: r.states };
      }
      case "plan-simplification": {
        // the justification question's plan; any valid plan obtained by removing steps is right
        // (graded by replay, as ACPBench's grader does), the gold's example removes what it can
        const plan = detourPlan(k, p);
        const simple = plan && simplifiedPlan(task, s, plan, actions);
        if (plan === null || simple === null) return null;
        const planText = plan.map((o, i) => `${i + 1}. ${act(o, p)}`).join("\n");
        const text = `Starting from the current state, this plan reaches the goal, but not every step of it is needed:\n${planText}\nGive a plan made by removing steps from it (the others kept in their order) that still reaches the goal, one step per line.`;
        return { text, gold: { answer: simple.map((o, i) => `${i + 1}. ${act(o, p)}`).join("\n"), accept: [simple.map((o) => task.opNames[o]!).join(" ")], set: null }, proof: "replay", states: 0, plan };
      }
      case "next-action": {
        const h = hstar(input.ctx, s);
        const app = applicableOps(s);
        const optimal = app.filter((o) => task.opCost[o]! + hstar(input.ctx, take(s, o)) === h);
        if (form === "free") {
          return { text: "Which action should I take next, to reach the goal at the lowest cost?", gold: { answer: act(optimal[0]!, p), accept: optimal.map((o) => task.opNames[o]!).sort(), set: null }, proof: "hstar", states: 0 };
        }
        const opt = new Set(optimal);
        const worse = app.filter((o) => !opt.has(o));
        const text = "Which of these actions should I take next, to reach the goal at the lowest cost?";
        if (form === "choice") {
          // an optimal step against steps of its schema: the others that can be taken here first,
          // then ones that cannot (a wrong choice either way, which the state tells)
          const sh = p.pick([...new Set(optimal.map(schemaOf))].sort());
          const near = p.shuffle(worse.filter((o) => schemaOf(o) === sh));
          const app1 = new Set(app);
          const idle: number[] = [];
          for (const o of actions.all) if (!app1.has(o) && schemaOf(o) === sh && plainOp(o)) idle.push(o);
          // steps that can be taken first (the pool's head), their length rank drawn as a distractor's
          const wrong = [...near, ...p.shuffle(idle)].slice(0, LENGTH_POOL);
          const ranked = wrong.length < 3 ? null : byLengthRank(p, optimal.filter((o) => schemaOf(o) === sh), wrong, (o) => act(o, p), true);
          return ranked && choice(p, ranked.items, ranked.say, text, "hstar");
        }
        return yesNoOrChoice(form, p, optimal, worse, (o) => act(o, p), (o) => `Is it optimal to ${act(o, p)} next (on a lowest-cost plan to the goal)?`, text, "hstar", schemaOf, want);
      }
    }
  }

  /**
   * The plan of a justification question at the walk's state `k`: the rest of the walk's plan
   * with a detour (or a loop) from which something can be removed, the plan staying valid.
   */
  function detourPlan(k: number, p: Prng): number[] | null {
    const s = input.planStates[k]!;
    // a valid plan with a detour: an executable step off the optimal plans, then an optimal
    // plan from where it leads; asked about single steps and adjacent pairs
    // the detour at a drawn place m of the rest of the plan, so the steps to remove are anywhere
    const m = p.int(L - k);
    const at = input.planStates[k + m]!;
    const detours = (candidatesAt.get(k + m) ?? []).filter((c) => c.candidate.op >= 0 && canTake(at, c.candidate.op) && c.category !== "optimal" && c.category !== "dead-end");
    const tail = detours.length === 0 ? null : ((d: number) => ((t) => t && [d, ...t])(optimalFrom(take(at, d))))(actions.of[p.pick(detours).candidate.op]!);
    const runs = (ops: number[]): number[][] => [1, 2, 3].flatMap((n) => ops.slice(n - 1).map((_, i) => Array.from({ length: n }, (__, j) => i + j)));
    const removableIn = (ops: number[], cut: number[]): boolean => validPlan(task, s, ops.filter((_, i) => !cut.includes(i)), actions);
    let ops = tail === null ? null : [...input.planOps.slice(k, k + m), ...tail];
    if (ops === null || !runs(ops).some((c) => removableIn(ops!, c))) {
      // no detour that leaves something to remove (a step off the plan that cannot be undone,
      // as in rooms): a loop of one to three steps after which the walk's own plan still works,
      // at the drawn place or, failing that, at up to seven others
      // then (where every step uses something up, as rooms' doors) a loop after which an
      // optimal plan from where it leads also works without it
      const places = [m, ...p.shuffle(Array.from({ length: L - k }, (_, i) => i).filter((i) => i !== m)).slice(0, 7)];
      ops = null;
      for (const replan of [false, true]) {
        for (const mm of places) {
          const found = loopAt(input.planStates[k + mm]!, input.planOps.slice(k + mm), replan, p);
          if (found !== null) {
            ops = [...input.planOps.slice(k, k + mm), ...found.loop, ...found.rest];
            break;
          }
          if (performance.now() > budgetOf.deadline) return null;
        }
        if (ops !== null) break;
      }
      if (ops === null) return null;
    }
    return ops;
  }

  /**
   * A question about items reached within n steps (drawn with their shape, among the n for which
   * both answers are on offer): reachability and action reachability where nothing is cut off.
   * `within(x, n)` reads the breadth-first depths `d`, exact up to `d.complete` steps.
   */
  function withinSteps<T>(
    form: AcpForm,
    p: Prng,
    items: T[],
    within: (x: T, n: number) => boolean,
    minN: number,
    d: Depths,
    shape: (x: T) => string,
    say: (x: T) => string,
    key: (x: T) => string,
    texts: (n: number) => { yesNo: (x: T) => string; choice: string; free: string },
  ): Q | null {
    const need = form === "choice" ? 3 : form === "free" ? 2 : 1;
    const maxN = Math.min(HORIZON_STEPS, d.complete);
    const byShape = new Map<string, T[]>();
    for (const x of items) byShape.set(shape(x), [...(byShape.get(shape(x)) ?? []), x]);
    const fits = new Map<string, number[]>();
    for (const sh of [...byShape.keys()].sort()) {
      const xs = byShape.get(sh)!;
      for (let n = minN; n <= maxN; n++) {
        const y = xs.filter((x) => within(x, n)).length;
        if (y >= 1 && xs.length - y >= need) fits.set(sh, [...(fits.get(sh) ?? []), n]);
      }
    }
    if (fits.size === 0) return null;
    const sh = p.pick([...fits.keys()]);
    const n = p.pick(fits.get(sh)!);
    const xs = byShape.get(sh)!;
    const t = texts(n);
    const q = provedQuestion(form, p, xs.filter((x) => within(x, n)), xs.filter((x) => !within(x, n)), (x) => ({ answer: within(x, n), proof: "search", states: 0 }), say, t.yesNo, t.choice, t.free, key, false, undefined, want);
    return q && { ...q, states: d.states, horizon: n };
  }

  /**
   * A sequence of one to three steps from `st` (a loop) followed by a plan that works with the
   * loop and without it: `rest` itself, or with `replan` an optimal plan from where the loop
   * leads. Drawn among the shortest loops; null if there is none.
   */
  function loopAt(st: Uint32Array, rest: number[], replan: boolean, p: Prng): { loop: number[]; rest: number[] } | null {
    for (let n = 1; n <= 3; n++) {
      const found: { loop: number[]; rest: number[] }[] = [];
      let tried = 0;
      const grow = (x: Uint32Array, seq: number[]): void => {
        if (tried >= (replan ? 200 : 5000)) return;
        if (seq.length === n) {
          tried++;
          const then = replan ? optimalFrom(x) : rest;
          if (then !== null && validPlan(task, x, then, actions) && validPlan(task, st, then, actions)) found.push({ loop: seq, rest: then });
          return;
        }
        for (const o of applicableOps(x)) grow(take(x, o), [...seq, o]);
      };
      grow(st, []);
      if (found.length > 0) return p.pick(found);
    }
    return null;
  }

  /** An operator not applicable in `st`, from the walk's candidates at any state (-1: none). */
  function nearMiss(st: Uint32Array, p: Prng): number {
    const pool = input.steps.filter((c) => c.candidate.op >= 0).map((c) => actions.of[c.candidate.op]!).filter((a) => !canTake(st, a));
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
      const next = applicableOps(cur).find((o) => task.opCost[o]! + hstar(input.ctx, take(cur, o)) === h);
      if (next === undefined) return null;
      out.push(next);
      cur = take(cur, next);
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
  horizon?: number;
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
 * wrong), over items of one `shape` (an action's schema, a fact's predicate and argument types)
 * on both sides, so that the form of the item asked about, or of an option, says nothing.
 */
function yesNoOrChoice<T>(form: AcpForm, p: Prng, yes: T[], no: T[], say: (x: T) => string, yesNo: (x: T) => string, choiceText: string, proof: Proof, shape: Shape<T> | Shape<T>[] | undefined, want: boolean): Q | null {
  if (shape !== undefined) {
    const one = narrow(p, yes, no, shape, form === "choice" ? 3 : 1);
    if (one === null) return null;
    ({ yes, no } = one);
  }
  if (form === "yes-no") {
    if (yes.length === 0 || no.length === 0) return null;
    const y = want;
    const x = p.pick(y ? yes : no);
    return { text: yesNo(x), gold: { answer: y ? "yes" : "no", accept: null, set: null }, proof, states: 0, about: [x] };
  }
  if (yes.length === 0 || new Set(no).size < 3) return null;
  const ranked = byLengthRank(p, yes, [...new Set(no)], say);
  return ranked && choice(p, ranked.items, ranked.say, choiceText, proof);
}

/** Distractors looked at per choice for their lengths (rendering every fact of a large problem would cost more than it buys). */
const LENGTH_POOL = 24;

/**
 * A right item (among `rights`) and three distractors (from `pool`) whose lengths do not tell
 * the right option (issue 52: on generic text the right option was the shortest 43% to 57% of
 * the time in some IPC domains, against 25%). Four options of one length first, where some right
 * item has three distractors of its length (then no length rule picks anything); else a drawn
 * target t in 0..3 of strictly shorter distractors, the others longer (ties filling in), for the
 * first right item that can meet it, or no question: the right option's rank among the four
 * lengths is drawn, never what the pool happens to give. Each option is rendered once, so the
 * length measured is the length shown.
 */
export function byLengthRank<T>(p: Prng, rights: T[], pool: T[], say: (x: T) => string, ordered = false): { items: T[]; say: (x: T) => string } | null {
  const text = new Map<T, string>();
  const len = (x: T): number => {
    if (!text.has(x)) text.set(x, say(x));
    return text.get(x)!.length;
  };
  const tryRights = p.shuffle([...new Set(rights)]).slice(0, 8);
  // `ordered`: the pool is drawn already, its head preferred
  const cands = (ordered ? [...pool] : p.shuffle([...pool])).filter((x) => !rights.includes(x)).slice(0, LENGTH_POOL);
  if (cands.length < 3) return null;
  for (const r of tryRights) {
    const same = cands.filter((c) => len(c) === len(r));
    if (same.length >= 3) return { items: [r, ...same.slice(0, 3)], say: (x) => text.get(x)! };
  }
  const t = p.int(4);
  for (const r of tryRights) {
    const n = len(r);
    const shorter = cands.filter((c) => len(c) < n);
    const rest = [...cands.filter((c) => len(c) > n), ...cands.filter((c) => len(c) === n)];
    if (shorter.length >= t && rest.length >= 3 - t) return { items: [r, ...shorter.slice(0, t), ...rest.slice(0, 3 - t)], say: (x) => text.get(x)! };
  }
  return null;
}

/** The form of an item (an action's schema, a fact's predicate and argument types): options of one form say nothing by it. */
type Shape<T> = (x: T) => string;

/**
 * The items of one form (drawn among the forms of `yes` items with at least `need` distinct
 * `no` items of that form), trying the finest of `shapes` first; null where none offers enough.
 * Never a mix of forms: the odd one out would stand out (issue 52: the landmark among facts of
 * other predicates was picked by its predicate alone, 54% against 25%).
 */
function narrow<T>(p: Prng, yes: T[], no: T[], shapes: Shape<T> | Shape<T>[], need: number): { yes: T[]; no: T[] } | null {
  for (const shape of Array.isArray(shapes) ? shapes : [shapes]) {
    const ok = [...new Set(yes.map(shape))].filter((sh) => new Set(no.filter((x) => shape(x) === sh)).size >= need).sort();
    if (ok.length === 0) continue;
    const sh = p.pick(ok);
    return { yes: yes.filter((x) => shape(x) === sh), no: no.filter((x) => shape(x) === sh) };
  }
  return null;
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
  shape: Shape<T> | Shape<T>[] | undefined,
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
      const one = narrow(p, yes, no, shape, 2);
      if (one === null) return null;
      ({ yes, no } = one);
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
