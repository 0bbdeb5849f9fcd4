/**
 * Planted shortcuts for the audit's mutation suite: each rewrites a copy of a clean dataset
 * folder so that a surface feature gives the label away (issue 40's eleven, and the ones the
 * audit caught before), the way a buggy generator would. The audit must fail on every one and
 * name the feature.
 */
import { rewriteShards } from "../bench/plants-55.js";

type Row = Record<string, unknown>;

/** A planted shortcut: the format it applies to, the rewrite, and the check the audit must fail on. */
export interface Plant {
  name: string;
  format: string;
  /** What the plant does, for the test's name. */
  what: string;
  /** Rewrites the rows of one shard (all its rows, so that reorderings see whole states). */
  rewrite: (rows: Row[]) => Row[];
  /** A failed check's name must match this, and its features (when it has any) this. */
  check: RegExp;
  feature?: RegExp;
}

const last = <T>(a: T[]): T => a[a.length - 1]!;

/** The text of a step lengthened without a new word: its last clause said twice. */
function longer(step: string): string {
  const body = step.replace(/\.\s*$/, "");
  const cut = Math.max(body.lastIndexOf(", "), body.lastIndexOf(". "));
  return `${body}${cut > 0 ? body.slice(cut) : `, ${body}`}.`;
}

/** Rows of a step format grouped by state (`.../cK` ids), in order. */
export function byState(rows: Row[]): Map<string, Row[]> {
  const m = new Map<string, Row[]>();
  for (const r of rows) {
    const id = String(r["id"]);
    const k = id.slice(0, id.lastIndexOf("/"));
    m.set(k, [...(m.get(k) ?? []), r]);
  }
  return m;
}

/** Re-number the candidates of each state so that `first` ones come before the others (stable otherwise). */
function reorder(rows: Row[], first: (r: Row, state: Row[]) => boolean): Row[] {
  for (const state of byState(rows).values()) {
    const idx = state.map((r) => Number(/\/c(\d+)$/.exec(String(r["id"]))![1]));
    const sorted = [...idx].sort((a, b) => a - b);
    const order = [...state].sort((a, b) => Number(first(b, state)) - Number(first(a, state)));
    order.forEach((r, k) => (r["id"] = String(r["id"]).replace(/\/c\d+$/, `/c${sorted[k]}`)));
  }
  return rows;
}

const completions = (r: Row): string[] => r["completions"] as string[];
const isCat = (c: string) => (r: Row): boolean => r["category"] === c;
const mapRows = (f: (r: Row) => void) => (rows: Row[]): Row[] => (rows.forEach(f), rows);

export const PLANTS: Plant[] = [
  // issue 40, finding 1: the six the audit passed, and the rare-class tag its log-likelihood guard hid
  {
    name: "non-executable longer",
    format: "native",
    what: "non-executable candidates lengthened without a new word",
    rewrite: mapRows((r) => isCat("non-executable")(r) && completions(r).push(longer(completions(r).pop()!))),
    check: /probe: candidate characters/,
    feature: /^L:/,
  },
  {
    name: "chosen side padded",
    format: "pairs",
    what: "the chosen side padded with spaces",
    rewrite: mapRows((r) => (r["chosen"] = `${String(r["chosen"])}    `)),
    check: /probe: side characters|length: characters/,
  },
  {
    name: "optimal '!'",
    format: "native",
    what: "optimal candidates end in '!' instead of '.'",
    rewrite: mapRows((r) => isCat("optimal")(r) && completions(r).push(completions(r).pop()!.replace(/\.\s*$/, "!"))),
    check: /probe: candidate characters/,
    feature: /^(p|e):!$/,
  },
  {
    name: "hint in the prompt",
    format: "native",
    what: "a hint appended to the prompt of optimal rows",
    rewrite: mapRows((r) => isCat("optimal")(r) && (r["prompt"] = `${String(r["prompt"])}Hint: think about the goal first.\n`)),
    check: /probe: prompt|prompt or prefix differs/,
  },
  {
    name: "'again' on the previous step",
    format: "native",
    what: "' again' appended to the previous step of backtracking rows",
    rewrite: mapRows((r) => {
      const c = completions(r);
      if (isCat("backtracking")(r) && c.length > 1) c[c.length - 2] = `${c[c.length - 2]!.replace(/\.\s*$/, "")} again.`;
    }),
    check: /probe: previous step: text|prompt or prefix differs/,
  },
  {
    name: "optimal first",
    format: "native",
    what: "the optimal candidate first among the executable candidates of its state",
    rewrite: (rows) => {
      // executable candidates keep their places; among them the optimal one takes the first
      for (const state of byState(rows).values()) {
        const exec = state.filter((r) => r["category"] !== "non-executable");
        const ids = exec.map((r) => String(r["id"])).sort((a, b) => Number(/c(\d+)$/.exec(a)![1]) - Number(/c(\d+)$/.exec(b)![1]));
        const order = [...exec].sort((a, b) => Number(b["category"] === "optimal") - Number(a["category"] === "optimal"));
        order.forEach((r, k) => (r["id"] = ids[k]));
      }
      return rows;
    },
    check: /probe: candidate position/,
    feature: /^pos:/,
  },
  {
    name: "dead-end tag",
    format: "native",
    what: "dead-end candidates (1% of rows) open with 'Careful:'",
    rewrite: mapRows((r) => {
      if (!isCat("dead-end")(r)) return;
      const c = completions(r);
      c.push(c.pop()!.replace(/^(Step \d+: )/, "$1Careful: "));
    }),
    check: /probe: candidate words \(.*\) \[dead-end\]/,
    feature: /careful/,
  },
  // shortcuts the audit caught before (they must stay caught)
  {
    name: "word in non-executable rows",
    format: "native",
    what: "'perhaps' in every non-executable candidate",
    rewrite: mapRows((r) => isCat("non-executable")(r) && completions(r).push(completions(r).pop()!.replace(/^(Step \d+: )/, "$1Perhaps "))),
    check: /text-minus-action gap|probe: candidate words/,
  },
  {
    name: "executable first",
    format: "native",
    what: "executable candidates written before non-executable ones",
    rewrite: (rows) => reorder(rows, (r) => r["category"] !== "non-executable"),
    check: /candidate position/,
  },
  {
    name: "longer error chains",
    format: "processbench",
    what: "error chains one step longer (their last step said twice)",
    rewrite: mapRows((r) => {
      const steps = r["steps"] as string[];
      if (Number(r["label"]) >= 0) steps.push(last(steps).replace(/^Step (\d+):/, `Step ${steps.length + 1}:`));
    }),
    check: /length: steps/,
  },
  {
    name: "chosen side first",
    format: "pairs",
    what: "the chosen side always shown first",
    rewrite: mapRows((r) => (r["first"] = "chosen")),
    check: /position \(first side\)/,
  },
  {
    name: "trajectory chosen side '!'",
    format: "trajectories",
    what: "the chosen plan's steps end in '!'",
    rewrite: mapRows((r) => (r["chosen"] = String(r["chosen"]).replace(/\.(\n|$)/g, "!$1"))),
    check: /probe: side characters/,
    feature: /!/,
  },
  {
    name: "landmark the odd predicate",
    format: "acp",
    what: "the right option of every landmark choice and free list replaced by a fact of another predicate",
    rewrite: (rows) => oddLandmark(rows),
    check: /option form: rarest predicate .*\[landmarks\/choice\]/,
  },
];

/**
 * Issue 52's landmark options, planted: the right option(s) of each landmark choice and free
 * list replaced by a fact of another predicate of the domain (its PDDL and its text from the
 * shard's other questions' options), as the generator did where it mixed predicates.
 */
export function oddLandmark(rows: Row[]): Row[] {
  const headOf = (item: string): string => /\((\S+)/.exec(item)?.[1] ?? "";
  const pool = new Map<string, [string, string][]>();
  for (const r of rows) {
    const meta = r["meta"] as { items: string[] };
    if (r["form"] !== "choice" || !["progression", "reachability", "landmarks"].includes(String(r["kind"]))) continue;
    const xs = pool.get(String(r["domain"])) ?? [];
    (r["choices"] as string[]).forEach((c, i) => xs.push([meta.items[i]!, c]));
    pool.set(String(r["domain"]), xs);
  }
  let k = 0;
  for (const r of rows) {
    if (r["kind"] !== "landmarks" || r["form"] === "yes-no") continue;
    const meta = r["meta"] as { items: string[]; gold: { set: string[] | null } };
    const rights = r["form"] === "choice" ? ["ABCD".indexOf(String(r["answer"]))] : (meta.gold.set ?? []).map((l) => "ABCD".indexOf(l));
    const heads = new Set(meta.items.map(headOf));
    const other = (pool.get(String(r["domain"])) ?? []).filter(([item]) => !heads.has(headOf(item)));
    if (other.length === 0) continue;
    const question = String(r["question"]);
    const lines = question.split("\n");
    for (const i of rights) {
      const [item, text] = other[k++ % other.length]!;
      const letter = "ABCD"[i]!;
      // the option's line: the last one with its letter (the options close the question)
      const at = lines.map((l) => l.startsWith(`${letter}. `)).lastIndexOf(true);
      lines[at] = `${letter}. ${text}`;
      if (r["form"] === "choice") (r["choices"] as string[])[i] = text;
      meta.items[i] = item;
    }
    r["question"] = lines.join("\n");
    r["prompt"] = `${r["question"]}${String(r["prompt"]).slice(question.length)}`;
  }
  return rows;
}

/** Copy the clean folder `from` to `to` and apply `plant` to every shard (the folder's records updated to match: `audit` checks the folder first). */
export function plantInto(from: string, to: string, plant: Plant): void {
  rewriteShards(from, to, (rows) => plant.rewrite(rows));
}
