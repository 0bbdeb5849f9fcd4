/**
 * Renders a ground task as text: the prompt, one reasoning step per candidate action, critiques
 * from label evidence, and the parser of step text back to the ground action.
 *
 * Everything that does not depend on the row's PRNG is prepared once per task (object phrases,
 * compiled preconditions and effects per action schema, prompt facts), so a render is string
 * concatenation over precompiled templates.
 */
import type { Domain, Effect, Formula, Term } from "../pddl/ast.js";
import { supertypesOf, typeParents } from "../pddl/types.js";
import type { GroundTask } from "../task/types.js";
import { applyOp } from "../task/index.js";
import type { Candidate, LabeledStep } from "../label/types.js";
import { hashString, Prng } from "../util/prng.js";
import { completeTemplates, genericType } from "./generic.js";
import { actionCost, costClause, costStatements } from "./costs.js";
import { critic } from "./critique.js";
import { nameNumber, taskHints, type NumericRelation, type PredicateHint } from "./hints.js";
import { atomKey, expansions, firingEffects, ground, logicContext, size, TooLarge, truth, type Bindings, type Ground, type LogicContext } from "./logic.js";
import type { RelaxedReach } from "./relaxed-goals.js";
import type { NlTemplates, PredicateTemplate, TypeTemplate } from "./templates.js";
import { capitalize, countWord, escapeRegExp, fill, fillEliding, joinList, paramNames, words, type Compiled } from "./text.js";

/** Text of one task. Every method is deterministic given the PRNG state. */
export interface Renderer {
  readonly task: GroundTask;
  /** The complete templates in use (nl.json with generic fill-ins, or generic). */
  readonly templates: NlTemplates;
  /** The noun phrase of object `id` ("block a", "floor 3"); unique within the task. */
  objectPhrase(id: number): string;
  /** What-I-do text of an action ("pick up block a"); paraphrase 0 when `prng` is null. */
  actionText(schema: number, args: ArrayLike<number>, prng: Prng | null): string;
  /** Intro + objects + fixed facts + initial state + goal + instruction. */
  prompt(prng: Prng): string;
  /**
   * "Step k: Since <preconditions>, I <action>. Now <effects>." The claims come from the lifted
   * schema, so a non-executable candidate gets the same (then false) claims. For an action with
   * conditional effects, when `state` is given and the candidate is a ground operator, the
   * effects are exactly those the operator has in `state`; otherwise they are listed in lifted
   * form ("for every ..., if ..., then ...").
   */
  step(k: number, candidate: Candidate, prng: Prng, state?: Uint32Array): string;
  /** `JSON.stringify(step(k, candidate, prng, state))`, with the same draws from `prng` (cached JSON of the step's text). */
  stepJson(k: number, candidate: Candidate, prng: Prng, state?: Uint32Array): string;
  /** Why the step got its label, from its evidence. */
  critique(step: LabeledStep, prng: Prng): string;
  /** The ground action a rendered step describes (any paraphrase), or null. */
  parseStep(text: string): { schema: number; args: number[] } | null;
  /**
   * Every ground action an action clause ("drive truck1 from l1 to l2") can be read as, over
   * every paraphrase of every action: exactly one for an unambiguous text.
   */
  readAction(clause: string): Array<{ schema: number; args: number[] }>;
  /**
   * Every reading of `text` as one fact sentence ("block a is on block b", "b is not clear"):
   * the predicate, the object ids of its arguments and whether it is said to hold. A faithful
   * text has exactly one; none or several mean the sentence does not say which fact it is.
   */
  readFact(text: string): FactReading[];
  /**
   * The facts of a list clause as the renderer joins them ("A, B and C"): the one way to cut it
   * into fact sentences that each have exactly one reading, or null when there is none or more.
   */
  readFactList(text: string): FactReading[] | null;
  /** The facts true in `state`, as a list clause ("block a is clear and my hand is empty"). */
  describeState(state: Uint32Array): string;
  /** One fact as a clause ("block a is on block b"), or its negation; paraphrase 0 when `prng` is null. */
  factText(fact: number, positive: boolean, prng: Prng | null): string;
  /** The rules of the domain written from its action schemas (the generic intro), one per paraphrase. */
  rules(): string[];
  /** What the prompt summarised to keep within its budget (known once a prompt was rendered). */
  promptSummary(): PromptSummary;
}

/**
 * What a prompt states in summary instead of fact by fact (DESIGN.md §14): rules of actions not
 * described (a generic domain's rules past their budget), fixed facts not listed (past theirs),
 * and relations stated as the arithmetic they are proven to be.
 */
export interface PromptSummary {
  rulesOmitted: number;
  /** The actions (PDDL names) whose rules the prompt leaves out: only actions no step of this problem can use. */
  rulesOmittedNames: string[];
  fixedOmitted: number;
  costOmitted: number;
  arithmetic: string[];
}

/** One reading of a fact sentence (see `Renderer.readFact`). */
export interface FactReading {
  pred: string;
  args: number[];
  pos: boolean;
}

// Refs in compiled literals: >= 0 is an action parameter index, < 0 is object id -(ref + 1).
type Ref = number;

interface LitItem {
  kind: "lit";
  pred: PredicateTemplate;
  pos: boolean;
  refs: Ref[];
}
interface EqItem {
  kind: "eq";
  pos: boolean;
  a: Ref;
  b: Ref;
}
interface FormulaItem {
  kind: "formula";
  f: Formula;
}
type PreItem = LitItem | EqItem | FormulaItem;

interface EffItem {
  pred: PredicateTemplate;
  name: string;
  add: boolean;
  refs: Ref[];
}

/**
 * Nested quantifiers of one kind as one (`exists ?b (exists ?c φ)` is `exists ?b ?c φ`), so that
 * they read "there is some bench B and clamp C such that ..." rather than one "there is some ...
 * such that there is some ..." inside another. Only where the names do not clash (an inner
 * variable that shadows an outer one keeps its own quantifier).
 */
export function mergeQuantifiers(f: Formula): Formula {
  switch (f.kind) {
    case "atom":
    case "eq":
      return f;
    case "not":
      return { ...f, arg: mergeQuantifiers(f.arg) };
    case "and":
    case "or":
      return { ...f, args: f.args.map(mergeQuantifiers) };
    case "imply":
      return { ...f, left: mergeQuantifiers(f.left), right: mergeQuantifiers(f.right) };
    case "exists":
    case "forall": {
      const body = mergeQuantifiers(f.body);
      if (body.kind === f.kind) {
        const names = new Set(f.params.map((p) => p.name));
        if (!body.params.some((p) => names.has(p.name))) return { ...f, params: [...f.params, ...body.params], body: body.body };
      }
      return { ...f, body };
    }
  }
}

interface SchemaInfo {
  name: string;
  params: string[];
  /** The PDDL variables of the parameters ("?x"). */
  vars: string[];
  paramTypes: string[][];
  pre: PreItem[];
  adds: EffItem[];
  dels: EffItem[];
  /** forall/when effects, rendered lifted or from the ground tables. */
  complex: Effect[];
  text: Compiled[];
}

interface StaticGroup {
  pred: PredicateTemplate;
  predName: string;
  /** Arguments of the first fact; at `pred.groupOver` the list of `members` is used instead. */
  args: number[];
  /** The argument lists of all facts of the group. */
  members: number[][];
}

/** Characters of the rules of a generic domain and of the fixed facts, before the rest is counted instead of listed. */
const RULES_BUDGET = 5000;
const FIXED_BUDGET = 3500;
const COST_BUDGET = 3000;
/** A list of facts longer than this in generic text groups a predicate's one-object facts ("each of p1 to p9 is made"). */
const GROUP_LISTS_OVER = 1500;
const REL_WORDS: Record<NumericRelation, string> = {
  succ: "pairs (x, y) with y = x + 1",
  pred: "pairs (x, y) with x = y + 1",
  lt: "pairs (x, y) with x < y",
  le: "pairs (x, y) with x <= y",
  gt: "pairs (x, y) with x > y",
  ge: "pairs (x, y) with x >= y",
  sum: "triples (x, y, z) with x + y = z",
  diff: "triples (x, y, z) with x - y = z",
};

/** Paraphrase draws kept per action and per prompt of a task (see `step`). */
const STEP_VARIANTS = 4;
const PROMPT_VARIANTS = 4;

const WHY = ["Since ", "Because ", "Given that ", "As "];
const NOW = ["Now ", "As a result, ", "After this, ", "This means that "];
const INIT = ["Initially, {x}.", "At the start, {x}.", "In the initial state, {x}."];
const FIXED = ["These facts hold throughout and never change: {x}.", "The following is fixed and never changes: {x}.", "Some facts are permanent: {x}."];
const NO_EFFECT = ["Nothing changes.", "This changes nothing."];
const DEFINE = ["Some facts are defined by rules rather than set by actions:", "These facts follow from others by definition:", "Definitions used below:"];
const COST_FACTS = ["The action costs depend on these values: {x}.", "These values fix the action costs: {x}.", "Cost values: {x}."];
const COST_INSTRUCTION = [
  "Find the cheapest plan, step by step: the total cost of the actions counts, not their number. For every step, say which facts it relies on, which action you take, and what holds afterwards.",
  "Reason one action at a time toward a plan of least total cost, stating the facts each action relies on and the facts it changes.",
  "Work out a plan of minimum total action cost step by step; at each step give the reason, the action and its effects.",
];
const CHEAPEST = [
  "The plan must be as cheap as possible: its total action cost counts, not its number of steps.",
  "Aim for the lowest total action cost, not the fewest steps.",
  "A plan is better when its actions cost less in total, whatever its length.",
];

/** Whether `f` has an existential quantifier anywhere in it. */
function hasExists(f: Formula): boolean {
  switch (f.kind) {
    case "exists":
      return true;
    case "forall":
      return hasExists(f.body);
    case "not":
      return hasExists(f.arg);
    case "and":
    case "or":
      return f.args.some(hasExists);
    case "imply":
      return hasExists(f.left) || hasExists(f.right);
    default:
      return false;
  }
}

function quantified(f: Formula): boolean {
  switch (f.kind) {
    case "exists":
    case "forall":
      return true;
    case "not":
      return quantified(f.arg);
    case "and":
    case "or":
      return f.args.some(quantified);
    case "imply":
      return quantified(f.left) || quantified(f.right);
    default:
      return false;
  }
}

/**
 * Capital-letter names for lifted parameters from their nouns ("location" -> "L"), numbered
 * when two share a letter ("L1", "L2"), never one of `taken`. Two kinds with one initial take
 * their first two letters where these differ ("chlorine" Ch, "carbon" Ca).
 */
export function variableLabels(nouns: readonly string[], taken: ReadonlySet<string>): string[] {
  const lettersOf = (n: string): string => (n === "object" ? "x" : n.replace(/[^a-z]/gi, "").toLowerCase() || "x");
  const initial = (n: string): string => lettersOf(n)[0]!.toUpperCase();
  // Kinds sharing an initial get two letters where that tells them apart ("chlorine Ch1" and
  // "carbon Ca2", not "chlorine C1" and "carbon C2", whose numbers hide which is which)
  const kinds = new Map<string, Set<string>>();
  for (const n of nouns) {
    const k = kinds.get(initial(n)) ?? new Set<string>();
    kinds.set(initial(n), k.add(n));
  }
  const prefix = new Map<string, string>();
  for (const [l, ns] of kinds) {
    const two = [...ns].map((n) => l + (lettersOf(n)[1] ?? ""));
    const distinct = ns.size > 1 && two.every((t) => t.length === 2) && new Set(two).size === ns.size;
    [...ns].forEach((n, i) => prefix.set(n, distinct ? two[i]! : l));
  }
  const letters = nouns.map((n) => prefix.get(n)!);
  const count = new Map<string, number>();
  for (const l of letters) count.set(l, (count.get(l) ?? 0) + 1);
  const used = new Set(taken);
  return letters.map((l) => {
    let name = l;
    if (count.get(l)! > 1 || used.has(l)) {
      let i = 1;
      while (used.has(`${l}${i}`)) i++;
      name = `${l}${i}`;
    }
    used.add(name);
    return name;
  });
}

/** `xs` without repeats (first occurrences, in order); the same array when it has none. */
function once(xs: string[]): string[] {
  if (xs.length < 2 || new Set(xs).size === xs.length) return xs;
  return [...new Set(xs)];
}

function pick<T>(xs: readonly T[], prng: Prng | null): T {
  return xs.length === 1 || prng === null ? xs[0]! : xs[prng.int(xs.length)]!;
}

function sub(tpl: string, x: string): string {
  const i = tpl.indexOf("{x}");
  return tpl.slice(0, i) + x + tpl.slice(i + 3);
}

// ---- the parts of a renderer that do not depend on a row: prepared once per task

/** The type entry for a type that the templates do not name. */
function defaultType(tpl: NlTemplates, t: string): TypeTemplate {
  if (tpl.generic) return genericType(t);
  const g = genericType(t);
  return { ...g, phrase: { parts: [g.noun + " ", ""], slots: [0], source: `${g.noun} {name}` } };
}

function typeNounOf(tpl: NlTemplates, t: string): string {
  return (tpl.types.get(t) ?? defaultType(tpl, t)).noun;
}

interface ObjectPhrases {
  objId: Map<string, number>;
  /** The type each object is described and grouped by. */
  objTypeKey: string[];
  objType: TypeTemplate[];
  /** Unique noun phrase of each object ("block a", "floor 3"). */
  phrases: string[];
  phraseId: Map<string, number>;
}

function objectPhrases(task: GroundTask, tpl: NlTemplates): ObjectPhrases {
  const { domain, problem } = task;
  const nObj = task.objects.length;
  const objId = new Map<string, number>();
  task.objects.forEach((o, i) => objId.set(o, i));
  const parents = typeParents(domain);
  const declared = new Map<string, string[]>();
  for (const c of domain.constants) declared.set(c.name, c.types);
  for (const o of problem.objects) declared.set(o.name, o.types);
  const typeChain = (types: string[]): string[] => {
    const out: string[] = [];
    const queue = [...types];
    while (queue.length > 0) {
      const t = queue.shift()!;
      if (out.includes(t)) continue;
      out.push(t);
      for (const p of parents.get(t) ?? (t === "object" ? [] : ["object"])) queue.push(p);
    }
    if (!out.includes("object")) out.push("object");
    return out;
  };
  const objTypeKey: string[] = new Array(nObj);
  const objType: TypeTemplate[] = new Array(nObj);
  for (let i = 0; i < nObj; i++) {
    const decl = declared.get(task.objects[i]!) ?? ["object"];
    const chain = typeChain(decl);
    const found = chain.find((t) => tpl.types.has(t));
    // Objects whose types have no entry are grouped by their declared type.
    objTypeKey[i] = found ?? decl[0] ?? "object";
    objType[i] = found !== undefined ? tpl.types.get(found)! : defaultType(tpl, objTypeKey[i]!);
  }
  const perType = new Map<string, number>();
  for (const k of objTypeKey) perType.set(k, (perType.get(k) ?? 0) + 1);
  const phrases: string[] = new Array(nObj);
  for (let i = 0; i < nObj; i++) {
    const name = task.objects[i]!;
    const tt = objType[i]!;
    let p: string | null = null;
    if (tt.single !== null && perType.get(objTypeKey[i]!) === 1) p = tt.single;
    else if (tt.match !== null) {
      const m = tt.match.exec(name);
      if (m !== null) {
        const vals = tt.phraseNames.map((n, j) => (j === 0 ? name : (m.groups?.[n] ?? "")));
        if (vals.every((v) => v.length > 0)) p = fill(tt.phrase, vals);
      }
      if (p === null) p = tt.fallback !== null ? fill(tt.fallback, [name]) : `${tt.noun} ${name}`;
    } else p = fill(tt.phrase, [name]);
    phrases[i] = p;
  }
  // Phrases must be unique for an exact round trip: fall back to "<noun> <name>", then the name.
  const dedupe = (fallback: (i: number) => string): void => {
    const count = new Map<string, number>();
    for (const p of phrases) count.set(p, (count.get(p) ?? 0) + 1);
    for (let i = 0; i < nObj; i++) if (count.get(phrases[i]!)! > 1) phrases[i] = fallback(i);
  };
  dedupe((i) => `${objType[i]!.noun} ${task.objects[i]!}`);
  dedupe((i) => task.objects[i]!);
  const phraseId = new Map<string, number>();
  phrases.forEach((p, i) => phraseId.set(p, i));
  return { objId, objTypeKey, objType, phrases, phraseId };
}

/** Predicates no action changes (derived ones excluded), and the derived ones. */
function predicateKinds(domain: Domain): { staticPreds: Set<string>; derivedPreds: Set<string> } {
  const staticPreds = new Set(domain.predicates.map((p) => p.name));
  const markEffects = (e: Effect | null): void => {
    if (e === null) return;
    switch (e.kind) {
      case "add":
      case "del":
        staticPreds.delete(e.atom.predicate);
        return;
      case "and":
        e.args.forEach(markEffects);
        return;
      case "forall":
      case "when":
        markEffects(e.body);
        return;
      default:
        return;
    }
  };
  for (const a of domain.actions) markEffects(a.effect);
  const derivedPreds = new Set(domain.derived.map((d) => d.predicate));
  for (const d of derivedPreds) staticPreds.delete(d);
  return { staticPreds, derivedPreds };
}

function predicateOf(tpl: NlTemplates, name: string, arity: number): PredicateTemplate {
  const p = tpl.predicates.get(name);
  if (p !== undefined) return p;
  // Not a domain predicate (cannot happen after checking); keep PDDL-like text.
  const params = Array.from({ length: arity }, (_, i) => `a${i}`);
  const src = `${name}(${params.map((x) => `{${x}}`).join(", ")})`;
  const c: Compiled = { parts: [name + "(", ...params.slice(1).map(() => ", "), ")"], slots: params.map((_, i) => i), source: src };
  if (arity === 0) c.parts = [name];
  const n: Compiled = { ...c, parts: ["not " + c.parts[0]!, ...c.parts.slice(1)] };
  return { params, pos: [c], neg: [n], groupOver: arity > 0 ? [arity - 1] : [], item: null, grouped: null };
}

/** Each action schema's precondition and effects compiled to literals over parameter refs. */
function schemaInfos(domain: Domain, tpl: NlTemplates, objId: ReadonlyMap<string, number>): SchemaInfo[] {
  const termRef = (t: Term, params: string[]): Ref | null => {
    if (t.kind === "var") {
      const i = params.indexOf(t.name.replace(/^\?/, ""));
      return i >= 0 ? i : null;
    }
    const id = objId.get(t.name);
    return id === undefined ? null : -(id + 1);
  };
  return domain.actions.map((a) => {
    const params = paramNames(a.params);
    const pre: PreItem[] = [];
    const addPre = (f: Formula): void => {
      if (f.kind === "and") return f.args.forEach(addPre);
      let pos = true;
      let g = f;
      if (g.kind === "not" && (g.arg.kind === "atom" || g.arg.kind === "eq")) {
        pos = false;
        g = g.arg;
      }
      if (g.kind === "atom") {
        const refs = g.atom.args.map((t) => termRef(t, params));
        if (refs.every((r) => r !== null)) {
          pre.push({ kind: "lit", pred: predicateOf(tpl, g.atom.predicate, refs.length), pos, refs: refs as Ref[] });
          return;
        }
      } else if (g.kind === "eq") {
        const ra = termRef(g.left, params);
        const rb = termRef(g.right, params);
        if (ra !== null && rb !== null) {
          pre.push({ kind: "eq", pos, a: ra, b: rb });
          return;
        }
      }
      pre.push({ kind: "formula", f: mergeQuantifiers(f) });
    };
    if (a.precondition !== null) addPre(a.precondition);
    const adds: EffItem[] = [];
    const dels: EffItem[] = [];
    const complex: Effect[] = [];
    const addEff = (e: Effect): void => {
      if (e.kind === "and") return e.args.forEach(addEff);
      if (e.kind === "add" || e.kind === "del") {
        const refs = e.atom.args.map((t) => termRef(t, params));
        if (refs.every((r) => r !== null)) {
          (e.kind === "add" ? adds : dels).push({ pred: predicateOf(tpl, e.atom.predicate, refs.length), name: e.atom.predicate, add: e.kind === "add", refs: refs as Ref[] });
          return;
        }
      }
      if (e.kind === "forall" || e.kind === "when") complex.push(e);
    };
    if (a.effect !== null) addEff(a.effect);
    return {
      name: a.name,
      params,
      vars: a.params.map((p) => p.name),
      paramTypes: a.params.map((p) => p.types),
      pre,
      adds,
      dels,
      complex,
      text: tpl.actions.get(a.name)!.text,
    };
  });
}

/** The prompt's object sentences: types in order of first mention, each with its objects. */
function objectGroups(task: GroundTask, objId: ReadonlyMap<string, number>, objTypeKey: readonly string[]): { typeOrder: string[]; typeObjects: Map<string, number[]> } {
  const typeOrder: string[] = [];
  const typeObjects = new Map<string, number[]>();
  const objOrder = [...task.domain.constants.map((c) => c.name), ...task.problem.objects.map((o) => o.name)];
  const seen = new Set<number>();
  for (const name of objOrder) {
    const id = objId.get(name);
    if (id === undefined || seen.has(id)) continue;
    seen.add(id);
    const k = objTypeKey[id]!;
    if (!typeObjects.has(k)) {
      typeObjects.set(k, []);
      typeOrder.push(k);
    }
    typeObjects.get(k)!.push(id);
  }
  return { typeOrder, typeObjects };
}

interface InitFact {
  pred: PredicateTemplate;
  args: number[];
}

/**
 * The initial facts as the prompt states them: the changing ones, the fixed ones grouped
 * (`StaticGroup`), and changing facts that grounding dropped because no action deletes them.
 */
function initFacts(
  task: GroundTask,
  tpl: NlTemplates,
  objId: ReadonlyMap<string, number>,
  staticPreds: ReadonlySet<string>,
  derivedPreds: ReadonlySet<string>,
): { fluentInit: InitFact[]; staticGroups: StaticGroup[]; alwaysTrue: InitFact[] } {
  const fluentInit: InitFact[] = [];
  const staticGroups: StaticGroup[] = [];
  const alwaysTrue: InitFact[] = [];
  const factSet = new Set(task.factNames);
  const seenAtoms = new Set<string>();
  const groups = new Map<string, StaticGroup>();
  for (const el of task.problem.init) {
    if (el.kind !== "atom") continue;
    const a = el.atom;
    const key = `(${[a.predicate, ...a.args.map((t) => t.name)].join(" ")})`;
    if (seenAtoms.has(key) || derivedPreds.has(a.predicate)) continue;
    seenAtoms.add(key);
    const args = a.args.map((t) => objId.get(t.name) ?? -1);
    if (args.some((x) => x < 0)) continue;
    const pred = predicateOf(tpl, a.predicate, args.length);
    if (!staticPreds.has(a.predicate)) {
      fluentInit.push({ pred, args });
      if (!factSet.has(key)) alwaysTrue.push({ pred, args });
      continue;
    }
    if (args.length < 2 || pred.groupOver.length >= args.length) {
      staticGroups.push({ pred, predName: a.predicate, args, members: [args] });
      continue;
    }
    const gk = a.predicate + "|" + args.map((x, i) => (pred.groupOver.includes(i) ? "*" : String(x))).join(",");
    let g = groups.get(gk);
    if (g === undefined) {
      g = { pred, predName: a.predicate, args, members: [] };
      groups.set(gk, g);
      staticGroups.push(g);
    }
    g.members.push(args);
  }
  return { fluentInit, staticGroups, alwaysTrue };
}

/**
 * Create the renderer of `task`; `templates = null` uses generic text from PDDL names. Past
 * `deadline` (`performance.now()` ms) making generic texts throws LimitError.
 */
export function createRenderer(task: GroundTask, templates: NlTemplates | null, deadline = Infinity): Renderer {
  const summary: PromptSummary = { rulesOmitted: 0, rulesOmittedNames: [], fixedOmitted: 0, costOmitted: 0, arithmetic: [] };
  const domain = task.domain;
  const problem = task.problem;
  // (a deadline, as judge's: the generic texts load the English lexicon, a second and more)
  const tpl = completeTemplates(templates, domain, () => taskHints(task), deadline);
  const nObj = task.objects.length;

  // ---- types and object phrases
  const { objId, objTypeKey, objType, phrases, phraseId } = objectPhrases(task, tpl);
  const typeNoun = (t: string): string => typeNounOf(tpl, t);

  // ---- predicates
  const { staticPreds, derivedPreds } = predicateKinds(domain);
  const predOf = (name: string, arity: number): PredicateTemplate => predicateOf(tpl, name, arity);
  const atomText = (pred: PredicateTemplate, pos: boolean, vals: readonly string[], prng: Prng | null): string =>
    fill(pick(pos ? pred.pos : pred.neg, prng), vals);
  const eqText = (pos: boolean, a: string, b: string): string => (pos ? `${a} is the same as ${b}` : `${a} is different from ${b}`);

  // ---- action schemas
  const schemas = schemaInfos(domain, tpl, objId);

  // ---- lifted formula and effect text (quantifiers, disjunctions, conditional effects)
  type Env = Map<string, string>;
  const termPhrase = (t: Term, env: Env): string => {
    if (t.kind === "var") return env.get(t.name.replace(/^\?/, "")) ?? words(t.name).toUpperCase();
    const id = objId.get(t.name);
    return id === undefined ? t.name : phrases[id]!;
  };
  // Variables of lifted text are capital letters from their types ("every passenger P"), never "?p".
  const bind = (env: Env, ps: { name: string; types: string[] }[]): [Env, string] => {
    const e = new Map(env);
    const taken = new Set(e.values());
    const desc: string[] = [];
    const labels = variableLabels(ps.map((p) => typeNoun(p.types[0] ?? "object")), taken);
    ps.forEach((p, i) => {
      e.set(p.name.replace(/^\?/, ""), labels[i]!);
      desc.push(`${typeNoun(p.types[0] ?? "object")} ${labels[i]}`);
    });
    return [e, joinList(desc)];
  };
  const formulaText = (f: Formula, env: Env, prng: Prng | null): string => {
    switch (f.kind) {
      case "atom":
        return atomText(predOf(f.atom.predicate, f.atom.args.length), true, f.atom.args.map((t) => termPhrase(t, env)), prng);
      case "eq":
        return eqText(true, termPhrase(f.left, env), termPhrase(f.right, env));
      case "not":
        if (f.arg.kind === "atom") {
          const a = f.arg.atom;
          return atomText(predOf(a.predicate, a.args.length), false, a.args.map((t) => termPhrase(t, env)), prng);
        }
        if (f.arg.kind === "eq") return eqText(false, termPhrase(f.arg.left, env), termPhrase(f.arg.right, env));
        return `it is not the case that ${formulaText(f.arg, env, prng)}`;
      case "and":
        return f.args.length === 0 ? "nothing is required" : joinList(f.args.map((g) => formulaText(g, env, prng)));
      case "or": {
        const items = f.args.map((g) => formulaText(g, env, prng));
        return items.length === 0 ? "an impossible condition holds" : items.length === 1 ? items[0]! : `either ${joinList(items, "or")}`;
      }
      case "imply":
        return `if ${formulaText(f.left, env, prng)}, then ${formulaText(f.right, env, prng)}`;
      case "exists": {
        const [e, d] = bind(env, f.params);
        return `there is some ${d} such that ${formulaText(f.body, e, prng)}`;
      }
      case "forall": {
        const [e, d] = bind(env, f.params);
        if (f.body.kind === "imply") return `for every ${d} such that ${formulaText(f.body.left, e, prng)}, ${formulaText(f.body.right, e, prng)}`;
        return `for every ${d}, ${formulaText(f.body, e, prng)}`;
      }
    }
  };
  // only quantified and conditional PDDL needs it (never a STRIPS domain's rows): made on first use
  let logicCtx: LogicContext | null = null;
  const logic = (): LogicContext => (logicCtx ??= logicContext(task));
  /**
   * Denied facts of a conjunction that differ in their subject only, said once: "no spaceship is
   * on (x4, x1)" when every object of the subject's type is denied, else "none of a, b and c is
   * ..." (a universal precondition grounds to one denial per object: lunar lockout's eighteen "it
   * is not the case that ..." clauses, issue 51). By item index: the group's text at its first
   * member, null at the others; items not grouped are absent. Two or more facts make a group.
   */
  const negatedGroups = (xs: readonly Ground[], prng: Prng | null): Map<number, string | null> => {
    const out = new Map<number, string | null>();
    const byShape = new Map<string, number[]>();
    xs.forEach((x, i) => {
      if (x.k !== "lit" || x.pos || x.args.length === 0) return;
      const k = `${x.pred}/${x.args.slice(1).join(" ")}`;
      let g = byShape.get(k);
      if (g === undefined) byShape.set(k, (g = []));
      g.push(i);
    });
    for (const idx of byShape.values()) {
      if (idx.length < 2) continue;
      const f0 = xs[idx[0]!] as Extract<Ground, { k: "lit" }>;
      const ids = idx.map((i) => objId.get((xs[i] as Extract<Ground, { k: "lit" }>).args[0]!));
      if (ids.some((x) => x === undefined)) continue;
      const type = objTypeKey[ids[0]!]!;
      if (ids.some((x) => objTypeKey[x!] !== type)) continue;
      const c = pick(predOf(f0.pred, f0.args.length).pos, prng);
      // the subject must lead the sentence, in one slot ("no spaceship is on ...")
      if (c.slots[0] !== 0 || c.parts[0] !== "" || c.slots.indexOf(0, 1) >= 0 || c.elide !== undefined) continue;
      let all = 0;
      for (let o = 0; o < nObj; o++) if (objTypeKey[o] === type) all++;
      const vals = f0.args.map(namePhrase);
      const distinct = new Set(ids);
      vals[0] = distinct.size === all ? `no ${typeNoun(type)}` : `none of ${objectList([...distinct].sort((a, b) => a! - b!) as number[])}`;
      idx.forEach((i, j) => out.set(i, j === 0 ? fill(c, vals) : null));
    }
    return out;
  };
  // A ground formula (quantifiers expanded, static atoms decided) as text.
  const groundText = (g: Ground, prng: Prng | null, nested = false): string => {
    switch (g.k) {
      case "true":
        return "nothing more is needed";
      case "false":
        return "an impossible condition holds";
      case "lit":
        return atomText(predOf(g.pred, g.args.length), g.pos, g.args.map(namePhrase), prng);
      case "eq":
        return eqText(g.pos, namePhrase(g.a), namePhrase(g.b));
      case "and": {
        const grouped = tpl.generic ? negatedGroups(g.xs, prng) : new Map<number, string | null>();
        const items: string[] = [];
        g.xs.forEach((x, i) => {
          const t = grouped.get(i);
          if (t === undefined) items.push(groundText(x, prng, true));
          else if (t !== null) items.push(t);
        });
        return nested ? items.join(" and ") : joinList(items);
      }
      case "or": {
        const items = g.xs.map((x) => groundText(x, prng, true));
        return `either ${joinList(items, "or")}`;
      }
      case "imply":
        return `if ${groundText(g.a, prng, true)}, then ${groundText(g.b, prng, true)}`;
    }
  };
  /** `f` with its quantifiers over the problem's objects and its fixed facts decided, as text; lifted when too long. */
  const concreteFormula = (f: Formula, bindings: Bindings, env: Env, prng: Prng | null): string => {
    try {
      const g = ground(f, bindings, logic());
      // A condition that the fixed facts already satisfy says nothing about this step.
      if (g.k === "true" && bindings.size > 0) return "";
      if (!quantified(f) || size(g) <= 24) return groundText(g, prng);
    } catch (e) {
      if (!(e instanceof TooLarge)) throw e;
    }
    return formulaText(f, env, prng);
  };
  const namePhrase = (name: string): string => {
    const id = objId.get(name);
    return id === undefined ? name : phrases[id]!;
  };
  const effectText = (e: Effect, env: Env, prng: Prng | null): string => {
    switch (e.kind) {
      case "add":
      case "del":
        return atomText(predOf(e.atom.predicate, e.atom.args.length), e.kind === "add", e.atom.args.map((t) => termPhrase(t, env)), prng);
      case "and":
        return joinList(e.args.filter((x) => x.kind !== "increase").map((x) => effectText(x, env, prng)));
      case "forall": {
        const [env2, d] = bind(env, e.params);
        // "for every passenger P such that A, B" rather than "for every passenger P, if A, then B".
        if (e.body.kind === "when") return `for every ${d} such that ${formulaText(e.body.cond, env2, prng)}, ${effectText(e.body.body, env2, prng)}`;
        return `for every ${d}, ${effectText(e.body, env2, prng)}`;
      }
      case "when":
        return `if ${formulaText(e.cond, env, prng)}, then ${effectText(e.body, env, prng)}`;
      case "increase":
        return "";
    }
  };

  // ---- step parts
  const refPhrase = (r: Ref, argPhrases: readonly string[]): string => (r >= 0 ? argPhrases[r]! : phrases[-r - 1]!);
  // A literal's text straight from its refs (no intermediate array: this is the hot loop).
  const litText = (pred: PredicateTemplate, pos: boolean, refs: Ref[], argPhrases: readonly string[], prng: Prng | null): string => {
    const t = pick(pos ? pred.pos : pred.neg, prng);
    const { parts, slots } = t;
    if (t.elide !== undefined) return fillEliding(t, (i) => refPhrase(refs[slots[i]!]!, argPhrases));
    let out = parts[0]!;
    for (let i = 0; i < slots.length; i++) {
      const r = refs[slots[i]!]!;
      out += (r >= 0 ? argPhrases[r]! : phrases[-r - 1]!) + parts[i + 1]!;
    }
    return out;
  };
  const schemaEnv = (s: SchemaInfo, argPhrases: readonly string[]): Env => new Map(s.params.map((p, i) => [p, argPhrases[i]!]));

  const bindingsOf = (s: SchemaInfo, args: ArrayLike<number>): Bindings => new Map(s.vars.map((v, i) => [v, task.objects[args[i]!]!]));

  // ---- existential preconditions (issue 51): "there is some dish D such that ... (here D is d2)"
  /**
   * The bindings of an existential precondition's variables that can make it true (those the
   * fixed facts do not rule out), with the body ground under each; null when there are fewer
   * than two (then the ground text says it plainly) or too many to expand.
   */
  type Witness = { b: Bindings; g: Ground };
  const witnessesOf = (f: Extract<Formula, { kind: "exists" }>, b: Bindings): Witness[] | null => {
    try {
      const out = witnessCandidates(f, b);
      return out.length >= 2 ? out : null;
    } catch (e) {
      if (e instanceof TooLarge) return null;
      throw e;
    }
  };
  /** Every binding the fixed facts leave possible (throws TooLarge past 2,000). */
  const witnessCandidates = (f: Extract<Formula, { kind: "exists" }>, b: Bindings): Witness[] => {
    const bs = expansions(f.params, b, logic(), 2000);
    if (bs === null) throw new TooLarge();
    const out: Witness[] = [];
    for (const x of bs) {
      const g = ground(f.body, x, logic());
      if (g.k !== "false") out.push({ b: x, g });
    }
    return out;
  };
  /** The variables of an existential as their letters and the objects a witness gives them: "D is d2", "M is m1 and S is s2". */
  const witnessAssignment = (f: Extract<Formula, { kind: "exists" }>, env: Env, w: Witness, verb = "is"): string =>
    joinList(f.params.map((p) => `${env.get(p.name.replace(/^\?/, ""))} ${verb} ${namePhrase(w.b.get(p.name)!)}`));
  /**
   * The existential as one quantified sentence, its body lifted with the variables' letters;
   * with the state the step is taken in, the witnesses that hold there, at most three named.
   */
  const existsText = (f: Extract<Formula, { kind: "exists" }>, ws: Witness[], env: Env, prng: Prng | null, state?: Uint32Array): string => {
    const [e, d] = bind(env, f.params);
    const text = `there is some ${d} such that ${formulaText(f.body, e, prng)}`;
    if (state === undefined) return text;
    const ok = ws.filter((w) => whyFalse(w.g, state) === null);
    if (ok.length === 0) return text;
    const shown = ok.slice(0, 3);
    const more = ok.length - shown.length;
    if (f.params.length === 1) {
      const v = e.get(f.params[0]!.name.replace(/^\?/, ""))!;
      const xs = shown.map((w) => namePhrase(w.b.get(f.params[0]!.name)!));
      if (more > 0) xs.push(`${countWord(more)} more`);
      return `${text} (here ${v} ${xs.length === 1 ? `is ${xs[0]}` : `can be ${joinList(xs, "or")}`})`;
    }
    const xs = shown.map((w) => witnessAssignment(f, e, w));
    return `${text} (here ${xs.join("; or ")}${more > 0 ? `; or ${countWord(more)} more ways` : ""})`;
  };
  // the lifted text's names of a sole witness's variables: its objects
  const witnessEnv = (f: Extract<Formula, { kind: "exists" }>, env: Env, w: Witness): Env => {
    const e = new Map(env);
    for (const p of f.params) e.set(p.name.replace(/^\?/, ""), namePhrase(w.b.get(p.name)!));
    return e;
  };
  type Part = { k: "true" } | { k: "false" } | { k: "text"; t: string };
  /**
   * A precondition with an existential anywhere in it, as text: its structure kept (and, or,
   * if-then, not), each existential said as one quantified sentence ("there is some ...", "there
   * is no ...") with its witnesses in `state` when known, never as the list of its groundings;
   * the parts without one ground as `concreteFormula` says them, and parts that the fixed facts
   * decide left out. "" when the fixed facts satisfy it all (it says nothing about the step).
   */
  const existentialFormula = (f: Formula, b: Bindings, env: Env, prng: Prng | null, state?: Uint32Array): string => {
    try {
      const p = part(f, b, env, prng, state);
      return p.k === "text" ? p.t : p.k === "true" ? (b.size > 0 ? "" : groundText({ k: "true" }, prng)) : groundText({ k: "false" }, prng);
    } catch (e) {
      if (!(e instanceof TooLarge)) throw e;
      return formulaText(f, env, prng);
    }
  };
  const part = (f: Formula, b: Bindings, env: Env, prng: Prng | null, state?: Uint32Array): Part => {
    if (!hasExists(f)) {
      const g = ground(f, b, logic());
      if (g.k === "true" || g.k === "false") return g;
      return { k: "text", t: !quantified(f) || size(g) <= 24 ? groundText(g, prng, true) : formulaText(f, env, prng) };
    }
    switch (f.kind) {
      case "and": {
        const xs: string[] = [];
        for (const a of f.args) {
          const p = part(a, b, env, prng, state);
          if (p.k === "false") return p;
          if (p.k === "text") xs.push(p.t);
        }
        return xs.length === 0 ? { k: "true" } : { k: "text", t: joinList(xs) };
      }
      case "or": {
        const xs: string[] = [];
        for (const a of f.args) {
          const p = part(a, b, env, prng, state);
          if (p.k === "true") return p;
          if (p.k === "text") xs.push(p.t);
        }
        return xs.length === 0 ? { k: "false" } : { k: "text", t: xs.length === 1 ? xs[0]! : `either ${joinList(xs, "or")}` };
      }
      case "imply": {
        const a = part(f.left, b, env, prng, state);
        if (a.k === "false") return { k: "true" };
        const c = part(f.right, b, env, prng, state);
        if (a.k === "true" || c.k !== "text") return a.k === "true" ? c : c.k === "true" ? c : negPart(f.left, b, env, prng, state);
        return { k: "text", t: `if ${a.t}, then ${c.t}` };
      }
      case "not":
        return negPart(f.arg, b, env, prng, state);
      case "exists": {
        const ws = witnessCandidates(f, b);
        if (ws.length === 0) return { k: "false" };
        if (ws.length === 1) return part(f.body, ws[0]!.b, witnessEnv(f, env, ws[0]!), prng, state);
        return { k: "text", t: existsText(f, ws, env, prng, state) };
      }
      default:
        // a universal over an existential: lifted
        return { k: "text", t: formulaText(f, env, prng) };
    }
  };
  // `f` is false, as a part: "there is no ..." for an existential, else "it is not the case that ...".
  const negPart = (f: Formula, b: Bindings, env: Env, prng: Prng | null, state?: Uint32Array): Part => {
    if (f.kind === "exists") {
      const ws = witnessCandidates(f, b);
      if (ws.length === 0) return { k: "true" };
      if (ws.length === 1) return negPart(f.body, ws[0]!.b, witnessEnv(f, env, ws[0]!), prng, state);
      const [e, d] = bind(env, f.params);
      return { k: "text", t: `there is no ${d} such that ${formulaText(f.body, e, prng)}` };
    }
    if (!hasExists(f)) {
      const g = ground({ kind: "not", arg: f, loc: f.loc }, b, logic());
      if (g.k === "true" || g.k === "false") return g;
      return { k: "text", t: !quantified(f) || size(g) <= 24 ? groundText(g, prng, true) : `it is not the case that ${formulaText(f, env, prng)}` };
    }
    if (f.kind === "not") return part(f.arg, b, env, prng, state);
    const p = part(f, b, env, prng, state);
    return p.k === "true" ? { k: "false" } : p.k === "false" ? { k: "true" } : { k: "text", t: `it is not the case that ${p.t}` };
  };
  /**
   * Why an existential precondition is false in `state`: no witness; the nearest one (fewest
   * failing facts) and what fails for it. Null when it holds or cannot be expanded.
   */
  const existsFalse = (f: Extract<Formula, { kind: "exists" }>, b: Bindings, env: Env, state: Uint32Array): string | null => {
    const ws = witnessesOf(f, b);
    if (ws === null) return null;
    let best: { w: Witness; why: string[] } | null = null;
    for (const w of ws) {
      const why = whyFalse(w.g, state);
      if (why === null) return null;
      if (best === null || why.length < best.why.length) best = { w, why };
    }
    const [e, d] = bind(env, f.params);
    const none = `there is no ${d} such that ${formulaText(f.body, e, null)}`;
    if (best === null) return none;
    const nearest = f.params.length === 1 ? namePhrase(best.w.b.get(f.params[0]!.name)!) : witnessAssignment(f, e, best.w, "as");
    return `${none} (the nearest is ${nearest}, but ${joinList(once(best.why))})`;
  };
  /** The precondition as a list; quantified parts ground over the objects when `args` are known. */
  const whyItems = (s: SchemaInfo, argPhrases: readonly string[], prng: Prng | null, args: ArrayLike<number> | null, state?: Uint32Array): string[] => {
    const out: string[] = [];
    for (const it of s.pre) {
      if (it.kind === "lit") out.push(litText(it.pred, it.pos, it.refs, argPhrases, prng));
      else if (it.kind === "eq") out.push(eqText(it.pos, refPhrase(it.a, argPhrases), refPhrase(it.b, argPhrases)));
      else if (args !== null) {
        const b = bindingsOf(s, args);
        const env = schemaEnv(s, argPhrases);
        let f = it.f;
        // a choice in a known state: the options that hold there ("r1 is charged 4", not "either
        // r1 is charged 5, r1 is charged 4, ... or r1 is charged 1"); none holds: the choice as it is
        if (state !== undefined && f.kind === "or" && !hasExists(f)) {
          const held = f.args.filter((d) => truth(d, b, logic(), state));
          if (held.length > 0 && held.length < f.args.length) f = held.length === 1 ? held[0]! : { ...f, kind: "and", args: held };
        }
        const t = hasExists(f) ? existentialFormula(f, b, env, prng, state) : concreteFormula(f, b, env, prng);
        if (t !== "") out.push(t);
      }
      else out.push(formulaText(it.f, schemaEnv(s, argPhrases), prng));
    }
    return out;
  };
  const resolve = (r: Ref, args: ArrayLike<number>): number => (r >= 0 ? args[r]! : -r - 1);
  const sameAtom = (a: EffItem, b: EffItem, args: ArrayLike<number>): boolean => {
    if (a.pred !== b.pred || a.refs.length !== b.refs.length) return false;
    for (let i = 0; i < a.refs.length; i++) if (resolve(a.refs[i]!, args) !== resolve(b.refs[i]!, args)) return false;
    return true;
  };
  const factText = (f: number, pos: boolean, prng: Prng | null): string => {
    const vals: string[] = [];
    for (let j = task.factArgStart[f]!; j < task.factArgStart[f + 1]!; j++) vals.push(phrases[task.factArgs[j]!]!);
    return atomText(predOf(task.factPredicate[f]!, vals.length), pos, vals, prng);
  };
  const has = (state: Uint32Array, f: number): boolean => ((state[f >>> 5]! >>> (f & 31)) & 1) === 1;
  /**
   * Added facts of a quantified effect that differ in one argument only, said once with that
   * argument as a list, where the sentence begins or ends with it ("d1 is sniffing each of d1 to
   * d5" for `forall (?d) (when (connected ?d ?n) (sniffing ?dev ?d))`; was one clause per device,
   * issue 51). By item index: the group's text at its first member, null at the others; items
   * not grouped are absent. Three or more facts make a group.
   */
  const groupedFacts = (facts: ReadonlyArray<{ pred: string; args: readonly string[] } | null>, prng: Prng | null): Map<number, string | null> => {
    const out = new Map<number, string | null>();
    const byShape = new Map<string, number[]>();
    facts.forEach((f, i) => {
      if (f === null || f.args.length === 0) return;
      // the varying argument: the first or the last (keys with the other arguments)
      for (const at of f.args.length === 1 ? [0] : [0, f.args.length - 1]) {
        const k = `${f.pred}/${f.args.length}/${at}/${f.args.filter((_, j) => j !== at).join(" ")}`;
        let g = byShape.get(k);
        if (g === undefined) byShape.set(k, (g = []));
        g.push(i);
      }
    });
    for (const [k, idx] of byShape) {
      const members = idx.filter((i) => !out.has(i));
      if (members.length < 3) continue;
      const at = Number(k.split("/")[2]);
      const f0 = facts[members[0]!]!;
      const c = pick(predOf(f0.pred, f0.args.length).pos, prng);
      // the list must stand where the sentence begins or ends, in one slot, as written
      const slot = c.slots.indexOf(at);
      if (slot < 0 || c.slots.lastIndexOf(at) !== slot || c.elide !== undefined) continue;
      const leads = slot === 0 && c.parts[0] === "";
      const ends = slot === c.slots.length - 1 && c.parts[c.slots.length] === "";
      if (!leads && !ends) continue;
      const ids = members.map((i) => objId.get(facts[i]!.args[at]!));
      if (ids.some((x) => x === undefined)) continue;
      const vals = f0.args.map(namePhrase);
      vals[at] = `each of ${objectList(ids as number[])}`;
      members.forEach((i, j) => out.set(i, j === 0 ? fill(c, vals) : null));
    }
    return out;
  };
  const effectItems = (s: SchemaInfo, args: ArrayLike<number>, argPhrases: readonly string[], prng: Prng | null, op: number, state: Uint32Array | undefined): string[] => {
    const out: string[] = [];
    if (s.complex.length > 0 && state !== undefined) {
      // Conditional effects with a known state: exactly what the action does there.
      const b = bindingsOf(s, args);
      const fired = s.complex.flatMap((e) => firingEffects(e, b, logic(), state));
      const items = [
        ...[...s.adds, ...s.dels].map((e) => ({
          key: `${e.name}(${e.refs.map((r) => resolve(r, args)).join(",")})`,
          add: e.add,
          text: () => litText(e.pred, e.add, e.refs, argPhrases, prng),
          fact: null as { pred: string; args: readonly string[] } | null,
        })),
        ...fired.map((g) => ({
          key: `${g.pred}(${g.args.map((a) => objId.get(a) ?? -1).join(",")})`,
          add: g.add,
          text: () => atomText(predOf(g.pred, g.args.length), g.add, g.args.map(namePhrase), prng),
          fact: g,
        })),
      ];
      const added = new Set(items.filter((x) => x.add).map((x) => x.key));
      const seen = new Set<string>();
      const kept: typeof items = [];
      for (const x of items) {
        if (!x.add && added.has(x.key)) continue; // add wins over delete
        if (seen.has(`${x.add}/${x.key}`)) continue;
        seen.add(`${x.add}/${x.key}`);
        kept.push(x);
      }
      const grouped = tpl.generic ? groupedFacts(kept.map((x) => (x.add ? x.fact : null)), prng) : new Map<number, string | null>();
      kept.forEach((x, i) => {
        const g = grouped.get(i);
        if (g === undefined) out.push(x.text());
        else if (g !== null) out.push(g);
      });
      return out;
    }
    for (const e of s.adds) out.push(litText(e.pred, true, e.refs, argPhrases, prng));
    for (const e of s.dels) {
      if (s.adds.some((a) => sameAtom(a, e, args))) continue; // add wins over delete
      out.push(litText(e.pred, false, e.refs, argPhrases, prng));
    }
    if (s.complex.length > 0) {
      const env = schemaEnv(s, argPhrases);
      for (const e of s.complex) {
        const t = effectText(e, env, prng);
        if (t.length > 0) out.push(t);
      }
    }
    return out;
  };

  const actionText = (schema: number, args: ArrayLike<number>, prng: Prng | null): string => {
    const s = schemas[schema]!;
    const vals: string[] = new Array(s.params.length);
    for (let i = 0; i < vals.length; i++) vals[i] = phrases[args[i]!]!;
    return fill(pick(s.text, prng), vals);
  };

  // Everything after "Step k: ", rendered with `prng`.
  const statefulStep = Uint8Array.from(schemas, (s) => (s.complex.length > 0 || s.pre.some((it) => it.kind === "formula" && (hasExists(it.f) || it.f.kind === "or")) ? 1 : 0));
  const stepBody = (c: Candidate, prng: Prng, state?: Uint32Array): string => {
    const s = schemas[c.schema]!;
    const argPhrases: string[] = new Array(s.params.length);
    for (let i = 0; i < argPhrases.length; i++) argPhrases[i] = phrases[c.args[i]!]!;
    // A clause said twice (a self-loop's "rooma is a room", a twin's "sd2 is closed") is said once.
    const why = once(whyItems(s, argPhrases, prng, c.args, state));
    const act = fill(pick(s.text, prng), argPhrases);
    const eff = once(effectItems(s, c.args, argPhrases, prng, c.op, state));
    let out = why.length > 0 ? `${pick(WHY, prng)}${joinList(why)}, I ${act}.` : `I ${act}.`;
    out += eff.length > 0 ? ` ${pick(NOW, prng)}${joinList(eff)}.` : ` ${pick(NO_EFFECT, prng)}`;
    return out;
  };
  // Rendering runs once per row for ~1M rows, and a row repeats the steps of its prefix: each
  // action gets STEP_VARIANTS paraphrase draws, rendered once per task; the row's PRNG picks one.
  const taskSeed = hashString(`${domain.name}/${problem.name}`);
  type StepParts = { body: string; json: string | null };
  // Ground operators by a number (op * STEP_VARIANTS + v: no key string per row); other
  // groundings by text. The string key also seeds the body's paraphrase draws.
  const opSteps = new Map<number, StepParts>();
  const stepCache = new Map<string, StepParts>();
  // The step's body (after "Step k: ") and where it is cached, the JSON of the body too.
  const stepParts = (c: Candidate, prng: Prng, state?: Uint32Array): StepParts => {
    const v = prng.int(STEP_VARIANTS);
    const s = schemas[c.schema]!;
    // Conditional effects depend on the state, and so do the witnesses of an existential
    // precondition: such steps are rendered each time.
    if (state !== undefined && statefulStep[c.schema] === 1) return { body: stepBody(c, new Prng(taskSeed, `${c.name}/${v}`), state), json: null };
    if (c.op >= 0) {
      let cached = opSteps.get(c.op * STEP_VARIANTS + v);
      if (cached === undefined) {
        cached = { body: stepBody(c, new Prng(taskSeed, `${c.op}/${v}`)), json: null };
        opSteps.set(c.op * STEP_VARIANTS + v, cached);
      }
      return cached;
    }
    const key = `${c.schema}:${c.args.join(",")}/${v}`;
    let cached = stepCache.get(key);
    if (cached === undefined) {
      cached = { body: stepBody(c, new Prng(taskSeed, key)), json: null };
      stepCache.set(key, cached);
    }
    return cached;
  };
  const step = (k: number, c: Candidate, prng: Prng, state?: Uint32Array): string => `Step ${k}: ${stepParts(c, prng, state).body}`;
  // "Step k: " needs no escaping, so the step's JSON is its prefix and the body's JSON (after its quote).
  const stepJson = (k: number, c: Candidate, prng: Prng, state?: Uint32Array): string => {
    const p = stepParts(c, prng, state);
    // kept on the cache entry (a state-dependent step's parts are new each time)
    p.json ??= JSON.stringify(p.body).slice(1);
    return `"Step ${k}: ${p.json}`;
  };

  // ---- prompt
  const { typeOrder, typeObjects } = objectGroups(task, objId, objTypeKey);
  /**
   * Objects as a list, runs of four or more names that count up by one ("p1", "p2", ... "p40")
   * said as "p1 to p40" (exact: every name in between is in the list). Generic text only.
   */
  const objectList = (ids: readonly number[]): string => {
    const items: string[] = [];
    let i = 0;
    while (i < ids.length) {
      let j = i;
      const stem = (k: number): string => task.objects[ids[k]!]!.replace(/\d+$/, "");
      const num = (k: number): number | null => nameNumber(task.objects[ids[k]!]!);
      while (j + 1 < ids.length && num(j) !== null && num(j + 1) === num(j)! + 1 && stem(j + 1) === stem(j) && /\d$/.test(task.objects[ids[j]!]!) && phrases[ids[j + 1]!] === task.objects[ids[j + 1]!]) j++;
      if (j - i >= 3 && phrases[ids[i]!] === task.objects[ids[i]!]) {
        items.push(`${phrases[ids[i]!]} to ${phrases[ids[j]!]}`);
        i = j + 1;
      } else items.push(phrases[ids[i++]!]!);
    }
    return joinList(items);
  };
  /**
   * A long list of facts in generic text: the facts of a one-object predicate whose sentence
   * starts with its object grouped ("each of p1 to p40 is not made"); others as they are.
   */
  const factList = (facts: ReadonlyArray<{ pred: PredicateTemplate; args: readonly number[] }>, prng: Prng, pos = true): string => {
    const texts = facts.map((a) => atomText(a.pred, pos, a.args.map((x) => phrases[x]!), prng));
    if (!tpl.generic || texts.reduce((n, t) => n + t.length + 2, 0) <= GROUP_LISTS_OVER) return joinList(texts);
    const groups = new Map<PredicateTemplate, number[]>();
    const out: string[] = [];
    facts.forEach((a, k) => {
      const c = (pos ? a.pred.pos : a.pred.neg)[0]!;
      if (a.args.length === 1 && c.slots.length === 1 && c.parts[0] === "" && c.elide === undefined) {
        let g = groups.get(a.pred);
        if (g === undefined) {
          groups.set(a.pred, (g = []));
          out.push("");
        }
        g.push(a.args[0]!);
      } else out.push(texts[k]!);
    });
    let gi = 0;
    const heads = [...groups];
    return joinList(
      out.map((t) => {
        if (t !== "") return t;
        const [pred, ids] = heads[gi++]!;
        const c = (pos ? pred.pos : pred.neg)[0]!;
        return ids.length === 1 ? fill(c, [phrases[ids[0]!]!]) : `each of ${objectList(ids)}${c.parts[1]}`;
      }),
    );
  };
  // A goal that is a plain conjunction of positive atoms is a fact list (grouped when long).
  const goalAtoms = ((): Array<{ pred: PredicateTemplate; args: number[] }> | null => {
    const g = problem.goal;
    const atoms = g.kind === "and" ? g.args : [g];
    if (!atoms.every((x) => x.kind === "atom")) return null;
    const out = atoms.map((x) => (x as Extract<Formula, { kind: "atom" }>).atom).map((a) => ({ pred: predOf(a.predicate, a.args.length), args: a.args.map((t) => objId.get(t.name) ?? -1) }));
    return out.length > 1 && out.every((a) => a.args.every((x) => x >= 0)) ? out : null;
  })();
  const goalText = (prng: Prng): string => (goalAtoms !== null && tpl.generic ? factList(goalAtoms, prng) : concreteFormula(problem.goal, new Map(), new Map(), prng));
  const objectSentences = (prng: Prng): string[] =>
    typeOrder.map((k) => {
      const ids = typeObjects.get(k)!;
      const tt = objType[ids[0]!]!;
      if (ids.length === 1) {
        const p = phrases[ids[0]!]!;
        return p === tt.noun || p === `the ${tt.noun}` ? `There is one ${tt.noun}.` : `There is one ${tt.noun}: ${p}.`;
      }
      const list = tpl.generic ? objectList(ids) : joinList(ids.map((i) => phrases[i]!));
      // objects of a subtype listed apart are of this type too: not "the stone levels are sl0 ..."
      // when sl1 (a stone_atleastlevel) is one as well
      const subs = typeOrder.filter((k2) => k2 !== k && supertypesOf(domain, k2).includes(k)).map((k2) => objType[typeObjects.get(k2)![0]!]!.plural);
      // (drawn all the same: the draws after it stay as they were)
      const said = pick([`There are ${countWord(ids.length)} ${tt.plural}: ${list}.`, `The ${tt.plural} are ${list}.`], prng);
      return subs.length > 0 ? `The ${tt.plural} other than the ${joinList(subs)} are ${list}.` : said;
    });

  const { fluentInit, staticGroups, alwaysTrue } = initFacts(task, tpl, objId, staticPreds, derivedPreds);
  const staticText = (g: StaticGroup, prng: Prng | null): string => {
    const p = g.pred;
    if (g.members.length <= 1) return fill(pick(p.pos, prng), g.args.map((x) => phrases[x]!));
    const items = g.members.map((m) => {
      const vals = m.map((x) => phrases[x]!);
      return p.item !== null ? fill(pick(p.item, prng), vals) : vals[p.groupOver[0]!]!;
    });
    const list = joinList(items);
    const vals = g.args.map((x) => phrases[x]!);
    for (const i of p.groupOver) vals[i] = list;
    if (p.grouped === null) return fill(pick(p.pos, prng), vals);
    vals.push(list); // {items}
    return fill(pick(p.grouped, prng), vals);
  };

  // ---- the fixed facts within the prompt's budget (DESIGN.md §14): a relation proven to be
  // arithmetic is stated once as such (hints.ts); the other facts are listed in order while
  // they fit, and the rest are counted, never silently dropped.
  const hints = tpl.generic || [...tpl.predicates.values()].some((p) => p.generic === true) ? taskHints(task) : new Map<string, PredicateHint>();
  // (a short relation is clearer listed: only ten facts or more are summed up)
  const factCount = (pred: string): number => staticGroups.filter((g) => g.predName === pred).reduce((a, g) => a + g.members.length, 0);
  const numericPreds = new Set([...hints].filter(([n, h]) => h.numeric !== null && tpl.predicates.get(n)?.generic === true && factCount(n) >= 10).map(([n]) => n));
  const numericSummaries = [...numericPreds].map((n) => numericSummary(n, hints.get(n)!));
  const listedGroups = staticGroups.filter((g) => !numericPreds.has(g.predName));
  // Past the budget, the relations with the fewest facts come first: a few facts each tell more
  // than the start of a long run (lights-out's five broken switches were left out behind 120
  // adjacencies, issue 51); within the budget, the domain's order.
  // (measured on the first paraphrases, as the loop below counts: a group starts while the size so far is within the budget)
  const fitsAll = ((): boolean => {
    let size = numericSummaries.reduce((a, x) => a + x.length + 2, 0);
    for (const g of listedGroups) {
      if (size > FIXED_BUDGET && size > 0) return false;
      size += staticText(g, null).length + 2;
    }
    return true;
  })();
  const byFewest = fitsAll ? listedGroups : listedGroups.map((g, i) => [g, i] as const).sort((a, b) => factCount(a[0].predName) - factCount(b[0].predName) || a[1] - b[1]).map(([g]) => g);
  const fixedParagraph = (prng: Prng): string => {
    const lead = pick(FIXED, prng); // drawn first, as before the budget (same bytes)
    const items = [...numericSummaries];
    let size = items.reduce((a, x) => a + x.length + 2, 0);
    let omitted = 0;
    const omittedPreds = new Set<string>();
    for (const g of byFewest) {
      if (omitted > 0 || (size > FIXED_BUDGET && items.length > 0)) {
        omitted += g.members.length;
        omittedPreds.add(g.predName);
        continue;
      }
      const t = staticText(g, prng);
      items.push(t);
      size += t.length + 2;
    }
    if (omitted > 0) {
      summary.fixedOmitted = omitted;
      items.push(`${omitted} more fixed fact${omitted === 1 ? "" : "s"} (of ${joinList([...omittedPreds].map((p) => `"${words(p)}"`))}) ${omitted === 1 ? "is" : "are"} not listed here, to keep this text short; every step below states the fixed facts its action requires`);
    }
    summary.arithmetic = [...numericPreds];
    return sub(lead, items.join("; "));
  };
  // One sentence for a relation whose facts are exactly an arithmetic relation of the numbers in the objects' names.
  function numericSummary(pred: string, hint: PredicateHint): string {
    const rel = hint.numeric!;
    const num = (o: number): number => hint.numbers?.get(task.objects[o]!) ?? nameNumber(task.objects[o]!) ?? 0;
    const objs = new Set<number>();
    for (const g of staticGroups) if (g.predName === pred) for (const m of g.members) for (const o of m) objs.add(o);
    const sorted = [...objs].sort((a, b) => num(a) - num(b) || (task.objects[a]! < task.objects[b]! ? -1 : 1));
    let span = objectList(sorted);
    // an offset of its own kind in the middle (tidybot's sum-x ?x - xc ?xr - xrel ?xsum - xc): each kind named
    if (rel === "sum" || rel === "diff") {
      const middle = new Set<number>();
      const ends = new Set<number>();
      for (const g of staticGroups) if (g.predName === pred) for (const m of g.members) m.forEach((o, k) => (k === 1 ? middle : ends).add(o));
      if ([...middle].every((o) => !ends.has(o))) {
        span = `${objectList(sorted.filter((o) => ends.has(o)))} for x and z and ${objectList(sorted.filter((o) => middle.has(o)))} for y`;
      }
    }
    const count = [...staticGroups].filter((g) => g.predName === pred).reduce((a, g) => a + g.members.length, 0);
    const t = tpl.predicates.get(pred)!.pos[0]!;
    const example = (xs: number[]): string => fill(t, xs.map((i) => phrases[i]!));
    const first = staticGroups.find((g) => g.predName === pred)!.members[0]!;
    // a minus before a number is a sign where the names say so (hints.ts signedFamily)
    const signed = sorted.find((o) => num(o) < 0);
    const sign = signed === undefined ? "" : `, with a minus sign where there is one (${phrases[signed]} is ${num(signed)})`;
    return `"${words(pred)}" holds exactly for the ${REL_WORDS[rel]} among ${span}, taking the number in each name${sign} (${count} facts; for example, ${example(first)})`;
  }


  // ---- rules, costs and definitions, with parameters named by capital letters ("vehicle V")
  const costs = schemas.map((_, i) => actionCost(domain.actions[i]!));
  const liftedAction = (s: SchemaInfo): { first: string[]; bare: string[] } => {
    const nouns = s.paramTypes.map((ts) => typeNoun(ts[0] ?? "object"));
    // Untyped parameters take their letter from the variable ("?c1" -> "C1"), typed ones from the type.
    const bare = variableLabels(nouns.map((n, i) => (n === "object" ? s.vars[i]!.replace(/^\?/, "") : n)), new Set());
    return { bare, first: bare.map((b, i) => (nouns[i] === "object" ? b : `${nouns[i]} ${b}`)) };
  };
  const costOf = (s: SchemaInfo, i: number, bare: string[]): string => {
    const c = costs[i]!;
    const vars = c.kind === "fn" ? c.args.map((t) => (t.kind === "var" ? (bare[s.vars.indexOf(t.name)] ?? t.name) : namePhrase(t.name))) : [];
    return costClause(c, vars);
  };
  // Rules of a generic domain, written from its action schemas.
  const genericIntro = (prng: Prng | null, variant = -1): string => {
    const heads = [
        `This is a planning problem in the "${words(domain.name)}" domain. These are the actions, what each one needs and what it does.`,
        `We work in the planning domain "${words(domain.name)}". Each action below lists the conditions it needs and the facts it changes.`,
        `The problem below comes from the "${words(domain.name)}" planning domain, with the following actions.`,
    ];
    const head = variant >= 0 ? heads[variant]! : pick(heads, prng);
    const all = schemas.map((s, i) => {
      const { first, bare } = liftedAction(s);
      const act = undoubled(fill(s.text[0]!, first));
      const why = once(whyItems(s, bare, null, null));
      // Distinct placeholders per parameter, disjoint from object ids (for add-wins-over-delete).
      const fakeArgs = s.params.map((_, j) => -(1_000_000 + j));
      const eff = once(effectItems(s, fakeArgs, bare, null, -1, undefined));
      // Quantified or disjunctive conditions are long: one per clause, separated by semicolons.
      const needs = why.length === 0 ? "it requires nothing" : s.pre.some((it) => it.kind === "formula") ? `it requires: ${why.join("; ")}` : `it requires that ${joinList(why)}`;
      // Conditional effects are long: one per clause, separated by semicolons.
      const does = eff.length === 0 ? "it changes nothing" : s.complex.length > 0 ? `afterwards: ${eff.join("; ")}` : `afterwards ${joinList(eff)}`;
      const cost = task.hasCosts ? ` It ${costOf(s, i, bare)}.` : "";
      return `- To ${act}: ${needs}; ${does}.${cost}`;
    });
    // The prompt's budget (DESIGN.md §14: a prompt states the rules of every action its rows'
    // steps use). Within the budget every rule is said as it is. Past it, rules of one shape
    // (the same words but for one that varies: "n3", "n4", ...) are said once for each value
    // (groupRules); every action that has a ground operator in this problem (the only actions a
    // walk, its plan or a near-miss candidate can use) is described whatever the length; the
    // others, which can never be taken here, are described while the budget allows and the
    // rest named, by their action's name.
    const total = all.reduce((a, l) => a + l.length + 1, 0);
    if (total <= RULES_BUDGET) return head + "\n" + all.join("\n");
    const usable = new Uint8Array(all.length);
    for (let o = 0; o < task.numOps; o++) usable[task.opSchema[o]!] = 1;
    const groups = groupRules(all);
    const keep = new Set<number>();
    let size = 0;
    for (let g = 0; g < groups.length; g++) {
      if (groups[g]!.members.some((i) => usable[i] === 1)) {
        keep.add(g);
        size += groups[g]!.text.length + 1;
      }
    }
    const order = groups.map((_, g) => g).filter((g) => !keep.has(g)).sort((a, b) => groups[a]!.text.length - groups[b]!.text.length || a - b);
    for (const g of order) {
      if (size + groups[g]!.text.length > RULES_BUDGET && keep.size > 0) break;
      keep.add(g);
      size += groups[g]!.text.length + 1;
    }
    const lines = groups.filter((_, g) => keep.has(g)).map((g) => g.text);
    const left = groups.filter((_, g) => !keep.has(g)).flatMap((g) => g.members).sort((a, b) => a - b);
    if (left.length > 0) {
      const more = left.length;
      summary.rulesOmitted = more;
      summary.rulesOmittedNames = left.map((i) => domain.actions[i]!.name);
      // (named while the names are short beside the rules: not a domain's thousands of ground actions)
      const names = joinList(left.map((i) => `"${words(domain.actions[i]!.name)}"`));
      const which = names.length <= 600 ? ` (${names})` : "";
      lines.push(`- ${countWord(more)} more action${more === 1 ? " is" : "s are"} not described here, to keep this text short: ${more === 1 ? "it can never" : "none of them can ever"} be taken in this problem, since ${more === 1 ? "its" : "their"} conditions can never all hold (${all.length} actions in all)${which}.`);
    }
    return head + "\n" + lines.join("\n");
  };
  // What each action costs, for a domain whose rules come from nl.json.
  const costParagraph = (): string => {
    const items = schemas.map((s, i) => {
      const { first, bare } = liftedAction(s);
      return `to ${undoubled(fill(s.text[0]!, first))} ${costOf(s, i, bare)}`;
    });
    return `Actions have costs, and a plan is judged by the sum of its action costs, not by its number of steps: ${items.join("; ")}.`;
  };
  const costFacts = costStatements(domain.actions, problem, namePhrase);
  // Derived predicates used by the goal or a precondition (directly or through another one).
  const definitionsOf = (): string[] => {
    if (domain.derived.length === 0) return [];
    const used = new Set<string>();
    const visit = (f: Formula | null): void => {
      if (f === null) return;
      switch (f.kind) {
        case "atom":
          if (derivedPreds.has(f.atom.predicate) && !used.has(f.atom.predicate)) {
            used.add(f.atom.predicate);
            for (const d of domain.derived) if (d.predicate === f.atom.predicate) visit(d.body);
          }
          return;
        case "not":
          return visit(f.arg);
        case "and":
        case "or":
          return f.args.forEach(visit);
        case "imply":
          visit(f.left);
          return visit(f.right);
        case "exists":
        case "forall":
          return visit(f.body);
        default:
          return;
      }
    };
    visit(problem.goal);
    for (const a of domain.actions) visit(a.precondition);
    const out: string[] = [];
    for (const pred of domain.predicates.map((p) => p.name).filter((n) => used.has(n))) {
      const rules = domain.derived.filter((d) => d.predicate === pred);
      const decl = rules[0]!;
      const nouns = decl.params.map((p) => typeNoun(p.types[0] ?? "object"));
      const labels = variableLabels(nouns, new Set());
      const head = atomText(predOf(pred, labels.length), true, labels.map((l, i) => (nouns[i] === "object" ? l : `${nouns[i]} ${l}`)), null);
      const bodies = rules.map((r) => {
        const env: Env = new Map(r.params.map((p, i) => [p.name.replace(/^\?/, ""), labels[i]!]));
        return formulaText(r.body, env, null);
      });
      out.push(`- ${capitalize(head)} exactly when ${bodies.join(", or when ")}.`);
    }
    return out;
  };
  let definitions: string[] | null = null; // made when a prompt is first rendered

  const renderPrompt = (prng: Prng): string => {
    const paras: string[] = [];
    // An nl.json intro's {rules}: the rules lines written with the templates in use (the generic intro without its heading line).
    const intro = tpl.generic || tpl.intro.length === 0 ? null : pick(tpl.intro, prng);
    paras.push(intro === null ? genericIntro(prng) : intro.replace(/\{rules\}/g, () => genericIntro(null, 0).replace(/^[^\n]*\n/, "")));
    // the rules {rules} writes state each action's cost already
    if (task.hasCosts && intro !== null && !intro.includes("{rules}")) paras.push(costParagraph());
    definitions ??= definitionsOf();
    if (definitions.length > 0) paras.push(`${pick(DEFINE, prng)}\n${definitions.join("\n")}`);
    paras.push(objectSentences(prng).join(" "));
    if (staticGroups.length > 0 || numericSummaries.length > 0) paras.push(fixedParagraph(prng));
    if (costFacts.length > 0) {
      const lead = pick(COST_FACTS, prng);
      const items: string[] = [];
      let size = 0;
      for (const c of costFacts) {
        if (size + c.length > COST_BUDGET && items.length > 0) break;
        items.push(c);
        size += c.length + 2;
      }
      const more = costFacts.length - items.length;
      if (more > 0) {
        summary.costOmitted = more;
        items.push(`${more} more cost value${more === 1 ? " is" : "s are"} not listed here, to keep this text short`);
      }
      paras.push(sub(lead, items.join("; ")));
    }
    // the facts are drawn before the lead sentence, as before grouping (same bytes)
    const init = fluentInit.length > 0 ? factList(fluentInit, prng) : "";
    paras.push(fluentInit.length > 0 ? sub(pick(INIT, prng), init) : "Initially, none of the changing facts holds.");
    paras.push(fill(pick(tpl.goal, prng), [goalText(prng)]));
    if (!task.hasCosts) paras.push(pick(tpl.instruction, prng));
    else if (tpl.generic) paras.push(pick(COST_INSTRUCTION, prng));
    else paras.push(`${pick(tpl.instruction, prng)} ${pick(CHEAPEST, prng)}`);
    return paras.join("\n\n");
  };

  const promptCache: (string | undefined)[] = new Array(PROMPT_VARIANTS);
  const prompt = (prng: Prng): string => {
    const v = prng.int(PROMPT_VARIANTS);
    return (promptCache[v] ??= renderPrompt(new Prng(taskSeed, `prompt/${v}`)));
  };

  // ---- describe a state
  const describeState = (state: Uint32Array): string => {
    const items: string[] = [];
    for (let f = 0; f < task.numFacts; f++) {
      if (task.factDerived[f] === 1 || !has(state, f)) continue;
      if (!tpl.predicates.has(task.factPredicate[f]!)) continue;
      items.push(factText(f, true, null));
    }
    for (const a of alwaysTrue) items.push(atomText(a.pred, true, a.args.map((x) => phrases[x]!), null));
    return items.length > 0 ? joinList(items) : "none of the changing facts holds";
  };

  // ---- critiques
  // Why the quantified/disjunctive parts of a candidate's precondition are false in `state`.
  const formulaReasons = (c: Candidate, state: Uint32Array): string[] => {
    const s = schemas[c.schema]!;
    const b = bindingsOf(s, c.args);
    const out: string[] = [];
    for (const it of s.pre) {
      if (it.kind !== "formula") continue;
      // an existential: no witness, and the nearest one's failing part
      if (it.f.kind === "exists") {
        const t = existsFalse(it.f, b, schemaEnv(s, c.args.map((x) => phrases[x]!)), state);
        if (t !== null) {
          out.push(t);
          continue;
        }
      }
      let g: Ground;
      try {
        g = ground(it.f, b, logic());
      } catch (e) {
        if (e instanceof TooLarge) continue;
        throw e;
      }
      const why = whyFalse(g, state);
      if (why !== null) out.push(...why);
    }
    return out;
  };
  const litHolds = (g: Extract<Ground, { k: "lit" }>, state: Uint32Array): boolean => logic().holds(`(${[g.pred, ...g.args].join(" ")})`, state) === g.pos;
  // The facts that make `g` false in `state` (as what is true instead), or null when it holds.
  const whyFalse = (g: Ground, state: Uint32Array): string[] | null => {
    switch (g.k) {
      case "true":
        return null;
      case "false":
        return ["an impossible condition is required"];
      case "lit":
        return litHolds(g, state) ? null : [atomText(predOf(g.pred, g.args.length), !g.pos, g.args.map(namePhrase), null)];
      case "eq":
        return (g.a === g.b) === g.pos ? null : [eqText(!g.pos, namePhrase(g.a), namePhrase(g.b))];
      case "and": {
        const out: string[] = [];
        for (const x of g.xs) out.push(...(whyFalse(x, state) ?? []));
        return out.length > 0 ? out : null;
      }
      case "or": {
        // what the nearest alternative lacks (a ground existential is the "or" of its
        // witnesses): the union would name facts no single way needs
        let best: string[] | null = null;
        for (const x of g.xs) {
          const why = whyFalse(x, state);
          if (why === null) return null;
          if (best === null || why.length < best.length) best = why;
        }
        return best ?? ["an impossible condition is required"];
      }
      case "imply": {
        if (whyFalse(g.a, state) !== null) return null;
        return whyFalse(g.b, state);
      }
    }
  };
  const failedCache = new Map<string, string>();
  const failedText = (lit: string): string => {
    let t = failedCache.get(lit);
    if (t === undefined) failedCache.set(lit, (t = failedTextOf(lit)));
    return t;
  };
  const failedTextOf = (lit: string): string => {
    // The evidence lists literals of the precondition that are false; say what is true instead.
    const toks = lit.toLowerCase().match(/[()]|[^\s()]+/g) ?? [];
    let i = 0;
    let pos = true;
    if (toks[0] === "(" && toks[1] === "not") {
      pos = false;
      i = 2;
    }
    if (toks[i] !== "(") return lit;
    const name = toks[i + 1];
    const args: string[] = [];
    let j = i + 2;
    while (j < toks.length && toks[j] !== ")") args.push(toks[j++]!);
    if (name === undefined) return lit;
    const ph = args.map((a) => {
      const id = objId.get(a);
      return id === undefined ? a : phrases[id]!;
    });
    if (name === "=" && ph.length === 2) return eqText(!pos, ph[0]!, ph[1]!);
    if (!tpl.predicates.has(name)) return lit;
    return atomText(predOf(name, ph.length), !pos, ph, null);
  };
  // States of walk prefixes, memoised: the rows of one problem share one walk.
  const prefixStates = new Map<string, Uint32Array>();
  const stateAfterPrefix = (ops: readonly number[], n: number): Uint32Array => {
    if (n === 0) return task.init;
    const key = ops.slice(0, n).join(",");
    let s = prefixStates.get(key);
    if (s === undefined) {
      s = applyOp(task, stateAfterPrefix(ops, n - 1), ops[n - 1]!);
      // bounded: a long-lived renderer (judge --jsonl) sees ever new prefixes
      if (prefixStates.size >= 4096) prefixStates.clear();
      prefixStates.set(key, s);
    }
    return s;
  };

  // The goal's conjuncts a relaxed reach shows unreachable (for a goal compiled into a derived fact).
  let factIds: Map<string, number> | null = null;
  const goalPartsUnreachable = (reach: RelaxedReach): string[] => {
    let g: Ground;
    try {
      g = ground(problem.goal, new Map(), logic());
    } catch (e) {
      if (e instanceof TooLarge) return [];
      throw e;
    }
    if (factIds === null) {
      factIds = new Map();
      for (let f = 0; f < task.numFacts; f++) factIds.set(task.factNames[f]!, f);
    }
    const ids = factIds;
    const dead = (x: Ground): boolean => {
      switch (x.k) {
        case "false":
          return true;
        case "lit": {
          const key = atomKey(x.pred, x.args);
          const f = ids.get(key);
          // an atom that is no fact of the task keeps its initial value (a derived one is not known)
          if (f === undefined) return derivedPreds.has(x.pred) ? false : logic().inInit(key) !== x.pos;
          return x.pos ? reach.pos[f] === 0 : reach.neg[f] === 0;
        }
        case "and":
          return x.xs.some(dead);
        case "or":
          return x.xs.every(dead);
        default:
          return false;
      }
    };
    return (g.k === "and" ? g.xs : [g]).filter(dead).map((x) => groundText(x, null));
  };
  const critique = critic({ task, actionText, failedText, formulaReasons, stateAfterPrefix, goalPartsUnreachable });

  // ---- parser
  interface Matcher {
    schema: number;
    re: RegExp;
    /** Parameter index of each capture group. */
    slots: number[];
  }
  let matchers: Matcher[] | null = null;
  const buildMatchers = (): Matcher[] => {
    const out: Matcher[] = [];
    schemas.forEach((s, si) => {
      const alts = s.paramTypes.map((types) => {
        const ids: number[] = [];
        for (let i = 0; i < nObj; i++) if (types.some((t) => task.objectTypes[i]!.includes(t))) ids.push(i);
        if (ids.length === 0) return "(?!)";
        return "(" + ids.map((i) => phrases[i]!).sort((a, b) => b.length - a.length).map(escapeRegExp).join("|") + ")";
      });
      for (const c of s.text) {
        let src = "^" + partSource(c, 0);
        for (let j = 0; j < c.slots.length; j++) src += alts[c.slots[j]!]! + partSource(c, j + 1);
        out.push({ schema: si, re: new RegExp(src + "$"), slots: c.slots });
      }
    });
    return out;
  };
  const matchClause = (clause: string): { schema: number; args: number[] } | null => {
    for (const m of matchers!) {
      const r = m.re.exec(clause);
      if (r === null) continue;
      const args = slotArgs(m.slots, r, schemas[m.schema]!.params.length);
      if (args !== null) return { schema: m.schema, args };
    }
    return null;
  };
  const parseStep = (text: string): { schema: number; args: number[] } | null => {
    matchers ??= buildMatchers();
    const head = /^\s*Step \d+:\s*/.exec(text);
    const body = head !== null ? text.slice(head[0].length) : text.trim();
    const starts: number[] = [];
    if (body.startsWith("I ")) starts.push(2);
    for (let i = body.indexOf(", I "); i >= 0; i = body.indexOf(", I ", i + 1)) starts.push(i + 4);
    for (const s of starts) {
      // The action text has no '.', but object phrases might: try every '.' after the start.
      for (let e = body.indexOf(".", s); e >= 0; e = body.indexOf(".", e + 1)) {
        const r = matchClause(body.slice(s, e));
        if (r !== null) return r;
      }
    }
    return null;
  };

  /** The object ids a match gives its parameters; null when a repeated placeholder names two objects. */
  const slotArgs = (slots: readonly number[], r: RegExpExecArray, n: number): number[] | null => {
    const args: number[] = new Array(n).fill(-1);
    for (let j = 0; j < slots.length; j++) {
      const id = phraseId.get(r[j + 1]!)!;
      if (args[slots[j]!] !== -1 && args[slots[j]!] !== id) return null;
      args[slots[j]!] = id;
    }
    return args;
  };
  // ---- reading facts back (the meaning check: every sentence names exactly one fact)
  /** A compiled template's literal part j as a RegExp source; an elided word (see fillEliding) is optional. */
  const partSource = (c: Compiled, j: number): string => {
    const part = escapeRegExp(c.parts[j]!);
    const w = j < c.slots.length ? c.elide?.[j] : null;
    if (!w || !c.parts[j]!.endsWith(` ${w} `)) return part;
    const cut = c.parts[j]!.slice(0, c.parts[j]!.length - w.length - 1);
    const cut2 = cut.endsWith(" the ") ? cut.slice(0, -4) : cut;
    return `(?:${part}|${escapeRegExp(cut2)})`;
  };
  interface FactMatcher {
    pred: string;
    pos: boolean;
    re: RegExp;
    slots: number[];
  }
  const typedAlternatives = (types: readonly string[]): string => {
    const ids: number[] = [];
    for (let i = 0; i < nObj; i++) if (types.length === 0 || types.some((t) => task.objectTypes[i]!.includes(t))) ids.push(i);
    if (ids.length === 0) return "(?!)";
    return "(" + ids.map((i) => phrases[i]!).sort((a, b) => b.length - a.length).map(escapeRegExp).join("|") + ")";
  };
  let factMatchers: FactMatcher[] | null = null;
  const buildFactMatchers = (): FactMatcher[] => {
    const out: FactMatcher[] = [];
    for (const decl of domain.predicates) {
      const pt = tpl.predicates.get(decl.name);
      if (pt === undefined) continue;
      const alts = decl.params.map((p) => typedAlternatives(p.types.filter((t) => t !== "object")));
      for (const [list, pos] of [[pt.pos, true], [pt.neg, false]] as const) {
        for (const c of list) {
          let src = "^";
          for (let j = 0; j <= c.slots.length; j++) {
            src += partSource(c, j);
            if (j < c.slots.length) src += alts[c.slots[j]!]!;
          }
          out.push({ pred: decl.name, pos, re: new RegExp(src + "$"), slots: c.slots });
        }
      }
    }
    return out;
  };
  const readFact = (text: string): FactReading[] => {
    factMatchers ??= buildFactMatchers();
    const out: FactReading[] = [];
    const seen = new Set<string>();
    for (const m of factMatchers) {
      const r = m.re.exec(text);
      if (r === null) continue;
      const args = slotArgs(m.slots, r, Math.max(0, ...m.slots.map((x) => x + 1)));
      if (args === null) continue;
      const key = `${m.pred}/${m.pos}/${args.join(",")}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push({ pred: m.pred, args, pos: m.pos });
    }
    return out;
  };
  const readFactList = (text: string): FactReading[] | null => {
    // Cut points: after ", " or " and "; pieces of at most 6 cuts (a sentence may hold some).
    const cuts: Array<[number, number]> = [[0, 0]];
    for (const sep of [", ", " and "]) for (let i = text.indexOf(sep); i >= 0; i = text.indexOf(sep, i + 1)) cuts.push([i, i + sep.length]);
    cuts.sort((a, b) => a[0] - b[0]);
    cuts.push([text.length, text.length]);
    // ways[k]: segmentations of text up to cut k (0, 1 or 2 = several), with the last piece's reading
    const ways: number[] = new Array(cuts.length).fill(0);
    const back: Array<{ from: number; fact: FactReading } | null> = new Array(cuts.length).fill(null);
    ways[0] = 1;
    for (let k = 1; k < cuts.length; k++) {
      for (let j = Math.max(0, k - 7); j < k; j++) {
        if (ways[j] === 0) continue;
        const piece = text.slice(cuts[j]![1], cuts[k]![0]);
        if (piece.length === 0) continue;
        const rs = readFact(piece);
        if (rs.length === 0) continue;
        ways[k] = Math.min(2, ways[k]! + ways[j]! * rs.length);
        back[k] = { from: j, fact: rs[0]! };
      }
    }
    const last = cuts.length - 1;
    if (ways[last] !== 1) return null;
    const facts: FactReading[] = [];
    for (let k = last; k > 0; k = back[k]!.from) facts.push(back[k]!.fact);
    return facts.reverse();
  };
  const readAction = (clause: string): Array<{ schema: number; args: number[] }> => {
    matchers ??= buildMatchers();
    const out: Array<{ schema: number; args: number[] }> = [];
    const seen = new Set<string>();
    for (const m of matchers) {
      const r = m.re.exec(clause);
      if (r === null) continue;
      const args = slotArgs(m.slots, r, schemas[m.schema]!.params.length);
      if (args === null) continue;
      const key = `${m.schema}/${args.join(",")}`;
      if (!seen.has(key)) {
        seen.add(key);
        out.push({ schema: m.schema, args });
      }
    }
    return out;
  };

  return {
    task,
    templates: tpl,
    objectPhrase: (id) => phrases[id]!,
    actionText,
    prompt,
    step,
    stepJson,
    critique,
    parseStep,
    readAction,
    readFact,
    readFactList,
    describeState,
    factText,
    rules: () => [0, 1, 2].map((v) => genericIntro(null, v)),
    promptSummary: () => ({ ...summary, rulesOmittedNames: [...summary.rulesOmittedNames], arithmetic: [...summary.arithmetic] }),
  };
}

/**
 * A role noun said twice before a rule's parameter letter ("with highspeed saw highspeed saw H",
 * the action text's role and the letter's type): said once.
 */
function undoubled(text: string): string {
  return text.replace(/\b([a-z]+(?: [a-z]+){0,3}) \1 ([A-Z]\d*)\b/g, "$1 $2");
}

/**
 * Rules of one shape said once: lines that have the same words but for one or two words that
 * vary together ("- To make product p5 n5: ... stacks avail n5; ..." and the same with n4)
 * become one line with a letter for each ("- To make product p5 K, for K any of n5 or n4: ...";
 * "for (K, J) any of (n2, n3) or (n3, n4)" for two). Repeated, so a grouped line can be grouped
 * again over another word ("for K any of o1 or o2, for J any of n1 or n2": every pair). Exact:
 * putting each value in place of its letter gives back each line. Groups keep the order of
 * their first line; a line alike to no other stays as it is.
 */
export function groupRules(lines: readonly string[]): Array<{ members: number[]; text: string }> {
  let groups = lines.map((text, i) => ({ members: [i], text }));
  // one word at a time first (a cross product reads as "for K any of ..., for J any of ..."),
  // then pairs of words that vary together ("(n2, n3), (n3, n4)"), at least three of them, and
  // last, as a table, up to five words that vary together in at least four lines
  for (const vars of [1, 1, 1, 2, 2, 5] as const) {
    const next = groupOnce(groups.map((g) => g.text), vars);
    if (next.length === groups.length) continue;
    groups = next.map((n) => ({ members: n.members.flatMap((m) => groups[m]!.members).sort((a, b) => a - b), text: n.text }));
  }
  return groups;
}

const LETTERS = ["K", "J", "Q", "W", "Z", "Y", "V", "U"];

function groupOnce(lines: readonly string[], maxVars: 1 | 2 | 5): Array<{ members: number[]; text: string }> {
  const toks = lines.map((l) => l.split(/(\s+|[,;:.()"])/));
  const isWord = (t: string): boolean => t.length > 0 && !/^(\s+|[,;:.()"])$/.test(t);
  // the words of an earlier pass's "for K any of ..." stay as they are (no letter inside a list of values)
  const fixed = lines.map((l, i) => {
    const spans = [...l.matchAll(/, for (?:\([A-Z, ]+\)|[A-Z]) any of [^:]*/g)].map((m) => [m.index, m.index + m[0].length] as const);
    const out = new Uint8Array(toks[i]!.length);
    let at = 0;
    toks[i]!.forEach((t, k) => {
      if (spans.some(([x, y]) => at >= x && at < y)) out[k] = 1;
      at += t.length;
    });
    return out;
  });
  const done = new Uint8Array(lines.length);
  const out: Array<{ first: number; members: number[]; text: string }> = [];
  const byLen = new Map<number, number[]>();
  toks.forEach((t, i) => {
    const l = byLen.get(t.length);
    if (l === undefined) byLen.set(t.length, [i]);
    else l.push(i);
  });
  for (let i = 0; i < lines.length; i++) {
    if (done[i] === 1) continue;
    done[i] = 1;
    const a = toks[i]!;
    // The lines that differ from line i only in words, by where they differ and how those
    // places pair up into variables (places that hold one word in both lines are one variable).
    const clusters = new Map<string, { classes: number[][]; js: number[] }>();
    for (const j of byLen.get(a.length)!) {
      if (done[j] === 1) continue;
      const b = toks[j]!;
      const byPair = new Map<string, number[]>();
      let ok = true;
      for (let k = 0; k < a.length && ok; k++) {
        if (a[k] === b[k]) continue;
        if (!isWord(a[k]!) || !isWord(b[k]!) || fixed[i]![k] === 1 || fixed[j]![k] === 1) ok = false;
        else {
          const key = `${a[k]}\u0000${b[k]}`;
          const c = byPair.get(key);
          if (c === undefined) byPair.set(key, [k]);
          else c.push(k);
        }
      }
      if (!ok || byPair.size === 0 || byPair.size > maxVars) continue;
      const classes = [...byPair.values()];
      const key = classes.map((c) => c.join(",")).join("|");
      const c = clusters.get(key);
      if (c === undefined) clusters.set(key, { classes, js: [j] });
      else c.js.push(j);
    }
    let best: { classes: number[][]; js: number[] } | null = null;
    for (const c of clusters.values()) if (best === null || c.js.length > best.js.length) best = c;
    if (best === null) {
      out.push({ first: i, members: [i], text: lines[i]! });
      continue;
    }
    const { classes } = best;
    // each member's values (the word at the first place of each variable): one tuple per line
    const tuple = (m: number): string[] => classes.map((c) => toks[m]![c[0]!]!);
    // the same cluster key: the same places; each variable's places hold one word in every member
    const members = [i];
    const seen = new Set<string>([tuple(i).join("\u0000")]);
    for (const j of best.js) {
      const t = toks[j]!;
      if (!classes.every((c) => c.every((k) => t[k] === t[c[0]!]))) continue;
      const key = tuple(j).join("\u0000");
      if (seen.has(key)) continue;
      seen.add(key);
      members.push(j);
    }
    const letters = LETTERS.filter((x) => !members.some((m) => toks[m]!.includes(x))).slice(0, classes.length);
    if (members.length < (classes.length === 1 ? 2 : classes.length === 2 ? 3 : 4) || letters.length < classes.length) {
      out.push({ first: i, members: [i], text: lines[i]! });
      continue;
    }
    for (const m of members) done[m] = 1;
    const t = a.slice();
    classes.forEach((c, v) => {
      for (const k of c) t[k] = letters[v]!;
    });
    const text = t.join("");
    const values = members.map((m) => (classes.length === 1 ? tuple(m)[0]! : `(${tuple(m).join(", ")})`));
    const lead = `, for ${classes.length === 1 ? letters[0] : `(${letters.join(", ")})`} any of ${joinList(values, "or")}`;
    // "- To <act>: ..." -> "- To <act>, for K any of v1, v2 or v3: ..."
    const colon = text.indexOf(": ");
    out.push({ first: i, members, text: colon < 0 ? `${text} (${lead.slice(2)})` : text.slice(0, colon) + lead + text.slice(colon) });
  }
  return out.sort((x, y) => x.first - y.first).map(({ members, text }) => ({ members, text }));
}
