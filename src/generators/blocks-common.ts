import type { Prng } from "../util/prng.js";
import { atom } from "./common.js";

/** A blocks configuration: towers listed bottom to top. */
export type Towers = string[][];

/** A random configuration: blocks in random order, each starting a new tower or topping an existing one. */
export function randomTowers(prng: Prng, blocks: readonly string[]): Towers {
  const order = prng.shuffle([...blocks]);
  const towers: Towers = [];
  for (const b of order) {
    if (towers.length === 0 || prng.next() < 0.35) towers.push([b]);
    else prng.pick(towers).push(b);
  }
  return towers;
}

/** ontable/on/clear atoms of a configuration. */
export function towerAtoms(towers: Towers): string[] {
  const out: string[] = [];
  for (const t of towers) {
    out.push(atom("ontable", t[0]!));
    for (let i = 1; i < t.length; i++) out.push(atom("on", t[i]!, t[i - 1]!));
    out.push(atom("clear", t[t.length - 1]!));
  }
  return out;
}

/** Goal atoms of a configuration: the `on` relations (ontable for all when there are none). */
export function towerGoal(towers: Towers): string[] {
  const out: string[] = [];
  for (const t of towers) for (let i = 1; i < t.length; i++) out.push(atom("on", t[i]!, t[i - 1]!));
  if (out.length === 0) for (const t of towers) out.push(atom("ontable", t[0]!));
  return out;
}

/** Block names b1..bn. */
export function blockNames(n: number): string[] {
  const xs: string[] = [];
  for (let i = 1; i <= n; i++) xs.push(`b${i}`);
  return xs;
}
