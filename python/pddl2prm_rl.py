"""pddl2prm rewards for RL trainers (standard library only; docs/rl.md).

One long-lived ``pddl2prm reward --jsonl`` subprocess judges every answer (warm caches: a
problem's ground task and h* values are computed once). The rows of ``pddl2prm generate
--format rl`` carry what a reward needs (``domain_pddl``, ``problem_pddl``; verl's
``reward_model.ground_truth``), so the functions below need nothing but the row.

- TRL ``GRPOTrainer``: ``reward_funcs=[pddl2prm_reward]`` (or ``make_reward_func("outcome")``,
  ``"process"``, ``"reward"``); TRL passes the dataset's other columns as keyword arguments.
- verl: ``custom_reward_function.path=.../pddl2prm_rl.py custom_reward_function.name=compute_score``.
- Reasoning Gym style: ``score_answer(answer, entry)``.
- Process rewards on tokens: ``token_rewards(result, offsets)``.

Which program runs: ``$PDDL2PRM`` (a command line, e.g. ``node /path/to/dist/src/cli/main.js``),
else ``pddl2prm`` on the PATH, else ``npx --no-install pddl2prm``. With ``$PDDL2PRM_URL`` set (a
``pddl2prm serve`` address, e.g. ``http://127.0.0.1:8808``) every function above calls that
server's ``/batch`` instead (``ServerClient``), so that many trainer processes share one pool.
"""

import json
import os
import shlex
import shutil
import subprocess
import threading
import time
import urllib.error
import urllib.request

__all__ = [
    "RewardClient",
    "ServerClient",
    "client",
    "rewards",
    "make_reward_func",
    "pddl2prm_reward",
    "outcome_reward",
    "process_reward",
    "compute_score",
    "score_answer",
    "token_rewards",
]


def _command():
    env = os.environ.get("PDDL2PRM")
    if env:
        return shlex.split(env)
    exe = shutil.which("pddl2prm")
    if exe:
        return [exe]
    return ["npx", "--no-install", "pddl2prm"]


class RewardClient:
    """A ``pddl2prm reward --jsonl`` subprocess: requests in, one result per request out, in order."""

    def __init__(self, command=None, extra_args=()):
        self.command = list(command or _command()) + ["reward", "--jsonl"] + list(extra_args)
        self._proc = None
        self._lock = threading.Lock()

    def _start(self):
        if self._proc is None or self._proc.poll() is not None:
            self._proc = subprocess.Popen(
                self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, encoding="utf-8", bufsize=1
            )
        return self._proc

    def batch(self, requests):
        """Rewards of many requests ({domain, problem, completion, ...}), pipelined; a list of result dicts."""
        requests = list(requests)
        with self._lock:
            proc = self._start()
            # a writer thread, so a long batch never fills both pipes at once
            def write():
                for r in requests:
                    proc.stdin.write(json.dumps(r, ensure_ascii=False) + "\n")
                proc.stdin.flush()

            writer = threading.Thread(target=write, daemon=True)
            writer.start()
            out = []
            for _ in requests:
                line = proc.stdout.readline()
                if not line:
                    self._proc = None
                    raise RuntimeError("pddl2prm reward --jsonl ended (is pddl2prm installed? set $PDDL2PRM)")
                out.append(json.loads(line))
            writer.join()
            return out

    def reward(self, domain, problem, completion, **options):
        return self.batch([dict(domain=domain, problem=problem, completion=completion, **options)])[0]

    def close(self):
        with self._lock:
            if self._proc is not None and self._proc.poll() is None:
                self._proc.stdin.close()
                self._proc.wait(timeout=30)
            self._proc = None


class ServerClient:
    """A ``pddl2prm serve`` reward server: the same ``batch``/``reward`` as ``RewardClient``, over HTTP.

    ``batch`` posts ``{"requests": [...]}`` to ``URL/batch`` and returns the results in order; a
    full queue (503) is retried after its Retry-After, up to ``retries`` times.
    """

    def __init__(self, url=None, timeout=600, retries=20, chunk=512):
        self.url = (url or os.environ.get("PDDL2PRM_URL") or "http://127.0.0.1:8808").rstrip("/")
        self.timeout = timeout
        self.retries = retries
        # a batch larger than the server's --queue is refused: sent in chunks of this many
        self.chunk = chunk

    def _post(self, path, body):
        data = json.dumps(body, ensure_ascii=False).encode("utf-8")
        for attempt in range(self.retries + 1):
            req = urllib.request.Request(self.url + path, data=data, headers={"Content-Type": "application/json"})
            try:
                with urllib.request.urlopen(req, timeout=self.timeout) as resp:
                    return json.loads(resp.read().decode("utf-8"))
            except urllib.error.HTTPError as e:
                if e.code == 503 and attempt < self.retries:
                    time.sleep(float(e.headers.get("Retry-After") or 1))
                    continue
                raise RuntimeError("pddl2prm serve %s: HTTP %d: %s" % (path, e.code, e.read().decode("utf-8", "replace").strip()))

    def batch(self, requests):
        """Results of many requests ({domain, problem, completion, ...}), in order."""
        requests = list(requests)
        out = []
        for i in range(0, len(requests), self.chunk):
            out.extend(self._post("/batch", {"requests": requests[i : i + self.chunk]})["results"])
        return out

    def reward(self, domain, problem, completion, **options):
        return self.batch([dict(domain=domain, problem=problem, completion=completion, **options)])[0]

    def close(self):
        pass


_client = None


def client():
    """The process-wide client (started on first use): ``ServerClient`` if ``$PDDL2PRM_URL`` is set, else ``RewardClient``."""
    global _client
    if _client is None:
        _client = ServerClient() if os.environ.get("PDDL2PRM_URL") else RewardClient()
    return _client


def _text(completion):
    """A completion as text: a string, or chat messages (the last assistant message)."""
    if isinstance(completion, str):
        return completion
    if isinstance(completion, dict):
        return completion.get("content", "")
    if isinstance(completion, (list, tuple)):
        msgs = [m for m in completion if isinstance(m, dict)]
        assistant = [m for m in msgs if m.get("role") == "assistant"]
        pick = (assistant or msgs or [{}])[-1]
        return pick.get("content", "") or ""
    return str(completion)


def _problem_of(row):
    """(domain, problem) of a dataset row, a verl ground_truth (JSON text or dict) or a Reasoning Gym entry."""
    if isinstance(row, str):
        row = json.loads(row)
    if "domain_pddl" in row:
        return row["domain_pddl"], row["problem_pddl"]
    if "reward_model" in row:
        return _problem_of(row["reward_model"]["ground_truth"])
    if "metadata" in row:
        return _problem_of(row["metadata"])
    return row["domain"], row["problem"]


def rewards(completions, domains, problems, **options):
    """Result dicts (reward, outcome, process, step_rewards, ...) of the completions, in order."""
    reqs = [
        dict(domain=d, problem=p, completion=_text(c), **options) for c, d, p in zip(completions, domains, problems)
    ]
    out = client().batch(reqs)
    for r in out:
        if "error" in r:
            raise ValueError("pddl2prm reward: " + r["error"])
    return out


def make_reward_func(kind="reward", **options):
    """A TRL reward function returning field `kind` (reward, outcome, process, progress) of each result.

    TRL calls it as f(prompts=..., completions=..., completion_ids=..., **columns); the columns of
    an rl dataset include domain_pddl and problem_pddl. options: scale_by_cost, outcome_weight.
    """

    def reward_func(completions, domain_pddl=None, problem_pddl=None, reward_model=None, **kwargs):
        if domain_pddl is None:
            pairs = [_problem_of(rm["ground_truth"]) for rm in reward_model]
            domain_pddl = [d for d, _ in pairs]
            problem_pddl = [p for _, p in pairs]
        return [float(r[kind]) for r in rewards(completions, domain_pddl, problem_pddl, **options)]

    reward_func.__name__ = "pddl2prm_" + kind
    return reward_func


pddl2prm_reward = make_reward_func("reward")
outcome_reward = make_reward_func("outcome")
process_reward = make_reward_func("process")


def compute_score(data_source, solution_str, ground_truth, extra_info=None, **kwargs):
    """verl's custom reward function: the mixed reward of one response (ground_truth: the row's JSON)."""
    domain, problem = _problem_of(ground_truth)
    return float(client().reward(domain, problem, solution_str)["reward"])


def score_answer(answer, entry):
    """Reasoning-Gym style: the mixed reward in [0, 1] of `answer` to a dataset row `entry` (0.0 for no answer)."""
    if answer is None:
        return 0.0
    domain, problem = _problem_of(entry)
    r = client().reward(domain, problem, _text(answer))
    if "error" in r:
        raise ValueError("pddl2prm reward: " + r["error"])
    return float(r["reward"])


def _utf16_to_index(text, offset):
    """Python string index of a UTF-16 offset (what JavaScript counts) in `text`."""
    units = 0
    for i, ch in enumerate(text):
        if units >= offset:
            return i
        units += 2 if ord(ch) > 0xFFFF else 1
    return len(text)


def token_rewards(result, offsets, text=None):
    """Per-token rewards for a process-reward trainer: step i's reward on the token where step i ends.

    result: a reward result; offsets: the tokenizer's offset mapping of the completion
    ((start, end) per token, as `tokenizer(text, return_offsets_mapping=True)` gives); text: the
    completion (needed only when it has characters outside the Basic Multilingual Plane).
    Returns a list of floats (0.0 on tokens that end no step).
    """
    out = [0.0] * len(offsets)
    if not offsets:
        return out
    for reward, end in zip(result["step_rewards"], result["step_ends"]):
        e = _utf16_to_index(text, end) if text is not None else end
        # the last token that starts before the step's end
        k = 0
        for i, (s, _) in enumerate(offsets):
            if s < e or (e == 0 and i == 0):
                k = i
        out[k] += float(reward)
    return out
