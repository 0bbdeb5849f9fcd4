/** Shared helpers of the nl-* tests. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Domain } from "../src/pddl/ast.js";
import { parseDomain, parseProblem } from "../src/pddl/index.js";
import { ground } from "../src/task/index.js";
import type { GroundTask } from "../src/task/types.js";
import type { Candidate } from "../src/label/types.js";
import { getBuiltinDomain } from "../src/generators/index.js";
import { Prng } from "../src/util/prng.js";

export const ROOT = join(import.meta.dirname, "..");
export const FIXTURES = join(ROOT, "tests", "fixtures", "nl");

export const DOMAINS = [
  "blocksworld",
  "blocksworld-3ops",
  "ferry",
  "hanoi",
  "logistics",
  "elevator",
  "npuzzle",
  "visitgrid",
  "sokoban",
  "spanner",
  "rooms",
] as const;

const domainCache = new Map<string, Domain>();

export function builtinDomain(name: string): Domain {
  let d = domainCache.get(name);
  if (d === undefined) {
    const file = join(ROOT, "domains", name, "domain.pddl");
    d = parseDomain(readFileSync(file, "utf8"), file);
    domainCache.set(name, d);
  }
  return d;
}

/** The fixture problem of a built-in domain, grounded. */
export function fixtureTask(name: string): GroundTask {
  const domain = builtinDomain(name);
  const file = join(FIXTURES, `${name}.pddl`);
  return ground(domain, parseProblem(readFileSync(file, "utf8"), file, domain));
}

/** `count` problems drawn by the domain's generator (no solvability check), grounded. */
export function generatedTasks(name: string, count: number, seed = 11): GroundTask[] {
  const domain = builtinDomain(name);
  const gen = getBuiltinDomain(name);
  const out: GroundTask[] = [];
  for (let i = 0; i < count; i++) {
    const text = gen.generate(new Prng(seed, `${name}/${i}`), {}, `t${i}`);
    out.push(ground(domain, parseProblem(text, `${name}/t${i}.pddl`, domain)));
  }
  return out;
}

/** The candidate of ground operator `op`. */
export function opCand(task: GroundTask, op: number): Candidate {
  return {
    schema: task.opSchema[op]!,
    args: Array.from(task.opArgs.subarray(task.opArgStart[op]!, task.opArgStart[op + 1]!)),
    name: task.opNames[op]!,
    op,
  };
}

/** A random type-correct grounding of a random schema (op = -1: not looked up). */
export function randomCandidate(task: GroundTask, prng: Prng): Candidate | null {
  const schema = prng.int(task.domain.actions.length);
  const a = task.domain.actions[schema]!;
  const args: number[] = [];
  for (const p of a.params) {
    const ok: number[] = [];
    for (let i = 0; i < task.objects.length; i++) if (p.types.some((t) => task.objectTypes[i]!.includes(t))) ok.push(i);
    if (ok.length === 0) return null;
    args.push(prng.pick(ok));
  }
  return { schema, args, name: `(${[a.name, ...args.map((x) => task.objects[x]!)].join(" ")})`, op: -1 };
}

/** Text faults the renderer must never produce. */
export function textFaults(s: string): string[] {
  const out: string[] = [];
  if (/[{}]/.test(s)) out.push("leftover brace");
  if (/\bundefined\b/.test(s)) out.push("undefined");
  if (/\bNaN\b/.test(s)) out.push("NaN");
  if (/\bnull\b/.test(s)) out.push("null");
  if (/\bInfinity\b/.test(s)) out.push("Infinity");
  if (/ {2}/.test(s)) out.push("double space");
  if (/ [,.;:]/.test(s)) out.push("space before punctuation");
  if (/\.\./.test(s)) out.push("double period");
  if (s !== s.trim()) out.push("untrimmed");
  return out;
}
