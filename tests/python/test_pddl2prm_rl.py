"""The Python glue (python/pddl2prm_rl.py) against the CLI, standard library only.

usage: PDDL2PRM="node dist/src/cli/main.js" python3 tests/python/test_pddl2prm_rl.py RL_DATASET_DIR
RL_DATASET_DIR: a folder written by `pddl2prm generate --format rl`.
"""

import glob
import json
import os
import subprocess
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))

import pddl2prm_rl as rl  # noqa: E402

DATA = sys.argv.pop(1) if len(sys.argv) > 1 else None


def rows():
    out = []
    for f in sorted(glob.glob(os.path.join(DATA, "data", "*.jsonl"))):
        with open(f, encoding="utf8") as fh:
            out.extend(json.loads(line) for line in fh)
    return out


def direct_many(reqs):
    """The CLI itself, a process of its own (what the glue must agree with): one result per (domain, problem, completion)."""
    cmd = rl._command() + ["reward", "--jsonl"]
    lines = "".join(json.dumps({"domain": d, "problem": p, "completion": c}) + "\n" for d, p, c in reqs)
    out = subprocess.run(cmd, input=lines, capture_output=True, text=True, check=True).stdout
    return [json.loads(line) for line in out.splitlines()]


def direct(domain, problem, completion):
    return direct_many([(domain, problem, completion)])[0]


class Glue(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.rows = rows()
        assert cls.rows, "no rows in " + DATA

    def answers(self, row):
        plan = row["answer"].split("\n")
        return [
            row["answer"],
            "<think>hmm</think>\nPlan:\n" + "\n".join(f"{i + 1}. {a}" for i, a in enumerate(plan)),
            "\n".join(plan[:-1]),  # one step short
            "\n".join(list(reversed(plan))),
            "I cannot do this.",
            "",
        ]

    def test_trl_reward_function_equals_cli(self):
        rows = self.rows[:6]
        want_all = direct_many([(row["domain_pddl"], row["problem_pddl"], c) for row in rows for c in self.answers(row)])
        for k, row in enumerate(rows):
            comps = self.answers(row)
            n = len(comps)
            kwargs = {k: [row[k]] * n for k in row if k != "prompt"}
            got = rl.pddl2prm_reward(prompts=[row["prompt"]] * n, completions=comps, completion_ids=None, **kwargs)
            want = [w["reward"] for w in want_all[k * n : (k + 1) * n]]
            self.assertEqual(got, want)
            self.assertEqual(got[0], 1.0)  # the optimal plan
            self.assertEqual(got[-1], 0.0)
            self.assertEqual(rl.outcome_reward(completions=comps, **kwargs)[0], 1.0)

    def test_conversational_completions(self):
        row = self.rows[0]
        msgs = [[{"role": "assistant", "content": row["answer"]}]]
        self.assertEqual(rl.pddl2prm_reward(completions=msgs, domain_pddl=[row["domain_pddl"]], problem_pddl=[row["problem_pddl"]]), [1.0])

    def test_reward_model_column_only(self):
        row = self.rows[1]
        got = rl.pddl2prm_reward(completions=[row["answer"]], reward_model=[row["reward_model"]])
        self.assertEqual(got, [1.0])

    def test_verl_compute_score(self):
        row = self.rows[2]
        score = rl.compute_score(row["data_source"], row["answer"], row["reward_model"]["ground_truth"], row["extra_info"])
        self.assertEqual(score, 1.0)
        short = "\n".join(row["answer"].split("\n")[:-1])
        self.assertEqual(rl.compute_score(row["data_source"], short, row["reward_model"]["ground_truth"]), direct(row["domain_pddl"], row["problem_pddl"], short)["reward"])

    def test_score_answer(self):
        row = self.rows[3]
        self.assertEqual(rl.score_answer(row["answer"], row), 1.0)
        self.assertEqual(rl.score_answer(None, row), 0.0)
        self.assertEqual(rl.score_answer("no idea", {"question": row["prompt"], "answer": row["answer"], "metadata": row}), 0.0)

    def test_token_rewards(self):
        row = self.rows[0]
        text = "x😀\n" + row["answer"]
        r = rl.client().reward(row["domain_pddl"], row["problem_pddl"], text)
        # one token per character (a tokenizer's offset mapping)
        offsets = [(i, i + 1) for i in range(len(text))]
        tr = rl.token_rewards(r, offsets, text)
        self.assertEqual(sum(tr), sum(r["step_rewards"]))
        nonzero = [i for i, v in enumerate(tr) if v]
        self.assertEqual([text[i + 1] if i + 1 < len(text) else "" for i in nonzero][:-1], ["\n"] * (len(nonzero) - 1))

    def test_batch_is_pipelined_and_ordered(self):
        row = self.rows[0]
        reqs = [{"id": i, "domain": row["domain_pddl"], "problem": row["problem_pddl"], "completion": row["answer"]} for i in range(200)]
        out = rl.client().batch(reqs)
        self.assertEqual([o["id"] for o in out], list(range(200)))

    def test_bad_request_raises_one_line(self):
        with self.assertRaises(ValueError):
            rl.rewards(["(a)"], ["(define (domain x"], ["(define"])


if __name__ == "__main__":
    unittest.main(verbosity=2)
