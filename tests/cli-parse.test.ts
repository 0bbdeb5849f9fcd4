import { execFile, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";

const BIN = "dist/src/cli/main.js";
const CONF = "dist/src/cli/conformance.js";
const F = "tests/fixtures/pddl/";

/** Run a built script; async so the cases of a describe.concurrent block overlap. */
function run(script: string, args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [script, ...args], { encoding: "utf8", timeout: 60_000 }, (e, out, err) => {
      const code = e === null ? 0 : typeof e.code === "number" ? e.code : null;
      resolve({ code, out, err });
    });
  });
}

beforeAll(() => {
  // `npm test` builds first; build here only when run on a fresh checkout without dist/.
  if (!existsSync(BIN) || !existsSync(CONF)) spawnSync("npx", ["tsc", "-p", "tsconfig.json"], { stdio: "inherit" });
}, 120_000);

describe.concurrent("pddl2prm parse", () => {
  it("--json prints the DESIGN §10 summary", async () => {
    const r = await run(BIN, ["parse", F + "adl-domain.pddl", F + "adl-problem.pddl", "--json"]);
    expect(r.err).toBe("");
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out) as Record<string, unknown>;
    expect(Object.keys(j)).toEqual(["domain", "requirements", "types", "predicates", "actions", "objects", "init"]);
    expect(j).toMatchObject({ domain: "adl-mix", types: 5, predicates: 6, actions: 3, objects: 6, init: 11 });
    expect(j.requirements).toContain(":action-costs");
  });

  it("domain only: objects and init are 0", async () => {
    const r = await run(BIN, ["parse", F + "blocks-domain.pddl", "--json"]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toEqual({ domain: "blocks", requirements: [":strips"], types: 0, predicates: 5, actions: 4, objects: 0, init: 0 });
  });

  it("readable summary without --json", async () => {
    const r = await run(BIN, ["parse", F + "blocks-domain.pddl", F + "blocks-p1.pddl"]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/domain\s+blocks/);
    expect(r.out).toMatch(/actions\s+4/);
    expect(r.out).toMatch(/objects\s+3/);
    expect(r.out).toMatch(/init\s+6/);
  });

  it("bad PDDL: file:line:col: error on stderr, exit 1, no stack trace", async () => {
    const r = await run(BIN, ["parse", F + "conf/bad/domain.pddl", F + "conf/bad/p01.pddl"]);
    expect(r.code).toBe(1);
    expect(r.out).toBe("");
    expect(r.err).toBe(`${F}conf/bad/p01.pddl:3:17: error: undeclared object 'c'\n`);
  });

  it("problem for another domain: exit 1 naming both", async () => {
    const r = await run(BIN, ["parse", F + "adl-domain.pddl", F + "blocks-p1.pddl"]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/^tests\/fixtures\/pddl\/blocks-p1\.pddl:1:39: error: problem is for domain 'blocks' but the domain is 'adl-mix'\n$/);
  });

  it("missing file: exit 1 with a one-line message", async () => {
    const r = await run(BIN, ["parse", F + "missing.pddl"]);
    expect(r.code).toBe(1);
    expect(r.err).toBe(`pddl2prm: error: ${F}missing.pddl: no such file\n`);
  });

  it("bad usage: exit 2", async () => {
    const rs = await Promise.all([run(BIN, ["parse"]), run(BIN, ["parse", F + "blocks-domain.pddl", "--bogus"]), run(BIN, ["parse", "a", "b", "c"])]);
    expect(rs.map((r) => r.code)).toEqual([2, 2, 2]);
    for (const r of rs) expect(r.err).toMatch(/^pddl2prm: error: /);
  });
});

describe.concurrent("conformance script", () => {
  it("walks domain folders and per-problem domain files; last line counts", async () => {
    const r = await run(CONF, [F + "conf/good", "--verbose"]);
    expect(r.code).toBe(0);
    expect(r.out.trim().split("\n").at(-1)).toBe("1 passed, 0 failed");
    const r2 = await run(CONF, [F + "conf/perprob"]);
    expect(r2.code).toBe(0);
    expect(r2.out).toBe("2 passed, 0 failed\n");
  });

  it("one line per failure, exit 1", async () => {
    const r = await run(CONF, [F + "conf"]);
    expect(r.code).toBe(1);
    const lines = r.out.trim().split("\n");
    expect(lines).toEqual([
      `FAIL [parse] ${F}conf/bad/p01.pddl: ${F}conf/bad/p01.pddl:3:17: error: undeclared object 'c'`,
      "3 passed, 1 failed",
    ]);
  });

  it("the construct fixtures reproduce Fast Downward's cost and initial h (expect stage)", async () => {
    const r = await run(CONF, ["tests/fixtures/conformance", "--verbose"]);
    expect(r.code).toBe(0);
    expect(r.out.match(/expect: as expected/g)?.length).toBe(5);
    expect(r.out.trim().split("\n").at(-1)).toBe("5 passed, 0 failed");
  });

  it("the expect stage fails on a figure the search does not reproduce", async () => {
    const dir = mkdtempSync(join(tmpdir(), "conf-expect-"));
    try {
      cpSync("tests/fixtures/conformance/negative-goals", dir, { recursive: true });
      writeFileSync(join(dir, "expected.json"), '{ "p01.pddl": { "cost": 6, "initial_h": 5 } }');
      const r = await run(CONF, [dir]);
      expect(r.code).toBe(1);
      expect(r.out).toContain(`FAIL [expect] ${join(dir, "p01.pddl")}: expected initial_h 5`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("usage errors exit 2, a missing dir exits 1", async () => {
    const rs = await Promise.all([run(CONF, []), run(CONF, [F + "conf", "--only", "nope"]), run(CONF, [F + "no-such-dir"])]);
    expect(rs.map((r) => r.code)).toEqual([2, 2, 1]);
  });
});
