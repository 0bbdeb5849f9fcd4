"""Training and scoring of the step classifier (torch). Deterministic for a seed: one seeded
generator orders the batches, the initialisation is seeded, and deterministic algorithms are
required (CPU results can still differ between machines with other BLAS kernels)."""

import math
import random
import time

import torch
import torch.nn.functional as F

from metrics import average_precision
from model import StepClassifier, collate, encode_state


def batches(encoded, batch_states, rng):
    """Shuffled batches of states; inside windows of 32 batches, states of similar length go
    together so that little of a batch is padding."""
    order = list(range(len(encoded)))
    rng.shuffle(order)
    out = []
    window = batch_states * 32
    for w in range(0, len(order), window):
        chunk = sorted(order[w:w + window], key=lambda i: len(encoded[i]["ids"]))
        out += [chunk[i:i + batch_states] for i in range(0, len(chunk), batch_states)]
    rng.shuffle(out)
    return out


@torch.no_grad()
def predict(model, encoded, batch_states=16):
    """Category probabilities of every candidate, state by state, in input order."""
    model.eval()
    out = []
    for i in range(0, len(encoded), batch_states):
        out += torch.softmax(model(collate(encoded[i:i + batch_states])), -1).tolist()
    model.train()
    return out


def train(tok, train_states, cfg, view, seed, curve_states=(), log=print):
    """Train a StepClassifier for cfg['steps'] steps; return it, its learning curve (loss and,
    on curve_states, non-executable AP and accuracy at cfg['eval_every'] steps) and the time."""
    torch.manual_seed(seed)
    torch.use_deterministic_algorithms(True)
    rng = random.Random(seed)
    enc = [encode_state(tok, s, view, cfg["max_context"], cfg["compact"]) for s in train_states]
    cut = sum(1 for e in enc if e["cut"])
    if cut:
        log(f"  note: {cut} of {len(enc)} train states had their steps so far cut to {cfg['max_context']} tokens")
    curve_enc = [encode_state(tok, s, view, cfg["max_context"], cfg["compact"]) for s in curve_states]
    model = StepClassifier(len(tok), d=cfg["d"], layers=cfg["layers"], heads=cfg["heads"], ff=cfg["ff"],
                           max_len=cfg["max_len"], dropout=cfg["dropout"])
    opt = torch.optim.AdamW(model.parameters(), lr=cfg["lr"], weight_decay=0.01)
    steps, warm = cfg["steps"], max(1, cfg["steps"] // 20)
    # linear warm-up, then cosine decay to a tenth of the peak
    sched = torch.optim.lr_scheduler.LambdaLR(
        opt, lambda s: min(1.0, (s + 1) / warm) * (0.1 + 0.9 * 0.5 * (1 + math.cos(math.pi * min(1.0, s / steps)))))
    curve, queue, step, t0, run_loss = [], [], 0, time.time(), []
    while step < steps:
        if not queue:
            queue = batches(enc, cfg["batch_states"], rng)
        b = collate([enc[i] for i in queue.pop()])
        loss = F.cross_entropy(model(b), b["labels"])
        opt.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        sched.step()
        step += 1
        run_loss.append(loss.item())
        if step % cfg["eval_every"] == 0 or step == steps:
            point = {"step": step, "loss": sum(run_loss) / len(run_loss), "seconds": time.time() - t0}
            run_loss = []
            if curve_enc:
                probs = predict(model, curve_enc)
                labels = [l for e in curve_enc for l in e["labels"]]
                point["ne_ap"] = average_precision([p[0] for p in probs], [l == 0 for l in labels])
                point["acc"] = sum(max(range(5), key=p.__getitem__) == l for p, l in zip(probs, labels)) / len(labels)
            curve.append(point)
            log("  step %5d  loss %.4f  %s  %.0fs" % (step, point["loss"],
                "val non-exec AP %.3f acc %.3f" % (point.get("ne_ap") or 0, point.get("acc", 0)) if curve_enc else "",
                point["seconds"]))
    return model, curve, time.time() - t0


def score_states(model, tok, states, view, cfg):
    enc = [encode_state(tok, s, view, cfg["max_context"], cfg["compact"]) for s in states]
    return predict(model, enc)
