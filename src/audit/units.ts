/**
 * What the audit looks at in a row of each format: a candidate step (native, trl, openrlhf,
 * math-shepherd), a chain (processbench) or a pair of sides (pairs, trajectories), reduced to
 * the surface features the shortcut rules read and the words and action types the two
 * classifiers read.
 */
import type { Format } from "../dataset/formats.js";
import { STEP_TAG } from "../dataset/formats.js";
import type { Split } from "../dataset/row.js";
import { UserError } from "../pddl/errors.js";
import { pddlAct, type Act, type StepTextParser } from "./actions.js";
import { words } from "./measures.js";
import type { ShardRow } from "./read.js";

/** One candidate step of a step format: its label is its category. */
export interface StepUnit {
  kind: "step";
  id: string;
  problem: string;
  split: Split;
  category: string;
  /** Steps in the row (prefix + candidate). */
  steps: number;
  /** Characters of the candidate step (without its "Step k:" marker). */
  chars: number;
  /** Index of the candidate among those of its state (`.../cK`). */
  position: number;
  act: Act | null;
  /** The step before the candidate, null at the first step. */
  prev: Act | null;
  /** Words of the candidate step (without its marker). */
  words: string[];
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
  /** The chain's index among its problem's (`.../kK`). */
  position: number;
  acts: (Act | null)[];
  words: string[];
}

/** One side of a preference pair. */
export interface Side {
  steps: number;
  chars: number;
  acts: (Act | null)[];
  /** The step before the side's first (step pairs: the prefix's last), or null. */
  prev: Act | null;
  words: string[];
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
}

export type Unit = StepUnit | ChainUnit | PairUnit;

/** The kind of unit a format's rows are; null for the formats the audit does not read yet. */
export function unitKind(format: Format): Unit["kind"] | null {
  if (format === "feedback" || format === "verifier") return null;
  return format === "processbench" ? "chain" : format === "pairs" || format === "trajectories" ? "pair" : "step";
}

const MARKER = /^\s*Step \d+:\s*/;

/** A step's text without its "Step k:" marker. */
function body(step: string): string {
  const m = MARKER.exec(step);
  return m === null ? step : step.slice(m[0].length);
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

function side(domain: string, stepTexts: string[], actions: unknown, prev: Act | null): Side {
  const bodies = stepTexts.map(body);
  const acts = Array.isArray(actions) ? actions.map((a) => pddlAct(domain, a)) : [];
  return { steps: stepTexts.length, chars: bodies.reduce((a, b) => a + b.length, 0), acts, prev, words: bodies.flatMap(words) };
}

/** The unit of one row of `format`; `parser` recovers actions from text where rows have none. */
export function toUnit(format: Format, row: ShardRow, parser: StepTextParser): Unit {
  const o = row.obj;
  switch (format) {
    case "processbench": {
      const { id, domain, problem, index } = idParts(row, format, "k");
      const steps = o["steps"];
      const meta = o["meta"] as Record<string, unknown> | undefined;
      if (!Array.isArray(steps) || typeof o["label"] !== "number") bad(row, format, "no 'steps' and 'label'");
      const s = side(domain, steps.map(String), meta?.["actions"], null);
      return { kind: "chain", id, problem: `${domain}/${problem}`, split: row.split, error: o["label"] >= 0, steps: s.steps, chars: s.chars, position: index, acts: s.acts, words: s.words };
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
          chosen: side(domain, [prefText(row, format, "chosen")], [o["chosen_action"]], prev),
          rejected: side(domain, [prefText(row, format, "rejected")], [o["rejected_action"]], prev),
        };
      }
      const sideOf = (n: "chosen" | "rejected"): Side => side(domain, prefText(row, format, n).split("\n").filter((l) => l.length > 0), o[`${n}_actions`], null);
      return { kind: "pair", id, problem: `${domain}/${problem}`, split: row.split, group: String(o["perturbation"] ?? "all"), first, chosen: sideOf("chosen"), rejected: sideOf("rejected") };
    }
    default: {
      const { id, domain, problem, index } = idParts(row, format, "c");
      const category = str(row, format, "category");
      let stepTexts: string[];
      let act: Act | null;
      let prev: Act | null;
      if (format === "native" || format === "trl") {
        const c = o["completions"];
        if (!Array.isArray(c) || c.length === 0) bad(row, format, "no 'completions'");
        stepTexts = c.map(String);
      } else {
        const input = str(row, format, "input");
        const n = format === "openrlhf" ? (Array.isArray(o["value"]) ? o["value"].length : 0) : input.split(STEP_TAG).length - 1;
        if (n === 0) bad(row, format, "no steps");
        stepTexts = taggedSteps(input, n);
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
      return { kind: "step", id, problem: `${domain}/${problem}`, split: row.split, category, steps: stepTexts.length, chars: b.length, position: index, act, prev, words: words(b) };
    }
  }
}
