/**
 * `parse`, `ground` and `solve` stop at their --time-limit counted from the start (parsing
 * included) or at --max-memory, with one line and exit 1, never an out-of-memory crash
 * (issue 37, finding 9). The problem is made here: 1,500 places and a million roads (14 MB).
 */
import { mkdtempSync, rmSync, writeFileSync, createWriteStream } from "node:fs";
import { once } from "node:events";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cliRunner } from "./cli-run.js";

const tmp = mkdtempSync(join(tmpdir(), "pddl2prm-bounds-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const run = cliRunner(tmp);
const DOMAIN = join(tmp, "roads.pddl");
const BIG = join(tmp, "big.pddl");

beforeAll(async () => {
  writeFileSync(DOMAIN, `(define (domain roads) (:requirements :strips) (:predicates (at ?x) (road ?x ?y))
    (:action go :parameters (?x ?y) :precondition (and (at ?x) (road ?x ?y)) :effect (and (at ?y) (not (at ?x)))))`);
  const n = 1500;
  const out = createWriteStream(BIG);
  out.write(`(define (problem big) (:domain roads) (:objects ${Array.from({ length: n }, (_, i) => `c${i}`).join(" ")}) (:init (at c0)\n`);
  for (let i = 0; i < n; i++) {
    let chunk = "";
    for (let j = i + 1; j < Math.min(n, i + 700); j++) chunk += `(road c${i} c${j})\n`;
    if (!out.write(chunk)) await once(out, "drain");
  }
  out.end(`) (:goal (at c${n - 1})))\n`);
  await once(out, "close");
});

const oneLine = (r: { code: number | null; stderr: string }, re: RegExp) => {
  expect(r.code).toBe(1);
  expect(r.stderr).toMatch(re);
  expect(r.stderr.trim().split("\n")).toHaveLength(1);
};

describe("bounded parse, ground and solve", () => {
  it("--time-limit counts parsing: a parse longer than it stops there, one line", async () => {
    const t0 = Date.now();
    oneLine(await run(["parse", DOMAIN, BIG, "--time-limit", "0.5"]), /^pddl2prm: error: parse: the time limit of 0\.5 s is reached \(parsing included\)\n$/);
    expect(Date.now() - t0).toBeLessThan(8000);
  }, 30_000);

  it("--max-memory: over it, one line naming the bound, not a crash; solve --json still prints its JSON", async () => {
    oneLine(await run(["ground", DOMAIN, BIG, "--max-memory", "128"]), /^pddl2prm: error: ground: needs more than 128 MB of memory \(--max-memory 128\)\n$/);
    const s = await run(["solve", DOMAIN, BIG, "--max-memory", "128", "--json"]);
    oneLine(s, /solve: needs more than 128 MB/);
    expect(JSON.parse(s.stdout)).toMatchObject({ solvable: false, status: "limit" });
  }, 60_000);

  it("a bad bound is bad usage (exit 2)", async () => {
    const r = await run(["parse", DOMAIN, "--max-memory", "10"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--max-memory must be >= 64/);
  });
});
