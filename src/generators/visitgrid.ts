import { atom, cellName, draw, sizeError, type DomainGenerator } from "./common.js";

/** Visit grid: a robot on a square grid must visit some random cells. */
export const visitgrid: DomainGenerator = {
  name: "visitgrid",
  description: "A robot walks a grid and must visit the listed cells",
  defaultSamplesPerState: 9,
  // the whole grid is connected both ways
  solvable: () => true,
  sizeOptions: [
    { flag: "size", description: "side of the square grid", default: "3-5 (drawn per problem)", min: 2, max: 30 },
    { flag: "visit", description: "number of cells to visit", default: "2-4 (drawn per problem)", min: 1, max: 899 },
  ],
  build(prng, sizes) {
    const n = draw(prng, sizes, "size", 3, 5);
    // a drawn number of cells to visit fits the grid
    const kd = draw(prng, sizes, "visit", 2, 4);
    const k = sizes["visit"] !== undefined ? kd : Math.min(kd, n * n - 1);
    if (k > n * n - 1) sizeError("visit", `must be at most ${n * n - 1} on a ${n}x${n} grid`);
    const cells: string[] = [];
    for (let r = 1; r <= n; r++) for (let c = 1; c <= n; c++) cells.push(cellName(r, c));
    const start = prng.int(cells.length);
    const others = prng.shuffle(cells.filter((_, i) => i !== start)).slice(0, k);
    const init: string[] = [atom("at-robot", cells[start]!), atom("visited", cells[start]!)];
    for (let r = 1; r <= n; r++)
      for (let c = 1; c <= n; c++) {
        if (c < n) init.push(atom("connected", cellName(r, c), cellName(r, c + 1)), atom("connected", cellName(r, c + 1), cellName(r, c)));
        if (r < n) init.push(atom("connected", cellName(r, c), cellName(r + 1, c)), atom("connected", cellName(r + 1, c), cellName(r, c)));
      }
    return {
      objects: cells.map((c) => [c, "cell"] as const),
      init,
      goal: others.sort().map((c) => atom("visited", c)),
    };
  },
};
