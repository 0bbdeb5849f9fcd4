/**
 * The brute force behind bench/acp-check and tests/reasoning.test.ts: the answer of an acp row
 * re-derived on a path independent of the engine's proofs. States are enumerated one by one from
 * the question's state over all ground operators (no relaxation, no mutexes, no h*), plans checked
 * by the validator; reachability and action reachability read the enumeration (within
 * `meta.horizon` steps where set), a landmark is checked by an enumeration that never enters a
 * state where the fact holds, the next action by exact goal distances with action costs
 * (Dijkstra backwards over the enumerated states).
 */
import { Heap } from "heap-js";
import type { AcpRow } from "../src/reasoning/index.js";
import { applyOp, findOperator, isApplicable, isGoal, resolveGroundAction, validatePlan } from "../src/task/index.js";
import { hasFact, stateKey, stateToFacts } from "../src/task/state.js";
import type { GroundTask } from "../src/task/types.js";

/** Thrown where an enumeration would pass its `maxStates`. */
export class TooLarge extends Error {}

/** States from `s` in breadth-first order (at most `depth` steps), never entering one `avoid` rejects; successors as [state, op]. */
export interface Space {
  states: Uint32Array[];
  depth: number[];
  next: [number, number][][];
  index: Map<string, number>;
}
export function enumerate(task: GroundTask, s: Uint32Array, maxStates: number, depth = Infinity, avoid?: (x: Uint32Array) => boolean): Space {
  const sp: Space = { states: [s], depth: [0], next: [], index: new Map([[stateKey(s), 0]]) };
  for (let i = 0; i < sp.states.length; i++) {
    sp.next.push([]);
    if (sp.depth[i]! >= depth) continue;
    for (let op = 0; op < task.numOps; op++) {
      if (!isApplicable(task, sp.states[i]!, op)) continue;
      const t = applyOp(task, sp.states[i]!, op);
      if (avoid?.(t)) continue;
      const k = stateKey(t);
      let j = sp.index.get(k);
      if (j === undefined) {
        sp.index.set(k, (j = sp.states.length));
        sp.states.push(t);
        sp.depth.push(sp.depth[i]! + 1);
        if (sp.states.length > maxStates) throw new TooLarge();
      }
      sp.next[i]!.push([j, op]);
    }
  }
  return sp;
}

/** Cheapest cost to a goal state from every state of `sp` (Infinity: none). */
function goalCosts(task: GroundTask, sp: Space): Float64Array {
  const d = new Float64Array(sp.states.length).fill(Infinity);
  const prev: [number, number][][] = sp.states.map(() => []);
  sp.next.forEach((ns, i) => ns.forEach(([j, op]) => prev[j]!.push([i, op])));
  const heap = new Heap<[number, number]>((a, b) => a[0] - b[0]);
  sp.states.forEach((x, i) => {
    if (isGoal(task, x)) (d[i] = 0), heap.push([0, i]);
  });
  for (let e = heap.pop(); e !== undefined; e = heap.pop()) {
    const [c, j] = e;
    if (c > d[j]!) continue;
    for (const [i, op] of prev[j]!) {
      const n = c + task.opCost[op]!;
      if (n < d[i]!) (d[i] = n), heap.push([n, i]);
    }
  }
  return d;
}

export const opOf = (task: GroundTask, name: string): number => {
  const r = resolveGroundAction(task, name);
  if ("error" in r) throw new Error(r.error);
  const ops = findOperator(task, r.schema, r.args);
  if (ops.length === 0) throw new Error(`no ground operator ${name}`);
  return ops[0]!;
};
const factOf = (task: GroundTask, name: string): number => {
  const f = task.factNames.indexOf(name);
  if (f < 0) throw new Error(`no fact ${name}`);
  return f;
};
const valid = (task: GroundTask, s: Uint32Array, plan: string[]): boolean => validatePlan({ ...task, init: s }, plan).valid;
/** The 1-based number of the first step of `plan` not applicable from `s` (the validator's), or 0. */
function firstFailure(task: GroundTask, s: Uint32Array, plan: string[]): number {
  const f = validatePlan({ ...task, init: s }, plan).failure;
  return f !== null && "action" in f ? f.step : 0;
}
/** Every optimal next action at `s` (PDDL, sorted), by exact goal costs. */
function optimalNext(task: GroundTask, s: Uint32Array, full: () => Space): string[] {
  const sp = full();
  const d = goalCosts(task, sp);
  return sp.next[0]!.filter(([j, op]) => task.opCost[op]! + d[j]! === d[0]!).map(([, op]) => task.opNames[op]!).filter((x, i, a) => a.indexOf(x) === i).sort();
}

/** The brute-force truth of one item of a question at state `s`. */
export function truth(task: GroundTask, row: AcpRow, s: Uint32Array, item: string, full: () => Space, maxStates: number): boolean {
  const h = row.meta.horizon;
  switch (row.kind) {
    case "applicability":
      return isApplicable(task, s, opOf(task, item));
    case "progression":
      return stateToFacts(task, applyOp(task, s, opOf(task, row.meta.action!))).includes(item);
    case "reachability": {
      const f = factOf(task, item);
      return (h === null ? full() : enumerate(task, s, maxStates, h)).states.some((x) => hasFact(x, f));
    }
    case "action-reachability": {
      // as one of the next h steps: applicable after at most h - 1 of them
      const op = opOf(task, item);
      return (h === null ? full() : enumerate(task, s, maxStates, h - 1)).states.some((x) => isApplicable(task, x, op));
    }
    case "landmarks": {
      // no plan through states where the fact is false
      const f = factOf(task, item);
      if (hasFact(s, f) || task.goalPos.includes(f)) return true;
      return !enumerate(task, s, maxStates, Infinity, (x) => hasFact(x, f)).states.some((x) => isGoal(task, x));
    }
    case "validation":
      return firstFailure(task, s, row.meta.plan!) === Number(item);
    case "justification": {
      const cut = item.split("+").map((x) => Number(x) - 1);
      return valid(task, s, row.meta.plan!.filter((_, i) => !cut.includes(i)));
    }
    case "next-action":
      return optimalNext(task, s, full).includes(item);
  }
}

const LETTERS = ["A", "B", "C", "D"];
const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/** Is `row`'s answer right at its state `s`? `full` gives the whole enumeration from `s`. (throws TooLarge where the brute force would pass --max-states) */
export function check(task: GroundTask, row: AcpRow, s: Uint32Array, full: () => Space, maxStates: number): boolean {
  if (row.form === "yes-no" && row.kind === "validation") return (valid(task, s, row.meta.plan!) ? "yes" : "no") === row.answer;
  if (row.form === "yes-no") return row.meta.items.length === 1 && (truth(task, row, s, row.meta.items[0]!, full, maxStates) ? "yes" : "no") === row.answer;
  if (row.form === "choice") return same(row.meta.items.flatMap((x, i) => (truth(task, row, s, x, full, maxStates) ? [LETTERS[i]] : [])), [row.answer]);
  // free answers: options listed in the question, or the whole set or accepted answers
  if (row.meta.items.length > 0) return same(row.meta.items.flatMap((x, i) => (truth(task, row, s, x, full, maxStates) ? [LETTERS[i]] : [])), row.meta.gold.set);
  switch (row.kind) {
    case "applicability": {
      const app: string[] = [];
      for (let op = 0; op < task.numOps; op++) if (isApplicable(task, s, op)) app.push(task.opNames[op]!);
      return same([...new Set(app)].sort(), row.meta.gold.set);
    }
    case "progression": {
      const before = new Set(stateToFacts(task, s));
      const after = new Set(stateToFacts(task, applyOp(task, s, opOf(task, row.meta.action!))));
      return same([...[...after].filter((f) => !before.has(f)).map((f) => `+${f}`), ...[...before].filter((f) => !after.has(f)).map((f) => `-${f}`)].sort(), row.meta.gold.set);
    }
    case "validation":
      return same([String(firstFailure(task, s, row.meta.plan!))], row.meta.gold.accept);
    case "next-action":
      return same(optimalNext(task, s, full), row.meta.gold.accept);
    default:
      throw new Error(`${row.id}: a free ${row.kind} question without options`);
  }
}

