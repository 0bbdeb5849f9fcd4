/**
 * Which goal facts the delete relaxation proves unreachable from a state: the facts a dead-end
 * critique can name. Delete effects are ignored; an operator applies once all its positive
 * preconditions are reached, a conditional effect fires once its operator applies and its
 * positive conditions are reached, an axiom derives its head once its body's positive facts are
 * reached. A negative condition "f is false" is reached once f is false in the start state or an
 * applied operator deletes f (the usual compilation of negative preconditions into facts of their
 * own), so a step into a state where a needed fact can never become false again is named too
 * (issue 51), and so are an axiom's negative conditions; the negation of a derived fact is taken
 * as reached (axioms are re-evaluated in every state). Either
 * way more is reached than in any real plan: a fact (or negation) not reached this way is false
 * (true) in every state reachable from the start state (sound, not complete).
 */
import type { GroundTask } from "../task/types.js";

/** Fact-to-user indexes of a task, made once per task. */
interface RelaxedIndex {
  /** Operators with fact f as a positive precondition (one entry per occurrence), CSR. */
  opByPreStart: Int32Array;
  opByPre: Int32Array;
  /** Operators with "fact f is false" as a precondition, CSR. */
  opByNegStart: Int32Array;
  opByNeg: Int32Array;
  /** Conditional effects with "fact f is false" as a condition, CSR. */
  ceByNegStart: Int32Array;
  ceByNeg: Int32Array;
  /** Conditional effects with fact f as a positive condition, CSR. */
  ceByCondStart: Int32Array;
  ceByCond: Int32Array;
  /** Axioms with "fact f is false" in their body, CSR. */
  axByNegStart: Int32Array;
  axByNeg: Int32Array;
  /** Axioms with fact f in their positive body, CSR. */
  axByBodyStart: Int32Array;
  axByBody: Int32Array;
  /** Owning operator of each conditional effect. */
  ceOp: Int32Array;
  /** Operators, conditional effects and axioms without positive conditions. */
  freeOps: Int32Array;
  freeAxioms: Int32Array;
}

const indexes = new WeakMap<GroundTask, RelaxedIndex>();

/** CSR fact -> owner lists from an owner -> facts CSR (`start` has owners + 1 entries). */
function invert(numFacts: number, start: Int32Array, items: Int32Array): { s: Int32Array; xs: Int32Array } {
  const s = new Int32Array(numFacts + 1);
  for (let i = 0; i < items.length; i++) s[items[i]! + 1]!++;
  for (let f = 0; f < numFacts; f++) s[f + 1]! += s[f]!;
  const xs = new Int32Array(items.length);
  const fill = s.slice(0, numFacts);
  for (let o = 0; o + 1 < start.length; o++) for (let i = start[o]!; i < start[o + 1]!; i++) xs[fill[items[i]!]!++] = o;
  return { s, xs };
}

function indexOf(task: GroundTask): RelaxedIndex {
  let x = indexes.get(task);
  if (x !== undefined) return x;
  const nf = task.numFacts;
  const op = invert(nf, task.preStart, task.pre);
  const ce = invert(nf, task.ceCondStart, task.ceCond);
  const opN = invert(nf, task.negPreStart, task.negPre);
  const ceN = invert(nf, task.ceNegCondStart, task.ceNegCond);
  const axN = invert(nf, task.axNegBodyStart, task.axNegBody);
  const ax = invert(nf, task.axBodyStart, task.axBody);
  const numCe = task.ceStart[task.numOps] ?? 0;
  const ceOp = new Int32Array(numCe);
  for (let o = 0; o < task.numOps; o++) for (let e = task.ceStart[o]!; e < task.ceStart[o + 1]!; e++) ceOp[e] = o;
  const freeOps: number[] = [];
  for (let o = 0; o < task.numOps; o++) if (task.preStart[o] === task.preStart[o + 1] && task.negPreStart[o] === task.negPreStart[o + 1]) freeOps.push(o);
  const freeAxioms: number[] = [];
  for (let a = 0; a < task.numAxioms; a++) if (task.axBodyStart[a] === task.axBodyStart[a + 1] && task.axNegBodyStart[a] === task.axNegBodyStart[a + 1]) freeAxioms.push(a);
  x = {
    opByPreStart: op.s,
    opByPre: op.xs,
    opByNegStart: opN.s,
    opByNeg: opN.xs,
    ceByNegStart: ceN.s,
    ceByNeg: ceN.xs,
    axByNegStart: axN.s,
    axByNeg: axN.xs,
    ceByCondStart: ce.s,
    ceByCond: ce.xs,
    axByBodyStart: ax.s,
    axByBody: ax.xs,
    ceOp,
    freeOps: Int32Array.from(freeOps),
    freeAxioms: Int32Array.from(freeAxioms),
  };
  indexes.set(task, x);
  return x;
}

/** What the relaxation reaches from a state: facts (`pos[f]`) and negations (`neg[f]`: f can be false). */
export interface RelaxedReach {
  pos: Uint8Array;
  neg: Uint8Array;
}

/** The facts and negations the delete relaxation reaches from `state` (see the file's comment). */
export function relaxedReach(task: GroundTask, state: Uint32Array): RelaxedReach {
  const x = indexOf(task);
  const nf = task.numFacts;
  // literal l: fact f (l = f) or its negation (l = nf + f)
  const reached = new Uint8Array(2 * nf);
  const queue = new Int32Array(2 * nf);
  let qh = 0;
  let qt = 0;
  const reach = (l: number): void => {
    if (reached[l] === 0) {
      reached[l] = 1;
      queue[qt++] = l;
    }
  };
  const opLeft = new Int32Array(task.numOps);
  for (let o = 0; o < task.numOps; o++) opLeft[o] = task.preStart[o + 1]! - task.preStart[o]! + task.negPreStart[o + 1]! - task.negPreStart[o]!;
  const numCe = x.ceOp.length;
  const ceLeft = new Int32Array(numCe);
  for (let e = 0; e < numCe; e++) ceLeft[e] = task.ceCondStart[e + 1]! - task.ceCondStart[e]! + task.ceNegCondStart[e + 1]! - task.ceNegCondStart[e]!;
  const axLeft = new Int32Array(task.numAxioms);
  for (let a = 0; a < task.numAxioms; a++) axLeft[a] = task.axBodyStart[a + 1]! - task.axBodyStart[a]! + task.axNegBodyStart[a + 1]! - task.axNegBodyStart[a]!;
  const fired = new Uint8Array(task.numOps);
  const ceEffect = (e: number): void => reach(task.ceIsAdd[e] ? task.ceFact[e]! : nf + task.ceFact[e]!);
  const fire = (o: number): void => {
    fired[o] = 1;
    for (let i = task.addStart[o]!, n = task.addStart[o + 1]!; i < n; i++) reach(task.add[i]!);
    for (let i = task.delStart[o]!, n = task.delStart[o + 1]!; i < n; i++) reach(nf + task.del[i]!);
    for (let e = task.ceStart[o]!, n = task.ceStart[o + 1]!; e < n; e++) if (ceLeft[e] === 0) ceEffect(e);
  };
  for (let f = 0; f < nf; f++) {
    if ((state[f >>> 5]! & (1 << (f & 31))) !== 0) reach(f);
    else reach(nf + f);
    // a derived fact is re-derived in every state: its negation is taken as reachable
    if (task.factDerived[f] === 1) reach(nf + f);
  }
  for (let i = 0; i < x.freeOps.length; i++) fire(x.freeOps[i]!);
  for (let i = 0; i < x.freeAxioms.length; i++) reach(task.axHead[x.freeAxioms[i]!]!);
  while (qh < qt) {
    const l = queue[qh++]!;
    const neg = l >= nf;
    const f = neg ? l - nf : l;
    const opS = neg ? x.opByNegStart : x.opByPreStart;
    const opX = neg ? x.opByNeg : x.opByPre;
    for (let i = opS[f]!, n = opS[f + 1]!; i < n; i++) {
      const o = opX[i]!;
      if (--opLeft[o]! === 0) fire(o);
    }
    const ceS = neg ? x.ceByNegStart : x.ceByCondStart;
    const ceX = neg ? x.ceByNeg : x.ceByCond;
    for (let i = ceS[f]!, n = ceS[f + 1]!; i < n; i++) {
      const e = ceX[i]!;
      if (--ceLeft[e]! === 0 && fired[x.ceOp[e]!]) ceEffect(e);
    }
    const axS = neg ? x.axByNegStart : x.axByBodyStart;
    const axX = neg ? x.axByNeg : x.axByBody;
    for (let i = axS[f]!, n = axS[f + 1]!; i < n; i++) {
      const a = axX[i]!;
      if (--axLeft[a]! === 0) reach(task.axHead[a]!);
    }
  }
  return { pos: reached.subarray(0, nf), neg: reached.subarray(nf) };
}

/**
 * The positive goal facts (task.goalPos, in goal order) that are not reached by the delete
 * relaxation from `state`: no sequence of actions from `state` can make any of them true.
 */
export function relaxedUnreachableGoals(task: GroundTask, state: Uint32Array): number[] {
  return unreachableGoals(task, relaxedReach(task, state)).pos;
}

/** The goal facts (positive and negative, in goal order) a relaxed reach shows unreachable. */
export function unreachableGoals(task: GroundTask, r: RelaxedReach): { pos: number[]; neg: number[] } {
  const pos: number[] = [];
  for (let i = 0; i < task.goalPos.length; i++) {
    const g = task.goalPos[i]!;
    if (r.pos[g] === 0 && !pos.includes(g)) pos.push(g);
  }
  const neg: number[] = [];
  for (let i = 0; i < task.goalNeg.length; i++) {
    const g = task.goalNeg[i]!;
    if (r.neg[g] === 0 && !neg.includes(g)) neg.push(g);
  }
  return { pos, neg };
}
