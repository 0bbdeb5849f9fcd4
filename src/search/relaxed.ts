import type { GroundTask } from "../task/types.js";

/**
 * The delete relaxation of a GroundTask in CSR form, shared by h^max and LM-Cut.
 *
 * Facts 0..numFacts-1 of the task, plus an artificial fact TRUE (always reached; the
 * precondition of operators without preconditions) and GOAL (added by the artificial goal
 * operator, whose preconditions are the positive goals, cost 0).
 * Negative preconditions, negative goals and deletes are ignored (a relaxation: admissible).
 * Conditional effects become one relaxed operator per distinct condition set (operator
 * preconditions plus effect conditions), with the operator's cost. Axioms become zero-cost
 * relaxed operators (negated body literals ignored).
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
}

/** Build the relaxed task (once per GroundTask). */
export function buildRelaxedTask(task: GroundTask): RelaxedTask {
  const nf = task.numFacts;
  const TRUE = nf;
  const GOAL = nf + 1;
  const numFacts = nf + 2;
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

  for (let o = 0; o < task.numOps; o++) {
    const pre = Array.from(task.pre.subarray(task.preStart[o]!, task.preStart[o + 1]!));
    const add = Array.from(task.add.subarray(task.addStart[o]!, task.addStart[o + 1]!));
    const cost = task.opCost[o]!;
    addOp(pre, add, cost, o);
    // conditional add effects grouped by their condition set
    const groups = new Map<string, { cond: number[]; facts: number[] }>();
    for (let e = task.ceStart[o]!; e < task.ceStart[o + 1]!; e++) {
      if (!task.ceIsAdd[e]) continue;
      const cond = Array.from(task.ceCond.subarray(task.ceCondStart[e]!, task.ceCondStart[e + 1]!)).sort((a, b) => a - b);
      const key = cond.join(",");
      let g = groups.get(key);
      if (!g) groups.set(key, (g = { cond, facts: [] }));
      g.facts.push(task.ceFact[e]!);
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
    const body = Array.from(task.axBody.subarray(task.axBodyStart[x]!, task.axBodyStart[x + 1]!));
    addOp(body, [task.axHead[x]!], 0, -1);
  }
  const goalOp = pres.length;
  addOp(Array.from(task.goalPos), [GOAL], 0, -1);

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
 * is relevant if it adds or deletes a relevant fact (conditionally or not). Returns 1 per
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
  const affects: number[][] = Array.from({ length: nf }, () => []);
  for (let o = 0; o < task.numOps; o++) {
    for (let i = task.addStart[o]!; i < task.addStart[o + 1]!; i++) affects[task.add[i]!]!.push(o);
    for (let i = task.delStart[o]!; i < task.delStart[o + 1]!; i++) affects[task.del[i]!]!.push(o);
    for (let e = task.ceStart[o]!; e < task.ceStart[o + 1]!; e++) affects[task.ceFact[e]!]!.push(o);
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
