/**
 * The shortcut audit (src/audit) on synthetic datasets: a clean fixture passes, and each rule
 * finds a leak planted on purpose (and fails the audit where the rule is a check).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runAudit, type AuditReport, type RuleResult } from "../src/audit/index.js";
import { apGain, auc, clusterBootstrapSe, harmonic, LogisticRegression, macroF1, macroF1Coded, pickAccuracy, tiedRunPrecision } from "../src/audit/measures.js";
import { Prng } from "../src/util/prng.js";
import { feedbackTurns, type FeedbackRow } from "../src/products/feedback.js";

const tmp = mkdtempSync(join(tmpdir(), "pddl2prm-audit-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

type Row = Record<string, unknown> & { split: string };

/** A dataset folder of `format` holding `rows` (split by their `split`). */
function dataset(name: string, format: string, rows: Row[]): string {
  const dir = join(tmp, name);
  mkdirSync(join(dir, "data"), { recursive: true });
  writeFileSync(join(dir, "config.json"), JSON.stringify({ config_hash: "x", config: { format, domain_file: null, pairs: null } }));
  for (const split of ["train", "validation", "test"]) {
    const lines = rows.filter((r) => r.split === split).map((r) => JSON.stringify(r) + "\n");
    writeFileSync(join(dir, "data", `${split}-00000-of-00001.jsonl`), lines.join(""));
  }
  return dir;
}

const splitOf = (p: number): string => (p % 10 < 7 ? "train" : p % 10 < 8 ? "validation" : "test");
const TYPES = ["pick-up", "put-down", "stack"];
const VERBS: Record<string, string> = { "pick-up": "pick up", "put-down": "put down", stack: "stack" };
const obj = (prng: Prng): string => `b${1 + prng.int(6)}`;

function act(type: string, args: string[]): string {
  return `(${type} ${args.join(" ")})`;
}
function text(k: number, type: string, args: string[], extra = ""): string {
  return `Step ${k}: Since the hand is free, I ${VERBS[type]} ${args.map((a) => `block ${a.slice(1)}`).join(" on ")}${extra}. Now it is done.`;
}

interface StepLeaks {
  position?: boolean;
  repeated?: boolean;
  same?: boolean;
  word?: boolean;
  chars?: boolean;
}

/** Native step rows: 60 problems x 5 states x 6 candidates; labels independent of the surface unless leaked. */
function stepRows(leak: StepLeaks = {}): Row[] {
  const prng = new Prng(7, "audit-steps");
  const rows: Row[] = [];
  for (let p = 0; p < 60; p++) {
    const prefix: string[] = [];
    const prefixText: string[] = [];
    for (let t = 0; t < 5; t++) {
      const cands = Array.from({ length: 6 }, () => {
        const exec = prng.next() < 0.6;
        const type = TYPES[prng.int(3)]!;
        let args = type === "stack" ? [obj(prng), obj(prng)] : [obj(prng)];
        if (type === "stack" && args[0] === args[1]) args = [args[0]!, args[0] === "b1" ? "b2" : "b1"];
        if (!exec && leak.repeated && type === "stack") args = [args[0]!, args[0]!];
        if (!exec && leak.same && prefix.length > 0 && prng.next() < 0.8) {
          const m = /^\((\S+) (.*)\)$/.exec(prefix[prefix.length - 1]!)!;
          return { exec, type: m[1]!, args: m[2]!.split(" ") };
        }
        return { exec, type, args };
      });
      if (leak.position) cands.sort((a, b) => Number(b.exec) - Number(a.exec));
      cands.forEach((c, i) => {
        const extra = (!c.exec && leak.word ? ", perhaps" : "") + (!c.exec && leak.chars ? " very very carefully and slowly" : "");
        rows.push({
          id: `blocksworld/p${p}/t${t}/c${i}`,
          domain: "blocksworld",
          problem: `p${p}`,
          split: splitOf(p),
          prompt: "A blocks world.",
          completions: [...prefixText, text(t + 1, c.type, c.args, extra)],
          labels: [...prefix.map(() => 1.0), c.exec ? 1.0 : 0.0],
          category: c.exec ? (prng.next() < 0.5 ? "optimal" : "suboptimal") : "non-executable",
          critique: "-",
          meta: { action: act(c.type, c.args), prefix: prefix.slice() },
        });
      });
      const next = cands.find((c) => c.exec) ?? cands[0]!;
      prefix.push(act(next.type, next.args));
      prefixText.push(text(t + 1, next.type, next.args));
    }
  }
  return rows;
}

interface ChainLeaks {
  longer?: boolean;
  chars?: boolean;
  position?: boolean;
  repeated?: boolean;
}

/** processbench chains: per problem an error-free chain and an error chain of the same length unless leaked. */
function chainRows(leak: ChainLeaks = {}): Row[] {
  const prng = new Prng(8, "audit-chains");
  const rows: Row[] = [];
  for (let p = 0; p < 80; p++) {
    const L = 3 + prng.int(6);
    const plan = Array.from({ length: L }, () => {
      const type = TYPES[prng.int(2)]!;
      return { type, args: [obj(prng)] };
    });
    const d = prng.int(L);
    const err = leak.repeated ? { type: "stack", args: ["b3", "b3"] } : { type: TYPES[prng.int(2)]!, args: [obj(prng)] };
    const bad = [...plan.slice(0, d), err, ...plan.slice(leak.longer ? d : d + 1)];
    const chains = [
      { acts: plan, label: -1 },
      { acts: bad, label: d },
    ];
    const order = leak.position ? [0, 1] : prng.next() < 0.5 ? [0, 1] : [1, 0];
    order.forEach((c, k) => {
      const ch = chains[c]!;
      rows.push({
        id: `blocksworld/p${p}/k${k}`,
        problem: "A blocks world.",
        steps: ch.acts.map((a, i) => text(i + 1, a.type, a.args, leak.chars && ch.label >= 0 && i === d ? " with a great deal of extra care and attention" : "")),
        label: ch.label,
        meta: { domain: "blocksworld", problem_id: `p${p}`, split: splitOf(p), actions: ch.acts.map((a) => act(a.type, a.args)) },
        split: splitOf(p),
      });
    });
  }
  return rows;
}

/** The verifier rows of `chainRows`: the chain inside the prompt, the verdict in the completion (the target, never read). */
function verifierRows(leak: ChainLeaks = {}, chat = false): Row[] {
  return chainRows(leak).map((r) => {
    const steps = r["steps"] as string[];
    const label = r["label"] as number;
    const prompt = `A blocks world.\n\nProposed solution:\n${steps.join("\n")}\n\nCheck this solution step by step.\n`;
    const completion = label >= 0 ? `Step ${label + 1} is wrong.\nVerdict: step ${label + 1} is the first wrong step.` : "Verdict: all steps are correct.";
    const meta = r["meta"] as Record<string, unknown>;
    return {
      id: (r["id"] as string).replace(/k(\d+)$/, "v$1"),
      domain: "blocksworld",
      problem: meta["problem_id"],
      split: r.split,
      prompt: chat ? [{ role: "user", content: prompt }] : prompt,
      completion: chat ? [{ role: "assistant", content: completion }] : completion,
      label,
      score: label >= 0 ? 0.5 : 1.0,
      meta: { style: "plain", actions: meta["actions"], length: steps.length },
    };
  });
}

interface DialogueLeaks {
  /** A retry after a rejected step is never wrong. */
  retry?: boolean;
  /** Mistakes only in the first three turns. */
  early?: boolean;
  /** Wrong turns say "perhaps". */
  word?: boolean;
}

/** Feedback dialogues: 300 problems, every turn a mistake with probability 0.3 unless leaked. */
function feedbackRows(leak: DialogueLeaks = {}): Row[] {
  const prng = new Prng(10, "audit-dialogues");
  const rows: Row[] = [];
  for (let p = 0; p < 300; p++) {
    const L = 4 + prng.int(8);
    const messages: Record<string, unknown>[] = [{ role: "user", content: "A blocks world. Give one step per message." }];
    const actions: string[] = [];
    const categories: string[] = [];
    let done = 0;
    let retry = false;
    while (done < L) {
      const t = categories.length;
      let wrong = prng.next() < 0.3;
      if (leak.retry && retry) wrong = false;
      if (leak.early) wrong = t < 3 && prng.next() < 0.6;
      const cat = wrong ? (prng.next() < 0.5 ? "non-executable" : "suboptimal") : "optimal";
      const type = TYPES[prng.int(3)]!;
      const args = type === "stack" ? ["b1", "b2"] : [obj(prng)];
      messages.push({ role: "assistant", content: text(done + 1, type, args, wrong && leak.word ? ", perhaps" : ""), reward: cat === "optimal" ? 1.0 : cat === "suboptimal" ? 0.75 : 0.0 });
      messages.push({ role: "user", content: cat === "non-executable" ? "Wrong step. Nothing has changed." : "Good step." });
      actions.push(act(type, args));
      categories.push(cat);
      retry = cat === "non-executable";
      if (!retry) done++;
    }
    rows.push({ id: `blocksworld/p${p}/f0`, domain: "blocksworld", problem: `p${p}`, split: splitOf(p), messages, meta: { actions, categories } });
  }
  return rows;
}

/** The fixture dialogues as `--style turns` rows (src/products/feedback.ts). */
function turnRows(dialogues: Row[]): Row[] {
  return dialogues.flatMap((d) => feedbackTurns(d as unknown as FeedbackRow) as unknown as Row[]);
}

interface PairLeaks {
  longer?: boolean;
  position?: boolean;
  repeated?: boolean;
}

/** Trajectory pairs of two perturbations: the rejected plan as often longer as shorter unless leaked. */
function trajectoryRows(leak: PairLeaks = {}): Row[] {
  const prng = new Prng(9, "audit-pairs");
  const rows: Row[] = [];
  for (let p = 0; p < 80; p++) {
    const L = 4 + prng.int(5);
    const plan = Array.from({ length: L }, () => ({ type: TYPES[prng.int(2)]!, args: [obj(prng)] }));
    for (const kind of ["detour", "swap"]) {
      const delta = leak.longer ? 1 : prng.int(3) - 1;
      let rej = plan.slice(0, Math.max(1, L + delta));
      while (rej.length < L + delta) rej.push({ type: TYPES[prng.int(2)]!, args: [obj(prng)] });
      rej = rej.map((a, i) => (i === 0 ? { type: TYPES[prng.int(2)]!, args: [obj(prng)] } : a));
      if (leak.repeated) rej[0] = { type: "stack", args: ["b2", "b2"] };
      const side = (xs: typeof plan) => xs.map((a, i) => text(i + 1, a.type, a.args)).join("\n");
      rows.push({
        id: `blocksworld/p${p}/j-${kind}`,
        level: "trajectory",
        domain: "blocksworld",
        problem: `p${p}`,
        split: splitOf(p),
        prompt: "A blocks world.\n",
        chosen: side(plan),
        rejected: side(rej),
        margin: 1.0,
        first: leak.position ? "chosen" : prng.next() < 0.5 ? "chosen" : "rejected",
        perturbation: kind,
        chosen_actions: plan.map((a) => act(a.type, a.args)),
        rejected_actions: rej.map((a) => act(a.type, a.args)),
        meta: {},
      });
    }
  }
  return rows;
}

const ruleOf = (r: AuditReport, name: string, group = "all", measure?: string): RuleResult =>
  r.rules.find((x) => x.name === name && x.group === group && (measure === undefined || x.measure === measure))!;
const failed = (r: AuditReport): string[] => r.checks.filter((c) => !c.pass).map((c) => c.name);
/** Failed checks by name, once each, sorted (probes fail once per class). */
const distinct = (names: string[]): string[] => [...new Set(names)].sort();
/** The probes a word planted in the step may fail: its words, and the characters it adds. */
// the raw probe (issue 55) reads the word too: its n-grams of the text as written
const WORD_PROBES = ["probe: candidate words (ap gain over the action (type and objects))", "probe: candidate characters (ap gain over the action (type and objects))", "probe: raw form (ap gain over the action (type and objects))"];
/** The raw probe: a turn's preceding message is in its view, and after a rejected step it says so (issue 55). */
const RAW_PROBE = "probe: raw form (ap gain over the action (type and objects))";

describe("audit measures", () => {
  it("AUC: ties count half, perfect separation is 1, standard error shrinks with n", () => {
    expect(auc([1, 2, 3], [1, 2, 3]).value).toBe(0.5);
    expect(auc([4, 5], [1, 2]).value).toBe(1);
    expect(auc([1], [2]).value).toBe(0);
    expect(auc(Array(100).fill(1), Array(100).fill(0)).se).toBeLessThan(auc([1], [0]).se);
  });

  it("AUC of clustered items: copies of a problem's rows add no information, pairs within problems count once", () => {
    const prng = new Prng(3, "clustered-auc");
    const pos = Array.from({ length: 60 }, () => prng.next());
    const neg = Array.from({ length: 60 }, () => prng.next() - 0.2);
    const ids = (xs: number[], k: number): string[] => xs.flatMap((_, i) => Array(k).fill(`p${i}`) as string[]);
    const copies = (xs: number[], k: number): number[] => xs.flatMap((x) => Array(k).fill(x) as number[]);
    const once = auc(pos, neg, { pos: ids(pos, 1), neg: ids(neg, 1) });
    const tenfold = auc(copies(pos, 10), copies(neg, 10), { pos: ids(pos, 10), neg: ids(neg, 10) });
    expect(tenfold.value).toBeCloseTo(once.value, 10);
    expect(tenfold.se).toBeCloseTo(once.se, 2);
    expect(auc(copies(pos, 10), copies(neg, 10)).se).toBeLessThan(once.se / 2);
    // one error chain and one correct chain per problem, a binary feature: the binomial error of 220 problems
    const first = Array.from({ length: 220 }, (_, i) => (i < 128 ? 1 : 0));
    const problems = first.map((_, i) => `p${i}`);
    const paired = auc(first, first.map((x) => 1 - x), { pos: problems, neg: problems });
    expect(paired.value).toBeCloseTo(128 / 220, 10);
    expect(paired.se).toBeCloseTo(Math.sqrt(((128 / 220) * (92 / 220)) / 220), 2);
    // 31 problems, the error chain second in 23 (a fair coin's chance: p = 0.011): the error is
    // a fair coin's, sqrt(0.25 / 31) = 0.090, not the estimate's own 0.080 (23 / 31 read as a leak)
    const coin = Array.from({ length: 31 }, (_, i) => (i < 23 ? 1 : 0));
    const some = coin.map((_, i) => `p${i}`);
    const few = auc(coin, coin.map((x) => 1 - x), { pos: some, neg: some });
    expect(few.value).toBeCloseTo(23 / 31, 10);
    expect(few.se).toBeGreaterThan(0.085);
    expect(few.se).toBeLessThan(0.095);
    expect(pickAccuracy(coin.map((x) => [x, 1 - x] as const)).se).toBeCloseTo(Math.sqrt(0.25 / 31), 10);
  });

  it("side picking, macro-F1, a logistic regression that learns a word, a bootstrap over groups", () => {
    expect(pickAccuracy([[1, 0], [0, 0], [0, 1]]).value).toBe(0.5);
    expect(macroF1(["a", "a", "b"], ["a", "a", "b"])).toBe(1);
    expect(macroF1(["a", "b"], ["a", "a"])).toBeCloseTo(1 / 3);
    const m = new LogisticRegression();
    for (let i = 0; i < 50; i++) {
      m.add(["x", "good"], "yes");
      m.add(["x", "bad"], "no");
    }
    m.train(1);
    expect(m.predict(["good"])).toBe("yes");
    expect(m.predict(["bad"])).toBe("no");
    const groups = Array.from({ length: 40 }, (_, i) => `g${i % 10}`);
    expect(clusterBootstrapSe(groups, (items) => items.length)).toBe(0);
    expect(clusterBootstrapSe(groups, (items) => items.filter((i) => i % 10 < 5).length / items.length)).toBeGreaterThan(0);
  });
});

/** The plain form of LogisticRegression's training (a Set per example, class-major updates): the oracle of its fast form. */
function referenceLogistic(examples: { tokens: string[]; label: string }[], seed: number): (tokens: string[]) => Map<string, number> {
  // classes in sorted order (the fast form sorts them when it trains: row order changes nothing)
  const classes = [...new Set(examples.map((e) => e.label))].sort();
  const index = new Map<string, number>();
  const exs = examples.map(({ tokens, label }) => {
    const fs = new Set<number>();
    for (const t of tokens) {
      if (!index.has(t)) index.set(t, index.size);
      fs.add(index.get(t)!);
    }
    return { fs: [...fs], y: classes.indexOf(label) };
  });
  const K = classes.length;
  const w = new Float64Array(index.size * K);
  const bias = new Float64Array(K);
  const g2 = new Float64Array(index.size * K).fill(1e-8);
  const b2 = new Float64Array(K).fill(1e-8);
  const probs = (fs: number[]): Float64Array => {
    const out = new Float64Array(K);
    let max = -Infinity;
    for (let k = 0; k < K; k++) {
      let s = bias[k]!;
      for (const f of fs) s += w[f * K + k]!;
      out[k] = s;
      max = Math.max(max, s);
    }
    let z = 0;
    for (let k = 0; k < K; k++) z += out[k] = Math.exp(out[k]! - max);
    for (let k = 0; k < K; k++) out[k]! /= z;
    return out;
  };
  const order = exs.map((_, i) => i);
  const prng = new Prng(seed, "audit/logistic");
  for (let e = 0; e < 4; e++) {
    prng.shuffle(order);
    for (const i of order) {
      const { fs, y } = exs[i]!;
      const p = probs(fs);
      for (let k = 0; k < K; k++) {
        const g = p[k]! - (k === y ? 1 : 0);
        b2[k]! += g * g;
        bias[k]! -= (0.5 * g) / Math.sqrt(b2[k]!);
        for (const f of fs) {
          const at = f * K + k;
          const gw = g + 1e-5 * w[at]!;
          g2[at]! += gw * gw;
          w[at]! -= (0.5 * gw) / Math.sqrt(g2[at]!);
        }
      }
    }
  }
  return (tokens) => {
    const fs = [...new Set(tokens)].map((t) => index.get(t)).filter((f): f is number => f !== undefined);
    const p = probs(fs);
    return new Map(classes.map((c, k) => [c, p[k]!]));
  };
}

describe("audit measures: average precision over tied scores", () => {
  // every order of a run of g items holding r positives, below `above` items with `tp` positives
  const brute = (above: number, tp: number, g: number, r: number): number => {
    let sum = 0;
    let orders = 0;
    const walk = (prefix: number[], left: number, pos: number): void => {
      if (left === 0) {
        let t = tp;
        prefix.forEach((x, j) => x === 1 && (sum += ++t / (above + j + 1)));
        orders++;
        return;
      }
      if (pos > 0) walk([...prefix, 1], left - 1, pos - 1);
      if (left > pos) walk([...prefix, 0], left - 1, pos);
    };
    walk([], g, r);
    return sum / orders;
  };
  it("a run's expected precisions equal the mean over its orders; H(m) is exact on both sides of 64", () => {
    for (const [above, tp, g, r] of [[0, 0, 1, 1], [0, 0, 4, 2], [3, 1, 5, 1], [7, 4, 6, 6], [10, 2, 8, 3], [0, 0, 12, 5]] as const) {
      expect(tiedRunPrecision(above, tp, g, r)).toBeCloseTo(brute(above, tp, g, r), 12);
    }
    let h = 0;
    for (let i = 1; i <= 200; i++) h += 1 / i;
    expect(harmonic(200)).toBeCloseTo(h, 13);
    // past 64 the closed form against the sum over positions it stands for
    const direct = (above: number, tp: number, g: number, r: number): number => {
      let s = 0;
      for (let j = 1; j <= g; j++) s += ((r / g) * (tp + 1 + ((j - 1) * (r - 1)) / (g - 1))) / (above + j);
      return s;
    };
    expect(tiedRunPrecision(100, 30, 90, 40)).toBeCloseTo(direct(100, 30, 90, 40), 10);
    expect(tiedRunPrecision(5000, 900, 20000, 300)).toBeCloseTo(direct(5000, 900, 20000, 300), 9);
  });
  it("on few items a tied prior scores what random scores do on average: no gain from chance alone", () => {
    // 10 problems, one positive and one negative each; the prior ties everything
    const positive = Array.from({ length: 20 }, (_, i) => i % 2 === 0);
    const clusters = positive.map((_, i) => `p${i >> 1}`);
    const prior = positive.map(() => 0.5);
    const prng = new Prng(7, "test/ap-ties");
    let gain = 0;
    const reps = 2000;
    for (let k = 0; k < reps; k++) gain += apGain(prior, positive.map(() => prng.next()), positive, clusters, 0).gain;
    // scored as one threshold, the tied prior's AP was the base rate 0.5 and random scores gained ~+0.065
    expect(Math.abs(gain / reps)).toBeLessThan(0.01);
    expect(apGain(prior, prior, positive, clusters, 0).gain).toBe(0);
  });
});

describe("audit measures: fast forms agree with the plain ones", () => {
  it("LogisticRegression gives the plain training's probabilities, bit for bit", () => {
    const prng = new Prng(7, "lr-oracle");
    const vocab = Array.from({ length: 300 }, (_, i) => `w${i}`);
    const labels = ["a", "b", "c", "d", "e"];
    const examples = Array.from({ length: 3000 }, () => ({
      // repeated tokens on purpose: features are deduplicated in order of first occurrence
      tokens: Array.from({ length: 1 + prng.int(25) }, () => vocab[prng.int(40) + (prng.int(2) === 0 ? 0 : prng.int(260))]!),
      label: labels[prng.int(labels.length)]!,
    }));
    const m = new LogisticRegression();
    for (const e of examples) m.add(e.tokens, e.label);
    m.train(3);
    const ref = referenceLogistic(examples, 3);
    for (const e of examples.slice(0, 500)) expect(m.predictProba(e.tokens)).toEqual(ref(e.tokens));
    expect(m.predictProba(["never-seen"])).toEqual(ref(["never-seen"]));
  });

  it("macroF1Coded is macroF1 of the resampled items", () => {
    const prng = new Prng(9, "f1-oracle");
    const names = ["x", "y", "z", "w"];
    const gold = Array.from({ length: 400 }, () => names[prng.int(3)]!);
    const pred = gold.map(() => (prng.int(10) === 0 ? null : names[prng.int(4)]!));
    const codes = new Map(names.map((n, i) => [n, i]));
    const g = Int32Array.from(gold, (l) => codes.get(l)!);
    const p = Int32Array.from(pred, (l) => (l === null ? -1 : codes.get(l)!));
    for (let r = 0; r < 50; r++) {
      const items = Array.from({ length: prng.int(400) }, () => prng.int(400));
      expect(macroF1Coded(g, p, names.length, items)).toBe(macroF1(items.map((i) => gold[i]!), items.map((i) => pred[i]!)));
    }
  });
});

describe("audit: step rows", () => {
  it("a fixture without leaks passes", async () => {
    const r = await runAudit(dataset("steps-clean", "native", stepRows()));
    expect(failed(r)).toEqual([]);
    expect(r.unit).toBe("step");
    expect(r.split.source).toBe("splits");
    expect(Math.abs(ruleOf(r, "candidate position").value - 0.5)).toBeLessThan(0.05);
    expect(ruleOf(r, "repeated object").fires).toBe(0);
    expect(r.majority.label).toBe("non-executable");
  });

  it("candidate position: executable candidates written first", async () => {
    const r = await runAudit(dataset("steps-position", "native", stepRows({ position: true })));
    expect(ruleOf(r, "candidate position").value).toBeLessThan(0.2);
    expect(failed(r)).toContain("candidate position (auc)");
    // rows written in their new id order: the row-order rule sees it too (issue 55)
    expect(distinct(failed(r))).toEqual(["candidate position (auc)", "probe: candidate position (ap gain over the action (type and objects))", "row order in its state (file) (auc)"]);
  });

  it("repeated object: non-executable rows that name one object twice", async () => {
    const r = await runAudit(dataset("steps-repeated", "native", stepRows({ repeated: true })));
    expect(ruleOf(r, "repeated object").share).toBe(1);
    expect(ruleOf(r, "repeated object").fires).toBeGreaterThan(100);
    // the words show it too ("block 3 on block 3"): the text classifier beats the action type
    expect(failed(r)).toContain("repeated object (rows of one label)");
  });

  it("repeated object in questions (acp): the share is over the answers, not over executable steps", async () => {
    // yes/no questions whose action names a place twice ("drive t1 from c2 to c2"): answered
    // both ways they give nothing away; all "no" they do
    const rows = (leak: boolean): Row[] => {
      const prng = new Prng(11, `audit-acp-${leak}`);
      const out: Row[] = [];
      for (let p = 0; p < 60; p++) {
        for (let q = 0; q < 8; q++) {
          const twice = q % 4 === 0;
          const [a, b] = [`c${1 + prng.int(4)}`, `c${5 + prng.int(4)}`];
          const item = `(drive t1 ${a} ${twice ? a : b})`;
          const answer = leak && twice ? "no" : prng.next() < 0.5 ? "yes" : "no";
          const question = `A truck t1 drives between cities.\n\nThe current state: t1 is in ${a}.\n\nCan I drive t1 from ${a} to ${twice ? a : b} in the current state? Answer yes or no.`;
          out.push({ id: `d/p${p}/t0${q}/applicability/yes-no`, domain: "d", problem: `p${p}`, split: splitOf(p), kind: "applicability", form: "yes-no", question, choices: null, answer, prompt: `${question}\n`, completion: answer, meta: { state_index: q, proof: "state", gold: { answer, accept: null, set: null }, states: 0, items: [item], prefix: [], action: null, plan: null, horizon: null, seed: 11 } });
        }
      }
      return out;
    };
    const clean = await runAudit(dataset("acp-repeated-mixed", "acp", rows(false)));
    expect(ruleOf(clean, "repeated object").fires).toBe(120);
    expect(ruleOf(clean, "repeated object").share).toBeLessThan(0.7);
    expect(failed(clean)).not.toContain("repeated object (rows of one label)");
    const leak = await runAudit(dataset("acp-repeated-no", "acp", rows(true)));
    expect(ruleOf(leak, "repeated object").share).toBe(1);
    expect(failed(leak)).toContain("repeated object (rows of one label)");
  });

  it("a word that gives the label away: the text classifier beats the action type", async () => {
    const r = await runAudit(dataset("steps-word", "native", stepRows({ word: true })));
    expect(r.classifiers.gap).toBeGreaterThan(0.2);
    expect(failed(r)).toContain("text-minus-action gap (macro-F1)");
    // the word lengthens the step too: the words and characters probes, nothing else
    expect(distinct(failed(r)).filter((n) => !n.startsWith("text-minus-action"))).toEqual(distinct(WORD_PROBES.filter((n) => failed(r).includes(n))));
    expect(failed(r)).toContain(WORD_PROBES[0]);
    const loose = await runAudit(dataset("steps-word", "native", stepRows({ word: true })), { maxGap: 0.9 });
    expect(failed(loose)).not.toContain("text-minus-action gap (macro-F1)");
  });

  it("length and same-objects rules: reported, and gated with --max-rule", async () => {
    const chars = await runAudit(dataset("steps-chars", "native", stepRows({ chars: true })), { maxRule: 0.6 });
    expect(ruleOf(chars, "length: characters").score).toBeGreaterThan(0.9);
    expect(failed(chars)).toContain("length: characters (auc), --max-rule");
    const same = await runAudit(dataset("steps-same", "native", stepRows({ same: true })), { maxRule: 0.6 });
    expect(ruleOf(same, "same objects as previous step").score).toBeGreaterThan(0.6);
    expect(failed(same)).toContain("same objects as previous step (auc), --max-rule");
  });
});

describe("audit: chains (processbench)", () => {
  it("a fixture without leaks passes", async () => {
    const r = await runAudit(dataset("chains-clean", "processbench", chainRows()));
    expect(r.unit).toBe("chain");
    expect(failed(r)).toEqual([]);
    expect(ruleOf(r, "length: steps", "all", "paired").value).toBe(0.5);
  });

  it("maxRows: whole problems are sampled (both chains of each), and the leak is still found", async () => {
    const r = await runAudit(dataset("chains-sampled", "processbench", chainRows({ longer: true })), { maxRows: 60 });
    expect(r.sample).toEqual({ rows: 160, rate: 60 / 160 });
    expect(r.units).toBeGreaterThan(30);
    expect(r.units).toBeLessThan(100);
    expect(ruleOf(r, "length: steps", "all", "paired").n).toBe(r.units / 2);
    expect(failed(r)).toContain("length: steps (paired)");
  });

  it("error chains one step longer (the wrong step inserted)", async () => {
    const r = await runAudit(dataset("chains-longer", "processbench", chainRows({ longer: true })));
    expect(ruleOf(r, "length: steps", "all", "paired").value).toBe(1);
    expect(failed(r)).toContain("length: steps (paired)");
  });

  it("a longer wrong step, an error chain always second, a wrong step naming an object twice", async () => {
    const chars = await runAudit(dataset("chains-chars", "processbench", chainRows({ chars: true })));
    expect(failed(chars)).toContain("length: characters (paired)");
    const pos = await runAudit(dataset("chains-position", "processbench", chainRows({ position: true })));
    expect(failed(pos)).toContain("position (auc)");
    const rep = await runAudit(dataset("chains-repeated", "processbench", chainRows({ repeated: true })));
    expect(failed(rep)).toContain("repeated object (paired)");
    expect(rep.best_rule!.score).toBe(1);
  });
});

describe("audit: chains (verifier)", () => {
  it("a fixture without leaks passes; the chain is read from the prompt, never the completion (its verdict is the target)", async () => {
    const r = await runAudit(dataset("verifier-clean", "verifier", verifierRows()));
    expect(r.unit).toBe("chain");
    expect(r.units).toBe(160);
    expect(failed(r)).toEqual([]);
    expect(ruleOf(r, "length: steps", "all", "paired").value).toBe(0.5);
    expect(r.classifiers.gap).toBeLessThan(0.1);
    const chat = await runAudit(dataset("verifier-chat", "verifier", verifierRows({}, true)));
    expect(chat.rules).toEqual(r.rules);
  });

  it("error chains longer, always second, or with a first wrong step naming an object twice", async () => {
    const longer = await runAudit(dataset("verifier-longer", "verifier", verifierRows({ longer: true })));
    expect(failed(longer)).toContain("length: steps (paired)");
    const pos = await runAudit(dataset("verifier-position", "verifier", verifierRows({ position: true })));
    expect(failed(pos)).toContain("position (auc)");
    const rep = await runAudit(dataset("verifier-repeated", "verifier", verifierRows({ repeated: true })));
    expect(failed(rep)).toContain("repeated object (paired)");
    // the first wrong step stands out from the steps before it
    expect(ruleOf(rep, "first error: repeated object").value).toBe(1);
    expect(failed(rep)).toContain("first error: repeated object (rank)");
  });

  it("a longer first wrong step: reported (its action type says as much), gated with --max-rule", async () => {
    const r = await runAudit(dataset("verifier-chars", "verifier", verifierRows({ chars: true })), { maxRule: 0.6 });
    expect(ruleOf(r, "first error: characters").value).toBeGreaterThan(0.9);
    expect(failed(r)).not.toContain("first error: characters (rank)");
    expect(failed(r)).toContain("first error: characters (rank), --max-rule");
  });

  it("a prompt without its chain is a clear error", async () => {
    const rows = verifierRows().slice(0, 2).map((r) => ({ ...r, prompt: "A blocks world.\n" }));
    await expect(runAudit(dataset("verifier-bad", "verifier", rows))).rejects.toThrow(/:1: not a verifier row \(no 'Proposed solution:' chain/);
  });
});

describe("audit: assistant turns (feedback)", () => {
  it("a fixture without leaks passes: one step unit per assistant turn", async () => {
    const rows = feedbackRows();
    const r = await runAudit(dataset("feedback-clean", "feedback", rows));
    expect(r.unit).toBe("step");
    expect(r.units).toBe(rows.reduce((a, x) => a + (x["meta"] as { categories: string[] }).categories.length, 0));
    expect(failed(r)).toEqual([]);
    expect(r.majority.label).toBe("optimal");
  });

  it("a retry after a rejected step is never wrong: the attempt position gives it away", async () => {
    const r = await runAudit(dataset("feedback-retry", "feedback", feedbackRows({ retry: true })));
    expect(ruleOf(r, "candidate position").value).toBeGreaterThan(0.55);
    // the raw probe reads the environment's answer before the turn: "Nothing has changed." marks a retry
    expect(distinct(failed(r)).filter((n) => n !== RAW_PROBE)).toEqual(["candidate position (auc)"]);
  });

  it("mistakes only early in the dialogue: the turn's depth gives it away", async () => {
    const r = await runAudit(dataset("feedback-early", "feedback", feedbackRows({ early: true })));
    expect(ruleOf(r, "length: steps").value).toBeGreaterThan(0.7);
    expect(failed(r)).toContain("length: steps (auc)");
  });

  it("a word in the wrong turns: the text classifier beats the action type", async () => {
    const r = await runAudit(dataset("feedback-word", "feedback", feedbackRows({ word: true })));
    expect(failed(r)).toContain("text-minus-action gap (macro-F1)");
    expect(failed(r)).toContain(WORD_PROBES[0]);
    expect(distinct(failed(r)).filter((n) => !n.startsWith("text-minus-action") && !WORD_PROBES.includes(n))).toEqual([]);
  });

  it("--style turns rows (a row per good turn): the same units, each turn once, and the same verdicts", async () => {
    const dialogues = feedbackRows();
    const clean = await runAudit(dataset("feedback-turns-clean", "feedback", turnRows(dialogues)));
    // a mistake that no good turn follows is in no row
    const present = dialogues.reduce((a, x) => a + (x["meta"] as { categories: string[] }).categories.lastIndexOf("optimal") + 1, 0);
    expect(clean.units).toBe(present);
    expect(failed(clean)).toEqual([]);
    const word = await runAudit(dataset("feedback-turns-word", "feedback", turnRows(feedbackRows({ word: true }))));
    expect(distinct(failed(word))).toEqual(distinct(failed(await runAudit(dataset("feedback-word-2", "feedback", feedbackRows({ word: true }))))));
    const retry = await runAudit(dataset("feedback-turns-retry", "feedback", turnRows(feedbackRows({ retry: true }))));
    expect(distinct(failed(retry)).filter((n) => n !== RAW_PROBE)).toEqual(["candidate position (auc)"]);
  });

  it("a dialogue whose turns and categories disagree is a clear error", async () => {
    const rows = feedbackRows().slice(0, 1).map((r) => ({ ...r, meta: { actions: [], categories: ["optimal"] } }));
    await expect(runAudit(dataset("feedback-bad", "feedback", rows))).rejects.toThrow(/not a feedback row \(\d+ assistant turns but 1 categories\)/);
  });
});

describe("audit: pairs (trajectories)", () => {
  it("a fixture without leaks passes", async () => {
    const r = await runAudit(dataset("pairs-clean", "trajectories", trajectoryRows()));
    expect(r.unit).toBe("pair");
    expect(failed(r)).toEqual([]);
    expect(new Set(r.rules.map((x) => x.group))).toEqual(new Set(["all", "detour", "swap"]));
  });

  it("rejected plans always longer: flagged in every perturbation", async () => {
    const r = await runAudit(dataset("pairs-longer", "trajectories", trajectoryRows({ longer: true })));
    expect(ruleOf(r, "length: steps", "detour").value).toBe(0);
    expect(failed(r).filter((n) => n === "length: steps (pick)").length).toBe(3);
  });

  it("the chosen side always first; a rejected step naming an object twice", async () => {
    const pos = await runAudit(dataset("pairs-position", "trajectories", trajectoryRows({ position: true })));
    expect(ruleOf(pos, "position (first side)").value).toBe(1);
    expect(failed(pos)).toContain("position (first side) (pick)");
    const rep = await runAudit(dataset("pairs-repeated", "trajectories", trajectoryRows({ repeated: true })));
    expect(failed(rep)).toContain("repeated object (pick)");
  });
});

describe("audit: bad input", () => {
  it("a folder that is not a dataset, and a row that is not of its format, are clear errors", async () => {
    await expect(runAudit(join(tmp, "nope"))).rejects.toThrow(/no such folder/);
    mkdirSync(join(tmp, "empty"), { recursive: true });
    await expect(runAudit(join(tmp, "empty"))).rejects.toThrow(/not a pddl2prm dataset folder/);
    const dir = dataset("bad-row", "processbench", [{ id: "blocksworld/p1/k0", split: "train" }]);
    await expect(runAudit(dir)).rejects.toThrow(/train-00000-of-00001\.jsonl:1: not a processbench row/);
  });
});
