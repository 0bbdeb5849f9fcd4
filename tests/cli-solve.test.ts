import { execFile, spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { testTempDir } from "./temp-dir.js";

const BIN = "dist/src/cli/main.js";
const F = "tests/fixtures/search/";

function run(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { encoding: "utf8", timeout: 60_000 }, (e, out, err) => {
      const code = e === null ? 0 : typeof e.code === "number" ? e.code : null;
      resolve({ code, out, err });
    });
  });
}

beforeAll(() => {
  if (!existsSync(BIN)) spawnSync("npx", ["tsc", "-p", "tsconfig.json"], { stdio: "inherit" });
}, 120_000);

describe.concurrent("pddl2prm solve", () => {
  it("--json prints the DESIGN §10 object", async () => {
    const r = await run(["solve", F + "bw-domain.pddl", F + "bw-sussman.pddl", "--json"]);
    expect(r.err).toBe("");
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out) as Record<string, unknown>;
    for (const k of ["solvable", "cost", "plan", "initial_h", "expanded", "generated", "evaluated", "search_ms", "total_ms"]) {
      expect(j).toHaveProperty(k);
    }
    expect(j).toMatchObject({ solvable: true, status: "solved", cost: 6 });
    expect((j.plan as string[]).length).toBe(6);
    expect(j.plan as string[]).toContain("(unstack c a)");
  });

  it("writes a Fast Downward plan file", async () => {
    const dir = testTempDir("solve-");
    const pf = join(dir, "plan.txt");
    const r = await run(["solve", F + "roads-domain.pddl", F + "roads-p1.pddl", "--plan-file", pf, "--heuristic", "hmax"]);
    expect(r.code).toBe(0);
    const lines = readFileSync(pf, "utf8").trim().split("\n");
    expect(lines.at(-1)).toBe("; cost = 13 (general cost)");
    expect(lines[0]).toMatch(/^\(drive s /);
  });

  it("unsolvable: solvable false, exit 0", async () => {
    const r = await run(["solve", F + "token-domain.pddl", F + "token-unsolvable.pddl", "--json"]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({ solvable: false, status: "unsolvable", cost: null, plan: [] });
  });

  it("a limit gives status limit and exit 1", async () => {
    const r = await run(["solve", F + "bw-domain.pddl", F + "bw-6.pddl", "--json", "--heuristic", "blind", "--max-expansions", "3"]);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.out)).toMatchObject({ solvable: false, status: "limit", expanded: 3 });
    expect(r.err).toMatch(/limit/);
  });

  it("a grounding limit is a limit outcome too: status limit, exit 1, one line on stderr", async () => {
    const r = await run(["solve", F + "bw-domain.pddl", F + "bw-6.pddl", "--json", "--max-ops", "2"]);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.out)).toMatchObject({ solvable: false, status: "limit", expanded: 0 });
    expect(r.err).toMatch(/^pddl2prm: error: grounding .* exceeds 2 operators\n$/);
    const facts = await run(["solve", F + "bw-domain.pddl", F + "bw-6.pddl", "--max-facts", "3"]);
    expect(facts.code).toBe(1);
    expect(facts.err).toMatch(/exceeds 3 facts/);
  });

  it("has a default time limit, shown in --help", async () => {
    const r = await run(["solve", "--help"]);
    expect(r.out).toMatch(/--time-limit <seconds>[\s\S]*\(default: "300"\)/);
  });

  it("bad heuristic name: exit 2 naming the flag", async () => {
    const r = await run(["solve", F + "bw-domain.pddl", F + "bw-sussman.pddl", "--heuristic", "ff"]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/--heuristic/);
    expect(r.err).not.toMatch(/at .*\.js/);
  });

  it("bad time limit: exit 2; missing file: exit 1", async () => {
    const a = await run(["solve", F + "bw-domain.pddl", F + "bw-sussman.pddl", "--time-limit", "soon"]);
    expect(a.code).toBe(2);
    expect(a.err).toMatch(/--time-limit/);
    const b = await run(["solve", F + "bw-domain.pddl", F + "nope.pddl"]);
    expect(b.code).toBe(1);
    expect(b.err).toMatch(/nope\.pddl/);
  });

  it("text output ends with the cost line and statistics", async () => {
    const r = await run(["solve", F + "bw-domain.pddl", F + "bw-4.pddl"]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/; cost = 8 \(unit cost\)/);
  });
});
