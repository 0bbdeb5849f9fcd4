/**
 * The meaning check (DESIGN.md §14 "Faithful text"): every fact sentence and every action text
 * of a task names all of its arguments and reads back to exactly the fact or action it stands
 * for, with no filler word ("something") standing for an argument. Used by `templates check`,
 * the tests and `bench/meaning.ts`.
 */
import type { Formula } from "../pddl/ast.js";
import type { GroundTask } from "../task/types.js";
import { Prng } from "../util/prng.js";
import { createRenderer, type FactReading, type Renderer } from "./renderer.js";
import type { NlTemplates } from "./templates.js";
import { fill, type Compiled } from "./text.js";
import { complementaryTwins } from "./twins.js";

/**
 * Words that stand for an unnamed participant ("X is at something"): a template using one
 * states less than its fact. ("nothing is on X" states an absence, the meaning of clear(X).)
 */
export const FILLER_WORDS = ["something", "anything", "somewhere", "anywhere", "someone", "anyone", "somebody", "anybody"];
const FILLER = new RegExp(`\\b(${FILLER_WORDS.join("|")})\\b`, "i");

/** What `checkMeaning` found. */
export interface MeaningReport {
  /** Fact sentences rendered and read back (every paraphrase, true and false). */
  facts: number;
  /** Action texts rendered and read back (every paraphrase). */
  actions: number;
  /** Sentences that read back as no fact or action, as another one, or as several. */
  failures: string[];
  /**
   * Generic templates with a filler word ("X is at something"): the translator invented a
   * participant the PDDL does not name. (A templates file may say "something is on X" for
   * not clear(X): that is its author's reading.)
   */
  fillers: string[];
  /** Predicates whose text is the plain reading (no English reading was found). */
  plain: string[];
}

interface AtomRef {
  pred: string;
  args: number[];
}

function goalAtoms(f: Formula | null, out: Array<{ pred: string; args: string[] }>): void {
  if (f === null) return;
  switch (f.kind) {
    case "atom":
      out.push({ pred: f.atom.predicate, args: f.atom.args.map((t) => t.name) });
      return;
    case "not":
      return goalAtoms(f.arg, out);
    case "and":
    case "or":
      return f.args.forEach((g) => goalAtoms(g, out));
    case "imply":
      goalAtoms(f.left, out);
      return goalAtoms(f.right, out);
    default:
      return;
  }
}

/** The ground atoms a task's text can state: its facts, the fixed facts of its init, its goal atoms. */
function atomsOf(task: GroundTask): AtomRef[] {
  const ids = new Map<string, number>();
  task.objects.forEach((o, i) => ids.set(o, i));
  const out: AtomRef[] = [];
  const seen = new Set<string>();
  const add = (pred: string, args: number[]): void => {
    const k = `${pred}(${args.join(",")})`;
    if (seen.has(k) || args.some((a) => a < 0)) return;
    seen.add(k);
    out.push({ pred, args });
  };
  for (let f = 0; f < task.numFacts; f++) add(task.factPredicate[f]!, Array.from(task.factArgs.subarray(task.factArgStart[f]!, task.factArgStart[f + 1]!)));
  for (const el of task.problem.init) if (el.kind === "atom") add(el.atom.predicate, el.atom.args.map((t) => ids.get(t.name) ?? -1));
  const goal: Array<{ pred: string; args: string[] }> = [];
  goalAtoms(task.problem.goal, goal);
  for (const g of goal) if (!g.args.some((a) => a.startsWith("?"))) add(g.pred, g.args.map((a) => ids.get(a) ?? -1));
  return out;
}

function atomName(task: GroundTask, pred: string, args: readonly number[]): string {
  return `(${[pred, ...args.map((a) => task.objects[a] ?? "?")].join(" ")})`;
}

function describe(task: GroundTask, rs: readonly FactReading[]): string {
  if (rs.length === 0) return "no fact";
  return rs.map((r) => `${r.pos ? "" : "not "}${atomName(task, r.pred, r.args)}`).join(" or ");
}

/** Renders a fact with one of its paraphrases (objects by their phrases). */
function factSentence(r: Renderer, c: Compiled, args: readonly number[]): string {
  return fill(c, args.map((a) => r.objectPhrase(a)));
}

/** Options of `checkMeaning`. */
export interface MeaningOptions {
  /** Stop listing failures after this many (they are still counted in the totals). */
  maxFailures?: number;
  /** Random type-correct groundings of each action schema to check besides the operators (default 20). */
  groundings?: number;
}

/**
 * Render every fact the task's text can state (true and false, every paraphrase) and every
 * action (its operators and random type-correct groundings, every paraphrase), and read each
 * back: a sentence must have exactly one reading, the one it was made from.
 */
export function checkMeaning(task: GroundTask, templates: NlTemplates | null, options: MeaningOptions = {}): MeaningReport {
  const r = createRenderer(task, templates);
  const tpl = r.templates;
  const max = options.maxFailures ?? 50;
  const rep: MeaningReport = { facts: 0, actions: 0, failures: [], fillers: [], plain: [] };
  const fail = (msg: string): void => {
    if (rep.failures.length < max) rep.failures.push(msg);
    else if (rep.failures.length === max) rep.failures.push("(more failures not listed)");
  };
  for (const decl of task.domain.predicates) {
    const pt = tpl.predicates.get(decl.name);
    if (pt === undefined) continue;
    if (pt.plain === true) rep.plain.push(decl.name);
    // a word of the predicate's own name ("nothing-is-moving") stands for no argument
    const own = new Set(decl.name.toLowerCase().split(/[^a-z]+/));
    for (const c of pt.generic === true ? [...pt.pos, ...pt.neg] : []) {
      const m = FILLER.exec(c.parts.join(" "));
      if (m !== null && !own.has(m[1]!.toLowerCase())) rep.fillers.push(`${decl.name}: "${c.source}"`);
    }
  }
  // A proven complementary pair says one thing in two ways: not-made(p1) is "not made(p1)".
  const twins = complementaryTwins(task);
  const normal = (x: FactReading): FactReading => {
    const base = twins.get(x.pred);
    return base === undefined ? x : { pred: base, args: x.args, pos: !x.pos };
  };
  const sameReadings = (rs: readonly FactReading[]): FactReading[] => {
    const out: FactReading[] = [];
    for (const x of rs.map(normal)) if (!out.some((y) => y.pred === x.pred && y.pos === x.pos && y.args.join() === x.args.join())) out.push(x);
    return out;
  };
  for (const a of atomsOf(task)) {
    const pt = tpl.predicates.get(a.pred);
    if (pt === undefined) continue;
    for (const [list, pos] of [[pt.pos, true], [pt.neg, false]] as const) {
      for (const c of list) {
        rep.facts++;
        const text = factSentence(r, c, a.args);
        const rs = sameReadings(r.readFact(text));
        const want = normal({ pred: a.pred, args: a.args, pos });
        if (rs.length !== 1 || rs[0]!.pred !== want.pred || rs[0]!.pos !== want.pos || rs[0]!.args.join() !== want.args.join()) {
          fail(`${pos ? "" : "not "}${atomName(task, a.pred, a.args)}: "${text}" reads as ${describe(task, rs)}`);
        }
      }
    }
  }
  const checkAction = (schema: number, args: readonly number[]): void => {
    const s = tpl.actions.get(task.domain.actions[schema]!.name);
    if (s === undefined) return;
    for (const c of s.text) {
      rep.actions++;
      const text = fill(c, args.map((x) => r.objectPhrase(x)));
      const rs = r.readAction(text);
      if (rs.length !== 1 || rs[0]!.schema !== schema || rs[0]!.args.join() !== args.join()) {
        const got = rs.length === 0 ? "no action" : rs.map((x) => atomName(task, task.domain.actions[x.schema]!.name, x.args)).join(" or ");
        fail(`${atomName(task, task.domain.actions[schema]!.name, args)}: "${text}" reads as ${got}`);
      }
    }
  };
  const seen = new Set<string>();
  for (let op = 0; op < task.numOps; op++) {
    if (seen.has(task.opNames[op]!)) continue;
    seen.add(task.opNames[op]!);
    checkAction(task.opSchema[op]!, Array.from(task.opArgs.subarray(task.opArgStart[op]!, task.opArgStart[op + 1]!)));
  }
  const prng = new Prng(1, "meaning");
  const n = options.groundings ?? 20;
  task.domain.actions.forEach((a, schema) => {
    for (let k = 0; k < n; k++) {
      const args: number[] = [];
      for (const p of a.params) {
        const ok: number[] = [];
        for (let o = 0; o < task.objects.length; o++) if (p.types.some((t) => task.objectTypes[o]!.includes(t))) ok.push(o);
        if (ok.length === 0) return;
        args.push(prng.pick(ok));
      }
      checkAction(schema, args);
    }
  });
  return rep;
}
