"""The learnability benchmark, end to end: does a small PRM trained from scratch on pddl2prm rows
learn to judge steps from the state, beyond what the action name and the previous step say?

    PYTHON=/path/to/venv/bin/python npm run bench:learn -- [--smoke | --config cpu|cpu-x8|cpu-long|gpu]
        [--seed 1] [--work DIR] [--report FILE] [--threads 2] [--no-model]
    (= $PYTHON bench/learn/run.py ..., from the repository root, after npm run build;
     --no-model needs no torch: python3 bench/learn/run.py --smoke --no-model)

1. problems: blocksworld with 4 blocks and ferry with 2 cars (the shortest prompts), rooms with 4
   rooms as a held-out domain; `pddl2prm generate` writes native rows and processbench chains
   (rooms only in the test split, --holdout-domain);
2. a word-level tokenizer on the train split (tok.py), the baselines (baselines.py);
3. trains the same small transformer (model.py) on what it should read (full), with the initial
   state and goal removed (nostate), on the candidate step alone (steponly: smoke and gpu only),
   and on 1/4 and 1/2 of the train problems (the data-size curve: 1x, 2x, 4x), the same steps each;
4. scores everything on the test split's problems and on rooms: average precision per class,
   step accuracy, and the paper's first-error F1 on processbench chains through
   `pddl2prm score`, with 95% intervals from a bootstrap over problems.
"""

import argparse
import json
import os
import platform
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from baselines import all_baselines  # noqa: E402
from data import CATEGORIES, by_problem_subset, chain_states, group_states, read_jsonl  # noqa: E402
from evaluate import evaluate, format_report  # noqa: E402
from tok import Tokenizer  # noqa: E402

MODEL = dict(lr=2e-3, dropout=0.0, max_context=768, max_len=1024, compact=True)
# (name, view, share of the train problems in quarters: 4 = all)
FULL, NOSTATE, STEPONLY = ("full 4x", "full", 4), ("nostate 4x", "nostate", 4), ("steponly 4x", "steponly", 4)
CURVE = [("full 1x", "full", 1), ("full 2x", "full", 2)]
CONFIGS = {
    # checks the pipeline end to end in about a minute; its scores mean nothing
    "smoke": dict(MODEL, problems=10, rooms=3, d=32, layers=1, heads=2, ff=64, batch_states=8, steps=4,
                  eval_every=2, reps=20, runs=[FULL, NOSTATE, STEPONLY] + CURVE),
    # 2 CPU cores, at most 30 minutes in all (3 minutes idle, 0.08 s a step; shared cores: about
    # 1 s a step); the step-only
    # ablation is left out for time (the action prior stands for it)
    "cpu": dict(MODEL, problems=200, rooms=20, d=64, layers=2, heads=4, ff=256, batch_states=8, steps=360,
                eval_every=90, reps=200, runs=[FULL, NOSTATE] + CURVE),
    # eight times the steps, full and no-state views: 8 minutes on an idle 2-core machine (which
    # runs "cpu" in 3; shared cores slow torch's two threads many times over)
    "cpu-x8": dict(MODEL, problems=200, rooms=20, d=64, layers=2, heads=4, ff=256, batch_states=8, steps=2880,
                   eval_every=360, reps=200, runs=[FULL, NOSTATE]),
    # the learning curve past the 30-minute budget: the full view alone, twice the steps
    "cpu-long": dict(MODEL, problems=200, rooms=20, d=64, layers=2, heads=4, ff=256, batch_states=8, steps=720,
                     eval_every=90, reps=200, runs=[FULL]),
    # not run here: where an accelerator exists (see docs/training.md); whole step texts
    "gpu": dict(MODEL, problems=2000, rooms=100, d=256, layers=6, heads=8, ff=1024, batch_states=32, steps=20000,
                eval_every=1000, reps=1000, lr=3e-4, dropout=0.1, compact=False,
                runs=[FULL, NOSTATE, STEPONLY] + CURVE),
}


def sh(cmd, log):
    log("$ " + " ".join(cmd))
    subprocess.run(cmd, check=True)


def make_data(cli, work, cfg, seed, log):
    """Problems and the two folders (native rows, processbench chains); reused when present."""
    probs = os.path.join(work, "problems")
    sizes = {"blocksworld": ["--blocks", "4"], "ferry": ["--cars", "2"], "rooms": ["--rooms", "4"]}
    for dom, n in (("blocksworld", cfg["problems"]), ("ferry", cfg["problems"]), ("rooms", cfg["rooms"])):
        if not os.path.isdir(os.path.join(probs, dom)):
            sh(cli + ["problems", "--domain", dom, "--count", str(n), "--seed", str(seed), "--out",
                      os.path.join(probs, dom)] + sizes[dom], log)
    out = {}
    for fmt in ("native", "processbench"):
        out[fmt] = os.path.join(work, fmt)
        if not os.path.exists(os.path.join(out[fmt], "manifest.json")):
            sh(cli + ["generate", "--domain", "blocksworld,ferry,rooms", "--problems", probs, "--holdout-domain",
                      "rooms", "--format", fmt, "--seed", str(seed), "--workers", "1", "--quiet", "--out", out[fmt]], log)
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--config", choices=sorted(CONFIGS), default="cpu")
    ap.add_argument("--smoke", action="store_true", help="same as --config smoke")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--work", help="folder for data and predictions (default .scratch/learn-CONFIG-sSEED)")
    ap.add_argument("--report", help="also write the report here (e.g. bench/results/learn.txt)")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--no-model", action="store_true",
                    help="everything but the transformer (data, tokenizer, baselines, scoring, report): "
                         "the standard library alone, no torch (what CI can run)")
    ap.add_argument("--cli", default=os.environ.get("PDDL2PRM", "node dist/src/cli/main.js"),
                    help="how to run pddl2prm (default: $PDDL2PRM or 'node dist/src/cli/main.js')")
    args = ap.parse_args(argv)
    if args.smoke:
        args.config = "smoke"
    cfg = CONFIGS[args.config]
    work = args.work or os.path.join(".scratch", f"learn-{args.config}-s{args.seed}")
    os.makedirs(work, exist_ok=True)
    t_start = time.time()
    lines = []

    def log(msg):
        print(msg, flush=True)
        lines.append(msg)

    if not args.no_model:
        import torch  # imported here: everything else runs with the standard library alone

        torch.set_num_threads(args.threads)
        from train import score_states, train  # noqa: E402

    cli = args.cli.split()
    folders = make_data(cli, work, cfg, args.seed, log)
    rows = read_jsonl(folders["native"])
    states = group_states(rows)
    train_states = [s for s in states if s.split == "train"]
    val_states = [s for s in states if s.split == "validation"]
    test_states = [s for s in states if s.split == "test" and s.domain != "rooms"]
    rooms_states = [s for s in states if s.domain == "rooms"]
    chains = [c for c in read_jsonl(folders["processbench"], "test")]
    for c in chains:  # processbench rows carry meta as an object; accept a JSON string too
        if isinstance(c["meta"], str):
            c["meta"] = json.loads(c["meta"])
    val_chains = [c for c in read_jsonl(folders["processbench"], "validation")]
    for c in val_chains:
        if isinstance(c["meta"], str):
            c["meta"] = json.loads(c["meta"])
    val_chain_states = chain_states(val_chains)
    chains_in = [c for c in chains if c["meta"]["domain"] != "rooms"]
    chains_rooms = [c for c in chains if c["meta"]["domain"] == "rooms"]

    tok = Tokenizer.build([s.prompt for s in train_states] + [x for s in train_states for x in s.prefix]
                          + [c["text"] for s in train_states for c in s.candidates],
                          [s.domain for s in train_states] + ["rooms"])
    tok.save(os.path.join(work, "tokenizer.json"))

    def count(ss):
        return f"{len({s.key for s in ss})} problems, {len(ss)} states, {sum(len(s.candidates) for s in ss)} rows"

    log(f"config {args.config}: {json.dumps({k: v for k, v in cfg.items() if k != 'runs'})}")
    log(f"seed {args.seed}; " + ("no model (--no-model)" if args.no_model else f"torch {torch.__version__}, {args.threads} threads")
        + f"; python {platform.python_version()}")
    log(f"train: {count(train_states)}; validation (learning curves): {count(val_states)}")
    log(f"test split (blocksworld + ferry): {count(test_states)}; {len(chains_in)} processbench chains")
    log(f"held-out domain rooms: {count(rooms_states)}; {len(chains_rooms)} processbench chains")
    log(f"validation processbench chains (to tune the first-error threshold): {len(val_chains)}")
    log(f"tokenizer: {len(tok)} tokens (word level, object names whole), built on the train split")

    eval_sets = {"test": (test_states, chain_states(chains_in), chains_in),
                 "rooms": (rooms_states, chain_states(chains_rooms), chains_rooms)}
    preds = {}  # predictor -> set -> (row probs, chain-step probs)
    for b in all_baselines(args.seed):
        b.fit(train_states)
        preds[b.name] = {k: ([b.predict(s, c) for s in rs for c in s.candidates],
                             [b.predict(s, s.candidates[0]) for s in cs]) for k, (rs, cs, _) in eval_sets.items()}
        preds[b.name]["val"] = [b.predict(s, s.candidates[0]) for s in val_chain_states]
    curves, times = {}, {}
    runs = [] if args.no_model else cfg["runs"]
    for name, view, share in runs:
        sub = by_problem_subset(train_states, share, 4)
        log(f"\n-- training '{name}': view {view}, {count(sub)}, {cfg['steps']} steps of {cfg['batch_states']} states")
        model, curve, secs = train(tok, sub, cfg, view, args.seed, val_states, log)
        curves[name], times[name] = curve, secs
        preds[name] = {k: (score_states(model, tok, rs, view, cfg), score_states(model, tok, cs, view, cfg))
                       for k, (rs, cs, _) in eval_sets.items()}
        preds[name]["val"] = score_states(model, tok, val_chain_states, view, cfg)
    log("")
    results = evaluate(preds, eval_sets, val_chains, cli, work, cfg["reps"], args.seed, log)
    report = format_report(results, curves, times, [r[0] for r in runs])
    log(report)
    load = open("/proc/loadavg").read().split()[:3] if os.path.exists("/proc/loadavg") else ["?"]
    log(f"wall time {time.time() - t_start:.0f} s end to end (data, {len(runs)} trainings, evaluation); "
        f"load average at the end (1/5/15 min): {' '.join(load)} on {os.cpu_count()} cores")
    if args.report:
        with open(args.report, "w", encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n")
    return results


if __name__ == "__main__":
    main()
