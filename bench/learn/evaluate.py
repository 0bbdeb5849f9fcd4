"""Scoring every predictor the same way, with 95% intervals from a bootstrap over problems, and
the report's text (standard library only; `pddl2prm score` is run as a command)."""

import json
import math
import os
import subprocess

from data import CATEGORIES, CAT_INDEX
from metrics import Ranked, bootstrap_weights, first_error_f1, interval, predicted_first_error, weighted_mean

SHORT = {"non-executable": "NE", "dead-end": "DE", "backtracking": "BT", "suboptimal": "SO", "optimal": "OPT"}
PRIOR = "action prior"
OPTIMAL = CAT_INDEX["optimal"]


def chain_scores(chains, step_probs):
    """Per chain, the score of each step for `pddl2prm score`: the probability that the step is
    right. processbench's default error definition is reward < 1, so that is P(optimal)."""
    out, k = [], 0
    for c in chains:
        n = len(c["steps"])
        out.append([p[OPTIMAL] for p in step_probs[k:k + n]])
        k += n
    assert k == len(step_probs)
    return out


def write_chain_file(path, chains, scores=None):
    """Gold chains (scores None) or predictions, as JSONL for `pddl2prm score`."""
    with open(path, "w", encoding="utf-8") as f:
        for i, c in enumerate(chains):
            f.write(json.dumps(c if scores is None else {"id": c["id"], "step_scores": scores[i]}) + "\n")


def cli_f1(cli, gold, pred, tune=None):
    """`pddl2prm score`'s first-error result: (error acc, correct acc, F1, threshold); with tune
    (validation gold, validation predictions) the threshold is the one with the best F1 there."""
    cmd = cli + ["score", gold, pred, "--json"] + (["--tune", *tune] if tune else [])
    out = json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)
    ch = out["chains"]
    return ch["error_acc"] / 100, ch["correct_acc"] / 100, ch["f1"] / 100, out["threshold"]


def evaluate(preds, eval_sets, val_chains, cli, work, reps, seed, log):
    """preds: predictor -> {set: (row probs, chain-step probs), "val": validation chain-step probs}.
    The first-error F1 is read at the default threshold 0.5 and at the threshold tuned on the
    validation chains (`score --tune`): P(optimal) is calibrated to the candidates' mix (mostly
    wrong steps), not to chains' (mostly right steps), so 0.5 flags nearly every first step."""
    results = {}
    val_gold = os.path.join(work, "gold-validation.jsonl")
    write_chain_file(val_gold, val_chains)
    for set_name, (row_states, _chain_steps, chains) in eval_sets.items():
        labels = [CAT_INDEX[c["category"]] for s in row_states for c in s.candidates]
        clusters = [s.key for s in row_states for c in s.candidates]
        present = [k for k in range(len(CATEGORIES)) if k in labels]
        chain_cl = [f"{c['meta']['domain']}/{c['meta']['problem_id']}" for c in chains]
        gold = [c["label"] for c in chains]
        gold_path = os.path.join(work, f"gold-{set_name}.jsonl")
        write_chain_file(gold_path, chains)
        per, thresholds = {}, {}
        for name, sets in preds.items():
            probs, step_probs = sets[set_name]
            ranked = {k: Ranked([p[k] for p in probs], [l == k for l in labels], clusters) for k in present}
            correct = [float(max(range(len(p)), key=p.__getitem__) == l) for p, l in zip(probs, labels)]
            # log loss of the true category (what training minimises; lower is better)
            nll = [-math.log(max(p[l], 1e-12)) for p, l in zip(probs, labels)]
            safe = name.replace(" ", "_")
            pred_path, val_path = os.path.join(work, f"pred-{set_name}-{safe}.jsonl"), os.path.join(work, f"pred-validation-{safe}.jsonl")
            scores = chain_scores(chains, step_probs)
            write_chain_file(pred_path, chains, scores)
            write_chain_file(val_path, val_chains, chain_scores(val_chains, sets["val"]))
            firsts = {}
            for key, tune in (("F1@.5", None), ("F1 tuned", (val_gold, val_path))):
                err, cor, f1, t = cli_f1(cli, gold_path, pred_path, tune)
                firsts[key] = [(cl, g, predicted_first_error(s, t)) for cl, g, s in zip(chain_cl, gold, scores)]
                thresholds[(name, key)] = t
                py = first_error_f1(firsts[key])
                # the standard-library F1 must agree with pddl2prm's own grading, or the bootstrap lies
                if any(abs(a - b) > 1e-4 for a, b in zip(py, (err, cor, f1)) if a is not None):  # score prints percent to 2 decimals
                    raise AssertionError(f"{key} of {name} on {set_name}: python {py} vs pddl2prm score {(err, cor, f1)}")

            def metrics(w=None, ranked=ranked, correct=correct, firsts=firsts, nll=nll):
                m = {f"AP {SHORT[CATEGORIES[k]]}": r.ap(w) for k, r in ranked.items()}
                m["acc"] = weighted_mean(correct, clusters, w)
                m["logloss"] = weighted_mean(nll, clusters, w)
                for key, f in firsts.items():
                    m[key] = first_error_f1(f, w)[2]
                return m

            per[name] = metrics
        boots = {name: [] for name in per}
        for w in bootstrap_weights(clusters + chain_cl, reps, seed):
            for name, f in per.items():
                boots[name].append(f(w))
        points = {name: f() for name, f in per.items()}
        res = {"n_problems": len(set(clusters)), "n_rows": len(labels), "n_chains": len(chains),
               "thresholds": {n: t for (n, k), t in thresholds.items() if k == "F1 tuned"},
               "class_rows": {SHORT[CATEGORIES[k]]: labels.count(k) for k in present}, "models": {}, "diffs": {}}
        for name in per:
            res["models"][name] = {m: (v, *interval([b[m] for b in boots[name]])) for m, v in points[name].items()}
        pairs = [(n, PRIOR) for n in per if n != PRIOR] + [("full 4x", "nostate 4x"), ("full 4x", "previous-step prior")]
        for a, b in pairs:
            if a not in per or b not in per:
                continue
            d = {}
            for m in points[a]:
                if points[a][m] is None or points[b][m] is None:
                    continue
                vals = [x[m] - y[m] if x[m] is not None and y[m] is not None else None for x, y in zip(boots[a], boots[b])]
                d[m] = (points[a][m] - points[b][m], *interval(vals))
            res["diffs"][f"{a} - {b}"] = d
        results[set_name] = res
        log(f"evaluated {set_name}: {res['n_rows']} rows, {res['n_chains']} chains, {reps} bootstrap resamples of problems")
    return results


def _cell(v):
    if v is None or v[0] is None:
        return "n/a"
    lo, hi = v[1], v[2]
    return f"{v[0]:.3f} [{lo:.3f},{hi:.3f}]" if lo is not None else f"{v[0]:.3f}"


def _dcell(v):
    if v is None or v[0] is None:
        return "n/a"
    return f"{v[0]:+.3f} [{v[1]:+.3f},{v[2]:+.3f}]" if v[1] is not None else f"{v[0]:+.3f}"


def format_report(results, curves, times, run_names):
    out = []
    for set_name, res in results.items():
        title = "test split (problems held out; blocksworld + ferry)" if set_name == "test" else "held-out domain rooms"
        out.append(f"\n== {title}: {res['n_problems']} problems, {res['n_rows']} rows "
                   f"({', '.join(f'{k} {v}' for k, v in res['class_rows'].items())}), {res['n_chains']} chains ==")
        metrics = list(next(iter(res["models"].values())).keys())
        out.append("value [95% interval over problems]")
        out.append("%-20s" % "predictor" + "".join("%-22s" % m for m in metrics))
        for name, m in res["models"].items():
            out.append("%-20s" % name + "".join("%-22s" % _cell(m.get(k)) for k in metrics))
        out.append("F1 tuned: threshold on P(optimal) tuned on the validation chains: " + ", ".join(
            f"{n} {t:g}" for n, t in res["thresholds"].items()))
        out.append("differences (paired bootstrap over problems)")
        for name, d in res["diffs"].items():
            out.append("%-36s" % name + " ".join(f"{k} {_dcell(d.get(k))}" for k in metrics if k in d))
    out.append("\n== learning curves (validation split: non-executable AP, step accuracy; train loss) ==")
    for name in run_names:
        c = curves.get(name, [])
        out.append(f"{name} ({times.get(name, 0):.0f} s): " + "  ".join(
            f"{p['step']}: loss {p['loss']:.3f}" + (f" AP {p['ne_ap']:.3f} acc {p['acc']:.3f}" if p.get("ne_ap") is not None else "")
            for p in c))
    return "\n".join(out)
