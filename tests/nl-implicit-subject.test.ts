/**
 * Issue 51, patterns 1, 2 and 5 of the generic translator, on small domains written for these
 * tests: implicit subjects (the agent, what it carries), roles of two parameters of one type,
 * and plain readings of relations and type names.
 */
import { describe, expect, it } from "vitest";
import { parseDomain, parseProblem } from "../src/pddl/index.js";
import { createRenderer, genericTemplates } from "../src/nl/index.js";
import { genericType } from "../src/nl/generic.js";
import { taskHints } from "../src/nl/hints.js";
import { fill } from "../src/nl/text.js";
import { ground } from "../src/task/index.js";
import type { GroundTask } from "../src/task/types.js";
import { Prng } from "../src/util/prng.js";
import { opCand, textFaults } from "./nl-helpers.js";

function task(domainText: string, problemText: string): GroundTask {
  const d = parseDomain(domainText, "d.pddl");
  return ground(d, parseProblem(problemText, "p.pddl", d));
}

function texts(t: GroundTask): { pred: (name: string, args: string[], pos?: boolean) => string; action: (name: string, args: string[]) => string } {
  const tpl = genericTemplates(t.domain, taskHints(t));
  const r = createRenderer(t, null);
  return {
    pred: (name, args, pos = true) => fill((pos ? tpl.predicates.get(name)!.pos : tpl.predicates.get(name)!.neg)[0]!, args),
    action: (name, args) => {
      const schema = t.domain.actions.findIndex((a) => a.name === name);
      return r.actionText(schema, args.map((a) => t.objects.indexOf(a)), null);
    },
  };
}

/** Every ground action renders, reads without faults and parses back to itself. */
function roundTrips(t: GroundTask): void {
  const r = createRenderer(t, null);
  for (let op = 0; op < t.numOps; op++) {
    const c = opCand(t, op);
    const text = r.step(1, c, new Prng(op, "rt"));
    expect(textFaults(text), text).toEqual([]);
    expect(r.parseStep(text), text).toEqual({ schema: c.schema, args: c.args });
  }
  for (const para of r.prompt(new Prng(1, "p")).split("\n")) expect(textFaults(para), para).toEqual([]);
}

// A satchel carried between rooms: its position "is-in ?r" and its contents "inside ?x" name no
// subject; the move carries the contents along (a conditional effect).
const SATCHEL = `(define (domain satchel)
  (:requirements :typing :conditional-effects)
  (:types thing room)
  (:predicates (lies ?t - thing ?r - room) (inside ?t - thing) (is-in ?r - room))
  (:action walk :parameters (?from ?to - room)
    :precondition (is-in ?from)
    :effect (and (is-in ?to) (not (is-in ?from))
                 (forall (?t - thing) (when (inside ?t) (and (lies ?t ?to) (not (lies ?t ?from)))))))
  (:action stow :parameters (?t - thing ?r - room)
    :precondition (and (lies ?t ?r) (is-in ?r) (not (inside ?t)))
    :effect (inside ?t))
  (:action take-out :parameters (?t - thing)
    :precondition (inside ?t)
    :effect (not (inside ?t))))`;
const SATCHEL_P = `(define (problem s1) (:domain satchel)
  (:objects hall attic - room pen book - thing)
  (:init (is-in hall) (lies pen hall) (lies book attic))
  (:goal (and (lies pen attic) (lies book hall))))`;

// A digger on a grid: its place is "digger-at"; "carries-ore" and "holds ?x" name no holder;
// "blast ?here ?there" stands at one cell and changes the other.
const DIGGER = `(define (domain quarry)
  (:requirements :typing)
  (:types cell tool)
  (:predicates (digger-at ?c - cell) (adj ?a ?b - cell) (rubble ?c - cell) (ore-at ?c - cell)
               (carries-ore) (holds ?t - tool) (tool-at ?t - tool ?c - cell) (hands-free))
  (:action go :parameters (?a ?b - cell)
    :precondition (and (digger-at ?a) (adj ?a ?b) (not (rubble ?b)))
    :effect (and (digger-at ?b) (not (digger-at ?a))))
  (:action grab :parameters (?t - tool ?c - cell)
    :precondition (and (digger-at ?c) (tool-at ?t ?c) (hands-free))
    :effect (and (holds ?t) (not (tool-at ?t ?c)) (not (hands-free))))
  (:action blast :parameters (?here ?there - cell ?t - tool)
    :precondition (and (digger-at ?here) (adj ?here ?there) (rubble ?there) (holds ?t))
    :effect (not (rubble ?there)))
  (:action mine :parameters (?c - cell)
    :precondition (and (digger-at ?c) (ore-at ?c))
    :effect (and (carries-ore) (not (ore-at ?c)))))`;
const DIGGER_P = `(define (problem q1) (:domain quarry)
  (:objects c0 c1 c2 - cell drill - tool)
  (:init (digger-at c0) (adj c0 c1) (adj c1 c0) (adj c1 c2) (adj c2 c1) (rubble c2) (ore-at c2) (ore-at c1)
         (tool-at drill c0) (hands-free))
  (:goal (carries-ore)))`;

// A skipper sails alone or with a traveller: "sail-traveller" adds one person to "sail".
const RIVER = `(define (domain river)
  (:requirements :typing)
  (:types person bank boat)
  (:predicates (on-bank ?p - person ?b - bank) (moored ?o - boat ?b - bank))
  (:action sail :parameters (?p - person ?from ?to - bank ?o - boat)
    :precondition (and (on-bank ?p ?from) (moored ?o ?from))
    :effect (and (on-bank ?p ?to) (not (on-bank ?p ?from)) (moored ?o ?to) (not (moored ?o ?from))))
  (:action sail-traveller :parameters (?p - person ?from ?to - bank ?o - boat ?q - person)
    :precondition (and (on-bank ?p ?from) (moored ?o ?from) (on-bank ?q ?from))
    :effect (and (on-bank ?p ?to) (not (on-bank ?p ?from)) (moored ?o ?to) (not (moored ?o ?from))
                 (on-bank ?q ?to) (not (on-bank ?q ?from)))))`;
const RIVER_P = `(define (problem r1) (:domain river)
  (:objects ann bob - person west east - bank skiff - boat)
  (:init (on-bank ann west) (on-bank bob west) (moored skiff west))
  (:goal (on-bank bob east)))`;

// Plain relations: an abbreviated comparison over stages whose order is not the names' numbers,
// a fixed property of a kind of value, a type name that is no word.
const KILN = `(define (domain kiln)
  (:requirements :typing)
  (:types pot stage colour apotsize)
  (:predicates (fired ?p - pot ?s - stage) (leq ?a ?b - stage) (is-dark ?f - colour)
               (coat ?p - pot ?f - colour) (sized ?p - pot ?z - apotsize))
  (:action fire :parameters (?p - pot ?a ?b - stage)
    :precondition (and (fired ?p ?a) (leq ?a ?b))
    :effect (and (fired ?p ?b) (not (fired ?p ?a))))
  (:action glaze :parameters (?p - pot ?f - colour ?z - apotsize)
    :precondition (and (is-dark ?f) (sized ?p ?z))
    :effect (coat ?p ?f)))`;
const KILN_P = `(define (problem k1) (:domain kiln)
  (:objects jar - pot s2 s0 s1 - stage black white - colour small - apotsize)
  (:init (fired jar s2) (leq s2 s0) (leq s0 s1) (leq s2 s1) (is-dark black) (sized jar small))
  (:goal (and (fired jar s1) (coat jar black))))`;

describe("pattern 1: implicit subjects, from the actions that change them", () => {
  it("a container the domain is named after: its position and contents name it", () => {
    const t = task(SATCHEL, SATCHEL_P);
    const x = texts(t);
    expect(x.pred("is-in", ["hall"])).toBe("the satchel is in hall"); // was "hall is in"
    expect(x.pred("inside", ["pen"])).toBe("pen is inside the satchel"); // was 'pen has the property "inside"'
    expect(x.pred("inside", ["pen"], false)).toBe("pen is not inside the satchel");
    expect(x.action("walk", ["hall", "attic"])).toBe("walk the satchel from hall to attic");
    expect(x.action("take-out", ["pen"])).toBe("take pen out of the satchel"); // was "take out pen"
    roundTrips(t);
  });

  it("without a container noun, the agent carries what moves with it", () => {
    const t = task(SATCHEL.replace("(domain satchel)", "(domain sat-world)"), SATCHEL_P.replace("(:domain satchel)", "(:domain sat-world)"));
    const x = texts(t);
    expect(x.pred("is-in", ["hall"])).toBe("I am in hall");
    expect(x.pred("inside", ["pen"])).toBe("I carry pen");
    expect(x.pred("inside", ["pen"], false)).toBe("I do not carry pen");
    expect(x.action("walk", ["hall", "attic"])).toBe("walk from hall to attic");
    expect(x.action("take-out", ["pen"])).toBe("take out pen");
    roundTrips(t);
  });

  it("having without a holder is said of the one that moves about (its position proves it)", () => {
    const t = task(DIGGER, DIGGER_P);
    const x = texts(t);
    expect(x.pred("digger-at", ["c0"])).toBe("the digger is at c0");
    expect(x.pred("carries-ore", [])).toBe("the digger carries the ore"); // was "the carries ore condition holds"
    expect(x.pred("carries-ore", [], false)).toBe("the digger does not carry the ore");
    expect(x.pred("holds", ["drill"])).toBe("the digger holds drill"); // was "drill is a holds"
    expect(x.pred("hands-free", [])).toBe("the hands are free"); // was "the hands is free"
    // true of two cells at once: not "the ore is at c1" (one thing in two places)
    expect(x.pred("ore-at", ["c1"])).toBe("there is ore at c1");
    expect(x.pred("ore-at", ["c1"], false)).toBe("there is no ore at c1");
    roundTrips(t);
  });

  it("with no agent proven, having without a holder is the one acting: I", () => {
    const d = `(define (domain pantry) (:requirements :typing) (:types jar)
      (:predicates (shelved ?j - jar) (carries-jam) (has ?j - jar))
      (:action take :parameters (?j - jar) :precondition (shelved ?j) :effect (and (has ?j) (not (shelved ?j))))
      (:action taste :parameters (?j - jar) :precondition (has ?j) :effect (carries-jam)))`;
    const t = task(d, `(define (problem p1) (:domain pantry) (:objects fig - jar) (:init (shelved fig)) (:goal (carries-jam)))`);
    const x = texts(t);
    expect(x.pred("carries-jam", [])).toBe("I carry the jam"); // was "the carries jam condition holds"
    expect(x.pred("has", ["fig"])).toBe("I have fig"); // was "fig has something"
    expect(x.pred("has", ["fig"], false)).toBe("I do not have fig");
    roundTrips(t);
  });
});

describe("pattern 2: two parameters of one type in their roles", () => {
  it("the cell the agent stands on and the cell the action changes", () => {
    const t = task(DIGGER, DIGGER_P);
    const x = texts(t);
    // the digger stands at c1 and clears c2 (was "blast c2 at c1 ...": as if c2 were at c1)
    expect(x.action("blast", ["c1", "c2", "drill"])).toBe("blast c2 from c1 with tool drill");
    // with a thing the name gives, aimed at the cell: "fire-charge" fires the charge at c2
    const t2 = task(DIGGER.replace("(:action blast", "(:action fire-charge"), DIGGER_P);
    expect(texts(t2).action("fire-charge", ["c1", "c2", "drill"])).toBe("fire charge at c2 from c1 with tool drill");
    expect(x.action("go", ["c0", "c1"])).toBe("go the digger from c0 to c1");
    roundTrips(t);
  });

  it("a sibling action names its extra parameter's role (the traveller, not the rower)", () => {
    const t = task(RIVER, RIVER_P);
    const x = texts(t);
    expect(x.action("sail", ["ann", "west", "east", "skiff"])).toBe("sail ann from west to east with boat skiff");
    // ann sails, bob is the traveller (was "sail traveller ann ... and person bob": roles swapped);
    // bob crosses too, taken along (issue 51, fifteenth reading: "with ... bob" read as company or tool)
    expect(x.action("sail-traveller", ["ann", "west", "east", "skiff", "bob"])).toBe("sail ann from west to east with boat skiff, taking traveller bob along");
    roundTrips(t);
  });
});

describe("pattern 2: roles told by what changes", () => {
  // A hand takes a cup (holding ?h ?c): the cup is what is taken, the hand what takes it. A pot
  // stands on a shelf or behind another pot: three pots, each in its role.
  const CAFE = `(define (domain cafe)
    (:requirements :typing)
    (:types hand cup pot shelf)
    (:predicates (holding ?h - hand ?c - cup) (free ?h - hand) (on-shelf ?c - cup)
                 (behind-pot ?p ?q - pot) (at-shelf-num ?p - pot ?s - shelf) (pot-clear ?p - pot) (shelf-clear ?s - shelf))
    (:action grasp :parameters (?h - hand ?c - cup)
      :precondition (and (free ?h) (on-shelf ?c))
      :effect (and (holding ?h ?c) (not (free ?h)) (not (on-shelf ?c))))
    (:action shift-shelf-to-pot :parameters (?p - pot ?s - shelf ?q - pot)
      :precondition (and (pot-clear ?p) (pot-clear ?q) (at-shelf-num ?p ?s))
      :effect (and (behind-pot ?p ?q) (not (at-shelf-num ?p ?s)) (shelf-clear ?s) (not (pot-clear ?q))))
    (:action shift-pot-to-pot :parameters (?p ?from ?to - pot)
      :precondition (and (pot-clear ?p) (pot-clear ?to) (behind-pot ?p ?from))
      :effect (and (behind-pot ?p ?to) (not (behind-pot ?p ?from)) (pot-clear ?from) (not (pot-clear ?to)))))`;
  const CAFE_P = `(define (problem c1) (:domain cafe)
    (:objects left - hand mug - cup p1 p2 p3 - pot s1 - shelf)
    (:init (free left) (on-shelf mug) (at-shelf-num p1 s1) (pot-clear p1) (pot-clear p2) (behind-pot p3 p2) (pot-clear p3))
    (:goal (and (holding left mug) (behind-pot p1 p3))))`;

  it("a holder takes the thing held, not the other way round", () => {
    const t = task(CAFE, CAFE_P);
    const x = texts(t);
    expect(x.action("grasp", ["left", "mug"])).toBe("grasp mug with hand left"); // was "grasp left with cup mug"
    roundTrips(t);
  });

  it("a thing moved behind another: where it leaves and where it goes", () => {
    const t = task(CAFE, CAFE_P);
    const x = texts(t);
    expect(x.action("shift-shelf-to-pot", ["p1", "s1", "p2"])).toBe("shift p1 from s1 behind p2"); // was "shift p1 to from s1 with p2"
    expect(x.action("shift-pot-to-pot", ["p3", "p2", "p1"])).toBe("shift p3 from behind p2 to behind p1");
  });
});

describe("pattern 5: plain readings of relations and type names", () => {
  it("an abbreviated comparison reads as one; its negation claims no converse", () => {
    const t = task(KILN, KILN_P);
    const x = texts(t);
    expect(x.pred("leq", ["s2", "s0"])).toBe("s2 comes no later than s0"); // was 's2 stands in the relation "leq" to s0'
    expect(x.pred("leq", ["s0", "s2"], false)).toBe("it is not the case that s0 comes no later than s2");
    roundTrips(t);
  });

  it("a fixed property of a kind of value is said with its noun, not as its own name", () => {
    const t = task(KILN, KILN_P);
    expect(texts(t).pred("is-dark", ["black"])).toBe("black is a dark colour"); // was "black is dark"
  });

  it("a type name that is no word is not made a plural noun", () => {
    expect(genericType("apotsize").plural).toBe("objects of type apotsize");
    expect(genericType("truckarea").plural).toBe("truck areas");
    expect(genericType("LOC").plural).toBe("locations");
    const p = createRenderer(task(KILN, KILN_P), null).prompt(new Prng(1, "k"));
    expect(p).not.toContain("apotsizes");
  });
});
