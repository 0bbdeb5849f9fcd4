/**
 * The RL answer extractor (src/products/rl-extract.ts, docs/rl.md) on a corpus of answers as
 * models write them: hand-written ones, and the plans of built-in problems (optimal and mutated:
 * a step dropped, two swapped, an unknown object, a wrong action name) wrapped in the layouts
 * models use (prose, code fences, numbered and bulleted lists, "Step k:", <think> and <answer>
 * blocks, calls, bare names, step text, mixed PDDL and text, repeated and empty lines, trailing
 * explanations, a corrected second attempt). Every plan a careful reader accepts is judged as that
 * plan; answers without one get a reason; nothing throws.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BUILTIN_DOMAINS, builtinDomainFile, builtinProblemsDir } from "../src/generators/index.js";
import { optimalWalk } from "../src/label/walk.js";
import { loadTemplates } from "../src/nl/index.js";
import { parseDomain, parseProblem } from "../src/pddl/index.js";
import { createJudgeTask, type JudgeTask } from "../src/products/judge.js";
import { extractPlan, vocabularyOf } from "../src/products/rl-extract.js";
import { RewardSession } from "../src/products/rl-reward.js";
import { parseGroundAction } from "../src/task/index.js";

interface Case {
  name: string;
  domain: string;
  problem: string;
  answer: string;
  /** The plan a careful reader takes from the answer (PDDL; null: a step that names no action), or null: no plan. */
  plan: (string | null)[] | null;
}

const session = new RewardSession();

function judgeTask(d: string, p: string): JudgeTask {
  const df = builtinDomainFile(d);
  const domain = parseDomain(readFileSync(df, "utf8"), df);
  const pf = join(builtinProblemsDir(d), `${p}.pddl`);
  return createJudgeTask(domain, parseProblem(readFileSync(pf, "utf8"), pf, domain), { templates: loadTemplates(d) });
}

/** A deterministic PRNG (mulberry32) for the mutations. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const upperFirst = (s: string): string => s[0]!.toUpperCase() + s.slice(1);

/** The layouts a plan is written in, each with what a careful reader takes from it. */
function wrappers(jt: JudgeTask, plan: string[], r: () => number): Array<{ name: string; answer: string; plan: (string | null)[] }> {
  const text = (a: string): string => {
    const g = parseGroundAction(jt.task, a);
    return g === null ? a : jt.renderer.actionText(g.schema, g.args, null);
  };
  const call = (a: string): string => {
    const [name, ...args] = a.slice(1, -1).split(" ");
    return `${name}(${args.join(", ")})`;
  };
  const bare = (a: string): string => a.slice(1, -1);
  const decoy = plan.length > 1 ? [plan[1]!, plan[0]!] : plan;
  const out: Array<{ name: string; answer: string; plan: (string | null)[] }> = [
    { name: "plain lines", answer: plan.join("\n"), plan },
    { name: "numbered", answer: `Here is the plan:\n\n${plan.map((a, i) => `${i + 1}. ${a}`).join("\n")}\n`, plan },
    { name: "numbered with paren", answer: plan.map((a, i) => `${i + 1}) ${a}`).join("\n"), plan },
    { name: "Step k:", answer: `To reach the goal I will do the following.\n${plan.map((a, i) => `Step ${i + 1}: ${a}`).join("\n")}`, plan },
    { name: "bold Step k and backticks", answer: plan.map((a, i) => `**Step ${i + 1}:** \`${a}\``).join("\n\n"), plan },
    { name: "bullets", answer: `The actions:\n${plan.map((a) => `- ${a}`).join("\n")}\nDone.`, plan },
    {
      name: "code fence in prose",
      answer: `Let me think about the state. The goal needs several moves.\n\n\`\`\`pddl\n${plan.join("\n")}\n\`\`\`\n\nThis plan has ${plan.length} steps and reaches the goal.`,
      plan,
    },
    {
      name: "think block with a decoy",
      answer: `<think>\nMaybe:\n${decoy.join("\n")}\nNo, that fails. Let me redo it.\n</think>\n${plan.join("\n")}`,
      plan,
    },
    { name: "lone </think>", answer: `so the first move is ${decoy[0] ?? ""}\n</think>\n\n${plan.map((a, i) => `${i + 1}. ${a}`).join("\n")}`, plan },
    { name: "answer tags", answer: `I reason about it: ${decoy.join(" then ")} would not work.\n<answer>\n${plan.join("\n")}\n</answer>`, plan },
    { name: "calls", answer: plan.map((a, i) => `${i + 1}. ${call(a)}`).join("\n"), plan },
    { name: "bare names", answer: plan.map(bare).join("\n"), plan },
    { name: "bare names capitalised with period", answer: plan.map((a, i) => `${i + 1}. ${upperFirst(bare(a))}.`).join("\n"), plan },
    { name: "upper case", answer: plan.map((a) => a.toUpperCase()).join("\n"), plan },
    { name: "comments after actions", answer: plan.map((a, i) => `${a} ; step ${i + 1}`).join("\n") + "\n; cost = " + plan.length, plan },
    { name: "explanation after each step", answer: plan.map((a, i) => `${i + 1}. ${a} - this is step ${i + 1} of the plan`).join("\n"), plan },
    { name: "empty and CRLF lines", answer: plan.map((a) => `${a}\r\n\r\n`).join("") + "\r\n", plan },
    {
      name: "trailing explanation list",
      answer: `Plan:\n${plan.map((a, i) => `${i + 1}. ${a}`).join("\n")}\n\nWhy this works:\n- the first step clears the way\n- every later step follows the rules`,
      plan,
    },
    {
      name: "first attempt then final plan",
      answer: `Attempt:\n${decoy.map((a, i) => `${i + 1}. ${a}`).join("\n")}\nWait, that is wrong.\n\nFinal plan:\n${plan.map((a, i) => `${i + 1}. ${a}`).join("\n")}`,
      plan,
    },
    {
      name: "numbering restarts with the corrected plan",
      answer: `${decoy.map((a, i) => `${i + 1}. ${a}`).join("\n")}\nHmm, let me fix the order.\n${plan.map((a, i) => `${i + 1}. ${a}`).join("\n")}`,
      plan,
    },
    { name: "inline in prose", answer: `I would ${plan.join(", then ")}, and that reaches the goal.`, plan },
    { name: "one line of actions", answer: `Plan: ${plan.join(" ")}`, plan },
    { name: "step text", answer: plan.map((a, i) => `Step ${i + 1}: I ${text(a)}.`).join("\n"), plan },
    { name: "step text without marker", answer: `My plan:\n${plan.map((a) => `I ${text(a)}.`).join("\n")}`, plan },
    {
      name: "mixed PDDL and text",
      answer: plan.map((a, i) => (i % 2 === 0 ? `${i + 1}. ${a}` : `${i + 1}. ${upperFirst(text(a))}.`)).join("\n"),
      plan,
    },
  ];
  // a repeated line is a step the model wrote twice (the second is judged as it is)
  if (plan.length > 0) {
    const k = Math.floor(r() * plan.length);
    const rep = [...plan.slice(0, k + 1), plan[k]!, ...plan.slice(k + 1)];
    out.push({ name: "repeated line", answer: rep.join("\n"), plan: rep });
  }
  return out;
}

/** Mutations of an optimal plan: what a model gets wrong. */
function mutations(jt: JudgeTask, plan: string[], r: () => number): Array<{ name: string; plan: string[]; expected: (string | null)[] }> {
  const out: Array<{ name: string; plan: string[]; expected: (string | null)[] }> = [];
  if (plan.length >= 2) {
    const k = Math.floor(r() * plan.length);
    const dropped = plan.filter((_, i) => i !== k);
    out.push({ name: "dropped step", plan: dropped, expected: dropped });
    const j = Math.floor(r() * (plan.length - 1));
    const swapped = [...plan];
    [swapped[j], swapped[j + 1]] = [swapped[j + 1]!, swapped[j]!];
    out.push({ name: "swapped steps", plan: swapped, expected: swapped });
  }
  if (plan.length >= 1) {
    const k = Math.floor(r() * plan.length);
    const [name, ...args] = plan[k]!.slice(1, -1).split(" ");
    if (args.length > 0) {
      const bad = [...plan];
      bad[k] = `(${[name, ...args.slice(0, -1), "zz9"].join(" ")})`;
      // an unknown object: the step is judged unparseable, with the reason
      out.push({ name: "unknown object", plan: bad, expected: plan.map((a, i) => (i === k ? null : a)) });
    }
    const wrong = [...plan];
    wrong[k] = `(teleport ${args.join(" ")})`.replace(" )", ")");
    if (args.length > 0) out.push({ name: "unknown action", plan: wrong, expected: plan.map((a, i) => (i === k ? null : a)) });
  }
  void jt;
  return out;
}

function generatedCases(): Case[] {
  const cases: Case[] = [];
  for (const b of BUILTIN_DOMAINS) {
    for (const p of ["p0001", "p0002"]) {
      const jt = judgeTask(b.name, p);
      const plan = optimalWalk(jt.ctx, jt.task.init, null).ops.map((op) => jt.task.opNames[op]!);
      const r = rng(b.name.length * 1000 + Number(p.slice(1)));
      // the optimal plan in every layout
      for (const w of wrappers(jt, plan, r)) cases.push({ name: `${b.name}/${p} optimal, ${w.name}`, domain: b.name, problem: p, answer: w.answer, plan: w.plan });
      // mutated plans in a few layouts picked by the PRNG (text layouts need every step to be an action)
      for (const m of mutations(jt, plan, r)) {
        const ws = wrappers(jt, m.plan, r).filter((w) => !/text|inline|repeated|bare|calls/.test(w.name) || !m.expected.includes(null));
        for (let n = 0; n < 3; n++) {
          const w = ws[Math.floor(r() * ws.length)]!;
          cases.push({ name: `${b.name}/${p} ${m.name}, ${w.name}`, domain: b.name, problem: p, answer: w.answer, plan: m.expected.includes(null) ? m.expected : w.plan });
        }
      }
    }
  }
  return cases;
}

/** Hand-written answers (blocksworld p0002: optimal (unstack b4 b3) (put-down b4) ...). */
const HAND: Case[] = [
  { name: "empty", domain: "blocksworld", problem: "p0002", answer: "", plan: null },
  { name: "whitespace", domain: "blocksworld", problem: "p0002", answer: "  \n\n \t \n", plan: null },
  { name: "refusal", domain: "blocksworld", problem: "p0002", answer: "I'm sorry, I cannot solve this problem.", plan: null },
  { name: "prose without actions", domain: "blocksworld", problem: "p0002", answer: "First move the top block away, then rebuild the towers.\nThat should work.", plan: null },
  { name: "unclosed think", domain: "blocksworld", problem: "p0002", answer: "<think>\nLet me see. (unstack b4 b3) first, then", plan: null },
  { name: "only a heading", domain: "blocksworld", problem: "p0002", answer: "Final plan:", plan: null },
  { name: "binary junk", domain: "blocksworld", problem: "p0002", answer: "\u0000\u0001((((\n))))\n```\n```\n- \n1.\n", plan: null },
  { name: "parenthetical note only", domain: "blocksworld", problem: "p0002", answer: "(Note: the hand must be empty.)", plan: null },
  { name: "step label on its own line", domain: "blocksworld", problem: "p0002", answer: "Step 1:\n(unstack b4 b3)\nStep 2:\n(put-down b4)", plan: ["(unstack b4 b3)", "(put-down b4)"] },
  { name: "comma separated groups", domain: "blocksworld", problem: "p0002", answer: "(unstack b4 b3), (put-down b4), (pick-up b2)", plan: ["(unstack b4 b3)", "(put-down b4)", "(pick-up b2)"] },
  { name: "arrows", domain: "blocksworld", problem: "p0002", answer: "(unstack b4 b3) -> (put-down b4) → (pick-up b2)", plan: ["(unstack b4 b3)", "(put-down b4)", "(pick-up b2)"] },
  { name: "pick up in two words", domain: "blocksworld", problem: "p0002", answer: "1. unstack b4 b3\n2. put down b4\n3. pick up b2", plan: ["(unstack b4 b3)", "(put-down b4)", "(pick-up b2)"] },
  { name: "filler words", domain: "blocksworld", problem: "p0002", answer: "1. Unstack b4 from b3.\n2. Put-down b4 on the table.\n3. First, pick up b2.", plan: ["(unstack b4 b3)", "(put-down b4)", "(pick-up b2)"] },
  { name: "wrong arity", domain: "blocksworld", problem: "p0002", answer: "(unstack b4)\n(put-down b4)", plan: [null, "(put-down b4)"] },
  { name: "unknown object by name", domain: "blocksworld", problem: "p0002", answer: "1. stack b2 b9", plan: [null] },
  { name: "marked line of nonsense", domain: "blocksworld", problem: "p0002", answer: "1. (unstack b4 b3)\n2. Do the magic now\n3. (put-down b4)", plan: ["(unstack b4 b3)", null, "(put-down b4)"] },
  { name: "prose then fenced plan then prose with action", domain: "blocksworld", problem: "p0002", answer: "The plan:\n```\n(unstack b4 b3)\n(put-down b4)\n```\nNote that in step 1, (unstack b4 b3) frees block 3.", plan: ["(unstack b4 b3)", "(put-down b4)"] },
  { name: "markdown heading", domain: "blocksworld", problem: "p0002", answer: "## Reasoning\nBlock 4 is on block 3.\n## Plan\n1. (unstack b4 b3)\n2. (put-down b4)", plan: ["(unstack b4 b3)", "(put-down b4)"] },
  { name: "answer tag inline", domain: "blocksworld", problem: "p0002", answer: "<answer>(unstack b4 b3) (put-down b4)</answer>", plan: ["(unstack b4 b3)", "(put-down b4)"] },
  { name: "two answer tags: the last", domain: "blocksworld", problem: "p0002", answer: "<answer>(pick-up b2)</answer> oops <answer>(unstack b4 b3)</answer>", plan: ["(unstack b4 b3)"] },
  { name: "unclosed answer tag", domain: "blocksworld", problem: "p0002", answer: "Thinking (pick-up b9) aloud.\n<answer>\n(unstack b4 b3)\n(put-down b4)", plan: ["(unstack b4 b3)", "(put-down b4)"] },
  { name: "think then text steps", domain: "blocksworld", problem: "p0002", answer: "<think>unstack b4 b3?</think>\nStep 1: Since block 4 is clear, I unstack block 4 from block 3. Now block 3 is clear.\nStep 2: I put block 4 down on the table.", plan: ["(unstack b4 b3)", "(put-down b4)"] },
  { name: "text step capitalised", domain: "blocksworld", problem: "p0002", answer: "1. Unstack block 4 from block 3.\n2. Put block 4 down on the table.", plan: ["(unstack b4 b3)", "(put-down b4)"] },
  { name: "text step all caps", domain: "blocksworld", problem: "p0002", answer: "STEP 1: UNSTACK BLOCK 4 FROM BLOCK 3.", plan: ["(unstack b4 b3)"] },
  { name: "explanation bullets after text plan", domain: "blocksworld", problem: "p0002", answer: "Step 1: I unstack block 4 from block 3.\nStep 2: I put block 4 down on the table.\n\nNotes:\n- block 3 is now clear\n- my hand is empty", plan: ["(unstack b4 b3)", "(put-down b4)"] },
  { name: "PDDL variables (a step naming no object)", domain: "blocksworld", problem: "p0002", answer: "(unstack ?x ?y)", plan: [null] },
  { name: "JSON list", domain: "blocksworld", problem: "p0002", answer: '["(unstack b4 b3)", "(put-down b4)"]', plan: ["(unstack b4 b3)", "(put-down b4)"] },
  { name: "very long line", domain: "blocksworld", problem: "p0002", answer: "a".repeat(100_000), plan: null },
  { name: "many lines", domain: "blocksworld", problem: "p0002", answer: Array.from({ length: 2000 }, () => "(put-down b4)").join("\n"), plan: Array.from({ length: 2000 }, () => "(put-down b4)") },
  { name: "ferry call with quotes", domain: "ferry", problem: "p0001", answer: "1. board('car1', 'loc3')", plan: ["(board car1 loc3)"] },
  { name: "logistics bare names", domain: "logistics", problem: "p0001", answer: "Step 1: fly-airplane plane1 airport3 airport1", plan: ["(fly-airplane plane1 airport3 airport1)"] },
];

const all = [...HAND, ...generatedCases()];

describe("RL answer extraction", () => {
  it("has a corpus of at least 200 answers", () => {
    expect(all.length).toBeGreaterThanOrEqual(200);
  });

  it("judges every plan a careful reader accepts as that plan; the rest get a reason", () => {
    const failures: string[] = [];
    for (const c of all) {
      let got: (string | null)[] | null;
      let result;
      try {
        result = session.reward({ domain: c.domain, problem: c.problem, completion: c.answer });
      } catch (e) {
        failures.push(`${c.name}: threw ${String(e)}`);
        continue;
      }
      if (result.extraction.mode === "none") {
        got = null;
        if (result.steps.length !== 1 || result.steps[0]!.error === null || result.reward !== 0) failures.push(`${c.name}: no plan but no reason`);
      } else got = result.steps.map((s) => s.action);
      for (const s of result.steps) if (s.action === null && (s.error === null || s.error.length === 0)) failures.push(`${c.name}: a step without action and reason`);
      if (JSON.stringify(got) !== JSON.stringify(c.plan)) failures.push(`${c.name}: expected ${JSON.stringify(c.plan)?.slice(0, 300)}, got ${JSON.stringify(got)?.slice(0, 300)}`);
    }
    expect(failures).toEqual([]);
  });

  it("never throws on random text", () => {
    const r = rng(7);
    const vocab = vocabularyOf(
      parseDomain(readFileSync(builtinDomainFile("blocksworld"), "utf8")),
      parseProblem(readFileSync(join(builtinProblemsDir("blocksworld"), "p0001.pddl"), "utf8"), "p", parseDomain(readFileSync(builtinDomainFile("blocksworld"), "utf8"))),
    );
    const alphabet = "()<>/`*#-.:;,\n \t abcdefghijklmnopqrstuvwxyz0123456789\u00e9\u4e2d";
    const pieces = ["<think>", "</think>", "<answer>", "</answer>", "```", "Step 1:", "1.", "- ", "(unstack b1 b2)", "stack(b1,b2)", "Final plan:", "\r\n"];
    for (let n = 0; n < 300; n++) {
      let s = "";
      const len = Math.floor(r() * 200);
      for (let i = 0; i < len; i++) s += r() < 0.1 ? pieces[Math.floor(r() * pieces.length)]! : alphabet[Math.floor(r() * alphabet.length)]!;
      const e = extractPlan(s, vocab);
      for (const st of e.steps) {
        expect(st.start).toBeGreaterThanOrEqual(0);
        expect(st.end).toBeLessThanOrEqual(s.length);
        expect(s.slice(st.start, st.end)).toBe(st.source);
      }
      const res = session.reward({ domain: "blocksworld", problem: "p0001", completion: s });
      expect(res.step_rewards.length).toBeGreaterThan(0);
    }
  });

  it("places each step where the answer writes it", () => {
    const answer = "<think>x</think>\nPlan:\n1. (unstack b4 b3)\n2. put-down(b4)\n";
    const res = session.reward({ domain: "blocksworld", problem: "p0002", completion: answer });
    expect(res.steps.map((s) => answer.slice(s.start, s.end))).toEqual(["1. (unstack b4 b3)", "2. put-down(b4)"]);
    expect(res.step_ends).toEqual(res.steps.map((s) => s.end));
  });
});
