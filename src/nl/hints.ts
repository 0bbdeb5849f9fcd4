/**
 * What a problem tells about its predicates, for the generic translator: facts the text may
 * rely on because they are proven from the task, not guessed from names.
 *
 * - Functional arguments: for a predicate p and its last argument, at most one value is true
 *   for each assignment of the other arguments in every reachable state ("the fuel of t1 is
 *   l2" may say "the"), and exactly one for a unary fluent ("the time now is t0"). Proven by a
 *   one-predicate invariant check over the ground operators, or from the initial facts of a
 *   static predicate.
 * - Numeric orders: objects named with a number ("level3", "t6", "n0") and a static relation
 *   whose facts are exactly an arithmetic relation of those numbers over the objects of its
 *   type: successor (b = a + 1), predecessor, <, <=, >, >=, sum (a + b = c) and difference
 *   (a - b = c). Such a relation reads as the arithmetic it is ("t1 comes before t6") and the
 *   prompt states it once instead of fact by fact.
 */
import type { GroundTask } from "../task/types.js";
import { complementaryTwins, twinBase } from "./twins.js";

/** An arithmetic relation proven from a static predicate's facts. */
export type NumericRelation = "succ" | "pred" | "lt" | "le" | "gt" | "ge" | "sum" | "diff";

/** What a task proves about one predicate. */
export interface PredicateHint {
  /** Fixed in every state (no action changes it). */
  static: boolean;
  /** At most one value of the last argument per assignment of the others, in every reachable state. */
  functional: boolean;
  /** A unary fluent true of exactly one object in every reachable state (with at least two to choose from). */
  exactlyOne: boolean;
  /** Some assignment of the other arguments has two values of the last one (proven by a state). */
  multiValued: boolean;
  /** The arithmetic the facts are, when proven; the whole relation over the typed objects. */
  numeric: NumericRelation | null;
  /** With `numeric`: the number each object of the relation stands for ("yrel-1" -> -1). */
  numbers?: ReadonlyMap<string, number>;
  /** A `not-p` predicate whose base `p` exists but is not proven its complement (twins.ts). */
  unprovenTwin: boolean;
}

/** Hints of a task, by predicate name. */
export type TaskHints = Map<string, PredicateHint>;

/** The number in an object's name ("level24" -> 24, "capacity-3" -> 3, "n0" -> 0), or null. */
export function nameNumber(name: string): number | null {
  const m = /^[a-z_-]*?[-_]?(\d+)$/i.exec(name);
  return m === null ? null : Number(m[1]);
}

function bit(state: Uint32Array, f: number): boolean {
  return ((state[f >>> 5]! >>> (f & 31)) & 1) === 1;
}

const cache = new WeakMap<GroundTask, TaskHints>();

/** The hints of `task` (computed once per task). */
export function taskHints(task: GroundTask): TaskHints {
  let h = cache.get(task);
  if (h === undefined) cache.set(task, (h = computeHints(task)));
  return h;
}

/** A short key of the hints that change generic text, for caching templates per distinct hint set. */
export function hintsKey(hints: TaskHints): string {
  const parts: string[] = [];
  for (const [p, h] of [...hints].sort((a, b) => (a[0] < b[0] ? -1 : 1))) parts.push(`${p}:${h.functional ? "f" : ""}${h.exactlyOne ? "1" : ""}${h.multiValued ? "m" : ""}${h.static ? "s" : ""}${h.unprovenTwin ? "t" : ""}${h.numeric ?? ""}`);
  return parts.join(",");
}

function computeHints(task: GroundTask): TaskHints {
  const out: TaskHints = new Map();
  const twins = complementaryTwins(task);
  const changed = new Set<string>();
  for (let f = 0; f < task.numFacts; f++) changed.add(task.factPredicate[f]!);
  // A predicate with ground facts may still never change (all its facts are static in the
  // relaxation but not folded, e.g. under negative preconditions): check the operators.
  const touched = new Set<string>();
  const touch = (f: number): void => void touched.add(task.factPredicate[f]!);
  task.add.forEach(touch);
  task.del.forEach(touch);
  task.ceFact.forEach(touch);
  for (const d of task.domain.predicates) {
    const isStatic = !touched.has(d.name) && !task.domain.derived.some((x) => x.predicate === d.name);
    const base = twinBase(d.name);
    const unprovenTwin = base !== null && task.domain.predicates.some((p) => p.name === base) && !twins.has(d.name);
    const h: PredicateHint = { static: isStatic, functional: false, exactlyOne: false, multiValued: false, numeric: null, unprovenTwin };
    if (d.params.length > 0) {
      if (isStatic) {
        h.functional = staticFunctional(task, d.name, d.params.length);
        h.multiValued = !h.functional;
        const num = numericRelation(task, d.name, d.params.map((p) => p.types));
        if (num !== null) {
          h.numeric = num.rel;
          h.numbers = num.numbers;
        }
        h.exactlyOne = false;
      } else if (changed.has(d.name)) {
        const r = fluentFunctional(task, d.name);
        h.functional = r.functional;
        h.exactlyOne = d.params.length === 1 && r.exactlyOne && r.facts >= 2;
        h.multiValued = r.multiValued;
      }
    }
    out.set(d.name, h);
  }
  return out;
}

/** The static atoms of `pred` in the initial state, as object-name lists. */
function staticAtoms(task: GroundTask, pred: string): string[][] {
  const out: string[][] = [];
  const seen = new Set<string>();
  for (const el of task.problem.init) {
    if (el.kind !== "atom" || el.atom.predicate !== pred) continue;
    const args = el.atom.args.map((t) => t.name);
    const k = args.join(" ");
    if (!seen.has(k)) {
      seen.add(k);
      out.push(args);
    }
  }
  return out;
}

function staticFunctional(task: GroundTask, pred: string, arity: number): boolean {
  const keys = new Set<string>();
  for (const args of staticAtoms(task, pred)) {
    const k = args.slice(0, arity - 1).join(" ");
    if (keys.has(k)) return false;
    keys.add(k);
  }
  return true;
}

/**
 * One-predicate invariant: at most one fact p(key, v) per key in every reachable state. Holds
 * when it holds initially and every operator that adds p(key, v) deletes a p(key, v') it
 * requires (v' other than v), adding no second one for the key. Exactly one (a unary fluent):
 * one initially, and every operator that deletes one adds another.
 */
function fluentFunctional(task: GroundTask, pred: string): { functional: boolean; exactlyOne: boolean; multiValued: boolean; facts: number } {
  const key = new Map<number, string>();
  for (let f = 0; f < task.numFacts; f++) {
    if (task.factPredicate[f] !== pred) continue;
    const a = task.factArgs.subarray(task.factArgStart[f]!, task.factArgStart[f + 1]! - 1);
    key.set(f, Array.from(a).join(","));
  }
  const initCount = new Map<string, number>();
  for (const [f, k] of key) if (bit(task.init, f)) initCount.set(k, (initCount.get(k) ?? 0) + 1);
  const multiValued = [...initCount.values()].some((n) => n > 1);
  const no = { functional: false, exactlyOne: false, multiValued, facts: key.size };
  if (multiValued) return no;
  let exactlyOne = [...initCount.values()].reduce((a, b) => a + b, 0) === 1 && new Set(key.values()).size === 1;
  for (let o = 0; o < task.numOps; o++) {
    // Conditional effects on the predicate: not analysed (the text claims nothing then).
    for (let e = task.ceStart[o]!; e < task.ceStart[o + 1]!; e++) if (key.has(task.ceFact[e]!)) return no;
    const pre = new Set(task.pre.subarray(task.preStart[o]!, task.preStart[o + 1]!));
    const dels = new Set(task.del.subarray(task.delStart[o]!, task.delStart[o + 1]!));
    const addedKeys = new Set<string>();
    let adds = 0;
    for (let i = task.addStart[o]!; i < task.addStart[o + 1]!; i++) {
      const f = task.add[i]!;
      const k = key.get(f);
      if (k === undefined) continue;
      adds++;
      if (addedKeys.has(k)) return no;
      addedKeys.add(k);
      let balanced = false;
      for (const g of dels) if (g !== f && key.get(g) === k && pre.has(g)) balanced = true;
      if (!balanced && !pre.has(f)) return no;
    }
    let deleted = 0;
    for (const g of dels) if (key.has(g)) deleted++;
    if (deleted > adds) exactlyOne = false;
  }
  return { functional: true, exactlyOne, multiValued: false, facts: key.size };
}

/** The stem of a numbered name: "level24" -> "level", "capacity-3" -> "capacity-". */
function stem(name: string): string {
  return name.replace(/\d+$/, "");
}

/**
 * `names` as one numbered family (one stem, each with a distinct number: n0, n1, ...), or null.
 * A relation reads as arithmetic only over such a family: "p0" and "f1" are not one scale.
 */
function family(names: Iterable<string>): Map<string, number> | null {
  const list = [...names];
  return unsignedFamily(list) ?? signedFamily(list);
}

function unsignedFamily(names: readonly string[]): Map<string, number> | null {
  const out = new Map<string, number>();
  const used = new Set<number>();
  let st: string | null = null;
  for (const o of names) {
    const n = nameNumber(o);
    if (n === null || used.has(n)) return null;
    if (st === null) st = stem(o);
    else if (stem(o) !== st) return null;
    used.add(n);
    out.set(o, n);
  }
  return out.size >= 2 ? out : null;
}

/**
 * Offsets named with a sign ("yrel-1", "yrel0", "yrel1"): one stem, a minus before some numbers
 * and not others, so "-" is a sign, not a separator (a family all "capacity-N" is unsigned).
 */
function signedFamily(names: readonly string[]): Map<string, number> | null {
  const out = new Map<string, number>();
  let st: string | null = null;
  let neg = false;
  let nonNeg = false;
  for (const o of names) {
    const m = /^([a-z_]*[a-z_])(-?)(\d+)$/i.exec(o);
    if (m === null || (st !== null && m[1] !== st)) return null;
    st = m[1]!;
    const n = m[2] === "-" ? -Number(m[3]) : Number(m[3]);
    if (m[2] === "-" && n !== 0) neg = true;
    else nonNeg = true;
    if ([...out.values()].includes(n)) return null;
    out.set(o, n);
  }
  return neg && nonNeg && out.size >= 2 ? out : null;
}

/** The objects of `types` as a numbered family, or null. */
function numbered(task: GroundTask, types: string[]): Map<string, number> | null {
  return family(task.objects.filter((_, i) => types.some((t) => task.objectTypes[i]!.includes(t))));
}

const BINARY: Array<[NumericRelation, (a: number, b: number) => boolean]> = [
  ["succ", (a, b) => b === a + 1],
  ["pred", (a, b) => a === b + 1],
  ["lt", (a, b) => a < b],
  ["le", (a, b) => a <= b],
  ["gt", (a, b) => a > b],
  ["ge", (a, b) => a >= b],
];

/**
 * The arithmetic relation that a static predicate's facts are exactly, over the objects of its
 * argument types (each a numbered family), or null. Binary relations compare one family; a
 * ternary one may add an offset of another family to the first (tidybot's sum-y(y, yrel, y')).
 */
function numericRelation(task: GroundTask, pred: string, types: string[][]): { rel: NumericRelation; numbers: Map<string, number> } | null {
  if (types.length !== 2 && types.length !== 3) return null;
  const key = (t: string[]): string => t.join("|");
  if (key(types[0]!) !== key(types[types.length - 1]!)) return null;
  const atoms = staticAtoms(task, pred);
  if (atoms.length === 0) return null;
  // Untyped arguments: the objects that occur in that position (a numbered family, e.g. n0 .. n6).
  const familyAt = (positions: number[]): Map<string, number> | null => {
    const ts = types[positions[0]!]!;
    if (ts.length === 0 || key(ts) === "object") return family(new Set(atoms.flatMap((a) => positions.map((k) => a[k]!))));
    return numbered(task, ts);
  };
  const sameType = types.every((t) => key(t) === key(types[0]!));
  const main = familyAt(sameType ? types.map((_, k) => k) : [0, types.length - 1]);
  const offs = sameType ? main : familyAt([1]);
  if (main === null || offs === null) return null;
  if (atoms.some((a) => a.some((o, k) => !(k === 1 && !sameType ? offs : main).has(o)))) return null;
  const have = new Set(atoms.map((a) => a.join(" ")));
  const numbers = new Map([...main, ...offs]);
  const objs = [...main.keys()];
  if (types.length === 2) {
    if (!sameType) return null;
    for (const [rel, test] of BINARY) {
      let ok = true;
      let count = 0;
      for (const a of objs) {
        for (const b of objs) {
          const want = test(main.get(a)!, main.get(b)!);
          if (want) count++;
          if (want !== have.has(`${a} ${b}`)) ok = false;
        }
        if (!ok) break;
      }
      if (ok && count === have.size) return { rel, numbers };
    }
    return null;
  }
  // Ternary: a + b = c or a - b = c, exactly, over the numbered objects.
  const byNum = new Map<number, string>();
  for (const [o, n] of main) byNum.set(n, o);
  for (const rel of ["sum", "diff"] as const) {
    let count = 0;
    let ok = true;
    for (const a of objs) {
      for (const b of offs.keys()) {
        const c = rel === "sum" ? main.get(a)! + offs.get(b)! : main.get(a)! - offs.get(b)!;
        const co = byNum.get(c);
        if (co === undefined) continue;
        count++;
        if (!have.has(`${a} ${b} ${co}`)) ok = false;
      }
      if (!ok) break;
    }
    if (ok && count === have.size) return { rel, numbers };
  }
  return null;
}
