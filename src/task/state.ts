/**
 * Packed states (bitsets over facts) and the transition function: applicability, operator
 * application with conditional effects, stratified axiom evaluation, goal test.
 */
import type { GroundTask } from "./types.js";

/** Is fact `f` true in `state`? */
export function hasFact(state: Uint32Array, f: number): boolean {
  return (state[f >>> 5]! & (1 << (f & 31))) !== 0;
}

/** Set fact `f` to `value` (default true) in place. */
export function setFact(state: Uint32Array, f: number, value = true): void {
  if (value) state[f >>> 5]! |= 1 << (f & 31);
  else state[f >>> 5]! &= ~(1 << (f & 31));
}

/** A fresh all-false state of the task. */
export function emptyState(task: GroundTask): Uint32Array {
  return new Uint32Array(task.words);
}

/** Are all positive preconditions of `op` true and all negative ones false in `state`? */
export function isApplicable(task: GroundTask, state: Uint32Array, op: number): boolean {
  const pre = task.pre;
  for (let i = task.preStart[op]!, e = task.preStart[op + 1]!; i < e; i++) {
    const f = pre[i]!;
    if ((state[f >>> 5]! & (1 << (f & 31))) === 0) return false;
  }
  const neg = task.negPre;
  for (let i = task.negPreStart[op]!, e = task.negPreStart[op + 1]!; i < e; i++) {
    const f = neg[i]!;
    if ((state[f >>> 5]! & (1 << (f & 31))) !== 0) return false;
  }
  return true;
}

let fireBuf = new Int32Array(64);

/**
 * Apply `op` to `state` (applicability is not checked): conditional effects are evaluated on
 * the old state, then deletes, then adds (add wins), then axioms. Writes into `out` (which may
 * be `state` itself) or a new array, and returns it.
 */
export function applyOp(task: GroundTask, state: Uint32Array, op: number, out?: Uint32Array): Uint32Array {
  const res = out ?? new Uint32Array(task.words);
  // Conditional effects fire on the state before the operator.
  let nFired = 0;
  const ce0 = task.ceStart[op]!;
  const ce1 = task.ceStart[op + 1]!;
  if (ce1 > ce0) {
    if (fireBuf.length < ce1 - ce0) fireBuf = new Int32Array(2 * (ce1 - ce0));
    for (let e = ce0; e < ce1; e++) {
      let ok = true;
      for (let i = task.ceCondStart[e]!, n = task.ceCondStart[e + 1]!; i < n && ok; i++) {
        const f = task.ceCond[i]!;
        if ((state[f >>> 5]! & (1 << (f & 31))) === 0) ok = false;
      }
      for (let i = task.ceNegCondStart[e]!, n = task.ceNegCondStart[e + 1]!; i < n && ok; i++) {
        const f = task.ceNegCond[i]!;
        if ((state[f >>> 5]! & (1 << (f & 31))) !== 0) ok = false;
      }
      if (ok) fireBuf[nFired++] = e;
    }
  }
  if (res !== state) res.set(state);
  const del = task.del;
  for (let i = task.delStart[op]!, n = task.delStart[op + 1]!; i < n; i++) {
    const f = del[i]!;
    res[f >>> 5]! &= ~(1 << (f & 31));
  }
  for (let k = 0; k < nFired; k++) {
    const e = fireBuf[k]!;
    if (!task.ceIsAdd[e]) {
      const f = task.ceFact[e]!;
      res[f >>> 5]! &= ~(1 << (f & 31));
    }
  }
  const add = task.add;
  for (let i = task.addStart[op]!, n = task.addStart[op + 1]!; i < n; i++) {
    const f = add[i]!;
    res[f >>> 5]! |= 1 << (f & 31);
  }
  for (let k = 0; k < nFired; k++) {
    const e = fireBuf[k]!;
    if (task.ceIsAdd[e]) {
      const f = task.ceFact[e]!;
      res[f >>> 5]! |= 1 << (f & 31);
    }
  }
  if (task.numAxioms > 0) evaluateAxioms(task, res);
  return res;
}

interface AxiomInfo {
  derivedMask: Uint32Array;
  layerStart: number[];
}
const axiomInfo = new WeakMap<GroundTask, AxiomInfo>();

function info(task: GroundTask): AxiomInfo {
  let ai = axiomInfo.get(task);
  if (!ai) {
    const derivedMask = new Uint32Array(task.words);
    for (let f = 0; f < task.numFacts; f++) if (task.factDerived[f]) derivedMask[f >>> 5]! |= 1 << (f & 31);
    const layerStart: number[] = [0];
    for (let x = 1; x < task.numAxioms; x++) if (task.axLayer[x] !== task.axLayer[x - 1]) layerStart.push(x);
    layerStart.push(task.numAxioms);
    ai = { derivedMask, layerStart };
    axiomInfo.set(task, ai);
  }
  return ai;
}

/**
 * Recompute all derived facts of `state` in place: derived facts are reset to false, then the
 * axioms are applied stratum by stratum, each to a fixpoint. No-op for tasks without derived facts.
 */
export function evaluateAxioms(task: GroundTask, state: Uint32Array): void {
  const ai = info(task);
  const m = ai.derivedMask;
  for (let w = 0; w < m.length; w++) if (m[w]) state[w]! &= ~m[w]!;
  if (task.numAxioms === 0) return;
  const { axHead, axBodyStart, axBody, axNegBodyStart, axNegBody } = task;
  for (let l = 0; l + 1 < ai.layerStart.length; l++) {
    const a0 = ai.layerStart[l]!;
    const a1 = ai.layerStart[l + 1]!;
    for (let changed = true; changed; ) {
      changed = false;
      for (let x = a0; x < a1; x++) {
        const h = axHead[x]!;
        if (state[h >>> 5]! & (1 << (h & 31))) continue;
        let ok = true;
        for (let i = axBodyStart[x]!, n = axBodyStart[x + 1]!; i < n && ok; i++) {
          const f = axBody[i]!;
          if ((state[f >>> 5]! & (1 << (f & 31))) === 0) ok = false;
        }
        for (let i = axNegBodyStart[x]!, n = axNegBodyStart[x + 1]!; i < n && ok; i++) {
          const f = axNegBody[i]!;
          if ((state[f >>> 5]! & (1 << (f & 31))) !== 0) ok = false;
        }
        if (ok) {
          state[h >>> 5]! |= 1 << (h & 31);
          changed = true;
        }
      }
    }
  }
}

/** Does `state` satisfy the goal? */
export function isGoal(task: GroundTask, state: Uint32Array): boolean {
  const gp = task.goalPos;
  for (let i = 0; i < gp.length; i++) {
    const f = gp[i]!;
    if ((state[f >>> 5]! & (1 << (f & 31))) === 0) return false;
  }
  const gn = task.goalNeg;
  for (let i = 0; i < gn.length; i++) {
    const f = gn[i]!;
    if ((state[f >>> 5]! & (1 << (f & 31))) !== 0) return false;
  }
  return true;
}

/** Names of the true non-derived facts of `state`, sorted (static facts are not included). */
export function stateToFacts(task: GroundTask, state: Uint32Array): string[] {
  const out: string[] = [];
  for (let f = 0; f < task.numFacts; f++) if (!task.factDerived[f] && hasFact(state, f)) out.push(task.factNames[f]!);
  return out.sort();
}

/** A string key of a state, for tests and maps (not for hot paths: use StateRegistry). */
export function stateKey(state: Uint32Array): string {
  let s = "";
  for (let i = 0; i < state.length; i++) s += (i ? "." : "") + state[i]!.toString(16);
  return s;
}
