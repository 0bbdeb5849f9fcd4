import { atom, draw, sizeError, type DomainGenerator } from "./common.js";

/** Elevator (Miconic): passengers with random origin and destination floors, lift on a random floor. */
export const elevator: DomainGenerator = {
  name: "elevator",
  description: "A lift picks up passengers at their floors and drops them at their destinations",
  defaultSamplesPerState: 9,
  // the lift goes to any floor, and any passenger can board at its origin and leave at its destination
  solvable: () => true,
  sizeOptions: [
    { flag: "floors", description: "number of floors", default: "3-5 (drawn per problem)", min: 2, max: 50 },
    { flag: "passengers", description: "number of passengers", default: "3-4 (drawn per problem)", min: 1, max: 50 },
  ],
  build(prng, sizes) {
    const nf = draw(prng, sizes, "floors", 3, 5);
    const np = draw(prng, sizes, "passengers", 3, 4);
    if (nf < 2) sizeError("floors", "must be at least 2");
    const floors = Array.from({ length: nf }, (_, i) => `f${i + 1}`);
    const pass = Array.from({ length: np }, (_, i) => `p${i + 1}`);
    const init: string[] = [];
    for (let i = 0; i < nf; i++) for (let j = 0; j < i; j++) init.push(atom("above", floors[i]!, floors[j]!));
    const goal: string[] = [];
    for (const p of pass) {
      const o = prng.int(nf);
      let d = prng.int(nf - 1);
      if (d >= o) d++;
      init.push(atom("origin", p, floors[o]!), atom("destin", p, floors[d]!));
      goal.push(atom("served", p));
    }
    init.push(atom("lift-at", prng.pick(floors)));
    return {
      objects: [...pass.map((p) => [p, "passenger"] as const), ...floors.map((f) => [f, "floor"] as const)],
      init,
      goal,
    };
  },
};
