/**
 * `pddl2prm templates init --domain-file D [--problem P] [--out FILE] [--force]`: write an
 * editable nl.json for a user domain, with the generic translator's guesses filled in.
 * `pddl2prm templates check FILE --domain-file D [--problem P ...] [--json]`: validate an
 * (edited) nl.json as `--templates` would, and read back every sentence of each problem.
 */
import type { Command } from "commander";
import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { compileTemplates, loadTemplatesFile, type NlTemplates } from "../nl/index.js";
import { checkMeaning } from "../nl/meaning.js";
import { checkTask } from "../nl/readability.js";
import { scaffoldTemplates } from "../nl/scaffold.js";
import { parseDomainFile, parseProblemFile } from "../pddl/index.js";
import { UserError } from "../pddl/errors.js";
import { ground } from "../task/index.js";
import { writeFileAtomic } from "../util/atomic-write.js";
import { action, EXIT_BAD_INPUT, groundCapOptions, groundLimits, printJson, UsageError, type GroundCapFlags } from "./common.js";

interface CheckFlags extends GroundCapFlags {
  domainFile?: string;
  problem: string[];
  genericFallback?: boolean;
  json?: boolean;
}

/** Failures listed on stderr per problem (all of them are counted, and all go to --json). */
const LISTED_FAILURES = 20;

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
        if (existsSync(flags.out) && statSync(flags.out).isDirectory()) throw new UserError(`--out ${flags.out}: is a folder; name the file to write (e.g. ${join(flags.out, "nl.json")})`);
        if (existsSync(flags.out) && !flags.force) throw new UserError(`${flags.out} exists (use --force to overwrite it)`);
        try {
          writeFileAtomic(flags.out, text);
        } catch (e) {
          const code = (e as NodeJS.ErrnoException).code ?? String(e);
          const why = code === "ENOENT" ? "its folder does not exist" : code === "ENOTDIR" ? "a part of its path is a file, not a folder" : code;
          throw new UserError(`--out ${flags.out}: cannot write the file (${why})`);
        }
        process.stderr.write(`wrote ${flags.out}: ${Object.keys(json.predicates).length} predicates, ${Object.keys(json.actions).length} actions; edit it, then run generate --templates ${flags.out}\n`);
      }),
    );

  const check = templates
    .command("check")
    .description("check an nl.json as --templates would (schema, names, placeholders, texts that read alike); with --problem, read back every sentence of each problem")
    .argument("<file>", "the nl.json to check")
    .option("--domain-file <file>", "the domain PDDL file the nl.json is written for")
    .option("--problem <file>", "a problem of the domain: render every fact and action text and read each back to exactly what it stands for (repeat for more problems)", (v: string, xs: string[]) => [...xs, v], [] as string[])
    .option("--generic-fallback", "as with generate: text from PDDL names for the actions and predicates the file leaves out")
    .option("--json", "print one JSON object {file, problems: [{problem, facts, actions, failures}], ok}");
  groundCapOptions(check).action(
    action((file: string, flags: CheckFlags) => {
      if (flags.domainFile === undefined) throw new UsageError("templates check needs --domain-file");
      const limits = groundLimits(flags);
      const domain = parseDomainFile(flags.domainFile);
      // bad PDDL is bad input (file:line), before anything is checked
      const problems = flags.problem.map((p) => ({ path: p, problem: parseProblemFile(p, domain) }));
      let compiled: NlTemplates;
      try {
        compiled = loadTemplatesFile(file, domain, { genericFallback: flags.genericFallback === true });
      } catch (e) {
        if (flags.json && e instanceof UserError) printJson({ file, problems: [], ok: false, error: e.message });
        throw e;
      }
      if (!flags.json) process.stdout.write(`${file}: schema, names, placeholders and texts that read alike: ok\n`);
      const results: Array<{ problem: string; facts: number; actions: number; failures: string[] }> = [];
      for (const { path, problem } of problems) {
        const task = ground(domain, problem, limits);
        const rep = checkMeaning(task, compiled, { maxFailures: Number.MAX_SAFE_INTEGER });
        results.push({ problem: path, facts: rep.facts, actions: rep.actions, failures: rep.failures });
        if (flags.json) continue;
        const n = rep.failures.length;
        process.stdout.write(`${path}: ${rep.facts} fact sentences and ${rep.actions} action texts checked: ${n === 0 ? "all read back to what they stand for" : `${n} failure${n === 1 ? "" : "s"}`}\n`);
        if (n > 0) {
          process.stderr.write(`${path}: ${n} sentence${n === 1 ? " does" : "s do"} not read back to what ${n === 1 ? "it stands" : "they stand"} for:\n`);
          for (const f of rep.failures.slice(0, LISTED_FAILURES)) process.stderr.write(`  ${f}\n`);
          if (n > LISTED_FAILURES) process.stderr.write(`  ... and ${n - LISTED_FAILURES} more (${n} in all)\n`);
        }
      }
      const ok = results.every((r) => r.failures.length === 0);
      if (flags.json) printJson({ file, problems: results, ok });
      if (!ok) process.exitCode = EXIT_BAD_INPUT;
    }),
  );
}
