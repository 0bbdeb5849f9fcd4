import { UserError } from "../pddl/errors.js";
import type { Prng } from "../util/prng.js";

/** One size option of a generator, exposed on the CLI as `--<flag> N`. */
export interface SizeOption {
  /** Flag name without dashes, e.g. "blocks" (CLI `--blocks`). */
  flag: string;
  /** One line for `--help`. */
  description: string;
  /** The default as shown to users, e.g. "3-5 (drawn per problem)". */
  default: string;
  /** Smallest and largest value a user may give. */
  min: number;
  max: number;
}

/** User-given sizes, by flag name; a missing flag means "draw from the default range". */
export type Sizes = Readonly<Record<string, number | undefined>>;

/** A problem before printing: objects (name, type), init atoms and goal literals as PDDL text. */
export interface ProblemSpec {
  objects: ReadonlyArray<readonly [name: string, type: string]>;
  init: readonly string[];
  /** Goal literals, e.g. "(on a b)" or "(not (on r1))". */
  goal: readonly string[];
}

/** What one domain file of src/generators exports. */
export interface DomainGenerator {
  name: string;
  description: string;
  defaultSamplesPerState: number;
  sizeOptions: readonly SizeOption[];
  /** Draw one problem. Throws UserError when the given sizes are inconsistent. */
  build(prng: Prng, sizes: Sizes): ProblemSpec;
  /**
   * True only where every problem like `spec` is solvable, by a property of the domain and the
   * generator (say which in a comment); tested against the planner's check. Absent: the planner
   * decides.
   */
  solvable?(spec: ProblemSpec): boolean;
}

/**
 * Does the goal of `spec` hold in its initial state (closed world; literals as `atom` prints
 * them)? Such a draw has an empty plan and is never kept.
 */
export function goalHoldsInInit(spec: ProblemSpec): boolean {
  const init = new Set(spec.init);
  return spec.goal.every((g) => (g.startsWith("(not ") ? !init.has(g.slice(5, -1)) : init.has(g)));
}

/**
 * A size: always consumes one draw from [lo, hi] (so that overriding one size leaves the
 * other draws unchanged), then returns the user's value if given.
 */
export function draw(prng: Prng, sizes: Sizes, flag: string, lo: number, hi: number): number {
  const v = prng.range(lo, hi);
  return sizes[flag] ?? v;
}

/** Throw a UserError naming the flag. */
export function sizeError(flag: string, msg: string): never {
  throw new UserError(`--${flag} ${msg}`);
}

/** Print a problem as PDDL, objects grouped by type in first-appearance order. */
export function renderProblem(domain: string, name: string, spec: ProblemSpec, requirements: readonly string[] = []): string {
  const byType = new Map<string, string[]>();
  for (const [o, t] of spec.objects) {
    let l = byType.get(t);
    if (l === undefined) byType.set(t, (l = []));
    l.push(o);
  }
  const out: string[] = [];
  out.push(`(define (problem ${name})`);
  out.push(`  (:domain ${domain})`);
  if (requirements.length > 0) out.push(`  (:requirements ${requirements.join(" ")})`);
  out.push("  (:objects");
  for (const [t, os] of byType) out.push(`    ${os.join(" ")} - ${t}`);
  out.push("  )");
  out.push("  (:init");
  for (const a of spec.init) out.push(`    ${a}`);
  out.push("  )");
  if (spec.goal.length === 1) out.push(`  (:goal ${spec.goal[0]})`);
  else {
    out.push("  (:goal (and");
    for (const g of spec.goal) out.push(`    ${g}`);
    out.push("  ))");
  }
  out.push(")");
  return out.join("\n") + "\n";
}

/** Canonical key of a problem: objects, init and goal, each sorted (order-free identity). */
export function problemKey(spec: ProblemSpec): string {
  const objs = spec.objects.map(([o, t]) => `${o}:${t}`).sort();
  return `${objs.join(" ")}|${[...spec.init].sort().join("")}|${[...spec.goal].sort().join("")}`;
}

/** Atom text helper: atom("on", "a", "b") -> "(on a b)". */
export function atom(pred: string, ...args: string[]): string {
  return args.length === 0 ? `(${pred})` : `(${pred} ${args.join(" ")})`;
}

/** Cell name of a grid position (1-based): r2c3. */
export function cellName(r: number, c: number): string {
  return `r${r}c${c}`;
}

/** Integers lo..hi inclusive. */
export function irange(lo: number, hi: number): number[] {
  const xs: number[] = [];
  for (let i = lo; i <= hi; i++) xs.push(i);
  return xs;
}
