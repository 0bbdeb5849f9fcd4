import { atom, cellName, draw, type DomainGenerator } from "./common.js";

/** N-puzzle: the solved board scrambled by a random walk of the blank (no immediate reversals). */
export const npuzzle: DomainGenerator = {
  name: "npuzzle",
  description: "Sliding-tile puzzle: slide numbered tiles into the empty square to reach the goal board",
  defaultSamplesPerState: 8,
  sizeOptions: [
    { flag: "size", description: "side of the square board (3 = 8-puzzle)", default: "3", min: 2, max: 6 },
    { flag: "depth", description: "random moves of the blank that scramble the solved board", default: "7-12 (drawn per problem)", min: 1, max: 1000 },
  ],
  // the board is the solved one scrambled by legal moves: undoing them solves it
  solvable: () => true,
  build(prng, sizes) {
    const n = draw(prng, sizes, "size", 3, 3);
    const depth = draw(prng, sizes, "depth", 7, 12);
    const cells = n * n;
    // board[pos] = tile number, 0 = blank; solved: tile k at pos k-1, blank last
    const board = Array.from({ length: cells }, (_, i) => (i + 1) % cells);
    let blank = cells - 1;
    let prev = -1;
    for (let k = 0; k < depth; k++) {
      const r = Math.floor(blank / n);
      const c = blank % n;
      const next: number[] = [];
      if (r > 0) next.push(blank - n);
      if (r < n - 1) next.push(blank + n);
      if (c > 0) next.push(blank - 1);
      if (c < n - 1) next.push(blank + 1);
      const choices = next.filter((p) => p !== prev);
      const to = prng.pick(choices.length > 0 ? choices : next);
      board[blank] = board[to]!;
      board[to] = 0;
      prev = blank;
      blank = to;
    }
    const pos = (i: number): string => cellName(Math.floor(i / n) + 1, (i % n) + 1);
    const tiles = Array.from({ length: cells - 1 }, (_, i) => `t${i + 1}`);
    const init: string[] = [];
    for (let i = 0; i < cells; i++) {
      if (board[i] === 0) init.push(atom("empty", pos(i)));
      else init.push(atom("at", `t${board[i]}`, pos(i)));
    }
    for (let i = 0; i < cells; i++) {
      const r = Math.floor(i / n);
      const c = i % n;
      if (c < n - 1) init.push(atom("neighbor", pos(i), pos(i + 1)), atom("neighbor", pos(i + 1), pos(i)));
      if (r < n - 1) init.push(atom("neighbor", pos(i), pos(i + n)), atom("neighbor", pos(i + n), pos(i)));
    }
    const goal = tiles.map((t, i) => atom("at", t, pos(i)));
    return {
      objects: [
        ...tiles.map((t) => [t, "tile"] as const),
        ...Array.from({ length: cells }, (_, i) => [pos(i), "position"] as const),
      ],
      init,
      goal,
    };
  },
};
