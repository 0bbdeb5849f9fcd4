/**
 * Generic text for domains without nl.json: templates derived from predicate, action, type and
 * parameter names ("on-table" -> "on table", "(at truck1 loc2)" -> "truck1 is at loc2").
 */
import type { Domain, PredicateDecl } from "../pddl/ast.js";
import { actionPhrases } from "./generic-actions.js";
import { predicatePhrase, type PredicatePhrase } from "./generic-predicates.js";
import { pluralOf } from "./lexicon.js";
import { compile, paramNames, words, type Compiled } from "./text.js";
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
  };
}

/** Slot pattern of a compiled template: its literal parts with the slots numbered. */
function shape(c: Compiled): string {
  return c.parts.map((p, i) => (i < c.slots.length ? `${p}\u0000${c.slots[i]}\u0000` : p)).join("");
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
  for (const a of domain.actions) texts.set(a.name, actionPhrases(a, phrases));
  for (const name of clash()) texts.set(name, actionPhrases(domain.actions.find((a) => a.name === name)!, phrases, true));
  for (const name of clash()) {
    const a = domain.actions.find((x) => x.name === name)!;
    const lead = words(a.name);
    texts.set(name, actionPhrases(a, phrases, true).map((t) => `carry out ${lead}: ${t}`));
  }
  const out = new Map<string, ActionTemplate>();
  for (const a of domain.actions) out.set(a.name, { params: paramNames(a.params), text: comp(a.name, texts.get(a.name)!) });
  return out;
}

/** Generic type naming: objects are called by their PDDL names. */
export function genericType(type: string): TypeTemplate {
  const noun = words(type) || "object";
  return { noun, plural: pluralOf(noun), single: null, match: null, fallback: null, phrase: compile("{name}", ["name"]), phraseNames: ["name"] };
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

const genericCache = new WeakMap<Domain, NlTemplates>();

/**
 * Generic templates for `domain`, derived from its names. `intro` is left empty: the renderer
 * writes the rules of a generic domain from its action schemas.
 */
export function genericTemplates(domain: Domain): NlTemplates {
  const hit = genericCache.get(domain);
  if (hit !== undefined) return hit;
  const phrases = new Map<string, PredicatePhrase>();
  for (const p of domain.predicates) phrases.set(p.name, predicatePhrase(p));
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
  genericCache.set(domain, result);
  return result;
}

/**
 * `templates` with every predicate, action and type of `domain` that it leaves out filled in
 * generically (a partial nl.json still renders everything).
 */
export function completeTemplates(templates: NlTemplates | null, domain: Domain): NlTemplates {
  if (templates === null) return genericTemplates(domain);
  // A complete nl.json needs nothing generic (and so never loads the English lexicon).
  const complete = domain.predicates.every((p) => templates.predicates.has(p.name)) && domain.actions.every((a) => templates.actions.has(a.name));
  if (complete) return templates;
  const gen = genericTemplates(domain);
  const predicates = new Map(gen.predicates);
  for (const [k, v] of templates.predicates) predicates.set(k, v);
  const actions = new Map(gen.actions);
  for (const [k, v] of templates.actions) actions.set(k, v);
  const types = new Map<string, TypeTemplate>();
  // Types without an entry inherit from their supertypes at lookup time; only keep the given ones.
  for (const [k, v] of templates.types) types.set(k, v);
  return { ...templates, predicates, actions, types };
}
