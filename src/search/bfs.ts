import type { GroundTask } from "../task/types.js";
import type { SearchLimits, SearchResult } from "./types.js";
import { StateSpace } from "./space.js";
import { countSearch } from "./work.js";

/** Knobs of `breadthFirst` (the same meaning as in `AStarOptions`). */
export interface BreadthFirstOptions {
  limits?: SearchLimits;
  /** Operators with mask 0 are never applied (e.g. `goalRelevance(task).ops`). */
  opMask?: Uint8Array;
  /** Project every state onto these facts (sound only where nothing applied or tested reads the rest). */
  factMask?: Uint32Array;
}

/**
 * Breadth-first search with the goal test at generation: an optimal plan when every operator
 * costs the same, which the caller must ensure (`!task.hasCosts`). The open list is the state
 * registry itself (ids are handed out in breadth-first order), so a search is a few typed
 * arrays, and the last layer is only generated, never expanded: it settles the problem
 * generators' checks with fewer expansions than A* with the blind heuristic.
 */
export function breadthFirst(task: GroundTask, options: BreadthFirstOptions = {}): SearchResult {
  if (task.hasCosts) throw new Error("breadthFirst: the task has action costs (use A*)");
  const t0 = performance.now();
  const maxExp = options.limits?.maxExpansions ?? Infinity;
  const deadline = options.limits?.timeMs !== undefined ? t0 + options.limits.timeMs : Infinity;
  const { opMask, factMask } = options;
  const words = task.words;
  const space = new StateSpace(task);
  const start = task.init.slice();
  if (factMask !== undefined) for (let w = 0; w < words; w++) start[w]! &= factMask[w]!;
  space.intern(start);
  let parent = new Int32Array(1024).fill(-1);
  let parentOp = new Int32Array(1024).fill(-1);
  const result = (status: SearchResult["status"], goalId: number, expanded: number, generated: number): SearchResult => {
    countSearch(expanded, generated, 0);
    const plan: number[] = [];
    for (let id = goalId; id > 0; id = parent[id]!) plan.push(parentOp[id]!);
    plan.reverse();
    return {
      status,
      cost: status === "solved" ? plan.length : null,
      plan,
      initialH: null,
      expanded,
      generated,
      evaluated: 0,
      searchMs: performance.now() - t0,
    };
  };
  if (space.isGoal(start)) return result("solved", 0, 0, 0);
  const cur = new Uint32Array(words);
  const next = new Uint32Array(words);
  const ops: number[] = [];
  let generated = 0;
  let expanded = 0;
  for (let id = 0; id < space.size; id++) {
    if (expanded >= maxExp || ((expanded & 255) === 255 && performance.now() > deadline)) return result("limit", -1, expanded, generated);
    expanded++;
    space.getInto(id, cur);
    space.applicable(cur, ops);
    for (let i = 0; i < ops.length; i++) {
      const op = ops[i]!;
      if (opMask !== undefined && opMask[op] === 0) continue;
      space.applyProjected(cur, op, next, factMask);
      generated++;
      const known = space.size;
      const sid = space.intern(next);
      if (sid < known) continue;
      if (sid >= parent.length) {
        const p2 = new Int32Array(parent.length * 2);
        p2.set(parent);
        parent = p2;
        const o2 = new Int32Array(parentOp.length * 2);
        o2.set(parentOp);
        parentOp = o2;
      }
      parent[sid] = id;
      parentOp[sid] = op;
      if (space.isGoal(next)) return result("solved", sid, expanded, generated);
    }
  }
  return result("unsolvable", -1, expanded, generated);
}
