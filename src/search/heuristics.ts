import type { GroundTask } from "../task/types.js";
import type { Heuristic } from "./types.js";
import { AdaptiveQueue } from "./queue.js";
import { fdrTaskOf, type FdrTask } from "../task/fdr.js";
import { buildRelaxedTaskFromFdr, FdrStateMap, relaxedTaskOf, type RelaxedTask } from "./relaxed.js";
import { LmCutKernel } from "./lmcut-kernel.js";
import { work } from "./work.js";

/**
 * Which implementation evaluates h^max and LM-Cut; all give the same values. "wasm" runs the
 * WebAssembly kernel (`LmCutKernel`) where it is built and fits the costs, else JavaScript;
 * "js" always runs the JavaScript reference; "auto" runs JavaScript for the first
 * KERNEL_AFTER_EVALUATIONS states, then as "wasm". `createHeuristic` (solve) uses "wasm".
 */
export type HeuristicEngine = "auto" | "wasm" | "js";

/**
 * When a heuristic moves to the kernel. A kernel instance costs about 0.1 ms to make (its own
 * linear memory, the task copied in): the labeller makes h^max and LM-Cut for thousands of
 * tasks and evaluates many of them only a handful of times (dead-end proofs; spanner's
 * labelling was 15-20% slower with a kernel made at once), so "auto" waits until a heuristic is
 * evaluated often enough for the kernel to pay.
 */
class KernelSwitch {
  private kernel: LmCutKernel | null = null;
  private remaining: number;

  constructor(
    private readonly rt: RelaxedTask,
    engine: HeuristicEngine,
  ) {
    const fits = engine !== "js" && LmCutKernel.fits(rt);
    this.remaining = !fits ? Infinity : engine === "auto" ? KERNEL_AFTER_EVALUATIONS : 0;
    // "wasm": made now, with the heuristic, not inside the first evaluation (a search's clock)
    if (this.remaining === 0) this.get();
  }

  get willUseKernel(): boolean {
    return this.remaining !== Infinity;
  }

  /** The kernel, or null while JavaScript evaluates. */
  get(): LmCutKernel | null {
    if (this.kernel === null && this.remaining-- <= 0) this.kernel = LmCutKernel.create(this.rt);
    return this.kernel;
  }
}

/**
 * What a search kernel needs to evaluate a heuristic itself (`SearchKernel`): the relaxation,
 * the map from task states to its states (null: the same facts), and the heuristic's own
 * evaluation for states the map rejects.
 */
export interface KernelHeuristicSpec {
  kind: "lmcut" | "hmax";
  rt: RelaxedTask;
  map: FdrStateMap | null;
  fallback(state: Uint32Array): number;
}

/** Evaluations in JavaScript before an "auto" heuristic moves to the kernel. */
const KERNEL_AFTER_EVALUATIONS = 64;

/** Names accepted by `createHeuristic`. */
export type HeuristicName = "blind" | "hmax" | "lmcut";
export const HEURISTIC_NAMES: readonly HeuristicName[] = ["blind", "hmax", "lmcut"];

const INF = 0x3fffffff;

function isGoalState(task: GroundTask, s: Uint32Array): boolean {
  const gp = task.goalPos;
  for (let i = 0; i < gp.length; i++) {
    const f = gp[i]!;
    if ((s[f >>> 5]! & (1 << (f & 31))) === 0) return false;
  }
  const gn = task.goalNeg;
  for (let i = 0; i < gn.length; i++) {
    const f = gn[i]!;
    if ((s[f >>> 5]! & (1 << (f & 31))) !== 0) return false;
  }
  return true;
}

/** Blind heuristic: 0 in goal states, else the cheapest operator cost. */
export class BlindHeuristic implements Heuristic {
  readonly name = "blind";
  private readonly minCost: number;
  constructor(private readonly task: GroundTask) {
    let m = task.numOps > 0 ? Infinity : 0;
    for (let o = 0; o < task.numOps; o++) if (task.opCost[o]! < m) m = task.opCost[o]!;
    this.minCost = m;
  }
  evaluate(state: Uint32Array): number {
    return isGoalState(this.task, state) ? 0 : this.minCost;
  }
}

/**
 * Dijkstra-style h^max exploration over a RelaxedTask with operator costs that LM-Cut can lower.
 * All arrays are allocated once; `explore` fills `factCost`, `opSupp` (the precondition
 * choice function: a precondition of maximal h^max) and `opSuppCost`, and for LM-Cut the lists
 * of ops each fact supports (`suppHead`/`suppNext`), kept in op id order: LM-Cut visits a fact's
 * ops in that order, as Fast Downward does by scanning all ops a fact is a precondition of.
 */
class RelaxedExplorer {
  readonly rt: RelaxedTask;
  readonly factCost: Int32Array;
  readonly opUnsat: Int32Array;
  readonly opSupp: Int32Array;
  readonly opSuppCost: Int32Array;
  readonly redCost: Int32Array;
  readonly suppHead: Int32Array;
  readonly suppNext: Int32Array;
  /** 1 where a fact's supporter list may be out of id order (moves prepend; sorted on use). */
  readonly suppDirty: Uint8Array;
  readonly queue: AdaptiveQueue;
  private sortBuf: Int32Array;
  /** The relaxed facts true in the last explored state, in causal order. */
  readonly stateFacts: Int32Array;
  numStateFacts = 0;
  private readonly preCount: Int32Array;

  constructor(rt: RelaxedTask) {
    this.rt = rt;
    this.factCost = new Int32Array(rt.numFacts);
    this.opUnsat = new Int32Array(rt.numOps);
    this.opSupp = new Int32Array(rt.numOps);
    this.opSuppCost = new Int32Array(rt.numOps);
    this.redCost = new Int32Array(rt.numOps);
    this.preCount = new Int32Array(rt.numOps);
    this.suppHead = new Int32Array(rt.numFacts);
    this.suppNext = new Int32Array(rt.numOps);
    this.suppDirty = new Uint8Array(rt.numFacts);
    this.sortBuf = new Int32Array(16);
    this.stateFacts = new Int32Array(rt.factOrder.length);
    for (let o = 0; o < rt.numOps; o++) this.preCount[o] = rt.preStart[o + 1]! - rt.preStart[o]!;
    this.queue = new AdaptiveQueue();
  }

  /**
   * Full h^max from `state` with costs `costs`. With `stopAtGoal` the exploration ends when the
   * goal fact is popped (enough for h^max, not for LM-Cut). Returns h^max(GOAL) (INF if unreachable).
   */
  explore(state: Uint32Array, costs: Int32Array, stopAtGoal: boolean): number {
    const rt = this.rt;
    const fc = this.factCost;
    const unsat = this.opUnsat;
    const supp = this.opSupp;
    const suppCost = this.opSuppCost;
    const preOfStart = rt.preOfStart;
    const preOf = rt.preOf;
    const effStart = rt.effStart;
    const eff = rt.eff;
    const q = this.queue;
    fc.fill(INF);
    unsat.set(this.preCount);
    q.clear();
    // the state's facts (and complements of its false facts) in causal order, TRUE last: with
    // LIFO buckets that fixes which equal-cost precondition is popped last, i.e. becomes an
    // operator's supporter. They are kept in `stateFacts` for LM-Cut's cut search.
    const order = rt.factOrder;
    const test = rt.factTest;
    const neg = rt.factNeg;
    const sf = this.stateFacts;
    let n = 0;
    for (let i = 0; i < order.length; i++) {
      const t = test[i]!;
      if (((state[t >>> 5]! >>> (t & 31)) & 1) !== neg[i]) {
        const f = order[i]!;
        fc[f] = 0;
        q.push(0, f);
        sf[n++] = f;
      }
    }
    this.numStateFacts = n;
    fc[rt.trueFact] = 0;
    q.push(0, rt.trueFact);
    const goal = rt.goalFact;
    while (!q.empty) {
      const f = q.pop();
      const d = q.lastKey;
      if (d > fc[f]!) continue;
      if (f === goal && stopAtGoal) return d;
      for (let k = preOfStart[f]!, e = preOfStart[f + 1]!; k < e; k++) {
        const o = preOf[k]!;
        if (--unsat[o] === 0) {
          supp[o] = f;
          suppCost[o] = d;
          const v = d + costs[o]!;
          for (let j = effStart[o]!, je = effStart[o + 1]!; j < je; j++) {
            const g = eff[j]!;
            if (v < fc[g]!) {
              fc[g] = v;
              q.push(v, g);
            }
          }
        }
      }
    }
    if (!stopAtGoal) {
      // supporter lists in id order: prepend in decreasing id order
      const head = this.suppHead;
      const next = this.suppNext;
      head.fill(-1);
      this.suppDirty.fill(0);
      for (let o = rt.numOps - 1; o >= 0; o--) {
        if (unsat[o] !== 0) continue;
        const f = supp[o]!;
        next[o] = head[f]!;
        head[f] = o;
      }
    }
    return fc[goal]!;
  }

  /**
   * Puts fact f's supporter list back in id order. Moving an op to another list prepends it
   * (O(1)) and marks that list; a walk to its sorted place was quadratic where one fact
   * supports thousands of ops (labyrinth).
   */
  sortList(f: number): void {
    this.suppDirty[f] = 0;
    const head = this.suppHead;
    const next = this.suppNext;
    let n = 0;
    for (let o = head[f]!; o !== -1; o = next[o]!) {
      if (n === this.sortBuf.length) {
        const b = new Int32Array(n * 2);
        b.set(this.sortBuf);
        this.sortBuf = b;
      }
      this.sortBuf[n++] = o;
    }
    if (n < 2) return;
    const a = this.sortBuf.subarray(0, n);
    a.sort();
    head[f] = a[0]!;
    for (let i = 0; i + 1 < n; i++) next[a[i]!] = a[i + 1]!;
    next[a[n - 1]!] = -1;
  }

  /**
   * After lowering the cost of `cut` ops, update h^max incrementally: costs only decrease, so
   * re-seed the cut ops' effects and propagate decreases; an op whose supporter got cheaper
   * re-picks its supporter (first precondition of maximal cost).
   */
  updateAfterCut(cut: Int32Array, cutLen: number): void {
    const rt = this.rt;
    const fc = this.factCost;
    const unsat = this.opUnsat;
    const supp = this.opSupp;
    const suppCost = this.opSuppCost;
    const costs = this.redCost;
    const preStart = rt.preStart;
    const pre = rt.pre;
    const effStart = rt.effStart;
    const eff = rt.eff;
    const q = this.queue;
    // as Fast Downward: no clear (the queue is empty), and as many virtual pushes as facts, which
    // keeps the queue in bucket mode longer
    q.addVirtualPushes(rt.numFacts - 2);
    for (let i = 0; i < cutLen; i++) {
      const o = cut[i]!;
      const v = suppCost[o]! + costs[o]!;
      for (let j = effStart[o]!, je = effStart[o + 1]!; j < je; j++) {
        const g = eff[j]!;
        if (v < fc[g]!) {
          fc[g] = v;
          q.push(v, g);
        }
      }
    }
    const head = this.suppHead;
    const next = this.suppNext;
    const dirty = this.suppDirty;
    while (!q.empty) {
      const f = q.pop();
      const d = q.lastKey;
      if (d > fc[f]!) continue;
      if (dirty[f] !== 0) this.sortList(f);
      // the ops f supports in id order: this push order decides the pop order of equal-cost
      // facts, as in Fast Downward's incremental update
      for (let o = head[f]!, p = -1, nx = 0; o !== -1; o = nx) {
        nx = next[o]!;
        const old = suppCost[o]!;
        if (old <= d) {
          p = o;
          continue;
        }
        // re-pick: the first (causal order) precondition of maximal cost if costlier than f, else f
        let best = f;
        let bestCost = d;
        for (let j = preStart[o]!, je = preStart[o + 1]!; j < je; j++) {
          const p = pre[j]!;
          const c = fc[p]!;
          if (c > bestCost) {
            bestCost = c;
            best = p;
          }
        }
        if (best !== f) {
          // move o to best's list: at its place in id order if that is near the head, else
          // prepended, the list sorted when next walked
          if (p === -1) head[f] = nx;
          else next[p] = nx;
          supp[o] = best;
          let a = -1;
          let b = head[best]!;
          if (dirty[best] === 0) {
            for (let steps = 0; b !== -1 && b < o; steps++) {
              if (steps === 16) {
                a = -1;
                b = head[best]!;
                dirty[best] = 1;
                break;
              }
              a = b;
              b = next[b]!;
            }
          }
          next[o] = b;
          if (a === -1) head[best] = o;
          else next[a] = o;
        } else p = o;
        if (bestCost < old) {
          suppCost[o] = bestCost;
          const v = bestCost + costs[o]!;
          for (let j = effStart[o]!, je = effStart[o + 1]!; j < je; j++) {
            const g = eff[j]!;
            if (v < fc[g]!) {
              fc[g] = v;
              q.push(v, g);
            }
          }
        }
      }
    }
  }
}

/** A delete-relaxation heuristic evaluated by the kernel or by JavaScript (`HeuristicEngine`). */
abstract class RelaxationHeuristic implements Heuristic {
  abstract readonly name: string;
  protected readonly rt: RelaxedTask;
  private readonly kernel: KernelSwitch;

  constructor(rt: RelaxedTask, engine: HeuristicEngine) {
    this.rt = rt;
    this.kernel = new KernelSwitch(rt, engine);
  }

  /** True when the WebAssembly kernel evaluates, or will after the first few states (`HeuristicEngine`). */
  get usesKernel(): boolean {
    return this.kernel.willUseKernel;
  }

  evaluate(state: Uint32Array): number {
    work.heuristicCalls++;
    const k = this.kernel.get();
    return k !== null ? this.evaluateKernel(k, state) : this.evaluateJs(state);
  }

  /** This heuristic for a search kernel (evaluated on the task's own facts). */
  kernelSpec(): KernelHeuristicSpec {
    return { kind: this.name === "hmax" ? "hmax" : "lmcut", rt: this.rt, map: null, fallback: (s) => this.evaluate(s) };
  }

  protected abstract evaluateKernel(kernel: LmCutKernel, state: Uint32Array): number;
  protected abstract evaluateJs(state: Uint32Array): number;
}

/** h^max (Bonet & Geffner): admissible; conditional effects as separate relaxed operators. */
export class HMaxHeuristic extends RelaxationHeuristic {
  readonly name = "hmax";
  private ex: RelaxedExplorer | null = null;
  constructor(task: GroundTask, rt: RelaxedTask = relaxedTaskOf(task), engine: HeuristicEngine = "auto") {
    super(rt, engine);
  }
  protected evaluateKernel(kernel: LmCutKernel, state: Uint32Array): number {
    return kernel.hmax(state);
  }
  protected evaluateJs(state: Uint32Array): number {
    this.ex ??= new RelaxedExplorer(this.rt);
    const h = this.ex.explore(state, this.rt.cost, true);
    return h >= INF ? Infinity : h;
  }
}

/**
 * LM-Cut (Helmert & Domshlak 2009). Each round: h^max with the precondition choice function,
 * the goal zone (facts reaching GOAL through zero-cost justification edges), the cut (ops whose
 * pcf is reachable from the state without entering the goal zone and which add a goal-zone
 * fact), h += min cut cost, lower the cut's costs, incremental h^max; until h^max(GOAL) = 0.
 *
 * Tasks with conditional effects: cost sharing between the relaxed operators of one real
 * operator breaks admissibility, so `createHeuristic("lmcut")` falls back to h^max there.
 * Evaluated by the WebAssembly kernel where it runs (`HeuristicEngine`), else by `JsLmCut`.
 */
export class LmCutHeuristic extends RelaxationHeuristic {
  readonly name = "lmcut";
  private js: JsLmCut | null = null;
  constructor(task: GroundTask, rt: RelaxedTask = relaxedTaskOf(task), engine: HeuristicEngine = "auto") {
    super(rt, engine);
  }
  protected evaluateKernel(kernel: LmCutKernel, state: Uint32Array): number {
    return kernel.lmcut(state);
  }
  protected evaluateJs(state: Uint32Array): number {
    this.js ??= new JsLmCut(this.rt);
    return this.js.evaluate(state);
  }
}

/** The JavaScript LM-Cut: the reference the WebAssembly kernel is a port of. */
class JsLmCut {
  private readonly ex: RelaxedExplorer;
  private readonly zone: Int32Array;
  private readonly reached: Int32Array;
  private readonly touches: Int32Array;
  private readonly stack: Int32Array;
  private readonly cut: Int32Array;
  private round = 0;

  constructor(rt: RelaxedTask) {
    this.ex = new RelaxedExplorer(rt);
    this.zone = new Int32Array(rt.numFacts);
    this.reached = new Int32Array(rt.numFacts);
    this.touches = new Int32Array(rt.numOps);
    this.stack = new Int32Array(rt.numFacts + 1);
    this.cut = new Int32Array(rt.numOps);
  }

  evaluate(state: Uint32Array): number {
    const ex = this.ex;
    const rt = ex.rt;
    const red = ex.redCost;
    red.set(rt.cost);
    const goal = rt.goalFact;
    const fc = ex.factCost;
    if (ex.explore(state, red, false) >= INF) return Infinity;
    const unsat = ex.opUnsat;
    const supp = ex.opSupp;
    const zone = this.zone;
    const reached = this.reached;
    const touches = this.touches;
    const stack = this.stack;
    const cut = this.cut;
    const addedByStart = rt.addedByStart;
    const addedBy = rt.addedBy;
    const head = ex.suppHead;
    const next = ex.suppNext;
    const dirty = ex.suppDirty;
    const stateFacts = ex.stateFacts;
    const numStateFacts = ex.numStateFacts;
    const effStart = rt.effStart;
    const eff = rt.eff;
    let h = 0;
    while (fc[goal]! !== 0) {
      // stamps instead of clearing arrays each round
      if (this.round >= 0x7ffffff0) this.resetStamps();
      const r = ++this.round;
      // goal zone: backwards from GOAL through zero-cost edges pcf(o) -> eff(o)
      let sp = 0;
      zone[goal] = r;
      stack[sp++] = goal;
      while (sp > 0) {
        const f = stack[--sp]!;
        for (let k = addedByStart[f]!, e = addedByStart[f + 1]!; k < e; k++) {
          const o = addedBy[k]!;
          touches[o] = r; // o adds a goal-zone fact
          if (unsat[o] !== 0 || red[o] !== 0) continue;
          const p = supp[o]!;
          if (zone[p] !== r) {
            zone[p] = r;
            stack[sp++] = p;
          }
        }
      }
      // forward from TRUE and the state along pcf edges, stopping at the goal zone. The cut's
      // order is the order its effects are re-seeded in, which decides ties in the next round:
      // TRUE, then the facts in causal order, ops in id order, as Fast Downward does.
      let cutLen = 0;
      sp = 0;
      reached[rt.trueFact] = r;
      stack[sp++] = rt.trueFact;
      for (let i = 0; i < numStateFacts; i++) {
        const f = stateFacts[i]!;
        reached[f] = r;
        stack[sp++] = f;
      }
      let minCost = INF;
      while (sp > 0) {
        const f = stack[--sp]!;
        if (dirty[f] !== 0) ex.sortList(f);
        for (let o = head[f]!; o !== -1; o = next[o]!) {
          // an op reaching the goal zone joins the cut and does not extend the reached part
          // (each op is met once: it has exactly one supporter)
          if (touches[o] === r) {
            cut[cutLen++] = o;
            if (red[o]! < minCost) minCost = red[o]!;
            continue;
          }
          for (let j = effStart[o]!, je = effStart[o + 1]!; j < je; j++) {
            const g = eff[j]!;
            if (reached[g] !== r) {
              reached[g] = r;
              // a fact that supports no operator leads nowhere: mark it, skip the push
              if (head[g] !== -1) stack[sp++] = g;
            }
          }
        }
      }
      if (cutLen === 0 || minCost <= 0) throw new Error("lmcut: empty or zero-cost cut (internal error)");
      h += minCost;
      for (let i = 0; i < cutLen; i++) red[cut[i]!]! -= minCost;
      ex.updateAfterCut(cut, cutLen);
    }
    return h;
  }

  private resetStamps(): void {
    this.zone.fill(0);
    this.reached.fill(0);
    this.touches.fill(0);
    this.round = 0;
  }
}

/**
 * LM-Cut on the finite-domain view of a task (`buildFdrTask`): Fast Downward's relaxation, so
 * Fast Downward's values and tie-breaking. A state that breaks a mutex group (never reachable,
 * but callers may pass one) is evaluated on the plain relaxation instead, which is admissible
 * for any state.
 */
export class FdrLmCutHeuristic implements Heuristic {
  readonly name = "lmcut";
  private readonly lm: LmCutHeuristic;
  private readonly map: FdrStateMap;
  private readonly buf: Uint32Array;
  private plain: LmCutHeuristic | null = null;

  constructor(
    private readonly task: GroundTask,
    fdr: FdrTask,
    engine: HeuristicEngine = "wasm",
  ) {
    // built where a search is under way (solve, or after AdaptiveLmCutHeuristic's upgrade)
    this.lm = new LmCutHeuristic(task, buildRelaxedTaskFromFdr(fdr), engine);
    this.map = new FdrStateMap(fdr);
    this.buf = new Uint32Array(this.map.words);
  }

  evaluate(state: Uint32Array): number {
    work.heuristicCalls++;
    if (this.map.map(state, this.buf)) return this.lm.evaluate(this.buf);
    this.plain ??= new LmCutHeuristic(this.task, relaxedTaskOf(this.task), "wasm");
    return this.plain.evaluate(state);
  }

  /** This heuristic for a search kernel: LM-Cut on the view through the state map. */
  kernelSpec(): KernelHeuristicSpec {
    return { ...this.lm.kernelSpec(), map: this.map, fallback: (s) => this.evaluate(s) };
  }
}

/**
 * LM-Cut that starts on the plain relaxation and moves to the finite-domain view (`fdrTaskOf`)
 * after `upgradeAfter` evaluations. Building the view (fact groups, operators, variable order)
 * costs as much as hundreds of evaluations on a small task, and on the built-in domains it buys
 * no fewer expansions: the labeller's oracle, which makes one LM-Cut per problem and often
 * evaluates only a few dozen states, was 15-25% slower with it. Tasks that need many
 * evaluations, where the view's mutex information pays (IPC domains with negative conditions or
 * multi-valued variables), still get it. Both are admissible, so values mixed in caches stay
 * lower bounds.
 */
export class AdaptiveLmCutHeuristic implements Heuristic {
  readonly name: string;
  private current: Heuristic;
  private evaluations = 0;
  private upgraded: boolean;

  constructor(
    private readonly task: GroundTask,
    private readonly upgradeAfter = ADAPTIVE_LMCUT_UPGRADE,
  ) {
    const rt = relaxedTaskOf(task);
    // with conditional effects both are h^max (see createHeuristic): nothing to upgrade to
    this.upgraded = rt.hasConditionalEffects;
    this.current = rt.hasConditionalEffects ? new HMaxHeuristic(task, rt) : new LmCutHeuristic(task, rt);
    this.name = this.current.name;
  }

  evaluate(state: Uint32Array): number {
    if (!this.upgraded && ++this.evaluations > this.upgradeAfter) {
      this.upgraded = true;
      const fdr = fdrTaskOf(this.task);
      if (!("unsupported" in fdr)) this.current = new FdrLmCutHeuristic(this.task, fdr);
    }
    return this.current.evaluate(state);
  }
}

/** Evaluations after which `AdaptiveLmCutHeuristic` builds the finite-domain view. */
export const ADAPTIVE_LMCUT_UPGRADE = 1000;

/**
 * Create a heuristic by name, for a search (the WebAssembly kernel from the first state, where it
 * runs, unless `engine` says otherwise). `lmcut` runs on the task's finite-domain view (`fdrTaskOf`: Fast
 * Downward's relaxation and values) where there is one, else on the plain relaxation, and falls
 * back to h^max on tasks with conditional effects (the returned heuristic's `name` is then "hmax").
 */
export function createHeuristic(task: GroundTask, name: HeuristicName, engine: HeuristicEngine = "wasm"): Heuristic & { kernelSpec?(): KernelHeuristicSpec } {
  switch (name) {
    case "blind":
      return new BlindHeuristic(task);
    case "hmax":
      return new HMaxHeuristic(task, relaxedTaskOf(task), engine);
    case "lmcut": {
      const fdr = fdrTaskOf(task);
      if (!("unsupported" in fdr)) return new FdrLmCutHeuristic(task, fdr, engine);
      const rt = relaxedTaskOf(task);
      return rt.hasConditionalEffects ? new HMaxHeuristic(task, rt, engine) : new LmCutHeuristic(task, rt, engine);
    }
    default:
      throw new Error(`unknown heuristic '${String(name)}' (expected blind, hmax or lmcut)`);
  }
}
