/**
 * Rows for the external re-check with Fast Downward (../shared/tools/fd_label_check.py):
 * `node dist/bench/label-rows.js [--domains blocksworld,rooms,sokoban,spanner] [--problems N]
 * [--seed S] [--out DIR]` labels N problems per domain (the default set problems/<name>, or
 * generated ones) and writes DIR/<domain>/rows.jsonl (id, problem, category, meta.prefix,
 * meta.action, meta.h_before, meta.h_after, ...) and DIR/<domain>/problems/<id>.pddl, then
 * prints the checker command for each domain.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { builtinDomainFile, builtinProblemsDir, generateProblems, getBuiltinDomain } from "../src/generators/index.js";
import { labelProblemAll, ProblemSkipped } from "../src/label/index.js";
import { parseDomain, parseProblem } from "../src/pddl/index.js";
import { ground } from "../src/task/index.js";
import { checkBenchFlags } from "./args.js";

function flag(name: string, dflt: string): string {
  const i = process.argv.indexOf(name);
  return i >= 0 && i + 1 < process.argv.length ? process.argv[i + 1]! : dflt;
}

checkBenchFlags("bench/label-rows", "usage: node dist/bench/label-rows.js [--domains blocksworld,rooms,sokoban,spanner] [--problems 25] [--seed 7] [--out out/label-rows]", { values: ["--domains", "--problems", "--seed", "--out"] });
const domains = flag("--domains", "blocksworld,rooms,sokoban,spanner").split(",").filter(Boolean);
const nProblems = Number(flag("--problems", "25"));
const seed = Number(flag("--seed", "7"));
const out = resolve(flag("--out", "out/label-rows"));

for (const name of domains) {
  const d = getBuiltinDomain(name);
  const dFile = builtinDomainFile(name);
  const domain = parseDomain(readFileSync(dFile, "utf8"), dFile);
  const dir = builtinProblemsDir(name);
  let probs: { id: string; text: string }[];
  const files = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith(".pddl")).sort() : [];
  if (files.length > 0) probs = files.slice(0, nProblems).map((f) => ({ id: f.slice(0, -5), text: readFileSync(join(dir, f), "utf8") }));
  else probs = generateProblems(name, { count: nProblems, seed }).map((p) => ({ id: p.name, text: p.text }));
  const pdir = join(out, name, "problems");
  mkdirSync(pdir, { recursive: true });
  const lines: string[] = [];
  const counts: Record<string, number> = {};
  for (const p of probs) {
    writeFileSync(join(pdir, `${p.id}.pddl`), p.text);
    const task = ground(domain, parseProblem(p.text, `${p.id}.pddl`, domain));
    try {
      for (const st of labelProblemAll(task, { problemId: `${name}/${p.id}`, seed, samplesPerState: d.defaultSamplesPerState, balance: true })) {
        counts[st.category] = (counts[st.category] ?? 0) + 1;
        const ev = st.evidence;
        lines.push(
          JSON.stringify({
            id: `${name}/${p.id}/t${String(st.stateIndex).padStart(2, "0")}/c${st.candidateIndex}`,
            problem: p.id,
            category: st.category,
            meta: {
              state_index: st.stateIndex,
              prefix: st.prefix,
              action: st.candidate.name,
              h_before: ev.hBefore,
              h_after: ev.hAfter,
              cost: ev.cost,
              backtrack_to: ev.backtrackTo,
              dead_end_proof: ev.deadEnd?.kind ?? null,
            },
          }),
        );
      }
    } catch (e) {
      if (!(e instanceof ProblemSkipped)) throw e;
      console.error(`${name}/${p.id}: skipped (${e.message})`);
    }
  }
  const rowsFile = join(out, name, "rows.jsonl");
  writeFileSync(rowsFile, lines.join("\n") + "\n");
  console.log(`${name}: ${lines.length} rows from ${probs.length} problems ${JSON.stringify(counts)} -> ${rowsFile}`);
  console.log(
    `  python3 ../shared/tools/fd_label_check.py --fd /work/fd/downward --domain-file ${dFile} --problems-dir ${pdir} --sample 300 ${rowsFile}`,
  );
}
