import { atom, draw, sizeError, type DomainGenerator } from "./common.js";

/** Ferry: cars at random locations, each with a random destination. */
export const ferry: DomainGenerator = {
  name: "ferry",
  description: "A ferry carries one car at a time between locations",
  defaultSamplesPerState: 8,
  sizeOptions: [
    { flag: "cars", description: "number of cars", default: "2-3 (drawn per problem)", min: 1, max: 50 },
    { flag: "locations", description: "number of locations", default: "2-4 (drawn per problem)", min: 2, max: 50 },
  ],
  // the ferry sails between any two locations and carries every car
  solvable: () => true,
  build(prng, sizes) {
    const nc = draw(prng, sizes, "cars", 2, 3);
    const nl = draw(prng, sizes, "locations", 2, 4);
    if (nl < 2) sizeError("locations", "must be at least 2");
    const cars = Array.from({ length: nc }, (_, i) => `car${i + 1}`);
    const locs = Array.from({ length: nl }, (_, i) => `loc${i + 1}`);
    const init: string[] = [atom("at-ferry", prng.pick(locs)), "(empty-ferry)"];
    const goal: string[] = [];
    for (const c of cars) {
      const from = prng.pick(locs);
      init.push(atom("at", c, from));
      // the destination differs from the start so every car needs the ferry
      const to = prng.pick(locs.filter((l) => l !== from));
      goal.push(atom("at", c, to));
    }
    return {
      objects: [...cars.map((c) => [c, "car"] as const), ...locs.map((l) => [l, "location"] as const)],
      init,
      goal,
    };
  },
};
