/**
 * Typed AST for PDDL domains and problems. All names are lower-case (PDDL is
 * case-insensitive). Every node that a semantic error can point at carries a `loc`.
 */

/** A position in a source file (1-based line and column). */
export interface Loc {
  file: string;
  line: number;
  column: number;
}

/** A typed name in a parameter, object or constant list. `types` has one entry, or several for `(either a b)`. */
export interface TypedName {
  name: string;
  types: string[];
  loc: Loc;
}

/** A variable (`?x`, stored with the `?`) or an object/constant name. */
export type Term =
  | { kind: "var"; name: string; loc: Loc }
  | { kind: "const"; name: string; loc: Loc };

export interface Atom {
  predicate: string;
  args: Term[];
  loc: Loc;
}

export type Formula =
  | { kind: "atom"; atom: Atom; loc: Loc }
  | { kind: "eq"; left: Term; right: Term; loc: Loc }
  | { kind: "not"; arg: Formula; loc: Loc }
  | { kind: "and"; args: Formula[]; loc: Loc }
  | { kind: "or"; args: Formula[]; loc: Loc }
  | { kind: "imply"; left: Formula; right: Formula; loc: Loc }
  | { kind: "exists"; params: TypedName[]; body: Formula; loc: Loc }
  | { kind: "forall"; params: TypedName[]; body: Formula; loc: Loc };

/** A numeric function application such as `(total-cost)` or `(road-length ?a ?b)`. */
export interface FunctionTerm {
  name: string;
  args: Term[];
  loc: Loc;
}

/** The value of an `increase` effect: a number or a function term. */
export type NumericExpr =
  | { kind: "number"; value: number; loc: Loc }
  | { kind: "fn"; fn: FunctionTerm; loc: Loc };

export type Effect =
  | { kind: "add"; atom: Atom; loc: Loc }
  | { kind: "del"; atom: Atom; loc: Loc }
  | { kind: "and"; args: Effect[]; loc: Loc }
  | { kind: "forall"; params: TypedName[]; body: Effect; loc: Loc }
  | { kind: "when"; cond: Formula; body: Effect; loc: Loc }
  | { kind: "increase"; fn: FunctionTerm; value: NumericExpr; loc: Loc };

export interface TypeDecl {
  name: string;
  /** Declared supertypes (several for `(either a b)`); `["object"]` when none is given. */
  parents: string[];
  loc: Loc;
}

export interface PredicateDecl {
  name: string;
  /** The name as written, when it is not all lower case (generic text splits "robotAt"). */
  spelling?: string;
  params: TypedName[];
  loc: Loc;
}

export interface FunctionDecl {
  name: string;
  params: TypedName[];
  /** Declared result type, e.g. `number`; null when omitted. */
  type: string | null;
  loc: Loc;
}

export interface ActionDecl {
  name: string;
  /** The name as written, when it is not all lower case. */
  spelling?: string;
  params: TypedName[];
  precondition: Formula | null;
  effect: Effect | null;
  loc: Loc;
}

export interface DerivedDecl {
  predicate: string;
  params: TypedName[];
  body: Formula;
  loc: Loc;
}

export interface Domain {
  name: string;
  file: string;
  requirements: string[];
  /** Declared types, in order; the implicit root `object` is not listed. */
  types: TypeDecl[];
  constants: TypedName[];
  predicates: PredicateDecl[];
  functions: FunctionDecl[];
  actions: ActionDecl[];
  derived: DerivedDecl[];
  loc: Loc;
}

export type InitElement =
  | { kind: "atom"; atom: Atom; loc: Loc }
  | { kind: "fn-eq"; fn: FunctionTerm; value: number; loc: Loc };

export interface Metric {
  direction: "minimize" | "maximize";
  fn: FunctionTerm;
  loc: Loc;
}

export interface Problem {
  name: string;
  file: string;
  domainName: string;
  requirements: string[];
  objects: TypedName[];
  init: InitElement[];
  goal: Formula;
  metric: Metric | null;
  loc: Loc;
}
