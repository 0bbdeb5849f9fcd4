/**
 * `pddl2prm score`: ProcessBench-style first-error accuracy for step scores, MSE against graded
 * rewards, and pairwise accuracy for preference pairs.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { UserError } from "../pddl/errors.js";
import { lengthBucket } from "./chains.js";

/** A gold chain: step texts with the index of the first wrong step (-1: none). */
export interface GoldChain {
  kind: "chain";
  id: string;
  /** Number of steps. */
  steps: number;
  label: number;
  /** Graded reward per step, when the gold file has them. */
  rewards: number[] | null;
  /** Category of the first wrong step, "none" for an error-free chain. */
  category: string;
  bucket: string;
  domain: string;
}

/** A gold preference pair: which side (as shown, "a" first) is the better one. */
export interface GoldPair {
  kind: "pair";
  id: string;
  level: string;
  prefer: "a" | "b";
  /** Rejected step's category (step pairs) or the perturbation (trajectory pairs). */
  group: string;
  domain: string;
}

export type GoldItem = GoldChain | GoldPair;

/** One prediction line. */
export type Prediction = { step_scores: number[] } | { prefer: "a" | "b" };

function fail(file: string, line: number, msg: string): never {
  throw new UserError(`${file}:${line}: ${msg}`);
}

/** Lines of a .jsonl or .jsonl.gz file, or of every shard of a dataset folder (`data/`, optional split). */
export function readJsonlSource(path: string, split?: string): { file: string; text: string }[] {
  if (!existsSync(path)) throw new UserError(`${path}: no such file`);
  if (statSync(path).isDirectory()) {
    const dir = existsSync(join(path, "data")) ? join(path, "data") : path;
    const names = readdirSync(dir)
      .filter((n) => /\.jsonl(\.gz)?$/.test(n) && (split === undefined || n.startsWith(`${split}-`)))
      .sort();
    if (names.length === 0 && readdirSync(dir).some((n) => n.endsWith(".parquet"))) {
      throw new UserError(`${path}: Parquet shards: score reads JSONL gold rows; generate the evaluation set without --parquet`);
    }
    if (names.length === 0) throw new UserError(`${path}: no .jsonl shards${split ? ` of split '${split}'` : ""}`);
    return names.map((n) => readOne(join(dir, n)));
  }
  return [readOne(path)];
}

function readOne(file: string): { file: string; text: string } {
  let buf: Buffer;
  try {
    buf = readFileSync(file);
  } catch (e) {
    throw new UserError(`${file}: cannot read (${(e as NodeJS.ErrnoException).code ?? String(e)})`);
  }
  if (file.endsWith(".gz")) {
    try {
      buf = gunzipSync(buf);
    } catch {
      throw new UserError(`${file}: not a gzip file`);
    }
  }
  return { file, text: buf.toString("utf8") };
}

function* jsonLines(file: string, text: string): Generator<{ line: number; obj: Record<string, unknown> }> {
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!.trim();
    if (raw === "") continue;
    let obj: unknown;
    try {
      obj = JSON.parse(raw);
    } catch {
      fail(file, i + 1, "invalid JSON");
    }
    if (obj === null || typeof obj !== "object" || Array.isArray(obj)) fail(file, i + 1, "expected a JSON object");
    const o = obj as Record<string, unknown>;
    if (typeof o["id"] !== "string" || o["id"] === "") fail(file, i + 1, "missing string field 'id'");
    yield { line: i + 1, obj: o };
  }
}

const isObj = (x: unknown): x is Record<string, unknown> => x !== null && typeof x === "object" && !Array.isArray(x);
const isNumArray = (x: unknown): x is number[] => Array.isArray(x) && x.every((v) => typeof v === "number" && Number.isFinite(v));

/**
 * Parse gold rows: processbench rows (`steps`, `label`), step or trajectory pairs (`chosen`,
 * `rejected`, `first`, `rejected_category` or `perturbation`), or native rows (`completions`, `labels`: first label < 1 is the error).
 */
export function parseGold(file: string, text: string): GoldItem[] {
  const out: GoldItem[] = [];
  for (const { line, obj } of jsonLines(file, text)) {
    const id = obj["id"] as string;
    if (Array.isArray(obj["steps"]) && typeof obj["label"] === "number") {
      const n = obj["steps"].length;
      const label = obj["label"];
      if (!Number.isInteger(label) || label < -1 || label >= n) fail(file, line, `'label' must be -1 or a step index below ${n}, got ${label}`);
      const meta = isObj(obj["meta"]) ? obj["meta"] : {};
      const rewards = isNumArray(meta["step_rewards"]) && meta["step_rewards"].length === n ? meta["step_rewards"] : null;
      out.push({
        kind: "chain",
        id,
        steps: n,
        label,
        rewards,
        category: label < 0 ? "none" : typeof meta["category"] === "string" ? meta["category"] : "unknown",
        bucket: typeof meta["length_bucket"] === "string" ? meta["length_bucket"] : lengthBucket(n),
        domain: typeof meta["domain"] === "string" ? meta["domain"] : "unknown",
      });
    } else if ("chosen" in obj && "rejected" in obj) {
      // pairs and trajectories: TRL's layout (strings or chat messages), or the older layout with one object per side
      const first = obj["first"] ?? "chosen";
      if (first !== "chosen" && first !== "rejected") fail(file, line, `'first' must be "chosen" or "rejected"`);
      const level = typeof obj["level"] === "string" ? obj["level"] : "step";
      const rej = isObj(obj["rejected"]) ? obj["rejected"] : {};
      const rejCategory = typeof obj["rejected_category"] === "string" ? obj["rejected_category"] : rej["category"];
      const group = typeof obj["perturbation"] === "string" ? obj["perturbation"] : typeof rejCategory === "string" ? rejCategory : "unknown";
      out.push({ kind: "pair", id, level, prefer: first === "chosen" ? "a" : "b", group, domain: typeof obj["domain"] === "string" ? obj["domain"] : "unknown" });
    } else if (Array.isArray(obj["completions"]) && isNumArray(obj["labels"])) {
      const labels = obj["labels"];
      if (labels.length !== obj["completions"].length) fail(file, line, "'labels' and 'completions' differ in length");
      const label = labels.findIndex((l) => l < 1);
      out.push({
        kind: "chain",
        id,
        steps: labels.length,
        label,
        rewards: labels,
        category: label < 0 ? "none" : typeof obj["category"] === "string" ? obj["category"] : "unknown",
        bucket: lengthBucket(labels.length),
        domain: typeof obj["domain"] === "string" ? obj["domain"] : "unknown",
      });
    } else {
      fail(file, line, "not a gold row: expected processbench (steps, label), pairs (chosen, rejected) or native (completions, labels)");
    }
  }
  return out;
}

/** Parse prediction lines `{id, step_scores: [...]}` or `{id, prefer: "a"|"b"}`. Duplicate ids are an error. */
export function parsePredictions(file: string, text: string, into = new Map<string, Prediction>()): Map<string, Prediction> {
  for (const { line, obj } of jsonLines(file, text)) {
    const id = obj["id"] as string;
    if (into.has(id)) fail(file, line, `duplicate id '${id}'`);
    if ("step_scores" in obj) {
      if (!isNumArray(obj["step_scores"])) fail(file, line, "'step_scores' must be an array of finite numbers");
      into.set(id, { step_scores: obj["step_scores"] });
    } else if ("prefer" in obj) {
      if (obj["prefer"] !== "a" && obj["prefer"] !== "b") fail(file, line, `'prefer' must be "a" or "b"`);
      into.set(id, { prefer: obj["prefer"] });
    } else {
      fail(file, line, "expected 'step_scores' (chains) or 'prefer' (pairs)");
    }
  }
  return into;
}

/** Harmonic mean of two accuracies in percent (ProcessBench's F1); 0 when both are 0. */
export function f1Score(errorAcc: number, correctAcc: number): number {
  return errorAcc + correctAcc === 0 ? 0 : (2 * errorAcc * correctAcc) / (errorAcc + correctAcc);
}

/** Predicted first error: the first step whose score is < threshold, or -1. */
export function predictedFirstError(scores: readonly number[], threshold: number): number {
  for (let i = 0; i < scores.length; i++) if (scores[i]! < threshold) return i;
  return -1;
}

/** Accuracy figures of a set of chains (percent; null when the set is empty). */
export interface ChainFigures {
  n_error: number;
  n_correct: number;
  error_acc: number | null;
  correct_acc: number | null;
  f1: number | null;
}

export interface ChainReport extends ChainFigures {
  n: number;
  /** Mean squared error of step scores against graded gold rewards (null: no gold rewards). */
  mse: number | null;
  mse_steps: number;
  /** Error accuracy per category of the first wrong step. */
  by_category: Record<string, { n: number; error_acc: number }>;
  by_length: Record<string, ChainFigures>;
  by_domain: Record<string, ChainFigures>;
}

export interface PairReport {
  n: number;
  accuracy: number;
  by_level: Record<string, { n: number; accuracy: number }>;
  /** Step pairs by rejected category, trajectory pairs by perturbation. */
  by_group: Record<string, { n: number; accuracy: number }>;
  by_domain: Record<string, { n: number; accuracy: number }>;
}

export interface ScoreReport {
  threshold: number;
  threshold_source: "default" | "flag" | "tuned";
  /** Validation F1 at the tuned threshold. */
  tuned_f1?: number;
  chains: ChainReport | null;
  pairs: PairReport | null;
  /** Prediction ids that no gold row has (a wrong file or split?): how many, and the first few. */
  unmatched_predictions: { count: number; first: string[] };
}

const pct = (k: number, n: number) => (n === 0 ? null : (100 * k) / n);
const round = (x: number | null) => (x === null ? null : Math.round(x * 100) / 100);

class Tally {
  e = 0;
  eOk = 0;
  c = 0;
  cOk = 0;
  figures(): ChainFigures {
    const ea = pct(this.eOk, this.e);
    const ca = pct(this.cOk, this.c);
    return {
      n_error: this.e,
      n_correct: this.c,
      error_acc: round(ea),
      correct_acc: round(ca),
      f1: ea === null || ca === null ? null : round(f1Score(ea, ca)),
    };
  }
}

/** Check that every gold id has a prediction of the right kind; returns them in gold order. */
export function matchPredictions(gold: readonly GoldItem[], preds: ReadonlyMap<string, Prediction>, predFile: string): Prediction[] {
  const missing = gold.filter((g) => !preds.has(g.id));
  if (missing.length > 0) {
    throw new UserError(`${predFile}: no prediction for ${missing.length} of ${gold.length} gold ids (first: '${missing[0]!.id}')`);
  }
  return gold.map((g) => {
    const p = preds.get(g.id)!;
    if (g.kind === "chain") {
      if (!("step_scores" in p)) throw new UserError(`${predFile}: id '${g.id}' is a chain: expected 'step_scores'`);
      if (p.step_scores.length !== g.steps) {
        throw new UserError(`${predFile}: id '${g.id}' has ${p.step_scores.length} step scores, the gold chain has ${g.steps} steps`);
      }
    } else if (!("prefer" in p)) {
      throw new UserError(`${predFile}: id '${g.id}' is a pair: expected 'prefer'`);
    }
    return p;
  });
}

/** Score matched gold and predictions at `threshold` (chains) and for pairs. */
export function scoreAll(gold: readonly GoldItem[], preds: readonly Prediction[], threshold: number): { chains: ChainReport | null; pairs: PairReport | null } {
  const all = new Tally();
  const byLen = new Map<string, Tally>();
  const byDom = new Map<string, Tally>();
  const byCat = new Map<string, { n: number; ok: number }>();
  let se = 0;
  let mseSteps = 0;
  let chains = 0;
  const pairAcc = { n: 0, ok: 0 };
  const pairBy = { level: new Map<string, { n: number; ok: number }>(), group: new Map<string, { n: number; ok: number }>(), domain: new Map<string, { n: number; ok: number }>() };
  const bump = (m: Map<string, { n: number; ok: number }>, k: string, ok: boolean) => {
    const x = m.get(k) ?? { n: 0, ok: 0 };
    x.n++;
    if (ok) x.ok++;
    m.set(k, x);
  };
  gold.forEach((g, i) => {
    const p = preds[i]!;
    if (g.kind === "chain") {
      chains++;
      const scores = (p as { step_scores: number[] }).step_scores;
      const ok = predictedFirstError(scores, threshold) === g.label;
      const tallies = [all, getTally(byLen, g.bucket), getTally(byDom, g.domain)];
      for (const t of tallies) {
        if (g.label >= 0) {
          t.e++;
          if (ok) t.eOk++;
        } else {
          t.c++;
          if (ok) t.cOk++;
        }
      }
      if (g.label >= 0) bump(byCat, g.category, ok);
      if (g.rewards) {
        for (let k = 0; k < g.rewards.length; k++) se += (scores[k]! - g.rewards[k]!) ** 2;
        mseSteps += g.rewards.length;
      }
    } else {
      const ok = (p as { prefer: string }).prefer === g.prefer;
      pairAcc.n++;
      if (ok) pairAcc.ok++;
      bump(pairBy.level, g.level, ok);
      bump(pairBy.group, g.group, ok);
      bump(pairBy.domain, g.domain, ok);
    }
  });
  const acc = (m: Map<string, { n: number; ok: number }>) =>
    Object.fromEntries([...m.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1)).map(([k, v]) => [k, { n: v.n, accuracy: round(pct(v.ok, v.n))! }]));
  const figs = (m: Map<string, Tally>) => Object.fromEntries([...m.entries()].sort((a, b) => keyOrder(a[0], b[0])).map(([k, v]) => [k, v.figures()]));
  return {
    chains:
      chains === 0
        ? null
        : {
            n: chains,
            ...all.figures(),
            mse: mseSteps === 0 ? null : Math.round((se / mseSteps) * 1e6) / 1e6,
            mse_steps: mseSteps,
            by_category: Object.fromEntries(
              [...byCat.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1)).map(([k, v]) => [k, { n: v.n, error_acc: round(pct(v.ok, v.n))! }]),
            ),
            by_length: figs(byLen),
            by_domain: figs(byDom),
          },
    pairs: pairAcc.n === 0 ? null : { n: pairAcc.n, accuracy: round(pct(pairAcc.ok, pairAcc.n))!, by_level: acc(pairBy.level), by_group: acc(pairBy.group), by_domain: acc(pairBy.domain) },
  };
}

/** Length buckets in numeric order ("5-8" before "17-32"), other keys alphabetically. */
function keyOrder(a: string, b: string): number {
  const na = parseInt(a, 10);
  const nb = parseInt(b, 10);
  if (!Number.isNaN(na) && !Number.isNaN(nb) && na !== nb) return na - nb;
  return a < b ? -1 : a > b ? 1 : 0;
}

function getTally(m: Map<string, Tally>, k: string): Tally {
  let t = m.get(k);
  if (!t) m.set(k, (t = new Tally()));
  return t;
}

/**
 * The threshold with the best F1 on validation chains (ties: the lowest). Candidates are the
 * distinct behaviours: below every score, midway between consecutive distinct scores, and
 * above every score. O((chains + candidates) log chains).
 */
export function tuneThreshold(gold: readonly GoldItem[], preds: readonly Prediction[]): { threshold: number; f1: number } {
  const corrMins: number[] = [];
  const lo: number[] = [];
  const hi: number[] = [];
  let nErr = 0;
  const values = new Set<number>();
  gold.forEach((g, i) => {
    if (g.kind !== "chain") return;
    const s = (preds[i] as { step_scores: number[] }).step_scores;
    for (const v of s) values.add(v);
    if (g.label < 0) {
      corrMins.push(Math.min(Infinity, ...s));
    } else {
      nErr++;
      // Right iff scores[label] < t <= min(scores before label).
      const before = Math.min(Infinity, ...s.slice(0, g.label));
      if (s[g.label]! < before) {
        lo.push(s[g.label]!);
        hi.push(before);
      }
    }
  });
  if (corrMins.length === 0 || nErr === 0) throw new UserError("--tune needs validation chains with and without errors");
  const u = [...values].sort((a, b) => a - b);
  const cands = [u[0]!];
  for (let i = 1; i < u.length; i++) cands.push((u[i - 1]! + u[i]!) / 2);
  cands.push(u[u.length - 1]! + (u.length > 1 ? (u[u.length - 1]! - u[u.length - 2]!) / 2 : 0.5));
  const sortAsc = (xs: number[]) => Float64Array.from(xs).sort();
  const cm = sortAsc(corrMins);
  const los = sortAsc(lo);
  const his = sortAsc(hi);
  // Count of xs < t and of xs >= t in a sorted array.
  const below = (xs: Float64Array, t: number) => {
    let a = 0;
    let b = xs.length;
    while (a < b) {
      const m = (a + b) >> 1;
      if (xs[m]! < t) a = m + 1;
      else b = m;
    }
    return a;
  };
  let best = { threshold: cands[0]!, f1: -1 };
  for (const t of cands) {
    const cOk = cm.length - below(cm, t);
    const eOk = below(los, t) - below(his, t);
    const f = f1Score((100 * eOk) / nErr, (100 * cOk) / cm.length);
    if (f > best.f1 + 1e-12) best = { threshold: t, f1: f };
  }
  return { threshold: best.threshold, f1: Math.round(best.f1 * 100) / 100 };
}

const fmt = (x: number | null) => (x === null ? "-" : x.toFixed(1));

function table(head: string[], rows: string[][]): string[] {
  const w = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (r: string[]) => r.map((c, i) => (i === 0 ? c.padEnd(w[i]!) : c.padStart(w[i]!))).join("  ");
  return [line(head), ...rows.map(line)];
}

/** The terminal rendering of a report. */
export function formatReport(r: ScoreReport): string {
  const out: string[] = [];
  const c = r.chains;
  if (c) {
    out.push(
      `first-error chains: ${c.n} (${c.n_error} with an error, ${c.n_correct} error-free), threshold ${r.threshold}${r.threshold_source === "tuned" ? ` (tuned, validation F1 ${fmt(r.tuned_f1 ?? null)})` : ""}`,
      "",
    );
    const fig = (k: string, f: ChainFigures) => [k, String(f.n_error), String(f.n_correct), fmt(f.error_acc), fmt(f.correct_acc), fmt(f.f1)];
    out.push(
      ...table(
        ["", "errors", "correct", "error_acc", "correct_acc", "f1"],
        [fig("all", c), ...Object.entries(c.by_length).map(([k, f]) => fig(`length ${k}`, f)), ...Object.entries(c.by_domain).map(([k, f]) => fig(k, f))],
      ),
    );
    if (Object.keys(c.by_category).length > 0) {
      out.push("", ...table(["first error", "chains", "error_acc"], Object.entries(c.by_category).map(([k, v]) => [k, String(v.n), fmt(v.error_acc)])));
    }
    out.push("", c.mse === null ? "mse: - (no graded rewards in gold)" : `mse: ${c.mse.toFixed(4)} over ${c.mse_steps} steps`);
  }
  const p = r.pairs;
  if (p) {
    if (out.length > 0) out.push("");
    out.push(`preference pairs: ${p.n}, accuracy ${fmt(p.accuracy)}`, "");
    const rows = (label: string, m: Record<string, { n: number; accuracy: number }>) => Object.entries(m).map(([k, v]) => [`${label} ${k}`, String(v.n), fmt(v.accuracy)]);
    out.push(...table(["", "pairs", "accuracy"], [...rows("level", p.by_level), ...rows("kind", p.by_group), ...rows("domain", p.by_domain)]));
  }
  return out.join("\n");
}

/** Options of `score()`. */
export interface ScoreOptions {
  /** Default 0.5 (ProcessBench's PRM convention). */
  threshold?: number;
  /** Tune the threshold on these validation files instead (gold, predictions). */
  tune?: { gold: string; pred: string };
  /** With a dataset folder as gold: only this split's shards. */
  split?: string;
}

function load(goldPath: string, predPath: string, split: string | undefined): { gold: GoldItem[]; preds: Prediction[]; unmatched: string[] } {
  const gold: GoldItem[] = [];
  const seen = new Map<string, string>();
  for (const { file, text } of readJsonlSource(goldPath, split)) {
    for (const g of parseGold(file, text)) {
      if (seen.has(g.id)) throw new UserError(`${file}: duplicate gold id '${g.id}'`);
      seen.set(g.id, file);
      gold.push(g);
    }
  }
  if (gold.length === 0) throw new UserError(`${goldPath}: no gold rows`);
  const predMap = new Map<string, Prediction>();
  for (const { file, text } of readJsonlSource(predPath)) parsePredictions(file, text, predMap);
  const unmatched = [...predMap.keys()].filter((id) => !seen.has(id));
  return { gold, preds: matchPredictions(gold, predMap, predPath), unmatched };
}

/** Score prediction file(s) against gold file(s) or a dataset folder (the `pddl2prm score` command). */
export function score(goldPath: string, predPath: string, options: ScoreOptions = {}): ScoreReport {
  let threshold = options.threshold ?? 0.5;
  let source: ScoreReport["threshold_source"] = options.threshold === undefined ? "default" : "flag";
  let tunedF1: number | undefined;
  if (options.tune) {
    const v = load(options.tune.gold, options.tune.pred, undefined);
    const t = tuneThreshold(v.gold, v.preds);
    threshold = t.threshold;
    tunedF1 = t.f1;
    source = "tuned";
  }
  const { gold, preds, unmatched } = load(goldPath, predPath, options.split);
  const r = scoreAll(gold, preds, threshold);
  const report: ScoreReport = {
    threshold,
    threshold_source: source,
    chains: r.chains,
    pairs: r.pairs,
    unmatched_predictions: { count: unmatched.length, first: unmatched.slice(0, 3) },
  };
  if (tunedF1 !== undefined) report.tuned_f1 = tunedF1;
  return report;
}
