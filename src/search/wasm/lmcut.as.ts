// LM-Cut kernel (AssemblyScript -> WebAssembly). A line-by-line port of LmCutHeuristic and
// AdaptiveQueue in src/search: same relaxation, same queue, same tie-breaking, same values.
// All arrays live in linear memory; the host writes the task once and a state per call.

import { INF, ld, st } from "./memory.as";

// ---- bump allocator (memory is per instance and never freed: arrays only grow by doubling)
let top: usize = 0;

export function alloc(bytes: i32): usize {
  if (top == 0) top = (__heap_base + 15) & ~15;
  const p = top;
  top = (top + <usize>bytes + 15) & ~15;
  const need = <i32>((top + 0xffff) >>> 16);
  const have = memory.size();
  if (need > have) {
    if (memory.grow(need - have) < 0) unreachable();
  }
  return p;
}

function fill(p: usize, n: i32, v: i32): void {
  for (let i = 0; i < n; i++) st(p, i, v);
}
function copy(dst: usize, src: usize, n: i32): void {
  memory.copy(dst, src, <usize>n << 2);
}

// ---- task (written by the host)
let numFacts: i32 = 0;
let numOps: i32 = 0;
let trueFact: i32 = 0;
let goalFact: i32 = 0;
let nOrder: i32 = 0;
let preStart: usize = 0;
let pre: usize = 0;
let effStart: usize = 0;
let eff: usize = 0;
let cost: usize = 0;
let preOfStart: usize = 0;
let preOf: usize = 0;
let addedByStart: usize = 0;
let addedBy: usize = 0;
let factOrder: usize = 0;
let factTest: usize = 0;
let factNeg: usize = 0;
/** State words (bit per task fact), written before each evaluate. */
let state: usize = 0;

// ---- work arrays
let factCost: usize = 0;
let opUnsat: usize = 0;
let opSupp: usize = 0;
let opSuppCost: usize = 0;
let redCost: usize = 0;
let preCount: usize = 0;
let suppHead: usize = 0;
let suppNext: usize = 0;
let suppDirty: usize = 0;
let stateFacts: usize = 0;
let numStateFacts: i32 = 0;
let sortBuf: usize = 0;
let sortCap: i32 = 0;
let zone: usize = 0;
let reached: usize = 0;
let touches: usize = 0;
let stack: usize = 0;
let cut: usize = 0;
let round: i32 = 0;

// ---- adaptive queue (Fast Downward's: LIFO buckets, then a binary heap)
let qHeap: bool = false;
let heads: usize = 0;
let headsLen: i32 = 0;
let poolVal: usize = 0;
let poolNext: usize = 0;
let poolCap: i32 = 0;
let poolSize: i32 = 0;
let cursor: i32 = 0;
let maxKey: i32 = -1;
let pushes: i32 = 0;
let hKey: usize = 0;
let hVal: usize = 0;
let hCap: i32 = 0;
let count: i32 = 0;
let lastKey: i32 = 0;

function qClear(): void {
  if (!qHeap) {
    if (maxKey >= 0) fill(heads, maxKey + 1, -1);
    poolSize = 0;
    cursor = 0;
    maxKey = -1;
    pushes = 0;
  }
  count = 0;
}

function growHeap(n: i32): void {
  const k = alloc(n << 2);
  const v = alloc(n << 2);
  if (count > 0) {
    copy(k, hKey, count);
    copy(v, hVal, count);
  }
  hKey = k;
  hVal = v;
  hCap = n;
}

function toHeap(): void {
  qHeap = true;
  growHeap(max(16, count * 2));
  let i = 0;
  for (let k = cursor; k <= maxKey; k++) {
    let len = 0;
    for (let e = ld(heads, k); e != -1; e = ld(poolNext, e)) len++;
    // lists are LIFO: fill back to front to get push order
    let j = i + len - 1;
    for (let e = ld(heads, k); e != -1; e = ld(poolNext, e)) {
      st(hKey, j, k);
      st(hVal, j, ld(poolVal, e));
      j--;
    }
    i += len;
  }
}

function qPush(key: i32, val: i32): void {
  if (!qHeap) {
    if (key >= 100 && key > pushes) toHeap();
    else {
      pushes++;
      count++;
      if (key >= headsLen) {
        let n = headsLen * 2;
        while (n <= key) n *= 2;
        const h = alloc(n << 2);
        copy(h, heads, headsLen);
        fill(h + (<usize>headsLen << 2), n - headsLen, -1);
        heads = h;
        headsLen = n;
      }
      if (poolSize == poolCap) {
        const n = poolCap * 2;
        const v = alloc(n << 2);
        copy(v, poolVal, poolSize);
        const nx = alloc(n << 2);
        copy(nx, poolNext, poolSize);
        poolVal = v;
        poolNext = nx;
        poolCap = n;
      }
      const e = poolSize++;
      st(poolVal, e, val);
      st(poolNext, e, ld(heads, key));
      st(heads, key, e);
      if (key < cursor) cursor = key;
      if (key > maxKey) maxKey = key;
      return;
    }
  }
  if (count == hCap) growHeap(count * 2 + 16);
  siftUp(count++, key, val);
}

/** push_heap's second half: move the hole up while the parent's key is larger, then fill it. */
function siftUp(hole: i32, key: i32, val: i32): void {
  let parent = (hole - 1) >> 1;
  while (hole > 0 && ld(hKey, parent) > key) {
    st(hKey, hole, ld(hKey, parent));
    st(hVal, hole, ld(hVal, parent));
    hole = parent;
    parent = (hole - 1) >> 1;
  }
  st(hKey, hole, key);
  st(hVal, hole, val);
}

function qPop(): i32 {
  if (!qHeap) {
    count--;
    let c = cursor;
    while (ld(heads, c) == -1) c++;
    cursor = c;
    const e = ld(heads, c);
    st(heads, c, ld(poolNext, e));
    lastKey = c;
    if (count == 0) poolSize = 0;
    return ld(poolVal, e);
  }
  const topVal = ld(hVal, 0);
  lastKey = ld(hKey, 0);
  const len = --count;
  if (len > 0) {
    const key = ld(hKey, len);
    const val = ld(hVal, len);
    let hole = 0;
    let child = 0;
    while (child < (len - 1) >> 1) {
      child = 2 * (child + 1);
      if (ld(hKey, child) > ld(hKey, child - 1)) child--;
      st(hKey, hole, ld(hKey, child));
      st(hVal, hole, ld(hVal, child));
      hole = child;
    }
    if ((len & 1) == 0 && child == (len - 2) >> 1) {
      child = 2 * (child + 1);
      st(hKey, hole, ld(hKey, child - 1));
      st(hVal, hole, ld(hVal, child - 1));
      hole = child - 1;
    }
    siftUp(hole, key, val);
  }
  return topVal;
}

/**
 * Called once the host has written the task arrays (pointers from `alloc`): allocates the work
 * arrays. Returns the pointer of the state buffer (`words` u32).
 */
export function init(
  nf: i32, no: i32, tf: i32, gf: i32, nord: i32, words: i32,
  pPreStart: usize, pPre: usize, pEffStart: usize, pEff: usize, pCost: usize,
  pPreOfStart: usize, pPreOf: usize, pAddedByStart: usize, pAddedBy: usize,
  pFactOrder: usize, pFactTest: usize, pFactNeg: usize,
): usize {
  numFacts = nf;
  numOps = no;
  trueFact = tf;
  goalFact = gf;
  nOrder = nord;
  preStart = pPreStart;
  pre = pPre;
  effStart = pEffStart;
  eff = pEff;
  cost = pCost;
  preOfStart = pPreOfStart;
  preOf = pPreOf;
  addedByStart = pAddedByStart;
  addedBy = pAddedBy;
  factOrder = pFactOrder;
  factTest = pFactTest;
  factNeg = pFactNeg;
  state = alloc(max(words, 1) << 2);
  factCost = alloc(nf << 2);
  opUnsat = alloc(no << 2);
  opSupp = alloc(no << 2);
  opSuppCost = alloc(no << 2);
  redCost = alloc(no << 2);
  preCount = alloc(no << 2);
  for (let o = 0; o < no; o++) st(preCount, o, ld(preStart, o + 1) - ld(preStart, o));
  suppHead = alloc(nf << 2);
  suppNext = alloc(no << 2);
  suppDirty = alloc(nf << 2);
  stateFacts = alloc(max(nord, 1) << 2);
  sortCap = 16;
  sortBuf = alloc(sortCap << 2);
  zone = alloc(nf << 2);
  reached = alloc(nf << 2);
  touches = alloc(no << 2);
  stack = alloc((nf + 1) << 2);
  cut = alloc(max(no, 1) << 2);
  headsLen = 256;
  heads = alloc(headsLen << 2);
  fill(heads, headsLen, -1);
  poolCap = 1024;
  poolVal = alloc(poolCap << 2);
  poolNext = alloc(poolCap << 2);
  return state;
}


/** The effects of op `o` reached at cost `v`: lower and enqueue those it improves. */
@inline function relaxEffects(o: i32, v: i32): void {
  for (let j = ld(effStart, o), je = ld(effStart, o + 1); j < je; j++) {
    const g = ld(eff, j);
    if (v < ld(factCost, g)) {
      st(factCost, g, v);
      qPush(v, g);
    }
  }
}

/**
 * Full h^max from the state buffer with op costs `costs` (INF if the goal is unreachable). With
 * `stopAtGoal`, ends when the goal is popped (enough for h^max, not for LM-Cut, which also needs
 * the supporter lists built at the end).
 */
function explore(costs: usize, stopAtGoal: bool): i32 {
  fill(factCost, numFacts, INF);
  copy(opUnsat, preCount, numOps);
  qClear();
  let n = 0;
  for (let i = 0; i < nOrder; i++) {
    const t = ld(factTest, i);
    if (((load<u32>(state + (<usize>(t >>> 5) << 2)) >>> (t & 31)) & 1) != <u32>ld(factNeg, i)) {
      const f = ld(factOrder, i);
      st(factCost, f, 0);
      qPush(0, f);
      st(stateFacts, n++, f);
    }
  }
  numStateFacts = n;
  st(factCost, trueFact, 0);
  qPush(0, trueFact);
  while (count != 0) {
    const f = qPop();
    const d = lastKey;
    if (d > ld(factCost, f)) continue;
    if (stopAtGoal && f == goalFact) return d;
    for (let k = ld(preOfStart, f), e = ld(preOfStart, f + 1); k < e; k++) {
      const o = ld(preOf, k);
      const u = ld(opUnsat, o) - 1;
      st(opUnsat, o, u);
      if (u == 0) {
        st(opSupp, o, f);
        st(opSuppCost, o, d);
        relaxEffects(o, d + ld(costs, o));
      }
    }
  }
  if (stopAtGoal) return ld(factCost, goalFact);
  fill(suppHead, numFacts, -1);
  fill(suppDirty, numFacts, 0);
  for (let o = numOps - 1; o >= 0; o--) {
    if (ld(opUnsat, o) != 0) continue;
    const f = ld(opSupp, o);
    st(suppNext, o, ld(suppHead, f));
    st(suppHead, f, o);
  }
  return ld(factCost, goalFact);
}

function sortList(f: i32): void {
  st(suppDirty, f, 0);
  let n = 0;
  for (let o = ld(suppHead, f); o != -1; o = ld(suppNext, o)) {
    if (n == sortCap) {
      const b = alloc(sortCap << 3);
      copy(b, sortBuf, n);
      sortBuf = b;
      sortCap <<= 1;
    }
    st(sortBuf, n++, o);
  }
  if (n < 2) return;
  // insertion sort for short lists, else heap sort (ids are distinct: any correct sort will do)
  if (n <= 32) {
    for (let i = 1; i < n; i++) {
      const x = ld(sortBuf, i);
      let j = i - 1;
      while (j >= 0 && ld(sortBuf, j) > x) {
        st(sortBuf, j + 1, ld(sortBuf, j));
        j--;
      }
      st(sortBuf, j + 1, x);
    }
  } else heapSort(sortBuf, n);
  st(suppHead, f, ld(sortBuf, 0));
  for (let i = 0; i + 1 < n; i++) st(suppNext, ld(sortBuf, i), ld(sortBuf, i + 1));
  st(suppNext, ld(sortBuf, n - 1), -1);
}

function siftDown(a: usize, start: i32, n: i32): void {
  let root = start;
  while (true) {
    let child = 2 * root + 1;
    if (child >= n) break;
    if (child + 1 < n && ld(a, child) < ld(a, child + 1)) child++;
    if (ld(a, root) >= ld(a, child)) break;
    const t = ld(a, root);
    st(a, root, ld(a, child));
    st(a, child, t);
    root = child;
  }
}
function heapSort(a: usize, n: i32): void {
  for (let i = (n >> 1) - 1; i >= 0; i--) siftDown(a, i, n);
  for (let end = n - 1; end > 0; end--) {
    const t = ld(a, 0);
    st(a, 0, ld(a, end));
    st(a, end, t);
    siftDown(a, 0, end);
  }
}

function updateAfterCut(cutLen: i32): void {
  const costs = redCost;
  if (!qHeap) pushes += numFacts - 2;
  for (let i = 0; i < cutLen; i++) {
    const o = ld(cut, i);
    relaxEffects(o, ld(opSuppCost, o) + ld(costs, o));
  }
  while (count != 0) {
    const f = qPop();
    const d = lastKey;
    if (d > ld(factCost, f)) continue;
    if (ld(suppDirty, f) != 0) sortList(f);
    let p = -1;
    let nx = 0;
    for (let o = ld(suppHead, f); o != -1; o = nx) {
      nx = ld(suppNext, o);
      const old = ld(opSuppCost, o);
      if (old <= d) {
        p = o;
        continue;
      }
      let best = f;
      let bestCost = d;
      for (let j = ld(preStart, o), je = ld(preStart, o + 1); j < je; j++) {
        const q = ld(pre, j);
        const c = ld(factCost, q);
        if (c > bestCost) {
          bestCost = c;
          best = q;
        }
      }
      if (best != f) {
        if (p == -1) st(suppHead, f, nx);
        else st(suppNext, p, nx);
        st(opSupp, o, best);
        let a = -1;
        let b = ld(suppHead, best);
        if (ld(suppDirty, best) == 0) {
          for (let steps = 0; b != -1 && b < o; steps++) {
            if (steps == 16) {
              a = -1;
              b = ld(suppHead, best);
              st(suppDirty, best, 1);
              break;
            }
            a = b;
            b = ld(suppNext, b);
          }
        }
        st(suppNext, o, b);
        if (a == -1) st(suppHead, best, o);
        else st(suppNext, a, o);
      } else p = o;
      if (bestCost < old) {
        st(opSuppCost, o, bestCost);
        relaxEffects(o, bestCost + ld(costs, o));
      }
    }
  }
}

/** h^max from the state in the state buffer (INF if the goal is unreachable). */
export function hmax(): i32 {
  return explore(cost, true);
}

/** LM-Cut of the state in the state buffer: h, INF for a dead end, -1 on an empty or zero-cost cut. */
export function lmcut(): i32 {
  copy(redCost, cost, numOps);
  if (explore(redCost, false) >= INF) return INF;
  let h = 0;
  while (ld(factCost, goalFact) != 0) {
    if (round >= 0x7ffffff0) {
      fill(zone, numFacts, 0);
      fill(reached, numFacts, 0);
      fill(touches, numOps, 0);
      round = 0;
    }
    const r = ++round;
    let sp = 0;
    st(zone, goalFact, r);
    st(stack, sp++, goalFact);
    while (sp > 0) {
      const f = ld(stack, --sp);
      for (let k = ld(addedByStart, f), e = ld(addedByStart, f + 1); k < e; k++) {
        const o = ld(addedBy, k);
        st(touches, o, r);
        if (ld(opUnsat, o) != 0 || ld(redCost, o) != 0) continue;
        const p = ld(opSupp, o);
        if (ld(zone, p) != r) {
          st(zone, p, r);
          st(stack, sp++, p);
        }
      }
    }
    let cutLen = 0;
    sp = 0;
    st(reached, trueFact, r);
    st(stack, sp++, trueFact);
    for (let i = 0; i < numStateFacts; i++) {
      const f = ld(stateFacts, i);
      st(reached, f, r);
      st(stack, sp++, f);
    }
    let minCost = INF;
    while (sp > 0) {
      const f = ld(stack, --sp);
      if (ld(suppDirty, f) != 0) sortList(f);
      for (let o = ld(suppHead, f); o != -1; o = ld(suppNext, o)) {
        if (ld(touches, o) == r) {
          st(cut, cutLen++, o);
          const c = ld(redCost, o);
          if (c < minCost) minCost = c;
          continue;
        }
        for (let j = ld(effStart, o), je = ld(effStart, o + 1); j < je; j++) {
          const g = ld(eff, j);
          if (ld(reached, g) != r) {
            st(reached, g, r);
            if (ld(suppHead, g) != -1) st(stack, sp++, g);
          }
        }
      }
    }
    if (cutLen == 0 || minCost <= 0) return -1;
    h += minCost;
    for (let i = 0; i < cutLen; i++) {
      const o = ld(cut, i);
      st(redCost, o, ld(redCost, o) - minCost);
    }
    updateAfterCut(cutLen);
  }
  return h;
}
