/**
 * The raw probe's view of a row (issue 55): what a trainer reads, byte for byte, beyond the
 * words. The word probes lowercase, split on punctuation and read sets; a model reads the
 * characters. Here nothing is normalised: white space (a no-break space, two spaces, a blank
 * line), case, Unicode look-alikes, punctuation, sentence order, the row's id and its other
 * string fields are all seen, as hashed character n-grams in a bounded number of buckets.
 *
 * Cost: the card's audit runs after every `generate`, so the n-grams are taken over the text's
 * *form* (`skeleton`): a lowercase ASCII word inside a sentence, which the word probes read,
 * becomes "~" (a run of them one "≈"); everything else stays as written. A step of ~230
 * characters gives ~35 distinct 3-grams instead of ~300 n-grams of its characters.
 */
import type { Vocabulary } from "./measures.js";
import type { RawForm } from "./units.js";

/** Buckets of the hashed n-grams (2^16): the vocabulary the raw probe can add is bounded. */
export const RAW_BUCKETS = 1 << 16;

/** Sentinels around a text, so that its first and last characters make n-grams of their own. */
const START = "␂";
const END = "␃";

/**
 * The form of a text: a lowercase ASCII word that does not open a sentence becomes "~", and a
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

/** Characters of a context read as n-grams at its head and tail (the rest: a summary). */
const HEAD = 120;
const TAIL = 400;

/**
 * Interns the raw probe's tokens of units: n-grams hashed to `RAW_BUCKETS` buckets (a bucket's
 * token is named by the first n-gram that fell in it), the rest as tagged strings.
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

  /** The 3-grams of `text`'s skeleton, in the hash space of `tag` (its first character code). */
  private grams(text: string, tag: string, out: number[]): void {
    const s = START + skeleton(text) + END;
    const seed = Math.imul(tag.charCodeAt(0) + 1, 0x27d4eb2d) ^ Math.imul(tag.length, 0x165667b1);
    for (let i = 0; i + 3 <= s.length; i++) {
      let h = seed ^ Math.imul(s.charCodeAt(i), 0x9e3779b1);
      h = Math.imul(h ^ (h >>> 15), 0x85ebca77) ^ Math.imul(s.charCodeAt(i + 1), 0xc2b2ae3d);
      h = Math.imul(h ^ (h >>> 13), 0x27d4eb2f) ^ Math.imul(s.charCodeAt(i + 2), 0x165667b1);
      h ^= h >>> 16;
      const b = h & (RAW_BUCKETS - 1);
      let id = this.buckets[b]!;
      if (id < 0) id = this.buckets[b] = this.vocabulary.id(tag + s.slice(i, i + 3));
      out.push(id);
    }
  }

  /**
   * The n-grams of a long text's first line and last line (with the line breaks before it: a
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

  /** The unit's own texts: each one's n-grams (tag "r:"). */
  texts(texts: readonly string[], out: number[]): void {
    for (const t of texts) this.grams(t, "r:", out);
  }

  /** A side of a pair: its text as written, n-grams and line structure. */
  side(text: string, out: number[]): void {
    this.grams(text, "r:", out);
  }

  /**
   * What surrounds the unit's text (a chain's problem statement and instruction): n-grams of
   * its head and tail (tag "rq:"), and over all of it the characters outside printable ASCII,
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
   * The row's id, segment by segment after the domain, as skeletons ("p0007/t03/c2" ->
   * "id1:p09", "id2:t09", "id3:c9": zero-padding shows), its keys in order, and its other
   * string fields (`f:key=` and the value's skeleton, at most 40 characters).
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
        ids.set(seg, (id = this.vocabulary.id(`id${i}:${skeleton(seg)}`)));
      }
      out.push(id);
    }
    // rows of a dataset share their keys: the last ones' id, compared as a string
    if (raw.keys !== this.lastKeys) [this.lastKeys, this.lastKeysId] = [raw.keys, this.vocabulary.id(`k:${raw.keys}`)];
    out.push(this.lastKeysId);
    for (const [k, v] of raw.fields) {
      out.push(this.vocabulary.id(`f:${k}=${skeleton(v.length > 40 ? v.slice(0, 40) : v)}`));
      // a long one: the n-grams of its head and tail, as a context's
      if (v.length > 40) this.ends(v, `f:${k}:`, out);
    }
  }
}
