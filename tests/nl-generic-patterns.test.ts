/**
 * Generic readings of name shapes found unread on domains nobody tuned for (issue 51, second
 * reading): a workshop domain of our own with each shape, read through the translator.
 */
import { describe, expect, it } from "vitest";
import { parseDomain, parseProblem } from "../src/pddl/index.js";
import { createRenderer, genericTemplates } from "../src/nl/index.js";
import { fill } from "../src/nl/text.js";
import { ground } from "../src/task/index.js";
import { Prng } from "../src/util/prng.js";

const DOMAIN = `(define (domain workshop-shapes)
  (:requirements :strips :typing)
  (:types cell group num day depot place order seat item station numbers)
  (:predicates
    (notexist ?o - order) (today ?d - day) (waiting ?o - order ?k - place)
    (remaining-slots ?g - group ?n - num) (agent-pos ?c - cell) (origin ?c - cell ?g - group)
    (nextSeat ?a - seat ?b - seat) (part-of ?c - cell ?g - group) (done ?o - order)
    (stocks ?s - station ?i - item) (has ?o - order ?i - item) (open ?d - day)
    (adjacent ?a - cell ?b - cell)
    (SUM ?n1 - numbers ?n2 - numbers ?sum - numbers) (LESS-EQUAL ?n1 - numbers ?n2 - numbers)
    (in_place ?i - item) (make-movable ?c - cell) (collect-item ?i - item) (same_line ?a - cell ?b - cell)
    (knows ?i - item) (knows_property ?i - item ?c - cell) (capacity-inc ?a - num ?b - num) (predecessor ?a - seat ?b - seat)
    (between ?a - seat ?b - seat ?c - seat) (product ?a - seat ?b - seat ?c - seat))
  (:action create
    :parameters (?o - order)
    :precondition (notexist ?o)
    :effect (not (notexist ?o)))
  (:action workat
    :parameters (?d - day ?k - place)
    :precondition (today ?d)
    :effect (and (not (today ?d)) (open ?d)))
  (:action step
    :parameters (?a - cell ?b - cell)
    :precondition (and (agent-pos ?a) (adjacent ?a ?b))
    :effect (and (agent-pos ?b) (not (agent-pos ?a))))
  (:action collect
    :parameters (?o - order ?i - item ?s - station ?k - place)
    :precondition (and (stocks ?s ?i) (waiting ?o ?k))
    :effect (has ?o ?i)))`;

const PROBLEM = `(define (problem p1) (:domain workshop-shapes)
  (:objects x0 x1 - numbers c1 c2 - cell g1 - group n0 n1 - num d1 d2 - day k1 - place o1 - order s1 s2 - seat i1 - item st1 - station)
  (:init (notexist o1) (today d1) (today d2) (agent-pos c1) (adjacent c1 c2) (stocks st1 i1))
  (:goal (and (open d1) (agent-pos c2))))`;

const domain = parseDomain(DOMAIN, "workshop-shapes.pddl");
const task = ground(domain, parseProblem(PROBLEM, "p1.pddl", domain));
const templates = genericTemplates(domain);

function pred(name: string, args: string[], pos = true): string {
  const t = templates.predicates.get(name)!;
  return fill((pos ? t.pos : t.neg)[0]!, args);
}

describe("generic readings of name shapes (issue 51)", () => {
  it("a lone verb that takes no object: 'o1 does not exist', not 'o1 is not an exist'", () => {
    expect(pred("notexist", ["o1"])).toBe("o1 does not exist");
    expect(pred("notexist", ["o1"], false)).toBe("o1 exists");
  });

  it("a time word true of several objects is named as it is, not 'd1 is a today'", () => {
    expect(pred("today", ["d1"])).toBe('d1 has the property "today"');
  });

  it("waiting at a place of its own type, not 'waiting for' it", () => {
    expect(pred("waiting", ["o1", "k1"])).toBe("o1 is waiting at k1");
  });

  it("an adjective and a plural noun with a number: 'g1 has n1 remaining slots'", () => {
    expect(pred("remaining-slots", ["g1", "n1"])).toBe("g1 has n1 remaining slots");
    expect(pred("remaining-slots", ["g1", "n1"], false)).toBe("g1 does not have n1 remaining slots");
  });

  it("a thing's position named after it: 'the agent is at c1'", () => {
    expect(pred("agent-pos", ["c1"])).toBe("the agent is at c1");
  });

  it("a place and what it belongs to: the place is the noun ('c1 is the origin of g1'); 'part of' takes no article", () => {
    expect(pred("origin", ["c1", "g1"])).toBe("c1 is the origin of g1");
    expect(pred("part-of", ["c1", "g1"])).toBe("c1 is part of g1");
  });

  it("next-X over one type: 'b is the next seat after a'", () => {
    expect(pred("nextseat", ["s1", "s2"])).toBe("s2 is the next seat after s1");
  });

  it("an action named verb + place preposition takes the place: 'work ... at place k1', no dangling 'at'", () => {
    const r = createRenderer(task, null);
    const a = task.domain.actions.findIndex((x) => x.name === "workat");
    const text = r.actionText(a, [task.objects.indexOf("d1"), task.objects.indexOf("k1")], null);
    expect(text).toContain("at place k1");
    expect(text).not.toMatch(/\bat with\b/);
  });

  it("a parameter named as the relation is its value: 'x1 is the sum of x0 and x1', never an addend made the sum", () => {
    expect(pred("sum", ["x0", "x1", "x1"])).toBe("x1 is the sum of x0 and x1");
  });

  it("three of one type and no role told apart: the plain reading, arguments in order", () => {
    expect(pred("product", ["s1", "s2", "s3"])).toBe('the relation "product" links s1, s2 and s3, in this order');
    expect(pred("between", ["s1", "s2", "s3"])).toBe("s1 is between s2 and s3");
  });

  it("a comparison in words: 'x0 is at most x1'", () => {
    expect(pred("less-equal", ["x0", "x1"])).toMatch(/^x0 is (at most|less than or equal to) x1$/);
  });

  it("a type named in the plural: 'the numbers are x0 and x1', not 'numberses'", () => {
    const r = createRenderer(task, null);
    const prompt = r.prompt(new Prng(1, "t"));
    expect(prompt).not.toContain("numberses");
    expect(prompt).toMatch(/numbers (are|:) ?x0/);
  });

  it("idioms, flags and same-N (round 2): 'i1 is in place', 'c1 is to be made movable', the plain reading of collect-item, 'c1 has the same line as c2'", () => {
    expect(pred("in_place", ["i1"])).toBe("i1 is in place");
    expect(pred("make-movable", ["c1"])).toBe("c1 is to be made movable");
    expect(pred("collect-item", ["i1"])).toBe('i1 has the property "collect item"');
    expect(pred("same_line", ["c1", "c2"])).toBe("c1 has the same line as c2");
  });

  it("round 3: the noun over one type only where English fixes its direction; knowing held by the one acting", () => {
    expect(pred("capacity-inc", ["x0", "x1"])).toBe('x0 stands in the relation "capacity inc" to x1');
    expect(pred("predecessor", ["s1", "s2"])).toBe("s1 is the predecessor of s2");
    expect(pred("knows", ["i1"])).toBe("I know i1");
    expect(pred("knows_property", ["i1", "c1"])).toBe("I know c1 of i1");
  });

  it("round 4: a verb of gain acts on the one whose value rises, by the order the preconditions state", () => {
    const d = parseDomain(
      `(define (domain tankers) (:requirements :strips :typing) (:types tanker level)
        (:predicates (fuel ?t - tanker ?l - level) (level-less ?a - level ?b - level))
        (:action refuel :parameters (?giver - tanker ?taker - tanker ?g0 - level ?g1 - level ?t0 - level ?t1 - level)
          :precondition (and (fuel ?giver ?g0) (fuel ?taker ?t0) (level-less ?g1 ?g0) (level-less ?t0 ?t1))
          :effect (and (not (fuel ?giver ?g0)) (fuel ?giver ?g1) (not (fuel ?taker ?t0)) (fuel ?taker ?t1)))
        (:action transfer :parameters (?a - tanker ?b - tanker ?l0 - level ?l1 - level ?l2 - level ?l3 - level)
          :precondition (and (fuel ?a ?l0) (fuel ?b ?l2) (level-less ?l1 ?l0) (level-less ?l2 ?l3))
          :effect (and (not (fuel ?a ?l0)) (fuel ?a ?l1) (not (fuel ?b ?l2)) (fuel ?b ?l3))))`,
      "tankers.pddl",
    );
    const t = ground(d, parseProblem(`(define (problem p) (:domain tankers) (:objects a b - tanker l0 l1 l2 - level)
      (:init (fuel a l2) (fuel b l0) (level-less l0 l1) (level-less l1 l2)) (:goal (fuel b l1)))`, "p.pddl", d));
    const r = createRenderer(t, null);
    const o = (x: string): number => t.objects.indexOf(x);
    const refuel = r.actionText(t.domain.actions.findIndex((x) => x.name === "refuel"), ["a", "b", "l2", "l1", "l0", "l1"].map(o), null);
    // b's fuel rises: b is refuelled, and "its" is b's
    expect(refuel).toMatch(/^refuel b,/);
    expect(refuel).toContain("changing its fuel from l0 to l1, changing the fuel of a from l2 to l1");
    // no verb of gain: the first argument stays the object
    const transfer = r.actionText(t.domain.actions.findIndex((x) => x.name === "transfer"), ["a", "b", "l2", "l1", "l0", "l1"].map(o), null);
    expect(transfer).toMatch(/^transfer a,/);
  });

  it("round 4: a point of one coordinate type named x and y reads as a point: '(c1, c2) is free', 'n1 is at (c1, c2)'", () => {
    const d = parseDomain(
      `(define (domain grid-points) (:requirements :strips :typing) (:types coord node)
        (:predicates (free ?x ?y - coord) (at ?n - node ?x ?y - coord) (adjacent ?x ?y - node)))`,
      "grid-points.pddl",
    );
    const t = genericTemplates(d);
    const say = (name: string, args: string[], pos = true): string => fill((pos ? t.predicates.get(name)!.pos : t.predicates.get(name)!.neg)[0]!, args);
    expect(say("free", ["c1", "c2"])).toBe("(c1, c2) is free");
    expect(say("free", ["c1", "c2"], false)).toBe("(c1, c2) is not free");
    expect(say("at", ["n1", "c1", "c2"])).toBe("n1 is at (c1, c2)");
    // two of a type that is no coordinate stay two objects
    expect(say("adjacent", ["n1", "n2"])).not.toContain("(n1, n2)");
  });

  it("round 4: a relation between two of a kind over two kinds is read plainly, not 'up is next to clockwise'", () => {
    const d = parseDomain(
      `(define (domain turns) (:requirements :strips :typing) (:types dir rotation)
        (:predicates (next-dir ?d - dir ?r - rotation ?e - dir) (adjacent ?a - dir ?b - dir)))`,
      "turns.pddl",
    );
    const t = genericTemplates(d);
    const say = (name: string, args: string[]): string => fill(t.predicates.get(name)!.pos[0]!, args);
    expect(say("next-dir", ["up", "cw", "right"])).toBe('the relation "next direction" links up, cw and right, in this order');
    // (one kind: the relation as before)
    expect(say("adjacent", ["up", "left"])).toBe("up is adjacent to left");
  });

  it("round 4: a grid position pair of a thing ('c1 is at (x1, y2)'); a direction is no manner ('move east', not 'move eastly')", () => {
    const d = parseDomain(
      `(define (domain cards) (:requirements :strips :typing) (:types card gridpos cell)
        (:predicates (card-at ?c - card ?x ?y - gridpos) (robot-at ?c - cell) (link ?a ?b - cell))
        (:action move-east :parameters (?from ?to - cell)
          :precondition (and (robot-at ?from) (link ?from ?to))
          :effect (and (not (robot-at ?from)) (robot-at ?to))))`,
      "cards.pddl",
    );
    const t = genericTemplates(d);
    expect(fill(t.predicates.get("card-at")!.pos[0]!, ["c1", "x1", "y2"])).toBe("c1 is at (x1, y2)");
    // (the one moved is the robot of robot-at, said since a direction after the verb is a particle)
    expect(t.actions.get("move-east")!.text[0]!.source).toMatch(/^move the robot east from \{from\} to \{to\}/);
  });
});
