/**
 * Fact groups: mutex groups found by invariant synthesis (Helmert 2009, "Concise finite-domain
 * representations for PDDL planning tasks", AIJ 173) and the groups that Fast Downward's
 * translator turns into finite-domain variables, reproduced exactly so that a finite-domain
 * view built on them matches Fast Downward's.
 *
 * An invariant candidate is a set of parts, one per predicate, over k invariant parameters
 * (one argument position of a part may be "counted"); it claims that for every instantiation of
 * the parameters at most one atom covered by the parts is true. A candidate is an invariant when
 * no action can increase that count (it is then used for the instantiations true exactly once
 * in the initial state):
 * no action adds two covered atoms at once ("too heavy"), and every add effect that can make a
 * covered atom true is matched by a delete effect of a covered atom that is guaranteed to be
 * true and different ("balanced"). Both checks are small equality/inequality constraint
 * systems over the action's variables. A candidate that fails on an unbalanced add effect is
 * refined with each delete effect of a predicate it does not cover yet.
 *
 * Search order matters for the result: the candidate cap stops the search, and the action whose
 * failure triggers the refinement is the first failing one in an order drawn from Python's
 * `random.Random(314159)`, as in the translator. Lifted actions come from `lifted-actions.ts`.
 */
import { PyRandom } from "../util/py-random.js";
import { compile, compiledOfTask } from "./compile.js";
import { inequalParameterPairs, liftActions, VAR0, type LAction, type LEffect, type LiftedTask, type LLit, type ReachModel } from "./lifted-actions.js";
import type { GroundTask } from "./types.js";

/** The fact groups of a task, in Fast Downward's translator's terms. */
export interface FactGroups {
  /**
   * Every instantiated mutex group found (the translator's `mutex_groups` without the singletons
   * it adds for uncovered facts), each a list of ground fact ids, in the translator's order.
   */
  mutexGroups: Int32Array[];
  /**
   * The groups that become finite-domain variables, as the translator's `compute_groups`
   * returns them: chosen greedily with partial encoding, atoms that occur negatively in the
   * goal removed first, singletons for uncovered facts, the list sorted as the translator sorts
   * it. Derived (axiom) facts are left out.
   */
  groups: Int32Array[];
}

/** Options of `computeFactGroups`. */
export interface FactGroupOptions {
  /** Candidate cap of the invariant search (the translator's default: 100,000). */
  maxCandidates?: number;
  /** Stop the invariant search after this many milliseconds (default: no limit; not deterministic). */
  timeMs?: number;
}

const COUNTED = -1;
const RANDOM_SEED = 314159;

// ---------------------------------------------------------------------------------------------
// Constraint systems over term codes (see lifted-actions.ts: < 0 objects, 0..VAR0-1 invariant
// parameters, >= VAR0 variables). Equalities and inequalities are flat pair lists [a0,b0,a1,b1..].

/**
 * Solvable when one conjunction can be picked from each equality DNF such that the induced
 * equivalence relation puts no two objects together, no `notConstant` term with an object, and
 * separates at least one pair of every inequality disjunction.
 */
class ConstraintSystem {
  dnfs: Int32Array[][] = [];
  ineqs: Int32Array[] = [];
  notConstant: number[] = [];
  /**
   * Terms pairwise kept apart unless they share a label: for i, j with different labels there
   * is an inequality (terms[i] != terms[j]). Equivalent to those O(n^2) single inequalities,
   * checked in linear time.
   */
  apart: { terms: number[]; labels: number[] } | null = null;

  addConjunction(c: Int32Array): void {
    this.dnfs.push([c]);
  }
}

/**
 * Is the conjunction of the equality conjunctions `covers` and the systems `parts` solvable?
 * Tries every combination of one conjunction per equality DNF (the translator's semantics).
 */
function solvable(u: UnionFind, covers: Int32Array[], parts: ConstraintSystem[]): boolean {
  u.begin();
  for (const c of covers) for (let j = 0; j < c.length; j++) u.touch(c[j]!);
  const dnfs: Int32Array[][] = [];
  for (const s of parts) {
    for (const d of s.dnfs) {
      if (d.length === 0) return false;
      for (const c of d) for (let j = 0; j < c.length; j++) u.touch(c[j]!);
      dnfs.push(d);
    }
    for (const d of s.ineqs) for (let j = 0; j < d.length; j++) u.touch(d[j]!);
    for (const t of s.notConstant) u.touch(t);
    if (s.apart) for (const t of s.apart.terms) u.touch(t);
  }
  const choice = new Int32Array(dnfs.length);
  for (;;) {
    u.reset();
    let ok = true;
    for (let k = 0; k < covers.length && ok; k++) {
      const c = covers[k]!;
      for (let j = 0; j < c.length && ok; j += 2) ok = u.union(c[j]!, c[j + 1]!);
    }
    for (let k = 0; k < dnfs.length && ok; k++) {
      const c = dnfs[k]![choice[k]!]!;
      for (let j = 0; j < c.length && ok; j += 2) ok = u.union(c[j]!, c[j + 1]!);
    }
    for (let p = 0; p < parts.length && ok; p++) {
      const s = parts[p]!;
      for (const t of s.notConstant) if (u.objectOf(t) !== 0) ok = false;
      for (let k = 0; k < s.ineqs.length && ok; k++) {
        const d = s.ineqs[k]!;
        let sat = false;
        for (let j = 0; j < d.length && !sat; j += 2) sat = u.find(d[j]!) !== u.find(d[j + 1]!);
        ok = sat;
      }
      if (ok && s.apart) ok = u.labelsConsistent(s.apart.terms, s.apart.labels);
    }
    if (ok) return true;
    let k = dnfs.length - 1;
    while (k >= 0 && ++choice[k]! === dnfs[k]!.length) choice[k--] = 0;
    if (k < 0) return false;
  }
}

/**
 * Union-find over the term codes of one constraint system at a time, on arrays indexed by
 * term (objects after all variables), reset only where a system touched them.
 */
class UnionFind {
  private readonly parent: Int32Array;
  private readonly obj: Int32Array;
  private readonly label: Float64Array;
  private readonly stamp: Int32Array;
  private epoch = 0;
  private readonly touched: number[] = [];

  constructor(private readonly numVarCodes: number, numObjects: number) {
    const n = numVarCodes + numObjects;
    this.parent = new Int32Array(n);
    this.obj = new Int32Array(n);
    this.label = new Float64Array(n);
    this.stamp = new Int32Array(n);
  }

  private slot(t: number): number {
    return t >= 0 ? t : this.numVarCodes - t - 1;
  }

  begin(): void {
    this.epoch++;
    this.touched.length = 0;
  }

  touch(t: number): void {
    const x = this.slot(t);
    if (this.stamp[x] !== this.epoch) {
      this.stamp[x] = this.epoch;
      this.touched.push(x);
    }
  }

  reset(): void {
    for (const x of this.touched) {
      this.parent[x] = x;
      this.obj[x] = x >= this.numVarCodes ? x : -1;
    }
  }

  private root(x: number): number {
    const p = this.parent;
    while (p[x] !== x) {
      p[x] = p[p[x]!]!;
      x = p[x]!;
    }
    return x;
  }

  find(t: number): number {
    return this.root(this.slot(t));
  }

  /** Merge the classes of a and b; false when that puts two different objects together. */
  union(a: number, b: number): boolean {
    const ra = this.root(this.slot(a));
    const rb = this.root(this.slot(b));
    if (ra === rb) return true;
    if (this.obj[ra] !== -1 && this.obj[rb] !== -1) return false;
    this.parent[rb] = ra;
    if (this.obj[ra] === -1) this.obj[ra] = this.obj[rb]!;
    return true;
  }

  /** Nonzero when t's class contains an object. */
  objectOf(t: number): number {
    return this.obj[this.find(t)] === -1 ? 0 : 1;
  }

  /** No class holds two terms with different labels. */
  labelsConsistent(terms: number[], labels: number[]): boolean {
    for (const t of terms) this.label[this.find(t)] = NaN;
    for (let i = 0; i < terms.length; i++) {
      const r = this.find(terms[i]!);
      const l = this.label[r]!;
      if (Number.isNaN(l)) this.label[r] = labels[i]!;
      else if (l !== labels[i]) return false;
    }
    return true;
  }
}

function zipPairs(a: ArrayLike<number>, b: ArrayLike<number>): Int32Array {
  const out = new Int32Array(2 * a.length);
  for (let i = 0; i < a.length; i++) {
    out[2 * i] = a[i]!;
    out[2 * i + 1] = b[i]!;
  }
  return out;
}

/** Inequality: two literals of one predicate with arguments denote different atoms. */
function ensureInequality(s: ConstraintSystem, l1: LLit, l2: LLit): void {
  if (l1.pred === l2.pred && l1.args.length) s.ineqs.push(zipPairs(l1.args, l2.args));
}

/** Constraints that make the conjunction of `lits` satisfiable (as far as the translator checks). */
function ensureConjunctionSat(s: ConstraintSystem, lits: LLit[], eqPred: number): void {
  const pos = new Map<number, LLit[]>();
  const neg = new Map<number, LLit[]>();
  for (const l of lits) {
    if (l.pred === eqPred) {
      if (l.neg) s.ineqs.push(zipPairs([l.args[0]!], [l.args[1]!]));
      else s.addConjunction(zipPairs([l.args[0]!], [l.args[1]!]));
      continue;
    }
    const m = l.neg ? neg : pos;
    const list = m.get(l.pred);
    if (list) list.push(l);
    else m.set(l.pred, [l]);
  }
  for (const [pred, ps] of pos) {
    const ns = neg.get(pred);
    if (!ns) continue;
    for (const p of ps) for (const q of ns) if (p.args.length) s.ineqs.push(zipPairs(q.args, p.args));
  }
}

/** Equivalence classes of a conjunction of equalities: root of each term, and its object (0: none). */
function classesOf(pairs: Int32Array): { root: (t: number) => number; object: (t: number) => number } {
  const parent = new Map<number, number>();
  const obj = new Map<number, number>();
  const find = (x: number): number => {
    let p = parent.get(x);
    if (p === undefined) return x;
    while (p !== x) {
      x = p;
      p = parent.get(x)!;
    }
    return x;
  };
  const touch = (x: number): void => {
    if (!parent.has(x)) {
      parent.set(x, x);
      if (x < 0) obj.set(x, x);
    }
  };
  for (let j = 0; j < pairs.length; j += 2) {
    touch(pairs[j]!);
    touch(pairs[j + 1]!);
    const a = find(pairs[j]!);
    const b = find(pairs[j + 1]!);
    if (a === b) continue;
    parent.set(b, a);
    if (!obj.get(a) && obj.get(b)) obj.set(a, obj.get(b)!);
  }
  return { root: find, object: (t) => obj.get(find(t)) ?? 0 };
}

// ---------------------------------------------------------------------------------------------
// Invariant candidates

interface Part {
  /** Index in the PartTable: equal parts are one object. */
  id: number;
  pred: number;
  /** Invariant parameter per argument position, COUNTED at the omitted position. */
  args: Int32Array;
  /** Position of the counted argument, or -1. */
  omitted: number;
  /** `coverPairs` of this part per literal. */
  covers: Map<LLit, Int32Array>;
  /** `possibleMatches` of this part per (own, other) literal. */
  matches: Map<LLit, Map<LLit, Part[]>>;
}

/** Interned parts: equal parts are one object with one id. */
class PartTable {
  private readonly ids = new Map<string, Part>();
  private size = 0;
  /** Rank of each predicate name in string order. */
  private readonly predRank: Int32Array;

  constructor(predNames: string[]) {
    this.predRank = new Int32Array(predNames.length);
    predNames
      .map((_, i) => i)
      .sort((a, b) => compareStr(predNames[a]!, predNames[b]!))
      .forEach((p, r) => (this.predRank[p] = r));
  }

  intern(pred: number, args: Int32Array, omitted: number): Part {
    const k = `${pred}:${args.join(",")}`;
    let p = this.ids.get(k);
    if (!p) this.ids.set(k, (p = { id: this.size++, pred, args, omitted, covers: new Map(), matches: new Map() }));
    return p;
  }

  /** The translator's order of parts: (predicate name, arguments). */
  compare(a: Part, b: Part): number {
    if (a.pred !== b.pred) return this.predRank[a.pred]! - this.predRank[b.pred]!;
    for (let i = 0; i < a.args.length && i < b.args.length; i++) if (a.args[i] !== b.args[i]) return a.args[i]! - b.args[i]!;
    return a.args.length - b.args.length;
  }
}

/** The set of candidates seen, as sorted part-id lists in a hash table (no key strings built). */
class CandidateSet {
  private readonly first = new Map<number, number[]>();
  private readonly more = new Map<number, number[][]>();
  size = 0;

  /** Adds the candidate `ids` (sorted) plus `extra` (absent from ids) unless it is there; its ids if added. */
  add(ids: number[], extra = -1): number[] | null {
    const n = ids.length + (extra >= 0 ? 1 : 0);
    let h = n;
    let i = 0;
    let pending = extra;
    for (let k = 0; k < n; k++) {
      let id: number;
      if (pending >= 0 && (i >= ids.length || pending < ids[i]!)) {
        id = pending;
        pending = -1;
      } else id = ids[i++]!;
      h = (Math.imul(h, 0x9e3779b1) + id) | 0;
    }
    const first = this.first.get(h);
    const more = this.more.get(h);
    if (first && sameIds(first, ids, extra)) return null;
    if (more) for (const b of more) if (sameIds(b, ids, extra)) return null;
    const full = new Array<number>(n);
    i = 0;
    pending = extra;
    for (let k = 0; k < n; k++) {
      if (pending >= 0 && (i >= ids.length || pending < ids[i]!)) {
        full[k] = pending;
        pending = -1;
      } else full[k] = ids[i++]!;
    }
    if (!first) this.first.set(h, full);
    else if (more) more.push(full);
    else this.more.set(h, [full]);
    this.size++;
    return full;
  }
}

/** Is `b` the sorted merge of `ids` and `extra` (-1: none)? */
function sameIds(b: number[], ids: number[], extra: number): boolean {
  if (b.length !== ids.length + (extra >= 0 ? 1 : 0)) return false;
  let i = 0;
  let pending = extra;
  for (let k = 0; k < b.length; k++) {
    let id: number;
    if (pending >= 0 && (i >= ids.length || pending < ids[i]!)) {
      id = pending;
      pending = -1;
    } else id = ids[i++]!;
    if (b[k] !== id) return false;
  }
  return true;
}

const partArity = (p: Part): number => p.args.length - (p.omitted >= 0 ? 1 : 0);

class Invariant {
  /**
   * @param parts sorted by (predicate name, arguments), the order the translator iterates them in
   * @param ids the parts' ids, sorted
   */
  constructor(
    readonly parts: Part[],
    readonly ids: number[],
  ) {}

  /** This candidate with one more part (of a predicate it has no part for); `ids` the new id list. */
  with(part: Part, ids: number[], table: PartTable): Invariant {
    const n = this.parts.length;
    const parts = new Array<Part>(n + 1);
    let i = 0;
    let k = 0;
    for (; i < n && table.compare(this.parts[i]!, part) < 0; i++) parts[k++] = this.parts[i]!;
    parts[k++] = part;
    for (; i < n; i++) parts[k++] = this.parts[i]!;
    return new Invariant(parts, ids);
  }

  partOf(pred: number): Part | undefined {
    for (const p of this.parts) if (p.pred === pred) return p;
    return undefined;
  }
  get arity(): number {
    return partArity(this.parts[0]!);
  }
}

function compareStr(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Equalities binding every invariant parameter to its argument in `lit` (the part covers it). */
function coverPairs(part: Part, lit: LLit): Int32Array {
  let c = part.covers.get(lit);
  if (c) return c;
  c = new Int32Array(2 * partArity(part));
  let k = 0;
  for (let pos = 0; pos < part.args.length; pos++) {
    if (part.args[pos] === COUNTED) continue;
    c[k++] = part.args[pos]!;
    c[k++] = lit.args[pos]!;
  }
  part.covers.set(lit, c);
  return c;
}

/** All permutations of `xs`, in itertools.permutations order. */
function permutations(xs: number[]): number[][] {
  if (xs.length <= 1) return [xs.slice()];
  const out: number[][] = [];
  for (let i = 0; i < xs.length; i++) {
    const rest = [...xs.slice(0, i), ...xs.slice(i + 1)];
    for (const p of permutations(rest)) out.push([xs[i]!, ...p]);
  }
  return out;
}

/**
 * The parts for `other`'s predicate that let a delete of `other` balance an add of `own`
 * (covered by `part`): every invariant parameter placed at a position of `other` holding the
 * same term as in `own`, at most one extra position counted. In the translator's order.
 */
function possibleMatches(table: PartTable, part: Part, own: LLit, other: LLit): Part[] {
  let byOther = part.matches.get(own);
  if (!byOther) part.matches.set(own, (byOther = new Map()));
  let out = byOther.get(other);
  if (!out) byOther.set(other, (out = computeMatches(table, part, own, other)));
  return out;
}

function computeMatches(table: PartTable, part: Part, own: LLit, other: LLit): Part[] {
  let allowed = other.args.length - partArity(part);
  if (allowed !== 0 && allowed !== 1) return [];
  const ownToInv = new Map<number, number[]>();
  for (let pos = 0; pos < part.args.length; pos++) {
    if (pos === part.omitted) continue;
    const t = own.args[pos]!;
    const l = ownToInv.get(t);
    if (l) l.push(part.args[pos]!);
    else ownToInv.set(t, [part.args[pos]!]);
  }
  const otherToPos = new Map<number, number[]>();
  other.args.forEach((t, pos) => {
    const l = otherToPos.get(t);
    if (l) l.push(pos);
    else otherToPos.set(t, [pos]);
  });
  const factored: Array<[number[], number[]]> = [];
  for (const [t, positions] of otherToPos) {
    const inv = [...(ownToInv.get(t) ?? [])];
    const diff = inv.length - positions.length;
    if (diff >= 1 || diff <= -2 || (diff === -1 && !allowed)) return [];
    if (diff) {
      inv.push(COUNTED);
      allowed = 0;
    }
    factored.push([positions, inv]);
  }
  // Product (first entry slowest) of the bijections of each entry.
  const perEntry = factored.map(([pre, img]) => permutations(img).map((perm) => pre.map((p, i) => [p, perm[i]!] as [number, number])));
  const out: Part[] = [];
  const pick = (k: number, acc: Array<[number, number]>): void => {
    if (k === perEntry.length) {
      const args = new Int32Array(other.args.length).fill(COUNTED);
      let omitted = -1;
      for (const [pos, inv] of acc) {
        if (inv === COUNTED) omitted = pos;
        else args[pos] = inv;
      }
      out.push(table.intern(other.pred, args, omitted));
      return;
    }
    for (const m of perEntry[k]!) pick(k + 1, [...acc, ...m]);
  };
  pick(0, []);
  return out;
}

// ---------------------------------------------------------------------------------------------
// The balance check

/** Offer a refinement (a candidate plus one part) to the search queue. */
type Enqueue = (inv: Invariant, part: Part) => void;

interface CheckedAction {
  action: LAction;
  /** Effects with every universal effect twice (fresh variables): two of its instances may fire. */
  heavyEffects: LEffect[];
  /** Cache of `twoAddsSystem`. */
  twoAdds: Map<number, ConstraintSystem>;
}


class BalanceChecker {
  readonly actions: CheckedAction[];
  /** Actions with an add effect on each predicate, in action order. */
  readonly threats = new Map<number, number[]>();
  readonly random = new PyRandom(RANDOM_SEED);
  readonly parts: PartTable;
  /** Reused buffer of the actions a check has still to draw from; seenAt[a] === checks: listed. */
  private readonly pending: Int32Array;
  private readonly seenAt: Int32Array;
  private readonly uf: UnionFind;
  /** predMark[p] === checks: the candidate being checked has a part for p. */
  private readonly predMark: Int32Array;
  private checks = 0;

  constructor(
    readonly lifted: LiftedTask,
    actions: LAction[],
    private nextVar: number,
    numObjects: number,
  ) {
    this.actions = actions.map((action, ai) => {
      const heavy: LEffect[] = [];
      for (const e of action.effects) {
        heavy.push(e);
        if (e.params.length) heavy.push(this.renamed(e));
        if (!e.lit.neg) {
          let l = this.threats.get(e.lit.pred);
          if (!l) this.threats.set(e.lit.pred, (l = []));
          if (l[l.length - 1] !== ai) l.push(ai);
        }
      }
      return { action, heavyEffects: heavy, twoAdds: new Map() };
    });
    this.uf = new UnionFind(this.nextVar, numObjects);
    this.pending = new Int32Array(actions.length);
    this.seenAt = new Int32Array(actions.length);
    this.predMark = new Int32Array(lifted.predNames.length);
    this.parts = new PartTable(lifted.predNames);
  }

  private renamed(e: LEffect): LEffect {
    const m = new Map<number, number>();
    for (const v of e.params) m.set(v, this.nextVar++);
    const sub = (l: LLit): LLit => ({ pred: l.pred, neg: l.neg, args: l.args.map((t) => m.get(t) ?? t) });
    return { params: e.params.map((v) => m.get(v)!), cond: e.cond.map(sub), lit: sub(e.lit) };
  }

  /** Does `inv` hold under every action? Enqueues refinements of the first unbalanced add effect. */
  check(inv: Invariant, enqueue: Enqueue): boolean {
    const stamp = ++this.checks;
    for (const p of inv.parts) this.predMark[p.pred] = stamp;
    // The threatening actions in the translator's order (the add-actions of each part's
    // predicate, parts in order, every action once), drawn one by one: a random position is
    // swapped with the last, the last is taken.
    const actions = this.pending;
    let n = 0;
    for (const p of inv.parts) {
      const l = this.threats.get(p.pred);
      if (!l) continue;
      for (let i = 0; i < l.length; i++) {
        const a = l[i]!;
        if (this.seenAt[a] !== stamp) {
          this.seenAt[a] = stamp;
          actions[n++] = a;
        }
      }
    }
    while (n > 0) {
      const pos = this.random.randrange(n);
      const a = actions[pos]!;
      actions[pos] = actions[--n]!;
      const act = this.actions[a]!;
      if (this.tooHeavy(inv, act)) return false;
      if (this.unbalanced(inv, act, enqueue)) return false;
    }
    return true;
  }

  /** Is the predicate one of the checked candidate's? */
  private covered(pred: number): boolean {
    return this.predMark[pred] === this.checks;
  }

  private tooHeavy(inv: Invariant, a: CheckedAction): boolean {
    const adds: number[] = [];
    a.heavyEffects.forEach((e, i) => {
      if (!e.lit.neg && this.covered(e.lit.pred)) adds.push(i);
    });
    if (adds.length <= 1) return false;
    for (let i = 0; i < adds.length; i++) {
      for (let j = i + 1; j < adds.length; j++) {
        const e1 = a.heavyEffects[adds[i]!]!;
        const e2 = a.heavyEffects[adds[j]!]!;
        const covers = [coverPairs(inv.partOf(e1.lit.pred)!, e1.lit), coverPairs(inv.partOf(e2.lit.pred)!, e2.lit)];
        if (solvable(this.uf, covers, [this.twoAddsSystem(a, adds[i]!, adds[j]!)])) return true;
      }
    }
    return false;
  }

  /** Two add effects of one action (heavy effect indices) fire together and add different atoms. */
  private twoAddsSystem(a: CheckedAction, i: number, j: number): ConstraintSystem {
    const key = i * a.heavyEffects.length + j;
    let s = a.twoAdds.get(key);
    if (s) return s;
    const e1 = a.heavyEffects[i]!;
    const e2 = a.heavyEffects[j]!;
    s = new ConstraintSystem();
    ensureInequality(s, e1.lit, e2.lit);
    ensureConjunctionSat(s, [...a.action.pre, ...e1.cond, ...e2.cond, { ...e1.lit, neg: true }, { ...e2.lit, neg: true }], this.lifted.eqPred);
    a.twoAdds.set(key, s);
    return s;
  }

  private unbalanced(inv: Invariant, a: CheckedAction, enqueue: Enqueue): boolean {
    const effects = a.action.effects;
    const dels = effects.filter((e) => e.lit.neg && this.covered(e.lit.pred));
    for (const e of effects) if (!e.lit.neg && this.covered(e.lit.pred) && this.addUnbalanced(inv, a.action, e, dels, enqueue)) return true;
    return false;
  }

  private addUnbalanced(inv: Invariant, a: LAction, add: LEffect, dels: LEffect[], enqueue: Enqueue): boolean {
    const addCover = coverPairs(inv.partOf(add.lit.pred)!, add.lit);
    const paramSystem = this.paramSystem(inv.partOf(add.lit.pred)!, a, add, addCover);
    for (const del of dels) if (this.balances(inv, a, del, add, addCover, paramSystem)) return false;
    this.refine(inv, add, a, enqueue);
    return true;
  }

  private readonly paramSystems = new WeakMap<LEffect, Map<number, ConstraintSystem>>();

  /**
   * The balancing must not rely on parameters being equal to each other or to a constant
   * unless the threat itself (the add effect covered by the invariant) implies it.
   */
  private paramSystem(part: Part, a: LAction, add: LEffect, addCover: Int32Array): ConstraintSystem {
    let byPart = this.paramSystems.get(add);
    if (!byPart) this.paramSystems.set(add, (byPart = new Map()));
    const key = part.id;
    let s = byPart.get(key);
    if (s) return s;
    s = new ConstraintSystem();
    const params = [...a.params, ...add.params];
    const cls = classesOf(addCover);
    for (const p of params) if (cls.object(p) === 0) s.notConstant.push(p);
    s.apart = { terms: params, labels: params.map((p) => cls.root(p)) };
    byPart.set(key, s);
    return s;
  }

  private refine(inv: Invariant, add: LEffect, a: LAction, enqueue: Enqueue): void {
    const part = inv.partOf(add.lit.pred)!;
    for (const del of a.effects) {
      if (!del.lit.neg || inv.partOf(del.lit.pred)) continue;
      for (const m of possibleMatches(this.parts, part, add.lit, del.lit)) enqueue(inv, m);
    }
  }

  private readonly produced = new WeakMap<LEffect, Map<number, LLit[]>>();

  /** What must hold for the add effect to fire, by predicate. */
  private producedBy(a: LAction, add: LEffect): Map<number, LLit[]> {
    let m = this.produced.get(add);
    if (m) return m;
    m = new Map();
    for (const l of [...a.pre, ...add.cond, { ...add.lit, neg: true }]) {
      const list = m.get(l.pred);
      if (list) list.push(l);
      else m.set(l.pred, [l]);
    }
    this.produced.set(add, m);
    return m;
  }

  private readonly balanceSystems = new WeakMap<LEffect, Map<LEffect, ConstraintSystem | null>>();

  /**
   * Every firing of the add effect must imply that the deleted atom (and the delete's
   * condition) holds, and the two atoms must differ (add-after-delete semantics). Null when
   * no firing can imply it.
   */
  private balanceSystem(a: LAction, add: LEffect, del: LEffect): ConstraintSystem | null {
    let byDel = this.balanceSystems.get(add);
    if (!byDel) this.balanceSystems.set(add, (byDel = new Map()));
    const cached = byDel.get(del);
    if (cached !== undefined) return cached;
    const produced = this.producedBy(a, add);
    let s: ConstraintSystem | null = new ConstraintSystem();
    for (const l of [...del.cond, { ...del.lit, neg: false }]) {
      const options: Int32Array[] = [];
      for (const m of produced.get(l.pred) ?? []) if (m.neg === l.neg) options.push(zipPairs(l.args, m.args));
      if (options.length === 0) {
        s = null;
        break;
      }
      s.dnfs.push(options);
    }
    if (s) ensureInequality(s, add.lit, del.lit);
    byDel.set(del, s);
    return s;
  }

  private balances(inv: Invariant, a: LAction, del: LEffect, add: LEffect, addCover: Int32Array, paramSystem: ConstraintSystem): boolean {
    const balance = this.balanceSystem(a, add, del);
    if (!balance) return false;
    return solvable(this.uf, [addCover, coverPairs(inv.partOf(del.lit.pred)!, del.lit)], [balance, paramSystem]);
  }
}

// ---------------------------------------------------------------------------------------------
// Search, groups

function initialCandidates(lifted: LiftedTask, table: PartTable, fluent: number[]): Invariant[] {
  const out: Invariant[] = [];
  const single = (p: Part) => new Invariant([p], [p.id]);
  for (const pred of fluent) {
    const n = lifted.predArity[pred]!;
    const all = Array.from({ length: n }, (_, i) => i);
    out.push(single(table.intern(pred, Int32Array.from(all), -1)));
    for (let omitted = 0; omitted < n; omitted++) {
      const args = [...all.slice(0, omitted), COUNTED, ...all.slice(omitted, n - 1)];
      out.push(single(table.intern(pred, Int32Array.from(args), omitted)));
    }
  }
  return out;
}

/** The invariants that hold, in the order the translator finds them. */
function findInvariants(lifted: LiftedTask, checker: BalanceChecker, fluent: number[], limit: number, timeMs: number): Invariant[] {
  const queue = initialCandidates(lifted, checker.parts, fluent).slice(0, limit);
  const seen = new CandidateSet();
  for (const c of queue) seen.add(c.ids);
  const enqueue = (inv: Invariant, part: Part): void => {
    if (seen.size >= limit) return;
    const ids = seen.add(inv.ids, part.id);
    if (ids) queue.push(inv.with(part, ids, checker.parts));
  };
  const found: Invariant[] = [];
  const t0 = performance.now();
  for (let head = 0; head < queue.length; head++) {
    if (timeMs !== Infinity && performance.now() - t0 > timeMs) break;
    const c = queue[head]!;
    queue[head] = undefined as unknown as Invariant; // let checked candidates be collected
    if (checker.check(c, enqueue)) found.push(c);
  }
  return found;
}

/** Lexicographic comparison of two rank lists (a prefix first). */
function compareRanks(a: Int32Array, b: Int32Array, rank: Int32Array): number {
  for (let i = 0; i < a.length && i < b.length; i++) {
    const d = rank[a[i]!]! - rank[b[i]!]!;
    if (d !== 0) return d;
  }
  return a.length - b.length;
}

/** Facts of each group in the translator's atom order, groups sorted lexicographically. */
function sortGroups(groups: Int32Array[], rank: Int32Array): Int32Array[] {
  const sorted = groups.map((g) => g.slice().sort((x, y) => rank[x]! - rank[y]!));
  return sorted.sort((a, b) => compareRanks(a, b, rank));
}

/**
 * The translator's greedy cover: repeatedly the largest remaining group (among equal sizes the
 * one its bucket queue pops), its facts then removed from every other group.
 */
export function chooseGroups(groups: Int32Array[], numFacts: number): Int32Array[] {
  const sets = groups.map((g) => new Set(g));
  let maxSize = 0;
  for (const s of sets) maxSize = Math.max(maxSize, s.size);
  const bySize: Array<Array<Set<number>>> = Array.from({ length: maxSize + 1 }, () => []);
  const byFact: Array<Array<Set<number>>> = Array.from({ length: numFacts }, () => []);
  for (const s of sets) {
    bySize[s.size]!.push(s);
    for (const f of s) byFact[f]!.push(s);
  }
  let top: Set<number> | null = null;
  const updateTop = (): void => {
    while (maxSize > 1) {
      const list = bySize[maxSize]!;
      while (list.length) {
        const cand = list.pop()!;
        if (cand.size === maxSize) {
          top = cand;
          return;
        }
        bySize[cand.size]!.push(cand);
      }
      maxSize--;
    }
  };
  updateTop();
  const chosen: Int32Array[] = [];
  while (maxSize > 1) {
    const result = Int32Array.from(top!);
    for (const f of result) for (const s of byFact[f]!) s.delete(f);
    updateTop();
    chosen.push(result);
  }
  return chosen;
}

/** The translator's model for reachable action parameters, from the ground task. */
function reachModel(task: GroundTask, lifted: LiftedTask): ReachModel {
  const c = compiledOfTask.get(task) ?? compile(task.domain, task.problem);
  const objectIndex = new Map<string, number>();
  task.objects.forEach((o, i) => objectIndex.set(o, i));
  const rel = new Map<number, Int32Array[]>();
  const add = (pred: number, args: Int32Array): void => {
    let l = rel.get(pred);
    if (!l) rel.set(pred, (l = []));
    l.push(args);
  };
  const predIndex = new Map<string, number>();
  lifted.predNames.forEach((p, i) => {
    if (i < lifted.eqPred) predIndex.set(p, i);
  });
  for (let f = 0; f < task.numFacts; f++) add(predIndex.get(task.factPredicate[f]!)!, task.factArgs.subarray(task.factArgStart[f]!, task.factArgStart[f + 1]!));
  for (const el of task.problem.init) {
    if (el.kind !== "atom") continue;
    const p = c.predIndex.get(el.atom.predicate)!;
    if (!c.predStatic[p]) continue;
    add(predIndex.get(el.atom.predicate)!, Int32Array.from(el.atom.args.map((t) => objectIndex.get(t.name)!)));
  }
  for (let o = 0; o < task.objects.length; o++) add(lifted.eqPred, Int32Array.of(o, o));
  const fns = new Map<string, Int32Array[]>();
  for (const el of task.problem.init) {
    if (el.kind !== "fn-eq") continue;
    let l = fns.get(el.fn.name);
    if (!l) fns.set(el.fn.name, (l = []));
    l.push(Int32Array.from(el.fn.args.map((t) => objectIndex.get(t.name)!)));
  }
  return {
    numObjects: task.objects.length,
    relation: (p) => rel.get(p) ?? [],
    fn: (name) => fns.get(name) ?? [],
    domain: (types) => c.domainOf(types),
  };
}

/**
 * Fast Downward's fact groups of a ground task (see `FactGroups`). Works on the lifted domain
 * (`lifted-actions.ts`); the ground task supplies the reachable facts, the reachable action
 * parameters (via its facts) and the fact ids.
 */
/** Invariants found per domain (AST object) and problem signature; see `computeFactGroups`. */
const invariantCache = new WeakMap<object, Map<string, Invariant[]>>();

export function computeFactGroups(task: GroundTask, options: FactGroupOptions = {}): FactGroups {
  const limit = options.maxCandidates ?? 100_000;
  const objectIndex = new Map<string, number>();
  task.objects.forEach((o, i) => objectIndex.set(o, i));
  const lifted = liftActions(task.domain, task.problem, objectIndex);
  const model = reachModel(task, lifted);
  // the invariant search sees the lifted actions and, from the problem, only which actions are
  // unreachable and which parameter pairs never take equal values: problems of one domain that
  // agree on those share the invariants (a run labels many problems of few domains)
  const signature: string[] = [String(limit)];
  const actions = lifted.actions.map((a) => {
    if (a.preFalse) signature.push("F");
    if (a.params.length < 2 || a.preFalse) return a;
    const pairs = inequalParameterPairs(a, lifted.varTypes, model);
    signature.push(pairs.map(([i, j]) => `${i}-${j}`).join(","));
    if (pairs.length === 0) return a;
    const neq = pairs.map(([i, j]): LLit => ({ pred: lifted.eqPred, neg: true, args: Int32Array.of(a.params[i]!, a.params[j]!) }));
    return { ...a, pre: [...a.pre, ...neq] };
  });
  const fluentSet = new Set<number>();
  for (const a of actions) for (const e of a.effects) fluentSet.add(e.lit.pred);
  const fluent = [...fluentSet].sort((x, y) => x - y); // domain predicate order
  let perDomain = invariantCache.get(task.domain);
  if (!perDomain) invariantCache.set(task.domain, (perDomain = new Map()));
  const key = signature.join("|");
  let invariants = options.timeMs === undefined ? perDomain.get(key) : undefined;
  if (!invariants) {
    const checker = new BalanceChecker(lifted, actions, VAR0 + lifted.varTypes.length, task.objects.length);
    invariants = [...findInvariants(lifted, checker, fluent, limit, options.timeMs ?? Infinity)];
    // a time-limited search depends on the machine: never reused
    if (options.timeMs === undefined && perDomain.size < 64) perDomain.set(key, invariants);
  }

  // Fact ids by atom, and the translator's atom order.
  const factKey = (pred: string, args: ArrayLike<number>): string => `${pred} ${Array.prototype.join.call(args, " ")}`;
  const factOf = new Map<string, number>();
  const facts: number[] = [];
  for (let f = 0; f < task.numFacts; f++) {
    if (task.factDerived[f]) continue;
    facts.push(f);
    factOf.set(factKey(task.factPredicate[f]!, task.factArgs.subarray(task.factArgStart[f]!, task.factArgStart[f + 1]!)), f);
  }
  const argNames = (f: number): string[] => Array.from(task.factArgs.subarray(task.factArgStart[f]!, task.factArgStart[f + 1]!), (o) => task.objects[o]!);
  const names = facts.map(argNames);
  const order = facts.map((_, i) => i).sort((x, y) => {
    const c = compareStr(task.factPredicate[facts[x]!]!, task.factPredicate[facts[y]!]!);
    if (c !== 0) return c;
    const a = names[x]!, b = names[y]!;
    for (let i = 0; i < a.length && i < b.length; i++) if (a[i] !== b[i]) return compareStr(a[i]!, b[i]!);
    return a.length - b.length;
  });
  const rank = new Int32Array(task.numFacts).fill(-1);
  order.forEach((i, r) => (rank[facts[i]!] = r));

  // Useful groups: instantiations true exactly once in the initial state.
  const byPred = new Map<number, Invariant[]>();
  for (const inv of invariants)
    for (const p of inv.parts) {
      const l = byPred.get(p.pred);
      if (l) l.push(inv);
      else byPred.set(p.pred, [inv]);
    }
  const predIndex = new Map<string, number>();
  for (let i = 0; i < lifted.eqPred; i++) predIndex.set(lifted.predNames[i]!, i);
  const initSeen = new Set<string>();
  const nonempty = new Map<string, { inv: Invariant; params: number[] }>();
  const overcrowded = new Set<string>();
  for (const el of task.problem.init) {
    if (el.kind !== "atom") continue;
    const args = el.atom.args.map((t) => objectIndex.get(t.name)!);
    const k = factKey(el.atom.predicate, args);
    if (initSeen.has(k)) continue; // the translator's initial state is a set
    initSeen.add(k);
    const pred = predIndex.get(el.atom.predicate)!;
    for (const inv of byPred.get(pred) ?? []) {
      const part = inv.partOf(pred)!;
      const params = new Array<number>(inv.arity);
      part.args.forEach((v, pos) => {
        if (pos !== part.omitted) params[v] = args[pos]!;
      });
      const gk = `${inv.ids.join(",")}|${params.join(" ")}`;
      if (nonempty.has(gk)) overcrowded.add(gk);
      else nonempty.set(gk, { inv, params });
    }
  }
  const instantiated: Int32Array[] = [];
  for (const [gk, { inv, params }] of nonempty) {
    if (overcrowded.has(gk)) continue;
    const group: number[] = [];
    for (const part of inv.parts) {
      const name = lifted.predNames[part.pred]!;
      const args = Array.from(part.args, (v) => (v === COUNTED ? -1 : params[v]!));
      if (part.omitted < 0) {
        const f = factOf.get(factKey(name, args));
        if (f !== undefined) group.push(f);
        continue;
      }
      for (let o = 0; o < task.objects.length; o++) {
        args[part.omitted] = o;
        const f = factOf.get(factKey(name, args));
        if (f !== undefined) group.push(f);
      }
    }
    instantiated.push(Int32Array.from(group));
  }
  const mutexGroups = sortGroups(instantiated, rank);

  // Variables: atoms negative in the goal kept binary, greedy cover, singletons for the rest.
  const negGoal = new Set<number>();
  for (const g of lifted.negativeGoal) {
    const f = factOf.get(factKey(lifted.predNames[g.pred]!, g.args));
    if (f !== undefined) negGoal.add(f);
  }
  const candidates = negGoal.size ? mutexGroups.map((g) => g.filter((f) => !negGoal.has(f))) : mutexGroups;
  const chosen = chooseGroups(candidates, task.numFacts);
  const covered = new Uint8Array(task.numFacts);
  for (const g of chosen) for (const f of g) covered[f] = 1;
  const groups = [...chosen];
  for (const f of facts) if (!covered[f]) groups.push(Int32Array.of(f));
  return { mutexGroups, groups: sortGroups(groups, rank) };
}
