/**
 * The meaning check over a corpus (issue 36): `node dist/bench/meaning.js DIR... [--all] [--json F]
 * [--rows [--time-ms MS]]`
 * (after `npm run build`). In every folder under each DIR that holds problems (one folder per
 * domain, as in downward-benchmarks or ../shared/ipc), takes the smallest problem (by size; with
 * --all every problem) and, with the generic translator, reads back every fact sentence (true
 * and false, every paraphrase) and every action text (src/nl/meaning.ts), and measures the
 * prompt. Prints one line per problem, then the totals: sentences checked and failed, templates
 * with a filler word, predicates and domains on the plain reading, and the prompt lengths
 * (median, p95, max; those over 30,000 characters whose PDDL is under 30 KB).
 * Exit 1 when a sentence fails or a filler word is found.
 *
 * With --rows (issue 51), each problem is also labelled as `generate` does (native rows, seed 1,
 * 8 candidates a state, the generic translator; --time-ms per problem, 60,000 by default) and
 * every row is checked against its own prompt: the actions its steps use (the prefix, the
 * candidate, and the optimal plan the walk follows, its last action included) must each be
 * described there. The prompt is read as text: an action it leaves out is one it names on its
 * "... not described here" line; when that line is too long to name them, the renderer's own
 * list (promptSummary().rulesOmittedNames) is taken, and without one every row of the problem
 * counts. A problem that gives no rows within the limit is reported as such. Exit 1 also when
 * a row uses an action its prompt leaves out.
 */
import { existsSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { basename, join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import { createRenderer } from "../src/nl/index.js";
import { checkMeaning } from "../src/nl/meaning.js";
import { domainFileFor, isDomainFileName } from "../src/pddl/files.js";
import { parseDomainFile, parseProblemFile } from "../src/pddl/index.js";
import type { NativeRow } from "../src/dataset/row.js";
import { words } from "../src/nl/text.js";
import { applyOp, ground, isApplicable, isGoal } from "../src/task/index.js";
import type { GroundTask } from "../src/task/types.js";
import { Prng } from "../src/util/prng.js";
import { labelFile } from "./reading.js";

interface ProblemResult {
  problem: string;
  pddlBytes: number;
  prompt: number;
  facts: number;
  actions: number;
  failures: string[];
  fillers: string[];
  plain: string[];
  error?: string;
  /** --rows: rows labelled, and those whose steps use an action their prompt leaves out. */
  rows?: { rows: number; left: number; leftActions: string[]; omitted: number; noRows: string | null; ms: number };
}

/**
 * The actions a prompt says it does not describe (the words of their names, as its
 * "... not described here" line quotes them); null when it leaves actions out without naming them.
 */
export function undescribed(prompt: string): Set<string> | null {
  const line = prompt.split("\n").find((l) => /^- .* not described here\b/.test(l));
  if (line === undefined) return new Set();
  const names = [...line.matchAll(/"([^"]+)"/g)].map((m) => m[1]!);
  return names.length > 0 ? new Set(names) : null;
}

/** The last action of the optimal plan the walk follows: one that reaches the goal from the walk's last state at the cost left. */
function lastAction(task: GroundTask, prefix: readonly string[], costLeft: number): string | null {
  const byName = new Map<string, number[]>();
  for (let o = 0; o < task.numOps; o++) {
    const n = task.opNames[o]!;
    const l = byName.get(n);
    if (l === undefined) byName.set(n, [o]);
    else l.push(o);
  }
  let s = task.init;
  for (const a of prefix) {
    const op = (byName.get(a) ?? []).find((o) => isApplicable(task, s, o));
    if (op === undefined) return null;
    s = applyOp(task, s, op);
  }
  for (let o = 0; o < task.numOps; o++) if (task.opCost[o] === costLeft && isApplicable(task, s, o) && isGoal(task, applyOp(task, s, o))) return task.opNames[o]!;
  return null;
}

/** Rows of one problem whose steps use an action their prompt does not describe. */
function checkRows(domainFile: string, problemFile: string, task: GroundTask, timeMs: number, omittedNames: readonly string[] | undefined): NonNullable<ProblemResult["rows"]> {
  const t0 = performance.now();
  const res = labelFile(domainFile, problemFile, timeMs);
  const rows = (res.rows ?? []) as NativeRow[];
  const ms = Math.round(performance.now() - t0);
  if (rows.length === 0) return { rows: 0, left: 0, leftActions: [], omitted: 0, noRows: res.skipped ?? "nothing labelled", ms };
  // the optimal plan: the deepest prefix and the action that ends it
  const deepest = rows.reduce((a, b) => (b.meta.prefix.length > a.meta.prefix.length ? b : a));
  const last = lastAction(task, deepest.meta.prefix, deepest.meta.h_before ?? -1);
  const plan = [...deepest.meta.prefix, ...(last !== null ? [last] : [])];
  const schemaOf = (a: string): string => words(a.replace(/^\(\s*/, "").split(/[\s)]+/)[0]!);
  const planSchemas = new Set(plan.map(schemaOf));
  let left = 0;
  let omitted = 0;
  const leftActions = new Set<string>();
  for (const r of rows) {
    const out = undescribed(r.prompt) ?? (omittedNames !== undefined && omittedNames.length > 0 ? new Set(omittedNames.map(words)) : null);
    if (out === null || out.size > 0) omitted++;
    const used = new Set([...r.meta.prefix.map(schemaOf), schemaOf(r.meta.action), ...planSchemas]);
    const missing = [...used].filter((a) => out === null || out.has(a));
    if (missing.length > 0) {
      left++;
      for (const a of missing) leftActions.add(a);
    }
  }
  return { rows: rows.length, left, leftActions: [...leftActions], omitted, noRows: null, ms };
}

/** The domain file of a problem: as `generate` finds it, else `<name>-domain.pddl` for `<name>-p01.pddl`. */
function domainOf(dir: string, problem: string): string | null {
  const d = domainFileFor(dir, problem);
  if (d !== null) return d;
  const m = /^(.+)-[^-]+\.pddl$/i.exec(problem);
  const f = m === null ? null : join(dir, `${m[1]}-domain.pddl`);
  return f !== null && existsSync(f) ? f : null;
}

/**
 * The problems to check in `dir` and below: per domain file, its smallest problem (by size,
 * then name), or all of them.
 */
function problemsOf(dir: string, all: boolean): Array<{ problem: string; domain: string }> {
  const out: Array<{ problem: string; domain: string }> = [];
  const entries = readdirSync(dir).sort();
  const probs = entries.filter((f) => f.toLowerCase().endsWith(".pddl") && !f.startsWith(".") && !isDomainFileName(f) && !/-domain\.pddl$/i.test(f) && statSync(join(dir, f)).isFile());
  probs.sort((a, b) => statSync(join(dir, a)).size - statSync(join(dir, b)).size || (a < b ? -1 : 1));
  // One domain per folder, except a folder of "<name>-domain.pddl" files (one per name).
  const taken = new Set<string>();
  for (const p of probs) {
    const d = domainOf(dir, p);
    if (d === null) continue;
    const named = /^(.+)-domain\.pddl$/i.exec(basename(d));
    const key = named !== null && !/^p\d+$/i.test(named[1]!) ? d : dir;
    if (!all && taken.has(key)) continue;
    taken.add(key);
    out.push({ problem: join(dir, p), domain: d });
  }
  for (const e of entries) if (statSync(join(dir, e)).isDirectory() && !e.startsWith(".")) out.push(...problemsOf(join(dir, e), all));
  return out;
}

function checkOne(domainFile: string, problemFile: string, rowsMs: number | null): Omit<ProblemResult, "problem"> {
  const domain = parseDomainFile(domainFile);
  const task = ground(domain, parseProblemFile(problemFile, domain), { timeMs: 30_000, maxOps: 300_000, maxFacts: 300_000 });
  const renderer = createRenderer(task, null);
  const prompt = renderer.prompt(new Prng(1, "meaning"));
  // (absent from a build before issue 51)
  const omittedNames = (renderer.promptSummary() as { rulesOmittedNames?: string[] }).rulesOmittedNames;
  const rep = checkMeaning(task, null, { maxFailures: 20 });
  const rows = rowsMs === null ? undefined : checkRows(domainFile, problemFile, task, rowsMs, omittedNames);
  return { pddlBytes: statSync(problemFile).size, prompt: prompt.length, facts: rep.facts, actions: rep.actions, failures: rep.failures, fillers: rep.fillers, plain: rep.plain, ...(rows !== undefined ? { rows } : {}) };
}

function quantile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? 0;
}

function main(argv: string[]): number {
  const args = argv.slice(2);
  const all = args.includes("--all");
  const ji = args.indexOf("--json");
  const jsonFile = ji >= 0 ? args[ji + 1] : undefined;
  const withRows = args.includes("--rows");
  const ti = args.indexOf("--time-ms");
  const rowsMs = withRows ? (ti >= 0 ? Number(args[ti + 1]) : 60_000) : null;
  const dirs = args.filter((a, i) => !a.startsWith("--") && !(ji >= 0 && i === ji + 1) && !(ti >= 0 && i === ti + 1));
  if (dirs.length === 0 || (rowsMs !== null && !(rowsMs > 0))) {
    process.stderr.write("usage: node dist/bench/meaning.js DIR... [--all] [--json FILE] [--rows [--time-ms MS]]\n");
    return 2;
  }
  const results: ProblemResult[] = [];
  const t0 = performance.now();
  for (const dir of dirs) {
    for (const { problem, domain } of problemsOf(dir, all)) {
      const name = relative(dir, problem);
      let r: ProblemResult;
      try {
        r = { problem: name, ...checkOne(domain, problem, rowsMs) };
      } catch (e) {
        r = { problem: name, pddlBytes: 0, prompt: 0, facts: 0, actions: 0, failures: [], fillers: [], plain: [], error: (e as Error).message.split("\n")[0]! };
      }
      results.push(r);
      const bad = r.failures.length + r.fillers.length;
      const tag = r.error !== undefined ? "SKIP" : bad > 0 ? "FAIL" : "ok  ";
      const rw = r.rows;
      const rowText = rw === undefined ? "" : rw.noRows !== null ? `; rows: none within the limit (${rw.noRows.split("\n")[0]!.slice(0, 100)}, ${(rw.ms / 1000).toFixed(1)} s)` : `; rows: ${rw.rows}, prompt leaves actions out in ${rw.omitted}, rows using an action not described: ${rw.left}${rw.left > 0 ? ` (${rw.leftActions.join(", ")})` : ""} (${(rw.ms / 1000).toFixed(1)} s)`;
      const tag2 = rw !== undefined && rw.left > 0 && r.error === undefined ? "FAIL" : tag;
      process.stdout.write(`${tag2} ${name}  ${r.error ?? `${r.facts} facts, ${r.actions} actions, prompt ${r.prompt}${r.plain.length > 0 ? `, plain: ${r.plain.join(" ")}` : ""}${rowText}`}\n`);
      for (const f of [...r.fillers.map((x) => `filler: ${x}`), ...r.failures].slice(0, 6)) process.stdout.write(`     ${f}\n`);
    }
  }
  const ok = results.filter((r) => r.error === undefined);
  const prompts = ok.map((r) => r.prompt);
  const over = ok.filter((r) => r.prompt > 30_000 && r.pddlBytes < 30_000);
  const failing = ok.filter((r) => r.failures.length > 0);
  const withFiller = ok.filter((r) => r.fillers.length > 0);
  const plainPreds = ok.reduce((a, r) => a + r.plain.length, 0);
  const plainDomains = ok.filter((r) => r.plain.length > 0).length;
  const lines = [
    `${ok.length} problems checked (${results.length - ok.length} could not be grounded within the limits) in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    `sentences: ${ok.reduce((a, r) => a + r.facts, 0)} fact, ${ok.reduce((a, r) => a + r.actions, 0)} action; problems with a sentence that does not read back: ${failing.length}`,
    `templates with a filler word: ${ok.reduce((a, r) => a + r.fillers.length, 0)} (in ${withFiller.length} problems)`,
    `plain readings: ${plainPreds} predicates in ${plainDomains} of ${ok.length} problems`,
    `prompt characters: median ${quantile(prompts, 0.5)}, p95 ${quantile(prompts, 0.95)}, max ${Math.max(0, ...prompts)}; over 30,000 with PDDL under 30 KB: ${over.length}${over.length > 0 ? ` (${over.map((r) => r.problem).join(", ")})` : ""}`,
  ];
  let rowsLeft = 0;
  if (rowsMs !== null) {
    const rs = ok.filter((r) => r.rows !== undefined).map((r) => r.rows!);
    const none = ok.filter((r) => r.rows?.noRows != null);
    rowsLeft = rs.reduce((a, r) => a + r.left, 0);
    lines.push(
      `rows (--time-ms ${rowsMs}): ${rs.reduce((a, r) => a + r.rows, 0)} rows from ${rs.length - none.length} problems; ${none.length} problems gave no rows within the limit${none.length > 0 ? ` (${none.map((r) => r.problem).join(", ")})` : ""}`,
      `rows whose steps use an action their prompt does not describe: ${rowsLeft} (in ${rs.filter((r) => r.left > 0).length} problems); rows whose prompt leaves some action out: ${rs.reduce((a, r) => a + r.omitted, 0)}`,
    );
  }
  process.stdout.write(lines.join("\n") + "\n");
  if (jsonFile !== undefined) writeFileSync(jsonFile, JSON.stringify(results, null, 1) + "\n");
  return failing.length > 0 || withFiller.length > 0 || rowsLeft > 0 ? 1 : 0;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) process.exitCode = main(process.argv);
