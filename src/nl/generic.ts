/**
 * Generic text for domains without nl.json: templates derived from predicate, action, type and
 * parameter names ("on-table" -> "on table", "(at truck1 loc2)" -> "truck1 is at loc2").
 */
import type { ActionDecl, Domain, PredicateDecl } from "../pddl/ast.js";
import { compile, paramNames, words } from "./text.js";
import type { ActionTemplate, NlTemplates, PredicateTemplate, TypeTemplate } from "./templates.js";

const PREPOSITIONS = new Set([
  "at", "on", "in", "to", "from", "with", "of", "by", "near", "under", "above", "below", "over",
  "inside", "into", "onto", "behind", "beside", "next", "for", "off", "toward", "towards", "via",
  "through", "across", "along", "between", "within", "using",
]);
// Adjectives that read better with "to": "l1 is adjacent to l2".
const NEEDS_TO = new Set(["adjacent", "connected", "linked", "next", "close", "equal", "similar", "attached", "related", "neighbour", "neighbor"]);
const COMPARATIVES = new Set([
  "smaller", "larger", "bigger", "higher", "lower", "greater", "heavier", "lighter", "older", "younger",
  "shorter", "longer", "taller", "faster", "slower", "closer", "less", "more", "before", "after",
]);

function listOf(items: string[]): string {
  return items.length === 1 ? items[0]! : items.slice(0, -1).join(", ") + " and " + items[items.length - 1]!;
}

/** Generic true/false text of a predicate; exported for tests. */
export function genericPredicate(decl: PredicateDecl): PredicateTemplate {
  const params = paramNames(decl.params);
  const w = words(decl.name).split(" ").filter((x) => x.length > 0);
  const all = w.join(" ");
  const rest = w.slice(1).join(" ");
  const first = w[0] ?? "";
  const last = w[w.length - 1] ?? "";
  const ph = params.map((p) => `{${p}}`);
  const n = params.length;
  let pos: string;
  let neg: string;
  let groupable = true;
  const holds = (): void => {
    pos = `${all} holds for ${listOf(ph)}`;
    neg = `${all} does not hold for ${listOf(ph)}`;
    groupable = false;
  };
  if (n === 0) {
    pos = `${all} is true`;
    neg = `${all} is false`;
  } else if (n <= 2) {
    const a = ph[0]!;
    const b = n === 2 ? " " + ph[1]! : "";
    if (first === "is" && w.length > 1) {
      pos = `${a} is ${rest}${b}`;
      neg = `${a} is not ${rest}${b}`;
    } else if ((first === "has" || first === "have") && w.length > 1) {
      pos = `${a} has ${rest}${b}`;
      neg = `${a} does not have ${rest}${b}`;
    } else if (first === "can" && w.length > 1) {
      pos = `${a} can ${rest}${b}`;
      neg = `${a} cannot ${rest}${b}`;
    } else if (n === 1 && w.length > 1 && PREPOSITIONS.has(last)) {
      // lift-at(f) -> "lift is at f"
      const subj = w.slice(0, -1).join(" ");
      pos = `${subj} is ${last} ${a}`;
      neg = `${subj} is not ${last} ${a}`;
    } else if (n === 1) {
      // on-table(x) -> "x is on table", clear(x) -> "x is clear"
      pos = `${a} is ${all}`;
      neg = `${a} is not ${all}`;
    } else {
      // Two arguments: "x is on y", "p is in city c", "l1 is connected to l2", "d is smaller than p".
      const type0 = words(decl.params[0]!.types[0] ?? "");
      if (w.length > 1 && PREPOSITIONS.has(last) && (w.slice(0, -1).join(" ") === type0 || w.slice(0, -1).join(" ") === words(params[0]!))) {
        // cargo-at(c, p) with c a cargo -> "c is at p"
        pos = `${a} is ${last}${b}`;
        neg = `${a} is not ${last}${b}`;
      } else if (PREPOSITIONS.has(first) || PREPOSITIONS.has(last) || /(ing|ed)$/.test(last) || NEEDS_TO.has(last) || COMPARATIVES.has(last)) {
        const rel = NEEDS_TO.has(last) || /ed$/.test(last) ? `${all} to` : COMPARATIVES.has(last) ? `${all} than` : all;
        pos = `${a} is ${rel}${b}`;
        neg = `${a} is not ${rel}${b}`;
      } else holds();
    }
  } else holds();
  return {
    params,
    pos: [compile(pos!, params)],
    neg: [compile(neg!, params)],
    groupOver: groupable && n > 0 ? [n - 1] : [],
    item: null,
    grouped: null,
  };
}

function informative(role: string): boolean {
  return role.length >= 2 && !/^[a-z]\d*$/.test(role) && !/^(obj|object|x|y|z|arg)\d*$/.test(role);
}

/** The preposition a parameter name carries: "?from" -> "from", "?loc-to" -> "to", else null. */
function rolePrep(role: string): string | null {
  const ws = role.split(" ");
  if (PREPOSITIONS.has(ws[0]!)) return ws[0]!;
  if (ws.length > 1 && PREPOSITIONS.has(ws[ws.length - 1]!)) return ws[ws.length - 1]!;
  return null;
}

/**
 * Generic action text: the verb (action name), its first plain argument, arguments whose
 * parameter names are prepositions inline ("drive truck1 from depot to loc1"), and the rest
 * as "(role: object)" when their parameter names say something, else as a list.
 */
function genericAction(decl: ActionDecl, verbWords: string): ActionTemplate {
  const params = paramNames(decl.params);
  const roles = params.map((p) => words(p));
  const preps = roles.map(rolePrep);
  let verb = verbWords;
  // "drive-to ?t ?from ?to" -> "drive ... to ...": drop a trailing preposition a parameter carries.
  const vw = verb.split(" ");
  if (vw.length > 1 && PREPOSITIONS.has(vw[vw.length - 1]!) && preps.includes(vw[vw.length - 1]!)) verb = vw.slice(0, -1).join(" ");
  const plain = params.map((_, i) => i).filter((i) => preps[i] === null);
  const parts: string[] = [verb];
  if (plain.length > 0) parts.push(`{${params[plain[0]!]}}`);
  const others = plain.slice(1);
  if (others.length > 0 && others.every((i) => informative(roles[i]!))) {
    for (let i = 0; i < params.length; i++) if (preps[i] !== null) parts.push(`${preps[i]} {${params[i]}}`);
    parts.push(`(${others.map((i) => `${roles[i]}: {${params[i]}}`).join(", ")})`);
  } else {
    if (others.length > 0) parts[parts.length - 1] = listOf([parts[parts.length - 1]!, ...others.map((i) => `{${params[i]}}`)]);
    for (let i = 0; i < params.length; i++) if (preps[i] !== null) parts.push(`${preps[i]} {${params[i]}}`);
  }
  return { params, text: [compile(parts.join(" "), params)] };
}

function pluralOf(noun: string): string {
  if (/(s|x|z|ch|sh)$/.test(noun)) return noun + "es";
  if (/[^aeiou]y$/.test(noun)) return noun.slice(0, -1) + "ies";
  return noun + "s";
}

/** Generic type naming: objects are called by their PDDL names. */
export function genericType(type: string): TypeTemplate {
  const noun = words(type) || "object";
  return { noun, plural: pluralOf(noun), single: null, match: null, fallback: null, phrase: compile("{name}", ["name"]), phraseNames: ["name"] };
}

const GENERIC_GOAL = [
  "The goal is to reach a state where {goal}.",
  "I have to reach a state in which {goal}.",
  "The task is finished when {goal}.",
];

const GENERIC_INSTRUCTION = [
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
  const predicates = new Map<string, PredicateTemplate>();
  for (const p of domain.predicates) predicates.set(p.name, genericPredicate(p));
  // Two actions whose names give the same words keep their PDDL names (exact round trip).
  const verbCount = new Map<string, number>();
  for (const a of domain.actions) verbCount.set(words(a.name), (verbCount.get(words(a.name)) ?? 0) + 1);
  const actions = new Map<string, ActionTemplate>();
  for (const a of domain.actions) {
    const v = words(a.name);
    actions.set(a.name, genericAction(a, verbCount.get(v)! > 1 || v === "" ? a.name : v));
  }
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
  const gen = genericTemplates(domain);
  if (templates === null) return gen;
  const predicates = new Map(gen.predicates);
  for (const [k, v] of templates.predicates) predicates.set(k, v);
  const actions = new Map(gen.actions);
  for (const [k, v] of templates.actions) actions.set(k, v);
  const types = new Map<string, TypeTemplate>();
  // Types without an entry inherit from their supertypes at lookup time; only keep the given ones.
  for (const [k, v] of templates.types) types.set(k, v);
  return { ...templates, predicates, actions, types };
}
