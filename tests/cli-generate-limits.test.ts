/**
 * `generate` within bounds: a problem too large for the memory budget or the grounding caps is
 * skipped and recorded while the other problems' rows are written; worker counts, memory
 * budgets and problem counts are checked up front.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cliRunner, ROOT } from "./cli-run.js";
import { GRIPPER_DOMAIN } from "./gripper-helpers.js";

const tmp = mkdtempSync(join(tmpdir(), "pddl2prm-limits-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const run = cliRunner(tmp);

const DOMAIN = GRIPPER_DOMAIN;

/** A gripper problem with `balls` balls, all to be carried from ra to rb. */
function gripper(name: string, balls: number): string {
  const bs = Array.from({ length: balls }, (_, i) => `b${i + 1}`);
  return `(define (problem ${name}) (:domain mini-gripper)
  (:objects ra rb - room ${bs.join(" ")} - ball)
  (:init (at-robby ra) (free)\n${bs.map((b) => `    (at ${b} ra)`).join("\n")})
  (:goal (and\n${bs.map((b) => `    (at ${b} rb)`).join("\n")})))\n`;
}

/** A folder with domain.pddl, a valid small problem and a `big` one. */
function folder(name: string, bigBalls: number): string {
  const dir = join(tmp, name);
  mkdirSync(dir);
  writeFileSync(join(dir, "domain.pddl"), DOMAIN);
  writeFileSync(join(dir, "big.pddl"), gripper("big", bigBalls));
  writeFileSync(join(dir, "small.pddl"), gripper("small", 2));
  return dir;
}

function shardLines(out: string): string[] {
  const dir = join(out, "data");
  return readdirSync(dir)
    .filter((n) => n.endsWith(".jsonl"))
    .sort()
    .flatMap((n) => readFileSync(join(dir, n), "utf8").split("\n").filter((l) => l !== ""));
}

interface Manifest {
  problems: { total: number; labelled: number; skipped: { domain: string; problem: string; reason: string }[] };
}
const manifest = (out: string): Manifest => JSON.parse(readFileSync(join(out, "manifest.json"), "utf8")) as Manifest;

describe("a problem over a bound is skipped and recorded; the others' rows are kept", () => {
  // The rows of the small problem alone: what must survive beside the big one.
  let smallRows: string[] = [];
  it("reference: the small problem alone", async () => {
    const dir = join(tmp, "alone");
    mkdirSync(dir);
    writeFileSync(join(dir, "domain.pddl"), DOMAIN);
    writeFileSync(join(dir, "small.pddl"), gripper("small", 2));
    const out = join(tmp, "alone-out");
    const r = await run(["generate", "--problems", dir, "--out", out, "--workers", "1", "--quiet"]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    smallRows = shardLines(out);
    expect(smallRows.length).toBeGreaterThan(0);
  });

  it("a worker that runs out of its heap (--max-memory) does not end the run: its problem is recorded as skipped", async () => {
    // 30,000 balls: a 1 MB file whose parse alone needs more than the 64 MB heap a worker gets
    // from a 384 MB budget
    const dir = folder("oom", 30_000);
    const out = join(tmp, "oom-out");
    const r = await run(["generate", "--problems", dir, "--out", out, "--workers", "1", "--max-memory", "384", "--quiet"]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const m = manifest(out);
    expect(m.problems.total).toBe(2);
    expect(m.problems.labelled).toBe(1);
    expect(m.problems.skipped).toEqual([{ domain: "mini-gripper", problem: "big", reason: "memory limit: the worker ran out of its 64 MB heap" }]);
    expect(shardLines(out)).toEqual(smallRows);
  });

  it("grounding caps (--max-facts, --max-ops) skip a problem with the cap in its reason", async () => {
    const dir = folder("caps", 60);
    const facts = join(tmp, "caps-facts");
    const r = await run(["generate", "--problems", dir, "--out", facts, "--workers", "2", "--max-facts", "60", "--quiet"]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(manifest(facts).problems.skipped).toEqual([{ domain: "mini-gripper", problem: "big", reason: "grounding mini-gripper/big exceeds 60 facts" }]);
    expect(shardLines(facts)).toEqual(smallRows);
    const ops = join(tmp, "caps-ops");
    expect((await run(["generate", "--problems", dir, "--out", ops, "--workers", "1", "--max-ops", "100", "--quiet"])).code).toBe(0);
    expect(manifest(ops).problems.skipped.map((s) => s.reason)).toEqual(["grounding mini-gripper/big exceeds 100 operators"]);
    // the caps are settings of the dataset: another cap is another dataset
    const config = (o: string) => JSON.parse(readFileSync(join(o, "config.json"), "utf8")).config.limits;
    expect(config(facts)).toMatchObject({ max_facts: 60, max_ops: 1_000_000 });
    expect((await run(["generate", "--problems", dir, "--out", facts, "--workers", "1", "--quiet"])).stderr).toMatch(/other settings/);
  });
});

describe("bounds checked up front (exit 2, naming the flag)", () => {
  const dir = join(ROOT, "tests", "fixtures", "conformance", "per-problem-domains");
  it.each([
    [["--workers", "100000"], /--workers must be <= 256, got 100000/],
    [["--workers", "8", "--max-memory", "1024"], /--workers 8 needs --max-memory of at least 1280 MB/],
    [["--max-memory", "lots"], /--max-memory expects an integer/],
    [["--max-memory", "99999999"], /--max-memory 99999999 is more than this machine's memory \(\d+ MB\)/],
    [["--max-facts", "0"], /--max-facts must be >= 1/],
  ])("%s", async (flags, message) => {
    const out = join(tmp, "never");
    const r = await run(["generate", "--problems", dir, "--out", out, ...flags]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).toMatch(/^pddl2prm: error: [^\n]*\n$/); // one line
  });

  it("--count beyond 100,000 fails at once, before any problem is made", async () => {
    for (const count of ["99999999999999999999", "100001"]) {
      const r = await run(["generate", "--domain", "hanoi", "--count", count, "--out", join(tmp, "never")]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/--count must be <= 100000/);
    }
    const p = await run(["problems", "--domain", "hanoi", "--count", "99999999999999999999", "--out", join(tmp, "never")]);
    expect(p.code).toBe(2);
    expect(p.stderr).toMatch(/--count must be <= 100000/);
  });
});
