import type { FdrTask } from "../task/fdr.js";
import type { GroundTask } from "../task/types.js";
import { sortByKey } from "../util/sort.js";

/**
 * The delete relaxation of a GroundTask in CSR form, shared by h^max and LM-Cut.
 *
 * Facts 0..numFacts-1 of the task, plus an artificial fact TRUE (always reached; the
 * precondition of operators without preconditions) and GOAL (added by the artificial goal
 * operator, whose preconditions are the goals, cost 0), plus a complement fact "not f" for
 * every non-derived task fact f that some operator, effect condition, axiom or the goal reads
 * negatively. "not f" holds in a state where f is false and is added by every operator that
 * deletes f (and does not add it): this is what Fast Downward's finite-domain encoding gives
 * a binary variable, and it keeps negative preconditions and goals visible to h^max and
 * LM-Cut instead of relaxing them away. Every real plan is still a relaxed plan (a negative
 * condition holds either from the start or after a delete), so both stay admissible.
 * Other deletes are ignored. Conditional effects become one relaxed operator per distinct
 * condition set (operator preconditions plus effect conditions), with the operator's cost.
 * Axioms become zero-cost relaxed operators (negated derived literals ignored).
 */
export interface RelaxedTask {
  numFacts: number;
  trueFact: number;
  goalFact: number;
  numOps: number;
  /** Index of the artificial goal operator. */
  goalOp: number;
  /** Preconditions (unique, at least one per op). */
  preStart: Int32Array;
  pre: Int32Array;
  effStart: Int32Array;
  eff: Int32Array;
  cost: Int32Array;
  /** Original operator id, -1 for axioms and the goal op. */
  origin: Int32Array;
  /** fact -> relaxed ops having it as a precondition. */
  preOfStart: Int32Array;
  preOf: Int32Array;
  /** fact -> relaxed ops adding it. */
  addedByStart: Int32Array;
  addedBy: Int32Array;
  /** True if some relaxed op came from a conditional effect. */
  hasConditionalEffects: boolean;
  maxCost: number;
  /**
   * The relaxed facts a state can make true (task facts and complements), in the order h^max
   * and LM-Cut enqueue them (causal-graph order, a complement right after its fact): fact
   * `factOrder[i]` holds in a state iff bit `factTest[i]` of the state is `1 - factNeg[i]`.
   */
  factOrder: Int32Array;
  factTest: Int32Array;
  factNeg: Uint8Array;
  /** Number of complement facts (ids numTaskFacts + 2 ...). */
  numComplements: number;
}

const relaxedTasks = new WeakMap<GroundTask, RelaxedTask>();

/** The task's relaxed task, built once and shared by its heuristics (do not modify it). */
export function relaxedTaskOf(task: GroundTask): RelaxedTask {
  let rt = relaxedTasks.get(task);
  if (rt === undefined) relaxedTasks.set(task, (rt = buildRelaxedTask(task)));
  return rt;
}

/** Build the relaxed task (a new one; `relaxedTaskOf` shares one per task). */
export function buildRelaxedTask(task: GroundTask): RelaxedTask {
  const nf = task.numFacts;
  const TRUE = nf;
  const GOAL = nf + 1;
  // complements of the facts read negatively (derived ones excepted: no operator deletes them)
  const comp = new Int32Array(nf).fill(-1);
  const compBase: number[] = [];
  const needComp = (list: Int32Array, from = 0, to = list.length): void => {
    for (let i = from; i < to; i++) {
      const f = list[i]!;
      if (comp[f]! < 0 && !task.factDerived[f]) {
        comp[f] = nf + 2 + compBase.length;
        compBase.push(f);
      }
    }
  };
  needComp(task.negPre);
  needComp(task.ceNegCond);
  needComp(task.axNegBody);
  needComp(task.goalNeg);
  const numFacts = nf + 2 + compBase.length;
  /** Positive facts plus the complements of `neg` (those that have one). */
  const withComps = (pos: Int32Array, neg: Int32Array): number[] => {
    const out = Array.from(pos);
    for (let i = 0; i < neg.length; i++) if (comp[neg[i]!]! >= 0) out.push(comp[neg[i]!]!);
    return out;
  };
  const pres: number[][] = [];
  const effs: number[][] = [];
  const costs: number[] = [];
  const origins: number[] = [];
  let hasCE = false;
  const mark = new Int32Array(numFacts).fill(-1);
  let stamp = 0;

  const addOp = (pre: number[], eff: number[], cost: number, origin: number): void => {
    // unique preconditions; effects minus duplicates and minus facts already required
    stamp++;
    const p: number[] = [];
    for (const f of pre) {
      if (mark[f] !== stamp) {
        mark[f] = stamp;
        p.push(f);
      }
    }
    const e: number[] = [];
    for (const f of eff) {
      if (mark[f] !== stamp) {
        mark[f] = stamp;
        e.push(f);
      }
    }
    if (e.length === 0) return;
    if (p.length === 0) p.push(TRUE);
    pres.push(p);
    effs.push(e);
    costs.push(cost);
    origins.push(origin);
  };

  const addedHere = new Int32Array(nf).fill(-1);
  for (let o = 0; o < task.numOps; o++) {
    const pre = withComps(
      task.pre.subarray(task.preStart[o]!, task.preStart[o + 1]!),
      task.negPre.subarray(task.negPreStart[o]!, task.negPreStart[o + 1]!),
    );
    const add = Array.from(task.add.subarray(task.addStart[o]!, task.addStart[o + 1]!));
    for (const f of add) addedHere[f] = o;
    // a delete makes the complement true, unless the op adds the fact too (add wins)
    for (let i = task.delStart[o]!; i < task.delStart[o + 1]!; i++) {
      const f = task.del[i]!;
      if (comp[f]! >= 0 && addedHere[f] !== o) add.push(comp[f]!);
    }
    const cost = task.opCost[o]!;
    addOp(pre, add, cost, o);
    // conditional effects grouped by their condition set
    const groups = new Map<string, { cond: number[]; facts: number[] }>();
    for (let e = task.ceStart[o]!; e < task.ceStart[o + 1]!; e++) {
      const f = task.ceFact[e]!;
      let fact = f;
      if (!task.ceIsAdd[e]) {
        if (comp[f]! < 0 || addedHere[f] === o) continue;
        fact = comp[f]!;
      }
      const cond = withComps(
        task.ceCond.subarray(task.ceCondStart[e]!, task.ceCondStart[e + 1]!),
        task.ceNegCond.subarray(task.ceNegCondStart[e]!, task.ceNegCondStart[e + 1]!),
      ).sort((a, b) => a - b);
      const key = cond.join(",");
      let g = groups.get(key);
      if (!g) groups.set(key, (g = { cond, facts: [] }));
      g.facts.push(fact);
    }
    for (const g of groups.values()) {
      if (g.cond.length === 0) {
        addOp(pre, g.facts, cost, o);
      } else {
        hasCE = true;
        addOp(pre.concat(g.cond), g.facts, cost, o);
      }
    }
  }
  for (let x = 0; x < task.numAxioms; x++) {
    const body = withComps(
      task.axBody.subarray(task.axBodyStart[x]!, task.axBodyStart[x + 1]!),
      task.axNegBody.subarray(task.axNegBodyStart[x]!, task.axNegBodyStart[x + 1]!),
    );
    addOp(body, [task.axHead[x]!], 0, -1);
  }
  const goalOp = pres.length;
  addOp(withComps(task.goalPos, task.goalNeg), [GOAL], 0, -1);

  // Keep only what can matter for GOAL: facts backward-relevant from GOAL, ops with a relevant
  // effect (their other effects dropped). h^max of relevant facts and LM-Cut values do not change:
  // cuts and goal zones only ever involve relevant facts and ops.
  const relevant = new Uint8Array(numFacts);
  relevant[GOAL] = 1;
  const achievers: number[][] = Array.from({ length: numFacts }, () => []);
  for (let o = 0; o < pres.length; o++) for (const f of effs[o]!) achievers[f]!.push(o);
  const work = [GOAL];
  const opDone = new Uint8Array(pres.length);
  while (work.length > 0) {
    const f = work.pop()!;
    for (const o of achievers[f]!) {
      if (opDone[o]) continue;
      opDone[o] = 1;
      for (const p of pres[o]!) {
        if (!relevant[p]) {
          relevant[p] = 1;
          work.push(p);
        }
      }
    }
  }
  let goalOpKept = -1;
  let kept = 0;
  for (let o = 0; o < pres.length; o++) {
    if (!opDone[o]) continue;
    if (o === goalOp) goalOpKept = kept;
    pres[kept] = pres[o]!;
    effs[kept] = effs[o]!.filter((f) => relevant[f] === 1);
    costs[kept] = costs[o]!;
    origins[kept] = origins[o]!;
    kept++;
  }
  pres.length = effs.length = costs.length = origins.length = kept;

  // Fast Downward-like tie-breaking: preconditions, effects and the state's facts are visited in
  // causal-graph order (see causalFactRank), which is what LM-Cut's precondition choice and the
  // pop order of equal-cost facts depend on.
  // A complement ranks right after its fact (the two values of one binary variable).
  const taskRank = causalFactRank(task);
  const rank = new Int32Array(numFacts);
  for (let f = 0; f < nf; f++) rank[f] = 2 * taskRank[f]!;
  for (let k = 0; k < compBase.length; k++) rank[nf + 2 + k] = 2 * taskRank[compBase[k]!]! + 1;
  rank[TRUE] = 2 * nf;
  rank[GOAL] = 2 * nf + 1;
  const byRank = (a: number, b: number): number => rank[a]! - rank[b]!;
  // a few facts each: sorted without the built-in sort's work area
  for (let o = 0; o < pres.length; o++) {
    sortByKey(pres[o]!, rank);
    sortByKey(effs[o]!, rank);
  }
  const seeds: number[] = [];
  for (let f = 0; f < nf; f++) seeds.push(f);
  for (let k = 0; k < compBase.length; k++) seeds.push(nf + 2 + k);
  seeds.sort(byRank);
  const factOrder = Int32Array.from(seeds);
  const factTest = Int32Array.from(seeds, (f) => (f < nf ? f : compBase[f - nf - 2]!));
  const factNeg = Uint8Array.from(seeds, (f) => (f < nf ? 0 : 1));
  const numOps = pres.length;
  const preStart = new Int32Array(numOps + 1);
  const effStart = new Int32Array(numOps + 1);
  for (let i = 0; i < numOps; i++) {
    preStart[i + 1] = preStart[i]! + pres[i]!.length;
    effStart[i + 1] = effStart[i]! + effs[i]!.length;
  }
  const pre = new Int32Array(preStart[numOps]!);
  const eff = new Int32Array(effStart[numOps]!);
  for (let i = 0; i < numOps; i++) {
    pre.set(pres[i]!, preStart[i]!);
    eff.set(effs[i]!, effStart[i]!);
  }
  const cost = Int32Array.from(costs);
  let maxCost = 0;
  for (const c of costs) if (c > maxCost) maxCost = c;
  const [preOfStart, preOf] = invert(numFacts, numOps, preStart, pre);
  const [addedByStart, addedBy] = invert(numFacts, numOps, effStart, eff);
  return {
    numFacts,
    trueFact: TRUE,
    goalFact: GOAL,
    numOps,
    goalOp: goalOpKept,
    preStart,
    pre,
    effStart,
    eff,
    cost,
    origin: Int32Array.from(origins),
    preOfStart,
    preOf,
    addedByStart,
    addedBy,
    hasConditionalEffects: hasCE,
    maxCost,
    factOrder,
    factTest,
    factNeg,
    numComplements: compBase.length,
  };
}

/** Invert an op -> facts CSR relation into fact -> ops (ops in increasing order). */
function invert(numFacts: number, numOps: number, start: Int32Array, items: Int32Array): [Int32Array, Int32Array] {
  const cnt = new Int32Array(numFacts + 1);
  for (let i = 0; i < items.length; i++) cnt[items[i]! + 1]!++;
  for (let f = 0; f < numFacts; f++) cnt[f + 1]! += cnt[f]!;
  const out = new Int32Array(items.length);
  const fill = cnt.slice(0, numFacts);
  for (let o = 0; o < numOps; o++) {
    for (let k = start[o]!; k < start[o + 1]!; k++) out[fill[items[k]!]!++] = o;
  }
  return [cnt, out];
}

/** Result of `goalRelevance`: 1 per relevant operator / fact; `factWords` is the fact mask packed like a state. */
export interface Relevance {
  ops: Uint8Array;
  facts: Uint8Array;
  factWords: Uint32Array;
  numRelevantOps: number;
  numRelevantFacts: number;
}

/**
 * Backward relevance (as Fast Downward's translator does it): a fact is relevant if it is a goal,
 * a precondition (positive or negative) of a relevant operator, a condition of a relevant
 * conditional effect of one, or in the body of an axiom deriving a relevant fact; an operator
 * is relevant if it adds or deletes a relevant fact (conditionally or not), not counting adds
 * of its own preconditions and deletes of its own negative preconditions (no-ops). Returns 1 per
 * relevant operator. Irrelevant operators only change facts no goal, relevant operator or
 * relevant axiom ever reads, so dropping them from a plan keeps it valid and no dearer, and
 * states that differ only in irrelevant facts have the same plans: searching with relevant
 * operators over states projected onto relevant facts is optimal (Fast Downward's translator
 * drops irrelevant variables the same way). Only for plain optimal search: the labeller needs
 * every operator and the full states.
 */
export function goalRelevance(task: GroundTask): Relevance {
  const nf = task.numFacts;
  const rel = new Uint8Array(nf);
  const opRel = new Uint8Array(task.numOps);
  const work: number[] = [];
  const mark = (f: number): void => {
    if (rel[f] === 0) {
      rel[f] = 1;
      work.push(f);
    }
  };
  // fact -> operators affecting it, fact -> axioms deriving it
  // (an add of one of the op's own preconditions or a delete of one of its negative
  // preconditions changes nothing: Rovers' communicate actions re-add `available` and
  // `channel_free`, which would otherwise make every communicate action relevant)
  const affects: number[][] = Array.from({ length: nf }, () => []);
  const stamp = new Int32Array(nf).fill(-1);
  const negStamp = new Int32Array(nf).fill(-1);
  for (let o = 0; o < task.numOps; o++) {
    for (let i = task.preStart[o]!; i < task.preStart[o + 1]!; i++) stamp[task.pre[i]!] = o;
    for (let i = task.negPreStart[o]!; i < task.negPreStart[o + 1]!; i++) negStamp[task.negPre[i]!] = o;
    for (let i = task.addStart[o]!; i < task.addStart[o + 1]!; i++) {
      const f = task.add[i]!;
      if (stamp[f] !== o) affects[f]!.push(o);
    }
    for (let i = task.delStart[o]!; i < task.delStart[o + 1]!; i++) {
      const f = task.del[i]!;
      if (negStamp[f] !== o) affects[f]!.push(o);
    }
    for (let e = task.ceStart[o]!; e < task.ceStart[o + 1]!; e++) {
      const f = task.ceFact[e]!;
      if (task.ceIsAdd[e] ? stamp[f] !== o : negStamp[f] !== o) affects[f]!.push(o);
    }
  }
  const derivedBy: number[][] = Array.from({ length: nf }, () => []);
  for (let x = 0; x < task.numAxioms; x++) derivedBy[task.axHead[x]!]!.push(x);
  for (const f of task.goalPos) mark(f);
  for (const f of task.goalNeg) mark(f);
  while (work.length > 0) {
    const f = work.pop()!;
    for (const x of derivedBy[f]!) {
      for (let i = task.axBodyStart[x]!; i < task.axBodyStart[x + 1]!; i++) mark(task.axBody[i]!);
      for (let i = task.axNegBodyStart[x]!; i < task.axNegBodyStart[x + 1]!; i++) mark(task.axNegBody[i]!);
    }
    for (const o of affects[f]!) {
      if (opRel[o] === 0) {
        opRel[o] = 1;
        for (let i = task.preStart[o]!; i < task.preStart[o + 1]!; i++) mark(task.pre[i]!);
        for (let i = task.negPreStart[o]!; i < task.negPreStart[o + 1]!; i++) mark(task.negPre[i]!);
      }
      // conditions of o's conditional effects on f matter too
      for (let e = task.ceStart[o]!; e < task.ceStart[o + 1]!; e++) {
        if (task.ceFact[e] !== f) continue;
        for (let i = task.ceCondStart[e]!; i < task.ceCondStart[e + 1]!; i++) mark(task.ceCond[i]!);
        for (let i = task.ceNegCondStart[e]!; i < task.ceNegCondStart[e + 1]!; i++) mark(task.ceNegCond[i]!);
      }
    }
  }
  const factWords = new Uint32Array(task.words);
  let numRelevantFacts = 0;
  for (let f = 0; f < nf; f++) {
    if (rel[f] === 1) {
      factWords[f >>> 5]! |= 1 << (f & 31);
      numRelevantFacts++;
    }
  }
  let numRelevantOps = 0;
  for (let o = 0; o < task.numOps; o++) numRelevantOps += opRel[o]!;
  return { ops: opRel, facts: rel, factWords, numRelevantOps, numRelevantFacts };
}

/**
 * A position per operator for the order A* generates successors in, after Fast Downward's
 * successor generator: operators sorted by their preconditions (each list sorted by causal rank,
 * compared lexicographically, a prefix first), ties by id. Only tie-breaking among equal (f, h)
 * depends on it.
 */
export function successorOrder(task: GroundTask, rank: Int32Array = causalFactRank(task)): Int32Array {
  const n = task.numOps;
  const keys: Int32Array[] = [];
  for (let o = 0; o < n; o++) {
    const k = new Int32Array(task.preStart[o + 1]! - task.preStart[o]!);
    for (let i = 0; i < k.length; i++) k[i] = rank[task.pre[task.preStart[o]! + i]!]!;
    keys.push(k.sort());
  }
  const ids = Array.from({ length: n }, (_, o) => o);
  ids.sort((a, b) => {
    const x = keys[a]!;
    const y = keys[b]!;
    const m = Math.min(x.length, y.length);
    for (let i = 0; i < m; i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
    return x.length - y.length || a - b;
  });
  const pos = new Int32Array(n);
  for (let i = 0; i < n; i++) pos[ids[i]!] = i;
  return pos;
}

/**
 * A rank per fact (TRUE and GOAL last): facts ordered like Fast Downward's translator orders
 * variables, by the causal graph. Edges run from each precondition of an operator to each fact it
 * adds or deletes; strongly connected components come in topological order (causes before
 * effects), facts inside one component by id. Only tie-breaking depends on it, never a value's
 * correctness; with Fast Downward's own order injected, LM-Cut and A* reproduce its expansions
 * (bench/results/fd-order.txt).
 */
export function causalFactRank(task: GroundTask, numFacts: number = task.numFacts + 2): Int32Array {
  const nf = task.numFacts;
  // CSR adjacency
  const deg = new Int32Array(nf + 1);
  for (let o = 0; o < task.numOps; o++) {
    const ne = task.addStart[o + 1]! - task.addStart[o]! + task.delStart[o + 1]! - task.delStart[o]!;
    for (let i = task.preStart[o]!; i < task.preStart[o + 1]!; i++) deg[task.pre[i]! + 1]! += ne;
  }
  for (let f = 0; f < nf; f++) deg[f + 1]! += deg[f]!;
  const adj = new Int32Array(deg[nf]!);
  const fill = deg.slice(0, nf);
  for (let o = 0; o < task.numOps; o++) {
    for (let i = task.preStart[o]!; i < task.preStart[o + 1]!; i++) {
      const p = task.pre[i]!;
      for (let j = task.addStart[o]!; j < task.addStart[o + 1]!; j++) adj[fill[p]!++] = task.add[j]!;
      for (let j = task.delStart[o]!; j < task.delStart[o + 1]!; j++) adj[fill[p]!++] = task.del[j]!;
    }
  }
  // iterative Tarjan: components are completed sinks first
  const index = new Int32Array(nf).fill(-1);
  const low = new Int32Array(nf);
  const onStack = new Uint8Array(nf);
  const stack = new Int32Array(nf);
  let sp = 0;
  const callV = new Int32Array(nf);
  const callE = new Int32Array(nf);
  const comp = new Int32Array(nf);
  let numComps = 0;
  let counter = 0;
  for (let r = 0; r < nf; r++) {
    if (index[r] !== -1) continue;
    let cp = 0;
    callV[cp] = r;
    callE[cp++] = deg[r]!;
    index[r] = low[r] = counter++;
    stack[sp++] = r;
    onStack[r] = 1;
    while (cp > 0) {
      const v = callV[cp - 1]!;
      const e = callE[cp - 1]!;
      if (e < deg[v + 1]!) {
        callE[cp - 1] = e + 1;
        const w = adj[e]!;
        if (w === v) continue;
        if (index[w] === -1) {
          index[w] = low[w] = counter++;
          stack[sp++] = w;
          onStack[w] = 1;
          callV[cp] = w;
          callE[cp++] = deg[w]!;
        } else if (onStack[w] === 1 && index[w]! < low[v]!) low[v] = index[w]!;
      } else {
        cp--;
        if (cp > 0) {
          const u = callV[cp - 1]!;
          if (low[v]! < low[u]!) low[u] = low[v]!;
        }
        if (low[v] === index[v]) {
          let w: number;
          do {
            w = stack[--sp]!;
            onStack[w] = 0;
            comp[w] = numComps;
          } while (w !== v);
          numComps++;
        }
      }
    }
  }
  // topological order = reverse completion order; inside a component, by fact id
  const compStart = new Int32Array(numComps + 1);
  for (let f = 0; f < nf; f++) compStart[numComps - comp[f]!]!++;
  for (let c = 0; c < numComps; c++) compStart[c + 1]! += compStart[c]!;
  const rank = new Int32Array(numFacts);
  for (let f = 0; f < nf; f++) rank[f] = compStart[numComps - 1 - comp[f]!]!++;
  for (let f = nf; f < numFacts; f++) rank[f] = f;
  return rank;
}

/**
 * The delete relaxation of an FDR task, as Fast Downward's LM-Cut builds it: one relaxed fact
 * per (variable, value), numbered variable by variable; one relaxed operator per FDR operator, in
 * order, with its prevail conditions then its effect preconditions, adding its new values;
 * TRUE and GOAL as in `buildRelaxedTask`. States are FDR states: exactly one fact per variable,
 * enqueued in fact id order (see `fdrStateOf`).
 */
export function buildRelaxedTaskFromFdr(fdr: FdrTask): RelaxedTask {
  const offset = new Int32Array(fdr.ranges.length + 1);
  for (let v = 0; v < fdr.ranges.length; v++) offset[v + 1] = offset[v]! + fdr.ranges[v]!;
  const numProps = offset[fdr.ranges.length]!;
  const TRUE = numProps;
  const GOAL = numProps + 1;
  const numFacts = numProps + 2;
  const pres: number[][] = [];
  const effs: number[][] = [];
  const costs: number[] = [];
  const origins: number[] = [];
  for (const op of fdr.ops) {
    const pre: number[] = [];
    for (let i = 0; i < op.prevail.length; i += 2) pre.push(offset[op.prevail[i]!]! + op.prevail[i + 1]!);
    for (let i = 0; i < op.prePost.length; i += 3) {
      if (op.prePost[i + 1]! === -1) continue;
      const p = offset[op.prePost[i]!]! + op.prePost[i + 1]!;
      if (!pre.includes(p)) pre.push(p);
    }
    if (pre.length === 0) pre.push(TRUE);
    const eff: number[] = [];
    for (let i = 0; i < op.prePost.length; i += 3) eff.push(offset[op.prePost[i]!]! + op.prePost[i + 2]!);
    pres.push(pre);
    effs.push(eff);
    costs.push(op.cost);
    origins.push(op.origin);
  }
  const goalOp = pres.length;
  const goalPre: number[] = [];
  for (let i = 0; i < fdr.goal.length; i += 2) goalPre.push(offset[fdr.goal[i]!]! + fdr.goal[i + 1]!);
  pres.push(goalPre.length > 0 ? goalPre : [TRUE]);
  effs.push([GOAL]);
  costs.push(0);
  origins.push(-1);
  const csr = (lists: number[][]): [Int32Array, Int32Array] => {
    const start = new Int32Array(lists.length + 1);
    for (let k = 0; k < lists.length; k++) start[k + 1] = start[k]! + lists[k]!.length;
    const items = new Int32Array(start[lists.length]!);
    let j = 0;
    for (const l of lists) for (const x of l) items[j++] = x;
    return [start, items];
  };
  const [preStart, pre] = csr(pres);
  const [effStart, eff] = csr(effs);
  const numOps = pres.length;
  const [preOfStart, preOf] = invert(numFacts, numOps, preStart, pre);
  const [addedByStart, addedBy] = invert(numFacts, numOps, effStart, eff);
  let maxCost = 0;
  for (const c of costs) if (c > maxCost) maxCost = c;
  return {
    numFacts,
    trueFact: TRUE,
    goalFact: GOAL,
    numOps,
    goalOp,
    preStart,
    pre,
    effStart,
    eff,
    cost: Int32Array.from(costs),
    origin: Int32Array.from(origins),
    preOfStart,
    preOf,
    addedByStart,
    addedBy,
    hasConditionalEffects: false,
    maxCost,
    factOrder: Int32Array.from({ length: numProps }, (_, k) => k),
    factTest: Int32Array.from({ length: numProps }, (_, k) => k),
    factNeg: new Uint8Array(numProps),
    numComplements: 0,
  };
}

/**
 * Maps task states to FDR states (bitsets over `buildRelaxedTaskFromFdr`'s facts): per
 * variable, the value whose fact holds, else its "none of those" value. Returns false for a
 * state that breaks a mutex group (two values of a variable hold, or none and there is no
 * "none of those" value): such a state is unreachable, and its FDR image would not be a
 * relaxation of it.
 */
/**
 * `factWords` (a goal-relevance projection) widened to whole finite-domain variables: a variable
 * with one kept value keeps all of them. Fast Downward's translator keeps or drops whole
 * variables; a projection that cleared the true value of a kept variable left the state with no
 * value for it, and `FdrStateMap` then had to send it to the plain relaxation.
 */
export function relevanceByVariable(fdr: FdrTask, factWords: Uint32Array): Uint32Array {
  const out = factWords.slice();
  const has = (f: number): boolean => ((factWords[f >>> 5]! >>> (f & 31)) & 1) === 1;
  for (const vals of fdr.values) {
    let keep = false;
    for (let x = 0; x < vals.length && !keep; x++) if (vals[x]! >= 0 && has(vals[x]!)) keep = true;
    if (!keep) continue;
    for (let x = 0; x < vals.length; x++) {
      const f = vals[x]!;
      if (f >= 0) out[f >>> 5]! |= 1 << (f & 31);
    }
  }
  return out;
}

export class FdrStateMap {
  readonly words: number;
  // variable v's atoms are k in atomStart[v] .. atomStart[v+1]: task fact atomFact[k] true ->
  // proposition atomProp[k]; none true -> noneProp[v] (-1: the state breaks the view)
  readonly atomStart: Int32Array;
  readonly atomFact: Int32Array;
  readonly atomProp: Int32Array;
  readonly noneProp: Int32Array;

  constructor(fdr: FdrTask) {
    const nv = fdr.ranges.length;
    let numProps = 0;
    for (let v = 0; v < nv; v++) numProps += fdr.ranges[v]!;
    this.words = (numProps + 2 + 31) >>> 5;
    this.atomStart = new Int32Array(nv + 1);
    this.noneProp = new Int32Array(nv).fill(-1);
    const facts: number[] = [];
    const props: number[] = [];
    let p = 0;
    for (let v = 0; v < nv; v++) {
      const vals = fdr.values[v]!;
      for (let x = 0; x < vals.length; x++, p++) {
        if (vals[x]! < 0) this.noneProp[v] = p;
        else {
          facts.push(vals[x]!);
          props.push(p);
        }
      }
      this.atomStart[v + 1] = facts.length;
    }
    this.atomFact = Int32Array.from(facts);
    this.atomProp = Int32Array.from(props);
  }

  map(state: Uint32Array, out: Uint32Array): boolean {
    out.fill(0);
    const start = this.atomStart;
    const fact = this.atomFact;
    const prop = this.atomProp;
    for (let v = 0, nv = this.noneProp.length; v < nv; v++) {
      let q = -1;
      for (let k = start[v]!, e = start[v + 1]!; k < e; k++) {
        const f = fact[k]!;
        if ((state[f >>> 5]! >>> (f & 31)) & 1) {
          if (q !== -1) return false;
          q = prop[k]!;
        }
      }
      if (q === -1) q = this.noneProp[v]!;
      if (q === -1) return false;
      out[q >>> 5]! |= 1 << (q & 31);
    }
    return true;
  }
}

/**
 * `successorOrder` for the FDR view: Fast Downward's successor generator yields applicable
 * operators in the order of their sorted (variable, value) precondition lists, a prefix first,
 * ties by FDR operator index; a task operator takes the position of its first FDR operator.
 * Operators without one (never applicable, or irrelevant to the goal) come last, by id.
 */
export function fdrSuccessorOrder(task: GroundTask, fdr: FdrTask): Int32Array {
  const keys = fdr.ops.map((op) => {
    const pairs: [number, number][] = [];
    for (let i = 0; i < op.prevail.length; i += 2) pairs.push([op.prevail[i]!, op.prevail[i + 1]!]);
    for (let i = 0; i < op.prePost.length; i += 3) if (op.prePost[i + 1]! !== -1) pairs.push([op.prePost[i]!, op.prePost[i + 1]!]);
    pairs.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    return pairs;
  });
  const ids = keys.map((_, k) => k);
  ids.sort((a, b) => {
    const x = keys[a]!;
    const y = keys[b]!;
    for (let i = 0, n = Math.min(x.length, y.length); i < n; i++) {
      const c = x[i]![0] - y[i]![0] || x[i]![1] - y[i]![1];
      if (c !== 0) return c;
    }
    return x.length - y.length || a - b;
  });
  const pos = new Int32Array(task.numOps).fill(-1);
  let r = 0;
  for (const k of ids) {
    const o = fdr.ops[k]!.origin;
    if (pos[o] === -1) pos[o] = r++;
  }
  for (let o = 0; o < task.numOps; o++) if (pos[o] === -1) pos[o] = r++;
  return pos;
}
