"""Baselines that read no state (standard library only). Each is fitted on the train States and
gives every candidate a probability for each of the five categories.

- action prior: the category mix of the candidate's action type in its domain on train (the
  equivalent of the audit's action-only prior, `pddl2prm audit`: what the action name says);
- previous-step prior: the mix for (previous action type, candidate action type, objects shared
  with the previous action), backing off to the action prior (the audit's previous-step probe:
  "after a pick-up, another pick-up is never executable" needs no state);
- majority: the train mix for every row (it ranks nothing: its AP is the class's rate);
- random: seeded random scores.
"""

import random
from collections import Counter, defaultdict

from data import CAT_INDEX, CATEGORIES

K = len(CATEGORIES)


def _mix(counter, prior, alpha):
    """Smoothed category mix: counts plus alpha times the backed-off prior."""
    n = sum(counter.values())
    return [(counter.get(c, 0) + alpha * prior[i]) / (n + alpha) for i, c in enumerate(CATEGORIES)]


class Majority:
    name = "majority"

    def fit(self, states):
        counts = Counter(c["category"] for s in states for c in s.candidates)
        self.mix = _mix(counts, [1.0 / K] * K, 1.0)
        return self

    def predict(self, state, cand):
        return list(self.mix)


class _KeyedPrior:
    """The category mix per key of a candidate on train, smoothed towards a backed-off prior."""

    def __init__(self, alpha=1.0):
        self.alpha = alpha

    def backoff(self, states):
        raise NotImplementedError

    def fit(self, states):
        self.base = self.backoff(states)
        self.counts = defaultdict(Counter)
        for s in states:
            for c in s.candidates:
                self.counts[self.key(s, c)][c["category"]] += 1
        return self

    def predict(self, state, cand):
        return _mix(self.counts.get(self.key(state, cand), Counter()), self.base.predict(state, cand), self.alpha)


class ActionPrior(_KeyedPrior):
    name = "action prior"

    def backoff(self, states):
        return Majority().fit(states)

    @staticmethod
    def key(state, cand):
        return (state.domain, cand["action"][0] if cand["action"] else "?")


class PreviousStepPrior(_KeyedPrior):
    name = "previous-step prior"

    def backoff(self, states):
        return ActionPrior(self.alpha).fit(states)

    @staticmethod
    def key(state, cand):
        prev = state.prefix_actions[-1] if state.prefix_actions else None
        act = cand["action"] or ("?", ())
        if prev is None:
            return (state.domain, None, act[0], 0)
        shared = sum(1 for o in act[1] if o in prev[1])
        return (state.domain, prev[0], act[0], shared)


class RandomScores:
    name = "random"

    def __init__(self, seed=0):
        self.seed = seed

    def fit(self, states):
        return self

    def predict(self, state, cand):
        # seeded by the row's id: the same row gets the same scores in every run and order
        rng = random.Random(f"{self.seed}/{cand['id']}")
        x = [rng.random() for _ in range(K)]
        t = sum(x)
        return [v / t for v in x]


def all_baselines(seed=0):
    return [ActionPrior(), PreviousStepPrior(), Majority(), RandomScores(seed)]


def label_of(cand):
    return CAT_INDEX[cand["category"]]
