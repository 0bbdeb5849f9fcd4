/**
 * `pddl2prm audit`: the shortcut baselines on a dataset folder of any format. A PRM must check
 * a step against the state; when a label can be read off the surface (length, position,
 * an object named twice, the wording beyond the action) the data teaches shortcuts. Each
 * baseline here reads only such a surface feature; the checks fail when one predicts the
 * label clearly better than chance (DESIGN.md §13, docs/audit.md).
 */
import { UserError } from "../pddl/errors.js";
import { mixedHash, uniformOf } from "../util/prng.js";
import { repeatsObject, sameObjects, StepTextParser, type Act } from "./actions.js";
import { accuracy, auc, bestDirection, byId, clusterBootstrapSe, clusteredMean, macroF1, macroF1Coded, LogisticRegression, meanShare, pickAccuracy, type Scored } from "./measures.js";
import { OptionProbes, type OptionProbeResult } from "./options.js";
import { PairProbes, UnitProbes, type ProbeResult } from "./probes.js";
import { countRows, openDataset, readRowBatches, type ShardRow } from "./read.js";
import { toUnits, unitKind, type ChainUnit, type Side, type StepUnit, type Unit } from "./units.js";

/** The documented thresholds of the checks (docs/audit.md). */
export const AUDIT_THRESHOLDS = {
  /** Text-only minus action-only classifier, macro-F1 on the test split (`--max-gap`). */
  maxGap: 0.02,
  /** A length rule (steps, characters) on chains and pairs, and the depth of a dialogue's turns: best-direction accuracy or AUC. */
  lengthRule: 0.55,
  /** Candidate position on step rows: |AUC - 0.5|. */
  positionAuc: 0.03,
  /** Position, and an object named twice, on chains and pairs: best-direction score. */
  pairChainRule: 0.55,
  /** A probe's gain over its prior: one-vs-rest AUC per class (step rows, chains), pick rate (pairs). */
  probeGain: 0.02,
  /** A question option picked by its form alone (the odd one out: predicate, argument count, length): pick rate over chance. */
  optionGain: 0.05,
  /** Step rows naming one object twice: flagged when at least this many share one label ... */
  repeatedObjectRows: 10,
  /** ... at this share or more. */
  repeatedObjectShare: 0.95,
} as const;

export interface AuditOptions {
  /** Largest allowed text-minus-action macro-F1 gap (default `AUDIT_THRESHOLDS.maxGap`). */
  maxGap?: number;
  /** Also fail when any single-row rule scores above this (best direction; default: off). */
  maxRule?: number | null;
  /**
   * Audit about this many rows at most: whole problems sampled by a hash of their id (the
   * dataset card's audit of a paper-scale corpus; default: every row).
   */
  maxRows?: number;
  /** Audit only the rows of this domain (the first part of their ids). */
  domain?: string;
  /**
   * Compute only what decides the checks (the dataset card's headline): probes that are only
   * reported are skipped, and a probe gain within its limit gets no standard error (NaN). The
   * verdicts and every figure of `auditHeadline` are those of the full audit.
   */
  headlineOnly?: boolean;
}

/** One shortcut rule's result. */
export interface RuleResult {
  name: string;
  /** "all", a perturbation or a rejected category (pairs). */
  group: string;
  /**
   * How `value` is measured: `auc` (P(feature of a positive > of a negative), positives =
   * executable steps or error chains), `pick` (share of pairs whose chosen side has the higher
   * feature), `paired` (chains: share of a problem's error/correct chain pairs where the error
   * chain has the higher feature), `rank` (chains with an error: the share of the steps before
   * the first wrong step that it exceeds, averaged over chains). Ties count half; 0.5 = no
   * information either way.
   */
  measure: "auc" | "pick" | "paired" | "rank";
  n: number;
  value: number;
  se: number;
  /** max(value, 1 - value): the rule read in its better direction. */
  score: number;
  /** Binary rules on step rows: rows where the rule fires, and the largest label share among them. */
  fires?: number;
  share?: number | null;
}

export interface Check {
  name: string;
  group: string;
  value: number;
  /** The documented limit, as text ("<= 0.55", "0.5 +- 0.03", ...). */
  limit: string;
  pass: boolean;
  /** Probes: the features behind the value (the probe model's features that set the class apart). */
  features?: string[];
}

export interface ClassifierResult {
  accuracy: number;
  macro_f1: number;
}

export interface AuditReport {
  dir: string;
  format: string;
  unit: Unit["kind"];
  units: number;
  /** What the rules predict. */
  target: string;
  split: { train: number; test: number; source: "splits" | "problem hash" };
  majority: ClassifierResult & { label: string };
  /**
   * `gap`: text minus action macro-F1 on the test split, `gap_se` its cluster-bootstrap standard
   * error; `loglik_gain`: how much more likely (mean log) the text model finds the gold labels.
   * Macro-F1 rewards spreading predictions over rare classes, which a model fitting noise does:
   * a gap counts only when the text model is also more likely, beyond noise.
   */
  classifiers: { action: ClassifierResult; text: ClassifierResult; gap: number; gap_se: number; loglik_gain: number; loglik_gain_se: number };
  rules: RuleResult[];
  /**
   * What each view of a row (candidate words, characters, position, the previous step, the
   * prompt) adds to a model that sees only the action, per class one against the rest, on the
   * test problems (src/audit/probes.ts).
   */
  probes: ProbeResult[];
  /**
   * Reasoning questions (`acp`): per kind and form, how often the option that stands out by its
   * form (rarest predicate, rarest argument count, shortest, longest) is right, against chance
   * (src/audit/options.ts); empty for other formats.
   */
  option_probes: OptionProbeResult[];
  /** The highest-scoring single-row rule (any format). */
  best_rule: RuleResult | null;
  checks: Check[];
  /** With `maxRows`: the dataset's rows and the share of its problems audited (null: all). */
  sample: { rows: number; rate: number } | null;
  /** Steps parsed back from text (trl, openrlhf, math-shepherd, paper-prm), and how many did not parse. */
  actions_parsed: { asked: number; failed: number } | null;
  pass: boolean;
}

const TARGET: Record<Unit["kind"], string> = {
  step: "rules: executable or not; classifiers: the category",
  chain: "the chain holds an error",
  pair: "which side is chosen",
};

function rule(name: string, group: string, measure: RuleResult["measure"], s: Scored, extra: Partial<RuleResult> = {}): RuleResult {
  return { name, group, measure, n: s.n, value: s.value, se: s.se, score: bestDirection(s).value, ...extra };
}

/** Train and score the two classifiers and the majority class on pre-collected examples. */
class Classifiers {
  readonly action = new LogisticRegression();
  readonly text = new LogisticRegression();
  readonly labelCounts = new Map<string, number>();
  readonly test: { action: string[]; text: string[]; label: string; problem: string; id: string }[] = [];
  trained = 0;

  /** `key` places the example in the training order (a hash of its unit's id): the order rows come in changes nothing. */
  learn(action: string[], text: string[], label: string, key: number): void {
    this.action.add(action, label, key);
    this.text.add(text, label, key);
    this.labelCounts.set(label, (this.labelCounts.get(label) ?? 0) + 1);
  }

  /** Fit both models (seeded: the same data gives the same figures). */
  train(): void {
    this.action.train(1);
    this.text.train(1);
  }

  majorityLabel(): string {
    let best = "";
    let n = -1;
    for (const [l, c] of [...this.labelCounts].sort((a, b) => (a[0] < b[0] ? -1 : 1))) if (c > n) [best, n] = [l, c];
    return best;
  }
}

/** Result of the classifiers on single-example tests (steps, chains). */
function scoreSingles(c: Classifiers): Pick<AuditReport, "majority" | "classifiers"> {
  c.train();
  byId(c.test);
  const gold = c.test.map((t) => t.label);
  const pa: (string | null)[] = [];
  const pt: (string | null)[] = [];
  const gain: number[] = [];
  // each model's probabilities once per item, for its prediction and for the gold label's likelihood
  for (const t of c.test) {
    const a = c.action.classProbabilities(t.action);
    const x = c.text.classProbabilities(t.text);
    pa.push(c.action.best(a));
    pt.push(c.text.best(x));
    gain.push(logOf(c.text, x, t.label) - logOf(c.action, a, t.label));
  }
  const maj = c.majorityLabel();
  const pm = gold.map(() => maj);
  return finish(gold, pa, pt, pm, maj, c.test.map((t) => t.problem), gain);
}

/** log P(label | tokens) under a model. */
const logP = (m: LogisticRegression, tokens: string[], label: string): number => Math.log(Math.max(m.predictProba(tokens).get(label) ?? 0, 1e-12));

/** log P(label) from a model's `classProbabilities` (a label it never learnt: P = 0). */
function logOf(m: LogisticRegression, p: Float64Array, label: string): number {
  const k = m.labelsLearnt.indexOf(label);
  return Math.log(Math.max(k < 0 ? 0 : p[k]!, 1e-12));
}

/**
 * Figures of the classifiers on the test items: gold labels, the action model's, the text
 * model's and the majority predictions, each item's problem (the bootstrap's cluster) and the
 * text model's gain in log-likelihood of the gold label over the action model.
 */
function finish(
  gold: string[],
  pa: (string | null)[],
  pt: (string | null)[],
  pm: string[],
  maj: string,
  problems: string[],
  gain: number[],
): Pick<AuditReport, "majority" | "classifiers"> {
  const action = { accuracy: accuracy(gold, pa), macro_f1: macroF1(gold, pa) };
  const text = { accuracy: accuracy(gold, pt), macro_f1: macroF1(gold, pt) };
  const codes = new Map<string, number>();
  const code = (l: string | null): number => {
    if (l === null) return -1;
    let c = codes.get(l);
    if (c === undefined) codes.set(l, (c = codes.size));
    return c;
  };
  const g = Int32Array.from(gold, code);
  const ct = Int32Array.from(pt, code);
  const ca = Int32Array.from(pa, code);
  const se = clusterBootstrapSe(problems, (items) => macroF1Coded(g, ct, codes.size, items) - macroF1Coded(g, ca, codes.size, items));
  const mean = (items: number[]): number => (items.length === 0 ? 0 : items.reduce((a, i) => a + gain[i]!, 0) / items.length);
  const all = gain.map((_, i) => i);
  return {
    majority: { label: maj, accuracy: accuracy(gold, pm), macro_f1: macroF1(gold, pm) },
    classifiers: {
      action,
      text,
      gap: text.macro_f1 - action.macro_f1,
      gap_se: se,
      loglik_gain: mean(all),
      loglik_gain_se: clusterBootstrapSe(problems, mean),
    },
  };
}

/** Action types; a step whose text does not parse back adds none (its failing is its form, which the text model must show, not the action model absorb). */
const actTokens = (acts: readonly (Act | null)[]): string[] => acts.flatMap((a) => (a === null ? [] : [a.type]));
const countRepeats = (s: Side): number => s.acts.filter(repeatsObject).length;
const countSame = (s: Side): number => {
  let k = 0;
  s.acts.forEach((a, i) => (k += sameObjects(i === 0 ? s.prev : s.acts[i - 1]!, a) ? 1 : 0));
  return k;
};

/**
 * Fewest held-out problems (validation and test) for the audit to measure on the dataset's own
 * splits. A probe's gain on the rows of a few problems is mostly which problems they are: 5% of
 * a 32-problem run is 2 problems, and a learnt probe's average precision on their 4 chains read
 * +0.45 over the prior by chance (issue 55).
 */
export const MIN_HELD_OUT_PROBLEMS = 30;

/** Most examples either classifier learns from (train) or is scored on (test); more are sampled by id hash. */
const CLASSIFIER_CAP = { train: 200_000, test: 50_000 } as const;

/** Is the row on `line` of a problem in the sample? (its "domain/problem" id prefix, hashed; rows without one are kept) */
function inSample(line: string, rate: number): boolean {
  const m = /^\{"id":"([^"/]*\/[^"/]*)/.exec(line);
  return m === null || uniformOf(m[1]!) < rate;
}

/** Run the audit on the dataset folder `dir`. */
export async function runAudit(dir: string, options: AuditOptions = {}): Promise<AuditReport> {
  const info = openDataset(dir);
  // prompts without a label of their own: what the model writes is rewarded at training time
  if (info.format === "rl") throw new UserError(`${dir}: --format rl rows are prompts, not labelled steps: there is nothing to audit`);
  const kind = unitKind(info.format);
  const rows = info.rowsBySplit ?? (await countRows(info));
  // The dataset's own splits where its held-out problems are enough to measure on; else (no
  // test split, or a few problems held out, as 5% of a small run are) a third of all problems.
  const heldOutProblems = info.problemsBySplit === null ? Infinity : info.problemsBySplit.test + info.problemsBySplit.validation;
  const bySplits = rows.train > 0 && rows.test > 0 && heldOutProblems >= MIN_HELD_OUT_PROBLEMS;
  // Units counted per role for the classifiers: pairs give two examples each.
  const perUnit = kind === "pair" ? 2 : 1;
  const rate = (role: "train" | "test", n: number): number => Math.min(1, CLASSIFIER_CAP[role] / Math.max(1, n * perUnit));
  const total = rows.train + rows.validation + rows.test;
  const rates = bySplits ? { train: rate("train", rows.train), test: rate("test", rows.test) } : { train: rate("train", total), test: rate("test", total / 3) };
  const role = (u: Unit): "train" | "test" | null => {
    // A dataset without both splits: a third of the problems, by hash, are the test set.
    const r = bySplits ? (u.split === "train" ? "train" : u.split === "test" ? "test" : null) : uniformOf(u.problem) < 1 / 3 ? "test" : "train";
    return r !== null && uniformOf(u.id) < rates[r] ? r : null;
  };
  // The probes are scored on every held-out problem (validation too: more items, smaller
  // intervals), capped as the classifiers' test set is.
  const heldOutRate = bySplits ? rate("test", rows.test + rows.validation) : rates.test;
  const heldOut = (u: Unit): boolean => (bySplits ? u.split !== "train" : uniformOf(u.problem) < 1 / 3) && uniformOf(u.id) < heldOutRate;
  const builtin = info.config["domain_file"] === null && info.config["pairs"] === null && info.config["templates_sha256"] === undefined;
  const parser = new StepTextParser(info.dir, builtin);
  const cls = new Classifiers();
  const steps: StepFeatures[] = [];
  const chains: ChainFeatures[] = [];
  const pairs: PairFeatures[] = [];
  const pairTests: PairTest[] = [];
  let units = 0;
  let pruned = 0;
  const unitProbes = kind === "pair" ? null : new UnitProbes<StepUnit | ChainUnit>(kind, info.format === "feedback", options.headlineOnly === true);
  const pairProbes = kind === "pair" ? new PairProbes() : null;
  const optionProbes = info.format === "acp" ? new OptionProbes() : null;
  // the candidates of one state are shown the same prompt and prefix: a difference is written by label
  const contexts = new Map<string, number>();
  let contextDiffers = 0;
  let contextStates = 0;
  // rows' places in their shards, by state (chains: by problem)
  const orders: OrderItem[] = [];
  // chains and plans: does each end at the goal? (the length x goal rule; step pairs are one step)
  const chainGoals = info.format === "processbench" || info.format === "verifier" || info.format === "trajectories";
  const goalOf = (problem: string, acts: readonly (Act | null)[]): boolean | null => {
    const at = problem.indexOf("/");
    return parser.endsAtGoal(problem.slice(0, at), problem.slice(at + 1), acts);
  };

  const sampleRate = options.maxRows !== undefined && total > options.maxRows ? options.maxRows / total : 1;
  const keep = sampleRate < 1 ? (line: string): boolean => inSample(line, sampleRate) : undefined;
  const domains = new Set<string>();
  const ofDomain = (row: ShardRow): boolean => options.domain === undefined || String(row.obj["id"] ?? "").split("/")[0] === options.domain;
  for await (const batch of readRowBatches(info, keep)) for (const row of batch) {
    // the options' form, read on every question (a rule with nothing to learn: no split)
    if (optionProbes !== null && ofDomain(row)) optionProbes.add(row);
    for (const u of toUnits(info.format, row, parser)) {
      if (options.domain !== undefined) {
        const d = u.problem.slice(0, u.problem.indexOf("/"));
        domains.add(d);
        if (d !== options.domain) continue;
      }
      units++;
      const r = role(u);
      if (u.kind === "pair") {
        pruned += u.pruned;
        if (r === "train") {
          cls.learn(actTokens(u.chosen.acts), u.chosen.words, "chosen", mixedHash(`${u.id}\u0000chosen`));
          cls.learn(actTokens(u.rejected.acts), u.rejected.words, "rejected", mixedHash(`${u.id}\u0000rejected`));
          cls.trained++;
          pairProbes!.learn(u);
        } else if (r === "test") {
          pairTests.push({ chosen: u.chosen, rejected: u.rejected, first: u.first, problem: u.problem, id: u.id });
        }
        if (r !== "train" && heldOut(u)) pairProbes!.keep(u);
        const goals = chainGoals ? [goalOf(u.problem, u.chosen.acts), goalOf(u.problem, u.rejected.acts)] : [null, null];
        pairs.push({ id: u.id, problem: u.problem, group: u.group, first: u.first, chosen: sideFeatures(u.chosen), rejected: sideFeatures(u.rejected), goal: { chosen: goals[0]!, rejected: goals[1]! } });
        continue;
      }
      const label = u.kind === "step" ? u.category : u.error ? "error" : "correct";
      const at = actTokens(u.kind === "step" ? [u.act] : u.acts);
      if (r === "train") {
        const key = mixedHash(u.id);
        cls.learn(at, u.words, label, key);
        cls.trained++;
        unitProbes!.learn(u, label, key);
      } else if (r === "test") {
        cls.test.push({ action: at, text: u.words, label, problem: u.problem, id: u.id });
      }
      if (r !== "train" && heldOut(u)) unitProbes!.keep(u, label, u.problem);
      if (u.kind === "step" && u.state !== null && u.context !== null) {
        const seen = contexts.get(u.state);
        if (seen === undefined) (contexts.set(u.state, u.context), contextStates++);
        else if (seen !== u.context) contextDiffers++;
      }
      // where the row is in its shard, for the row-order rules (not for feedback turns: a dialogue's order is its walk)
      const orderGroup = u.kind === "chain" ? u.problem : info.format === "feedback" ? null : u.state ?? u.problem;
      if (orderGroup !== null) orders.push({ id: u.id, group: orderGroup, file: u.raw.file, line: u.raw.line, label, problem: u.problem });
      if (u.kind === "step") {
        // the label a repeated object must not give away: executable or not; a question's own answer (acp)
        const side = info.format === "acp" ? u.category : String(u.category !== "non-executable");
        steps.push({ id: u.id, problem: u.problem, executable: u.category !== "non-executable", side, steps: u.steps, chars: u.chars, position: u.position, repeats: repeatsObject(u.act), same: sameObjects(u.prev, u.act) });
      } else {
        chains.push({ id: u.id, problem: u.problem, error: u.error, values: CHAIN_FEATURES.map(([, get]) => get(u)), firstError: firstErrorShares(u), goal: chainGoals ? goalOf(u.problem, u.acts) : null });
      }
    }
  }

  if (options.domain !== undefined && units === 0) {
    throw new UserError(`${dir}: no rows of domain '${options.domain}' (its domains: ${[...domains].sort().join(", ") || "none"})`);
  }
  // every figure from the items in one order, by id: the order rows come in changes nothing
  for (const xs of [pairTests, pairs, steps, chains, orders] as { id: string }[][]) byId(xs);
  let head: Pick<AuditReport, "majority" | "classifiers">;
  let rules: RuleResult[];
  if (kind === "pair") {
    head = scorePairs(cls, pairTests);
    rules = pairRules(pairs, chainGoals);
  } else {
    head = scoreSingles(cls);
    rules = kind === "step" ? stepRules(steps) : chainRules(chains, chainGoals);
    rules.push(...orderRules(orders, kind));
  }
  const testCount = kind === "pair" ? pairTests.length : cls.test.length;
  const probes = kind === "pair" ? pairProbes!.results() : unitProbes!.results(options.headlineOnly === true ? AUDIT_THRESHOLDS.probeGain : undefined);
  const optionResults = optionProbes?.results() ?? [];
  const checks = makeChecks(kind, info.format, rules, head.classifiers, probes, optionResults, options);
  if (contextStates > 0) {
    checks.push({ name: "rows whose prompt or prefix differs from their state's other candidates' (count)", group: "all", value: contextDiffers, limit: "0", pass: contextDiffers === 0 });
  }
  if (kind === "pair") {
    // a rejected step that no state could allow (a move between cells that are not adjacent) is
    // rejectable without reading the state: a count, not an estimate, so none may pass
    checks.push({ name: "rejected steps a fixed fact rules out (count)", group: "all", value: pruned, limit: "0", pass: pruned === 0 });
  }
  const best = rules.reduce<RuleResult | null>((b, r) => (b === null || r.score > b.score ? r : b), null);
  return {
    dir,
    format: info.format,
    unit: kind,
    units,
    target: TARGET[kind],
    split: { train: cls.trained, test: testCount, source: bySplits ? "splits" : "problem hash" },
    ...head,
    rules,
    probes,
    option_probes: optionResults,
    best_rule: best,
    checks,
    actions_parsed: parser.asked > 0 ? { asked: parser.asked, failed: parser.failed } : null,
    sample: sampleRate < 1 ? { rows: total, rate: sampleRate } : null,
    pass: checks.every((c) => c.pass),
  };
}

interface PairTest {
  id: string;
  problem: string;
  chosen: Side;
  rejected: Side;
  first: "chosen" | "rejected";
}

/** Pairs: each classifier picks the side it finds more likely chosen (a tie: the side shown first, a seeded coin). */
function scorePairs(cls: Classifiers, tests: PairTest[]): Pick<AuditReport, "majority" | "classifiers"> {
  cls.train();
  const margin = (m: LogisticRegression, tokens: string[]): number => m.predictProba(tokens).get("chosen") ?? 0.5;
  const gold: string[] = [];
  const pa: string[] = [];
  const pt: string[] = [];
  const pm: string[] = [];
  const gain: number[] = [];
  for (const t of tests) {
    for (const [side, label] of [[t.chosen, "chosen"], [t.rejected, "rejected"]] as const) {
      gain.push(logP(cls.text, side.words, label) - logP(cls.action, actTokens(side.acts), label));
    }
    const a = margin(cls.action, actTokens(t.chosen.acts)) - margin(cls.action, actTokens(t.rejected.acts));
    const x = margin(cls.text, t.chosen.words) - margin(cls.text, t.rejected.words);
    // side-level labels: the side a classifier picks is "chosen", the other "rejected"
    const pick = (d: number): string[] => (d > 0 || (d === 0 && t.first === "chosen") ? ["chosen", "rejected"] : ["rejected", "chosen"]);
    gold.push("chosen", "rejected");
    pa.push(...pick(a));
    pt.push(...pick(x));
    pm.push("chosen", "chosen");
  }
  return finish(gold, pa, pt, pm, "chosen", tests.flatMap((t) => [t.problem, t.problem]), gain);
}

/** What the rules need of a step row. */
interface StepFeatures {
  id: string;
  problem: string;
  executable: boolean;
  /** The label the binary rules' share is over (see `side` where units are read). */
  side: string;
  steps: number;
  chars: number;
  position: number;
  repeats: boolean;
  same: boolean;
}

/** What the rules need of a chain: its problem, label, the values of CHAIN_FEATURES and of FIRST_ERROR_FEATURES. */
interface ChainFeatures {
  id: string;
  problem: string;
  error: boolean;
  values: number[];
  /** Per FIRST_ERROR_FEATURES: the share of the steps before the first wrong step it exceeds (null: no error, or it is step 1). */
  firstError: (number | null)[];
  /** Does the chain end at the goal, replayed (null: not asked, or not resolved)? */
  goal: boolean | null;
}

/** What the rules need of a pair: the values of PAIR_FEATURES on each side. */
interface PairFeatures {
  id: string;
  problem: string;
  group: string;
  /** Does each side end at the goal, replayed (trajectories; null: not asked or not resolved)? */
  goal: { chosen: boolean | null; rejected: boolean | null };
  first: "chosen" | "rejected";
  chosen: number[];
  rejected: number[];
}

function stepRules(units: StepFeatures[]): RuleResult[] {
  const exec = units.filter((u) => u.executable);
  const non = units.filter((u) => !u.executable);
  const clusters = { pos: exec.map((u) => u.problem), neg: non.map((u) => u.problem) };
  const f = (name: string, get: (u: StepFeatures) => number, extra: Partial<RuleResult> = {}): RuleResult =>
    rule(name, "all", "auc", auc(exec.map(get), non.map(get), clusters), extra);
  const binary = (name: string, test: (u: StepFeatures) => boolean): RuleResult => {
    const fired = units.filter(test);
    const bySide = new Map<string, number>();
    for (const u of fired) bySide.set(u.side, (bySide.get(u.side) ?? 0) + 1);
    const share = fired.length === 0 ? null : Math.max(...bySide.values()) / fired.length;
    return f(name, (u) => (test(u) ? 1 : 0), { fires: fired.length, share });
  };
  return [
    f("length: steps", (u) => u.steps),
    f("length: characters", (u) => u.chars),
    f("candidate position", (u) => u.position),
    binary("repeated object", (u) => u.repeats),
    binary("same objects as previous step", (u) => u.same),
  ];
}

const CHAIN_FEATURES: [string, (u: ChainUnit) => number][] = [
  ["length: steps", (u) => u.steps],
  ["length: characters", (u) => u.chars],
  ["position", (u) => u.position],
  ["repeated object", (u) => u.acts.filter(repeatsObject).length],
  ["same objects as previous step", (u) => countSame({ steps: u.steps, chars: u.chars, acts: u.acts, prev: null, words: [], texts: [], raw: "" })],
];

/** Features of one step of a chain, for "can the surface tell the first wrong step from the steps before it?". */
const FIRST_ERROR_FEATURES: [string, (u: ChainUnit, i: number) => number][] = [
  ["characters", (u, i) => u.stepChars[i] ?? 0],
  ["repeated object", (u, i) => (repeatsObject(u.acts[i] ?? null) ? 1 : 0)],
  ["same objects as previous step", (u, i) => (i > 0 && sameObjects(u.acts[i - 1] ?? null, u.acts[i] ?? null) ? 1 : 0)],
];

function firstErrorShares(u: ChainUnit): (number | null)[] {
  const d = u.firstError;
  return FIRST_ERROR_FEATURES.map(([, get]) => {
    if (d <= 0) return null;
    const x = get(u, d);
    let s = 0;
    for (let i = 0; i < d; i++) {
      const y = get(u, i);
      s += x > y ? 1 : x === y ? 0.5 : 0;
    }
    return s / d;
  });
}

function chainRules(units: ChainFeatures[], goals: boolean): RuleResult[] {
  const byProblem = new Map<string, ChainFeatures[]>();
  for (const u of units) byProblem.set(u.problem, [...(byProblem.get(u.problem) ?? []), u]);
  const errors = units.filter((u) => u.error);
  const correct = units.filter((u) => !u.error);
  const clusters = { pos: errors.map((u) => u.problem), neg: correct.map((u) => u.problem) };
  const out: RuleResult[] = [];
  CHAIN_FEATURES.forEach(([name], k) => {
    out.push(rule(name, "all", "auc", auc(errors.map((u) => u.values[k]!), correct.map((u) => u.values[k]!), clusters)));
    const pairs: [number, number][] = [];
    for (const us of byProblem.values()) for (const e of us) if (e.error) for (const c of us) if (!c.error) pairs.push([e.values[k]!, c.values[k]!]);
    out.push(rule(name, "all", "paired", pickAccuracy(pairs)));
  });
  FIRST_ERROR_FEATURES.forEach(([name], k) => {
    const shares = units.map((u) => u.firstError[k]).filter((x): x is number => x != null);
    out.push(rule(`first error: ${name}`, "all", "rank", meanShare(shares)));
  });
  if (goals) {
    const items: LengthGoalItem[] = [];
    for (const us of byProblem.values()) {
      for (const e of us) {
        if (!e.error || e.goal === null) continue;
        for (const c of us) if (!c.error && c.goal !== null) items.push({ wrong: [e.goal ? 1 : 0, e.values[0]!], right: [c.goal ? 1 : 0, c.values[0]!], problem: e.problem });
      }
    }
    out.push(rule(LENGTH_GOAL, "all", "paired", lengthGoal(items)));
  }
  return out;
}

/** The rule of issue 55: which chain of a pair is wrong, from whether each ends at the goal and their lengths. */
const LENGTH_GOAL = "length x goal";

interface LengthGoalItem {
  /** (ends at the goal: 1 or 0, length in steps) of the wrong chain (rejected side) and of the right one. */
  wrong: [number, number];
  right: [number, number];
  problem: string;
}

/**
 * The best rule that reads only whether each chain of a pair ends at the goal and their lengths
 * ("if both reach the goal pick the shorter, else the longer" was right on every pair before
 * issue 55): pairs fall into cells by the two chains' (goal, length) seen without their labels
 * (both at the goal, the longer one; one at the goal, the longer or shorter one; ...), and in
 * each cell the rule picks the side that is more often wrong there. The side is learnt on one
 * half of the problems (by id hash) and scored on the other, and the other way round, so a
 * rule that knows nothing scores 0.5 in expectation, not above it. Ties count half; the
 * standard error is over problems (a problem's pairs share its plan).
 */
export function lengthGoal(items: readonly LengthGoalItem[]): Scored {
  const cellOf = (x: LengthGoalItem): { key: string; wrongIsX: boolean } | null => {
    const cmp = x.wrong[0] - x.right[0] || x.wrong[1] - x.right[1];
    if (cmp === 0) return null;
    const [X, Y] = cmp > 0 ? [x.wrong, x.right] : [x.right, x.wrong];
    return { key: `${X[0]}${Y[0]}${Math.sign(X[1] - Y[1])}`, wrongIsX: cmp > 0 };
  };
  const half = (x: LengthGoalItem): number => (uniformOf(x.problem) < 0.5 ? 0 : 1);
  // per half, per cell: pairs and how many have X wrong
  const counts = [new Map<string, [number, number]>(), new Map<string, [number, number]>()];
  const cells = items.map(cellOf);
  items.forEach((x, i) => {
    const c = cells[i];
    if (c === null || c === undefined) return;
    const m = counts[half(x)]!;
    const e = m.get(c.key) ?? [0, 0];
    e[0]++;
    if (c.wrongIsX) e[1]++;
    m.set(c.key, e);
  });
  const credit = items.map((x, i) => {
    const c = cells[i];
    if (c === null || c === undefined) return 0.5;
    const [n, w] = counts[1 - half(x)]!.get(c.key) ?? [0, 0];
    if (2 * w === n) return 0.5;
    return (2 * w > n) === c.wrongIsX ? 1 : 0;
  });
  if (credit.length === 0) return { value: 0.5, se: 0.5, n: 0 };
  return clusteredMean(credit, items.map((x) => x.problem));
}

/** A row's place in its shard (the row-order rules). */
interface OrderItem {
  id: string;
  /** Its state (step rows) or problem (chains, questions). */
  group: string;
  file: string;
  line: number;
  label: string;
  problem: string;
}

/**
 * Row order in the shard (issue 55): per class, the AUC of a row's rank among its state's rows
 * as written (chains: among its problem's), 0 first, 1 last. A writer that puts the optimal
 * candidate last in each state, or error chains second, shows here even when the ids say
 * otherwise. (Where rows sit among other states is their walk's order, not a label's.)
 */
function orderRules(items: OrderItem[], kind: Unit["kind"]): RuleResult[] {
  const byGroup = new Map<string, OrderItem[]>();
  for (const x of items) {
    const l = byGroup.get(x.group);
    if (l) l.push(x);
    else byGroup.set(x.group, [x]);
  }
  const ranked: { rank: number; label: string; problem: string }[] = [];
  for (const xs of byGroup.values()) {
    const rows = [...new Set(xs.map((x) => `${x.file}\u0000${String(x.line).padStart(12, "0")}`))].sort();
    if (rows.length < 2) continue;
    const at = new Map(rows.map((r, i) => [r, i / (rows.length - 1)]));
    for (const x of xs) ranked.push({ rank: at.get(`${x.file}\u0000${String(x.line).padStart(12, "0")}`)!, label: x.label, problem: x.problem });
  }
  const labels = [...new Set(ranked.map((r) => r.label))].sort();
  const classes = kind === "chain" ? ["error"] : labels;
  const name = kind === "chain" ? "row order in its problem (file)" : "row order in its state (file)";
  const out: RuleResult[] = [];
  for (const c of classes) {
    const pos = ranked.filter((r) => r.label === c);
    const neg = ranked.filter((r) => r.label !== c);
    if (pos.length === 0 || neg.length === 0) continue;
    out.push(rule(name, c, "auc", auc(pos.map((r) => r.rank), neg.map((r) => r.rank), { pos: pos.map((r) => r.problem), neg: neg.map((r) => r.problem) })));
  }
  return out;
}

const PAIR_FEATURES: [string, (s: Side) => number][] = [
  ["length: steps", (s) => s.steps],
  ["length: characters", (s) => s.chars],
  ["repeated object", countRepeats],
  ["same objects as previous step", countSame],
];

const sideFeatures = (s: Side): number[] => PAIR_FEATURES.map(([, get]) => get(s));

function pairRules(units: PairFeatures[], goals: boolean): RuleResult[] {
  const groups = ["all", ...[...new Set(units.map((u) => u.group))].sort()];
  const out: RuleResult[] = [];
  for (const g of groups) {
    const us = g === "all" ? units : units.filter((u) => u.group === g);
    PAIR_FEATURES.forEach(([name], k) => out.push(rule(name, g, "pick", pickAccuracy(us.map((u) => [u.chosen[k]!, u.rejected[k]!])))));
    out.push(rule("position (first side)", g, "pick", pickAccuracy(us.map((u) => (u.first === "chosen" ? [1, 0] : [0, 1])))));
    if (goals) {
      const items: LengthGoalItem[] = [];
      for (const u of us) {
        const { chosen: gc, rejected: gr } = u.goal;
        if (gc !== null && gr !== null) items.push({ wrong: [gr ? 1 : 0, u.rejected[0]!], right: [gc ? 1 : 0, u.chosen[0]!], problem: u.problem });
      }
      out.push(rule(LENGTH_GOAL, g, "pick", lengthGoal(items)));
    }
  }
  return out;
}

/** A check before its noise test: it fails when `excess` > 0 and `excess + margin` > z standard errors. */
interface PendingCheck extends Omit<Check, "pass"> {
  /** How far the estimate is past the limit (> 0: past it). */
  excess: number;
  /** Distance from "no information" (0.5, or a gap of 0) to the estimate, to compare with `se`. */
  distance: number;
  se: number;
  /** A further condition, already decided (the gap: the text model must also be more likely). */
  also?: boolean;
}

function makeChecks(kind: Unit["kind"], format: string, rules: RuleResult[], c: AuditReport["classifiers"], probes: ProbeResult[], optionProbes: OptionProbeResult[], o: AuditOptions): Check[] {
  const T = AUDIT_THRESHOLDS;
  const maxGap = o.maxGap ?? T.maxGap;
  const pending: PendingCheck[] = [];
  const ruleCheck = (r: RuleResult, name: string, limit: number): PendingCheck => ({
    name,
    group: r.group,
    value: r.score,
    limit: `<= ${limit}`,
    excess: r.score - limit,
    distance: r.score - 0.5,
    se: r.se,
  });
  pending.push({
    name: "text-minus-action gap (macro-F1)",
    group: "all",
    value: c.gap,
    limit: `<= ${maxGap}`,
    excess: c.gap - maxGap,
    distance: c.gap,
    se: c.gap_se,
    also: c.loglik_gain > 2 * c.loglik_gain_se,
  });
  for (const r of rules) {
    const name = `${r.name} (${r.measure})`;
    if (kind === "step") {
      if (r.name === "candidate position" || r.name.startsWith("row order")) {
        pending.push({ name, group: r.group, value: r.value, limit: `0.5 +- ${T.positionAuc}`, excess: Math.abs(r.value - 0.5) - T.positionAuc, distance: Math.abs(r.value - 0.5), se: r.se });
      }
      // a dialogue's turns: mistakes must not gather early or late (its turns share one walk)
      if (r.name === "length: steps" && format === "feedback") pending.push(ruleCheck(r, name, T.lengthRule));
      if (r.name === "repeated object") {
        const leak = (r.fires ?? 0) >= T.repeatedObjectRows && (r.share ?? 0) >= T.repeatedObjectShare;
        // a count and a share, not an estimate of chance: no noise test
        pending.push({ name: `${r.name} (rows of one label)`, group: r.group, value: r.share ?? 0, limit: `< ${T.repeatedObjectShare} (or < ${T.repeatedObjectRows} rows)`, excess: leak ? 1 : -1, distance: leak ? 1 : 0, se: 0 });
      }
    } else {
      // One step (a step pair's side, a chain's first wrong step): its characters say what its
      // action type says; the classifier gap measures that. Whole chains and plans are gated on
      // length. Acting on the objects of the step before is planning knowledge (see docs/audit.md).
      const oneStep = format === "pairs" || r.name.startsWith("first error");
      const lim = r.name === LENGTH_GOAL
        ? T.lengthRule
        : r.name.startsWith("length") || r.name.endsWith("characters")
        ? oneStep ? null : T.lengthRule
        : r.name.endsWith("same objects as previous step") ? null : T.pairChainRule;
      if (lim !== null) pending.push(ruleCheck(r, name, lim));
    }
    if (o.maxRule != null) pending.push(ruleCheck(r, `${name}, --max-rule`, o.maxRule));
  }
  // a gain held to a limit, with its standard error (probes and option-form rules alike)
  const gainCheck = (name: string, group: string, gain: number, limit: number, se: number, features?: string[]): void => {
    pending.push({ name, group, value: gain, limit: `<= ${limit}`, excess: gain - limit, distance: gain, se, ...(features !== undefined ? { features } : {}) });
  };
  for (const p of probes) if (p.gated) gainCheck(`probe: ${p.probe} (${p.measure} gain over ${p.prior_reads})`, p.group, p.gain, T.probeGain, p.se, p.top);
  for (const p of optionProbes) gainCheck(`option form: ${p.probe} (pick rate over chance ${p.chance.toFixed(3)})`, p.group, p.gain, T.optionGain, p.se);
  // Many checks at once: each is held to a Bonferroni z, so that a dataset without any leak
  // fails one by chance at most 5% of the time.
  const z = normalQuantile(1 - 0.05 / (2 * pending.length));
  return pending.map(({ excess, distance, se, also, ...ch }) => ({ ...ch, pass: !(excess > 0 && distance > z * se && also !== false) }));
}

/** The standard normal quantile (Acklam's rational approximation, |error| < 1.2e-9). */
export function normalQuantile(p: number): number {
  const a = [-39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716, 2.506628277459239];
  const b = [-54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572];
  const c = [-0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968, 2.938163982698783];
  const d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
  const lo = 0.02425;
  const poly = (k: number[], x: number): number => k.reduce((acc, v) => acc * x + v, 0);
  if (p < lo) {
    const q = Math.sqrt(-2 * Math.log(p));
    return poly(c, q) / (poly(d, q) * q + 1);
  }
  if (p > 1 - lo) return -normalQuantile(1 - p);
  const q = p - 0.5;
  const r = q * q;
  return (poly(a, r) * q) / (poly(b, r) * r + 1);
}
