/**
 * The meaning check (DESIGN.md §14): fact sentences and action texts read back to exactly what
 * they were made from; complementary twins (made / not-made) are proven before their readings
 * may coincide; built-in templates and the generic text of the project's fixtures pass.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { compileTemplates, createRenderer, genericTemplates, loadTemplates } from "../src/nl/index.js";
import { compile } from "../src/nl/text.js";
import { checkMeaning } from "../src/nl/meaning.js";
import { scaffoldTemplates } from "../src/nl/scaffold.js";
import { complementaryTwins } from "../src/nl/twins.js";
import { parseDomain, parseProblem } from "../src/pddl/index.js";
import { ground } from "../src/task/index.js";
import { Prng } from "../src/util/prng.js";
import { DOMAINS, generatedTasks, ROOT } from "./nl-helpers.js";

const READ = join(ROOT, "tests", "fixtures", "readability");

function fixture(name: string): ReturnType<typeof ground> {
  const d = parseDomain(readFileSync(join(READ, `${name}-domain.pddl`), "utf8"), `${name}-domain.pddl`);
  return ground(d, parseProblem(readFileSync(join(READ, `${name}-p01.pddl`), "utf8"), `${name}-p01.pddl`, d));
}

const FACTORY = `(define (domain factory) (:requirements :strips :typing)
  (:types product station)
  (:predicates (made ?p - product) (not-made ?p - product) (at ?p - product ?s - station) (in-line ?p - product ?s - station))
  (:action make :parameters (?p - product ?s - station)
    :precondition (and (not-made ?p) (at ?p ?s)) :effect (and (made ?p) (not (not-made ?p))))
  (:action move :parameters (?p - product ?from ?to - station)
    :precondition (at ?p ?from) :effect (and (at ?p ?to) (not (at ?p ?from)))))`;
const FACTORY_P = `(define (problem f1) (:domain factory) (:objects p1 p2 - product s1 s2 - station)
  (:init (not-made p1) (not-made p2) (at p1 s1) (at p2 s2) (in-line p1 s1))
  (:goal (and (made p1) (made p2))))`;

describe("reading facts and actions back", () => {
  it("every fact of a fixture reads back to itself, alone and in a list; no sentence has two readings", () => {
    for (const name of ["lift", "transport", "rover", "floortile", "power"]) {
      const task = fixture(name);
      const rep = checkMeaning(task, null);
      expect(rep.failures, name).toEqual([]);
      expect(rep.fillers, name).toEqual([]);
      expect(rep.facts, name).toBeGreaterThan(0);
      // The prompt's initial state is a list clause: it reads back to the fluent initial facts.
      const r = createRenderer(task, null);
      const init = r.prompt(new Prng(1, "x")).split("\n\n").find((p) => /^(Initially|At the start|In the initial state), /.test(p))!;
      const list = r.readFactList(init.replace(/^[^,]*, /, "").replace(/\.$/, ""));
      expect(list, name).not.toBeNull();
      expect(list!.every((f) => f.pos)).toBe(true);
    }
  });

  it("a template set in which two predicates read alike fails the check, naming the sentence", () => {
    const d = parseDomain(FACTORY, "factory.pddl");
    const task = ground(d, parseProblem(FACTORY_P, "f1.pddl", d));
    const json = scaffoldTemplates(d);
    json.predicates["in-line"] = { true: ["{p} is at {s}"], false: ["{p} is not at {s}"] };
    // compileTemplates refuses such a file (the texts read alike); the meaning check finds it too
    expect(() => compileTemplates(json, d, "nl.json")).toThrow(/predicates\.at\.true\[0\] "\{p\} is at \{s\}" and predicates\.in-line\.true\[0\] "\{p\} is at \{s\}" read alike/);
    const t = compileTemplates(scaffoldTemplates(d), d, "nl.json");
    t.predicates.set("in-line", { ...t.predicates.get("in-line")!, pos: [compile("{p} is at {s}", ["p", "s"])], neg: [compile("{p} is not at {s}", ["p", "s"])] });
    const rep = checkMeaning(task, t);
    expect(rep.failures.some((f) => /\(in-line p1 s1\): "p1 is at s1" reads as .*\(at p1 s1\)/.test(f))).toBe(true);
  });

  it("an action text whose paraphrases swap two parameters of one type fails the check", () => {
    const d = parseDomain(FACTORY, "factory.pddl");
    const task = ground(d, parseProblem(FACTORY_P, "f1.pddl", d));
    const json = scaffoldTemplates(d);
    const texts = ["move {p} from {from} to {to}", "move {p} from {to} to {from}", "move {p} from {from} to {to}"];
    json.actions["move"] = texts;
    // compileTemplates refuses such a file (a swap); the meaning check finds it too
    expect(() => compileTemplates(json, d, "nl.json")).toThrow(/actions\.move\[0\] .* and actions\.move\[1\] .* read alike/);
    const t = compileTemplates(scaffoldTemplates(d), d, "nl.json");
    const params = t.actions.get("move")!.params;
    t.actions.set("move", { params, text: texts.map((x) => compile(x, params)) });
    const rep = checkMeaning(task, t);
    expect(rep.failures.some((f) => /\(move p1 s1 s2\): "move p1 from s2 to s1" reads as/.test(f))).toBe(true);
  });

  it("a filler word in generic text is reported; a word of the predicate's name, or a templates file's words, are not", () => {
    const d = parseDomain(FACTORY, "factory.pddl");
    const task = ground(d, parseProblem(FACTORY_P, "f1.pddl", d));
    const gen = genericTemplates(d);
    const made = gen.predicates.get("made")!;
    const predicates = new Map(gen.predicates).set("made", { ...made, pos: [compile("{p} is made by something", ["p"])], neg: [compile("{p} is not made by anything", ["p"])] });
    expect(checkMeaning(task, { ...gen, predicates }).fillers).toEqual(['made: "{p} is made by something"', 'made: "{p} is not made by anything"']);
    const json = scaffoldTemplates(d);
    json.predicates["made"] = { true: ["something made {p}"], false: ["nothing made {p}"] };
    expect(checkMeaning(task, compileTemplates(json, d, "nl.json")).fillers).toEqual([]);
  });

  it("built-in templates pass the meaning check", () => {
    for (const name of DOMAINS) {
      const [task] = generatedTasks(name, 1);
      const rep = checkMeaning(task!, loadTemplates(name), { groundings: 5 });
      expect(rep.failures, name).toEqual([]);
      expect(rep.fillers, name).toEqual([]);
    }
  });
});

describe("complementary twins", () => {
  it("made / not-made are proven when every change of one is the opposite change of the other", () => {
    const d = parseDomain(FACTORY, "factory.pddl");
    const task = ground(d, parseProblem(FACTORY_P, "f1.pddl", d));
    expect(complementaryTwins(task)).toEqual(new Map([["not-made", "made"]]));
  });

  it("are not proven when an action makes one true without making the other false, or both hold initially", () => {
    const broken = FACTORY.replace("(and (made ?p) (not (not-made ?p)))", "(made ?p)");
    const d = parseDomain(broken, "factory.pddl");
    expect(complementaryTwins(ground(d, parseProblem(FACTORY_P, "f1.pddl", d))).size).toBe(0);
    const d2 = parseDomain(FACTORY, "factory.pddl");
    const both = FACTORY_P.replace("(not-made p1)", "(not-made p1) (made p1)");
    expect(complementaryTwins(ground(d2, parseProblem(both, "f1.pddl", d2))).size).toBe(0);
  });
});
