import { blockNames, randomTowers, towerAtoms, towerGoal } from "./blocks-common.js";
import { draw, type DomainGenerator } from "./common.js";

/** Blocks world without an arm (3 move operators): random initial and goal towers. */
export const blocksworld3ops: DomainGenerator = {
  name: "blocksworld-3ops",
  description: "Blocks world without an arm: clear blocks move between the table and other blocks",
  defaultSamplesPerState: 10,
  sizeOptions: [{ flag: "blocks", description: "number of blocks", default: "5-7 (drawn per problem)", min: 2, max: 30 }],
  // any tower configuration reaches any other (the goal is one: towerGoal)
  solvable: () => true,
  build(prng, sizes) {
    const n = draw(prng, sizes, "blocks", 5, 7);
    const blocks = blockNames(n);
    const init = towerAtoms(randomTowers(prng, blocks));
    const goal = towerGoal(randomTowers(prng, blocks));
    return { objects: blocks.map((b) => [b, "block"] as const), init, goal };
  },
};
