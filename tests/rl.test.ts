/**
 * The RL environment (docs/rl.md): `generate --format rl` rows carry what the reward needs
 * without their folder; rewards equal `judge` on the same steps (library and CLI); the Python
 * glue (python/pddl2prm_rl.py) agrees with the CLI (when python3 is installed).
 */
import { needPython } from "./python.js";
import { runAudit } from "../src/audit/audit.js";
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { writeDataset } from "../src/dataset/write.js";
import { features } from "../src/dataset/features.js";
import { judgePlan } from "../src/products/judge-session.js";
import { extractPlan, vocabularyOf } from "../src/products/rl-extract.js";
import { pddlSha256, type RlRow } from "../src/products/rl.js";
import { rewardAnswer, RewardSession, type RewardResult } from "../src/products/rl-reward.js";
import { parseDomain, parseProblem } from "../src/pddl/index.js";
import { fileTempDir } from "./temp-dir.js";

const ROOT = join(import.meta.dirname, "..");
const CLI = join(ROOT, "dist", "src", "cli", "main.js");
const tmp = fileTempDir("rl-");

function readRows(dir: string): RlRow[] {
  return readdirSync(join(dir, "data"))
    .filter((f) => f.endsWith(".jsonl"))
    .sort()
    .flatMap((f) => readFileSync(join(dir, "data", f), "utf8").trim().split("\n").map((l) => JSON.parse(l) as RlRow));
}

/** Answers a model might give to a row: its plan in several layouts, broken ones, none. */
function answersFor(row: RlRow): string[] {
  const plan = row.answer.split("\n");
  const swapped = plan.length > 2 ? [plan[1]!, plan[0]!, ...plan.slice(2)] : [...plan].reverse();
  return [
    row.answer,
    `<think>first ${plan[0]}</think>\nFinal plan:\n${plan.map((a, i) => `${i + 1}. ${a}`).join("\n")}`,
    `\`\`\`\n${plan.slice(0, -1).join("\n")}\n\`\`\``,
    swapped.map((a, i) => `Step ${i + 1}: ${a}`).join("\n"),
    [...plan.slice(0, 2), plan[0]!, ...plan.slice(2)].join("\n"),
    `${plan[0]}\n(no-such-action x)\n${plan.slice(1).join("\n")}`,
    "I do not know.",
  ];
}

describe("generate --format rl", () => {
  const out = join(tmp, "rl");
  const chat = join(tmp, "rl-chat");

  it("writes one self-contained row per problem, with the card's columns", async () => {
    await writeDataset({ domain: ["blocksworld", "ferry", "sokoban"], count: 4, seed: 3, workers: 1, out, format: "rl" });
    const rows = readRows(out);
    expect(rows).toHaveLength(12);
    const cols = features("rl", false).map((f) => f.name);
    for (const r of rows) {
      expect(Object.keys(r)).toEqual(cols);
      expect(typeof r.prompt).toBe("string");
      expect(r.prompt as string).toMatch(/in PDDL: one action per line/);
      expect(r.step_syntax).toBe("pddl");
      expect(r.pddl_sha256).toBe(pddlSha256(r.domain_pddl, r.problem_pddl));
      const truth = JSON.parse(r.reward_model.ground_truth) as { domain: string; problem: string; optimal_cost: number };
      expect(truth).toEqual({ domain: r.domain_pddl, problem: r.problem_pddl, optimal_cost: r.optimal_cost });
      expect(r.extra_info.optimal_cost).toBe(r.optimal_cost);
      // the reference plan scores 1, from the row alone
      const res = rewardAnswer(r.domain_pddl, r.problem_pddl, r.answer);
      expect(res.valid).toBe(true);
      expect(res.optimal_cost).toBe(r.optimal_cost);
      expect(res.reward).toBe(1);
    }
    const card = readFileSync(join(out, "README.md"), "utf8");
    expect(card).toMatch(/pddl2prm RL prompts/);
    expect(card).not.toMatch(/\| category \|/);
    // no labelled step to audit: one clear line, not a parse error about row ids
    await expect(runAudit(out)).rejects.toThrow(/--format rl rows are prompts, not labelled steps: there is nothing to audit/);
  });

  it("--chat writes the prompt as one user message; --style text asks for step text", async () => {
    await writeDataset({ domain: ["ferry"], count: 2, seed: 3, workers: 1, out: chat, format: "rl", chat: true, style: "text" });
    for (const r of readRows(chat)) {
      expect(Array.isArray(r.prompt)).toBe(true);
      const m = r.prompt as Array<{ role: string; content: string }>;
      expect(m).toHaveLength(1);
      expect(m[0]!.role).toBe("user");
      expect(m[0]!.content).toMatch(/"Step k: I <what I do>\."/);
      expect(r.step_syntax).toBe("text");
    }
  });

  it("rewards equal judge on the same steps (library)", () => {
    const session = new RewardSession();
    let n = 0;
    for (const row of readRows(out)) {
      const vocab = vocabularyOf(parseDomain(row.domain_pddl), parseProblem(row.problem_pddl, "p", parseDomain(row.domain_pddl)));
      for (const answer of answersFor(row)) {
        const r: RewardResult = session.reward({ domain: row.domain_pddl, problem: row.problem_pddl, completion: answer });
        const extraction = extractPlan(answer, vocab);
        if (r.extraction.mode === "none") {
          expect(r.step_rewards).toEqual([0]);
          expect(r.reward).toBe(0);
          expect(r.steps[0]!.error).toMatch(/^no plan found/);
          continue;
        }
        // the steps judged: the extracted ones (prose candidates: those the judge reads as actions)
        const steps = r.extraction.mode === "prose" ? r.steps.map((s) => s.text) : extraction.steps.map((s) => s.text);
        const j = judgePlan(row.domain_pddl, row.problem_pddl, steps);
        n++;
        expect(r.step_rewards).toEqual(j.steps.map((s) => s.reward));
        expect(r.steps.map((s) => s.category)).toEqual(j.steps.map((s) => s.category));
        expect(r.steps.map((s) => s.action)).toEqual(j.steps.map((s) => s.action));
        expect([r.valid, r.goal_reached, r.cost, r.optimal_cost, r.remaining_cost, r.first_error, r.first_rejected]).toEqual([
          j.valid, j.goal_reached, j.cost, j.optimal_cost, j.remaining_cost, j.first_error, j.first_rejected,
        ]);
        // the documented mix
        const outcome = j.valid ? j.optimal_cost! / j.cost : 0;
        const progress = j.remaining_cost === null ? 0 : Math.max(0, (j.optimal_cost! - j.remaining_cost) / j.optimal_cost!);
        const mean = j.steps.reduce((a, s) => a + s.reward, 0) / j.steps.length;
        expect(r.outcome).toBeCloseTo(outcome, 6);
        expect(r.progress).toBeCloseTo(Math.min(1, progress), 6);
        expect(r.reward).toBeCloseTo(0.5 * outcome + 0.5 * mean * Math.min(1, progress), 5);
      }
    }
    expect(n).toBeGreaterThan(60);
  });

  it("reward --jsonl equals judge --jsonl on the same steps (CLI)", () => {
    const rows = readRows(out).slice(0, 6);
    const reqs: string[] = [];
    const judgeReqs: string[] = [];
    for (const row of rows) {
      const vocab = vocabularyOf(parseDomain(row.domain_pddl), parseProblem(row.problem_pddl, "p", parseDomain(row.domain_pddl)));
      for (const answer of answersFor(row)) {
        const steps = extractPlan(answer, vocab).steps.map((s) => s.text);
        if (steps.length === 0) continue;
        reqs.push(JSON.stringify({ id: reqs.length, domain: row.domain_pddl, problem: row.problem_pddl, completion: answer }));
        judgeReqs.push(JSON.stringify({ id: judgeReqs.length, domain: row.domain_pddl, problem: row.problem_pddl, steps }));
      }
    }
    reqs.push("not json", JSON.stringify({ id: "x", domain: "blocksworld", completion: "(a)" }));
    const rr = spawnSync("node", [CLI, "reward", "--jsonl"], { input: reqs.join("\n") + "\n", encoding: "utf8" });
    const jr = spawnSync("node", [CLI, "judge", "--jsonl"], { input: judgeReqs.join("\n") + "\n", encoding: "utf8" });
    expect(rr.status).toBe(0);
    expect(jr.status).toBe(0);
    const rOut = rr.stdout.trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
    const jOut = jr.stdout.trim().split("\n").map((l) => JSON.parse(l) as { steps: Array<{ reward: number }>; valid: boolean; cost: number });
    expect(rOut).toHaveLength(reqs.length);
    for (let i = 0; i < jOut.length; i++) {
      expect(rOut[i]!["step_rewards"]).toEqual(jOut[i]!.steps.map((s) => s.reward));
      expect(rOut[i]!["valid"]).toBe(jOut[i]!.valid);
      expect(rOut[i]!["cost"]).toBe(jOut[i]!.cost);
    }
    expect(rOut.at(-2)!["error"]).toMatch(/^not JSON/);
    expect(rOut.at(-1)).toEqual({ id: "x", error: "the request names no problem" });
  });

  it("reward: one line and exit 1 for a bad problem, exit 2 for bad usage", () => {
    const bad = spawnSync("node", [CLI, "reward", "blocksworld", "p9999", "-"], { input: "(a)", encoding: "utf8" });
    expect(bad.status).toBe(1);
    expect(bad.stderr.trim().split("\n")).toHaveLength(1);
    expect(bad.stderr).toMatch(/^pddl2prm: error: problem 'p9999'/);
    const usage = spawnSync("node", [CLI, "reward", "--outcome-weight", "2", "blocksworld", "p0001", "-"], { input: "", encoding: "utf8" });
    expect(usage.status).toBe(2);
    const ok = spawnSync("node", [CLI, "reward", "blocksworld", "p0002", "-", "--json"], { input: "1. (unstack b4 b3)\n2. (put-down b4)\n", encoding: "utf8" });
    expect(ok.status).toBe(0);
    expect((JSON.parse(ok.stdout) as RewardResult).step_rewards).toEqual([1, 1]);
  });

  it("the Python glue agrees with the CLI (python3, standard library)", { timeout: 600_000 }, () => {
    if (!needPython()) return; // no python3 here (and CI does not require it): nothing to check
    const r = spawnSync("python3", [join(ROOT, "tests", "python", "test_pddl2prm_rl.py"), out], {
      encoding: "utf8",
      env: { ...process.env, PDDL2PRM: `node ${CLI}` },
    });
    expect(r.stderr).toMatch(/\nOK\s*$/);
    expect(r.status).toBe(0);
  });
});
