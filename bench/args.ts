/**
 * Command-line checks shared by the bench scripts. Each script reads its own flags; this only
 * makes sure it was given no others: a mistyped flag used to run a minutes-long benchmark with
 * the defaults, and `--help` ran it in full.
 */

/** The flags a bench script reads: `values` take the next argument, `switches` stand alone. */
export interface BenchFlags {
  values?: readonly string[];
  switches?: readonly string[];
}

/** What is wrong with `argv` (the arguments after the script) for `flags`, or null. */
export function benchFlagProblem(argv: readonly string[], flags: BenchFlags): string | null {
  const values = new Set(flags.values ?? []);
  const switches = new Set(flags.switches ?? []);
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const eq = a.indexOf("=");
    const name = a.startsWith("--") && eq > 0 ? a.slice(0, eq) : a;
    if (values.has(name)) {
      if (name !== a) continue; // --name=value
      const v = argv[i + 1];
      if (v === undefined || (v.startsWith("--") && (values.has(v) || switches.has(v)))) return `${name} needs a value`;
      i++;
    } else if (switches.has(a)) {
      continue;
    } else {
      return a.startsWith("-") ? `unknown flag ${a}` : `unexpected argument '${a}'`;
    }
  }
  return null;
}

/** Check the command line: `--help` or `-h` prints `usage` (exit 0); a problem prints it too (exit 2). */
export function checkBenchFlags(script: string, usage: string, flags: BenchFlags, argv: readonly string[] = process.argv.slice(2)): void {
  if (argv.includes("--help") || argv.includes("-h")) {
    console.log(usage);
    process.exit(0);
  }
  const problem = benchFlagProblem(argv, flags);
  if (problem !== null) {
    console.error(`${script}: error: ${problem}\n${usage}`);
    process.exit(2);
  }
}

/** Remove `name` and its value from `args` (in place); the value, or undefined when absent. */
export function takeFlag(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  if (i < 0) return undefined;
  const v = args[i + 1];
  args.splice(i, 2);
  return v;
}
