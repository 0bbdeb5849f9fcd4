import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runCommands, type CliResult } from "./cli-helpers.js";
import { register } from "../src/cli/label.js";
import { fileTempDir } from "./temp-dir.js";

const ROOT = join(import.meta.dirname, "..");
const BW = join(ROOT, "domains", "blocksworld", "domain.pddl");
const BW_P1 = join(ROOT, "tests", "fixtures", "label", "blocksworld-p1.pddl");
const ROOMS = join(ROOT, "domains", "rooms", "domain.pddl");
const ROOMS_P2 = join(ROOT, "tests", "fixtures", "label", "rooms-p2.pddl");
const tmp = fileTempDir("cli-label-");

function planFile(name: string, text: string): string {
  const f = join(tmp, name);
  writeFileSync(f, text);
  return f;
}

/** Run `pddl2prm label ...args` in process. */
const run = (...args: string[]): Promise<CliResult> => runCommands([register], ["label", ...args]);

afterEach(() => {
  process.exitCode = 0;
});

describe("pddl2prm label", () => {
  it("labels a non-trivial backtracking step with its evidence (--json)", async () => {
    // after (unstack a b), stacking a onto d forces a return to the state after step 1
    const r = await run(BW, BW_P1, "--prefix", planFile("p1.plan", "(unstack a b)\n; cost = 1\n"), "--action", "(STACK a d)", "--json");
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out);
    expect(j).toMatchObject({
      action: "(stack a d)",
      prefix_length: 1,
      category: "backtracking",
      reward: 0.5,
      h_before: 9,
      h_after: 10,
      cost: 1,
      extra_cost: 2,
      backtrack_to: 1,
      failed_preconditions: [],
      dead_end_proof: null,
    });
    expect(j.evidence.backtrackTo).toBe(1);
  });

  it("works without a prefix and prints text", async () => {
    const r = await run(BW, BW_P1, "--action", "(unstack a b)");
    expect(r.code).toBe(0);
    expect(r.out).toContain("category: optimal (reward 1.00)");
    expect(r.out).toContain("h*(s) = 10, h*(s') = 9");
  });

  it("reports failed preconditions of a non-executable action", async () => {
    const r = await run(BW, BW_P1, "--action", "(pick-up b)", "--json");
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out);
    expect(j.category).toBe("non-executable");
    expect(j.reward).toBe(0);
    expect(j.failed_preconditions).toEqual(["(clear b)"]);
    expect(j.h_after).toBeNull();
  });

  it("reports the dead-end proof", async () => {
    const r = await run(ROOMS, ROOMS_P2, "--action", "(move bot r0 r1)", "--json");
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out);
    expect(j.category).toBe("dead-end");
    expect(j.dead_end_proof.kind).toBe("exhaustive");
    expect(j.dead_end_proof.states).toBeGreaterThan(0);
    const t = await run(ROOMS, ROOMS_P2, "--action", "(move bot r0 r1)");
    expect(t.out).toMatch(/proof: exhaustive search of \d+ states/);
  });

  it("rejects a prefix step that is not executable (exit 1, one line)", async () => {
    const r = await run(BW, BW_P1, "--prefix", planFile("bad.plan", "(unstack a b)\n(pick-up c)\n"), "--action", "(put-down a)");
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/^pddl2prm: error: .*bad\.plan: step 2 \(pick-up c\) is not executable: unsatisfied .*\(handempty\)/);
    expect(r.err.trim().split("\n")).toHaveLength(1);
  });

  it("rejects unknown actions, objects and malformed prefixes (exit 1)", async () => {
    const a = await run(BW, BW_P1, "--action", "(pick-up zz)");
    expect(a.code).toBe(1);
    expect(a.err).toMatch(/--action: unknown object 'zz'/);
    const b = await run(BW, BW_P1, "--action", "(fly a)");
    expect(b.code).toBe(1);
    expect(b.err).toMatch(/unknown action 'fly'/);
    const c = await run(BW, BW_P1, "--prefix", planFile("junk.plan", "unstack a b\n"), "--action", "(pick-up a)");
    expect(c.code).toBe(1);
    expect(c.err).toMatch(/junk\.plan: plan line 1/);
    const d = await run(BW, BW_P1, "--prefix", join(tmp, "missing.plan"), "--action", "(pick-up a)");
    expect(d.code).toBe(1);
    expect(d.err).toMatch(/missing\.plan: no such file/);
  });

  it("stops grounding at --max-ops / --max-facts (exit 1, one line naming the bound)", async () => {
    const ops = await run(BW, BW_P1, "--action", "(pick-up a)", "--max-ops", "2");
    expect(ops.code).toBe(1);
    expect(ops.err).toMatch(/^pddl2prm: error: grounding .* exceeds 2 operators\n$/);
    const facts = await run(BW, BW_P1, "--action", "(pick-up a)", "--max-facts", "2");
    expect(facts.code).toBe(1);
    expect(facts.err).toMatch(/exceeds 2 facts/);
  });

  it("needs --action (usage error)", async () => {
    const r = await run(BW, BW_P1);
    expect(r.code).toBe(2);
  });
});
