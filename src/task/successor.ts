/**
 * Successor generation through a precondition index: every operator is filed under one of its
 * positive precondition facts (the one fewest operators share), so a state only looks at the
 * operators keyed on its true facts, never at all operators.
 */
import type { GroundTask } from "./types.js";
import { sortNumbers } from "../util/sort.js";

/** Applicable-operator enumeration for one task. */
export class SuccessorGenerator {
  private readonly task: GroundTask;
  /** Operators filed under fact f: keyOps[keyStart[f] .. keyStart[f+1]]. */
  readonly keyStart: Int32Array;
  readonly keyOps: Int32Array;
  /** Operators without positive preconditions (checked in every state). */
  readonly unkeyed: Int32Array;
  private readonly preStart: Int32Array;
  private readonly pre: Int32Array;
  private readonly negStart: Int32Array;
  private readonly neg: Int32Array;

  constructor(task: GroundTask) {
    this.task = task;
    this.preStart = task.preStart;
    this.pre = task.pre;
    this.negStart = task.negPreStart;
    this.neg = task.negPre;
    const nf = task.numFacts;
    const freq = new Int32Array(nf);
    for (let i = 0; i < task.pre.length; i++) freq[task.pre[i]!]!++;
    const key = new Int32Array(task.numOps).fill(-1);
    const count = new Int32Array(nf + 1);
    const unkeyed: number[] = [];
    for (let o = 0; o < task.numOps; o++) {
      let best = -1;
      for (let i = task.preStart[o]!; i < task.preStart[o + 1]!; i++) {
        const f = task.pre[i]!;
        if (best < 0 || freq[f]! < freq[best]! || (freq[f] === freq[best] && f < best)) best = f;
      }
      key[o] = best;
      if (best < 0) unkeyed.push(o);
      else count[best]!++;
    }
    this.keyStart = new Int32Array(nf + 1);
    for (let f = 0; f < nf; f++) this.keyStart[f + 1] = this.keyStart[f]! + count[f]!;
    this.keyOps = new Int32Array(this.keyStart[nf]!);
    const fill = this.keyStart.slice(0, nf);
    for (let o = 0; o < task.numOps; o++) if (key[o]! >= 0) this.keyOps[fill[key[o]!]!++] = o;
    this.unkeyed = Int32Array.from(unkeyed);
  }

  /**
   * Set `out` to the ids of all operators applicable in `state`, ascending. Written by index and
   * cut to length once: emptying the array first (length 0) drops its storage, and every state
   * then paid for growing it again.
   */
  applicable(state: Uint32Array, out: number[]): void {
    let n = 0;
    const un = this.unkeyed;
    for (let i = 0; i < un.length; i++) if (this.check(state, un[i]!)) out[n++] = un[i]!;
    const ks = this.keyStart;
    const ko = this.keyOps;
    const words = this.task.words;
    for (let w = 0; w < words; w++) {
      let bits = state[w]!;
      while (bits !== 0) {
        const low = bits & -bits;
        const f = (w << 5) + (31 - Math.clz32(low));
        bits ^= low;
        for (let i = ks[f]!, e = ks[f + 1]!; i < e; i++) {
          const o = ko[i]!;
          if (this.check(state, o)) out[n++] = o;
        }
      }
    }
    if (out.length !== n) out.length = n;
    // ascending order; a state's applicable operators are usually a short list
    sortNumbers(out, 48);
  }

  private check(state: Uint32Array, o: number): boolean {
    const pre = this.pre;
    for (let i = this.preStart[o]!, e = this.preStart[o + 1]!; i < e; i++) {
      const f = pre[i]!;
      if ((state[f >>> 5]! & (1 << (f & 31))) === 0) return false;
    }
    const neg = this.neg;
    for (let i = this.negStart[o]!, e = this.negStart[o + 1]!; i < e; i++) {
      const f = neg[i]!;
      if ((state[f >>> 5]! & (1 << (f & 31))) !== 0) return false;
    }
    return true;
  }
}
