/**
 * Generic sentences for predicates, from their names and parameters: a subject, a verb and
 * objects ("robot2 has the colour black", "there is a road from l1 to l2", "the fuel level of
 * plane1 is fl2"), never "holds for" or "is true".
 */
import type { PredicateDecl, TypedName } from "../pddl/ast.js";
import { canBeThirdPerson, canBeVerb, ordinalSlots, thirdToBase, compoundSplit, isDirection, isEnglishWord, isKnownWord, isPreposition, senseOf, splitName, verbForms, withArticle, type Sense } from "./lexicon.js";
import { names, paramInfos, type ParamInfo } from "./generic-params.js";
import type { NumericRelation, PredicateHint } from "./hints.js";

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
  /** The plain reading: the relation named, its arguments in order (no English reading was found). */
  plain?: boolean;
  /** A locative relation written place first ("at ?l ?o": o is at l): actions read it object first. */
  placeFirst?: boolean;
}

// Prepositions that a past participle or adjective takes before its second argument.
const PAST_PREP: Record<string, string> = {
  boarded: "on", loaded: "in", stored: "in", parked: "at", located: "at", placed: "on", mounted: "on", attached: "to",
  connected: "to", linked: "to", joined: "to", painted: "", coloured: "", colored: "", included: "in", contained: "in",
  assigned: "to", committed: "to", incorporated: "into", calibrated: "for", equipped: "with", served: "at", delivered: "to",
  visited: "by", blocked: "by", used: "for", covered: "by", owned: "by", needed: "by", required: "by", made: "from",
};
const ADJ_PREP: Record<string, string> = {
  adjacent: "to", next: "to", close: "to", near: "to", equal: "to", similar: "to", related: "to", neighbour: "to",
  neighbor: "to", visible: "from", reachable: "from", accessible: "from", different: "from", separate: "from",
  ready: "for", available: "for", free: "for", suitable: "for", compatible: "with", full: "of", empty: "of",
};
// relations that hold between two things of one kind
const SAME_KIND_RELATIONS = new Set(["next", "adjacent", "neighbour", "neighbor", "equal", "similar"]);
// Adjectives of an attitude toward a thing named after them ("allergic-gluten ?c": allergic to gluten).
const TOWARD: Record<string, string> = { allergic: "to", sensitive: "to", immune: "to", resistant: "to", loyal: "to", hostile: "to" };
const GERUND_PREP: Record<string, string> = { pointing: "at", looking: "at", heading: "to", going: "to", waiting: "for", working: "on" };
// Nouns of a place itself, not of a thing in it ("goal ?c": c is a goal).
const THING_AT_EXCEPT = /^(goal|target|start|exit|entrance|home|base|destination|origin|wall|door|floor|cell|square|room|road|path|way)$/;
// Verbs of handling that name a one-argument fact actions make and undo: grasp(x) -> "x is grasped".
// ("set ?i", round 13's stage: "i is set", not "i is a set")
const HANDLING = new Set(["grasp", "grip", "grab", "clasp", "hold", "lock", "seal", "wrap", "tag", "stamp", "mark", "pack", "clamp", "secure", "fasten", "plug", "charge", "scan", "wash", "polish", "set", "mount", "install", "prepare", "cook", "bake", "fill", "repair", "activate", "serve", "deliver", "paint", "load"]);
// Gerunds whose single argument is the thing acted on: holding(x) -> "x is held", wearing(c) -> "c is worn".
const TRANSITIVE = new Set(["holding", "carrying", "lifting", "grasping", "gripping", "grabbing", "pushing", "pulling", "towing", "wearing"]);
/** Nouns of one who is or does something ("winner", "leader", "guest"): a kind that may come and go. */
const AGENT_NOUN = /(er|or|ist|ant|ent|ee|ian|man|men|person|people|child|guest|host|king|queen|hero|chief|boss|head|owner|friend|enemy|target|goal|victim|suspect|prisoner|candidate|member|leader|winner|loser)$/;
/** Verbs of knowing, liking or wanting: never the head of a noun ("path-know" is no kind of know). */
const STATIVE = new Set(["know", "like", "love", "hate", "want", "see", "hear", "fear", "trust", "remember", "believe", "understand", "prefer", "own", "desire", "recognize", "recognise"]);
/** Nouns of a position a thing may come to hold ("top-stack ?s", "home ?c"): kept as they read. */
const POSITION_NOUNS = new Set(["top", "bottom", "front", "back", "head", "tail", "end", "middle", "side", "start", "home", "first", "last", "finish", "base", "centre", "center", "edge", "corner"]);
/** Things a place has, not a kind of place ("trash-bin ?r - room": r has a trash bin). */
const FURNISHINGS = new Set(["bin", "box", "table", "desk", "chair", "bed", "shelf", "cabinet", "closet", "sink", "fridge", "oven", "stove", "printer", "computer", "terminal", "charger", "socket", "outlet", "lamp", "window", "tap", "basket", "container", "dispenser", "machine", "bench", "tank", "barrel", "crate", "cupboard", "drawer", "safe", "locker", "mailbox", "phone", "sensor", "camera", "alarm", "light", "fan", "heater"]);
/** Verbs of holding in their base form, naming a relation of holder and thing held ("hold ?a ?p"). */
const HOLDING_BASE = new Set(["hold", "carry", "wear", "grip", "grasp", "own"]);

// Verbs of having, with the forms "I ..." and "I ... not" (the holder is the one acting).
const POSSESS: Record<string, [string, string]> = {
  have: ["have", "do not have"], has: ["have", "do not have"], hold: ["hold", "do not hold"], holds: ["hold", "do not hold"],
  carry: ["carry", "do not carry"], carries: ["carry", "do not carry"], own: ["own", "do not own"], owns: ["own", "do not own"],
  holding: ["am holding", "am not holding"], carrying: ["am carrying", "am not carrying"],
  // knowing, like having: of the one acting ("knows ?o": I know o, not "o knows")
  know: ["know", "do not know"], knows: ["know", "do not know"],
};

/** "I hold x" / "the robot holds x", and the negation. */
function holder(agent: string, own: [string, string], obj: string): [string, string] {
  if (agent === "I") return [`I ${own[0]} ${obj}`, `I ${own[1]} ${obj}`];
  const [verb] = own[0].split(" ");
  if (verb === "am") return [`${agent} is ${own[0].slice(3)} ${obj}`, `${agent} is not ${own[0].slice(3)} ${obj}`];
  return [`${agent} ${verbForms(verb!).third} ${obj}`, `${agent} does not ${verb} ${obj}`];
}

// Nouns said without an article ("there is gold at c").
const MASS = new Set(["gold", "silver", "water", "oil", "fuel", "sand", "coal", "ore", "ice", "snow", "dirt", "mud", "grass", "food", "money", "air", "fire", "smoke", "gas", "dust", "rubble", "debris", "treasure", "paint", "stone", "soil"]);

// Words that end a name as a state of the argument's part: "power-on ?i".
const PARTICLE_STATE = new Set(["on", "off", "up", "down", "out"]);
const BEFORE_AFTER: Array<[RegExp, RegExp]> = [[/old/, /new/], [/from/, /to/], [/before/, /after/], [/src|source/, /dst|dest|target/], [/cur/, /next/], [/prev/, /next/], [/in/, /out/]];
function beforeAfter(a: string, b: string): boolean {
  return BEFORE_AFTER.some(([x, y]) => x.test(a) && y.test(b));
}
const ORDINALS = new Set(["first", "last", "second", "third", "top", "bottom", "next", "previous", "final", "initial"]);
// Nouns of a relation over one type whose direction English fixes: "a is the N of b".
const DIRECTED_NOUNS = new Set(["predecessor", "successor", "pred", "succ", "parent", "child", "ancestor", "descendant", "father", "mother", "son", "daughter", "neighbour", "neighbor", "sibling", "partner", "twin", "copy", "inverse", "opposite", "mirror", "reverse", "complement", "double", "half", "square", "root"]);
// Prepositional idioms of state, said as they are ("in place", "in use").
const IDIOMS = new Set(["in place", "in use", "in service", "in stock", "on fire", "on hold", "in progress", "out of order", "out of service"]);
// Last words of a name that say "where it is" ("robot-pos ?c": the robot is at c).
const PLACE_NOUNS = new Set(["pos", "position", "loc", "location", "place", "cell"]);
// Verbs that take no object and are no thing's name: "exist ?s" is "s exists".
const INTRANSITIVE = new Set(["exist", "remain", "survive", "persist", "live", "die", "stay", "sleep", "arrive", "happen", "occur", "appear", "disappear", "vanish", "idle"]);
// Words that are a subject without an article: "today is d1".
const ADVERB_SUBJECTS = new Set(["today", "now", "tomorrow", "yesterday", "tonight"]);
const ROUTES = new Set(["road", "link", "path", "route", "edge", "way", "street", "bridge", "corridor", "passage", "track", "rail", "connection", "lane", "arc", "door"]);
/** Nouns of a tie between two things of one kind (said "there is a bond between a and b"). */
const TIES = new Set(["bond", "tie", "link", "contact", "connection", "edge"]);
/** Prepositions of being inside something. */
const CONTAINING = new Set(["in", "inside", "within", "into"]);
const LOCATIVE = new Set(["at", "in", "on", "inside", "onto", "into", "near", "under", "above", "below", "over", "within", "upon"]);

function capitalizeName(w: string): boolean {
  return senseOf(w) === "name";
}

/** "the lift", "robby" (names take no article). */
function theNoun(words: string[]): string {
  const s = words.join(" ");
  return words.length === 1 && capitalizeName(words[0]!) ? s : `the ${s}`;
}

const LIGHT = new Set(["do", "be", "go", "get", "make", "let", "put", "set", "run", "use", "see", "try", "add", "take", "give", "have"]);

/** The first word of a parameter's type of several words ("bread" of "bread-portion"). */
function typeHead(word: string, p: ParamInfo): boolean {
  return p.typeWords.length > 1 && p.typeWords[0] === word;
}

/** A noun, or a word the lexicon reads as a verb first that is a noun too ("arm", "bomb"). */
export function nounLike(x: string): boolean {
  // (not the light verbs: "do-normal" is no "the do is normal")
  return isNounSense(senseOf(x)) || (senseOf(x) === "verb" && isKnownWord(x) && !canBeThirdPerson(x) && !LIGHT.has(x));
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

// Arithmetic proven from a static relation's facts (hints.ts): quantities read as numbers,
// other things (times, days, stages) as an order.
const QUANTITY: Record<NumericRelation, [string, string]> = {
  succ: ["{1} is one more than {0}", "{1} is not one more than {0}"],
  pred: ["{0} is one more than {1}", "{0} is not one more than {1}"],
  lt: ["{0} is smaller than {1}", "{0} is not smaller than {1}"],
  le: ["{0} is at most {1}", "{0} is more than {1}"],
  gt: ["{0} is greater than {1}", "{0} is not greater than {1}"],
  ge: ["{0} is at least {1}", "{0} is less than {1}"],
  sum: ["{0} plus {1} is {2}", "{0} plus {1} is not {2}"],
  diff: ["{0} minus {1} is {2}", "{0} minus {1} is not {2}"],
};
const ORDER: Record<NumericRelation, [string, string]> = {
  ...QUANTITY,
  succ: ["{1} comes right after {0}", "{1} does not come right after {0}"],
  pred: ["{0} comes right after {1}", "{0} does not come right after {1}"],
  lt: ["{0} comes before {1}", "{0} does not come before {1}"],
  le: ["{0} comes no later than {1}", "{0} comes later than {1}"],
  gt: ["{0} comes after {1}", "{0} does not come after {1}"],
  ge: ["{0} comes no earlier than {1}", "{0} comes earlier than {1}"],
};
const ORDER_WORDS = new Set([
  "next", "succ", "successor", "pred", "predecessor", "previous", "prev", "inc", "increment", "dec", "decrement", "plus", "minus",
  "sum", "add", "sub", "subtract", "substract", "diff", "difference", "le", "leq", "lt", "ge", "geq", "gt", "less", "greater",
  "equal", "smaller", "bigger", "larger", "lower", "higher", "than", "or", "num", "number", "count", "one", "step",
]);
// Abbreviated comparisons, read as the order they name.
const COMPARISON: Record<string, NumericRelation> = { le: "le", leq: "le", lte: "le", lt: "lt", ge: "ge", geq: "ge", gte: "ge", gt: "gt" };
const COMPARISON_WORDS: Record<string, NumericRelation> = {
  "less equal": "le", "less or equal": "le", "less than or equal": "le", "less than equal": "le", "less than": "lt", less: "lt", smaller: "lt", "smaller than": "lt",
  "greater equal": "ge", "greater or equal": "ge", "greater than or equal": "ge", "greater than equal": "ge", "greater than": "gt", greater: "gt", larger: "gt", "larger than": "gt",
};
const NUMBER_WORDS = new Set(["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"]);
const NUMBERISH = /^(n|num|number|numbers|count|counter|level|levels|flevel|fuellevel|quantity|qty|amount|capacity|size|value|val|integer|int|digit|fuel|load|height|length|width|weight|cost|price|money|credit|score|index|idx|unit|units)$/;

/** A parameter whose objects are levels or amounts ("timber_level", "space_level", "fuel_atleastlevel", "count"). */
function levelLike(p: ParamInfo): boolean {
  const last = p.typeWords[p.typeWords.length - 1] ?? "";
  return NUMBERISH.test(last) || /level$/.test(last);
}

function numericPhrase(rel: NumericRelation, ps: ParamInfo[]): PredicatePhrase {
  const nouns = [...ps[0]!.typeWords, ...ps[0]!.varWords];
  const quantity = rel === "sum" || rel === "diff" || nouns.some((w) => NUMBERISH.test(w)) || ps[0]!.value;
  const [pos, neg] = (quantity ? QUANTITY : ORDER)[rel];
  const sub = (t: string): string => t.replace(/\{(\d)\}/g, (_m, i: string) => `{${ps[Number(i)]!.ph}}`);
  return { ...base(), pos: sub(pos), neg: sub(neg), groupable: false, attr: "" };
}

/**
 * The plain reading of a predicate whose name the translator cannot read: the relation named in
 * quotes, every argument in its order ("t1 stands in the relation "le" to t6").
 */
export function plainPhrase(words: string, ps: ParamInfo[]): PredicatePhrase {
  const ph = ps.map((p) => `{${p.ph}}`);
  const q = `"${words}"`;
  const done = (pos: string, neg: string): PredicatePhrase => ({ ...base(), pos, neg, groupable: false, attr: words, plain: true });
  if (ph.length === 0) return done(`the condition ${q} is met`, `the condition ${q} is not met`);
  if (ph.length === 1) return done(`${ph[0]} has the property ${q}`, `${ph[0]} does not have the property ${q}`);
  if (ph.length === 2) return done(`${ph[0]} stands in the relation ${q} to ${ph[1]}`, `${ph[0]} does not stand in the relation ${q} to ${ph[1]}`);
  const list = `${ph.slice(0, -1).join(", ")} and ${ph[ph.length - 1]}`;
  return done(`the relation ${q} links ${list}, in this order`, `the relation ${q} does not link ${list}, in this order`);
}

/** A word of a predicate's name that no reading can rest on: unknown to the lexicon, not a name or number. */
function unreadable(w: string, ps: readonly ParamInfo[]): boolean {
  if (/\d/.test(w) || /^[A-Z]$/.test(w) || isPreposition(w) || isDirection(w)) return false;
  if (ps.some((p) => names([w], p))) return false;
  return !isEnglishWord(w);
}

/**
 * The generic phrasing of `decl`. `agent`: who holds what a predicate without a holder says is held ("holds-bomb"): "I", or the
 * implicit subject the task proves moves about ("the robot", see implicit.ts).
 */
export function predicatePhrase(decl: PredicateDecl, hint?: PredicateHint, flip = false, keepNames = false, agent = "I", dynamic = false): PredicatePhrase {
  const out = predicatePhraseOf(decl, hint, keepNames, agent, dynamic);
  if (!flip || decl.params.length < 2) return out;
  // The domain uses the relation word the other way round (see generic.ts verticalFlips).
  const [a, b] = paramInfos(decl.params).map((p) => `{${p.ph}}`);
  const swap = (t: string): string => t.split(a!).map((x) => x.split(b!).join("\u0000")).join(b!).split("\u0000").join(a!);
  const pos = swap(out.pos);
  // grouping lists the last argument's objects, which must stay at the end of the sentence
  // ("f1 is above f0 and f2"; a flipped "f2 is above f1" grouped would read "f1 and f2 is above f0")
  return { ...out, pos, neg: swap(out.neg), link: null, groupable: out.groupable && pos.endsWith(`{${paramInfos(decl.params)[decl.params.length - 1]!.ph}}`) };
}

function predicatePhraseOf(decl: PredicateDecl, hint?: PredicateHint, keepNames = false, agent = "I", dynamic = false): PredicatePhrase {
  const points = twoPoints(decl);
  if (points !== null) return points;
  const ps = paramInfos(decl.params);
  const raw = decl.params.map((p) => p.name);
  let w = splitName(decl.spelling ?? decl.name);
  // ("has-resource2": a slot of what is had; other shapes keep their number)
  if (/^(has|have)$/.test(w[0] ?? "") && w.length === 3) w = ordinalSlots(w);
  // "not-blocked" beside "blocked", not proven its complement: reading it as "not blocked" would
  // give two facts one sentence; name it as it is.
  if (hint?.unprovenTwin && ps.length > 0) return plainPhrase(w.join(" "), ps);
  // Proven arithmetic replaces names that only say "order" or that no reading rests on; a
  // readable relation ("connected", "above", "closer") keeps its own words.
  // (a single letter, "sum-y", names a coordinate, not a relation)
  // ("leftof" is "left of": a readable relation of directions; "boardsize" stays a name)
  const split = w.flatMap((x) => {
    const c = isEnglishWord(x) ? null : compoundSplit(x);
    return c !== null && c.some((y) => isDirection(y)) ? c : [x];
  });
  if (hint?.numeric && split.every((x) => ORDER_WORDS.has(x) || x.length === 1 || unreadable(x, ps) || ps.some((p) => names([x], p)) || senseOf(x) === "num")) return numericPhrase(hint.numeric, ps);
  // "to-discover ?place": still to be done to it ("n3 is still to be discovered", not "n3 is to the discover")
  if (ps.length === 1 && w.length === 2 && w[0] === "to" && canBeVerb(w[1]!) && !isNounSense(senseOf(w[1]!))) {
    const part = verbForms(w[1]!).participle;
    return { ...base(), pos: `{${ps[0]!.ph}} is still to be ${part}`, neg: `{${ps[0]!.ph}} is no longer to be ${part}`, attr: `to be ${part}`, groupable: true };
  }
  // "able-to-walk ?from ?to": a way that may still be taken, not "from is able to walk to to"
  if (ps.length === 2 && w.length === 3 && w[0] === "able" && w[1] === "to" && canBeVerb(w[2]!) && /^\??from$/i.test(raw[0]!) && /^\??to$/i.test(raw[1]!)) {
    const [a, b] = ps.map((p) => `{${p.ph}}`);
    return { ...base(), pos: `it is possible to ${w[2]} from ${a} to ${b}`, neg: `it is not possible to ${w[2]} from ${a} to ${b}`, attr: `possible to ${w[2]}`, groupable: false };
  }
  // The last two arguments an (x, y) pair: a cell or a position, said as one ("(x0, y0)").
  if ((coordinatePair(decl.params) || placedPoint(decl.params)) && (ps.length === 2 || ps.length === 3)) return coordinatePhrase(w, ps, hint, keepNames);
  // Run-together words split ("ontable" -> on table); a word no reading can rest on ("le",
  // "cw"): the plain reading, not an invented relation.
  const plainName = w.join(" ");
  // (a condition without arguments splits only into its own letters: "handempty" is the hand
  // is empty, but "objscheduled" is not "the object is scheduled", a subject the PDDL lacks)
  w = w.flatMap((x) => {
    if (isEnglishWord(x)) return [x];
    const c = compoundSplit(x);
    return c !== null && (ps.length > 0 || c.join("") === x) ? c : [x];
  });
  // "le ?t1 ?t2" not proven the order of the names' numbers: still a comparison ("t1 is at most
  // t6"), the facts listed define it; its negation says only that the fact does not hold.
  // ("less-equal", "greater-than": the comparison in words)
  const cmp = ps.length === 2 && ps[0]!.typeWords.join() === ps[1]!.typeWords.join() ? (w.length === 1 ? COMPARISON[w[0]!] : COMPARISON_WORDS[w.join(" ")]) : undefined;
  // a bare "less ?a ?b" (not proven an order of numbers): the comparison as named ("a is less than b");
  // "greater", "smaller" read so through their -er form below
  // ("one-less ?a ?b": "a is one less than b")
  const bare = w.length === 1 ? w[0]! : w.length === 2 && w[0] === "one" ? w[1]! : "";
  if (cmp === undefined && ps.length === 2 && /^(less|fewer|more)$/.test(bare) && (bare !== "more" || w.length === 2)) {
    // (over two kinds no comparison is sure: not "the less of a is b")
    if (ps[0]!.typeWords.join() !== ps[1]!.typeWords.join()) return plainPhrase(plainName, ps);
    const [a, b] = ps.map((p) => `{${p.ph}}`);
    const rel = `${w.join(" ")} than`;
    return { ...base(), pos: `${a} is ${rel} ${b}`, neg: `${a} is not ${rel} ${b}`, groupable: false, attr: rel };
  }
  if (cmp !== undefined) {
    const num = numericPhrase(cmp, ps);
    return { ...num, neg: `it is not the case that ${num.pos}` };
  }
  if (ps.length > 0 && w.some((x) => unreadable(x, ps))) return plainPhrase(plainName, ps);
  // a relation between two of a kind ("next", "adjacent") over two kinds that are not a thing
  // and a place ("next-direction ?d - direction ?r - rotation ?d2"): no "d is next to r", plainly
  if (ps.length >= 2 && w.some((x) => SAME_KIND_RELATIONS.has(x)) && ps[0]!.typeWords.length > 0 && ps[1]!.typeWords.length > 0 && ps[0]!.typeWords.join() !== ps[1]!.typeWords.join() && !ps[1]!.place) return plainPhrase(plainName, ps);
  let flip = false;
  if (w.length > 1 && w[0] === "no" && ps.length > 0 && senseOf(w[1]!) === "noun") {
    // "no-access ?p ?f": "p has no access to f".
    // ("no-gluten-bread ?b - bread-portion": b has no gluten)
    const x = (w.length > 2 && ps.length === 1 && (names([w[w.length - 1]!], ps[0]!) || typeHead(w[w.length - 1]!, ps[0]!)) ? w.slice(1, -1) : w.slice(1)).join(" ");
    const a = `{${ps[0]!.ph}}`;
    const more = ps.length > 1 ? ` to {${ps[1]!.ph}}` + ps.slice(2).map((p, i) => " " + roleOf(p, raw[i + 2]!)).join("") : "";
    return { ...base(), pos: `${a} has no ${x}${more}`, neg: `${a} has ${x}${more}`, groupable: false, attr: x };
  }
  if (w.length > 1 && (w[0] === "not" || w[0] === "no")) {
    flip = true;
    w = w.slice(1);
  }
  const out = phrase(w, ps, raw, hint, keepNames, agent, dynamic);
  if (flip) [out.pos, out.neg] = [out.neg, out.pos];
  return out;
}

function base(): Omit<PredicatePhrase, "pos" | "neg"> {
  return { link: null, locative: false, attr: "", implicit: null, groupable: true, elide: new Map() };
}

function phrase(w: string[], ps: ParamInfo[], raw: string[], hint?: PredicateHint, keepNames = false, agent = "I", dynamic = false): PredicatePhrase {
  const n = ps.length;
  const all = w.join(" ");
  const ph = ps.map((p) => `{${p.ph}}`);
  if (n === 0) return nullary(w, all, agent);
  const a = ph[0]!;
  // "knows_property ?o ?p": the one acting knows p of o (not "o knows p")
  if (n === 2 && (w[0] === "knows" || w[0] === "know") && agent === "I") return { ...base(), pos: `I know ${ph[1]} of ${a}`, neg: `I do not know ${ph[1]} of ${a}`, groupable: false, attr: all };
  // "same-line ?a ?b": "a has the same line as b" (not "the line of a is same at b")
  if (n === 2 && w[0] === "same" && w.length > 1 && w.slice(1).every(nounLike)) {
    const np = w.slice(1).join(" ");
    return { ...base(), pos: `${a} has the same ${np} as ${ph[1]}`, neg: `${a} does not have the same ${np} as ${ph[1]}`, groupable: false, attr: np };
  }
  // "nextSnake ?a ?b", "next-seat": "b is the next snake after a" (not "the snake of a is next with
  // b", nor "a is the next seat of b"), over one type
  if (n === 2 && (w[0] === "next" || w[0] === "previous") && w.length > 1 && w.slice(1).every(nounLike) && ps[0]!.typeWords.join() === ps[1]!.typeWords.join()) {
    const np = `the ${all} ${w[0] === "next" ? "after" : "before"} ${a}`;
    return { ...base(), pos: `${ph[1]} is ${np}`, neg: `${ph[1]} is not ${np}`, groupable: false, attr: all };
  }
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
  // (kept when another predicate would read alike without them: "in-city" beside "in")
  for (let i = 1; i < n && named < 0 && !keepNames; i++) {
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
    // "available-color ?c": the trailing noun names the argument too ("at-kitchen-bread ?b -
    // bread-portion": the first word of its type, "b is at the kitchen").
    for (let k = Math.min(r.length - 1, 3); k >= 1; k--) {
      if (names(r.slice(r.length - k), ps[0]!) || (k === 1 && typeHead(r[r.length - 1]!, ps[0]!))) {
        r = r.slice(0, r.length - k);
        break;
      }
    }
    return unary(r, w, a, ps[0]!, hint, agent, dynamic);
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
    // a role's noun is said once where the value names it too ("with device D2", not "with device device D2")
    for (const x of rest) {
      const m = /^with ([a-z ]+) (\{[^}]+\})$/.exec(x);
      if (m !== null && !res.elide.has(m[1]!)) res.elide.set(m[1]!, m[2]!);
    }
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
  // "hold ?a ?p", "wear ?x ?c": a verb of holding in its base form is the first one holding the
  // second ("a holds p"), not a noun ("the hold of a is p", "a stands in the relation hold to p")
  if (n === 2 && r.length === 1 && HOLDING_BASE.has(head)) {
    const f = verbForms(head);
    return done(`${a} ${f.third} ${b}`, `${a} does not ${f.base} ${b}`);
  }
  const oneType = ps.every((p) => p.typeWords.join() === ps[0]!.typeWords.join());
  // "con ?x ?sx ?y ?sy": a later argument's role would be a word no reader knows ("with sy side2"):
  // the relation named, its arguments in order
  if (n >= 3 && ps.slice(2).some((p) => p.varWords.length > 0 && p.varWords.some((v) => !isEnglishWord(v) && !isPreposition(v)))) return plainPhrase(w.join(" "), ps);
  // "bond ?x ?y", "doublebond ?x ?y" over one kind: a tie between two things ("there is a double
  // bond between o4 and c4"), not "x stands in the relation bond to y"
  if (n === 2 && oneType && !ps[0]!.place && TIES.has(w[w.length - 1]!) && w.slice(0, -1).every((y) => ["adj", "num"].includes(senseOf(y)) || /^(single|double|triple|quadruple|strong|weak)$/.test(y))) {
    const np = w.join(" ");
    res.groupable = false;
    res.attr = np;
    return { ...res, pos: `there is ${withArticle(np)} between ${ph[0]} and ${ph[1]}`, neg: `there is no ${np} between ${ph[0]} and ${ph[1]}`, link: null };
  }
  // "DEL-ATLEAST-TIMBER ?r_old ?r_del ?al": three or more levels related, roles their names do not
  // tell apart ("the del at least timber of r_old is r_del with al al" invents them): plainly
  if (n >= 3 && ps.every(levelLike) && !(oneType && w.length === 1 && raw.some((v) => splitName(v.replace(/^\?/, "")).join(" ") === w[0]))) return plainPhrase(w.join(" "), ps);
  // "available-atleast-timber ?s ?l - timber_level", "stored-fuel ?d ?l": an amount of a stuff a
  // thing has ("s has at least l of timber available"), not "s is available at least timber than l"
  if (n === 2 && levelLike(ps[1]!) && !levelLike(ps[0]!)) {
    const ws = w.filter((y) => !names([y], ps[0]!));
    let bound = "";
    const k = ws.findIndex((y, i) => (y === "at" && (ws[i + 1] === "least" || ws[i + 1] === "most")) || y === "atleast" || y === "atmost");
    if (k >= 0) {
      bound = ws[k] === "at" ? `at ${ws[k + 1]} ` : `at ${ws[k]!.slice(2)} `;
      ws.splice(k, ws[k] === "at" ? 2 : 1);
    }
    const hs0 = ws.length > 0 ? senseOf(ws[0]!) : "noun";
    // (a plural is counted, "g has n remaining slots", below)
    if (ws.length >= 2 && (hs0 === "adj" || hs0 === "past") && ws.slice(1).every((y) => isNounSense(senseOf(y))) && senseOf(ws[ws.length - 1]!) !== "plural") {
      const stuff = ws.slice(1).join(" ");
      res.groupable = false;
      res.attr = stuff;
      return { ...res, pos: `${a} has ${bound}${b} of ${stuff} ${ws[0]}`, neg: `${a} does not have ${bound}${b} of ${stuff} ${ws[0]}`, link: null };
    }
    // "housing ?p ?l - housing_level": the level of p's housing, not "p is housing l"
    if (bound === "" && ws.length === 1 && hs0 === "gerund") {
      res.groupable = false;
      res.attr = ws[0]!;
      return { ...res, pos: `the ${ws[0]} of ${a} is ${b}`, neg: `the ${ws[0]} of ${a} is not ${b}`, link: null };
    }
  }
  // A parameter named as the relation is its value: "sum ?n1 ?n2 ?sum" is "sum is the sum of n1
  // and n2" (never "n1 is the sum of n2 with sum sum", which makes an addend the sum).
  const self = n >= 3 && oneType && w.length === 1 ? raw.findIndex((v) => splitName(v.replace(/^\?/, "")).join(" ") === w[0]) : -1;
  // "between ?a ?b ?c": a lies between the other two
  if (n === 3 && w.length === 1 && w[0] === "between") return (rest = []), done(`${a} is between ${ph[1]} and ${ph[2]}`, `${a} is not between ${ph[1]} and ${ph[2]}`);
  if (self >= 0) {
    const others = ph.filter((_, i) => i !== self);
    const list = `${others.slice(0, -1).join(", ")} and ${others[others.length - 1]}`;
    rest = [];
    return done(`${ph[self]} is the ${w[0]} of ${list}`, `${ph[self]} is not the ${w[0]} of ${list}`);
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
  // "is-product ?b ?p": the words after "is" name the second argument: the product of b is p.
  if (hs === "be" && n === 2 && ((r.length > 1 && names(r.slice(1), ps[1]!)) || (r.length === 1 && named === 1))) {
    res.groupable = false;
    res.attr = r.length > 1 ? r.slice(1).join(" ") : namedWords.join(" ");
    return done(`the ${res.attr} of ${a} is ${b}`, `the ${res.attr} of ${a} is not ${b}`);
  }
  // "first ?b ?p": b is the first batch atom of p (an ordinal places the first argument).
  // "next ?section_x ?section_y" of two things of one kind, no levels: what lies next to it (an
  // order of levels is arithmetic, hints.ts), not "the next section x of" with a variable's letter
  if (r.length === 1 && head === "next" && n === 2 && oneType && !ps.some(levelLike)) return done(`${a} is next to ${b}`, `${a} is not next to ${b}`, "next to");
  if (r.length === 1 && ORDINALS.has(head) && n === 2) {
    const noun = ps[0]!.noun === "object" ? "one" : ps[0]!.noun;
    return done(`${a} is the ${head} ${noun} of ${b}`, `${a} is not the ${head} ${noun} of ${b}`);
  }
  // "at-two ?e ?xy ?xy2": a thing at several places of one type: e is at xy and xy2.
  if (LOCATIVE.has(head) && n >= 3 && (r.length === 1 || senseOf(r[1]!) === "num" || /^(two|three|four)$/.test(r[1]!)) && ps.slice(1).every((p) => p.typeWords.join() === ps[1]!.typeWords.join() && p.typeWords.length > 0)) {
    const list = `${ph.slice(1, -1).join(", ")} and ${ph[n - 1]}`;
    res.locative = true;
    res.groupable = false;
    // (not "a is not at x, y and z", which reads as at none of them)
    return { ...res, pos: `${a} is ${head} ${list}`, neg: `it is not the case that ${a} is ${head} ${list}`, link: null, attr: w.join(" ") };
  }
  // "in-line ?x ?y ?z" over one type: x, y and z are in line.
  if (hs === "prep" && r.length === 2 && n >= 3 && isNounSense(senseOf(r[1]!)) && ps.every((p) => p.typeWords.join() === ps[0]!.typeWords.join())) {
    const list = `${ph.slice(0, -1).join(", ")} and ${ph[n - 1]}`;
    res.groupable = false;
    return { ...res, pos: `${list} are ${r.join(" ")}`, neg: `${list} are not ${r.join(" ")}`, link: null, attr: w.join(" ") };
  }
  // "fuelcost ?level ?l1 ?l2": a value of a pair of places: the fuel cost from l1 to l2 is level.
  if (n === 3 && isNounSense(hs) && (ps[0]!.value || NUMBERISH.test(ps[0]!.typeWords[ps[0]!.typeWords.length - 1] ?? "")) && fromTo(1)) {
    res.groupable = false;
    return { ...res, pos: `the ${r.join(" ")} from ${b} to ${ph[2]} is ${a}`, neg: `the ${r.join(" ")} from ${b} to ${ph[2]} is not ${a}`, link: null, attr: r.join(" ") };
  }
  // A plural word over two things that are not a count reads as a verb: "orbits ?i ?j": i orbits j;
  // so over two of one kind ("fits ?s1 ?s2 - size": a count is of something else).
  const oneKind = ps[0]!.typeWords.length > 0 && ps[0]!.typeWords.join() === ps[1]!.typeWords.join();
  if (hs === "plural" && r.length === 1 && ((!ps[1]!.value && !NUMBERISH.test(ps[1]!.noun)) || (n === 2 && oneKind)) && canBeThirdPerson(head)) {
    return done(`${a} ${head} ${b}`, `${a} does not ${thirdToBase(head)} ${b}`, head);
  }
  switch (hs) {
    case "be": {
      const xs = r.slice(1);
      const xh = xs.length > 0 ? senseOf(xs[0]!) : "noun";
      // "is-not-zero ?n": the reading of "is-zero" negated (not "n is not not zero"); an unproven
      // twin of "is-zero" was read plainly above
      if (xs[0] === "not" && xs.length > 1) {
        const o = phrase(["is", ...xs.slice(1)], ps, raw, hint, keepNames, agent, dynamic);
        return { ...o, pos: o.neg, neg: o.pos };
      }
      // "is-a-process ?q - process ?pt - proctype": q is a process of proctype pt (the noun named
      // the first argument and was dropped above: not "q is the a of pt")
      if ((xs[0] === "a" || xs[0] === "an") && n === 2) {
        const noun = w.slice(w.indexOf(xs[0]) + 1).join(" ") || ps[0]!.noun;
        const of = ps[1]!.typeWords.length > 0 ? `${ps[1]!.noun} ` : "";
        res.groupable = false;
        return done(`${a} is ${withArticle(noun)} of ${of}${b}`, `${a} is not ${withArticle(noun)} of ${of}${b}`);
      }
      // "is-max ?qt ?n - number": a value of the first argument (the max of qt is n), not "qt is the max of n"
      if (isNounSense(xh) && xs.length > 0 && n === 2 && (ps[1]!.value || NUMBERISH.test(ps[1]!.noun)) && !(ps[0]!.value || NUMBERISH.test(ps[0]!.noun))) {
        res.groupable = false;
        res.attr = x;
        return done(`the ${x} of ${a} is ${b}`, `the ${x} of ${a} is not ${b}`);
      }
      if (isNounSense(xh) && xs.length > 0) return done(`${a} is the ${x} of ${b}`, `${a} is not the ${x} of ${b}`);
      if (xs.length === 0) return done(`${a} is ${b}`, `${a} is not ${b}`, "");
      return phrase(xs, ps, raw, hint, keepNames, agent, dynamic);
    }
    case "have": {
      if (r.length === 1) {
        // "robot-has ?r ?c": "r has the colour c".
        const bn = ps[1]!.noun;
        const obj = ps[1]!.typeWords.length > 0 ? `the ${bn} ${b}` : b;
        res.elide.set(bn, b);
        return done(`${a} has ${obj}`, `${a} does not have ${obj}`, "");
      }
      // "has-resource2 ?w ?r": w has r as its second resource (a slot, not "w has second r")
      if (r.length === 2 && /^(second|third|fourth|fifth|sixth|seventh|eighth|ninth)$/.test(r[1]!)) {
        const slot = `its ${r[1]} ${ps[1]!.noun}`;
        return done(`${a} has ${b} as ${slot}`, `${a} does not have ${b} as ${slot}`);
      }
      if (ps[1]!.place) return done(`${a} has ${x} for ${b}`, `${a} does not have ${x} for ${b}`);
      res.elide.set(r[r.length - 1]!, b);
      // a perfect tense is denied after its auxiliary ("p has not booked d", not "p does not have booked d")
      if (senseOf(r[1]!) === "past" || r[1] === "been") return done(`${a} has ${x} ${b}`, `${a} has not ${x} ${b}`);
      return done(`${a} has ${x} ${b}`, `${a} does not have ${x} ${b}`);
    }
    case "can": {
      // "may-interface ?a ?b": a may interface with b
      const modal = head;
      const neg = modal === "can" ? "cannot" : `${modal} not`;
      const prep = x !== "" && !isPreposition(r[r.length - 1]!) && senseOf(r[1]!) !== "noun" ? " with" : "";
      if (modal !== "can") return done(`${a} ${modal} ${x}${prep} ${b}`, `${a} ${neg} ${x}${prep} ${b}`);
      return done(`${a} can ${x || "reach"} ${b}`, `${a} cannot ${x || "reach"} ${b}`);
    }
    case "prep": {
      const rel = r.join(" ");
      // "at ?l ?o" with the place first (a location and an object): the object is at the place,
      // not "counter is at bialetti"
      // ("in_loc ?l ?c": the noun after the preposition names the place, the first argument: c is in location l)
      if (n === 2 && (r.length === 1 || (r.length === 2 && (names([r[1]!], ps[0]!) || PLACE_NOUNS.has(r[1]!)) && !names([r[1]!], ps[1]!))) && LOCATIVE.has(head) && ps[0]!.place && !ps[1]!.place) {
        res.groupable = false;
        res.locative = true;
        res.placeFirst = true;
        return done(`${b} is ${rel} ${a}`, `${b} is not ${rel} ${a}`, rel);
      }
      res.locative = r.length === 1 && LOCATIVE.has(head);
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
      // ("takeRole ?p ?r - role": the verb's object is named by its type, "p takes role r", not "p is taken by r")
      const objNoun = ps[1]!.typeWords.join(" ");
      if (objNoun !== "" && x === "" && w.join(" ").endsWith(objNoun) && w.length > 1) return done(`${a} ${f.third} ${objNoun} ${b}`, `${a} does not ${f.base} ${objNoun} ${b}`, `${f.third} ${objNoun}`);
      if (ps[0]!.thing && !ps[1]!.thing) return done(`${a} is ${f.participle}${more} by ${b}`, `${a} is not ${f.participle}${more} by ${b}`);
      return done(`${a} ${f.third}${more} ${b}`, `${a} does not ${f.base}${more} ${b}`, `${f.third}${more}`);
    }
    case "gerund": {
      // "holding ?k ?h" of a key and a hand: the holder is the hand, written second ("hand0 is
      // holding key0", not "key0 is holding hand0")
      if (r.length === 1 && n === 2 && TRANSITIVE.has(head) && holderKind(ps[1]!) && !holderKind(ps[0]!) && ps[0]!.typeWords.length > 0) return done(`${b} is ${head} ${a}`, `${b} is not ${head} ${a}`);
      // (a place is where one waits or works: "child1 is waiting at table1", not "for table1")
      const prep = r.length === 1 ? (ps[1]!.place && (head === "waiting" || head === "working") ? "at" : (GERUND_PREP[head] ?? "")) : "";
      const rel = [r.join(" "), prep].filter((s) => s !== "").join(" ");
      return done(`${a} is ${rel} ${b}`, `${a} is not ${rel} ${b}`);
    }
    case "past":
    case "adj": {
      const last = r[r.length - 1]!;
      // "unsafe ?x ?sx - side": the second argument is named as a part of the first (its type's
      // initial and the first's name): "side sx of x is unsafe", not "x is unsafe to sx"
      const va = raw[0]!.replace(/^\?/, "").toLowerCase();
      const vb = raw[1]!.replace(/^\?/, "").toLowerCase();
      const t1 = ps[1]!.typeWords[0] ?? "";
      if (n === 2 && r.length === 1 && t1 !== "" && vb === t1[0] + va) return done(`${b} of ${a} is ${r[0]}`, `${b} of ${a} is not ${r[0]}`);
      if (r.length > 1 && isPreposition(last)) return done(`${a} is ${r.join(" ")} ${b}`, `${a} is not ${r.join(" ")} ${b}`, r.join(" "));
      if (named === 1 && hs === "adj") {
        // "reachable-floor ?lift ?floor": "floor is a reachable floor for lift".
        const np = withArticle(`${r.join(" ")} ${namedWords.join(" ")}`);
        return done(`${b} is ${np} for ${a}`, `${b} is not ${np} for ${a}`);
      }
      if (n === 2 && hs === "adj" && r.length > 1 && senseOf(r[r.length - 1]!) === "plural" && (ps[1]!.value || NUMBERISH.test(ps[1]!.noun))) {
        // "remaining-cells ?g ?n": "g has n remaining cells" (not "the cells of g is remaining")
        res.attr = r.join(" ");
        return done(`${a} has ${b} ${r.join(" ")}`, `${a} does not have ${b} ${r.join(" ")}`);
      }
      if (r.length > 1 && r.slice(1).every((y) => isNounSense(senseOf(y)))) {
        // "communicated-image-data ?o ?m": "the image data of o is communicated with mode m".
        rest = ps.slice(1).map((p, i) => roleOf(p, raw[i + 1]!));
        return done(`the ${x} of ${a} is ${head}`, `the ${x} of ${a} is not ${head}`);
      }
      let prep = PAST_PREP[last] ?? ADJ_PREP[last];
      // "connected-by-rail ?a ?b": the participle's own preposition after its means ("connected by rail to b")
      if (prep === undefined && r.length > 2 && (r[1] === "by" || r[1] === "via")) prep = PAST_PREP[head] ?? ADJ_PREP[head];
      if (/er$/.test(last) && prep === undefined && hs === "adj") prep = "than";
      // a comparison ("moreImportant ?r1 ?r2"): r1 is more important than r2
      if (r.length === 2 && (r[0] === "more" || r[0] === "less") && hs !== "past") prep = "than";
      // who did it to whom, between two of one kind ("killed ?m ?v - person"), the names do not say:
      // "m is killed by v" would be a guess, and a wrong one a false fact; the plain reading
      if (prep === undefined && hs === "past" && n === 2 && ps[0]!.typeWords.length > 0 && ps[0]!.typeWords.join() === ps[1]!.typeWords.join()) return plainPhrase(w.join(" "), ps);
      if (prep === undefined) prep = ps[1]!.value ? "" : ps[1]!.place ? "at" : hs === "past" ? "by" : "to";
      const rel = [r.join(" "), prep].filter((s) => s !== "").join(" ");
      // The link is the preposition alone: "paint t black", "board p onto e".
      return done(`${a} is ${rel} ${b}`, `${a} is not ${rel} ${b}`, prep);
    }
    default: {
      const lastW = r[r.length - 1]!;
      if (r.length > 1 && isPreposition(lastW)) {
        // "store-of ?s ?r": "s is the store of r" ("part-of ?c ?g": c is part of g).
        const np = r.slice(0, -1).join(" ");
        // "space-in ?v ?l - space_level": a level is the noun's value, "the space in v is l"
        if (n === 2 && levelLike(ps[1]!) && !levelLike(ps[0]!)) {
          res.groupable = false;
          res.attr = np;
          return done(`the ${np} ${lastW} ${a} is ${b}`, `the ${np} ${lastW} ${a} is not ${b}`);
        }
        const the = np === "part" ? "" : "the ";
        return done(`${a} is ${the}${np} ${lastW} ${b}`, `${a} is not ${the}${np} ${lastW} ${b}`, `${lastW}`);
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
      // (two places named as a way's ends, "shadow ?from ?to": a way from one to the other, not the shadow of from)
      const ends = n === 2 && /^\??from$/i.test(raw[0]!) && /^\??to$/i.test(raw[1]!);
      if (hs !== "plural" && (ROUTES.has(r[r.length - 1]!) || (ps[0]!.place && ps[1]!.place && same) || ends)) {
        // "road ?a ?b": "there is a road from a to b".
        return done(`there is ${withArticle(noun)} from ${a} to ${b}`, `there is no ${noun} from ${a} to ${b}`);
      }
      // Over one type, "a is the N of b" ("s1 is the predecessor of s2"), unless the parameters are
      // named as a before and an after ("?old ?new": the change of old is new).
      if (same && hs !== "plural" && !beforeAfter(raw[0]!, raw[1]!)) {
        // (three or more of one type, no role told apart: "a is the N of b with N c" would make one
        // of them the N on no ground; the relation named, its arguments in order)
        if (n >= 3 && oneType) return plainPhrase(w.join(" "), ps);
        // the order of "a is the N of b" is a guess but for nouns whose direction English fixes
        // ("s1 is the predecessor of s2"); a wrong guess is a false fact ("cap-0 is the cell capacity
        // inc of cap-1" for inc(lower, higher)): the plain reading
        if (!r.some((x) => DIRECTED_NOUNS.has(x))) return plainPhrase(w.join(" "), ps);
        return done(`${a} is the ${noun} of ${b}`, `${a} is not the ${noun} of ${b}`);
      }
      if (hs === "plural") {
        res.attr = noun;
        return done(`${a} has ${b} ${noun}`, `${a} does not have ${b} ${noun}`);
      }
      res.groupable = false;
      res.attr = noun;
      // "the N of a" says there is one; where a has several (proven), b is one of them.
      if (hint?.multiValued && n === 2) return done(`${a} has ${b} as ${withArticle(noun)}`, `${a} does not have ${b} as ${withArticle(noun)}`);
      // a place first, then what it belongs to: the place is the N ("source ?c - cell ?g - group":
      // c is the source of g; "the source of c is g" would make the group a place's source)
      if (n === 2 && ps[0]!.place && !ps[1]!.place && !ps[1]!.value && !NUMBERISH.test(ps[1]!.noun)) return done(`${a} is the ${noun} of ${b}`, `${a} is not the ${noun} of ${b}`);
      // two untyped arguments named x and y: a point, as likely as a thing and its N ("wall ?x
      // ?y" is a wall at (x, y), not "the wall of x is y"): the plain reading
      if (n === 2 && ps[0]!.typeWords.length === 0 && ps[1]!.typeWords.length === 0 && /^\??x$/i.test(raw[0]!) && /^\??y$/i.test(raw[1]!)) return plainPhrase(w.join(" "), ps);
      return done(`the ${noun} of ${a} is ${b}`, `the ${noun} of ${a} is not ${b}`);
    }
  }
}

function unary(r: string[], w: string[], a: string, p: ParamInfo, hint?: PredicateHint, agent = "I", dynamic = false): PredicatePhrase {
  const res = base();
  const done = (pos: string, neg: string): PredicatePhrase => ({ ...res, pos, neg, attr: res.attr || w.join(" ") });
  // A noun phrase said of the argument: what it is ("t is a truck"), but of a place a thing in it
  // is what the place has ("trash-bin ?r - room": "r has a trash bin", not "r is a trash bin")
  const furnished = (np: string): PredicatePhrase => {
    const lastWord = np.split(" ").pop()!;
    if (p.place && FURNISHINGS.has(lastWord)) return done(`${a} has ${withArticle(np)}`, `${a} does not have ${withArticle(np)}`);
    return done(`${a} is ${withArticle(np)}`, `${a} is not ${withArticle(np)}`);
  };
  // a verb and a noun of the argument's own kind ("collect-card ?c - cardposition"): done to it,
  // or still to be done? The name does not say: the plain reading, not "c collects card"
  if (w.length >= 2 && senseOf(w[0]!) === "verb" && !LIGHT.has(w[0]!) && w.slice(1).some((y) => p.typeWords.some((t) => t.startsWith(y)) || names([y], p))) return plainPhrase(w.join(" "), [p]);
  // "grasp ?o", a fact actions make and undo, named by a verb of handling: o is grasped, not "o
  // is a grasp" (a verb read as a noun invents a kind of thing)
  if (r.length === 1 && dynamic && HANDLING.has(r[0]!)) {
    const part = verbForms(r[0]!).participle;
    return done(`${a} is ${part}`, `${a} is not ${part}`);
  }
  // "wumpus ?pos", a fact actions make and undo, named by a thing's noun, of a place: a wumpus is
  // there (not "pos has the property wumpus"; a fact that never changes is a kind: "pit ?pos",
  // pos is a pit)
  if (r.length === 1 && dynamic && p.place && senseOf(r[0]!) === "noun" && isEnglishWord(r[0]!) && !names([r[0]!], p) && !THING_AT_EXCEPT.test(r[0]!)) {
    return done(`there is ${withArticle(r[0]!)} at ${a}`, `there is no ${r[0]} at ${a}`);
  }
  // "need_help ?c": what the argument needs ("c needs help", not "c is a need help")
  if (r.length >= 2 && (r[0] === "need" || r[0] === "needs") && r.slice(1).every((y) => nounLike(y) && !isPreposition(y))) {
    const what = r.slice(1).join(" ");
    return done(`${a} needs ${what}`, `${a} does not need ${what}`);
  }
  // "light_on_at ?s": a thing in a state at the place ("the light is on at s", not "the light on is at s")
  if (r.length === 3 && (nounLike(r[0]!) || senseOf(r[0]!) === "adj") && isEnglishWord(r[0]!) && PARTICLE_STATE.has(r[1]!) && LOCATIVE.has(r[2]!) && !names([r[0]!], p)) {
    const subj = theNoun([r[0]!]);
    res.attr = `${r[0]} ${r[1]}`;
    return done(`${subj} is ${r[1]} ${r[2]} ${a}`, `${subj} is not ${r[1]} ${r[2]} ${a}`);
  }
  // "is-at ?l": the "is" says nothing more than "at ?l" does (a bare "l2 is at" names no subject)
  if (r.length === 2 && senseOf(r[0]!) === "be" && LOCATIVE.has(r[1]!)) r = r.slice(1);
  // "is-not-zero ?n": the reading of "is-zero" negated (not "n is not not zero")
  if (r.length >= 3 && senseOf(r[0]!) === "be" && r[1] === "not") {
    const o = unary([r[0]!, ...r.slice(2)], w.filter((x) => x !== "not"), a, p, hint, agent, dynamic);
    return { ...o, pos: o.neg, neg: o.pos };
  }
  // "have ?x", "holds ?x": the one argument is what is had; the one who has it is never named,
  // so it is the one acting ("I have the key", not "key has something")
  // ("holding ?x" stays "x is held", exact without a subject)
  const own = r.length === 1 && !r[0]!.endsWith("ing") ? POSSESS[r[0]!] : undefined;
  if (own !== undefined) {
    res.attr = r[0]!;
    return done(...holder(agent, own, a));
  }
  const head = r[0] ?? "";
  const hs = r.length > 0 ? senseOf(head) : "noun";
  // A fluent true of exactly one object names a current value: "the time now is t0", "today is d1".
  const lastSense = r.length > 0 ? senseOf(r[r.length - 1]!) : "noun";
  if (hint?.exactlyOne && !hint.static && (r.length === 0 || isNounSense(lastSense) || ADVERB_SUBJECTS.has(r[r.length - 1]!)) && !r.some(isPreposition)) {
    const np = w.join(" ");
    const subj = w.length === 1 && ADVERB_SUBJECTS.has(np) ? np : `the ${np}`;
    res.attr = np;
    return done(`${subj} is ${a}`, `${subj} is not ${a}`);
  }
  if (r.length === 0) {
    // "today ?d" true of several days at once is no "d is a today": it says only that it holds
    if (w.length === 1 && ADVERB_SUBJECTS.has(w[0]!)) return plainPhrase(w[0]!, [p]);
    const np = withArticle(w.join(" "));
    return done(`${a} is ${np}`, `${a} is not ${np}`);
  }
  // A lone particle is a state ("up ?t": the tent is up); a lone locative preposition names
  // where the one acting is ("at ?p": I am at p), when one place is true at a time.
  if (r.length === 1 && PARTICLE_STATE.has(head)) return done(`${a} is ${head}`, `${a} is not ${head}`);
  if (r.length === 1 && LOCATIVE.has(head)) {
    if (!(hint?.exactlyOne || p.place)) return plainPhrase(w.join(" "), [p]);
    res.locative = true;
    res.implicit = "I";
    return done(`I am ${head} ${a}`, `I am not ${head} ${a}`);
  }
  const x = r.slice(1).join(" ");
  const last = r[r.length - 1]!;
  // "is-smooth ?s - surface", fixed: a kind of value, said with its noun ("smooth is a smooth
  // surface", not "smooth is smooth", which repeats an object's name as its own property)
  const adj = hs === "be" && r.length === 2 ? r[1]! : r.length === 1 ? head : "";
  if (hint?.static && p.value && adj !== "" && senseOf(adj) === "adj" && p.typeWords.length > 0 && p.typeWords.every((t) => isEnglishWord(t))) {
    const np = withArticle(`${adj} ${p.typeWords.join(" ")}`);
    return done(`${a} is ${np}`, `${a} is not ${np}`);
  }
  // "used-up ?k": k is used up (a participle and its particle, not "the used of k is up")
  if (r.length === 2 && (hs === "past" || (hs === "adj" && /(ed|en|[rn]t)$/.test(head))) && PARTICLE_STATE.has(last)) return done(`${a} is ${r.join(" ")}`, `${a} is not ${r.join(" ")}`);
  // "hero-holding ?k": the hero is holding k (a holder named before a verb of holding), not "k is a hero holding"
  if (r.length === 2 && HOLDING_GERUNDS.has(last) && nounLike(r[0]!) && isEnglishWord(r[0]!) && !names([r[0]!], p)) {
    const subj = theNoun([r[0]!]);
    res.implicit = subj;
    return done(`${subj} is ${last} ${a}`, `${subj} is not ${last} ${a}`);
  }
  // "one-use ?k", "two-uses ?k": a count of what k has ("k has one use"), not "k is an one use"
  if (r.length === 2 && NUMBER_WORDS.has(head) && isEnglishWord(r[1]!.replace(/s$/, "")) && !isPreposition(r[1]!)) {
    res.attr = r.join(" ");
    return done(`${a} has ${r.join(" ")}`, `${a} does not have ${r.join(" ")}`);
  }
  // "going-up ?p": p is going up (a gerund's particle is its direction, not "the going of p is up")
  if (r.length === 2 && hs === "gerund" && (PARTICLE_STATE.has(last) || isDirection(last))) return done(`${a} is ${r.join(" ")}`, `${a} is not ${r.join(" ")}`);
  // "conflict-A ?p": a label among several ("conflict-B" beside it), not a kind of thing p is
  // ("p is a conflict A"): the plain reading
  if (r.length >= 2 && /^[A-Z]$/.test(last) && r.slice(0, -1).every((y) => isNounSense(senseOf(y)))) return plainPhrase(w.join(" "), [p]);
  if (r.length > 1 && PARTICLE_STATE.has(last) && !p.place) {
    // "power-on ?i": "the power of i is on".
    const np = r.slice(0, -1).join(" ");
    return done(`the ${np} of ${a} is ${last}`, `the ${np} of ${a} is not ${last}`);
  }
  if (r.length > 1 && LOCATIVE.has(last) && hs !== "be" && hs !== "prep" && hint?.multiValued && r.slice(0, -1).every((x) => isNounSense(senseOf(x)) || senseOf(x) === "adj")) {
    // "soft-rock-at ?c", true of several cells at once (proven): not one thing "the soft rock"
    // in several places, but some at each: "there is a soft rock at c"
    const noun = r.slice(0, -1).join(" ");
    const np = MASS.has(r[r.length - 2]!) ? noun : withArticle(noun);
    res.attr = noun;
    return done(`there is ${np} ${last} ${a}`, `there is no ${noun} ${last} ${a}`);
  }
  if (r.length > 1 && isPreposition(last) && hs !== "be" && hs !== "prep") {
    // "lift-at ?f": "the lift is at f".
    const subj = theNoun(r.slice(0, -1));
    res.locative = LOCATIVE.has(last);
    res.implicit = subj;
    res.attr = r.slice(0, -1).join(" ");
    return done(`${subj} is ${last} ${a}`, `${subj} is not ${last} ${a}`);
  }
  // "today ?d" true of several days at once is no "d is a today": it says only that it holds
  if (r.length === 1 && ADVERB_SUBJECTS.has(head) && !hint?.exactlyOne) return plainPhrase(head, [p]);
  // an idiom of state ("in_place ?r": the road is in place, not "in the place")
  if (IDIOMS.has(r.join(" "))) return done(`${a} is ${r.join(" ")}`, `${a} is not ${r.join(" ")}`);
  // "make-movable ?p": a flag that p is still to be made so ("p makes movable" says nothing)
  if (r.length === 2 && head === "make" && senseOf(r[1]!) === "adj") return done(`${a} is to be made ${r[1]}`, `${a} is not to be made ${r[1]}`);
  // "robot-pos ?c", "agent-location ?l" of a place: where that thing is ("the robot is at c")
  if (r.length > 1 && p.place && PLACE_NOUNS.has(last) && r.slice(0, -1).every((y) => isNounSense(senseOf(y))) && !r.slice(0, -1).some((y) => names([y], p))) {
    const subj = theNoun(r.slice(0, -1));
    res.locative = true;
    res.implicit = subj;
    res.attr = r.slice(0, -1).join(" ");
    return done(`${subj} is at ${a}`, `${subj} is not at ${a}`);
  }
  // "empty-hand ?s", "free-arm ?r": a part of the argument in a state, "the hand of s is empty"
  // (not "s is empty hand")
  // ("free_location ?l" of a place: the place is free, not "the location of l is free")
  if (r.length === 2 && STATE_ADJECTIVES.has(head) && p.place && PLACE_NOUNS.has(r[1]!)) return done(`${a} is ${head}`, `${a} is not ${head}`);
  if (r.length === 2 && STATE_ADJECTIVES.has(head) && nounLike(r[1]!) && isEnglishWord(r[1]!) && !names([r[1]!], p) && !p.typeWords.join("").includes(r[1]!)) {
    res.attr = r[1]!;
    return done(`the ${r[1]} of ${a} is ${head}`, `the ${r[1]} of ${a} is not ${head}`);
  }
  // "bucket_to_empty ?r": a thing with a purpose ("a bucket to empty"), not "the bucket to of r
  // is empty"
  if (r.length >= 3 && r[r.length - 2] === "to" && canBeVerb(last) && r.slice(0, -2).every((y) => isNounSense(senseOf(y)) && isEnglishWord(y)) && !r.slice(0, -2).some((y) => names([y], p))) return furnished(r.join(" "));
  // a fact actions make and undo, named by one noun of an activity ("snore ?p", "stop ?p"), of a
  // thing that is not a place: no kind that comes and goes ("wolf is a snore"). A verb too: the
  // thing does it ("red stops"); else the plain reading. (a noun of one who is something keeps
  // the kind: "p is a winner")
  if (r.length === 1 && w.length === 1 && dynamic && !p.place && hs === "noun" && !AGENT_NOUN.test(head) && !POSITION_NOUNS.has(head) && isEnglishWord(head) && !names([head], p)) {
    if (!canBeVerb(head)) return plainPhrase(w.join(" "), [p]);
    const f = verbForms(head);
    return done(`${a} ${f.third}`, `${a} does not ${f.base}`);
  }
  // "path_know ?p": the thing known, then a verb of knowing or wanting (no noun: "p is a path
  // know" names nothing); the argument holds it: "p knows the path"
  if (r.length === 2 && hs === "noun" && STATIVE.has(r[1]!) && isEnglishWord(head) && !names([head], p) && !p.place) {
    const f = verbForms(r[1]!);
    res.attr = r.join(" ");
    return done(`${a} ${f.third} the ${head}`, `${a} does not ${f.base} the ${head}`);
  }
  switch (hs) {
    case "be": {
      if (x.length === 0) return done(`${a} is ${w.join(" ")}`, `${a} is not ${w.join(" ")}`);
      const xs = senseOf(r[1]!);
      // ("is-zero ?n": n is zero, a number word takes no article)
      // ("is-train ?v": a noun that is a verb too, "v is a train", not "v is train")
      if ((isNounSense(xs) || (r.length === 2 && xs === "verb" && nounLike(r[1]!))) && !(r.length === 2 && NUMBER_WORDS.has(r[1]!))) return done(`${a} is ${withArticle(x)}`, `${a} is not ${withArticle(x)}`);
      return done(`${a} is ${x}`, `${a} is not ${x}`);
    }
    case "have":
      // "has-been-parked ?t": a perfect tense is denied after its auxiliary ("t has not been
      // parked", not "t does not have been parked")
      if (r.length > 1 && (r[1] === "been" || senseOf(r[1]!) === "past")) return done(`${a} has ${x}`, `${a} has not ${x}`);
      return done(`${a} has ${x || "something"}`, `${a} does not have ${x || "anything"}`);
    case "can":
      return done(`${a} can ${x || "act"}`, `${a} cannot ${x || "act"}`);
    case "prep": {
      if (x.length === 0) return plainPhrase(w.join(" "), [p]);
      // "at-robot ?x": the robot is at x (a place is never "at the robot"), unless the words
      // name x itself ("in-storage ?t - tank": t is in the storage).
      // ("by-coast ?p": a place by a landmark, "p is by the coast", not "the coast is by p")
      // ("in-storage ?t", true of one tank at a time: t is in the storage, not "the storage is in t":
      // what is in a container is the argument, unless the argument is a place)
      if ((p.place && LOCATIVE.has(head)) || (LOCATIVE.has(head) && hint?.exactlyOne && !CONTAINING.has(head)) || r.slice(1).every((y) => senseOf(y) === "name")) {
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
      // "charging-station ?r": a gerund before a noun is a kind of thing, with its article
      // ("r is a charging station", not "r is charging station")
      if (r.length > 1 && isNounSense(senseOf(last)) && senseOf(last) !== "plural" && r.slice(1).every((y) => isNounSense(senseOf(y)))) return furnished(r.join(" "));
      return done(`${a} is ${r.join(" ")}`, `${a} is not ${r.join(" ")}`);
    case "past":
      if (r.length > 1 && !isPreposition(r[1]!) && r.slice(1).every((y) => isNounSense(senseOf(y)))) {
        // "communicated-soil-data ?w": "the soil data of w is communicated".
        return done(`the ${x} of ${a} is ${head}`, `the ${x} of ${a} is not ${head}`);
      }
      return done(`${a} is ${r.join(" ")}`, `${a} is not ${r.join(" ")}`);
    case "adj": {
      // "allergic-gluten ?c": c is allergic to gluten
      const prep = r.length === 2 ? TOWARD[head] : undefined;
      if (prep !== undefined && isNounSense(senseOf(r[1]!))) return done(`${a} is ${head} ${prep} ${r[1]}`, `${a} is not ${head} ${prep} ${r[1]}`);

      return done(`${a} is ${r.join(" ")}`, `${a} is not ${r.join(" ")}`);
    }
    case "verb3":
      return done(`${a} ${r.join(" ")}`, `${a} does not ${verbForms(head).base}${x ? " " + x : ""}`);
    case "verb": {
      // a verb that takes no object and names no thing: "s exists" (not "s is an exist")
      if (r.length === 1 && INTRANSITIVE.has(head)) return done(`${a} ${verbForms(head).third}`, `${a} does not ${head}`);
      if (r.length === 1) return done(`${a} is ${withArticle(head)}`, `${a} is not ${withArticle(head)}`);
      // a thing does not act: "stageProperty ?i - item" is a stage property, not "i stages property"
      if (p.thing && !/^(person|passenger|people|human|agent)s?$/.test(p.noun) && nounLike(head) && r.slice(1).every((y) => isNounSense(senseOf(y)))) return furnished(r.join(" "));
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
      return furnished(r.join(" "));
    }
  }
}

function nullary(w: string[], all: string, agent = "I"): PredicatePhrase {
  const res = base();
  const done = (pos: string, neg: string): PredicatePhrase => ({ ...res, pos, neg, attr: all, groupable: false });
  // "holds-bomb", "have-chips", "carries-coal": a condition without arguments about what is
  // held names no holder, so the holder is the one acting ("I hold the bomb")
  const own = w.length >= 2 ? POSSESS[w[0]!] : undefined;
  if (own !== undefined && w.slice(1).every((x) => isEnglishWord(x) && !isPreposition(x) && (nounLike(x) || senseOf(x) === "adj"))) {
    const np = `the ${w.slice(1).join(" ")}`;
    return done(...holder(agent, own, np));
  }
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
  if (codes.length === 0 && w.length >= 2 && (ls === "adj" || ls === "past") && w.slice(0, -1).every(nounLike)) {
    // "hand-empty" -> "the hand is empty".
    const subj = theNoun(w.slice(0, -1));
    const be = senseOf(w[w.length - 2]!) === "plural" ? "are" : "is";
    return done(`${subj} ${be} ${last}`, `${subj} ${be} not ${last}`);
  }
  // "robot_is_full": the name is a clause, "the robot is full"
  // (a subject of English nouns: not "the nothing is moving", not "the 0 is empty")
  const subject = (xs: string[]): boolean => xs.every((x) => nounLike(x) && isEnglishWord(x) && !/\d/.test(x) && !PRONOUN_SUBJECTS.has(x));
  const be = w.findIndex((x) => x === "is" || x === "are");
  if (codes.length === 0 && be >= 1 && be < w.length - 1 && subject(w.slice(0, be)) && w.slice(be + 1).every((x) => senseOf(x) === "adj" || senseOf(x) === "past")) {
    const subj = theNoun(w.slice(0, be));
    const rest = w.slice(be + 1).join(" ");
    return done(`${subj} ${w[be]} ${rest}`, `${subj} ${w[be]} not ${rest}`);
  }
  // "ok_preflight_check": a state first, then what is in it, "the preflight check is ok"
  if (codes.length === 0 && w.length >= 2 && STATE_ADJECTIVES.has(w[0]!) && subject(w.slice(1))) {
    const subj = theNoun(w.slice(1));
    return done(`${subj} is ${w[0]}`, `${subj} is not ${w[0]}`);
  }
  return done(`the ${all} condition holds`, `the ${all} condition does not hold`);
}

/** Nouns of what holds things: a hand, a gripper, an arm. */
const HOLDER_NOUNS = /^(hand|hands|gripper|grippers|arm|arms|claw|claws|grasp|grabber|manipulator|effector|holder|robot|robots|agent|person|crane|hoist)$/;
function holderKind(p: ParamInfo): boolean {
  return p.typeWords.length > 0 && HOLDER_NOUNS.test(p.typeWords[p.typeWords.length - 1]!);
}

/** Verbs of holding in a gerund after the holder ("hero-holding ?k", "robot-carrying ?b"). */
const HOLDING_GERUNDS = new Set(["holding", "carrying", "grasping", "gripping", "wearing", "having", "lifting", "pushing", "pulling", "using"]);

const PRONOUN_SUBJECTS = new Set(["nothing", "something", "everything", "anything", "nobody", "somebody", "everybody", "anybody", "none", "all", "one"]);

/** Adjectives of a state something is in ("empty-hand", "ok_preflight_check"): said after it. */
const STATE_ADJECTIVES = new Set(["ok", "empty", "free", "full", "open", "closed", "clear", "clean", "dirty", "busy", "idle", "ready", "locked", "unlocked", "safe", "secure"]);

/**
 * Whether the last two of `params` are an x / y pair of types: "xc" / "yc", "xrel" / "yrel",
 * "x" / "y" (one suffix).
 */
export function coordinatePair(params: readonly TypedName[], at = params.length - 2): boolean {
  if (at < 0 || at + 1 >= params.length) return false;
  // "xc" / "yc", and with a word of position before ("PosX" / "PosY", "coord-x" / "coord-y")
  const pair = (a: string, b: string): boolean => {
    const m = /^((?:pos(?:ition)?|coord(?:inate)?|grid|cell|loc(?:ation)?)[-_]?)?x(.*)$/i.exec(a);
    return m !== null && b.toLowerCase() === `${(m[1] ?? "").toLowerCase()}y${m[2]!.toLowerCase()}`;
  };
  const [p, q] = [params[at]!, params[at + 1]!];
  const tp = p.types[0] ?? "object";
  const tq = q.types[0] ?? "object";
  // (typed only: untyped ?x ?y are any two objects, as in blocks' on ?x ?y)
  if (tp === "object" || tq === "object") return false;
  if (pair(tp, tq)) return true;
  // one coordinate type for both, the parameters named x and y ("free ?x ?y - coord")
  return tp === tq && /^(grid)?(coord(inate)?s?|pos(ition)?s?)$/i.test(tp) && (tp.toLowerCase().startsWith("grid") || /^coord/i.test(tp)) && pair(p.name.replace(/^\?/, ""), q.name.replace(/^\?/, ""));
}

/**
 * A relation of two points, each an (x, y) pair ("adj ?x ?x2 - PosX ?y ?y2 - PosY", or x, y, x2,
 * y2): the relation's reading over two cells, each said as one ("(x0, y1) is adjacent to (x1,
 * y1)"), not four arguments in a row. Null for other shapes.
 */
function twoPoints(decl: PredicateDecl): PredicatePhrase | null {
  const q = decl.params;
  if (q.length !== 4) return null;
  const pair = (i: number, j: number): boolean => coordinatePair([q[i]!, q[j]!], 0);
  const order = pair(0, 2) && pair(1, 3) ? [[0, 2], [1, 3]] : pair(0, 1) && pair(2, 3) ? [[0, 1], [2, 3]] : null;
  if (order === null) return null;
  const ph = paramInfos(q).map((p) => `{${p.ph}}`);
  // the relation over two cells of one type, then each cell as its pair
  const cells = predicatePhraseOf({ ...decl, params: [{ ...q[0]!, name: "?pa", types: ["cell"] }, { ...q[1]!, name: "?pb", types: ["cell"] }] });
  if (cells.plain) return null;
  const put = (t: string): string => t.split("{pa}").join(`(${ph[order[0]![0]!]}, ${ph[order[0]![1]!]})`).split("{pb}").join(`(${ph[order[1]![0]!]}, ${ph[order[1]![1]!]})`);
  return { ...cells, pos: put(cells.pos), neg: put(cells.neg), groupable: false, link: null };
}

/**
 * A thing and a point ("at ?a - agent ?x ?y - position", "on ?s - ship ?x ?y - idx"): two
 * positions or indexes named x and y after a thing of another type are one point, "a is at (x1,
 * y1)", not "a is at x1 and y1" (two places, whose denial read as denying more). Two positions
 * alone ("connected ?x ?y - position") may be two cells: only coordinate types make those a
 * point (`coordinatePair`); nor are two places named x and y ("route ?v ?x ?y - city": from x to y).
 */
function placedPoint(params: readonly TypedName[]): boolean {
  if (params.length !== 3) return false;
  const [a, x, y] = params as [TypedName, TypedName, TypedName];
  const t = x.types[0] ?? "object";
  return t === (y.types[0] ?? "object") && /^(pos(ition)?s?|idx|index(es)?|indices|coord(inate)?s?)$/i.test(t) && (a.types[0] ?? "object") !== t && /^\??x$/i.test(x.name) && /^\??y$/i.test(y.name);
}

const COORD_ABBR: Record<string, string> = { pos: "position", rel: "relative", obj: "object", loc: "location", coord: "position", coords: "position" };

/**
 * A relation of a cell or a position: "there is a base obstacle at ({x}, {y})" (two arguments),
 * "the base position of {r} is ({x}, {y})" (three: a thing and where it is).
 */
function coordinatePhrase(w: string[], ps: ParamInfo[], hint?: PredicateHint, keepNames = false): PredicatePhrase {
  const ph = ps.map((p) => `{${p.ph}}`);
  const cell = `(${ph[ps.length - 2]}, ${ph[ps.length - 1]})`;
  let words = w.map((x) => COORD_ABBR[x] ?? x).filter((x) => !/^[xy]$/.test(x));
  const res = { ...base(), groupable: false };
  if (ps.length === 2) {
    // ("is-lit ?x ?y", "is-on": the copula of the name is the sentence's own, what follows it says the state)
    if (words.length === 2 && (words[0] === "is" || words[0] === "are")) return { ...res, pos: `${cell} is ${words[1]}`, neg: `${cell} is not ${words[1]}`, attr: words[1]! };
    // a state of the point ("free ?x ?y"): "(x, y) is free", not "there is a free at (x, y)"
    if (words.length === 1 && ["adj", "past"].includes(senseOf(words[0]!))) return { ...res, pos: `${cell} is ${words[0]}`, neg: `${cell} is not ${words[0]}`, attr: words[0]! };
    const noun = words.join(" ") || "cell";
    const art = /^[aeiou]/.test(noun) ? "an" : "a";
    return { ...res, pos: `there is ${art} ${noun} at ${cell}`, neg: `there is no ${noun} at ${cell}`, attr: noun };
  }
  const a = ph[0]!;
  // words naming the first argument ("cart-pos ?c - cart") say who, not what
  if (words.length > 1 && !keepNames) words = words.filter((x) => !names([x], ps[0]!));
  // where a thing is, said with the preposition ("at ?n ?x ?y", "card-at ?c ?x ?y"): "n is at (x, y)"
  if (words.length === 1 && ["at", "in", "on"].includes(words[0]!)) return { ...res, pos: `${a} is ${words[0]} ${cell}`, neg: `${a} is not ${words[0]} ${cell}`, attr: "position" };
  const relative = words.includes("relative");
  words = words.filter((x) => x !== "relative" && x !== "position");
  const noun = [relative ? "relative" : "", ...words, "position"].filter((x) => x !== "").join(" ");
  if (hint?.multiValued) return { ...res, pos: `${cell} is a ${noun} of ${a}`, neg: `${cell} is not a ${noun} of ${a}`, attr: noun };
  return { ...res, pos: `the ${noun} of ${a} is ${cell}`, neg: `the ${noun} of ${a} is not ${cell}`, attr: noun };
}
