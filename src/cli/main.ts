#!/usr/bin/env node
import { Command, CommanderError } from "commander";
import { createRequire } from "node:module";
import { EXIT_USAGE } from "./common.js";
import { register as registerParse } from "./parse.js";
import { register as registerDomains } from "./domains.js";
import { register as registerProblems } from "./problems.js";
import { register as registerGround } from "./ground.js";
import { register as registerValidate } from "./validate.js";
import { register as registerLabel } from "./label.js";
import { register as registerGenerate } from "./generate.js";
import { register as registerStats } from "./stats.js";
import { register as registerSolve } from "./solve.js";
// Each command lives in its own file and registers itself on the program.
// (commands are added here as they land)

const require = createRequire(import.meta.url);
const pkg = require("../../../package.json") as { version: string };

/** Build the commander program (exported so tests can drive it in-process). */
export function buildProgram(): Command {
  const program = new Command();
  program
    .name("pddl2prm")
    .description("Turn PDDL planning problems into exactly-labelled step-reward datasets for PRMs")
    .version(pkg.version)
    .showHelpAfterError("(run with --help for usage)")
    .exitOverride()
    .configureOutput({
      outputError: (str, write) => write(str.replace(/^error:/, "pddl2prm: error:")),
    });
  registerParse(program);
  registerDomains(program);
  registerProblems(program);
  registerGround(program);
  registerValidate(program);
  registerLabel(program);
  registerGenerate(program);
  registerStats(program);
  registerSolve(program);
  return program;
}

async function main(): Promise<void> {
  const program = buildProgram();
  try {
    await program.parseAsync(process.argv);
  } catch (e) {
    if (e instanceof CommanderError) {
      // --help and --version exit 0; everything else commander rejects is bad usage.
      process.exitCode = e.exitCode === 0 ? 0 : EXIT_USAGE;
      return;
    }
    throw e;
  }
}

await main();
