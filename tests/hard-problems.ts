// Problems the limit tests share (tests/judge-limits, tests/load/wall-clock-limits).

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
