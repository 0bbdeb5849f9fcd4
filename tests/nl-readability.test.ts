/**
 * Readability of generic text (issue 14): on IPC-style fixtures with costs, conditional effects,
 * quantifiers, derived predicates, 0-ary and many-ary actions and camelCase/underscore names,
 * no '?', "holds for", "is true" or raw PDDL names; a verb heads every action clause; every
 * ground action's text parses back to it; costs, concrete effects and definitions are stated.
 */
import { describe, expect, it } from "vitest";
import { labelProblemAll } from "../src/label/index.js";
import { compileTemplates, createRenderer } from "../src/nl/index.js";
import { predicatePhrase } from "../src/nl/generic-predicates.js";
import { splitName, verbForms } from "../src/nl/lexicon.js";
import { actionClause, checkTask, readabilityFaults, stepFaults } from "../src/nl/readability.js";
import { scaffoldTemplates } from "../src/nl/scaffold.js";
import { parseDomain } from "../src/pddl/index.js";
import { applyOp } from "../src/task/index.js";
import { Prng } from "../src/util/prng.js";
import { opCand } from "./nl-helpers.js";
import { FIXTURE_DOMAINS, readabilityTask } from "./readability-helpers.js";

function opNamed(task: ReturnType<typeof readabilityTask>, name: string): number {
  const op = task.opNames.indexOf(name);
  if (op < 0) throw new Error(`no operator ${name}`);
  return op;
}

describe("the checks themselves", () => {
  it("catch PDDL leaking into text", () => {
    const objs = new Set(["truck-1", "city-loc-1"]);
    expect(readabilityFaults("truck-1 is at city-loc-1", objs)).toEqual([]);
    expect(readabilityFaults("capacity holds for truck-1 and capacity-4", objs)).toHaveLength(2);
    expect(readabilityFaults("at truck1 l3 is true", objs)).toHaveLength(1);
    expect(readabilityFaults("?newcolour is an acolour", objs)).toHaveLength(1);
    expect(readabilityFaults("the lift-at condition", objs)).toHaveLength(1);
  });

  it("find the action clause and want a verb at its head", () => {
    expect(actionClause("Step 2: Since x is clear, I pick up x. Now I hold x.")).toBe("pick up x");
    expect(stepFaults("Step 1: Because the lift is at f0, I up f0 and f1. Now the lift is at f1.", new Set())).toHaveLength(1);
    expect(stepFaults("Step 1: I left robot2, tile_1-2 and tile_1-1. Nothing changes.", new Set(["robot2", "tile_1-2", "tile_1-1"]))).toHaveLength(1);
    expect(stepFaults("Step 1: I drive truck1 from l1 to l2. Nothing changes.", new Set())).toEqual([]);
  });
});

describe("words from PDDL names", () => {
  it("split hyphens, underscores, camelCase and digits; expand common abbreviations", () => {
    expect(splitName("robotAt")).toEqual(["robot", "at"]);
    expect(splitName("pick_up-Ball")).toEqual(["pick", "up", "ball"]);
    expect(splitName("level12")).toEqual(["level", "12"]);
    expect(splitName("cb1")).toEqual(["cb1"]);
    expect(splitName("move-dir")).toEqual(["move", "direction"]);
    expect(splitName("conflict-A")).toEqual(["conflict", "A"]);
  });

  it("inflect verbs, irregular ones included", () => {
    expect(verbForms("hold").participle).toBe("held");
    expect(verbForms("includes").base).toBe("include");
    expect(verbForms("carry").third).toBe("carries");
  });

  it("phrase predicates with a subject and a verb", () => {
    const d = parseDomain(`(define (domain t) (:requirements :typing) (:types robot color vehicle capacity-number location)
      (:predicates (robot-has ?r - robot ?c - color) (capacity ?v - vehicle ?s - capacity-number) (road ?a ?b - location)
        (lift-at ?f - location) (handempty) (no-access ?r - robot ?l - location) (fuel-level ?v - vehicle ?n - capacity-number)))`);
    const text = (name: string): string => predicatePhrase(d.predicates.find((p) => p.name === name)!).pos;
    expect(text("robot-has")).toBe("{r} has the color {c}");
    expect(text("capacity")).toBe("the capacity of {v} is {s}");
    expect(text("road")).toBe("there is a road from {a} to {b}");
    expect(text("lift-at")).toBe("the lift is at {f}");
    expect(text("handempty")).toBe("the hand is empty");
    expect(text("no-access")).toBe("{r} has no access to {l}");
    expect(text("fuel-level")).toBe("the fuel level of {v} is {n}");
  });
});

describe("generic text of the IPC-style fixtures", () => {
  for (const name of FIXTURE_DOMAINS) {
    it(`${name}: every text is readable and every ground action round-trips (generic and scaffolded nl.json)`, () => {
      const task = readabilityTask(name);
      const scaffold = compileTemplates(scaffoldTemplates(task.domain), task.domain, "(scaffold)");
      for (const tpl of [null, scaffold]) {
        const rep = checkTask(task, tpl);
        expect(rep.faults).toEqual([]);
        expect(rep.roundTripFailures).toEqual([]);
        expect(rep.checked).toBeGreaterThan(20);
      }
    });
  }

  it("transport: the prompt states what each action costs, the road lengths, and asks for the cheapest plan", () => {
    const task = readabilityTask("transport");
    const p = createRenderer(task, null).prompt(new Prng(3, "p"));
    expect(p).toContain("To drive vehicle V from location L1 to location L2:");
    expect(p).toContain("It costs the road length from L1 to L2.");
    expect(p).toContain("It costs 1.");
    expect(p).toContain("the road length from city-loc-1 to city-loc-2 is 22");
    expect(p).toMatch(/cheapest plan|least total cost|minimum total action cost/);
  });

  it("transport: critiques speak of cost in plain English", () => {
    const task = readabilityTask("transport");
    const r = createRenderer(task, null);
    const steps = labelProblemAll(task, { problemId: "transport", seed: 1, samplesPerState: 8 });
    const sub = steps.find((s) => s.category === "suboptimal")!;
    const opt = steps.find((s) => s.category === "optimal" && s.evidence.hAfter !== 0)!;
    for (let v = 0; v < 6; v++) {
      const c = r.critique(sub, new Prng(v, "c"));
      expect(c).toMatch(/more expensive|costs \d+ more|adds \d+ to the total cost/);
      expect(c).not.toMatch(/remaining cost of|adds a cost of|shortest plan|steps? away/);
      const o = r.critique(opt, new Prng(v, "o"));
      expect(o).toMatch(/the cost still to pay for the goal drops from \d+ to \d+/);
    }
  });

  it("lift: a stop states which passengers board and get served in this state, not the lifted rule", () => {
    const task = readabilityTask("lift");
    const r = createRenderer(task, null);
    const stop0 = opNamed(task, "(stop f0)");
    const first = r.step(1, opCand(task, stop0), new Prng(1, "s"), task.init);
    expect(first).toMatch(/\. (Now|As a result,|After this,|This means that) p1 is boarded\.$/);
    expect(first).not.toContain("for every");
    // After delivering p1 to f2, stopping there serves p1 and boards p2.
    let s = applyOp(task, task.init, stop0);
    s = applyOp(task, s, opNamed(task, "(up f0 f2)"));
    const atF2 = r.step(3, opCand(task, opNamed(task, "(stop f2)")), new Prng(2, "s"), s);
    expect(atF2).toContain("p1 is served");
    expect(atF2).toContain("p1 is not boarded");
    expect(atF2).toContain("p2 is boarded");
    // Quantified preconditions are ground over the passengers: short, no "for every".
    expect(atF2.split(", I ")[0]).not.toContain("for every");
  });

  it("power: derived predicates used by the goal are defined once in the prompt", () => {
    const p = createRenderer(readabilityTask("power"), null).prompt(new Prng(1, "p"));
    expect(p).toContain("- Line L is fed exactly when there is some breaker B such that B connects L and B is closed.");
    expect(p.split("is fed exactly when").length).toBe(2);
    expect(p).toContain("- Device D is affected exactly when");
    expect(p).toMatch(/l1 is fed, l2 is fed, cb1 is not affected/);
  });

  it("rover: camelCase names read as words; 0-ary actions and predicates have a verb and a subject", () => {
    const task = readabilityTask("rover");
    const r = createRenderer(task, null);
    const p = r.prompt(new Prng(1, "p"));
    expect(p).toContain("rover0 can traverse from wp0 to wp1");
    expect(p).toContain("the channel is free");
    const wait = r.step(1, opCand(task, opNamed(task, "(waitforday)")), new Prng(1, "w"), task.init);
    expect(wait).toContain("I wait for day.");
  });
});
