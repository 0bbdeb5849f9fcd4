"""Tests of the benchmark's standard-library parts: reading rows, the tokenizer, the views and
ablations, the baselines, the metrics and the bootstrap. No torch needed (the attention check
runs only where torch is installed):

    python3 bench/learn/test_learn.py            (tests/learn-bench.test.ts runs it under npm test)
"""

import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from baselines import ActionPrior, Majority, PreviousStepPrior, RandomScores  # noqa: E402
from data import (CATEGORIES, by_problem_subset, chain_states, compact_candidate, compact_prefix,  # noqa: E402
                  context_text, group_states, parse_action)
from metrics import (Ranked, average_precision, bootstrap_weights, first_error_f1, interval,  # noqa: E402
                     predicted_first_error)
from tok import SPECIALS, Tokenizer, words  # noqa: E402

PROMPT = ("This is the blocks world. Rules.\n\nThere are two blocks: block 1 and block 2.\n\n"
          "Initially, block 1 is on the table, block 2 is on block 1 and my hand is empty.\n\n"
          "My goal is to reach a state where block 1 is on block 2.\n\nPlan the moves one at a time.\n")
UNSTACK = "Step 1: As block 2 is on block 1, block 2 is clear and my hand is empty, I unstack block 2 from block 1. Now I am holding block 2."
PICK = "Step 1: As block 1 is clear and my hand is empty, I pick up block 1. Now I am holding block 1."
PUT = "Step 2: As I am holding block 2, I put down block 2. Now block 2 is on the table."


def row(problem, split, index, prefix, prefix_acts, text, action, category, reward):
    return {"id": f"blocksworld/{problem}/t{index:02d}/{action}", "domain": "blocksworld", "problem": problem,
            "split": split, "prompt": PROMPT, "completions": prefix + [text], "labels": [0.0] * len(prefix) + [reward],
            "category": category, "meta": {"state_index": index, "prefix": prefix_acts, "action": action}}


def toy_rows():
    rows = []
    for p, split in (("p1", "train"), ("p2", "train"), ("p3", "test")):
        rows.append(row(p, split, 0, [], [], UNSTACK, "(unstack b2 b1)", "optimal", 1.0))
        rows.append(row(p, split, 0, [], [], PICK, "(pick-up b1)", "non-executable", 0.0))
        rows.append(row(p, split, 1, [UNSTACK], ["(unstack b2 b1)"], PUT, "(put-down b2)", "optimal", 1.0))
        rows.append(row(p, split, 1, [UNSTACK], ["(unstack b2 b1)"], PICK.replace("Step 1", "Step 2"), "(pick-up b1)",
                        "non-executable", 0.0))
    return rows


class Data(unittest.TestCase):
    def test_group_states_shares_context(self):
        states = group_states(toy_rows())
        self.assertEqual(len(states), 6)
        self.assertEqual([len(s.candidates) for s in states], [2] * 6)
        self.assertEqual(states[1].prefix_actions, [("unstack", ("b2", "b1"))])
        self.assertEqual(states[0].key, "blocksworld/p1")

    def test_views_remove_exactly_the_state(self):
        full = context_text(PROMPT, "full")
        self.assertIn("Initially", full)
        self.assertIn("goal", full)
        self.assertNotIn("Rules", full)  # the same in every row: the domain token replaces it
        nostate = context_text(PROMPT, "nostate")
        self.assertNotIn("Initially", nostate)
        self.assertNotIn("goal", nostate)
        self.assertIn("block 2", nostate)
        self.assertEqual(context_text(PROMPT, "steponly"), "")
        with self.assertRaises(ValueError):
            context_text("one paragraph only", "full")

    def test_compact_steps(self):
        self.assertEqual(compact_candidate(UNSTACK),
                         "As block 2 is on block 1, block 2 is clear and my hand is empty, I unstack block 2 from block 1.")
        self.assertEqual(compact_prefix(UNSTACK), "Now I am holding block 2.")
        self.assertEqual(compact_candidate("Step 3: no sentence end"), "no sentence end")

    def test_parse_action(self):
        self.assertEqual(parse_action("(Unstack b2 b1)"), ("unstack", ("b2", "b1")))
        self.assertIsNone(parse_action(None))

    def test_subsets_are_nested(self):
        states = group_states(toy_rows())
        a, b = by_problem_subset(states, 1, 3), by_problem_subset(states, 2, 3)
        self.assertTrue({s.key for s in a} < {s.key for s in b})

    def test_chain_states(self):
        chain = {"id": "blocksworld/p3/k0", "problem": PROMPT, "steps": [UNSTACK, PUT], "label": 1,
                 "meta": {"domain": "blocksworld", "problem_id": "p3", "actions": ["(unstack b2 b1)", "(put-down b2)"],
                          "step_rewards": [1.0, 0.5], "step_categories": ["optimal", "backtracking"]}}
        ss = chain_states([chain])
        self.assertEqual([len(s.prefix) for s in ss], [0, 1])
        self.assertEqual(ss[1].candidates[0]["category"], "backtracking")
        self.assertEqual(ss[1].prefix_actions, [("unstack", ("b2", "b1"))])


class Tok(unittest.TestCase):
    def test_object_names_stay_whole(self):
        self.assertEqual(words("I unstack block 2 from block 10."), ["i", "unstack", "block_2", "from", "block_10", "."])
        self.assertEqual(words("car 1 is at location 4, (board car1 loc4)"),
                         ["car_1", "is", "at", "location_4", ",", "(", "board", "car1", "loc4", ")"])

    def test_vocabulary_and_unknowns(self):
        t = Tokenizer.build(["block 1 is on block 2", "block 1"], ["blocksworld"])
        self.assertEqual(t.vocab[:len(SPECIALS)], SPECIALS)
        self.assertEqual(t.vocab[len(SPECIALS) + 1], "block_1")  # most frequent first
        self.assertEqual(t.encode("block 3 is on block 1")[0], t.id("[UNK]"))
        self.assertNotEqual(t.domain("blocksworld"), t.id("[UNK]"))
        self.assertEqual(Tokenizer.build(["b a", "a b"]).vocab, Tokenizer.build(["a b", "b a"]).vocab)


class Baselines(unittest.TestCase):
    def setUp(self):
        states = group_states(toy_rows())
        self.train = [s for s in states if s.split == "train"]
        self.test = [s for s in states if s.split == "test"]

    def test_action_prior_reads_the_action(self):
        b = ActionPrior().fit(self.train)
        s = self.test[0]
        unstack, pick = b.predict(s, s.candidates[0]), b.predict(s, s.candidates[1])
        self.assertGreater(unstack[CATEGORIES.index("optimal")], pick[CATEGORIES.index("optimal")])
        self.assertAlmostEqual(sum(pick), 1.0)

    def test_previous_step_prior_reads_the_previous_action(self):
        b = PreviousStepPrior().fit(self.train)
        s0, s1 = self.test[0], self.test[1]
        ne = CATEGORIES.index("non-executable")
        # pick-up is non-executable in both states: the previous step does not change that here
        self.assertGreater(b.predict(s1, s1.candidates[1])[ne], 0.5)
        self.assertGreater(b.predict(s0, s0.candidates[1])[ne], 0.5)

    def test_majority_and_random(self):
        m = Majority().fit(self.train)
        self.assertEqual(m.predict(self.test[0], self.test[0].candidates[0]), m.predict(self.test[1], self.test[1].candidates[1]))
        r = RandomScores(3)
        c = self.test[0].candidates[0]
        self.assertEqual(r.predict(self.test[0], c), r.predict(self.test[0], c))
        self.assertNotEqual(r.predict(self.test[0], c), RandomScores(4).predict(self.test[0], c))


class Metrics(unittest.TestCase):
    def test_average_precision(self):
        self.assertAlmostEqual(average_precision([0.9, 0.8, 0.7], [True, False, True]), (1 + 2 / 3) / 2)
        self.assertAlmostEqual(average_precision([0.1, 0.9], [True, False]), 0.5)
        # ties are one threshold: the order of tied items cannot matter
        self.assertAlmostEqual(average_precision([0.5, 0.5, 0.5, 0.5], [True, False, False, True]), 0.5)
        self.assertAlmostEqual(average_precision([0.5, 0.5, 0.5, 0.5], [False, True, True, False]), 0.5)
        self.assertIsNone(average_precision([0.1, 0.2], [False, False]))

    def test_weights_are_resampled_problems(self):
        r = Ranked([0.9, 0.8, 0.7, 0.6], [True, False, False, True], ["a", "a", "b", "b"])
        self.assertAlmostEqual(r.ap({"a": 2}), 1.0)  # only problem a, drawn twice
        self.assertAlmostEqual(r.ap({"a": 1, "b": 1}), r.ap())

    def test_first_error_f1(self):
        # (problem, gold first error or -1, predicted)
        chains = [("a", 2, 2), ("a", -1, -1), ("b", 1, 0), ("b", -1, 3)]
        err, cor, f1 = first_error_f1(chains)
        self.assertEqual((err, cor), (0.5, 0.5))
        self.assertAlmostEqual(f1, 0.5)
        self.assertEqual(first_error_f1(chains, {"a": 1})[2], 1.0)
        self.assertEqual(predicted_first_error([0.9, 0.4, 0.1]), 1)
        self.assertEqual(predicted_first_error([0.9, 0.6]), -1)

    def test_bootstrap_is_seeded_and_by_problem(self):
        w1 = bootstrap_weights(["a", "a", "b", "c"], 50, 7)
        self.assertEqual(w1, bootstrap_weights(["c", "b", "a"], 50, 7))
        self.assertTrue(all(sum(w.values()) == 3 for w in w1))
        self.assertNotEqual(w1, bootstrap_weights(["a", "b", "c"], 50, 8))
        lo, hi = interval([x / 100 for x in range(101)])
        self.assertAlmostEqual(lo, 0.02)
        self.assertAlmostEqual(hi, 0.98)



try:
    import torch  # noqa: F401
except ImportError:
    torch = None


@unittest.skipIf(torch is None, "torch is not installed (the attention check needs it)")
class AttentionTest(unittest.TestCase):
    def test_by_hand_equals_fused(self):
        """The attention written out for torch < 2.0 (CI's Debian torch) is the fused one's arithmetic."""
        import torch.nn.functional as F

        import model

        g = torch.Generator().manual_seed(1)
        q, k, v = (torch.randn(2, 2, 5, 4, generator=g) for _ in range(3))
        mask = torch.rand(2, 1, 5, 5, generator=g) > 0.3
        mask |= torch.eye(5, dtype=torch.bool)[None, None]
        fused = getattr(F, "scaled_dot_product_attention", None)
        # hide the fused one so that model.attention takes its own path
        saved = F.__dict__.pop("scaled_dot_product_attention", None)
        try:
            manual = model.attention(q, k, v, mask)
        finally:
            if saved is not None:
                F.scaled_dot_product_attention = saved
        if fused is not None:
            self.assertTrue(torch.allclose(manual, fused(q, k, v, attn_mask=mask), atol=1e-5))
        self.assertEqual(tuple(manual.shape), (2, 2, 5, 4))


if __name__ == "__main__":
    unittest.main()
