/**
 * The raw probe's view of a row (issue 55): what a trainer reads, byte for byte, beyond the
 * words. The word probes lowercase, split on punctuation and read sets; a model reads the
 * characters. Here nothing is normalised: white space (a no-break space, two spaces, a blank
 * line), case, Unicode look-alikes, punctuation, the order of sentences and clauses, the row's
 * id and its other string fields are all seen, as hashed tokens in a bounded number of buckets.
 *
 * A text is read as its words (runs of letters and digits, any script) and the exact characters
 * between them. A token is a word, the characters after it and the next word, verbatim ("4⟨, ⟩and",
 * "9⟨:\u00a0⟩Since", "holding⟨.⟩␃"; ␂ and ␃ the text's start and end), at every place but one
 * single space between two plain words (lowercase ASCII letters, or a number): those carry the
 * words, which the word probe reads, and no form. Only digits are folded (a number reads "9",
 * "09" zero-padded): they name objects, which the prior reads. A step gives ~10 tokens, and
 * words keep their letters: the 3-grams of a text's form of issue 55's first version hid a
 * lowercase word (", and" against ", so"), which a trainer sees.
 */
import type { Vocabulary } from "./measures.js";
import type { RawForm } from "./units.js";

/** Buckets of the hashed tokens (2^18): the vocabulary the raw probe can add is bounded. */
export const RAW_BUCKETS = 1 << 18;

/** Marks of a text's start and end, and around the characters between two words. */
const START = "␂";
const END = "␃";
const OPEN = "⟨";
const CLOSE = "⟩";

const LETTER_OR_DIGIT = /[\p{L}\p{N}\p{M}]/u;

/** Is code unit `c` (at `i` of `text`) part of a word: a letter, digit or mark of any script? */
function wordChar(text: string, i: number, c: number): boolean {
  if (c < 128) return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
  // (a surrogate pair is read as its two halves: both test alike)
  return LETTER_OR_DIGIT.test(text[i]!);
}

/**
 * A text as it is read: its words (digit runs folded to "9", "09" when zero-padded) and the
 * characters between them, verbatim. `words.length === seps.length - 1`: `seps[0]` before the
 * first word, `seps[k]` after word k - 1.
 */
export function wordsAndSeps(text: string): { words: string[]; seps: string[] } {
  const words: string[] = [];
  const seps: string[] = [];
  let i = 0;
  const n = text.length;
  let from = 0;
  while (i < n) {
    if (!wordChar(text, i, text.charCodeAt(i))) {
      i++;
      continue;
    }
    seps.push(text.slice(from, i));
    let w = "";
    while (i < n && wordChar(text, i, text.charCodeAt(i))) {
      const c = text.charCodeAt(i);
      if (c >= 48 && c <= 57) {
        let j = i + 1;
        while (j < n && text.charCodeAt(j) >= 48 && text.charCodeAt(j) <= 57) j++;
        w += c === 48 && j - i > 1 ? "09" : "9";
        i = j;
      } else w += text[i++]!;
    }
    words.push(w);
    from = i;
  }
  seps.push(text.slice(from));
  return { words, seps };
}

/** A word that says nothing of form: lowercase ASCII letters, or a number that is not zero-padded. */
function plain(w: string): boolean {
  if (w === "9") return true;
  for (let i = 0; i < w.length; i++) {
    const c = w.charCodeAt(i);
    if (c < 97 || c > 122) return false;
  }
  return true;
}

/** Is the place before word k (k = words.length: the end) a token? Not a single space between plain words. */
const formPlace = (words: string[], seps: string[], k: number): boolean => !(seps[k] === " " && k > 0 && k < words.length && plain(words[k - 1]!) && plain(words[k]!));

/** The tokens of a text, as `RawTokens` hashes them (for tests and reports). */
export function rawTokens(text: string): string[] {
  const { words, seps } = wordsAndSeps(text);
  const w = [START, ...words, END];
  return seps.flatMap((s, k) => (formPlace(words, seps, k) ? [`${w[k]}${OPEN}${s}${CLOSE}${w[k + 1]}`] : []));
}

/** A short string's form: digits folded as in a text, everything else as written. */
export function form(text: string): string {
  return text.replace(/\d+/g, (d) => (d.length > 1 && d[0] === "0" ? "09" : "9"));
}

/**
 * The first version's form of a text (no longer the raw probe's view; bench/chain-probes reads
 * it as a control): a lowercase ASCII word that does not open a sentence becomes "~", and a
 * run of such words separated by single spaces one "≈"; a word with a capital, or opening a
 * sentence, keeps its first two characters ("Since" -> "Si~", "Block" -> "Bl~"); a run of
 * digits becomes "9" ("09" when zero-padded). White space, punctuation and every non-ASCII
 * character stay as they are.
 */
export function skeleton(text: string): string {
  let out = "";
  let start = true;
  // a run of "~" words: "~", then "≈" once a second one follows after a single space
  let run = 0;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text.charCodeAt(i);
    const upper = c >= 65 && c <= 90;
    const lower = c >= 97 && c <= 122;
    if (upper || lower) {
      let j = i + 1;
      let allLower = lower;
      for (; j < n; j++) {
        const d = text.charCodeAt(j);
        if (d >= 97 && d <= 122) continue;
        if (d >= 65 && d <= 90) allLower = false;
        else break;
      }
      if (allLower && !start) {
        // after a "~" word and a single space: the run becomes one "≈"
        if (run > 0 && (out.endsWith("~ ") || out.endsWith("≈ "))) out = out.slice(0, -2) + "≈";
        else out += "~";
        run++;
      } else {
        out += j - i > 2 ? text.slice(i, i + 2) + "~" : text.slice(i, j);
        run = 0;
      }
      start = false;
      i = j;
      continue;
    }
    if (c >= 48 && c <= 57) {
      let j = i + 1;
      while (j < n && text.charCodeAt(j) >= 48 && text.charCodeAt(j) <= 57) j++;
      out += c === 48 && j - i > 1 ? "09" : "9";
      run = 0;
      start = false;
      i = j;
      continue;
    }
    const ch = text[i]!;
    out += ch;
    // a single space keeps a run of "~" words going; anything else ends it
    if (ch !== " ") run = 0;
    if (ch === "." || ch === ":" || ch === "!" || ch === "?" || ch === "\n") start = true;
    else if (ch !== " ") start = false;
    i++;
  }
  return out;
}

/** 32-bit string hash (FNV-1a, finalised). */
function hash(s: string, seed: number): number {
  let h = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  return h >>> 0;
}

/** Characters of a context read as tokens at its head and tail (the rest: a summary). */
const HEAD = 120;
const TAIL = 400;

/**
 * Interns the raw probe's tokens of units: a text's tokens hashed to `RAW_BUCKETS` buckets (a
 * bucket's token is named by the first token that fell in it), the rest as tagged strings.
 */
export class RawTokens {
  private readonly buckets = new Int32Array(RAW_BUCKETS).fill(-1);
  private readonly contexts = new Map<string, Int32Array>();
  private readonly scratch: number[] = [];
  /** Per id segment, its token ids by text (a problem's rows share their first segments). */
  private readonly segments: Map<string, number>[] = [];
  private lastKeys = "";
  private lastKeysId = -1;
  constructor(readonly vocabulary: Vocabulary) {}

  /** The tokens of `text` (see `rawTokens`), in the hash space of `tag`. */
  private grams(text: string, tag: string, out: number[]): void {
    const seed = hash(tag, 0x9e3779b9);
    const { words, seps } = wordsAndSeps(text);
    // each word hashed once; a token mixes its two words' hashes with its separator's (the words of a skipped place too: cheap)
    const hw = [hash(START, seed), ...words.map((w) => hash(w, seed)), hash(END, seed)];
    for (let k = 0; k < seps.length; k++) {
      if (!formPlace(words, seps, k)) continue;
      let h = Math.imul(hw[k]! ^ 0x27d4eb2d, 0x165667b1) ^ hash(seps[k]!, seed ^ 0x5bd1e995);
      h = Math.imul(h ^ (h >>> 15), 0x85ebca77) ^ Math.imul(hw[k + 1]!, 0xc2b2ae3d);
      h ^= h >>> 16;
      const b = h & (RAW_BUCKETS - 1);
      let id = this.buckets[b]!;
      if (id < 0) id = this.buckets[b] = this.vocabulary.id(`${tag}${k === 0 ? START : words[k - 1]}${OPEN}${seps[k]}${CLOSE}${k === words.length ? END : words[k]}`);
      out.push(id);
    }
  }

  /**
   * The tokens of a long text's first line and last line (with the line breaks before it: a
   * blank line more shows), each cut at a space when longer than the window: windows that start
   * where lines do, so that an edit near one end does not shift the other.
   */
  private ends(text: string, tag: string, out: number[]): void {
    if (text.length <= HEAD + TAIL) return this.grams(text, tag, out);
    let h = text.indexOf("\n");
    if (h < 0 || h > HEAD) h = text.lastIndexOf(" ", HEAD);
    this.grams(text.slice(0, h > 0 ? h : HEAD), tag, out);
    // the last line that is not empty, and the line breaks before it
    let end = text.length;
    while (end > 0 && text.charCodeAt(end - 1) === 10) end--;
    let t = text.lastIndexOf("\n", end - 1) + 1;
    if (end - t > TAIL) t = Math.max(t, text.indexOf(" ", end - TAIL) + 1);
    else while (t > 0 && text.charCodeAt(t - 1) === 10) t--;
    this.grams(text.slice(t), tag, out);
  }

  /**
   * Each character of `text` outside printable ASCII (but the line break), once, as a token of
   * its own ("rc:\u00a0"): a look-alike letter or an invisible one that recurs across words is
   * one feature, not a new token per word it touches.
   */
  private chars(text: string, out: number[]): void {
    let seen: Set<number> | null = null;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if ((c >= 32 && c < 127) || c === 10 || seen?.has(c)) continue;
      (seen ??= new Set()).add(c);
    }
    if (seen !== null) for (const c of [...seen].sort((a, b) => a - b)) out.push(this.vocabulary.id(`rc:${String.fromCharCode(c)}`));
  }

  /** The unit's own texts: each one's tokens (tag "r:") and odd characters ("rc:"). */
  texts(texts: readonly string[], out: number[]): void {
    for (const t of texts) {
      this.grams(t, "r:", out);
      this.chars(t, out);
    }
  }

  /** A side of a pair: its text as written, line breaks included. */
  side(text: string, out: number[]): void {
    this.grams(text, "r:", out);
    this.chars(text, out);
  }

  /**
   * What surrounds the unit's text (a chain's problem statement and instruction): the tokens
   * of its head and tail (tag "rq:"), and over all of it the characters outside printable ASCII,
   * runs of spaces, tabs, carriage returns and blank lines (tag "qc:"). Cached per text.
   */
  context(text: string | null, out: number[]): void {
    if (text === null) return;
    let ids = this.contexts.get(text);
    if (ids === undefined) {
      if (this.contexts.size > 4096) this.contexts.clear();
      const o = this.scratch;
      o.length = 0;
      this.ends(text, "rq:", o);
      const seen = new Set<string>();
      let blank = 0;
      for (let i = 0; i < text.length; i++) {
        const c = text.charCodeAt(i);
        if (c === 10 && text.charCodeAt(i + 1) === 10) blank++;
        if ((c >= 32 && c < 127) || c === 10) continue;
        seen.add(text[i]!);
      }
      const tokens = [...[...seen].sort().map((ch) => `qc:${ch}`), `qc:blank${Math.min(blank, 12)}`];
      if (text.includes("  ")) tokens.push("qc:s2");
      for (const t of tokens) o.push(this.vocabulary.id(t));
      ids = Int32Array.from(o);
      this.contexts.set(text, ids);
    }
    for (let i = 0; i < ids.length; i++) out.push(ids[i]!);
  }

  /**
   * The row's id, segment by segment after the domain, digits folded ("p0007/t03/c2" ->
   * "id1:p09", "id2:t09", "id3:c9": zero-padding and letters show), its keys in order, and its
   * other string fields (`f:key=` and the value, digits folded, at most 40 characters).
   */
  meta(raw: RawForm, out: number[]): void {
    const segs = raw.id.split("/");
    for (let i = 1; i < segs.length; i++) {
      const seg = segs[i]!;
      let ids = this.segments[i];
      if (ids === undefined) ids = this.segments[i] = new Map();
      let id = ids.get(seg);
      if (id === undefined) {
        if (ids.size > 4096) ids.clear();
        ids.set(seg, (id = this.vocabulary.id(`id${i}:${form(seg)}`)));
      }
      out.push(id);
    }
    // rows of a dataset share their keys: the last ones' id, compared as a string
    if (raw.keys !== this.lastKeys) [this.lastKeys, this.lastKeysId] = [raw.keys, this.vocabulary.id(`k:${raw.keys}`)];
    out.push(this.lastKeysId);
    for (const [k, v] of raw.fields) {
      out.push(this.vocabulary.id(`f:${k}=${form(v.length > 40 ? v.slice(0, 40) : v)}`));
      // a long one: the tokens of its head and tail, as a context's
      if (v.length > 40) this.ends(v, `f:${k}:`, out);
    }
  }
}
