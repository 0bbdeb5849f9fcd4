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
  "across", "along", "between", "within", "using", "upon", "out", "outside", "against", "around",
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
};

export function splitName(name: string): string[] {
  const spaced = name
    .replace(/^\?/, "")
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    // "level2" -> "level 2", but keep short codes such as "cb1" or "f0" whole.
    .replace(/([A-Za-z]{3,})(\d+)\b/g, "$1 $2");
  return spaced
    .split(/[\s\-_.]+/)
    .filter((w) => w.length > 0)
    // A single capital letter is a name ("conflict-A"): it keeps its case.
    .map((w) => (/^[A-Z]$/.test(w) ? w : w.toLowerCase()))
    .map((w) => ABBREVIATIONS[w] ?? w);
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

/** True when `w` can head an imperative ("drive", "board", "stop"; not "truck", "left", "up"). */
export function canBeVerb(w: string): boolean {
  if (/\d/.test(w) || PREPOSITIONS.has(w) || DIRECTIONS.has(w)) return false;
  if (ADJECTIVE_VERBS.has(w)) return true;
  const t = tagsAlone(w);
  if (t.has("Infinitive") || t.has("Imperative")) return true;
  // "reset", "put": past forms equal to the base form.
  return t.has("Verb") && verbForms(w).base === w;
}

// Adjectives that are verbs too ("close sd2", "open new stack"); the tagger reads them as adjectives.
const ADJECTIVE_VERBS = new Set(["close", "open", "reset", "set", "restart", "update", "clean", "empty", "free", "clear", "dry", "warm", "cool", "fill", "glaze", "plane", "shut", "lock", "unlock", "wet"]);

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
  if (w === "can") return "can";
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
 * A run-together word split into two known words when both halves are in the lexicon and the
 * whole is not ("takeoff" -> ["take", "off"], "handempty" -> ["hand", "empty"]); else null.
 */
export function compoundSplit(w: string): [string, string] | null {
  if (w.length < 6 || isKnownWord(w) || /\d/.test(w)) return null;
  for (let i = 4; i <= w.length - 2; i++) {
    const a = w.slice(0, i);
    const b = w.slice(i);
    const okA = isKnownWord(a) && !lexTags(a).includes("Abbreviation");
    const okB = PREPOSITIONS.has(b) || DIRECTIONS.has(b) || (b.length >= 4 && isKnownWord(b) && !lexTags(b).includes("Abbreviation"));
    if (okA && okB) return [a, b];
  }
  return null;
}
