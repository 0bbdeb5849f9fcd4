/**
 * Issue 55's planted shortcuts, rebuilt from the issue's words (not from tests/audit-plants.ts
 * or tests/audit-raw-plants.ts, which the audit was built against), for bench/audit-plants-55
 * and tests/audit-families.test.ts. Each plant rewrites a copy of a clean folder the way a buggy
 * writer would, marking a share of the rows of one class; `names` says what a failed check must
 * mention for the plant to count as named.
 *
 * Families: whitespace, punctuation, case, sentence order, row order, id patterns, per-format
 * extras (the thirteen: `PLANTS_55`), and `HELD_OUT_55`, Unicode look-alikes and invisible
 * characters, which the audit was never tuned on (run only to report).
 */
import { createHash } from "node:crypto";
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export type Row = Record<string, unknown>;

export interface Plant55 {
  name: string;
  family: string;
  format: string;
  what: string;
  rewrite: (rows: Row[]) => Row[];
  /** A FAIL line (check name, group and features) that names the plant matches this. */
  names: RegExp;
}

/** A share `p` of the rows, by a hash of their id and the plant (the same rows on every run). */
function picked(id: unknown, p: number, salt: string): boolean {
  const h = createHash("sha256").update(`${salt}\u0000${String(id)}`).digest();
  return h.readUInt32BE(0) / 2 ** 32 < p;
}

const lastCompletion = (r: Row): string => {
  const c = r["completions"] as string[];
  return c[c.length - 1]!;
};
const setLastCompletion = (r: Row, t: string): void => {
  const c = r["completions"] as string[];
  c[c.length - 1] = t;
};

/** Candidate rows (native, trl) of category `cat`, a share `p` of them, rewritten by `f`. */
const candidates = (cat: string, p: number, salt: string, f: (text: string) => string) => (rows: Row[]): Row[] => {
  for (const r of rows) if (r["category"] === cat && picked(r["id"], p, salt)) setLastCompletion(r, f(lastCompletion(r)));
  return rows;
};

const MARK = /^(Step \d+:) /;

/** The first two sentences after the "Step k:" marker swapped. */
export function swapTwoSentences(step: string): string {
  const m = /^(Step \d+: )([\s\S]*)$/.exec(step);
  const [head, body] = m === null ? ["", step] : [m[1]!, m[2]!];
  const s = body.split(/(?<=\.) (?=[A-Z])/);
  if (s.length < 2) return step;
  [s[0], s[1]] = [s[1]!, s[0]!];
  return head + s.join(" ");
}

/** Object nouns (a word before a number or a coordinate) capitalised: "block 4" -> "Block 4". */
export function capitaliseNouns(step: string): string {
  return step.replace(/(^|[^A-Za-z])([a-z])([a-z]+)(?= (?:\d|\())/g, (_, pre: string, a: string, b: string) => pre + a.toUpperCase() + b);
}

/** Rows of a step format grouped by state (ids without their last segment), in order of first row. */
function byState(rows: Row[]): Row[][] {
  const m = new Map<string, Row[]>();
  for (const r of rows) {
    const id = String(r["id"]);
    const k = id.slice(0, id.lastIndexOf("/"));
    const l = m.get(k);
    if (l) l.push(r);
    else m.set(k, [r]);
  }
  return [...m.values()];
}

/** A chain holds an error (processbench, verifier: `label` is the first wrong step, -1 none). */
const isError = (r: Row): boolean => Number(r["label"]) >= 0;

export const PLANTS_55: Plant55[] = [
  {
    name: "swap-backtracking",
    family: "sentence order",
    format: "native",
    what: "two sentences swapped in 60% of backtracking rows",
    rewrite: candidates("backtracking", 0.6, "swap", swapTwoSentences),
    names: /\[backtracking\].*(⟨: ⟩(This|After|Now|As)|⟨\. ⟩(Given|Since|Because|As)|"r:: [TAN]|"r:\. [GSBA])/,
  },
  {
    name: "nbsp-optimal",
    family: "whitespace",
    format: "native",
    what: "a no-break space after 'Step k:' in 60% of optimal rows",
    rewrite: candidates("optimal", 0.6, "nbsp", (t) => t.replace(MARK, "$1\u00a0")),
    names: /\[optimal\].*(\u00a0|\\u00a0)/,
  },
  {
    name: "two-spaces-optimal",
    family: "whitespace",
    format: "native",
    what: "two spaces after 'Step k:' in 60% of optimal rows",
    rewrite: candidates("optimal", 0.6, "two", (t) => t.replace(MARK, "$1  ")),
    names: /\[optimal\].*:  /,
  },
  {
    name: "capitals-non-executable",
    family: "case",
    format: "native",
    what: "object nouns capitalised in 50% of non-executable rows",
    rewrite: candidates("non-executable", 0.5, "caps", capitaliseNouns),
    names: /\[non-executable\].*("r:[^"]*(~ [A-Z]|[A-Z][a-z]~)|"r:[a-z]+⟨[^⟩]*⟩[A-Z][a-z]|"r:[A-Z][a-z]+⟨ ⟩[9(])/,
  },
  {
    name: "double-period-suboptimal",
    family: "punctuation",
    format: "native",
    what: "'..' ending 60% of suboptimal rows",
    rewrite: candidates("suboptimal", 0.6, "dots", (t) => t.replace(/\.$/, "..")),
    names: /\[suboptimal\].*\.\./,
  },
  {
    name: "optimal-last",
    family: "row order",
    format: "native",
    what: "optimal rows written last in each state (ids unchanged)",
    rewrite: (rows) => byState(rows).flatMap((st) => [...st.filter((r) => r["category"] !== "optimal"), ...st.filter((r) => r["category"] === "optimal")]),
    names: /row order.*\[optimal\]/,
  },
  {
    name: "padded-ids-optimal",
    family: "id patterns",
    format: "native",
    what: "optimal row ids zero-padded (c3 -> c03)",
    rewrite: (rows) => {
      for (const r of rows) if (r["category"] === "optimal") r["id"] = String(r["id"]).replace(/\/c(\d+)$/, (_, k: string) => `/c${k.padStart(2, "0")}`);
      return rows;
    },
    names: /\[optimal\].*id\d:c09/,
  },
  {
    name: "swap-rejected-pairs",
    family: "sentence order",
    format: "pairs",
    what: "sentences swapped on 60% of rejected pair sides",
    rewrite: (rows) => {
      for (const r of rows) if (picked(r["id"], 0.6, "pswap")) r["rejected"] = swapTwoSentences(String(r["rejected"]));
      return rows;
    },
    names: /side raw form.*(⟨: ⟩(This|After|Now|As)|⟨\. ⟩(Given|Since|Because|As)|"r:: [TAN]|"r:\. [GSBA])/,
  },
  {
    name: "blank-line-rejected-plans",
    family: "whitespace",
    format: "trajectories",
    what: "a blank line between two steps in 60% of rejected plans",
    rewrite: (rows) => {
      for (const r of rows) {
        if (!picked(r["id"], 0.6, "blank")) continue;
        const lines = String(r["rejected"]).split("\n");
        if (lines.length < 2) continue;
        // one blank line, at a gap chosen by the row's hash
        const at = 1 + (createHash("sha256").update(String(r["id"])).digest().readUInt16BE(0) % (lines.length - 1));
        lines.splice(at, 0, "");
        r["rejected"] = lines.join("\n");
      }
      return rows;
    },
    names: /side raw form.*\\n\\n/,
  },
  {
    name: "instruction-no-period-processbench",
    family: "punctuation",
    format: "processbench",
    what: "the instruction line losing its period in 60% of error chains",
    rewrite: (rows) => {
      for (const r of rows) if (isError(r) && picked(r["id"], 0.6, "period")) r["problem"] = String(r["problem"]).replace(/\.(\s*)$/, "$1");
      return rows;
    },
    names: /\[error\].*("rq:[^"]*[~≈a-z]␃|"rq:[a-z]+⟨⟩␃)/,
  },
  {
    name: "extra-newline-verifier",
    family: "whitespace",
    format: "verifier",
    what: "an extra newline after the chain in 60% of error chains",
    rewrite: (rows) => {
      for (const r of rows) {
        if (!isError(r) || !picked(r["id"], 0.6, "newline")) continue;
        const p = String(r["prompt"]);
        const at = p.indexOf("\n\n", p.indexOf("Proposed solution:\n"));
        if (at >= 0) r["prompt"] = `${p.slice(0, at)}\n${p.slice(at)}`;
      }
      return rows;
    },
    names: /\[error\].*\\n\\n\\n/,
  },
  {
    name: "go-on-feedback",
    family: "per-format extras",
    format: "feedback",
    what: "' Go on.' ending the message before each mistake",
    rewrite: (rows) => {
      for (const r of rows) {
        const msgs = [...((r["messages"] as Row[] | undefined) ?? []), ...((r["prompt"] as Row[] | undefined) ?? []), ...((r["completion"] as Row[] | undefined) ?? [])];
        msgs.forEach((m, i) => {
          const prev = msgs[i - 1];
          if (m["role"] === "assistant" && Number(m["reward"]) < 1 && prev !== undefined) prev["content"] = `${String(prev["content"])} Go on.`;
        });
      }
      return rows;
    },
    names: /Go on|Go~|"rq:[^"]*G/,
  },
  {
    name: "nbsp-or-two-spaces-trl",
    family: "whitespace",
    format: "trl",
    what: "a no-break space or two spaces after 'Step k:' in 60% of optimal rows (trl)",
    rewrite: (rows) => {
      for (const r of rows) {
        if (r["category"] !== "optimal" || !picked(r["id"], 0.6, "mixed")) continue;
        setLastCompletion(r, lastCompletion(r).replace(MARK, picked(r["id"], 0.5, "which") ? "$1\u00a0" : "$1  "));
      }
      return rows;
    },
    names: /\[optimal\].*((\u00a0|\\u00a0)|:  )/,
  },
];

/**
 * The held-out family: Unicode that looks like ASCII, or shows as nothing. Written before any of
 * it was run; the audit was not changed after seeing these results.
 */
export const HELD_OUT_55: Plant55[] = [
  {
    name: "cyrillic-e-suboptimal",
    family: "unicode (held out)",
    format: "native",
    what: "Cyrillic 'е' for Latin 'e' in the last sentence of 60% of suboptimal rows",
    rewrite: candidates("suboptimal", 0.6, "cyr", (t) => {
      const at = t.lastIndexOf(". ");
      return at < 0 ? t : t.slice(0, at) + t.slice(at).replace(/e/g, "\u0435");
    }),
    names: /\[suboptimal\].*(\u0435|\\u0435)/,
  },
  {
    name: "zero-width-optimal",
    family: "unicode (held out)",
    format: "native",
    what: "a zero-width space before the final period of 60% of optimal rows",
    rewrite: candidates("optimal", 0.6, "zw", (t) => t.replace(/\.$/, "\u200b.")),
    names: /\[optimal\].*(\u200b|\\u200b)/,
  },
  {
    name: "fullwidth-colon-chosen",
    family: "unicode (held out)",
    format: "pairs",
    what: "a fullwidth colon after 'Step k' on 60% of chosen sides",
    rewrite: (rows) => {
      for (const r of rows) if (picked(r["id"], 0.6, "fw")) r["chosen"] = String(r["chosen"]).replace(/^(Step \d+):/, "$1\uff1a");
      return rows;
    },
    names: /side raw form.*(\uff1a|\\uff1a)/,
  },
  {
    name: "curly-apostrophe-error-chains",
    family: "unicode (held out)",
    format: "processbench",
    what: "a right single quote in the steps of 60% of error chains ('s -> ’s, or one added)",
    rewrite: (rows) => {
      for (const r of rows) {
        if (!isError(r) || !picked(r["id"], 0.6, "apos")) continue;
        r["steps"] = (r["steps"] as string[]).map((s, i) => (i === 0 ? s.replace(/\.$/, " (that\u2019s it).") : s));
      }
      return rows;
    },
    names: /\[error\].*(\u2019|\\u2019)/,
  },
];

/** Label-free controls: they must change no verdict. */
export const CONTROLS_55: Plant55[] = [
  {
    name: "shuffle-rows-of-each-state",
    family: "control",
    format: "native",
    what: "rows of each state in a seeded random order (ids unchanged)",
    rewrite: (rows) => byState(rows).flatMap((st) => [...st].sort((a, b) => hashOrder(a) - hashOrder(b))),
    names: /$^/,
  },
  {
    name: "shuffle-states",
    family: "control",
    format: "native",
    what: "the states of each shard in a seeded random order, each state's rows kept together",
    rewrite: (rows) => byState(rows).sort((a, b) => hashOrder(a[0]!) - hashOrder(b[0]!)).flat(),
    names: /$^/,
  },
];

function hashOrder(r: Row): number {
  return createHash("sha256").update(`order\u0000${String(r["id"])}`).digest().readUInt32BE(0);
}

const sha256 = (b: Buffer): string => createHash("sha256").update(b).digest("hex");

/** The folder's records (completions, manifest, ledger) made to match its rewritten shards, as if pddl2prm had written them. */
export function reseal(dir: string): void {
  type Shard = { path: string; rows: number; bytes: number; sha256: string };
  const shards = new Map<string, Shard>();
  const marks = join(dir, "completions");
  for (const n of readdirSync(marks).filter((x) => /^\d{5}$/.test(x))) {
    const rec = JSON.parse(readFileSync(join(marks, n), "utf8")) as { shards: Shard[] };
    for (const s of rec.shards) {
      const bytes = readFileSync(join(dir, s.path));
      s.bytes = bytes.length;
      s.sha256 = sha256(bytes);
      if (s.path.endsWith(".jsonl")) s.rows = bytes.toString("utf8").split("\n").filter((l) => l.trim() !== "").length;
      shards.set(s.path, s);
    }
    writeFileSync(join(marks, n), JSON.stringify(rec) + "\n");
  }
  const manifest = join(dir, "manifest.json");
  if (existsSync(manifest)) {
    const m = JSON.parse(readFileSync(manifest, "utf8")) as { rows: number; shards: Shard[] };
    m.shards = m.shards.map((s) => shards.get(s.path) ?? s);
    m.rows = m.shards.reduce((a, s) => a + s.rows, 0);
    writeFileSync(manifest, JSON.stringify(m, null, 2) + "\n");
  }
  const ledger = join(dir, ".pddl2prm-files.json");
  if (existsSync(ledger)) {
    const l = JSON.parse(readFileSync(ledger, "utf8")) as { files: { path: string; bytes: number; sha256: string }[] };
    for (const f of l.files) {
      if (!existsSync(join(dir, f.path))) continue;
      const bytes = readFileSync(join(dir, f.path));
      f.bytes = bytes.length;
      f.sha256 = sha256(bytes);
    }
    writeFileSync(ledger, JSON.stringify(l) + "\n");
  }
}

/** Copy the clean folder `from` to `to`, rewrite each shard's rows, and reseal the folder (as if pddl2prm had written them). */
export function rewriteShards(from: string, to: string, rewrite: (rows: Row[]) => Row[]): void {
  cpSync(from, to, { recursive: true });
  const data = join(to, "data");
  for (const f of readdirSync(data).filter((n) => n.endsWith(".jsonl"))) {
    const file = join(data, f);
    const rows = readFileSync(file, "utf8").split("\n").filter((l) => l.length > 0).map((l) => JSON.parse(l) as Row);
    writeFileSync(file, rewrite(rows).map((r) => JSON.stringify(r)).join("\n") + "\n");
  }
  reseal(to);
}

/** Copy the clean folder `from` to `to` and apply `plant` to each shard. */
export function plant55(from: string, to: string, plant: Plant55): void {
  rmSync(to, { recursive: true, force: true });
  rewriteShards(from, to, (rows) => plant.rewrite(rows));
}

/**
 * The mutation suite beyond the thirteen: each family is a set of rewrites of a step's text (or
 * of a row), applied to the units of one class in one format, a share of them picked by hash.
 * Every rewrite meets every target it applies to, so a family is tested on every kind of unit
 * (a candidate, a pair's side, a plan, a chain, a dialogue turn) and not only where the issue
 * found it.
 */
interface Edit {
  name: string;
  family: string;
  /** Rewrites one step's text ("Step k: ..."). */
  step: (s: string) => string;
  /** A FAIL line's features show it (the check's group is the target's). */
  feature: RegExp;
}

const EDITS: Edit[] = [
  { name: "nbsp-marker", family: "whitespace", step: (s) => s.replace(MARK, "$1\u00a0"), feature: /(\u00a0|\\u00a0)/ },
  { name: "two-spaces-marker", family: "whitespace", step: (s) => s.replace(MARK, "$1  "), feature: /:  / },
  { name: "two-spaces-sentence", family: "whitespace", step: (s) => s.replace(". ", ".  "), feature: /\.  / },
  { name: "trailing-space", family: "whitespace", step: (s) => `${s} `, feature: / ␃| \\n|\. "|⟨[^⟩]* ⟩␃/ },
  { name: "double-period", family: "punctuation", step: (s) => s.replace(/\.$/, ".."), feature: /\.\./ },
  { name: "no-final-period", family: "punctuation", step: (s) => s.replace(/\.$/, ""), feature: /⟨⟩␃|[~≈9a-z)]␃|[a-z)]⟨?\\n/ },
  { name: "oxford-comma", family: "punctuation", step: (s) => s.replace(/([a-z0-9)]) and /, "$1, and "), feature: /, (~|an|≈)|,[^"]*and/ },
  { name: "capital-nouns", family: "case", step: capitaliseNouns, feature: /("r:[^"]*(~ [A-Z]|[A-Z][a-z]~)|"r:[a-z]+⟨[^⟩]*⟩[A-Z][a-z]|"r:[A-Z][a-z]+⟨ ⟩[9(])/ },
  { name: "lowercase-start", family: "case", step: (s) => s.replace(/^(Step \d+: )([A-Z])/, (_, a: string, b: string) => a + b.toLowerCase()), feature: /⟨: ⟩[a-z]|: ~|: ≈|"c:a"/ },
  { name: "swap-sentences", family: "sentence order", step: swapTwoSentences, feature: /(⟨: ⟩(This|After|Now|As)|⟨\. ⟩(Given|Since|Because|As)|"r:: [TAN]|"r:\. [GSBA])/ },
  {
    name: "rotate-clause",
    family: "sentence order",
    // the facts of the first clause ("Since A, B and C, I ...") rotated: C, A and B
    step: (s) => s.replace(/^(Step \d+: [A-Z][a-z]+(?: that)? )(.*?)(, I )/, (_, a: string, facts: string, c: string) => {
      const parts = facts.split(/, | and /);
      if (parts.length < 2) return a + facts + c;
      const r = [parts[parts.length - 1]!, ...parts.slice(0, -1)];
      return a + (r.length === 2 ? r.join(" and ") : `${r.slice(0, -1).join(", ")} and ${r[r.length - 1]}`) + c;
    }),
    feature: /./,
  },
];

interface Target {
  format: string;
  /** The class a failed check should be about (a regular expression over its group). */
  group: RegExp;
  label: string;
  apply: (rows: Row[], edit: (s: string) => string, salt: string) => Row[];
}

const stepClass = (format: string, cat: string): Target => ({
  format,
  group: new RegExp(`\\[${cat}\\]`),
  label: `${format} ${cat} candidates`,
  apply: (rows, edit, salt) => candidates(cat, 0.6, salt, edit)(rows),
});

const TARGETS: Target[] = [
  stepClass("native", "optimal"),
  stepClass("native", "non-executable"),
  stepClass("trl", "suboptimal"),
  {
    format: "pairs",
    group: /side raw form|side characters|side words/,
    label: "pairs rejected sides",
    apply: (rows, edit, salt) => (rows.forEach((r) => picked(r["id"], 0.6, salt) && (r["rejected"] = edit(String(r["rejected"])))), rows),
  },
  {
    format: "trajectories",
    group: /side raw form|side characters|side words/,
    label: "trajectories chosen plans",
    apply: (rows, edit, salt) => (rows.forEach((r) => picked(r["id"], 0.6, salt) && (r["chosen"] = String(r["chosen"]).split("\n").map(edit).join("\n"))), rows),
  },
  {
    format: "processbench",
    group: /\[error\]/,
    label: "processbench error chains (the first wrong step)",
    apply: (rows, edit, salt) => {
      for (const r of rows) if (isError(r) && picked(r["id"], 0.6, salt)) (r["steps"] as string[])[Number(r["label"])] = edit((r["steps"] as string[])[Number(r["label"])]!);
      return rows;
    },
  },
  {
    format: "verifier",
    group: /\[error\]/,
    label: "verifier error chains (every step)",
    apply: (rows, edit, salt) => {
      for (const r of rows) {
        if (!isError(r) || !picked(r["id"], 0.6, salt)) continue;
        const p = String(r["prompt"]);
        const from = p.indexOf("Proposed solution:\n") + "Proposed solution:\n".length;
        const to = p.indexOf("\n\n", from);
        r["prompt"] = p.slice(0, from) + p.slice(from, to).split("\n").map(edit).join("\n") + p.slice(to);
      }
      return rows;
    },
  },
  {
    format: "feedback",
    group: /\[(non-executable|suboptimal|backtracking|dead-end)\]/,
    label: "feedback mistakes",
    apply: (rows, edit, salt) => {
      for (const r of rows) {
        const episode = String(r["id"]).replace(/\/t\d+$/, "");
        const turns = [...((r["messages"] as Row[] | undefined) ?? []), ...((r["prompt"] as Row[] | undefined) ?? []), ...((r["completion"] as Row[] | undefined) ?? [])].filter((m) => m["role"] === "assistant");
        turns.forEach((m, i) => Number(m["reward"]) < 1 && picked(`${episode}/${i}`, 0.6, salt) && (m["content"] = edit(String(m["content"]))));
      }
      return rows;
    },
  },
];

/** Row-level families: row order and id patterns (step formats), a free string field. */
const ROW_PLANTS: Plant55[] = [
  {
    name: "row-order:non-executable-first:trl",
    family: "row order",
    format: "trl",
    what: "non-executable rows written first in each state (trl)",
    rewrite: (rows) => byState(rows).flatMap((st) => [...st.filter((r) => r["category"] === "non-executable"), ...st.filter((r) => r["category"] !== "non-executable")]),
    names: /row order.*\[non-executable\]/,
  },
  {
    name: "row-order:error-chains-last:processbench",
    family: "row order",
    format: "processbench",
    what: "error chains written after the correct chains of their problem",
    rewrite: (rows) => byState(rows).flatMap((st) => [...st.filter((r) => !isError(r)), ...st.filter(isError)]),
    names: /row order.*\[error\]/,
  },
  {
    name: "ids:suffix:native",
    family: "id patterns",
    format: "native",
    what: "suboptimal row ids with a letter after the candidate index (c3b)",
    rewrite: (rows) => (rows.forEach((r) => r["category"] === "suboptimal" && (r["id"] = `${String(r["id"])}b`)), rows),
    names: /\[suboptimal\].*id|candidate position/,
  },
  {
    name: "ids:upper:processbench",
    family: "id patterns",
    format: "processbench",
    what: "error chain ids with an upper-case segment (K3)",
    rewrite: (rows) => (rows.forEach((r) => isError(r) && (r["id"] = String(r["id"]).replace(/\/k(\d+)$/, "/K$1"))), rows),
    names: /\[error\].*id|position/,
  },
  {
    name: "field:source:native",
    family: "per-format extras",
    format: "native",
    what: "a top-level 'source' field, 'sampler-b' on 60% of backtracking rows ('sampler-a' elsewhere)",
    rewrite: (rows) => (rows.forEach((r) => (r["source"] = r["category"] === "backtracking" && picked(r["id"], 0.6, "src") ? "sampler-b" : "sampler-a")), rows),
    names: /\[backtracking\].*source/,
  },
];

/** The generated suite: every edit on every target, and the row-level plants. */
export const FAMILY_PLANTS: Plant55[] = [
  ...EDITS.flatMap((e) =>
    TARGETS.map((t): Plant55 => ({
      name: `${e.name}:${t.format}${t.format === "native" ? `:${t.group.source.replace(/\W/g, "")}` : ""}`,
      family: e.family,
      format: t.format,
      what: `${e.name} on 60% of ${t.label}`,
      rewrite: (rows) => t.apply(rows, e.step, e.name),
      names: new RegExp(`(${t.group.source}).*(${e.feature.source})`),
    })),
  ),
  ...ROW_PLANTS,
];
