/** Driving CLI commands in-process (stdout, stderr and the exit code as main.ts would give them). */
import { Command, CommanderError } from "commander";
import { vi } from "vitest";

export interface CliResult {
  out: string;
  err: string;
  code: number;
}

/**
 * Run `pddl2prm ...args` in process with the commands `registers` add to a fresh program.
 */
export async function runCommands(registers: ((p: Command) => void)[], args: string[]): Promise<CliResult> {
  const program = new Command().exitOverride().configureOutput({ writeErr: () => {}, writeOut: () => {} });
  for (const r of registers) r(program);
  let out = "";
  let err = "";
  const o = vi.spyOn(process.stdout, "write").mockImplementation((s) => ((out += String(s)), true));
  const e = vi.spyOn(process.stderr, "write").mockImplementation((s) => ((err += String(s)), true));
  process.exitCode = 0;
  let code = 0;
  try {
    await program.parseAsync(["node", "pddl2prm", ...args]);
    code = Number(process.exitCode ?? 0);
  } catch (x) {
    if (x instanceof CommanderError) code = 2; // main.ts maps commander errors to exit 2
    else throw x;
  } finally {
    o.mockRestore();
    e.mockRestore();
    process.exitCode = 0;
  }
  return { out, err, code };
}
