/**
 * Generic what-I-do text of an action: a verb from the action's name and its parameters in
 * the roles its preconditions and effects give them. A parameter deleted from one atom and
 * added to the same atom with another value is a from/to pair ("I drive truck-1 from l1 to
 * l2"); a thing moved between two relations goes "from"/"into"/"at" ("I load p1 into t1 at
 * l2"); a value changed on the side is said as "changing the fuel level of plane1 from fl2 to
 * fl1". Every parameter appears exactly once, so the text parses back to the action.
 */
import type { ActionDecl, Effect, Formula, Term } from "../pddl/ast.js";
import { adverbOf, canBeVerb, compoundSplit, isDirection, isAbbreviation, isEnglishWord, isKnownWord, isPreposition, ordinalSlots, senseOf, splitName, verbForms } from "./lexicon.js";
import { names, paramInfos, type ParamInfo } from "./generic-params.js";
import { coordinatePair, type PredicatePhrase } from "./generic-predicates.js";

/** An atom of an action: arguments are parameter indexes, or constants (strings). */
interface Lit {
  pred: string;
  args: (number | string)[];
}

/** A change of one argument of an atom: `from` deleted, `to` added, the others fixed. */
interface Move {
  pred: string;
  from: number;
  to: number;
  /** The other (parameter) arguments: what moves. Empty for a 1-ary atom (an implicit thing). */
  movers: number[];
  /** The deleted and added atoms have different predicates (at -> in). */
  cross: boolean;
  toPred: string;
}

/** States a thing moves in, said as adjectives after it ("move boat empty"). */
const TRAVEL_STATES = new Set(["empty", "full", "loaded", "unloaded", "alone", "light", "heavy", "laden", "idle"]);
const MOTION = new Set(["move", "go", "drive", "fly", "walk", "sail", "travel", "ride", "run", "climb", "navigate", "turn", "roll", "slide"]);
/** The verb of a gerund ("landing" -> land, "mopping" -> mop, "baking" -> bake), or null. */
function gerundBase(w: string): string | null {
  const m = /^([a-z]{2,})ing$/.exec(w);
  if (m === null) return null;
  const stem = m[1]!;
  const doubled = /([b-df-hj-np-tv-z])\1$/.test(stem) ? stem.slice(0, -1) : null;
  for (const c of [stem, doubled, stem + "e"]) if (c !== null && c.length >= 2 && canBeVerb(c)) return c;
  return null;
}

/** Verbs of going that take no object. */
const INTRANSITIVE_MOTION = new Set(["go", "walk", "travel", "come", "run", "swim", "crawl", "hop", "wander"]);
const PARTICLES = new Set(["up", "down", "off", "out", "back", "away", "over", "in", "on"]);

/** Prepositions of place a name can end with ("workat", "park-in"). */
const LOCATIVE_PREP = new Set(["at", "in", "on", "inside", "into", "onto", "near"]);

function collect(decl: ActionDecl): { pre: Lit[]; adds: Lit[]; dels: Lit[] } {
  const vars = decl.params.map((p) => p.name);
  const arg = (t: Term): number | string => {
    if (t.kind === "var") {
      const i = vars.indexOf(t.name);
      return i >= 0 ? i : t.name;
    }
    return t.name;
  };
  const pre: Lit[] = [];
  const walkF = (f: Formula | null): void => {
    if (f === null) return;
    if (f.kind === "and") f.args.forEach(walkF);
    else if (f.kind === "atom") pre.push({ pred: f.atom.predicate, args: f.atom.args.map(arg) });
  };
  walkF(decl.precondition);
  const adds: Lit[] = [];
  const dels: Lit[] = [];
  const walkE = (e: Effect | null): void => {
    if (e === null) return;
    if (e.kind === "and") e.args.forEach(walkE);
    else if (e.kind === "add") adds.push({ pred: e.atom.predicate, args: e.atom.args.map(arg) });
    else if (e.kind === "del") dels.push({ pred: e.atom.predicate, args: e.atom.args.map(arg) });
    // a conditional change still says what the parameters are for ("when d1 is not d2, the
    // airplane turns from d1 to d2"): read for roles, not claimed as an effect
    else if (e.kind === "when") walkE(e.body);
  };
  walkE(decl.effect);
  return { pre, adds, dels };
}

function moves(adds: Lit[], dels: Lit[], preds: ReadonlyMap<string, PredicatePhrase>): Move[] {
  const out: Move[] = [];
  // How often each parameter occurs in the effects: a 1-ary "move" clear(y) -> clear(x) of a
  // parameter that other effects use too is not a change of place (stack x on y).
  const uses = new Map<number, number>();
  for (const l of [...adds, ...dels]) for (const x of l.args) if (typeof x === "number") uses.set(x, (uses.get(x) ?? 0) + 1);
  // (a position of two coordinates changes as a pair: said apart, below)
  const coordinate = (pred: string): boolean => /\(\{[^}]+\}, \{[^}]+\}\)$/.test(preds.get(pred)?.pos ?? "");
  for (const d of dels) {
    for (const a of adds) {
      if (a.pred !== d.pred || a.args.length !== d.args.length || coordinate(a.pred)) continue;
      const diff = a.args.map((x, k) => (x !== d.args[k] ? k : -1)).filter((k) => k >= 0);
      if (diff.length !== 1) continue;
      const k = diff[0]!;
      // the value of a relation is its last argument: on(c2, s2) -> on(c1, s2) is c1 taking
      // c2's place (two moves of cars), not segment s2 moving from c2 to c1
      if (k !== a.args.length - 1) continue;
      const from = d.args[k];
      const to = a.args[k];
      if (typeof from !== "number" || typeof to !== "number") continue;
      const movers = a.args.filter((x, j) => j !== k && typeof x === "number") as number[];
      if (a.args.length === 1 && !preds.get(a.pred)?.locative && (uses.get(from) !== 1 || uses.get(to) !== 1)) continue;
      // (two things moved along one way: the one the text names by itself, "the logistic
      // device", is the move; the other goes with it)
      const same = out.findIndex((m) => m.from === from && m.to === to);
      const move = { pred: a.pred, from, to, movers, cross: false, toPred: a.pred };
      if (same < 0) out.push(move);
      else if (movers.length === 0 && out[same]!.movers.length === 0 && !preds.get(out[same]!.pred)?.implicit && preds.get(a.pred)?.implicit) out[same] = move;
      // (two things moved along one way by one locative relation, "on ?goat ?to" and "on ?boat
      // ?to": both are kept, so that the one the name says is the move and the other goes with it)
      else if (movers.length === 1 && out[same]!.pred === a.pred && out[same]!.movers.length === 1 && out[same]!.movers[0] !== movers[0] && preds.get(a.pred)?.locative) out.push(move);
    }
  }
  const moving = new Set(out.flatMap((m) => m.movers));
  for (const d of dels) {
    for (const a of adds) {
      if (a.pred === d.pred || a.args.length !== 2 || d.args.length !== 2) continue;
      const x = a.args[0];
      if (typeof x !== "number" || d.args[0] !== x || moving.has(x)) continue;
      const from = d.args[1];
      const to = a.args[1];
      if (typeof from !== "number" || typeof to !== "number" || from === to) continue;
      if (out.some((m) => m.from === from || m.to === to)) continue;
      out.push({ pred: d.pred, from, to, movers: [x], cross: true, toPred: a.pred });
    }
  }
  return out;
}

const BESIDE = new Set(["behind", "beside", "under", "underneath", "near", "above", "below", "over", "upon", "against"]);

/** The prepositions of a cross move's two ends: in -> "from" / "into", at -> "at". */
function crossPreps(fromLink: string | null, toLink: string | null): [string, string] {
  const src = fromLink === "at" ? "at" : "from";
  // (a place beside another thing keeps its preposition: "move car_0 from curb_1 behind car_1")
  const dst = toLink === "in" || toLink === "inside" ? "into" : toLink === "on" ? "onto" : toLink === "at" ? "at" : toLink !== null && BESIDE.has(toLink) ? toLink : "with";
  return [src, dst];
}

/** The preposition of a one-word link ("on", "at"), "" for none, null when the link is a longer phrase. */
function prepOf(link: string | null): string | null {
  if (link === null) return null;
  const ws = link.split(" ").filter((x) => x !== "");
  if (ws.length === 0) return "";
  const last = ws[ws.length - 1]!;
  return isPreposition(last) ? last : null;
}

/**
 * One or two paraphrases of the action's what-I-do text (templates over the action's
 * parameter placeholders).
 */
export function actionPhrases(
  decl: ActionDecl,
  preds: ReadonlyMap<string, PredicatePhrase>,
  keepNameWords = false,
  nameNouns = false,
  predParams: ReadonlyMap<string, readonly string[]> = new Map(),
  roleWords: ReadonlyMap<number, string> = new Map(),
): string[] {
  const ps = paramInfos(decl.params);
  const ph = ps.map((p) => `{${p.ph}}`);
  const n = ps.length;
  // (a relation written place first, "at ?l ?o", is read object first like any other: who moves
  // is the object, not the place; `recorded` turns it back to match the predicate's parameters)
  const objectFirst = (ls: Lit[]): Lit[] => ls.map((l) => (preds.get(l.pred)?.placeFirst === true && l.args.length === 2 ? { pred: l.pred, args: [l.args[1]!, l.args[0]!] } : l));
  const collected = collect(decl);
  const [pre, adds, dels] = [objectFirst(collected.pre), objectFirst(collected.adds), objectFirst(collected.dels)];
  const mv = moves(adds, dels, preds);
  const pp = (name: string): PredicatePhrase | undefined => preds.get(name);

  // ---- the verb
  let w = splitName(decl.spelling ?? decl.name);
  // ("collect-resource2": the second resource, not two; other shapes keep their number)
  if (w.length === 3 && /^[2-9]$/.test(w[2]!) && canBeVerb(w[0]!)) w = ordinalSlots(w);
  if (w.length === 1) {
    const c = compoundSplit(w[0]!);
    if (c !== null && canBeVerb(c[0])) w = [...c];
  }
  // a phrasal verb written as one word ("pickup", "putdown"): verb and particle
  let phrasal = false;
  if (!canBeVerb(w[0]!)) {
    const m = /^([a-z]{3,}?)(up|down|off|out|on|over|away|back)$/.exec(w[0]!);
    if (m !== null && canBeVerb(m[1]!)) {
      w = [m[1]!, m[2]!, ...w.slice(1)];
      phrasal = true;
    }
  }
  // words of the name that are the role of a parameter (siblingRoles): said with it, not with the verb
  if (roleWords.size > 0) w = [w[0]!, ...w.slice(1).filter((x) => ![...roleWords.values()].includes(x))];
  // "robot-take-pot ?r - robot ?p - pot": the name starts with the one who acts, named by its
  // type (or the kind a type predicate gives it): the verb after it leads ("take p ... with robot
  // r", not "perform the robot take pot r").
  // (Untyped, with a condition "(robot ?r)" for a type, the other words could not be matched to
  // parameters either, and "take pot r" would call r the pot: left as it is.)
  let actor: number | null = null;
  if (w.length > 1 && !canBeVerb(w[0]!) && !isDirection(w[0]!) && canBeVerb(w[1]!) && !isPreposition(w[1]!) && ps.some((p) => names([w[0]!], p))) {
    // (with an object word after the verb the first noun acts; "tramcar-wash ?c ?s" washes c)
    if (w.length > 2) actor = ps.findIndex((p) => names([w[0]!], p));
    w = w.slice(1);
  }
  // "do-plane", "do-saw-large": the light verb gives way to the verb after it
  if (w.length > 1 && LIGHT_VERBS.has(w[0]!) && canBeVerb(w[1]!)) w = w.slice(1);
  let verb: string;
  let particle = "";
  let dirParticle = "";
  let rest: string[];
  if (isDirection(w[0]!) && !canBeVerb(w[0]!)) {
    verb = "move";
    dirParticle = w[0]!;
    rest = w.slice(1);
  } else if (canBeVerb(w[0]!)) {
    verb = w[0]!;
    rest = w.slice(1);
    // ("move-up", "turn-left": a direction after the verb is said after the object, as "up" is)
    if (rest.length > 0 && (PARTICLES.has(rest[0]!) || (rest.length === 1 && isDirection(rest[0]!))) && (phrasal || rest.length === 1 || !isPreposition(rest[0]!) || isDirection(rest[0]!))) {
      if (isDirection(rest[0]!)) dirParticle = rest[0]!;
      else particle = rest[0]!;
      rest = rest.slice(1);
    }
  } else if (w.length === 1 && gerundBase(w[0]!) !== null) {
    // "landing": the action is the verb's own ("land"), not "perform the landing"
    verb = gerundBase(w[0]!)!;
    rest = [];
  } else {
    verb = "perform";
    rest = ["the", ...w];
  }
  // Two verbs ("pickup-and-loose"): each takes its own object, when the effects tell which (below).
  let verb2 = "";
  if (verb !== "perform" && rest.length >= 2 && rest[0] === "and" && (canBeVerb(rest[1]!) || isEnglishWord(rest[1]!))) {
    verb2 = rest[1]!;
    rest = rest.slice(2);
  }

  // (the name's words after the verb, as written: which preposition went with which noun)
  const nameRest = [...rest];
  // Words of the name that name a parameter ("load-truck ?obj ?truck"): said before it ("into truck T").
  const nounOf = new Map<number, string>();
  if (nameNouns) {
    rest = rest.filter((word) => {
      const i = ps.findIndex((p) => names([word], p));
      if (i < 0 || nounOf.has(i)) return true;
      nounOf.set(i, word);
      return false;
    });
  }
  const used = new Set<number>();
  const inMove = (i: number): boolean => mv.some((m) => m.from === i || m.to === i);
  const locAdd = (l: Lit): boolean => l.args.length >= 2 && (pp(l.pred)?.locative ?? false);
  // ---- the thing acted on
  let primary: number | string | null = null;
  let withMover: number | null = null;
  // A name word after a preposition names where, not what: "put-on-cart ?o ?c" puts o on cart c.
  const namedPlaces: string[] = [];
  if (!keepNameWords && !nameNouns) {
    for (let j = 1; j < rest.length; j++) {
      const i = ps.findIndex((p) => names([rest[j]!], p));
      if (i < 0 || !isPreposition(rest[j - 1]!) || isDirection(rest[j - 1]!) || used.has(i) || mv.some((m) => m.from === i || m.to === i || m.movers.includes(i))) continue;
      // (a place is where something else goes or leaves: a later argument of a changed atom; or,
      // where nothing changes it, of a condition: "move-along-track ?train ?from ?to ?t" with
      // "on-track ?from ?t" moves the train along track t, it does not move t)
      const changed = [...adds, ...dels];
      if (!changed.some((l) => l.args.indexOf(i) > 0) && (changed.some((l) => l.args.includes(i)) || !pre.some((l) => l.args.indexOf(i) > 0))) continue;
      namedPlaces.push(`${rest[j - 1]} ${rest[j]} ${ph[i]}`);
      used.add(i);
      rest = [...rest.slice(0, j - 1), ...rest.slice(j + 1)];
      j -= 2;
    }
    for (let j = 0; j < rest.length && primary === null; j++) {
      const i = ps.findIndex((p) => names([rest[j]!], p));
      if (i < 0 || used.has(i)) continue;
      const cross = mv.find((m) => m.cross && m.to === i && crossPreps(prepOf(pp(m.pred)?.link ?? null), prepOf(pp(m.toPred)?.link ?? null))[1] === "with");
      if (!inMove(i) || cross !== undefined) {
        primary = i;
        // "board-truck ?d ?t": the truck is boarded, with the driver.
        if (cross !== undefined) withMover = cross.movers[0] ?? null;
      }
      // The word is said by the argument it names ("load-truck ?p ?t": "load p into t").
      rest = [...rest.slice(0, j), ...rest.slice(j + 1)];
      j--;
    }
  }
  // A change between two values (levels, counts) is said on the side ("changing ..."), never as the move.
  const valueMove = (m: Move): boolean => [m.from, m.to].every((i) => ps[i]!.value || NUMBERISH_NOUN.test(ps[i]!.typeWords[ps[i]!.typeWords.length - 1] ?? ""));
  const rank = (m: Move): number => (valueMove(m) ? 9 : m.movers.length > 0 && !m.cross && pp(m.pred)?.locative ? 0 : m.cross ? 1 : m.movers.length > 0 ? 2 : pp(m.pred)?.implicit ? 3 : 9);
  // a second thing the verb acts on, said with the first ("save p3 and p4", "move wolf and boat")
  let alsoActed: number | null = null;
  const mainMove = ((): Move | null => {
    if (withMover !== null) return mv.find((m) => m.cross && m.movers.includes(withMover!)) ?? null;
    if (typeof primary === "number") return mv.find((m) => m.movers.includes(primary as number) && !valueMove(m)) ?? null;
    const cands = mv.filter((m) => rank(m) < 9).sort((x, y) => rank(x) - rank(y));
    // The mover whose place another mover takes ("push": the stone, not the player).
    const pushed = cands.find((m) => m.movers.length > 0 && cands.some((o) => o !== m && o.movers.length > 0 && o.to === m.from));
    return pushed ?? cands[0] ?? null;
  })();
  if (primary === null && mainMove !== null) {
    primary = mainMove.movers.length > 0 ? mainMove.movers[0]! : (pp(mainMove.pred)?.implicit ?? null);
  }
  // The one acting moves itself: "move from p1 to p2", not "move I from ...".
  if (primary === "I") primary = "";
  // A verb that ends a thing ends what a deleted one-argument fact named by a noun says is there:
  // "kill ?who ?what ?from ?to" deleting "wumpus ?to" kills the wumpus at to (not "kill who").
  if (primary === null && ENDING.has(verb)) {
    const gone = dels.find((l) => l.args.length === 1 && typeof l.args[0] === "number" && !adds.some((a) => a.pred === l.pred) && senseOf(splitName(l.pred).pop()!.toLowerCase()) === "noun");
    if (gone !== undefined) {
      const y = gone.args[0] as number;
      primary = `the ${splitName(gone.pred).join(" ").toLowerCase()} ${ps[y]!.place || /^\?(from|to|dest|destination|target|origin)\d*$/i.test(decl.params[y]!.name) || pre.some((l) => l.args.length === 2 && l.args[1] === y && (pp(l.pred)?.locative ?? false)) ? "at" : "of"} ${ph[y]}`;
      used.add(y);
    }
  }
  // the verb's own participle added of one argument ("save ?p1 ?p2 ?p3 ?p4" adds saved(p3),
  // "eat-alive ?p1 ?p2" adds eaten(p2)): that argument is what the verb acts on, whatever the
  // order of the parameters
  let byParticiple = false;
  if (primary === null && verb !== "perform" && actor === null && mv.length === 0) {
    const part = verbForms(verb).participle;
    // ("unlock ?b" deletes locked(b): the undoing verb acts on what its base verb had done to)
    const undone = /^(un|dis)([a-z]{3,})$/.exec(verb);
    const basePart = undone !== null && canBeVerb(undone[2]!) ? verbForms(undone[2]!).participle : null;
    const hit = adds.find((l) => l.args.length === 1 && typeof l.args[0] === "number" && splitName(l.pred).join(" ") === part) ?? (basePart === null ? undefined : dels.find((l) => l.args.length === 1 && typeof l.args[0] === "number" && splitName(l.pred).join(" ") === basePart));
    if (hit !== undefined) {
      primary = hit.args[0] as number;
      byParticiple = true;
      // ("save ?p3 ?p4", both saved: "save p3 and p4")
      const also = adds.find((l) => l.pred === hit.pred && typeof l.args[0] === "number" && l.args[0] !== primary);
      if (also !== undefined) alsoActed = also.args[0] as number;
    }
  }
  if (primary === null) {
    // The thing placed or taken away: the first argument of a locative atom added or deleted,
    // else of any atom the action changes.
    const pick = (ls: Lit[]): number | null => {
      let best: number | null = null;
      for (const l of ls) {
        const x = l.args[0];
        if (typeof x === "number" && !inMove(x) && (best === null || x < best)) best = x;
      }
      return best;
    };
    // (a verb that takes away names what leaves its place: "get-left ?r ... ?o" gets o)
    const relation = (l: Lit): boolean => l.args.length >= 2;
    // (what is taken goes somewhere, what is put comes from somewhere: the hand, a vehicle;
    // a verb with its own object, "take-image", keeps it)
    const goes = (ls: Lit[], other: Lit[]): Lit[] => ls.filter((l) => relation(l) && other.some((o) => o.args.includes(l.args[0]!)));
    // (what a holder comes to hold or lets go: "holding ?h ?c" added by "grasp ?h ?c" is c taken
    // by h, "grasp shot2 with hand left", not "grasp left with shot2"; "has ?u ?c" added by
    // "pickup ?u ?l ?c" picks up c)
    // (a thing had that is let go by a verb that neither places nor takes away is used, not acted
    // on: "kill ?who ?what ..." deletes "have ?who ?what", the arrow it shoots)
    const holds = (l: Lit, added: boolean): boolean => {
      const name = splitName(l.pred).join(" ");
      return /^(holding|carrying|grasping|gripping|grabbing)$/.test(name) || (/^(has|have)$/.test(name) && (added || PLACING.has(verb) || REMOVAL.has(verb)));
    };
    const grip = [...adds.map((l) => [l, true] as const), ...dels.map((l) => [l, false] as const)].find(([l, added]) => l.args.length === 2 && holds(l, added) && typeof l.args[0] === "number" && typeof l.args[1] === "number" && !inMove(l.args[1]))?.[0];
    // a verb of gain ("recharge ?from ?to ..."): what it acts on is the one whose value rises, by
    // an order the preconditions state ("predecessor(post, pre)" falls), not the first argument
    const gainer = GAIN_VERBS.has(verb) ? risingMover(mv.filter(valueMove), pre) : null;
    if (gainer !== null) primary = gainer;
    else if (rest.some((x) => !isDirection(x) && !isPreposition(x))) void 0;
    else if (grip !== undefined && !MOTION.has(verb)) primary = grip.args[1] as number;
    else if (REMOVAL.has(verb)) primary = pick(dels.filter(locAdd)) ?? pick(goes(dels, adds)) ?? pick(dels.filter(relation));
    else if (PLACING.has(verb)) primary = pick(adds.filter(locAdd)) ?? pick(goes(adds, dels)) ?? pick(adds.filter(relation));
    primary ??= pick(adds.filter(locAdd)) ?? pick(dels.filter(locAdd)) ?? pick([...adds, ...dels]);
  }
  // the actor the name starts with is not what it acts on ("robot-take-coffee ?r ?b": take b, with r)
  if (primary !== null && primary === actor) primary = null;
  if (primary === null) {
    // A parameter that is only where something is ("stop ?f" with lift-at ?f) is a place, not a thing.
    const place = (i: number): boolean => pre.some((l) => l.args.length === 1 && l.args[0] === i && (pp(l.pred)?.locative ?? false));
    for (let i = 0; i < n && primary === null; i++) if (!inMove(i) && !place(i) && i !== actor) primary = i;
  }
  // What the action makes out of another: a parameter that comes to be (a one-argument fact of it
  // deleted, another added, and attributes given) with a value another parameter has
  // ("cut-board ?b ?p": p takes b's wood) is what is acted on; the other is where it comes from.
  let source: number | null = null;
  if (typeof primary === "number") {
    const own = (i: number, ls: Lit[]): Lit[] => ls.filter((l) => l.args[0] === i);
    const nameWords = splitName(decl.spelling ?? decl.name);
    const made = ps.findIndex((p, i) => i !== primary && !inMove(i) && !nameWords.some((x) => names([x], p)) && own(i, adds).some((l) => l.args.length === 1) && own(i, dels).some((l) => l.args.length === 1) && own(i, adds).length >= 3);
    const from = primary;
    const shares = made >= 0 && adds.some((a) => a.args.length === 2 && a.args[0] === made && typeof a.args[1] === "number" && pre.some((l) => l.pred === a.pred && l.args.length === 2 && l.args[0] === from && l.args[1] === a.args[1]));
    if (shares) {
      source = primary;
      primary = made;
      used.add(source);
    }
  }
  if (typeof primary === "number") used.add(primary);
  if (alsoActed !== null) used.add(alsoActed);
  // the first of an (x, y) pair acted on is the point, "press lit (x1, y0)", not "press lit x1 with posy y0"
  let primaryY: number | null = null;
  if (typeof primary === "number" && primary + 1 < n && !used.has(primary + 1) && coordinatePair([decl.params[primary]!, decl.params[primary + 1]!], 0)) {
    primaryY = primary + 1;
    used.add(primaryY);
  }
  // The second verb's object: what is put where the first verb took from, or the other way round.
  let second: number | null = null;
  if (verb2 !== "" && typeof primary === "number" && (REMOVAL.has(verb) || PLACING.has(verb))) {
    for (const l of REMOVAL.has(verb) ? adds : dels) {
      const x = l.args[0];
      if (locAdd(l) && typeof x === "number" && x !== primary && !inMove(x)) second = x;
    }
  }
  if (second !== null) used.add(second);
  else if (verb2 !== "") rest = ["and", verb2, ...rest];
  if (withMover !== null) used.add(withMover);

  const pps: string[] = [...namedPlaces];
  if (source !== null) pps.push(`from ${[...ps[source]!.typeWords, ph[source]].join(" ")}`);
  const tails: string[] = [];
  // ---- where the thing acted on goes
  const takeMove = (m: Move): void => {
    if (withMover !== null) {
      pps.push(`with ${ph[withMover]}`, `${crossPreps(prepOf(pp(m.pred)?.link ?? null), null)[0]} ${ph[m.from]}`);
      used.add(m.from);
      return;
    }
    // a place beside a thing is left and reached as such ("from behind car_1"); a place named
    // by "at" and more words ("at curb number") is reached: "to curb_2"
    const beside = (pred: string): string => {
      const p = prepOf(pp(pred)?.link ?? null);
      return p !== null && BESIDE.has(p) ? ` ${p}` : "";
    };
    if (m.cross) {
      const toLink = pp(m.toPred)?.link ?? null;
      let [src, dst] = crossPreps(prepOf(pp(m.pred)?.link ?? null), prepOf(toLink));
      if (dst === "with" && toLink !== null && toLink.split(" ")[0] === "at" && toLink.includes(" ") && ps[m.to]!.typeWords.length > 0) dst = "to";
      src += src === "from" ? beside(m.pred) : "";
      const a = `${dst} ${ph[m.to]}`;
      const b = `${src} ${ph[m.from]}`;
      // "at" places go last: "load p1 into t1 at l2", "unload p1 from t1 at l2".
      if (src === "at") pps.push(a, b);
      else pps.push(b, a);
    } else pps.push(`from${beside(m.pred)} ${ph[m.from]}`, `to${beside(m.pred)} ${ph[m.to]}`);
    used.add(m.from);
    used.add(m.to);
  };
  if (mainMove !== null) takeMove(mainMove);
  // ---- complements of the thing acted on: stack x on y, paint t black, unstack x from y
  if (typeof primary === "number") {
    for (const [list, added] of [[adds, true], [dels, false]] as const) {
      for (const l of list) {
        if (l.args.length !== 2 || l.args[0] !== primary) continue;
        const y = l.args[1];
        if (typeof y !== "number" || used.has(y) || inMove(y)) continue;
        const prep = prepOf(pp(l.pred)?.link ?? null);
        if (prep === null) continue;
        if (added) pps.push(prep === "" ? ph[y]! : `${prep === "in" ? "into" : prep === "on" ? "onto" : prep} ${ph[y]}`);
        else if (prep === "") continue;
        else pps.push(`${prep === "at" ? "at" : "from"} ${ph[y]}`);
        used.add(y);
      }
    }
  }
  // ---- places: an argument something already named is at ("unload p1 from t1 at l2", "stop at f2")
  let aimed = false;
  // Two parameters of one kind: one type, or of type object and both places or both of one unary
  // precondition ("(place ?x) (place ?y)"; miconic's "(floor ?f) (passenger ?p)" are not).
  const sameKind = (i: number, j: number): boolean => {
    if (ps[i]!.typeWords.length > 0 || ps[j]!.typeWords.length > 0) return ps[i]!.typeWords.join() === ps[j]!.typeWords.join();
    return (ps[i]!.place && ps[j]!.place) || pre.some((l) => l.args.length === 1 && l.args[0] === i && pre.some((k) => k.pred === l.pred && k.args.length === 1 && k.args[0] === j));
  };
  // The first parameter, of the kind of the one acted on and left as it is, is the one who acts
  // ("eat-alive ?p1 ?p2": p1 eats p2): "have p1 eat p2 alive", not "eat p2 with p1"
  let causer: number | null = null;
  // (untyped, two of a kind are where one relation puts both: "at ?p1 ?l" and "at ?p2 ?l")
  const alike = (i: number, j: number): boolean => sameKind(i, j) || (ps[i]!.typeWords.length === 0 && ps[j]!.typeWords.length === 0 && pre.some((l) => l.args.length === 2 && l.args[0] === i && pre.some((k) => k.pred === l.pred && k.args.length === 2 && k.args[0] === j)));
  if (byParticiple && primary !== 0 && n > 1 && !used.has(0) && !inMove(0) && ![...adds, ...dels].some((l) => l.args.includes(0)) && alike(0, primary as number) && !ps[0]!.place) {
    causer = 0;
    used.add(0);
  }
  for (let pass = 0; pass < 2; pass++) {
    for (const l of pre) {
      const info = pp(l.pred);
      if (info === undefined || !info.locative) continue;
      const y = l.args[l.args.length - 1];
      if (typeof y !== "number" || used.has(y)) continue;
      const x = l.args.length === 2 ? l.args[0] : null;
      if (l.args.length !== 1 && !(typeof x === "number" && used.has(x))) continue;
      // where something moves to is said by its move ("moving to f2"), not as a place beside
      // another ("up at f1 at f2": "above ?f1 ?f2" is a condition, not where it is)
      if (l.args.length === 2 && mv.some((m) => m.to === y && m.movers.length === 1 && typeof x === "number" && m.from === x)) continue;
      // Two places of one type, one where the one acting stands and the other what the action
      // changes ("fire-laser ?x ?y": the robot at x hits y): aimed at the one, from the other
      // (not "fire laser y at x").
      if (l.args.length === 1 && info.implicit !== null && typeof primary === "number" && primary !== y && !MOTION.has(verb) && !PLACING.has(verb) && !REMOVAL.has(verb) && sameKind(primary, y) && [...adds, ...dels].some((c) => c.args.includes(primary)) && ![...adds, ...dels].some((c) => c.args.includes(y))) {
        aimed = true;
        pps.unshift(`from ${ph[y]}`);
        used.add(y);
        continue;
      }
      // where the one acting stands ("at ?p": I am at p) is said as such: "standing at p"
      pps.push(info.implicit === "I" ? `standing at ${ph[y]}` : `${prepOf(info.link) || "at"} ${ph[y]}`);
      used.add(y);
    }
  }
  // ---- other changes: "changing the fuel level of plane1 from fl2 to fl1"
  // (the thing acted on first, so that "its" follows it and no other: "recharge r2, changing its
  // battery ..., changing the battery of r1 ...")
  const ownFirst = [...mv].sort((a, b) => Number(a.movers[0] !== primary) - Number(b.movers[0] !== primary));
  for (const m of ownFirst) {
    if (m === mainMove) continue;
    const info = pp(m.pred);
    const free = (i: number): boolean => !used.has(i);
    const mover = m.movers.length === 1 ? m.movers[0]! : null;
    const ends: string[] = [];
    if (free(m.from)) ends.push(`from ${ph[m.from]}`);
    if (free(m.to)) ends.push(`to ${ph[m.to]}`);
    const otherMover = info?.locative === true && mover !== null && !used.has(mover);
    if (ends.length === 0 && !otherMover) continue;
    used.add(m.from);
    used.add(m.to);
    if (info?.locative && mover !== null) {
      if (used.has(mover)) tails.push(`moving ${ends.join(" ")}`);
      // another thing moves along the same way: it is taken along ("move goat from a to b, taking boat along")
      else if (mainMove !== null && m.from === mainMove.from && m.to === mainMove.to && mainMove.movers.length > 0 && !mainMove.cross) {
        const role = roleWords.get(mover) ?? roleNoun(ps[mover]!, decl.params[mover]!.name);
        tails.push(`taking ${role !== "" && role !== "object" ? `${role} ` : ""}${ph[mover]} along`);
        used.add(mover);
      } else {
        // another thing moves too: say both of its ends, even one already named ("with c2 moving from s2 to s1")
        tails.push(`with ${ph[mover]} moving from ${ph[m.from]} to ${ph[m.to]}`);
        used.add(mover);
      }
      continue;
    }
    let attr = info?.attr ?? splitName(m.pred).join(" ");
    // "robot-has ?r ?c": what changes is its colour, not its "has"
    if (/\b(has|have)$/.test(attr) && ps[m.to]!.typeWords.length > 0) attr = ps[m.to]!.typeWords.join(" ");
    // "changing its stored level": a relation that is not a noun names its value by the value's type
    const vnoun = ps[m.to]!.typeWords.join(" ");
    if (vnoun !== "" && !attr.split(" ").includes(ps[m.to]!.typeWords[ps[m.to]!.typeWords.length - 1]!) && senseOf(attr.split(" ").pop()!) !== "noun") attr = `${attr} ${vnoun}`;
    // (where the one acting is: "moving to n2", not "changing I to n2")
    if (mover === null && info?.implicit === "I" && info.locative) tails.push(`moving ${ends.join(" ")}`);
    else if (mover === null) tails.push(`changing ${info?.implicit ?? `the ${attr}`} ${ends.join(" ")}`);
    else if (used.has(mover) || mover === primary) tails.push(`changing its ${attr} ${ends.join(" ")}`);
    else {
      tails.push(`changing the ${attr} of ${ph[mover]} ${ends.join(" ")}`);
      used.add(mover);
    }
  }
  // ---- a position that changes ("base-pos ?r ?x1 ?y" to "base-pos ?r ?x2 ?y"): from one (x, y) to another
  for (const d of dels) {
    const k = d.args.length;
    const phrase = pp(d.pred);
    if (phrase === undefined || !/\(\{[^}]+\}, \{[^}]+\}\)$/.test(phrase.pos) || !predParams.has(d.pred)) continue;
    const a = adds.find((l) => l.pred === d.pred && l.args.length === k && l.args.slice(0, k - 2).every((x, j) => x === d.args[j]) && (l.args[k - 2] !== d.args[k - 2] || l.args[k - 1] !== d.args[k - 1]));
    if (a === undefined) continue;
    const ends = [d.args[k - 2], d.args[k - 1], a.args[k - 2], a.args[k - 1]];
    if (!ends.every((x) => typeof x === "number")) continue;
    const [x1, y1, x2, y2] = ends as number[];
    if (![x1, y1, x2, y2].some((i) => !used.has(i))) continue;
    const owner = k === 3 && typeof d.args[0] === "number" ? d.args[0] : null;
    const what = owner === null ? `the ${phrase.attr}` : `the ${phrase.attr} of ${ph[owner]}`;
    tails.push(`changing ${what} from (${ph[x1]}, ${ph[y1]}) to (${ph[x2]}, ${ph[y2]})`);
    for (const i of [x1, y1, x2, y2]) used.add(i);
    if (owner !== null) used.add(owner);
  }
  // ---- whatever is left: directions, then "with ..."
  const left: number[] = [];
  for (let i = 0; i < n; i++) {
    if (used.has(i)) continue;
    if (ps[i]!.direction) {
      pps.push(`in direction ${ph[i]}`);
      used.add(i);
      continue;
    }
    // An agent and where it stands: "paint t1 black with robot1 at t2".
    const at = pre.find((l) => l.args.length === 2 && l.args[0] === i && typeof l.args[1] === "number" && !used.has(l.args[1]) && (pp(l.pred)?.locative ?? false));
    if (at !== undefined) {
      const y = at.args[1] as number;
      pps.push(`with ${ph[i]} ${prepOf(pp(at.pred)!.link) || "at"} ${ph[y]}`);
      used.add(i);
      used.add(y);
    } else left.push(i);
  }
  // A parameter named by a preposition ("?over", "?to") says its role: "over p2".
  for (let k = left.length - 1; k >= 0; k--) {
    const i = left[k]!;
    const v = splitName(decl.params[i]!.name);
    if (v.length === 1 && isPreposition(v[0]!)) {
      pps.push(`${v[0]} ${ph[i]}`);
      left.splice(k, 1);
    }
  }
  const results: string[] = [];
  // The reading of an added fact whose last argument is i and whose other arguments the text names.
  const recorded = (i: number): string | null => {
    const fact = adds.find((l) => l.args.length >= 2 && l.args[l.args.length - 1] === i && l.args.slice(0, -1).every((x) => typeof x === "number" && x !== i && used.has(x)));
    const phrase = fact === undefined ? undefined : pp(fact.pred);
    const own0 = fact === undefined ? undefined : predParams.get(fact.pred);
    const own = own0 !== undefined && pp(fact!.pred)?.placeFirst === true ? [...own0].reverse() : own0;
    if (fact === undefined || phrase === undefined || phrase.plain || own === undefined || own.length !== fact.args.length) return null;
    return phrase.pos.replace(/\{([^}]+)\}/g, (m, name: string) => {
      const j = own.indexOf(name);
      return j < 0 ? m : ph[fact.args[j] as number]!;
    });
  };
  // An (x, y) pair of parameters is one position: "(x0, y0) as the base position of pr2".
  const pairItems: string[] = [];
  const betweenItems: string[] = [];
  // Values in between two others along one relation's chain ("boardsize-successor after s1, s1 s2,
  // s2 before": s1 and s2 lie between after and before): said as such.
  for (const rel of new Set(pre.filter((l) => l.args.length === 2).map((l) => l.pred))) {
    const next = new Map<number, number>();
    let chain = true;
    for (const l of pre) {
      if (l.pred !== rel || l.args.length !== 2) continue;
      const [a, b] = l.args;
      if (typeof a !== "number" || typeof b !== "number" || next.has(a)) chain = false;
      else next.set(a, b);
    }
    if (!chain || next.size < 2) continue;
    // (an order over one kind of value, not a chain of holders: "has ?u ?k" and "has ?k ?c" do
    // not put crate k between uav u and content c)
    if (![...next].every(([a, b]) => sameKind(a, b))) continue;
    const targets = new Set(next.values());
    const starts = [...next.keys()].filter((a) => !targets.has(a));
    if (starts.length !== 1) continue;
    const path = [starts[0]!];
    while (next.has(path[path.length - 1]!) && path.length <= next.size) path.push(next.get(path[path.length - 1]!)!);
    if (path.length !== next.size + 1 || new Set(path).size !== path.length) continue;
    const inner = path.slice(1, -1);
    if (inner.length === 0 || !inner.every((i) => left.includes(i))) continue;
    const list = inner.length === 1 ? ph[inner[0]!]! : `${inner.slice(0, -1).map((i) => ph[i]).join(", ")} and ${ph[inner[inner.length - 1]!]}`;
    betweenItems.push(`${list} between ${ph[path[0]!]} and ${ph[path[path.length - 1]!]}`);
    for (const i of inner) {
      used.add(i);
      left.splice(left.indexOf(i), 1);
    }
  }
  // (x, y) pairs among the parameters left: those an atom takes as its last two arguments first
  // ("gripper-rel ?r ?gxrel ?gyrel"), then consecutive ones
  const isPair = (i: number, j: number): boolean => coordinatePair([decl.params[i]!, decl.params[j]!], 0);
  const pairs: Array<[number, number]> = [];
  for (const l of [...pre, ...adds, ...dels]) {
    const k = l.args.length;
    const [i, j] = [l.args[k - 2], l.args[k - 1]];
    if (k < 2 || typeof i !== "number" || typeof j !== "number" || !left.includes(i) || !left.includes(j) || !isPair(i, j)) continue;
    if (pairs.some(([a, b]) => a === i || b === j || a === j || b === i)) continue;
    pairs.push([i, j]);
  }
  for (let k = 0; k + 1 < left.length; k++) {
    const [i, j] = [left[k]!, left[k + 1]!];
    if (j === i + 1 && isPair(i, j) && !pairs.some(([a, b]) => [a, b].includes(i) || [a, b].includes(j))) pairs.push([i, j]);
  }
  for (const [i, j] of pairs.sort((a, b) => a[0] - b[0])) {
    const cell = `(${ph[i]}, ${ph[j]})`;
    const of = pre.find((l) => l.args.length === 3 && l.args[1] === i && l.args[2] === j && typeof l.args[0] === "number" && (pp(l.pred)?.pos.startsWith("the ") ?? false));
    pairItems.push(of !== undefined ? `${cell} as the ${pp(of.pred)!.attr} of ${ph[of.args[0] as number]}` : cell);
    used.add(i).add(j);
    left.splice(left.indexOf(i), 1);
    left.splice(left.indexOf(j), 1);
  }
  if (left.length > 0 || pairItems.length > 0 || betweenItems.length > 0) {
    // Each named by its role ("with mode m", "with old surface s"): the variable's words when they
    // say something, else its type; two of one type keep their variables' words or stay bare.
    const roles = left.map((i) => {
      const sib = roleWords.get(i);
      if (sib !== undefined) return sib;
      const own = roleNoun(ps[i]!, decl.params[i]!.name);
      if (own !== "" && own !== ps[i]!.typeWords.join(" ")) return own;
      // the value of an attribute of a named parameter: height(from, h) gives "height h"
      const attr = pre.find((l) => l.args.length === 2 && l.args[1] === i && typeof l.args[0] === "number" && used.has(l.args[0]) && (pp(l.pred)?.pos.startsWith("the ") ?? false));
      return attr !== undefined ? pp(attr.pred)!.attr : own;
    });
    // Two of one role: one that a one-object precondition describes takes that predicate's words
    // ("the time now is t1": "with time now t1 and time t2").
    for (let k = 0; k < left.length; k++) {
      if (roles.filter((x) => x === roles[k]).length < 2) continue;
      const u = pre.find((l) => l.args.length === 1 && l.args[0] === left[k] && !(pp(l.pred)?.plain ?? false));
      // ("{h} is empty": the empty hand, not "handempty", the predicate's name)
      const adj = u === undefined ? null : /^\{[^}]+\} is ([a-z]+)$/.exec(pp(u.pred)!.pos);
      if (adj !== null && adj !== undefined && ps[left[k]!]!.typeWords.length > 0 && ["adj", "past"].includes(senseOf(adj[1]!))) roles[k] = `${adj[1]} ${ps[left[k]!]!.typeWords.join(" ")}`;
      else if (u !== undefined) roles[k] = splitName(u.pred).join(" ");
    }
    // a parameter a relative clause names ("I, which D dispenses") is not listed again as a role
    const named = new Set<number>();
    const changes = (i: number): boolean => [...adds, ...dels].some((l) => l.args.includes(i));
    const withRole = (i: number): string => {
      const k = left.indexOf(i);
      const r = roles[k]!;
      return r === "" || roles.filter((x) => x === r).length > 1 ? ph[i]! : `${r} ${ph[i]}`;
    };
    const items = left.map((i, k) => {
      const r = roles[k]!;
      const clash = r !== "" && roles.filter((x) => x === r).length > 1;
      // the value of an attribute of another parameter, said as such: "with n1 as the height of p2"
      const of = pre.find((l) => l.args.length === 2 && l.args[1] === i && typeof l.args[0] === "number" && l.args[0] !== i && (pp(l.pred)?.pos.startsWith("the ") ?? false));
      if (of !== undefined) return `${ph[i]} as the ${pp(of.pred)!.attr} of ${ph[of.args[0] as number]}`;
      // what a named parameter does to it: supports(i, m) gives "m, which i supports"
      const verbal = pre.find((l) => l.args.length === 2 && l.args[1] === i && typeof l.args[0] === "number" && l.args[0] !== i && VERB_READING.test(pp(l.pred)?.pos ?? ""));
      if (verbal !== undefined && (clash || r === "" || r === ps[i]!.typeWords.join(" "))) {
        const verb = VERB_READING.exec(pp(verbal.pred)!.pos)![1]!;
        named.add(verbal.args[0] as number);
        return `${ph[i]}, which ${ph[verbal.args[0] as number]} ${verb}`;
      }
      // what another parameter has: have_soil_analysis(r, p) gives "the soil analysis of p"
      const has = pre.find((l) => l.args.length === 2 && l.args[1] === i && typeof l.args[0] === "number" && used.has(l.args[0]) && /^\{[^}]+\} has [a-z ]+ \{[^}]+\}$/.test(pp(l.pred)?.pos ?? ""));
      if (has !== undefined && (clash || r === "" || r === ps[i]!.typeWords.join(" "))) {
        const what = / has ([a-z ]+) \{/.exec(pp(has.pred)!.pos)![1]!;
        // "has soil analysis for p": the soil analysis for p; "has type t": t is the type itself
        return isPreposition(what.split(" ").pop()!) ? `the ${what} ${ph[i]}` : `${what} ${ph[i]}`;
      }
      // only the value an added fact records ("deliver ?p ?l ?t1 ?t2" adds delivered(p, l, t2)):
      // its role is that fact ("so that p is delivered to l with time t2")
      // (only where the type does not tell it apart: untyped, or another of its type)
      const sameType = ps.some((p, j) => j !== i && p.typeWords.join(" ") === ps[i]!.typeWords.join(" "));
      if (r === "" || (r === ps[i]!.typeWords.join(" ") && sameType)) {
        const fact = recorded(i);
        if (fact !== null) {
          results.push(fact);
          return null;
        }
      }
      return r === "" || clash ? ph[i]! : `${r} ${ph[i]}`;
    }).filter((x, k): x is string => x !== null && !(named.has(left[k]!) && !x.includes(", which ")));
    items.unshift(...pairItems);
    items.push(...betweenItems);
    // things somewhere that the action only checks ("move-wolf ?x ?y ?z ?boat ?from ?to" with
    // "not (on ?y ?from) and (on ?z ?from)"): they stay, not come along ("with goat y" read as
    // company); said so when the rest are other roles
    const stay = left.filter((i) => !changes(i) && locatedIn(decl.precondition, decl.params[i]!.name, preds) && items.includes(withRole(i)));
    const staying = stay.map(withRole);
    const withItems = items.filter((x) => !staying.includes(x));
    const list = (xs: string[]): string => (xs.length === 1 ? xs[0]! : xs.slice(0, -1).join(", ") + " and " + xs[xs.length - 1]);
    if (withItems.length > 0) pps.push(`with ${list(withItems)}`);
    if (staying.length > 0 && withItems.length + pps.length > 0) tails.push(`leaving ${list(staying)} where ${staying.length === 1 ? "it is" : "they are"}`);
    else if (staying.length > 0) pps.push(`with ${list(staying)}`);
    if (results.length > 0) tails.push(`so that ${results.length === 1 ? results[0] : results.slice(0, -1).join(", ") + " and " + results[results.length - 1]}`);
  }

  // Two roles with one preposition ("from a1 ... from p"): each says its type too.
  for (let k = 0; k < pps.length; k++) {
    const lead = pps[k]!.split(" ")[0]!;
    if (lead === "with" || !pps.some((x, j) => j !== k && x.split(" ")[0] === lead)) continue;
    const m = /^(\S+) \{([^}]+)\}$/.exec(pps[k]!);
    const i = m === null ? -1 : ps.findIndex((p) => p.ph === m[2]);
    if (i >= 0 && ps[i]!.typeWords.length > 0 && !pps[k]!.includes(` ${ps[i]!.typeWords.join(" ")} `)) pps[k] = `${lead} ${ps[i]!.typeWords.join(" ")} ${ph[i]}`;
  }

  // ---- assemble
  let restPP = "";
  // "workat ?day ?airport": the name's lone place preposition takes the place among the roles
  // ("work ... at airport A", not "work ... at with airport A")
  if (rest.length === 1 && LOCATIVE_PREP.has(rest[0]!)) {
    const k = pps.findIndex((x) => /^with [a-z ]*\{[^}]+\}$/.test(x) && ps.some((p) => p.place && x.endsWith(`{${p.ph}}`)));
    if (k >= 0) {
      pps[k] = `${rest[0]} ${pps[k]!.slice(5)}`;
      rest = [];
    }
  }
  // "get-on-camel ?v ?p ?c" with the camel as the thing: the name's preposition goes with it
  // ("get on camel1", not "get camel1 on", which reads as putting the camel on something)
  let objPrep = "";
  if (rest.length === 1 && isPreposition(rest[0]!) && !isDirection(rest[0]!) && typeof primary === "number") {
    const next = nameRest[nameRest.indexOf(rest[0]!) + 1];
    // (the noun naming that one parameter alone: "move-curb-to-car ?car ?from ?dest - car" is no "move to car")
    if (next !== undefined && names([next], ps[primary]!) && ps.filter((p) => names([next], p)).length === 1) {
      objPrep = rest[0]!;
      rest = [];
    } else if (next !== undefined && LOCATIVE_PREP.has(rest[0]!) && ps.some((p, i) => names([next], p) && pps.some((x) => x.endsWith(`{${p.ph}}`) && i !== primary))) {
      // the noun after it is a role the sentence says with its own preposition ("climb-on-jeep":
      // "climb g1 into j1", not "climb g1 on into j1")
      rest = [];
    }
  }
  if (rest.length > 0 && isPreposition(rest[0]!)) {
    // "push-to-goal": "to goal" after the thing; a lone "to" the roles say anyway is dropped.
    // (nor "to" and a word naming where the thing goes, which its move says: "move-car-to-curb")
    const named = rest.length === 2 && mainMove !== null && ps.some((p, i) => names([rest[1]!], p) && (i === mainMove.to || i === mainMove.from));
    if (!(rest.length === 1 && (pps.some((x) => x.startsWith(`${rest[0]} `)) || (rest[0] === "to" && mainMove !== null && mainMove.cross))) && !(rest[0] === "to" && named)) restPP = rest.join(" ");
    rest = [];
  }
  // Manner words of a motion ("move-up-slow") become adverbs after the thing: "move lift1 up slowly".
  const motion = MOTION.has(verb);
  // (a direction is no manner: "move east", not "move eastly")
  // (nor an adjective before its noun: "move-logistic-device" moves the logistic device, not "logisticly")
  const isManner = (x: string, i: number): boolean => senseOf(x) === "adj" && !isDirection(x) && !rest.slice(i + 1).some((y) => senseOf(y) === "noun");
  // (a state the mover travels in stays an adjective: "move boat empty", not "emptily")
  const manner = motion ? rest.filter(isManner).map((x) => (TRAVEL_STATES.has(x) ? x : adverbOf(x))) : [];
  const primaryType = typeof primary === "number" ? ps[primary]!.typeWords : [];
  const objWords = (motion ? rest.filter((x, i) => !isManner(x, i)) : rest).filter((x) => !primaryType.includes(x));
  // "go-to ?s ?from ?to": go takes no object, so the one that goes is moved ("move s from a to
  // b", not "go s from a to b")
  if (INTRANSITIVE_MOTION.has(verb) && typeof primary === "number" && objWords.length === 0 && particle === "" && !ps[primary]!.place) verb = "move";
  const afterObject = verb === "move" && dirParticle !== "";
  // run-together words are said apart ("push-unitarypipe": push unitary pipe); only in the
  // text, so that no piece names a parameter and changes the roles
  let said = objWords.flatMap(saidApart);
  // ("eat-alive": the state the thing is left in, after it: "eat p2 alive")
  const complement = byParticiple && said.length > 0 && said.every((x) => senseOf(x) === "adj") ? said.join(" ") : "";
  if (complement !== "") said = [];
  // "put-in ?x" where "in ?x" reads "x is in the briefcase" (an implicit container, implicit.ts):
  // the particle takes that container, after the thing ("put p1 in the briefcase", "take p1 out
  // of the briefcase"), not "put in p1"
  let container = "";
  if (particle !== "" && typeof primary === "number" && said.length === 0) {
    for (const [ls, added] of [[adds, true], [dels, false]] as const) {
      const l = ls.find((x) => x.args.length === 1 && x.args[0] === primary && /^\{[^}]+\} is (in|on|inside|aboard) the [a-z ]+$/.test(pp(x.pred)?.pos ?? ""));
      const m = l === undefined ? null : /^\{[^}]+\} is \S+ (the [a-z ]+)$/.exec(pp(l.pred)!.pos);
      if (m !== null && container === "" && (added ? particle !== "out" && particle !== "off" : particle === "out" || particle === "off")) container = `${particle}${added ? "" : " of"} ${m[1]}`;
    }
  }
  // ("dispose-trash": dispose of trash, the verb's own preposition)
  const verbPrep = particle === "" && said.length > 0 && verb === "dispose" ? "of" : "";
  const head = [verb, container !== "" ? "" : particle, verbPrep, afterObject ? "" : dirParticle, ...said].filter((s) => s !== "").join(" ");
  let obj = "";
  const primaryPrep = typeof primary === "number" ? splitName(decl.params[primary]!.name) : [];
  if (typeof primary === "number" && primaryPrep.length === 1 && isPreposition(primaryPrep[0]!)) obj = `${primaryPrep[0]} ${ph[primary]}`;
  else if (typeof primary === "number") obj = primaryY !== null ? `(${ph[primary]}, ${ph[primaryY]})` : ph[primary]!;
  if (objPrep !== "" && obj !== "") obj = `${objPrep} ${obj}`;
  // (an implicit thing the name's own words do not go with: "move-painting" is no "move painting the robot")
  else if (typeof primary === "string" && said.length === 0) obj = primary;
  // a place as the object of a verb that names its own thing ("place-block ?bpos - position"):
  // the block goes onto the place, or comes from it
  if (typeof primary === "number" && ps[primary]!.place && (REMOVAL.has(verb) || PLACING.has(verb)) && objWords.length > 0 && !isPreposition(obj.split(" ")[0]!) && !objWords.some((x) => ps.some((p) => names([x], p)))) {
    obj = `${REMOVAL.has(verb) ? "from" : "onto"} ${obj}`;
  }
  // the verb's own thing and a parameter that is not it ("load-stone ?v ?p", "build-sawmill ?p"):
  // the parameter is where it goes or comes from, or where the work is done ("load stone onto
  // v1 at p0", "build sawmill at p0"), not a second object ("load stone v1")
  else if (typeof primary === "number" && said.length > 0 && !aimed && !isPreposition(obj.split(" ")[0]!) && !objWords.some((x) => ps.some((p) => names([x], p)))) {
    // (or where the action requires an implicit thing to be: "wash-dresses ?r" with "the logistic device is in r")
    if (ps[primary]!.place || pre.some((l) => l.args.length === 1 && l.args[0] === primary && (pp(l.pred)?.locative ?? false) && pp(l.pred)?.implicit)) {
      // ("build-rail ?p1 ?p2" adds a link from p1 to p2: "build rail from p1 to p2")
      if (pps.some((x) => x.startsWith("to "))) obj = `from ${obj}`;
      else if (!pps.some((x) => x.startsWith("at "))) obj = `at ${obj}`;
    }
    // (only the verbs of a carrier: "take-image ?r" takes an image with rover r, not from it)
    else if (verb === "load") obj = `onto ${obj}`;
    else if (verb === "unload") obj = `from ${obj}`;
    // the one that does it, a thing that is somewhere ("pick-up-trash ?r - robot ?rm": "pick up
    // trash with robot r1 at room2", not "pick up trash r1", which makes the robot the trash)
    else if (pre.some((l) => locAdd(l) && l.args[0] === primary) && primaryY === null) {
      const noun = ps[primary]!.typeWords.join(" ");
      obj = `with ${noun !== "" && noun !== "object" ? `${noun} ` : ""}${obj}`;
    }
  }
  // (aimed with a thing the name gives, "fire laser at y"; else y is the verb's object, "unlock y")
  if (aimed && typeof primary === "number" && said.length > 0) obj = `at ${ph[primary]}`;
  const core = [causer !== null ? `have ${ph[causer]}` : "", head, alsoActed === null ? obj : obj === ph[primary as number] ? `${obj} and ${ph[alsoActed]}` : `${obj} with ${ph[alsoActed]}`, complement, container, afterObject ? dirParticle : "", ...manner, second !== null ? `and ${verb2} ${ph[second]}` : "", restPP].filter((s) => s !== "").join(" ");
  const tailText = tails.length > 0 ? `, ${tails.join(", ")}` : "";
  const withNouns = (t: string): string => {
    let out = t;
    for (const [i, word] of nounOf) out = out.replace(ph[i]!, `${word} ${ph[i]}`);
    return out;
  };
  // a preposition of the name said again by a role ("take-off-at ?x ?y": "take x off at y", not "at at y")
  // (after a relative clause "its" would point at the clause's subject: "which d1 needs, changing
  // its health" is the victim's health, said by name)
  const its = (t: string): string => (typeof primary === "number" && /, which /.test(t) ? t.replace(/, changing its ([a-z ]+?) (from|to) /g, `, changing the $1 of ${ph[primary]} $2 `) : t);
  const once = (t: string): string => its(t.replace(/\b(at|in|on|to|from|with|into|onto|by|for)( \1\b)+/g, "$1"));
  const t0 = once(withNouns([core, ...pps].join(" ") + tailText));
  // A second paraphrase only where the roles can trade places ("to l2 from l1") and their
  // prepositions tell them apart ("from a from b" swapped would read as another action).
  const lead = (x: string): string => x.split(" ")[0]!;
  // (a role with a relative clause stays last: "at l" after "t, which d needs" would be where d needs it)
  if (pps.length >= 2 && lead(pps[0]!) !== lead(pps[1]!) && !pps.slice(0, 2).some((x) => x.includes(", which "))) return [t0, once(withNouns([core, pps[1]!, pps[0]!, ...pps.slice(2)].join(" ") + tailText))];
  return [t0];
}

/**
 * Whether `v` is the first argument of a locative relation in `f` only under a negation: a thing
 * the action requires not to be somewhere ("not (on ?goat ?from) and (on ?cabbage ?from)"), never
 * one it requires to be there (who acts, a tool at hand).
 */
function locatedIn(f: Formula | null, v: string, preds: ReadonlyMap<string, PredicatePhrase>): boolean {
  let neg = false;
  let pos = false;
  const walk = (g: Formula, negated: boolean): void => {
    if (g.kind === "atom") {
      if (g.atom.args.length === 2 && g.atom.args[0]!.name === v && (preds.get(g.atom.predicate)?.locative ?? false)) (negated ? (neg = true) : (pos = true));
    } else if (g.kind === "and" || g.kind === "or") g.args.forEach((x) => walk(x, negated));
    else if (g.kind === "not") walk(g.arg, !negated);
  };
  if (f !== null) walk(f, false);
  return neg && !pos;
}

/**
 * A run-together word of an action's name said apart when every piece is plainly a word
 * ("unitarypipe": unitary pipe, "aldehydereduction"), else kept whole: no piece of three letters
 * or fewer but a preposition or article inside ("aromaticbromination" is not "aroma tic
 * bromination"), no abbreviation read into it ("activityhi" is not "activity high").
 */
function saidApart(x: string): string[] {
  if (isEnglishWord(x) || /\d/.test(x)) return [x];
  const c = compoundSplit(x);
  if (c === null || c.join("") !== x || isPreposition(c[c.length - 1]!)) return [x];
  const plain = (w: string, k: number): boolean => (k > 0 && (isPreposition(w) || w === "the")) || w.length >= 5 || (w.length === 4 && isKnownWord(w));
  return c.every(plain) ? c : [x];
}

const GAIN_VERBS = new Set(["recharge", "charge", "refuel", "fuel", "refill", "fill", "replenish", "feed", "restock"]);
// an order by name whose direction is plain: "pred(a, b)" says a comes before b; "greater(a, b)" after
const BEFORE_ORDER = /^(predecessor|pred|previous|prev|less|lower|smaller|below|lt|before)$/;
const AFTER_ORDER = /^(greater|more|higher|larger|above|gt|after)$/;

/**
 * The one mover of value changes whose value rises, by a two-argument precondition naming an
 * order between the old and new value ("battery-predecessor ?old ?new"), or null when not exactly
 * one rises (or no order says which way).
 */
function risingMover(moves: readonly Move[], pre: readonly Lit[]): number | null {
  const rises = (m: Move): boolean | null => {
    for (const l of pre) {
      if (l.args.length !== 2) continue;
      const word = splitName(l.pred).pop() ?? "";
      const dir = BEFORE_ORDER.test(word) ? 1 : AFTER_ORDER.test(word) ? -1 : 0;
      if (dir === 0) continue;
      if (l.args[0] === m.from && l.args[1] === m.to) return dir === 1;
      if (l.args[0] === m.to && l.args[1] === m.from) return dir === -1;
    }
    return null;
  };
  const up = moves.filter((m) => m.movers.length === 1 && rises(m) === true);
  const known = moves.filter((m) => m.movers.length === 1 && rises(m) !== null);
  return up.length === 1 && known.length >= 2 ? up[0]!.movers[0]! : null;
}

// "{i} supports {m}": a third-person verb between the two arguments (not "is ...", "has ...")
const VERB_READING = /^\{[^}]+\} ((?!is |has |can |does )[a-z]+s) \{[^}]+\}$/;
const PLACING = new Set(["place", "put", "drop", "set", "stack", "pile", "lay", "deposit", "install"]);
// Verbs that end a thing ("kill the wumpus at s"), for `actionPhrases`.
const ENDING = new Set(["kill", "destroy", "defeat", "slay", "extinguish", "eliminate", "shoot", "demolish", "exterminate", "eat"]);
const REMOVAL = new Set(["remove", "take", "pick", "get", "unload", "destroy", "lift", "grab", "collect", "fetch"]);
// ("make" is no light verb: "make-iron" makes iron, "make-sandwich" a sandwich)
const LIGHT_VERBS = new Set(["do", "perform", "execute"]);
const NUMBERISH_NOUN = /^(level|levels|count|counter|number|num|numb|quantity|amount|capacity|size|value|fuel|index)$/;

/** The words a parameter is called by in a role ("old surface"), or "" for none that says more than its slot. */
function roleNoun(p: ParamInfo, raw: string): string {
  // a short form the type contradicts ("?pt - proctype"): the type alone (not "point proctype")
  if (p.varWords.length === 0 && p.typeWords.length > 0 && isAbbreviation(raw.replace(/^\?/, "").replace(/\d+$/, ""))) return p.typeWords.join(" ");
  const words = splitName(raw.replace(/^\?/, ""))
    .flatMap((x) => (isEnglishWord(x) ? [x] : (compoundSplit(x) ?? [x])))
    .filter((x) => !/^\d+$/.test(x) && !/^(who|what|which)$/.test(x));
  const informative = p.varWords.length > 0 && words.length > 0 && words.every((x) => isEnglishWord(x) && x.length > 1);
  if (informative) return words.join(" ");
  // some English words beside codes ("xy_initial1"): those words and the type ("initial position")
  const eng = words.filter((x) => isEnglishWord(x) && x.length > 2 && !p.typeWords.includes(x));
  if (eng.length > 0 && p.typeWords.length > 0) return `${eng.join(" ")} ${p.typeWords.join(" ")}`;
  return p.typeWords.length > 0 ? p.typeWords.join(" ") : "";
}

/**
 * Words of an action's name that name a role of its extra parameters, proven by a sibling
 * action: "drive-passenger (?d ?from ?to ?car ?p)" beside "drive (?d ?from ?to ?car)" adds the
 * word "passenger" and the parameter ?p, so ?p is the passenger (and ?d, the first person, is who
 * drives, as in "drive"). An extra word that names an extra parameter's type ("tent") is that
 * parameter; the others are matched to the remaining extra parameters in order, one to one.
 */
export function siblingRoles(decl: ActionDecl, all: readonly ActionDecl[]): Map<number, string> {
  const words = splitName(decl.spelling ?? decl.name);
  let best: Map<number, string> = new Map();
  for (const b of all) {
    if (b === decl || b.params.length >= decl.params.length) continue;
    const bw = splitName(b.spelling ?? b.name);
    if (bw.length >= words.length || !bw.every((x, k) => words[k] === x)) continue;
    if (!b.params.every((p, k) => (p.types[0] ?? "object") === (decl.params[k]!.types[0] ?? "object"))) continue;
    const extraWords = words.slice(bw.length);
    const ps = paramInfos(decl.params);
    const extra = ps.map((_, k) => k).slice(b.params.length);
    const free = extra.filter((k) => !extraWords.some((x) => names([x], ps[k]!)));
    // (nouns only: "pickup-and-loose" adds a second verb, not a role)
    const roleW = extraWords.filter((x) => !ps.some((p) => names([x], p)));
    if (roleW.length === 0 || roleW.length !== free.length || !roleW.every((x) => isEnglishWord(x) && senseOf(x) === "noun" && !canBeVerb(x))) continue;
    // (only a parameter whose type another parameter shares: its type alone cannot tell it apart)
    if (!free.every((k) => ps.some((p, j) => j !== k && p.typeWords.join() === ps[k]!.typeWords.join()))) continue;
    const m = new Map(free.map((k, j) => [k, roleW[j]!] as [number, string]));
    if (m.size > best.size) best = m;
  }
  return best;
}
