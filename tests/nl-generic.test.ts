import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseDomain, parseProblem } from "../src/pddl/index.js";
import { createRenderer, genericTemplates } from "../src/nl/index.js";
import { fill } from "../src/nl/text.js";
import { applyOp, ground, isApplicable } from "../src/task/index.js";
import { Prng } from "../src/util/prng.js";
import { FIXTURES, opCand, randomCandidate, textFaults } from "./nl-helpers.js";

const domainFile = join(FIXTURES, "user-domain.pddl");
const problemFile = join(FIXTURES, "user-problem.pddl");
const domain = parseDomain(readFileSync(domainFile, "utf8"), domainFile);
const task = ground(domain, parseProblem(readFileSync(problemFile, "utf8"), problemFile, domain));
const r = createRenderer(task, null);

function predText(name: string, args: string[], pos = true): string {
  const t = genericTemplates(domain).predicates.get(name)!;
  return fill((pos ? t.pos : t.neg)[0]!, args);
}

describe("generic translator (no nl.json)", () => {
  it("derives readable predicate text from names", () => {
    expect(predText("at", ["truck1", "loc2"])).toBe("truck1 is at loc2");
    expect(predText("at", ["truck1", "loc2"], false)).toBe("truck1 is not at loc2");
    expect(predText("on-table", ["box-a"])).toBe("box-a is on the table");
    expect(predText("is-fragile", ["box-b"])).toBe("box-b is fragile");
    expect(predText("has-fuel", ["truck2"], false)).toBe("truck2 does not have fuel");
    expect(predText("cargo-at", ["box-a", "loc1"])).toBe("box-a is at loc1"); // the noun repeats the type
    expect(predText("daylight", [])).toBe("the daylight condition holds");
    expect(predText("loaded-with", ["truck1", "box-a", "loc1"])).toBe("truck1 is loaded with box-a at loc1");
    expect(predText("road", ["depot", "loc1"])).toBe("there is a road from depot to loc1");
  });

  it("derives action text from action and parameter names", () => {
    const drive = task.domain.actions.findIndex((a) => a.name === "drive-to");
    expect(r.actionText(drive, [task.objects.indexOf("truck1"), task.objects.indexOf("depot"), task.objects.indexOf("loc1")], null)).toBe(
      "drive truck1 from depot to loc1",
    );
  });

  it("the prompt shows objects, fixed facts (statics from problem.init), initial state and goal", () => {
    const p = r.prompt(new Prng(1, "g"));
    expect(p).toContain('"depot lite"');
    expect(p).toContain("- To drive truck T from place P1 to place P2: it requires: T is at P1; T has fuel;");
    expect(p).toMatch(/(There are two trucks: |The trucks are )truck1 and truck2\./);
    expect(p).toContain("there is a road from depot to loc1"); // static, folded away by grounding
    expect(p).toContain("truck1 is at depot");
    expect(p).toMatch(/box-a is at loc2 and truck1 is not at depot\./);
    for (const para of p.split("\n")) expect(textFaults(para), para).toEqual([]);
  });

  it("every ground action and random grounding round-trips", () => {
    const owner = new Map<string, string>();
    for (let op = 0; op < task.numOps; op++) {
      const c = opCand(task, op);
      const text = r.step(1, c, new Prng(op, "rt"));
      const prev = owner.get(text.replace(/^Step 1: /, ""));
      if (prev !== undefined) expect(prev).toBe(c.name);
      expect(r.parseStep(text), text).toEqual({ schema: c.schema, args: c.args });
    }
    const prng = new Prng(2, "rand");
    for (let i = 0; i < 200; i++) {
      const c = randomCandidate(task, prng)!;
      const text = r.step(3, c, prng);
      expect(textFaults(text), text).toEqual([]);
      expect(r.parseStep(text), text).toEqual({ schema: c.schema, args: c.args });
    }
  });

  it("conditional effects: lifted without a state, the firing ones with a state", () => {
    const drive = task.domain.actions.findIndex((a) => a.name === "drive-to");
    const load = task.domain.actions.findIndex((a) => a.name === "load");
    // truck2 (fuelled, at loc2) loads box-b? fragile; drive truck2 to loc1, load box-a, drive to depot.
    let s = task.init;
    const find = (schema: number, names: string[]): number => {
      for (let op = 0; op < task.numOps; op++) {
        const c = opCand(task, op);
        if (c.schema === schema && c.args.map((a) => task.objects[a]).join() === names.join()) return op;
      }
      throw new Error(`no op ${names.join(" ")}`);
    };
    const o1 = find(drive, ["truck2", "loc2", "loc1"]);
    s = applyOp(task, s, o1);
    const o2 = find(load, ["box-a", "truck2", "loc1"]);
    expect(isApplicable(task, s, o2)).toBe(true);
    s = applyOp(task, s, o2);
    const o3 = find(drive, ["truck2", "loc1", "depot"]);
    const lifted = r.step(3, opCand(task, o3), new Prng(1, "x"));
    expect(lifted).toContain("for every cargo C such that C is in truck2, C is at depot");
    const fired = r.step(3, opCand(task, o3), new Prng(1, "x"), s);
    expect(fired).toContain("box-a is at depot");
    expect(fired).toContain("truck2 does not have fuel");
    expect(fired).not.toContain("for every");
    expect(r.parseStep(fired)).toEqual({ schema: drive, args: opCand(task, o3).args });
  });

  it("describeState lists the true facts", () => {
    const d = r.describeState(task.init);
    expect(d).toContain("truck1 is at depot");
    expect(d).toContain("box-a is on the table");
    expect(textFaults(d)).toEqual([]);
  });
});
