"""A real TRL ``GRPOTrainer`` run with pddl2prm's rewards, through the subprocess and the server.

    python bench/rl/grpo_check.py RL_DIR WORK [--route both|subprocess|server] [--steps 3]
                                  [--domains blocksworld,ferry,hanoi] [--seed 1]

RL_DIR is a ``pddl2prm generate --format rl`` folder; WORK a scratch folder. Needs torch,
transformers, trl, datasets and tokenizers (from the local index, as ../shared/tools/trl-check).
$PDDL2PRM names the CLI (default: node <checkout>/dist/src/cli/main.js).

The model is random (Qwen3, 2 layers, hidden 64). So that its samples hold steps worth judging,
its tokenizer has one token per ground action of the rows' plans, written as a plan line
("(unstack b4 b3)\\n"), beside a small character-level vocabulary: a random model then writes
plans of real actions, some executable and some not, and the rewards are not all zero.

Per route the run logs every completion and the three rewards TRL saw (``pddl2prm_reward``,
``pddl2prm_outcome``, ``pddl2prm_process``); afterwards every logged completion is judged again
by a fresh ``pddl2prm reward --jsonl`` (the same floats) and its extracted steps by
``pddl2prm judge --jsonl`` (the same per-step rewards). RESULT lines say what held.
"""

import argparse
import json
import os
import re
import shlex
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "python"))

import pddl2prm_rl as rl  # noqa: E402

KINDS = ("reward", "outcome", "process")


def cli():
    env = os.environ.get("PDDL2PRM")
    return shlex.split(env) if env else ["node", os.path.join(ROOT, "dist", "src", "cli", "main.js")]


def build_tiny(rows, out):
    """A random 2-layer Qwen3 and a tokenizer with one token per plan line of the rows."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast, Qwen3Config, Qwen3ForCausalLM
    import torch

    actions = sorted({line.strip() for r in rows for line in r["answer"].split("\n") if line.strip()})
    tok = Tokenizer(models.BPE(unk_token="<unk>"))
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    # a small vocabulary (the bytes the prompts use and a few merges), so most tokens are plan lines
    trainer = trainers.BpeTrainer(vocab_size=120, special_tokens=["<pad>", "<unk>", "<eos>"])
    tok.train_from_iterator((r["prompt"] for r in rows), trainer)
    fast = PreTrainedTokenizerFast(tokenizer_object=tok, pad_token="<pad>", unk_token="<unk>", eos_token="<eos>")
    # whole plan lines: matched before the BPE, decoded verbatim
    fast.add_tokens([a + "\n" for a in actions])
    torch.manual_seed(0)
    config = Qwen3Config(vocab_size=len(fast), hidden_size=64, intermediate_size=128, num_hidden_layers=2, num_attention_heads=4,
                         num_key_value_heads=2, head_dim=16, max_position_embeddings=8192, pad_token_id=fast.pad_token_id,
                         eos_token_id=fast.eos_token_id, bos_token_id=None, tie_word_embeddings=True)
    model = Qwen3ForCausalLM(config)
    model.generation_config.pad_token_id = fast.pad_token_id
    model.generation_config.eos_token_id = fast.eos_token_id
    fast.save_pretrained(out)
    model.save_pretrained(out)
    return len(actions)


def start_server():
    proc = subprocess.Popen(cli() + ["serve", "--port", "0", "--workers", "1"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    seen = ""
    while True:
        line = proc.stderr.readline()
        if not line:
            raise RuntimeError("pddl2prm serve exited: " + seen)
        seen += line
        m = re.search(r"listening on (http://[^\s]+)", line)
        if m:
            return proc, m.group(1)


def train(route, ds, tiny, work, steps, seed):
    from transformers import AutoModelForCausalLM, AutoTokenizer
    from trl import GRPOConfig, GRPOTrainer

    log_path = os.path.join(work, route, "rewards.jsonl")
    os.makedirs(os.path.dirname(log_path), exist_ok=True)
    log = open(log_path, "w")

    def logged(kind):
        inner = rl.make_reward_func(kind)

        def f(completions, domain_pddl=None, problem_pddl=None, **kwargs):
            out = inner(completions, domain_pddl=domain_pddl, problem_pddl=problem_pddl, **kwargs)
            for c, d, p, v in zip(completions, domain_pddl, problem_pddl, out):
                log.write(json.dumps({"kind": kind, "domain": d, "problem": p, "completion": c, "value": v}) + "\n")
            log.flush()
            return out

        f.__name__ = "pddl2prm_" + kind
        return f

    server = None
    if route == "server":
        server, url = start_server()
        os.environ["PDDL2PRM_URL"] = url
    else:
        os.environ.pop("PDDL2PRM_URL", None)
        os.environ.setdefault("PDDL2PRM", shlex.join(cli()))
    rl._client = None  # the process-wide client follows $PDDL2PRM_URL from here on
    try:
        tok = AutoTokenizer.from_pretrained(tiny)
        model = AutoModelForCausalLM.from_pretrained(tiny)
        args = GRPOConfig(output_dir=os.path.join(work, route, "out"), max_steps=steps, per_device_train_batch_size=8, num_generations=4,
                          max_completion_length=32, logging_steps=1, use_cpu=True, report_to=[], save_strategy="no",
                          learning_rate=1e-4, seed=seed, temperature=1.0)
        trainer = GRPOTrainer(model=model, args=args, processing_class=tok, train_dataset=ds,
                              reward_funcs=[logged(k) for k in KINDS])
        t0 = time.time()
        trainer.train()
        took = time.time() - t0
        logs = [h for h in trainer.state.log_history if "step" in h and f"rewards/pddl2prm_{KINDS[0]}/mean" in h]
    finally:
        if rl._client is not None:
            rl._client.close()
        rl._client = None
        if server is not None:
            server.terminate()
            server.wait(30)
    log.close()
    return log_path, logs, took


def jsonl(cmd, requests):
    """Run `cmd` once over request dicts, one result dict per request."""
    inp = "".join(json.dumps(r) + "\n" for r in requests)
    out = subprocess.run(cmd, input=inp, capture_output=True, text=True, check=True).stdout
    return [json.loads(line) for line in out.splitlines()]


def replay(log_path):
    """Logged values vs a fresh `reward --jsonl` and, per step, `judge --jsonl`."""
    entries = [json.loads(line) for line in open(log_path)]
    fresh = jsonl(cli() + ["reward", "--jsonl"], [{"domain": e["domain"], "problem": e["problem"], "completion": e["completion"]} for e in entries])
    value_mismatch = sum(1 for e, r in zip(entries, fresh) if float(r[e["kind"]]) != e["value"])
    firsts = [(e, r) for e, r in zip(entries, fresh) if e["kind"] == KINDS[0]]
    judged = jsonl(cli() + ["judge", "--jsonl"], [{"domain": e["domain"], "problem": e["problem"], "steps": [s["text"] for s in r["steps"]]} for e, r in firsts])
    step_mismatch = 0
    steps = 0
    categories = {}
    for (e, r), j in zip(firsts, judged):
        mine = [s["reward"] for s in j["steps"]]
        steps += len(mine)
        step_mismatch += mine != r["step_rewards"]
        for s in r["steps"]:
            categories[s["category"]] = categories.get(s["category"], 0) + 1
    nonzero = sum(1 for e in entries if e["value"] != 0)
    return len(entries), value_mismatch, len(firsts), step_mismatch, steps, categories, nonzero


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("rl_dir")
    ap.add_argument("work")
    ap.add_argument("--route", choices=["both", "subprocess", "server"], default="both")
    ap.add_argument("--steps", type=int, default=3)
    ap.add_argument("--domains", default="blocksworld,ferry,hanoi")
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    from datasets import load_dataset

    domains = set(a.domains.split(","))
    ds = load_dataset(a.rl_dir)["train"].filter(lambda r: r["domain"] in domains)
    print(f"RESULT load_dataset: {len(ds)} train rows of {sorted(domains)}")
    tiny = os.path.join(a.work, "tiny")
    n_actions = build_tiny(list(ds), tiny)
    print(f"RESULT tiny model: random Qwen3 2x64, {n_actions} plan-line tokens")
    ok = True
    for route in (["subprocess", "server"] if a.route == "both" else [a.route]):
        log_path, logs, took = train(route, ds, tiny, a.work, a.steps, a.seed)
        means = ", ".join(f"{h[f'rewards/pddl2prm_reward/mean']:.3f}" for h in logs)
        print(f"RESULT {route}: GRPOTrainer finished {len(logs)} logged steps in {took:.0f} s; mean pddl2prm_reward per step: {means}")
        n, bad, plans, bad_steps, steps, cats, nonzero = replay(log_path)
        print(f"RESULT {route}: {n} logged rewards ({nonzero} non-zero), {bad} differ from a fresh `reward --jsonl`; "
              f"{plans} completions, {steps} steps, {bad_steps} differ from `judge --jsonl`; categories {json.dumps(cats, sort_keys=True)}")
        ok = ok and bad == 0 and bad_steps == 0 and len(logs) == a.steps
    print("RESULT " + ("pass" if ok else "FAIL"))
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
