/**
 * Labelling throughput: `npm run bench:label` (after `npm run build`). For every built-in domain,
 * labels the default problem set (problems/<name>/*.pddl, or freshly generated problems when that
 * folder is empty) with the domain's default y and reports labels/second and how the time splits
 * between h* work (building the oracle, h* queries, optimal actions, dead-end proofs) and the
 * rest (sampling, applicability, explanations, backtracking bookkeeping). The "render" columns
 * time the natural-language translation of the same labels (prompt, prefix steps, candidate step
 * and critique per label, as a dataset row has them) and its share of the labelling time.
 *
 * Options: --domains a,b  --max-problems N (default 100 per domain)  --count N (generated when
 * no default set exists, default 50)  --seed S  --oracle-max-states N (explicit-mode cap, default
 * the library's DEFAULT_ORACLE_MAX_STATES; smaller values push the oracle into search mode)
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { BUILTIN_DOMAINS, builtinDomainFile, builtinProblemsDir, generateProblems } from "../src/generators/index.js";
import { createLabelContext, labelProblemAll, ProblemSkipped } from "../src/label/index.js";
import { parseDomain, parseProblem } from "../src/pddl/index.js";
import { ground } from "../src/task/index.js";
import { createRenderer, loadTemplates } from "../src/nl/index.js";
import type { Candidate, LabeledStep } from "../src/label/types.js";
import type { GroundTask } from "../src/task/types.js";
import { Prng } from "../src/util/prng.js";
import { checkBenchFlags } from "./args.js";

/** Render every label the way a dataset row does; returns milliseconds. */
function renderAll(task: GroundTask, domainName: string, steps: LabeledStep[]): number {
  const t0 = performance.now();
  const renderer = createRenderer(task, loadTemplates(domainName));
  const opCand = (op: number): Candidate => ({
    schema: task.opSchema[op]!,
    args: Array.from(task.opArgs.subarray(task.opArgStart[op]!, task.opArgStart[op + 1]!)),
    name: task.opNames[op]!,
    op,
  });
  let chars = 0;
  for (const st of steps) {
    const prng = new Prng(seed, `${st.problem}/${st.stateIndex}/${st.candidateIndex}`);
    chars += renderer.prompt(prng).length;
    st.prefixOps.forEach((op, k) => (chars += renderer.step(k + 1, opCand(op), prng).length));
    chars += renderer.step(st.prefixOps.length + 1, st.candidate, prng).length;
    chars += renderer.critique(st, prng).length;
  }
  if (chars === 0 && steps.length > 0) throw new Error("empty rendering");
  return performance.now() - t0;
}

function flag(name: string, dflt: string): string {
  const i = process.argv.indexOf(name);
  return i >= 0 && i + 1 < process.argv.length ? process.argv[i + 1]! : dflt;
}

checkBenchFlags("bench/label", "usage: npm run bench:label -- [--domains a,b] [--max-problems 100] [--count 50] [--seed 1] [--oracle-max-states N]", { values: ["--domains", "--max-problems", "--count", "--seed", "--oracle-max-states"] });
const only = flag("--domains", "").split(",").filter(Boolean);
const maxProblems = Number(flag("--max-problems", "100"));
const count = Number(flag("--count", "50"));
const seed = Number(flag("--seed", "1"));
const capFlag = flag("--oracle-max-states", "");
const oracleMaxStates = capFlag === "" ? undefined : Number(capFlag);

function problemsOf(name: string): { id: string; file: string; text: string }[] {
  const dir = builtinProblemsDir(name);
  if (existsSync(dir)) {
    const files = readdirSync(dir).filter((f) => f.endsWith(".pddl")).sort();
    if (files.length > 0) {
      return files.slice(0, maxProblems).map((f) => ({ id: f.replace(/\.pddl$/, ""), file: join(dir, f), text: readFileSync(join(dir, f), "utf8") }));
    }
  }
  return generateProblems(name, { count: Math.min(count, maxProblems), seed }).map((p) => ({ id: p.name, file: `${p.name}.pddl`, text: p.text }));
}

const pad = (s: string | number, n: number): string => String(s).padStart(n);
console.log(
  `${"domain".padEnd(17)} ${pad("problems", 8)} ${pad("skipped", 7)} ${pad("states", 7)} ${pad("labels", 8)} ${pad("label s", 8)} ${pad("labels/s", 9)} ${pad("h* %", 6)} ${pad("oracle", 8)} ${pad("render s", 8)} ${pad("render %", 8)}  source`,
);
let totLabels = 0;
let totMs = 0;
let totH = 0;
let totR = 0;
for (const d of BUILTIN_DOMAINS) {
  if (only.length > 0 && !only.includes(d.name)) continue;
  const dFile = builtinDomainFile(d.name);
  const domain = parseDomain(readFileSync(dFile, "utf8"), dFile);
  const probs = problemsOf(d.name);
  const source = existsSync(builtinProblemsDir(d.name)) && readdirSync(builtinProblemsDir(d.name)).some((f) => f.endsWith(".pddl")) ? "problems/" : "generated";
  let labels = 0;
  let states = 0;
  let skipped = 0;
  let ms = 0;
  let hMs = 0;
  let rMs = 0;
  const modes = new Set<string>();
  for (const p of probs) {
    const task = ground(domain, parseProblem(p.text, p.file, domain));
    const t0 = performance.now();
    const ctx = createLabelContext(task, oracleMaxStates === undefined ? {} : { oracleMaxStates });
    const build = performance.now() - t0;
    modes.add(ctx.oracle.mode);
    try {
      const steps = labelProblemAll(task, { problemId: `${d.name}/${p.id}`, seed, samplesPerState: d.defaultSamplesPerState, context: ctx });
      labels += steps.length;
      states += steps.length > 0 ? steps[0]!.planLength : 0;
      ms += performance.now() - t0;
      rMs += renderAll(task, d.name, steps);
    } catch (e) {
      if (!(e instanceof ProblemSkipped)) throw e;
      skipped++;
      ms += performance.now() - t0;
    }
    hMs += build + ctx.stats.hstarMs;
  }
  totLabels += labels;
  totMs += ms;
  totH += hMs;
  totR += rMs;
  console.log(
    `${d.name.padEnd(17)} ${pad(probs.length, 8)} ${pad(skipped, 7)} ${pad(states, 7)} ${pad(labels, 8)} ${pad((ms / 1000).toFixed(2), 8)} ${pad(Math.round((labels / ms) * 1000), 9)} ${pad(((100 * hMs) / ms).toFixed(0), 6)} ${pad([...modes].join("+"), 8)} ${pad((rMs / 1000).toFixed(2), 8)} ${pad(((100 * rMs) / ms).toFixed(0), 8)}  ${source}`,
  );
}
console.log(
  `${"total".padEnd(17)} ${pad("", 8)} ${pad("", 7)} ${pad("", 7)} ${pad(totLabels, 8)} ${pad((totMs / 1000).toFixed(2), 8)} ${pad(Math.round((totLabels / totMs) * 1000), 9)} ${pad(((100 * totH) / totMs).toFixed(0), 6)} ${pad("", 8)} ${pad((totR / 1000).toFixed(2), 8)} ${pad(((100 * totR) / totMs).toFixed(0), 8)}`,
);
