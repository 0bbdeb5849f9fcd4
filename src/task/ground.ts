/**
 * Grounding by relaxed reachability: a delete-relaxation fixpoint over the lifted action and
 * axiom schemas, with joins driven by newly reached facts (semi-naive), so only reachable facts
 * and operators are ever built. Then preconditions are split into DNF variants and everything is
 * packed into the typed-array `GroundTask`.
 */
import type { Domain, Problem } from "../pddl/ast.js";
import { PddlError, UserError } from "../pddl/errors.js";
import {
  AtomTable, atomKey, compile, compiledOfTask, dnf, instantiate, mkGF, relaxedSat, resolve, toFacts,
  type CEffect, type CF, type Compiled, type Conj, type GF,
} from "./compile.js";
import type { GroundTask } from "./types.js";
import { evaluateAxioms } from "./state.js";
import { sortNumbers } from "../util/sort.js";

/** Options of `ground`: bounds on size and time; exceeding one throws `GroundingLimit`. */
export interface GroundOptions {
  /** Stop when more than this many ground operators are reached. */
  maxOps?: number;
  /** Stop when more than this many facts are reached. */
  maxFacts?: number;
  /** Stop after this many milliseconds from the call. */
  timeMs?: number;
  /** Stop when `performance.now()` passes this (a deadline shared with earlier stages). */
  deadline?: number;
}

/**
 * Grounding stopped at a bound of `GroundOptions`: the task is too large for the limits given,
 * not malformed. A UserError, so a command reports it in one line; `generate` skips the problem.
 */
export class GroundingLimit extends UserError {
  constructor(
    message: string,
    readonly limit: "time" | "operators" | "facts" | "costs",
  ) {
    super(message);
    this.name = "GroundingLimit";
  }
}

const DNF_CAP = 4096;
/** The largest sum of all action costs of a task: every cost sum in search fits in 32 bits. */
export const MAX_COST_SUM = 0x7fffffff;

interface CoreAtom {
  pred: number;
  args: Int32Array;
}

interface Rule {
  id: number;
  isAxiom: boolean;
  /** schema index (actions) or derived index (axioms) */
  index: number;
  head: number; // derived predicate (axioms)
  arity: number;
  numSlots: number;
  paramDoms: Int32Array[];
  paramMember: Uint8Array[];
  body: CF | null;
  core: CoreAtom[];
  orders: number[][];
  free: number[];
  seen: Set<number | string>;
}

interface FiredOp {
  schema: number;
  args: Int32Array;
  pre: GF;
  effects: Array<{ cond: GF; atom: number; isAdd: boolean }>;
  cost: number;
}

interface FiredAxiom {
  head: number;
  body: GF;
}

/** Collect positive atoms of the top-level conjunction whose arguments are parameters or constants. */
function coreAtoms(f: CF | null, arity: number, out: CoreAtom[]): void {
  if (!f) return;
  if (f.k === "and") {
    for (const a of f.args) coreAtoms(a, arity, out);
    return;
  }
  if (f.k === "atom") {
    for (let i = 0; i < f.args.length; i++) if (f.args[i]! < 0 && -f.args[i]! - 1 >= arity) return;
    out.push({ pred: f.pred, args: f.args });
  }
}

function joinOrder(core: CoreAtom[], first: number): number[] {
  const bound = new Set<number>();
  const mark = (a: CoreAtom): void => {
    for (const t of a.args) if (t < 0) bound.add(t);
  };
  if (first >= 0) mark(core[first]!);
  const rest = core.map((_, i) => i).filter((i) => i !== first);
  const order: number[] = [];
  while (rest.length) {
    let best = 0;
    let bestScore = -1;
    for (let j = 0; j < rest.length; j++) {
      const a = core[rest[j]!]!;
      let score = 0;
      for (const t of a.args) if (t >= 0 || bound.has(t)) score++;
      const s = a.args.length === 0 ? 1000 : score === a.args.length ? 999 : score;
      if (s > bestScore) {
        bestScore = s;
        best = j;
      }
    }
    const i = rest.splice(best, 1)[0]!;
    order.push(i);
    mark(core[i]!);
  }
  return order;
}

/** Derived-predicate strata from the lifted bodies; throws if negation is cyclic. */
function strata(c: Compiled, domain: Domain): Int32Array {
  const layer = new Int32Array(c.predNames.length);
  const deps: Array<Array<[number, number, boolean]>> = []; // [head, dep, negative]
  const walk = (f: CF, neg: boolean, head: number, out: Array<[number, number, boolean]>): void => {
    switch (f.k) {
      case "atom":
        if (c.predDerived[f.pred]) out.push([head, f.pred, neg]);
        return;
      case "eq":
        return;
      case "not":
        walk(f.arg, !neg, head, out);
        return;
      case "and":
      case "or":
        for (const a of f.args) walk(a, neg, head, out);
        return;
      case "imply":
        walk(f.l, !neg, head, out);
        walk(f.r, neg, head, out);
        return;
      case "exists":
      case "forall":
        walk(f.body, neg, head, out);
        return;
    }
  };
  for (const d of c.derived) {
    const out: Array<[number, number, boolean]> = [];
    walk(d.body, false, d.pred, out);
    deps.push(out);
  }
  const limit = c.predNames.length + 1;
  for (let changed = true; changed; ) {
    changed = false;
    for (const ds of deps)
      for (const [h, q, neg] of ds) {
        const need = layer[q]! + (neg ? 1 : 0);
        if (layer[h]! < need) {
          layer[h] = need;
          changed = true;
          if (need > limit) {
            const dd = domain.derived.find((x) => x.predicate === c.predNames[h]);
            throw new PddlError(`unsupported: derived predicate '${c.predNames[h]}' is not stratified (recursion through negation)`, dd ? dd.loc : domain.loc);
          }
        }
      }
  }
  return layer;
}

function sortUnique(xs: number[]): number[] {
  sortNumbers(xs);
  let n = 0;
  for (let i = 0; i < xs.length; i++) if (i === 0 || xs[i] !== xs[i - 1]) xs[n++] = xs[i]!;
  if (n !== xs.length) xs.length = n;
  return xs;
}

function cmpStr(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Whether every character of every name sorts after ')' (see `rankOrder`). */
function namesAboveParen(names: readonly string[]): boolean {
  for (const s of names) for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) <= 0x29) return false;
  return true;
}

/** Rank of each name in string order. */
function ranksOf(names: readonly string[]): Int32Array {
  const order = names.map((_, i) => i).sort((x, y) => cmpStr(names[x]!, names[y]!));
  const rank = new Int32Array(names.length);
  for (let r = 0; r < order.length; r++) rank[order[r]!] = r;
  return rank;
}

/** What `rankOrder` needs of a set of names: each name's rank, or null when a name breaks its rule. */
function nameRanks(names: readonly string[]): Int32Array | null {
  return namesAboveParen(names) ? ranksOf(names) : null;
}

/**
 * The order (stable) of `n` items named "(<group> <object>...)" by their names, found by
 * sorting packed numbers instead of comparing strings (the largest cost of finishing a small
 * task). When every character of the names sorts after ')' and ' ', two such names compare as
 * the tuples (group name, object names...) do, so each item's key is its group's rank followed
 * by its objects' ranks, in base (objects + 1), then its index. Null when a rank list is null
 * (a name with a lower character) or the keys would not be exact doubles: the caller compares
 * the names then.
 */
function rankOrder(gRank: Int32Array | null, oRank: Int32Array | null, group: ArrayLike<number>, args: ArrayLike<Int32Array>, n: number): Uint32Array | null {
  if (gRank === null || oRank === null) return null;
  let arity = 0;
  for (let i = 0; i < n; i++) if (args[i]!.length > arity) arity = args[i]!.length;
  const base = oRank.length + 1;
  let indexSpan = 1;
  while (indexSpan < n) indexSpan *= 2;
  let span = gRank.length * indexSpan;
  for (let j = 0; j < arity; j++) span *= base;
  if (!(span <= Number.MAX_SAFE_INTEGER)) return null;
  const keys = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const a = args[i]!;
    let k = gRank[group[i]!]!;
    for (let j = 0; j < arity; j++) k = k * base + (j < a.length ? oRank[a[j]!]! + 1 : 0);
    keys[i] = k * indexSpan + i;
  }
  keys.sort();
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = keys[i]! % indexSpan;
  return order;
}

/**
 * Ground a parsed domain and problem (DESIGN.md §4): normalise, compute the relaxed-reachable
 * facts and operators, fold static predicates, compile derived predicates into stratified
 * axioms and complex goals into a derived goal fact. Numbering is deterministic (facts and
 * operators sorted by name). Throws PddlError/UserError for unsupported or bad input.
 */
export function ground(domain: Domain, problem: Problem, options: GroundOptions = {}): GroundTask {
  const deadline = Math.min(options.deadline ?? Infinity, options.timeMs !== undefined ? performance.now() + options.timeMs : Infinity);
  const maxOps = options.maxOps ?? Infinity;
  const maxFacts = options.maxFacts ?? Infinity;
  const what = `grounding ${domain.name}/${problem.name}`;
  // The clock is read every 4,096 steps (bindings tried, facts reached): cheap, and fine-grained
  // enough, since one step is small.
  let steps = 0;
  const tick = (): void => {
    if ((++steps & 4095) === 0 && performance.now() > deadline) {
      throw new GroundingLimit(`${what} exceeds the time limit (${reachedCount} facts, ${fired.length} operators so far)`, "time");
    }
  };
  if (performance.now() > deadline) throw new GroundingLimit(`${what}: no time left for grounding`, "time");
  const c = compile(domain, problem);
  let reachedCount = 0;
  const atoms = new AtomTable(c);
  const nObj = c.objects.length;

  // Relations of reached tuples per predicate, indexed per argument position.
  const relTuples: Int32Array[][] = c.predNames.map(() => []);
  const relIndex: Array<Array<Map<number, number[]>>> = c.predArity.map((n) => Array.from({ length: n }, () => new Map()));
  // Sequence number of each tuple (its position in the global queue). Joins triggered by tuple q
  // only use tuples with seq <= q, so each binding is found once, when its last tuple arrives.
  const relSeq: number[][] = c.predNames.map(() => []);
  let seq = 0;
  let current = 0;
  let reached = new Uint8Array(256);
  const queue: number[] = []; // [pred, tupleIndex] pairs
  const addTuple = (p: number, args: Int32Array): void => {
    const id = relTuples[p]!.length;
    relTuples[p]!.push(args);
    relSeq[p]!.push(seq++);
    const idx = relIndex[p]!;
    for (let i = 0; i < args.length; i++) {
      const m = idx[i]!;
      const l = m.get(args[i]!);
      if (l) l.push(id);
      else m.set(args[i]!, [id]);
    }
    queue.push(p, id);
  };
  const reach = (atom: number): void => {
    if (atom >= reached.length) {
      const r = new Uint8Array(Math.max(reached.length * 2, atom + 1));
      r.set(reached);
      reached = r;
    }
    if (reached[atom]) return;
    if (++reachedCount > maxFacts) throw new GroundingLimit(`${what} exceeds ${maxFacts} facts`, "facts");
    tick();
    reached[atom] = 1;
    addTuple(atoms.pred[atom]!, atoms.args[atom]!);
  };

  // Static init tuples join like any other; fluent init atoms are reached.
  for (const el of problem.init) {
    if (el.kind !== "atom") continue;
    const p = c.predIndex.get(el.atom.predicate)!;
    if (!c.predStatic[p]) continue;
    addTuple(p, Int32Array.from(el.atom.args.map((t) => c.objectIndex.get(t.name)!)));
  }
  for (const [p, args] of c.initFluent) reach(atoms.intern(p, args));

  // Rules.
  const rules: Rule[] = [];
  const mkRule = (isAxiom: boolean, index: number, head: number, arity: number, numSlots: number, paramDoms: Int32Array[], body: CF | null): void => {
    const core: CoreAtom[] = [];
    coreAtoms(body, arity, core);
    const inCore = new Set<number>();
    for (const a of core) for (const t of a.args) if (t < 0) inCore.add(-t - 1);
    const free: number[] = [];
    for (let i = 0; i < arity; i++) if (!inCore.has(i)) free.push(i);
    const paramMember = paramDoms.map((d) => {
      const m = new Uint8Array(nObj);
      for (const o of d) m[o] = 1;
      return m;
    });
    rules.push({
      id: rules.length, isAxiom, index, head, arity, numSlots: Math.max(numSlots, 1), paramDoms, paramMember, body, core,
      orders: core.map((_, i) => joinOrder(core, i)), free, seen: new Set(),
    });
  };
  c.schemas.forEach((s, i) => mkRule(false, i, -1, s.arity, s.numSlots, s.paramDoms, s.pre));
  c.derived.forEach((d, i) => mkRule(true, i, d.pred, d.arity, d.numSlots, d.paramDoms, d.body));
  const triggers: Array<Array<[Rule, number]>> = c.predNames.map(() => []);
  for (const r of rules) r.core.forEach((a, i) => triggers[a.pred]!.push([r, i]));

  const fired: FiredOp[] = [];
  const firedAx: FiredAxiom[] = [];
  const pendingRules: Array<{ rule: Rule; args: Int32Array; gf: GF }> = [];
  const pendingEffects: Array<{ cond: GF; atom: number }> = [];

  const costOf = (rule: Rule, env: Int32Array): number => {
    if (!c.useCosts) return 1;
    const s = c.schemas[rule.index]!;
    let total = 0;
    for (const k of s.costs) {
      if (k.kind === "const") total += k.value;
      else {
        const args = Array.from(k.args, (t) => resolve(t, env));
        const v = c.fnValues.get([k.name, ...args].join(" "));
        if (v === undefined)
          throw new PddlError(`no value for (${[k.name, ...args.map((a) => c.objects[a])].join(" ")}) in init`, k.loc);
        if (!Number.isInteger(v) || v < 0) throw new PddlError(`unsupported: action cost ${v} (costs must be non-negative integers)`, k.loc);
        total += v;
      }
    }
    return total;
  };

  // An effect of a fired operator, for each binding of its forall variables from slot `i` on.
  const fireEffect = (e: CEffect, op: FiredOp, env: Int32Array, i: number): void => {
    if (i < e.slots.length) {
      const d = e.doms[i]!;
      for (let j = 0; j < d.length; j++) {
        env[e.slots[i]!] = d[j]!;
        fireEffect(e, op, env, i + 1);
      }
      return;
    }
    let cond: GF = true;
    // most effects are unconditional: no condition list is built for them
    if (e.conds.length > 0) {
      const parts: GF[] = [];
      for (const cf of e.conds) {
        const g = instantiate(c, atoms, cf, env, false);
        if (g === false) return;
        parts.push(g);
      }
      cond = mkGF(true, parts);
      if (cond === false) return;
    }
    const atom = atoms.internTerms(e.pred, e.args, env);
    op.effects.push({ cond, atom, isAdd: e.isAdd });
    if (e.isAdd) {
      if (relaxedSat(cond, reached)) reach(atom);
      else pendingEffects.push({ cond, atom });
    }
  };

  const fire = (rule: Rule, env: Int32Array, gf: GF): void => {
    if (rule.isAxiom) {
      const head = atoms.intern(rule.head, env.slice(0, rule.arity));
      firedAx.push({ head, body: gf });
      reach(head);
      return;
    }
    if (fired.length >= maxOps) throw new GroundingLimit(`${what} exceeds ${maxOps} operators`, "operators");
    const s = c.schemas[rule.index]!;
    const op: FiredOp = { schema: rule.index, args: env.slice(0, rule.arity), pre: gf, effects: [], cost: costOf(rule, env) };
    for (const e of s.effects) fireEffect(e, op, env, 0);
    fired.push(op);
  };

  const processBinding = (rule: Rule, env: Int32Array): void => {
    tick();
    const key = atomKey(c, 0, env, rule.arity);
    if (rule.seen.has(key)) return;
    rule.seen.add(key);
    const gf = rule.body ? instantiate(c, atoms, rule.body, env, false) : true;
    if (gf === false) return;
    if (relaxedSat(gf, reached)) fire(rule, env, gf);
    else pendingRules.push({ rule, args: env.slice(0, rule.arity), gf });
  };

  const enumFree = (rule: Rule, env: Int32Array, i: number): void => {
    if (i === rule.free.length) {
      processBinding(rule, env);
      return;
    }
    const p = rule.free[i]!;
    const d = rule.paramDoms[p]!;
    for (let j = 0; j < d.length; j++) {
      env[p] = d[j]!;
      enumFree(rule, env, i + 1);
    }
    env[p] = -1;
  };

  const unify = (rule: Rule, a: CoreAtom, tuple: Int32Array, env: Int32Array, undo: number[]): boolean => {
    for (let j = 0; j < a.args.length; j++) {
      const t = a.args[j]!;
      const v = tuple[j]!;
      if (t >= 0) {
        if (t !== v) return false;
        continue;
      }
      const s = -t - 1;
      const cur = env[s]!;
      if (cur === -1) {
        if (!rule.paramMember[s]![v]) return false;
        env[s] = v;
        undo.push(s);
      } else if (cur !== v) return false;
    }
    return true;
  };

  const join = (rule: Rule, order: number[], d: number, env: Int32Array): void => {
    if (d === order.length) {
      enumFree(rule, env, 0);
      return;
    }
    const a = rule.core[order[d]!]!;
    let list: number[] | null = null;
    for (let j = 0; j < a.args.length && list === null; j++) {
      const t = a.args[j]!;
      const v = t >= 0 ? t : env[-t - 1]!;
      if (v >= 0) list = relIndex[a.pred]![j]!.get(v) ?? [];
    }
    const tuples = relTuples[a.pred]!;
    const seqs = relSeq[a.pred]!;
    const n = list ? list.length : tuples.length;
    const undo: number[] = [];
    for (let k = 0; k < n; k++) {
      const tid = list ? list[k]! : k;
      if (seqs[tid]! > current) break; // ids ascend with seq
      tick();
      const tuple = tuples[tid]!;
      if (unify(rule, a, tuple, env, undo)) join(rule, order, d + 1, env);
      // popped, not emptied with length = 0, which would drop the array's storage every tuple
      while (undo.length > 0) env[undo.pop()!] = -1;
    }
  };

  const envs = rules.map((r) => new Int32Array(r.numSlots).fill(-1));
  for (const r of rules)
    if (r.core.length === 0) {
      envs[r.id]!.fill(-1);
      enumFree(r, envs[r.id]!, 0);
    }

  for (;;) {
    let qi = 0;
    while (qi < queue.length) {
      const p = queue[qi++]!;
      const tid = queue[qi++]!;
      const t = relTuples[p]![tid]!;
      current = relSeq[p]![tid]!;
      for (const [r, i] of triggers[p]!) {
        const env = envs[r.id]!;
        env.fill(-1);
        const undo: number[] = [];
        if (unify(r, r.core[i]!, t, env, undo)) join(r, r.orders[i]!, 0, env);
      }
    }
    queue.length = 0;
    // Bindings and conditional effects that waited for facts outside the join core.
    let progress = false;
    for (let i = 0; i < pendingRules.length; i++) {
      tick();
      const pr = pendingRules[i]!;
      if (relaxedSat(pr.gf, reached)) {
        pendingRules[i] = pendingRules[pendingRules.length - 1]!;
        pendingRules.pop();
        i--;
        const env = envs[pr.rule.id]!;
        env.fill(-1);
        env.set(pr.args);
        fire(pr.rule, env, pr.gf);
        progress = true;
      }
    }
    for (let i = 0; i < pendingEffects.length; i++) {
      const pe = pendingEffects[i]!;
      if (relaxedSat(pe.cond, reached)) {
        pendingEffects[i] = pendingEffects[pendingEffects.length - 1]!;
        pendingEffects.pop();
        i--;
        reach(pe.atom);
        progress = true;
      }
    }
    if (!progress && queue.length === 0) break;
  }

  if (performance.now() > deadline) throw new GroundingLimit(`${what} exceeds the time limit (${reachedCount} facts, ${fired.length} operators reached)`, "time");
  return finish(c, domain, problem, atoms, reached, fired, firedAx);
}

/** The facts of a task: reached atoms sorted by name, and each atom's fact id (-1: not reached). */
interface FactTable {
  atomFact: Int32Array;
  factNames: string[];
  factPredicate: string[];
  factArgsL: ArrayLike<number>[];
  factDerivedL: number[];
}

/** Axioms as lists, in the order found (`pushAxiom` keeps out duplicates and trivial ones). */
interface AxiomLists {
  head: number[];
  layer: number[];
  body: number[][];
  neg: number[][];
  maxLayer: number;
  seen: Set<string>;
}

/** An operator before numbering: one DNF variant of a fired binding. */
interface Op {
  name: string;
  schema: number;
  args: Int32Array;
  cost: number;
  pre: number[];
  neg: number[];
  add: number[];
  del: number[];
  ce: Array<{ pos: number[]; neg: number[]; fact: number; isAdd: boolean }>;
}

// The last step of grounding is split into the functions below, each compiled on its own: as one
// function it was a worker's costliest recompile (6 x 276 ms over 11 domains, each new domain's
// shapes deoptimizing it).

/** Facts: reached atoms sorted by name. */
function factTable(c: Compiled, atoms: AtomTable, reached: Uint8Array, objRank: Int32Array | null): FactTable {
  const nameOf = (a: number): string => {
    const args = atoms.args[a]!;
    let s = "(" + c.predNames[atoms.pred[a]!]!;
    for (let i = 0; i < args.length; i++) s += " " + c.objects[args[i]!];
    return s + ")";
  };
  const factAtoms: number[] = [];
  const preds: number[] = [];
  const args: Int32Array[] = [];
  for (let a = 0; a < atoms.size; a++)
    if (reached[a]) {
      factAtoms.push(a);
      preds.push(atoms.pred[a]!);
      args.push(atoms.args[a]!);
    }
  const names = factAtoms.map(nameOf);
  const perm: ArrayLike<number> =
    rankOrder(nameRanks(c.predNames), objRank, preds, args, factAtoms.length) ?? factAtoms.map((_, i) => i).sort((x, y) => cmpStr(names[x]!, names[y]!));
  const t: FactTable = { atomFact: new Int32Array(atoms.size).fill(-1), factNames: [], factPredicate: [], factArgsL: [], factDerivedL: [] };
  for (let f = 0; f < perm.length; f++) {
    const i = perm[f]!;
    const a = factAtoms[i]!;
    t.atomFact[a] = f;
    t.factNames.push(names[i]!);
    t.factPredicate.push(c.predNames[preds[i]!]!);
    t.factArgsL.push(args[i]!);
    t.factDerivedL.push(c.predDerived[preds[i]!]!);
  }
  return t;
}

function pushAxiom(ax: AxiomLists, head: number, layer: number, cj: Conj): void {
  if (cj.pos.includes(head)) return;
  const key = head + ":" + cj.pos.join(",") + "|" + cj.neg.join(",");
  if (ax.seen.has(key)) return;
  ax.seen.add(key);
  ax.head.push(head);
  ax.layer.push(layer);
  ax.body.push(cj.pos);
  ax.neg.push(cj.neg);
  if (layer > ax.maxLayer) ax.maxLayer = layer;
}

/** Axioms of the fired derived-predicate rules, by stratum. */
function axiomLists(c: Compiled, domain: Domain, atoms: AtomTable, atomFact: Int32Array, firedAx: FiredAxiom[]): AxiomLists {
  const layerOfPred = strata(c, domain);
  const ax: AxiomLists = { head: [], layer: [], body: [], neg: [], maxLayer: 0, seen: new Set() };
  for (const f of firedAx) {
    const head = atomFact[f.head]!;
    const d = dnf(toFacts(f.body, atomFact), DNF_CAP);
    if (d === null) throw new UserError(`derived predicate '${c.predNames[atoms.pred[f.head]!]}' is too complex to ground (DNF exceeds ${DNF_CAP} terms)`);
    for (const cj of d) pushAxiom(ax, head, layerOfPred[atoms.pred[f.head]!]!, cj);
  }
  return ax;
}

const isLit = (g: GF): g is number => typeof g === "number";

/** Goal: a conjunction of literals, else a derived goal fact (added to `facts`, its axioms to `ax`). */
function groundGoal(c: Compiled, problem: Problem, atoms: AtomTable, facts: FactTable, ax: AxiomLists): { pos: number[]; neg: number[] } {
  const gEnv = new Int32Array(Math.max(1, c.goalSlots)).fill(-1);
  const goalGF = toFacts(instantiate(c, atoms, c.goal, gEnv, false), facts.atomFact);
  if (goalGF === true) return { pos: [], neg: [] }; // empty goal
  if (isLit(goalGF) || (typeof goalGF === "object" && goalGF.and && goalGF.args.every(isLit))) {
    const lits = isLit(goalGF) ? [goalGF] : (goalGF as { args: number[] }).args;
    const pos = new Set<number>();
    const neg = new Set<number>();
    for (const l of lits) (l & 1 ? neg : pos).add(l >>> 1);
    return { pos: [...pos].sort((a, b) => a - b), neg: [...neg].sort((a, b) => a - b) };
  }
  const g = facts.factNames.length;
  facts.factNames.push("(__goal)");
  facts.factPredicate.push("__goal");
  facts.factArgsL.push([]);
  facts.factDerivedL.push(1);
  const d = goalGF === false ? [] : dnf(goalGF, DNF_CAP);
  if (d === null) throw new UserError(`goal of ${problem.name} is too complex to ground (DNF exceeds ${DNF_CAP} terms)`);
  const layer = ax.maxLayer + 1;
  for (const cj of d) pushAxiom(ax, g, layer, cj);
  return { pos: [g], neg: [] };
}

/** `xs` without the members of `ys` (both ascending, no duplicates), in place. */
function without(xs: number[], ys: readonly number[]): number[] {
  let n = 0;
  for (let i = 0, j = 0; i < xs.length; i++) {
    const x = xs[i]!;
    while (j < ys.length && ys[j]! < x) j++;
    if (j < ys.length && ys[j] === x) continue;
    xs[n++] = x;
  }
  if (n !== xs.length) xs.length = n;
  return xs;
}

/**
 * A precondition that is a literal or a conjunction of literals, over fact ids, as `dnf` of
 * `toFacts` gives its one conjunct, without building the rewritten formula (most operators):
 * null when it cannot hold, undefined for any other formula (the caller takes `dnf` then).
 */
function literalConj(g: GF, atomFact: Int32Array): Conj | null | undefined {
  if (typeof g === "boolean") return g ? { pos: [], neg: [] } : null;
  if (typeof g === "object" && !g.and) return undefined;
  const pos: number[] = [];
  const neg: number[] = [];
  const n = typeof g === "number" ? 1 : g.args.length;
  for (let i = 0; i < n; i++) {
    const l = typeof g === "number" ? g : g.args[i]!;
    if (typeof l !== "number") return undefined;
    const a = l >>> 1;
    // an atom without a fact was never reached: false, so its negation holds
    const f = a < atomFact.length ? atomFact[a]! : -1;
    if (f < 0) {
      if ((l & 1) === 0) return null;
      continue;
    }
    (l & 1 ? neg : pos).push(f);
  }
  sortUnique(pos);
  sortUnique(neg);
  for (let i = 0, j = 0; i < pos.length; i++) {
    while (j < neg.length && neg[j]! < pos[i]!) j++;
    if (j < neg.length && neg[j] === pos[i]) return null;
  }
  return { pos, neg };
}

/** Operators: DNF variants of each fired binding, in firing order. */
function operatorList(c: Compiled, atomFact: Int32Array, fired: FiredOp[]): Op[] {
  const ops: Op[] = [];
  for (const f of fired) {
    let name = "(" + c.schemas[f.schema]!.name;
    for (let i = 0; i < f.args.length; i++) name += " " + c.objects[f.args[i]!];
    name += ")";
    const conj = literalConj(f.pre, atomFact);
    if (conj === null) continue;
    const variants = conj !== undefined ? [conj] : dnf(toFacts(f.pre, atomFact), DNF_CAP);
    if (variants === null) throw new UserError(`precondition of ${name} is too complex to ground (DNF exceeds ${DNF_CAP} terms)`);
    if (variants.length === 0) continue;
    if (f.effects.every((e) => e.cond === true)) {
      // Fast path (plain STRIPS effects): same for every variant.
      const addL: number[] = [];
      const delL: number[] = [];
      for (const e of f.effects) {
        const fact = atomFact[e.atom]!;
        if (fact >= 0) (e.isAdd ? addL : delL).push(fact);
      }
      const add = sortUnique(addL);
      const del = without(sortUnique(delL), add);
      for (const v of variants) ops.push({ name, schema: f.schema, args: f.args, cost: f.cost, pre: v.pos, neg: v.neg, add, del, ce: [] });
      continue;
    }
    conditionalVariants(f, name, variants, atomFact, ops);
  }
  return ops;
}

/** The variants of a fired binding with conditional effects. */
function conditionalVariants(f: FiredOp, name: string, variants: Conj[], atomFact: Int32Array, ops: Op[]): void {
  const effs = f.effects.map((e) => ({ cond: toFacts(e.cond, atomFact), fact: atomFact[e.atom]!, isAdd: e.isAdd }));
  const effDnf = effs.map((e) => (e.fact < 0 || e.cond === false ? [] : dnf(e.cond, DNF_CAP)));
  for (const v of variants) {
    const preS = new Set(v.pos);
    const negS = new Set(v.neg);
    const add = new Set<number>();
    const del = new Set<number>();
    const ce: Op["ce"] = [];
    const ceSeen = new Set<string>();
    effs.forEach((e, i) => {
      const d = effDnf[i];
      if (d === null) throw new UserError(`effect condition of ${name} is too complex to ground (DNF exceeds ${DNF_CAP} terms)`);
      if (d === undefined) return;
      for (const cj of d) {
        if (cj.pos.some((x) => negS.has(x)) || cj.neg.some((x) => preS.has(x))) continue;
        const pos = cj.pos.filter((x) => !preS.has(x));
        const neg = cj.neg.filter((x) => !negS.has(x));
        if (pos.length === 0 && neg.length === 0) {
          (e.isAdd ? add : del).add(e.fact);
          continue;
        }
        const key = pos.join(",") + "|" + neg.join(",") + ">" + e.fact + (e.isAdd ? "+" : "-");
        if (ceSeen.has(key)) continue;
        ceSeen.add(key);
        ce.push({ pos, neg, fact: e.fact, isAdd: e.isAdd });
      }
    });
    for (const a of add) del.delete(a);
    // No duplicate check needed: each (schema, args) fires once and its DNF variants are distinct.
    ops.push({
      name, schema: f.schema, args: f.args, cost: f.cost, pre: v.pos, neg: v.neg,
      add: [...add].sort((a, b) => a - b), del: [...del].sort((a, b) => a - b), ce,
    });
  }
}

/** Lists as CSR: start offsets (one more than lists) and the concatenated data. */
function csr(lists: ArrayLike<number>[]): [Int32Array, Int32Array] {
  const start = new Int32Array(lists.length + 1);
  let n = 0;
  for (let i = 0; i < lists.length; i++) {
    start[i] = n;
    n += lists[i]!.length;
  }
  start[lists.length] = n;
  const data = new Int32Array(n);
  // element by element: TypedArray.set from a short JS array costs more than the copy
  for (let i = 0, k = 0; i < lists.length; i++) {
    const l = lists[i]!;
    for (let j = 0; j < l.length; j++) data[k++] = l[j]!;
  }
  return [start, data];
}

/** Operators in name order (DNF variants of one binding in the order made). */
function sortOps(c: Compiled, ops: Op[], objRank: Int32Array | null): Op[] {
  const n = ops.length;
  const schema = new Int32Array(n);
  const args: Int32Array[] = new Array(n);
  for (let i = 0; i < n; i++) {
    schema[i] = ops[i]!.schema;
    args[i] = ops[i]!.args;
  }
  const order = rankOrder(nameRanks(c.schemas.map((x) => x.name)), objRank, schema, args, n);
  if (order === null) return ops.map((_, i) => i).sort((x, y) => cmpStr(ops[x]!.name, ops[y]!.name) || x - y).map((i) => ops[i]!);
  const sorted: Op[] = new Array(n);
  for (let i = 0; i < n; i++) sorted[i] = ops[order[i]!]!;
  return sorted;
}

function finish(c: Compiled, domain: Domain, problem: Problem, atoms: AtomTable, reached: Uint8Array, fired: FiredOp[], firedAx: FiredAxiom[]): GroundTask {
  const objRank = nameRanks(c.objects);
  const facts = factTable(c, atoms, reached, objRank);
  const { atomFact, factNames, factPredicate, factArgsL, factDerivedL } = facts;
  const ax = axiomLists(c, domain, atoms, atomFact, firedAx);
  const goal = groundGoal(c, problem, atoms, facts, ax);
  const numFacts = factNames.length;
  const ops = operatorList(c, atomFact, fired);

  const sorted = sortOps(c, ops, objRank);
  // Costs are added in 32 bits (g, h^max, LM-Cut): a task whose action costs sum past 2^31 - 1
  // could overflow a heuristic value, and a wrong value would be a wrong label. Refused cleanly.
  let costSum = 0;
  for (const o of sorted) costSum += o.cost;
  if (costSum > MAX_COST_SUM) {
    throw new GroundingLimit(`grounding ${domain.name}/${problem.name}: the action costs add up to ${costSum}, past ${MAX_COST_SUM} (pddl2prm adds costs in 32 bits; scale the costs down)`, "costs");
  }

  const [factArgStart, factArgs] = csr(factArgsL);
  const [opArgStart, opArgs] = csr(sorted.map((o) => o.args));
  const [preStart, pre] = csr(sorted.map((o) => o.pre));
  const [negPreStart, negPre] = csr(sorted.map((o) => o.neg));
  const [addStart, add] = csr(sorted.map((o) => o.add));
  const [delStart, del] = csr(sorted.map((o) => o.del));
  const allCe = sorted.flatMap((o) => o.ce);
  const ceStart = new Int32Array(sorted.length + 1);
  {
    let n = 0;
    sorted.forEach((o, i) => {
      ceStart[i] = n;
      n += o.ce.length;
    });
    ceStart[sorted.length] = n;
  }
  const [ceCondStart, ceCond] = csr(allCe.map((e) => e.pos));
  const [ceNegCondStart, ceNegCond] = csr(allCe.map((e) => e.neg));
  // Axioms ordered by layer (stable), so evaluation walks them layer by layer.
  const axOrder = ax.head.map((_, i) => i).sort((x, y) => ax.layer[x]! - ax.layer[y]! || x - y);
  const [axBodyStart, axBodyA] = csr(axOrder.map((i) => ax.body[i]!));
  const [axNegBodyStart, axNegBody] = csr(axOrder.map((i) => ax.neg[i]!));

  const words = Math.max(1, Math.ceil(numFacts / 32));
  const init = new Uint32Array(words);
  for (const [p, args] of c.initFluent) {
    const f = atomFact[atoms.intern(p, args)]!;
    init[f >>> 5]! |= 1 << (f & 31);
  }

  const task: GroundTask = {
    domain, problem,
    objects: c.objects,
    objectTypes: c.objectTypes,
    numFacts, words, factNames, factPredicate, factArgStart, factArgs,
    factDerived: Uint8Array.from(factDerivedL),
    numOps: sorted.length,
    opNames: sorted.map((o) => o.name),
    opSchema: Int32Array.from(sorted.map((o) => o.schema)),
    opArgStart, opArgs,
    opCost: Int32Array.from(sorted.map((o) => o.cost)),
    preStart, pre, negPreStart, negPre, addStart, add, delStart, del,
    ceStart, ceCondStart, ceCond, ceNegCondStart, ceNegCond,
    ceFact: Int32Array.from(allCe.map((e) => e.fact)),
    ceIsAdd: Uint8Array.from(allCe.map((e) => (e.isAdd ? 1 : 0))),
    numAxioms: ax.head.length,
    axHead: Int32Array.from(axOrder.map((i) => ax.head[i]!)),
    axLayer: Int32Array.from(axOrder.map((i) => ax.layer[i]!)),
    axBodyStart, axBody: axBodyA, axNegBodyStart, axNegBody,
    init,
    goalPos: Int32Array.from(goal.pos),
    goalNeg: Int32Array.from(goal.neg),
    hasCosts: c.useCosts,
  };
  evaluateAxioms(task, task.init);
  compiledOfTask.set(task, c);
  return task;
}
