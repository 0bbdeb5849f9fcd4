/**
 * A deliberately naive reference semantics for the task tests: cartesian grounding of the AST,
 * direct evaluation of formulas and effects over sets of atom strings. Slow, obviously right.
 */
import type { Domain, Effect, Formula, Problem, Term, TypedName } from "../src/pddl/ast.js";

export interface Naive {
  objects: Map<string, Set<string>>; // object -> all its types
  fluent: Set<string>; // predicates in some effect
  derived: Set<string>;
  init: Set<string>; // all init atoms (static + fluent), derived closed
  applicable(s: Set<string>): string[]; // names "(a x y)", sorted, unique
  successor(s: Set<string>, action: string): Set<string>;
  goal(s: Set<string>): boolean;
  /** fluent non-derived atoms of s, sorted */
  fluentFacts(s: Set<string>): string[];
  derivedFacts(s: Set<string>): string[];
}

type Env = Map<string, string>;

export function naive(d: Domain, p: Problem): Naive {
  const parents = new Map<string, string[]>();
  for (const t of d.types) parents.set(t.name, t.parents);
  const closure = (t: string): string[] => [t, "object", ...(parents.get(t) ?? []).flatMap(closure)];
  const objects = new Map<string, Set<string>>();
  for (const o of [...d.constants, ...p.objects]) {
    const s = objects.get(o.name) ?? new Set<string>();
    for (const t of o.types.length ? o.types : ["object"]) for (const x of closure(t)) s.add(x);
    objects.set(o.name, s);
  }
  const ofTypes = (types: string[]): string[] =>
    [...objects.keys()].filter((o) => (types.length ? types : ["object"]).some((t) => objects.get(o)!.has(t))).sort();
  const bindings = (params: TypedName[]): string[][] => {
    let acc: string[][] = [[]];
    for (const q of params) acc = acc.flatMap((a) => ofTypes(q.types).map((o) => [...a, o]));
    return acc;
  };
  const term = (t: Term, env: Env): string => (t.kind === "var" ? env.get(t.name)! : t.name);
  const atomText = (pred: string, args: Term[], env: Env): string => "(" + [pred, ...args.map((a) => term(a, env))].join(" ") + ")";
  const withParams = (env: Env, params: TypedName[], vals: string[]): Env => {
    const e = new Map(env);
    params.forEach((q, i) => e.set(q.name, vals[i]!));
    return e;
  };
  const holds = (f: Formula, s: Set<string>, env: Env): boolean => {
    switch (f.kind) {
      case "atom":
        if (f.atom.predicate === "=") return term(f.atom.args[0]!, env) === term(f.atom.args[1]!, env);
        return s.has(atomText(f.atom.predicate, f.atom.args, env));
      case "eq":
        return term(f.left, env) === term(f.right, env);
      case "not":
        return !holds(f.arg, s, env);
      case "and":
        return f.args.every((a) => holds(a, s, env));
      case "or":
        return f.args.some((a) => holds(a, s, env));
      case "imply":
        return !holds(f.left, s, env) || holds(f.right, s, env);
      case "exists":
        return bindings(f.params).some((b) => holds(f.body, s, withParams(env, f.params, b)));
      case "forall":
        return bindings(f.params).every((b) => holds(f.body, s, withParams(env, f.params, b)));
    }
  };
  const fluent = new Set<string>();
  const markEff = (e: Effect): void => {
    if (e.kind === "add" || e.kind === "del") fluent.add(e.atom.predicate);
    else if (e.kind === "and") e.args.forEach(markEff);
    else if (e.kind === "forall" || e.kind === "when") markEff(e.body);
  };
  for (const a of d.actions) if (a.effect) markEff(a.effect);
  const derived = new Set(d.derived.map((x) => x.predicate));
  // Derived atoms: naive monotone fixpoint (fixtures use no negation on derived predicates in rule bodies).
  const close = (s: Set<string>): Set<string> => {
    const base = new Set([...s].filter((a) => !derived.has(a.slice(1).split(/[ )]/)[0]!)));
    for (let changed = true; changed; ) {
      changed = false;
      for (const r of d.derived)
        for (const b of bindings(r.params)) {
          const env = withParams(new Map(), r.params, b);
          const h = "(" + [r.predicate, ...b].join(" ") + ")";
          if (!base.has(h) && holds(r.body, base, env)) {
            base.add(h);
            changed = true;
          }
        }
    }
    return base;
  };
  const init = close(new Set(p.init.flatMap((x) => (x.kind === "atom" ? [atomText(x.atom.predicate, x.atom.args, new Map())] : []))));
  const ground = (s: Set<string>): Array<{ name: string; schema: number; env: Env }> => {
    const out: Array<{ name: string; schema: number; env: Env }> = [];
    d.actions.forEach((a, i) => {
      for (const b of bindings(a.params)) {
        const env = withParams(new Map(), a.params, b);
        if (!a.precondition || holds(a.precondition, s, env)) out.push({ name: "(" + [a.name, ...b].join(" ") + ")", schema: i, env });
      }
    });
    return out;
  };
  const effects = (e: Effect, s: Set<string>, env: Env, add: Set<string>, del: Set<string>): void => {
    switch (e.kind) {
      case "add":
        add.add(atomText(e.atom.predicate, e.atom.args, env));
        return;
      case "del":
        del.add(atomText(e.atom.predicate, e.atom.args, env));
        return;
      case "and":
        for (const x of e.args) effects(x, s, env, add, del);
        return;
      case "forall":
        for (const b of bindings(e.params)) effects(e.body, s, withParams(env, e.params, b), add, del);
        return;
      case "when":
        if (holds(e.cond, s, env)) effects(e.body, s, env, add, del);
        return;
      case "increase":
        return;
    }
  };
  const predOf = (a: string): string => a.slice(1).split(/[ )]/)[0]!;
  return {
    objects, fluent, derived, init,
    applicable: (s) => [...new Set(ground(s).map((g) => g.name))].sort(),
    successor: (s, action) => {
      const g = ground(s).find((x) => x.name === action);
      if (!g) throw new Error(`not applicable: ${action}`);
      const add = new Set<string>();
      const del = new Set<string>();
      const eff = d.actions[g.schema]!.effect;
      if (eff) effects(eff, s, g.env, add, del);
      const next = new Set([...s].filter((a) => !del.has(a)));
      for (const a of add) next.add(a);
      return close(next);
    },
    goal: (s) => holds(p.goal, s, new Map()),
    fluentFacts: (s) => [...s].filter((a) => fluent.has(predOf(a))).sort(),
    derivedFacts: (s) => [...s].filter((a) => derived.has(predOf(a))).sort(),
  };
}
