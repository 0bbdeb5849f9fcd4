import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BUILTIN_DOMAINS, builtinDomainFile, builtinProblemsDir, generateProblems } from "../src/generators/index.js";
import { parseDomain, parseProblem } from "../src/pddl/index.js";
import { chooseGroups, computeFactGroups } from "../src/task/invariants.js";
import { applyOp, ground, hasFact, StateRegistry, SuccessorGenerator, type GroundTask } from "../src/task/index.js";
import { PyRandom } from "../src/util/py-random.js";

const FX = join(import.meta.dirname, "fixtures");
function load(domainFile: string, problemFile: string): GroundTask {
  const d = parseDomain(readFileSync(domainFile, "utf8"), domainFile);
  return ground(d, parseProblem(readFileSync(problemFile, "utf8"), problemFile, d));
}
const fixture = (dir: string, d: string, p: string): GroundTask => load(join(FX, dir, d), join(FX, dir, p));
const builtin = (name: string, problem: string): GroundTask => load(builtinDomainFile(name), join(builtinProblemsDir(name), problem));
const names = (t: GroundTask, gs: Int32Array[]): string[][] => gs.map((g) => Array.from(g, (f) => t.factNames[f]!));

describe("PyRandom (CPython's random.Random)", () => {
  // Generated once with python3 (3.11): random.Random(seed) and the calls below.
  it("getrandbits(32) after seeding with 314159", () => {
    const r = new PyRandom(314159);
    expect(Array.from({ length: 8 }, () => r.getrandbits(32))).toEqual([
      826196214, 1180060831, 1231978967, 423847419, 507473068, 2450670151, 1315513776, 2606033286,
    ]);
  });
  it("randrange(n) over bit lengths 1..32 (rejection sampling), then getrandbits(k)", () => {
    const r = new PyRandom(314159);
    const ns = [1, 2, 3, 4, 5, 7, 8, 9, 17, 31, 32, 33, 100, 1000, 65535, 65536, 100000, 2 ** 31 - 1, 2 ** 31, 2 ** 32 - 1];
    expect(ns.map((n) => r.randrange(n))).toEqual([
      0, 1, 1, 0, 0, 4, 4, 4, 16, 5, 10, 2, 26, 515, 33423, 20303, 24336, 2094609332, 1375524463, 16390477,
    ]);
    expect([1, 5, 16, 31, 32].map((k) => r.getrandbits(k))).toEqual([1, 4, 43828, 561503866, 1441246411]);
  });
  it("the draws of a shrinking action list (as the balance check makes them)", () => {
    const r = new PyRandom(314159);
    expect(Array.from({ length: 20 }, (_, i) => r.randrange(5 - (i % 5)))).toEqual([1, 2, 1, 0, 0, 4, 2, 2, 1, 0, 1, 0, 0, 0, 0, 2, 0, 2, 0, 0]);
  });
  it("seed 0 and a seed wider than 32 bits (init_by_array over several words)", () => {
    const r0 = new PyRandom(0);
    expect(Array.from({ length: 6 }, () => r0.randrange(1000))).toEqual([864, 394, 776, 911, 430, 41]);
    const rb = new PyRandom(2 ** 40 + 12345);
    expect(Array.from({ length: 6 }, () => rb.randrange(1000))).toEqual([317, 357, 117, 3, 546, 142]);
  });
  it("rejects what it does not emulate", () => {
    expect(() => new PyRandom(-1)).toThrow(RangeError);
    expect(() => new PyRandom(314159).randrange(0)).toThrow(RangeError);
  });
});

describe("chooseGroups (the translator's greedy cover)", () => {
  it("takes the largest group first; among equal sizes the last one listed", () => {
    // sizes 2, 2, 2: the bucket queue pops the last group of the largest size
    expect(chooseGroups([Int32Array.of(0, 1), Int32Array.of(2, 3), Int32Array.of(1, 2)], 4).map((g) => [...g])).toEqual([[1, 2]]);
    expect(chooseGroups([Int32Array.of(1, 2), Int32Array.of(2, 3), Int32Array.of(0, 1)], 4).map((g) => [...g])).toEqual([[0, 1], [2, 3]]);
  });
  it("re-files a group that shrank below the current size and stops at size 1", () => {
    // {0,1,2} first; {2,3,4} shrinks to {3,4}, {0,5} to {5}; then {3,4}
    const out = chooseGroups([Int32Array.of(2, 3, 4), Int32Array.of(0, 5), Int32Array.of(0, 1, 2)], 6);
    expect(out.map((g) => [...g].sort())).toEqual([[0, 1, 2], [3, 4]]);
  });
  it("returns nothing when no group has two facts", () => {
    expect(chooseGroups([Int32Array.of(0), Int32Array.of()], 1)).toEqual([]);
    expect(chooseGroups([], 0)).toEqual([]);
  });
});

// Expected values are Fast Downward's translator output (groups = its variables in order,
// mutex groups = its mutex section) on these fixtures, run with --keep-unreachable-facts
// --skip-variable-reordering --keep-unimportant-variables.
describe("equal to Fast Downward's translator", () => {
  const cases: Array<{ name: string; task: () => GroundTask; groups: string[][]; mutex: string[][] }> = [
    {
      name: "blocksworld (4 operators)",
      task: () => fixture("task", "bw-domain.pddl", "bw-p3.pddl"),
      groups: [
        ["(clear a)"], ["(clear b)"], ["(clear c)"], ["(handempty)"],
        ["(holding a)", "(on a a)", "(on a b)", "(on a c)", "(ontable a)"],
        ["(holding b)", "(on b a)", "(on b b)", "(on b c)", "(ontable b)"],
        ["(holding c)", "(on c a)", "(on c b)", "(on c c)", "(ontable c)"],
      ],
      mutex: [
        ["(clear a)", "(holding a)", "(on a a)", "(on b a)", "(on c a)"],
        ["(clear b)", "(holding b)", "(on a b)", "(on b b)", "(on c b)"],
        ["(clear c)", "(holding c)", "(on a c)", "(on b c)", "(on c c)"],
        ["(handempty)", "(holding a)", "(holding b)", "(holding c)"],
        ["(holding a)", "(on a a)", "(on a b)", "(on a c)", "(ontable a)"],
        ["(holding b)", "(on b a)", "(on b b)", "(on b c)", "(ontable b)"],
        ["(holding c)", "(on c a)", "(on c b)", "(on c c)", "(ontable c)"],
      ],
    },
    {
      name: "gripper",
      task: () => fixture("invariants", "gripper-domain.pddl", "gripper-p1.pddl"),
      groups: [
        ["(at ball1 rooma)", "(at ball1 roomb)", "(carry ball1 left)", "(carry ball1 right)"],
        ["(at ball2 rooma)", "(at ball2 roomb)", "(carry ball2 left)", "(carry ball2 right)"],
        ["(at-robby rooma)", "(at-robby roomb)"], ["(free left)"], ["(free right)"],
      ],
      mutex: [
        ["(at ball1 rooma)", "(at ball1 roomb)", "(carry ball1 left)", "(carry ball1 right)"],
        ["(at ball2 rooma)", "(at ball2 roomb)", "(carry ball2 left)", "(carry ball2 right)"],
        ["(at-robby rooma)", "(at-robby roomb)"],
        ["(carry ball1 left)", "(carry ball2 left)", "(free left)"],
        ["(carry ball1 right)", "(carry ball2 right)", "(free right)"],
      ],
    },
    {
      name: "briefcase (universal conditional effects)",
      task: () => fixture("task", "brief-domain.pddl", "brief-p1.pddl"),
      groups: [
        ["(at d1 home)"], ["(at d1 office)"], ["(at d1 shop)"], ["(at d2 home)"], ["(at d2 office)"], ["(at d2 shop)"],
        ["(in d1)"], ["(in d2)"], ["(is-at home)", "(is-at office)", "(is-at shop)"],
      ],
      mutex: [["(is-at home)", "(is-at office)", "(is-at shop)"]],
    },
    {
      name: "roads (action costs from a function)",
      task: () => fixture("task", "roads-domain.pddl", "roads-p1.pddl"),
      groups: [["(at x)", "(at y)", "(at z)"], ["(visited x)"], ["(visited y)"], ["(visited z)"]],
      mutex: [["(at x)", "(at y)", "(at z)"]],
    },
    {
      name: "ADL normal form (disjunctions, quantifiers, negative goals)",
      task: () => fixture("invariants", "depots-adl-domain.pddl", "depots-adl-p1.pddl"),
      groups: [
        ...["p1", "p2", "p3"].flatMap((p) => ["home", "x", "y", "z"].map((l) => [`(at ${p} ${l})`])),
        ["(broken t1)"], ["(broken t2)"], ["(busy t1)"], ["(busy t2)"], ["(checked home)"], ["(fueled t1)"], ["(fueled t2)"],
        ...["p1", "p2", "p3"].flatMap((p) => ["t1", "t2"].map((t) => [`(in ${p} ${t})`])),
        ["(sealed p1)"], ["(sealed p2)"], ["(sealed p3)"],
        ["(tat t1 home)", "(tat t1 x)", "(tat t1 y)", "(tat t1 z)"],
        ["(tat t2 home)", "(tat t2 x)", "(tat t2 y)", "(tat t2 z)"],
      ],
      mutex: [
        ["(tat t1 home)", "(tat t1 x)", "(tat t1 y)", "(tat t1 z)"],
        ["(tat t2 home)", "(tat t2 x)", "(tat t2 y)", "(tat t2 z)"],
      ],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const t = c.task();
      const fg = computeFactGroups(t);
      expect(names(t, fg.groups)).toEqual(c.groups);
      expect(names(t, fg.mutexGroups)).toEqual(c.mutex);
    });
  }
});

describe("known invariants of built-in domains", () => {
  const groupSets = (t: GroundTask): Set<string> =>
    new Set(computeFactGroups(t).mutexGroups.map((g) => Array.from(g, (f) => t.factNames[f]!).sort().join(" ")));
  const present = (t: GroundTask, atoms: string[]): string => atoms.filter((a) => t.factNames.includes(a)).sort().join(" ");

  it("blocksworld: a block is on something, on the table or held; it is clear, covered or held; one block is held", () => {
    const t = builtin("blocksworld", "p0001.pddl");
    const blocks = t.objects;
    const gs = groupSets(t);
    for (const b of blocks) {
      expect(gs.has(present(t, [`(holding ${b})`, `(ontable ${b})`, ...blocks.map((x) => `(on ${b} ${x})`)]))).toBe(true);
      expect(gs.has(present(t, [`(holding ${b})`, `(clear ${b})`, ...blocks.map((x) => `(on ${x} ${b})`)]))).toBe(true);
    }
    expect(gs.has(present(t, ["(handempty)", ...blocks.map((b) => `(holding ${b})`)]))).toBe(true);
  });

  it("logistics: a package is at one location or in one vehicle; a vehicle is at one location", () => {
    const t = builtin("logistics", "p0001.pddl");
    const of = (type: string) => t.objects.filter((_, i) => t.objectTypes[i]!.includes(type));
    const gs = groupSets(t);
    for (const p of of("package")) {
      expect(gs.has(present(t, [...of("location").map((l) => `(at ${p} ${l})`), ...of("vehicle").map((v) => `(in ${p} ${v})`)]))).toBe(true);
    }
    for (const v of of("vehicle")) expect(gs.has(present(t, of("location").map((l) => `(at ${v} ${l})`)))).toBe(true);
    // the chosen variables: one per package and one per vehicle
    expect(computeFactGroups(t).groups.length).toBe(of("package").length + of("vehicle").length);
  });

  it("groups partition the non-derived facts; derived facts are left out", () => {
    const t = fixture("task", "reach-domain.pddl", "reach-p1.pddl");
    expect(t.factDerived.includes(1)).toBe(true);
    const fg = computeFactGroups(t);
    const seen = fg.groups.flatMap((g) => [...g]).sort((a, b) => a - b);
    expect(seen).toEqual(Array.from({ length: t.numFacts }, (_, f) => f).filter((f) => !t.factDerived[f]));
  });

  it("is deterministic", () => {
    const t = builtin("sokoban", "p0001.pddl");
    const a = computeFactGroups(t);
    const b = computeFactGroups(t);
    expect(names(t, b.groups)).toEqual(names(t, a.groups));
    expect(names(t, b.mutexGroups)).toEqual(names(t, a.mutexGroups));
  });

  it("an atom that is negative in the goal stays out of the chosen groups", () => {
    // the goal of depots-adl-p1 has (not (busy t2)) and (not (broken t1))
    const t = fixture("invariants", "depots-adl-domain.pddl", "depots-adl-p1.pddl");
    const fg = computeFactGroups(t);
    for (const g of names(t, fg.groups)) if (g.includes("(busy t2)") || g.includes("(broken t1)")) expect(g.length).toBe(1);
  });
});

/** Every state reachable from the initial state (up to `cap` states), by breadth-first search. */
function reachableStates(t: GroundTask, cap: number): Uint32Array[] {
  const reg = new StateRegistry(t.words, 1024);
  const gen = new SuccessorGenerator(t);
  const states: Uint32Array[] = [t.init];
  reg.intern(t.init);
  const ops: number[] = [];
  for (let i = 0; i < states.length && states.length < cap; i++) {
    ops.length = 0;
    gen.applicable(states[i]!, ops);
    for (const o of ops) {
      const s = applyOp(t, states[i]!, o);
      const before = reg.size;
      reg.intern(s);
      if (reg.size > before) states.push(s);
    }
  }
  return states;
}

describe("soundness: no reachable state has two facts of one mutex group", () => {
  const tasks: Array<[string, () => GroundTask]> = [
    ["bw fixture", () => fixture("task", "bw-domain.pddl", "bw-p4.pddl")],
    ["briefcase", () => fixture("task", "brief-domain.pddl", "brief-p1.pddl")],
    ["reach (axioms)", () => fixture("task", "reach-domain.pddl", "reach-p1.pddl")],
    ["roads", () => fixture("task", "roads-domain.pddl", "roads-p1.pddl")],
    ["lamps", () => fixture("task", "lamps-domain.pddl", "lamps-p1.pddl")],
    ["gripper", () => fixture("invariants", "gripper-domain.pddl", "gripper-p1.pddl")],
    ["depots-adl", () => fixture("invariants", "depots-adl-domain.pddl", "depots-adl-p1.pddl")],
  ];
  for (const d of BUILTIN_DOMAINS) {
    const domainFile = builtinDomainFile(d.name);
    const domain = parseDomain(readFileSync(domainFile, "utf8"), domainFile);
    generateProblems(d.name, { count: 3, seed: 7, check: false }).forEach((p) => {
      tasks.push([`${d.name} ${p.name}`, () => ground(domain, parseProblem(p.text, p.name, domain))]);
    });
  }
  for (const [name, make] of tasks) {
    it(name, () => {
      const t = make();
      const fg = computeFactGroups(t);
      const states = reachableStates(t, 5_000);
      expect(states.length).toBeGreaterThan(1);
      for (const s of states) {
        for (const g of fg.mutexGroups) {
          let n = 0;
          for (const f of g) if (hasFact(s, f)) n++;
          if (n > 1) throw new Error(`${name}: state with ${names(t, [g])[0]!.filter((_, i) => hasFact(s, g[i]!)).join(" ")} (group ${names(t, [g])[0]!.join(" ")})`);
        }
        // a chosen group with two facts would make a finite-domain variable take two values
        for (const g of fg.groups) {
          let n = 0;
          for (const f of g) if (hasFact(s, f)) n++;
          if (n > 1) throw new Error(`${name}: two facts of the variable ${names(t, [g])[0]!.join(" ")}`);
        }
      }
    });
  }
});
