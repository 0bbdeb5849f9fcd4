/**
 * The shortcut audit (src/audit) on synthetic datasets: a clean fixture passes, and each rule
 * finds a leak planted on purpose (and fails the audit where the rule is a check).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runAudit, type AuditReport, type RuleResult } from "../src/audit/index.js";
import { auc, clusterBootstrapSe, LogisticRegression, macroF1, pickAccuracy } from "../src/audit/measures.js";
import { Prng } from "../src/util/prng.js";

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

describe("audit measures", () => {
  it("AUC: ties count half, perfect separation is 1, standard error shrinks with n", () => {
    expect(auc([1, 2, 3], [1, 2, 3]).value).toBe(0.5);
    expect(auc([4, 5], [1, 2]).value).toBe(1);
    expect(auc([1], [2]).value).toBe(0);
    expect(auc(Array(100).fill(1), Array(100).fill(0)).se).toBeLessThan(auc([1], [0]).se);
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
    expect(failed(r)).toEqual(["candidate position (auc)"]);
  });

  it("repeated object: non-executable rows that name one object twice", async () => {
    const r = await runAudit(dataset("steps-repeated", "native", stepRows({ repeated: true })));
    expect(ruleOf(r, "repeated object").share).toBe(1);
    expect(ruleOf(r, "repeated object").fires).toBeGreaterThan(100);
    // the words show it too ("block 3 on block 3"): the text classifier beats the action type
    expect(failed(r)).toContain("repeated object (rows of one label)");
  });

  it("a word that gives the label away: the text classifier beats the action type", async () => {
    const r = await runAudit(dataset("steps-word", "native", stepRows({ word: true })));
    expect(r.classifiers.gap).toBeGreaterThan(0.2);
    expect(failed(r)).toEqual(["text-minus-action gap (macro-F1)"]);
    const loose = await runAudit(dataset("steps-word", "native", stepRows({ word: true })), { maxGap: 0.9 });
    expect(failed(loose)).toEqual([]);
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
