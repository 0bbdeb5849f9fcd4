/**
 * Which goal facts the delete relaxation proves unreachable from a state: the facts a dead-end
 * critique can name. Delete effects are ignored; an operator applies once all its positive
 * preconditions are reached, a conditional effect fires once its operator applies and its
 * positive conditions are reached, an axiom derives its head once its body's positive facts are
 * reached. Negative conditions are ignored, which only lets more facts be reached: a fact not
 * reached this way is false in every state reachable from the start state (sound, not complete).
 */
import type { GroundTask } from "../task/types.js";

/** Fact-to-user indexes of a task, made once per task. */
interface RelaxedIndex {
  /** Operators with fact f as a positive precondition (one entry per occurrence), CSR. */
  opByPreStart: Int32Array;
  opByPre: Int32Array;
  /** Conditional effects with fact f as a positive condition, CSR. */
  ceByCondStart: Int32Array;
  ceByCond: Int32Array;
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
  const ax = invert(nf, task.axBodyStart, task.axBody);
  const numCe = task.ceStart[task.numOps] ?? 0;
  const ceOp = new Int32Array(numCe);
  for (let o = 0; o < task.numOps; o++) for (let e = task.ceStart[o]!; e < task.ceStart[o + 1]!; e++) ceOp[e] = o;
  const freeOps: number[] = [];
  for (let o = 0; o < task.numOps; o++) if (task.preStart[o] === task.preStart[o + 1]) freeOps.push(o);
  const freeAxioms: number[] = [];
  for (let a = 0; a < task.numAxioms; a++) if (task.axBodyStart[a] === task.axBodyStart[a + 1]) freeAxioms.push(a);
  x = {
    opByPreStart: op.s,
    opByPre: op.xs,
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

/**
 * The positive goal facts (task.goalPos, in goal order) that are not reached by the delete
 * relaxation from `state`: no sequence of actions from `state` can make any of them true.
 */
export function relaxedUnreachableGoals(task: GroundTask, state: Uint32Array): number[] {
  const x = indexOf(task);
  const nf = task.numFacts;
  const reached = new Uint8Array(nf);
  const queue = new Int32Array(nf);
  let qh = 0;
  let qt = 0;
  const reach = (f: number): void => {
    if (reached[f] === 0) {
      reached[f] = 1;
      queue[qt++] = f;
    }
  };
  const opLeft = new Int32Array(task.numOps);
  for (let o = 0; o < task.numOps; o++) opLeft[o] = task.preStart[o + 1]! - task.preStart[o]!;
  const numCe = x.ceOp.length;
  const ceLeft = new Int32Array(numCe);
  for (let e = 0; e < numCe; e++) ceLeft[e] = task.ceCondStart[e + 1]! - task.ceCondStart[e]!;
  const axLeft = new Int32Array(task.numAxioms);
  for (let a = 0; a < task.numAxioms; a++) axLeft[a] = task.axBodyStart[a + 1]! - task.axBodyStart[a]!;
  const fired = new Uint8Array(task.numOps);
  const fire = (o: number): void => {
    fired[o] = 1;
    for (let i = task.addStart[o]!, n = task.addStart[o + 1]!; i < n; i++) reach(task.add[i]!);
    for (let e = task.ceStart[o]!, n = task.ceStart[o + 1]!; e < n; e++) if (ceLeft[e] === 0 && task.ceIsAdd[e]) reach(task.ceFact[e]!);
  };
  for (let f = 0; f < nf; f++) if ((state[f >>> 5]! & (1 << (f & 31))) !== 0) reach(f);
  for (let i = 0; i < x.freeOps.length; i++) fire(x.freeOps[i]!);
  for (let i = 0; i < x.freeAxioms.length; i++) reach(task.axHead[x.freeAxioms[i]!]!);
  while (qh < qt) {
    const f = queue[qh++]!;
    for (let i = x.opByPreStart[f]!, n = x.opByPreStart[f + 1]!; i < n; i++) {
      const o = x.opByPre[i]!;
      if (--opLeft[o]! === 0) fire(o);
    }
    for (let i = x.ceByCondStart[f]!, n = x.ceByCondStart[f + 1]!; i < n; i++) {
      const e = x.ceByCond[i]!;
      if (--ceLeft[e]! === 0 && fired[x.ceOp[e]!] && task.ceIsAdd[e]) reach(task.ceFact[e]!);
    }
    for (let i = x.axByBodyStart[f]!, n = x.axByBodyStart[f + 1]!; i < n; i++) {
      const a = x.axByBody[i]!;
      if (--axLeft[a]! === 0) reach(task.axHead[a]!);
    }
  }
  const out: number[] = [];
  for (let i = 0; i < task.goalPos.length; i++) {
    const g = task.goalPos[i]!;
    if (reached[g] === 0 && !out.includes(g)) out.push(g);
  }
  return out;
}
