/** `pddl2prm parse DOMAIN [PROBLEM] [--json]`: parse and check PDDL files, print a summary. */
import type { Command } from "commander";
import { parseDomainFile, parseProblemFile, type Domain, type Problem } from "../pddl/index.js";
import { action, printJson } from "./common.js";
import { MAX_MEMORY_HELP, runBounded } from "./bounded.js";

/** The JSON summary of DESIGN.md §10. */
export interface ParseSummary {
  domain: string;
  requirements: string[];
  types: number;
  predicates: number;
  actions: number;
  objects: number;
  init: number;
}

/** Counts for the parse command (objects/init are 0 without a problem). */
export function summarize(d: Domain, p?: Problem): ParseSummary {
  return {
    domain: d.name,
    requirements: d.requirements,
    types: d.types.length,
    predicates: d.predicates.length,
    actions: d.actions.length,
    objects: p ? p.objects.length : 0,
    init: p ? p.init.length : 0,
  };
}

export function register(program: Command): void {
  program
    .command("parse")
    .description("parse and check a PDDL domain (and optionally a problem); print a summary")
    .argument("<domain>", "domain PDDL file")
    .argument("[problem]", "problem PDDL file")
    .option("--json", "print one JSON object")
    .option("--time-limit <seconds>", "stop when parsing takes longer (exit 1)")
    .option("--max-memory <mb>", MAX_MEMORY_HELP)
    .action(
      action(async (domainPath: string, problemPath: string | undefined, opts: { json?: boolean; timeLimit?: string; maxMemory?: string }) => {
        if (await runBounded("parse", opts)) return;
        const d = parseDomainFile(domainPath);
        const p = problemPath === undefined ? undefined : parseProblemFile(problemPath, d);
        const s = summarize(d, p);
        if (opts.json) return printJson(s);
        const lines = [
          `domain       ${s.domain}`,
          `requirements ${s.requirements.length > 0 ? s.requirements.join(" ") : "(none)"}`,
          `types        ${s.types}`,
          `predicates   ${s.predicates}`,
          `functions    ${d.functions.length}`,
          `constants    ${d.constants.length}`,
          `actions      ${s.actions}${d.derived.length > 0 ? ` (+${d.derived.length} derived predicates)` : ""}`,
        ];
        if (p) {
          lines.push(`problem      ${p.name}`, `objects      ${s.objects}`, `init         ${s.init}`, `metric       ${p.metric ? `${p.metric.direction} (${p.metric.fn.name})` : "(none)"}`);
        }
        process.stdout.write(lines.join("\n") + "\n");
      }),
    );
}
