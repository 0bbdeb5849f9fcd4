/**
 * The brute force behind bench/acp-check and the reasoning tests: the answer of an acp row
 * re-derived on a path independent of the engine and of the grounder. It reads the domain and
 * problem ASTs and evaluates the lifted PDDL directly on states (sets of ground atoms): a
 * precondition, an effect condition, a goal or a derived predicate is a formula evaluated with
 * its quantifiers (exists, forall) over the objects of their types; effects are collected with
 * their `when` conditions and `forall` bindings on the state before the action (deletes, then
 * adds: an add wins); derived predicates are computed per state, stratum by stratum, each to a
 * fixpoint; an action is one name and its arguments, however many witnesses its existential
 * precondition has. No ground task, no relaxation, no mutexes, no h*.
 *
 * States are enumerated one by one from the question's state over every type-correct ground
 * action (those a precondition false on the problem's static facts alone rules out are left
 * out); reachability and action reachability read the enumeration (within `meta.horizon` steps
 * where set), a landmark is checked by an enumeration that never enters a state where the fact
 * holds, the next action by exact goal distances with action costs (Dijkstra backwards over the
 * enumerated states), plans by replaying them.
 */
import { readFileSync } from "node:fs";
import { Heap } from "heap-js";
import type { AcpRow } from "../src/reasoning/index.js";
import { parseDomain, parseProblem } from "../src/pddl/index.js";
import type { ActionDecl, Domain, Effect, Formula, Problem, Term, TypedName } from "../src/pddl/ast.js";

/** Thrown where an enumeration would pass its `maxStates`. */
export class TooLarge extends Error {}

/** A state: the true atoms of the predicates actions change (their keys), and a string key of the set. */
export interface WState {
  atoms: number[];
  key: string;
}

/** Is the atom of this key true? (keys: `World.atomKey`) */
type Has = (key: number) => boolean;
/** A formula compiled over variable slots (object indices). */
type Ev = (env: Int32Array, has: Has) => boolean;
/** An effect compiled over variable slots: pushes the keys it adds and deletes. */
type Eff = (env: Int32Array, has: Has, add: number[], del: number[]) => void;

/** A ground action: one name and its arguments (its parameters bound to objects). */
export interface GAction {
  name: string;
  decl: ActionDecl;
  /** Variable slots: the parameters' objects, then room for the quantified variables. */
  env: Int32Array;
  cost: number;
  pre: Ev;
  eff: Eff;
}

type Env = Map<string, string>;

/** States whose successors a world keeps. */
const SUCCESSORS = 400_000;

const atomText = (pred: string, args: readonly string[]): string => (args.length === 0 ? `(${pred})` : `(${pred} ${args.join(" ")})`);

/** Variables in scope while compiling: name -> slot, and the next free slot. */
interface Scope {
  slots: Map<string, number>;
  next: { n: number };
}

/** The lifted semantics of one problem. */
export class World {
  readonly domain: Domain;
  readonly problem: Problem;
  readonly init: WState;
  /** Type-correct ground actions whose precondition the static facts do not rule out. */
  readonly actions: GAction[];
  private readonly byName = new Map<string, GAction>();
  private readonly objectsOf = new Map<string, string[]>();
  private readonly objectTypes = new Map<string, Set<string>>();
  private readonly objectNames: string[];
  private readonly objectIndex = new Map<string, number>();
  private readonly predNames: string[];
  private readonly predIndex = new Map<string, number>();
  private readonly predArity: number[];
  private readonly staticPreds = new Set<string>();
  private readonly derivedPreds = new Set<string>();
  /** Static atoms: by name (for the static evaluation) and by key. */
  private readonly staticNames = new Set<string>();
  private readonly staticKeys = new Set<number>();
  private readonly strata: { head: (env: Int32Array) => number; params: Int32Array[]; slots: number; body: Ev }[][];
  private readonly fnValues = new Map<string, number>();
  private readonly useCosts: boolean;
  private readonly goal: Ev;
  private readonly goalSlots: number;
  /** The last few states whose atoms were looked up (derived ones included), with their lookups. */
  private readonly cache = new Map<string, Has>();
  private readonly succ = new Map<string, [GAction, WState][]>();

  static fromFiles(domainFile: string, problemFile: string): World {
    const d = parseDomain(readFileSync(domainFile, "utf8"), domainFile);
    return new World(d, parseProblem(readFileSync(problemFile, "utf8"), problemFile, d));
  }

  constructor(domain: Domain, problem: Problem) {
    this.domain = domain;
    this.problem = problem;
    // types: each declared type with its supertypes, and the root
    const parents = new Map<string, string[]>();
    for (const t of domain.types) parents.set(t.name, [...(parents.get(t.name) ?? []), ...t.parents]);
    const closure = (t: string, out: Set<string>): Set<string> => {
      if (out.has(t)) return out;
      out.add(t);
      for (const p of parents.get(t) ?? []) closure(p, out);
      return out;
    };
    for (const o of [...domain.constants, ...problem.objects]) {
      const ts = this.objectTypes.get(o.name) ?? new Set(["object"]);
      for (const t of o.types.length > 0 ? o.types : ["object"]) closure(t, ts);
      this.objectTypes.set(o.name, ts);
    }
    this.objectNames = [...this.objectTypes.keys()].sort();
    this.objectNames.forEach((o, i) => this.objectIndex.set(o, i));
    this.predNames = domain.predicates.map((p) => p.name);
    this.predArity = domain.predicates.map((p) => p.params.length);
    this.predNames.forEach((p, i) => this.predIndex.set(p, i));
    const N = Math.max(1, this.objectNames.length);
    if (this.predNames.length * N ** Math.max(0, ...this.predArity) > Number.MAX_SAFE_INTEGER) throw new TooLarge("atoms past 2^53 keys");
    // predicates: derived ones, and static ones (no action adds or deletes them)
    for (const d of domain.derived) this.derivedPreds.add(d.predicate);
    const changed = new Set<string>();
    const walk = (e: Effect): void => {
      if (e.kind === "add" || e.kind === "del") changed.add(e.atom.predicate);
      else if (e.kind === "and") e.args.forEach(walk);
      else if (e.kind === "forall" || e.kind === "when") walk(e.body);
    };
    for (const a of domain.actions) if (a.effect !== null) walk(a.effect);
    for (const p of domain.predicates) if (!changed.has(p.name) && !this.derivedPreds.has(p.name)) this.staticPreds.add(p.name);
    const initAtoms: number[] = [];
    for (const el of problem.init) {
      if (el.kind === "fn-eq") {
        this.fnValues.set(atomText(el.fn.name, el.fn.args.map((t) => t.name)), el.value);
        continue;
      }
      const args = el.atom.args.map((t) => t.name);
      const key = this.atomKey(el.atom.predicate, args);
      if (this.staticPreds.has(el.atom.predicate)) {
        this.staticNames.add(atomText(el.atom.predicate, args));
        this.staticKeys.add(key);
      } else if (!this.derivedPreds.has(el.atom.predicate)) initAtoms.push(key);
    }
    const m = problem.metric;
    this.useCosts = m !== null && m.direction === "minimize" && m.fn.name === "total-cost" && m.fn.args.length === 0;
    this.strata = this.stratify();
    const gs: Scope = { slots: new Map(), next: { n: 0 } };
    this.goal = this.compile(problem.goal, gs);
    this.goalSlots = gs.next.n;
    this.init = this.stateOf(initAtoms);
    this.actions = [];
    for (const decl of domain.actions) this.groundAction(decl);
    for (const a of this.actions) this.byName.set(a.name, a);
  }

  /** The key of a ground atom: its predicate, then its objects, as one number (-1: no such predicate or object). */
  atomKey(pred: string, args: readonly string[]): number {
    const p = this.predIndex.get(pred);
    if (p === undefined || args.length !== this.predArity[p]) return -1;
    let k = 0;
    for (let i = args.length - 1; i >= 0; i--) {
      const o = this.objectIndex.get(args[i]!);
      if (o === undefined) return -1;
      k = k * this.objectNames.length + o;
    }
    return p + this.predNames.length * k;
  }

  /** The ground atom of a key, "(on a b)". */
  atomName(key: number): string {
    const P = this.predNames.length;
    const N = this.objectNames.length;
    const p = key % P;
    let k = (key - p) / P;
    const args: string[] = [];
    for (let i = 0; i < this.predArity[p]!; i++) {
      args.push(this.objectNames[k % N]!);
      k = Math.floor(k / N);
    }
    return atomText(this.predNames[p]!, args);
  }

  /** The key of an atom written "(on a b)" (-1: none). */
  private keyOfText(atom: string): number {
    const m = /^\(\s*([^()\s]+)((?:\s+[^()\s]+)*)\s*\)$/.exec(atom.trim().toLowerCase());
    if (m === null) return -1;
    return this.atomKey(m[1]!, m[2]!.trim() === "" ? [] : m[2]!.trim().split(/\s+/));
  }

  /** The objects of a parameter's types. */
  objects(types: string[]): string[] {
    const key = types.join("|") || "object";
    let os = this.objectsOf.get(key);
    if (os === undefined) {
      os = this.objectNames.filter((o) => (types.length === 0 ? ["object"] : types).some((t) => this.objectTypes.get(o)!.has(t)));
      this.objectsOf.set(key, os);
    }
    return os;
  }
  private domainOf(types: string[]): Int32Array {
    return Int32Array.from(this.objects(types), (o) => this.objectIndex.get(o)!);
  }

  /** Dense ids of the atoms seen in states, for their keys. */
  private readonly denseId = new Map<number, number>();
  private stateOf(keys: number[]): WState {
    const atoms = [...new Set(keys)];
    const ids = new Int32Array(atoms.length);
    atoms.forEach((k, i) => {
      let id = this.denseId.get(k);
      if (id === undefined) this.denseId.set(k, (id = this.denseId.size));
      ids[i] = id;
    });
    ids.sort();
    let key = "";
    for (let i = 0; i < ids.length; i++) key += String.fromCharCode(ids[i]! & 0xffff, ids[i]! >>> 16);
    return { atoms, key };
  }

  /** A term compiled: a slot to read (>= 0) or an object (-(index + 1)). */
  private termCode(t: Term, sc: Scope): number {
    if (t.kind === "var") {
      const v = sc.slots.get(t.name);
      if (v === undefined) throw new Error(`unbound variable ${t.name}`);
      return v;
    }
    const o = this.objectIndex.get(t.name);
    if (o === undefined) throw new Error(`unknown object ${t.name}`);
    return -(o + 1);
  }

  /** An atom compiled: its key from the slots. */
  private atomCode(pred: string, args: Term[], sc: Scope): (env: Int32Array) => number {
    const p = this.predIndex.get(pred);
    if (p === undefined) throw new Error(`unknown predicate ${pred}`);
    const codes = Int32Array.from(args.map((t) => this.termCode(t, sc)));
    const P = this.predNames.length;
    const N = this.objectNames.length;
    return (env) => {
      let k = 0;
      for (let i = codes.length - 1; i >= 0; i--) {
        const c = codes[i]!;
        k = k * N + (c >= 0 ? env[c]! : -c - 1);
      }
      return p + P * k;
    };
  }

  /** Bind quantified `params` to fresh slots of `sc`: the inner scope, the slots and their objects. */
  private bindParams(params: TypedName[], sc: Scope): [Scope, Int32Array, Int32Array[]] {
    const slots = new Map(sc.slots);
    const ids = Int32Array.from(params.map((p) => {
      const id = sc.next.n++;
      slots.set(p.name, id);
      return id;
    }));
    return [{ slots, next: sc.next }, ids, params.map((p) => this.domainOf(p.types))];
  }

  /** `f` compiled: true under the slots `env` where `has` says which atoms are. */
  private compile(f: Formula, sc: Scope): Ev {
    switch (f.kind) {
      case "atom": {
        const key = this.atomCode(f.atom.predicate, f.atom.args, sc);
        return (env, has) => has(key(env));
      }
      case "eq": {
        const l = this.termCode(f.left, sc);
        const r = this.termCode(f.right, sc);
        const v = (c: number, env: Int32Array): number => (c >= 0 ? env[c]! : -c - 1);
        return (env) => v(l, env) === v(r, env);
      }
      case "not": {
        const x = this.compile(f.arg, sc);
        return (env, has) => !x(env, has);
      }
      case "and": {
        const xs = f.args.map((x) => this.compile(x, sc));
        return (env, has) => xs.every((x) => x(env, has));
      }
      case "or": {
        const xs = f.args.map((x) => this.compile(x, sc));
        return (env, has) => xs.some((x) => x(env, has));
      }
      case "imply": {
        const l = this.compile(f.left, sc);
        const r = this.compile(f.right, sc);
        return (env, has) => !l(env, has) || r(env, has);
      }
      case "exists":
      case "forall": {
        const [inner, slots, doms] = this.bindParams(f.params, sc);
        const body = this.compile(f.body, inner);
        // exists: some binding makes the body true; forall: none makes it false
        const want = f.kind === "exists";
        const loop = (env: Int32Array, has: Has, i: number): boolean => {
          if (i === slots.length) return body(env, has) === want;
          for (const o of doms[i]!) {
            env[slots[i]!] = o;
            if (loop(env, has, i + 1)) return true;
          }
          return false;
        };
        return want ? (env, has) => loop(env, has, 0) : (env, has) => !loop(env, has, 0);
      }
    }
  }

  /** An effect compiled: `when` conditions read `has` (the state before the action). */
  private compileEffect(e: Effect, sc: Scope): Eff {
    switch (e.kind) {
      case "add":
      case "del": {
        const key = this.atomCode(e.atom.predicate, e.atom.args, sc);
        return e.kind === "add" ? (env, _h, add) => void add.push(key(env)) : (env, _h, _a, del) => void del.push(key(env));
      }
      case "and": {
        const xs = e.args.map((x) => this.compileEffect(x, sc));
        return (env, has, add, del) => xs.forEach((x) => x(env, has, add, del));
      }
      case "forall": {
        const [inner, slots, doms] = this.bindParams(e.params, sc);
        const body = this.compileEffect(e.body, inner);
        const loop = (env: Int32Array, has: Has, add: number[], del: number[], i: number): void => {
          if (i === slots.length) return body(env, has, add, del);
          for (const o of doms[i]!) {
            env[slots[i]!] = o;
            loop(env, has, add, del, i + 1);
          }
        };
        return (env, has, add, del) => loop(env, has, add, del, 0);
      }
      case "when": {
        const cond = this.compile(e.cond, sc);
        const body = this.compileEffect(e.body, sc);
        return (env, has, add, del) => {
          if (cond(env, has)) body(env, has, add, del);
        };
      }
      case "increase":
        return () => undefined;
    }
  }

  /** Derived predicates in strata: a predicate used negatively in a body is in an earlier stratum. */
  private stratify(): World["strata"] {
    const layer = new Map<string, number>([...this.derivedPreds].map((p) => [p, 0]));
    const deps: [string, string, boolean][] = [];
    const walk = (f: Formula, neg: boolean, head: string): void => {
      switch (f.kind) {
        case "atom":
          if (this.derivedPreds.has(f.atom.predicate)) deps.push([head, f.atom.predicate, neg]);
          return;
        case "eq":
          return;
        case "not":
          return walk(f.arg, !neg, head);
        case "and":
        case "or":
          return f.args.forEach((x) => walk(x, neg, head));
        case "imply":
          walk(f.left, !neg, head);
          return walk(f.right, neg, head);
        case "exists":
        case "forall":
          return walk(f.body, neg, head);
      }
    };
    for (const d of this.domain.derived) walk(d.body, false, d.predicate);
    for (let changed = true, rounds = 0; changed; rounds++) {
      if (rounds > this.derivedPreds.size + 1) throw new Error("derived predicates not stratified");
      changed = false;
      for (const [h, q, neg] of deps) {
        const need = layer.get(q)! + (neg ? 1 : 0);
        if (layer.get(h)! < need) (layer.set(h, need), (changed = true));
      }
    }
    const out: World["strata"] = [];
    for (const d of this.domain.derived) {
      const l = layer.get(d.predicate)!;
      while (out.length <= l) out.push([]);
      const [sc, , doms] = this.bindParams(d.params, { slots: new Map(), next: { n: 0 } });
      const head = this.atomCode(d.predicate, d.params.map((p) => ({ kind: "var", name: p.name, loc: p.loc })), sc);
      const body = this.compile(d.body, sc);
      out[l]!.push({ head, params: doms, slots: sc.next.n, body });
    }
    return out;
  }

  /** Every binding of `params` (extending `env`), calling `f` on each until it returns true. */
  private bindings(params: readonly TypedName[], env: Env, f: (e: Env) => boolean, i = 0): boolean {
    if (i === params.length) return f(env);
    const p = params[i]!;
    const prev = env.get(p.name);
    let hit = false;
    for (const o of this.objects(p.types)) {
      env.set(p.name, o);
      if (this.bindings(params, env, f, i + 1)) {
        hit = true;
        break;
      }
    }
    if (prev === undefined) env.delete(p.name);
    else env.set(p.name, prev);
    return hit;
  }

  private term(t: Term, env: Env): string | undefined {
    return t.kind === "var" ? env.get(t.name) : t.name;
  }

  /**
   * Three-valued: 1 true, 0 false, 0.5 unknown, knowing only the static facts (and the variables
   * bound so far): used to leave out ground actions no state can take.
   */
  private staticValue(f: Formula, env: Env): number {
    switch (f.kind) {
      case "atom": {
        const args = f.atom.args.map((t) => this.term(t, env));
        if (!this.staticPreds.has(f.atom.predicate) || args.some((a) => a === undefined)) return 0.5;
        return this.staticNames.has(atomText(f.atom.predicate, args as string[])) ? 1 : 0;
      }
      case "eq": {
        const l = this.term(f.left, env);
        const r = this.term(f.right, env);
        return l === undefined || r === undefined ? 0.5 : l === r ? 1 : 0;
      }
      case "not":
        return 1 - this.staticValue(f.arg, env);
      case "and":
        return f.args.reduce((v, x) => (v === 0 ? 0 : Math.min(v, this.staticValue(x, env))), 1);
      case "or":
        return f.args.reduce((v, x) => (v === 1 ? 1 : Math.max(v, this.staticValue(x, env))), 0);
      case "imply":
        return Math.max(1 - this.staticValue(f.left, env), this.staticValue(f.right, env));
      case "exists":
      case "forall": {
        let v = f.kind === "exists" ? 0 : 1;
        this.bindings(f.params, env, (e) => {
          const x = this.staticValue(f.body, e);
          v = f.kind === "exists" ? Math.max(v, x) : Math.min(v, x);
          return f.kind === "exists" ? v === 1 : v === 0;
        });
        return v;
      }
    }
  }

  /** The ground actions of `decl`: every type-correct binding of its parameters the static facts allow. */
  private groundAction(decl: ActionDecl): void {
    const [sc] = this.bindParams(decl.params, { slots: new Map(), next: { n: 0 } });
    const pre: Ev = decl.precondition === null ? () => true : this.compile(decl.precondition, sc);
    const eff: Eff = decl.effect === null ? () => undefined : this.compileEffect(decl.effect, sc);
    const env: Env = new Map();
    const grow = (i: number): void => {
      if (decl.precondition !== null && this.staticValue(decl.precondition, env) === 0) return;
      if (i === decl.params.length) {
        const e = new Map(env);
        const slots = new Int32Array(sc.next.n);
        decl.params.forEach((p, j) => (slots[j] = this.objectIndex.get(e.get(p.name)!)!));
        const name = atomText(decl.name, decl.params.map((p) => e.get(p.name)!));
        this.actions.push({ name, decl, env: slots, cost: this.costOf(decl, e), pre, eff });
        return;
      }
      const p = decl.params[i]!;
      for (const o of this.objects(p.types)) {
        env.set(p.name, o);
        grow(i + 1);
      }
      env.delete(p.name);
    };
    grow(0);
  }

  private costOf(decl: ActionDecl, env: Env): number {
    if (!this.useCosts) return 1;
    let total = 0;
    const walk = (e: Effect): void => {
      if (e.kind === "and") e.args.forEach(walk);
      else if (e.kind === "increase" && e.fn.name === "total-cost") {
        if (e.value.kind === "number") total += e.value.value;
        else {
          const v = this.fnValues.get(atomText(e.value.fn.name, e.value.fn.args.map((t) => this.term(t, env)!)));
          if (v === undefined) throw new Error(`no value for ${e.value.fn.name}`);
          total += v;
        }
      }
    };
    if (decl.effect !== null) walk(decl.effect);
    return total;
  }

  /** The ground action named `name` ("(pick-up a)"), or null when it is no type-correct action (or one no state can take). */
  action(name: string): GAction | null {
    const t = name.trim().toLowerCase().replace(/\s+/g, " ").replace(/\( /g, "(").replace(/ \)/g, ")");
    return this.byName.get(t) ?? null;
  }

  /** Which atoms hold in `s`: its own, the static ones, and the derived ones (computed here). */
  private hasIn(s: WState): Has {
    const known = this.cache.get(s.key);
    if (known !== undefined) return known;
    const own = new Set<number>(s.atoms);
    const derived = new Set<number>();
    const statics = this.staticKeys;
    const has: Has = (k) => own.has(k) || statics.has(k) || derived.has(k);
    for (const layer of this.strata) {
      for (let changed = true; changed; ) {
        changed = false;
        for (const d of layer) {
          const env = new Int32Array(d.slots);
          const loop = (i: number): void => {
            if (i === d.params.length) {
              const head = d.head(env);
              if (!derived.has(head) && d.body(env, has)) (derived.add(head), (changed = true));
              return;
            }
            for (const o of d.params[i]!) {
              env[i] = o;
              loop(i + 1);
            }
          };
          loop(0);
        }
      }
    }
    if (this.cache.size >= 8) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(s.key, has);
    return has;
  }

  /** Does ground atom `atom` ("(on a b)") hold in `s`? */
  holds(s: WState, atom: string): boolean {
    const k = this.keyOfText(atom);
    return k >= 0 && this.hasIn(s)(k);
  }

  /** The true atoms of `s` that actions change (derived and static ones left out), sorted. */
  facts(s: WState): string[] {
    return s.atoms.map((k) => this.atomName(k)).sort();
  }

  applicable(s: WState, a: GAction): boolean {
    // quantifiers write their own slots, past the parameters': the action's bindings stay as they are
    return a.pre(a.env, this.hasIn(s));
  }

  /** The state after `a` (applicable in `s`): effect conditions on `s`, deletes, then adds. */
  apply(s: WState, a: GAction): WState {
    const add: number[] = [];
    const del: number[] = [];
    a.eff(a.env, this.hasIn(s), add, del);
    const gone = new Set(del);
    const keys = s.atoms.filter((k) => !gone.has(k));
    for (const k of add) keys.push(k);
    return this.stateOf(keys);
  }

  /**
   * Every action applicable in `s` with the state it leads to (kept for the last `SUCCESSORS`
   * states asked: the enumerations of one question's state share them).
   */
  successors(s: WState): [GAction, WState][] {
    let out = this.succ.get(s.key);
    if (out === undefined) {
      out = [];
      for (const a of this.actions) if (this.applicable(s, a)) out.push([a, this.apply(s, a)]);
      if (this.succ.size >= SUCCESSORS) this.succ.clear();
      this.succ.set(s.key, out);
    }
    return out;
  }

  isGoal(s: WState): boolean {
    return this.goal(new Int32Array(this.goalSlots), this.hasIn(s));
  }

  /** The state after the plan `names` from `s`, or the 1-based number of its first step that cannot be taken. */
  run(s: WState, names: readonly string[]): { state: WState; failed: number } {
    for (let i = 0; i < names.length; i++) {
      const a = this.action(names[i]!);
      if (a === null || !this.applicable(s, a)) return { state: s, failed: i + 1 };
      s = this.apply(s, a);
    }
    return { state: s, failed: 0 };
  }
}

/** States from `s` in breadth-first order (at most `depth` steps), never entering one `avoid` rejects; successors as [state, action]. */
export interface Space {
  states: WState[];
  depth: number[];
  next: [number, GAction][][];
  index: Map<string, number>;
}
export function enumerate(w: World, s: WState, maxStates: number, depth = Infinity, avoid?: (x: WState) => boolean): Space {
  const sp: Space = { states: [s], depth: [0], next: [], index: new Map([[s.key, 0]]) };
  for (let i = 0; i < sp.states.length; i++) {
    sp.next.push([]);
    if (sp.depth[i]! >= depth) continue;
    for (const [a, t] of w.successors(sp.states[i]!)) {
      if (avoid?.(t)) continue;
      let j = sp.index.get(t.key);
      if (j === undefined) {
        sp.index.set(t.key, (j = sp.states.length));
        sp.states.push(t);
        sp.depth.push(sp.depth[i]! + 1);
        if (sp.states.length > maxStates) throw new TooLarge();
      }
      sp.next[i]!.push([j, a]);
    }
  }
  return sp;
}

/** Cheapest cost to a goal state from every state of `sp` (Infinity: none). */
function goalCosts(w: World, sp: Space): Float64Array {
  const d = new Float64Array(sp.states.length).fill(Infinity);
  const prev: [number, GAction][][] = sp.states.map(() => []);
  sp.next.forEach((ns, i) => ns.forEach(([j, a]) => prev[j]!.push([i, a])));
  const heap = new Heap<[number, number]>((a, b) => a[0] - b[0]);
  sp.states.forEach((x, i) => {
    if (w.isGoal(x)) (d[i] = 0), heap.push([0, i]);
  });
  for (let e = heap.pop(); e !== undefined; e = heap.pop()) {
    const [c, j] = e;
    if (c > d[j]!) continue;
    for (const [i, a] of prev[j]!) {
      const n = c + a.cost;
      if (n < d[i]!) (d[i] = n), heap.push([n, i]);
    }
  }
  return d;
}

const actionOf = (w: World, name: string): GAction | null => w.action(name);
const valid = (w: World, s: WState, plan: string[]): boolean => {
  const r = w.run(s, plan);
  return r.failed === 0 && w.isGoal(r.state);
};
/** Every optimal next action at `s` (PDDL, sorted), by exact goal costs. */
function optimalNext(w: World, full: () => Space): string[] {
  const sp = full();
  const d = goalCosts(w, sp);
  return [...new Set(sp.next[0]!.filter(([j, a]) => a.cost + d[j]! === d[0]!).map(([, a]) => a.name))].sort();
}

/** The state of a row: its prefix replayed from the initial state (throws if a step cannot be taken). */
export function stateOf(w: World, row: AcpRow): WState {
  const r = w.run(w.init, row.meta.prefix);
  if (r.failed > 0) throw new Error(`${row.id}: prefix step ${r.failed} ${row.meta.prefix[r.failed - 1]} cannot be taken`);
  return r.state;
}

/** The brute-force truth of one item of a question at state `s`. */
export function truth(w: World, row: AcpRow, s: WState, item: string, full: () => Space, maxStates: number): boolean {
  const h = row.meta.horizon;
  switch (row.kind) {
    case "applicability": {
      const a = actionOf(w, item);
      return a !== null && w.applicable(s, a);
    }
    case "progression": {
      const r = w.run(s, [row.meta.action!]);
      if (r.failed > 0) throw new Error(`${row.id}: ${row.meta.action} cannot be taken`);
      return w.holds(r.state, item);
    }
    case "reachability": {
      // an item is a fact or a pair of facts ("(a) & (b)": both in one state)
      const facts = item.split(" & ");
      return (h === null ? full() : enumerate(w, s, maxStates, h)).states.some((x) => facts.every((f) => w.holds(x, f)));
    }
    case "action-reachability": {
      // as one of the next h steps: applicable after at most h - 1 of them
      const a = actionOf(w, item);
      return a !== null && (h === null ? full() : enumerate(w, s, maxStates, h - 1)).states.some((x) => w.applicable(x, a));
    }
    case "landmarks":
      // true now, or no goal state reachable through states where it is false
      if (w.holds(s, item)) return true;
      try {
        return !reachesGoalAvoiding(w, full(), item);
      } catch (e) {
        // the whole space is too large: the part that avoids the fact may not be
        if (!(e instanceof TooLarge)) throw e;
        return !enumerate(w, s, maxStates, Infinity, (x) => w.holds(x, item)).states.some((x) => w.isGoal(x));
      }
    case "validation":
      return w.run(s, row.meta.plan!).failed === Number(item);
    case "justification": {
      const cut = item.split("+").map((x) => Number(x) - 1);
      return valid(w, s, row.meta.plan!.filter((_, i) => !cut.includes(i)));
    }
    case "next-action":
      return optimalNext(w, full).includes(item);
    default:
      throw new Error(`${row.id}: ${row.kind} lists no items`);
  }
}

/** The positive atoms of a goal formula's conjunction (its facts, as ACPBench reads them). */
function goalAtoms(w: World): Set<string> {
  const out = new Set<string>();
  const walk = (f: Formula): void => {
    if (f.kind === "atom") out.add(atomText(f.atom.predicate.toLowerCase(), f.atom.args.map((a) => a.name.toLowerCase())));
    else if (f.kind === "and") f.args.forEach(walk);
  };
  walk(w.problem.goal);
  return out;
}

/** Is `sub` obtained from `plan` by removing at least one step? */
function removedFrom(plan: string[], sub: string[]): boolean {
  let i = 0;
  for (const x of plan) if (i < sub.length && sub[i] === x) i++;
  return sub.length < plan.length && i === sub.length;
}

/**
 * The open questions: the gold's list is exactly the right answers. Unreachable facts: every
 * atom a state reachable from the initial state holds that no state reachable from `s` holds
 * (the grounder's facts are the relaxation's, a superset; listed atoms outside the initial
 * state's reach must still never hold from `s`). Landmarks: every atom some state from `s`
 * holds, false at `s`, not a goal atom, without which no goal state is reached. A simplified
 * plan: the example removes steps and replays to the goal.
 */
/** Per enumerated space: the atoms of each state and which states are goals. */
const spaceFacts = new WeakMap<Space, { facts: Set<string>[]; goal: boolean[] }>();

/**
 * Does a search from the space's first state that never enters a state where `f` holds reach a
 * goal state? On the enumerated graph (the same states and moves as an enumeration that avoids
 * `f`, without applying the actions again).
 */
function reachesGoalAvoiding(w: World, sp: Space, f: string): boolean {
  let at = spaceFacts.get(sp);
  if (at === undefined) spaceFacts.set(sp, (at = { facts: sp.states.map((x) => new Set(w.facts(x))), goal: sp.states.map((x) => w.isGoal(x)) }));
  const { facts, goal } = at;
  const seenAt = new Uint8Array(sp.states.length);
  const queue = [0];
  seenAt[0] = 1;
  for (let i = 0; i < queue.length; i++) {
    if (goal[queue[i]!]) return true;
    for (const [j] of sp.next[queue[i]!]!) if (!seenAt[j] && !facts[j]!.has(f)) (seenAt[j] = 1), queue.push(j);
  }
  return false;
}

/** The atoms of the states reachable from a world's initial state (one enumeration per world). */
const initFacts = new WeakMap<World, Set<string>>();

function checkOpen(w: World, row: AcpRow, s: WState, full: () => Space, maxStates: number): boolean {
  const seen = (sp: Space): Set<string> => new Set(sp.states.flatMap((x) => w.facts(x)));
  const accept = row.meta.gold.accept ?? [];
  switch (row.kind) {
    case "unreachable-fact": {
      const here = seen(full());
      if (accept.some((f) => here.has(f))) return false;
      let fromInit = initFacts.get(w);
      if (fromInit === undefined) initFacts.set(w, (fromInit = seen(enumerate(w, w.init, maxStates))));
      return same([...fromInit].filter((f) => !here.has(f)).sort(), accept.filter((f) => fromInit.has(f)).sort());
    }
    case "landmark-fact": {
      const goal = goalAtoms(w);
      const now = new Set(w.facts(s));
      // on the enumerated graph (the same states and moves): a search from s that never enters a
      // state where the fact holds reaches no goal state
      const sp = full();
      const lm = [...seen(sp)].filter((f) => !now.has(f) && !goal.has(f) && !reachesGoalAvoiding(w, sp, f));
      return same(lm.sort(), [...accept].sort());
    }
    case "plan-simplification": {
      const sub = (accept[0] ?? "").match(/\([^()]*\)/g) ?? [];
      return removedFrom(row.meta.plan!, sub) && valid(w, s, sub);
    }
    default:
      throw new Error(`${row.id}: not an open question`);
  }
}

const LETTERS = ["A", "B", "C", "D"];
const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/** Is `row`'s answer right at its state `s`? `full` gives the whole enumeration from `s`. (throws TooLarge where the brute force would pass --max-states) */
export function check(w: World, row: AcpRow, s: WState, full: () => Space, maxStates: number): boolean {
  // one question per action as the user sees it: no option, and no item, twice
  if (row.choices !== null && new Set(row.choices).size !== row.choices.length) return false;
  if (new Set(row.meta.items).size !== row.meta.items.length) return false;
  if (row.kind === "unreachable-fact" || row.kind === "landmark-fact" || row.kind === "plan-simplification") return checkOpen(w, row, s, full, maxStates);
  if (row.form === "yes-no" && row.kind === "validation") return (valid(w, s, row.meta.plan!) ? "yes" : "no") === row.answer;
  if (row.form === "yes-no") return row.meta.items.length === 1 && (truth(w, row, s, row.meta.items[0]!, full, maxStates) ? "yes" : "no") === row.answer;
  if (row.form === "choice") return same(row.meta.items.flatMap((x, i) => (truth(w, row, s, x, full, maxStates) ? [LETTERS[i]] : [])), [row.answer]);
  // free answers: options listed in the question, or the whole set or accepted answers
  if (row.meta.items.length > 0) return same(row.meta.items.flatMap((x, i) => (truth(w, row, s, x, full, maxStates) ? [LETTERS[i]] : [])), row.meta.gold.set);
  switch (row.kind) {
    case "applicability":
      return same([...new Set(w.actions.filter((a) => w.applicable(s, a)).map((a) => a.name))].sort(), row.meta.gold.set);
    case "progression": {
      const r = w.run(s, [row.meta.action!]);
      if (r.failed > 0) return false;
      const before = new Set(w.facts(s));
      const after = new Set(w.facts(r.state));
      return same([...[...after].filter((f) => !before.has(f)).map((f) => `+${f}`), ...[...before].filter((f) => !after.has(f)).map((f) => `-${f}`)].sort(), row.meta.gold.set);
    }
    case "validation":
      return same([String(w.run(s, row.meta.plan!).failed)], row.meta.gold.accept);
    case "next-action":
      return same(optimalNext(w, full), row.meta.gold.accept);
    default:
      throw new Error(`${row.id}: a free ${row.kind} question without options`);
  }
}
