import { atom, draw, type DomainGenerator } from "./common.js";
import type { Prng } from "../util/prng.js";

/** Disks on pegs: each peg's stack listed bottom (largest) to top. */
function randomPegs(prng: Prng, disks: number, pegs: number): number[][] {
  const stacks: number[][] = Array.from({ length: pegs }, () => []);
  // disks 1..n, n is the largest; placing largest first keeps every stack sorted
  for (let d = disks; d >= 1; d--) prng.pick(stacks).push(d);
  return stacks;
}

function stackAtoms(stacks: number[][], pegNames: string[]): { on: string[]; clear: string[] } {
  const on: string[] = [];
  const clear: string[] = [];
  stacks.forEach((s, p) => {
    let below = pegNames[p]!;
    for (const d of s) {
      on.push(atom("on", `d${d}`, below));
      below = `d${d}`;
    }
    clear.push(atom("clear", below));
  });
  return { on, clear };
}

/** Towers of Hanoi: random legal initial and goal configurations. */
export const hanoi: DomainGenerator = {
  name: "hanoi",
  description: "Towers of Hanoi: move disks between pegs, never a larger disk on a smaller one",
  defaultSamplesPerState: 10,
  sizeOptions: [
    { flag: "disks", description: "number of disks", default: "3-4 (drawn per problem)", min: 1, max: 20 },
    { flag: "pegs", description: "number of pegs", default: "4", min: 2, max: 10 },
  ],
  // with three pegs or more any legal stacking reaches any other; with two, not always
  solvable: (spec) => spec.objects.filter(([, type]) => type === "peg").length >= 3,
  build(prng, sizes) {
    const nd = draw(prng, sizes, "disks", 3, 4);
    const np = draw(prng, sizes, "pegs", 4, 4);
    const disks = Array.from({ length: nd }, (_, i) => `d${i + 1}`);
    const pegs = Array.from({ length: np }, (_, i) => `peg${i + 1}`);
    const init: string[] = [];
    for (let i = 1; i <= nd; i++) {
      for (let j = i + 1; j <= nd; j++) init.push(atom("smaller", `d${i}`, `d${j}`));
      for (const p of pegs) init.push(atom("smaller", `d${i}`, p));
    }
    const s0 = stackAtoms(randomPegs(prng, nd, np), pegs);
    init.push(...s0.on, ...s0.clear);
    const goal = stackAtoms(randomPegs(prng, nd, np), pegs).on;
    return {
      objects: [...disks.map((d) => [d, "disk"] as const), ...pegs.map((p) => [p, "peg"] as const)],
      init,
      goal,
    };
  },
};
