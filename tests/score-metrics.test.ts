import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { f1Score, parseGold, parsePredictions, predictedFirstError, score, scoreAll, tuneThreshold, matchPredictions } from "../src/products/score.js";
import { UserError } from "../src/pddl/errors.js";
import type { ProcessBenchRow } from "../src/products/processbench.js";
import { rowsOf } from "./pairs-helpers.js";

const ROOT = resolve(__dirname, "..");
const FIX = join(ROOT, "tests", "fixtures", "eval");
const GOLD = join(FIX, "gold.jsonl");
const PRED = join(FIX, "pred.jsonl");
const CLI = join(ROOT, "dist", "src", "cli", "main.js");
const tmp = mkdtempSync(join(tmpdir(), "pddl2prm-score-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function file(name: string, lines: unknown[]): string {
  const p = join(tmp, name);
  writeFileSync(p, lines.map((l) => (typeof l === "string" ? l : JSON.stringify(l))).join("\n") + "\n");
  return p;
}

function cli(args: string[]) {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: "utf8" });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe("score arithmetic", () => {
  it("reproduces the paper's F1: error 72.0 and correct 96.4 give 82.4", () => {
    expect(f1Score(72.0, 96.4)).toBeCloseTo(82.4, 1);
    expect(f1Score(0, 100)).toBe(0);
    expect(f1Score(0, 0)).toBe(0);
    // The same through whole chains: 18 of 25 error chains and 241 of 250 correct chains right.
    const gold: unknown[] = [];
    const pred: unknown[] = [];
    for (let i = 0; i < 25; i++) {
      gold.push({ id: `e${i}`, problem: "P", steps: ["a", "b", "c"], label: 1 });
      pred.push({ id: `e${i}`, step_scores: i < 18 ? [0.9, 0.1, 0.9] : [0.9, 0.9, 0.1] });
    }
    for (let i = 0; i < 250; i++) {
      gold.push({ id: `c${i}`, problem: "P", steps: ["a", "b"], label: -1 });
      pred.push({ id: `c${i}`, step_scores: i < 241 ? [0.9, 0.9] : [0.2, 0.9] });
    }
    const r = score(file("paper-gold.jsonl", gold), file("paper-pred.jsonl", pred));
    expect(r.chains!.error_acc).toBe(72);
    expect(r.chains!.correct_acc).toBe(96.4);
    expect(r.chains!.f1).toBe(82.43);
    expect(r.chains!.mse).toBeNull();
  });

  it("first error = first step with score < threshold", () => {
    expect(predictedFirstError([0.9, 0.5, 0.1], 0.5)).toBe(2);
    expect(predictedFirstError([0.9, 0.5, 0.1], 0.51)).toBe(1);
    expect(predictedFirstError([1, 1], 0.5)).toBe(-1);
  });

  it("hand-computed fixture at the default threshold 0.5", () => {
    const r = score(GOLD, PRED);
    expect(r.threshold).toBe(0.5);
    expect(r.threshold_source).toBe("default");
    const c = r.chains!;
    expect([c.n, c.n_error, c.n_correct]).toEqual([4, 2, 2]);
    expect([c.error_acc, c.correct_acc, c.f1]).toEqual([50, 50, 50]);
    expect(c.mse).toBeCloseTo(1.1825 / 14, 6);
    expect(c.mse_steps).toBe(14);
    expect(c.by_category).toEqual({ "non-executable": { n: 1, error_acc: 100 }, suboptimal: { n: 1, error_acc: 0 } });
    expect(c.by_length["1-4"]).toEqual({ n_error: 1, n_correct: 2, error_acc: 100, correct_acc: 50, f1: 66.67 });
    expect(c.by_length["5-8"]).toEqual({ n_error: 1, n_correct: 0, error_acc: 0, correct_acc: null, f1: null });
    expect(c.by_domain["d1"]).toEqual({ n_error: 1, n_correct: 1, error_acc: 100, correct_acc: 0, f1: 0 });
    const p = r.pairs!;
    expect(p.n).toBe(2);
    expect(p.accuracy).toBe(50);
    expect(p.by_level).toEqual({ step: { n: 1, accuracy: 100 }, trajectory: { n: 1, accuracy: 0 } });
    expect(p.by_group).toEqual({ backtracking: { n: 1, accuracy: 100 }, drop: { n: 1, accuracy: 0 } });
  });

  it("threshold 0.7 changes the hand-computed figures", () => {
    const c = score(GOLD, PRED, { threshold: 0.7 }).chains!;
    expect([c.error_acc, c.correct_acc, c.f1]).toEqual([100, 50, 66.67]);
  });

  it("constant baselines: every step 1.0 gets error 0 / correct 100; every step 0.0 the reverse", () => {
    const text = `${[
      { id: "a", problem: "P", steps: ["x", "y"], label: 1 },
      { id: "b", problem: "P", steps: ["x", "y"], label: -1 },
      { id: "c", problem: "P", steps: ["x", "y", "z"], label: 2 },
    ].map((o) => JSON.stringify(o)).join("\n")}\n`;
    const gold = parseGold("g", text);
    const ones = gold.map((g) => ({ step_scores: Array(g.kind === "chain" ? g.steps : 0).fill(1.0) as number[] }));
    const zeros = gold.map((g) => ({ step_scores: Array(g.kind === "chain" ? g.steps : 0).fill(0.0) as number[] }));
    const r1 = scoreAll(gold, ones, 0.5).chains!;
    expect([r1.error_acc, r1.correct_acc, r1.f1]).toEqual([0, 100, 0]);
    const r0 = scoreAll(gold, zeros, 0.5).chains!;
    expect([r0.error_acc, r0.correct_acc, r0.f1]).toEqual([0, 0, 0]);
  });

  it("tuning picks a threshold whose F1 is the best over a fine grid", () => {
    const gold = parseGold(GOLD, readFileSync(GOLD, "utf8"));
    const preds = matchPredictions(gold, parsePredictions(PRED, readFileSync(PRED, "utf8")), PRED);
    const t = tuneThreshold(gold, preds);
    let best = 0;
    for (let x = 0; x <= 1.0001; x += 0.01) best = Math.max(best, scoreAll(gold, preds, x).chains!.f1 ?? 0);
    expect(t.f1).toBeCloseTo(best, 2);
    expect(scoreAll(gold, preds, t.threshold).chains!.f1).toBeCloseTo(best, 2);
    const r = score(GOLD, PRED, { tune: { gold: GOLD, pred: PRED } });
    expect(r.threshold_source).toBe("tuned");
    expect(r.threshold).toBe(t.threshold);
  });
});

describe("score on generated chains", () => {
  it("baselines: all 1.0 -> error 0 / correct 100; gold rewards at threshold 1 -> 100 / 100", () => {
    const rows = [...rowsOf<ProcessBenchRow>("hanoi", "p0001", "processbench", 1.0).rows, ...rowsOf<ProcessBenchRow>("ferry", "p0001", "processbench", 1.0).rows];
    const gold = file("gen-gold.jsonl", rows);
    const ones = file("gen-ones.jsonl", rows.map((r) => ({ id: r.id, step_scores: r.steps.map(() => 1.0) })));
    const oracle = file("gen-oracle.jsonl", rows.map((r) => ({ id: r.id, step_scores: r.meta.step_rewards })));
    const a = score(gold, ones).chains!;
    expect([a.error_acc, a.correct_acc, a.f1]).toEqual([0, 100, 0]);
    const b = score(gold, oracle, { threshold: 1.0 }).chains!;
    expect([b.error_acc, b.correct_acc, b.f1, b.mse]).toEqual([100, 100, 100, 0]);
  });
});

describe("score input errors", () => {
  it("names file and line for malformed lines", () => {
    const bad = file("bad.jsonl", ['{"id":"c1","step_scores":[1,1,1]}', "{nope"]);
    expect(() => score(GOLD, bad)).toThrow(UserError);
    expect(() => score(GOLD, bad)).toThrow(`${bad}:2: invalid JSON`);
    const noId = file("noid.jsonl", ['{"step_scores":[1]}']);
    expect(() => score(GOLD, noId)).toThrow(`${noId}:1: missing string field 'id'`);
    const dup = file("dup.jsonl", ['{"id":"c1","step_scores":[1,1,1]}', '{"id":"c1","step_scores":[1,1,1]}']);
    expect(() => score(GOLD, dup)).toThrow(`${dup}:2: duplicate id 'c1'`);
    const nan = file("nan.jsonl", ['{"id":"c1","step_scores":[1,"x",1]}']);
    expect(() => score(GOLD, nan)).toThrow(`${nan}:1: 'step_scores' must be an array of finite numbers`);
    const badGold = file("badgold.jsonl", ['{"id":"g","problem":"P","steps":["a"],"label":3}']);
    expect(() => score(badGold, PRED)).toThrow(`${badGold}:1: 'label' must be -1 or a step index below 1, got 3`);
  });

  it("reports ids missing from PRED and wrong lengths", () => {
    const some = file("some.jsonl", ['{"id":"c1","step_scores":[1,1,1]}']);
    expect(() => score(GOLD, some)).toThrow(/no prediction for 5 of 6 gold ids \(first: 'c2'\)/);
    const short = file("short.jsonl", [
      '{"id":"c1","step_scores":[1,1]}', '{"id":"c2","step_scores":[1,1,1,1]}', '{"id":"c3","step_scores":[1,1,1,1,1]}',
      '{"id":"c4","step_scores":[1,1]}', '{"id":"p1","prefer":"a"}', '{"id":"p2","prefer":"b"}',
    ]);
    expect(() => score(GOLD, short)).toThrow(/id 'c1' has 2 step scores, the gold chain has 3 steps/);
  });

  it("reports prediction ids that are not in the gold rows (report field, warning on stderr)", () => {
    const extra = file("extra.jsonl", [...readFileSync(PRED, "utf8").trim().split("\n"), '{"id":"zz1","step_scores":[1]}', '{"id":"zz2","prefer":"a"}']);
    expect(score(GOLD, extra).unmatched_predictions).toEqual({ count: 2, first: ["zz1", "zz2"] });
    expect(score(GOLD, PRED).unmatched_predictions).toEqual({ count: 0, first: [] });
    const r = cli(["score", GOLD, extra, "--json"]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).unmatched_predictions.count).toBe(2);
    expect(r.stderr).toBe(`pddl2prm: warning: ${extra}: 2 prediction ids are not in the gold rows, ignored (first: 'zz1', 'zz2')\n`);
    expect(cli(["score", GOLD, PRED]).stderr).toBe("");
  });

  it("CLI: table, --json, exit codes", () => {
    const t = cli(["score", GOLD, PRED]);
    expect(t.code, t.stderr).toBe(0);
    expect(t.stdout).toMatch(/error_acc\s+correct_acc\s+f1/);
    expect(t.stdout).toMatch(/preference pairs: 2, accuracy 50\.0/);
    const j = cli(["score", GOLD, PRED, "--json", "--threshold", "0.7"]);
    expect(j.code).toBe(0);
    const obj = JSON.parse(j.stdout) as { threshold: number; chains: { f1: number } };
    expect(obj.threshold).toBe(0.7);
    expect(obj.chains.f1).toBe(66.67);
    const missing = cli(["score", GOLD, join(tmp, "nope.jsonl")]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^pddl2prm: error: .*nope\.jsonl: no such file\n$/);
    const both = cli(["score", GOLD, PRED, "--threshold", "0.5", "--tune", GOLD, PRED]);
    expect(both.code).toBe(2);
    const tune1 = cli(["score", GOLD, PRED, "--tune", GOLD]);
    expect(tune1.code).toBe(2);
    expect(tune1.stderr).toMatch(/--tune expects two files/);
    const badT = cli(["score", GOLD, PRED, "--threshold", "x"]);
    expect(badT.code).toBe(2);
  });
});
