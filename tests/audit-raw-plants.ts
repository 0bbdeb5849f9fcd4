/**
 * Plants of issue 55, generated from families rather than written one by one: each family
 * (whitespace, punctuation, case, sentence order, row order, id patterns, per-format extras,
 * and the held-out Unicode look-alikes) makes a rewrite of a form feature, applied to a share of
 * the rows of one class, the way a buggy writer would. They are not tests/audit-plants.ts (the
 * plants the audit's probes were built against); the look-alike family was added after the
 * audit's thresholds were fixed and never tuned on. `PLANTS_55` are the thirteen the issue
 * reports `audit` missed (its "a no-break space or two spaces" is two plants here), rebuilt from
 * its description; `HELD_OUT` the look-alikes.
 */
import { hashString } from "../src/util/prng.js";
import { byState, type Plant } from "./audit-plants.js";

type Row = Record<string, unknown>;

/** A share of the rows, by a hash of their id (the same rows on every run). */
const share = (p: number) => (r: Row, salt = ""): boolean => (hashString(`${String(r["id"])}${salt}`) % 1000) / 1000 < p;
const isCat = (c: string) => (r: Row): boolean => r["category"] === c;
const lastOf = (r: Row): string => (r["completions"] as string[])[(r["completions"] as string[]).length - 1]!;
const setLast = (r: Row, t: string): void => {
  const c = r["completions"] as string[];
  c[c.length - 1] = t;
};
const mapRows = (f: (r: Row) => void) => (rows: Row[]): Row[] => (rows.forEach(f), rows);

/** The first two sentences of a text swapped (its "Step k:" marker kept in front). */
export function swapSentences(text: string): string {
  const m = /^(\s*Step \d+:\s*)?([\s\S]*)$/.exec(text)!;
  const parts = m[2]!.split(/(?<=[.!?]) (?=[A-Z])/);
  if (parts.length < 2) return text;
  [parts[0], parts[1]] = [parts[1]!, parts[0]!];
  return `${m[1] ?? ""}${parts.join(" ")}`;
}

/** A family: variants of one kind of form feature, each a function of the class and share it marks. */
interface Family {
  name: string;
  plants: Plant[];
}

const whitespace: Family = {
  name: "whitespace",
  plants: [
    {
      name: "no-break space after the marker (optimal)",
      format: "native",
      what: "a no-break space after 'Step k:' in 60% of optimal rows",
      rewrite: mapRows((r) => isCat("optimal")(r) && share(0.6)(r) && setLast(r, lastOf(r).replace(/^(Step \d+:) /, "$1\u00a0"))),
      check: /probe: raw form \(.*\) \[optimal\]/,
      feature: /\u00a0/,
    },
    {
      name: "two spaces after the marker (optimal)",
      format: "native",
      what: "two spaces after 'Step k:' in 60% of optimal rows",
      rewrite: mapRows((r) => isCat("optimal")(r) && share(0.6)(r) && setLast(r, lastOf(r).replace(/^(Step \d+:) /, "$1  "))),
      check: /probe: raw form \(.*\) \[optimal\]/,
      feature: / {2}/,
    },
    {
      name: "blank lines in rejected trajectories",
      format: "trajectories",
      what: "a blank line between steps in 60% of rejected plans",
      rewrite: mapRows((r) => share(0.6)(r) && (r["rejected"] = String(r["rejected"]).replace(/\n/g, "\n\n"))),
      check: /probe: side raw form/,
      feature: /\n\n/,
    },
    {
      name: "extra newline after error chains (verifier)",
      format: "verifier",
      what: "an extra newline after 60% of error chains",
      rewrite: mapRows((r) => Number(r["label"]) >= 0 && share(0.6)(r) && (r["prompt"] = String(r["prompt"]).replace(/\n\nCheck this solution/, "\n\n\nCheck this solution"))),
      check: /probe: raw form \(.*\) \[error\]/,
      feature: /\n\n\n|\n\nCh/,
    },
  ],
};

const punctuation: Family = {
  name: "punctuation",
  plants: [
    {
      name: "'..' ending suboptimal rows",
      format: "native",
      what: "'..' ending 60% of suboptimal rows",
      rewrite: mapRows((r) => isCat("suboptimal")(r) && share(0.6)(r) && setLast(r, lastOf(r).replace(/\.\s*$/, ".."))),
      check: /probe: (raw form|candidate characters) \(.*\) \[suboptimal\]/,
      feature: /\.\./,
    },
    {
      name: "instruction without its period (processbench)",
      format: "processbench",
      what: "the instruction line losing its period in 60% of error chains",
      rewrite: mapRows((r) => Number(r["label"]) >= 0 && share(0.6)(r) && (r["problem"] = String(r["problem"]).replace(/\.(\s*)$/, "$1"))),
      check: /probe: raw form \(.*\) \[error\]/,
      feature: /^rq:.*␃/,
    },
  ],
};

const letterCase: Family = {
  name: "case",
  plants: [
    {
      name: "object nouns capitalised (non-executable)",
      format: "native",
      what: "object nouns capitalised in 50% of non-executable rows",
      rewrite: mapRows((r) => isCat("non-executable")(r) && share(0.5)(r) && setLast(r, lastOf(r).replace(/\b([a-z])([a-z]+)(?= \d)/g, (_, a: string, b: string) => a.toUpperCase() + b))),
      check: /probe: raw form \(.*\) \[non-executable\]/,
      feature: /[A-Z]/,
    },
  ],
};

const sentenceOrder: Family = {
  name: "sentence order",
  plants: [
    {
      name: "sentences swapped (backtracking)",
      format: "native",
      what: "two sentences swapped in 60% of backtracking rows",
      rewrite: mapRows((r) => isCat("backtracking")(r) && share(0.6)(r) && setLast(r, swapSentences(lastOf(r)))),
      check: /probe: raw form \(.*\) \[backtracking\]/,
      feature: /^r:/,
    },
    {
      name: "sentences swapped on rejected step pairs",
      format: "pairs",
      what: "sentences swapped on 60% of rejected pair sides",
      rewrite: mapRows((r) => share(0.6)(r) && (r["rejected"] = swapSentences(String(r["rejected"])))),
      check: /probe: side raw form/,
      feature: /^r:/,
    },
  ],
};

const rowOrder: Family = {
  name: "row order",
  plants: [
    {
      name: "optimal rows written last",
      format: "native",
      what: "optimal rows written last in each state (ids unchanged)",
      rewrite: (rows) => [...byState(rows).values()].flatMap((st) => [...st.filter((r) => !isCat("optimal")(r)), ...st.filter(isCat("optimal"))]),
      check: /row order in its state \(file\) \(auc\) \[optimal\]/,
    },
  ],
};

const ids: Family = {
  name: "id patterns",
  plants: [
    {
      name: "optimal ids zero-padded",
      format: "native",
      what: "optimal row ids zero-padded (c03)",
      rewrite: mapRows((r) => isCat("optimal")(r) && (r["id"] = String(r["id"]).replace(/\/c(\d)$/, "/c0$1"))),
      check: /probe: raw form \(.*\) \[optimal\]/,
      feature: /^id\d:c09$/,
    },
  ],
};

const extras: Family = {
  name: "per-format extras",
  plants: [
    {
      name: "' Go on.' before a mistake (feedback)",
      format: "feedback",
      what: "' Go on.' ending the environment's message before every mistake",
      rewrite: mapRows((r) => {
        const msgs = [...((r["prompt"] as Row[] | undefined) ?? []), ...((r["completion"] as Row[] | undefined) ?? []), ...((r["messages"] as Row[] | undefined) ?? [])];
        msgs.forEach((m, i) => {
          const prev = msgs[i - 1];
          if (m["role"] === "assistant" && Number(m["reward"]) < 1 && prev !== undefined && prev["role"] === "user") prev["content"] = `${String(prev["content"])} Go on.`;
        });
      }),
      check: /probe: raw form/,
      feature: /^rq:/,
    },
  ],
};

/** Issue 55's thirteen missed plants, by family. */
export const FAMILIES: Family[] = [whitespace, punctuation, letterCase, sentenceOrder, rowOrder, ids, extras];
export const PLANTS_55: Plant[] = FAMILIES.flatMap((f) => f.plants);

/** The held-out family: Unicode look-alikes (Cyrillic letters for Latin ones), never used to tune the audit. */
export const HELD_OUT: Plant[] = [
  {
    name: "look-alike letters (dead-end and backtracking)",
    format: "native",
    what: "Cyrillic 'о' for Latin 'o' in 60% of backtracking rows",
    rewrite: mapRows((r) => isCat("backtracking")(r) && share(0.6)(r) && setLast(r, lastOf(r).replace(/o/g, "\u043e"))),
    check: /probe: raw form \(.*\) \[backtracking\]/,
    feature: /\u043e/,
  },
  {
    name: "look-alike letters on chosen plans",
    format: "trajectories",
    what: "Cyrillic 'а' for Latin 'a' in the chosen plan of 60% of pairs",
    rewrite: mapRows((r) => share(0.6)(r) && (r["chosen"] = String(r["chosen"]).replace(/a/g, "\u0430"))),
    check: /probe: side raw form/,
    feature: /\u0430/,
  },
];

/** A label-free control: the rows of each state (chains: of each problem) shuffled in their shard, by a seeded hash. */
export const SHUFFLE_STATES: Plant = {
  name: "rows of each state shuffled (control)",
  format: "native",
  what: "rows of each state in a random order, ids unchanged",
  rewrite: (rows) => [...byState(rows).values()].flatMap((st) => [...st].sort((a, b) => hashString(`x${String(a["id"])}`) - hashString(`x${String(b["id"])}`))),
  check: /$^/,
};
