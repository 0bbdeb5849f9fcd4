/**
 * What the benches share: command-line flags, the median, and the reference
 * figures in <shared>/reference/fd-lmcut.jsonl (<shared> is $PDDL2PRM_SHARED, else ../shared
 * relative to the cwd).
 */
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";

/** One line of fd-lmcut.jsonl: Fast Downward's A* + LM-Cut (or h^max) on one IPC instance. */
export interface FdReference {
  domain: string;
  problem: string;
  solved: boolean;
  cost?: number;
  initial_h?: number | null;
  expanded?: number;
  expanded_until_last_jump?: number;
  evaluated?: number;
  search_s?: number;
  search_config?: string;
  timeout?: boolean;
  note?: string;
}

/** The value after `--name` on the command line. */
export function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

/** The median of `xs` (mean of the two middle values for an even count); NaN when empty. */
export function median(xs: number[]): number {
  if (xs.length === 0) return NaN;
  const a = xs.slice().sort((x, y) => x - y);
  const m = a.length >> 1;
  return a.length % 2 ? a[m]! : (a[m - 1]! + a[m]!) / 2;
}

/**
 * The shared folder and its reference figures, or null (with a message naming `bench` on
 * stderr and exit code 1) when they are missing.
 */
export function readReferences(bench: string): { shared: string; refs: FdReference[] } | null {
  const shared = resolve(process.env.PDDL2PRM_SHARED ?? "../shared");
  const refPath = join(shared, "reference", "fd-lmcut.jsonl");
  if (!existsSync(refPath)) {
    process.stderr.write(`${bench}: ${refPath} not found (set PDDL2PRM_SHARED)\n`);
    process.exitCode = 1;
    return null;
  }
  const refs = readFileSync(refPath, "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as FdReference);
  return { shared, refs };
}
