/** Type-hierarchy queries used by the grounder and the generators. */
import type { Domain, Problem } from "./ast.js";

const superCache = new WeakMap<Domain, Map<string, string[]>>();
const parentCache = new WeakMap<Domain, Map<string, string[]>>();

/**
 * The declared parents of each type. A type may be declared more than once (IPC Storage lists
 * `area` under `object` and again under `surface`); like Fast Downward's translator, its parents
 * are then the union of all its declarations.
 */
export function typeParents(domain: Domain): Map<string, string[]> {
  let m = parentCache.get(domain);
  if (m) return m;
  m = new Map();
  for (const t of domain.types) {
    const prev = m.get(t.name) ?? [];
    m.set(t.name, [...prev, ...t.parents.filter((p) => !prev.includes(p))]);
  }
  parentCache.set(domain, m);
  return m;
}

/**
 * The type itself, all its ancestors (through every `either` parent) and `object`, without
 * duplicates: breadth-first from `type`, `object` last.
 */
export function supertypesOf(domain: Domain, type: string): string[] {
  let cache = superCache.get(domain);
  if (!cache) superCache.set(domain, (cache = new Map()));
  const hit = cache.get(type);
  if (hit) return hit.slice();
  const parents = typeParents(domain);
  const out: string[] = [];
  const seen = new Set<string>();
  const queue = [type];
  for (let i = 0; i < queue.length; i++) {
    const t = queue[i]!;
    if (seen.has(t)) continue;
    seen.add(t);
    if (t !== "object") out.push(t);
    for (const p of parents.get(t) ?? []) queue.push(p);
  }
  out.push("object");
  cache.set(type, out);
  return out.slice();
}

/**
 * Names of the problem's objects and the domain's constants whose declared type is `type` or
 * a subtype of it (an `(either a b)` object counts for a, b and their supertypes), sorted.
 */
export function objectsOfType(domain: Domain, problem: Problem, type: string): string[] {
  const out = new Set<string>();
  for (const o of [...domain.constants, ...problem.objects]) {
    if (type === "object" || o.types.some((t) => supertypesOf(domain, t).includes(type))) out.add(o.name);
  }
  return [...out].sort();
}
