/**
 * Generic readings of name shapes the fourth reading found (issue 51: parcprinter, optical
 * telegraphs): a domain of our own with each shape, read through the generic templates.
 */
import { describe, expect, it } from "vitest";
import { parseDomain } from "../src/pddl/index.js";
import { genericTemplates } from "../src/nl/index.js";
import { compoundSplit } from "../src/nl/lexicon.js";
import { fill } from "../src/nl/text.js";

const DOMAIN = `(define (domain shapes-r4)
  (:requirements :strips :typing)
  (:types side_t sheet_t image_t process proctype queuetype number_ state)
  (:predicates
    (oppositeside ?a - side_t ?b - side_t) (hasimage ?s - sheet_t ?d - side_t ?i - image_t)
    (is-a-process ?q - process ?pt - proctype) (is-max ?qt - queuetype ?n - number_)
    (is-zero ?n - number_) (is-not-zero ?n - number_) (at-state ?p - process ?s - state))
  (:action advance
    :parameters (?p - process ?pt - proctype ?s1 - state ?s2 - state)
    :precondition (and (is-a-process ?p ?pt) (at-state ?p ?s1))
    :effect (and (at-state ?p ?s2) (not (at-state ?p ?s1)))))`;

const templates = genericTemplates(parseDomain(DOMAIN, "shapes-r4.pddl"));
const pred = (name: string, args: string[], pos = true): string => fill((pos ? templates.predicates.get(name)!.pos : templates.predicates.get(name)!.neg)[0]!, args);

describe("generic readings of name shapes (issue 51, fourth reading)", () => {
  it("a run-together name splits at its longest leading word: opposite side, not oppo site side", () => {
    expect(compoundSplit("oppositeside")).toEqual(["opposite", "side"]);
    expect(pred("oppositeside", ["front", "back"])).not.toContain("oppo site");
  });

  it("a C-style type suffix is no word: 'the side front', not 'the side t front'", () => {
    expect(pred("hasimage", ["sheet1", "front", "pic1"])).toBe("sheet1 has the side front with image pic1");
    // a role's noun is said once where the value names it too (round 6: not "with image image1")
    expect(pred("hasimage", ["sheet1", "front", "image1"])).toBe("sheet1 has the side front with image1");
    expect(templates.types.get("sheet_t")!.noun).toBe("sheet");
    expect(templates.types.get("sheet_t")!.plural).toBe("sheets");
  });

  it("is-a-X over a thing and its kind: 'q1 is a process of proctype ph', not 'q1 is the a of ph'", () => {
    expect(pred("is-a-process", ["q1", "ph"])).toBe("q1 is a process of proctype ph");
    expect(pred("is-a-process", ["q1", "ph"], false)).toBe("q1 is not a process of proctype ph");
  });

  it("is-X of a thing and a number: the X of the thing is the number (not reversed)", () => {
    expect(pred("is-max", ["queue1", "two"])).toBe("the max of queue1 is two");
  });

  it("is-not-X negated is not a double negative; a number word takes no article", () => {
    expect(pred("is-zero", ["n0"])).toBe("n0 is zero");
    expect(pred("is-not-zero", ["n1"])).toBe("n1 is not zero");
    expect(pred("is-not-zero", ["n1"], false)).toBe("n1 is zero");
  });

  it("a short variable name the type contradicts is not expanded ('?pt - proctype': no 'point')", () => {
    const texts = templates.actions.get("advance")!;
    expect(JSON.stringify(texts)).not.toContain("point");
    expect(JSON.stringify(texts)).toContain("proctype");
  });
});
