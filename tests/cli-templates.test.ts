/**
 * `pddl2prm templates init`: a schema-valid, editable nl.json for any domain; the edited file
 * drives `generate --templates`.
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
});
