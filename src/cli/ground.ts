/**
 * `pddl2prm ground DOMAIN PROBLEM [--json] [--time-limit S] [--max-ops N] [--max-facts N]`:
 * ground a task and print its size and the time taken. A bound reached is exit 1, one line.
 */
import type { Command } from "commander";
import { parseDomainFile, parseProblemFile } from "../pddl/index.js";
import { ground } from "../task/index.js";
import { MAX_MEMORY_HELP, runBounded } from "./bounded.js";
import { action, commandStart, groundCapOptions, groundLimits, printJson, secondsFlag, type GroundCapFlags } from "./common.js";

export function register(program: Command): void {
  const cmd = program
    .command("ground")
    .description("ground a PDDL task (relaxed reachability); print the number of facts and operators")
    .argument("<domain>", "domain PDDL file")
    .argument("<problem>", "problem PDDL file")
    .option("--json", "print one JSON object")
    .option("--time-limit <seconds>", "stop when parsing and grounding take longer (exit 1)")
    .option("--max-memory <mb>", MAX_MEMORY_HELP);
  groundCapOptions(cmd).action(
    action(async (domainPath: string, problemPath: string, opts: GroundCapFlags & { json?: boolean; timeLimit?: string; maxMemory?: string }) => {
      if (await runBounded("ground", opts)) return;
      const start = commandStart();
      const timeLimit = secondsFlag("--time-limit", opts.timeLimit);
      // parsing counts against the time limit (it is not interrupted: it is linear in the input)
      const limits = groundLimits(opts, timeLimit !== undefined ? start + timeLimit * 1000 : undefined);
      const d = parseDomainFile(domainPath);
      const p = parseProblemFile(problemPath, d);
      const t0 = performance.now();
      const task = ground(d, p, limits);
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
