// An independent brute-force labeller for the label tests. It shares nothing with src/search or
// src/label: its own explicit state space (string keys), its own applicability and goal tests,
// its own backward Dijkstra, and enumeration of optimal plans for backtracking.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseDomain, parseProblem } from "../src/pddl/index.js";
import { ground } from "../src/task/index.js";
import { applyOp } from "../src/task/state.js";
import type { GroundTask } from "../src/task/types.js";
import type { Category } from "../src/label/types.js";

export const ROOT = join(import.meta.dirname, "..");

/** Ground a fixture problem of a built-in domain. */
export function loadTask(domain: string, problemFile: string): GroundTask {
  const dFile = join(ROOT, "domains", domain, "domain.pddl");
  const pFile = join(ROOT, "tests", "fixtures", "label", problemFile);
  const d = parseDomain(readFileSync(dFile, "utf8"), dFile);
  const p = parseProblem(readFileSync(pFile, "utf8"), pFile, d);
  return ground(d, p);
}

const key = (s: Uint32Array): string => Array.from(s).join(",");
const bit = (s: Uint32Array, f: number): boolean => ((s[f >>> 5]! >>> (f & 31)) & 1) === 1;

export interface BruteLabel {
  category: Category;
  hBefore: number;
  hAfter: number | null;
  cost: number | null;
  backtrackTo: number | null;
  /** "relaxed-unreachable" or the number of states reachable from s'. */
  deadEnd: string | number | null;
}

export class BruteOracle {
  readonly states = new Map<string, Uint32Array>();
  readonly h = new Map<string, number>();
  readonly succ = new Map<string, { op: number; to: string }[]>();

  constructor(readonly task: GroundTask, maxStates = 300_000) {
    const queue = [task.init];
    this.states.set(key(task.init), task.init);
    for (let i = 0; i < queue.length; i++) {
      const s = queue[i]!;
      const edges: { op: number; to: string }[] = [];
      for (let op = 0; op < task.numOps; op++) {
        if (!this.applicable(s, op)) continue;
        const t = applyOp(task, s, op);
        const k = key(t);
        edges.push({ op, to: k });
        if (!this.states.has(k)) {
          this.states.set(k, t);
          queue.push(t);
          if (queue.length > maxStates) throw new Error("brute oracle: state space too large");
        }
      }
      this.succ.set(key(s), edges);
    }
    // Backward Dijkstra (simple O(n^2)-free variant: bucketed by cost).
    const pred = new Map<string, { from: string; cost: number }[]>();
    for (const [from, edges] of this.succ) {
      for (const e of edges) {
        const list = pred.get(e.to) ?? [];
        list.push({ from, cost: task.opCost[e.op]! });
        pred.set(e.to, list);
      }
    }
    const dist = new Map<string, number>();
    const buckets: string[][] = [[]];
    for (const [k, s] of this.states) if (this.goal(s)) buckets[0]!.push(k);
    for (let d = 0; d < buckets.length; d++) {
      for (const k of buckets[d] ?? []) {
        if (dist.has(k)) continue;
        dist.set(k, d);
        for (const p of pred.get(k) ?? []) {
          if (dist.has(p.from)) continue;
          const nd = d + p.cost;
          while (buckets.length <= nd) buckets.push([]);
          buckets[nd]!.push(p.from);
        }
      }
    }
    for (const k of this.states.keys()) this.h.set(k, dist.get(k) ?? Infinity);
  }

  applicable(s: Uint32Array, op: number): boolean {
    const t = this.task;
    for (let i = t.preStart[op]!; i < t.preStart[op + 1]!; i++) if (!bit(s, t.pre[i]!)) return false;
    for (let i = t.negPreStart[op]!; i < t.negPreStart[op + 1]!; i++) if (bit(s, t.negPre[i]!)) return false;
    return true;
  }

  goal(s: Uint32Array): boolean {
    for (const f of this.task.goalPos) if (!bit(s, f)) return false;
    for (const f of this.task.goalNeg) if (bit(s, f)) return false;
    return true;
  }

  hOf(s: Uint32Array): number {
    const h = this.h.get(key(s));
    if (h === undefined) throw new Error("brute oracle: unknown state");
    return h;
  }

  /** Replay operator ids from s0; throws if a step is not applicable. */
  replay(ops: readonly number[]): Uint32Array[] {
    const out = [this.task.init];
    for (const op of ops) {
      const s = out[out.length - 1]!;
      if (!this.applicable(s, op)) throw new Error(`prefix op ${this.task.opNames[op]} not applicable`);
      out.push(applyOp(this.task, s, op));
    }
    return out;
  }

  /** The successor of s by the applicable action named `name`. */
  succOf(s: Uint32Array, name: string): Uint32Array {
    for (let o = 0; o < this.task.numOps; o++) {
      if (this.task.opNames[o] === name && this.applicable(s, o)) return applyOp(this.task, s, o);
    }
    throw new Error(`${name} not applicable`);
  }

  /**
   * Goal reachable in the delete relaxation where "f is false" is a fact of its own: true where
   * f is false, added by every operator that deletes f without adding it (negated derived facts
   * count as reachable).
   */
  relaxedReachable(s: Uint32Array): boolean {
    const t = this.task;
    const pos = new Uint8Array(t.numFacts);
    const neg = new Uint8Array(t.numFacts);
    for (let f = 0; f < t.numFacts; f++) {
      if (bit(s, f)) pos[f] = 1;
      else neg[f] = 1;
      if (t.factDerived[f]) neg[f] = 1;
    }
    const all = (list: Int32Array, from: number, to: number, r: Uint8Array): boolean => {
      for (let i = from; i < to; i++) if (r[list[i]!] !== 1) return false;
      return true;
    };
    for (let changed = true; changed; ) {
      changed = false;
      const set = (r: Uint8Array, f: number): void => {
        if (r[f] === 0) (r[f] = 1), (changed = true);
      };
      for (let op = 0; op < t.numOps; op++) {
        if (!all(t.pre, t.preStart[op]!, t.preStart[op + 1]!, pos) || !all(t.negPre, t.negPreStart[op]!, t.negPreStart[op + 1]!, neg)) continue;
        const adds = new Set<number>();
        const dels: number[] = [];
        for (let i = t.addStart[op]!; i < t.addStart[op + 1]!; i++) adds.add(t.add[i]!);
        for (let i = t.delStart[op]!; i < t.delStart[op + 1]!; i++) dels.push(t.del[i]!);
        const ceAdds: number[] = [];
        for (let e = t.ceStart[op]!; e < t.ceStart[op + 1]!; e++) {
          if (!all(t.ceCond, t.ceCondStart[e]!, t.ceCondStart[e + 1]!, pos)) continue;
          if (!all(t.ceNegCond, t.ceNegCondStart[e]!, t.ceNegCondStart[e + 1]!, neg)) continue;
          (t.ceIsAdd[e] === 1 ? ceAdds : dels).push(t.ceFact[e]!);
        }
        for (const f of [...adds, ...ceAdds]) set(pos, f);
        for (const f of dels) if (!adds.has(f)) set(neg, f);
      }
    }
    return all(t.goalPos, 0, t.goalPos.length, pos) && all(t.goalNeg, 0, t.goalNeg.length, neg);
  }

  reachableCount(s: Uint32Array): number {
    const seen = new Set([key(s)]);
    const queue = [key(s)];
    for (let i = 0; i < queue.length; i++) {
      for (const e of this.succ.get(queue[i]!)!) {
        if (!seen.has(e.to)) seen.add(e.to), queue.push(e.to);
      }
    }
    return seen.size;
  }

  /**
   * Label a candidate given by its PDDL name at the last state of `visited`. Backtracking: every
   * optimal plan from s' (enumerated along edges with c + h(t') = h(t), each plan cut at its
   * first visited state, which fixes its first visited state) meets V; backtrackTo = the smallest
   * walk index among those first visited states.
   */
  label(visited: readonly Uint32Array[], name: string): BruteLabel {
    const t = this.task;
    const s = visited[visited.length - 1]!;
    const h = this.hOf(s);
    let op = -1;
    for (let o = 0; o < t.numOps; o++) {
      if (t.opNames[o] === name && this.applicable(s, o)) {
        op = o;
        break;
      }
    }
    const out: BruteLabel = { category: "non-executable", hBefore: h, hAfter: null, cost: null, backtrackTo: null, deadEnd: null };
    if (op < 0) return out;
    const c = t.opCost[op]!;
    out.cost = c;
    const s2 = applyOp(t, s, op);
    const h2 = this.hOf(s2);
    if (h2 === Infinity) {
      out.category = "dead-end";
      out.deadEnd = this.relaxedReachable(s2) ? this.reachableCount(s2) : "relaxed-unreachable";
      return out;
    }
    out.hAfter = h2;
    if (c + h2 === h) {
      out.category = "optimal";
      return out;
    }
    const vIndex = new Map<string, number>();
    visited.forEach((v, j) => {
      if (!vIndex.has(key(v))) vIndex.set(key(v), j);
    });
    let avoids = false;
    let first = Infinity;
    let plans = 0;
    const dfs = (k: string): void => {
      if (avoids) return;
      if (++plans > 2_000_000) throw new Error("brute oracle: too many optimal plans");
      const j = vIndex.get(k);
      if (j !== undefined) {
        first = Math.min(first, j);
        return;
      }
      const hk = this.h.get(k)!;
      if (hk === 0 && this.goal(this.states.get(k)!)) {
        avoids = true;
        return;
      }
      for (const e of this.succ.get(k)!) {
        if (t.opCost[e.op]! + this.h.get(e.to)! === hk) dfs(e.to);
      }
    };
    dfs(key(s2));
    if (avoids) {
      out.category = "suboptimal";
    } else {
      out.category = "backtracking";
      out.backtrackTo = first;
    }
    return out;
  }
}
