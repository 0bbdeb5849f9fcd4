import { describe, expect, it } from "vitest";
import { parseDomain, parseDomainFile, parseProblem, parseProblemFile, PddlError, supertypesOf, UserError } from "../src/pddl/index.js";

/** Run fn, expect a PddlError, return [line, column, message]. */
function err(fn: () => unknown): [number, number, string] {
  try {
    fn();
  } catch (e) {
    if (!(e instanceof PddlError)) throw new Error(`expected PddlError, got ${String(e)}`);
    return [e.line, e.column, e.message];
  }
  throw new Error("expected an error, none thrown");
}
const dom = (text: string) => () => parseDomain(text, "d.pddl");

const BASE = [
  "(define (domain d)", //                                           1
  "  (:requirements :strips :typing)", //                            2
  "  (:types a b - object c - a)", //                                3
  "  (:constants k - a)", //                                         4
  "  (:predicates (p ?x - a) (q ?x ?y - object))", //                5
  "  (:functions (total-cost) - number)", //                         6
  "  (:action act :parameters (?x - a ?y - b)", //                   7
  "    :precondition (and (p ?x) (q ?x ?y))", //                     8
  "    :effect (and (not (p ?x)) (increase (total-cost) 1))))", //   9
].join("\n");
const domain = parseDomain(BASE, "d.pddl");
const PROB = [
  "(define (problem pr) (:domain d)", //       1
  "  (:objects o1 - a o2 - b)", //             2
  "  (:init (p o1) (q o1 o2) (= (total-cost) 0))", // 3
  "  (:goal (and (q o2 k))))", //               4
].join("\n");
const prob = (text: string) => () => parseProblem(text, "p.pddl", domain);
/** Replace the first occurrence of `from` in BASE. */
const edit = (from: string, to: string): string => {
  if (!BASE.includes(from)) throw new Error(`fixture lacks ${from}`);
  return BASE.replace(from, to);
};
const pedit = (from: string, to: string): string => {
  if (!PROB.includes(from)) throw new Error(`fixture lacks ${from}`);
  return PROB.replace(from, to);
};

describe("valid baseline", () => {
  it("parses", () => {
    expect(domain.actions).toHaveLength(1);
    expect(parseProblem(PROB, "p.pddl", domain).init).toHaveLength(3);
  });
});

describe("syntax errors", () => {
  it("unknown character", () => {
    expect(err(dom(edit("(q ?x ?y))", "(q ?x ?y)) %")))).toEqual([8, 42, "unexpected character '%'"]);
  });
  it("stray ')' at its own position", () => {
    expect(err(dom("(define (domain d)\n  (:predicates (p)))\n  (:action a :effect (p)))"))).toEqual([3, 26, "unmatched ')' (no '(' to close)"]);
  });
  it("unclosed '(' points at the opening paren", () => {
    const [l, c, m] = err(dom("(define (domain d)\n  (:predicates (p)\n"));
    expect([l, c]).toEqual([2, 3]);
    expect(m).toContain("unclosed '('");
    expect(m).toContain(":predicates");
  });
  it("unclosed '(' in the middle of a file: indentation finds the culprit", () => {
    const text = [
      "(define (domain d)",
      "  (:predicates (p))",
      "  (:action a",
      "    :parameters ()",
      "    :effect (p)",
      "  (:action b",
      "    :parameters ()",
      "    :effect (p)))",
    ].join("\n");
    expect(err(dom(text)).slice(0, 2)).toEqual([3, 3]);
  });
  it("unclosed '(' inside a line (an 'and' after :precondition) at the end of the file", () => {
    const text = [
      "(define (domain d)",
      "  (:predicates (p) (q))",
      "  (:action a",
      "    :parameters ()",
      "    :precondition (and (p)",
      "    :effect (q)))",
    ].join("\n");
    expect(err(dom(text))).toEqual([5, 19, "unclosed '(' of 'and': missing ')'"]);
  });
  it("unknown section names the token and what is expected", () => {
    const [l, c, m] = err(dom(edit("(:constants k - a)", "(:constant k - a)")));
    expect([l, c]).toEqual([4, 4]);
    expect(m).toMatch(/unexpected ':constant' in domain section; expected ':requirements' or/);
  });
  it("wrong token with what was expected", () => {
    expect(err(dom(edit(":parameters (?x - a ?y - b)", ":parameters ?x")))).toEqual([7, 28, "expected '(' in action but found '?x'"]);
  });
  it("problem file given as domain", () => {
    expect(err(() => parseDomain(PROB, "p.pddl"))).toEqual([1, 10, "expected 'domain' in domain definition but found 'problem'"]);
  });
  it("empty input", () => {
    expect(err(dom(""))).toEqual([1, 1, "expected '(' in domain definition but found end of file"]);
  });
  it("junk after the definition", () => {
    expect(err(dom(BASE + "\n(foo)"))[0]).toBe(10);
    expect(err(dom(BASE + "\n(foo)"))[2]).toBe("unexpected '(' after the end of the domain definition");
  });
  it("misplaced dash in a typed list", () => {
    expect(err(dom(edit("(:types a b - object c - a)", "(:types - a)")))).toEqual([3, 11, "misplaced '-': a typed list is 'a b - type'"]);
  });
  it("bad metric direction", () => {
    expect(err(prob(pedit("(:goal (and (q o2 k))))", "(:goal (and)) (:metric lower (total-cost)))")))).toEqual([
      4, 26, "expected 'minimize' or 'maximize' but found 'lower'",
    ]);
  });
  it("duplicate section", () => {
    expect(err(dom(edit("(:constants k - a)", "(:constants k - a) (:constants j)")))).toEqual([4, 22, "duplicate ':constants' section"]);
  });
  it("missing goal", () => {
    expect(err(() => parseProblem("(define (problem x) (:domain d) (:init))", "p"))[2]).toBe("problem 'x' has no (:goal ...) section");
  });
});

describe("semantic errors (domain)", () => {
  it("unknown requirement", () => {
    expect(err(dom(edit(":typing", ":typing :teleport")))).toEqual([2, 34, "unknown requirement ':teleport'"]);
  });
  it("undeclared predicate", () => {
    expect(err(dom(edit("(and (p ?x)", "(and (r ?x)")))).toEqual([8, 24, "undeclared predicate 'r'"]);
  });
  it("wrong arity", () => {
    expect(err(dom(edit("(and (p ?x)", "(and (p ?x ?y)")))).toEqual([8, 24, "wrong arity for predicate 'p': expected 1 argument, got 2"]);
  });
  it("undeclared variable", () => {
    expect(err(dom(edit("(not (p ?x))", "(not (p ?z))")))).toEqual([9, 26, "undeclared variable '?z'"]);
  });
  it("undeclared constant", () => {
    expect(err(dom(edit("(q ?x ?y))", "(q ?x kk))")))).toEqual([8, 37, "undeclared constant 'kk'"]);
  });
  it("undeclared type (in types, constants, params)", () => {
    expect(err(dom(edit("c - a)", "c - zz)")))).toEqual([3, 28, "undeclared type 'zz'"]);
    expect(err(dom(edit("(:constants k - a)", "(:constants k - zz)")))).toEqual([4, 19, "undeclared type 'zz'"]);
    expect(err(dom(edit("?y - b)", "?y - zz)")))[0]).toBe(7);
  });
  it("undeclared function and function arity", () => {
    expect(err(dom(edit("(increase (total-cost) 1)", "(increase (cost) 1)")))).toEqual([9, 41, "undeclared function 'cost'"]);
    expect(err(dom(edit("(increase (total-cost) 1)", "(increase (total-cost ?x) 1)")))[2]).toBe(
      "wrong arity for function 'total-cost': expected 0 arguments, got 1",
    );
  });
  it("a type declared twice has the parents of both declarations (as in Fast Downward)", () => {
    // IPC Storage: `area - object` and again `area - surface`
    const d = parseDomain(edit("(:types a b - object c - a)", "(:types a b - object c - a a - b)"), "d.pddl");
    expect(supertypesOf(d, "c")).toEqual(["c", "a", "b", "object"]);
    expect(err(dom(edit("(:types a b - object c - a)", "(:types a b - object c - a a - c)")))[2]).toMatch(/cyclic type hierarchy/);
  });
  it("duplicate predicate, action, parameter, constant", () => {
    expect(err(dom(edit("(q ?x ?y - object))", "(q ?x ?y - object) (p ?z))")))[2]).toBe("duplicate predicate 'p' (first declared at 5:16)");
    expect(err(dom(BASE.slice(0, -1) + "\n  (:action ACT :parameters () :effect (and)))"))).toEqual([10, 3, "duplicate action 'act' (first declared at 7:3)"]);
    expect(err(dom(edit("(?x - a ?y - b)", "(?x - a ?x - b)")))).toEqual([7, 36, "duplicate variable '?x' (first declared at 7:29)"]);
    expect(err(dom(edit("(:constants k - a)", "(:constants k k - a)")))[0]).toBe(4);
  });
  it("duplicate action key", () => {
    expect(err(dom(edit(":effect (and", ":precondition (and) :effect (and")))).toEqual([9, 5, "duplicate ':precondition' in action 'act'"]);
  });
  it("cyclic types", () => {
    expect(err(dom(edit("(:types a b - object c - a)", "(:types a - c c - a)")))[2]).toMatch(/cyclic type hierarchy/);
  });
  it("quantified variables are scoped", () => {
    const text = edit("(and (p ?x) (q ?x ?y))", "(and (exists (?w - a) (p ?w)) (p ?w))");
    expect(err(dom(text))).toEqual([8, 52, "undeclared variable '?w'"]);
  });
});

describe("semantic errors (problem)", () => {
  it("different domain name points at the name", () => {
    expect(err(prob(pedit("(:domain d)", "(:domain other)")))).toEqual([1, 31, "problem is for domain 'other' but the domain is 'd'"]);
  });
  it("undeclared object in init and goal", () => {
    expect(err(prob(pedit("(p o1)", "(p o9)")))).toEqual([3, 13, "undeclared object 'o9'"]);
    expect(err(prob(pedit("(q o2 k)", "(q o2 zz)")))).toEqual([4, 21, "undeclared object 'zz'"]);
  });
  it("undeclared predicate and arity in init", () => {
    expect(err(prob(pedit("(p o1)", "(r o1)")))).toEqual([3, 10, "undeclared predicate 'r'"]);
    expect(err(prob(pedit("(p o1)", "(p)")))[2]).toBe("wrong arity for predicate 'p': expected 1 argument, got 0");
  });
  it("undeclared object type and duplicate object", () => {
    expect(err(prob(pedit("o2 - b", "o2 - zz")))).toEqual([2, 25, "undeclared type 'zz'"]);
    expect(err(prob(pedit("o2 - b", "o1 - b")))).toEqual([2, 20, "duplicate object 'o1' (first declared at 2:13)"]);
  });
  it("variables in init, free variables in goal, undeclared function", () => {
    expect(err(prob(pedit("(p o1)", "(p ?v)")))).toEqual([3, 13, "variable '?v' not allowed in :init"]);
    expect(err(prob(pedit("(q o2 k)", "(q o2 ?v)")))).toEqual([4, 21, "undeclared variable '?v'"]);
    expect(err(prob(pedit("(= (total-cost) 0)", "(= (cost) 0)")))[2]).toBe("undeclared function 'cost'");
  });
  it("an object of the wrong type in init or goal points at the object", () => {
    expect(err(prob(pedit("(p o1)", "(p o2)")))).toEqual([3, 13, "'o2' of type 'b' cannot be argument 1 of 'p' (expects 'a')"]);
    expect(err(prob(pedit("(q o2 k)", "(not (p o2))")))).toEqual([4, 23, "'o2' of type 'b' cannot be argument 1 of 'p' (expects 'a')"]);
    // subtypes fit, and so does anything where the parameter is 'object'
    const sub = parseProblem(pedit("o2 - b)", "o2 - b o3 - c)").replace("(p o1)", "(p o3)"), "p.pddl", domain);
    expect(sub.init).toHaveLength(3);
  });
  it("quantified goal variables are type-checked like action bodies", () => {
    expect(err(prob(pedit("(q o2 k)", "(forall (?v - b) (p ?v))")))).toEqual([4, 35, "'?v' of type 'b' cannot be argument 1 of 'p' (expects 'a')"]);
    expect(parseProblem(pedit("(q o2 k)", "(forall (?v - c) (p ?v))"), "p.pddl", domain).goal.kind).toBe("and");
  });
  it("unknown requirement in a problem", () => {
    expect(err(prob(pedit("(:domain d)", "(:domain d) (:requirements :magic)")))).toEqual([1, 49, "unknown requirement ':magic'"]);
  });
});

describe("argument types inside action bodies and derived predicates (as in problem files)", () => {
  // a and b are disjoint, c is a subtype of a; k is a constant of type a.
  it("a variable of a disjoint type is an error at the variable, in preconditions, effects and conditions", () => {
    expect(err(dom(edit("(p ?x) (q ?x ?y)", "(p ?y) (q ?x ?y)")))).toEqual([8, 27, "'?y' of type 'b' cannot be argument 1 of 'p' (expects 'a')"]);
    expect(err(dom(edit("(not (p ?x))", "(not (p ?y))")))).toEqual([9, 26, "'?y' of type 'b' cannot be argument 1 of 'p' (expects 'a')"]);
    expect(err(dom(edit("(not (p ?x))", "(when (p ?y) (p ?x))")))[2]).toBe("'?y' of type 'b' cannot be argument 1 of 'p' (expects 'a')");
    expect(err(dom(edit("(not (p ?x))", "(forall (?z - b) (not (p ?z)))")))[2]).toBe("'?z' of type 'b' cannot be argument 1 of 'p' (expects 'a')");
    expect(err(dom(edit("(p ?x) (q ?x ?y)", "(exists (?z - b) (p ?z))")))[2]).toBe("'?z' of type 'b' cannot be argument 1 of 'p' (expects 'a')");
  });
  it("a subtype, a supertype, an untyped variable or an either with one fitting member is fine", () => {
    const ok = (text: string) => expect(parseDomain(text, "d.pddl").actions).toHaveLength(1);
    ok(edit("?x - a ?y - b)", "?x - c ?y - b)")); // subtype where a is expected
    ok(edit("?x - a ?y - b)", "?x - object ?y - b)")); // supertype: grounding restricts it
    ok(edit("(not (p ?x))", "(forall (?z) (not (p ?z)))")); // untyped: object
    ok(edit("?x - a ?y - b)", "?x - (either b c) ?y - b)")); // c fits
    ok(edit("(p ?x) (q ?x ?y)", "(p k) (q ?x ?y)")); // constant of type a
  });
  it("a constant of the wrong type, an either without a fitting member and a derived head are errors", () => {
    expect(err(dom(edit("(:constants k - a)", "(:constants k - b)").replace("(p ?x) (q ?x ?y)", "(p k) (q ?x ?y)"))))
      .toEqual([8, 27, "'k' of type 'b' cannot be argument 1 of 'p' (expects 'a')"]);
    expect(err(dom(edit("?x - a ?y - b)", "?x - (either b) ?y - b)")))[2]).toBe("'?x' of type 'b' cannot be argument 1 of 'p' (expects 'a')");
    const derived = edit("(:functions (total-cost) - number)", "(:functions (total-cost) - number)\n  (:derived (p ?v - b) (q ?v ?v))").replace(":typing)", ":typing :derived-predicates)");
    expect(err(dom(derived))[2]).toBe("'?v' of type 'b' cannot be argument 1 of 'p' (expects 'a')");
    expect(parseDomain(derived.replace("(p ?v - b)", "(p ?v - c)"), "d.pddl").derived).toHaveLength(1);
  });
  it("the example of issue 15: (on ?l) with ?l a location where on takes a car", () => {
    const text = [
      "(define (domain ferry-bad) (:requirements :strips :typing) (:types car location)",
      "  (:predicates (at-ferry ?l - location) (on ?c - car) (at ?c - car ?l - location))",
      "  (:action board :parameters (?c - car ?l - location)",
      "    :precondition (and (at ?c ?l) (at-ferry ?l))",
      "    :effect (and (on ?l) (not (at ?c ?l)))))",
    ].join("\n");
    try {
      parseDomain(text, "ferry.pddl");
      expect.unreachable();
    } catch (e) {
      expect((e as PddlError).format()).toBe("ferry.pddl:5:22: error: '?l' of type 'location' cannot be argument 1 of 'on' (expects 'car')");
    }
  });
});

describe("file errors", () => {
  it("missing files are UserErrors", () => {
    expect(() => parseDomainFile("tests/fixtures/pddl/nope.pddl")).toThrow(UserError);
    expect(() => parseProblemFile("tests/fixtures/pddl")).toThrow(/is a directory/);
  });
  it("errors carry the file name and format as file:line:col: error: msg", () => {
    try {
      parseDomain("(define (domain d) (:predicates (p)) (:action a :effect (q)))", "x/y.pddl");
      expect.unreachable();
    } catch (e) {
      expect((e as PddlError).format()).toBe("x/y.pddl:1:57: error: undeclared predicate 'q'");
    }
  });
});
