// A* search kernel (AssemblyScript -> WebAssembly), with the LM-Cut kernel of lmcut.as.ts in the
// same instance. A port of astarRun in src/search/astar.ts for solve's case (STRIPS with
// negative preconditions and conditional effects, no axioms; an optional cost bound; no exact
// values, no forbidden states): the same successor order, open-list order (f, h, insertion),
// reopening and counts, hence the same expansions and plan. The host writes the task once, then
// calls search as often as it likes (each search starts afresh from the state it writes).

import { alloc, lmcut, hmax } from "./lmcut.as";
import { INF, ld, st } from "./memory.as";

export { alloc, init, lmcut, hmax } from "./lmcut.as";

@external("env", "now") declare function now(): f64;
/** Heuristic value of the state at `ptr` where the finite-domain map fails (host-side). */
@external("env", "fallback") declare function fallback(ptr: usize, words: i32): i32;

const DEAD: i32 = -2;

const SOLVED: i32 = 0;
const UNSOLVABLE: i32 = 1;
const LIMIT: i32 = 2;
const INTERNAL: i32 = 3;

const H_LMCUT: i32 = 1;
const H_HMAX: i32 = 2;

@inline function has(s: usize, f: i32): bool {
  return (load<u32>(s + (<usize>(f >>> 5) << 2)) & (<u32>1 << <u32>(f & 31))) != 0;
}

// ---- task
let words: i32 = 0;
let numOps: i32 = 0;
let preStart: usize = 0;
let pre: usize = 0;
let negStart: usize = 0;
let neg: usize = 0;
let addStart: usize = 0;
let add: usize = 0;
let delStart: usize = 0;
let del: usize = 0;
let opCost: usize = 0;
let goalPos: usize = 0;
let nGoalPos: i32 = 0;
let goalNeg: usize = 0;
let nGoalNeg: i32 = 0;
let opMask: usize = 0; // 0: every operator
let factMask: usize = 0; // 0: no projection
let order: usize = 0; // 0: by operator id
// successor index: every operator filed under one positive precondition, or unkeyed
let keyStart: usize = 0;
let keyOps: usize = 0;
let unkeyed: usize = 0;
let nUnkeyed: i32 = 0;
// conditional effects (0: none): as GroundTask's ce* arrays
let ceStart: usize = 0;
let ceCondStart: usize = 0;
let ceCond: usize = 0;
let ceNegStart: usize = 0;
let ceNeg: usize = 0;
let ceFact: usize = 0;
let ceIsAdd: usize = 0; // u8
let fired: usize = 0;

// ---- heuristic
let hKind: i32 = 0;
let hState: usize = 0; // the LM-Cut kernel's state buffer
let hWords: i32 = 0;
let mapVars: i32 = -1; // -1: identity (plain relaxation), else finite-domain variables
let atomStart: usize = 0;
let atomFact: usize = 0;
let atomProp: usize = 0;
let noneProp: usize = 0;

// ---- state registry and per-state data (capacity `cap`, grown by doubling)
let cap: i32 = 0;
let count: i32 = 0;
let arena: usize = 0;
let hashes: usize = 0;
let table: usize = 0;
let tableMask: i32 = 0;
let gv: usize = 0;
let hv: usize = 0;
let parent: usize = 0;
let parentOp: usize = 0;
let closed: usize = 0;

// ---- open list: binary heap on (f, h, seq)
let qKey: usize = 0; // i64: f << 32 | h
let qSeq: usize = 0;
let qId: usize = 0;
let qCap: i32 = 0;
let qSize: i32 = 0;
let qNext: i32 = 0;

// ---- scratch
let cur: usize = 0;
let nxt: usize = 0;
let ops: usize = 0;

// ---- results
let expanded: i32 = 0;
let generated: i32 = 0;
let evaluated: i32 = 0;
let initialH: i32 = -1;
let solutionCost: i32 = -1;
let untilJump: i32 = 0;
let reopened: i32 = 0;
let plan: usize = 0;
let planLen: i32 = 0;
let planCap: i32 = 0;

/**
 * Called once the host has written the task arrays (pointers from `alloc`; 0 for an absent
 * mask or order) and, for LM-Cut or h^max, the relaxed task (`init`, whose state buffer is
 * `pHState`). `nv` is the number of finite-domain variables of the state map, -1 for none.
 */
export function searchInit(
  w: i32, no: i32,
  pPreStart: usize, pPre: usize, pNegStart: usize, pNeg: usize,
  pAddStart: usize, pAdd: usize, pDelStart: usize, pDel: usize, pCost: usize,
  pGoalPos: usize, ngp: i32, pGoalNeg: usize, ngn: i32,
  pOpMask: usize, pFactMask: usize, pOrder: usize,
  pKeyStart: usize, pKeyOps: usize, pUnkeyed: usize, nun: i32,
  kind: i32, pHState: usize, hw: i32,
  nv: i32, pAtomStart: usize, pAtomFact: usize, pAtomProp: usize, pNoneProp: usize,
): void {
  words = max(w, 1);
  numOps = no;
  preStart = pPreStart;
  pre = pPre;
  negStart = pNegStart;
  neg = pNeg;
  addStart = pAddStart;
  add = pAdd;
  delStart = pDelStart;
  del = pDel;
  opCost = pCost;
  goalPos = pGoalPos;
  nGoalPos = ngp;
  goalNeg = pGoalNeg;
  nGoalNeg = ngn;
  opMask = pOpMask;
  factMask = pFactMask;
  order = pOrder;
  keyStart = pKeyStart;
  keyOps = pKeyOps;
  unkeyed = pUnkeyed;
  nUnkeyed = nun;
  hKind = kind;
  hState = pHState;
  hWords = hw;
  mapVars = nv;
  atomStart = pAtomStart;
  atomFact = pAtomFact;
  atomProp = pAtomProp;
  noneProp = pNoneProp;
  cur = alloc(words << 2);
  nxt = alloc(words << 2);
  ops = alloc(max(no, 1) << 2);
}

/**
 * Conditional effects, after `searchInit`: operator o owns effects `pStart[o] .. pStart[o+1]`,
 * effect e has conditions and negated conditions (ranges by e) and sets `pFact[e]` true
 * (`pIsAdd[e]` 1) or false; `maxPerOp` is the largest number of effects of one operator.
 */
export function searchInitEffects(
  pStart: usize, pCondStart: usize, pCond: usize, pNegStart: usize, pNeg: usize, pFact: usize, pIsAdd: usize, maxPerOp: i32,
): void {
  ceStart = pStart;
  ceCondStart = pCondStart;
  ceCond = pCond;
  ceNegStart = pNegStart;
  ceNeg = pNeg;
  ceFact = pFact;
  ceIsAdd = pIsAdd;
  fired = alloc(max(maxPerOp, 1) << 2);
}

/** The state buffer the host writes the start state into before `search`. */
export function startBuffer(): usize {
  return nxt;
}

// ---- registry

function growStates(n: i32): void {
  // the registry's arena is the largest array; past 1.5 GB linear memory would run out anyway
  if (<u64>n * <u64>words * 4 > 0x60000000) unreachable();
  const a = alloc(<i32>(<usize>n * <usize>words) << 2);
  const hs = alloc(n << 2);
  const g2 = alloc(n << 2);
  const h2 = alloc(n << 2);
  const p2 = alloc(n << 2);
  const o2 = alloc(n << 2);
  const c2 = alloc(n);
  if (cap > 0) {
    memory.copy(a, arena, (<usize>count * <usize>words) << 2);
    memory.copy(hs, hashes, <usize>count << 2);
    memory.copy(g2, gv, <usize>count << 2);
    memory.copy(h2, hv, <usize>count << 2);
    memory.copy(p2, parent, <usize>count << 2);
    memory.copy(o2, parentOp, <usize>count << 2);
    memory.copy(c2, closed, <usize>count);
  }
  arena = a;
  hashes = hs;
  gv = g2;
  hv = h2;
  parent = p2;
  parentOp = o2;
  closed = c2;
  cap = n;
  // table at most half full
  let t = 32;
  while (t < n * 2) t <<= 1;
  table = alloc(t << 2);
  memory.fill(table, 0xff, <usize>t << 2);
  tableMask = t - 1;
  for (let id = 0; id < count; id++) {
    let slot = ld(hashes, id) & tableMask;
    while (ld(table, slot) >= 0) slot = (slot + 1) & tableMask;
    st(table, slot, id);
  }
}

function hashState(s: usize): i32 {
  let h: u32 = 0x811c9dc5;
  for (let i = 0; i < words; i++) {
    h ^= load<u32>(s + (<usize>i << 2));
    h *= 0x01000193;
    h ^= h >>> 15;
  }
  h *= 0x2c1b3c6d;
  h ^= h >>> 12;
  return <i32>(h & 0x7fffffff);
}

@inline function sameState(a: usize, b: usize): bool {
  for (let i = 0; i < words; i++) if (load<u32>(a + (<usize>i << 2)) != load<u32>(b + (<usize>i << 2))) return false;
  return true;
}

/** Id of the state at `s`, interning a copy if it is new (ids count up from 0). */
function intern(s: usize): i32 {
  const h = hashState(s);
  let slot = h & tableMask;
  for (;;) {
    const id = ld(table, slot);
    if (id < 0) break;
    if (ld(hashes, id) == h && sameState(arena + ((<usize>id * <usize>words) << 2), s)) return id;
    slot = (slot + 1) & tableMask;
  }
  if (count == cap) {
    growStates(cap * 2);
    slot = h & tableMask;
    while (ld(table, slot) >= 0) slot = (slot + 1) & tableMask;
  }
  const id = count++;
  memory.copy(arena + ((<usize>id * <usize>words) << 2), s, <usize>words << 2);
  st(hashes, id, h);
  st(table, slot, id);
  return id;
}

// ---- open list

function qPush(f: i32, h: i32, id: i32): void {
  if (qSize == qCap) {
    const n = max(qCap * 2, 1024);
    const k = alloc(n << 3);
    const s = alloc(n << 2);
    const v = alloc(n << 2);
    if (qSize > 0) {
      memory.copy(k, qKey, <usize>qSize << 3);
      memory.copy(s, qSeq, <usize>qSize << 2);
      memory.copy(v, qId, <usize>qSize << 2);
    }
    qKey = k;
    qSeq = s;
    qId = v;
    qCap = n;
  }
  const key: i64 = (<i64>f << 32) | <i64>h;
  const seq = qNext++;
  let i = qSize++;
  while (i > 0) {
    const p = (i - 1) >> 1;
    const pk = load<i64>(qKey + (<usize>p << 3));
    if (pk < key || (pk == key && ld(qSeq, p) < seq)) break;
    store<i64>(qKey + (<usize>i << 3), pk);
    st(qSeq, i, ld(qSeq, p));
    st(qId, i, ld(qId, p));
    i = p;
  }
  store<i64>(qKey + (<usize>i << 3), key);
  st(qSeq, i, seq);
  st(qId, i, id);
}

/** Removes the minimum entry (the caller has read it at index 0). */
function qPop(): void {
  const n = --qSize;
  if (n == 0) return;
  const key = load<i64>(qKey + (<usize>n << 3));
  const seq = ld(qSeq, n);
  const id = ld(qId, n);
  let i = 0;
  for (;;) {
    let c = 2 * i + 1;
    if (c >= n) break;
    let ck = load<i64>(qKey + (<usize>c << 3));
    let cs = ld(qSeq, c);
    if (c + 1 < n) {
      const rk = load<i64>(qKey + (<usize>(c + 1) << 3));
      const rs = ld(qSeq, c + 1);
      if (rk < ck || (rk == ck && rs < cs)) {
        c++;
        ck = rk;
        cs = rs;
      }
    }
    if (key < ck || (key == ck && seq < cs)) break;
    store<i64>(qKey + (<usize>i << 3), ck);
    st(qSeq, i, cs);
    st(qId, i, ld(qId, c));
    i = c;
  }
  store<i64>(qKey + (<usize>i << 3), key);
  st(qSeq, i, seq);
  st(qId, i, id);
}

// ---- transitions

@inline function applicableOp(s: usize, o: i32): bool {
  for (let i = ld(preStart, o), e = ld(preStart, o + 1); i < e; i++) if (!has(s, ld(pre, i))) return false;
  for (let i = ld(negStart, o), e = ld(negStart, o + 1); i < e; i++) if (has(s, ld(neg, i))) return false;
  return true;
}

/** Applicable operators of `s` into `ops`, in successor order; returns how many. */
function applicable(s: usize): i32 {
  let n = 0;
  for (let i = 0; i < nUnkeyed; i++) {
    const o = ld(unkeyed, i);
    if (applicableOp(s, o)) st(ops, n++, o);
  }
  for (let w = 0; w < words; w++) {
    let bits = load<u32>(s + (<usize>w << 2));
    while (bits != 0) {
      const f = (w << 5) + <i32>ctz(bits);
      bits &= bits - 1;
      for (let i = ld(keyStart, f), e = ld(keyStart, f + 1); i < e; i++) {
        const o = ld(keyOps, i);
        if (applicableOp(s, o)) st(ops, n++, o);
      }
    }
  }
  // insertion sort by (successor position, id), or by id: lists are short
  for (let i = 1; i < n; i++) {
    const v = ld(ops, i);
    const pv = order != 0 ? ld(order, v) : v;
    let j = i - 1;
    while (j >= 0) {
      const u = ld(ops, j);
      const pu = order != 0 ? ld(order, u) : u;
      if (pu < pv || (pu == pv && u < v)) break;
      st(ops, j + 1, u);
      j--;
    }
    st(ops, j + 1, v);
  }
  return n;
}

@inline function setFact(out: usize, f: i32, on: bool): void {
  const p = out + (<usize>(f >>> 5) << 2);
  const bit = <u32>1 << <u32>(f & 31);
  store<u32>(p, on ? load<u32>(p) | bit : load<u32>(p) & ~bit);
}

/**
 * Successor of `s` by `o` into `out` (never `s`): the conditional effects that fire on `s`, then
 * deletes (the operator's, then the effects'), adds (the same order; add wins), the projection.
 */
function apply(s: usize, o: i32, out: usize): void {
  let nFired = 0;
  if (ceStart != 0) {
    for (let e = ld(ceStart, o), ee = ld(ceStart, o + 1); e < ee; e++) {
      let ok = true;
      for (let i = ld(ceCondStart, e), n = ld(ceCondStart, e + 1); i < n; i++) {
        if (!has(s, ld(ceCond, i))) {
          ok = false;
          break;
        }
      }
      if (ok) {
        for (let i = ld(ceNegStart, e), n = ld(ceNegStart, e + 1); i < n; i++) {
          if (has(s, ld(ceNeg, i))) {
            ok = false;
            break;
          }
        }
      }
      if (ok) st(fired, nFired++, e);
    }
  }
  memory.copy(out, s, <usize>words << 2);
  for (let i = ld(delStart, o), e = ld(delStart, o + 1); i < e; i++) setFact(out, ld(del, i), false);
  for (let k = 0; k < nFired; k++) {
    const e = ld(fired, k);
    if (load<u8>(ceIsAdd + <usize>e) == 0) setFact(out, ld(ceFact, e), false);
  }
  for (let i = ld(addStart, o), e = ld(addStart, o + 1); i < e; i++) setFact(out, ld(add, i), true);
  for (let k = 0; k < nFired; k++) {
    const e = ld(fired, k);
    if (load<u8>(ceIsAdd + <usize>e) != 0) setFact(out, ld(ceFact, e), true);
  }
  if (factMask != 0) {
    for (let w = 0; w < words; w++) {
      const p = out + (<usize>w << 2);
      store<u32>(p, load<u32>(p) & load<u32>(factMask + (<usize>w << 2)));
    }
  }
}

function isGoal(s: usize): bool {
  for (let i = 0; i < nGoalPos; i++) if (!has(s, ld(goalPos, i))) return false;
  for (let i = 0; i < nGoalNeg; i++) if (has(s, ld(goalNeg, i))) return false;
  return true;
}

// ---- heuristic

/** h of the state at `s`: DEAD for a relaxed dead end, INTERNAL - 10 on a kernel error. */
function evaluate(s: usize): i32 {
  evaluated++;
  if (mapVars >= 0) {
    memory.fill(hState, 0, <usize>hWords << 2);
    for (let v = 0; v < mapVars; v++) {
      let q = -1;
      for (let k = ld(atomStart, v), e = ld(atomStart, v + 1); k < e; k++) {
        if (has(s, ld(atomFact, k))) {
          if (q != -1) return fromHost(s);
          q = ld(atomProp, k);
        }
      }
      if (q == -1) q = ld(noneProp, v);
      if (q == -1) return fromHost(s);
      const p = hState + (<usize>(q >>> 5) << 2);
      store<u32>(p, load<u32>(p) | (<u32>1 << <u32>(q & 31)));
    }
  } else {
    const n = min(words, hWords);
    memory.copy(hState, s, <usize>n << 2);
    if (hWords > n) memory.fill(hState + (<usize>n << 2), 0, <usize>(hWords - n) << 2);
  }
  const h = hKind == H_LMCUT ? lmcut() : hmax();
  if (h < 0) return -10;
  return h >= INF ? DEAD : h;
}

function fromHost(s: usize): i32 {
  const h = fallback(s, words);
  return h >= INF ? DEAD : h;
}

/** The last search's states (`stat(8)` of them, `words` each, by id). */
export function arenaPtr(): usize {
  return arena;
}

/** The heuristic value of each state of the last search, by id (-2 for a relaxed dead end). */
export function hPtr(): usize {
  return hv;
}

/** The plan's operators, first to last, once `search` returned SOLVED. */
export function planPtr(): usize {
  return plan;
}

/** Counters of the last search: 0 expanded, 1 generated, 2 evaluated, 3 initial h (-1 none), 4 cost, 5 plan length, 6 expanded until the last f jump, 7 reopened, 8 states. */
export function stat(i: i32): i32 {
  switch (i) {
    case 0: return expanded;
    case 1: return generated;
    case 2: return evaluated;
    case 3: return initialH;
    case 4: return solutionCost;
    case 5: return planLen;
    case 6: return untilJump;
    case 7: return reopened;
    default: return count;
  }
}

// ---- the deadline's clock, read as DeadlineClock in src/search/types.ts reads it (a fixed count
// of expansions left 100-200 ms between reads with LM-Cut on IPC tasks, more on a busy machine)
const CLOCK_READ_MS: f64 = 4;
const MAX_STRIDE: i32 = 1024;
let clockDeadline: f64 = Infinity;
let clockLeft: i32 = 1;
let clockStride: i32 = 1;
let clockLast: f64 = 0;

function clockStart(deadline: f64): void {
  clockDeadline = deadline;
  clockStride = 1;
  // no deadline: no reads (the countdown restarts at its top when it runs out)
  clockLeft = deadline == Infinity ? i32.MAX_VALUE : 1;
  clockLast = deadline == Infinity ? 0 : now();
}

/** One unit of work done (an expansion or an evaluation): true once the deadline has passed. */
@inline function clockPassed(): bool {
  return --clockLeft <= 0 && clockRead();
}

function clockRead(): bool {
  if (clockDeadline == Infinity) {
    clockLeft = i32.MAX_VALUE;
    return false;
  }
  const t = now();
  if (t >= clockDeadline) {
    clockLeft = 1;
    return true;
  }
  const dt = t - clockLast;
  clockLast = t;
  // cheap units: double the stride; dear ones: cut it to fit the interval at once
  if (dt < CLOCK_READ_MS / 2) clockStride = min(clockStride * 2, MAX_STRIDE);
  else clockStride = max(1, <i32>Math.floor(<f64>clockStride * CLOCK_READ_MS / dt));
  clockLeft = clockStride;
  return false;
}

/** Empties the registry, the open list and the counters of the last search. */
function resetSearch(): void {
  if (cap == 0) growStates(1024);
  else {
    count = 0;
    memory.fill(table, 0xff, <usize>(tableMask + 1) << 2);
  }
  qSize = 0;
  qNext = 0;
  expanded = 0;
  generated = 0;
  evaluated = 0;
  initialH = -1;
  solutionCost = -1;
  untilJump = 0;
  reopened = 0;
  planLen = 0;
}

/**
 * A* from the state in `startBuffer()` (projected here), tie-breaking on (f, h, FIFO), goal
 * test at expansion, reopening; states with f > `bound` are never queued (UNSOLVABLE then means
 * no plan of cost <= bound). Stops with LIMIT after `maxExpanded` expansions or once
 * `now() > deadline` (read as `DeadlineClock` in types.ts reads it: every `stride` expansions and
 * evaluations, the stride adapted to about 4 ms between reads). Returns SOLVED, UNSOLVABLE, LIMIT or
 * INTERNAL (an empty or zero-cost cut: a bug).
 */
export function search(maxExpanded: f64, deadline: f64, bound: i32): i32 {
  resetSearch();
  clockStart(deadline);
  const start = nxt;
  if (factMask != 0) {
    for (let w = 0; w < words; w++) {
      const p = start + (<usize>w << 2);
      store<u32>(p, load<u32>(p) & load<u32>(factMask + (<usize>w << 2)));
    }
  }
  const startId = intern(start);
  let known = count;
  const h0 = evaluate(start);
  if (h0 == -10) return INTERNAL;
  st(hv, startId, h0);
  st(closed, startId, 0);
  if (h0 == DEAD) return UNSOLVABLE;
  initialH = h0;
  if (h0 > bound) return UNSOLVABLE;
  st(gv, startId, 0);
  st(parent, startId, -1);
  st(parentOp, startId, -1);
  qPush(h0, h0, startId);
  let lastF = -1;
  while (qSize > 0) {
    const f = <i32>(load<i64>(qKey) >> 32);
    const id = ld(qId, 0);
    qPop();
    if (load<u8>(closed + <usize>id) == 1) continue;
    const gid = ld(gv, id);
    const hid = ld(hv, id);
    if (f != gid + hid) continue; // stale entry from before a cheaper path was found
    if (<f64>expanded >= maxExpanded) return LIMIT;
    if (clockPassed()) return LIMIT;
    store<u8>(closed + <usize>id, 1);
    if (f > lastF) {
      lastF = f;
      untilJump = expanded;
    }
    expanded++;
    memory.copy(cur, arena + ((<usize>id * <usize>words) << 2), <usize>words << 2);
    if (isGoal(cur)) {
      solutionCost = gid;
      let len = 0;
      for (let x = id; ld(parent, x) != -1; x = ld(parent, x)) len++;
      if (len > planCap) {
        planCap = max(len, 64);
        plan = alloc(planCap << 2);
      }
      planLen = len;
      let k = len;
      for (let x = id; ld(parent, x) != -1; x = ld(parent, x)) st(plan, --k, ld(parentOp, x));
      return SOLVED;
    }
    const n = applicable(cur);
    for (let i = 0; i < n; i++) {
      const op = ld(ops, i);
      if (opMask != 0 && load<u8>(opMask + <usize>op) == 0) continue;
      apply(cur, op, nxt);
      generated++;
      const ng = gid + ld(opCost, op);
      const sid = intern(nxt);
      if (sid >= known) {
        known = count;
        const h = evaluate(nxt);
        if (h == -10) return INTERNAL;
        st(hv, sid, h);
        store<u8>(closed + <usize>sid, 0);
        if (clockPassed()) return LIMIT;
        if (h == DEAD) continue;
        st(gv, sid, ng);
        st(parent, sid, id);
        st(parentOp, sid, op);
        if (ng + h > bound) continue; // recorded (a cheaper path may queue it), not queued
        qPush(ng + h, h, sid);
      } else {
        const h = ld(hv, sid);
        if (h == DEAD || ng >= ld(gv, sid)) continue;
        // cheaper path to a known state: reopen
        if (load<u8>(closed + <usize>sid) == 1) reopened++;
        st(gv, sid, ng);
        st(parent, sid, id);
        st(parentOp, sid, op);
        store<u8>(closed + <usize>sid, 0);
        if (ng + h > bound) continue;
        qPush(ng + h, h, sid);
      }
    }
  }
  return UNSOLVABLE;
}
