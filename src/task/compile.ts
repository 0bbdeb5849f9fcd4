/**
 * Normalisation front half: objects and types, lifted formulas and effects compiled to a
 * slot-indexed form, and instantiation of compiled formulas into simplified ground formulas
 * in negation normal form (quantifiers expanded over typed objects, static atoms and equality
 * evaluated against the initial state).
 */
import type { Domain, Effect, Formula, Loc, Problem, Term, TypedName } from "../pddl/ast.js";
import { PddlError } from "../pddl/errors.js";
import { typeParents } from "../pddl/types.js";
import { sortNumbers } from "../util/sort.js";

/** Compiled term: >= 0 object id, < 0 variable slot `-(t+1)`. */
export type CTerm = number;

/** A compiled lifted formula. */
export type CF =
  | { k: "atom"; pred: number; args: Int32Array; loc: Loc }
  | { k: "eq"; a: CTerm; b: CTerm }
  | { k: "not"; arg: CF }
  | { k: "and"; args: CF[] }
  | { k: "or"; args: CF[] }
  | { k: "imply"; l: CF; r: CF }
  | { k: "exists"; slots: number[]; doms: Int32Array[]; params: TypedName[]; body: CF }
  | { k: "forall"; slots: number[]; doms: Int32Array[]; params: TypedName[]; body: CF };

/** One flattened effect: under `forall slots`, when all `conds` hold, set/unset an atom. */
export interface CEffect {
  slots: number[];
  doms: Int32Array[];
  conds: CF[];
  pred: number;
  args: Int32Array;
  isAdd: boolean;
  loc: Loc;
}

/** A total-cost increase: a number or a function term looked up in init. */
export type CCost = { kind: "const"; value: number } | { kind: "fn"; name: string; args: Int32Array; loc: Loc };

export interface CSchema {
  name: string;
  /** Parameters occupy slots 0..arity-1. */
  arity: number;
  paramDoms: Int32Array[];
  pre: CF | null;
  effects: CEffect[];
  costs: CCost[];
  numSlots: number;
  slotNames: string[];
  loc: Loc;
}

export interface CDerived {
  pred: number;
  arity: number;
  paramDoms: Int32Array[];
  body: CF;
  numSlots: number;
  slotNames: string[];
}

/** Everything about a domain/problem pair that grounding and explanation need. */
export interface Compiled {
  objects: string[];
  objectIndex: Map<string, number>;
  objectTypes: string[][];
  predNames: string[];
  predIndex: Map<string, number>;
  predArity: number[];
  predStatic: Uint8Array;
  predDerived: Uint8Array;
  schemas: CSchema[];
  derived: CDerived[];
  goal: CF;
  goalSlots: number;
  goalSlotNames: string[];
  /** Static atoms true in init. */
  staticTrue: Set<number | string>;
  /** Fluent (non-static, non-derived) atoms in init, as [pred, args]. */
  initFluent: Array<[number, Int32Array]>;
  /** Function values from init, keyed by "name a b". */
  fnValues: Map<string, number>;
  /** True when the metric is `minimize (total-cost)`. */
  useCosts: boolean;
  /** Bases for numeric atom keys (objects + 1, number of predicates). */
  radix: number;
  preds: number;
  domainOf(types: string[]): Int32Array;
}

/** Key of a ground atom: a number when it fits in 2^53, else a string. `c.preds` bounds `pred`. */
export function atomKey(c: { radix: number; preds: number }, pred: number, args: ArrayLike<number>, n = args.length): number | string {
  const r = c.radix;
  if (Math.pow(r, n) * c.preds < 9e15) {
    let k = 0;
    for (let i = 0; i < n; i++) k = k * r + args[i]!;
    return k * c.preds + pred;
  }
  let s = String(pred);
  for (let i = 0; i < n; i++) s += "," + args[i];
  return s;
}

/** `atomKey` of an atom whose arguments are compiled terms under `env`, without allocating. */
export function atomKeyTerms(c: { radix: number; preds: number }, pred: number, terms: Int32Array, env: Int32Array): number | string {
  const n = terms.length;
  const r = c.radix;
  if (Math.pow(r, n) * c.preds < 9e15) {
    let k = 0;
    for (let i = 0; i < n; i++) {
      const t = terms[i]!;
      k = k * r + (t >= 0 ? t : env[-t - 1]!);
    }
    return k * c.preds + pred;
  }
  let s = String(pred);
  for (let i = 0; i < n; i++) {
    const t = terms[i]!;
    s += "," + (t >= 0 ? t : env[-t - 1]!);
  }
  return s;
}

function typeClosure(domain: Domain): Map<string, Set<string>> {
  const parents = typeParents(domain);
  const memo = new Map<string, Set<string>>();
  const visit = (t: string, stack: Set<string>): Set<string> => {
    const m = memo.get(t);
    if (m) return m;
    const out = new Set<string>([t, "object"]);
    if (!stack.has(t)) {
      stack.add(t);
      for (const p of parents.get(t) ?? []) for (const x of visit(p, stack)) out.add(x);
      stack.delete(t);
    }
    memo.set(t, out);
    return out;
  };
  const all = new Map<string, Set<string>>();
  all.set("object", new Set(["object"]));
  for (const t of parents.keys()) all.set(t, visit(t, new Set()));
  return all;
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Compiled form of each grounded task, shared by grounding and explanation. */
export const compiledOfTask = new WeakMap<object, Compiled>();

/** Compile a domain and problem (names already lower case). Throws PddlError on bad input. */
export function compile(domain: Domain, problem: Problem): Compiled {
  const closure = typeClosure(domain);
  const typesOf = (decl: string[], loc: Loc): Set<string> => {
    const s = new Set<string>(["object"]);
    for (const t of decl.length ? decl : ["object"]) {
      const c = closure.get(t);
      if (!c) throw new PddlError(`undeclared type '${t}'`, loc);
      for (const x of c) s.add(x);
    }
    return s;
  };

  // Objects: problem objects and domain constants, sorted by name.
  const declTypes = new Map<string, Set<string>>();
  for (const o of [...domain.constants, ...problem.objects]) {
    const ts = typesOf(o.types, o.loc);
    const prev = declTypes.get(o.name);
    if (prev) for (const t of ts) prev.add(t);
    else declTypes.set(o.name, ts);
  }
  const objects = [...declTypes.keys()].sort(cmp);
  const objectIndex = new Map<string, number>();
  objects.forEach((o, i) => objectIndex.set(o, i));
  const objectTypes = objects.map((o) => [...declTypes.get(o)!].sort(cmp));
  const typeObjs = new Map<string, number[]>();
  objectTypes.forEach((ts, i) => {
    for (const t of ts) {
      let l = typeObjs.get(t);
      if (!l) typeObjs.set(t, (l = []));
      l.push(i);
    }
  });
  const domCache = new Map<string, Int32Array>();
  const domainOf = (types: string[]): Int32Array => {
    const key = types.length ? types.join("|") : "object";
    let d = domCache.get(key);
    if (!d) {
      const s = new Set<number>();
      for (const t of types.length ? types : ["object"]) for (const o of typeObjs.get(t) ?? []) s.add(o);
      d = Int32Array.from([...s].sort((a, b) => a - b));
      domCache.set(key, d);
    }
    return d;
  };

  // Predicates.
  const predNames = domain.predicates.map((p) => p.name);
  const predIndex = new Map<string, number>();
  predNames.forEach((p, i) => predIndex.set(p, i));
  const predArity = domain.predicates.map((p) => p.params.length);
  const predDerived = new Uint8Array(predNames.length);
  for (const d of domain.derived) {
    const p = predIndex.get(d.predicate);
    if (p === undefined) throw new PddlError(`undeclared derived predicate '${d.predicate}'`, d.loc);
    predDerived[p] = 1;
  }
  const predStatic = new Uint8Array(predNames.length).fill(1);
  for (let i = 0; i < predNames.length; i++) if (predDerived[i]) predStatic[i] = 0;
  const markEff = (e: Effect | null): void => {
    if (!e) return;
    switch (e.kind) {
      case "add":
      case "del": {
        const p = predIndex.get(e.atom.predicate);
        if (p !== undefined) predStatic[p] = 0;
        return;
      }
      case "and":
        e.args.forEach(markEff);
        return;
      case "forall":
      case "when":
        markEff(e.body);
        return;
      case "increase":
        return;
    }
  };
  for (const a of domain.actions) markEff(a.effect);

  const radix = objects.length + 1;
  const preds = Math.max(1, predNames.length);
  const ctx = { radix, preds };

  // Compilation of formulas with a variable scope.
  interface Scope {
    vars: Map<string, number>;
    names: string[];
  }
  const term = (t: Term, sc: Scope): CTerm => {
    if (t.kind === "var") {
      const s = sc.vars.get(t.name);
      if (s === undefined) throw new PddlError(`undeclared variable '${t.name}'`, t.loc);
      return -(s + 1);
    }
    const o = objectIndex.get(t.name);
    if (o === undefined) throw new PddlError(`undeclared object or constant '${t.name}'`, t.loc);
    return o;
  };
  const atomArgs = (pred: string, args: Term[], loc: Loc, sc: Scope): [number, Int32Array] => {
    const p = predIndex.get(pred);
    if (p === undefined) throw new PddlError(`undeclared predicate '${pred}'`, loc);
    if (predArity[p] !== args.length)
      throw new PddlError(`predicate '${pred}' expects ${predArity[p]} arguments, got ${args.length}`, loc);
    return [p, Int32Array.from(args.map((a) => term(a, sc)))];
  };
  const bind = (params: TypedName[], sc: Scope): { slots: number[]; doms: Int32Array[]; saved: Array<[string, number | undefined]> } => {
    const slots: number[] = [];
    const doms: Int32Array[] = [];
    const saved: Array<[string, number | undefined]> = [];
    for (const p of params) {
      for (const t of p.types) if (t !== "object" && !closure.has(t)) throw new PddlError(`undeclared type '${t}'`, p.loc);
      const s = sc.names.length;
      sc.names.push(p.name);
      saved.push([p.name, sc.vars.get(p.name)]);
      sc.vars.set(p.name, s);
      slots.push(s);
      doms.push(domainOf(p.types));
    }
    return { slots, doms, saved };
  };
  const unbind = (saved: Array<[string, number | undefined]>, sc: Scope): void => {
    for (let i = saved.length - 1; i >= 0; i--) {
      const [n, v] = saved[i]!;
      if (v === undefined) sc.vars.delete(n);
      else sc.vars.set(n, v);
    }
  };
  const formula = (f: Formula, sc: Scope): CF => {
    switch (f.kind) {
      case "atom": {
        if (f.atom.predicate === "=" && f.atom.args.length === 2)
          return { k: "eq", a: term(f.atom.args[0]!, sc), b: term(f.atom.args[1]!, sc) };
        const [pred, args] = atomArgs(f.atom.predicate, f.atom.args, f.atom.loc, sc);
        return { k: "atom", pred, args, loc: f.atom.loc };
      }
      case "eq":
        return { k: "eq", a: term(f.left, sc), b: term(f.right, sc) };
      case "not":
        return { k: "not", arg: formula(f.arg, sc) };
      case "and":
        return { k: "and", args: f.args.map((x) => formula(x, sc)) };
      case "or":
        return { k: "or", args: f.args.map((x) => formula(x, sc)) };
      case "imply":
        return { k: "imply", l: formula(f.left, sc), r: formula(f.right, sc) };
      case "exists":
      case "forall": {
        const b = bind(f.params, sc);
        const body = formula(f.body, sc);
        unbind(b.saved, sc);
        return { k: f.kind, slots: b.slots, doms: b.doms, params: f.params, body };
      }
    }
  };
  const effects = (e: Effect, sc: Scope, slots: number[], doms: Int32Array[], conds: CF[], top: boolean, out: CEffect[], costs: CCost[]): void => {
    switch (e.kind) {
      case "add":
      case "del": {
        const [pred, args] = atomArgs(e.atom.predicate, e.atom.args, e.atom.loc, sc);
        if (predDerived[pred]) throw new PddlError(`derived predicate '${e.atom.predicate}' cannot appear in an effect`, e.loc);
        out.push({ slots: [...slots], doms: [...doms], conds: [...conds], pred, args, isAdd: e.kind === "add", loc: e.loc });
        return;
      }
      case "and":
        for (const x of e.args) effects(x, sc, slots, doms, conds, top, out, costs);
        return;
      case "forall": {
        const b = bind(e.params, sc);
        effects(e.body, sc, [...slots, ...b.slots], [...doms, ...b.doms], conds, false, out, costs);
        unbind(b.saved, sc);
        return;
      }
      case "when":
        effects(e.body, sc, slots, doms, [...conds, formula(e.cond, sc)], false, out, costs);
        return;
      case "increase": {
        if (e.fn.name !== "total-cost" || e.fn.args.length !== 0)
          throw new PddlError(`unsupported: numeric effect on '${e.fn.name}' (only (increase (total-cost) ...) is supported)`, e.loc);
        if (!top) throw new PddlError("unsupported: (increase (total-cost) ...) inside 'when' or 'forall'", e.loc);
        if (e.value.kind === "number") {
          if (!Number.isInteger(e.value.value) || e.value.value < 0)
            throw new PddlError(`unsupported: action cost ${e.value.value} (costs must be non-negative integers)`, e.value.loc);
          costs.push({ kind: "const", value: e.value.value });
        } else {
          costs.push({ kind: "fn", name: e.value.fn.name, args: Int32Array.from(e.value.fn.args.map((a) => term(a, sc))), loc: e.value.loc });
        }
        return;
      }
    }
  };

  const schemas: CSchema[] = domain.actions.map((a) => {
    const sc: Scope = { vars: new Map(), names: [] };
    const b = bind(a.params, sc);
    const pre = a.precondition ? formula(a.precondition, sc) : null;
    const effs: CEffect[] = [];
    const costs: CCost[] = [];
    if (a.effect) effects(a.effect, sc, [], [], [], true, effs, costs);
    return { name: a.name, arity: a.params.length, paramDoms: b.doms, pre, effects: effs, costs, numSlots: sc.names.length, slotNames: sc.names, loc: a.loc };
  });
  const derived: CDerived[] = domain.derived.map((d) => {
    const sc: Scope = { vars: new Map(), names: [] };
    const b = bind(d.params, sc);
    const p = predIndex.get(d.predicate)!;
    if (predArity[p] !== d.params.length)
      throw new PddlError(`derived predicate '${d.predicate}' expects ${predArity[p]} parameters, got ${d.params.length}`, d.loc);
    const body = formula(d.body, sc);
    return { pred: p, arity: d.params.length, paramDoms: b.doms, body, numSlots: sc.names.length, slotNames: sc.names };
  });
  const gsc: Scope = { vars: new Map(), names: [] };
  const goal = formula(problem.goal, gsc);

  const staticTrue = new Set<number | string>();
  const initFluent: Array<[number, Int32Array]> = [];
  const fnValues = new Map<string, number>();
  const emptyScope: Scope = { vars: new Map(), names: [] };
  for (const el of problem.init) {
    if (el.kind === "atom") {
      const [p, args] = atomArgs(el.atom.predicate, el.atom.args, el.atom.loc, emptyScope);
      if (predDerived[p]) throw new PddlError(`derived predicate '${el.atom.predicate}' cannot appear in init`, el.loc);
      if (predStatic[p]) staticTrue.add(atomKey(ctx, p, args));
      else initFluent.push([p, args]);
    } else {
      const args = el.fn.args.map((a) => term(a, emptyScope));
      fnValues.set([el.fn.name, ...args].join(" "), el.value);
    }
  }
  const m = problem.metric;
  const useCosts = !!m && m.direction === "minimize" && m.fn.name === "total-cost" && m.fn.args.length === 0;
  if (m && !useCosts) throw new PddlError(`unsupported metric (only 'minimize (total-cost)' is supported)`, m.loc);

  return {
    objects, objectIndex, objectTypes, predNames, predIndex, predArity, predStatic, predDerived,
    schemas, derived, goal, goalSlots: gsc.names.length, goalSlotNames: gsc.names, staticTrue, initFluent,
    fnValues, useCosts, radix, preds, domainOf,
  };
}

// ---------------------------------------------------------------------------------------------
// Ground formulas: true | false | literal (atomId * 2 + neg) | and/or node. Always simplified.

export type GF = boolean | number | { and: boolean; args: GF[] };

/** Interning of ground fluent atoms (including derived ones). */
export class AtomTable {
  readonly ids = new Map<number | string, number>();
  readonly pred: number[] = [];
  readonly args: Int32Array[] = [];
  constructor(private readonly c: { radix: number; preds: number }) {}
  intern(pred: number, args: Int32Array): number {
    const k = atomKey(this.c, pred, args);
    let id = this.ids.get(k);
    if (id === undefined) {
      id = this.pred.length;
      this.ids.set(k, id);
      this.pred.push(pred);
      this.args.push(args);
    }
    return id;
  }
  /** Intern the atom `pred(terms)` under `env`; allocates its argument array only when new. */
  internTerms(pred: number, terms: Int32Array, env: Int32Array): number {
    const k = atomKeyTerms(this.c, pred, terms, env);
    let id = this.ids.get(k);
    if (id === undefined) {
      id = this.pred.length;
      this.ids.set(k, id);
      this.pred.push(pred);
      const args = new Int32Array(terms.length);
      for (let i = 0; i < args.length; i++) args[i] = resolve(terms[i]!, env);
      this.args.push(args);
    }
    return id;
  }
  get size(): number {
    return this.pred.length;
  }
}

function mk(and: boolean, parts: GF[]): GF {
  const args: GF[] = [];
  for (const p of parts) {
    if (p === and) continue; // neutral element
    if (p === !and) return !and; // absorbing
    if (typeof p === "object" && p.and === and) args.push(...p.args);
    else args.push(p);
  }
  if (args.length === 0) return and;
  if (args.length === 1) return args[0]!;
  return { and, args };
}

/** Build a simplified conjunction (`and = true`) or disjunction. */
export const mkGF = mk;

/** Resolve a compiled term under an environment. */
export function resolve(t: CTerm, env: Int32Array): number {
  return t >= 0 ? t : env[-t - 1]!;
}

/** Instantiate a compiled formula under `env` to a simplified ground NNF formula. */
export function instantiate(c: Compiled, atoms: AtomTable, f: CF, env: Int32Array, neg: boolean): GF {
  switch (f.k) {
    case "atom": {
      if (c.predStatic[f.pred]) return c.staticTrue.has(atomKeyTerms(c, f.pred, f.args, env)) !== neg;
      return atoms.internTerms(f.pred, f.args, env) * 2 + (neg ? 1 : 0);
    }
    case "eq":
      return (resolve(f.a, env) === resolve(f.b, env)) !== neg;
    case "not":
      return instantiate(c, atoms, f.arg, env, !neg);
    case "and":
    case "or": {
      // mk's simplification, done as the parts come (one array per node, not two)
      const isAnd = (f.k === "and") !== neg;
      const args: GF[] = [];
      for (const a of f.args) {
        const g = instantiate(c, atoms, a, env, neg);
        if (g === isAnd) continue; // neutral element
        if (g === !isAnd) return !isAnd; // absorbing
        if (typeof g === "object" && g.and === isAnd) args.push(...g.args);
        else args.push(g);
      }
      if (args.length === 0) return isAnd;
      if (args.length === 1) return args[0]!;
      return { and: isAnd, args };
    }
    case "imply": {
      // l -> r  ==  (not l) or r ;  not (l -> r) == l and not r
      const l = instantiate(c, atoms, f.l, env, !neg);
      if (l === !neg) return !neg;
      const r = instantiate(c, atoms, f.r, env, neg);
      return mk(neg, [l, r]);
    }
    case "exists":
    case "forall": {
      const isAnd = (f.k === "forall") !== neg;
      const parts: GF[] = [];
      let stop = false;
      const rec = (i: number): void => {
        if (stop) return;
        if (i === f.slots.length) {
          const g = instantiate(c, atoms, f.body, env, neg);
          if (g === !isAnd) stop = true;
          else parts.push(g);
          return;
        }
        const d = f.doms[i]!;
        const s = f.slots[i]!;
        for (let j = 0; j < d.length && !stop; j++) {
          env[s] = d[j]!;
          rec(i + 1);
        }
      };
      rec(0);
      if (stop) return !isAnd;
      return mk(isAnd, parts);
    }
  }
}

/** Is the formula satisfiable in the delete relaxation (negative literals assumed true)? */
export function relaxedSat(g: GF, reached: Uint8Array): boolean {
  if (typeof g === "boolean") return g;
  if (typeof g === "number") return (g & 1) === 1 || reached[g >>> 1] === 1;
  if (g.and) {
    for (const a of g.args) if (!relaxedSat(a, reached)) return false;
    return true;
  }
  for (const a of g.args) if (relaxedSat(a, reached)) return true;
  return false;
}

/** Rewrite atom ids to fact ids; atoms without a fact are false. */
export function toFacts(g: GF, atomFact: Int32Array): GF {
  if (typeof g === "boolean") return g;
  if (typeof g === "number") {
    const a = g >>> 1;
    // Atoms interned after the fact table was built were never reached.
    const f = a < atomFact.length ? atomFact[a]! : -1;
    if (f < 0) return (g & 1) === 1;
    return f * 2 + (g & 1);
  }
  return mk(g.and, g.args.map((a) => toFacts(a, atomFact)));
}

/** A conjunction of literals: positive and negative fact ids, sorted, no duplicates. */
export interface Conj {
  pos: number[];
  neg: number[];
}

/** Disjunctive normal form over literals; contradictory conjuncts dropped. Throws past `cap` conjuncts. */
export function dnf(g: GF, cap: number): Conj[] | null {
  // Fast path: a literal or a conjunction of literals (the common case).
  if (typeof g === "number") return g & 1 ? [{ pos: [], neg: [g >>> 1] }] : [{ pos: [g >>> 1], neg: [] }];
  if (typeof g === "object" && g.and && g.args.every((a) => typeof a === "number")) {
    const pos: number[] = [];
    const neg: number[] = [];
    for (const l of g.args as number[]) (l & 1 ? neg : pos).push(l >>> 1);
    sortNumbers(pos);
    sortNumbers(neg);
    const p2 = pos.filter((x, i) => i === 0 || pos[i - 1] !== x);
    const n2 = neg.filter((x, i) => i === 0 || neg[i - 1] !== x);
    let j = 0;
    for (const x of p2) {
      while (j < n2.length && n2[j]! < x) j++;
      if (j < n2.length && n2[j] === x) return [];
    }
    return [{ pos: p2, neg: n2 }];
  }
  const lists = dnfLits(g, cap);
  if (lists === null) return null;
  const out: Conj[] = [];
  const seen = new Set<string>();
  for (const lits of lists) {
    const pos = new Set<number>();
    const neg = new Set<number>();
    for (const l of lits) (l & 1 ? neg : pos).add(l >>> 1);
    let bad = false;
    for (const p of pos) if (neg.has(p)) bad = true;
    if (bad) continue;
    const c = { pos: sortNumbers([...pos]), neg: sortNumbers([...neg]) };
    const key = c.pos.join(",") + "|" + c.neg.join(",");
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(c);
  }
  // Absorption: drop conjuncts implied by a smaller one (x or (x and y) == x).
  if (out.length > 1 && out.length <= 256) {
    const sub = (a: Conj, b: Conj): boolean => a.pos.every((x) => b.pos.includes(x)) && a.neg.every((x) => b.neg.includes(x));
    return out.filter((c, i) => !out.some((d, j) => j !== i && sub(d, c) && (!sub(c, d) || j < i)));
  }
  return out;
}

function dnfLits(g: GF, cap: number): number[][] | null {
  if (g === true) return [[]];
  if (g === false) return [];
  if (typeof g === "number") return [[g]];
  if (!g.and) {
    const out: number[][] = [];
    for (const a of g.args) {
      const d = dnfLits(a, cap);
      if (d === null) return null;
      out.push(...d);
      if (out.length > cap) return null;
    }
    return out;
  }
  let acc: number[][] = [[]];
  for (const a of g.args) {
    const d = dnfLits(a, cap);
    if (d === null) return null;
    if (d.length === 1) {
      for (const x of acc) x.push(...d[0]!);
      continue;
    }
    const next: number[][] = [];
    for (const x of acc) for (const y of d) next.push([...x, ...y]);
    if (next.length > cap) return null;
    acc = next;
  }
  return acc;
}
