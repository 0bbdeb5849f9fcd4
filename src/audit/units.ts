/**
 * What the audit looks at in a row of each format: a candidate step (native, trl, openrlhf,
 * math-shepherd; each assistant turn of a feedback dialogue), a chain (processbench, verifier)
 * or a pair of sides (pairs, trajectories), reduced to the surface features the shortcut rules
 * read and the words and action types the two classifiers read.
 */
import type { Format } from "../dataset/formats.js";
import { STEP_TAG } from "../dataset/formats.js";
import type { Split } from "../dataset/row.js";
import { UserError } from "../pddl/errors.js";
import { pddlAct, type Act, type StepTextParser } from "./actions.js";
import { hashString } from "../util/prng.js";
import { words } from "./measures.js";
import type { ShardRow } from "./read.js";

/**
 * The form of a row as a trainer reads it, for the raw probe (src/audit/raw.ts): nothing here is
 * tokenised or normalised.
 */
export interface RawForm {
  /** The unit's own text, verbatim: a step with its marker, a chain's steps, an option. */
  texts: string[];
  /** Text the row shows around it that may differ between its units (a chain's problem statement and instruction), or null. */
  context: string | null;
  /** The row's id. */
  id: string;
  /** The row's top-level keys, in order. */
  keys: string;
  /** The row's other top-level string fields (not text, label or split): [key, value]. */
  fields: [string, string][];
  /** Where the row is: its shard file and line (the audit's row-order rules). */
  file: string;
  line: number;
}

/** One candidate step of a step format (or one assistant turn of a dialogue): its label is its category. */
export interface StepUnit {
  kind: "step";
  id: string;
  problem: string;
  split: Split;
  category: string;
  /** Steps in the row (prefix + candidate; a dialogue: the assistant turns up to this one). */
  steps: number;
  /** Characters of the candidate step (without its "Step k:" marker). */
  chars: number;
  /**
   * Index of the candidate among the steps proposed in its state: the candidates of a step row
   * (`.../cK`); a dialogue's attempts (0, then 1 after a step the environment rejected, ...).
   */
  position: number;
  act: Act | null;
  /** The step before the candidate, null at the first step. */
  prev: Act | null;
  /** Words of the candidate step (without its marker). */
  words: string[];
  /** The candidate step's text (without its marker), as written. */
  text: string;
  /** The previous step's text (without its marker), null at the first step. */
  prevText: string | null;
  /** The problem statement the row shows (prompt, problem, first user turn), or null. */
  prompt: string | null;
  /**
   * The row's state (its id without `/cK`) and a hash of everything the row shows but its
   * candidate (prompt and prefix): the candidates of one state must agree on it. Null where a
   * row has no candidates (feedback turns).
   */
  state: string | null;
  context: number | null;
  raw: RawForm;
}

/** A first-error chain: its label is whether it holds an error. */
export interface ChainUnit {
  kind: "chain";
  id: string;
  problem: string;
  split: Split;
  error: boolean;
  steps: number;
  chars: number;
  /** The chain's index among its problem's (`.../kK`, `.../vK`). */
  position: number;
  acts: (Act | null)[];
  words: string[];
  /** 0-based index of the first wrong step (-1: none). */
  firstError: number;
  /** Characters of each step (without its marker). */
  stepChars: number[];
  /** Each step's text (without its marker). */
  texts: string[];
  /** The problem statement the row shows, or null. */
  prompt: string | null;
  raw: RawForm;
}

/** One side of a preference pair. */
export interface Side {
  steps: number;
  chars: number;
  acts: (Act | null)[];
  /** The step before the side's first (step pairs: the prefix's last), or null. */
  prev: Act | null;
  words: string[];
  /** Each step's text (without its marker). */
  texts: string[];
  /** The side as the row writes it, verbatim (a chat side: its messages' contents, one per line). */
  raw: string;
}

/** A preference pair: its label is which side is chosen. */
export interface PairUnit {
  kind: "pair";
  id: string;
  problem: string;
  split: Split;
  /** The rejected side's category (step pairs) or the perturbation (trajectory pairs). */
  group: string;
  /** Which side is shown first (`first`). */
  first: "chosen" | "rejected";
  chosen: Side;
  rejected: Side;
  /** Rejected steps on a grounding the grounder pruned (a fixed fact rules them out in any state). */
  pruned: number;
}

export type Unit = StepUnit | ChainUnit | PairUnit;

/** The kind of unit a format's rows are (a feedback dialogue: one step unit per assistant turn). */
export function unitKind(format: Format): Unit["kind"] {
  return format === "processbench" || format === "verifier" ? "chain" : format === "pairs" || format === "trajectories" ? "pair" : "step";
}

const MARKER = /^\s*Step \d+:\s*/;

/** A step's text without its "Step k:" marker. */
function body(step: string): string {
  const m = MARKER.exec(step);
  return m === null ? step : step.slice(m[0].length);
}

/**
 * Top-level fields that are not "other strings" for the raw probe: the texts a unit reads, the
 * labels and what is derived from them, the side metadata of pairs, the split (held-out rows
 * are never "train": it would tell a test row from a train row, nothing about its label).
 */
const NOT_FREE = new Set([
  "id", "prompt", "completions", "completion", "labels", "rewards", "category", "critique", "meta", "label", "steps", "score", "value", "input",
  "task", "chosen", "rejected", "margin", "first", "perturbation", "level", "messages", "question", "choices", "answer", "kind", "form", "split",
  // the domain: every action type names it
  "domain",
]);

/** The raw form of a row: `texts` its unit's own text(s), `context` what surrounds them. */
function rawForm(row: ShardRow, texts: string[], context: string | null): RawForm {
  const o = row.obj;
  const keys = Object.keys(o);
  const fields: [string, string][] = [];
  for (const k of keys) {
    const v = o[k];
    // (processbench's `problem` is the chain's context, read as such)
    if (typeof v === "string" && v !== context && !NOT_FREE.has(k) && !k.startsWith("chosen_") && !k.startsWith("rejected_")) fields.push([k, v]);
  }
  return { texts, context, id: typeof o["id"] === "string" ? o["id"] : "", keys: keys.join(","), fields, file: row.file, line: row.line };
}

function bad(row: ShardRow, format: string, what: string): never {
  throw new UserError(`${row.file}:${row.line}: not a ${format} row (${what})`);
}

function str(row: ShardRow, format: string, key: string): string {
  const v = row.obj[key];
  if (typeof v !== "string") bad(row, format, `no string '${key}'`);
  return v;
}

/** "domain/problem/..." ids: the problem key and the trailing index after `letter`. */
function idParts(row: ShardRow, format: string, letter: string): { id: string; domain: string; problem: string; index: number } {
  const id = str(row, format, "id");
  const parts = id.split("/");
  const m = new RegExp(`^${letter}(\\d+)$`).exec(parts[parts.length - 1] ?? "");
  if (parts.length < 3) bad(row, format, `id '${id}' is not domain/problem/...`);
  return { id, domain: parts[0]!, problem: parts[1]!, index: m === null ? 0 : Number(m[1]) };
}

/** Text of a preference field: a string, or chat messages (`--chat`). */
function prefText(row: ShardRow, format: string, key: string): string {
  const v = row.obj[key];
  if (typeof v === "string") return v;
  if (Array.isArray(v)) return v.map((m) => (m !== null && typeof m === "object" ? String((m as Record<string, unknown>)["content"] ?? "") : "")).join("\n");
  bad(row, format, `no '${key}'`);
}

/** The steps of an openrlhf / math-shepherd input: its last `n` lines, without their marks. */
function taggedSteps(input: string, n: number): string[] {
  const lines = input.split("\n");
  return lines.slice(Math.max(0, lines.length - n)).map((l) => l.replace(new RegExp(`\\s*${STEP_TAG}$`), ""));
}

/** A chain unit of steps `stepTexts` whose first wrong step is `firstError`. */
function chain(row: ShardRow, ids: { id: string; domain: string; problem: string; index: number }, stepTexts: string[], actions: unknown, firstError: number, prompt: string | null, context: string | null): ChainUnit {
  const s = side(ids.domain, stepTexts, actions, null);
  const stepChars = s.texts.map((t) => t.length);
  const raw = rawForm(row, stepTexts, context);
  return { kind: "chain", id: ids.id, problem: `${ids.domain}/${ids.problem}`, split: row.split, error: firstError >= 0, steps: s.steps, chars: s.chars, position: ids.index, acts: s.acts, words: s.words, firstError, stepChars, texts: s.texts, prompt, raw };
}

/** The chain of a verifier prompt: the `length` lines after "Proposed solution:" (the completion is the target, not read). */
function verifierSteps(row: ShardRow, prompt: string, length: unknown): string[] {
  const at = prompt.indexOf(PROPOSED);
  if (at < 0 || typeof length !== "number") bad(row, "verifier", `no '${PROPOSED.trim()}' chain in 'prompt' or no 'meta.length'`);
  const lines = prompt.slice(at + PROPOSED.length).split("\n").slice(0, length);
  if (lines.length !== length || lines.some((l) => !MARKER.test(l))) bad(row, "verifier", `the chain in 'prompt' does not have meta.length = ${length} steps`);
  return lines;
}

const PROPOSED = "Proposed solution:\n";

/**
 * One step unit per assistant turn of a feedback episode: its label is `meta.categories[i]`.
 * A dialogue row holds every turn; a row of `--style turns` holds the turns up to its
 * completion, so each turn is read once: from the row of the first good turn at or after it
 * (a mistake that no good turn follows is in no row, and has no unit).
 */
function feedbackUnits(row: ShardRow): StepUnit[] {
  const format = "feedback";
  const turnRow = Array.isArray(row.obj["prompt"]) && Array.isArray(row.obj["completion"]);
  const { id, domain, problem } = idParts(row, format, turnRow ? "t" : "f");
  const messages = turnRow ? [...(row.obj["prompt"] as unknown[]), ...(row.obj["completion"] as unknown[])] : row.obj["messages"];
  const meta = (row.obj["meta"] ?? {}) as Record<string, unknown>;
  const categories = meta["categories"];
  const actions = Array.isArray(meta["actions"]) ? meta["actions"] : [];
  if (!Array.isArray(messages) || !Array.isArray(categories)) bad(row, format, turnRow ? "no 'prompt', 'completion' and 'meta.categories'" : "no 'messages' and 'meta.categories'");
  const turns = messages.filter((m): m is Record<string, unknown> => m !== null && typeof m === "object" && (m as Record<string, unknown>)["role"] === "assistant");
  // the message before each assistant turn (the environment's answer to the turn before), verbatim: the raw probe's context
  const before = (messages as unknown[]).flatMap((m, i) =>
    m !== null && typeof m === "object" && (m as Record<string, unknown>)["role"] === "assistant" ? [i > 0 ? String(((messages as unknown[])[i - 1] as Record<string, unknown>)?.["content"] ?? "") : null] : [],
  );
  // the problem statement: the first user turn
  const user = (messages as unknown[]).find((m): m is Record<string, unknown> => m !== null && typeof m === "object" && (m as Record<string, unknown>)["role"] === "user");
  const prompt = user === undefined ? null : String(user["content"] ?? "");
  if (!turnRow && turns.length !== categories.length) bad(row, format, `${turns.length} assistant turns but ${categories.length} categories`);
  if (turnRow && (turns.length !== Number(meta["turn"]) + 1 || categories[turns.length - 1] !== "optimal")) {
    bad(row, format, `${turns.length} assistant turns up to the completion, but meta.turn ${String(meta["turn"])} of categories ${JSON.stringify(categories)}`);
  }
  // a turn row's own turns: after the previous good turn, up to its completion
  let from = 0;
  if (turnRow) for (let j = turns.length - 2; j >= 0; j--) if (categories[j] === "optimal") { from = j + 1; break; }
  const dialogueId = turnRow ? id.slice(0, id.lastIndexOf("/")) : id;
  const out: StepUnit[] = [];
  let attempt = 0;
  turns.forEach((m, i) => {
    // the attempt at this state: a rejected step leaves the agent where it was
    attempt = i > 0 && categories[i - 1] === "non-executable" ? attempt + 1 : 0;
    if (i < from) return;
    const content = String(m["content"] ?? "");
    const b = body(content);
    const prevText = i > 0 ? body(String(turns[i - 1]!["content"] ?? "")) : null;
    out.push({
      kind: "step",
      id: `${dialogueId}/t${i}`,
      problem: `${domain}/${problem}`,
      split: row.split,
      category: String(categories[i]),
      steps: i + 1,
      chars: b.length,
      position: attempt,
      act: pddlAct(domain, actions[i]),
      prev: i > 0 ? pddlAct(domain, actions[i - 1]) : null,
      words: words(b),
      text: b,
      prevText,
      prompt,
      state: null,
      context: null,
      raw: rawForm(row, [content], i === 0 ? null : before[i] ?? null),
    });
  });
  return out;
}

/** How many of `actions` are groundings the grounder pruned (a fixed fact rules them out). */
function pruned(parser: StepTextParser, domain: string, problem: string, actions: unknown[]): number {
  return actions.filter((a) => parser.prunedGrounding(domain, problem, pddlAct(domain, a)) === true).length;
}

function side(domain: string, stepTexts: string[], actions: unknown, prev: Act | null, raw = ""): Side {
  const bodies = stepTexts.map(body);
  const acts = Array.isArray(actions) ? actions.map((a) => pddlAct(domain, a)) : [];
  return { steps: stepTexts.length, chars: bodies.reduce((a, b) => a + b.length, 0), acts, prev, words: bodies.flatMap(words), texts: bodies, raw };
}

/** The units of one row of `format` (one, but a dialogue's turns and a question's options); `parser` recovers actions from text where rows have none. */
export function toUnits(format: Format, row: ShardRow, parser: StepTextParser): Unit[] {
  return format === "feedback" ? feedbackUnits(row) : format === "acp" ? acpUnits(row) : [toUnit(format, row, parser)];
}

/**
 * The units of a reasoning question (`--format acp`): a yes/no question is one unit labelled by
 * its answer, its "action" the question's kind; each option of a choice is a unit labelled right
 * or wrong, at its place among the options (so a right answer that is always longer, or often
 * first, shows as it would among a state's candidates). Free answers have no label to leak (a
 * free list's options are read by the odd-one-out rules, src/audit/options.ts).
 */
function acpUnits(row: ShardRow): StepUnit[] {
  const format = "acp";
  const { id, domain, problem } = idParts(row, format, "x");
  const kind = str(row, format, "kind");
  const form = str(row, format, "form");
  const question = str(row, format, "question");
  const answer = str(row, format, "answer");
  const base = { kind: "step" as const, problem: `${domain}/${problem}`, split: row.split, steps: 1, prev: null, prevText: null };
  const meta = (row.obj["meta"] ?? {}) as Record<string, unknown>;
  const items = Array.isArray(meta["items"]) ? meta["items"].map(String) : [];
  // the "action" of a question: its kind and form, and the item asked about (an action's schema
  // and objects, a fact's predicate and objects, step numbers), as a step row's action is its
  // type and objects: the probes then measure what the wording adds beyond the item
  const actOf = (suffix: string, item: string | undefined): Act => {
    if (item === undefined) return { type: `${domain}/${kind}:${suffix}`, args: [] };
    const atoms = [...item.matchAll(/\(([^()]*)\)/g)].map((m) => m[1]!.trim().split(/\s+/));
    if (atoms.length === 0) return { type: `${domain}/${kind}:${suffix}:steps${item.split("+").length}`, args: item.split("+") };
    return { type: `${domain}/${kind}:${suffix}:${atoms.map((a) => a[0]).join("&")}`, args: atoms.flatMap((a) => a.slice(1)) };
  };
  if (form === "yes-no") {
    const cut = question.lastIndexOf("\n\n");
    const text = question.slice(cut + 2);
    if (answer !== "yes" && answer !== "no") bad(row, format, `a yes/no answer '${answer}'`);
    return [{ ...base, id, category: answer, chars: text.length, position: 0, act: actOf("yes-no", items[0]), words: words(text), text, prompt: question.slice(0, Math.max(0, cut)), state: null, context: null, raw: rawForm(row, [text], null) }];
  }
  if (form !== "choice") return [];
  const choices = row.obj["choices"];
  if (!Array.isArray(choices) || choices.length === 0) bad(row, format, "a choice without 'choices'");
  const right = "ABCD".indexOf(answer);
  if (right < 0 || right >= choices.length) bad(row, format, `a choice answer '${answer}'`);
  const stem = question.slice(0, question.lastIndexOf("\nA. "));
  const context = hashString(stem);
  // the prior of an option: what all four share (the kind, the predicates or schemas shown) and
  // the objects it names (sorted, once each). Its own predicate and argument count are its form,
  // which must not give the answer away (issue 52: the landmark was the one option of its
  // predicate): the probes measure it rather than the prior absorbing it
  const heads = [...new Set(items.map((x) => actOf("choice", x).type))].sort();
  const type = heads.length === 1 ? heads[0]! : `${domain}/${kind}:choice:${heads.map((h) => h.slice(h.lastIndexOf(":") + 1)).join("|")}`;
  return choices.map((c, i) => {
    const text = String(c);
    const act: Act = { type, args: [...new Set(actOf("choice", items[i]).args)].sort() };
    return { ...base, id: `${id}/o${i}`, category: i === right ? "right" : "wrong", chars: text.length, position: i, act, words: words(text), text, prompt: stem, state: id, context, raw: rawForm(row, [text], null) };
  });
}

function toUnit(format: Exclude<Format, "feedback" | "acp">, row: ShardRow, parser: StepTextParser): Unit {
  const o = row.obj;
  switch (format) {
    case "processbench":
    case "verifier": {
      const ids = idParts(row, format, format === "processbench" ? "k" : "v");
      const meta = (o["meta"] ?? {}) as Record<string, unknown>;
      if (typeof o["label"] !== "number") bad(row, format, "no 'label'");
      let steps: unknown[];
      let prompt: string | null;
      let context: string | null;
      if (format === "processbench") {
        if (!Array.isArray(o["steps"])) bad(row, format, "no 'steps'");
        steps = o["steps"];
        prompt = typeof o["problem"] === "string" ? o["problem"] : null;
        context = prompt;
      } else {
        const text = prefText(row, format, "prompt");
        steps = verifierSteps(row, text, meta["length"]);
        prompt = text.slice(0, text.indexOf(PROPOSED));
        context = text;
      }
      return chain(row, ids, steps.map(String), meta["actions"], o["label"], prompt, context);
    }
    case "pairs":
    case "trajectories": {
      const { id, domain, problem } = idParts(row, format, "p");
      const first = o["first"] === "rejected" ? "rejected" : "chosen";
      const meta = (o["meta"] ?? {}) as Record<string, unknown>;
      if (format === "pairs") {
        const prefix = meta["prefix_actions"];
        const prev = Array.isArray(prefix) && prefix.length > 0 ? pddlAct(domain, prefix[prefix.length - 1]) : null;
        return {
          kind: "pair",
          id,
          problem: `${domain}/${problem}`,
          split: row.split,
          group: String(o["rejected_category"] ?? "all"),
          first,
          chosen: side(domain, [prefText(row, format, "chosen")], [o["chosen_action"]], prev, prefText(row, format, "chosen")),
          rejected: side(domain, [prefText(row, format, "rejected")], [o["rejected_action"]], prev, prefText(row, format, "rejected")),
          pruned: pruned(parser, domain, problem, [o["rejected_action"]]),
        };
      }
      const sideOf = (n: "chosen" | "rejected"): Side => {
        const text = prefText(row, format, n);
        return side(domain, text.split("\n").filter((l) => l.length > 0), o[`${n}_actions`], null, text);
      };
      const rejectedActions = Array.isArray(o["rejected_actions"]) ? (o["rejected_actions"] as unknown[]) : [];
      return {
        kind: "pair",
        id,
        problem: `${domain}/${problem}`,
        split: row.split,
        group: String(o["perturbation"] ?? "all"),
        first,
        chosen: sideOf("chosen"),
        rejected: sideOf("rejected"),
        pruned: pruned(parser, domain, problem, rejectedActions),
      };
    }
    default: {
      const { id, domain, problem, index } = idParts(row, format, "c");
      const category = str(row, format, "category");
      let stepTexts: string[];
      let act: Act | null;
      let prev: Act | null;
      let prompt: string;
      // the candidate as the row writes it (the raw probe)
      let rawCand: string;
      if (format === "native" || format === "trl") {
        const c = o["completions"];
        if (!Array.isArray(c) || c.length === 0) bad(row, format, "no 'completions'");
        stepTexts = c.map(String);
        rawCand = stepTexts[stepTexts.length - 1]!;
        prompt = prefText(row, format, "prompt");
      } else if (format === "paper-prm") {
        const c = o["steps"];
        if (!Array.isArray(c) || c.length === 0) bad(row, format, "no 'steps'");
        stepTexts = c.map((t, i) => `Step ${i + 1}: ${String(t)}`);
        rawCand = String(c[c.length - 1]);
        prompt = str(row, format, "problem");
      } else {
        const input = str(row, format, "input");
        const n = format === "openrlhf" ? (Array.isArray(o["value"]) ? o["value"].length : 0) : input.split(STEP_TAG).length - 1;
        if (n === 0) bad(row, format, "no steps");
        stepTexts = taggedSteps(input, n);
        const lines = input.split("\n");
        rawCand = lines[lines.length - 1]!;
        prompt = lines.slice(0, Math.max(0, lines.length - n)).join("\n");
      }
      const cand = stepTexts[stepTexts.length - 1]!;
      if (format === "native") {
        const meta = (o["meta"] ?? {}) as Record<string, unknown>;
        const prefix = Array.isArray(meta["prefix"]) ? meta["prefix"] : [];
        act = pddlAct(domain, meta["action"]);
        prev = prefix.length > 0 ? pddlAct(domain, prefix[prefix.length - 1]) : null;
      } else {
        act = parser.parse(domain, problem, cand);
        prev = stepTexts.length > 1 ? parser.parse(domain, problem, stepTexts[stepTexts.length - 2]!) : null;
      }
      const b = body(cand);
      const prevText = stepTexts.length > 1 ? body(stepTexts[stepTexts.length - 2]!) : null;
      // everything the row shows but its candidate: the same for every candidate of a state
      const context = hashString(`${prompt}\u0000${stepTexts.slice(0, -1).join("\u0000")}`);
      const state = id.slice(0, id.lastIndexOf("/"));
      return { kind: "step", id, problem: `${domain}/${problem}`, split: row.split, category, steps: stepTexts.length, chars: b.length, position: index, act, prev, words: words(b), text: b, prevText, prompt, state, context, raw: rawForm(row, [rawCand], null) };
    }
  }
}
