/**
 * The statistics of the audit: rank AUC, side-picking accuracy, their standard errors, and a
 * logistic-regression classifier over bags of tokens with macro-F1.
 *
 * The classifier is written here (about 80 lines) rather than taken from npm: the packages made
 * for it store features in dense matrices (ml-logistic-regression, ml-naivebayes: a bag of
 * words over 40,000 rows would be a dense matrix of ~10^8 cells) or are naive Bayes text
 * classifiers that are little used (bayes, wink-naive-bayes-text-classifier).
 */
import { Prng } from "../util/prng.js";

/**
 * The audit's work in this thread, in deterministic units (as `src/search/work.ts` counts the
 * searches'): classifier examples and weight updates trained, resampled items (bootstrap,
 * permutations) scored. The card's audit runs after every generate, so its cost is part of the
 * main job (tests/work-counters).
 */
export const auditWork = { examples: 0, weightUpdates: 0, bootstrapItems: 0 };

/**
 * Items sorted by their unit's id, in place (ids are unique): figures computed from them do not
 * depend on the order rows come in (cluster resamples, floating-point sums, ties).
 */
export function byId<T extends { id: string }>(xs: T[]): T[] {
  return xs.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** A measured score with its standard error (0.5 = no information, for every score here). */
export interface Scored {
  value: number;
  se: number;
  n: number;
}

/**
 * P(feature of a random positive > feature of a random negative), ties counting half (the
 * Mann-Whitney AUC), with the Hanley-McNeil standard error. 0.5 (se 0.5) when a class is empty.
 * Given each item's cluster (its problem: the rows of one problem share a walk), the standard
 * error is the larger of Hanley-McNeil's and the cluster-robust one (`clusteredAucSe`).
 */
export function auc(pos: readonly number[], neg: readonly number[], clusters?: { pos: readonly string[]; neg: readonly string[] }): Scored {
  const n1 = pos.length;
  const n2 = neg.length;
  if (n1 === 0 || n2 === 0) return { value: 0.5, se: 0.5, n: n1 + n2 };
  const s = hanleyMcNeilAuc(pos, neg);
  // At least the error under "no information": the checks test the distance from it, and away
  // from 0.5 the estimate's own error shrinks, so that on few problems chance read as certain
  // (a fair coin's 23 heads of 31 problems failed a check). Independent items: Hanley-McNeil at
  // 0.5; clustered ones: labels permuted within their problems (cheap; needed only where
  // problems are few).
  if (clusters === undefined) return { ...s, se: Math.max(s.se, hanleyMcNeilSe(0.5, n1, n2)) };
  const own = Math.max(s.se, clusteredAucSe(pos, neg, clusters.pos, clusters.neg, s.value));
  return { ...s, se: Math.max(own, permutedAucSe(pos, neg, clusters.pos, clusters.neg)) };
}

/** Clusters below which `auc` also takes the error under labels permuted within clusters. */
const PERMUTED_SE_CLUSTERS = 1000;

/**
 * The standard deviation of the AUC when the labels are shuffled within each cluster (each
 * problem keeps its count of positives): the AUC's spread when the feature says nothing, with
 * a problem's rows as dependent as they are. 0 where clusters are many (the normal error is
 * then close enough). Seeded, 200 shuffles; the items' ranks are computed once.
 */
export function permutedAucSe(pos: readonly number[], neg: readonly number[], posCluster: readonly string[], negCluster: readonly string[], reps = 200): number {
  const n1 = pos.length;
  const n2 = neg.length;
  const n = n1 + n2;
  const ids = new Map<string, number>();
  const cl = new Int32Array(n);
  const at = (c: string): number => {
    let k = ids.get(c);
    if (k === undefined) ids.set(c, (k = ids.size));
    return k;
  };
  for (let i = 0; i < n1; i++) cl[i] = at(posCluster[i]!);
  for (let j = 0; j < n2; j++) cl[n1 + j] = at(negCluster[j]!);
  const I = ids.size;
  if (I >= PERMUTED_SE_CLUSTERS || I < 2) return 0;
  // mid-ranks of every item's value (1-based, ties share their mean rank)
  const value = (i: number): number => (i < n1 ? pos[i]! : neg[i - n1]!);
  const order = Int32Array.from({ length: n }, (_, i) => i).sort((a, b) => value(a) - value(b));
  const rank = new Float64Array(n);
  for (let i = 0; i < n; ) {
    let j = i;
    while (j < n && value(order[j]!) === value(order[i]!)) j++;
    for (let k = i; k < j; k++) rank[order[k]!] = (i + 1 + j) / 2;
    i = j;
  }
  // items by cluster, and each cluster's count of positives
  const start = new Int32Array(I + 1);
  for (let i = 0; i < n; i++) start[cl[i]! + 1]!++;
  for (let c = 0; c < I; c++) start[c + 1]! += start[c]!;
  const fill = start.slice(0, I);
  const ranks = new Float64Array(n);
  const positives = new Int32Array(I);
  for (let i = 0; i < n; i++) {
    ranks[fill[cl[i]!]!++] = rank[i]!;
    if (i < n1) positives[cl[i]!]!++;
  }
  auditWork.bootstrapItems += reps * n;
  const prng = new Prng(1, "audit/permuted-auc");
  let sum = 0;
  let sum2 = 0;
  for (let r = 0; r < reps; r++) {
    let rankSum = 0;
    for (let c = 0; c < I; c++) {
      // a random m-subset of the cluster's items: the first m of a partial Fisher-Yates shuffle
      const lo = start[c]!;
      const size = start[c + 1]! - lo;
      const m = positives[c]!;
      for (let k = 0; k < m; k++) {
        const pick = lo + k + prng.int(size - k);
        const t = ranks[lo + k]!;
        ranks[lo + k] = ranks[pick]!;
        ranks[pick] = t;
        rankSum += ranks[lo + k]!;
      }
    }
    const a = (rankSum - (n1 * (n1 + 1)) / 2) / (n1 * n2);
    sum += a;
    sum2 += a * a;
  }
  const mean = sum / reps;
  return Math.sqrt(Math.max(0, sum2 / reps - mean * mean));
}

/** Items of `sorted` below `x`, and equal to it. */
function countBelow(sorted: readonly number[], x: number): { below: number; equal: number } {
  const bound = (strict: boolean): number => {
    let lo = 0;
    let hi = sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (sorted[mid]! < x || (!strict && sorted[mid] === x)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  const below = bound(true);
  return { below, equal: bound(false) - below };
}

/**
 * The standard error of the AUC `a` when items come in clusters (Obuchowski 1997: DeLong's
 * placement values summed per cluster), so that many rows of one problem count as what they
 * are, not as independent draws. Infinity with fewer than two clusters.
 */
export function clusteredAucSe(pos: readonly number[], neg: readonly number[], posCluster: readonly string[], negCluster: readonly string[], a: number): number {
  const M = pos.length;
  const N = neg.length;
  const sp = [...pos].sort((x, y) => x - y);
  const sn = [...neg].sort((x, y) => x - y);
  const c10 = new Map<string, { v: number; m: number }>();
  const c01 = new Map<string, { v: number; m: number }>();
  const add = (map: Map<string, { v: number; m: number }>, c: string, v: number): void => {
    const e = map.get(c) ?? { v: 0, m: 0 };
    e.v += v;
    e.m++;
    map.set(c, e);
  };
  pos.forEach((x, i) => {
    const { below, equal } = countBelow(sn, x);
    add(c10, posCluster[i]!, (below + equal / 2) / N);
  });
  neg.forEach((y, j) => {
    const { below, equal } = countBelow(sp, y);
    add(c01, negCluster[j]!, (M - below - equal + equal / 2) / M);
  });
  const clusters = new Set([...c10.keys(), ...c01.keys()]);
  const I = clusters.size;
  if (I < 2) return Infinity;
  let s10 = 0;
  let s01 = 0;
  let s11 = 0;
  for (const c of clusters) {
    const p = c10.get(c) ?? { v: 0, m: 0 };
    const q = c01.get(c) ?? { v: 0, m: 0 };
    const d10 = p.v - p.m * a;
    const d01 = q.v - q.m * a;
    s10 += d10 * d10;
    s01 += d01 * d01;
    s11 += d10 * d01;
  }
  const k = I / (I - 1);
  const v = (k * s10) / (M * M) + (k * s01) / (N * N) + (2 * k * s11) / (M * N);
  return Math.sqrt(Math.max(v, 0));
}

/** The AUC with the Hanley-McNeil standard error (independent items). */
function hanleyMcNeilAuc(pos: readonly number[], neg: readonly number[]): Scored {
  const n1 = pos.length;
  const n2 = neg.length;
  const all = [...pos.map((v) => [v, 1] as const), ...neg.map((v) => [v, 0] as const)].sort((a, b) => a[0] - b[0]);
  // Sum of the positives' mid-ranks (1-based).
  let rankSum = 0;
  for (let i = 0; i < all.length; ) {
    let j = i;
    let p = 0;
    while (j < all.length && all[j]![0] === all[i]![0]) p += all[j++]![1];
    rankSum += p * ((i + 1 + j) / 2);
    i = j;
  }
  const a = (rankSum - (n1 * (n1 + 1)) / 2) / (n1 * n2);
  return { value: a, se: hanleyMcNeilSe(a, n1, n2), n: n1 + n2 };
}

/** Hanley and McNeil's standard error of an AUC `a` over n1 positives and n2 negatives. */
function hanleyMcNeilSe(a: number, n1: number, n2: number): number {
  const q1 = a / (2 - a);
  const q2 = (2 * a * a) / (1 + a);
  const v = (a * (1 - a) + (n1 - 1) * (q1 - a * a) + (n2 - 1) * (q2 - a * a)) / (n1 * n2);
  return Math.sqrt(Math.max(v, 0.25 / (n1 * n2)));
}

/**
 * Accuracy of picking, in each pair, the item with the higher value (ties count half), with its
 * binomial standard error. Pairs are [value of the right item, value of the wrong one].
 */
export function pickAccuracy(pairs: readonly (readonly [number, number])[]): Scored {
  const n = pairs.length;
  if (n === 0) return { value: 0.5, se: 0.5, n: 0 };
  let s = 0;
  let ties = 0;
  for (const [a, b] of pairs) a > b ? s++ : a === b ? (s += 0.5, ties++) : 0;
  const p = s / n;
  // at least the variance under "no information" (a win or a loss equally likely, ties as seen)
  return { value: p, se: Math.sqrt(Math.max(p * (1 - p), (1 - ties / n) / 4, 0.25 / n) / n), n };
}

/**
 * The mean of per-cluster values in [0, 1] (e.g. one share per chain), with its standard error
 * over clusters (floored as for `pickAccuracy`, so a clean sweep of few clusters is not certain).
 */
export function meanShare(values: readonly number[]): Scored {
  const n = values.length;
  if (n === 0) return { value: 0.5, se: 0.5, n: 0 };
  const mean = values.reduce((a, v) => a + v, 0) / n;
  const variance = n > 1 ? values.reduce((a, v) => a + (v - mean) ** 2, 0) / (n - 1) : 0;
  return { value: mean, se: Math.sqrt(Math.max(variance, 0.25 / n) / n), n };
}

/** H(m) = 1 + 1/2 + ... + 1/m for a whole m >= 0 (summed below 64, else its asymptotic series, error < 1e-15). */
export function harmonic(m: number): number {
  if (m < 64) {
    let h = 0;
    for (let i = 1; i <= m; i++) h += 1 / i;
    return h;
  }
  const m2 = m * m;
  return Math.log(m) + 0.5772156649015329 + 1 / (2 * m) - 1 / (12 * m2) + 1 / (120 * m2 * m2);
}

/**
 * The sum of precisions at the positives of a run of `g` tied items holding `r` positives, ranked
 * below `above` items of which `tpAbove` are positive, expected over every order of the run
 * (McSherry and Najork 2008). Position j of the run holds a positive with chance r/g, and then
 * (j-1)(r-1)/(g-1) positives before it on average: the sum over j of r/g (tpAbove + 1 +
 * (j-1)(r-1)/(g-1)) / (above + j), in closed form. A run of ties scored as one threshold (every
 * positive at the run's end) instead gives an uninformative score exactly the base rate, while
 * any ordering of few items averages above it: a tied prior then made chance look like a gain.
 */
export function tiedRunPrecision(above: number, tpAbove: number, g: number, r: number): number {
  if (g === 1) return (tpAbove + 1) / (above + 1);
  const b = ((r / g) * (r - 1)) / (g - 1);
  const a = (r / g) * (tpAbove + 1) - b;
  // sum_{j=1..g} (a + b j) / (above + j) = b g + (a - b above) (H(above + g) - H(above))
  return b * g + (a - b * above) * (harmonic(above + g) - harmonic(above));
}

/**
 * The average-precision gain of scores `b` over scores `a` for finding the items of a class
 * (`positive[i]`), with a cluster-bootstrap standard error (whole `clusters` resampled, `reps`
 * times, seeded). Average precision, not AUC: a rare class that the action type ranks well but
 * never makes likely (a class of 1% of rows) has an AUC near 1 either way, while a word that
 * marks it lifts its precision from a few percent to 1. Tied scores count as every order of
 * them, equally likely (`tiedRunPrecision`): an uninformative prior and a random probe then
 * score alike on few items.
 */
export function apGain(a: ArrayLike<number>, b: ArrayLike<number>, positive: ArrayLike<boolean>, clusters: readonly string[], reps = 200, seed = 1): { prior: number; probe: number; gain: number; se: number; pos: number } {
  const n = positive.length;
  let pos = 0;
  for (let i = 0; i < n; i++) if (positive[i]) pos++;
  if (pos === 0 || pos === n) return { prior: 0, probe: 0, gain: 0, se: Infinity, pos };
  const ids = new Map<string, number>();
  const cluster = Int32Array.from(clusters, (c) => {
    let k = ids.get(c);
    if (k === undefined) ids.set(c, (k = ids.size));
    return k;
  });
  // per model: items by descending score, where each run of tied scores ends, and each ranked
  // item's class and cluster (the bootstrap reads them in rank order, not by item)
  const prep = (x: ArrayLike<number>): { pos: Uint8Array; ends: Uint8Array; cl: Int32Array } => {
    const order = Int32Array.from({ length: n }, (_, i) => i).sort((i, j) => x[j]! - x[i]! || i - j);
    const ends = new Uint8Array(n);
    const pos = new Uint8Array(n);
    const cl = new Int32Array(n);
    for (let k = 0; k < n; k++) {
      ends[k] = k === n - 1 || x[order[k]!] !== x[order[k + 1]!] ? 1 : 0;
      pos[k] = positive[order[k]!] ? 1 : 0;
      cl[k] = cluster[order[k]!]!;
    }
    return { pos, ends, cl };
  };
  const pa = prep(a);
  const pb = prep(b);
  // average precision with item weights: `cw` per cluster (null: every item 1; a weight is a
  // whole number of copies, as a bootstrap draws them)
  const ap = (p: { pos: Uint8Array; ends: Uint8Array; cl: Int32Array }, cw: Float64Array | null): number => {
    let tp = 0;
    let all = 0;
    let runAll = 0;
    let runTp = 0;
    let sum = 0;
    const { pos: ps, ends, cl } = p;
    for (let k = 0; k < n; k++) {
      const wi = cw === null ? 1 : cw[cl[k]!]!;
      runAll += wi;
      if (ps[k]) runTp += wi;
      if (ends[k]) {
        if (runTp > 0) sum += tiedRunPrecision(all, tp, runAll, runTp);
        all += runAll;
        tp += runTp;
        runAll = 0;
        runTp = 0;
      }
    }
    return tp === 0 ? 0 : sum / tp;
  };
  const prior = ap(pa, null);
  const probe = ap(pb, null);
  const I = ids.size;
  // no resamples asked for: no error either
  if (reps === 0) return { prior, probe, gain: probe - prior, se: NaN, pos };
  let se = Infinity;
  if (I >= 2) {
    const prng = new Prng(seed, "audit/ap-bootstrap");
    const cw = new Float64Array(I);
    let sum = 0;
    let sum2 = 0;
    auditWork.bootstrapItems += reps * 2 * n;
    for (let r = 0; r < reps; r++) {
      cw.fill(0);
      for (let k = 0; k < I; k++) cw[prng.int(I)]!++;
      const d = ap(pb, cw) - ap(pa, cw);
      sum += d;
      sum2 += d * d;
    }
    const m = sum / reps;
    se = Math.sqrt(Math.max(0, sum2 / reps - m * m));
  }
  return { prior, probe, gain: probe - prior, se: Math.max(se, 0.25 / Math.sqrt(pos)), pos };
}

/**
 * The mean of per-item values with its standard error, cluster-robust over `clusters` (items of
 * one problem are not independent), floored at 0.5 / sqrt(n).
 */
export function clusteredMean(values: readonly number[], clusters: readonly string[]): Scored {
  const n = values.length;
  if (n === 0) return { value: 0, se: Infinity, n: 0 };
  const mean = values.reduce((s, v) => s + v, 0) / n;
  const sums = new Map<string, number>();
  values.forEach((v, i) => sums.set(clusters[i]!, (sums.get(clusters[i]!) ?? 0) + v - mean));
  const I = sums.size;
  let se = Infinity;
  if (I >= 2) {
    let s = 0;
    for (const d of sums.values()) s += d * d;
    se = Math.sqrt((I / (I - 1)) * s) / n;
  }
  return { value: mean, se: Math.max(se, 0.5 / Math.sqrt(n)), n };
}

/** The better direction of a rule: a score below 0.5 read the other way round. */
export function bestDirection(s: Scored): Scored {
  return s.value >= 0.5 ? s : { ...s, value: 1 - s.value };
}

/** Words of a text, lower case, for a bag-of-words. */
export function words(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/**
 * Multinomial logistic regression over sets of tokens (binary features), trained by a few
 * epochs of AdaGrad in a seeded order, with L2 regularisation. Unlike naive Bayes, whose
 * confidence grows with every correlated word, it weighs redundant words as one: a bag of
 * words that says no more than the action type scores what the action type scores.
 */
export class LogisticRegression {
  private readonly classes: string[] = [];
  /**
   * Token ids of the vocabulary (shared by the models of one audit, so a unit's tokens are
   * interned once for all of them) to this model's features, numbered in order of first
   * occurrence in its own examples: the numbering, and so the arithmetic, of a model with a
   * vocabulary of its own.
   */
  private local = new Int32Array(1024).fill(-1);
  /** Per feature, its token id. */
  private globalOf: number[] = [];
  /** The examples' features, one after another (example i: `features[starts[i] .. starts[i + 1])`), and their labels. */
  private features = new Int32Array(1024);
  private starts: number[] = [0];
  private readonly labels: number[] = [];
  /**
   * Per example, the key that places it in the training order (a hash of its unit's id): so
   * that the fitted model, and every figure, do not depend on the order rows are read in
   * (rows of a state shuffled in their shard give the same audit). Default: the example's index.
   */
  private readonly keys: number[] = [];
  /** Per feature, the last example that had it (deduplication without a Set per example). */
  private lastSeen = new Int32Array(1024).fill(-1);
  /** Weight of feature f for class k at f * K + k (one flat array: the training loop is the audit's hot path). */
  private weights = new Float64Array(0);
  private bias = new Float64Array(0);
  /** Scratch for `classProbabilitiesOf`: per feature, the last query that had it. */
  private queryStamp = new Int32Array(0);
  /** For `topFeatures`: per feature and class, the training examples that have it; per class, its examples. */
  private counts: { counts: Float64Array; sizes: Float64Array } | null = null;
  private query = 0;

  constructor(readonly vocabulary: Vocabulary = new Vocabulary()) {}

  /** Keep one training example (features are deduplicated, in order of first occurrence; `key`: see `keys`). */
  add(tokens: readonly string[], label: string, key?: number): void {
    this.addIds(this.vocabulary.ids(tokens), label, key);
  }

  /** `add` for tokens already interned in this model's vocabulary. */
  addIds(ids: ArrayLike<number>, label: string, key?: number): void {
    let y = this.classes.indexOf(label);
    if (y < 0) y = this.classes.push(label) - 1;
    const ex = this.labels.length;
    let at = this.starts[ex]!;
    for (let j = 0; j < ids.length; j++) {
      const g = ids[j]!;
      if (g >= this.local.length) {
        const grown = new Int32Array(Math.max(this.local.length * 2, g + 1)).fill(-1);
        grown.set(this.local);
        this.local = grown;
      }
      let f = this.local[g]!;
      if (f < 0) {
        f = this.local[g] = this.globalOf.push(g) - 1;
        if (f >= this.lastSeen.length) {
          const grown = new Int32Array(this.lastSeen.length * 2).fill(-1);
          grown.set(this.lastSeen);
          this.lastSeen = grown;
        }
      }
      if (this.lastSeen[f] === ex) continue;
      this.lastSeen[f] = ex;
      if (at === this.features.length) {
        const grown = new Int32Array(this.features.length * 2);
        grown.set(this.features);
        this.features = grown;
      }
      this.features[at++] = f;
    }
    this.starts.push(at);
    this.keys.push(key ?? ex);
    this.labels.push(y);
  }

  /** Fit on the examples kept so far. */
  train(seed: number, epochs = 4, rate = 0.5, l2 = 1e-5): void {
    // classes in sorted order, not the order first met: the arithmetic (softmax sums) then does not depend on row order
    const sorted = [...this.classes].sort();
    const remap = this.classes.map((c) => sorted.indexOf(c));
    for (let i = 0; i < this.labels.length; i++) this.labels[i] = remap[this.labels[i]!]!;
    this.classes.splice(0, this.classes.length, ...sorted);
    this.counts = null;
    const K = this.classes.length;
    const F = this.globalOf.length;
    const w = (this.weights = new Float64Array(F * K));
    const bias = (this.bias = new Float64Array(K));
    const g2 = new Float64Array(F * K).fill(1e-8);
    const b2 = new Float64Array(K).fill(1e-8);
    // the seeded shuffle starts from the examples in key order, not in the order they came
    const keys = this.keys;
    const order = this.labels.map((_, i) => i).sort((i, j) => keys[i]! - keys[j]! || i - j);
    const prng = new Prng(seed, "audit/logistic");
    const p = new Float64Array(K);
    const g = new Float64Array(K);
    const feats = this.features;
    const starts = this.starts;
    auditWork.examples += epochs * this.labels.length;
    auditWork.weightUpdates += epochs * starts[this.labels.length]! * K;
    for (let e = 0; e < epochs; e++) {
      prng.shuffle(order);
      for (const i of order) {
        const from = starts[i]!;
        const to = starts[i + 1]!;
        const label = this.labels[i]!;
        this.probabilities(feats, from, to, p);
        for (let k = 0; k < K; k++) {
          const gk = (g[k] = p[k]! - (k === label ? 1 : 0));
          b2[k]! += gk * gk;
          bias[k]! -= (rate * gk) / Math.sqrt(b2[k]!);
        }
        // each weight is updated once per example: feature-major order, the same arithmetic
        for (let j = from; j < to; j++) {
          const base = feats[j]! * K;
          for (let k = 0; k < K; k++) {
            const at = base + k;
            const gw = g[k]! + l2 * w[at]!;
            g2[at]! += gw * gw;
            w[at]! -= (rate * gw) / Math.sqrt(g2[at]!);
          }
        }
      }
    }
  }

  private probabilities(features: ArrayLike<number>, from: number, to: number, out: Float64Array): void {
    const K = this.classes.length;
    const w = this.weights;
    let max = -Infinity;
    for (let k = 0; k < K; k++) {
      let s = this.bias[k]!;
      for (let j = from; j < to; j++) s += w[features[j]! * K + k]!;
      out[k] = s;
      if (s > max) max = s;
    }
    let z = 0;
    for (let k = 0; k < K; k++) z += out[k] = Math.exp(out[k]! - max);
    for (let k = 0; k < K; k++) out[k]! /= z;
  }

  /** Probability of every class, by label (unknown tokens are ignored). */
  predictProba(tokens: readonly string[]): Map<string, number> {
    const p = this.classProbabilities(tokens);
    return new Map(this.classes.map((c, k) => [c, p[k]!]));
  }

  /** The classes, in the order of `classProbabilities` (sorted, once trained). */
  get labelsLearnt(): readonly string[] {
    return this.classes;
  }

  /** Probability of every class, in the order of `labelsLearnt` (unknown tokens are ignored). */
  classProbabilities(tokens: readonly string[]): Float64Array {
    return this.classProbabilitiesOf(this.vocabulary.known(tokens));
  }

  /** `classProbabilities` of interned tokens (-1: a token the vocabulary never saw). */
  classProbabilitiesOf(ids: ArrayLike<number>): Float64Array {
    const K = this.classes.length;
    const trained = K === 0 ? 0 : this.weights.length / K;
    if (this.queryStamp.length < trained) this.queryStamp = new Int32Array(trained);
    const q = ++this.query;
    const fs: number[] = [];
    // distinct features in order of first occurrence (as a Set of the tokens would give them)
    for (let j = 0; j < ids.length; j++) {
      const g = ids[j]!;
      if (g < 0 || g >= this.local.length) continue;
      const f = this.local[g]!;
      if (f < 0 || f >= trained || this.queryStamp[f] === q) continue;
      this.queryStamp[f] = q;
      fs.push(f);
    }
    const p = new Float64Array(K);
    this.probabilities(fs, 0, fs.length, p);
    return p;
  }

  /**
   * The `k` tokens (among those `accept` takes) that set class `label` apart most (what a failure
   * is blamed on): a token's weight for `label` over the mean of the class weights, times how
   * much more often the class's training examples have it than the others' do. A token of every
   * example can carry a large weight that only shifts the bias, and says nothing of the class:
   * a plant that removes a letter from its rows (look-alikes) would be blamed on the words
   * without it. Tokens with a positive weight and share difference only.
   */
  topFeatures(label: string, k: number, accept: (token: string) => boolean): { token: string; weight: number; score: number }[] {
    const K = this.classes.length;
    const c = this.classes.indexOf(label);
    if (c < 0 || this.weights.length === 0) return [];
    const F = this.weights.length / K;
    // per feature and class, the training examples that have it (counted once per model)
    if (this.counts === null) {
      const counts = new Float64Array(F * K);
      const sizes = new Float64Array(K);
      for (let i = 0; i < this.labels.length; i++) {
        const y = this.labels[i]!;
        sizes[y]!++;
        for (let j = this.starts[i]!; j < this.starts[i + 1]!; j++) if (this.features[j]! < F) counts[this.features[j]! * K + y]!++;
      }
      this.counts = { counts, sizes };
    }
    const { counts, sizes } = this.counts;
    const n = sizes[c]!;
    const rest = this.labels.length - n;
    const out: { token: string; weight: number; score: number }[] = [];
    for (let f = 0; f < F; f++) {
      let mean = 0;
      let all = 0;
      for (let j = 0; j < K; j++) (mean += this.weights[f * K + j]!, all += counts[f * K + j]!);
      const weight = this.weights[f * K + c]! - mean / K;
      const lift = (n === 0 ? 0 : counts[f * K + c]! / n) - (rest === 0 ? 0 : (all - counts[f * K + c]!) / rest);
      if (!(weight > 0 && lift > 0)) continue;
      const token = this.vocabulary.token(this.globalOf[f]!);
      if (!accept(token)) continue;
      out.push({ token, weight, score: weight * lift });
    }
    return out.sort((a, b) => b.score - a.score || (a.token < b.token ? -1 : 1)).slice(0, k);
  }

  /** The most probable class (ties: the first in sorted order), or null before training. */
  predict(tokens: readonly string[]): string | null {
    return this.best(this.classProbabilities(tokens));
  }

  /** The most probable class of `classProbabilities`' output (ties: the first in sorted order), or null. */
  best(p: Float64Array): string | null {
    let best: string | null = null;
    let bestP = -1;
    for (let k = 0; k < p.length; k++) if (p[k]! > bestP) [best, bestP] = [this.classes[k]!, p[k]!];
    return best;
  }
}

/** Macro-F1 over the classes present in `gold` (a class never predicted right scores 0). */
export function macroF1(gold: readonly string[], predicted: readonly (string | null)[]): number {
  const classes = [...new Set(gold)];
  if (classes.length === 0) return 0;
  let sum = 0;
  for (const c of classes) {
    let tp = 0;
    let fp = 0;
    let fn = 0;
    for (let i = 0; i < gold.length; i++) {
      const g = gold[i] === c;
      const p = predicted[i] === c;
      if (g && p) tp++;
      else if (p) fp++;
      else if (g) fn++;
    }
    sum += tp === 0 ? 0 : (2 * tp) / (2 * tp + fp + fn);
  }
  return sum / classes.length;
}

/**
 * `macroF1` of the items `items` (indices, repeats allowed) of labels coded as small integers
 * (`predicted` may hold -1: no prediction), with the same arithmetic in the same order (classes
 * by first appearance in the items' gold labels): the bootstrap's hot path, without building
 * string arrays per resample.
 */
export function macroF1Coded(gold: Int32Array, predicted: Int32Array, classes: number, items: readonly number[]): number {
  const tp = new Int32Array(classes);
  const fp = new Int32Array(classes);
  const fn = new Int32Array(classes);
  const seen = new Uint8Array(classes);
  const order: number[] = [];
  for (const i of items) {
    const g = gold[i]!;
    const p = predicted[i]!;
    if (seen[g] === 0) {
      seen[g] = 1;
      order.push(g);
    }
    if (g === p) tp[g]!++;
    else {
      fn[g]!++;
      if (p >= 0) fp[p]!++;
    }
  }
  if (order.length === 0) return 0;
  let sum = 0;
  for (const c of order) sum += tp[c] === 0 ? 0 : (2 * tp[c]!) / (2 * tp[c]! + fp[c]! + fn[c]!);
  return sum / order.length;
}

/** Share of `predicted` equal to `gold`. */
export function accuracy(gold: readonly unknown[], predicted: readonly unknown[]): number {
  if (gold.length === 0) return 0;
  let k = 0;
  for (let i = 0; i < gold.length; i++) if (gold[i] === predicted[i]) k++;
  return k / gold.length;
}

/**
 * Standard error of `stat` by a cluster bootstrap: whole groups (problems: rows of one problem
 * share a prompt and a walk, so they are not independent) drawn with replacement, `reps` times,
 * from a seeded generator. `stat` gets the item indices of one resample.
 */
export function clusterBootstrapSe(groups: readonly string[], stat: (items: number[]) => number, reps = 200, seed = 1): number {
  const byGroup = new Map<string, number[]>();
  groups.forEach((g, i) => {
    const l = byGroup.get(g);
    if (l) l.push(i);
    else byGroup.set(g, [i]);
  });
  const clusters = [...byGroup.values()];
  if (clusters.length < 2) return Infinity;
  const prng = new Prng(seed, "audit/bootstrap");
  let sum = 0;
  let sum2 = 0;
  for (let r = 0; r < reps; r++) {
    const items: number[] = [];
    for (let k = 0; k < clusters.length; k++) items.push(...clusters[prng.int(clusters.length)]!);
    auditWork.bootstrapItems += items.length;
    const v = stat(items);
    sum += v;
    sum2 += v * v;
  }
  const mean = sum / reps;
  return Math.sqrt(Math.max(0, sum2 / reps - mean * mean));
}

/** Tokens as small integer ids, shared by the models of one audit. */
export class Vocabulary {
  private readonly index = new Map<string, number>();
  private readonly tokens: string[] = [];

  /** The id of `token`, interned if new. */
  id(token: string): number {
    let f = this.index.get(token);
    if (f === undefined) this.index.set(token, (f = this.tokens.push(token) - 1));
    return f;
  }

  ids(tokens: readonly string[]): Int32Array {
    const out = new Int32Array(tokens.length);
    for (let i = 0; i < tokens.length; i++) out[i] = this.id(tokens[i]!);
    return out;
  }

  /** Ids of tokens without interning (-1: never seen), for scoring. */
  known(tokens: readonly string[]): Int32Array {
    const out = new Int32Array(tokens.length);
    for (let i = 0; i < tokens.length; i++) out[i] = this.index.get(tokens[i]!) ?? -1;
    return out;
  }

  token(id: number): string {
    return this.tokens[id]!;
  }
}
