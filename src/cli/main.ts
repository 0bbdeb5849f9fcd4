#!/usr/bin/env node
import { Command, CommanderError } from "commander";
import { createRequire } from "node:module";
import { EXIT_USAGE } from "./common.js";

/** A command module: one file per command, registering itself on the program. */
type CommandModule = { register(program: Command): void };

/**
 * Command name -> its module. Loaded lazily: a command pays only for the modules it uses,
 * which keeps start-up short (`--help` loads them all).
 */
const COMMANDS: Record<string, () => Promise<CommandModule>> = {
  parse: () => import("./parse.js"),
  ground: () => import("./ground.js"),
  solve: () => import("./solve.js"),
  validate: () => import("./validate.js"),
  label: () => import("./label.js"),
  judge: () => import("./judge.js"),
  reward: () => import("./reward.js"),
  serve: () => import("./serve.js"),
  domains: () => import("./domains.js"),
  problems: () => import("./problems.js"),
  generate: () => import("./generate.js"),
  stats: () => import("./stats.js"),
  merge: () => import("./stats.js"),
  score: () => import("./score.js"),
  templates: () => import("./templates.js"),
  audit: () => import("./audit.js"),
};

const require = createRequire(import.meta.url);
const pkg = require("../../../package.json") as { version: string };

/**
 * Build the commander program with the commands named in `only` (all when omitted).
 * Exported so tests can drive it in-process.
 */
export async function buildProgram(only?: string): Promise<Command> {
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
  const loaders = only !== undefined && only in COMMANDS ? [COMMANDS[only]!] : [...new Set(Object.values(COMMANDS))];
  const seen = new Set<CommandModule>();
  for (const load of loaders) {
    const mod = await load();
    if (seen.has(mod)) continue;
    seen.add(mod);
    mod.register(program);
  }
  return program;
}

async function main(): Promise<void> {
  // a reader that closes early (`pddl2prm judge --help | head`) is not an error of ours
  for (const stream of [process.stdout, process.stderr]) {
    stream.on("error", (e: NodeJS.ErrnoException) => {
      if (e.code !== "EPIPE") throw e;
      process.exit(process.exitCode ?? 0);
    });
  }
  const program = await buildProgram(process.argv[2]);
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
