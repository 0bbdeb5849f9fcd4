"""Reading pddl2prm folders for the learnability benchmark (standard library only).

A native row is one candidate step at one state of a walk: the prompt (the problem), the steps
so far and the candidate as the last completion, its graded reward and category, and `meta`
(the PDDL action, the prefix's PDDL actions, the state's index). Rows of one state share their
prompt and prefix, so they are grouped into a `State`: the model then reads the shared context
once and all its candidates beside it (see model.py), which makes a CPU run several times cheaper.
"""

import glob
import gzip
import json
import os
import re
from collections import OrderedDict

CATEGORIES = ["non-executable", "dead-end", "backtracking", "suboptimal", "optimal"]
REWARD = {"non-executable": 0.0, "dead-end": 0.25, "backtracking": 0.5, "suboptimal": 0.75, "optimal": 1.0}
CAT_INDEX = {c: i for i, c in enumerate(CATEGORIES)}

# What the model is shown (ablations):
#   full     the problem's objects, initial state and goal, the steps so far, the candidate
#   nostate  the same without the initial state and the goal (the steps so far are kept)
#   steponly the candidate step alone (no problem, no steps so far)
VIEWS = ("full", "nostate", "steponly")


def read_jsonl(folder, split=None):
    """Every row of a dataset folder's shards (data/*.jsonl[.gz]), optionally one split's only."""
    pattern = os.path.join(folder, "data", f"{split}-*.jsonl*" if split else "*.jsonl*")
    rows = []
    for path in sorted(glob.glob(pattern)):
        opener = gzip.open if path.endswith(".gz") else open
        with opener(path, "rt", encoding="utf-8") as f:
            rows.extend(json.loads(line) for line in f if line.strip())
    return rows


def parse_action(text):
    """'(unstack b2 b1)' -> ('unstack', ('b2', 'b1')); None for a missing action."""
    if not text:
        return None
    parts = text.strip().strip("()").split()
    return parts[0].lower(), tuple(p.lower() for p in parts[1:])


def problem_paragraphs(prompt):
    """The prompt's paragraphs: (rules, objects, state, goal, instruction), where state is the
    initial state with any fixed facts before it (rooms writes them in a paragraph of their own).

    The built-in templates separate these by blank lines; a prompt with fewer than five
    paragraphs is refused rather than guessed (the ablation must remove exactly the state)."""
    paras = prompt.strip().split("\n\n")
    if len(paras) < 5:
        raise ValueError(f"expected at least 5 prompt paragraphs (rules, objects, state, goal, instruction), got {len(paras)}")
    return paras[0], paras[1], "\n".join(paras[2:-2]), paras[-2], paras[-1]


def context_text(prompt, view):
    """The part of the problem a view shows. The rules and the instruction are the same in every
    row of a domain, so they are left out (the domain is a token of its own): shorter sequences
    are what makes a CPU run possible."""
    if view == "steponly":
        return ""
    _rules, objects, state, goal, _instruction = problem_paragraphs(prompt)
    if view == "nostate":
        return objects
    return "\n".join([objects, state, goal])


class State:
    """One state of one walk: the shared context and its candidates."""

    __slots__ = ("domain", "problem", "split", "index", "prompt", "prefix", "prefix_actions", "candidates")

    def __init__(self, domain, problem, split, index, prompt, prefix, prefix_actions):
        self.domain, self.problem, self.split, self.index = domain, problem, split, index
        self.prompt, self.prefix, self.prefix_actions = prompt, prefix, prefix_actions
        self.candidates = []  # dicts: text, action, category, reward, id

    @property
    def key(self):
        """The unit of the bootstrap: a problem (its rows are not independent)."""
        return f"{self.domain}/{self.problem}"


def group_states(rows):
    """Native rows -> States, in file order (deterministic)."""
    states = OrderedDict()
    for r in rows:
        m = r["meta"]
        k = (r["domain"], r["problem"], m["state_index"], r["prompt"], tuple(r["completions"][:-1]))
        s = states.get(k)
        if s is None:
            s = State(r["domain"], r["problem"], r["split"], m["state_index"], r["prompt"],
                      list(r["completions"][:-1]), [parse_action(a) for a in m["prefix"]])
            states[k] = s
        s.candidates.append({"id": r["id"], "text": r["completions"][-1], "action": parse_action(m["action"]),
                             "category": r["category"], "reward": r["labels"][-1]})
    return list(states.values())


def chain_states(chains):
    """processbench chains -> one State per step (the step as the only candidate, the steps
    before it as the prefix), so the model scores a chain exactly as it scores training rows.
    The gold category of each step comes from the chain's meta."""
    out = []
    for c in chains:
        meta = c["meta"]
        acts = [parse_action(a) for a in meta["actions"]]
        for i, step in enumerate(c["steps"]):
            s = State(meta["domain"], meta["problem_id"], meta.get("split", ""), i, c["problem"],
                      list(c["steps"][:i]), acts[:i])
            s.candidates.append({"id": f"{c['id']}#{i}", "text": step, "action": acts[i],
                                 "category": meta["step_categories"][i], "reward": meta["step_rewards"][i]})
            out.append(s)
    return out


def by_problem_subset(states, fraction_num, fraction_den):
    """The first num/den of the train problems (in sorted order): the data-size curve uses
    nested subsets, so 1x is inside 2x inside 4x."""
    keys = sorted({s.key for s in states})
    keep = set(keys[: max(1, len(keys) * fraction_num // fraction_den)])
    return [s for s in states if s.key in keep]


STEP_MARK = re.compile(r"^Step \d+:\s*")


def strip_step_mark(text):
    """'Step 3: I ...' -> 'I ...': the separator already marks a step, and the number would
    tell the model the candidate's position (a shortcut the audit checks for)."""
    return STEP_MARK.sub("", text)


def split_step(text):
    """A step's two sentences (DESIGN.md §8: "Since …, I … . Now … ."): what is done and why,
    and what is true afterwards; None when the text is not two sentences."""
    body = strip_step_mark(text)
    parts = body.split(". ")
    if len(parts) != 2 or not body.endswith("."):
        return None
    return parts[0] + ".", parts[1]


def compact_candidate(text):
    """The candidate's first sentence: its claimed reasons and its action. The second sentence
    claims the action's effects, which the action alone determines, so it adds tokens but no
    information about the label; the CPU configuration drops it to halve the sequence."""
    s = split_step(text)
    return s[0] if s else strip_step_mark(text)


def compact_prefix(text):
    """A step so far by what it made true (its second sentence): with the initial state, that is
    the state; its first sentence (the facts that held before it) repeats earlier text."""
    s = split_step(text)
    return s[1] if s else strip_step_mark(text)
