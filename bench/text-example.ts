/**
 * The generic text of one problem, for reading: `node dist/bench/text-example.js DOMAIN PROBLEM`
 * prints the prompt, an optimal plan (A* + LM-Cut) as steps rendered in the states they are
 * taken in, and, when labelling finishes within 20 s, one candidate per category with its
 * critique. docs/examples.md shows its output on IPC domains before and after issue 14.
 */
import { pathToFileURL } from "node:url";
import { labelProblemAll } from "../src/label/index.js";
import type { Candidate, Category } from "../src/label/types.js";
import { createRenderer } from "../src/nl/index.js";
import { parseDomainFile, parseProblemFile } from "../src/pddl/index.js";
import { solve } from "../src/search/index.js";
import { applyOp, ground } from "../src/task/index.js";
import type { GroundTask } from "../src/task/types.js";
import { Prng } from "../src/util/prng.js";

function cand(task: GroundTask, op: number): Candidate {
  return { schema: task.opSchema[op]!, args: Array.from(task.opArgs.subarray(task.opArgStart[op]!, task.opArgStart[op + 1]!)), name: task.opNames[op]!, op };
}

function main(argv: string[]): number {
  const [df, pf] = argv.slice(2);
  if (df === undefined || pf === undefined) {
    process.stderr.write("usage: node dist/bench/text-example.js DOMAIN PROBLEM\n");
    return 2;
  }
  const domain = parseDomainFile(df);
  const task = ground(domain, parseProblemFile(pf, domain));
  const r = createRenderer(task, null);
  const prng = new Prng(1, "example");
  const out: string[] = ["### Prompt", "", "```text", r.prompt(prng), "```", "", "### Plan steps", "", "```text"];
  const res = solve(task, { limits: { timeMs: 20_000 } });
  let s = task.init;
  (res.plan ?? []).forEach((op, k) => {
    out.push(r.step(k + 1, cand(task, op), prng, s));
    s = applyOp(task, s, op);
  });
  out.push("```", "");
  try {
    const steps = labelProblemAll(task, { problemId: "example", seed: 1, samplesPerState: 8, limits: { timeMs: 20_000 } });
    out.push("### Candidates and critiques", "", "```text");
    for (const cat of ["optimal", "suboptimal", "backtracking", "dead-end", "non-executable"] as Category[]) {
      const st = steps.find((x) => x.category === cat);
      if (st === undefined) continue;
      let state = task.init;
      for (const op of st.prefixOps) state = applyOp(task, state, op);
      out.push(`[${cat}] ${r.step(st.stateIndex + 1, st.candidate, prng, state)}`, `Critique: ${r.critique(st, prng)}`);
    }
    out.push("```", "");
  } catch (e) {
    out.push(`(labelling stopped: ${(e as Error).message})`, "");
  }
  process.stdout.write(out.join("\n") + "\n");
  return 0;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) process.exitCode = main(process.argv);
