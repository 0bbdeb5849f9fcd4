/**
 * Readability of generated text over a corpus: `node dist/bench/readability.js DIR [--rows]`
 * (after `npm run build`; DIR is e.g. ../shared/ipc). For every (domain, problem) pair it
 * renders, with the generic translator and with the nl.json that `templates init` scaffolds:
 * the prompt, a step for every ground action (with and without a state), random
 * non-executable groundings and a critique of each kind, and checks them (src/nl/readability:
 * no '?', "holds for", "is true", raw PDDL names; a verb in every action clause; the exact text
 * -> action round trip). With --rows it also generates real rows (label + render, 3 s per
 * problem) and checks every prompt, completion and critique. Prints one line per pair and
 * `N passed, M failed`.
 */
import { basename, dirname } from "node:path";
import { pathToFileURL } from "node:url";
import { findPairs } from "../src/cli/conformance.js";
import { labelFile } from "./reading.js";
import { parseDomainFile, parseProblemFile } from "../src/pddl/index.js";
import { compileTemplates, createRenderer } from "../src/nl/index.js";
import { checkTask, readabilityFaults, stepFaults } from "../src/nl/readability.js";
import { scaffoldTemplates } from "../src/nl/scaffold.js";
import { ground } from "../src/task/index.js";

interface PairResult {
  texts: number;
  rows: number;
  faults: string[];
}

function checkPair(domainFile: string, problemFile: string, rows: boolean): PairResult {
  const domain = parseDomainFile(domainFile);
  const problem = parseProblemFile(problemFile, domain);
  const task = ground(domain, problem);
  const out: PairResult = { texts: 0, rows: 0, faults: [] };
  const scaffold = compileTemplates(scaffoldTemplates(domain), domain, "(templates init)");
  for (const [label, tpl] of [["generic", null], ["scaffold", scaffold]] as const) {
    const rep = checkTask(task, tpl);
    out.texts += rep.checked;
    out.faults.push(...rep.faults.map((f) => `${label}: ${f}`), ...rep.roundTripFailures.map((f) => `${label}: round trip: ${f}`));
  }
  if (rows) {
    const r = labelFile(domainFile, problemFile, 3000);
    const renderer = createRenderer(task, null);
    const objects = new Set(task.objects.map((o) => o.toLowerCase()));
    for (const row of r.rows ?? []) {
      out.rows++;
      const where = row.id;
      for (const f of readabilityFaults(row.prompt, objects)) out.faults.push(`${where} prompt: ${f}`);
      for (const f of readabilityFaults(row.critique, objects)) out.faults.push(`${where} critique: ${f}`);
      const actions = [...row.meta.prefix, row.meta.action];
      row.completions.forEach((c, k) => {
        for (const f of stepFaults(c, objects)) out.faults.push(`${where} step ${k + 1}: ${f}`);
        const back = renderer.parseStep(c);
        const name = back === null ? null : `(${[domain.actions[back.schema]!.name, ...back.args.map((a) => task.objects[a]!)].join(" ")})`;
        if (name !== actions[k]) out.faults.push(`${where} step ${k + 1}: round trip gives ${name}, not ${actions[k]}`);
      });
    }
  }
  return out;
}

function main(argv: string[]): number {
  const args = argv.slice(2);
  const rows = args.includes("--rows");
  const dir = args.find((a) => !a.startsWith("-"));
  if (dir === undefined) {
    process.stderr.write("usage: node dist/bench/readability.js DIR [--rows]\n");
    return 2;
  }
  let passed = 0;
  let failed = 0;
  let texts = 0;
  let rowCount = 0;
  const t0 = performance.now();
  for (const pair of findPairs(dir)) {
    if (pair.domain === null) continue;
    const name = `${basename(dirname(pair.problem))}/${basename(pair.problem)}`;
    try {
      const r = checkPair(pair.domain, pair.problem, rows);
      texts += r.texts;
      rowCount += r.rows;
      if (r.faults.length === 0) {
        passed++;
        process.stdout.write(`ok   ${name}  ${r.texts} texts${rows ? `, ${r.rows} rows` : ""}\n`);
      } else {
        failed++;
        process.stdout.write(`FAIL ${name}  ${r.faults.length} faults\n`);
        for (const f of r.faults.slice(0, 8)) process.stdout.write(`     ${f}\n`);
      }
    } catch (e) {
      failed++;
      process.stdout.write(`FAIL ${name}  ${(e as Error).message.split("\n")[0]}\n`);
    }
  }
  process.stdout.write(`${texts} texts${rows ? `, ${rowCount} rows` : ""} checked in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
  process.stdout.write(`${passed} passed, ${failed} failed\n`);
  return failed > 0 ? 1 : 0;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) process.exitCode = main(process.argv);
