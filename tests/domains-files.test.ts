import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { BUILTIN_DOMAINS, builtinDomainFile } from "../src/generators/index.js";
import { parseDomain, parseProblem } from "../src/pddl/index.js";
import { ground, validatePlan } from "../src/task/index.js";

/** One small hand-written instance and a plan for it, per built-in domain. */
const CASES: Record<string, { problem: string; plan: string[] }> = {
  blocksworld: {
    problem: `(define (problem t) (:domain blocksworld) (:objects a b - block)
      (:init (on a b) (ontable b) (clear a) (handempty)) (:goal (on b a)))`,
    plan: ["(unstack a b)", "(put-down a)", "(pick-up b)", "(stack b a)"],
  },
  "blocksworld-3ops": {
    problem: `(define (problem t) (:domain blocksworld-3ops) (:objects a b c - block)
      (:init (on a b) (ontable b) (clear a) (ontable c) (clear c)) (:goal (and (on b c) (on c a))))`,
    plan: ["(move-b-to-t a b)", "(move-t-to-b c a)", "(move-t-to-b b c)"],
  },
  ferry: {
    problem: `(define (problem t) (:domain ferry) (:objects car1 - car loc1 loc2 - location)
      (:init (at-ferry loc2) (empty-ferry) (at car1 loc1)) (:goal (at car1 loc2)))`,
    plan: ["(sail loc2 loc1)", "(board car1 loc1)", "(sail loc1 loc2)", "(debark car1 loc2)"],
  },
  hanoi: {
    problem: `(define (problem t) (:domain hanoi) (:objects d1 d2 - disk peg1 peg2 peg3 - peg)
      (:init (smaller d1 d2) (smaller d1 peg1) (smaller d1 peg2) (smaller d1 peg3)
             (smaller d2 peg1) (smaller d2 peg2) (smaller d2 peg3)
             (on d2 peg1) (on d1 d2) (clear d1) (clear peg2) (clear peg3))
      (:goal (and (on d2 peg3) (on d1 d2))))`,
    plan: ["(move d1 d2 peg2)", "(move d2 peg1 peg3)", "(move d1 peg2 d2)"],
  },
  logistics: {
    problem: `(define (problem t) (:domain logistics)
      (:objects package1 - package truck1 truck2 - truck plane1 - airplane city1 city2 - city
                airport1 airport2 - airport place1 place2 - location)
      (:init (in-city airport1 city1) (in-city place1 city1) (in-city airport2 city2) (in-city place2 city2)
             (at truck1 airport1) (at truck2 place2) (at plane1 airport2) (at package1 place1))
      (:goal (at package1 place2)))`,
    plan: [
      "(drive-truck truck1 airport1 place1 city1)",
      "(load-truck package1 truck1 place1)",
      "(drive-truck truck1 place1 airport1 city1)",
      "(unload-truck package1 truck1 airport1)",
      "(fly-airplane plane1 airport2 airport1)",
      "(load-airplane package1 plane1 airport1)",
      "(fly-airplane plane1 airport1 airport2)",
      "(unload-airplane package1 plane1 airport2)",
      "(drive-truck truck2 place2 airport2 city2)",
      "(load-truck package1 truck2 airport2)",
      "(drive-truck truck2 airport2 place2 city2)",
      "(unload-truck package1 truck2 place2)",
    ],
  },
  elevator: {
    problem: `(define (problem t) (:domain elevator) (:objects p1 - passenger f1 f2 f3 - floor)
      (:init (above f2 f1) (above f3 f1) (above f3 f2) (origin p1 f1) (destin p1 f3) (lift-at f2))
      (:goal (served p1)))`,
    plan: ["(down f2 f1)", "(board f1 p1)", "(up f1 f3)", "(depart f3 p1)"],
  },
  npuzzle: {
    problem: `(define (problem t) (:domain npuzzle) (:objects t1 t2 t3 - tile r1c1 r1c2 r2c1 r2c2 - position)
      (:init (at t1 r1c1) (at t2 r1c2) (at t3 r2c2) (empty r2c1)
             (neighbor r1c1 r1c2) (neighbor r1c2 r1c1) (neighbor r2c1 r2c2) (neighbor r2c2 r2c1)
             (neighbor r1c1 r2c1) (neighbor r2c1 r1c1) (neighbor r1c2 r2c2) (neighbor r2c2 r1c2))
      (:goal (and (at t1 r1c1) (at t2 r1c2) (at t3 r2c1))))`,
    plan: ["(move t3 r2c2 r2c1)"],
  },
  visitgrid: {
    problem: `(define (problem t) (:domain visitgrid) (:objects r1c1 r1c2 r2c1 r2c2 - cell)
      (:init (at-robot r1c1) (visited r1c1)
             (connected r1c1 r1c2) (connected r1c2 r1c1) (connected r2c1 r2c2) (connected r2c2 r2c1)
             (connected r1c1 r2c1) (connected r2c1 r1c1) (connected r1c2 r2c2) (connected r2c2 r1c2))
      (:goal (and (visited r2c2) (visited r2c1))))`,
    plan: ["(move r1c1 r1c2)", "(move r1c2 r2c2)", "(move r2c2 r2c1)"],
  },
  sokoban: {
    problem: `(define (problem t) (:domain sokoban)
      (:objects r1c1 r1c2 r1c3 r1c4 - location up down left right - direction box1 - box)
      (:init (at-robot r1c1) (at box1 r1c3) (clear r1c2) (clear r1c4)
             (adjacent r1c1 r1c2 right) (adjacent r1c2 r1c3 right) (adjacent r1c3 r1c4 right)
             (adjacent r1c2 r1c1 left) (adjacent r1c3 r1c2 left) (adjacent r1c4 r1c3 left))
      (:goal (at box1 r1c4)))`,
    plan: ["(move r1c1 r1c2 right)", "(push r1c2 r1c3 r1c4 box1 right)"],
  },
  spanner: {
    problem: `(define (problem t) (:domain spanner)
      (:objects bob - man spanner1 - spanner nut1 - nut shed location1 gate - location)
      (:init (at bob shed) (link shed location1) (link location1 gate) (at spanner1 location1) (useable spanner1)
             (at nut1 gate) (loose nut1))
      (:goal (tightened nut1)))`,
    plan: ["(walk shed location1 bob)", "(pickup-spanner location1 spanner1 bob)", "(walk location1 gate bob)", "(tighten-nut gate spanner1 bob nut1)"],
  },
  rooms: {
    problem: `(define (problem t) (:domain rooms) (:objects agent1 - agent room1 room2 room3 - room)
      (:init (at agent1 room2) (on room2) (on room3)
             (door room1 room2) (door room2 room1) (door room2 room3) (door room3 room2)
             (door-intact room1 room2) (door-intact room2 room1) (door-intact room2 room3) (door-intact room3 room2))
      (:goal (and (not (on room2)) (not (on room3)))))`,
    plan: ["(turn-off agent1 room2)", "(move agent1 room2 room3)", "(turn-off agent1 room3)"],
  },
};

function load(name: string, problemText: string) {
  const file = builtinDomainFile(name);
  const domain = parseDomain(readFileSync(file, "utf8"), file);
  const problem = parseProblem(problemText, `${name}-test.pddl`, domain);
  return { domain, task: ground(domain, problem) };
}

describe("built-in domain files", () => {
  it("there is a hand-written case for each of the eleven domains", () => {
    expect(BUILTIN_DOMAINS.map((d) => d.name).sort()).toEqual(Object.keys(CASES).sort());
    expect(BUILTIN_DOMAINS).toHaveLength(11);
  });

  for (const [name, c] of Object.entries(CASES)) {
    it(`${name}: parses, grounds, and a hand-written plan validates`, () => {
      const { domain, task } = load(name, c.problem);
      expect(domain.name).toBe(name);
      expect(task.numOps).toBeGreaterThan(0);
      const r = validatePlan(task, c.plan);
      expect(r.failure).toBeNull();
      expect(r.valid).toBe(true);
      expect(r.cost).toBe(c.plan.length);
    });

    it(`${name}: the plan without its last step does not reach the goal`, () => {
      const { task } = load(name, c.problem);
      expect(validatePlan(task, c.plan.slice(0, -1)).valid).toBe(false);
    });
  }

  it("domain semantics: rooms doors break in both directions", () => {
    const { task } = load("rooms", CASES["rooms"]!.problem);
    const r = validatePlan(task, ["(move agent1 room2 room3)", "(move agent1 room3 room2)"]);
    expect(r.valid).toBe(false);
    expect(r.failure).toMatchObject({ step: 2 });
  });

  it("domain semantics: hanoi forbids a larger disk on a smaller one", () => {
    const { task } = load("hanoi", CASES["hanoi"]!.problem);
    const r = validatePlan(task, ["(move d1 d2 peg2)", "(move d2 peg1 d1)"]);
    expect(r.failure).toMatchObject({ step: 2 });
  });

  it("domain semantics: blocksworld-3ops cannot put a block on itself", () => {
    const { task } = load("blocksworld-3ops", CASES["blocksworld-3ops"]!.problem);
    expect(validatePlan(task, ["(move-t-to-b c c)"]).valid).toBe(false);
  });
});
