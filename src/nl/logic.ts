/**
 * Ground readings of quantified and conditional PDDL for text: a formula with its quantifiers
 * expanded over the problem's objects and its static atoms decided (so "for every order o that
 * includes p1, o is started" becomes "o2 is started and o3 is started"), truth in a state, and
 * the effects a `forall`/`when` effect has in a given state (which passengers are served).
 */
import type { Effect, Formula, Term, TypedName } from "../pddl/ast.js";
import type { GroundTask } from "../task/types.js";

/** A ground formula after static atoms were decided; `lit` atoms are fluent (or derived). */
export type Ground =
  | { k: "true" }
  | { k: "false" }
  | { k: "lit"; pred: string; args: string[]; pos: boolean }
  | { k: "eq"; a: string; b: string; pos: boolean }
  | { k: "and"; xs: Ground[] }
  | { k: "or"; xs: Ground[] }
  | { k: "imply"; a: Ground; b: Ground };

const TRUE: Ground = { k: "true" };
const FALSE: Ground = { k: "false" };

/** Object-name bindings of variables (with their '?'). */
export type Bindings = ReadonlyMap<string, string>;

/** What the ground readings need of a task, built once per task. */
export interface LogicContext {
  /** Objects of each type (supertypes included). */
  objectsOf(type: string): string[];
  /** True for predicates no action changes (their atoms are decided by the initial state). */
  isStatic(pred: string): boolean;
  /** Atom key "(p a b)" true in the initial state. */
  inInit(key: string): boolean;
  /** Truth of an atom in a state (a fact's bit; atoms that are not facts keep their initial value). */
  holds(key: string, state: Uint32Array): boolean;
}

export function atomKey(pred: string, args: readonly string[]): string {
  return args.length === 0 ? `(${pred})` : `(${pred} ${args.join(" ")})`;
}

/** The logic context of a ground task. */
export function logicContext(task: GroundTask): LogicContext {
  const changed = new Set<string>();
  const mark = (e: Effect | null): void => {
    if (e === null) return;
    if (e.kind === "add" || e.kind === "del") changed.add(e.atom.predicate);
    else if (e.kind === "and") e.args.forEach(mark);
    else if (e.kind === "forall" || e.kind === "when") mark(e.body);
  };
  for (const a of task.domain.actions) mark(a.effect);
  for (const d of task.domain.derived) changed.add(d.predicate);
  const init = new Set<string>();
  for (const el of task.problem.init) if (el.kind === "atom") init.add(atomKey(el.atom.predicate, el.atom.args.map((t) => t.name)));
  const derived = new Set(task.domain.derived.map((d) => d.predicate));
  const factId = new Map<string, number>();
  task.factNames.forEach((n, i) => factId.set(n, i));
  const byType = new Map<string, string[]>();
  task.objects.forEach((o, i) => {
    for (const t of task.objectTypes[i]!) {
      let l = byType.get(t);
      if (l === undefined) byType.set(t, (l = []));
      l.push(o);
    }
  });
  return {
    objectsOf: (t) => byType.get(t) ?? [],
    isStatic: (p) => !changed.has(p),
    inInit: (k) => init.has(k),
    holds: (k, s) => {
      const f = factId.get(k);
      if (f === undefined) return init.has(k) && !derived.has(k.slice(1, k.includes(" ") ? k.indexOf(" ") : -1));
      return ((s[f >>> 5]! >>> (f & 31)) & 1) === 1;
    },
  };
}

function term(t: Term, env: Bindings): string {
  return t.kind === "var" ? (env.get(t.name) ?? t.name) : t.name;
}

/** All bindings of `params` (their types' objects), or null past `limit` combinations. */
export function expansions(params: readonly TypedName[], env: Bindings, ctx: LogicContext, limit: number): Map<string, string>[] | null {
  let out: Map<string, string>[] = [new Map(env)];
  for (const p of params) {
    const objs = new Set<string>();
    for (const t of p.types) for (const o of ctx.objectsOf(t)) objs.add(o);
    if (out.length * objs.size > limit) return null;
    const next: Map<string, string>[] = [];
    for (const b of out) for (const o of objs) next.push(new Map(b).set(p.name, o));
    out = next;
  }
  return out;
}

/** A too-large quantifier expansion: the caller falls back to lifted text. */
export class TooLarge extends Error {}

function and(xs: Ground[]): Ground {
  const flat: Ground[] = [];
  for (const x of xs) {
    if (x.k === "false") return FALSE;
    if (x.k === "true") continue;
    if (x.k === "and") flat.push(...x.xs);
    else flat.push(x);
  }
  return flat.length === 0 ? TRUE : flat.length === 1 ? flat[0]! : { k: "and", xs: flat };
}

function or(xs: Ground[]): Ground {
  const flat: Ground[] = [];
  for (const x of xs) {
    if (x.k === "true") return TRUE;
    if (x.k === "false") continue;
    if (x.k === "or") flat.push(...x.xs);
    else flat.push(x);
  }
  return flat.length === 0 ? FALSE : flat.length === 1 ? flat[0]! : { k: "or", xs: flat };
}

function not(g: Ground): Ground {
  switch (g.k) {
    case "true":
      return FALSE;
    case "false":
      return TRUE;
    case "lit":
      return { ...g, pos: !g.pos };
    case "eq":
      return { ...g, pos: !g.pos };
    case "and":
      return or(g.xs.map(not));
    case "or":
      return and(g.xs.map(not));
    case "imply":
      return and([g.a, not(g.b)]);
  }
}

/**
 * `f` under `env` with quantifiers expanded and static atoms (and equalities) decided. Throws
 * TooLarge when an expansion passes `limit` bindings.
 */
export function ground(f: Formula, env: Bindings, ctx: LogicContext, limit = 2000): Ground {
  switch (f.kind) {
    case "atom": {
      const args = f.atom.args.map((t) => term(t, env));
      if (ctx.isStatic(f.atom.predicate)) return ctx.inInit(atomKey(f.atom.predicate, args)) ? TRUE : FALSE;
      return { k: "lit", pred: f.atom.predicate, args, pos: true };
    }
    case "eq": {
      const a = term(f.left, env);
      const b = term(f.right, env);
      return a.startsWith("?") || b.startsWith("?") ? { k: "eq", a, b, pos: true } : a === b ? TRUE : FALSE;
    }
    case "not":
      return not(ground(f.arg, env, ctx, limit));
    case "and":
      return and(f.args.map((g) => ground(g, env, ctx, limit)));
    case "or":
      return or(f.args.map((g) => ground(g, env, ctx, limit)));
    case "imply": {
      const a = ground(f.left, env, ctx, limit);
      const b = ground(f.right, env, ctx, limit);
      if (a.k === "false" || b.k === "true") return TRUE;
      if (a.k === "true") return b;
      if (b.k === "false") return not(a);
      // "either A is false or B" reads better in a list of reasons than a nested "if ..., then ...".
      return or([not(a), b]);
    }
    case "exists":
    case "forall": {
      const bs = expansions(f.params, env, ctx, limit);
      if (bs === null) throw new TooLarge();
      const parts = bs.map((b) => ground(f.body, b, ctx, limit));
      return f.kind === "exists" ? or(parts) : and(parts);
    }
  }
}

/** Number of literals in a ground formula (a measure of how long its text is). */
export function size(g: Ground): number {
  switch (g.k) {
    case "true":
    case "false":
      return 0;
    case "lit":
    case "eq":
      return 1;
    case "and":
    case "or":
      return g.xs.reduce((n, x) => n + size(x), 0);
    case "imply":
      return size(g.a) + size(g.b);
  }
}

/** Truth of `f` under `env` in `state`. */
export function truth(f: Formula, env: Bindings, ctx: LogicContext, state: Uint32Array): boolean {
  switch (f.kind) {
    case "atom":
      return ctx.holds(atomKey(f.atom.predicate, f.atom.args.map((t) => term(t, env))), state);
    case "eq":
      return term(f.left, env) === term(f.right, env);
    case "not":
      return !truth(f.arg, env, ctx, state);
    case "and":
      return f.args.every((g) => truth(g, env, ctx, state));
    case "or":
      return f.args.some((g) => truth(g, env, ctx, state));
    case "imply":
      return !truth(f.left, env, ctx, state) || truth(f.right, env, ctx, state);
    case "exists":
    case "forall": {
      const bs = expansions(f.params, env, ctx, Number.MAX_SAFE_INTEGER)!;
      return f.kind === "exists" ? bs.some((b) => truth(f.body, b, ctx, state)) : bs.every((b) => truth(f.body, b, ctx, state));
    }
  }
}

/** A ground atom an effect sets (add) or clears. */
export interface GroundEffect {
  pred: string;
  args: string[];
  add: boolean;
}

/**
 * The atoms a `forall`/`when` effect sets or clears when applied in `state` under `env`:
 * quantifiers expanded, conditions evaluated in `state` (before the action, as PDDL says).
 */
export function firingEffects(e: Effect, env: Bindings, ctx: LogicContext, state: Uint32Array, out: GroundEffect[] = []): GroundEffect[] {
  switch (e.kind) {
    case "add":
    case "del":
      out.push({ pred: e.atom.predicate, args: e.atom.args.map((t) => term(t, env)), add: e.kind === "add" });
      break;
    case "and":
      for (const x of e.args) firingEffects(x, env, ctx, state, out);
      break;
    case "forall":
      for (const b of expansions(e.params, env, ctx, Number.MAX_SAFE_INTEGER)!) firingEffects(e.body, b, ctx, state, out);
      break;
    case "when":
      if (truth(e.cond, env, ctx, state)) firingEffects(e.body, env, ctx, state, out);
      break;
    case "increase":
      break;
  }
  return out;
}
