"""A word-level tokenizer built on the train split that keeps object names whole (stdlib only).

Why not BPE: the rows are template text over a closed vocabulary, and what matters is which
object a fact is about. A BPE or character tokenizer cuts "block 2" into "block", " 2" and the
model must learn to bind them again at every use; here "block 2" is one token, so matching a
claimed fact ("block 2 is on block 1") against the state is a matter of comparing tokens.
An object name is a word followed by a number ("block 2", "car 1", "location 4") or a word
with digits in it ("b2", "loc4"); every other word and each punctuation mark is a token.
"""

import json
import re
from collections import Counter

PAD, UNK, SEP, CTX, STEP = "[PAD]", "[UNK]", "[SEP]", "[CTX]", "[STEP]"
SPECIALS = [PAD, UNK, SEP, CTX, STEP]

# an object name first (word + space + number, or a word with digits), then words, then marks
_TOKEN = re.compile(r"[a-z]+ \d+\b|[a-z]*\d[a-z\d-]*|[a-z][a-z'-]*|[^\sa-z\d]")


def words(text):
    """Lower-cased tokens; an object name stays one token ('block 2' -> 'block_2')."""
    return [t.replace(" ", "_") for t in _TOKEN.findall(text.lower())]


class Tokenizer:
    def __init__(self, vocab):
        self.vocab = list(vocab)
        self.index = {w: i for i, w in enumerate(self.vocab)}
        for s in SPECIALS:
            assert s in self.index, s

    @classmethod
    def build(cls, texts, domains=(), min_count=1):
        """Vocabulary of the train texts (sorted by count, then alphabetically: deterministic),
        one token per domain name (the rules paragraph is replaced by it)."""
        counts = Counter()
        for t in texts:
            counts.update(words(t))
        kept = sorted((w for w, c in counts.items() if c >= min_count), key=lambda w: (-counts[w], w))
        doms = [f"[D:{d}]" for d in sorted(set(domains))]
        return cls(SPECIALS + doms + [w for w in kept if w not in SPECIALS])

    def id(self, token):
        return self.index.get(token, self.index[UNK])

    def encode(self, text):
        return [self.id(w) for w in words(text)]

    def domain(self, name):
        return self.id(f"[D:{name}]")

    def __len__(self):
        return len(self.vocab)

    def save(self, path):
        with open(path, "w", encoding="utf-8") as f:
            json.dump({"type": "pddl2prm-wordlevel", "vocab": self.vocab}, f)

    @classmethod
    def load(cls, path):
        with open(path, encoding="utf-8") as f:
            return cls(json.load(f)["vocab"])
