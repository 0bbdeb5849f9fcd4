/**
 * Complementary twins: predicates `p` and `not-p` (also `not_p`, `notp`) such that in every
 * reachable state exactly one of p(x), not-p(x) holds. Many IPC domains keep such a pair for
 * STRIPS planners (made / not-made, closed / not-closed). Their generic readings coincide by
 * design ("p1 is not made" for not-made(p1) and for not made(p1)), which is faithful only when
 * the pair is complementary; this module proves it from the task.
 */
import type { GroundTask } from "../task/types.js";

/** The base name of a `not-` (or `is-not-`, `has-not-`, `can-not-`) predicate, or null. */
export function twinBase(name: string): string | null {
  const m = /^not[-_]?(.+)$/.exec(name);
  if (m !== null) return m[1]!;
  // "is-not-zero" beside "is-zero"
  const v = /^(is|has|can)([-_])not[-_](.+)$/.exec(name);
  return v === null ? null : `${v[1]}${v[2]}${v[3]}`;
}

function bit(state: Uint32Array, f: number): boolean {
  return ((state[f >>> 5]! >>> (f & 31)) & 1) === 1;
}

/**
 * The complementary pairs of `task`, as a map from the `not-` predicate to its base. A pair is
 * proven when both are fluents, every ground fact of one has its twin, exactly one of each pair
 * holds initially, and every operator effect that makes one true makes the other false under
 * the same conditions (and the other way round); or when both are static and exactly one of
 * each pair over the typed objects is in the initial state.
 */
export function complementaryTwins(task: GroundTask): Map<string, string> {
  const out = new Map<string, string>();
  const preds = new Map(task.domain.predicates.map((p) => [p.name, p]));
  for (const q of task.domain.predicates) {
    const base = twinBase(q.name);
    if (base === null) continue;
    const p = preds.get(base);
    if (p === undefined || p.params.length !== q.params.length) continue;
    if (provePair(task, p.name, q.name)) out.set(q.name, p.name);
  }
  return out;
}

function argKey(task: GroundTask, f: number): string {
  return Array.from(task.factArgs.subarray(task.factArgStart[f]!, task.factArgStart[f + 1]!)).join(",");
}

function provePair(task: GroundTask, p: string, q: string): boolean {
  const pFacts = new Map<string, number>();
  const qFacts = new Map<string, number>();
  for (let f = 0; f < task.numFacts; f++) {
    if (task.factPredicate[f] === p) pFacts.set(argKey(task, f), f);
    else if (task.factPredicate[f] === q) qFacts.set(argKey(task, f), f);
  }
  if (pFacts.size === 0 && qFacts.size === 0) return staticPair(task, p, q);
  if (pFacts.size !== qFacts.size) return false;
  const twin = new Map<number, number>();
  for (const [k, f] of pFacts) {
    const g = qFacts.get(k);
    if (g === undefined) return false;
    if (bit(task.init, f) === bit(task.init, g)) return false;
    twin.set(f, g).set(g, f);
  }
  // Every change of one is the opposite change of its twin, under the same conditions.
  const balanced = (adds: Iterable<number>, dels: Iterable<number>): boolean => {
    const a = new Set(adds);
    const d = new Set(dels);
    for (const f of a) if (twin.has(f) && !d.has(twin.get(f)!)) return false;
    for (const f of d) if (twin.has(f) && !a.has(twin.get(f)!)) return false;
    return true;
  };
  for (let o = 0; o < task.numOps; o++) {
    if (!balanced(task.add.subarray(task.addStart[o]!, task.addStart[o + 1]!), task.del.subarray(task.delStart[o]!, task.delStart[o + 1]!))) return false;
    const groups = new Map<string, { adds: number[]; dels: number[] }>();
    for (let e = task.ceStart[o]!; e < task.ceStart[o + 1]!; e++) {
      const k = `${Array.from(task.ceCond.subarray(task.ceCondStart[e]!, task.ceCondStart[e + 1]!)).sort().join(",")}|${Array.from(task.ceNegCond.subarray(task.ceNegCondStart[e]!, task.ceNegCondStart[e + 1]!)).sort().join(",")}`;
      let g = groups.get(k);
      if (g === undefined) groups.set(k, (g = { adds: [], dels: [] }));
      (task.ceIsAdd[e] === 1 ? g.adds : g.dels).push(task.ceFact[e]!);
    }
    for (const g of groups.values()) if (!balanced(g.adds, g.dels)) return false;
  }
  return true;
}

/** Both static: exactly one of p(x), q(x) in the initial state for every typed argument list x. */
function staticPair(task: GroundTask, p: string, q: string): boolean {
  const decl = task.domain.predicates.find((d) => d.name === p)!;
  const init = new Set<string>();
  for (const el of task.problem.init) if (el.kind === "atom") init.add(`${el.atom.predicate}(${el.atom.args.map((t) => t.name).join(",")})`);
  const domains = decl.params.map((par) => task.objects.filter((_, i) => par.types.length === 0 || par.types.some((t) => task.objectTypes[i]!.includes(t))));
  let count = 1;
  for (const d of domains) count *= d.length;
  if (count > 100_000) return false;
  const tuple: string[] = [];
  const visit = (k: number): boolean => {
    if (k === domains.length) {
      const args = tuple.join(",");
      return init.has(`${p}(${args})`) !== init.has(`${q}(${args})`);
    }
    for (const o of domains[k]!) {
      tuple.push(o);
      const ok = visit(k + 1);
      tuple.pop();
      if (!ok) return false;
    }
    return true;
  };
  return visit(0);
}
