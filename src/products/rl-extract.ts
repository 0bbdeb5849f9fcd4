/**
 * Answer extraction for RL (docs/rl.md, "What the extractor accepts"): a model's free-form
 * answer reduced to the steps of its plan, each with its place in the answer (character
 * offsets, for trainers that put a step's reward on the step's last token).
 *
 * The extractor never throws on any text. It decides which lines are steps; the judge decides
 * what each step is (a step that names no action is judged `unparseable`, reward 0, with the
 * reason). It knows the domain's action names and arities and the problem's object names
 * (`PlanVocabulary`), so that `unstack(b3, b6)`, `unstack b3 b6` and `Unstack b3 from b6.`
 * read as `(unstack b3 b6)`.
 *
 * In order:
 * 1. `<think>…</think>` (also `<thinking>`, `<reasoning>`) blocks are dropped; an unclosed one
 *    drops the rest of the answer; text before a lone `</think>` (a chat template that opened the
 *    block in the prompt) is dropped too.
 * 2. If the answer has `<answer>…</answer>` (or `<plan>…</plan>`) blocks, only the last one is read.
 * 3. The lines are cut into sections: at code fences, at headings (a Markdown heading, a bold line,
 *    a line ending in ':' that holds no step, "Final plan", "Corrected plan", …) and where a
 *    numbered list starts again at 1.
 * 4. A line is a *PDDL step* when, after its list marker ("1.", "2)", "(3)", "-", "*", "•",
 *    "Step 3:", "**Step 3:**", "#3", "[3]") and Markdown emphasis and backticks, it starts with one
 *    or more actions: `(name args…)` groups (separated by spaces, commas, ';', '->', '→'), a call
 *    `name(args…)`, or `name args…` written with the domain's action and object names (filler
 *    words such as "from", "on", "the" between them are skipped; "First," "Then" before them too);
 *    what follows the actions on the line is commentary. A marked line (list marker or "Step k:")
 *    that is not PDDL is a *text step*, read by the judge's step-text reader (the domain's
 *    language: "Step 3: I unstack block 4 from block 3.").
 * 5. The plan is the section whose heading says final, answer, solution, corrected, revised,
 *    fixed or updated (the last such with a PDDL step, else the last such with a step); else the
 *    last section with a PDDL step; else the last section with text steps (numbered or
 *    "Step k:" lines before bulleted ones). Its steps are its PDDL and text steps in order;
 *    its other lines are commentary.
 * 6. No section has a step: the `(name args…)` groups with a known action name anywhere in the
 *    answer's text, in order ("I would (unstack b3 b6) and then (put-down b3)").
 * 7. None either: every other line is a *candidate* step, kept only if the judge reads it as an
 *    action (`weak` steps: a prose line that names no action is not a step).
 * 8. Nothing: the answer has no plan; the reward gives it one step, reward 0, with the reason.
 */
import type { Domain, Problem } from "../pddl/ast.js";

/** The names a plan may use: the domain's actions (with arity) and the problem's objects. */
export interface PlanVocabulary {
  /** Normalised action name (lower case, no '-', '_' or spaces) -> PDDL name and arity. */
  readonly actions: ReadonlyMap<string, { name: string; arity: number }>;
  /** Object and constant names, lower case. */
  readonly objects: ReadonlySet<string>;
}

/** The vocabulary of a parsed domain and problem. */
export function vocabularyOf(domain: Domain, problem: Problem): PlanVocabulary {
  const actions = new Map<string, { name: string; arity: number }>();
  for (const a of domain.actions) actions.set(normName(a.name), { name: a.name.toLowerCase(), arity: a.params.length });
  const objects = new Set<string>();
  for (const o of [...domain.constants, ...problem.objects]) objects.add(o.name.toLowerCase());
  return { actions, objects };
}

const normName = (s: string): string => s.toLowerCase().replace(/[-_\s]/g, "");

/** One step found in an answer. */
export interface ExtractedStep {
  /** What the judge reads: a PDDL action "(unstack b3 b6)" or a line of step text. */
  text: string;
  /** The line (or inline group) as the model wrote it, trimmed. */
  source: string;
  /** Character offsets of `source` in the answer: [start, end). */
  start: number;
  end: number;
  /** pddl: read from action syntax; text: passed to the judge's step-text reader. */
  kind: "pddl" | "text";
  /** A candidate from a prose line (rule 7): a step only if the judge reads an action in it. */
  weak: boolean;
}

/** What the extractor found in an answer. */
export interface Extraction {
  steps: ExtractedStep[];
  /**
   * Where the steps came from: a section of lines (`lines`), inline groups (`inline`), prose
   * candidates (`prose`), or nothing (`none`).
   */
  mode: "lines" | "inline" | "prose" | "none";
  /** Why no step was found (mode `none`), else null. */
  reason: string | null;
}

/* ------------------------------------------------------------------------------------------ */
/* 1-2: the part of the answer that is read                                                    */

/** The answer with everything not read blanked out (same length, newlines kept: offsets hold). */
export function readableText(text: string): { text: string; note: string | null } {
  let t = text.replace(/\r/g, " ");
  const blank = (s: string, from: number, to: number): string => s.slice(0, from) + s.slice(from, to).replace(/[^\n]/g, " ") + s.slice(to);
  let note: string | null = null;
  // a lone closing tag: the chat template opened the block in the prompt
  const open = /<(think|thinking|reasoning)>/i;
  const close = /<\/(think|thinking|reasoning)>/i;
  const firstClose = close.exec(t);
  const firstOpen = open.exec(t);
  if (firstClose !== null && (firstOpen === null || firstOpen.index > firstClose.index)) t = blank(t, 0, firstClose.index + firstClose[0].length);
  for (;;) {
    const o = open.exec(t);
    if (o === null) break;
    const rest = t.slice(o.index + o[0].length);
    const c = close.exec(rest);
    if (c === null) {
      t = blank(t, o.index, t.length);
      note = "the answer ends inside an unclosed <think> block";
      break;
    }
    t = blank(t, o.index, o.index + o[0].length + c.index + c[0].length);
  }
  const tags = [...t.matchAll(/<(answer|plan)>([\s\S]*?)<\/\1>/gi)];
  if (tags.length > 0) {
    const last = tags[tags.length - 1]!;
    const from = last.index! + last[0].indexOf(">") + 1;
    const to = last.index! + last[0].length - `</${last[1]}>`.length;
    t = blank(blank(t, 0, from), to, t.length);
  } else {
    // an <answer> the model never closed: read what follows it
    const o = /<(answer|plan)>/i.exec(t);
    if (o !== null) t = blank(t, 0, o.index + o[0].length);
  }
  return { text: t, note };
}

/* ------------------------------------------------------------------------------------------ */
/* 4: what a line is                                                                           */

interface Line {
  /** The line in the readable text, offsets into the answer. */
  raw: string;
  start: number;
  end: number;
}

type LineKind =
  | { kind: "blank" }
  | { kind: "fence" }
  | { kind: "heading"; text: string }
  | { kind: "step"; pddl: string[] | null; body: string; marker: "number" | "step" | "bullet" | null; number: number | null; exact: boolean }
  | { kind: "prose"; body: string };

/** "Step 3:", "3.", "3)", "(3)", "#3", "[3]", "-", "*", "•", "+" (after Markdown emphasis is removed). */
const MARKER =
  /^(?:(?:step|action|move)\s*(\d+)\s*[:.)\-–—]?|(\d+)\s*[.):\-–—](?!\d)|\((\d+)\)|#(\d+)[.:)]?|\[(\d+)\][.:]?|([-*•+·▪◦]))\s*/i;
const HEADING_WORDS = /\b(final|answer|solution|corrected|revised|fixed|updated|plan|steps|actions)\b/i;
const FINAL_HEADING = /\b(final|answer|solution|corrected|revised|fixed|updated|correct plan|new plan)\b/i;
/** Words a model puts before or between an action and its arguments. */
const FILLER = new Set([
  "the", "a", "an", "from", "on", "onto", "to", "at", "in", "into", "with", "using", "off", "of", "by", "via", "and", "block", "object",
  "top", "table", "ontop", "over", "toward", "towards", "for", "args", "arguments", "parameters",
]);
const LEAD = /^(?:(?:first(?:ly)?|second(?:ly)?|then|next|now|finally|lastly|after that|afterwards|and|so|i|we|i will|we will|i'll|we'll|let's|let us|do|execute|perform|apply)(?:[,:]?\s+))+/i;

/** A name like an object's: letters, then digits ("b9", "loc12", "truck_3"). */
const OBJECT_LIKE = /^[a-z][a-z_\-]*\d+$/;
/** Lower-case identifier characters PDDL names use (letters, digits, '-', '_'). */
const NAME = /^[a-z0-9][a-z0-9_\-]*$/i;

function stripEmphasis(s: string): string {
  return s.replace(/\*\*|__|`/g, "").replace(/^\*(?=\S)|(?<=\S)\*$/g, "").trim();
}

/**
 * The actions at the start of `body`, as PDDL, or null. `exact`: nothing but actions and
 * commentary after a separator (loose: `Unstack b3 from b6 to free block 6`).
 */
export function leadingActions(body: string, vocab: PlanVocabulary): { actions: string[]; exact: boolean } | null {
  const s = body.trim();
  if (s.startsWith("(")) return parenGroups(s, vocab);
  const call = /^([a-z][\w-]*)\s*\(([^()]*)\)/i.exec(s);
  if (call !== null && vocab.actions.has(normName(call[1]!))) {
    const a = vocab.actions.get(normName(call[1]!))!;
    const args = call[2]!.split(/[\s,]+/).filter((x) => x.length > 0).map((x) => x.replace(/^['"]|['"]$/g, "").toLowerCase());
    const rest = s.slice(call[0].length).trim();
    // several calls on one line: "pick-up(b1), stack(b1, b2)"
    const more = rest.length > 0 && /^[,;]?\s*(->|→|then\b)?\s*[a-z][\w-]*\s*\(/i.test(rest) ? leadingActions(rest.replace(/^[,;]?\s*(->|→|then\b)?\s*/i, ""), vocab) : null;
    return { actions: [`(${[a.name, ...args].join(" ")})`, ...(more?.actions ?? [])], exact: more !== null ? more.exact : rest.length === 0 || /^[;#,.\-–—:|]|^\/\//.test(rest) };
  }
  return bareAction(s, vocab);
}

/** `(a b c)` groups at the start of `s`. */
function parenGroups(s: string, vocab: PlanVocabulary): { actions: string[]; exact: boolean } | null {
  const actions: string[] = [];
  let rest = s;
  for (;;) {
    const m = /^\(\s*([^()\s]+)((?:\s+[^()\s]+)*)\s*\)/.exec(rest);
    if (m === null) break;
    const head = m[1]!.toLowerCase();
    const args = m[2]!.trim().length > 0 ? m[2]!.trim().split(/\s+/).map((a) => a.replace(/,$/, "").toLowerCase()) : [];
    const known = vocab.actions.get(normName(head));
    const namesOnly = NAME.test(head) && args.every((a) => NAME.test(a) || /^\?[\w-]+$/.test(a));
    // a group that names a known action, or a PDDL-shaped group over known objects (a wrong action name)
    if (!(known !== undefined && namesOnly) && !(namesOnly && args.some((a) => vocab.objects.has(a)))) break;
    actions.push(`(${[known?.name ?? head, ...args].join(" ")})`);
    rest = rest.slice(m[0].length).replace(/^\s*(?:,|->|→|=>|then\b)?\s*/i, "");
  }
  if (actions.length === 0) return null;
  return { actions, exact: rest.length === 0 || /^[;#,.\-–—:|(]|^\/\//.test(rest) };
}

/** `unstack b3 b6`, `Unstack b3 from b6.`, `pick up b1`, with the domain's names. */
function bareAction(s0: string, vocab: PlanVocabulary): { actions: string[]; exact: boolean } | null {
  const direct = bareActionAt(s0, vocab);
  if (direct !== null) return direct;
  const s = s0.replace(LEAD, "");
  return s === s0 ? null : bareActionAt(s, vocab);
}

function bareActionAt(s: string, vocab: PlanVocabulary): { actions: string[]; exact: boolean } | null {
  const tokens = s.split(/\s+/).filter((t) => t.length > 0);
  const clean = (t: string): string => t.replace(/^[("'[]+|[)"'\],.;:!?]+$/g, "").toLowerCase();
  // the action name may be written over 1-3 words ("pick up", "pick-up", "PickUp")
  for (let n = Math.min(3, tokens.length); n >= 1; n--) {
    const a = vocab.actions.get(normName(tokens.slice(0, n).map(clean).join("")));
    if (a === undefined) continue;
    const args: string[] = [];
    let i = n;
    let ok = true;
    while (i < tokens.length && args.length < a.arity) {
      const t = clean(tokens[i]!);
      if (vocab.objects.has(t)) args.push(t);
      else if (!FILLER.has(t) && t.length > 0) {
        ok = false;
        break;
      }
      i++;
    }
    if (!ok) {
      // a wrong number of objects and nothing else ("stack b1"): the judge names the arity
      const rest = tokens.slice(n).map(clean).filter((t) => t.length > 0);
      if (args.length > 0 && rest.every((t) => vocab.objects.has(t) || FILLER.has(t))) {
        return { actions: [`(${[a.name, ...rest.filter((t) => vocab.objects.has(t))].join(" ")})`], exact: true };
      }
      // names shaped like the problem's ("b9" beside b1..b6): the judge names the unknown object
      const named = rest.filter((t) => !FILLER.has(t));
      if (named.length === a.arity && named.every((t) => vocab.objects.has(t) || OBJECT_LIKE.test(t))) {
        return { actions: [`(${[a.name, ...named].join(" ")})`], exact: true };
      }
      return null;
    }
    if (args.length < a.arity) {
      if (args.length === 0) return null;
      return { actions: [`(${[a.name, ...args].join(" ")})`], exact: i >= tokens.length };
    }
    const rest = tokens.slice(i).join(" ");
    // extra objects after the arguments: more arguments than the action has
    const restTokens = tokens.slice(i).map(clean).filter((t) => t.length > 0);
    if (restTokens.length > 0 && restTokens.every((t) => vocab.objects.has(t))) {
      return { actions: [`(${[a.name, ...args, ...restTokens].join(" ")})`], exact: true };
    }
    return { actions: [`(${[a.name, ...args].join(" ")})`], exact: rest.length === 0 || /^[;#,.\-–—:|(]|^\/\//.test(rest) };
  }
  return null;
}

function classify(raw: string, vocab: PlanVocabulary): LineKind {
  const t = raw.trim();
  if (t.length === 0) return { kind: "blank" };
  if (/^(```|~~~)/.test(t)) return { kind: "fence" };
  if (/^(;|\/\/|%)/.test(t)) return { kind: "prose", body: t };
  if (/^#{1,6}\s/.test(t)) return { kind: "heading", text: t.replace(/^#+\s*/, "") };
  let s = stripEmphasis(t);
  // "Plan: (a) (b)", "Answer: 1. ..." : a label before the steps
  s = s.replace(/^(?:final\s+)?(?:plan|answer|solution|actions?)\s*[:=]\s*(?=\S)/i, "");
  const m = MARKER.exec(s);
  let marker: "number" | "step" | "bullet" | null = null;
  let number: number | null = null;
  let body = s;
  if (m !== null && !(m[6] !== undefined && m[0].trim() === s.trim())) {
    const n = m[1] ?? m[2] ?? m[3] ?? m[4] ?? m[5];
    marker = m[1] !== undefined ? "step" : n !== undefined ? "number" : "bullet";
    number = n !== undefined ? Number(n) : null;
    body = stripEmphasis(s.slice(m[0].length));
  }
  // "Step 1:" alone, "1." alone: a label (its step may be on the next line)
  if (marker !== null && body.length === 0) return { kind: "prose", body: "" };
  const acts = leadingActions(body, vocab);
  if (acts !== null && (marker !== null || acts.exact)) return { kind: "step", pddl: acts.actions, body, marker, number, exact: acts.exact };
  if (marker === null || marker === "bullet") {
    const isHeading =
      (/[:：]$/.test(s) && s.length <= 80) || (/^\*\*.*\*\*:?$/.test(t) && t.length <= 80) || (FINAL_HEADING.test(s) && HEADING_WORDS.test(s) && s.length <= 60 && !/[.!?]$/.test(s));
    if (isHeading && marker === null) return { kind: "heading", text: s };
  }
  if (marker !== null) return { kind: "step", pddl: null, body, marker, number, exact: false };
  return { kind: "prose", body: s };
}

/* ------------------------------------------------------------------------------------------ */
/* 3, 5-7: sections and the plan                                                               */

interface Section {
  heading: string | null;
  lines: Array<{ line: Line; kind: Extract<LineKind, { kind: "step" }> }>;
  hasPddl: boolean;
  numbered: boolean;
}

function linesOf(text: string): Line[] {
  const out: Line[] = [];
  let start = 0;
  for (const raw of text.split("\n")) {
    out.push({ raw, start, end: start + raw.length });
    start += raw.length + 1;
  }
  return out;
}

/** Trimmed offsets of a line. */
function trimmed(l: Line): { start: number; end: number } {
  const lead = l.raw.length - l.raw.trimStart().length;
  const trail = l.raw.length - l.raw.trimEnd().length;
  return { start: l.start + lead, end: l.end - trail };
}

/** Step text for the judge's reader: its capitals are those of the templates (lower case, "I"). */
export function readerText(body: string): string {
  let t = body.trim();
  if (t.length > 1 && t === t.toUpperCase() && /[A-Z]/.test(t)) t = t.toLowerCase().replace(/\bi\b/g, "I");
  else if (/^[A-Z][a-z]/.test(t) && !/^I\b/.test(t)) t = t[0]!.toLowerCase() + t.slice(1);
  return t;
}

/** The plan in a model's answer (see the module comment for the rules). Never throws. */
export function extractPlan(answer: string, vocab: PlanVocabulary): Extraction {
  if (typeof answer !== "string") return { steps: [], mode: "none", reason: "the answer is not text" };
  const { text, note } = readableText(answer);
  const lines = linesOf(text);
  const sections: Section[] = [];
  let cur: Section = { heading: null, lines: [], hasPddl: false, numbered: false };
  let lastNumber: number | null = null;
  const open = (heading: string | null) => {
    if (cur.lines.length > 0 || cur.heading !== null) sections.push(cur);
    cur = { heading, lines: [], hasPddl: false, numbered: false };
    lastNumber = null;
  };
  const prose: Line[] = [];
  for (const line of lines) {
    const k = classify(line.raw, vocab);
    if (k.kind === "blank") continue;
    if (k.kind === "fence") {
      open(cur.heading);
      continue;
    }
    if (k.kind === "heading") {
      open(k.text);
      continue;
    }
    if (k.kind === "prose") {
      if (k.body.length > 0) prose.push(line);
      continue;
    }
    if (k.number !== null) {
      // a list that starts again: a new attempt
      if (k.number === 1 && lastNumber !== null) open(null);
      lastNumber = k.number;
    }
    cur.lines.push({ line, kind: k });
    if (k.pddl !== null && (k.exact || k.marker !== null)) cur.hasPddl = true;
    if (k.marker === "number" || k.marker === "step") cur.numbered = true;
  }
  open(null);
  const withSteps = sections.filter((s) => s.lines.length > 0);
  const finals = withSteps.filter((s) => s.heading !== null && FINAL_HEADING.test(s.heading));
  const pick =
    finals.filter((s) => s.hasPddl).at(-1) ??
    finals.at(-1) ??
    withSteps.filter((s) => s.hasPddl).at(-1) ??
    withSteps.filter((s) => s.numbered).at(-1) ??
    withSteps.at(-1);
  if (pick !== undefined) {
    const steps: ExtractedStep[] = [];
    for (const { line, kind } of pick.lines) {
      const { start, end } = trimmed(line);
      const source = answer.slice(start, end);
      if (kind.pddl !== null) {
        for (const a of kind.pddl) steps.push({ text: a, source, start, end, kind: "pddl", weak: false });
      } else {
        steps.push({ text: readerText(kind.body), source, start, end, kind: "text", weak: false });
      }
    }
    return { steps, mode: "lines", reason: null };
  }
  // 6: PDDL groups inside prose
  const inline: ExtractedStep[] = [];
  for (const m of text.matchAll(/\(\s*([^()\s]+)((?:\s+[^()\s]+)*)\s*\)/g)) {
    const a = vocab.actions.get(normName(m[1]!));
    if (a === undefined) continue;
    const args = m[2]!.trim().length > 0 ? m[2]!.trim().split(/\s+/).map((x) => x.toLowerCase()) : [];
    if (!args.every((x) => NAME.test(x))) continue;
    inline.push({ text: `(${[a.name, ...args].join(" ")})`, source: answer.slice(m.index!, m.index! + m[0].length), start: m.index!, end: m.index! + m[0].length, kind: "pddl", weak: false });
  }
  if (inline.length > 0) return { steps: inline, mode: "inline", reason: null };
  // 7: prose lines the judge may read as actions
  const weak: ExtractedStep[] = [];
  for (const line of prose) {
    const { start, end } = trimmed(line);
    const body = stripEmphasis(line.raw.trim());
    if (body.length === 0 || body.length > 400) continue;
    const acts = bareAction(body, vocab);
    if (acts !== null) for (const a of acts.actions) weak.push({ text: a, source: answer.slice(start, end), start, end, kind: "pddl", weak: true });
    else weak.push({ text: readerText(body), source: answer.slice(start, end), start, end, kind: "text", weak: true });
  }
  if (weak.length > 0) return { steps: weak, mode: "prose", reason: null };
  const reason =
    note !== null ? `no plan found: ${note}` : answer.trim().length === 0 ? "no plan found: the answer is empty" : "no plan found: no line of the answer is a step";
  return { steps: [], mode: "none", reason };
}
