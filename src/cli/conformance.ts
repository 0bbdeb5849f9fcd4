#!/usr/bin/env node
/**
 * Conformance script: `node dist/src/cli/conformance.js DIR [--only a,b] [--verbose]`.
 * Walks DIR (one folder per domain with `domain.pddl`, or a per-problem domain file beside the
 * problem: see `domainFileFor`), runs every stage of
 * conformance-stages.ts on every pair, prints one line per failure and last `N passed, M failed`.
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import { basename, join } from "node:path";
import { pathToFileURL } from "node:url";
import { PddlError } from "../pddl/index.js";
import { domainFileFor, isDomainFileName } from "../pddl/files.js";
import { conformanceStages, type ConformanceStage, type StageContext } from "./conformance-stages.js";

/** A problem file and the domain file it goes with (null when none was found). */
export interface Pair {
  domain: string | null;
  problem: string;
}

/** All (domain, problem) pairs under `root`, sorted by path; walks subfolders recursively. */
export function findPairs(root: string): Pair[] {
  const out: Pair[] = [];
  const walk = (dir: string): void => {
    const entries = readdirSync(dir).sort();
    for (const e of entries) {
      const p = join(dir, e);
      if (statSync(p).isDirectory()) walk(p);
      else if (e.toLowerCase().endsWith(".pddl") && !e.startsWith(".") && !isDomainFileName(e)) out.push({ domain: domainFileFor(dir, e), problem: p });
    }
  };
  walk(root);
  return out;
}

function message(e: unknown): string {
  if (e instanceof PddlError) return e.format();
  if (e instanceof Error) return e.message.split("\n")[0]!;
  return String(e);
}

/** Run `stages` on every pair under `root`; returns the counts. Failure lines go to `log`. */
export async function runConformance(
  root: string,
  stages: ConformanceStage[] = conformanceStages,
  log: (line: string) => void = (l) => process.stdout.write(l + "\n"),
  verbose = false,
): Promise<{ passed: number; failed: number }> {
  let passed = 0;
  let failed = 0;
  for (const pair of findPairs(root)) {
    if (pair.domain === null) {
      failed++;
      log(`FAIL ${pair.problem}: no domain file (domain.pddl or ${basename(pair.problem).slice(0, 3)}-domain.pddl) beside it`);
      continue;
    }
    const ctx: StageContext = { domainPath: pair.domain, problemPath: pair.problem, data: new Map() };
    let ok = true;
    const notes: string[] = [];
    for (const s of stages) {
      try {
        const note = await s.run(pair.domain, pair.problem, ctx);
        if (typeof note === "string" && note !== "") notes.push(`${s.name}: ${note}`);
      } catch (e) {
        ok = false;
        log(`FAIL [${s.name}] ${pair.problem}: ${message(e)}`);
        break;
      }
    }
    if (ok) {
      passed++;
      if (verbose) log(`ok   ${pair.problem}${notes.length > 0 ? `  ${notes.join("; ")}` : ""}`);
    } else failed++;
  }
  return { passed, failed };
}

async function main(argv: string[]): Promise<number> {
  const args = argv.slice(2);
  let dir: string | undefined;
  let only: string[] | null = null;
  let verbose = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === "--only") {
      const v = args[++i];
      if (v === undefined) return usage("--only expects a comma-separated list of stage names");
      only = v.split(",").map((s) => s.trim()).filter((s) => s !== "");
    } else if (a === "--verbose" || a === "-v") verbose = true;
    else if (a === "--help" || a === "-h") {
      process.stdout.write(`usage: conformance DIR [--only STAGE,...] [--verbose]\nstages: ${conformanceStages.map((s) => s.name).join(", ")}\n`);
      return 0;
    } else if (a.startsWith("-")) return usage(`unknown option '${a}'`);
    else if (dir === undefined) dir = a;
    else return usage(`unexpected argument '${a}'`);
  }
  if (dir === undefined) return usage("missing DIR");
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    process.stderr.write(`pddl2prm: error: ${dir}: no such directory\n`);
    return 1;
  }
  let stages = conformanceStages;
  if (only !== null) {
    const names = new Set(conformanceStages.map((s) => s.name));
    for (const n of only) if (!names.has(n)) return usage(`--only: unknown stage '${n}' (stages: ${[...names].join(", ")})`);
    stages = conformanceStages.filter((s) => only!.includes(s.name));
  }
  const { passed, failed } = await runConformance(dir, stages, undefined, verbose);
  process.stdout.write(`${passed} passed, ${failed} failed\n`);
  return failed > 0 ? 1 : 0;
}

function usage(msg: string): number {
  process.stderr.write(`pddl2prm: error: ${msg}\nusage: conformance DIR [--only STAGE,...] [--verbose]\n`);
  return 2;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await main(process.argv);
}
