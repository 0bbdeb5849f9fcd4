import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  objectsOfType, parseDomain, parseDomainFile, parseProblem, parseProblemFile, PddlError, supertypesOf,
  type Domain, type Effect, type Formula,
} from "../src/pddl/index.js";

const F = "tests/fixtures/pddl/";
const adl = (): Domain => parseDomainFile(F + "adl-domain.pddl");

describe("domain constructs", () => {
  it("reads name, requirements, types with hierarchy and either", () => {
    const d = adl();
    expect(d.name).toBe("adl-mix");
    expect(d.file).toBe(F + "adl-domain.pddl");
    expect(d.requirements).toContain(":derived-predicates");
    expect(d.requirements).toHaveLength(12);
    expect(d.types.map((t) => [t.name, t.parents])).toEqual([
      ["place", ["object"]], ["vehicle", ["object"]], ["truck", ["vehicle"]], ["hybrid", ["truck", "cargo"]], ["cargo", ["object"]],
    ]);
    expect(d.types[2]!.loc).toEqual({ file: F + "adl-domain.pddl", line: 9, column: 5 });
  });

  it("reads constants, predicates with either params and 0-ary predicates, functions", () => {
    const d = adl();
    expect(d.constants).toEqual([{ name: "depot", types: ["place"], loc: { file: d.file, line: 12, column: 15 } }]);
    const at = d.predicates.find((p) => p.name === "at")!;
    expect(at.params.map((p) => [p.name, p.types])).toEqual([["?v", ["vehicle", "cargo"]], ["?p", ["place"]]]);
    expect(d.predicates.find((p) => p.name === "road")!.params.map((p) => p.types[0])).toEqual(["place", "place"]);
    expect(d.predicates.find((p) => p.name === "empty")!.params[0]!.types).toEqual(["object"]);
    expect(d.predicates.find((p) => p.name === "blocked")!.params).toEqual([]);
    expect(d.functions.map((f) => [f.name, f.params.length, f.type])).toEqual([["total-cost", 0, "number"], ["dist", 2, "number"]]);
  });

  it("reads every precondition form", () => {
    const drive = adl().actions[0]!;
    expect(drive.name).toBe("drive");
    expect(drive.params.map((p) => `${p.name}:${p.types.join("|")}`)).toEqual(["?t:truck", "?from:place", "?to:place"]);
    const pre = drive.precondition as Extract<Formula, { kind: "and" }>;
    expect(pre.kind).toBe("and");
    expect(pre.args.map((a) => a.kind)).toEqual(["atom", "not", "or", "not", "exists", "forall"]);
    const neq = pre.args[1] as Extract<Formula, { kind: "not" }>;
    expect(neq.arg).toMatchObject({ kind: "eq", left: { kind: "var", name: "?from" }, right: { kind: "var", name: "?to" } });
    const fa = pre.args[5] as Extract<Formula, { kind: "forall" }>;
    expect(fa.params[0]).toMatchObject({ name: "?c", types: ["cargo"] });
    expect(fa.body.kind).toBe("imply");
    expect(pre.loc).toMatchObject({ line: 25, column: 19 });
  });

  it("reads when, forall and increase effects (number and function)", () => {
    const d = adl();
    const eff = d.actions[0]!.effect as Extract<Effect, { kind: "and" }>;
    expect(eff.args.map((e) => e.kind)).toEqual(["del", "add", "forall", "increase"]);
    const fa = eff.args[2] as Extract<Effect, { kind: "forall" }>;
    expect(fa.body.kind).toBe("when");
    const inc = eff.args[3] as Extract<Effect, { kind: "increase" }>;
    expect(inc.fn.name).toBe("total-cost");
    expect(inc.value).toMatchObject({ kind: "fn", fn: { name: "dist", args: [{ name: "?from" }, { name: "?to" }] } });
    const load = d.actions[1]!.effect as Extract<Effect, { kind: "and" }>;
    expect(load.args[3]).toMatchObject({ kind: "increase", value: { kind: "number", value: 2 } });
    // constant in a precondition
    expect(JSON.stringify(d.actions[1]!.precondition)).toContain('{"kind":"const","name":"depot"');
  });

  it("reads empty parameter lists, empty effects, absent preconditions and :derived", () => {
    const d = adl();
    const reset = d.actions[2]!;
    expect(reset.params).toEqual([]);
    expect(reset.precondition).toBeNull();
    expect(reset.effect).toMatchObject({ kind: "and", args: [] });
    expect(d.derived).toHaveLength(1);
    expect(d.derived[0]!.predicate).toBe("reachable");
    expect(d.derived[0]!.body.kind).toBe("or");
  });

  it("lower-cases everything and skips comments", () => {
    const d = parseDomainFile(F + "blocks-domain.pddl");
    expect(d.name).toBe("blocks");
    expect(d.requirements).toEqual([":strips"]);
    expect(d.actions.map((a) => a.name)).toEqual(["pick-up", "put-down", "stack", "unstack"]);
    expect(d.actions[0]!.params[0]).toMatchObject({ name: "?x", types: ["object"] });
    expect(d.actions[1]!.precondition).toMatchObject({ kind: "atom", atom: { predicate: "holding" } });
  });

  it("accepts `()` as an empty precondition and names glued to variables", () => {
    const d = parseDomain("(define (domain x) (:predicates (p ?a)) (:action a :parameters (?z) :precondition () :effect (p?z)))");
    expect(d.actions[0]!.precondition).toMatchObject({ kind: "and", args: [] });
    expect(d.actions[0]!.effect).toMatchObject({ kind: "add", atom: { predicate: "p", args: [{ kind: "var", name: "?z" }] } });
  });

  it("accepts the non-DESIGN standard requirement keywords found in the wild", () => {
    const d = parseDomain("(define (domain x) (:requirements :fluents :numeric-fluents :object-fluents :timed-initial-literals))");
    expect(d.requirements).toEqual([":fluents", ":numeric-fluents", ":object-fluents", ":timed-initial-literals"]);
  });
});

describe("problem constructs", () => {
  it("reads objects, init atoms and numeric init, goal, metric", () => {
    const d = adl();
    const p = parseProblemFile(F + "adl-problem.pddl", d);
    expect(p.name).toBe("adl-mix-1");
    expect(p.domainName).toBe("adl-mix");
    expect(p.requirements).toEqual([":typing"]);
    expect(p.objects.map((o) => `${o.name}:${o.types[0]}`)).toEqual(["a:place", "b:place", "t1:truck", "c1:cargo", "c2:cargo", "h:hybrid"]);
    expect(p.init).toHaveLength(11);
    expect(p.init[0]).toMatchObject({ kind: "atom", atom: { predicate: "at", args: [{ name: "t1" }, { name: "depot" }] }, loc: { line: 6, column: 5 } });
    expect(p.init.filter((i) => i.kind === "fn-eq").map((i) => (i.kind === "fn-eq" ? i.value : -1))).toEqual([0, 3, 4, 3, 4]);
    expect(p.goal.kind).toBe("and");
    expect(p.metric).toMatchObject({ direction: "minimize", fn: { name: "total-cost", args: [] } });
  });

  it("parses without a domain (no cross checks) and with untyped objects", () => {
    const p = parseProblem(readFileSync(F + "blocks-p1.pddl", "utf8"), "b.pddl");
    expect(p.domainName).toBe("blocks");
    expect(p.objects.map((o) => o.types)).toEqual([["object"], ["object"], ["object"]]);
    expect(p.metric).toBeNull();
    expect(p.file).toBe("b.pddl");
  });
});

describe("type queries", () => {
  it("supertypesOf lists the type, all ancestors through either, then object", () => {
    const d = adl();
    expect(supertypesOf(d, "truck")).toEqual(["truck", "vehicle", "object"]);
    expect(supertypesOf(d, "hybrid")).toEqual(["hybrid", "truck", "cargo", "vehicle", "object"]);
    expect(supertypesOf(d, "object")).toEqual(["object"]);
  });

  it("objectsOfType includes subtypes, either-typed objects and constants, sorted", () => {
    const d = adl();
    const p = parseProblemFile(F + "adl-problem.pddl", d);
    expect(objectsOfType(d, p, "vehicle")).toEqual(["h", "t1"]);
    expect(objectsOfType(d, p, "cargo")).toEqual(["c1", "c2", "h"]);
    expect(objectsOfType(d, p, "place")).toEqual(["a", "b", "depot"]);
    expect(objectsOfType(d, p, "object")).toEqual(["a", "b", "c1", "c2", "depot", "h", "t1"]);
    // an object declared `(either a b)` belongs to both
    const d2 = parseDomain("(define (domain e) (:types a b))");
    const p2 = parseProblem("(define (problem q) (:domain e) (:objects x - (either a b) y - a) (:init) (:goal (and)))", "q", d2);
    expect(objectsOfType(d2, p2, "b")).toEqual(["x"]);
    expect(objectsOfType(d2, p2, "a")).toEqual(["x", "y"]);
  });
});

describe("shipped domains", () => {
  it("every domains/*/domain.pddl parses", async () => {
    const { readdirSync, existsSync } = await import("node:fs");
    const names = readdirSync("domains").filter((n) => existsSync(`domains/${n}/domain.pddl`));
    expect(names.length).toBeGreaterThan(0);
    for (const n of names) {
      const d = parseDomainFile(`domains/${n}/domain.pddl`);
      expect(d.actions.length).toBeGreaterThan(0);
    }
  });

  it("errors are PddlErrors", () => {
    expect(() => parseDomain("(define (domain")).toThrow(PddlError);
  });
});
