/**
 * Template compilation and small text helpers. A template such as "{x} is on {y}" is compiled
 * once into literal parts and slot indexes, so rendering is plain string concatenation.
 */

/** A compiled template: `parts[0] + v[slots[0]] + parts[1] + ... + parts[n]`. */
export interface Compiled {
  parts: string[];
  /** Index into the placeholder name list the template was compiled against. */
  slots: number[];
  /** The template as written. */
  source: string;
  /**
   * Per slot, a word just before it that is left out when the value starts with it (generic
   * predicate text: "has capacity {c}" with c = capacity-4 reads "has capacity-4").
   */
  elide?: (string | null)[];
}

/** Why a template failed to compile (the caller adds file and key path). */
export class TemplateSyntaxError extends Error {}

/** The placeholder names of a template, in order, e.g. "{x} on {y}" -> ["x", "y"]. */
export function placeholders(src: string): string[] {
  const out: string[] = [];
  let i = 0;
  for (;;) {
    const open = src.indexOf("{", i);
    const close = src.indexOf("}", i);
    if (open < 0) {
      if (close >= 0) throw new TemplateSyntaxError(`unbalanced '}' at offset ${close}`);
      return out;
    }
    if (close >= 0 && close < open) throw new TemplateSyntaxError(`unbalanced '}' at offset ${close}`);
    const end = src.indexOf("}", open + 1);
    const nextOpen = src.indexOf("{", open + 1);
    if (end < 0 || (nextOpen >= 0 && nextOpen < end)) throw new TemplateSyntaxError(`unbalanced '{' at offset ${open}`);
    const name = src.slice(open + 1, end).trim();
    if (name.length === 0) throw new TemplateSyntaxError(`empty placeholder {} at offset ${open}`);
    out.push(name.toLowerCase());
    i = end + 1;
  }
}

/** Collapse runs of whitespace into one space and trim. */
export function normalizeSpace(s: string): string {
  return s.replace(/\s+/g, " ").trim();
}

/**
 * Compile `src` against the allowed placeholder `names`. Throws TemplateSyntaxError naming the
 * first unknown placeholder.
 */
export function compile(src: string, names: readonly string[]): Compiled {
  const text = normalizeSpace(src);
  const ph = placeholders(text);
  const parts: string[] = [];
  const slots: number[] = [];
  let i = 0;
  for (const name of ph) {
    const idx = names.indexOf(name);
    if (idx < 0) {
      const allowed = names.length > 0 ? names.map((n) => `{${n}}`).join(", ") : "none";
      throw new TemplateSyntaxError(`unknown placeholder {${name}} (allowed: ${allowed})`);
    }
    const open = text.indexOf("{", i);
    const close = text.indexOf("}", open);
    parts.push(text.slice(i, open));
    slots.push(idx);
    i = close + 1;
  }
  parts.push(text.slice(i));
  return { parts, slots, source: text };
}

/** Render a compiled template with `values` indexed like the names it was compiled against. */
export function fill(t: Compiled, values: readonly string[]): string {
  const { parts, slots } = t;
  if (t.elide !== undefined) return fillEliding(t, (i) => values[slots[i]!]!);
  let s = parts[0]!;
  for (let i = 0; i < slots.length; i++) s += values[slots[i]!]! + parts[i + 1]!;
  return s;
}

/** `fill` for a template with `elide` words; `value(i)` is the value of slot i. */
export function fillEliding(t: Compiled, value: (i: number) => string): string {
  const { parts, slots } = t;
  let s = "";
  for (let i = 0; i <= slots.length; i++) {
    let part = parts[i]!;
    if (i < slots.length) {
      const v = value(i);
      const w = t.elide![i];
      // "with satellite satellite0" / "with mode mode M" (the rules' lifted names), "with robot
      // robot" (an object named as its type), "toppings topping T" (a plural type's noun) say the word once
      const said = (x: string): boolean => v === x || (v.length > x.length && v.startsWith(x) && /[-_\d ]/.test(v[x.length]!));
      if (w && part.endsWith(` ${w} `) && (said(w) || (w.length > 3 && w.endsWith("s") && said(w.slice(0, -1))))) {
        part = part.slice(0, part.length - w.length - 1);
        if (part.endsWith(" the ")) part = part.slice(0, -4);
      }
      s += part + v;
    } else s += part;
  }
  return s;
}

/**
 * An item whose scope runs to the end of the sentence: "it is not the case that ...", "... such
 * that ...", "either ... or ...". Followed by "and q", it takes q in ("there is no colour C such
 * that c1 is locked C and c1 is not collapsed" reads as one condition on C).
 */
const scoping = (x: string): boolean => x.startsWith("it is not the case that ") || x.includes(" such that ") || x.startsWith("either ");

/**
 * "a", "a and b", "a, b and c". An item with an open scope (`scoping`) goes last, and with
 * several such items the items are parted by semicolons.
 */
export function joinList(items: readonly string[], conj = "and"): string {
  const n = items.length;
  if (n === 0) return "";
  if (n === 1) return items[0]!;
  const open = items.filter((x, i) => i < n - 1 && scoping(x)).length;
  if (open > 0) {
    const last = scoping(items[n - 1]!) ? 1 : 0;
    if (open + last === 1) return joinList([...items.filter((x) => !scoping(x)), ...items.filter((x) => scoping(x))], conj);
    return items.slice(0, -1).join("; ") + `; ${conj} ` + items[n - 1]!;
  }
  let s = items[0]!;
  for (let i = 1; i < n - 1; i++) s += ", " + items[i]!;
  return s + " " + conj + " " + items[n - 1]!;
}

const SMALL = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"];

/** Small counts as words ("three"), larger ones as digits. */
export function countWord(n: number): string {
  return n >= 0 && n < SMALL.length ? SMALL[n]! : String(n);
}

/** Upper-case the first character. */
export function capitalize(s: string): string {
  return s.length === 0 ? s : s[0]!.toUpperCase() + s.slice(1);
}

/** Escape a literal for use inside a RegExp. */
export function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** PDDL name to words: "on-table" -> "on table", "pick_up" -> "pick up". */
export function words(name: string): string {
  return normalizeSpace(name.replace(/^\?/, "").replace(/[-_]+/g, " "));
}

/**
 * Placeholder names of PDDL parameters: "?x" -> "x"; a repeated name (some IPC files declare
 * `(in ?obj ?obj)`) gets its position appended ("obj", "obj2") so every slot stays addressable.
 */
export function paramNames(params: readonly { name: string }[]): string[] {
  const out: string[] = [];
  params.forEach((p, i) => {
    let n = p.name.replace(/^\?/, "").toLowerCase();
    if (out.includes(n)) n = `${n}${i + 1}`;
    while (out.includes(n)) n += "_";
    out.push(n);
  });
  return out;
}

/** "a block", "an object". */
export function withArticle(noun: string): string {
  return (/^[aeiou]/i.test(noun) ? "an " : "a ") + noun;
}

/**
 * First-person text ("I cannot pick up block a, because my hand is not empty") addressed to
 * the one who took the step ("you cannot ..., because your hand is not empty"): critiques
 * written as self-checks become an environment's or a verifier's feedback. Only the capital
 * pronoun "I" and the possessives change; verbs agree except after "I" ("am", "was").
 */
export function secondPerson(text: string): string {
  const out = text
    .replace(/\bI am\b/g, "you are")
    .replace(/\bI was\b/g, "you were")
    .replace(/\bI'm\b/g, "you're")
    .replace(/\bI\b/g, "you")
    .replace(/\bmyself\b/g, "yourself")
    .replace(/\bMy\b/g, "Your")
    .replace(/\bmy\b/g, "your")
    .replace(/\bmine\b/g, "yours");
  // sentence starts ("You cannot ...") after the lower-casing above
  return out.replace(/(^|[.!?]\s+)you\b/g, (_m, lead: string) => `${lead}You`);
}
