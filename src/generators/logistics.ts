import { atom, draw, sizeError, type DomainGenerator } from "./common.js";

/**
 * Logistics: every city has an airport and one other location and at least one truck;
 * airplanes fly between airports; packages go to random other locations.
 */
export const logistics: DomainGenerator = {
  name: "logistics",
  description: "Trucks carry packages within cities, airplanes fly them between city airports",
  defaultSamplesPerState: 12,
  // every city has a truck serving both its locations, and an airplane flies between any airports
  solvable: () => true,
  sizeOptions: [
    { flag: "cities", description: "number of cities (each with an airport and one other location)", default: "2-3 (drawn per problem)", min: 1, max: 20 },
    { flag: "trucks", description: "number of trucks (at least one per city)", default: "one per city", min: 1, max: 40 },
    { flag: "planes", description: "number of airplanes", default: "1", min: 1, max: 20 },
    { flag: "packages", description: "number of packages", default: "1-2 (drawn per problem)", min: 1, max: 40 },
  ],
  build(prng, sizes) {
    // a drawn city count never exceeds a given truck count
    const nc = Math.min(draw(prng, sizes, "cities", 2, 3), sizes["cities"] ?? sizes["trucks"] ?? Infinity);
    const nt = draw(prng, sizes, "trucks", nc, nc);
    const na = draw(prng, sizes, "planes", 1, 1);
    const np = draw(prng, sizes, "packages", 1, 2);
    if (nt < nc) sizeError("trucks", `must be at least the number of cities (${nc})`);
    const cities = Array.from({ length: nc }, (_, i) => `city${i + 1}`);
    const airports = cities.map((_, i) => `airport${i + 1}`);
    const places = cities.map((_, i) => `place${i + 1}`);
    const locsOf = (c: number): string[] => [airports[c]!, places[c]!];
    const allLocs = cities.flatMap((_, c) => locsOf(c));
    const init: string[] = [];
    cities.forEach((c, i) => {
      init.push(atom("in-city", airports[i]!, c), atom("in-city", places[i]!, c));
    });
    const trucks: string[] = [];
    for (let t = 0; t < nt; t++) {
      const name = `truck${t + 1}`;
      trucks.push(name);
      const city = t < nc ? t : prng.int(nc);
      init.push(atom("at", name, prng.pick(locsOf(city))));
    }
    const planes: string[] = [];
    for (let a = 0; a < na; a++) {
      const name = `plane${a + 1}`;
      planes.push(name);
      init.push(atom("at", name, prng.pick(airports)));
    }
    const pkgs: string[] = [];
    const goal: string[] = [];
    for (let p = 0; p < np; p++) {
      const name = `package${p + 1}`;
      pkgs.push(name);
      const from = prng.pick(allLocs);
      init.push(atom("at", name, from));
      goal.push(atom("at", name, prng.pick(allLocs.filter((l) => l !== from))));
    }
    return {
      objects: [
        ...pkgs.map((o) => [o, "package"] as const),
        ...trucks.map((o) => [o, "truck"] as const),
        ...planes.map((o) => [o, "airplane"] as const),
        ...cities.map((o) => [o, "city"] as const),
        ...airports.map((o) => [o, "airport"] as const),
        ...places.map((o) => [o, "location"] as const),
      ],
      init,
      goal,
    };
  },
};
