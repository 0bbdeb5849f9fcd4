/**
 * Generic text for domains without nl.json: templates derived from predicate, action, type and
 * parameter names ("on-table" -> "on table", "(at truck1 loc2)" -> "truck1 is at loc2").
 */
import type { Atom, Domain, Effect, Formula, PredicateDecl } from "../pddl/ast.js";
import { typeParents } from "../pddl/types.js";
import { actionPhrases, siblingRoles } from "./generic-actions.js";
import { nounLike, plainPhrase, predicatePhrase, type PredicatePhrase } from "./generic-predicates.js";
import { paramInfos } from "./generic-params.js";
import { agentDependent, implicitSubjects } from "./implicit.js";
import { twinBase } from "./twins.js";
import { hintsKey, type TaskHints } from "./hints.js";
import { compoundSplit, isEnglishWord, pluralOf, senseOf, splitName, typeNameWords } from "./lexicon.js";
import { compile, paramNames, words, type Compiled } from "./text.js";
import { checkTime } from "../search/types.js";
import type { ActionTemplate, NlTemplates, PredicateTemplate, TypeTemplate } from "./templates.js";

/** Generic true/false text of a predicate; exported for tests. */
export function genericPredicate(decl: PredicateDecl): PredicateTemplate {
  return predicateTemplate(decl, predicatePhrase(decl));
}

function predicateTemplate(decl: PredicateDecl, ph: PredicatePhrase): PredicateTemplate {
  const params = paramNames(decl.params);
  const withElide = (src: string): Compiled => {
    const c = compile(src, params);
    if (ph.elide.size === 0) return c;
    const el = c.slots.map((slot) => {
      for (const [word, p] of ph.elide) if (p === `{${params[slot]}}`) return word;
      return null;
    });
    return el.some((x) => x !== null) ? { ...c, elide: el } : c;
  };
  return {
    params,
    pos: [withElide(ph.pos)],
    neg: [withElide(ph.neg)],
    groupOver: ph.groupable && params.length > 0 ? [params.length - 1] : [],
    item: null,
    grouped: null,
    generic: true,
    ...(ph.plain ? { plain: true } : {}),
  };
}

/** Slot pattern of a compiled template: its literal parts with the slots numbered. */
function shape(c: Compiled): string {
  return c.parts.map((p, i) => (i < c.slots.length ? `${p}\u0000${c.slots[i]}\u0000` : p)).join("");
}

/**
 * The action with each untyped parameter given the kind a type predicate says it is: a static
 * one-argument predicate of the parameter among the precondition's conditions, named by a noun
 * ("(ROBOT ?r) (POT ?p)", "(is_agent ?a)"), the only one of the parameter (or the only one-word
 * one, beside a property: "(customer ?c) (need_help ?c)"). Many hand-written
 * STRIPS domains type their objects so; read untyped, "robot-take-pot ?r ?p ?l" could not tell
 * the pot from the robot ("perform the robot take pot r with pot p").
 */
function kindedAction(a: Domain["actions"][number], domain: Domain): Domain["actions"][number] {
  // (the parser gives an untyped parameter the type object)
  const untyped = (p: Domain["actions"][number]["params"][number]): boolean => p.types.length === 0 || (p.types.length === 1 && p.types[0] === "object");
  if (!a.params.some(untyped)) return a;
  const changed = changedPredicates(domain);
  const conds = conditionAtoms(a.precondition);
  let any = false;
  const params = a.params.map((p) => {
    if (!untyped(p)) return p;
    const kinds = new Set<string>();
    for (const c of conds) {
      if (c.args.length !== 1 || c.args[0]!.kind !== "var" || c.args[0]!.name !== p.name || changed.has(c.predicate)) continue;
      const w = splitName(c.predicate).map((x) => x.toLowerCase());
      const kind = w[0] === "is" ? w.slice(1) : w;
      // (a noun the lexicon reads as a verb first is a kind too: "(ARM ?v)" is an arm)
      if (kind.length === 0 || !kind.every((x) => isEnglishWord(x)) || !(["noun", "plural"].includes(senseOf(kind[kind.length - 1]!)) || nounLike(kind[kind.length - 1]!))) continue;
      kinds.add(kind.join("-"));
    }
    // two of them ("(customer ?c) (need_help ?c)"): a kind is one noun, a property more words
    const one = kinds.size > 1 ? [...kinds].filter((k) => !k.includes("-")) : [...kinds];
    if (one.length !== 1) return p;
    any = true;
    return { ...p, types: [one[0]!] };
  });
  return any ? { ...a, params } : a;
}

/** The positive atoms of a formula's top-level conjunction. */
function conditionAtoms(f: Formula | null): Atom[] {
  const out: Atom[] = [];
  const walk = (g: Formula | null): void => {
    if (g === null) return;
    if (g.kind === "and") g.args.forEach(walk);
    else if (g.kind === "atom") out.push(g.atom);
  };
  walk(f);
  return out;
}

/**
 * The predicate with each untyped parameter given the kind its actions' type predicates give it
 * (`kindedAction`): where every action that states or changes the predicate has, at that
 * position, a parameter of one and the same kind. "(customer_helped ?x)", made by "help ?c"
 * with "(customer ?c)", reads as a customer's state ("customer1 is helped"), not as the
 * customer of customer1. The type predicates themselves (static, one argument) stay as they are.
 */
function kindedPredicate(p: Domain["predicates"][number], domain: Domain, kinded: ReadonlyMap<string, Domain["actions"][number]>): Domain["predicates"][number] {
  const untyped = (x: { types: string[] }): boolean => x.types.length === 0 || (x.types.length === 1 && x.types[0] === "object");
  if (!p.params.some(untyped)) return p;
  if (p.params.length === 1 && !changedPredicates(domain).has(p.name)) return p;
  const kinds: (Set<string> | null)[] = p.params.map((x) => (untyped(x) ? new Set<string>() : null));
  let seen = false;
  for (const a of domain.actions) {
    const ka = kinded.get(a.name)!;
    const typeOf = new Map(ka.params.map((x) => [x.name, x]));
    const atoms = [...conditionAtoms(a.precondition), ...effectAtoms(a.effect)].filter((x) => x.predicate === p.name && x.args.length === p.params.length);
    for (const atom of atoms) {
      seen = true;
      atom.args.forEach((t, i) => {
        const ks = kinds[i];
        if (ks === null || ks === undefined) return;
        const q = t.kind === "var" ? typeOf.get(t.name) : undefined;
        ks.add(q === undefined || untyped(q) ? "" : q.types[0]!);
      });
    }
  }
  if (!seen) return p;
  let any = false;
  const params = p.params.map((x, i) => {
    const ks = kinds[i];
    if (ks === null || ks === undefined || ks.size !== 1 || ks.has("")) return x;
    any = true;
    return { ...x, types: [[...ks][0]!] };
  });
  return any ? { ...p, params } : p;
}

/** Atoms an effect adds or deletes (conditional and universal effects' with their own variables). */
function effectAtoms(e: Effect | null): Atom[] {
  const out: Atom[] = [];
  const walk = (g: Effect | null): void => {
    if (g === null) return;
    if (g.kind === "and") g.args.forEach(walk);
    else if (g.kind === "add" || g.kind === "del") out.push(g.atom);
    else if (g.kind === "when" || g.kind === "forall") walk(g.body);
  };
  walk(e);
  return out;
}

const changedCache = new WeakMap<Domain, Set<string>>();

/** Predicates some action's effect adds or deletes (conditional and universal effects too). */
function changedPredicates(domain: Domain): Set<string> {
  let out = changedCache.get(domain);
  if (out !== undefined) return out;
  out = new Set<string>();
  for (const a of domain.actions) for (const x of effectAtoms(a.effect)) out.add(x.predicate);
  changedCache.set(domain, out);
  return out;
}

/**
 * Generic action templates. Two actions whose texts would read alike keep every word of their
 * names; if they still read alike, their PDDL names lead (the round trip must stay exact).
 */
function genericActions(domain: Domain, phrases: ReadonlyMap<string, PredicatePhrase>): Map<string, ActionTemplate> {
  const texts = new Map<string, string[]>();
  const comp = (name: string, xs: string[]): Compiled[] => xs.map((x) => compile(x, paramNames(domain.actions.find((a) => a.name === name)!.params)));
  const clash = (): Set<string> => {
    const owner = new Map<string, string>();
    const bad = new Set<string>();
    for (const [name, xs] of texts) {
      for (const c of comp(name, xs)) {
        const k = shape(c);
        const o = owner.get(k);
        if (o !== undefined && o !== name) bad.add(o).add(name);
        owner.set(k, name);
      }
    }
    return bad;
  };
  const predParams = new Map(domain.predicates.map((d) => [d.name, paramInfos(d.params).map((p) => p.ph)]));
  const roles = new Map(domain.actions.map((a) => [a.name, siblingRoles(a, domain.actions)]));
  // (read with the kinds that type predicates give untyped parameters: see `kindedAction`)
  const kinded = new Map(domain.actions.map((a) => [a.name, kindedAction(a, domain)]));
  const phrasesOf = (name: string, keep: boolean, nouns: boolean, withRoles = true): string[] =>
    actionPhrases(kinded.get(name)!, phrases, keep, nouns, predParams, withRoles ? roles.get(name) : undefined);
  for (const a of domain.actions) texts.set(a.name, phrasesOf(a.name, false, false));
  const clashed = new Set<string>();
  // Alike texts: the name's words said as nouns of the parameters they name ("into truck T"),
  // then kept in the verb.
  for (const name of clash()) {
    clashed.add(name);
    texts.set(name, phrasesOf(name, false, true));
  }
  for (const name of clash()) texts.set(name, phrasesOf(name, true, false));
  for (const name of clash()) {
    const a = domain.actions.find((x) => x.name === name)!;
    const lead = words(a.name);
    texts.set(name, phrasesOf(name, true, false, false).map((t) => `carry out ${lead}: ${t}`));
  }
  const out = new Map<string, ActionTemplate>();
  // (no elision where the nouns tell two actions apart: "into truck truck1" is not "into truck1")
  for (const a of domain.actions) out.set(a.name, { params: paramNames(a.params), text: comp(a.name, texts.get(a.name)!).map((c) => (clashed.has(a.name) ? c : withRoleElision(c, kinded.get(a.name)!))) });
  return out;
}

/**
 * A role noun just before a placeholder ("with satellite {s}") is left out when the object's
 * name starts with it ("with satellite0", not "with satellite satellite0"): see fillEliding.
 */
function withRoleElision(c: Compiled, a: Domain["actions"][number]): Compiled {
  const el = c.slots.map((slot, j) => {
    const before = c.parts[j]!.trimEnd().split(" ").pop() ?? "";
    const p = a.params[slot];
    if (p === undefined || before === "") return null;
    const nouns = [...splitName(p.types[0] ?? ""), ...splitName(p.name)];
    return nouns.includes(before) ? before : null;
  });
  return el.some((x) => x !== null) ? { ...c, elide: el } : c;
}

/** Generic type naming: objects are called by their PDDL names. */
export function genericType(type: string): TypeTemplate {
  let noun = typeNameWords(type).join(" ") || "object";
  let plural: string | null = null;
  // A type name that is no word ("apartsize") is not made a plural noun ("apartsizes"): run-together
  // nouns are split ("truckarea": truck areas), anything else is named as a type.
  const ws = noun.split(" ");
  // (an axis letter, "x position", is a word here)
  if (ws.some((w) => !isEnglishWord(w) && !/\d/.test(w) && !/^[xyz]$/.test(w))) {
    const split = typeNameWords(type).flatMap((w) => (isEnglishWord(w) ? [w] : (compoundSplit(w) ?? [w])));
    if (split.every((w) => isEnglishWord(w) && (senseOf(w) === "noun" || senseOf(w) === "plural"))) noun = split.join(" ");
    else plural = `objects of type ${type}`;
  }
  // a type named in the plural ("numbers"): its noun is the singular, its plural the name (not "numberses")
  const last = noun.split(" ").pop()!;
  if (plural === null && senseOf(last) === "plural" && last.endsWith("s") && isEnglishWord(last.slice(0, -1)) && senseOf(last.slice(0, -1)) !== "plural") {
    plural = noun;
    noun = noun.slice(0, -1);
  }
  return { noun, plural: plural ?? pluralOf(noun), single: null, match: null, fallback: null, phrase: compile("{name}", ["name"]), phraseNames: ["name"] };
}

export const GENERIC_GOAL = [
  "The goal is to reach a state where {goal}.",
  "I have to reach a state in which {goal}.",
  "The task is finished when {goal}.",
];

export const GENERIC_INSTRUCTION = [
  "Plan step by step: for every step, say which facts it relies on, which action you take, and what holds afterwards.",
  "Reason one action at a time, stating the facts each action relies on and the facts it changes.",
  "Work out a plan step by step; at each step give the reason, the action and its effects.",
];

const HIGHER = new Set(["above", "over", "higher", "upper", "atop"]);
const LOWER = new Set(["below", "under", "lower", "beneath", "underneath"]);
const UP = new Set(["up", "ascend", "raise", "climb", "rise", "lift"]);
const DOWN = new Set(["down", "descend", "lower", "drop", "sink"]);

/**
 * Vertical relations a domain uses the other way round from their word. Each action named up
 * or down that moves something from X to Y and requires R(X, Y) or R(Y, X), with R named
 * above/below, casts a vote: whether R's literal reading ("X is above Y") agrees with the
 * action's direction. A relation all of whose votes disagree is read with its arguments
 * swapped (miconic's (above f1 f2) holds when f2 is above f1: "up" moves from f1 to f2).
 */
export function verticalFlips(domain: Domain): Set<string> {
  const votes = new Map<string, { agree: number; disagree: number }>();
  for (const a of domain.actions) {
    const ws = splitName(a.name);
    const dir = ws.some((w) => UP.has(w)) ? 1 : ws.some((w) => DOWN.has(w)) ? -1 : 0;
    if (dir === 0 || a.effect === null) continue;
    const adds: Atom[] = [];
    const dels: Atom[] = [];
    const walk = (e: Effect): void => {
      if (e.kind === "and") e.args.forEach(walk);
      else if (e.kind === "add") adds.push(e.atom);
      else if (e.kind === "del") dels.push(e.atom);
    };
    walk(a.effect);
    const pre = conditionAtoms(a.precondition);
    for (const d of dels) {
      for (const ad of adds) {
        if (ad.predicate !== d.predicate || ad.args.length !== d.args.length) continue;
        const diff = ad.args.map((t, k) => (t.name !== d.args[k]!.name ? k : -1)).filter((k) => k >= 0);
        if (diff.length !== 1) continue;
        const from = d.args[diff[0]!]!.name;
        const to = ad.args[diff[0]!]!.name;
        for (const r of pre) {
          if (r.args.length !== 2) continue;
          const rw = splitName(r.predicate);
          const higher = rw.some((w) => HIGHER.has(w)) ? 1 : rw.some((w) => LOWER.has(w)) ? -1 : 0;
          if (higher === 0) continue;
          const [u, v] = r.args.map((t) => t.name);
          // literal reading: u is higher (1) or lower (-1) than v; the action says `to` is higher (dir 1)
          let toHigher: number;
          if (u === to && v === from) toHigher = higher;
          else if (u === from && v === to) toHigher = -higher;
          else continue;
          const c = votes.get(r.predicate) ?? { agree: 0, disagree: 0 };
          if (toHigher === dir) c.agree++;
          else c.disagree++;
          votes.set(r.predicate, c);
        }
      }
    }
  }
  return new Set([...votes].filter(([, c]) => c.disagree > 0 && c.agree === 0).map(([p]) => p));
}

/** The predicates (of each clashing pair, the one with the longer name) whose texts read like another's. */
function predicateClashes(domain: Domain, phrases: ReadonlyMap<string, PredicatePhrase>): Set<string> {
  const parents = typeParents(domain);
  const up = (t: string): Set<string> => {
    const out = new Set<string>([t]);
    for (const x of out) for (const p of parents.get(x) ?? []) out.add(p);
    return out;
  };
  // two parameters can hold one object when one's type is the other's or an ancestor of it
  const meet = (a: readonly string[], b: readonly string[]): boolean =>
    a.length === 0 || b.length === 0 || a.some((x) => b.some((y) => x === "object" || y === "object" || up(x).has(y) || up(y).has(x)));
  const owners = new Map<string, Array<{ d: PredicateDecl; c: Compiled }>>();
  const out = new Set<string>();
  const typesOf = (d: PredicateDecl, c: Compiled): string[][] => c.slots.map((sl) => d.params[sl]!.types);
  for (const p of domain.predicates) {
    const ph = phrases.get(p.name)!;
    const params = paramNames(p.params);
    for (const src of [ph.pos, ph.neg]) {
      const c = compile(src, params);
      const k = shape(c);
      const list = owners.get(k) ?? [];
      for (const o of list) {
        if (o.d.name === p.name || twinBase(p.name) === o.d.name || twinBase(o.d.name) === p.name) continue;
        const tb = typesOf(o.d, o.c);
        if (typesOf(p, c).every((t, i) => meet(t, tb[i] ?? []))) out.add(o.d.name.length >= p.name.length ? o.d.name : p.name);
      }
      owners.set(k, [...list, { d: p, c }]);
    }
  }
  return out;
}

const genericCache = new WeakMap<Domain, Map<string, NlTemplates>>();

/**
 * Generic templates for `domain`, derived from its names and, with `hints`, from what a problem
 * proves about its predicates (functional arguments, numeric orders: see hints.ts). `intro` is
 * left empty: the renderer writes the rules of a generic domain from its action schemas.
 * Past `deadline` (`performance.now()` ms) it throws LimitError between predicates: the first
 * ones load the English lexicon (about 0.7 s) and no clock can be read inside that.
 */
export function genericTemplates(domain: Domain, hints: TaskHints = new Map(), deadline = Infinity): NlTemplates {
  let byHints = genericCache.get(domain);
  if (byHints === undefined) genericCache.set(domain, (byHints = new Map()));
  const key = hintsKey(hints);
  const hit = byHints.get(key);
  if (hit !== undefined) return hit;
  const phrases = new Map<string, PredicatePhrase>();
  const flips = verticalFlips(domain);
  const changed = changedPredicates(domain);
  const what = "while writing the step texts";
  checkTime(deadline, what);
  // (untyped parameters read with the kinds their actions' type predicates give them)
  const kindedActions = new Map(domain.actions.map((a) => [a.name, kindedAction(a, domain)]));
  const kindedPreds = new Map(domain.predicates.map((p) => [p.name, kindedPredicate(p, domain, kindedActions)]));
  for (const p of domain.predicates) {
    phrases.set(p.name, predicatePhrase(kindedPreds.get(p.name)!, hints.get(p.name), flips.has(p.name), false, "I", changed.has(p.name)));
    checkTime(deadline, what);
  }
  // Subjects the PDDL leaves implicit (the agent, what it carries): proven from the actions.
  const implicit = implicitSubjects(domain, hints, phrases);
  for (const p of domain.predicates) {
    if (implicit.agent !== "I" && agentDependent(p, phrases.get(p.name)!)) phrases.set(p.name, predicatePhrase(kindedPreds.get(p.name)!, hints.get(p.name), flips.has(p.name), false, implicit.agent, changed.has(p.name)));
    const o = implicit.phrases.get(p.name);
    if (o !== undefined) phrases.set(p.name, o);
  }
  // Two predicates that read alike ("in" and "in-city": "x is in y"): the one with more words in
  // its name keeps them ("x is in city y"); if that is not enough, it gets the plain reading.
  for (let round = 0; round < 2; round++) {
    for (const name of predicateClashes(domain, phrases)) {
      const p = domain.predicates.find((d) => d.name === name)!;
      phrases.set(name, round === 0 ? predicatePhrase(kindedPreds.get(name)!, hints.get(name), flips.has(name), true, "I", changed.has(name)) : plainPhrase(splitName(p.name).join(" "), paramInfos(p.params)));
    }
  }
  const predicates = new Map<string, PredicateTemplate>();
  for (const p of domain.predicates) predicates.set(p.name, predicateTemplate(p, phrases.get(p.name)!));
  const actions = genericActions(domain, phrases);
  const types = new Map<string, TypeTemplate>();
  for (const t of ["object", ...domain.types.map((t) => t.name)]) types.set(t, genericType(t));
  const result: NlTemplates = {
    domainName: domain.name,
    file: null,
    generic: true,
    intro: [],
    types,
    predicates,
    actions,
    goal: GENERIC_GOAL.map((s) => compile(s, ["goal"])),
    instruction: GENERIC_INSTRUCTION,
  };
  byHints.set(key, result);
  return result;
}

/**
 * `templates` with every predicate, action and type of `domain` that it leaves out filled in
 * generically (a partial nl.json still renders everything).
 */
export function completeTemplates(templates: NlTemplates | null, domain: Domain, hints: () => TaskHints = () => new Map(), deadline = Infinity): NlTemplates {
  if (templates === null) return genericTemplates(domain, hints(), deadline);
  // A complete nl.json needs nothing generic (and so never loads the English lexicon).
  const complete = domain.predicates.every((p) => templates.predicates.has(p.name)) && domain.actions.every((a) => templates.actions.has(a.name));
  if (complete) return templates;
  const gen = genericTemplates(domain, hints(), deadline);
  const predicates = new Map(gen.predicates);
  for (const [k, v] of templates.predicates) predicates.set(k, v);
  const actions = new Map(gen.actions);
  for (const [k, v] of templates.actions) actions.set(k, v);
  const types = new Map<string, TypeTemplate>();
  // Types without an entry inherit from their supertypes at lookup time; only keep the given ones.
  for (const [k, v] of templates.types) types.set(k, v);
  return { ...templates, predicates, actions, types };
}
