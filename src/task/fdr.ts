import { computeFactGroups } from "./invariants.js";
import type { GroundTask } from "./types.js";

/**
 * A finite-domain (SAS+) view of a ground task, built the way Fast Downward's translator builds
 * its `output.sas` from the same fact groups: one variable per chosen group (its atoms, then a
 * "none of those" value; a lone atom gives a binary variable), operators translated with their
 * preconditions checked against every mutex group (an operator that requires two mutex facts can
 * never apply and is dropped), negative conditions expanded over the other values, deletes
 * turned into "none of those"; then values unreachable in their domain transition graph
 * removed, variables ordered by the causal graph and variables that cannot matter for the goal
 * dropped. Operators come in the translator's order (by name, then conditions).
 *
 * Nothing here changes what is reachable or what a plan costs: it is another encoding of the
 * same task, and mutex groups are invariants. What it changes is the delete relaxation's
 * structure and the order of facts and operators, which is what LM-Cut's values and tie-breaking
 * depend on; built on this view, our LM-Cut computes Fast Downward's values.
 */
export interface FdrTask {
  /** Domain size of each variable. */
  ranges: Int32Array;
  /** Per variable, per value: the task fact it stands for, or -1 ("none of those", or a negated atom). */
  values: Int32Array[];
  /** Initial value of each variable. */
  init: Int32Array;
  /** Goal as (variable, value) pairs, sorted by variable. */
  goal: Int32Array;
  ops: FdrOperator[];
}

export interface FdrOperator {
  /** The task operator this one encodes (several FDR operators can encode one task operator). */
  origin: number;
  /** Prevail conditions as (variable, value) pairs. */
  prevail: Int32Array;
  /** Effects as (variable, precondition value or -1, new value) triples. */
  prePost: Int32Array;
  cost: number;
}

/** Fact groups, as Fast Downward's `compute_groups` returns them (see src/task/invariants.ts). */
export interface FdrGroups {
  /** The groups that become variables, in order; every non-derived fact in exactly one. */
  groups: ArrayLike<number>[];
  /** Every mutex group found (facts may be in several). */
  mutexGroups: ArrayLike<number>[];
}

/** Why a task has no FDR view that LM-Cut can use. */
export type FdrUnsupported = { unsupported: string };

type Cond = Map<number, number>;

interface Encoding {
  /** fact -> (var, val) pairs, flattened: entries pairStart[f] .. pairStart[f+1] of pairVar/pairVal. */
  pairStart: Int32Array;
  pairVar: Int32Array;
  pairVal: Int32Array;
  ranges: Int32Array;
}

function encoding(numFacts: number, groups: ArrayLike<number>[], extraSingletons: boolean): Encoding {
  const count = new Int32Array(numFacts + 1);
  const covered = new Uint8Array(numFacts);
  for (const g of groups) for (let i = 0; i < g.length; i++) {
    count[g[i]! + 1]!++;
    covered[g[i]!] = 1;
  }
  const all = groups.slice();
  if (extraSingletons) for (let f = 0; f < numFacts; f++) if (!covered[f]) {
    all.push([f]);
    count[f + 1]!++;
  }
  for (let f = 0; f < numFacts; f++) count[f + 1]! += count[f]!;
  const pairVar = new Int32Array(count[numFacts]!);
  const pairVal = new Int32Array(count[numFacts]!);
  const fill = count.slice(0, numFacts);
  const ranges = new Int32Array(all.length);
  all.forEach((g, v) => {
    ranges[v] = g.length + 1;
    for (let i = 0; i < g.length; i++) {
      const k = fill[g[i]!]!++;
      pairVar[k] = v;
      pairVal[k] = i;
    }
  });
  return { pairStart: count, pairVar, pairVal, ranges };
}

/**
 * Conditions (positive and negative facts) as FDR conditions: null if contradictory, else one
 * condition per way of satisfying the negative ones (a negated atom of a multi-valued variable
 * is "any other value").
 */
/**
 * Negative conditions on multi-valued variables multiply an operator out into one FDR operator per
 * combination of other values; Fast Downward's translator can spend hours there (it times out on
 * slitherlink-sat23 p01). Past these bounds the task gets no FDR view: LM-Cut then runs on the
 * plain relaxation, which is admissible too.
 */
const MAX_CONDITION_PRODUCT = 10_000;
const MAX_FDR_OPS_FACTOR = 20;
const MAX_FDR_OPS_MIN = 200_000;

class MultiplyOutLimit extends Error {
  constructor(readonly product: number) {
    super(`negative conditions multiply out to ${product} operators`);
  }
}

function translateConditions(pos: ArrayLike<number>, neg: ArrayLike<number>, enc: Encoding): Cond[] | null {
  const cond = new Map<number, Set<number>>();
  for (let i = 0; i < pos.length; i++) {
    const f = pos[i]!;
    for (let k = enc.pairStart[f]!; k < enc.pairStart[f + 1]!; k++) {
      const v = enc.pairVar[k]!;
      const val = enc.pairVal[k]!;
      const had = cond.get(v);
      if (had !== undefined && !had.has(val)) return null;
      cond.set(v, new Set([val]));
    }
  }
  for (let i = 0; i < neg.length; i++) {
    const f = neg[i]!;
    let done = false;
    const fresh: [number, Set<number>][] = [];
    for (let k = enc.pairStart[f]!; k < enc.pairStart[f + 1]!; k++) {
      const v = enc.pairVar[k]!;
      const val = enc.pairVal[k]!;
      const had = cond.get(v);
      if (had === undefined) {
        const poss = new Set<number>();
        for (let x = 0; x < enc.ranges[v]!; x++) if (x !== val) poss.add(x);
        fresh.push([v, poss]);
      } else {
        done = true;
        had.delete(val);
        if (had.size === 0) return null;
      }
    }
    if (!done && fresh.length > 0) {
      // the variable with the fewest remaining values (first such)
      let best = fresh[0]!;
      for (const c of fresh) if (c[1].size < best[1].size) best = c;
      cond.set(best[0], best[1]);
    }
  }
  // multiply out, variables with fewer values first (stable)
  const entries = [...cond.entries()].sort((a, b) => a[1].size - b[1].size);
  let product = 1;
  for (const [, vals] of entries) product *= vals.size;
  if (product > MAX_CONDITION_PRODUCT) throw new MultiplyOutLimit(product);
  let flat: Cond[] = [new Map()];
  for (const [v, vals] of entries) {
    if (vals.size === 1) {
      const x = vals.values().next().value as number;
      for (const c of flat) c.set(v, x);
    } else {
      const next: Cond[] = [];
      const sorted = [...vals].sort((a, b) => a - b);
      for (const c of flat) for (const x of sorted) next.push(new Map(c).set(v, x));
      flat = next;
    }
  }
  return flat;
}

/** Lexicographic comparison of integer tuples, a prefix first (as Python compares lists of tuples). */
function compareInts(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

/** Compare lists of fixed-width tuples stored flat (width w), as Python compares lists of tuples. */
function compareTuples(a: Int32Array, b: Int32Array, w: number): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  // a shorter list of whole tuples is a prefix: it comes first
  return (a.length - b.length) / w;
}

interface RawOp {
  name: string;
  origin: number;
  prevail: Int32Array;
  prePost: Int32Array;
  cost: number;
}

/** An operator's name as Fast Downward's translator writes it (and sorts by): "(name a b)", "(name )" without arguments. */
function translatorName(task: GroundTask, o: number): string {
  const schema = task.domain.actions?.[task.opSchema[o]!];
  if (schema === undefined) return task.opNames[o]!; // a task built without a domain (tests)
  const args: string[] = [];
  for (let i = task.opArgStart[o]!; i < task.opArgStart[o + 1]!; i++) args.push(task.objects[task.opArgs[i]!]!);
  return `(${schema.name} ${args.join(" ")})`;
}

/** Sort (var, val) pairs (flat) by var then val. */
function sortedPairs(m: Cond): Int32Array {
  const keys = [...m.keys()].sort((a, b) => a - b);
  const out = new Int32Array(2 * keys.length);
  keys.forEach((v, i) => {
    out[2 * i] = v;
    out[2 * i + 1] = m.get(v)!;
  });
  return out;
}

/**
 * Build the FDR view of `task` from its fact groups. Returns `{ unsupported }` for tasks our
 * FDR LM-Cut does not cover (axioms, conditional effects, and ones the translator would also
 * leave without one: effects that stay conditional, an impossible or empty goal).
 */
export function buildFdrTask(task: GroundTask, fg: FdrGroups, options: { fastPath?: boolean } = {}): FdrTask | FdrUnsupported {
  const fast = options.fastPath ?? true;
  if (task.numAxioms > 0) return { unsupported: "axioms" };
  if (task.ceStart[task.numOps]! > 0) return { unsupported: "conditional effects" };
  const nf = task.numFacts;
  const enc = encoding(nf, fg.groups, false);
  for (let f = 0; f < nf; f++) {
    if (enc.pairStart[f + 1]! - enc.pairStart[f]! !== 1) return { unsupported: `fact ${task.factNames[f]} is not in exactly one group` };
  }
  const mutexEnc = encoding(nf, fg.mutexGroups, true);
  const ranges = enc.ranges;
  const numVars = ranges.length;
  const varOf = (f: number): number => enc.pairVar[enc.pairStart[f]!]!;
  const valOf = (f: number): number => enc.pairVal[enc.pairStart[f]!]!;

  // --- operators
  const raw: RawOp[] = [];
  const maxOps = Math.max(MAX_FDR_OPS_MIN, MAX_FDR_OPS_FACTOR * task.numOps);
  const added = new Int32Array(nf).fill(-1);
  // fast path scratch (operators without negative preconditions): stamps per variable
  const mStamp = new Int32Array(mutexEnc.ranges.length).fill(-1);
  const mVal = new Int32Array(mutexEnc.ranges.length);
  const cStamp = new Int32Array(numVars).fill(-1);
  const cVal = new Int32Array(numVars);
  const eStamp = new Int32Array(numVars).fill(-1);
  const eAdd = new Int32Array(numVars); // -1: delete only, else the value added (first add)
  const eDel = new Int32Array(numVars); // value deleted (for deletes without add), -1 none
  const eMulti = new Uint8Array(numVars); // more than one add or more than one delete on the variable
  for (let o = 0; o < task.numOps; o++) {
    const pos = task.pre.subarray(task.preStart[o]!, task.preStart[o + 1]!);
    const neg = task.negPre.subarray(task.negPreStart[o]!, task.negPreStart[o + 1]!);
    const adds = task.add.subarray(task.addStart[o]!, task.addStart[o + 1]!);
    for (let i = 0; i < adds.length; i++) added[adds[i]!] = o;
    if (fast && neg.length === 0) {
      const op = fastOperator(o, pos, adds);
      if (op === "conditional") return { unsupported: "conditional effects in the FDR encoding" };
      if (op !== "general") {
        if (op !== null) raw.push(op);
        continue;
      }
    }
    let conds: Cond[] | null;
    try {
      if (translateConditions(pos, neg, mutexEnc) === null) continue;
      conds = translateConditions(pos, neg, enc);
    } catch (e) {
      if (e instanceof MultiplyOutLimit) return { unsupported: `${translatorName(task, o)}: ${e.message}` };
      throw e;
    }
    if (conds === null) continue;
    if (raw.length + conds.length > maxOps) return { unsupported: `more than ${maxOps} FDR operators` };
    // effects per variable: value -> effect conditions (only deletes give conditions)
    const effects = new Map<number, Map<number, Cond[]>>();
    const effOn = (v: number): Map<number, Cond[]> => {
      let m = effects.get(v);
      if (!m) effects.set(v, (m = new Map()));
      return m;
    };
    const addedVars = new Set<number>();
    for (let i = 0; i < adds.length; i++) {
      const v = varOf(adds[i]!);
      const m = effOn(v);
      const val = valOf(adds[i]!);
      if (!m.has(val)) m.set(val, []);
      m.get(val)!.push(new Map());
      addedVars.add(v);
    }
    // a delete of an atom also added is no delete (add after delete)
    for (let i = task.delStart[o]!; i < task.delStart[o + 1]!; i++) {
      const f = task.del[i]!;
      if (added[f] === o) continue;
      const v = varOf(f);
      if (addedVars.has(v)) continue; // an add on the variable always replaces the value
      const m = effOn(v);
      const none = ranges[v]! - 1;
      if (!m.has(none)) m.set(none, []);
      m.get(none)!.push(new Map([[v, valOf(f)]]));
    }
    const cost = task.opCost[o]!;
    const name = translatorName(task, o);
    for (const condition of conds) {
      const op = buildOperator(name, o, condition, effects, ranges, cost);
      if (op === "conditional") return { unsupported: "conditional effects in the FDR encoding" };
      if (op !== null) raw.push(op);
    }
  }

  /**
   * `buildOperator` for an operator without negative preconditions, on typed arrays: the same
   * result (null for a pruned or no-op operator), or "general" when an effect needs the general
   * path (several adds or deletes on one variable).
   */
  function fastOperator(o: number, pos: Int32Array, adds: Int32Array): RawOp | null | "conditional" | "general" {
    // contradictory preconditions (in any mutex group, or on one variable): never applicable
    for (let i = 0; i < pos.length; i++) {
      const f = pos[i]!;
      for (let k = mutexEnc.pairStart[f]!; k < mutexEnc.pairStart[f + 1]!; k++) {
        const mv = mutexEnc.pairVar[k]!;
        if (mStamp[mv] === o && mVal[mv] !== mutexEnc.pairVal[k]) return null;
        mStamp[mv] = o;
        mVal[mv] = mutexEnc.pairVal[k]!;
      }
    }
    const condVars: number[] = [];
    for (let i = 0; i < pos.length; i++) {
      const v = varOf(pos[i]!);
      const x = valOf(pos[i]!);
      if (cStamp[v] === o) {
        if (cVal[v] !== x) return null;
        continue;
      }
      cStamp[v] = o;
      cVal[v] = x;
      condVars.push(v);
    }
    const effVars: number[] = [];
    for (let i = 0; i < adds.length; i++) {
      const v = varOf(adds[i]!);
      const x = valOf(adds[i]!);
      if (eStamp[v] !== o) {
        eStamp[v] = o;
        eAdd[v] = x;
        eDel[v] = -1;
        eMulti[v] = 0;
        effVars.push(v);
      } else if (eAdd[v] !== x) eMulti[v] = 1;
    }
    for (let i = task.delStart[o]!; i < task.delStart[o + 1]!; i++) {
      const f = task.del[i]!;
      if (added[f] === o) continue;
      const v = varOf(f);
      if (eStamp[v] === o) {
        if (eAdd[v] !== -1) continue; // an add on the variable replaces the value
        if (eDel[v] !== valOf(f)) eMulti[v] = 1;
        continue;
      }
      eStamp[v] = o;
      eAdd[v] = -1;
      eDel[v] = valOf(f);
      eMulti[v] = 0;
      effVars.push(v);
    }
    const prePost: number[] = [];
    for (const v of effVars) {
      if (eMulti[v]) return "general";
      const pre = cStamp[v] === o ? cVal[v]! : -1;
      if (eAdd[v] !== -1) {
        if (pre === eAdd[v]) continue;
        prePost.push(v, pre, eAdd[v]!);
      } else {
        const none = ranges[v]! - 1;
        const y = eDel[v]!;
        if (pre !== -1) {
          if (pre !== y) continue; // the deleted atom cannot hold: no effect
          prePost.push(v, pre, none);
        } else if (ranges[v] === 2) prePost.push(v, -1, none); // binary: unconditional
        else return "conditional";
      }
      cStamp[v] = -2 - o; // affected: not a prevail condition
    }
    if (prePost.length === 0) return null;
    const prevail: number[] = [];
    for (const v of condVars) if (cStamp[v] === o) prevail.push(v);
    prevail.sort((a, b) => a - b);
    const prevailPairs = new Int32Array(2 * prevail.length);
    prevail.forEach((v, i) => {
      prevailPairs[2 * i] = v;
      prevailPairs[2 * i + 1] = cVal[v]!;
    });
    // pre_post entries sorted by (var, pre, post); one entry per variable here
    const order = Array.from({ length: prePost.length / 3 }, (_, i) => i).sort((a, b) => prePost[3 * a]! - prePost[3 * b]!);
    const pp = new Int32Array(prePost.length);
    order.forEach((k, i) => {
      pp[3 * i] = prePost[3 * k]!;
      pp[3 * i + 1] = prePost[3 * k + 1]!;
      pp[3 * i + 2] = prePost[3 * k + 2]!;
    });
    return { name: translatorName(task, o), origin: o, prevail: prevailPairs, prePost: pp, cost: task.opCost[o]! };
  }
  raw.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : compareTuples(a.prevail, b.prevail, 2) || compareTuples(a.prePost, b.prePost, 3)));

  // --- initial state and goal
  const init = new Int32Array(numVars);
  for (let v = 0; v < numVars; v++) init[v] = ranges[v]! - 1;
  for (let f = 0; f < nf; f++) if ((task.init[f >>> 5]! >>> (f & 31)) & 1) init[varOf(f)] = valOf(f);
  let goalConds: Cond[] | null;
  try {
    if (translateConditions(task.goalPos, task.goalNeg, mutexEnc) === null) return { unsupported: "the goal violates a mutex" };
    goalConds = translateConditions(task.goalPos, task.goalNeg, enc);
  } catch (e) {
    if (e instanceof MultiplyOutLimit) return { unsupported: `the goal: ${e.message}` };
    throw e;
  }
  if (goalConds === null) return { unsupported: "the goal violates a mutex" };
  if (goalConds.length !== 1) return { unsupported: "a negative goal on a multi-valued variable" };
  const goal = sortedPairs(goalConds[0]!);
  if (goal.length === 0) return { unsupported: "empty goal" };

  const values: Int32Array[] = fg.groups.map((g) => {
    const vals = new Int32Array(g.length + 1);
    for (let i = 0; i < g.length; i++) vals[i] = g[i]!;
    vals[g.length] = -1;
    return vals;
  });
  const simplified = simplify({ ranges, values, init, goal, ops: raw });
  if ("unsupported" in simplified) return simplified;
  return orderVariables(simplified);
}

/**
 * One FDR operator from a task operator's precondition and effects; null for a no-op,
 * "conditional" if an effect stays conditional.
 */
function buildOperator(
  name: string,
  origin: number,
  condition: Cond,
  effects: Map<number, Map<number, Cond[]>>,
  ranges: Int32Array,
  cost: number,
): RawOp | null | "conditional" {
  const pre = new Map(condition);
  const prePost: number[][] = [];
  for (const [v, onVar] of effects) {
    const origPre = pre.get(v) ?? -1;
    let addedEffect = false;
    for (const [post, effConds] of onVar) {
      if (origPre === post) continue;
      let condLists: [number, number][][] = effConds.map((c) => [...c.entries()].sort((a, b) => a[0] - b[0] || a[1] - b[1]));
      if (ranges[v] === 2 && !(condLists.length === 1 && condLists[0]!.length === 0)) {
        // binary variable: "if v = other value then v := post" is unconditional unless the
        // operator can also set the other value
        if (!onVar.has(1 - post)) {
          for (const c of condLists) for (let i = c.length - 1; i >= 0; i--) if (c[i]![0] === v && c[i]![1] === 1 - post) c.splice(i, 1);
          if (condLists.some((c) => c.length === 0)) condLists = [[]];
        }
      }
      for (const c of condLists) {
        const kept: [number, number][] = [];
        let contradicts = false;
        for (const [cv, cx] of c) {
          const p = pre.get(cv);
          if (p === undefined) kept.push([cv, cx]);
          else if (p !== cx) {
            contradicts = true;
            break;
          }
        }
        if (contradicts) continue;
        if (kept.length > 0) return "conditional";
        prePost.push([v, origPre, post]);
        addedEffect = true;
      }
    }
    if (addedEffect) condition.delete(v);
  }
  if (prePost.length === 0) return null;
  // canonical: sorted, duplicates removed
  prePost.sort(compareInts);
  const flat: number[] = [];
  for (let i = 0; i < prePost.length; i++) if (i === 0 || compareInts(prePost[i]!, prePost[i - 1]!) !== 0) flat.push(...prePost[i]!);
  return { name, origin, prevail: sortedPairs(condition), prePost: Int32Array.from(flat), cost };
}

interface Draft {
  ranges: Int32Array;
  values: Int32Array[];
  init: Int32Array;
  goal: Int32Array;
  ops: RawOp[];
}

/**
 * Remove values unreachable from the initial value in their variable's domain transition
 * graph (arcs from every operator effect, ignoring other variables), variables left with one
 * value, and operators that can no longer apply or change anything.
 */
function simplify(t: Draft): Draft | FdrUnsupported {
  const numVars = t.ranges.length;
  // values numbered variable by variable; arcs pre -> post in CSR; a post without a
  // precondition on its variable is reachable from the initial value (or is it)
  const offset = new Int32Array(numVars + 1);
  for (let v = 0; v < numVars; v++) offset[v + 1] = offset[v]! + t.ranges[v]!;
  const numValues = offset[numVars]!;
  const reachedAll = new Uint8Array(numValues);
  const deg = new Int32Array(numValues + 1);
  const effPre = (op: RawOp, i: number): number => {
    const v = op.prePost[i]!;
    if (op.prePost[i + 1]! !== -1) return op.prePost[i + 1]!;
    for (let k = 0; k < op.prevail.length; k += 2) if (op.prevail[k] === v) return op.prevail[k + 1]!;
    return -1;
  };
  for (const op of t.ops) {
    for (let i = 0; i < op.prePost.length; i += 3) {
      const v = op.prePost[i]!;
      const pre = effPre(op, i);
      if (pre === -1) reachedAll[offset[v]! + op.prePost[i + 2]!] = 1;
      else deg[offset[v]! + pre + 1]!++;
    }
  }
  for (let x = 0; x < numValues; x++) deg[x + 1]! += deg[x]!;
  const arcTo = new Int32Array(deg[numValues]!);
  const fill = deg.slice(0, numValues);
  for (const op of t.ops) {
    for (let i = 0; i < op.prePost.length; i += 3) {
      const v = op.prePost[i]!;
      const pre = effPre(op, i);
      if (pre !== -1) arcTo[fill[offset[v]! + pre]!++] = offset[v]! + op.prePost[i + 2]!;
    }
  }
  // renaming: newVar[v] (-1 removed), newVal[v][x] (>= 0, ALWAYS_TRUE or ALWAYS_FALSE)
  const ALWAYS_FALSE = -2;
  const ALWAYS_TRUE = -3;
  const newVar = new Int32Array(numVars).fill(-1);
  const newVal: Int32Array[] = [];
  const ranges: number[] = [];
  const values: Int32Array[] = [];
  const stack: number[] = [];
  for (let v = 0; v < numVars; v++) {
    const base = offset[v]!;
    const reached = reachedAll.subarray(base, offset[v + 1]!);
    reached[t.init[v]!] = 1;
    for (let x = 0; x < t.ranges[v]!; x++) if (reached[x]) stack.push(base + x);
    while (stack.length > 0) {
      const x = stack.pop()!;
      for (let k = deg[x]!; k < deg[x + 1]!; k++) {
        const y = arcTo[k]!;
        if (!reachedAll[y]) {
          reachedAll[y] = 1;
          stack.push(y);
        }
      }
    }
    let n = 0;
    for (let x = 0; x < t.ranges[v]!; x++) n += reached[x]!;
    const map = new Int32Array(t.ranges[v]!).fill(ALWAYS_FALSE);
    if (n === 1) map[t.init[v]!] = ALWAYS_TRUE;
    else {
      newVar[v] = ranges.length;
      const vals: number[] = [];
      for (let x = 0; x < t.ranges[v]!; x++) if (reached[x]) {
        map[x] = vals.length;
        vals.push(t.values[v]![x]!);
      }
      ranges.push(vals.length);
      values.push(Int32Array.from(vals));
    }
    newVal.push(map);
  }
  /** Converted pairs (flat), or null if one is always false. */
  const convert = (pairs: Int32Array): number[] | null => {
    const out: number[] = [];
    for (let i = 0; i < pairs.length; i += 2) {
      const x = newVal[pairs[i]!]![pairs[i + 1]!]!;
      if (x === ALWAYS_FALSE) return null;
      if (x !== ALWAYS_TRUE) out.push(newVar[pairs[i]!]!, x);
    }
    return out;
  };
  const ops: RawOp[] = [];
  for (const op of t.ops) {
    // applicability conditions, sorted by variable
    const app: [number, number][] = [];
    for (let i = 0; i < op.prevail.length; i += 2) app.push([op.prevail[i]!, op.prevail[i + 1]!]);
    for (let i = 0; i < op.prePost.length; i += 3) if (op.prePost[i + 1]! !== -1) app.push([op.prePost[i]!, op.prePost[i + 1]!]);
    app.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    const conv = convert(Int32Array.from(app.flat()));
    if (conv === null) continue;
    const condVars = new Map<number, number>();
    for (let i = 0; i < conv.length; i += 2) condVars.set(conv[i]!, conv[i + 1]!);
    const prevailVars = new Set(condVars.keys());
    const prePost: number[] = [];
    for (let i = 0; i < op.prePost.length; i += 3) {
      const v = op.prePost[i]!;
      const post = newVal[v]![op.prePost[i + 2]!]!;
      if (post === ALWAYS_TRUE) continue;
      const pre = op.prePost[i + 1]! === -1 ? -1 : newVal[v]![op.prePost[i + 1]!]!;
      if (post === pre) continue;
      prePost.push(newVar[v]!, pre, post);
      prevailVars.delete(newVar[v]!);
    }
    if (prePost.length === 0) continue;
    const prevail: number[] = [];
    for (const v of [...prevailVars].sort((a, b) => a - b)) prevail.push(v, condVars.get(v)!);
    ops.push({ ...op, prevail: Int32Array.from(prevail), prePost: Int32Array.from(prePost) });
  }
  const goal = convert(t.goal);
  if (goal === null) return { unsupported: "the goal is unreachable" };
  if (goal.length === 0) return { unsupported: "empty goal" };
  const init = new Int32Array(ranges.length);
  for (let v = 0; v < numVars; v++) if (newVar[v]! >= 0) init[newVar[v]!] = newVal[v]![t.init[v]!]!;
  return { ranges: Int32Array.from(ranges), values, init, goal: Int32Array.from(goal), ops };
}

/**
 * Order variables by the weighted causal graph (strongly connected components in topological
 * order; inside a component, repeatedly the variable with the least incoming weight, goal
 * variables weighing more), as Fast Downward's translator does, and drop variables that no
 * goal depends on.
 */
function orderVariables(t: Draft): FdrTask {
  const n = t.ranges.length;
  const weight: Map<number, number>[] = Array.from({ length: n }, () => new Map());
  const preds: Set<number>[] = Array.from({ length: n }, () => new Set());
  for (const op of t.ops) {
    const sources: number[] = [];
    for (let i = 0; i < op.prevail.length; i += 2) sources.push(op.prevail[i]!);
    for (let i = 0; i < op.prePost.length; i += 3) if (op.prePost[i + 1]! !== -1) sources.push(op.prePost[i]!);
    for (let i = 0; i < op.prePost.length; i += 3) {
      const target = op.prePost[i]!;
      for (const s of sources) if (s !== target) {
        weight[s]!.set(target, (weight[s]!.get(target) ?? 0) + 1);
        preds[target]!.add(s);
      }
    }
  }
  const adj = weight.map((m) => [...m.keys()].sort((a, b) => a - b));
  const sccs = stronglyConnectedComponents(adj);
  const goalVars = new Set<number>();
  for (let i = 0; i < t.goal.length; i += 2) goalVars.add(t.goal[i]!);
  const ordering: number[] = [];
  for (const scc of sccs) {
    if (scc.length === 1) {
      ordering.push(scc[0]!);
      continue;
    }
    const inScc = new Set(scc);
    const sub = new Map<number, [number, number][]>();
    for (const v of scc) {
      const edges: [number, number][] = [];
      for (const [target, w] of [...weight[v]!.entries()].sort((a, b) => a[0] - b[0])) {
        if (!inScc.has(target)) continue;
        if (goalVars.has(target)) edges.push([target, 100000 + w]);
        edges.push([target, w]);
      }
      sub.set(v, edges);
    }
    ordering.push(...maxDag(sub, scc));
  }
  // variables the goal depends on
  const necessary = new Uint8Array(n);
  const stack: number[] = [];
  for (const v of goalVars) if (!necessary[v]) {
    necessary[v] = 1;
    stack.push(...preds[v]!);
    while (stack.length > 0) {
      const u = stack.pop()!;
      if (!necessary[u]) {
        necessary[u] = 1;
        stack.push(...preds[u]!);
      }
    }
  }
  const order = ordering.filter((v) => necessary[v]);
  const newVar = new Int32Array(n).fill(-1);
  order.forEach((v, i) => (newVar[v] = i));
  const ops: FdrOperator[] = [];
  for (const op of t.ops) {
    const prePost: number[] = [];
    for (let i = 0; i < op.prePost.length; i += 3) {
      const v = newVar[op.prePost[i]!]!;
      if (v >= 0) prePost.push(v, op.prePost[i + 1]!, op.prePost[i + 2]!);
    }
    if (prePost.length === 0) continue;
    const prevail: number[] = [];
    for (let i = 0; i < op.prevail.length; i += 2) {
      const v = newVar[op.prevail[i]!]!;
      if (v >= 0) prevail.push(v, op.prevail[i + 1]!);
    }
    ops.push({ origin: op.origin, prevail: Int32Array.from(prevail), prePost: Int32Array.from(prePost), cost: op.cost });
  }
  const goal: [number, number][] = [];
  for (let i = 0; i < t.goal.length; i += 2) goal.push([newVar[t.goal[i]!]!, t.goal[i + 1]!]);
  goal.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  return {
    ranges: Int32Array.from(order, (v) => t.ranges[v]!),
    values: order.map((v) => t.values[v]!),
    init: Int32Array.from(order, (v) => t.init[v]!),
    goal: Int32Array.from(goal.flat()),
    ops,
  };
}

/**
 * Tarjan's strongly connected components, iteratively, roots and successors in index order;
 * components in topological order (sources first).
 */
function stronglyConnectedComponents(adj: number[][]): number[][] {
  const n = adj.length;
  const index = new Int32Array(n).fill(-1);
  const low = new Int32Array(n);
  const onStack = new Uint8Array(n);
  const stack: number[] = [];
  const out: number[][] = [];
  let counter = 0;
  for (let root = 0; root < n; root++) {
    if (index[root] !== -1) continue;
    const call: [number, number][] = [[root, 0]];
    index[root] = low[root] = ++counter;
    stack.push(root);
    onStack[root] = 1;
    while (call.length > 0) {
      const top = call[call.length - 1]!;
      const v = top[0];
      const succ = adj[v]!;
      if (top[1] < succ.length) {
        const w = succ[top[1]++]!;
        if (index[w] === -1) {
          index[w] = low[w] = ++counter;
          stack.push(w);
          onStack[w] = 1;
          call.push([w, 0]);
        } else if (onStack[w] && index[w]! < low[v]!) low[v] = index[w]!;
      } else {
        call.pop();
        if (call.length > 0) {
          const u = call[call.length - 1]![0];
          if (low[v]! < low[u]!) low[u] = low[v]!;
        }
        if (low[v] === index[v]) {
          const at = stack.lastIndexOf(v);
          const scc = stack.splice(at);
          for (const x of scc) onStack[x] = 0;
          out.push(scc);
        }
      }
    }
  }
  return out.reverse();
}

/**
 * Fast Downward's greedy order inside a cyclic component: repeatedly take a variable of least
 * remaining incoming weight (ties: first in `inputOrder`, then in the order weights changed),
 * and remove its outgoing arcs. Weights of 100000 and more (goal arcs) count only while the
 * source is unordered.
 */
function maxDag(graph: Map<number, [number, number][]>, inputOrder: number[]): number[] {
  const incoming = new Map<number, number>();
  for (const edges of graph.values()) for (const [t, w] of edges) incoming.set(t, (incoming.get(t) ?? 0) + w);
  const byWeight = new Map<number, number[]>();
  const heap: number[] = [];
  const heapPush = (x: number): void => {
    heap.push(x);
    let i = heap.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (heap[p]! <= x) break;
      heap[i] = heap[p]!;
      i = p;
    }
    heap[i] = x;
  };
  const heapPop = (): void => {
    const last = heap.pop()!;
    if (heap.length === 0) return;
    let i = 0;
    for (;;) {
      let c = 2 * i + 1;
      if (c >= heap.length) break;
      if (c + 1 < heap.length && heap[c + 1]! < heap[c]!) c++;
      if (heap[c]! >= last) break;
      heap[i] = heap[c]!;
      i = c;
    }
    heap[i] = last;
  };
  for (const v of inputOrder) {
    const w = incoming.get(v) ?? 0;
    let q = byWeight.get(w);
    if (!q) {
      byWeight.set(w, (q = []));
      heapPush(w);
    }
    q.push(v);
  }
  const heads = new Map<number, number>(); // queue read positions
  const done = new Set<number>();
  const result: number[] = [];
  while (heap.length > 0) {
    const minKey = heap[0]!;
    let minElem: number | null = null;
    const q = byWeight.get(minKey)!;
    let h = heads.get(minKey) ?? 0;
    while (h < q.length && (minElem === null || done.has(minElem) || minKey > (incoming.get(minElem) ?? 0))) minElem = q[h++]!;
    heads.set(minKey, h);
    if (h >= q.length) {
      byWeight.delete(minKey);
      heads.delete(minKey);
      heapPop();
    }
    if (minElem === null || done.has(minElem)) continue;
    done.add(minElem);
    result.push(minElem);
    for (const [target, w0] of graph.get(minElem) ?? []) {
      if (done.has(target)) continue;
      const w = w0 % 100000;
      if (w === 0) continue;
      const nw = (incoming.get(target) ?? 0) - w;
      incoming.set(target, nw);
      let nq = byWeight.get(nw);
      if (!nq) {
        byWeight.set(nw, (nq = []));
        heapPush(nw);
      }
      nq.push(target);
    }
  }
  return result;
}

const fdrCache = new WeakMap<GroundTask, FdrTask | FdrUnsupported>();

/**
 * The FDR view of a task with the fact groups Fast Downward's translator finds
 * (`computeFactGroups`), built once per task. A task built without a domain (hand-made tests)
 * gets one binary variable per fact. A failure of the invariant analysis leaves the task
 * without an FDR view (callers fall back to the plain relaxation) rather than failing the run.
 */
export function fdrTaskOf(task: GroundTask): FdrTask | FdrUnsupported {
  let r = fdrCache.get(task);
  if (r === undefined) {
    let groups: FdrGroups | null = null;
    if (task.numAxioms > 0 || task.ceStart[task.numOps]! > 0) {
      r = buildFdrTask(task, { groups: [], mutexGroups: [] }); // says which
    } else if (task.domain.actions === undefined) {
      const ids = Array.from({ length: task.numFacts }, (_, f) => f).filter((f) => !task.factDerived[f]);
      ids.sort((a, b) => (task.factNames[a]! < task.factNames[b]! ? -1 : task.factNames[a]! > task.factNames[b]! ? 1 : 0));
      groups = { groups: ids.map((f) => [f]), mutexGroups: [] };
    } else {
      try {
        groups = computeFactGroups(task);
      } catch (e) {
        r = { unsupported: `fact groups: ${e instanceof Error ? e.message : String(e)}` };
      }
    }
    r ??= buildFdrTask(task, groups!);
    fdrCache.set(task, r);
  }
  return r;
}
