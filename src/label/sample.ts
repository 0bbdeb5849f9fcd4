import { findOperator, isApplicable } from "../task/index.js";
import type { GroundTask } from "../task/types.js";
import type { Prng } from "../util/prng.js";
import { classify, labelExecutable, opCandidate, type Label } from "./classify.js";
import { applicableOps, type LabelContext } from "./context.js";
import type { Candidate, Category } from "./types.js";

/** Options of the candidate sampler (DESIGN.md §7). */
export interface SampleOptions {
  /**
   * Where non-executable candidates come from: "near-miss" (default) = ground operators of the
   * task whose precondition fails in s; "any" = any type-correct grounding of a schema.
   */
  nonExecutable?: "near-miss" | "any";
  /** Probability that a draw takes an executable action while both kinds remain (default 0.5). */
  executableShare?: number;
  /** Draw toward a target category mix using the labels of all executable actions at s. */
  balance?: boolean;
  /** Target mix for `balance` (normalised; default: equal shares of the five categories). */
  target?: Partial<Record<Category, number>>;
  /** Running category counts for `balance` (e.g. over a whole walk); updated in place. */
  tally?: Record<Category, number>;
  /** The walk so far, s0..st (st = s); needed for `balance` labels. Default: [s]. */
  visited?: readonly Uint32Array[];
  /**
   * Schemas whose near-misses may name one object twice (`(stack b5 b5)`). A grounding that
   * repeats an object where no such action is ever executable is false on its face: a regex on
   * the text finds it, so it teaches a shortcut and is not drawn as a near-miss. The walk
   * passes the schemas with an executable repeating action somewhere along its plan; default:
   * those with one executable in s. `nonExecutable: "any"` ignores this (any grounding).
   */
  repeatingSchemas?: ReadonlySet<number>;
}

/** A drawn candidate, with its label when the sampler had to compute it (balance mode). */
export interface DrawnCandidate {
  candidate: Candidate;
  label: Label | null;
}

/** Rarest first: ties in the balance deficit go to the categories corpora lack. */
const BALANCE_ORDER: readonly Category[] = ["dead-end", "suboptimal", "backtracking", "optimal", "non-executable"];

/** An empty category tally. */
export function emptyTally(): Record<Category, number> {
  return { "non-executable": 0, "dead-end": 0, backtracking: 0, suboptimal: 0, optimal: 0 };
}

/** Remove and return a uniformly drawn element. */
function takeRandom<T>(xs: T[], prng: Prng): T {
  const i = prng.int(xs.length);
  const x = xs[i]!;
  xs[i] = xs[xs.length - 1]!;
  xs.pop();
  return x;
}

/** Does ground operator `op` name one object twice? */
export function repeatsObject(task: GroundTask, op: number): boolean {
  const from = task.opArgStart[op]!;
  const to = task.opArgStart[op + 1]!;
  for (let i = from; i < to; i++) for (let j = i + 1; j < to; j++) if (task.opArgs[i] === task.opArgs[j]) return true;
  return false;
}

/** Schemas with an operator that repeats an object and is applicable in one of `states`. */
export function schemasRepeatingObjects(ctx: LabelContext, states: readonly Uint32Array[]): Set<number> {
  const out = new Set<number>();
  for (const s of states) for (const op of applicableOps(ctx, s)) if (repeatsObject(ctx.task, op)) out.add(ctx.task.opSchema[op]!);
  return out;
}

/** Per task: a dense id per distinct operator name (the DNF variants of an action share one). */
const nameIdsCache = new WeakMap<GroundTask, { ids: Int32Array; count: number }>();
function opNameIds(task: GroundTask): { ids: Int32Array; count: number } {
  let x = nameIdsCache.get(task);
  if (x === undefined) {
    const byName = new Map<string, number>();
    const ids = new Int32Array(task.numOps);
    for (let op = 0; op < task.numOps; op++) {
      const name = task.opNames[op]!;
      let id = byName.get(name);
      if (id === undefined) byName.set(name, (id = byName.size));
      ids[op] = id;
    }
    nameIdsCache.set(task, (x = { ids, count: byName.size }));
  }
  return x;
}

/**
 * Ground operators not applicable in s (one per name; names with an applicable variant
 * excluded; operators repeating an object only for `repeating` schemas). Names are compared by
 * id: this runs over every operator at every state.
 */
function nearMisses(ctx: LabelContext, state: Uint32Array, exec: readonly number[], repeating: ReadonlySet<number>): number[] {
  const task = ctx.task;
  const { ids, count } = opNameIds(task);
  const taken = new Uint8Array(count); // names executable in s or already drawn from
  for (const op of exec) taken[ids[op]!] = 1;
  const out: number[] = [];
  for (let op = 0; op < task.numOps; op++) {
    const name = ids[op]!;
    if (taken[name] === 1) continue;
    if (!repeating.has(task.opSchema[op]!) && repeatsObject(task, op)) continue;
    if (isApplicable(task, state, op)) continue;
    taken[name] = 1;
    out.push(op);
  }
  return out;
}

/** Executable actions at s, one operator per distinct name, increasing ids. */
function executableOps(ctx: LabelContext, state: Uint32Array): number[] {
  const { ids, count } = opNameIds(ctx.task);
  const taken = new Uint8Array(count);
  const out: number[] = [];
  for (const op of applicableOps(ctx, state)) {
    if (taken[ids[op]!] === 1) continue;
    taken[ids[op]!] = 1;
    out.push(op);
  }
  return out;
}

/** Objects of each type (including subtypes), sorted by id; cached per task. */
const objectsOfTypeCache = new WeakMap<object, Map<string, number[]>>();
function objectsOfType(ctx: LabelContext, type: string): number[] {
  let m = objectsOfTypeCache.get(ctx.task);
  if (!m) {
    m = new Map();
    objectsOfTypeCache.set(ctx.task, m);
  }
  let xs = m.get(type);
  if (!xs) {
    xs = [];
    for (let o = 0; o < ctx.task.objects.length; o++) if (ctx.task.objectTypes[o]!.includes(type)) xs.push(o);
    m.set(type, xs);
  }
  return xs;
}

/** PDDL text of a grounding, in the task's operator-name format. */
export function groundingName(ctx: LabelContext, schema: number, args: readonly number[]): string {
  const name = ctx.task.domain.actions[schema]!.name;
  return args.length === 0 ? `(${name})` : `(${name} ${args.map((o) => ctx.task.objects[o]!).join(" ")})`;
}

/** A uniformly random type-correct grounding of a random schema, or null if none exists. */
function randomGrounding(ctx: LabelContext, prng: Prng): Candidate | null {
  const actions = ctx.task.domain.actions;
  if (actions.length === 0) return null;
  const schema = prng.int(actions.length);
  const args: number[] = [];
  for (const p of actions[schema]!.params) {
    // `either` parameters accept objects of any listed type.
    const pool = p.types.length === 1 ? objectsOfType(ctx, p.types[0]!) : [...new Set(p.types.flatMap((t) => objectsOfType(ctx, t)))].sort((a, b) => a - b);
    if (pool.length === 0) return null;
    args.push(pool[prng.int(pool.length)]!);
  }
  const name = groundingName(ctx, schema, args);
  const ops = findOperator(ctx.task, schema, args);
  return { schema, args, name, op: ops.length > 0 ? ops[0]! : -1 };
}

/**
 * Draw up to `y` distinct candidates at s (DESIGN.md §7): a mixture of executable actions
 * (uniform) and non-executable ones. Fewer than `y` when fewer exist. All randomness from `prng`.
 * Candidates come back in a seeded random order: in draw order, executable ones would come
 * first (the non-executable pool fills the tail), and a row's position would tell its label.
 */
export function sampleCandidates(
  ctx: LabelContext,
  state: Uint32Array,
  y: number,
  prng: Prng,
  options: SampleOptions = {},
): Candidate[] {
  return drawCandidates(ctx, state, y, prng, options).map((d) => d.candidate);
}

/** `sampleCandidates` that also hands back the labels it computed (balance mode), to reuse. */
export function drawCandidates(
  ctx: LabelContext,
  state: Uint32Array,
  y: number,
  prng: Prng,
  options: SampleOptions = {},
): DrawnCandidate[] {
  const mode = options.nonExecutable ?? "near-miss";
  const share = options.executableShare ?? 0.5;
  const exec = executableOps(ctx, state);
  const repeating = options.repeatingSchemas ?? new Set(exec.filter((op) => repeatsObject(ctx.task, op)).map((op) => ctx.task.opSchema[op]!));
  const nonExec: number[] = mode === "near-miss" ? nearMisses(ctx, state, exec, repeating) : [];
  const chosen = new Set<string>();
  const out: DrawnCandidate[] = [];

  // "any": rejection-sample random groundings that are not executable and not yet drawn.
  let execNames: Set<string> | null = null;
  const drawAny = (): Candidate | null => {
    execNames ??= new Set(exec.map((op) => ctx.task.opNames[op]!));
    for (let attempt = 0; attempt < 64; attempt++) {
      const c = randomGrounding(ctx, prng);
      if (c === null) return null;
      if (chosen.has(c.name) || execNames.has(c.name)) continue;
      return c;
    }
    return null;
  };
  let anyExhausted = false;
  const drawNonExec = (): Candidate | null => {
    if (mode === "near-miss") return nonExec.length > 0 ? opCandidate(ctx, takeRandom(nonExec, prng)) : null;
    if (anyExhausted) return null;
    const c = drawAny();
    if (c === null) anyExhausted = true;
    return c;
  };
  const nonExecLeft = (): boolean => (mode === "near-miss" ? nonExec.length > 0 : !anyExhausted);

  if (!options.balance) {
    const pool = exec.slice();
    while (out.length < y) {
      const canExec = pool.length > 0;
      const canNon = nonExecLeft();
      if (!canExec && !canNon) break;
      let c: Candidate | null;
      if (canExec && (!canNon || prng.next() < share)) c = opCandidate(ctx, takeRandom(pool, prng));
      else c = drawNonExec();
      if (c === null) continue;
      chosen.add(c.name);
      out.push({ candidate: c, label: null });
    }
    return prng.shuffle(out);
  }

  // Balance: label every executable action, then fill each slot from the category furthest
  // below its target share.
  const visited = options.visited ?? [state];
  const byCat = new Map<Category, { candidate: Candidate; label: Label }[]>();
  for (const x of labelExecutable(ctx, state, visited)) {
    const list = byCat.get(x.label.category);
    if (list) list.push(x);
    else byCat.set(x.label.category, [x]);
  }
  const target = normaliseTarget(options.target);
  const tally = options.tally ?? emptyTally();
  while (out.length < y) {
    let total = 0;
    for (const c of BALANCE_ORDER) total += tally[c];
    let best: Category | null = null;
    let bestDeficit = -Infinity;
    for (const c of BALANCE_ORDER) {
      const available = c === "non-executable" ? nonExecLeft() : (byCat.get(c)?.length ?? 0) > 0;
      if (!available) continue;
      const deficit = target[c] * (total + 1) - tally[c];
      if (deficit > bestDeficit) {
        bestDeficit = deficit;
        best = c;
      }
    }
    if (best === null) break;
    if (best === "non-executable") {
      const c = drawNonExec();
      if (c === null) continue;
      chosen.add(c.name);
      out.push({ candidate: c, label: null });
      // Counted now so the next slot sees it; its label is computed by the caller.
      tally["non-executable"]++;
    } else {
      const x = takeRandom(byCat.get(best)!, prng);
      chosen.add(x.candidate.name);
      out.push({ candidate: x.candidate, label: x.label });
      tally[best]++;
    }
  }
  return prng.shuffle(out);
}

function normaliseTarget(t: Partial<Record<Category, number>> | undefined): Record<Category, number> {
  const out = emptyTally();
  let sum = 0;
  for (const c of BALANCE_ORDER) {
    const v = t === undefined ? 1 : Math.max(0, t[c] ?? 0);
    out[c] = v;
    sum += v;
  }
  for (const c of BALANCE_ORDER) out[c] = sum > 0 ? out[c] / sum : 0.2;
  return out;
}

/** Label drawn candidates, reusing labels the sampler already computed. */
export function labelDrawn(
  ctx: LabelContext,
  state: Uint32Array,
  visited: readonly Uint32Array[],
  drawn: readonly DrawnCandidate[],
): Label[] {
  return drawn.map((d) => d.label ?? classify(ctx, state, visited, d.candidate));
}
