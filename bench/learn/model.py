"""A small transformer, trained from scratch, that labels candidate steps (torch).

Input, one sequence per state: the domain token, the problem's context (objects, initial state,
goal), the steps so far, then every candidate of the state followed by a separator:

    [D:blocksworld] [CTX] objects... initial state... goal... [STEP] step 1 ... [STEP] step 2 ...
    candidate 1 ... [SEP]  candidate 2 ... [SEP]  ...

The context attends only to itself; each candidate attends to the context and to itself, never
to another candidate, and its positions restart where the context ends. So each candidate is
read exactly as if it were alone after the context (the label cannot leak between candidates),
while the context is encoded once per state instead of once per candidate. A classification
head on each candidate's [SEP] predicts its category (five classes, the rewards' levels).
"""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F

from data import CATEGORIES, CAT_INDEX, compact_candidate, compact_prefix, context_text, strip_step_mark
from tok import CTX, SEP, STEP

CONTEXT, PREFIX, CANDIDATE = 0, 1, 2
# How many steps ago a token was written: 0 the candidate, 1 the last step so far, 2 the one
# before..., MAX_AGE the problem (initial state). Positions alone would have to be learned from
# scratch for every length; the age says directly which mention of a fact is the latest, which
# is what judging a step against the current state needs.
MAX_AGE = 16


def encode_state(tok, state, view, max_context, compact=False):
    """Token ids, segment ids, positions, the owner of each token (-1: context, j: candidate j),
    the [SEP] index of each candidate, and its label. The context is cut from the left of the
    steps so far when it exceeds max_context (counted by the caller: it should not happen on the
    benchmark's small problems). compact: each step so far by its effects, each candidate by its
    reasons and action (data.compact_prefix, data.compact_candidate)."""
    pre = compact_prefix if compact else strip_step_mark
    cand_text = compact_candidate if compact else strip_step_mark
    ctx = [tok.domain(state.domain), tok.id(CTX)] + tok.encode(context_text(state.prompt, view))
    seg = [CONTEXT] * len(ctx)
    age = [MAX_AGE] * len(ctx)
    if view != "steponly":
        n = len(state.prefix)
        for i, step in enumerate(state.prefix):
            ids = [tok.id(STEP)] + tok.encode(pre(step))
            ctx += ids
            seg += [PREFIX] * len(ids)
            age += [min(n - i, MAX_AGE - 1)] * len(ids)
    cut = max(0, len(ctx) - max_context)
    ctx, seg, age = ctx[:2] + ctx[2 + cut:], seg[:2] + seg[2 + cut:], age[:2] + age[2 + cut:]
    ids, segs, pos, owner, seps, labels = list(ctx), list(seg), list(range(len(ctx))), [-1] * len(ctx), [], []
    ages = list(age)
    for j, c in enumerate(state.candidates):
        cand = tok.encode(cand_text(c["text"])) + [tok.id(SEP)]
        ids += cand
        segs += [CANDIDATE] * len(cand)
        ages += [0] * len(cand)
        pos += list(range(len(ctx), len(ctx) + len(cand)))
        owner += [j] * len(cand)
        seps.append(len(ids) - 1)
        labels.append(CAT_INDEX[c["category"]])
    return {"ids": ids, "seg": segs, "pos": pos, "age": ages, "owner": owner, "seps": seps, "labels": labels, "cut": cut}


def collate(encoded):
    """Pad a batch; build the attention mask (True = may attend) from the owners."""
    L = max(len(e["ids"]) for e in encoded)
    B = len(encoded)
    ids = torch.zeros(B, L, dtype=torch.long)
    seg = torch.zeros(B, L, dtype=torch.long)
    age = torch.zeros(B, L, dtype=torch.long)
    pos = torch.zeros(B, L, dtype=torch.long)
    owner = torch.full((B, L), -2, dtype=torch.long)  # -2: padding
    sep_b, sep_t, labels = [], [], []
    for b, e in enumerate(encoded):
        n = len(e["ids"])
        ids[b, :n] = torch.tensor(e["ids"])
        seg[b, :n] = torch.tensor(e["seg"])
        age[b, :n] = torch.tensor(e["age"])
        pos[b, :n] = torch.tensor(e["pos"])
        owner[b, :n] = torch.tensor(e["owner"])
        sep_b += [b] * len(e["seps"])
        sep_t += e["seps"]
        labels += e["labels"]
    q, k = owner[:, :, None], owner[:, None, :]
    # a token sees the context (owner -1) and tokens of its own candidate; padding sees itself only
    mask = ((k == -1) & (q != -2)) | ((q == k) & (q >= 0)) | ((q == -2) & (k == -2))
    mask |= torch.eye(L, dtype=torch.bool)[None]
    return {"ids": ids, "seg": seg, "pos": pos, "age": age, "mask": mask[:, None], "sep_b": torch.tensor(sep_b),
            "sep_t": torch.tensor(sep_t), "labels": torch.tensor(labels)}


def attention(q, k, v, mask):
    """Softmax attention with a boolean mask (True = may attend). torch >= 2.0 has it fused; the
    same arithmetic by hand for older builds (Debian's python3-torch 1.13, which CI installs)."""
    if hasattr(F, "scaled_dot_product_attention"):
        return F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
    scores = (q @ k.transpose(-2, -1)) / math.sqrt(q.shape[-1])
    scores = scores.masked_fill(~mask, float("-inf"))
    return torch.softmax(scores, dim=-1) @ v


class Block(nn.Module):
    """Pre-LayerNorm transformer block (stable from scratch without a long warm-up)."""

    def __init__(self, d, heads, ff, dropout):
        super().__init__()
        self.heads = heads
        self.ln1, self.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.qkv, self.out = nn.Linear(d, 3 * d), nn.Linear(d, d)
        self.ff = nn.Sequential(nn.Linear(d, ff), nn.GELU(), nn.Linear(ff, d))
        self.drop = nn.Dropout(dropout)

    def forward(self, x, mask):
        B, L, d = x.shape
        q, k, v = self.qkv(self.ln1(x)).view(B, L, 3, self.heads, d // self.heads).permute(2, 0, 3, 1, 4)
        a = attention(q, k, v, mask)
        x = x + self.drop(self.out(a.transpose(1, 2).reshape(B, L, d)))
        return x + self.drop(self.ff(self.ln2(x)))


class StepClassifier(nn.Module):
    def __init__(self, vocab, d=64, layers=2, heads=4, ff=256, max_len=1024, dropout=0.0):
        super().__init__()
        self.tok = nn.Embedding(vocab, d)
        self.pos = nn.Embedding(max_len, d)
        self.seg = nn.Embedding(3, d)
        self.age = nn.Embedding(MAX_AGE + 1, d)
        self.blocks = nn.ModuleList(Block(d, heads, ff, dropout) for _ in range(layers))
        self.ln = nn.LayerNorm(d)
        self.head = nn.Linear(d, len(CATEGORIES))
        for p in self.parameters():
            if p.dim() > 1:
                nn.init.normal_(p, std=0.02)
        # scale the residual outputs down with depth (GPT-2's initialisation)
        for b in self.blocks:
            nn.init.normal_(b.out.weight, std=0.02 / math.sqrt(2 * layers))

    def forward(self, batch):
        x = self.tok(batch["ids"]) + self.pos(batch["pos"]) + self.seg(batch["seg"]) + self.age(batch["age"])
        for b in self.blocks:
            x = b(x, batch["mask"])
        h = self.ln(x)[batch["sep_b"], batch["sep_t"]]
        return self.head(h)
