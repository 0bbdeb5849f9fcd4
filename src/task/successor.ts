/**
 * Successor generation through a precondition index: every operator is filed under one of its
 * positive precondition facts (the one fewest operators share), so a state only looks at the
 * operators keyed on its true facts, never at all operators. Preconditions and plain effects are
 * also kept as per-word bit masks, compiled once per task: testing or applying an operator is a
 * few word operations (a state has 1-4 words in the built-in domains) instead of one per fact.
 */
import { weakMemo } from "../util/memo.js";
import type { GroundTask } from "./types.js";
import { applyOp } from "./state.js";

/**
 * Two CSR fact lists per operator (`aStart`/`a`, `bStart`/`b`) as one list of word masks per
 * operator: entries `start[o] .. start[o+1]`, one per word either list touches, with the bits of
 * list a in `ma` and those of list b in `mb` (int32: `x & m` is int32 too).
 */
function wordMasks(
  n: number,
  aStart: Int32Array,
  a: Int32Array,
  bStart: Int32Array,
  b: Int32Array,
): { start: Int32Array; word: Int32Array; ma: Int32Array; mb: Int32Array } {
  const start = new Int32Array(n + 1);
  // at most one entry per fact
  const cap = a.length + b.length;
  const word = new Int32Array(cap);
  const ma = new Int32Array(cap);
  const mb = new Int32Array(cap);
  let m = 0;
  for (let o = 0; o < n; o++) {
    const first = m;
    for (let pass = 0; pass < 2; pass++) {
      const fs = pass === 0 ? a : b;
      const at = pass === 0 ? aStart : bStart;
      const into = pass === 0 ? ma : mb;
      for (let k = at[o]!, e = at[o + 1]!; k < e; k++) {
        const f = fs[k]!;
        const w = f >>> 5;
        let j = first;
        while (j < m && word[j] !== w) j++;
        if (j === m) word[m++] = w;
        into[j]! |= 1 << (f & 31);
      }
    }
    start[o + 1] = m;
  }
  return { start, word: word.slice(0, m), ma: ma.slice(0, m), mb: mb.slice(0, m) };
}

/** Applicable-operator enumeration (and plain operator application) for one task. */
export class SuccessorGenerator {
  private readonly task: GroundTask;
  /** Operators filed under fact f: keyOps[keyStart[f] .. keyStart[f+1]]. */
  readonly keyStart: Int32Array;
  readonly keyOps: Int32Array;
  /** Operators without positive preconditions (checked in every state). */
  readonly unkeyed: Int32Array;
  private readonly words: number;
  /** Per state word, the facts that key some operator: the only true facts worth visiting. */
  private readonly keyMask: Int32Array;
  /**
   * The whole precondition of `keyOps[i]` when it lies in one word (the common case), inline in
   * key order: word `keyWord[i]` has the bits of `keyPos[i]` and none of `keyNeg[i]`; -1: more words.
   */
  private readonly keyWord: Int32Array;
  private readonly keyPos: Int32Array;
  private readonly keyNeg: Int32Array;
  /**
   * Preconditions of operator o as word tests `condStart[o] .. condStart[o+1]`: word
   * `condWord[k]` has every bit of `condPos[k]` and none of `condNeg[k]`.
   */
  private readonly condStart: Int32Array;
  private readonly condWord: Int32Array;
  private readonly condPos: Int32Array;
  private readonly condNeg: Int32Array;
  /**
   * Effects of operator o as word updates `effStart[o] .. effStart[o+1]`:
   * `w = (w & effKeep[k]) | effSet[k]` on word `effWord[k]` (deletes, then adds: add wins).
   * Only for operators that `plain` marks; the others go through `applyOp`.
   */
  private readonly effStart: Int32Array;
  private readonly effWord: Int32Array;
  private readonly effKeep: Int32Array;
  private readonly effSet: Int32Array;
  /** 1 when operator o has no conditional effects and the task no axioms. */
  private readonly plain: Uint8Array;
  /** Scratch ids for `applicable`. */
  private buf: Int32Array | null = null;

  constructor(task: GroundTask) {
    this.task = task;
    this.words = task.words;
    const nf = task.numFacts;
    const no = task.numOps;
    const freq = new Int32Array(nf);
    for (let i = 0; i < task.pre.length; i++) freq[task.pre[i]!]!++;
    const key = new Int32Array(no).fill(-1);
    const count = new Int32Array(nf + 1);
    const unkeyed: number[] = [];
    for (let o = 0; o < no; o++) {
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
    for (let o = 0; o < no; o++) if (key[o]! >= 0) this.keyOps[fill[key[o]!]!++] = o;
    this.unkeyed = Int32Array.from(unkeyed);
    this.keyMask = new Int32Array(this.words);
    for (let f = 0; f < nf; f++) if (count[f]! > 0) this.keyMask[f >>> 5]! |= 1 << (f & 31);

    const cond = wordMasks(no, task.preStart, task.pre, task.negPreStart, task.negPre);
    this.condStart = cond.start;
    this.condWord = cond.word;
    this.condPos = cond.ma;
    this.condNeg = cond.mb;
    const eff = wordMasks(no, task.delStart, task.del, task.addStart, task.add);
    this.effStart = eff.start;
    this.effWord = eff.word;
    this.effKeep = eff.ma;
    for (let k = 0; k < this.effKeep.length; k++) this.effKeep[k] = ~this.effKeep[k]!;
    this.effSet = eff.mb;
    const nk = this.keyOps.length;
    this.keyWord = new Int32Array(nk).fill(-1);
    this.keyPos = new Int32Array(nk);
    this.keyNeg = new Int32Array(nk);
    for (let i = 0; i < nk; i++) {
      const o = this.keyOps[i]!;
      const k = cond.start[o]!;
      if (cond.start[o + 1]! - k !== 1) continue;
      this.keyWord[i] = cond.word[k]!;
      this.keyPos[i] = cond.ma[k]!;
      this.keyNeg[i] = cond.mb[k]!;
    }
    this.plain = new Uint8Array(no);
    if (task.numAxioms === 0) for (let o = 0; o < no; o++) if (task.ceStart[o] === task.ceStart[o + 1]) this.plain[o] = 1;
  }

  /**
   * Set `out` to the ids of all operators applicable in `state`, ascending. Written by index and
   * cut to length once: emptying the array first (length 0) drops its storage, and every state
   * then paid for growing it again.
   */
  applicable(state: Uint32Array, out: number[]): void {
    const buf = (this.buf ??= new Int32Array(Math.max(1, this.task.numOps)));
    const n = this.applicableInto(state, buf);
    for (let i = 0; i < n; i++) out[i] = buf[i]!;
    if (out.length !== n) out.length = n;
  }

  /**
   * The ids of all operators applicable in `state`, ascending, written to `out[0 .. n)` (room
   * for `numOps` ids); returns n. No array length to change per state (a runtime call each time).
   */
  applicableInto(state: Uint32Array, out: Int32Array): number {
    let n = 0;
    const un = this.unkeyed;
    for (let i = 0; i < un.length; i++) if (this.check(state, un[i]!)) out[n++] = un[i]!;
    const ks = this.keyStart;
    const ko = this.keyOps;
    const km = this.keyMask;
    const kWord = this.keyWord;
    const kPos = this.keyPos;
    const kNeg = this.keyNeg;
    const words = this.words;
    for (let w = 0; w < words; w++) {
      let bits = state[w]! & km[w]!;
      while (bits !== 0) {
        const low = bits & -bits;
        const f = (w << 5) + (31 - Math.clz32(low));
        bits ^= low;
        for (let i = ks[f]!, e = ks[f + 1]!; i < e; i++) {
          const kw = kWord[i]!;
          if (kw >= 0) {
            const x = state[kw]!;
            const p = kPos[i]!;
            if ((x & p) === p && (x & kNeg[i]!) === 0) out[n++] = ko[i]!;
          } else if (this.check(state, ko[i]!)) out[n++] = ko[i]!;
        }
      }
    }
    // ascending order: an insertion sort, as a state's applicable operators are a short list
    if (n > 48) out.subarray(0, n).sort();
    else {
      for (let i = 1; i < n; i++) {
        const v = out[i]!;
        let j = i - 1;
        while (j >= 0 && out[j]! > v) {
          out[j + 1] = out[j]!;
          j--;
        }
        out[j + 1] = v;
      }
    }
    return n;
  }

  private check(state: Uint32Array, o: number): boolean {
    const cw = this.condWord;
    const cp = this.condPos;
    const cn = this.condNeg;
    for (let k = this.condStart[o]!, e = this.condStart[o + 1]!; k < e; k++) {
      const x = state[cw[k]!]!;
      const p = cp[k]!;
      if ((x & p) !== p || (x & cn[k]!) !== 0) return false;
    }
    return true;
  }

  /**
   * Successor of `state` by `op` (applicability is not checked) into `out`, which may be `state`
   * itself; the same state as `applyOp` gives.
   */
  apply(state: Uint32Array, op: number, out: Uint32Array): Uint32Array {
    if (this.plain[op] === 0) return applyOp(this.task, state, op, out);
    if (out !== state) for (let w = 0; w < this.words; w++) out[w] = state[w]!;
    const ew = this.effWord;
    const keep = this.effKeep;
    const set = this.effSet;
    for (let k = this.effStart[op]!, e = this.effStart[op + 1]!; k < e; k++) {
      const w = ew[k]!;
      out[w] = (out[w]! & keep[k]!) | set[k]!;
    }
    return out;
  }
}

/**
 * The successor generator of `task`, made once per task (its index and masks cost more than a
 * short search that would build its own; it holds nothing a caller could disturb).
 */
export const successorGeneratorOf: (task: GroundTask) => SuccessorGenerator = weakMemo((task: GroundTask) => new SuccessorGenerator(task));
