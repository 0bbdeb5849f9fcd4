/** Running the built CLI from tests. */
import { execFile } from "node:child_process";
import { join, resolve } from "node:path";

export const ROOT = resolve(__dirname, "..");
export const CLI = join(ROOT, "dist", "src", "cli", "main.js");

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * A function that runs the CLI in `cwd` without blocking: a test file of many synchronous runs
 * would starve vitest's worker of its event loop (and its RPC would time out).
 */
export function cliRunner(cwd: string): (args: string[], env?: Record<string, string>) => Promise<CliResult> {
  return (args, env = {}) =>
    new Promise((res) => {
      const opts = { encoding: "utf8" as const, cwd, maxBuffer: 64 * 2 ** 20, env: { ...process.env, ...env } };
      execFile(process.execPath, [CLI, ...args], opts, (e, stdout, stderr) => {
        const code = e === null ? 0 : typeof e.code === "number" ? e.code : null;
        res({ code, stdout, stderr });
      });
    });
}
