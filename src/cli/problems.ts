import type { Command } from "commander";
import { writeFileAtomic } from "../util/atomic-write.js";
import { join } from "node:path";
import { BUILTIN_DOMAINS, checkSizes, generateProblems, getBuiltinDomain, MAX_PROBLEM_COUNT, type Sizes } from "../generators/index.js";
import { UserError } from "../pddl/errors.js";
import { action, intFlag, printJson, UsageError } from "./common.js";
import { makeFolders } from "../dataset/disk.js";

/** Every size flag of every built-in domain, with the domains that use it. */
function sizeFlags(): Map<string, { description: string; domains: string[] }> {
  const m = new Map<string, { description: string; domains: string[] }>();
  for (const d of BUILTIN_DOMAINS)
    for (const o of d.sizeOptions) {
      const e = m.get(o.flag);
      if (e === undefined) m.set(o.flag, { description: o.description, domains: [d.name] });
      else e.domains.push(d.name);
    }
  // a flag shared by domains with different meanings gets one description per domain
  for (const [flag, e] of m) {
    const descs = e.domains.map((n) => BUILTIN_DOMAINS.find((d) => d.name === n)!.sizeOptions.find((o) => o.flag === flag)!.description);
    if (new Set(descs).size > 1) e.description = e.domains.map((n, i) => `${n}: ${descs[i]}`).join("; ");
  }
  return m;
}

/** Flags as commander stores them: `--packages` -> packages. */
function camel(flag: string): string {
  return flag.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
}

/**
 * `pddl2prm problems --domain NAME --count N [--seed S] [--out DIR] [size options]`: write
 * distinct, solvable problems p0001.pddl … with the domain's generator.
 */
export function register(program: Command): void {
  const cmd = program
    .command("problems")
    .description("write distinct, solvable problems p0001.pddl, p0002.pddl, ... for a built-in domain (seeded)")
    .requiredOption("--domain <name>", "built-in domain (see `pddl2prm domains`)")
    .requiredOption("--count <n>", "number of problems")
    .option("--seed <s>", "random seed (same seed, same files)", "1")
    .option("--out <dir>", "output folder (default out/problems/<domain>)")
    .option("--json", "print one JSON object");
  cmd.addHelpText(
    "after",
    "\nSizes not given are drawn per problem from ranges calibrated to the paper's mean optimal plan\n" +
      "lengths. Options and defaults per domain:\n" +
      BUILTIN_DOMAINS.map((d) => `  ${d.name}: ${d.sizeOptions.map((o) => `--${o.flag} ${o.default.replace(" (drawn per problem)", "")}`).join(", ")}`).join("\n") +
      "\nPrints a summary line with the mean optimal plan length of what was written.",
  );
  const flags = sizeFlags();
  for (const [flag, e] of flags)
    cmd.option(`--${flag} <n>`, e.description.includes(": ") ? e.description : `${e.description} (${e.domains.join(", ")})`);
  cmd.action(
    action((opts: Record<string, string | boolean | undefined>) => {
      const name = String(opts["domain"]);
      const d = (() => {
        try {
          return getBuiltinDomain(name);
        } catch (e) {
          throw new UsageError(`--domain: ${(e as Error).message}`);
        }
      })();
      const count = intFlag("--count", opts["count"] as string, 1, MAX_PROBLEM_COUNT)!;
      const seed = intFlag("--seed", opts["seed"] as string, 0)!;
      const sizes: Record<string, number> = {};
      for (const flag of flags.keys()) {
        const v = opts[camel(flag)];
        if (v === undefined) continue;
        if (!d.sizeOptions.some((o) => o.flag === flag))
          throw new UsageError(`--${flag} is not a size option of ${d.name} (options: ${d.sizeOptions.map((o) => "--" + o.flag).join(", ") || "none"})`);
        sizes[flag] = intFlag(`--${flag}`, v as string, 0)!;
      }
      try {
        checkSizes(d.name, sizes as Sizes);
      } catch (e) {
        throw e instanceof UserError ? new UsageError(e.message) : e;
      }
      const out = (opts["out"] as string | undefined) ?? join("out", "problems", d.name);
      const t0 = performance.now();
      // everything is generated before anything is written: a failure leaves no partial set
      const probs = generateProblems(d.name, { count, seed, sizes });
      const ms = performance.now() - t0;
      try {
        makeFolders(out);
        for (const p of probs) {
          writeFileAtomic(join(out, `${p.name}.pddl`), p.text);
        }
      } catch (e) {
        throw new UserError(`--out ${out}: cannot write (${(e as NodeJS.ErrnoException).code ?? String(e)})`);
      }
      const lens = probs.map((p) => p.planLength);
      const mean = lens.reduce((a, b) => a + b, 0) / lens.length;
      if (opts["json"]) {
        printJson({
          domain: d.name,
          count: probs.length,
          seed,
          out,
          mean_plan_length: Number(mean.toFixed(3)),
          min_plan_length: Math.min(...lens),
          max_plan_length: Math.max(...lens),
          ms: Math.round(ms),
        });
      } else {
        process.stdout.write(
          `wrote ${probs.length} ${d.name} problems to ${out} (seed ${seed}): mean optimal plan length ${mean.toFixed(2)} ` +
            `(min ${Math.min(...lens)}, max ${Math.max(...lens)}) in ${(ms / 1000).toFixed(1)} s\n`,
        );
      }
    }),
  );
}
