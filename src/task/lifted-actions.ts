/**
 * Lifted actions in the normal form that Fast Downward's translator analyses when it looks for
 * invariants (fact groups): preconditions and effect conditions are conjunctions of literals,
 * universal effects stay lifted with their own parameters. We build it from the domain AST
 * (not from compile.ts, which expands quantifiers over objects), following the translator's
 * normalisation step by step wherever the outcome can change which invariants are found or
 * in which order candidates are examined:
 *
 *   - conditions in negation normal form, `imply` as a disjunction, simplified (nested
 *     conjunctions flattened, true/false absorbed);
 *   - effects flattened depth-first into (parameters, condition, literal); of an add and a
 *     delete of the same atom under the same parameters and condition, only the add is kept;
 *     actions without effects are dropped;
 *   - a universally quantified condition becomes a negated literal of a fresh predicate (the
 *     translator's new axiom; only its identity matters here);
 *   - disjunctions pulled to the root, the same way and in the same order, then split: an
 *     action with a disjunctive precondition is replaced by one copy per disjunct appended at
 *     the end of the action list, an effect with a disjunctive condition by copies appended at
 *     the end of the effect list;
 *   - existential quantifiers moved outwards and turned into extra action parameters
 *     (preconditions) or extra effect parameters (effect conditions).
 *
 * Every variable binding gets its own term code, which is what the translator's renaming of
 * variables achieves. Term codes: 0..VAR0-1 are reserved for invariant parameters, codes >= VAR0
 * are variables, negative codes -(o+1) are objects (o indexes `GroundTask.objects`).
 */
import type { Domain, Effect, Formula, Problem, Term, TypedName } from "../pddl/ast.js";

/** First term code used for variables. */
export const VAR0 = 64;

/** A literal over term codes. */
export interface LLit {
  pred: number;
  neg: boolean;
  args: Int32Array;
}

export interface LEffect {
  /** Universally quantified variables of the effect (term codes). */
  params: number[];
  cond: LLit[];
  lit: LLit;
}

export interface LAction {
  name: string;
  /** Parameters, then variables of existential preconditions (term codes). */
  params: number[];
  /** Precondition literals (empty for true, and for false: see `preFalse`). */
  pre: LLit[];
  /** The precondition simplified to false: no instantiation is reachable. */
  preFalse: boolean;
  effects: LEffect[];
  /** `(increase (total-cost) (f args))`: f must be defined for the instantiation to be reachable. */
  costFn: { name: string; args: Int32Array } | null;
}

export interface LiftedTask {
  /** Domain predicates, then "=", then one fresh predicate per universal condition. */
  predNames: string[];
  predArity: number[];
  eqPred: number;
  actions: LAction[];
  /** Types of each variable (index: code - VAR0); `[]` means object. */
  varTypes: string[][];
  /** Atoms that occur negatively in the goal when it is a conjunction of literals. */
  negativeGoal: Array<{ pred: number; args: Int32Array }>;
}

// Conditions during normalisation.
type FC =
  | { k: "lit"; lit: LLit }
  | { k: "and"; parts: FC[] }
  | { k: "or"; parts: FC[] }
  | { k: "ex"; vars: number[]; part: FC }
  | { k: "all"; vars: number[]; part: FC }
  | { k: "true" }
  | { k: "false" };

const TRUE: FC = { k: "true" };
const FALSE: FC = { k: "false" };

interface NEffect {
  params: number[];
  cond: FC;
  lit: LLit;
}

interface NAction {
  name: string;
  params: number[];
  pre: FC;
  effects: NEffect[];
  costFn: { name: string; args: Int32Array } | null;
}

/** Bottom-up simplification as the translator does it (no deduplication). */
function simplify(c: FC): FC {
  switch (c.k) {
    case "and":
    case "or": {
      const absorb = c.k === "and" ? "false" : "true";
      const neutral = c.k === "and" ? "true" : "false";
      const parts: FC[] = [];
      for (const p0 of c.parts) {
        const p = simplify(p0);
        if (p.k === c.k) parts.push(...p.parts);
        else if (p.k === absorb) return p;
        else if (p.k !== neutral) parts.push(p);
      }
      if (parts.length === 0) return c.k === "and" ? TRUE : FALSE;
      if (parts.length === 1) return parts[0]!;
      return { k: c.k, parts };
    }
    case "ex":
    case "all": {
      const p = simplify(c.part);
      if (p.k === "true" || p.k === "false") return p;
      return { k: c.k, vars: c.vars, part: p };
    }
    default:
      return c;
  }
}

function has(c: FC, k: "or" | "ex" | "all"): boolean {
  switch (c.k) {
    case "and":
    case "or":
      return c.k === k || c.parts.some((p) => has(p, k));
    case "ex":
    case "all":
      return c.k === k || has(c.part, k);
    default:
      return false;
  }
}

/** Disjunctions to the root, with the translator's order of disjuncts. */
function pullDisjunctions(c: FC): FC {
  if (c.k !== "and" && c.k !== "or" && c.k !== "ex") return c;
  const parts = c.k === "ex" ? [c.part] : c.parts;
  const disj: Array<FC & { k: "or" }> = [];
  const other: FC[] = [];
  for (const p0 of parts) {
    const p = pullDisjunctions(p0);
    if (p.k === "or") disj.push(p);
    else other.push(p);
  }
  if (disj.length === 0) return c;
  if (c.k === "or") return { k: "or", parts: [...other, ...disj.flatMap((d) => d.parts)] };
  if (c.k === "ex") return { k: "or", parts: disj[0]!.parts.map((p) => ({ k: "ex", vars: c.vars, part: p }) as FC) };
  let result: FC[] = [{ k: "and", parts: other }];
  while (disj.length) {
    const prev = result;
    result = [];
    const dist = disj.pop()!.parts;
    for (const p1 of prev) for (const p2 of dist) result.push({ k: "and", parts: [p1, p2] });
  }
  return { k: "or", parts: result };
}

/** Existential quantifiers out of conjunctions, nested ones merged. */
function pullExistentials(c: FC): FC {
  if (c.k !== "and" && c.k !== "or" && c.k !== "ex") return c;
  const parts = (c.k === "ex" ? [c.part] : c.parts).map(pullExistentials);
  const ex = parts.filter((p): p is FC & { k: "ex" } => p.k === "ex");
  if (ex.length === 0) return c;
  if (c.k === "ex") return { k: "ex", vars: [...c.vars, ...ex[0]!.vars], part: ex[0]!.part };
  if (c.k === "or") return c; // not reached: disjunctions are split before
  const other = parts.filter((p) => p.k !== "ex");
  return { k: "ex", vars: ex.flatMap((e) => e.vars), part: { k: "and", parts: [...other, ...ex.map((e) => e.part)] } };
}

function literals(c: FC): LLit[] {
  if (c.k === "lit") return [c.lit];
  if (c.k === "and") return c.parts.flatMap((p) => (p.k === "lit" ? [p.lit] : []));
  return [];
}

function freeVars(c: FC, bound: Set<number>, out: Set<number>): void {
  switch (c.k) {
    case "lit":
      for (const t of c.lit.args) if (t >= VAR0 && !bound.has(t)) out.add(t);
      return;
    case "and":
    case "or":
      for (const p of c.parts) freeVars(p, bound, out);
      return;
    case "ex":
    case "all": {
      const b = new Set(bound);
      for (const v of c.vars) b.add(v);
      freeVars(c.part, b, out);
      return;
    }
    default:
      return;
  }
}

function substLit(l: LLit, m: Map<number, number>): LLit {
  return { pred: l.pred, neg: l.neg, args: l.args.map((t) => m.get(t) ?? t) };
}

/**
 * The translator's normal form of the domain's actions. `objectIndex` maps object and constant
 * names to the ids used in term codes.
 */
export function liftActions(domain: Domain, problem: Problem, objectIndex: Map<string, number>): LiftedTask {
  const predNames = domain.predicates.map((p) => p.name);
  const predIndex = new Map<string, number>();
  predNames.forEach((p, i) => predIndex.set(p, i));
  const predArity = domain.predicates.map((p) => p.params.length);
  const eqPred = predNames.length;
  predNames.push("=");
  predArity.push(2);
  const varTypes: string[][] = [];
  const varNames: string[] = [];
  const newVar = (p: TypedName): number => {
    varTypes.push(p.types);
    varNames.push(p.name);
    return VAR0 + varTypes.length - 1;
  };
  /** A scope extending `sc` with fresh variables for `params`. */
  const bind = (params: TypedName[], sc: Map<string, number>): [Map<string, number>, number[]] => {
    const inner = new Map(sc);
    const vars = params.map((p) => {
      const v = newVar(p);
      inner.set(p.name, v);
      return v;
    });
    return [inner, vars];
  };
  const freshPred = (arity: number): number => {
    predNames.push(`@forall${predNames.length}`);
    predArity.push(arity);
    return predNames.length - 1;
  };

  type Scope = Map<string, number>;
  const term = (t: Term, sc: Scope): number => {
    if (t.kind === "var") {
      const v = sc.get(t.name);
      if (v === undefined) throw new Error(`liftActions: unbound variable ${t.name}`);
      return v;
    }
    const o = objectIndex.get(t.name);
    if (o === undefined) throw new Error(`liftActions: unknown object ${t.name}`);
    return -(o + 1);
  };
  const lit = (pred: string, args: Term[], neg: boolean, sc: Scope): FC => {
    const p = pred === "=" ? eqPred : predIndex.get(pred);
    if (p === undefined) throw new Error(`liftActions: unknown predicate ${pred}`);
    return { k: "lit", lit: { pred: p, neg, args: Int32Array.from(args.map((a) => term(a, sc))) } };
  };
  // Negation normal form; a universal condition becomes a negated fresh literal.
  const formula = (f: Formula, neg: boolean, sc: Scope): FC => {
    switch (f.kind) {
      case "atom":
        return lit(f.atom.predicate, f.atom.args, neg, sc);
      case "eq":
        return lit("=", [f.left, f.right], neg, sc);
      case "not":
        return formula(f.arg, !neg, sc);
      case "and":
      case "or": {
        const parts = f.args.map((a) => formula(a, neg, sc));
        return { k: (f.kind === "and") !== neg ? "and" : "or", parts };
      }
      case "imply":
        return { k: neg ? "and" : "or", parts: [formula(f.left, !neg, sc), formula(f.right, neg, sc)] };
      case "exists":
      case "forall": {
        const [inner, vars] = bind(f.params, sc);
        const part = formula(f.body, neg, inner);
        return { k: (f.kind === "forall") !== neg ? "all" : "ex", vars, part };
      }
    }
  };
  const condition = (f: Formula | null, sc: Scope): FC => (f ? simplify(formula(f, false, sc)) : TRUE);
  const removeUniversals = (c: FC): FC => {
    switch (c.k) {
      case "all": {
        const free = new Set<number>();
        freeVars(c, new Set(), free);
        const args = Int32Array.from([...free].sort((a, b) => a - b));
        return { k: "lit", lit: { pred: freshPred(args.length), neg: true, args } };
      }
      case "and":
      case "or":
        return { k: c.k, parts: c.parts.map(removeUniversals) };
      case "ex":
        return { k: "ex", vars: c.vars, part: removeUniversals(c.part) };
      default:
        return c;
    }
  };

  // Source-level identity of an effect, for the add/delete contradiction rule.
  const termKey = (t: number): string => (t >= VAR0 ? varNames[t - VAR0]! : `#${-t - 1}`);
  const litKey = (l: LLit): string => `${l.neg ? "-" : "+"}${l.pred}(${[...l.args].map(termKey).join(",")})`;
  const fcKey = (c: FC): string => {
    switch (c.k) {
      case "lit":
        return litKey(c.lit);
      case "and":
      case "or":
        return `${c.k}[${c.parts.map(fcKey).join(" ")}]`;
      case "ex":
      case "all":
        return `${c.k}{${c.vars.map(termKey).join(",")}}[${fcKey(c.part)}]`;
      default:
        return c.k;
    }
  };
  const effectKey = (params: TypedName[], cond: FC, l: LLit): string =>
    `${params.map((p) => `${p.name}-${p.types.join("|")}`).join(",")}|${fcKey(cond)}|${litKey(l)}`;

  let actions: NAction[] = [];
  for (const a of domain.actions) {
    const [sc, params] = bind(a.params, new Map());
    const pre = condition(a.precondition, sc);
    const effects: Array<NEffect & { key: string }> = [];
    let costFn: NAction["costFn"] = null;
    const walk = (e: Effect, esc: Scope, eparams: TypedName[], evars: number[], conds: Array<[Formula, Scope]>, top: boolean): void => {
      switch (e.kind) {
        case "add":
        case "del": {
          const parts = conds.map(([f, s]) => formula(f, false, s));
          const cond = simplify({ k: "and", parts });
          const l = (lit(e.atom.predicate, e.atom.args, e.kind === "del", esc) as FC & { k: "lit" }).lit;
          const key = effectKey(eparams, cond, l);
          const contra = effectKey(eparams, cond, { ...l, neg: !l.neg });
          const i = effects.findIndex((x) => x.key === contra);
          if (i < 0) effects.push({ params: evars, cond, lit: l, key });
          else if (!l.neg) {
            effects.splice(i, 1);
            effects.push({ params: evars, cond, lit: l, key });
          }
          return;
        }
        case "and":
          for (const x of e.args) walk(x, esc, eparams, evars, conds, top);
          return;
        case "forall": {
          const [inner, vs] = bind(e.params, esc);
          walk(e.body, inner, [...eparams, ...e.params], [...evars, ...vs], conds, false);
          return;
        }
        case "when":
          walk(e.body, esc, eparams, evars, [...conds, [e.cond, esc]], false);
          return;
        case "increase":
          if (top && e.value.kind === "fn") costFn = { name: e.value.fn.name, args: Int32Array.from(e.value.fn.args.map((t) => term(t, esc))) };
          return;
      }
    };
    if (a.effect) walk(a.effect, sc, [], [], [], true);
    if (effects.length === 0) continue; // the translator drops actions without effects
    actions.push({ name: a.name, params, pre, effects: effects.map(({ params: p, cond, lit: l }) => ({ params: p, cond, lit: l })), costFn });
  }

  for (const a of actions) {
    if (has(a.pre, "all")) a.pre = removeUniversals(a.pre);
    for (const e of a.effects) if (has(e.cond, "all")) e.cond = removeUniversals(e.cond);
  }
  for (const a of actions) {
    if (has(a.pre, "or")) a.pre = simplify(pullDisjunctions(a.pre));
    for (const e of a.effects) if (has(e.cond, "or")) e.cond = simplify(pullDisjunctions(e.cond));
  }
  // Split at the root disjunction; copies of an action share its effect list, as in the translator.
  const snapshot = actions.map((a) => ({ a, effects: [...a.effects] }));
  actions = [...actions];
  for (const { a, effects } of snapshot) {
    const pre = a.pre;
    if (pre.k === "or") {
      for (const p of pre.parts) actions.push({ ...a, pre: p });
      actions.splice(actions.indexOf(a), 1);
    }
    for (const e of effects) {
      if (e.cond.k !== "or") continue;
      for (const p of e.cond.parts) a.effects.push({ ...e, cond: p });
      a.effects.splice(a.effects.indexOf(e), 1);
    }
  }
  for (const a of actions) {
    if (has(a.pre, "ex")) a.pre = simplify(pullExistentials(a.pre));
    for (const e of a.effects) if (has(e.cond, "ex")) e.cond = simplify(pullExistentials(e.cond));
  }
  for (const a of actions) {
    const pre = a.pre;
    if (pre.k === "ex") {
      a.params = [...a.params, ...pre.vars];
      a.pre = pre.part;
    }
    for (const e of a.effects) {
      const c = e.cond;
      if (c.k === "ex") {
        e.params = [...e.params, ...c.vars];
        e.cond = c.part;
      }
    }
  }

  // Final form; every effect gets its own copies of its variables (split copies share them).
  const out: LAction[] = actions.map((a) => ({
    name: a.name,
    params: a.params,
    pre: literals(a.pre),
    preFalse: a.pre.k === "false",
    costFn: a.costFn,
    effects: a.effects.map((e) => {
      const m = new Map<number, number>();
      const params = e.params.map((v) => {
        const w = newVar({ name: varNames[v - VAR0]!, types: varTypes[v - VAR0]!, loc: domain.loc });
        m.set(v, w);
        return w;
      });
      return { params, cond: literals(e.cond).map((l) => substLit(l, m)), lit: substLit(e.lit, m) };
    }),
  }));

  // The goal's negative literals, when the goal is a conjunction of literals.
  const negativeGoal: LiftedTask["negativeGoal"] = [];
  let goal = condition(problem.goal, new Map());
  if (has(goal, "all")) goal = removeUniversals(goal);
  if (goal.k === "lit" || (goal.k === "and" && goal.parts.every((p) => p.k === "lit"))) {
    for (const l of literals(goal)) if (l.neg && l.pred < eqPred && l.args.every((t) => t < 0)) negativeGoal.push({ pred: l.pred, args: l.args.map((t) => -t - 1) });
  }
  return { predNames, predArity, eqPred, actions: out, varTypes, negativeGoal };
}

/** The relaxed-reachable atoms an instantiation of a lifted action may use (the translator's model). */
export interface ReachModel {
  numObjects: number;
  /** Tuples of object ids of a predicate of `LiftedTask.predNames`. */
  relation(pred: number): Int32Array[];
  /** Argument tuples of a numeric function defined in the initial state. */
  fn(name: string): Int32Array[];
  /** Objects of a variable's declared types. */
  domain(types: string[]): Int32Array;
}

class Relation {
  private readonly index: Array<Map<number, Int32Array[]> | undefined> = [];
  constructor(readonly tuples: Int32Array[]) {}
  /** Tuples with `value` at `pos`. */
  at(pos: number, value: number): Int32Array[] {
    let m = this.index[pos];
    if (!m) {
      m = new Map();
      for (const t of this.tuples) {
        const l = m.get(t[pos]!);
        if (l) l.push(t);
        else m.set(t[pos]!, [t]);
      }
      this.index[pos] = m;
    }
    return m.get(value) ?? [];
  }
}

/**
 * The pairs of parameters (i < j, positions in `a.params`) that no relaxed-reachable
 * instantiation of `a` binds to the same object. Reachable means what the translator's
 * exploration derives: parameter types and the positive precondition literals hold in the
 * model (negative literals are ignored), and the action's cost function is defined.
 */
export function inequalParameterPairs(a: LAction, varTypes: string[][], model: ReachModel): Array<[number, number]> {
  const n = a.params.length;
  const all: Array<[number, number]> = [];
  for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) all.push([i, j]);
  if (n < 2 || a.preFalse) return all;
  const posOf = new Map<number, number>();
  a.params.forEach((v, i) => posOf.set(v, i));
  const member: Uint8Array[] = a.params.map((v) => {
    const m = new Uint8Array(model.numObjects);
    for (const o of model.domain(varTypes[v - VAR0]!)) m[o] = 1;
    return m;
  });
  if (member.some((m) => !m.includes(1))) return all;
  // Literals as (relation, argument terms: position >= 0, object -(o+1)).
  const lits: Array<{ rel: Relation; args: Int32Array }> = [];
  const relCache = new Map<string, Relation>();
  const rel = (key: string, make: () => Int32Array[]): Relation => {
    let r = relCache.get(key);
    if (!r) relCache.set(key, (r = new Relation(make())));
    return r;
  };
  const mapArgs = (args: Int32Array): Int32Array => args.map((t) => (t >= VAR0 ? (posOf.get(t) ?? -1e9) : t));
  for (const l of a.pre) if (!l.neg) lits.push({ rel: rel(`p${l.pred}`, () => model.relation(l.pred)), args: mapArgs(l.args) });
  if (a.costFn) {
    const f = a.costFn.name;
    lits.push({ rel: rel(`f${f}`, () => model.fn(f)), args: mapArgs(a.costFn.args) });
  }
  if (lits.some((l) => l.args.includes(-1e9))) return all; // not reached: every variable is a parameter
  const constrained = new Uint8Array(n);
  for (const l of lits) for (const t of l.args) if (t >= 0) constrained[t] = 1;

  // Join order: most bound arguments first, then fewest tuples.
  const order: number[] = [];
  const boundNow = new Uint8Array(n);
  const left = lits.map((_, i) => i);
  while (left.length) {
    let best = 0;
    let bestScore = -Infinity;
    left.forEach((li, k) => {
      const l = lits[li]!;
      let bound = 0;
      for (const t of l.args) if (t < 0 || boundNow[t]) bound++;
      const score = (bound === l.args.length ? 1e12 : bound * 1e9) - l.rel.tuples.length;
      if (score > bestScore) {
        bestScore = score;
        best = k;
      }
    });
    const li = left.splice(best, 1)[0]!;
    order.push(li);
    for (const t of lits[li]!.args) if (t >= 0) boundNow[t] = 1;
  }

  const equal = new Uint8Array(n * n);
  let missing = all.length;
  const mark = (i: number, j: number): void => {
    if (!equal[i * n + j]) {
      equal[i * n + j] = 1;
      missing--;
    }
  };
  const val = new Int32Array(n).fill(-1);
  const onSolution = (): void => {
    for (const [i, j] of all) {
      if (equal[i * n + j]) continue;
      const ci = constrained[i], cj = constrained[j];
      if (ci && cj) {
        if (val[i] === val[j]) mark(i, j);
      } else if (ci || cj) {
        const [c, f] = ci ? [i, j] : [j, i];
        if (member[f]![val[c]!]) mark(i, j);
      } else if (member[i]!.some((x, o) => x === 1 && member[j]![o] === 1)) mark(i, j);
    }
  };
  const search = (depth: number): boolean => {
    if (depth === order.length) {
      onSolution();
      return missing === 0;
    }
    const l = lits[order[depth]!]!;
    let cands = l.rel.tuples;
    for (let k = 0; k < l.args.length; k++) {
      const t = l.args[k]!;
      if (t < 0) {
        cands = l.rel.at(k, -t - 1);
        break;
      }
      if (val[t]! >= 0) {
        cands = l.rel.at(k, val[t]!);
        break;
      }
    }
    const newly: number[] = [];
    for (const tuple of cands) {
      let ok = true;
      for (let k = 0; k < l.args.length && ok; k++) {
        const t = l.args[k]!;
        const o = tuple[k]!;
        if (t < 0) ok = o === -t - 1;
        else if (val[t]! >= 0) ok = val[t] === o;
        else if (member[t]![o]) {
          val[t] = o;
          newly.push(t);
        } else ok = false;
      }
      if (ok && search(depth + 1)) return true;
      for (const t of newly) val[t] = -1;
      newly.length = 0;
    }
    return false;
  };
  search(0);
  return all.filter(([i, j]) => !equal[i * n + j]);
}
