/**
 * Reading sheets for the text protocol of bench/results/reading.md:
 * `node dist/bench/reading.js ROOT FOLDER... [--rows 16] [--out FILE]` takes the smallest
 * problem (by file size) of each FOLDER under ROOT (e.g. a checkout of downward-benchmarks),
 * labels it with the generic translator (native rows, seed 1, 8 candidates a state, 60 s), and
 * writes a Markdown sheet per domain: the prompt, the walk's steps as a row's prefix shows them,
 * then ROWS candidate steps with their label and critique, drawn across the categories (the
 * same rows for the same code). A person reads and grades the sheets; the tool grades nothing.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { pathToFileURL } from "node:url";
import { runJob, type JobResult } from "../src/dataset/job.js";
import type { NativeRow } from "../src/dataset/row.js";
import { domainFileFor, isDomainFileName } from "../src/pddl/files.js";
import { parseDomainFile } from "../src/pddl/index.js";

/** The smallest problem of a folder (by size, then name) and its domain file, or null. */
export function smallestProblem(dir: string): { problem: string; domain: string } | null {
  const probs = readdirSync(dir).filter((f) => f.toLowerCase().endsWith(".pddl") && !isDomainFileName(f));
  probs.sort((a, b) => statSync(join(dir, a)).size - statSync(join(dir, b)).size || (a < b ? -1 : a > b ? 1 : 0));
  for (const p of probs) {
    const d = domainFileFor(dir, p);
    if (d !== null) return { problem: join(dir, p), domain: d };
  }
  return null;
}

const ORDER = ["non-executable", "dead-end", "backtracking", "suboptimal", "optimal"];

/** `n` rows spread over the categories: round robin over them, each in walk order. */
export function pickRows(rows: NativeRow[], n: number): NativeRow[] {
  const by = new Map<string, NativeRow[]>();
  for (const c of ORDER) by.set(c, []);
  for (const r of rows) by.get(r.category)!.push(r);
  // Spread each category's picks over the walk: every k-th row.
  const queues = ORDER.map((c) => {
    const xs = by.get(c)!;
    const step = Math.max(1, Math.floor(xs.length / n));
    return xs.filter((_, i) => i % step === 0);
  });
  const out: NativeRow[] = [];
  for (let round = 0; out.length < n && queues.some((q) => q.length > round); round++) {
    for (const q of queues) if (round < q.length && out.length < n) out.push(q[round]!);
  }
  return out.sort((a, b) => (a.id < b.id ? -1 : 1));
}

/** Label one problem with the generic translator and keep its native rows (seed 1, y = 8). */
export function labelFile(domainFile: string, problemFile: string, timeMs: number): JobResult {
  const domain = parseDomainFile(domainFile);
  return runJob(
    {
      index: 0,
      split: "train",
      domainName: domain.name,
      domainFile,
      domainText: readFileSync(domainFile, "utf8"),
      problemId: basename(problemFile, ".pddl"),
      problemFile,
      problemText: readFileSync(problemFile, "utf8"),
      builtinTemplates: null,
      templatesFile: null,
    },
    { seed: 1, samplesPerState: 8, format: "native", threshold: 0.75, randomOptimal: false, balance: false, nonExecutable: "near-miss", timeMs, maxExpansions: 5_000_000, maxStates: 2_000_000, chat: false, maxLength: null, tokenizer: null, maxOps: 1_000_000, maxFacts: 1_000_000, genericFallback: false, wholeProblems: false, keepRows: true },
  );
}

function sheet(folder: string, domainFile: string, problemFile: string, n: number): string {
  const res = labelFile(domainFile, problemFile, 60_000);
  const rows = (res.rows ?? []) as NativeRow[];
  const out = [`## ${folder} (${basename(problemFile)})`, ""];
  if (rows.length === 0) return [...out, `No rows: ${res.skipped ?? "nothing labelled"}`, ""].join("\n");
  const longest = rows.reduce((a, b) => (b.completions.length > a.completions.length ? b : a));
  out.push(`Prompt (${rows[0]!.prompt.length} characters):`, "", "```text", rows[0]!.prompt, "```", "");
  out.push("The walk (the prefix of the deepest row):", "", "```text", ...longest.completions.slice(0, -1), "```", "");
  out.push(`Rows (${n} of ${rows.length}):`, "");
  pickRows(rows, n).forEach((r, i) => {
    out.push(`${i + 1}. \`${r.id}\` ${r.category} \`${r.meta.action}\``, "", "   ```text", `   ${r.completions[r.completions.length - 1]}`, `   Critique: ${r.critique}`, "   ```", "");
  });
  return out.join("\n");
}

function main(argv: string[]): number {
  const args = argv.slice(2);
  let n = 16;
  let outFile: string | null = null;
  const pos: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === "--rows") n = Number(args[++i]);
    else if (args[i] === "--out") outFile = args[++i] ?? null;
    else pos.push(args[i]!);
  }
  const [root, ...folders] = pos;
  if (root === undefined || folders.length === 0 || !(n > 0)) {
    process.stderr.write("usage: node dist/bench/reading.js ROOT FOLDER... [--rows 16] [--out FILE]\n");
    return 2;
  }
  const parts: string[] = [];
  for (const f of folders) {
    const pick = smallestProblem(join(root, f));
    if (pick === null) {
      parts.push(`## ${f}\n\nNo problem with a domain file.\n`);
      continue;
    }
    try {
      parts.push(sheet(f, pick.domain, pick.problem, n));
    } catch (e) {
      parts.push(`## ${f}\n\nError: ${(e as Error).message.split("\n")[0]}\n`);
    }
    process.stderr.write(`${f}\n`);
  }
  const text = parts.join("\n");
  if (outFile === null) process.stdout.write(text);
  else writeFileSync(outFile, text);
  return 0;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) process.exitCode = main(process.argv);
