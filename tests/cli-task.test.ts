import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runCommands, type CliResult } from "./cli-helpers.js";
import { register as registerGround } from "../src/cli/ground.js";
import { register as registerValidate } from "../src/cli/validate.js";
import { fileTempDir } from "./temp-dir.js";

const FX = join(import.meta.dirname, "fixtures", "task");
const BW = join(FX, "bw-domain.pddl");
const BW3 = join(FX, "bw-p3.pddl");
const tmp = fileTempDir("cli-task-");
const file = (name: string, text: string): string => {
  const f = join(tmp, name);
  writeFileSync(f, text);
  return f;
};
const GOOD = "(unstack c b)\n(put-down c)\n(unstack b a)\n(stack b c)\n(pick-up a)\n(stack a b)\n; cost = 6 (unit cost)\n";

/** Run `pddl2prm ...args` in process. */
const run = (...args: string[]): Promise<CliResult> => runCommands([registerGround, registerValidate], args);

afterEach(() => {
  process.exitCode = 0;
});

describe("pddl2prm ground", () => {
  it("prints facts, operators and time as JSON", async () => {
    const r = await run("ground", BW, BW3, "--json");
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out);
    expect(Object.keys(j)).toEqual(["facts", "operators", "ms"]);
    expect(j.facts).toBe(19);
    expect(j.operators).toBe(24);
    expect(typeof j.ms).toBe("number");
  });
  it("prints a human summary", async () => {
    const r = await run("ground", BW, BW3);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/facts\s+19/);
    expect(r.out).toMatch(/operators\s+24/);
  });
  it("reports bad input in one line with exit 1, bad flags with exit 2", async () => {
    const missing = await run("ground", BW, join(tmp, "nope.pddl"));
    expect(missing.code).toBe(1);
    expect(missing.err).toMatch(/^pddl2prm: error: .*nope\.pddl: no such file\n$/);
    const bad = await run("ground", BW, file("bad.pddl", "(define (problem x) (:domain bw)\n (:objects a - block)\n (:init (on a zz))\n (:goal (on a a)))"));
    expect(bad.code).toBe(1);
    expect(bad.err).toMatch(/bad\.pddl:3:\d+: error: .*zz/);
    expect(bad.err.split("\n").length).toBe(2);
    expect((await run("ground", BW, BW3, "--max-ops", "many")).code).toBe(2);
    const tooMany = await run("ground", BW, BW3, "--max-ops", "3");
    expect(tooMany.code).toBe(1);
    expect(tooMany.err).toMatch(/exceeds 3 operators/);
    const tooManyFacts = await run("ground", BW, BW3, "--max-facts", "4");
    expect(tooManyFacts.code).toBe(1);
    expect(tooManyFacts.err).toMatch(/^pddl2prm: error: grounding .* exceeds 4 facts\n$/);
    expect((await run("ground", BW, BW3, "--time-limit", "0")).code).toBe(2);
    expect((await run("ground", BW, BW3, "--max-facts", "99999999999999999999")).code).toBe(2);
    const enough = await run("ground", BW, BW3, "--time-limit", "60", "--max-ops", "24", "--max-facts", "19", "--json");
    expect(enough.code).toBe(0);
    expect(JSON.parse(enough.out)).toMatchObject({ facts: 19, operators: 24 });
  });
});

describe("pddl2prm validate", () => {
  it("accepts a valid plan: exit 0, prints the cost", async () => {
    const r = await run("validate", BW, BW3, file("good.plan", GOOD));
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/valid.*6 steps, cost 6/);
    const j = await run("validate", BW, BW3, file("good2.plan", GOOD), "--json");
    expect(JSON.parse(j.out)).toEqual({ valid: true, cost: 6, steps: 6, failure: null });
  });
  it("names the failing step and its unsatisfied literals: exit 1", async () => {
    const bad = GOOD.replace("(put-down c)\n", "");
    const r = await run("validate", BW, BW3, file("bad.plan", bad));
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/step 2 \(unstack b a\)/);
    expect(r.out).toMatch(/\(handempty\)/);
    const j = await run("validate", BW, BW3, file("bad2.plan", bad), "--json");
    expect(j.code).toBe(1);
    expect(JSON.parse(j.out)).toEqual({ valid: false, cost: 1, steps: 5, failure: { step: 2, action: "(unstack b a)", unsatisfied: ["(handempty)"] } });
  });
  it("names the unmet goal literals of a plan that stops short", async () => {
    const j = await run("validate", BW, BW3, file("short.plan", "(unstack c b)\n(put-down c)\n"), "--json");
    expect(j.code).toBe(1);
    expect(JSON.parse(j.out)).toEqual({ valid: false, cost: 2, steps: 2, failure: { step: 3, unmet_goal: ["(on a b)", "(on b c)"] } });
    const h = await run("validate", BW, BW3, file("short2.plan", "(unstack c b)\n"));
    expect(h.out).toMatch(/goal.*not reached/);
    expect(h.out).toMatch(/\(on a b\) \(on b c\)/);
  });
  it("gives one-line errors for unreadable or malformed plan files", async () => {
    const missing = await run("validate", BW, BW3, join(tmp, "none.plan"));
    expect(missing.code).toBe(1);
    expect(missing.err).toMatch(/none\.plan: no such file/);
    const junk = await run("validate", BW, BW3, file("junk.plan", "unstack c b\n"));
    expect(junk.code).toBe(1);
    expect(junk.err).toMatch(/junk\.plan: plan line 1/);
    expect((await run("validate", BW, BW3)).code).toBe(2);
  });
});
