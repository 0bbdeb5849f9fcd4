import type { Command } from "commander";
import { BUILTIN_DOMAINS } from "../generators/index.js";
import { action, printJson } from "./common.js";

/** `pddl2prm domains [--json]`: the built-in domains with a one-line description and default y. */
export function register(program: Command): void {
  program
    .command("domains")
    .description("list the built-in domains: name, one-line description, default samples per state (y)")
    .option("--json", "print one JSON object")
    .action(
      action((flags: { json?: boolean }) => {
        if (flags.json) {
          printJson({
            domains: BUILTIN_DOMAINS.map((d) => ({
              name: d.name,
              description: d.description,
              samples_per_state: d.defaultSamplesPerState,
              size_options: d.sizeOptions.map((o) => ({ flag: `--${o.flag}`, description: o.description, default: o.default })),
            })),
          });
          return;
        }
        const w = Math.max(...BUILTIN_DOMAINS.map((d) => d.name.length), 4);
        const lines = [`${"name".padEnd(w)}  y   description`];
        for (const d of BUILTIN_DOMAINS) lines.push(`${d.name.padEnd(w)}  ${String(d.defaultSamplesPerState).padEnd(2)}  ${d.description}`);
        process.stdout.write(lines.join("\n") + "\n");
      }),
    );
}
