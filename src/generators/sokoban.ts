import type { Prng } from "../util/prng.js";
import { atom, cellName, draw, sizeError, type DomainGenerator } from "./common.js";

const DIRS = [
  { name: "up", dr: -1, dc: 0 },
  { name: "down", dr: 1, dc: 0 },
  { name: "left", dr: 0, dc: -1 },
  { name: "right", dr: 0, dc: 1 },
] as const;

/** A reverse-play move: which box, the cell it is pulled to, where the robot steps back to. */
type Pull = [box: number, to: number, robotTo: number];

/** Floor cells of an n x n room with `walls` random interior wall cells, kept connected. */
function makeFloor(prng: Prng, n: number, walls: number): boolean[] | null {
  const floor = new Array<boolean>(n * n).fill(true);
  const order = prng.shuffle(Array.from({ length: n * n }, (_, i) => i));
  let placed = 0;
  for (const cell of order) {
    if (placed === walls) break;
    floor[cell] = false;
    if (connected(floor, n)) placed++;
    else floor[cell] = true;
  }
  return placed === walls ? floor : null;
}

function connected(floor: boolean[], n: number): boolean {
  const start = floor.indexOf(true);
  if (start < 0) return false;
  const seen = new Uint8Array(n * n);
  const stack = [start];
  seen[start] = 1;
  let count = 1;
  while (stack.length > 0) {
    const p = stack.pop()!;
    for (const q of neighbours(p, n)) {
      if (floor[q] && !seen[q]) {
        seen[q] = 1;
        count++;
        stack.push(q);
      }
    }
  }
  return count === floor.filter(Boolean).length;
}

function step(p: number, n: number, d: (typeof DIRS)[number]): number {
  const r = Math.floor(p / n) + d.dr;
  const c = (p % n) + d.dc;
  return r < 0 || c < 0 || r >= n || c >= n ? -1 : r * n + c;
}

function neighbours(p: number, n: number): number[] {
  return DIRS.map((d) => step(p, n, d)).filter((q) => q >= 0);
}

/**
 * Sokoban: boxes start on their goal cells and are pulled backwards by the robot (reverse
 * play), so every instance is solvable; the room's corners make careless pushes dead ends.
 */
export const sokoban: DomainGenerator = {
  name: "sokoban",
  description: "A robot pushes boxes onto their goal cells in a walled room; boxes cannot be pulled",
  defaultSamplesPerState: 9,
  // reverse play: the pulls, reversed, are pushes that solve it (the robot walks back to where they ended)
  solvable: () => true,
  sizeOptions: [
    { flag: "size", description: "side of the square room (inside the outer wall)", default: "5", min: 3, max: 12 },
    { flag: "boxes", description: "number of boxes", default: "2", min: 1, max: 10 },
    { flag: "walls", description: "number of interior wall cells", default: "0-4 (drawn per problem)", min: 0, max: 100 },
    { flag: "pulls", description: "reverse-play box pulls that scramble the solved room", default: "8-14 (drawn per problem)", min: 1, max: 1000 },
  ],
  build(prng, sizes) {
    const n = draw(prng, sizes, "size", 5, 5);
    const nb = draw(prng, sizes, "boxes", 2, 2);
    const nw = draw(prng, sizes, "walls", 0, 4);
    const pulls = draw(prng, sizes, "pulls", 8, 14);
    if (nw > n * n - nb - 2) sizeError("walls", `leaves too little floor for ${nb} boxes in a ${n}x${n} room`);
    let floor: boolean[] | null = null;
    for (let attempt = 0; attempt < 100 && floor === null; attempt++) floor = makeFloor(prng, n, nw);
    if (floor === null) sizeError("walls", `cannot place ${nw} walls in a ${n}x${n} room and keep it connected`);
    const cells = floor.flatMap((f, i) => (f ? [i] : []));
    prng.shuffle(cells);
    const goals = cells.slice(0, nb);
    let boxes = [...goals];
    let robot = cells[nb]!;

    // reverse play: the robot walks (within its region) and pulls a box one cell towards itself
    const isBox = (p: number): boolean => boxes.includes(p);
    const region = (): number[] => {
      const seen = new Set<number>([robot]);
      const stack = [robot];
      while (stack.length > 0) {
        const p = stack.pop()!;
        for (const q of neighbours(p, n))
          if (floor![q] && !isBox(q) && !seen.has(q)) {
            seen.add(q);
            stack.push(q);
          }
      }
      return [...seen].sort((a, b) => a - b);
    };
    const manhattan = (a: number, b: number): number => Math.abs(Math.floor(a / n) - Math.floor(b / n)) + Math.abs((a % n) - (b % n));
    const scramble = (): void => {
      boxes = [...goals];
      robot = cells[nb]!;
      let last: Pull | null = null;
      for (let k = 0; k < pulls; k++) {
        const moves: Pull[] = [];
        for (const p of region())
          for (const d of DIRS) {
            const b = step(p, n, d);
            const back = step(p, n, DIRS[DIRS.indexOf(d) ^ 1]!);
            if (b < 0 || back < 0 || !floor[back] || isBox(back)) continue;
            const bi = boxes.indexOf(b);
            if (bi >= 0) moves.push([bi, p, back]);
          }
        if (moves.length === 0) break;
        // keep pulling the same box the same way more often than not: longer, less self-undoing runs
        const prev: Pull | null = last;
        const cont: Pull | undefined = prev === null ? undefined : moves.find(([bi, p, back]) => bi === prev[0] && p === prev[2] && p - back === prev[1] - prev[2]);
        const move: Pull = cont !== undefined && prng.next() < 0.6 ? cont : prng.pick(moves);
        const [bi, p, back] = move;
        boxes[bi] = p;
        robot = back;
        last = move;
      }
    };
    // pulls that undo each other leave boxes next to their goals: replay (a few times) until the
    // boxes are, in total, at least two cells per box away from their goals; else keep the farthest
    let best: { boxes: number[]; robot: number; dist: number } | null = null;
    for (let attempt = 0; attempt < 20; attempt++) {
      scramble();
      const dist = boxes.reduce((a, p, i) => a + manhattan(p, goals[i]!), 0);
      if (best === null || dist > best.dist) best = { boxes: [...boxes], robot, dist };
      if (dist >= 2 * nb) break;
    }
    boxes = best!.boxes;
    robot = best!.robot;
    robot = prng.pick(region());

    const name = (p: number): string => cellName(Math.floor(p / n) + 1, (p % n) + 1);
    const boxNames = boxes.map((_, i) => `box${i + 1}`);
    const init: string[] = [atom("at-robot", name(robot))];
    boxes.forEach((p, i) => init.push(atom("at", boxNames[i]!, name(p))));
    const floorCells = floor.flatMap((f, i) => (f ? [i] : []));
    for (const p of floorCells) if (p !== robot && !isBox(p)) init.push(atom("clear", name(p)));
    for (const p of floorCells) {
      for (const d of DIRS) {
        const q = step(p, n, d);
        if (q >= 0 && floor[q]) init.push(atom("adjacent", name(p), name(q), d.name));
      }
    }
    return {
      objects: [
        ...floor.flatMap((f, i) => (f ? [[name(i), "location"] as const] : [])),
        ...DIRS.map((d) => [d.name, "direction"] as const),
        ...boxNames.map((b) => [b, "box"] as const),
      ],
      init,
      goal: goals.map((g, i) => atom("at", boxNames[i]!, name(g))),
    };
  },
};
