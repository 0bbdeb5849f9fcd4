"""Metrics and the bootstrap over problems (standard library only).

Rows of one problem are not independent (they share the problem and the walk), so every
confidence interval resamples problems, not rows: a resample gives each problem a weight (how
many times it was drawn) and every metric is computed with those weights.
"""

import random


class Ranked:
    """Scores of one model for one class, prepared once for many weighted AP computations:
    items in descending score order, where each run of tied scores ends, and their clusters."""

    def __init__(self, scores, positive, clusters):
        order = sorted(range(len(scores)), key=lambda i: (-scores[i], i))
        self.pos = [bool(positive[i]) for i in order]
        self.cl = [clusters[i] for i in order]
        self.ends = [k == len(order) - 1 or scores[order[k]] != scores[order[k + 1]] for k in range(len(order))]

    def ap(self, weight=None):
        """Average precision (scikit-learn's definition: precision at each distinct threshold,
        weighted by the recall it adds, so tied scores count as one threshold and the order of
        tied items cannot change the value). None when the class is absent."""
        tp = seen = run_tp = total = acc = 0.0
        for p, c, end in zip(self.pos, self.cl, self.ends):
            w = 1.0 if weight is None else weight.get(c, 0.0)
            seen += w
            if p:
                tp += w
                run_tp += w
                total += w
            if end and run_tp > 0:
                acc += run_tp * tp / seen
                run_tp = 0.0
        return acc / total if total > 0 else None


def average_precision(scores, positive):
    return Ranked(scores, positive, [0] * len(scores)).ap()


def weighted_mean(values, clusters, weight=None):
    num = den = 0.0
    for v, c in zip(values, clusters):
        w = 1.0 if weight is None else weight.get(c, 0.0)
        num += w * v
        den += w
    return num / den if den > 0 else None


def first_error_f1(chains, weight=None):
    """The paper's (ProcessBench's) first-error F1: accuracy on erroneous chains (the predicted
    first error is the gold one), accuracy on correct chains (no error predicted), harmonic
    mean. chains: (cluster, gold index or -1, predicted index or -1)."""
    def acc(rows):
        num = den = 0.0
        for c, gold, pred in rows:
            w = 1.0 if weight is None else weight.get(c, 0.0)
            num += w * (gold == pred)
            den += w
        return num / den if den > 0 else None

    err = acc([r for r in chains if r[1] >= 0])
    cor = acc([r for r in chains if r[1] < 0])
    if err is None or cor is None:
        return err, cor, None
    f1 = 0.0 if err + cor == 0 else 2 * err * cor / (err + cor)
    return err, cor, f1


def predicted_first_error(step_scores, threshold=0.5):
    """`pddl2prm score`'s reading: the first step whose score is below the threshold, else -1."""
    for i, s in enumerate(step_scores):
        if s < threshold:
            return i
    return -1


def bootstrap_weights(clusters, reps, seed):
    """`reps` resamples of the distinct clusters (problems), each as {cluster: times drawn}."""
    keys = sorted(set(clusters))
    rng = random.Random(seed)
    out = []
    for _ in range(reps):
        w = {}
        for _ in keys:
            k = keys[rng.randrange(len(keys))]
            w[k] = w.get(k, 0) + 1
        out.append(w)
    return out


def interval(values, level=0.95):
    """Percentile interval of bootstrap values (None values, a class missing from a resample,
    are dropped)."""
    v = sorted(x for x in values if x is not None)
    if not v:
        return None, None
    lo = v[int((1 - level) / 2 * (len(v) - 1))]
    hi = v[int(round((1 + level) / 2 * (len(v) - 1)))]
    return lo, hi
