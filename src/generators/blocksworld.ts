import { blockNames, randomTowers, towerAtoms, towerGoal } from "./blocks-common.js";
import { draw, type DomainGenerator } from "./common.js";

/** Blocks world with an arm: random initial and goal towers. */
export const blocksworld: DomainGenerator = {
  name: "blocksworld",
  description: "Blocks world with a robot arm (pick-up, put-down, stack, unstack)",
  defaultSamplesPerState: 7,
  sizeOptions: [{ flag: "blocks", description: "number of blocks", default: "5-6 (drawn per problem)", min: 2, max: 30 }],
  // any tower configuration reaches any other (the goal is one: towerGoal)
  solvable: () => true,
  build(prng, sizes) {
    const n = draw(prng, sizes, "blocks", 5, 6);
    const blocks = blockNames(n);
    const init = towerAtoms(randomTowers(prng, blocks));
    init.push("(handempty)");
    const goal = towerGoal(randomTowers(prng, blocks));
    return { objects: blocks.map((b) => [b, "block"] as const), init, goal };
  },
};
