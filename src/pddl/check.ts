/**
 * Semantic checks on parsed domains and problems: declarations, arity, duplicates, scopes.
 * Each failure is a PddlError at the offending token.
 */
import type { Atom, Domain, Effect, Formula, FunctionTerm, Loc, Problem, Term, TypedName } from "./ast.js";
import { PddlError } from "./errors.js";
import { problemDomainLoc, typeLocOf } from "./parser.js";
import { typeParents } from "./types.js";

interface Scope {
  predicates: Map<string, number>;
  functions: Map<string, number>;
  /** Names usable as constants: domain constants (+ problem objects in a problem). */
  constants: Set<string>;
  constKind: string;
  /** Checks the argument types of an atom (after its name and arity), when set. */
  typeCheck?: AtomTypeCheck;
}

/** Variables in scope and their declared types (empty: `object`). */
type Vars = Map<string, string[]>;
type AtomTypeCheck = (a: Atom, vars: Vars) => void;

function checkTypes(types: string[], declared: Set<string>, loc: Loc): void {
  for (const t of types) if (t !== "object" && !declared.has(t)) throw new PddlError(`undeclared type '${t}'`, loc);
}

function declaredTypes(d: Domain): Set<string> {
  return new Set(d.types.map((t) => t.name));
}

function checkTypedList(list: TypedName[], types: Set<string>, what: string, seen: Map<string, TypedName> = new Map()): void {
  for (const n of list) {
    const prev = seen.get(n.name);
    if (prev) throw new PddlError(`duplicate ${what} '${n.name}' (first declared at ${prev.loc.line}:${prev.loc.column})`, n.loc);
    seen.set(n.name, n);
    checkTypes(n.types, types, typeLocOf.get(n) ?? n.loc);
  }
}

function checkTerm(t: Term, vars: Vars, scope: Scope): void {
  if (t.kind === "var") {
    if (!vars.has(t.name)) throw new PddlError(`undeclared variable '${t.name}'`, t.loc);
  } else if (!scope.constants.has(t.name)) {
    throw new PddlError(`undeclared ${scope.constKind} '${t.name}'`, t.loc);
  }
}

function checkAtom(a: Atom, vars: Vars, scope: Scope): void {
  const arity = scope.predicates.get(a.predicate);
  if (arity === undefined) throw new PddlError(`undeclared predicate '${a.predicate}'`, a.loc);
  if (arity !== a.args.length) {
    throw new PddlError(`wrong arity for predicate '${a.predicate}': expected ${arity} argument${arity === 1 ? "" : "s"}, got ${a.args.length}`, a.loc);
  }
  for (const t of a.args) checkTerm(t, vars, scope);
  scope.typeCheck?.(a, vars);
}

function checkFn(f: FunctionTerm, vars: Vars, scope: Scope): void {
  const arity = scope.functions.get(f.name);
  if (arity === undefined) throw new PddlError(`undeclared function '${f.name}'`, f.loc);
  if (arity !== f.args.length) {
    throw new PddlError(`wrong arity for function '${f.name}': expected ${arity} argument${arity === 1 ? "" : "s"}, got ${f.args.length}`, f.loc);
  }
  for (const t of f.args) checkTerm(t, vars, scope);
}

function bind(vars: Vars, params: TypedName[], types: Set<string>): Vars {
  const inner = new Map(vars);
  const seen = new Map<string, TypedName>();
  checkTypedList(params, types, "variable", seen);
  for (const p of params) inner.set(p.name, p.types);
  return inner;
}

function checkFormula(f: Formula, vars: Vars, scope: Scope, types: Set<string>): void {
  switch (f.kind) {
    case "atom": return checkAtom(f.atom, vars, scope);
    case "eq": checkTerm(f.left, vars, scope); checkTerm(f.right, vars, scope); return;
    case "not": return checkFormula(f.arg, vars, scope, types);
    case "and":
    case "or": for (const a of f.args) checkFormula(a, vars, scope, types); return;
    case "imply": checkFormula(f.left, vars, scope, types); checkFormula(f.right, vars, scope, types); return;
    case "exists":
    case "forall": return checkFormula(f.body, bind(vars, f.params, types), scope, types);
  }
}

function checkEffect(e: Effect, vars: Vars, scope: Scope, types: Set<string>): void {
  switch (e.kind) {
    case "add":
    case "del": return checkAtom(e.atom, vars, scope);
    case "and": for (const a of e.args) checkEffect(a, vars, scope, types); return;
    case "forall": return checkEffect(e.body, bind(vars, e.params, types), scope, types);
    case "when": checkFormula(e.cond, vars, scope, types); checkEffect(e.body, vars, scope, types); return;
    case "increase":
      checkFn(e.fn, vars, scope);
      if (e.value.kind === "fn") checkFn(e.value.fn, vars, scope);
      return;
  }
}

/** Domain-level semantic checks; throws the first PddlError found. */
export function checkDomain(d: Domain): void {
  const types = declaredTypes(d);
  // Types: undeclared parents, cycles. A type declared twice gets the parents of both
  // declarations (typeParents), as in Fast Downward's translator.
  for (const t of d.types) checkTypes(t.parents, types, typeLocOf.get(t) ?? t.loc);
  const parents = typeParents(d);
  for (const t of d.types) {
    // DFS from t: reaching t again is a cycle.
    const stack = [...t.parents];
    const seen = new Set<string>();
    while (stack.length > 0) {
      const u = stack.pop()!;
      if (u === t.name) throw new PddlError(`cyclic type hierarchy: '${t.name}' is its own ancestor`, t.loc);
      if (seen.has(u)) continue;
      seen.add(u);
      for (const p of parents.get(u) ?? []) stack.push(p);
    }
  }
  checkTypedList(d.constants, types, "constant");

  const predicates = new Map<string, number>();
  const seenP = new Map<string, Loc>();
  for (const p of d.predicates) {
    const prev = seenP.get(p.name);
    if (prev) throw new PddlError(`duplicate predicate '${p.name}' (first declared at ${prev.line}:${prev.column})`, p.loc);
    seenP.set(p.name, p.loc);
    // Parameter names of a declaration are documentation only: IPC files repeat them (`(in ?obj ?obj)`).
    for (const x of p.params) checkTypes(x.types, types, typeLocOf.get(x) ?? x.loc);
    predicates.set(p.name, p.params.length);
  }
  const functions = new Map<string, number>();
  for (const f of d.functions) {
    if (functions.has(f.name)) throw new PddlError(`duplicate function '${f.name}'`, f.loc);
    if (predicates.has(f.name)) throw new PddlError(`function '${f.name}' has the name of a predicate`, f.loc);
    for (const x of f.params) checkTypes(x.types, types, typeLocOf.get(x) ?? x.loc);
    if (f.type !== null && f.type !== "number") throw new PddlError(`unsupported function type '${f.type}' (only 'number')`, f.loc);
    functions.set(f.name, f.params.length);
  }
  const typeCheck = atomTypeChecker(d, []);
  const scope: Scope = { predicates, functions, constants: new Set(d.constants.map((c) => c.name)), constKind: "constant", typeCheck };

  const seenA = new Map<string, Loc>();
  for (const a of d.actions) {
    const prev = seenA.get(a.name);
    if (prev) throw new PddlError(`duplicate action '${a.name}' (first declared at ${prev.line}:${prev.column})`, a.loc);
    seenA.set(a.name, a.loc);
    const vars = bind(new Map(), a.params, types);
    if (a.precondition) checkFormula(a.precondition, vars, scope, types);
    if (a.effect) checkEffect(a.effect, vars, scope, types);
  }
  for (const dr of d.derived) {
    const arity = predicates.get(dr.predicate);
    if (arity === undefined) throw new PddlError(`undeclared predicate '${dr.predicate}' in :derived`, dr.loc);
    if (arity !== dr.params.length) {
      throw new PddlError(`wrong arity for derived predicate '${dr.predicate}': expected ${arity}, got ${dr.params.length}`, dr.loc);
    }
    const vars = bind(new Map(), dr.params, types);
    // the head's parameters must fit the predicate's declaration, like an atom's arguments
    typeCheck({ predicate: dr.predicate, args: dr.params.map((p) => ({ kind: "var", name: p.name, loc: p.loc })), loc: dr.loc }, vars);
    checkFormula(dr.body, vars, scope, types);
  }
}

/**
 * Argument types of atoms, as Fast Downward's translator reads them. An object or constant fits
 * a parameter if one of its types is (a subtype of) one of the parameter's types. A variable
 * fits unless no object could be of its type and of the parameter's type at once: its type only
 * restricts grounding, so a subtype, a supertype (IPC domains pass `?x - object` freely) or an
 * `either` with one fitting member is fine, and only disjoint types are an error.
 */
function atomTypeChecker(d: Domain, objects: TypedName[]): AtomTypeCheck {
  const parents = typeParents(d);
  const ancestors = new Map<string, Set<string>>();
  const anc = (t: string): Set<string> => {
    let set = ancestors.get(t);
    if (set) return set;
    set = new Set<string>(["object"]);
    const stack = [t];
    while (stack.length > 0) {
      const u = stack.pop()!;
      if (set.has(u) && u !== t) continue;
      set.add(u);
      for (const q of parents.get(u) ?? []) stack.push(q);
    }
    ancestors.set(t, set);
    return set;
  };
  const allTypes = [...new Set(d.types.map((t) => t.name))];
  // Two types overlap when one is an ancestor of the other or they share a subtype.
  const overlap = (a: string, b: string): boolean =>
    a === "object" || b === "object" || anc(a).has(b) || anc(b).has(a) || allTypes.some((u) => anc(u).has(a) && anc(u).has(b));
  const objTypes = new Map<string, string[]>();
  for (const c of d.constants) objTypes.set(c.name, c.types);
  for (const o of objects) objTypes.set(o.name, o.types);
  const params = new Map(d.predicates.map((x) => [x.name, x.params]));
  const show = (ts: string[]): string => (ts.length === 0 ? "object" : ts.length === 1 ? ts[0]! : `(either ${ts.join(" ")})`);
  return (a: Atom, vars: Vars): void => {
    const ps = params.get(a.predicate);
    if (!ps) return;
    a.args.forEach((t, i) => {
      const want = ps[i]?.types ?? [];
      if (want.length === 0 || want.includes("object")) return;
      let have: string[];
      if (t.kind === "var") {
        have = vars.get(t.name) ?? [];
        if (have.length === 0 || have.some((h) => want.some((w) => overlap(h, w)))) return;
      } else {
        have = objTypes.get(t.name) ?? [];
        if (have.some((h) => want.some((w) => anc(h).has(w)))) return;
      }
      throw new PddlError(`'${t.name}' of type '${show(have)}' cannot be argument ${i + 1} of '${a.predicate}' (expects '${show(want)}')`, t.loc);
    });
  };
}

/** Problem checks against its domain (names, declarations, arity); throws the first PddlError. */
export function checkProblem(p: Problem, d: Domain): void {
  if (p.domainName !== d.name) {
    throw new PddlError(`problem is for domain '${p.domainName}' but the domain is '${d.name}'`, problemDomainLoc.get(p) ?? p.loc);
  }
  const types = declaredTypes(d);
  const seen = new Map<string, TypedName>();
  checkTypedList(p.objects, types, "object", seen);
  const consts = new Map(d.constants.map((c) => [c.name, c]));
  for (const o of p.objects) {
    // Re-declaring a constant with the same type is harmless (common in IPC files); a clash is not.
    const c = consts.get(o.name);
    if (c && c.types.join(" ") !== o.types.join(" ")) {
      throw new PddlError(`object '${o.name}' clashes with the domain constant of type '${c.types.join(" ")}'`, o.loc);
    }
  }
  const scope: Scope = {
    predicates: new Map(d.predicates.map((x) => [x.name, x.params.length])),
    functions: new Map(d.functions.map((x) => [x.name, x.params.length])),
    constants: new Set([...d.constants.map((c) => c.name), ...p.objects.map((o) => o.name)]),
    constKind: "object",
  };
  const none: Vars = new Map();
  for (const el of p.init) {
    const args = el.kind === "atom" ? el.atom.args : el.fn.args;
    for (const t of args) if (t.kind === "var") throw new PddlError(`variable '${t.name}' not allowed in :init`, t.loc);
    if (el.kind === "atom") checkAtom(el.atom, none, scope);
    else checkFn(el.fn, none, scope);
  }
  checkFormula(p.goal, none, scope, types);
  if (p.metric) checkFn(p.metric.fn, none, scope);
  // Types last, so that an undeclared name anywhere is reported first.
  const typeCheck = atomTypeChecker(d, p.objects);
  for (const el of p.init) if (el.kind === "atom") typeCheck(el.atom, none);
  checkFormula(p.goal, none, { ...scope, typeCheck }, types);
}
