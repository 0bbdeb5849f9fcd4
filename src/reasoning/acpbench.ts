/**
 * ACPBench's file layout for `--format acp` rows (`generate --layout acpbench`,
 * docs/reasoning.md): `<task>/<split>.<bool|mcq|gen>.json`, each a JSON array of ACPBench's
 * records, so that its evaluation scripts (IBM/ACPBench `src/evaluation_bool_mcq.py`,
 * `src/evaluate_gen.py` with `src/evaluators/*.py`) read them unchanged. Pure: rows and PDDL
 * texts in, file texts out; the dataset writes them with the rest of the folder.
 *
 * bool and mcq records are the rows' own questions. gen records ask ACPBench's generative
 * questions, whose graders read fixed answer shapes: each is built from a free row and the
 * engine's proofs at that row's state (the state replayed from `meta.prefix`), and a gen
 * question whose gold cannot be complete or exact is left out and counted (`skipped`).
 */
import { createHash } from "node:crypto";
import { parseDomain, parseProblem, printFormula, printProblem, type InitElement, type Loc, type Problem } from "../pddl/index.js";
import { ground, type GroundTask } from "../task/index.js";
import { hasFact } from "../task/state.js";
import { solve } from "../search/index.js";
import { Actions, isLandmark, validPlan, type SearchBudget } from "./engine.js";
import type { AcpForm, AcpKind } from "./questions.js";

/** ACPBench's task folders, by pddl2prm kind. */
export const ACPBENCH_TASKS: Record<AcpKind, string> = {
  applicability: "app",
  progression: "prog",
  reachability: "reach",
  "action-reachability": "areach",
  validation: "val",
  justification: "just",
  landmarks: "land",
  "next-action": "nexta",
  // the open questions are ACPBench's own gen tasks
  "unreachable-fact": "reach",
  "landmark-fact": "land",
  "plan-simplification": "just",
};
/** ACPBench's file kinds, by pddl2prm form. */
export const ACPBENCH_FILES: Record<AcpForm, "bool" | "mcq" | "gen"> = { "yes-no": "bool", choice: "mcq", free: "gen" };

/**
 * ACPBench's `group` of each task and file (its evaluators pick a grader by it). ACPBench has no
 * yes/no or choice next-action questions: those two groups are ours, in its naming.
 */
export const ACPBENCH_GROUPS: Record<string, Record<"bool" | "mcq" | "gen", string>> = {
  app: { bool: "applicable_actions_bool", mcq: "applicable_actions_mc", gen: "applicable_actions_gen" },
  prog: { bool: "progression_bool", mcq: "progression_mcq", gen: "progression_gen" },
  reach: { bool: "reachable_atom_bool", mcq: "reachable_atom_mc", gen: "reachable_atom_gen" },
  areach: { bool: "reachable_action_bool", mcq: "reachable_action_mc", gen: "reachable_action_gen" },
  val: { bool: "validation_bool", mcq: "validation_mcq", gen: "validation_gen" },
  just: { bool: "action_justification_bool", mcq: "action_justification_mcq", gen: "action_justification_gen" },
  land: { bool: "landmarks_bool", mcq: "landmarks_mcq", gen: "landmarks_gen" },
  nexta: { bool: "goal_closer_bool", mcq: "goal_closer_mc", gen: "goal_closer_gen" },
};

/**
 * ACPBench's justification grader reads the plan as `question[19:-147]`: the question must be
 * exactly this prefix, the plan, and this suffix.
 */
export const JUST_PREFIX = 'Simplify the plan "';
export const JUST_SUFFIX = '" by removing either a single action or a pair of consecutive actions, while still maintaining a valid plan. Provide the resulting simplified plan.';
/** ACPBench's gen questions, word for word (its few-shot prompts are written around them). */
export const GEN_QUESTIONS = {
  app: "Generate the list of all ground actions that are applicable in this state.",
  reach: "What proposition can never hold in any potentially reachable state?",
  areach: "What action can never become applicable, in any state reachable from the current state?",
  land: "Generate a non-trivial fact landmark, one that does not hold in the initial state or goal.",
  nexta: "What is the next action that takes us towards the goal?",
} as const;

/** What a row must carry (the fields of `AcpRow` this reads; rows come back from the shards as JSON). */
export interface AcpRowLike {
  id: string;
  domain: string;
  problem: string;
  split: string;
  kind: string;
  form: string;
  question: string;
  choices: string[] | null;
  answer: string;
  meta: {
    gold: { answer: string; accept: string[] | null; set: string[] | null };
    items: string[];
    prefix: string[];
    action: string | null;
    plan: string[] | null;
    horizon: number | null;
  };
}

/** The PDDL texts of a row's problem (the dataset's `pddl/` copies). */
export type PddlOf = (domain: string, problem: string) => { domain: string; problem: string };

export interface AcpbenchLayout {
  /** Relative path ("app/train.bool.json") -> file text. */
  files: Map<string, string>;
  /** Records per file. */
  records: Record<string, number>;
  /** gen questions left out, by reason. */
  skipped: Record<string, number>;
}

/** Proof budget of a landmark gen question: states per fact, and in all (every fact must be decided). */
const LANDMARK_STATES = 100_000;
const LANDMARK_TOTAL_STATES = 2_000_000;
/** Wall-clock guard of one landmark gen question (the state budgets decide; this only stops a runaway). */
const LANDMARK_MS = 30_000;

/** A signed integer id from the row id (ACPBench's ids are signed integers), within JSON's exact range. */
export function acpbenchId(rowId: string): number {
  const h = createHash("sha256").update(rowId).digest();
  const u = h.readUIntBE(0, 6) * 32 + (h[6]! >>> 3); // 53 bits
  return u - 2 ** 52;
}

/** Split a row's question into ACPBench's `context` (the problem and the current state) and `question` (what is asked). */
export function splitQuestion(text: string): { context: string; question: string } {
  const at = text.indexOf("\n\nThe current state:");
  const end = at < 0 ? text.lastIndexOf("\n\n") : text.indexOf("\n\n", at + 2);
  if (end < 0) return { context: "", question: text.trim() };
  return { context: text.slice(0, end).trim(), question: text.slice(end + 2).trim() };
}

/** "(at c1 l2)" -> predicate and argument names. */
function atomParts(name: string): string[] {
  return name.trim().replace(/^\(|\)$/g, "").trim().split(/\s+/);
}

/** One problem, grounded once for every gen record at its states. */
class ProblemTask {
  readonly task: GroundTask;
  readonly actions: Actions;
  private readonly byName = new Map<string, number>();
  private readonly problem: Problem;
  private hstar0: number | null | undefined;
  readonly vocabulary: string;
  readonly domainText: string;
  private readonly factIndex = new Map<string, number>();
  constructor(texts: { domain: string; problem: string }, file: string) {
    this.domainText = texts.domain;
    const domain = parseDomain(texts.domain, `${file} (domain)`);
    this.problem = parseProblem(texts.problem, file, domain);
    this.task = ground(domain, this.problem);
    this.actions = new Actions(this.task);
    for (const a of this.actions.all) this.byName.set(this.task.opNames[a]!, a);
    for (let f = 0; f < this.task.numFacts; f++) this.factIndex.set(this.task.factNames[f]!, f);
    // gen answers are PDDL: the context names what they are written with
    const objects = [...domain.constants, ...this.problem.objects].map((o) => o.name);
    const schema = (name: string, params: { name: string }[]): string => `(${[name, ...params.map((p) => p.name)].join(" ")})`;
    this.vocabulary = [
      `In PDDL, the objects are ${objects.join(", ")}.`,
      `The available actions are: ${domain.actions.map((a) => schema(a.name, a.params)).join(", ")}.`,
      `The facts are written as: ${domain.predicates.map((p) => schema(p.name, p.params)).join(", ")}.`,
    ].join(" ");
  }
  action(name: string): number {
    const a = this.byName.get(name.trim().toLowerCase());
    if (a === undefined) throw new Error(`${name}: not an action of the problem`);
    return a;
  }
  fact(name: string): number | undefined {
    return this.factIndex.get(name.trim().toLowerCase());
  }
  /** The state after the walk's actions `prefix`. */
  stateAfter(prefix: readonly string[]): Uint32Array {
    let s = this.task.init;
    for (const name of prefix) s = this.actions.apply(s, this.action(name));
    return s;
  }
  /** The problem with `state` as its :init: the fixed atoms of the original init, the state's facts, the numeric values. */
  problemAt(state: Uint32Array): string {
    const t = this.task;
    const loc: Loc = this.problem.loc;
    const init: InitElement[] = [];
    for (const el of this.problem.init) {
      if (el.kind !== "atom") {
        init.push(el);
        continue;
      }
      const name = `(${[el.atom.predicate, ...el.atom.args.map((a) => a.name)].join(" ")})`.toLowerCase();
      // a fact of the task is set by the state below; any other init atom never changes (folded away)
      if (!this.factIndex.has(name)) init.push(el);
    }
    for (let f = 0; f < t.numFacts; f++) {
      if (t.factDerived[f] || !hasFact(state, f)) continue;
      const [predicate, ...args] = atomParts(t.factNames[f]!);
      init.push({ kind: "atom", atom: { predicate: predicate!, args: args.map((name) => ({ kind: "const", name, loc })), loc }, loc });
    }
    return printProblem({ ...this.problem, init });
  }
  /** Goal atoms, as written (ACPBench's landmarks leave out the goal's facts). */
  goalAtoms(): Set<string> {
    const out = new Set<string>();
    for (const m of printFormula(this.problem.goal).toLowerCase().matchAll(/\(([^()\s]+)((?:\s+[^()\s]+)*)\)/g)) out.add(`(${[m[1], ...m[2]!.trim().split(/\s+/).filter((x) => x)].join(" ")})`);
    for (const g of this.task.goalPos) out.add(this.task.factNames[g]!);
    return out;
  }
  /** h* of the initial state (one optimal search), null when the search does not finish. */
  initialHstar(): number | null {
    if (this.hstar0 === undefined) {
      const r = solve(this.task, { limits: { timeMs: 60_000, maxExpansions: 5_000_000 } });
      this.hstar0 = r.status === "solved" && r.cost !== null ? r.cost : null;
    }
    return this.hstar0;
  }
  cost(names: readonly string[]): number {
    return names.reduce((a, n) => a + this.task.opCost[this.action(n)]!, 0);
  }
}

type Rec = Record<string, unknown>;

/**
 * The ACPBench files of `rows`. Records keep the rows' order within a file; rows of other
 * shapes than a question of a known kind and form are an error (the folder is not an acp one).
 */
export function acpbenchLayout(rows: Iterable<AcpRowLike>, pddlOf: PddlOf): AcpbenchLayout {
  const byFile = new Map<string, Rec[]>();
  const skipped: Record<string, number> = {};
  const skip = (why: string): void => {
    skipped[why] = (skipped[why] ?? 0) + 1;
  };
  const tasks = new Map<string, ProblemTask>();
  const taskOf = (r: AcpRowLike): ProblemTask => {
    const key = `${r.domain}/${r.problem}`;
    let t = tasks.get(key);
    if (t === undefined) {
      t = new ProblemTask(pddlOf(r.domain, r.problem), `pddl/${key}.pddl`);
      tasks.set(key, t);
    }
    return t;
  };
  for (const r of rows) {
    const task = ACPBENCH_TASKS[r.kind as AcpKind];
    const file = ACPBENCH_FILES[r.form as AcpForm];
    if (task === undefined || file === undefined) throw new Error(`${r.id}: not a question row of --format acp (kind '${r.kind}', form '${r.form}')`);
    const { context, question } = splitQuestion(r.question);
    const head = { id: acpbenchId(r.id), group: ACPBENCH_GROUPS[task]![file] };
    let rec: Rec | null;
    if (file === "bool") {
      if (r.answer !== "yes" && r.answer !== "no") throw new Error(`${r.id}: a yes/no answer is '${r.answer}'`);
      rec = { ...head, context, question, answer: r.answer };
    } else if (file === "mcq") {
      if (r.choices === null || r.choices.length !== 4 || !/^[A-D]$/.test(r.answer)) throw new Error(`${r.id}: a choice needs four options and one letter`);
      // the question without its options: ACPBench's `query`
      const query = question.split("\n").filter((l) => !/^[A-D]\. /.test(l)).join("\n");
      rec = { ...head, context, question, choices: { text: r.choices, label: ["A", "B", "C", "D"] }, query, answer: r.answer };
    } else {
      const p = taskOf(r);
      rec = genRecord(r, task, p, skip);
      if (rec !== null) rec = { ...head, context: `${context}\n\n${p.vocabulary}`, ...rec, PDDL_domain: p.domainText };
    }
    if (rec === null) continue;
    const rel = `${task}/${r.split}.${file}.json`;
    let list = byFile.get(rel);
    if (list === undefined) byFile.set(rel, (list = []));
    list.push(rec);
  }
  const files = new Map<string, string>();
  const records: Record<string, number> = {};
  for (const rel of [...byFile.keys()].sort()) {
    files.set(rel, JSON.stringify(byFile.get(rel), null, 2) + "\n");
    records[rel] = byFile.get(rel)!.length;
  }
  return { files, records, skipped };
}

/** The letters of the options a free row's gold names (its right options), as item indices. */
function rightItems(r: AcpRowLike): Set<number> {
  return new Set((r.meta.gold.set ?? []).map((l) => "ABCD".indexOf(l)).filter((i) => i >= 0));
}

/** A gen record's question, answer and PDDL_problem (null: left out, counted by `skip`). */
function genRecord(r: AcpRowLike, task: string, p: ProblemTask, skip: (why: string) => void): Rec | null {
  const m = r.meta;
  const state = p.stateAfter(m.prefix);
  const at = (q: string, answer: unknown): Rec => ({ question: q, answer, PDDL_problem: p.problemAt(state) });
  switch (task) {
    case "app":
      return at(GEN_QUESTIONS.app, m.gold.set ?? []);
    case "prog": {
      const set = m.gold.set ?? [];
      const q = `Break down the outcomes of performing the action "${m.action}" into two lists, positive effects and negative effects. Positive effects are the propositions that are false in the current state but will become true after performing the action. Negative effects are the propositions that are true in the current state and will become false after performing the action.`;
      return at(q, { pos: set.filter((x) => x.startsWith("+")).map((x) => x.slice(1)), neg: set.filter((x) => x.startsWith("-")).map((x) => x.slice(1)) });
    }
    case "reach":
    case "areach": {
      // the open question's gold is every fact proved unreachable (atoms without parentheses, as ACPBench writes them)
      if (r.kind === "unreachable-fact") return at(GEN_QUESTIONS.reach, (m.gold.accept ?? []).map((x) => x.replace(/^\(|\)$/g, "")));
      // ACPBench asks for something that can never happen: the options proved unreachable
      // (never an empty list: that would claim nothing is unreachable)
      if (m.horizon !== null) return skip(`${task}: within n steps (ACPBench asks about ever)`), null;
      const right = rightItems(r);
      const never = m.items.filter((x, i) => !right.has(i) && !x.includes("&"));
      if (never.length === 0) return skip(`${task}: no option proved unreachable`), null;
      // (ACPBench's reachability answers are atoms without their parentheses; its action answers keep them)
      return at(GEN_QUESTIONS[task], task === "reach" ? never.map((x) => x.replace(/^\(|\)$/g, "")) : never);
    }
    case "val": {
      const step = Number(m.gold.accept?.[0]);
      if (!Number.isInteger(step) || step < 1 || m.plan === null) throw new Error(`${r.id}: a validation answer is not a step number`);
      return at(`What is the first inapplicable action in the next sequence of actions: "${m.plan.join(" ")}"?`, step - 1);
    }
    case "just": {
      if (m.plan === null) throw new Error(`${r.id}: a justification row without its plan`);
      if (r.kind === "plan-simplification") {
        // ACPBench removes one action or two in a row: every such removal that leaves a valid plan, by replay
        const ops = m.plan.map((x) => p.action(x));
        const cuts = [1, 2].flatMap((n) => ops.slice(n - 1).map((_, i) => Array.from({ length: n }, (__, j) => i + j)));
        const ok = cuts.filter((c) => validPlan(p.task, state, ops.filter((_, i) => !c.includes(i)), p.actions));
        if (ok.length === 0) return skip("just: no single step or pair removable"), null;
        return at(`${JUST_PREFIX}${m.plan.join(" ")}${JUST_SUFFIX}`, ok.map((c) => [...c.map((i) => m.plan![i]!), String(c[0])]));
      }
      const right = rightItems(r);
      // ACPBench removes one action or two in a row: [removed actions..., 0-based place of the first]
      const removable = m.items.flatMap((x, i) => {
        const steps = x.split("+").map(Number);
        return right.has(i) && steps.length <= 2 ? [[...steps.map((k) => m.plan![k - 1]!), String(steps[0]! - 1)]] : [];
      });
      if (removable.length === 0) return skip("just: no single step or pair removable among the options"), null;
      return at(`${JUST_PREFIX}${m.plan.join(" ")}${JUST_SUFFIX}`, removable);
    }
    case "land": {
      // ACPBench's grader accepts only the listed landmarks: the list must hold every one
      const goal = p.goalAtoms();
      const yes: string[] = [];
      const no: string[] = [];
      const deadline = performance.now() + LANDMARK_MS;
      let total = 0;
      for (let f = 0; f < p.task.numFacts; f++) {
        const name = p.task.factNames[f]!;
        if (p.task.factDerived[f] || hasFact(state, f) || goal.has(name)) continue;
        const budget: SearchBudget = { maxStates: Math.min(LANDMARK_STATES, LANDMARK_TOTAL_STATES - total), deadline };
        const proved = budget.maxStates > 0 ? isLandmark(p.task, state, f, budget) : null;
        if (proved === null) return skip("land: some fact undecided within the budget"), null;
        total += proved.states;
        (proved.answer ? yes : no).push(name);
      }
      return at(GEN_QUESTIONS.land, { yes, no });
    }
    case "nexta": {
      const yes = m.gold.accept ?? [];
      if (yes.length === 0) throw new Error(`${r.id}: a next-action row without its optimal actions`);
      const applicable = p.actions.applicableIn(state).map((a) => p.task.opNames[a]!);
      const h0 = p.initialHstar();
      // the walk is optimal: h*(s) is h*(s0) less the cost of the walk's actions to s
      const opt = h0 === null ? null : h0 - p.cost(m.prefix);
      return at(GEN_QUESTIONS.nexta, { yes, no: applicable.filter((a) => !yes.includes(a)), maybe: [], ...(opt === null ? {} : { opt: String(opt) }) });
    }
    default:
      return null;
  }
}
