/**
 * bench/chain-probes: does the end of a chain give its label away? On a processbench or verifier
 * folder (chains: error vs error-free) or a trajectories folder (pairs: rejected vs chosen plan), each
 * chain is replayed from its PDDL copy under `pddl/` and three surface probes are scored:
 *   ends at the goal            the replayed final state satisfies the goal
 *   last step names a goal object  the last action names an object of a goal fact
 *   length                      the number of steps
 * Chains: AUC of the probe for "has an error" (0.5 = says nothing); pairs: how often the probe
 * picks the chosen side (ties split), 0.5 = says nothing. 95% intervals by a bootstrap over
 * problems (1,000 resamples, seeded), as rows of one problem are not independent.
 *
 * Then, on pairs (trajectories: each row; chains: a problem's error-free and error chain), how
 * often a rule picks the right side (ties half; gain = share - 0.5, as by symmetry no side is
 * more likely a priori) (issue 55):
 *   length x goal rule     both chains reach the (replayed) goal: the shorter, else the longer
 *                          (right on every pair of the old "both to the goal, the wrong one
 *                          longer, or neither, the wrong one cut shorter" design)
 *   length x goal, learnt  any rule on (goal of each side, length difference clipped to +-3):
 *                          the side more often right in its cell, learnt on one half of the
 *                          problems and scored on the other, both ways round
 *   raw characters 1-4     character 1-4-grams of the raw text the trainer reads (no
 *                          normalising: white space, case, punctuation as written; trajectories:
 *                          `chosen`/`rejected`, processbench: `problem` and `steps`, verifier:
 *                          `prompt`), log(1 + count), side minus side, an L2 logistic regression
 *                          without bias learnt on one half of the problems, scored on the other
 *   controls               the same probe on the PDDL actions alone (what the steps are: the
 *                          label itself), on the text and the actions together, and on the
 *                          text's form (the audit's skeleton: lowercase words "~", digits "9")
 * A learnt probe's two halves are scored by models fit to each other's half, so their errors
 * go together: its interval adds the halves' bootstrap intervals instead of pooling them.
 * CHAIN_PROBES_TOP=raw|actions|form prints the n-grams most often on one side and the shares
 * by perturbation (and the chosen side's kind when it is not the optimal plan: "swap/inverse")
 * or first error's category (diagnosis).
 *
 * Learnt probes are scored on --splits N (default 5) seeded halvings, their figures averaged.
 *
 *   node dist/bench/chain-probes.js DATASET_DIR [--splits 5] [--out FILE]
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseDomain, parseProblem } from "../src/pddl/index.js";
import { applyOp, findOperator, ground, isApplicable, isGoal, resolveGroundAction } from "../src/task/index.js";
import type { GroundTask } from "../src/task/types.js";
import { skeleton } from "../src/audit/raw.js";
import { Prng } from "../src/util/prng.js";

const dir = process.argv[2];
const outAt = process.argv.indexOf("--out");
if (dir === undefined || dir.startsWith("--")) {
  console.error("usage: node dist/bench/chain-probes.js DATASET_DIR [--splits 5] [--out FILE]");
  process.exit(2);
}
if (!existsSync(join(dir, "config.json")) || !existsSync(join(dir, "data"))) {
  console.error(`bench/chain-probes: ${dir}: not a pddl2prm dataset folder (no config.json or data/)`);
  process.exit(2);
}
const config = (JSON.parse(readFileSync(join(dir, "config.json"), "utf8")) as { config: Record<string, unknown> }).config;
const format = String(config["format"]);
if (format !== "processbench" && format !== "verifier" && format !== "trajectories") {
  console.error(`bench/chain-probes: ${dir}: a processbench, verifier or trajectories folder, not ${format}`);
  process.exit(2);
}

const tasks = new Map<string, { task: GroundTask; goalObjects: Set<string> }>();
function taskOf(domain: string, problem: string): { task: GroundTask; goalObjects: Set<string> } {
  const key = `${domain}/${problem}`;
  let t = tasks.get(key);
  if (t === undefined) {
    const base = join(dir!, "pddl", domain);
    const own = join(base, `${problem}.domain.pddl`);
    const df = readdirSync(base).includes(`${problem}.domain.pddl`) ? own : join(base, "domain.pddl");
    const d = parseDomain(readFileSync(df, "utf8"), df);
    const task = ground(d, parseProblem(readFileSync(join(base, `${problem}.pddl`), "utf8"), problem, d));
    // objects named by the goal's facts ("(on b1 b2)" -> b1, b2)
    const goalObjects = new Set<string>();
    for (const f of [...task.goalPos, ...task.goalNeg]) for (const o of task.factNames[f]!.replace(/[()]/g, " ").trim().split(/\s+/).slice(1)) goalObjects.add(o.toLowerCase());
    tasks.set(key, (t = { task, goalObjects }));
  }
  return t;
}

interface Probed {
  goal: number;
  goalObject: number;
  length: number;
}

function probe(domain: string, problem: string, actions: string[]): Probed {
  const { task, goalObjects } = taskOf(domain, problem);
  let s = task.init;
  for (const a of actions) {
    const r = resolveGroundAction(task, a);
    if ("error" in r) continue;
    const op = findOperator(task, r.schema, r.args).find((o) => isApplicable(task, s, o));
    if (op !== undefined) s = applyOp(task, s, op);
  }
  const last = actions.at(-1) ?? "";
  const objs = last.replace(/[()]/g, " ").trim().split(/\s+/).slice(1);
  return { goal: isGoal(task, s) ? 1 : 0, goalObject: objs.some((o) => goalObjects.has(o.toLowerCase())) ? 1 : 0, length: actions.length };
}

const rows = readdirSync(join(dir, "data"))
  .filter((n) => n.endsWith(".jsonl"))
  .flatMap((n) => readFileSync(join(dir, "data", n), "utf8").split("\n").filter((l) => l.length > 0).map((l) => JSON.parse(l) as Record<string, unknown>));

const KEYS: (keyof Probed)[] = ["goal", "goalObject", "length"];
const NAMES: Record<keyof Probed, string> = { goal: "ends at the goal", goalObject: "last step names a goal object", length: "length (steps)" };
/** Per problem: the scored items (chains: [value, error?]; pairs: [chosen value, rejected value]). */
const byProblem = new Map<string, [Probed, number | Probed][]>();
/** Chains (processbench, verifier: error vs error-free) or pairs (trajectories). */
const chains = format !== "trajectories";
/** One side of a pair: its probes and the raw text the trainer reads. */
interface Side {
  p: Probed;
  text: string;
  actions: string[];
  /** The wrong side's perturbation (trajectories) or its first error's category and domain (diagnosis). */
  kind: string;
}
/** Per problem: pairs of (right side, wrong side). */
const pairsBy = new Map<string, [Side, Side][]>();
/** A text field as the trainer reads it (a chat message list: its contents, in order). */
const textOf = (v: unknown): string => (typeof v === "string" ? v : Array.isArray(v) ? v.map((m) => String((m as { content?: unknown }).content ?? "")).join("\n") : "");
const chainSides = new Map<string, { right?: Side; wrong?: Side }>();
for (const r of rows) {
  const meta = (r["meta"] ?? {}) as Record<string, unknown>;
  if (chains) {
    const domain = String(meta["domain"] ?? r["domain"]);
    const problem = String(meta["problem_id"] ?? r["problem"]);
    const p = probe(domain, problem, meta["actions"] as string[]);
    const key = `${domain}/${problem}`;
    byProblem.set(key, [...(byProblem.get(key) ?? []), [p, (r["label"] as number) >= 0 ? 1 : 0]]);
    const text = format === "processbench" ? `${textOf(r["problem"])}\n\n${(r["steps"] as string[]).join("\n")}` : textOf(r["prompt"]);
    const e = chainSides.get(key) ?? {};
    e[(r["label"] as number) >= 0 ? "wrong" : "right"] = { p, text, actions: meta["actions"] as string[], kind: `${String(meta["category"])} ${domain}` };
    chainSides.set(key, e);
  } else {
    const domain = String(r["domain"]);
    const problem = String(r["problem"]);
    const key = `${domain}/${problem}`;
    const chosen = probe(domain, problem, r["chosen_actions"] as string[]);
    // what the chosen side begins: the optimal plan, or a detour or inverse plan (diagnosis: "swap/inverse")
    const chosenKind = meta["chosen_kind"];
    const rejected = probe(domain, problem, r["rejected_actions"] as string[]);
    byProblem.set(key, [...(byProblem.get(key) ?? []), [chosen, rejected]]);
    const pair: [Side, Side] = [
      { p: chosen, text: textOf(r["chosen"]), actions: r["chosen_actions"] as string[], kind: "" },
      { p: rejected, text: textOf(r["rejected"]), actions: r["rejected_actions"] as string[], kind: `${String(r["perturbation"])}${chosenKind === undefined || chosenKind === "optimal" ? "" : `/${String(chosenKind)}`} ${domain}` },
    ];
    pairsBy.set(key, [...(pairsBy.get(key) ?? []), pair]);
  }
}
// a problem with one chain (no wrong step on offer) makes no pair
for (const [key, e] of chainSides) if (e.right !== undefined && e.wrong !== undefined) pairsBy.set(key, [[e.right, e.wrong]]);

/** Chains: AUC of `k` for error (ties half); pairs: share of pairs where `k` picks the chosen side (ties half). */
function score(groups: [Probed, number | Probed][][], k: keyof Probed): number {
  const items = groups.flat();
  if (chains) {
    const err = items.filter(([, e]) => e === 1).map(([p]) => p[k]);
    const ok = items.filter(([, e]) => e === 0).map(([p]) => p[k]);
    let wins = 0;
    for (const a of err) for (const b of ok) wins += a > b ? 1 : a === b ? 0.5 : 0;
    return wins / Math.max(1, err.length * ok.length);
  }
  let picks = 0;
  for (const [c, r] of items) {
    const x = c[k];
    const y = (r as Probed)[k];
    picks += x > y ? 1 : x === y ? 0.5 : 0;
  }
  return picks / Math.max(1, items.length);
}

const groups = [...byProblem.values()];
const prng = new Prng(1, "chain-probes");
const lines: string[] = [];
const say = (s: string) => {
  lines.push(s);
  process.stdout.write(s + "\n");
};
say(`bench/chain-probes: ${dir} (${format}, ${rows.length} rows, ${groups.length} problems); ${chains ? "AUC of the probe for 'has an error'" : "share of pairs the probe picks the chosen side by (higher value)"}, 0.5 = says nothing; 95% bootstrap over problems`);
for (const k of KEYS) {
  const value = score(groups, k);
  const boots: number[] = [];
  for (let b = 0; b < 1000; b++) boots.push(score(Array.from({ length: groups.length }, () => groups[prng.int(groups.length)]!), k));
  boots.sort((a, b) => a - b);
  say(`  ${NAMES[k].padEnd(32)} ${value.toFixed(3)}  [${boots[25]!.toFixed(3)}, ${boots[974]!.toFixed(3)}]`);
}
// ---- pair rules (issue 55): credit 1 when a rule picks the right side, 0.5 on a tie ----

const problems = [...pairsBy.keys()].sort();
/**
 * Splits of the problems into two halves, seeded: a learnt probe learns on one half and is scored
 * on the other, on each split, and the splits' figures are averaged. One split alone moved a probe
 * by ~0.03 between texts that differ by a constant wrapper (issue 55): which problems fall in
 * which half is noise of the measurement, not of the data.
 */
const splitsAt = process.argv.indexOf("--splits");
const SPLITS = splitsAt > 0 ? Number(process.argv[splitsAt + 1]) : 5;
if (!Number.isInteger(SPLITS) || SPLITS < 1) {
  console.error(`bench/chain-probes: error: --splits must be a whole number of at least 1, got ${JSON.stringify(process.argv[splitsAt + 1] ?? "")}`);
  process.exit(2);
}
const halves: Map<string, number>[] = Array.from({ length: SPLITS }, (_, s) => {
  const halfOf = new Map<string, number>();
  new Prng(1, s === 0 ? "chain-probes/halves" : `chain-probes/halves${s}`).shuffle(problems.slice()).forEach((k, i) => halfOf.set(k, i % 2));
  return halfOf;
});
/** A learnt probe's credits: one map per split. */
type SplitCredits = Map<string, number[]>[];

/**
 * Share of pairs credited and its 95% bootstrap interval over problems. A cross-fitted probe
 * scores each half with a model fit to the other, so the halves' errors go together (each
 * model fits the noise the other is scored on): their intervals are added, not pooled.
 */
function shareCI(credit: Map<string, number[]>, halfOf: Map<string, number> | null): [number, number, number] {
  const interval = (keys: string[], stream: string): [number, number, number, number] => {
    const sums = keys.map((k) => credit.get(k)!.reduce((a, x) => a + x, 0));
    const ns = keys.map((k) => credit.get(k)!.length);
    const share = (idx: number[]) => idx.reduce((a, i) => a + sums[i]!, 0) / Math.max(1, idx.reduce((a, i) => a + ns[i]!, 0));
    const bp = new Prng(1, stream);
    const boots: number[] = [];
    for (let b = 0; b < 1000; b++) boots.push(share(Array.from({ length: keys.length }, () => bp.int(keys.length))));
    boots.sort((a, b) => a - b);
    return [share(keys.map((_, i) => i)), boots[25]!, boots[974]!, ns.reduce((a, n) => a + n, 0)];
  };
  const keys = problems.filter((k) => (credit.get(k) ?? []).length > 0);
  if (halfOf === null) return interval(keys, "chain-probes/pairs").slice(0, 3) as [number, number, number];
  const [a, b] = [0, 1].map((h) => interval(keys.filter((k) => halfOf.get(k) === h), `chain-probes/pairs${h}`));
  const mix = (i: number) => (a![i]! * a![3]! + b![i]! * b![3]!) / Math.max(1, a![3]! + b![3]!);
  return [mix(0), mix(1), mix(2)];
}

/** A rule's credits (one map), or a learnt probe's (one map per split: share and bounds averaged over the splits). */
function sayShare(name: string, credit: Map<string, number[]> | SplitCredits): void {
  const each = Array.isArray(credit) ? credit.map((c, s) => shareCI(c, halves[s]!)) : [shareCI(credit, null)];
  const mean = (i: number) => each.reduce((a, x) => a + x[i]!, 0) / each.length;
  const [v, lo, hi] = [mean(0), mean(1), mean(2)];
  const g = (x: number) => (x >= 0.5 ? "+" : "") + (x - 0.5).toFixed(3);
  say(`  ${name.padEnd(32)} ${v.toFixed(3)}  [${lo.toFixed(3)}, ${hi.toFixed(3)}]  gain ${g(v)} [${g(lo)}, ${g(hi)}]`);
}

const nPairs = [...pairsBy.values()].reduce((a, ps) => a + ps.length, 0);
say(`  pairs (${nPairs} in ${pairsBy.size} problems): share of pairs a rule picks the right side by (ties half), gain over 0.5; 95% bootstrap over problems`);

// the rule of issue 55, with the goal replayed
const ruleCredit = new Map<string, number[]>();
for (const [k, ps] of pairsBy) {
  ruleCredit.set(
    k,
    ps.map(([r, w]) => {
      if (r.p.length === w.p.length) return 0.5;
      const rightShorter = r.p.length < w.p.length;
      return (r.p.goal === 1 && w.p.goal === 1) === rightShorter ? 1 : 0;
    }),
  );
}
sayShare("length x goal rule", ruleCredit);

// any rule on (goal, goal, clipped length difference), cross-fitted over the two halves
{
  // the cell of the pair seen as (x, y) in a canonical order, and whether x is the right side
  const cell = (r: Probed, w: Probed): { key: string; xRight: boolean } | null => {
    const cmp = r.goal - w.goal || r.length - w.length;
    if (cmp === 0) return null;
    const [x, y] = cmp > 0 ? [r, w] : [w, r];
    return { key: `${x.goal}${y.goal}${Math.max(-3, Math.min(3, x.length - y.length))}`, xRight: cmp > 0 };
  };
  const credits: SplitCredits = halves.map((halfOf) => {
    const tally = [new Map<string, [number, number]>(), new Map<string, [number, number]>()];
    for (const [k, ps] of pairsBy) {
      for (const [r, w] of ps) {
        const c = cell(r.p, w.p);
        if (c === null) continue;
        const t = tally[halfOf.get(k)!]!;
        const e = t.get(c.key) ?? [0, 0];
        e[0]++;
        if (c.xRight) e[1]++;
        t.set(c.key, e);
      }
    }
    const credit = new Map<string, number[]>();
    for (const [k, ps] of pairsBy) {
      credit.set(
        k,
        ps.map(([r, w]) => {
          const c = cell(r.p, w.p);
          if (c === null) return 0.5;
          const [n, x] = tally[1 - halfOf.get(k)!]!.get(c.key) ?? [0, 0];
          if (2 * x === n) return 0.5;
          return (2 * x > n) === c.xRight ? 1 : 0;
        }),
      );
    }
    return credit;
  });
  sayShare("length x goal, learnt", credits);
}

/**
 * Character 1-4-grams of a text of each side, right minus wrong, a logistic regression learnt on
 * one half of the problems and scored on the other: the credit of every pair.
 */
function gramProbe(name: string, ...views: ((s: Side) => string)[]): SplitCredits {
  const ids = new Map<string, number>();
  /** Sparse log(1 + count) of a text's character 1-4-grams, sorted by n-gram id. */
  const grams = (side: Side): [Int32Array, Float64Array] => {
    const counts = new Map<number, number>();
    views.forEach((view, v) => {
      const cs = Array.from(view(side));
      for (let n = 1; n <= 4; n++) {
        for (let i = 0; i + n <= cs.length; i++) {
          // each view's n-grams apart from the others'
          const g = `${v}\u0001${cs.slice(i, i + n).join("")}`;
          let id = ids.get(g);
          if (id === undefined) ids.set(g, (id = ids.size));
          counts.set(id, (counts.get(id) ?? 0) + 1);
        }
      }
    });
    const keys = [...counts.keys()].sort((a, b) => a - b);
    return [Int32Array.from(keys), Float64Array.from(keys, (k) => Math.log1p(counts.get(k)!))];
  };
  /** right minus wrong */
  const diff = (a: [Int32Array, Float64Array], b: [Int32Array, Float64Array]): [Int32Array, Float64Array] => {
    const out = new Map<number, number>();
    a[0].forEach((k, i) => out.set(k, a[1][i]!));
    b[0].forEach((k, i) => out.set(k, (out.get(k) ?? 0) - b[1][i]!));
    const keys = [...out.keys()].filter((k) => out.get(k) !== 0).sort((x, y) => x - y);
    return [Int32Array.from(keys), Float64Array.from(keys, (k) => out.get(k)!)];
  };
  const vecs = new Map<string, [Int32Array, Float64Array][]>();
  for (const k of problems) vecs.set(k, pairsBy.get(k)!.map(([r, w]) => diff(grams(r), grams(w))));
  const dim = ids.size;
  // Logistic loss on right - wrong with label 1 (the pair shown either way round gives the same
  // gradient, so no bias can help); AdaGrad, L2 on the touched weights, seeded order.
  const train = (halfOf: Map<string, number>, half: number, split: number): Float64Array => {
    const w = new Float64Array(dim);
    const g2 = new Float64Array(dim).fill(1e-8);
    const xs = problems.filter((k) => halfOf.get(k) === half).flatMap((k) => vecs.get(k)!);
    const order = new Prng(1, split === 0 ? `chain-probes/sgd${half}` : `chain-probes/sgd${half}/${split}`);
    const LR = 0.5;
    const L2 = 1e-4;
    for (let epoch = 0; epoch < 8; epoch++) {
      for (const [ks, vs] of order.shuffle(xs.slice())) {
        let z = 0;
        for (let i = 0; i < ks.length; i++) z += w[ks[i]!]! * vs[i]!;
        const p = 1 / (1 + Math.exp(-z));
        for (let i = 0; i < ks.length; i++) {
          const j = ks[i]!;
          const grad = -(1 - p) * vs[i]! + L2 * w[j]!;
          g2[j]! += grad * grad;
          w[j]! -= (LR * grad) / Math.sqrt(g2[j]!);
        }
      }
    }
    return w;
  };
  if (process.env["CHAIN_PROBES_TOP"] === name) {
    // diagnosis: per n-gram, pairs where the right side has more of it minus pairs where the wrong one has
    const names = [...ids.keys()];
    const more = new Float64Array(dim);
    const seen = new Float64Array(dim);
    for (const vs of vecs.values()) {
      for (const [ks, xs] of vs) {
        ks.forEach((j, i) => {
          more[j]! += Math.sign(xs[i]!);
          seen[j]!++;
        });
      }
    }
    const z = Array.from(more, (m, j) => m / Math.sqrt(Math.max(1, seen[j]!)));
    const top = Array.from(z.keys()).sort((a, b) => Math.abs(z[b]!) - Math.abs(z[a]!)).slice(0, 40);
    for (const j of top) console.log(JSON.stringify(names[j]), z[j]!.toFixed(2), more[j], seen[j]);
  }
  return halves.map((halfOf, split) => {
    const models = [train(halfOf, 0, split), train(halfOf, 1, split)];
    const credit = new Map<string, number[]>();
    for (const k of problems) {
      const w = models[1 - halfOf.get(k)!]!;
      credit.set(
        k,
        vecs.get(k)!.map(([ks, vs]) => {
          let z = 0;
          for (let i = 0; i < ks.length; i++) z += w[ks[i]!]! * vs[i]!;
          return z > 0 ? 1 : z < 0 ? 0 : 0.5;
        }),
      );
    }
    return credit;
  });
}
const rawCredit = gramProbe("raw", (x) => x.text);
sayShare("raw characters 1-4, logistic", rawCredit);
// control: the same probe on the PDDL actions alone; what the text adds beyond them is its own
const actions = (x: Side) => x.actions.join("\n");
const actCredit = gramProbe("actions", actions);
sayShare("  control: PDDL actions 1-4", actCredit);
sayShare("  raw text and actions", gramProbe("both", (x) => x.text, actions));
// the text's form alone (the audit's skeleton: lowercase words "~", digits "9")
const formCredit = gramProbe("form", (x) => skeleton(x.text));
sayShare("  form of the raw text", formCredit);
if (process.env["CHAIN_PROBES_TOP"]) {
  // diagnosis: the probes' shares by kind (trajectories: perturbation; chains: first error's category), then by kind and domain
  // (the first split's credits)
  const views: [string, Map<string, number[]>][] = [["raw", rawCredit[0]!], ["actions", actCredit[0]!], ["form", formCredit[0]!]];
  for (const coarse of [true, false]) {
    const byKind = new Map<string, number[]>();
    for (const [k, ps] of pairsBy) {
      ps.forEach(([, w], i) => {
        const kind = coarse ? w.kind.split(" ")[0]! : w.kind;
        const e = byKind.get(kind) ?? [0, 0, 0, 0];
        views.forEach(([, c], v) => (e[v]! += c.get(k)![i]!));
        e[3]!++;
        byKind.set(kind, e);
      });
    }
    for (const [kind, e] of [...byKind].sort()) console.log(`    ${kind.padEnd(28)} ${views.map(([n], v) => `${n} ${(e[v]! / e[3]!).toFixed(3)}`).join("  ")}  (${e[3]})`);
  }
}

if (outAt > 0 && process.argv[outAt + 1] !== undefined) writeFileSync(process.argv[outAt + 1]!, lines.join("\n") + "\n", { flag: "a" });
