import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { atom, goalHoldsInInit, renderProblem, type ProblemSpec } from "../src/generators/common.js";
import { rooms } from "../src/generators/rooms.js";
import {
  BUILTIN_DOMAINS, builtinDomainFile, builtinProblemsDir, checkSizes, generateProblems, getBuiltinDomain,
} from "../src/generators/index.js";
import { parseDomain, parseProblem, UserError, type Formula, type Problem } from "../src/pddl/index.js";
import { solve } from "../src/search/index.js";
import { ground, validatePlan } from "../src/task/index.js";
import { Prng } from "../src/util/prng.js";

const domainOf = (name: string) => {
  const file = builtinDomainFile(name);
  return parseDomain(readFileSync(file, "utf8"), file);
};

function objectsOfType(p: Problem, type: string): string[] {
  return p.objects.filter((o) => o.types.includes(type)).map((o) => o.name);
}

function goalAtoms(f: Formula): Formula[] {
  return f.kind === "and" ? f.args.flatMap(goalAtoms) : [f];
}

function initCount(p: Problem, pred: string): number {
  return p.init.filter((e) => e.kind === "atom" && e.atom.predicate === pred).length;
}

describe("generateProblems", () => {
  for (const d of BUILTIN_DOMAINS) {
    it(`${d.name}: 10 problems are valid, distinct, solvable and deterministic`, () => {
      const domain = domainOf(d.name);
      const probs = generateProblems(d.name, { count: 10, seed: 42 });
      expect(probs.map((p) => p.name)).toEqual(Array.from({ length: 10 }, (_, i) => `p${String(i + 1).padStart(4, "0")}`));
      const bodies = new Set(probs.map((p) => p.text.replace(/\(problem [^)]*\)/, "")));
      expect(bodies.size).toBe(10);
      for (const p of probs) {
        const problem = parseProblem(p.text, `${p.name}.pddl`, domain);
        expect(problem.name).toBe(p.name);
        const task = ground(domain, problem);
        const res = solve(task, { heuristic: "lmcut" });
        expect(res.status).toBe("solved");
        expect(res.plan.length).toBe(p.planLength);
        expect(p.planLength).toBeGreaterThan(0);
        expect(validatePlan(task, res.plan.map((op) => task.opNames[op]!)).valid).toBe(true);
      }
      // same seed, same problems; a shorter run is a prefix of a longer one
      expect(generateProblems(d.name, { count: 10, seed: 42 })).toEqual(probs);
      expect(generateProblems(d.name, { count: 4, seed: 42, check: false }).map((p) => p.text)).toEqual(
        probs.slice(0, 4).map((p) => p.text),
      );
      // another seed, other problems
      const other = generateProblems(d.name, { count: 3, seed: 43, check: false });
      expect(other.map((p) => p.text)).not.toEqual(probs.slice(0, 3).map((p) => p.text));
    });
  }

  it("fails clearly when the problems are too large for the solvability check", () => {
    expect(() => generateProblems("sokoban", { count: 1, seed: 1, maxExpansions: 1 })).toThrow(/too large to check/);
  });

  it("fails clearly when the sizes allow too few distinct problems", () => {
    expect(() => generateProblems("blocksworld", { count: 30, seed: 1, sizes: { blocks: 2 } })).toThrow(UserError);
    expect(() => generateProblems("blocksworld", { count: 30, seed: 1, sizes: { blocks: 2 } })).toThrow(/too few/);
  });
});

describe("generateProblems without plan lengths (what a labelling run asks for)", () => {
  const texts = (ps: { name: string; text: string }[]) => ps.map((p) => `${p.name}\n${p.text}`);
  for (const d of BUILTIN_DOMAINS) {
    it(`${d.name}: the same problems as with the planner's check`, () => {
      for (const seed of [1, 2]) {
        const checked = generateProblems(d.name, { count: 60, seed });
        const fast = generateProblems(d.name, { count: 60, seed, planLengths: false });
        expect(texts(fast)).toEqual(texts(checked));
        // plan lengths are measured exactly where solvability is not known by construction
        const proved = fast.filter((p) => p.planLength === -1).length;
        expect(proved).toBe(["blocksworld", "blocksworld-3ops", "npuzzle", "ferry", "hanoi", "sokoban", "logistics", "elevator", "visitgrid", "spanner", "rooms"].includes(d.name) ? 60 : 0);
      }
    });
  }

  it("goalHoldsInInit: positive and negated goal literals against the initial state", () => {
    const spec = (init: string[], goal: string[]) => ({ objects: [], init, goal });
    expect(goalHoldsInInit(spec(["(on b1 b2)", "(clear b1)"], ["(on b1 b2)"]))).toBe(true);
    expect(goalHoldsInInit(spec(["(on b1 b2)"], ["(on b2 b1)"]))).toBe(false);
    expect(goalHoldsInInit(spec(["(lit r1)"], ["(not (lit r1))"]))).toBe(false);
    expect(goalHoldsInInit(spec(["(lit r1)"], ["(not (lit r2))", "(lit r1)"]))).toBe(true);
    // two blocks: 3 configurations, so 6 problems whose goal does not hold at the start, and
    // draws with the goal in the initial state come often: both ways keep the same 6, and neither finds a 7th
    const two = { seed: 1, sizes: { blocks: 2 } };
    const fast = generateProblems("blocksworld", { ...two, count: 6, planLengths: false });
    expect(fast.map((p) => p.text)).toEqual(generateProblems("blocksworld", { ...two, count: 6 }).map((p) => p.text));
    expect(() => generateProblems("blocksworld", { ...two, count: 7, planLengths: false })).toThrow(/could not make problem 7/);
    expect(() => generateProblems("blocksworld", { ...two, count: 7 })).toThrow(/could not make problem 7/);
  });

  it("hanoi with two pegs (not always solvable) still goes to the planner", () => {
    const two = { count: 3, seed: 4, sizes: { pegs: 2, disks: 2 } };
    const fast = generateProblems("hanoi", { ...two, planLengths: false });
    expect(fast.every((p) => p.planLength > 0)).toBe(true);
    expect(texts(fast)).toEqual(texts(generateProblems("hanoi", two)));
  });

  it("solvable() claims hold: the planner solves every draw it vouches for (200 draws per domain)", () => {
    for (const d of BUILTIN_DOMAINS) {
      const domain = domainOf(d.name);
      for (let i = 0; i < 200; i++) {
        const spec = d.build(new Prng(11, `${d.name}/${i}`), {});
        if (!d.solvable(spec)) continue;
        const text = d.generate(new Prng(11, `${d.name}/${i}`), {}, "p");
        const r = solve(ground(domain, parseProblem(text, "p.pddl", domain)), { heuristic: "lmcut" });
        expect(r.status, `${d.name} draw ${i}`).toBe("solved");
      }
    }
  }, 120_000);
});

describe("rooms: solvability from the layout's analysis", () => {
  /** A rooms problem as the generator writes it: `doors` between rooms 0.., `lit` rooms, the agent in `start`. */
  function roomsSpec(n: number, doors: [number, number][], lit: number[], start: number): ProblemSpec {
    const names = Array.from({ length: n }, (_, i) => `room${i + 1}`);
    const init = [atom("at", "agent1", names[start]!), ...lit.map((r) => atom("on", names[r]!))];
    for (const [a, b] of doors) init.push(atom("door-intact", names[a]!, names[b]!), atom("door-intact", names[b]!, names[a]!));
    for (const [a, b] of doors) init.push(atom("door", names[a]!, names[b]!), atom("door", names[b]!, names[a]!));
    return { objects: [["agent1", "agent"], ...names.map((r) => [r, "room"] as const)], init, goal: lit.map((r) => `(not ${atom("on", names[r]!)})`) };
  }

  it("agrees with the planner both ways on random layouts, solvable or not", () => {
    const domain = domainOf("rooms");
    const prng = new Prng(3, "rooms-layouts");
    const seen = { solvable: 0, unsolvable: 0 };
    for (let i = 0; i < 120; i++) {
      const n = 3 + prng.int(4);
      const doors: [number, number][] = [];
      for (let r = 1; r < n; r++) doors.push([prng.int(r), r]);
      const lit = prng.shuffle(Array.from({ length: n }, (_, r) => r)).slice(0, 1 + prng.int(n));
      const spec = roomsSpec(n, doors, lit, prng.int(n));
      const text = renderProblem("rooms", `p${i}`, spec);
      const r = solve(ground(domain, parseProblem(text, "p.pddl", domain)), { heuristic: "lmcut" });
      expect(rooms.solvable!(spec), `layout ${i}`).toBe(r.status === "solved");
      seen[r.status === "solved" ? "solvable" : "unsolvable"]++;
    }
    expect(seen.solvable).toBeGreaterThan(10);
    expect(seen.unsolvable).toBeGreaterThan(10);
  });

  it("a problem not in the generator's form goes to the planner", () => {
    const line = roomsSpec(3, [[0, 1], [1, 2]], [0, 2], 1);
    expect(rooms.solvable!(line)).toBe(false);
    expect(rooms.solvable!({ ...line, goal: [] })).toBe(false);
    expect(rooms.solvable!({ ...line, init: [...line.init, atom("visited", "room1")] })).toBe(false);
    expect(rooms.solvable!(roomsSpec(3, [[0, 1], [1, 2]], [0, 2], 0))).toBe(true);
  });
});

describe("size options", () => {
  const parse = (name: string, sizes: Record<string, number>, count = 3): Problem[] =>
    generateProblems(name, { count, seed: 5, sizes }).map((p) => parseProblem(p.text, p.name, domainOf(name)));

  it("blocks", () => {
    for (const name of ["blocksworld", "blocksworld-3ops"])
      for (const p of parse(name, { blocks: 6 })) expect(objectsOfType(p, "block")).toHaveLength(6);
  });
  it("ferry: cars and locations", () => {
    for (const p of parse("ferry", { cars: 4, locations: 5 })) {
      expect(objectsOfType(p, "car")).toHaveLength(4);
      expect(objectsOfType(p, "location")).toHaveLength(5);
    }
  });
  it("hanoi: disks and pegs", () => {
    for (const p of parse("hanoi", { disks: 4, pegs: 4 })) {
      expect(objectsOfType(p, "disk")).toHaveLength(4);
      expect(objectsOfType(p, "peg")).toHaveLength(4);
    }
  });
  it("logistics: cities, trucks, planes, packages", () => {
    for (const p of parse("logistics", { cities: 3, trucks: 4, planes: 2, packages: 2 })) {
      expect(objectsOfType(p, "city")).toHaveLength(3);
      expect(objectsOfType(p, "truck")).toHaveLength(4);
      expect(objectsOfType(p, "airplane")).toHaveLength(2);
      expect(objectsOfType(p, "package")).toHaveLength(2);
    }
  });
  it("elevator: floors and passengers", () => {
    for (const p of parse("elevator", { floors: 6, passengers: 2 })) {
      expect(objectsOfType(p, "floor")).toHaveLength(6);
      expect(objectsOfType(p, "passenger")).toHaveLength(2);
    }
  });
  it("npuzzle: size and depth", () => {
    const probs = generateProblems("npuzzle", { count: 5, seed: 3, sizes: { size: 3, depth: 4 } });
    for (const g of probs) {
      expect(g.planLength).toBeLessThanOrEqual(4);
      expect(objectsOfType(parseProblem(g.text, g.name, domainOf("npuzzle")), "tile")).toHaveLength(8);
    }
    for (const p of parse("npuzzle", { size: 2, depth: 3 }, 2)) expect(objectsOfType(p, "position")).toHaveLength(4);
  });
  it("visitgrid: size and cells to visit", () => {
    for (const p of parse("visitgrid", { size: 5, visit: 3 })) {
      expect(objectsOfType(p, "cell")).toHaveLength(25);
      expect(goalAtoms(p.goal)).toHaveLength(3);
    }
  });
  it("sokoban: size, boxes, walls", () => {
    for (const p of parse("sokoban", { size: 5, boxes: 2, walls: 3 })) {
      expect(objectsOfType(p, "location")).toHaveLength(25 - 3);
      expect(objectsOfType(p, "box")).toHaveLength(2);
    }
  });
  it("spanner: locations, spanners, nuts", () => {
    for (const p of parse("spanner", { locations: 3, spanners: 4, nuts: 2 })) {
      expect(objectsOfType(p, "location")).toHaveLength(3 + 2);
      expect(objectsOfType(p, "spanner")).toHaveLength(4);
      expect(objectsOfType(p, "nut")).toHaveLength(2);
    }
  });
  it("rooms: rooms, doors, lights", () => {
    for (const p of parse("rooms", { rooms: 5, doors: 5, lights: 3 })) {
      expect(objectsOfType(p, "room")).toHaveLength(5);
      expect(initCount(p, "door")).toBe(10);
      expect(initCount(p, "on")).toBe(3);
    }
  });

  it("bad sizes are errors naming the flag", () => {
    expect(() => checkSizes("blocksworld", { blocks: 1 })).toThrow(/--blocks/);
    expect(() => checkSizes("blocksworld", { cars: 3 })).toThrow(/--cars is not a size option of blocksworld/);
    expect(() => generateProblems("spanner", { count: 1, seed: 1, sizes: { spanners: 1, nuts: 2 } })).toThrow(/--spanners/);
    expect(() => generateProblems("rooms", { count: 1, seed: 1, sizes: { rooms: 5, doors: 2 } })).toThrow(/--doors/);
    expect(() => generateProblems("visitgrid", { count: 1, seed: 1, sizes: { size: 2, visit: 4 } })).toThrow(/--visit/);
  });
});

describe("registry", () => {
  it("unknown domains list the valid names", () => {
    expect(() => getBuiltinDomain("nope")).toThrow(UserError);
    expect(() => getBuiltinDomain("nope")).toThrow(/blocksworld, blocksworld-3ops, ferry/);
  });
  it("paths point into the package and default y matches the paper", () => {
    expect(builtinDomainFile("ferry")).toMatch(/domains[\\/]ferry[\\/]domain\.pddl$/);
    expect(builtinProblemsDir("ferry")).toMatch(/problems[\\/]ferry$/);
    const y = Object.fromEntries(BUILTIN_DOMAINS.map((d) => [d.name, d.defaultSamplesPerState]));
    expect(y).toEqual({
      blocksworld: 7, "blocksworld-3ops": 10, ferry: 8, hanoi: 10, logistics: 12, elevator: 9,
      npuzzle: 8, visitgrid: 9, sokoban: 9, spanner: 7, rooms: 6,
    });
  });
  it("generate() is deterministic for a PRNG state", () => {
    const d = getBuiltinDomain("hanoi");
    const a = d.generate(new Prng(9, "x"), {}, "p0001");
    const b = d.generate(new Prng(9, "x"), {}, "p0001");
    expect(a).toBe(b);
    expect(a).toContain("(define (problem p0001)");
  });
});
