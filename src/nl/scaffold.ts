/**
 * `pddl2prm templates init`: a complete nl.json for a user domain with the generic translator's
 * guesses filled in (rules, type nouns, predicate and action texts), for the user to edit
 * instead of writing one from nothing. The result passes the schema and the domain checks of
 * `compileTemplates`; rendered as is, it reads like the generic text. Its intros hold `{rules}`,
 * which the renderer expands to the rules written from the action schemas with the file's own
 * action and predicate texts, so an edit to those texts shows up in the rules too.
 */
import type { Domain } from "../pddl/ast.js";
import { GENERIC_GOAL, GENERIC_INSTRUCTION, genericTemplates } from "./generic.js";
import type { NlJson } from "./schema.js";
import { RULES_PLACEHOLDER } from "./templates.js";
import { words } from "./text.js";

/**
 * The scaffold's intros: the generic intro's three headings, each followed by `{rules}` (the
 * renderer writes the rules there from the action schemas, with the file's current texts).
 */
export function scaffoldIntro(domainName: string): string[] {
  const d = words(domainName);
  return [
    `This is a planning problem in the "${d}" domain. These are the actions, what each one needs and what it does.`,
    `We work in the planning domain "${d}". Each action below lists the conditions it needs and the facts it changes.`,
    `The problem below comes from the "${d}" planning domain, with the following actions.`,
  ].map((head) => `${head}\n${RULES_PLACEHOLDER}`);
}

/** The scaffold nl.json of `domain` (a plain object, ready for JSON.stringify). */
export function scaffoldTemplates(domain: Domain): NlJson {
  const gen = genericTemplates(domain);
  const intro = scaffoldIntro(domain.name);
  // Objects keep their PDDL names ("{name}"), as in generic text; edit `phrase` to say more.
  const types: NlJson["types"] = { object: { noun: "object", plural: "objects", phrase: "{name}" } };
  for (const t of domain.types) {
    const g = gen.types.get(t.name)!;
    types[t.name] = { noun: g.noun, plural: g.plural, phrase: "{name}" };
  }
  const predicates: NlJson["predicates"] = {};
  for (const p of domain.predicates) {
    const g = gen.predicates.get(p.name)!;
    predicates[p.name] = { true: g.pos.map((c) => c.source), false: g.neg.map((c) => c.source) };
  }
  const actions: NlJson["actions"] = {};
  // nl.json wants three paraphrases per action: the generic ones, padded by repeating the first
  // (so the unedited file renders exactly the generic text) for the user to replace.
  for (const a of domain.actions) {
    const xs = gen.actions.get(a.name)!.text.map((c) => c.source);
    while (xs.length < 3) xs.push(xs[0]!);
    actions[a.name] = xs;
  }
  return { domain: domain.name, intro, types, predicates, actions, goal: [...GENERIC_GOAL], instruction: [...GENERIC_INSTRUCTION] };
}
