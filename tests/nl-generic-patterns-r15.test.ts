/**
 * Generic readings of shapes the fifteenth reading found (issue 51: a cleaning robot's rooms, a
 * fairy tale's characters), each on a domain of our own, read with and without a problem's hints.
 */
import { describe, expect, it } from "vitest";
import { parseDomain, parseProblem } from "../src/pddl/index.js";
import { createRenderer, genericTemplates } from "../src/nl/index.js";
import { taskHints } from "../src/nl/hints.js";
import { ground } from "../src/task/index.js";
import { Prng } from "../src/util/prng.js";
import type { Domain } from "../src/pddl/ast.js";

/** A domain's generic readings without a problem: a predicate's first positive text, an action's first text. */
function readings(d: Domain): { pos: (p: string) => string; act: (a: string) => string } {
  const t = genericTemplates(d);
  return { pos: (p) => t.predicates.get(p)!.pos[0]!.source, act: (a) => t.actions.get(a)!.text[0]!.source };
}

// A mop robot that goes room to room through doors and may drag a bucket along; a sink is in
// some rooms. Untyped: nothing but the actions says the objects are rooms.
const MOP = parseDomain(
  `(define (domain mop_robot) (:requirements :strips :negative-preconditions)
    (:predicates (in-mop-robot ?r) (bucket_to_empty ?r) (in-sink ?r) (door ?r1 ?r2) (bucket_emptied))
    (:action MoveMopRobot :parameters (?r1 ?r2)
      :precondition (and (in-mop-robot ?r1) (door ?r1 ?r2))
      :effect (and (not (in-mop-robot ?r1)) (in-mop-robot ?r2)))
    (:action DragBucketMopRobot :parameters (?r1 ?r2)
      :precondition (and (in-mop-robot ?r1) (bucket_to_empty ?r1) (door ?r1 ?r2))
      :effect (and (not (bucket_to_empty ?r1)) (not (in-mop-robot ?r1)) (in-mop-robot ?r2) (bucket_to_empty ?r2)))
    (:action EmptyBucket :parameters (?r)
      :precondition (and (in-mop-robot ?r) (bucket_to_empty ?r) (in-sink ?r) (not (bucket_emptied)))
      :effect (and (bucket_emptied) (not (bucket_to_empty ?r)))))`,
  "mop.pddl",
);
const MOP_P = parseProblem(
  `(define (problem m1) (:domain mop_robot) (:objects hall kitchen attic)
    (:init (in-mop-robot hall) (bucket_to_empty attic) (in-sink kitchen)
      (door hall kitchen) (door kitchen hall) (door hall attic) (door attic hall))
    (:goal (bucket_emptied)))`,
  "m1.pddl",
  MOP,
);

describe("things at places the PDDL names by the place alone (issue 51, fifteenth reading)", () => {
  const task = ground(MOP, MOP_P);
  const t = genericTemplates(MOP, taskHints(task));
  const pos = (p: string): string => t.predicates.get(p)!.pos[0]!.source;
  it("a fluent true of one place at a time, moved along the doors: the thing named is there, not the place in it", () => {
    expect(pos("in-mop-robot")).toBe("the mop robot is in {r}");
    expect(t.predicates.get("in-mop-robot")!.neg[0]!.source).toBe("the mop robot is not in {r}");
  });
  it("a fluent moved along the doors that no place must hold: 'there is a bucket to empty at r', not 'r is a bucket to empty'", () => {
    expect(pos("bucket_to_empty")).toBe("there is a bucket to empty at {r}");
  });
  it("a fixed 'in-sink ?r' of a room the robot must be in: 'there is a sink in r', not 'r is in the sink'", () => {
    expect(pos("in-sink")).toBe("there is a sink in {r}");
  });
  it("the actions: an adjective before its noun is no manner ('move mop robot', not 'move robot moply'); the dragging moves the robot; the emptying is done at the room", () => {
    const a = (n: string): string => t.actions.get(n)!.text[0]!.source;
    expect(a("movemoprobot")).toBe("move mop robot from {r1} to {r2}");
    expect(a("dragbucketmoprobot")).toMatch(/^drag bucket mop robot from \{r1\} to \{r2\}$/);
    expect(a("emptybucket")).toBe("empty bucket at {r}");
  });
  it("the prompt says so", () => {
    const prompt = createRenderer(task, null).prompt(new Prng(1, "t"));
    expect(prompt).toContain("the mop robot is in hall");
    expect(prompt).toContain("there is a bucket to empty at attic");
    expect(prompt).toContain("there is a sink in kitchen");
    expect(prompt).not.toMatch(/hall is in the mop robot|kitchen is in the sink|attic is a bucket/);
  });
  it("an area stays the place's own ('in-town ?r': r is in the town)", () => {
    const d = parseDomain(MOP_SRC_WITH("in-town"), "town.pddl");
    const q = parseProblem(`(define (problem m2) (:domain mop_robot) (:objects hall kitchen) (:init (in-mop-robot hall) (in-town kitchen) (door hall kitchen) (door kitchen hall)) (:goal (in-mop-robot kitchen)))`, "m2.pddl", d);
    const u = genericTemplates(d, taskHints(ground(d, q)));
    expect(u.predicates.get("in-town")!.pos[0]!.source).toBe("{r} is in the town");
  });
});

function MOP_SRC_WITH(fixed: string): string {
  return `(define (domain mop_robot) (:requirements :strips)
    (:predicates (in-mop-robot ?r) (${fixed} ?r) (door ?r1 ?r2))
    (:action MoveMopRobot :parameters (?r1 ?r2) :precondition (and (in-mop-robot ?r1) (door ?r1 ?r2)) :effect (and (not (in-mop-robot ?r1)) (in-mop-robot ?r2)))
    (:action Rest :parameters (?r) :precondition (and (in-mop-robot ?r) (${fixed} ?r)) :effect (in-mop-robot ?r)))`;
}

// A fable: a fox, a crow and a lion; the names are written the way their author thinks of them.
const FABLE = parseDomain(
  `(define (domain fable) (:requirements :strips :negative-preconditions)
    (:predicates (at ?p ?l) (growl ?p) (stop ?p) (song_know ?p) (swallowed ?p) (released ?p) (hungry ?p) (way ?a ?b))
    (:action walk :parameters (?p ?a ?b) :precondition (and (at ?p ?a) (way ?a ?b) (not (stop ?p))) :effect (and (not (at ?p ?a)) (at ?p ?b)))
    (:action learn :parameters (?p1 ?p2 ?l) :precondition (and (at ?p1 ?l) (at ?p2 ?l) (song_know ?p2)) :effect (and (song_know ?p1) (stop ?p1)))
    (:action swallow-whole :parameters (?p1 ?p2 ?l) :precondition (and (at ?p1 ?l) (at ?p2 ?l) (hungry ?p1)) :effect (and (swallowed ?p2) (stop ?p2)))
    (:action doze :parameters (?p ?l) :precondition (and (at ?p ?l) (hungry ?p)) :effect (and (growl ?p) (not (hungry ?p))))
    (:action release :parameters (?p1 ?p2 ?p3 ?p4 ?l) :precondition (and (at ?p1 ?l) (at ?p2 ?l) (at ?p3 ?l) (at ?p4 ?l) (growl ?p2) (swallowed ?p3) (swallowed ?p4))
      :effect (and (released ?p3) (released ?p4) (not (hungry ?p2)))))`,
  "fable.pddl",
);

describe("a fable's characters (issue 51, fifteenth reading)", () => {
  const t = genericTemplates(FABLE);
  const pos = (p: string): string => t.predicates.get(p)!.pos[0]!.source;
  const act = (a: string): string => t.actions.get(a)!.text[0]!.source;
  it("a fact actions make and undo, named by one noun of an activity, is no kind that comes and goes: 'fox stops', not 'fox is a stop'", () => {
    expect(pos("stop")).toBe("{p} stops");
    expect(t.predicates.get("stop")!.neg[0]!.source).toBe("{p} does not stop");
  });
  it("a noun the lexicon cannot read as a verb is read plainly ('growl' is no kind of thing)", () => {
    expect(pos("growl")).not.toMatch(/is an? growl/);
  });
  it("a noun and a verb of knowing: 'p knows the song', not 'p is a song know'", () => {
    expect(pos("song_know")).toBe("{p} knows the song");
  });
  it("what the verb's participle says is done to is what it acts on; the first of the same kind, left as it is, is the one who does it", () => {
    expect(act("swallow-whole")).toBe("have {p1} swallow {p2} whole at {l}");
    expect(act("release")).toMatch(/^have \{p1\} release \{p3\} and \{p4\} at \{l\}/);
  });
  it("a one-noun fact that is fixed, or names one who is something, keeps its kind", () => {
    const d = parseDomain(`(define (domain k) (:requirements :strips) (:predicates (winner ?p) (halt ?s) (at ?p ?s)) (:action win :parameters (?p ?s) :precondition (and (at ?p ?s) (halt ?s)) :effect (winner ?p)))`, "k.pddl");
    const u = genericTemplates(d);
    expect(u.predicates.get("winner")!.pos[0]!.source).toBe("{p} is a winner");
    expect(u.predicates.get("halt")!.pos[0]!.source).toBe("{s} is a halt");
  });
});

// A raft puzzle of our own: every action takes the same parameters, most only checked.
const RAFT = parseDomain(
  `(define (domain raft) (:requirements :strips :negative-preconditions)
    (:predicates (on ?x ?side) (Fox ?x) (Hen ?x) (Grain ?x) (raft ?r) (shore ?s))
    (:action carry-Hen :parameters (?x ?y ?z ?r ?from ?to)
      :precondition (and (Fox ?x) (Hen ?y) (Grain ?z) (raft ?r) (shore ?from) (shore ?to) (on ?y ?from) (on ?r ?from))
      :effect (and (on ?y ?to) (on ?r ?to) (not (on ?r ?from)) (not (on ?y ?from))))
    (:action carry-fox :parameters (?x ?y ?z ?r ?from ?to)
      :precondition (and (Fox ?x) (Hen ?y) (Grain ?z) (raft ?r) (shore ?from) (shore ?to) (on ?x ?from) (on ?r ?from) (not (and (on ?y ?from) (on ?z ?from))))
      :effect (and (on ?x ?to) (not (on ?x ?from)) (on ?r ?to) (not (on ?r ?from))))
    (:action sail-empty :parameters (?x ?y ?z ?r ?from ?to)
      :precondition (and (Fox ?x) (Hen ?y) (Grain ?z) (raft ?r) (shore ?from) (shore ?to) (on ?r ?from) (not (and (on ?y ?from) (on ?x ?from))))
      :effect (and (on ?r ?to) (not (on ?r ?from)))))`,
  "raft.pddl",
);

describe("a puzzle whose actions check more than they move (issue 51, fifteenth reading)", () => {
  const { act } = readings(RAFT);
  it("what the action only requires not to be left together stays where it is; it does not come along", () => {
    expect(act("carry-fox")).toBe("carry {x} from {from} to {to}, taking raft {r} along, leaving hen {y} and grain {z} where they are");
  });
  it("a second thing moved along the same way is taken along, and the named one is what moves ('carry y from a to b', not 'carry y on a')", () => {
    expect(act("carry-hen")).toMatch(/^carry \{y\} from \{from\} to \{to\} .*taking raft \{r\} along$/);
  });
  it("a state a thing travels in stays an adjective: 'sail raft empty', not 'emptily'", () => {
    expect(act("sail-empty")).toMatch(/^sail \{r\} empty from \{from\} to \{to\}/);
    expect(act("sail-empty")).not.toMatch(/emptily/);
  });
});

// Keys in grippers and chests to open (issue 51, sixteenth reading): untyped, with type predicates.
const CHESTS = parseDomain(
  `(define (domain chests) (:requirements :strips)
    (:predicates (spot ?p) (key ?k) (chest ?c) (tint ?t) (gripper ?g) (robot-at ?p) (at ?x ?p)
      (key-tint ?k ?t) (chest-tint ?c ?t) (sealed ?c) (holding ?k ?g) (gripfree ?g))
    (:action grab :parameters (?p ?k ?g)
      :precondition (and (spot ?p) (key ?k) (gripper ?g) (robot-at ?p) (at ?k ?p) (gripfree ?g))
      :effect (and (holding ?k ?g) (not (at ?k ?p)) (not (gripfree ?g))))
    (:action unseal :parameters (?p ?k ?c ?t ?g)
      :precondition (and (spot ?p) (key ?k) (chest ?c) (tint ?t) (gripper ?g) (key-tint ?k ?t) (chest-tint ?c ?t) (robot-at ?p) (at ?c ?p) (sealed ?c) (holding ?k ?g))
      :effect (and (gripfree ?g) (not (holding ?k ?g)) (not (sealed ?c)))))`,
  "chests.pddl",
);

describe("keys in grippers and chests to unseal (issue 51, sixteenth reading)", () => {
  const { pos, act } = readings(CHESTS);
  it("'holding ?k ?g' of a key and a gripper: the gripper holds the key", () => {
    expect(pos("holding")).toBe("{g} is holding {k}");
  });
  it("an undoing verb acts on what its base verb had done to: 'unseal c', not 'unseal g'", () => {
    expect(act("unseal")).toMatch(/^unseal \{c\} /);
  });
  it("a perfect tense is denied after its auxiliary: 'p has not booked d'", () => {
    const d = parseDomain(`(define (domain inn) (:requirements :typing) (:types guest party) (:predicates (has_booked_party ?g - guest ?p - party)))`, "inn.pddl");
    expect(genericTemplates(d).predicates.get("has_booked_party")!.neg[0]!.source).toBe("{g} has not booked {p}");
  });
});
