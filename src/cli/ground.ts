/** `pddl2prm ground DOMAIN PROBLEM [--json]`: ground a task and print its size and the time taken. */
import type { Command } from "commander";
import { parseDomainFile, parseProblemFile } from "../pddl/index.js";
import { ground } from "../task/index.js";
import { action, intFlag, printJson } from "./common.js";

export function register(program: Command): void {
  program
    .command("ground")
    .description("ground a PDDL task (relaxed reachability); print the number of facts and operators")
    .argument("<domain>", "domain PDDL file")
    .argument("<problem>", "problem PDDL file")
    .option("--json", "print one JSON object")
    .option("--max-ops <n>", "fail when grounding reaches more than n operators")
    .action(
      action((domainPath: string, problemPath: string, opts: { json?: boolean; maxOps?: string }) => {
        const maxOps = intFlag("--max-ops", opts.maxOps, 1);
        const d = parseDomainFile(domainPath);
        const p = parseProblemFile(problemPath, d);
        const t0 = performance.now();
        const task = ground(d, p, maxOps === undefined ? {} : { maxOps });
        const ms = Math.round((performance.now() - t0) * 1000) / 1000;
        if (opts.json) return printJson({ facts: task.numFacts, operators: task.numOps, ms });
        const lines = [
          `facts      ${task.numFacts}${task.factDerived.some((x) => x === 1) ? ` (${task.factDerived.reduce((a, x) => a + x, 0)} derived)` : ""}`,
          `operators  ${task.numOps}`,
          `axioms     ${task.numAxioms}`,
          `costs      ${task.hasCosts ? "action costs (total-cost)" : "unit"}`,
          `time       ${ms} ms`,
        ];
        process.stdout.write(lines.join("\n") + "\n");
      }),
    );
}
