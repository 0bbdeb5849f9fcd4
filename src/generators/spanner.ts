import { atom, draw, sizeError, type DomainGenerator } from "./common.js";

/**
 * Spanner: a one-way path shed -> location1 .. locationN -> gate, spanners spread along it
 * (some of them already unusable), all nuts at the gate. At most one spare usable spanner, and
 * some location holds more usable spanners than the spares, so walking past it without
 * picking them up is a dead end.
 */
export const spanner: DomainGenerator = {
  name: "spanner",
  description: "A man walks a one-way path collecting single-use spanners to tighten the nuts at the gate",
  defaultSamplesPerState: 7,
  // at least as many usable spanners as nuts, all on the path from the shed, where the man starts
  solvable: () => true,
  sizeOptions: [
    { flag: "locations", description: "locations on the path between the shed and the gate", default: "1-4 (drawn per problem)", min: 1, max: 50 },
    {
      flag: "spanners",
      description: "number of spanners (at least the number of nuts; beyond nuts+1 they are unusable decoys)",
      default: "nuts + 0-1 spare + 0-2 unusable (drawn per problem)",
      min: 1,
      max: 50,
    },
    { flag: "nuts", description: "number of loose nuts at the gate", default: "1-3 (drawn per problem)", min: 1, max: 50 },
  ],
  build(prng, sizes) {
    const nl = draw(prng, sizes, "locations", 1, 4);
    // a drawn nut count never exceeds a given spanner count
    const nn = Math.min(draw(prng, sizes, "nuts", 1, 3), sizes["nuts"] ?? sizes["spanners"] ?? Infinity);
    const spareDraw = prng.next() < 0.25 ? 1 : 0;
    const brokenDraw = prng.range(0, 2);
    const ns = sizes["spanners"] ?? nn + spareDraw + brokenDraw;
    if (ns < nn) sizeError("spanners", `must be at least the number of nuts (${nn})`);
    const usable = Math.min(ns, nn + spareDraw);
    const spare = usable - nn;
    const locs = Array.from({ length: nl }, (_, i) => `location${i + 1}`);
    const path = ["shed", ...locs, "gate"];
    const spanners = Array.from({ length: ns }, (_, i) => `spanner${i + 1}`);
    const nuts = Array.from({ length: nn }, (_, i) => `nut${i + 1}`);
    const isUsable = prng.shuffle(spanners.map((_, i) => i < usable));
    const where = spanners.map(() => prng.int(nl));
    // make sure some location holds more usable spanners than the spares (a dead end to walk past)
    const counts = new Array<number>(nl).fill(0);
    spanners.forEach((_, i) => {
      if (isUsable[i]) counts[where[i]!]!++;
    });
    if (Math.max(...counts) <= spare) {
      const us = spanners.flatMap((_, i) => (isUsable[i] ? [i] : []));
      for (const i of us) where[i] = where[us[0]!]!;
    }
    const init: string[] = [atom("at", "bob", "shed")];
    for (let i = 0; i + 1 < path.length; i++) init.push(atom("link", path[i]!, path[i + 1]!));
    spanners.forEach((s, i) => {
      init.push(atom("at", s, locs[where[i]!]!));
      if (isUsable[i]) init.push(atom("useable", s));
    });
    for (const n of nuts) init.push(atom("at", n, "gate"), atom("loose", n));
    return {
      objects: [
        ["bob", "man"] as const,
        ...spanners.map((s) => [s, "spanner"] as const),
        ...nuts.map((n) => [n, "nut"] as const),
        ...path.map((l) => [l, "location"] as const),
      ],
      init,
      goal: nuts.map((n) => atom("tightened", n)),
    };
  },
};
