/**
 * Generic sentences for predicates, from their names and parameters: a subject, a verb and
 * objects ("robot2 has the colour black", "there is a road from l1 to l2", "the fuel level of
 * plane1 is fl2"), never "holds for" or "is true".
 */
import type { PredicateDecl } from "../pddl/ast.js";
import { compoundSplit, isDirection, isPreposition, senseOf, splitName, verbForms, withArticle, type Sense } from "./lexicon.js";
import { names, paramInfos, type ParamInfo } from "./generic-params.js";

/** The generic phrasing of one predicate (templates use `{name}` placeholders). */
export interface PredicatePhrase {
  pos: string;
  neg: string;
  /**
   * For an action clause: the words that link the first argument to the second ("on" for
   * on(x, y), "" for painted(t, black)); null when the predicate is not such a relation.
   */
  link: string | null;
  /** The first argument is somewhere: at(x, l), in-city(x, c), lift-at(f) (then of an implicit thing). */
  locative: boolean;
  /** Noun phrase of the quantity a change of the last argument changes ("fuel level", "passengers"). */
  attr: string;
  /** For a 1-ary predicate about something that is not an argument: "the lift" of lift-at(f). */
  implicit: string | null;
  /** True when static facts may be listed over the last argument ("n0 is above n1, n2 and n3"). */
  groupable: boolean;
  /** A word before a placeholder that is dropped when the object's name starts with it ("capacity"). */
  elide: Map<string, string>;
}

// Prepositions that a past participle or adjective takes before its second argument.
const PAST_PREP: Record<string, string> = {
  boarded: "on", loaded: "in", stored: "in", parked: "at", located: "at", placed: "on", mounted: "on", attached: "to",
  connected: "to", linked: "to", joined: "to", painted: "", coloured: "", colored: "", included: "in", contained: "in",
  assigned: "to", committed: "to", incorporated: "into", calibrated: "for", equipped: "with", served: "at", delivered: "to",
  visited: "by", blocked: "by", covered: "by", owned: "by", needed: "by", required: "by", made: "from",
};
const ADJ_PREP: Record<string, string> = {
  adjacent: "to", next: "to", close: "to", near: "to", equal: "to", similar: "to", related: "to", neighbour: "to",
  neighbor: "to", visible: "from", reachable: "from", accessible: "from", different: "from", separate: "from",
  ready: "for", available: "for", free: "for", suitable: "for", compatible: "with", full: "of", empty: "of",
};
const GERUND_PREP: Record<string, string> = { pointing: "at", looking: "at", heading: "to", going: "to", waiting: "for", working: "on" };
// Gerunds whose single argument is the thing acted on: holding(x) -> "x is held".
const TRANSITIVE = new Set(["holding", "carrying", "lifting", "grasping", "gripping", "grabbing", "pushing", "pulling", "towing"]);

// Words that end a name as a state of the argument's part: "power-on ?i".
const PARTICLE_STATE = new Set(["on", "off", "up", "down", "out"]);
const ROUTES = new Set(["road", "link", "path", "route", "edge", "way", "street", "bridge", "corridor", "passage", "track", "rail", "connection", "lane", "arc", "door"]);
const LOCATIVE = new Set(["at", "in", "on", "inside", "onto", "into", "near", "under", "above", "below", "over", "within", "upon"]);

function capitalizeName(w: string): boolean {
  return senseOf(w) === "name";
}

/** "the lift", "robby" (names take no article). */
function theNoun(words: string[]): string {
  const s = words.join(" ");
  return words.length === 1 && capitalizeName(words[0]!) ? s : `the ${s}`;
}

function isNounSense(s: Sense): boolean {
  return s === "noun" || s === "plural" || s === "name" || s === "num";
}

/** Extra arguments after the first two: "from a to b", "at c", "in direction d", "with level l". */
function roleOf(p: ParamInfo, raw: string): string {
  const v = splitName(raw);
  if (v.length === 1 && isPreposition(v[0]!)) return `${v[0]} {${p.ph}}`;
  if (v.length > 1 && isPreposition(v[v.length - 1]!)) return `${v[v.length - 1]} {${p.ph}}`;
  if (v.length > 1 && isPreposition(v[0]!)) return `${v[0]} {${p.ph}}`;
  if (p.direction) return `in direction {${p.ph}}`;
  if (p.place) return `at {${p.ph}}`;
  const noun = p.varWords.length > 0 ? p.varWords.join(" ") : p.noun;
  return noun === "object" ? `with {${p.ph}}` : `with ${noun} {${p.ph}}`;
}

/** The generic phrasing of `decl`. */
export function predicatePhrase(decl: PredicateDecl): PredicatePhrase {
  const ps = paramInfos(decl.params);
  const raw = decl.params.map((p) => p.name);
  let w = splitName(decl.spelling ?? decl.name);
  let flip = false;
  if (w.length > 1 && w[0] === "no" && ps.length > 0 && senseOf(w[1]!) === "noun") {
    // "no-access ?p ?f": "p has no access to f".
    const x = w.slice(1).join(" ");
    const a = `{${ps[0]!.ph}}`;
    const more = ps.length > 1 ? ` to {${ps[1]!.ph}}` + ps.slice(2).map((p, i) => " " + roleOf(p, raw[i + 2]!)).join("") : "";
    return { ...base(), pos: `${a} has no ${x}${more}`, neg: `${a} has ${x}${more}`, groupable: false, attr: x };
  }
  if (w.length > 1 && (w[0] === "not" || w[0] === "no")) {
    flip = true;
    w = w.slice(1);
  }
  if (w.length === 1) {
    const c = compoundSplit(w[0]!);
    if (c !== null) w = [...c];
  }
  const out = phrase(w, ps, raw);
  if (flip) [out.pos, out.neg] = [out.neg, out.pos];
  return out;
}

function base(): Omit<PredicatePhrase, "pos" | "neg"> {
  return { link: null, locative: false, attr: "", implicit: null, groupable: true, elide: new Map() };
}

function phrase(w: string[], ps: ParamInfo[], raw: string[]): PredicatePhrase {
  const n = ps.length;
  const all = w.join(" ");
  const ph = ps.map((p) => `{${p.ph}}`);
  if (n === 0) return nullary(w, all);
  const a = ph[0]!;
  // Words naming the first argument ("robot-has ?r", "lift-at ?lift", "at-lander ?l ?w"): drop
  // them, unless nothing or only "of" would be left ("part-of ?part ?whole" stays).
  let r = [...w];
  for (let k = Math.min(r.length - 1, 3); k >= 1; k--) {
    let done = false;
    for (let j = 0; j + k <= r.length; j++) {
      const left = [...r.slice(0, j), ...r.slice(j + k)];
      if (names(r.slice(j, j + k), ps[0]!) && left.length > 0 && !(left.length === 1 && left[0] === "of")) {
        r = left;
        done = true;
        break;
      }
    }
    if (done) break;
  }
  // Trailing words naming a later argument ("in-city ?c - city", "reachable-floor ?floor"): drop them.
  let named = -1;
  let namedWords: string[] = [];
  for (let i = 1; i < n && named < 0; i++) {
    for (let k = Math.min(r.length - 1, 3); k >= 1; k--) {
      if (names(r.slice(r.length - k), ps[i]!)) {
        namedWords = r.slice(r.length - k);
        r = r.slice(0, r.length - k);
        named = i;
        break;
      }
    }
  }
  if (n === 1) {
    // "available-color ?c": the trailing noun names the argument too.
    for (let k = Math.min(r.length - 1, 3); k >= 1; k--) {
      if (names(r.slice(r.length - k), ps[0]!)) {
        r = r.slice(0, r.length - k);
        break;
      }
    }
    return unary(r, w, a, ps[0]!);
  }
  // The second argument and the rest, as phrases after the relation.
  let b = ph[1]!;
  let rest = ps.slice(2).map((p, i) => roleOf(p, raw[i + 2]!));
  // A from/to pair among the later arguments: two of the same place-like type, or named so.
  const fromTo = (i: number): boolean =>
    i + 1 < n && (((ps[i]!.place || ps[i]!.typeWords.length > 0) && ps[i]!.typeWords.join() === ps[i + 1]!.typeWords.join() && ps[i]!.place) || (/from/.test(raw[i]!) && /to/.test(raw[i + 1]!)));
  const res = base();
  const head = r[0] ?? "";
  const hs = r.length > 0 ? senseOf(head) : "noun";
  const x = r.slice(1).join(" ");
  const tail = (s: string): string => (rest.length > 0 ? `${s} ${rest.join(" ")}` : s);
  const done = (pos: string, neg: string, link: string | null = null): PredicatePhrase => {
    const o: PredicatePhrase = { ...res, pos: tail(pos), neg: tail(neg), link };
    o.groupable = o.groupable && o.pos.endsWith(ph[n - 1]!);
    if (o.attr === "") o.attr = w.filter((x) => !ps.some((p) => names([x], p))).join(" ") || w.join(" ");
    return o;
  };
  // "one can move from s1 to s2", "r can traverse from x to y": verbs over a from/to pair.
  const verbal = hs === "verb" || (hs === "can" && r.length > 1);
  if (r.length === 1 && isDirection(head)) {
    // "up ?x ?y": "x is up from y"; "left ?x ?y": "x is left of y".
    const rel = head === "up" || head === "down" ? `${head} from` : `${head} of`;
    return done(`${a} is ${rel} ${b}`, `${a} is not ${rel} ${b}`, rel);
  }
  if (verbal && fromTo(0)) {
    const vp = hs === "can" ? x : r.join(" ");
    rest = ps.slice(2).map((p, i) => roleOf(p, raw[i + 2]!));
    return done(`one can ${vp} from ${a} to ${b}`, `one cannot ${vp} from ${a} to ${b}`);
  }
  if (verbal && fromTo(1)) {
    const vp = hs === "can" ? x : verbForms(head).base + (r.length > 1 ? " " + r.slice(1).join(" ") : "");
    const c = ph[2]!;
    rest = ps.slice(3).map((p, i) => roleOf(p, raw[i + 3]!));
    return done(`${a} can ${vp} from ${b} to ${c}`, `${a} cannot ${vp} from ${b} to ${c}`);
  }
  if (r.length === 0) {
    // Nothing left but nouns naming the arguments: an attribute ("robot-colour ?r ?c").
    const noun = named >= 1 ? namedWords.join(" ") : all;
    res.groupable = false;
    res.attr = noun;
    return done(`the ${noun} of ${a} is ${b}`, `the ${noun} of ${a} is not ${b}`);
  }
  switch (hs) {
    case "be": {
      const xs = r.slice(1);
      const xh = xs.length > 0 ? senseOf(xs[0]!) : "noun";
      if (isNounSense(xh) && xs.length > 0) return done(`${a} is the ${x} of ${b}`, `${a} is not the ${x} of ${b}`);
      if (xs.length === 0) return done(`${a} is ${b}`, `${a} is not ${b}`, "");
      return phrase(xs, ps, raw);
    }
    case "have": {
      if (r.length === 1) {
        // "robot-has ?r ?c": "r has the colour c".
        const bn = ps[1]!.noun;
        const obj = ps[1]!.typeWords.length > 0 ? `the ${bn} ${b}` : b;
        res.elide.set(bn, b);
        return done(`${a} has ${obj}`, `${a} does not have ${obj}`, "");
      }
      if (ps[1]!.place) return done(`${a} has ${x} for ${b}`, `${a} does not have ${x} for ${b}`);
      res.elide.set(r[r.length - 1]!, b);
      return done(`${a} has ${x} ${b}`, `${a} does not have ${x} ${b}`);
    }
    case "can":
      return done(`${a} can ${x || "reach"} ${b}`, `${a} cannot ${x || "reach"} ${b}`);
    case "prep": {
      res.locative = r.length === 1 && LOCATIVE.has(head);
      const rel = r.join(" ");
      return done(`${a} is ${rel} ${b}`, `${a} is not ${rel} ${b}`, rel);
    }
    case "verb3": {
      const f = verbForms(head);
      const more = x.length > 0 ? ` ${x}` : "";
      return done(`${a} ${head}${more} ${b}`, `${a} does not ${f.base}${more} ${b}`, `${head}${more}`);
    }
    case "verb": {
      const f = verbForms(head);
      const more = x.length > 0 ? ` ${x}` : "";
      if (ps[0]!.thing && !ps[1]!.thing) return done(`${a} is ${f.participle}${more} by ${b}`, `${a} is not ${f.participle}${more} by ${b}`);
      return done(`${a} ${f.third}${more} ${b}`, `${a} does not ${f.base}${more} ${b}`, `${f.third}${more}`);
    }
    case "gerund": {
      const prep = r.length === 1 ? (GERUND_PREP[head] ?? "") : "";
      const rel = [r.join(" "), prep].filter((s) => s !== "").join(" ");
      return done(`${a} is ${rel} ${b}`, `${a} is not ${rel} ${b}`);
    }
    case "past":
    case "adj": {
      const last = r[r.length - 1]!;
      if (r.length > 1 && isPreposition(last)) return done(`${a} is ${r.join(" ")} ${b}`, `${a} is not ${r.join(" ")} ${b}`, r.join(" "));
      if (named === 1 && hs === "adj") {
        // "reachable-floor ?lift ?floor": "floor is a reachable floor for lift".
        const np = withArticle(`${r.join(" ")} ${namedWords.join(" ")}`);
        return done(`${b} is ${np} for ${a}`, `${b} is not ${np} for ${a}`);
      }
      if (r.length > 1 && r.slice(1).every((y) => isNounSense(senseOf(y)))) {
        // "communicated-image-data ?o ?m": "the image data of o is communicated with mode m".
        rest = ps.slice(1).map((p, i) => roleOf(p, raw[i + 1]!));
        return done(`the ${x} of ${a} is ${head}`, `the ${x} of ${a} is not ${head}`);
      }
      let prep = PAST_PREP[last] ?? ADJ_PREP[last];
      if (/er$/.test(last) && prep === undefined && hs === "adj") prep = "than";
      if (prep === undefined) prep = ps[1]!.value ? "" : ps[1]!.place ? "at" : hs === "past" ? "by" : "to";
      const rel = [r.join(" "), prep].filter((s) => s !== "").join(" ");
      // The link is the preposition alone: "paint t black", "board p onto e".
      return done(`${a} is ${rel} ${b}`, `${a} is not ${rel} ${b}`, prep);
    }
    default: {
      const lastW = r[r.length - 1]!;
      if (r.length > 1 && isPreposition(lastW)) {
        // "store-of ?s ?r": "s is the store of r".
        const np = r.slice(0, -1).join(" ");
        return done(`${a} is the ${np} ${lastW} ${b}`, `${a} is not the ${np} ${lastW} ${b}`, `${lastW}`);
      }
      const lsense = senseOf(lastW);
      if (r.length > 1 && (lsense === "past" || lsense === "adj")) {
        // "image-sent ?o ?m": "the image of o is sent with mode m".
        const np = r.slice(0, -1).join(" ");
        rest = ps.slice(1).map((p, i) => roleOf(p, raw[i + 1]!));
        return done(`the ${np} of ${a} is ${lastW}`, `the ${np} of ${a} is not ${lastW}`);
      }
      const noun = r.join(" ");
      const same = ps[0]!.typeWords.length > 0 && ps[0]!.typeWords.join() === ps[1]!.typeWords.join();
      if (hs !== "plural" && (ROUTES.has(r[r.length - 1]!) || (ps[0]!.place && ps[1]!.place && same))) {
        // "road ?a ?b": "there is a road from a to b".
        return done(`there is ${withArticle(noun)} from ${a} to ${b}`, `there is no ${noun} from ${a} to ${b}`);
      }
      if (same && hs !== "plural") return done(`${a} is the ${noun} of ${b}`, `${a} is not the ${noun} of ${b}`);
      if (hs === "plural") {
        res.attr = noun;
        return done(`${a} has ${b} ${noun}`, `${a} does not have ${b} ${noun}`);
      }
      res.groupable = false;
      res.attr = noun;
      return done(`the ${noun} of ${a} is ${b}`, `the ${noun} of ${a} is not ${b}`);
    }
  }
}

function unary(r: string[], w: string[], a: string, p: ParamInfo): PredicatePhrase {
  const res = base();
  const done = (pos: string, neg: string): PredicatePhrase => ({ ...res, pos, neg, attr: res.attr || w.join(" ") });
  if (r.length === 0) {
    const np = withArticle(w.join(" "));
    return done(`${a} is ${np}`, `${a} is not ${np}`);
  }
  const head = r[0]!;
  const hs = senseOf(head);
  const x = r.slice(1).join(" ");
  const last = r[r.length - 1]!;
  if (r.length > 1 && PARTICLE_STATE.has(last) && !p.place) {
    // "power-on ?i": "the power of i is on".
    const np = r.slice(0, -1).join(" ");
    return done(`the ${np} of ${a} is ${last}`, `the ${np} of ${a} is not ${last}`);
  }
  if (r.length > 1 && isPreposition(last) && hs !== "be" && hs !== "prep") {
    // "lift-at ?f": "the lift is at f".
    const subj = theNoun(r.slice(0, -1));
    res.locative = LOCATIVE.has(last);
    res.implicit = subj;
    res.attr = r.slice(0, -1).join(" ");
    return done(`${subj} is ${last} ${a}`, `${subj} is not ${last} ${a}`);
  }
  switch (hs) {
    case "be": {
      if (x.length === 0) return done(`${a} is ${w.join(" ")}`, `${a} is not ${w.join(" ")}`);
      const xs = senseOf(r[1]!);
      if (isNounSense(xs)) return done(`${a} is ${withArticle(x)}`, `${a} is not ${withArticle(x)}`);
      return done(`${a} is ${x}`, `${a} is not ${x}`);
    }
    case "have":
      return done(`${a} has ${x || "something"}`, `${a} does not have ${x || "anything"}`);
    case "can":
      return done(`${a} can ${x || "act"}`, `${a} cannot ${x || "act"}`);
    case "prep": {
      if (x.length === 0) return done(`${a} is ${head} something`, `${a} is not ${head} anything`);
      if (p.place || r.slice(1).every((y) => senseOf(y) === "name")) {
        // "at-robot ?x": "the robot is at x"; "at-robby ?r": "robby is at r".
        const subj = theNoun(r.slice(1));
        res.locative = LOCATIVE.has(head);
        res.implicit = subj;
        res.attr = x;
        return done(`${subj} is ${head} ${a}`, `${subj} is not ${head} ${a}`);
      }
      return done(`${a} is ${head} ${theNoun(r.slice(1))}`, `${a} is not ${head} ${theNoun(r.slice(1))}`);
    }
    case "gerund":
      if (r.length === 1 && TRANSITIVE.has(head)) {
        const part = verbForms(head).participle;
        return done(`${a} is ${part}`, `${a} is not ${part}`);
      }
      return done(`${a} is ${r.join(" ")}`, `${a} is not ${r.join(" ")}`);
    case "past":
      if (r.length > 1 && !isPreposition(r[1]!) && r.slice(1).every((y) => isNounSense(senseOf(y)))) {
        // "communicated-soil-data ?w": "the soil data of w is communicated".
        return done(`the ${x} of ${a} is ${head}`, `the ${x} of ${a} is not ${head}`);
      }
      return done(`${a} is ${r.join(" ")}`, `${a} is not ${r.join(" ")}`);
    case "adj":
      return done(`${a} is ${r.join(" ")}`, `${a} is not ${r.join(" ")}`);
    case "verb3":
      return done(`${a} ${r.join(" ")}`, `${a} does not ${verbForms(head).base}${x ? " " + x : ""}`);
    case "verb": {
      if (r.length === 1) return done(`${a} is ${withArticle(head)}`, `${a} is not ${withArticle(head)}`);
      const f = verbForms(head);
      return done(`${a} ${f.third}${x ? " " + x : ""}`, `${a} does not ${f.base}${x ? " " + x : ""}`);
    }
    default: {
      const ls = senseOf(last);
      if (r.length > 1 && (ls === "adj" || ls === "past")) {
        // "channel-free ?l": "the channel of l is free".
        const np = r.slice(0, -1).join(" ");
        const be = senseOf(r[r.length - 2]!) === "plural" ? "are" : "is";
        return done(`the ${np} of ${a} ${be} ${last}`, `the ${np} of ${a} ${be} not ${last}`);
      }
      // A noun: "truck ?t" -> "t is a truck".
      const np = withArticle(r.join(" "));
      return done(`${a} is ${np}`, `${a} is not ${np}`);
    }
  }
}

function nullary(w: string[], all: string): PredicatePhrase {
  const res = base();
  const done = (pos: string, neg: string): PredicatePhrase => ({ ...res, pos, neg, attr: all, groupable: false });
  // A code names the subject: "closed-cb1" -> "cb1 is closed", "done-0" stays a condition.
  const codes = w.filter((x) => senseOf(x) === "name");
  const others = w.filter((x) => senseOf(x) !== "name");
  const oh = others.length > 0 ? senseOf(others[0]!) : "noun";
  if (codes.length > 0 && others.length > 0 && (oh === "past" || oh === "adj" || oh === "gerund")) {
    const s = codes.join(" ");
    return done(`${s} is ${others.join(" ")}`, `${s} is not ${others.join(" ")}`);
  }
  const last = w[w.length - 1]!;
  const ls = senseOf(last);
  if (codes.length === 0 && w.length >= 2 && (ls === "adj" || ls === "past") && w.slice(0, -1).every((x) => isNounSense(senseOf(x)))) {
    // "hand-empty" -> "the hand is empty".
    const subj = theNoun(w.slice(0, -1));
    return done(`${subj} is ${last}`, `${subj} is not ${last}`);
  }
  return done(`the ${all} condition holds`, `the ${all} condition does not hold`);
}
