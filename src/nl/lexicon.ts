/**
 * English word knowledge for the generic translator: splitting PDDL identifiers into words,
 * telling verbs, nouns, adjectives and prepositions apart, and inflecting verbs.
 *
 * Parts of speech and verb forms come from `compromise` (a maintained English lexicon with
 * tagging and conjugation, irregular verbs included: hold -> held, fly -> flies), which no
 * hand-written list can match for arbitrary user names. It takes ~0.4 s to load, so it is
 * loaded on first use only: built-in domains with a complete nl.json never load it.
 */
import { createRequire } from "node:module";

interface CompromiseTerm {
  tags: string[];
}
interface CompromiseWorld {
  model: { one: { lexicon: Record<string, string | string[]> } };
  methods: {
    two: {
      transform: {
        verb: {
          conjugate(w: string, model: unknown): Record<string, string | undefined>;
          toInfinitive(w: string, model: unknown, tense?: string): string;
        };
        noun: { toPlural(w: string, model: unknown): string; toSingular(w: string, model: unknown): string };
      };
    };
  };
}
interface Compromise {
  (text: string): { json(): Array<{ terms: CompromiseTerm[] }> };
  world(): CompromiseWorld;
}

let nlpCache: Compromise | null = null;
function nlp(): Compromise {
  nlpCache ??= createRequire(import.meta.url)("compromise/two") as Compromise;
  return nlpCache;
}

const PREPOSITIONS = new Set([
  "at", "on", "in", "to", "from", "with", "of", "by", "near", "under", "above", "below", "over",
  "inside", "into", "onto", "behind", "beside", "for", "off", "toward", "towards", "via", "through",
  "across", "along", "between", "within", "using", "upon", "out", "outside", "against", "around", "aboard",
  "beneath", "underneath", "beyond", "amid",
]);
const DIRECTIONS = new Set(["up", "down", "left", "right", "north", "south", "east", "west", "forward", "forwards", "back", "backward", "backwards", "upward", "downward"]);

/**
 * Words whose first sense in a predicate or type name is a noun although the lexicon lists a
 * verb first ("colour(?x ?c)" is the colour of x, not x colouring c).
 */
const NOUN_FIRST = new Set(["colour", "color", "paint", "fuel", "level", "time", "order", "stack", "charge", "load", "conflict", "lift", "cost", "count", "size", "store", "place", "step", "turn", "mode", "state", "link", "need"]);

/** Split a PDDL identifier into lower-case words: "robotAt" / "robot-at" / "robot_at" -> ["robot", "at"]. */
// Abbreviations common in PDDL names, read as the words they stand for.
const ABBREVIATIONS: Record<string, string> = {
  dir: "direction", loc: "location", pos: "position", destin: "destination", obj: "object", num: "number",
  prev: "previous", cur: "current", curr: "current", pkg: "package", avail: "available", cnt: "count",
  pt: "point", qty: "quantity", veh: "vehicle", addr: "address", tmp: "temporary",
  rel: "relative", arg: "argument", ext: "external", lo: "low", hi: "high", col: "column", flevel: "fuel level",
  succ: "successor", conn: "connected", adj: "adjacent", dest: "destination", src: "source", desc: "description", info: "information",
};

/** Is `w` a short form this module expands ("pt" -> point)? A guess where a type says otherwise. */
export function isAbbreviation(w: string): boolean {
  return Object.hasOwn(ABBREVIATIONS, w.toLowerCase());
}

/**
 * A type name's words, without a C-style type suffix ("side_t" -> side, "sheet_t" -> sheet: not
 * "sheet t S").
 */
export function typeNameWords(type: string): string[] {
  // a coordinate type ("PosX", "coord-y", "gridx"): "x position", not "posx" nor a posy (a bunch of flowers)
  const axis = /^(?:pos(?:ition)?|coord(?:inate)?|grid|cell|loc(?:ation)?)[-_]?([xyz])$/i.exec(type);
  if (axis !== null) return [axis[1]!.toLowerCase(), "position"];
  const w = splitName(type);
  if (w.length === 1) return splitCompound(w[0]!);
  return w.length > 1 && w[w.length - 1] === "t" && /[-_]t$/i.test(type) ? w.slice(0, -1) : w;
}

/**
 * A type name run together from two English words, itself not one ("trackpart", "trainunit"):
 * its two words ("track part"), so that it reads as the problem's noun and a name word ("to
 * track part t1") matches: two words of the tagger's lexicon, else of the long word list with
 * four letters or more each (where "carpark" is also "carp ark"); else the name whole.
 */
function splitCompound(w: string): string[] {
  if (w.length < 6 || !/^[a-z]+$/.test(w) || isEnglishWord(w)) return [w];
  let fallback: string[] | null = null;
  for (let i = 3; i <= w.length - 3; i++) {
    const [a, b] = [w.slice(0, i), w.slice(i)];
    // ("queuetype" stays whole: "queue type" would make a kind of thing a value, as "colour" is)
    if (!english!.has(a) || !english!.has(b) || PREPOSITIONS.has(a) || PREPOSITIONS.has(b) || b === "type" || b === "kind") continue;
    if (lexTags(a).length > 0 && lexTags(b).length > 0) return [a, b];
    if (fallback === null && a.length >= 4 && b.length >= 4) fallback = [a, b];
  }
  return fallback ?? [w];
}

const ORDINAL_WORDS = ["", "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth"];

/**
 * A slot number after a noun in a predicate's or action's name ("has-resource2": the second
 * resource), said as an ordinal before it: "second resource", not "resource 2", which reads as
 * a count ("collect 2 metal"). Only 2 to 9 after a noun; other words are left as they are.
 */
export function ordinalSlots(words: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    const next = words[i + 1];
    if (next !== undefined && /^[2-9]$/.test(next) && senseOf(w) === "noun" && isEnglishWord(w)) {
      out.push(ORDINAL_WORDS[Number(next)]!, w);
      i++;
    } else out.push(w);
  }
  return out;
}

export function splitName(name: string): string[] {
  // (an acronym written with a small letter inside, "DDoS", is one word, not "D do S")
  const acronym = (t: string): boolean => t.length <= 6 && (t.match(/[A-Z]/g) ?? []).length >= 3 && (t.match(/[a-z]/g) ?? []).length <= 2 && /[a-z]/.test(t) && /^[A-Z]/.test(t);
  const spaced = name
    .replace(/^\?/, "")
    .split(/([\s\-_.]+)/)
    .map((t) => (acronym(t) ? t.replace(/[a-z]/g, (c) => c.toUpperCase()) : t))
    .join("")
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    // "level2" -> "level 2", but keep short codes such as "cb1" or "f0" whole.
    .replace(/([A-Za-z]{3,})(\d+)\b/g, "$1 $2");
  return spaced
    .split(/[\s\-_.]+/)
    .filter((w) => w.length > 0)
    // A single capital letter is a name ("conflict-A"): it keeps its case.
    .map((w) => (/^[A-Z]$/.test(w) ? w : w.toLowerCase()))
    .flatMap((w) => (ABBREVIATIONS[w] ?? w).split(" "));
}

export function isPreposition(w: string): boolean {
  return PREPOSITIONS.has(w);
}

export function isDirection(w: string): boolean {
  return DIRECTIONS.has(w);
}

const tagCache = new Map<string, Set<string>>();
/** Tags of a word said on its own (compromise reads it as an imperative when it can be a verb). */
function tagsAlone(w: string): Set<string> {
  let t = tagCache.get(w);
  if (t === undefined) {
    const terms = nlp()(w).json()[0]?.terms ?? [];
    t = new Set(terms.length === 1 ? terms[0]!.tags : []);
    tagCache.set(w, t);
  }
  return t;
}

function lexTags(w: string): string[] {
  const v = nlp().world().model.one.lexicon[w];
  return v === undefined ? [] : Array.isArray(v) ? v : [v];
}

/** True when `w` is a word the lexicon knows (not a guess from its spelling). */
export function isKnownWord(w: string): boolean {
  return lexTags(w).length > 0;
}

let english: Set<string> | null = null;
/**
 * True when `w` is an English word, in any inflection ("splice", "orbits", "connected"; not
 * "le", "cw", "hiindex"). From `an-array-of-english-words` (~275,000 words): compromise's
 * lexicon (~14,000) lacks many plain words, and a word no reading can rest on must not get one.
 * Loaded on first use (~0.25 s), like compromise.
 */
export function isEnglishWord(w: string): boolean {
  english ??= new Set(createRequire(import.meta.url)("an-array-of-english-words/index.json") as string[]);
  const x = w.toLowerCase();
  // "swappable", "stackable": an English stem with -able/-ible is an adjective of it
  const able = /^(.{3,}?)(e?able|ible)$/.exec(x);
  const stem = able?.[1] ?? "";
  // (compromise's lexicon only for words of three letters or more: it lists "le" as a determiner)
  return english.has(x) || (x.length > 2 && lexTags(x).length > 0) || (able !== null && (english.has(stem) || english.has(stem + "e") || (/(.)\1$/.test(stem) && english.has(stem.slice(0, -1)))));
}

/** True when `w` can head an imperative ("drive", "board", "stop"; not "truck", "left", "up"). */
export function canBeVerb(w: string): boolean {
  if (/\d/.test(w) || PREPOSITIONS.has(w) || DIRECTIONS.has(w)) return false;
  if (ADJECTIVE_VERBS.has(w) || NOUN_VERBS.has(w)) return true;
  const t = tagsAlone(w);
  if (t.has("Infinitive") || t.has("Imperative")) return true;
  // "reset", "put": past forms equal to the base form.
  if (t.has("Verb") && verbForms(w).base === w) return true;
  // a prefix on a verb the tagger does not know ("decompress", "recharge", "unmount"): a verb
  const m = /^(de|re|un|dis|pre)([a-z]{4,})$/.exec(w);
  return m !== null && !t.has("Adjective") && canBeVerb(m[2]!);
}

// Nouns and adjectives the tagger reads alone as such that name actions as verbs ("cook", "secure_cargo", "present ?r ?p").
const NOUN_VERBS = new Set(["cook", "secure", "present", "water", "tow", "weld", "stow", "ferry", "shuttle", "tidy", "destroy", "shoot"]);

// Adjectives that are verbs too ("close sd2", "open new stack"); the tagger reads them as adjectives.
const ADJECTIVE_VERBS = new Set(["close", "open", "reset", "set", "restart", "update", "clean", "empty", "free", "clear", "dry", "warm", "cool", "fill", "glaze", "plane", "shut", "lock", "unlock", "wet", "saw", "complete", "finish"]);

/** True when `w` (ending in -s) is also a verb's third person: "orbits", "attacks", "craves". */
export function canBeThirdPerson(w: string): boolean {
  if (!w.endsWith("s")) return false;
  const t = tagsAlone(w);
  return t.has("PresentTense") || t.has("Verb");
}

/** "attacks" -> "attack", "carries" -> "carry" (the base of a third person). */
export function thirdToBase(w: string): string {
  const world = nlp().world();
  return world.methods.two.transform.verb.toInfinitive(w, world.model, "PresentTense");
}

/** "slow" -> "slowly" (manner words from action names: "move-up-slow"). */
export function adverbOf(w: string): string {
  if (w.endsWith("ly") || w === "fast" || w === "hard" || w === "straight") return w;
  if (w.endsWith("le")) return w.slice(0, -1) + "y";
  if (/[^aeiou]y$/.test(w)) return w.slice(0, -1) + "ily";
  return w + "ly";
}

/** How a word reads inside a predicate name. */
export type Sense = "prep" | "be" | "have" | "can" | "not" | "verb" | "verb3" | "gerund" | "past" | "adj" | "noun" | "plural" | "name" | "num";

const senseCache = new Map<string, Sense>();
export function senseOf(w: string): Sense {
  let s = senseCache.get(w);
  if (s === undefined) senseCache.set(w, (s = senseOfUncached(w)));
  return s;
}
function senseOfUncached(w: string): Sense {
  if (/^\d+$/.test(w)) return "num";
  if (/\d/.test(w)) return "name";
  if (w === "is" || w === "are" || w === "be") return "be";
  if (w === "has" || w === "have") return "have";
  if (w === "can" || w === "may" || w === "must") return "can";
  if (w === "not" || w === "no") return "not";
  if (PREPOSITIONS.has(w)) return "prep";
  if (NOUN_FIRST.has(w)) return "noun";
  const lex = lexTags(w);
  const t = lex.length > 0 ? new Set(lex) : tagsAlone(w);
  if (t.has("Preposition")) return "prep";
  if (t.has("Gerund")) return "gerund";
  if (t.has("PastTense") || t.has("Participle")) return "past";
  if (t.has("PresentTense") && !t.has("Infinitive")) return "verb3";
  if (t.has("Adjective") || t.has("Comparative") || t.has("Adverb") || t.has("Negative")) return "adj";
  if (t.has("Infinitive")) return "verb";
  if (t.has("Plural")) return "plural";
  if (t.has("MaleName") || t.has("FemaleName") || t.has("FirstName")) return "name";
  return "noun";
}

export interface VerbForms {
  base: string;
  third: string;
  past: string;
  participle: string;
  gerund: string;
}

const formCache = new Map<string, VerbForms>();
/** The forms of a verb given in any form ("includes", "served", "carry"). */
export function verbForms(w: string): VerbForms {
  let f = formCache.get(w);
  if (f === undefined) {
    const world = nlp().world();
    const tv = world.methods.two.transform.verb;
    const s = senseOf(w);
    const base = s === "verb3" ? tv.toInfinitive(w, world.model, "PresentTense") : s === "past" ? tv.toInfinitive(w, world.model, "PastTense") : s === "gerund" ? tv.toInfinitive(w, world.model, "Gerund") : w;
    const c = tv.conjugate(base, world.model);
    f = {
      base,
      third: c["PresentTense"] ?? base + "s",
      past: c["PastTense"] ?? base + "ed",
      participle: c["Participle"] ?? c["PastTense"] ?? base + "ed",
      gerund: c["Gerund"] ?? base + "ing",
    };
    formCache.set(w, f);
  }
  return f;
}

/** "box" -> "boxes", "passenger" -> "passengers" (no lexicon needed for the regular cases). */
export function pluralOf(noun: string): string {
  const ws = noun.split(" ");
  const last = ws[ws.length - 1]!;
  let p: string;
  if (/(s|x|z|ch|sh)$/.test(last)) p = last + "es";
  else if (/[^aeiou]y$/.test(last)) p = last.slice(0, -1) + "ies";
  else p = last + "s";
  ws[ws.length - 1] = p;
  return ws.join(" ");
}

/** "a block", "an object". */
export function withArticle(noun: string): string {
  return (/^[aeiou]/i.test(noun) ? "an " : "a ") + noun;
}

/**
 * A run-together word split into known words when the whole is not one ("takeoff" -> take off,
 * "handempty" -> hand empty, "ontable" -> on table, "notprintedwith" -> not printed with); else null.
 */
export function compoundSplit(w: string): string[] | null {
  if (w.length < 5 || isEnglishWord(w) || /\d/.test(w)) return null;
  const rest = (b: string): string[] | null => (isEnglishWord(b) || PREPOSITIONS.has(b) ? [b] : compoundSplit(b));
  // A short leading particle: "ontable" -> on table, "incell" -> in cell, "notexist", "canstack".
  for (const head of ["on", "in", "at", "not", "no", "can", "is", "has"]) {
    const b = w.slice(head.length);
    if (!w.startsWith(head) || b.length < 3 || lexTags(b).includes("Abbreviation")) continue;
    const r = rest(b);
    if (r !== null) return [head, ...r];
  }
  // the longest leading word first: "oppositeside" is opposite side, not oppo site side
  for (let i = w.length - 2; i >= 3; i--) {
    const a = ABBREVIATIONS[w.slice(0, i)] ?? w.slice(0, i);
    const b = w.slice(i);
    const okA = (i >= 4 || a !== w.slice(0, i) ? isEnglishWord(a) || a.includes(" ") : isKnownWord(a)) && !lexTags(a).includes("Abbreviation");
    if (!okA) continue;
    if (PREPOSITIONS.has(b) || DIRECTIONS.has(b)) return [a, b];
    const r = ABBREVIATIONS[b] !== undefined ? ABBREVIATIONS[b]!.split(" ") : b.length >= 4 && !lexTags(b).includes("Abbreviation") ? rest(b) : null;
    if (r !== null) return [a, ...r];
  }
  return null;
}
