/**
 * Implicit subjects: who a predicate is about when the PDDL never names it (the agent, the
 * briefcase, the robot). Found from what the domain and the task prove, not from guesses:
 *
 * - The agent: a one-argument locative fluent ("robot-at ?x", "at ?p", "is-at ?l") true of
 *   exactly one place in every reachable state (hints.ts) and changed by an action that deletes
 *   it at one place and adds it at another (a move). Its subject ("the robot", "I") is the one
 *   who moves about; a predicate of having without a holder ("holds-bomb", "have ?x") is about
 *   that one ("the robot holds the bomb").
 * - What the agent carries: a one-argument "in ?x" / "on ?x" fluent whose objects move with the
 *   agent (an action that moves the agent has a conditional effect "when (in ?x)" that moves x
 *   too). Said as in a container the domain is named after ("briefcase": "p1 is in the
 *   briefcase", and then that container is what moves: "the briefcase is at l1"), else as
 *   carried by the agent ("I carry p1").
 */
import type { ActionDecl, Domain, Effect, Formula, PredicateDecl } from "../pddl/ast.js";
import type { PredicatePhrase } from "./generic-predicates.js";
import { paramInfos } from "./generic-params.js";
import type { TaskHints } from "./hints.js";
import { isEnglishWord, senseOf, splitName, verbForms } from "./lexicon.js";

const CONTAINED = new Set(["in", "on", "inside", "aboard"]);

interface Changes {
  adds: Array<{ pred: string; args: string[] }>;
  dels: Array<{ pred: string; args: string[] }>;
  /** Conditional effects: the atoms of the condition and the atoms the body adds. */
  whens: Array<{ cond: Array<{ pred: string; args: string[] }>; adds: Array<{ pred: string; args: string[] }> }>;
}

function changes(a: ActionDecl): Changes {
  const out: Changes = { adds: [], dels: [], whens: [] };
  const atoms = (f: Formula, acc: Array<{ pred: string; args: string[] }>): void => {
    if (f.kind === "atom") acc.push({ pred: f.atom.predicate, args: f.atom.args.map((t) => t.name) });
    else if (f.kind === "and") f.args.forEach((x) => atoms(x, acc));
  };
  const walk = (e: Effect, into: Changes["adds"] | null): void => {
    if (e.kind === "and") e.args.forEach((x) => walk(x, into));
    else if (e.kind === "forall") walk(e.body, into);
    else if (e.kind === "add") (into ?? out.adds).push({ pred: e.atom.predicate, args: e.atom.args.map((t) => t.name) });
    else if (e.kind === "del" && into === null) out.dels.push({ pred: e.atom.predicate, args: e.atom.args.map((t) => t.name) });
    else if (e.kind === "when") {
      const w = { cond: [] as Changes["adds"], adds: [] as Changes["adds"] };
      atoms(e.cond, w.cond);
      walk(e.body, w.adds);
      out.whens.push(w);
    }
  };
  if (a.effect !== null) walk(a.effect, null);
  return out;
}

/** The actions that move a one-argument predicate from one object to another. */
function movers(domain: Domain, pred: string): ActionDecl[] {
  return domain.actions.filter((a) => {
    const c = changes(a);
    return c.adds.some((x) => x.pred === pred && x.args.length === 1 && c.dels.some((d) => d.pred === pred && d.args.length === 1 && d.args[0] !== x.args[0]));
  });
}

/** The noun a domain is named after ("briefcase"), when its name is one such word and names nothing else. */
function domainNoun(domain: Domain): string | null {
  const w = splitName(domain.name);
  if (w.length !== 1) return null;
  const x = w[0]!;
  const taken = [...domain.types.map((t) => t.name), ...domain.predicates.map((p) => p.name), ...domain.actions.map((a) => a.name)];
  if (taken.some((t) => splitName(t).includes(x)) || !isEnglishWord(x) || senseOf(x) !== "noun") return null;
  return x;
}

export interface ImplicitSubjects {
  /** Who moves about ("the robot", "I"); "I" when nothing proves another subject. */
  agent: string;
  /** Phrases that replace the generic ones, by predicate. */
  phrases: Map<string, PredicatePhrase>;
}

/**
 * Whether an action moves the one-argument fluent `pred` between two objects a fixed relation
 * links: it deletes pred(a), adds pred(b) and requires r(a, b) or r(b, a), r static and binary
 * ("door ?r1 ?r2"). The objects are then places, and what the fluent names is at one of them.
 */
function movedAlongLinks(domain: Domain, hints: TaskHints, pred: string): boolean {
  return domain.actions.some((a) => {
    const c = changes(a);
    const pre: Array<{ pred: string; args: string[] }> = [];
    positive(a.precondition, pre);
    return c.dels.some((d) => {
      if (d.pred !== pred || d.args.length !== 1) return false;
      const from = d.args[0]!;
      return c.adds.some((x) => {
        const to = x.args[0]!;
        if (x.pred !== pred || x.args.length !== 1 || to === from) return false;
        return pre.some((r) => r.args.length === 2 && r.pred !== pred && hints.get(r.pred)?.static === true && ((r.args[0] === from && r.args[1] === to) || (r.args[0] === to && r.args[1] === from)));
      });
    });
  });
}

/**
 * Things at places the PDDL names by the place alone: a one-argument fluent moved between linked
 * places (`movedAlongLinks`) whose first reading makes the place a kind or a content ("hallway
 * is a dress to wash" for dress_to_wash ?r, "kitchen is in the logistic device" for
 * in-logistic-device ?r). A place is neither: the named thing is at the place ("there is a dress
 * to wash at hallway", "the logistic device is in kitchen"; "the" when the task proves exactly
 * one place holds it).
 */
function thingsAtPlaces(domain: Domain, hints: TaskHints, phrases: ReadonlyMap<string, PredicatePhrase>): Map<string, PredicatePhrase> {
  const out = new Map<string, PredicatePhrase>();
  for (const p of domain.predicates) {
    const base = phrases.get(p.name);
    if (base === undefined || p.params.length !== 1 || hints.get(p.name)?.static !== false || base.plain === true || base.implicit !== null) continue;
    const x = `{${paramInfos(p.params)[0]!.ph}}`;
    const kind = new RegExp(`^${escape(x)} is an? ([a-z][a-z ]*)$`).exec(base.pos);
    const content = new RegExp(`^${escape(x)} is (in|on|inside) the ([a-z][a-z ]*)$`).exec(base.pos);
    if ((kind === null && content === null) || !movedAlongLinks(domain, hints, p.name)) continue;
    const one = hints.get(p.name)?.exactlyOne === true;
    const [prep, noun] = content !== null ? [content[1]!, content[2]!] : ["at", kind![1]!];
    const the = `the ${noun}`;
    const [pos, neg] = one || content !== null ? [`${the} is ${prep} ${x}`, `${the} is not ${prep} ${x}`] : [`there is ${/^[aeiou]/.test(noun) ? "an" : "a"} ${noun} ${prep} ${x}`, `there is no ${noun} ${prep} ${x}`];
    out.set(p.name, { ...base, pos, neg, locative: true, implicit: one ? the : null, attr: noun, groupable: false, placeFirst: false });
  }
  // a fixed "in-dishwasher ?r" of a place the actions require something to be at: the thing is
  // there ("there is a dishwasher in bathroom_0"), not the place inside it; an area stays the
  // place's ("in-city ?l": l is in the city)
  const located = new Set([...out.keys()]);
  for (const p of domain.predicates) {
    const base = phrases.get(p.name);
    if (base === undefined || p.params.length !== 1 || hints.get(p.name)?.static !== true || base.plain === true) continue;
    const x = `{${paramInfos(p.params)[0]!.ph}}`;
    const content = new RegExp(`^${escape(x)} is (in|inside) the ([a-z][a-z ]*)$`).exec(base.pos);
    if (content === null || AREA.test(content[2]!.split(" ").pop()!)) continue;
    const atPlace = domain.actions.some((a) => {
      const pre: Array<{ pred: string; args: string[] }> = [];
      positive(a.precondition, pre);
      return pre.some((l) => l.pred === p.name && pre.some((o) => o.args.length === 1 && o.args[0] === l.args[0] && located.has(o.pred)));
    });
    if (!atPlace) continue;
    const noun = content[2]!;
    out.set(p.name, { ...base, pos: `there is ${/^[aeiou]/.test(noun) ? "an" : "a"} ${noun} ${content[1]} ${x}`, neg: `there is no ${noun} ${content[1]} ${x}`, attr: noun, groupable: false });
  }
  return out;
}

/** Nouns of an area that holds places ("in-city ?l"): a place is in one. */
const AREA = /^(city|town|village|country|region|zone|area|district|sector|province|state|world|building|house|floor|park|garden|grid|map|maze|neighbou?rhood|camp|base|space)$/;

/** The positive atoms of a precondition's conjunction. */
function positive(f: Formula | null, acc: Array<{ pred: string; args: string[] }>): void {
  if (f === null) return;
  if (f.kind === "atom") acc.push({ pred: f.atom.predicate, args: f.atom.args.map((t) => t.name) });
  else if (f.kind === "and") f.args.forEach((x) => positive(x, acc));
}

const escape = (s: string): string => s.replace(/[{}]/g, (c) => `\\${c}`);

/** The implicit subjects of `domain`, from the first-pass phrases and the task's hints. */
export function implicitSubjects(domain: Domain, hints: TaskHints, firstPass: ReadonlyMap<string, PredicatePhrase>): ImplicitSubjects {
  const out: ImplicitSubjects = { agent: "I", phrases: thingsAtPlaces(domain, hints, firstPass) };
  const phrases = new Map([...firstPass, ...out.phrases]);
  // the agent's place: a proven exactly-one locative fluent with an implicit subject, moved by an action
  const places = domain.predicates.filter((p) => {
    const ph = phrases.get(p.name);
    return p.params.length === 1 && ph?.locative === true && ph.implicit !== null && hints.get(p.name)?.exactlyOne === true && movers(domain, p.name).length > 0;
  });
  const agents = new Set(places.map((p) => phrases.get(p.name)!.implicit!));
  if (agents.size !== 1) return out;
  out.agent = [...agents][0]!;
  const moves = places.flatMap((p) => movers(domain, p.name));
  // what the agent carries: "in ?x", whose objects move when the agent moves
  const carried = domain.predicates.filter((p) => {
    if (p.params.length !== 1 || hints.get(p.name)?.static !== false) return false;
    const info = paramInfos(p.params)[0]!;
    const words = splitName(p.spelling ?? p.name).filter((x) => !(info.typeWords.includes(x) || info.varWords.includes(x)));
    if (words.length !== 1 || !CONTAINED.has(words[0]!) || info.place) return false;
    return moves.some((a) => changes(a).whens.some((w) => w.cond.some((c) => c.pred === p.name && c.args.length === 1 && w.adds.some((x) => x.args[0] === c.args[0]))));
  });
  if (carried.length === 0) return out;
  const noun = domainNoun(domain);
  for (const p of carried) {
    const base = phrases.get(p.name)!;
    const prep = splitName(p.spelling ?? p.name).find((x) => CONTAINED.has(x))!;
    const x = `{${paramInfos(p.params)[0]!.ph}}`;
    if (noun !== null) out.phrases.set(p.name, { ...base, pos: `${x} is ${prep} the ${noun}`, neg: `${x} is not ${prep} the ${noun}`, plain: false, locative: false, implicit: null, attr: noun, groupable: false });
    else if (out.agent === "I") out.phrases.set(p.name, { ...base, pos: `I carry ${x}`, neg: `I do not carry ${x}`, plain: false, locative: false, implicit: null, attr: "carry", groupable: false });
    else out.phrases.set(p.name, { ...base, pos: `${out.agent} ${verbForms("carry").third} ${x}`, neg: `${out.agent} does not carry ${x}`, plain: false, locative: false, implicit: null, attr: "carry", groupable: false });
  }
  // the container carries the agent's contents, so it is what is at a place ("the briefcase is at l1")
  if (noun !== null && out.agent === "I") {
    for (const p of places) {
      const base = phrases.get(p.name)!;
      const x = `{${paramInfos(p.params)[0]!.ph}}`;
      const prep = /^I am (\S+) /.exec(base.pos)?.[1] ?? "at";
      out.phrases.set(p.name, { ...base, pos: `the ${noun} is ${prep} ${x}`, neg: `the ${noun} is not ${prep} ${x}`, implicit: `the ${noun}` });
    }
  }
  return out;
}

/** Predicates whose phrase depends on the agent (having without a holder): for a second pass. */
export function agentDependent(p: PredicateDecl, ph: PredicatePhrase): boolean {
  return p.params.length <= 1 && /^I (have|hold|carry|own|am holding|am carrying|do not)\b/.test(ph.pos);
}
