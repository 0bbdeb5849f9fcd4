import { execFile, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const BIN = "dist/src/cli/main.js";

function run(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { encoding: "utf8", timeout: 60_000 }, (e, out, err) => {
      const code = e === null ? 0 : typeof e.code === "number" ? e.code : null;
      resolve({ code, out, err });
    });
  });
}

let tmp = "";
beforeAll(() => {
  // `npm test` builds first; build here only when run on a checkout without these commands built.
  if (!existsSync(BIN) || !existsSync("dist/src/cli/problems.js")) spawnSync("npx", ["tsc", "-p", "tsconfig.json"], { stdio: "inherit" });
  tmp = mkdtempSync(join(tmpdir(), "pddl2prm-problems-"));
}, 120_000);
afterAll(() => {
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

describe.concurrent("pddl2prm domains", () => {
  it("lists the eleven domains with description and default y", async () => {
    const r = await run(["domains"]);
    expect(r.code).toBe(0);
    const lines = r.out.trim().split("\n");
    expect(lines).toHaveLength(12);
    expect(lines[1]).toMatch(/^blocksworld\s+7\s+\S/);
    expect(r.out).toMatch(/\nrooms\s+6\s+\S/);
  });
  it("--json", async () => {
    const r = await run(["domains", "--json"]);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out) as { domains: { name: string; samples_per_state: number; size_options: { flag: string }[] }[] };
    expect(j.domains.map((d) => d.name)).toEqual([
      "blocksworld", "blocksworld-3ops", "ferry", "hanoi", "logistics", "elevator", "npuzzle", "visitgrid", "sokoban", "spanner", "rooms",
    ]);
    expect(j.domains.find((d) => d.name === "ferry")!.size_options.map((o) => o.flag)).toEqual(["--cars", "--locations"]);
  });
});

describe.concurrent("pddl2prm problems", () => {
  it("writes p0001.pddl … and a summary line; same seed, same bytes", async () => {
    const a = join(tmp, "a");
    const b = join(tmp, "b");
    const [ra, rb] = await Promise.all([
      run(["problems", "--domain", "ferry", "--count", "5", "--seed", "3", "--out", a]),
      run(["problems", "--domain", "ferry", "--count", "5", "--seed", "3", "--out", b]),
    ]);
    expect(ra.code).toBe(0);
    expect(ra.out).toMatch(/^wrote 5 ferry problems to .* mean optimal plan length \d+\.\d\d/);
    expect(readdirSync(a).sort()).toEqual(["p0001.pddl", "p0002.pddl", "p0003.pddl", "p0004.pddl", "p0005.pddl"]);
    expect(rb.code).toBe(0);
    for (const f of readdirSync(a)) expect(readFileSync(join(a, f), "utf8")).toBe(readFileSync(join(b, f), "utf8"));
    expect(readFileSync(join(a, "p0001.pddl"), "utf8")).toMatch(/^\(define \(problem p0001\)\n {2}\(:domain ferry\)/);
  });

  it("size options reach the generator; --json summary", async () => {
    const out = join(tmp, "bw");
    const r = await run(["problems", "--domain", "blocksworld", "--count", "3", "--blocks", "3", "--out", out, "--json"]);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out) as Record<string, unknown>;
    expect(j).toMatchObject({ domain: "blocksworld", count: 3, seed: 1, out });
    expect(typeof j["mean_plan_length"]).toBe("number");
    const text = readFileSync(join(out, "p0002.pddl"), "utf8");
    expect(text).toContain("b3");
    expect(text).not.toContain("b4");
  });

  const bad: [string[], RegExp][] = [
    [["--domain", "ferry", "--count", "0"], /--count/],
    [["--domain", "ferry", "--count", "x"], /--count expects an integer/],
    [["--domain", "ferry", "--count", "2", "--seed", "-1"], /--seed/],
    [["--domain", "nope", "--count", "2"], /--domain: unknown domain 'nope' \(built-in domains: blocksworld, /],
    [["--domain", "ferry", "--count", "2", "--blocks", "3"], /--blocks is not a size option of ferry/],
    [["--domain", "ferry", "--count", "2", "--cars", "0"], /--cars must be an integer in 1\.\.50/],
    [["--domain", "spanner", "--count", "2", "--nuts", "3", "--spanners", "2"], /--spanners/],
    [["--count", "2"], /--domain/],
  ];
  for (const [args, msg] of bad)
    it(`bad usage exits 2 naming the flag: ${args.join(" ")}`, async () => {
      const out = join(tmp, `bad-${args.join("_")}`);
      const r = await run(["problems", ...args, "--out", out]);
      expect(r.code).toBe(2);
      expect(r.err).toMatch(msg);
      expect(r.err).not.toMatch(/\n\s+at /);
      expect(existsSync(out)).toBe(false);
    });
});
