/**
 * Issue 52: the options of reasoning questions (`--format acp`) say nothing by their form. On a
 * clean `--domain all` folder no "odd one out" rule (rarest predicate, argument count, shortest,
 * longest) is more than 5 points over chance in any kind and form, and the audit passes; with
 * the landmark options of before (the right one the only fact of its predicate) the audit fails
 * naming the rule. The rules' arithmetic and the choice options' prior are checked on hand-made
 * rows.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runAudit } from "../src/audit/index.js";
import { OptionProbes, optionsOf } from "../src/audit/options.js";
import { toUnits, type StepUnit } from "../src/audit/units.js";
import type { StepTextParser } from "../src/audit/actions.js";
import { PLANTS, plantInto } from "./audit-plants.js";
import { cliRunner } from "./cli-run.js";

const tmp = mkdtempSync(join(tmpdir(), "pddl2prm-audit-options-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const cli = cliRunner(tmp);
const clean = join(tmp, "clean");

beforeAll(async () => {
  // the mutation suite's acp folder (tests/audit-mutations.test.ts)
  const r = await cli(["generate", "--domain", "all", "--count", "40", "--seed", "4242", "--format", "acp", "--out", clean, "--quiet"]);
  if (r.code !== 0) throw new Error(r.stderr);
}, 600_000);

/** A question row as the generator writes it, with only what the audit reads. */
function row(form: "choice" | "free", items: string[], texts: string[], right: number[], id = "d/p0001/t00/landmarks/choice"): Record<string, unknown> {
  const lines = texts.map((t, i) => `${"ABCD"[i]}. ${t}`).join("\n");
  const letters = right.map((i) => "ABCD"[i]!);
  return {
    id,
    kind: "landmarks",
    form,
    question: form === "choice" ? `State.\n\nWhich?\n${lines}\nAnswer with the letter of the right option.` : `State.\n\nList them.\n${lines}`,
    choices: form === "choice" ? texts : null,
    answer: letters.join("\n"),
    meta: { items, gold: { answer: letters.join("\n"), accept: null, set: form === "free" ? letters : null } },
  };
}

const shard = (obj: Record<string, unknown>) => ({ split: "test" as const, obj, file: "x", line: 1 });

describe("odd-one-out option rules (issue 52)", () => {
  it("score the odd option against chance; ties share the pick; free lists against their share of right options", () => {
    const probes = new OptionProbes();
    // the right option is the one fact of its predicate, and the shortest
    probes.add(shard(row("choice", ["(on a b)", "(on b c)", "(clear a)", "(on c a)"], ["a is on b", "b is on c", "a clear", "c is on a"], [2])));
    // four of one predicate, one length: every rule picks at random
    probes.add(shard(row("choice", ["(on a b)", "(on b c)", "(on c d)", "(on d a)"], ["a is on b", "b is on c", "c is on d", "d is on a"], [1], "d/p0002/t00/landmarks/choice")));
    const by = new Map(probes.results().map((r) => [`${r.probe}|${r.group}`, r]));
    expect(by.get("rarest predicate|landmarks/choice")!.value).toBeCloseTo((1 + 0.25) / 2, 10);
    expect(by.get("argument count|landmarks/choice")!.value).toBeCloseTo((1 + 0.25) / 2, 10);
    expect(by.get("shortest|landmarks/choice")!.value).toBeCloseTo((1 + 0.25) / 2, 10);
    expect(by.get("longest|landmarks/choice")!.value).toBeCloseTo((0 + 0.25) / 2, 10);
    expect(by.get("rarest predicate|landmarks/choice")!.chance).toBe(0.25);
    // a free list, two right: the odd one is one of them
    const free = new OptionProbes();
    free.add(shard(row("free", ["(at t l1)", "(at t l2)", "(in p t)", "(at t l3)"], ["t is at l1", "t is at l2", "p is in t", "t is at l3"], [1, 2], "d/p0003/t00/landmarks/free")));
    const f = new Map(free.results().map((r) => [r.probe, r]));
    expect(f.get("rarest predicate")!.chance).toBe(0.5);
    expect(f.get("rarest predicate")!.value).toBe(1);
    expect(f.get("longest")!.value).toBeCloseTo(1 / 3, 10);
    // no options to read: yes/no, a free answer that is not a list of letters
    expect(optionsOf({ form: "yes-no", meta: { items: ["(on a b)"] } })).toBeNull();
    expect(optionsOf({ form: "free", question: "List every action.", meta: { items: [], gold: { set: ["(stack a b)"] } } })).toBeNull();
  });

  it("the prior of a choice option is what the four share and its objects: not its own predicate", () => {
    const units = toUnits("acp", shard(row("choice", ["(on a b)", "(on b c)", "(clear a)", "(on c a)"], ["a is on b", "b is on c", "a clear", "c is on a"], [2])), null as unknown as StepTextParser) as StepUnit[];
    expect(units).toHaveLength(4);
    expect(new Set(units.map((u) => u.act!.type))).toEqual(new Set(["d/landmarks:choice:clear|on"]));
    expect(units.map((u) => u.act!.args)).toEqual([["a", "b"], ["b", "c"], ["a"], ["a", "c"]]);
  });
});

describe("odd-one-out options on generated questions (--domain all --count 40 --seed 4242)", () => {
  it("a clean folder passes; every rule within 5 points of chance in every kind and form, predicate and argument count at chance exactly", async () => {
    const r = await runAudit(clean);
    const groups = new Set(r.option_probes.map((p) => p.group));
    // every kind whose questions list options, in both forms that do
    for (const g of ["applicability/choice", "progression/choice", "reachability/choice", "reachability/free", "action-reachability/choice", "action-reachability/free", "validation/choice", "justification/choice", "justification/free", "landmarks/choice", "landmarks/free", "next-action/choice"]) {
      expect(groups, g).toContain(g);
    }
    for (const p of r.option_probes) {
      expect(p.n, `${p.probe} ${p.group}`).toBeGreaterThan(100);
      expect(p.gain, `${p.probe} ${p.group}: ${p.value.toFixed(3)} against ${p.chance.toFixed(3)}`).toBeLessThanOrEqual(0.05);
      // options of one form: the rules that read the predicate or the argument count find no odd one
      if (p.probe === "rarest predicate" || p.probe === "argument count") expect(Math.abs(p.gain), `${p.probe} ${p.group}`).toBeLessThan(1e-12);
    }
    expect(r.checks.filter((c) => c.name.startsWith("option form:"))).toHaveLength(r.option_probes.length);
    expect(r.checks.filter((c) => !c.pass).map((c) => `${c.name} [${c.group}]`)).toEqual([]);
    expect(r.pass).toBe(true);
  }, 300_000);

  it("landmark options of before (the right one the only fact of its predicate) fail the audit, naming the rule", async () => {
    const plant = PLANTS.find((p) => p.name === "landmark the odd predicate")!;
    expect(plant.format).toBe("acp");
    const dir = join(tmp, "planted");
    plantInto(clean, dir, plant);
    const r = await cli(["audit", dir]);
    expect(r.code, r.stdout).toBe(1);
    expect(r.stdout).toMatch(/audit: FAIL$/m);
    const fails = r.stdout.split("\n").filter((l) => l.startsWith("  FAIL "));
    expect(fails.some((l) => plant.check.test(l)), fails.join("\n")).toBe(true);
    const j = await cli(["audit", dir, "--json"]);
    const report = JSON.parse(j.stdout) as { option_probes: { probe: string; group: string; value: number; chance: number }[] };
    const odd = report.option_probes.find((p) => p.probe === "rarest predicate" && p.group === "landmarks/choice")!;
    // every planted choice is right by its predicate alone
    expect(odd.value).toBeGreaterThan(0.9);
    // the other kinds are untouched
    expect(report.option_probes.filter((p) => !p.group.startsWith("landmarks/") && p.probe === "rarest predicate").every((p) => Math.abs(p.value - p.chance) < 1e-12)).toBe(true);
  }, 300_000);
});
