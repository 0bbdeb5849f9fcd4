/**
 * `pddl2prm templates init --domain-file D [--problem P] [--out FILE] [--force]`: write an
 * editable nl.json for a user domain, with the generic translator's guesses filled in.
 */
import type { Command } from "commander";
import { existsSync } from "node:fs";
import { compileTemplates } from "../nl/index.js";
import { checkTask } from "../nl/readability.js";
import { scaffoldTemplates } from "../nl/scaffold.js";
import { parseDomainFile, parseProblemFile } from "../pddl/index.js";
import { UserError } from "../pddl/errors.js";
import { ground } from "../task/index.js";
import { writeFileAtomic } from "../util/atomic-write.js";
import { action, UsageError } from "./common.js";

interface InitFlags {
  domainFile?: string;
  problem?: string;
  out?: string;
  force?: boolean;
}

export function register(program: Command): void {
  const templates = program.command("templates").description("nl.json templates: the text of a domain's prompts and steps");
  templates
    .command("init")
    .description("write an nl.json for a domain with the generic text filled in, to edit (then: generate --templates FILE)")
    .option("--domain-file <file>", "the domain PDDL file")
    .option("--problem <file>", "a problem of the domain: check that every action's text parses back to it and report faults")
    .option("--out <file>", "write the nl.json here (default: standard output)")
    .option("--force", "overwrite --out if it exists")
    .action(
      action((flags: InitFlags) => {
        if (flags.domainFile === undefined) throw new UsageError("templates init needs --domain-file");
        const domain = parseDomainFile(flags.domainFile);
        const json = scaffoldTemplates(domain);
        // The scaffold must load like any user nl.json (schema, names, placeholders).
        const compiled = compileTemplates(json, domain, flags.out ?? "(templates init)");
        if (flags.problem !== undefined) {
          const task = ground(domain, parseProblemFile(flags.problem, domain));
          const rep = checkTask(task, compiled);
          const bad = [...rep.roundTripFailures.map((f) => `round trip: ${f}`), ...rep.faults];
          process.stderr.write(`checked ${rep.checked} texts of ${flags.problem}: ${bad.length === 0 ? "all read back to their actions" : `${bad.length} faults`}\n`);
          for (const f of bad.slice(0, 10)) process.stderr.write(`  ${f}\n`);
        }
        const text = JSON.stringify(json, null, 2) + "\n";
        if (flags.out === undefined) {
          process.stdout.write(text);
          return;
        }
        if (existsSync(flags.out) && !flags.force) throw new UserError(`${flags.out} exists (use --force to overwrite it)`);
        writeFileAtomic(flags.out, text);
        process.stderr.write(`wrote ${flags.out}: ${Object.keys(json.predicates).length} predicates, ${Object.keys(json.actions).length} actions; edit it, then run generate --templates ${flags.out}\n`);
      }),
    );
}
