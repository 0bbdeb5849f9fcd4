/**
 * `generate --format feedback` and `--format verifier` on every built-in domain: every row
 * re-derives from the PDDL the dataset ships (its actions replayed with `judge` give its
 * labels; its step text parses back to its actions), dialogues mix error types and recover,
 * verifier chains come in pairs that stop short of the goal, their lengths drawn alike.
 */
import { copyFileSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { stepRowId } from "../src/dataset/job.js";
import { REWARD, type Category } from "../src/label/types.js";
import { FEEDBACK_INSTRUCTION, feedbackTurns, type FeedbackRow, type FeedbackTurnRow } from "../src/products/feedback.js";
import { judgePlan } from "../src/products/judge-session.js";
import { processScore, type VerifierRow } from "../src/products/verifier.js";
import { BUILTIN_DOMAINS } from "../src/generators/index.js";
import { cliRunner, ROOT } from "./cli-run.js";
import { fileTempDir } from "./temp-dir.js";

const tmp = fileTempDir("products-");
const PROBLEMS = join(tmp, "problems");
for (const d of BUILTIN_DOMAINS) {
  mkdirSync(join(PROBLEMS, d.name), { recursive: true });
  for (const p of ["p0001", "p0002", "p0003"]) copyFileSync(join(ROOT, "problems", d.name, `${p}.pddl`), join(PROBLEMS, d.name, `${p}.pddl`));
}

const run = cliRunner(tmp);
async function generate(name: string, args: string[]): Promise<string> {
  const out = join(tmp, name);
  const r = await run(["generate", "--domain", "all", "--problems", PROBLEMS, "--seed", "5", "--quiet", "--out", out, ...args]);
  if (r.code !== 0) throw new Error(r.stderr);
  return out;
}

function readRows<T>(out: string): T[] {
  const dir = join(out, "data");
  return readdirSync(dir)
    .filter((n) => n.endsWith(".jsonl"))
    .sort()
    .flatMap((n) => readFileSync(join(dir, n), "utf8").split("\n").filter((l) => l.length > 0))
    .map((l) => JSON.parse(l) as T);
}

/** The domain and problem PDDL a dataset ships for a row. */
function pddlOf(out: string, domain: string, problem: string): [string, string] {
  return [readFileSync(join(out, "pddl", domain, "domain.pddl"), "utf8"), readFileSync(join(out, "pddl", domain, `${problem}.pddl`), "utf8")];
}

const dirs: Record<string, string> = {};
beforeAll(async () => {
  dirs["feedback"] = await generate("feedback", ["--format", "feedback", "--style", "dialogue", "--workers", "1"]);
  dirs["feedback-2"] = await generate("feedback-2", ["--format", "feedback", "--style", "dialogue", "--workers", "2"]);
  dirs["feedback-turns"] = await generate("feedback-turns", ["--format", "feedback", "--workers", "2"]);
  dirs["verifier"] = await generate("verifier", ["--format", "verifier", "--workers", "2"]);
  dirs["verifier-rrm"] = await generate("verifier-rrm", ["--format", "verifier", "--style", "rrm", "--error-def", "reward-le-0.25", "--workers", "2"]);
}, 600_000);

describe("--format feedback", () => {
  it("writes dialogues for every built-in domain, with unique ids and the same bytes for any --workers", () => {
    const rows = readRows<FeedbackRow>(dirs["feedback"]!);
    expect(new Set(rows.map((r) => r.domain))).toEqual(new Set(BUILTIN_DOMAINS.map((d) => d.name)));
    expect(new Set(rows.map((r) => r.id)).size).toBe(rows.length);
    expect(readRows<FeedbackRow>(dirs["feedback-2"]!)).toEqual(rows);
  });

  it("the default layout (--style turns) is the dialogues cut into a row per good turn", () => {
    const dialogues = readRows<FeedbackRow>(dirs["feedback"]!);
    const turns = readRows<FeedbackTurnRow>(dirs["feedback-turns"]!);
    expect(turns).toEqual(dialogues.flatMap(feedbackTurns));
    expect(turns.every((r) => r.completion[0]!.reward === 1 && r.meta.categories[r.meta.turn] === "optimal")).toBe(true);
    expect(turns.filter((r) => r.meta.recovery).length).toBeGreaterThan(0);
  });

  it("every dialogue re-derives from its PDDL: judge labels its steps as the row does, its step text reads back as its actions", () => {
    for (const r of readRows<FeedbackRow>(dirs["feedback"]!)) {
      const [d, p] = pddlOf(dirs["feedback"]!, r.domain, r.problem);
      const j = judgePlan(d, p, r.meta.actions);
      expect(j.steps.map((s) => s.category), r.id).toEqual(r.meta.categories);
      const turns = r.messages.filter((m) => m.role === "assistant");
      expect(turns.map((m) => m.reward)).toEqual(j.steps.map((s) => s.reward));
      const fromText = judgePlan(d, p, turns.map((m) => m.content));
      expect(fromText.steps.map((s) => s.action), r.id).toEqual(r.meta.actions);
      expect(j.cost).toBe(r.meta.cost);
      expect(j.goal_reached).toBe(r.meta.outcome === "goal");
      // user, then assistant and environment in turn; the environment answers every step
      expect(r.messages[0]!.content.endsWith(FEEDBACK_INSTRUCTION)).toBe(true);
      expect(r.messages.map((m) => m.role)).toEqual(r.messages.map((_, i) => (i % 2 === 0 ? "user" : "assistant")));
      // the mistakes are the steps that are not optimal, in order
      expect(r.meta.categories.filter((c) => c !== "optimal")).toEqual(r.meta.mistakes);
      r.messages.forEach((m, i) => {
        if (m.role !== "assistant") return;
        const feedback = r.messages[i + 1]!.content;
        const cat = r.meta.categories[(i - 1) / 2]!;
        if (cat === "non-executable") expect(feedback).toMatch(/Nothing has changed\.$/);
        expect(feedback).not.toMatch(/\bI\b|\bmy\b/);
      });
    }
  });

  it("mixes error types, recovers from them, and ends in a dead end only after the last mistake; a retry may be wrong too", () => {
    const rows = readRows<FeedbackRow>(dirs["feedback"]!);
    const kinds = new Set(rows.flatMap((r) => r.meta.mistakes));
    expect(kinds.size).toBeGreaterThanOrEqual(3);
    expect(rows.filter((r) => r.meta.outcome === "goal").length).toBeGreaterThan(rows.length / 2);
    for (const r of rows) {
      if (r.meta.outcome === "dead-end") expect(r.meta.categories.at(-1)).toBe("dead-end");
      expect(r.meta.categories.slice(0, -1)).not.toContain("dead-end");
    }
    // every turn may be a mistake, the one after a mistake too (else "after a mistake" would tell the label)
    const wrongAfterWrong = rows.filter((r) => r.meta.categories.some((c, i) => i > 0 && c !== "optimal" && r.meta.categories[i - 1] !== "optimal"));
    expect(wrongAfterWrong.length).toBeGreaterThan(0);
  });
});

describe("--format verifier", () => {
  for (const name of ["verifier", "verifier-rrm"]) {
    it(`${name}: rows re-derive from their PDDL; one correct and one wrong chain per problem, neither at the goal`, () => {
      const rows = readRows<VerifierRow>(dirs[name]!);
      expect(new Set(rows.map((r) => r.domain))).toEqual(new Set(BUILTIN_DOMAINS.map((d) => d.name)));
      const threshold = name === "verifier" ? 1 : 0.5;
      const pairs = new Map<string, VerifierRow[]>();
      const atGoal = new Map<string, boolean>();
      for (const r of rows) {
        const [d, p] = pddlOf(dirs[name]!, r.domain, r.problem);
        const j = judgePlan(d, p, r.meta.actions);
        expect(j.steps.map((s) => s.reward), r.id).toEqual(r.meta.step_rewards);
        const first = j.steps.findIndex((s) => s.reward < threshold);
        expect(r.label, r.id).toBe(first);
        expect(r.score).toBe(processScore(r.meta.step_rewards, r.label));
        // the chain in the prompt reads back as the actions
        const prompt = r.prompt as string;
        const chain = prompt.slice(prompt.indexOf("Proposed solution:\n") + 19).split("\n\n")[0]!.split("\n");
        expect(judgePlan(d, p, chain).steps.map((s) => s.action), r.id).toEqual(r.meta.actions);
        const target = r.completion as string;
        if (name === "verifier-rrm") {
          expect(target).toMatch(/^<think>\n/);
          expect(target.endsWith(`<score>${r.score.toFixed(2)}</score>`)).toBe(true);
        }
        // the verification stops at the first wrong step
        const checked = target.match(/^Step \d+: /gm)!.length;
        expect(checked).toBe(r.label < 0 ? r.meta.length : r.label + 1);
        if (r.label >= 0) expect(target).toContain(`step ${r.label + 1} is the first wrong step`);
        const key = `${r.domain}/${r.problem}`;
        pairs.set(key, [...(pairs.get(key) ?? []), r]);
        atGoal.set(r.id, j.goal_reached);
      }
      for (const [key, pair] of pairs) {
        expect(pair.length, key).toBe(2);
        expect(pair.map((r) => r.label >= 0).sort(), key).toEqual([false, true]);
        // neither reaching the goal nor length says anything: no chain reaches it and the two are equally long (issue 55)
        const ok = pair.find((r) => r.label < 0)!;
        const bad = pair.find((r) => r.label >= 0)!;
        expect(atGoal.get(ok.id), key).toBe(false);
        expect(atGoal.get(bad.id), key).toBe(false);
        expect(bad.meta.length, key).toBe(ok.meta.length);
      }
      const cats = new Set(rows.map((r) => r.meta.category).filter((c): c is Category => c !== null));
      for (const c of cats) expect(REWARD[c]).toBeLessThan(threshold);
      expect(cats.size).toBeGreaterThanOrEqual(2);
    });
  }
});

describe("row ids of labelled steps", () => {
  it("a recovery branch's steps get ids of their own", () => {
    const main = stepRowId("bw", "p1", { stateIndex: 3, candidateIndex: 2 });
    const branch = stepRowId("bw", "p1", { stateIndex: 3, candidateIndex: 2, branch: 1 });
    expect(main).toBe("bw/p1/t03/c2");
    expect(branch).toBe("bw/p1/b1/t03/c2");
  });
});
