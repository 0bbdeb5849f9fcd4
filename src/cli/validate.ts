/** `pddl2prm validate DOMAIN PROBLEM PLAN [--json]`: check a plan; exit 0 only if it is valid and reaches the goal. */
import type { Command } from "commander";
import { parseDomainFile, parseProblemFile, UserError } from "../pddl/index.js";
import { ground, parseGroundAction, parsePlan, validatePlan } from "../task/index.js";
import { action, EXIT_BAD_INPUT, printJson, readUserFileOrStdin } from "./common.js";

export function register(program: Command): void {
  program
    .command("validate")
    .description("validate a plan (Fast Downward format, '-' for stdin); exit 0 only if it is valid and reaches the goal")
    .argument("<domain>", "domain PDDL file")
    .argument("<problem>", "problem PDDL file")
    .argument("<plan>", "plan file: one (action args) per line, ';' comments ignored; '-' reads stdin")
    .option("--json", "print one JSON object")
    .action(
      action((domainPath: string, problemPath: string, planPath: string, opts: { json?: boolean }) => {
        const d = parseDomainFile(domainPath);
        const p = parseProblemFile(problemPath, d);
        const planText = readUserFileOrStdin(planPath, "the plan");
        let plan: string[];
        try {
          plan = parsePlan(planText);
        } catch (e) {
          if (e instanceof UserError) throw new UserError(`${planPath === "-" ? "<stdin>" : planPath}: ${e.message}`);
          throw e;
        }
        const task = ground(d, p);
        const r = validatePlan(task, plan);
        if (!r.valid) process.exitCode = EXIT_BAD_INPUT;
        if (opts.json) return printJson(r);
        const f = r.failure;
        if (f === null) {
          process.stdout.write(`plan valid: ${r.steps} steps, cost ${r.cost}\n`);
        } else if ("unmet_goal" in f) {
          process.stdout.write(
            `plan invalid: after all ${r.steps} steps the goal is not reached (cost ${r.cost})\n` +
              `unmet goal: ${f.unmet_goal.join(" ")}\n`,
          );
        } else if (parseGroundAction(task, f.action) === null) {
          process.stdout.write(`plan invalid: step ${f.step} ${f.action}: ${f.unsatisfied.join("; ")}\n`);
        } else {
          process.stdout.write(
            `plan invalid: step ${f.step} ${f.action} is not executable (cost of the first ${f.step - 1} steps: ${r.cost})\n` +
              `unsatisfied: ${f.unsatisfied.join(" ")}\n`,
          );
        }
      }),
    );
}
