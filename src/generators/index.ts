/**
 * The eleven built-in domains: their PDDL files, default problem sets and seeded problem
 * generators, and `generateProblems`, which makes distinct, solvable, deterministic problem sets.
 */
import { join } from "node:path";
import type { Domain } from "../pddl/ast.js";
import { UserError } from "../pddl/errors.js";
import { parseDomain, parseProblem } from "../pddl/index.js";
import { breadthFirst, goalRelevance, solve, type SearchResult } from "../search/index.js";
import { ground } from "../task/index.js";
import type { GroundTask } from "../task/types.js";
import { packageRoot } from "../util/paths.js";
import { Prng } from "../util/prng.js";
import { readFileSync } from "node:fs";
import { blocksworld } from "./blocksworld.js";
import { blocksworld3ops } from "./blocksworld-3ops.js";
import { problemKey, renderProblem, type DomainGenerator, type ProblemSpec, type SizeOption, type Sizes, goalHoldsInInit } from "./common.js";
import { elevator } from "./elevator.js";
import { ferry } from "./ferry.js";
import { hanoi } from "./hanoi.js";
import { logistics } from "./logistics.js";
import { npuzzle } from "./npuzzle.js";
import { rooms } from "./rooms.js";
import { sokoban } from "./sokoban.js";
import { spanner } from "./spanner.js";
import { visitgrid } from "./visitgrid.js";

export type { SizeOption, Sizes, ProblemSpec } from "./common.js";

/** A built-in domain: its name, description, default samples per state and problem generator. */
export interface BuiltinDomain {
  name: string;
  /** One line. */
  description: string;
  /** Default y (candidates sampled per state), after the paper's rows/(problems*MOPL). */
  defaultSamplesPerState: number;
  sizeOptions: readonly SizeOption[];
  /** Problem PDDL text for one draw; sizes given override the random draws. */
  generate(prng: Prng, sizes: Sizes, problemName: string): string;
  /** The same draw as `generate`, before printing. */
  build(prng: Prng, sizes: Sizes): ProblemSpec;
  /** Is every problem like `spec` solvable by construction? (false: ask the planner) */
  solvable(spec: ProblemSpec): boolean;
}

function builtin(g: DomainGenerator): BuiltinDomain {
  return {
    name: g.name,
    description: g.description,
    defaultSamplesPerState: g.defaultSamplesPerState,
    sizeOptions: g.sizeOptions,
    build: (prng, sizes) => g.build(prng, sizes),
    solvable: (spec) => g.solvable?.(spec) ?? false,
    generate: (prng, sizes, problemName) => renderProblem(g.name, problemName, g.build(prng, sizes)),
  };
}

/** The eleven built-in domains, in the order of the paper's table. */
export const BUILTIN_DOMAINS: readonly BuiltinDomain[] = [
  blocksworld,
  blocksworld3ops,
  ferry,
  hanoi,
  logistics,
  elevator,
  npuzzle,
  visitgrid,
  sokoban,
  spanner,
  rooms,
].map(builtin);

/** The built-in domain of that name; an unknown name is a UserError listing the valid names. */
export function getBuiltinDomain(name: string): BuiltinDomain {
  const d = BUILTIN_DOMAINS.find((x) => x.name === name.toLowerCase());
  if (d === undefined)
    throw new UserError(`unknown domain '${name}' (built-in domains: ${BUILTIN_DOMAINS.map((x) => x.name).join(", ")})`);
  return d;
}

/** Absolute path of domains/<name>/domain.pddl. */
export function builtinDomainFile(name: string): string {
  return join(packageRoot(), "domains", getBuiltinDomain(name).name, "domain.pddl");
}

/** Absolute path of the default problem set problems/<name>/. */
export function builtinProblemsDir(name: string): string {
  return join(packageRoot(), "problems", getBuiltinDomain(name).name);
}

/**
 * Check user sizes against a domain's options: unknown flags, out-of-range values and
 * inconsistent combinations are a UserError naming the flag (`--blocks`).
 */
export function checkSizes(name: string, sizes: Sizes): void {
  const d = getBuiltinDomain(name);
  for (const [flag, v] of Object.entries(sizes)) {
    if (v === undefined) continue;
    const opt = d.sizeOptions.find((o) => o.flag === flag);
    if (opt === undefined)
      throw new UserError(`--${flag} is not a size option of ${d.name} (options: ${d.sizeOptions.map((o) => "--" + o.flag).join(", ")})`);
    if (!Number.isInteger(v) || v < opt.min || v > opt.max) throw new UserError(`--${flag} must be an integer in ${opt.min}..${opt.max}, got ${v}`);
  }
  // one trial draw surfaces inconsistent combinations (e.g. fewer spanners than nuts)
  d.build(new Prng(0, "check-sizes"), sizes);
}

/** Options of `generateProblems`. */
export interface GenerateProblemsOptions {
  count: number;
  seed: number;
  /** Fixed sizes (by flag name); others are drawn per problem. */
  sizes?: Sizes;
  /** Check solvability with the optimal planner and measure plan lengths (default true). */
  check?: boolean;
  /**
   * Measure every problem's optimal plan length (default true). False (for a run that labels
   * the problems, and so finds their plans anyway): where the generator proves a draw solvable
   * (`solvable`), only a goal that already holds is checked and `planLength` is -1. The same
   * problems either way (tested).
   */
  planLengths?: boolean;
  /** Per-problem planner limits for the check (default 200,000 expansions, 10 s). */
  maxExpansions?: number;
  timeMs?: number;
}

/** One generated problem. `planLength` is the optimal plan length (-1 when not checked). */
export interface GeneratedProblem {
  name: string;
  text: string;
  planLength: number;
  /** The draw that made it (its PRNG sub-stream): `regenerateProblem` makes the same text from it. */
  attempt: number;
}

/** Attempts per problem before giving up (sizes too small for that many distinct problems). */
const MAX_ATTEMPTS = 200;
/**
 * Most problems one domain's generator is asked for (`--count`): above the paper's largest set
 * (3,563) by far, and checked up front so an absurd count fails at once, not after hours.
 */
export const MAX_PROBLEM_COUNT = 100_000;
/** Draws of one problem that may hit the planner's limits before generation fails. */
const MAX_LIMIT_HITS = 3;

const domainCache = new Map<string, Domain>();

function builtinDomainAst(name: string): Domain {
  let d = domainCache.get(name);
  if (d === undefined) {
    const file = builtinDomainFile(name);
    d = parseDomain(readFileSync(file, "utf8"), file);
    domainCache.set(name, d);
  }
  return d;
}

/** Problem name of the i-th problem (1-based): p0001. */
export function problemName(i: number): string {
  return `p${String(i).padStart(4, "0")}`;
}

/**
 * Expansions of the first, blind check. The built-in domains have unit costs, so any optimal
 * search gives the same plan length; on their small problems a breadth-first search over the
 * goal-relevant operators settles it 2-50x faster than building LM-Cut on the finite-domain
 * view (measured on 60 problems per domain), and it expands no more states than A* with the
 * blind heuristic did here. A problem it leaves open gets the LM-Cut search, so what counts as
 * solvable or too large is as before.
 */
const BLIND_EXPANSIONS = 20_000;

/** An optimal search for the generator's check: solved (with an optimal plan), unsolvable, or limit. */
function checkSolvable(task: GroundTask, limits: { maxExpansions: number; timeMs: number }): SearchResult {
  if (!task.hasCosts) {
    const rel = goalRelevance(task);
    const blind = breadthFirst(task, {
      limits: { ...limits, maxExpansions: Math.min(BLIND_EXPANSIONS, limits.maxExpansions) },
      opMask: rel.ops,
      factMask: rel.factWords,
    });
    if (blind.status !== "limit") return blind;
  }
  return solve(task, { heuristic: "lmcut", limits });
}

/**
 * The text of problem `index` (1-based) of `generateProblems(name, { seed, count })` with
 * default sizes, from the draw that made it (`GeneratedProblem.attempt`), without the draws
 * before it or the checks: a run keeps only that number and makes the text again where the
 * problem is labelled.
 */
export function regenerateProblem(name: string, seed: number, index: number, attempt: number): string {
  const d = getBuiltinDomain(name);
  return renderProblem(d.name, problemName(index), d.build(new Prng(seed, `${d.name}/${index}/${attempt}`), {}));
}

/**
 * Generate `count` distinct (canonical key of objects, init and goal), solvable problems named
 * p0001, p0002, …, each with a non-empty optimal plan. Problem i draws from a PRNG derived from
 * (seed, domain, i); a duplicate or unsolvable draw retries on the next sub-stream, so the same
 * seed always gives the same set, and a longer set extends a shorter one.
 */
export function generateProblems(name: string, opts: GenerateProblemsOptions): GeneratedProblem[] {
  const d = getBuiltinDomain(name);
  if (!Number.isSafeInteger(opts.count) || opts.count > MAX_PROBLEM_COUNT) {
    throw new UserError(`count must be at most ${MAX_PROBLEM_COUNT}, got ${opts.count}`);
  }
  const sizes = opts.sizes ?? {};
  checkSizes(d.name, sizes);
  const check = opts.check ?? true;
  const domain = check ? builtinDomainAst(d.name) : null;
  const seen = new Set<string>();
  const out: GeneratedProblem[] = [];
  for (let i = 1; i <= opts.count; i++) {
    const pname = problemName(i);
    let done = false;
    let limitHits = 0;
    for (let attempt = 0; attempt < MAX_ATTEMPTS && !done; attempt++) {
      const prng = new Prng(opts.seed, `${d.name}/${i}/${attempt}`);
      const spec = d.build(prng, sizes);
      const key = problemKey(spec);
      if (seen.has(key)) continue;
      const text = renderProblem(d.name, pname, spec);
      let planLength = -1;
      if (domain !== null && opts.planLengths === false && d.solvable(spec)) {
        if (goalHoldsInInit(spec)) continue;
      } else if (domain !== null) {
        const problem = parseProblem(text, `${d.name}/${pname}.pddl`, domain);
        const task = ground(domain, problem);
        const res = checkSolvable(task, { maxExpansions: opts.maxExpansions ?? 200_000, timeMs: opts.timeMs ?? 10_000 });
        // sizes too large for the check: give up soon rather than retry for minutes
        if (res.status === "limit" && ++limitHits >= MAX_LIMIT_HITS)
          throw new UserError(
            `${d.name}: problem ${i} is too large to check for solvability within the planner's limits ` +
              `(${MAX_LIMIT_HITS} draws hit them); use smaller sizes`,
          );
        if (res.status !== "solved" || res.plan.length === 0) continue;
        planLength = res.plan.length;
      }
      seen.add(key);
      out.push({ name: pname, text, planLength, attempt });
      done = true;
    }
    if (!done)
      throw new UserError(
        `${d.name}: could not make problem ${i} distinct and solvable in ${MAX_ATTEMPTS} attempts; ` +
          `the sizes allow too few different problems (made ${out.length})`,
      );
  }
  return out;
}
