/**
 * The meaning check over a corpus (issue 36): `node dist/bench/meaning.js DIR... [--all] [--json F]`
 * (after `npm run build`). In every folder under each DIR that holds problems (one folder per
 * domain, as in downward-benchmarks or ../shared/ipc), takes the smallest problem (by size; with
 * --all every problem) and, with the generic translator, reads back every fact sentence (true
 * and false, every paraphrase) and every action text (src/nl/meaning.ts), and measures the
 * prompt. Prints one line per problem, then the totals: sentences checked and failed, templates
 * with a filler word, predicates and domains on the plain reading, and the prompt lengths
 * (median, p95, max; those over 30,000 characters whose PDDL is under 30 KB).
 * Exit 1 when a sentence fails or a filler word is found.
 */
import { existsSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { basename, join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import { createRenderer } from "../src/nl/index.js";
import { checkMeaning } from "../src/nl/meaning.js";
import { domainFileFor, isDomainFileName } from "../src/pddl/files.js";
import { parseDomainFile, parseProblemFile } from "../src/pddl/index.js";
import { ground } from "../src/task/index.js";
import { Prng } from "../src/util/prng.js";

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

function checkOne(domainFile: string, problemFile: string): Omit<ProblemResult, "problem"> {
  const domain = parseDomainFile(domainFile);
  const task = ground(domain, parseProblemFile(problemFile, domain), { timeMs: 30_000, maxOps: 300_000, maxFacts: 300_000 });
  const prompt = createRenderer(task, null).prompt(new Prng(1, "meaning"));
  const rep = checkMeaning(task, null, { maxFailures: 20 });
  return { pddlBytes: statSync(problemFile).size, prompt: prompt.length, facts: rep.facts, actions: rep.actions, failures: rep.failures, fillers: rep.fillers, plain: rep.plain };
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
  const dirs = args.filter((a, i) => !a.startsWith("--") && !(ji >= 0 && i === ji + 1));
  if (dirs.length === 0) {
    process.stderr.write("usage: node dist/bench/meaning.js DIR... [--all] [--json FILE]\n");
    return 2;
  }
  const results: ProblemResult[] = [];
  const t0 = performance.now();
  for (const dir of dirs) {
    for (const { problem, domain } of problemsOf(dir, all)) {
      const name = relative(dir, problem);
      let r: ProblemResult;
      try {
        r = { problem: name, ...checkOne(domain, problem) };
      } catch (e) {
        r = { problem: name, pddlBytes: 0, prompt: 0, facts: 0, actions: 0, failures: [], fillers: [], plain: [], error: (e as Error).message.split("\n")[0]! };
      }
      results.push(r);
      const bad = r.failures.length + r.fillers.length;
      const tag = r.error !== undefined ? "SKIP" : bad > 0 ? "FAIL" : "ok  ";
      process.stdout.write(`${tag} ${name}  ${r.error ?? `${r.facts} facts, ${r.actions} actions, prompt ${r.prompt}${r.plain.length > 0 ? `, plain: ${r.plain.join(" ")}` : ""}`}\n`);
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
  process.stdout.write(lines.join("\n") + "\n");
  if (jsonFile !== undefined) writeFileSync(jsonFile, JSON.stringify(results, null, 1) + "\n");
  return failing.length > 0 || withFiller.length > 0 ? 1 : 0;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) process.exitCode = main(process.argv);
