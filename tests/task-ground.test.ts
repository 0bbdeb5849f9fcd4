import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseDomain, parseProblem, PddlError, UserError } from "../src/pddl/index.js";
import {
  applyOp, explainAction, explainGoal, findOperator, ground, GroundingLimit, isApplicable, isGoal, parseGroundAction,
  stateToFacts, SuccessorGenerator, type GroundTask,
} from "../src/task/index.js";

const FX = join(import.meta.dirname, "fixtures", "task");
const text = (f: string) => readFileSync(join(FX, f), "utf8");
function load(d: string, p: string, patch?: (s: string) => string): GroundTask {
  const D = parseDomain(text(d), d);
  const P = parseProblem(patch ? patch(text(p)) : text(p), p, D);
  return ground(D, P);
}
const opId = (t: GroundTask, name: string): number => {
  const i = t.opNames.indexOf(name);
  if (i < 0) throw new Error(`no operator ${name}`);
  return i;
};
const applicable = (t: GroundTask, s: Uint32Array): string[] => {
  const out: number[] = [];
  new SuccessorGenerator(t).applicable(s, out);
  return out.map((o) => t.opNames[o]!);
};
const run = (t: GroundTask, names: string[]): Uint32Array => {
  let s = t.init;
  for (const n of names) {
    const o = t.opNames.findIndex((x, i) => x === n && isApplicable(t, s, i));
    if (o < 0) throw new Error(`${n} not applicable`);
    s = applyOp(t, s, o);
  }
  return s;
};

describe("blocksworld (hand-checked)", () => {
  const t = load("bw-domain.pddl", "bw-p3.pddl");
  it("has the relaxed-reachable facts and operators, sorted by name", () => {
    // 3 blocks: on 9, ontable 3, clear 3, holding 3, handempty 1
    expect(t.numFacts).toBe(19);
    expect(t.words).toBe(1);
    expect(t.factNames.slice(0, 5)).toEqual(["(clear a)", "(clear b)", "(clear c)", "(handempty)", "(holding a)"]);
    expect([...t.factNames].sort()).toEqual(t.factNames);
    // pick-up 3, put-down 3, stack 9, unstack 9
    expect(t.numOps).toBe(24);
    expect([...t.opNames].sort()).toEqual(t.opNames);
    expect(t.opNames[0]).toBe("(pick-up a)");
    expect(Array.from(t.opCost).every((c) => c === 1)).toBe(true);
    expect(t.hasCosts).toBe(false);
    expect(t.objects).toEqual(["a", "b", "c"]);
    expect(t.objectTypes[0]).toEqual(["block", "object"]);
  });
  it("has correct tables for one operator", () => {
    const o = opId(t, "(unstack c b)");
    const names = (xs: Int32Array, s: Int32Array) => Array.from(xs.subarray(s[o]!, s[o + 1]!), (f) => t.factNames[f]).sort();
    expect(names(t.pre, t.preStart)).toEqual(["(clear c)", "(handempty)", "(on c b)"]);
    expect(names(t.add, t.addStart)).toEqual(["(clear b)", "(holding c)"]);
    expect(names(t.del, t.delStart)).toEqual(["(clear c)", "(handempty)", "(on c b)"]);
    expect(t.domain.actions[t.opSchema[o]!]!.name).toBe("unstack");
    expect(Array.from(t.opArgs.subarray(t.opArgStart[o]!, t.opArgStart[o + 1]!), (x) => t.objects[x])).toEqual(["c", "b"]);
  });
  it("computes the initial state, applicable actions, successors and the goal", () => {
    expect(stateToFacts(t, t.init)).toEqual(["(clear c)", "(handempty)", "(on b a)", "(on c b)", "(ontable a)"]);
    expect(applicable(t, t.init)).toEqual(["(unstack c b)"]);
    const s = run(t, ["(unstack c b)", "(put-down c)", "(unstack b a)", "(stack b c)", "(pick-up a)"]);
    expect(stateToFacts(t, s)).toEqual(["(clear b)", "(holding a)", "(on b c)", "(ontable c)"]);
    expect(isGoal(t, s)).toBe(false);
    expect(isGoal(t, run(t, ["(unstack c b)", "(put-down c)", "(unstack b a)", "(stack b c)", "(pick-up a)", "(stack a b)"]))).toBe(true);
    expect(t.goalPos.length).toBe(2);
  });
  it("numbers facts and operators the same whatever the order of declarations", () => {
    const t2 = load("bw-domain.pddl", "bw-p3.pddl", (s) =>
      s.replace("(:objects a b c - block)", "(:objects c a b - block)").replace("(clear c) (on c b) (on b a)", "(on b a) (on c b) (clear c)"));
    expect(t2.factNames).toEqual(t.factNames);
    expect(t2.opNames).toEqual(t.opNames);
    expect(Array.from(t2.pre)).toEqual(Array.from(t.pre));
    expect(Array.from(t2.init)).toEqual(Array.from(t.init));
  });
  it("explains why an action is not applicable, in PDDL syntax", () => {
    const x = (name: string, s = t.init) => {
      const g = parseGroundAction(t, name)!;
      return explainAction(t, s, g.schema, g.args);
    };
    expect(x("(stack a b)")).toEqual({ op: opId(t, "(stack a b)"), failed: ["(holding a)", "(clear b)"] });
    expect(x("(stack a c)").failed).toEqual(["(holding a)"]);
    expect(x("(pick-up c)").failed).toEqual(["(ontable c)"]);
    expect(x("(unstack c b)")).toEqual({ op: opId(t, "(unstack c b)"), failed: [] });
    expect(x("(unstack a c)").failed).toEqual(["(on a c)", "(clear a)"]);
  });
  it("parses ground actions", () => {
    expect(parseGroundAction(t, "( PICK-UP  A )")).toEqual({ schema: 0, args: [0] });
    expect(parseGroundAction(t, "(pick-up a b)")).toBeNull();
    expect(parseGroundAction(t, "(pick-up z)")).toBeNull();
    expect(parseGroundAction(t, "(fly a)")).toBeNull();
    expect(parseGroundAction(t, "pick-up a")).toBeNull();
    expect(findOperator(t, 0, [2])).toEqual([opId(t, "(pick-up c)")]);
  });
});

describe("numbering by name (ranks, not string comparisons)", () => {
  // names that are prefixes of others, '-' and '_' inside names, digits: string order throughout
  const D = parseDomain(
    `(define (domain names) (:requirements :strips :typing) (:types thing)
      (:predicates (on ?x ?y - thing) (on-x ?x - thing) (on_ ?x - thing) (free))
      (:action go :parameters (?a ?b - thing) :precondition (and (on ?a ?b) (free)) :effect (and (on-x ?a) (not (on ?a ?b))))
      (:action go-2 :parameters (?a - thing) :precondition (on-x ?a) :effect (and (on_ ?a) (on ?a ?a)))
      (:action g :parameters () :precondition (free) :effect (not (free))))`,
    "names.pddl",
  );
  const objects = ["a", "ab", "a-b", "a_b", "b1", "b10", "b2", "a1", "z", "A0"];
  const P = parseProblem(
    `(define (problem p) (:domain names) (:objects ${objects.join(" ")} - thing)
      (:init (free) ${objects.flatMap((x) => objects.map((y) => `(on ${x} ${y})`)).join(" ")}) (:goal (on_ a)))`,
    "p.pddl",
    D,
  );
  const byString = (xs: readonly string[]): string[] => [...xs].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  it("sorts facts and operators as their names compare", () => {
    const t = ground(D, P);
    expect(t.factNames.length).toBeGreaterThan(100);
    expect(t.factNames).toEqual(byString(t.factNames));
    expect(t.opNames).toEqual(byString(t.opNames));
  });
  it("still sorts by name when a name has a character below ')' (string comparisons then)", () => {
    // not PDDL the parser accepts, but a task built from an AST may have it: "(on-x a!)" sorts
    // before "(on-x a)", against the rank of "a!" after "a"
    const bang = (a: { name: string }) => (a.name === "ab" ? { ...a, name: "a!" } : a);
    const P2 = {
      ...P,
      objects: P.objects.map(bang),
      init: P.init.map((el) => (el.kind === "atom" ? { ...el, atom: { ...el.atom, args: el.atom.args.map(bang) } } : el)),
    };
    const t2 = ground(D, P2);
    expect(t2.factNames).toContain("(on-x a!)");
    expect(t2.factNames).toEqual(byString(t2.factNames));
    expect(t2.opNames).toEqual(byString(t2.opNames));
  });
});

describe("conditional effects (briefcase)", () => {
  const t = load("brief-domain.pddl", "brief-p1.pddl");
  it("grounds forall/when into conditional effects and applies them on the old state", () => {
    const o = opId(t, "(move home office)");
    const ce = [];
    for (let e = t.ceStart[o]!; e < t.ceStart[o + 1]!; e++) {
      const cond = Array.from(t.ceCond.subarray(t.ceCondStart[e]!, t.ceCondStart[e + 1]!), (f) => t.factNames[f]);
      ce.push(`${cond.join(",")} => ${t.ceIsAdd[e] ? "" : "not "}${t.factNames[t.ceFact[e]!]}`);
    }
    expect(ce.sort()).toEqual([
      "(in d1) => (at d1 office)", "(in d1) => not (at d1 home)", "(in d2) => (at d2 office)", "(in d2) => not (at d2 home)",
    ]);
    // (= ?m ?l) is evaluated away: no (move home home).
    expect(t.opNames.includes("(move home home)")).toBe(false);
    const s = run(t, ["(put-in d1 home)", "(move home office)"]);
    expect(stateToFacts(t, s)).toEqual(["(at d1 office)", "(at d2 office)", "(in d1)", "(is-at office)"]);
    const s2 = run(t, ["(put-in d1 home)", "(move home office)", "(put-in d2 office)", "(move office shop)", "(take-out d1)", "(move shop home)"]);
    expect(stateToFacts(t, s2)).toEqual(["(at d1 shop)", "(at d2 home)", "(in d2)", "(is-at home)"]);
    expect(isGoal(t, s2)).toBe(true);
  });
});

describe("negative preconditions, disjunction, quantifiers, constants with either types (lamps)", () => {
  const t = load("lamps-domain.pddl", "lamps-p1.pddl");
  it("includes domain constants as objects with their types", () => {
    expect(t.objects).toEqual(["hall", "kitchen", "l1", "l2", "l3", "main", "s1"]);
    expect(t.objectTypes[t.objects.indexOf("main")]).toEqual(["device", "object", "switch"]);
  });
  it("splits a disjunctive precondition into variants sharing the action name", () => {
    const v = findOperator(t, 0, [t.objects.indexOf("l1")]);
    expect(v.length).toBe(2);
    for (const o of v) {
      expect(t.opNames[o]).toBe("(turn-on l1)");
      expect(Array.from(t.negPre.subarray(t.negPreStart[o]!, t.negPreStart[o + 1]!), (f) => t.factNames[f])).toEqual(["(on l1)"]);
    }
    const pres = v.map((o) => Array.from(t.pre.subarray(t.preStart[o]!, t.preStart[o + 1]!), (f) => t.factNames[f]).join(" ")).sort();
    expect(pres).toEqual(["(on main)", "(on s1)"]);
  });
  it("drops operators whose precondition is statically false and keeps only reachable facts", () => {
    expect(t.opNames.includes("(turn-on l3)")).toBe(false);
    expect(t.factNames.includes("(on l3)")).toBe(false);
    expect(t.factNames.some((f) => f.startsWith("(wired") || f.startsWith("(broken") || f.startsWith("(in "))).toBe(false);
    expect(t.opNames.filter((n) => n.startsWith("(inspect"))).toEqual([
      "(inspect hall hall)", "(inspect kitchen kitchen)", "(inspect l1 kitchen)", "(inspect l2 hall)", "(inspect main hall)",
    ]);
  });
  it("checks negative preconditions exactly and explains pruned and quantified actions", () => {
    expect(applicable(t, t.init)).toEqual(["(flip main)", "(flip s1)"]);
    const s = run(t, ["(flip s1)", "(turn-on l1)"]);
    expect(applicable(t, s)).toEqual(["(flip main)", "(turn-off l1)", "(turn-on l2)"]);
    const ex = (name: string, st: Uint32Array) => {
      const g = parseGroundAction(t, name)!;
      return explainAction(t, st, g.schema, g.args);
    };
    expect(ex("(turn-on l1)", s)).toEqual({ op: findOperator(t, 0, [2])[0], failed: ["(not (on l1))"] });
    expect(ex("(unflip s1)", s).failed).toEqual(["(not (on l1))"]);
    const pruned = ex("(turn-on l3)", t.init);
    expect(pruned.op).toBe(-1);
    expect(pruned.failed).toEqual(["(not (broken l3))", "(or (on main) (exists (?s - switch) (and (wired ?s l3) (on ?s))))"]);
    expect(ex("(inspect l1 hall)", t.init).failed).toEqual(["(or (in l1 hall) (= l1 hall))", "(on main)"]);
    expect(parseGroundAction(t, "(flip l1)")).toBeNull(); // l1 is a lamp, not a switch
    expect(parseGroundAction(t, "(inspect kitchen hall)")).not.toBeNull(); // either device room
    expect(explainGoal(t, s)).toEqual(["(on l2)", "(not (on s1))", "(inspected kitchen)", "(inspected l2)"]);
  });
});

describe("action costs (roads)", () => {
  it("reads integer costs from constants and from function values in init", () => {
    const t = load("roads-domain.pddl", "roads-p1.pddl");
    expect(t.hasCosts).toBe(true);
    const cost = (n: string) => t.opCost[opId(t, n)];
    expect([cost("(drive x y)"), cost("(drive x z)"), cost("(drive y z)"), cost("(drive z y)"), cost("(teleport z x)")]).toEqual([2, 9, 3, 1, 7]);
    // road is static: folded away; no road from y to x, so (drive y x) does not exist.
    expect(t.factNames.some((f) => f.startsWith("(road"))).toBe(false);
    expect(t.opNames.includes("(drive y x)")).toBe(false);
    expect(t.factNames.includes("(at w)")).toBe(false);
  });
  it("uses unit costs without a total-cost metric", () => {
    const t = load("roads-domain.pddl", "roads-p1.pddl", (s) => s.replace("(:metric minimize (total-cost))", ""));
    expect(t.hasCosts).toBe(false);
    expect(Array.from(t.opCost).every((c) => c === 1)).toBe(true);
  });
  it("reports a missing function value with its location", () => {
    expect(() => load("roads-domain.pddl", "roads-p1.pddl", (s) => s.replace("(= (len y z) 3)", ""))).toThrow(/no value for \(len y z\)/);
    try {
      load("roads-domain.pddl", "roads-p1.pddl", (s) => s.replace("(= (len y z) 3)", ""));
    } catch (e) {
      expect(e).toBeInstanceOf(PddlError);
      expect((e as PddlError).format()).toMatch(/^roads-domain\.pddl:\d+:\d+: error: /);
    }
  });
  it("stops at maxOps with a clear error", () => {
    const D = parseDomain(text("roads-domain.pddl"), "d");
    const P = parseProblem(text("roads-p1.pddl"), "p", D);
    expect(() => ground(D, P, { maxOps: 5 })).toThrow(UserError);
    expect(() => ground(D, P, { maxOps: 5 })).toThrow(/exceeds 5 operators/);
  });
  it("stops at maxFacts, a time limit or a passed deadline with a GroundingLimit saying which", () => {
    const D = parseDomain(text("roads-domain.pddl"), "d");
    const P = parseProblem(text("roads-p1.pddl"), "p", D);
    const full = ground(D, P);
    const limitOf = (f: () => unknown): GroundingLimit => {
      try {
        f();
      } catch (e) {
        expect(e).toBeInstanceOf(GroundingLimit);
        return e as GroundingLimit;
      }
      throw new Error("expected a GroundingLimit");
    };
    expect(limitOf(() => ground(D, P, { maxFacts: 3 })).limit).toBe("facts");
    expect(limitOf(() => ground(D, P, { maxFacts: 3 })).message).toMatch(/exceeds 3 facts/);
    expect(limitOf(() => ground(D, P, { maxOps: 5 })).limit).toBe("operators");
    expect(limitOf(() => ground(D, P, { deadline: performance.now() - 1 })).limit).toBe("time");
    expect(limitOf(() => ground(D, P, { timeMs: -1 })).limit).toBe("time");
    // bounds that hold change nothing
    const bounded = ground(D, P, { maxFacts: full.numFacts, maxOps: full.numOps, timeMs: 60_000 });
    expect(bounded.factNames).toEqual(full.factNames);
    expect(bounded.opNames).toEqual(full.opNames);
  });
  it("the time limit stops a grounding that would take long (a clique of 400 nodes: 160,000 operators)", () => {
    const D = parseDomain(
      `(define (domain clique) (:requirements :strips :typing) (:types node)
         (:predicates (at ?n - node) (seen ?n - node))
         (:action go :parameters (?a ?b - node) :precondition (at ?a) :effect (and (at ?b) (seen ?b) (not (at ?a)))))`,
      "clique.pddl",
    );
    const nodes = Array.from({ length: 400 }, (_, i) => `n${i}`);
    const P = parseProblem(`(define (problem c) (:domain clique) (:objects ${nodes.join(" ")} - node) (:init (at n0)) (:goal (seen n399)))`, "c.pddl", D);
    let err: unknown;
    try {
      ground(D, P, { timeMs: 20 });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(GroundingLimit);
    expect((err as GroundingLimit).limit).toBe("time");
    // stopped on the way, not after building everything
    const ops = Number(/(\d+) operators/.exec((err as Error).message)![1]);
    expect(ops).toBeLessThan(160_000);
  });
});

describe("derived predicates (reach)", () => {
  const t = load("reach-domain.pddl", "reach-p1.pddl");
  it("grounds derived predicates into axioms evaluated after every transition", () => {
    expect(t.numAxioms).toBeGreaterThan(0);
    const derived = t.factNames.filter((_, f) => t.factDerived[f]);
    expect(derived).toEqual(["(connected n1 n2)", "(connected n1 n3)", "(connected n1 n4)", "(connected n2 n3)", "(connected n2 n4)", "(connected n3 n4)"]);
    expect(applicable(t, t.init).some((n) => n.startsWith("(light"))).toBe(false);
    const s = run(t, ["(open-edge n1 n2)", "(open-edge n2 n4)"]);
    expect(applicable(t, s).filter((n) => n.startsWith("(light"))).toEqual(["(light n2)", "(light n4)"]);
    const s2 = run(t, ["(open-edge n1 n2)", "(open-edge n2 n4)", "(light n4)", "(close-edge n1 n2)"]);
    expect(isGoal(t, s2)).toBe(false); // (open n2 n4) still holds
    expect(explainGoal(t, s2)).toEqual(["(not (open n2 n4))"]);
    expect(isGoal(t, applyOp(t, s2, opId(t, "(close-edge n2 n4)")))).toBe(true);
  });
  it("compiles a complex goal into a derived goal fact", () => {
    const t2 = load("reach-domain.pddl", "reach-p1.pddl", (s) => s.replace(/\(:goal[\s\S]*\)\s*\)\s*$/, "(:goal (or (lit n3) (and (lit n2) (not (open n1 n2))))))"));
    expect(t2.goalPos.length).toBe(1);
    expect(t2.factNames[t2.goalPos[0]!]).toBe("(__goal)");
    expect(isGoal(t2, t2.init)).toBe(false);
    expect(isGoal(t2, run(t2, ["(open-edge n1 n2)", "(light n2)"]))).toBe(false);
    expect(isGoal(t2, run(t2, ["(open-edge n1 n2)", "(light n2)", "(close-edge n1 n2)"]))).toBe(true);
    expect(isGoal(t2, run(t2, ["(open-edge n1 n2)", "(open-edge n2 n3)", "(light n3)"]))).toBe(true);
  });
  it("rejects derived predicates that recurse through negation", () => {
    const bad = text("reach-domain.pddl").replace("(or (open ?a ?b)", "(or (not (connected ?b ?a))");
    const D = parseDomain(bad, "bad.pddl");
    const P = parseProblem(text("reach-p1.pddl"), "p", D);
    expect(() => ground(D, P)).toThrow(/not stratified/);
  });
});

describe("unreachable goals", () => {
  it("a goal atom that is not relaxed-reachable gives a goal that never holds", () => {
    const t = load("bw-domain.pddl", "bw-p3.pddl", (s) => s.replace("(:objects a b c - block)", "(:objects a b c e - block)").replace("(on b c)", "(on b c) (on e a)"));
    // e is never clear nor on the table: it cannot move, (on e a) is unreachable.
    expect(t.factNames.includes("(on e a)")).toBe(false);
    expect(t.factNames[t.goalPos[0]!]).toBe("(__goal)");
    expect(isGoal(t, t.init)).toBe(false);
    expect(explainGoal(t, t.init)).toEqual(["(on a b)", "(on b c)", "(on e a)"]);
  });
});

describe("negative goals on atoms that never become true", () => {
  it("a negated unreachable atom is simply true (no stray goal fact), and plans validate", () => {
    const dFile = join(import.meta.dirname, "..", "domains", "rooms", "domain.pddl");
    const D = parseDomain(readFileSync(dFile, "utf8"), dFile);
    // room2 starts dark and nothing turns a light on: (on room2) is never a fact.
    const P = parseProblem(
      `(define (problem dark) (:domain rooms)
        (:objects a - agent r1 r2 - room)
        (:init (at a r1) (on r1) (door r1 r2) (door r2 r1) (door-intact r1 r2) (door-intact r2 r1))
        (:goal (and (not (on r1)) (not (on r2)))))`,
      "dark.pddl",
      D,
    );
    const t = ground(D, P);
    expect(t.factNames.includes("(on r2)")).toBe(false);
    expect(t.factNames.some((n) => n.includes("goal"))).toBe(false);
    expect(Array.from(t.goalPos)).toEqual([]);
    expect(Array.from(t.goalNeg).map((f) => t.factNames[f])).toEqual(["(on r1)"]);
    expect(isGoal(t, t.init)).toBe(false);
    const s = run(t, ["(turn-off a r1)"]);
    expect(isGoal(t, s)).toBe(true);
    expect(explainGoal(t, s)).toEqual([]);
  });

  it("an all-unreachable negative goal holds in the initial state", () => {
    const dFile = join(import.meta.dirname, "..", "domains", "rooms", "domain.pddl");
    const D = parseDomain(readFileSync(dFile, "utf8"), dFile);
    const P = parseProblem(
      `(define (problem dark2) (:domain rooms)
        (:objects a - agent r1 r2 - room)
        (:init (at a r1) (door r1 r2) (door-intact r1 r2))
        (:goal (and (not (on r2)) (not (on r1)))))`,
      "dark2.pddl",
      D,
    );
    const t = ground(D, P);
    expect(t.goalPos.length + t.goalNeg.length).toBe(0);
    expect(isGoal(t, t.init)).toBe(true);
  });
});
