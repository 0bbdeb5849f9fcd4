/**
 * `pddl2prm score` on reasoning questions (`--format acp`): the dataset's own answers (free ones in
 * words, read back by the problem's parser) and the same in PDDL score 100% for every kind;
 * answers shuffled among questions of one kind and form score about chance; bad input is a
 * clear error.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Prng } from "../src/util/prng.js";
import { cliRunner } from "./cli-run.js";

const tmp = mkdtempSync(join(tmpdir(), "pddl2prm-acp-score-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const cli = cliRunner(tmp);
const dir = join(tmp, "acp");
type Row = { id: string; kind: string; form: string; answer: string; meta: { gold: { answer: string; accept: string[] | null; set: string[] | null } } };
let rows: Row[] = [];

beforeAll(async () => {
  const r = await cli(["generate", "--domain", "blocksworld,hanoi,spanner,npuzzle,sokoban,logistics", "--count", "6", "--format", "acp", "--out", dir, "--quiet"]);
  if (r.code !== 0) throw new Error(r.stderr);
  rows = readdirSync(join(dir, "data")).flatMap((n) => readFileSync(join(dir, "data", n), "utf8").split("\n").filter((l) => l.length > 0).map((l) => JSON.parse(l) as Row));
}, 300_000);

const write = (name: string, answers: { id: string; answer: string }[]): string => {
  const f = join(tmp, name);
  writeFileSync(f, answers.map((a) => JSON.stringify(a)).join("\n") + "\n");
  return f;
};
type Report = { n: number; accuracy: number; by_kind: Record<string, { n: number; accuracy: number }>; by_form: Record<string, { n: number; accuracy: number }> };

describe("score: reasoning questions", () => {
  it("the dataset's answers (free ones in words) score 100% for every kind", async () => {
    const r = await cli(["score", dir, write("gold.jsonl", rows.map((x) => ({ id: x.id, answer: x.answer }))), "--json"]);
    expect(r.code, r.stderr).toBe(0);
    const rep = JSON.parse(r.stdout) as Report;
    expect(rep.n).toBe(rows.length);
    expect(Object.keys(rep.by_kind).sort().length).toBeGreaterThanOrEqual(10);
    for (const [k, v] of Object.entries(rep.by_kind)) expect(v.accuracy, k).toBe(100);
  });

  it("free answers in PDDL, by letter or step number score 100% too; a wrong set scores 0", async () => {
    const free = rows.filter((x) => x.form === "free");
    const pddl = free.map((x) => ({ id: x.id, answer: x.meta.gold.accept !== null ? x.meta.gold.accept[0]! : x.meta.gold.set!.join("\n") }));
    const r = await cli(["score", dir, write("pddl.jsonl", [...rows.filter((x) => x.form !== "free").map((x) => ({ id: x.id, answer: x.answer })), ...pddl]), "--json"]);
    expect((JSON.parse(r.stdout) as Report).accuracy).toBe(100);
    // every set answer with one item left out is wrong
    const short = free.filter((x) => x.meta.gold.set !== null && x.meta.gold.set.length > 1).map((x) => ({ id: x.id, answer: x.meta.gold.set!.slice(1).join("\n") }));
    expect(short.length).toBeGreaterThan(10);
    const rest = rows.filter((x) => !short.some((s) => s.id === x.id)).map((x) => ({ id: x.id, answer: x.answer }));
    const r2 = await cli(["score", dir, write("short.jsonl", [...rest, ...short]), "--json"]);
    const rep2 = JSON.parse(r2.stdout) as Report;
    expect(rep2.accuracy).toBeCloseTo((100 * rest.length) / rows.length, 1);
  });

  it("answers shuffled among questions of one kind and form score about chance", async () => {
    const prng = new Prng(7, "shuffle");
    const groups = new Map<string, Row[]>();
    for (const x of rows) groups.set(`${x.kind}/${x.form}`, [...(groups.get(`${x.kind}/${x.form}`) ?? []), x]);
    const answers = [...groups.values()].flatMap((g) => {
      const a = prng.shuffle(g.map((x) => x.answer));
      return g.map((x, i) => ({ id: x.id, answer: a[i]! }));
    });
    const rep = JSON.parse((await cli(["score", dir, write("shuffled.jsonl", answers), "--json"])).stdout) as Report;
    expect(rep.by_form["yes-no"]!.accuracy).toBeGreaterThan(30);
    expect(rep.by_form["yes-no"]!.accuracy).toBeLessThan(70);
    expect(rep.by_form["choice"]!.accuracy).toBeLessThan(45);
    expect(rep.accuracy).toBeLessThan(50);
  });

  it("a missing answer, an answer without 'answer', --threshold: clear errors", async () => {
    const missing = await cli(["score", dir, write("missing.jsonl", rows.slice(1).map((x) => ({ id: x.id, answer: x.answer })))]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/no answer for 1 of \d+ questions/);
    const bad = await cli(["score", dir, write("bad.jsonl", [{ id: rows[0]!.id, prefer: "a" } as unknown as { id: string; answer: string }])]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/bad\.jsonl:1: expected 'answer'/);
    const t = await cli(["score", dir, write("t.jsonl", rows.map((x) => ({ id: x.id, answer: x.answer }))), "--threshold", "0.5"]);
    expect(t.code).toBe(2);
    expect(t.stderr).not.toMatch(/\n\s+at /);
  });
});
