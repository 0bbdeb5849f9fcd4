/**
 * `pddl2prm templates init`: a schema-valid, editable nl.json for any domain; the edited file
 * drives `generate --templates`. `pddl2prm templates check`: an edited file checked as
 * `--templates` would, and every sentence of a problem read back.
 */
import { execFile, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compileTemplates, NlJsonSchema } from "../src/nl/index.js";
import { parseDomainFile } from "../src/pddl/index.js";
import { FIXTURE_DOMAINS, fixtureFiles } from "./readability-helpers.js";

const BIN = "dist/src/cli/main.js";
const tmp = mkdtempSync(join(tmpdir(), "p2p-templates-"));

function run(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { encoding: "utf8", timeout: 120_000, maxBuffer: 64 << 20 }, (e, out, err) => {
      resolve({ code: e === null ? 0 : typeof e.code === "number" ? e.code : null, out, err });
    });
  });
}

beforeAll(() => {
  if (!existsSync(BIN)) spawnSync("npx", ["tsc", "-p", "tsconfig.json"], { stdio: "inherit" });
}, 120_000);
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe.concurrent("pddl2prm templates init", () => {
  const domains = [...FIXTURE_DOMAINS.map((n) => fixtureFiles(n).domain), ...readdirSync("domains").map((d) => join("domains", d, "domain.pddl"))];
  for (const file of domains) {
    it(`writes a schema-valid nl.json for ${file}`, async () => {
      const r = await run(["templates", "init", "--domain-file", file]);
      expect(r.err).toBe("");
      expect(r.code).toBe(0);
      const json: unknown = JSON.parse(r.out);
      expect(NlJsonSchema.safeParse(json).success).toBe(true);
      const t = compileTemplates(json, parseDomainFile(file), "(stdout)");
      expect(t.actions.size).toBeGreaterThan(0);
      expect(r.out).not.toMatch(/holds for|is true|\?[a-z]/);
    });
  }

  it("--problem checks the scaffold on a problem; --out refuses to overwrite without --force", async () => {
    const f = fixtureFiles("lift");
    const out = join(tmp, "lift.json");
    const r = await run(["templates", "init", "--domain-file", f.domain, "--problem", f.problem, "--out", out]);
    expect(r.code).toBe(0);
    expect(r.err).toMatch(/checked \d+ texts of .*lift-p01\.pddl: all read back to their actions/);
    expect(JSON.parse(readFileSync(out, "utf8"))).toHaveProperty("actions.stop");
    const again = await run(["templates", "init", "--domain-file", f.domain, "--out", out]);
    expect(again.code).toBe(1);
    expect(again.err).toBe(`pddl2prm: error: ${out} exists (use --force to overwrite it)\n`);
    const forced = await run(["templates", "init", "--domain-file", f.domain, "--out", out, "--force"]);
    expect(forced.code).toBe(0);
  });

  it("bad usage exits 2, bad PDDL exits 1 naming file:line:col, and nothing is written", async () => {
    const none = await run(["templates", "init"]);
    expect(none.code).toBe(2);
    expect(none.err).toContain("templates init needs --domain-file");
    const bad = join(tmp, "bad-domain.pddl");
    writeFileSync(bad, "(define (domain x)\n  (:predicates (p ?a)\n  (:action a :parameters () :effect (q)))\n");
    const out = join(tmp, "never.json");
    const r = await run(["templates", "init", "--domain-file", bad, "--out", out]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/^.*bad-domain\.pddl:\d+:\d+: error: /);
    expect(existsSync(out)).toBe(false);
  });

  it("workflow: scaffold, edit two entries, generate with the edited file", async () => {
    const f = fixtureFiles("transport");
    const file = join(tmp, "transport.json");
    expect((await run(["templates", "init", "--domain-file", f.domain, "--out", file])).code).toBe(0);
    const j = JSON.parse(readFileSync(file, "utf8")) as { actions: Record<string, string[]>; predicates: Record<string, unknown> };
    j.actions["drive"] = ["drive {v} along the road from {l1} to {l2}", "take {v} from {l1} to {l2}", "drive {v} over to {l2}, leaving {l1}"];
    j.predicates["capacity"] = { true: ["{v} has room for {s1} more packages"], false: ["{v} does not have room for {s1} more packages"] };
    writeFileSync(file, JSON.stringify(j, null, 2));
    const out = join(tmp, "out");
    const g = await run(["generate", "--domain-file", f.domain, "--problems", f.problem, "--templates", file, "--out", out, "--workers", "1", "--quiet"]);
    expect(g.err).toBe("");
    expect(g.code).toBe(0);
    const rows = readdirSync(join(out, "data")).flatMap((s) => readFileSync(join(out, "data", s), "utf8").split("\n").filter((l) => l !== ""));
    const text = rows.join("\n");
    expect(text).toContain("truck-1 has room for capacity-2 more packages");
    expect(text).toMatch(/(drive truck-1 along the road from|take truck-1 from|drive truck-1 over to)/);
    expect(text).not.toContain("the capacity of truck-1");
  });

  it("an unedited scaffold's intro is its rules, and edited action texts show up in them", async () => {
    const f = fixtureFiles("transport");
    const file = join(tmp, "transport-rules.json");
    expect((await run(["templates", "init", "--domain-file", f.domain, "--out", file])).code).toBe(0);
    const j = JSON.parse(readFileSync(file, "utf8")) as { intro: string[]; actions: Record<string, string[]> };
    for (const t of j.intro) expect(t).toMatch(/\n\{rules\}$/);
    j.actions["drive"] = ["steer {v} along the road from {l1} to {l2}", "take {v} from {l1} to {l2}", "drive {v} over to {l2}, leaving {l1}"];
    writeFileSync(file, JSON.stringify(j, null, 2));
    const out = join(tmp, "out-rules");
    const g = await run(["generate", "--domain-file", f.domain, "--problems", f.problem, "--templates", file, "--out", out, "--workers", "1", "--quiet"]);
    expect(g.err).toBe("");
    expect(g.code).toBe(0);
    const text = readdirSync(join(out, "data")).map((s) => readFileSync(join(out, "data", s), "utf8")).join("\n");
    expect(text).toMatch(/- To steer vehicle \S+ along the road from location \S+ to location \S+: it requires/);
    expect(text).not.toContain("{rules}");
  });
});

/** `pddl2prm templates check`: an edited nl.json checked as --templates would, and read back on problems. */
describe.concurrent("pddl2prm templates check", () => {
  it("check passes on a scaffolded file with a problem (text and --json)", async () => {
    const f = fixtureFiles("floortile");
    const file = join(tmp, "floortile-check.json");
    expect((await run(["templates", "init", "--domain-file", f.domain, "--out", file])).code).toBe(0);
    const r = await run(["templates", "check", file, "--domain-file", f.domain, "--problem", f.problem]);
    expect(r.err).toBe("");
    expect(r.code).toBe(0);
    expect(r.out).toContain(`${file}: schema, names, placeholders and texts that read alike: ok`);
    expect(r.out).toMatch(/floortile-p01\.pddl: \d+ fact sentences and \d+ action texts checked: all read back to what they stand for/);
    const j = await run(["templates", "check", file, "--domain-file", f.domain, "--problem", f.problem, "--problem", f.problem, "--json"]);
    expect(j.code).toBe(0);
    const o = JSON.parse(j.out) as { file: string; problems: Array<{ problem: string; facts: number; actions: number; failures: string[] }>; ok: boolean };
    expect(o.file).toBe(file);
    expect(o.ok).toBe(true);
    expect(o.problems).toHaveLength(2);
    expect(o.problems[0]!.problem).toBe(f.problem);
    expect(o.problems[0]!.facts).toBeGreaterThan(0);
    expect(o.problems[0]!.actions).toBeGreaterThan(0);
    expect(o.problems[0]!.failures).toEqual([]);
  });

  it("check fails (exit 1) on two predicates that read alike, naming both", async () => {
    const f = fixtureFiles("floortile");
    const file = join(tmp, "floortile-alike.json");
    expect((await run(["templates", "init", "--domain-file", f.domain, "--out", file])).code).toBe(0);
    const j = JSON.parse(readFileSync(file, "utf8")) as { predicates: Record<string, { true: string[]; false: string[] }> };
    j.predicates["left"]!.true = ["{x} lies next to {y}"];
    j.predicates["right"]!.true = ["{x} lies next to {y}"];
    writeFileSync(file, JSON.stringify(j, null, 2));
    const r = await run(["templates", "check", file, "--domain-file", f.domain, "--problem", f.problem]);
    expect(r.code).toBe(1);
    expect(r.err).toContain(`pddl2prm: error: ${file}: predicates.right.true[0] "{x} lies next to {y}" and predicates.left.true[0] "{x} lies next to {y}" read alike`);
    const js = await run(["templates", "check", file, "--domain-file", f.domain, "--json"]);
    expect(js.code).toBe(1);
    const o = JSON.parse(js.out) as { ok: boolean; error: string };
    expect(o.ok).toBe(false);
    expect(o.error).toContain("predicates.left.true[0]");
    // generate --templates refuses the same file, for the same reason
    const g = await run(["generate", "--domain-file", f.domain, "--problems", f.problem, "--templates", file, "--out", join(tmp, "never"), "--quiet"]);
    expect(g.code).toBe(1);
    expect(g.err).toContain("read alike");
  });

  it("check reads back every sentence of each problem and lists the failures (exit 1)", async () => {
    // open and not-open read alike by design ("d1 is not open"), which is faithful only when the
    // pair is complementary; in this problem it is not, so the sentences are ambiguous.
    const domain = join(tmp, "doors-domain.pddl");
    writeFileSync(
      domain,
      `(define (domain doors) (:requirements :strips :typing) (:types door)
  (:predicates (open ?d - door) (not-open ?d - door) (locked ?d - door))
  (:action unlock :parameters (?d - door) :precondition (locked ?d) :effect (not (locked ?d)))
  (:action open-door :parameters (?d - door) :precondition (not-open ?d) :effect (and (open ?d) (not (not-open ?d)))))
`,
    );
    const problem = join(tmp, "doors-p01.pddl");
    // d1 ... d6 are both open and not open: four sentences each read two ways (24 failures)
    const doors = [1, 2, 3, 4, 5, 6].map((i) => `d${i}`);
    const init = doors.map((d) => `(open ${d}) (not-open ${d})`).join(" ");
    writeFileSync(problem, `(define (problem doors-1) (:domain doors) (:objects ${doors.join(" ")} - door) (:init (locked d1) ${init}) (:goal (not (locked d1))))\n`);
    const file = join(tmp, "doors.json");
    writeFileSync(
      file,
      JSON.stringify({
        intro: ["Doors open.\n{rules}", "Doors.\n{rules}", "Rules:\n{rules}"],
        predicates: {
          open: { true: ["{d} is open"], false: ["{d} is not open"] },
          "not-open": { true: ["{d} is not open"], false: ["{d} is open"] },
          locked: { true: ["{d} is locked"], false: ["{d} is unlocked"] },
        },
        actions: { unlock: ["unlock {d}", "undo the lock of {d}", "unlock door {d}"], "open-door": ["open {d}", "swing {d} open", "open door {d}"] },
        goal: ["The goal: {goal}."],
        instruction: ["Go."],
      }),
    );
    const r = await run(["templates", "check", file, "--domain-file", domain, "--problem", problem]);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/doors-p01\.pddl: \d+ fact sentences and \d+ action texts checked: 24 failures\n/);
    expect(r.err).toMatch(/doors-p01\.pddl: 24 sentences do not read back to what they stand for:\n/);
    expect(r.err).toContain('(open d1): "door d1 is open" reads as (open d1) or not (not-open d1)');
    // the first 20, then a count
    expect(r.err.split("\n").filter((l) => l.startsWith("  (") || l.startsWith("  not ("))).toHaveLength(20);
    expect(r.err).toContain("  ... and 4 more (24 in all)\n");
    const j = await run(["templates", "check", file, "--domain-file", domain, "--problem", problem, "--json"]);
    expect(j.code).toBe(1);
    const o = JSON.parse(j.out) as { ok: boolean; problems: Array<{ problem: string; failures: string[] }> };
    expect(o.ok).toBe(false);
    expect(o.problems[0]!.problem).toBe(problem);
    expect(o.problems[0]!.failures).toHaveLength(24);
    expect(o.problems[0]!.failures.join("\n")).toContain("(not-open d1)");
  });

  it("check: bad usage exits 2; a missing file or bad PDDL exits 1 with one line", async () => {
    const f = fixtureFiles("lift");
    const none = await run(["templates", "check", "x.json"]);
    expect(none.code).toBe(2);
    expect(none.err).toContain("templates check needs --domain-file");
    const noFile = await run(["templates", "check", "--domain-file", f.domain]);
    expect(noFile.code).toBe(2);
    const missing = await run(["templates", "check", join(tmp, "nope.json"), "--domain-file", f.domain]);
    expect(missing.code).toBe(1);
    expect(missing.err).toBe(`pddl2prm: error: ${join(tmp, "nope.json")}: no such file\n`);
    const badProblem = join(tmp, "bad-problem.pddl");
    writeFileSync(badProblem, "(define (problem q) (:domain lift)\n  (:init (nonsense))\n");
    const bad = await run(["templates", "check", join(tmp, "nope.json"), "--domain-file", f.domain, "--problem", badProblem]);
    expect(bad.code).toBe(1);
    expect(bad.err).toMatch(/bad-problem\.pddl:\d+:\d+: error: /);
    expect(bad.err).not.toMatch(/\n\s+at /);
  });
});
