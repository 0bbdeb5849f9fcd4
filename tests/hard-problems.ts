// Problems the limit tests share (tests/judge-limits, tests/cli-bounds, tests/serve-faults,
// tests/load/wall-clock-limits).
import { once } from "node:events";
import { createWriteStream, writeFileSync } from "node:fs";
import { join } from "node:path";

/** A 15-puzzle start far from the goal (tiles by rows, 0 the blank): its h* takes A* + LM-Cut minutes. */
export function hard15(): string {
  const start = [14, 13, 15, 7, 11, 12, 9, 5, 6, 0, 2, 1, 4, 8, 10, 3];
  const pos = (r: number, c: number) => `p${r}${c}`;
  const init: string[] = [];
  start.forEach((v, k) => init.push(v === 0 ? `(empty ${pos(Math.floor(k / 4), k % 4)})` : `(at t${v} ${pos(Math.floor(k / 4), k % 4)})`));
  for (let r = 0; r < 4; r++)
    for (let c = 0; c < 4; c++)
      for (const [dr, dc] of [[0, 1], [1, 0], [0, -1], [-1, 0]] as const) if (r + dr >= 0 && r + dr < 4 && c + dc >= 0 && c + dc < 4) init.push(`(neighbor ${pos(r, c)} ${pos(r + dr, c + dc)})`);
  const goal = Array.from({ length: 15 }, (_, k) => `(at t${k + 1} ${pos(Math.floor(k / 4), k % 4)})`);
  const tiles = Array.from({ length: 15 }, (_, k) => `t${k + 1}`).join(" ");
  const cells = Array.from({ length: 16 }, (_, k) => pos(Math.floor(k / 4), k % 4)).join(" ");
  return `(define (problem hard15) (:domain npuzzle) (:objects ${tiles} - tile ${cells} - position) (:init ${init.join(" ")}) (:goal (and ${goal.join(" ")})))`;
}

/**
 * A domain and a problem (about 1M facts, ~20 MB) that take seconds to read and parse, where no
 * clock is looked at, written into `dir`: roads.pddl and big.pddl.
 */
export async function writeSlowToParse(dir: string): Promise<{ domain: string; problem: string }> {
  const domain = join(dir, "roads.pddl");
  const problem = join(dir, "big.pddl");
  writeFileSync(domain, `(define (domain roads) (:requirements :strips) (:predicates (at ?x) (road ?x ?y))
    (:action go :parameters (?x ?y) :precondition (and (at ?x) (road ?x ?y)) :effect (and (at ?y) (not (at ?x)))))`);
  const n = 1500;
  const out = createWriteStream(problem);
  out.write(`(define (problem big) (:domain roads) (:objects ${Array.from({ length: n }, (_, i) => `c${i}`).join(" ")}) (:init (at c0)\n`);
  for (let i = 0; i < n; i++) {
    let chunk = "";
    for (let j = i + 1; j < Math.min(n, i + 700); j++) chunk += `(road c${i} c${j})\n`;
    if (!out.write(chunk)) await once(out, "drain");
  }
  out.end(`) (:goal (at c${n - 1})))\n`);
  await once(out, "close");
  return { domain, problem };
}
