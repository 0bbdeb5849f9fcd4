/**
 * `pddl2prm templates init`: a complete nl.json for a user domain with the generic translator's
 * guesses filled in (rules, type nouns, predicate and action texts), for the user to edit
 * instead of writing one from nothing. The result passes the schema and the domain checks of
 * `compileTemplates`; rendered as is, it reads like the generic text.
 */
import type { Domain } from "../pddl/ast.js";
import { parseProblem } from "../pddl/index.js";
import { ground } from "../task/index.js";
import { GENERIC_GOAL, GENERIC_INSTRUCTION, genericTemplates } from "./generic.js";
import { createRenderer } from "./renderer.js";
import type { NlJson } from "./schema.js";

/** The scaffold nl.json of `domain` (a plain object, ready for JSON.stringify). */
export function scaffoldTemplates(domain: Domain): NlJson {
  const gen = genericTemplates(domain);
  // The rules are written by the renderer from the action schemas; a problem with no objects
  // of its own is enough (the domain's constants are its objects).
  const empty = parseProblem(`(define (problem scaffold) (:domain ${domain.name}) (:init) (:goal (and)))`, "(templates init)", domain);
  const intro = createRenderer(ground(domain, empty), null).rules();
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
