/** Hand-built GroundTasks for search tests (no parser or grounder involved). */
import type { GroundTask } from "../src/task/types.js";

export interface HandOp {
  name: string;
  pre: number[];
  add: number[];
  del?: number[];
  negPre?: number[];
  cost?: number;
  /** conditional effects: when all `cond` hold and all `negCond` are false, add (or delete) `fact` */
  ce?: { cond: number[]; negCond?: number[]; fact: number; add: boolean }[];
}

function csr(lists: number[][]): [Int32Array, Int32Array] {
  const start = new Int32Array(lists.length + 1);
  lists.forEach((l, i) => (start[i + 1] = start[i]! + l.length));
  return [start, Int32Array.from(lists.flat())];
}

/** A STRIPS task over `numFacts` facts named f0.. (conditional effects optional). */
export function handTask(numFacts: number, ops: HandOp[], init: number[], goal: number[], goalNeg: number[] = []): GroundTask {
  const words = Math.max(1, Math.ceil(numFacts / 32));
  const initState = new Uint32Array(words);
  for (const f of init) initState[f >>> 5]! |= 1 << (f & 31);
  const [preStart, pre] = csr(ops.map((o) => o.pre));
  const [negPreStart, negPre] = csr(ops.map((o) => o.negPre ?? []));
  const [addStart, add] = csr(ops.map((o) => o.add));
  const [delStart, del] = csr(ops.map((o) => o.del ?? []));
  const ces = ops.flatMap((o) => o.ce ?? []);
  const ceStart = new Int32Array(ops.length + 1);
  ops.forEach((o, i) => (ceStart[i + 1] = ceStart[i]! + (o.ce?.length ?? 0)));
  const [ceCondStart, ceCond] = csr(ces.map((c) => c.cond));
  const [ceNegCondStart, ceNegCond] = csr(ces.map((c) => c.negCond ?? []));
  const factNames = Array.from({ length: numFacts }, (_, i) => `(f${i})`);
  return {
    domain: {} as GroundTask["domain"],
    problem: {} as GroundTask["problem"],
    objects: [],
    objectTypes: [],
    numFacts,
    words,
    factNames,
    factPredicate: factNames.map((_, i) => `f${i}`),
    factArgStart: new Int32Array(numFacts + 1),
    factArgs: new Int32Array(0),
    factDerived: new Uint8Array(numFacts),
    numOps: ops.length,
    opNames: ops.map((o) => `(${o.name})`),
    opSchema: new Int32Array(ops.length),
    opArgStart: new Int32Array(ops.length + 1),
    opArgs: new Int32Array(0),
    opCost: Int32Array.from(ops.map((o) => o.cost ?? 1)),
    preStart,
    pre,
    negPreStart,
    negPre,
    addStart,
    add,
    delStart,
    del,
    ceStart,
    ceCondStart,
    ceCond,
    ceNegCondStart,
    ceNegCond,
    ceFact: Int32Array.from(ces.map((c) => c.fact)),
    ceIsAdd: Uint8Array.from(ces.map((c) => (c.add ? 1 : 0))),
    numAxioms: 0,
    axHead: new Int32Array(0),
    axLayer: new Int32Array(0),
    axBodyStart: new Int32Array(1),
    axBody: new Int32Array(0),
    axNegBodyStart: new Int32Array(1),
    axNegBody: new Int32Array(0),
    init: initState,
    goalPos: Int32Array.from(goal),
    goalNeg: Int32Array.from(goalNeg),
    hasCosts: ops.some((o) => (o.cost ?? 1) !== 1),
  };
}

const has = (s: Uint32Array, f: number): boolean => (s[f >>> 5]! & (1 << (f & 31))) !== 0;

/** Naive transition (test reference): null when not applicable. */
export function naiveApply(t: GroundTask, s: Uint32Array, o: number): Uint32Array | null {
  for (let k = t.preStart[o]!; k < t.preStart[o + 1]!; k++) if (!has(s, t.pre[k]!)) return null;
  for (let k = t.negPreStart[o]!; k < t.negPreStart[o + 1]!; k++) if (has(s, t.negPre[k]!)) return null;
  const n = s.slice();
  const setF = (f: number, v: boolean): void => {
    if (v) n[f >>> 5]! |= 1 << (f & 31);
    else n[f >>> 5]! &= ~(1 << (f & 31));
  };
  const adds: number[] = [];
  const dels: number[] = [];
  for (let k = t.delStart[o]!; k < t.delStart[o + 1]!; k++) dels.push(t.del[k]!);
  for (let k = t.addStart[o]!; k < t.addStart[o + 1]!; k++) adds.push(t.add[k]!);
  for (let e = t.ceStart[o]!; e < t.ceStart[o + 1]!; e++) {
    let ok = true;
    for (let k = t.ceCondStart[e]!; k < t.ceCondStart[e + 1]!; k++) if (!has(s, t.ceCond[k]!)) ok = false;
    for (let k = t.ceNegCondStart[e]!; k < t.ceNegCondStart[e + 1]!; k++) if (has(s, t.ceNegCond[k]!)) ok = false;
    if (ok) (t.ceIsAdd[e] ? adds : dels).push(t.ceFact[e]!);
  }
  for (const f of dels) setF(f, false);
  for (const f of adds) setF(f, true);
  return n;
}

export function naiveGoal(t: GroundTask, s: Uint32Array): boolean {
  for (const f of t.goalPos) if (!has(s, f)) return false;
  for (const f of t.goalNeg) if (has(s, f)) return false;
  return true;
}

/** Exact h* of every reachable state by brute force (key: state.join(",")). */
export function naiveHStar(t: GroundTask): Map<string, { state: Uint32Array; h: number }> {
  const states = new Map<string, Uint32Array>();
  const succ = new Map<string, { to: string; c: number }[]>();
  const todo = [t.init];
  states.set(t.init.join(","), t.init);
  while (todo.length) {
    const s = todo.pop()!;
    const key = s.join(",");
    const out: { to: string; c: number }[] = [];
    for (let o = 0; o < t.numOps; o++) {
      const n = naiveApply(t, s, o);
      if (!n) continue;
      const nk = n.join(",");
      out.push({ to: nk, c: t.opCost[o]! });
      if (!states.has(nk)) {
        states.set(nk, n);
        todo.push(n);
      }
    }
    succ.set(key, out);
  }
  // Bellman-Ford style relaxation (small spaces only)
  const h = new Map<string, number>();
  for (const [k, s] of states) h.set(k, naiveGoal(t, s) ? 0 : Infinity);
  for (let changed = true; changed; ) {
    changed = false;
    for (const [k, out] of succ) {
      for (const e of out) {
        const v = e.c + h.get(e.to)!;
        if (v < h.get(k)!) {
          h.set(k, v);
          changed = true;
        }
      }
    }
  }
  const res = new Map<string, { state: Uint32Array; h: number }>();
  for (const [k, s] of states) res.set(k, { state: s, h: h.get(k)! });
  return res;
}

/**
 * Random small STRIPS task (deterministic from `rnd`); `withNeg` adds negative preconditions,
 * negative effect conditions and negative goals.
 */
export function randomTask(rnd: () => number, withCE = false, withNeg = false): GroundTask {
  const nf = 4 + Math.floor(rnd() * 5);
  const pick = (k: number): number[] => {
    const s = new Set<number>();
    for (let i = 0; i < k; i++) s.add(Math.floor(rnd() * nf));
    return [...s];
  };
  const ops: HandOp[] = [];
  const no = 3 + Math.floor(rnd() * 8);
  for (let i = 0; i < no; i++) {
    const op: HandOp = {
      name: `o${i}`,
      pre: pick(Math.floor(rnd() * 3)),
      add: pick(1 + Math.floor(rnd() * 2)),
      del: pick(Math.floor(rnd() * 3)),
      cost: Math.floor(rnd() * 4),
    };
    if (withCE && rnd() < 0.5) op.ce = [{ cond: pick(1 + Math.floor(rnd() * 2)), fact: Math.floor(rnd() * nf), add: rnd() < 0.7 }];
    if (withNeg) {
      op.negPre = pick(Math.floor(rnd() * 2)).filter((f) => !op.pre.includes(f));
      if (op.ce) op.ce[0]!.negCond = pick(Math.floor(rnd() * 2)).filter((f) => !op.ce![0]!.cond.includes(f));
    }
    ops.push(op);
  }
  const init = pick(1 + Math.floor(rnd() * 3));
  const goal = pick(1 + Math.floor(rnd() * 3));
  const goalNeg = withNeg ? pick(Math.floor(rnd() * 3)).filter((f) => !goal.includes(f)) : [];
  return handTask(nf, ops, init, goal, goalNeg);
}

/** A chain of three operators whose cost sum (2^29 + 3) overflows the kernels' 32-bit sums. */
export function overflowTask(): GroundTask {
  const big = 1 << 28;
  return handTask(
    4,
    [
      { name: "a", pre: [0], add: [1], cost: big },
      { name: "b", pre: [1], add: [2], cost: big },
      { name: "c", pre: [2], add: [3], cost: 3 },
    ],
    [0],
    [3],
  );
}

/** Deterministic PRNG for tests (mulberry32). */
export function mulberry(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
