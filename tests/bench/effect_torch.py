#!/usr/bin/env python3
"""--effect and --carriers (doc/measures.md, "The effect", "The carriers") as a PyTorch user
would compute them, for the benchmark: float32, batched, a hand loop over time with one
batched matrix product per weight matrix and step.

  effect: every window with its text as it is, the tested set ablated and each control set
  ablated as one batch (windows x (R + 2) streams; windows of one length at a time); an
  ablated stream has its units' c and h multiplied by 0 after its layer's cell (a 0/1 mask);
  the loss by log_softmax and a gather; the classes (the matches by Python's re.finditer),
  the deltas and the specificities from the sums (the control sets drawn as gatetui draws
  them, tests/ref/effect_ref.py). Prints {"effects": [{"regex", "inside", "outside",
  "specificity", "controls": [specificity, ...]}]}.
  carriers: the text to the edit as one stream, then the clean run, the edited run, each
  unit alone and removed as one batch of 2H + 2 streams over K + 1 steps; KL by
  log_softmax. Prints {"effect", "alone": [...], "removed": [...]} (unit order).

Usage: effect_torch.py effect MODEL TEXT --effect REGEX --ablate L:UNITS [--controls R]
                        [--seed S] [--windows N] [--window-len L] [--threads T]
       effect_torch.py carriers MODEL TEXT --edit S:C [--layer N] [--horizon K] [--threads T]"""
import json
import math
import os
import re
import sys

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "ref"))
from bench_torch import read_safetensors  # noqa: E402
from effect_ref import draw, effect_parser, parse_units, windows  # noqa: E402
from importance_torch import readout as importance_readout  # noqa: E402
from report_torch import Model  # noqa: E402


def readout(t, V, H):
    w, b = importance_readout(t, V, H)
    return w.T.contiguous(), b


def step(m, xi0, hs, cs, mask, layer):
    """One step of every layer for the batch; mask [B, H] (0 where ablated) on `layer`."""
    H = m.H
    x = None
    for k in range(m.L):
        w_ih, w_hhT, b_ih, b_hh = m.w[k]
        xi = xi0 if k == 0 else torch.addmm(b_ih, x, w_ih.T)
        if m.lstm:
            a = torch.addmm(xi + b_hh, hs[k], w_hhT)
            i, f, g, o = a.split(H, dim=1)
            c = torch.sigmoid(f) * cs[k] + torch.sigmoid(i) * torch.tanh(g)
            h = torch.sigmoid(o) * torch.tanh(c)
        elif m.rnn:
            a = torch.addmm(xi + b_hh, hs[k], w_hhT)
            h, c = (torch.relu(a) if m.relu else torch.tanh(a)), cs[k]
        else:
            gh = torch.addmm(b_hh, hs[k], w_hhT)
            r = torch.sigmoid(xi[:, :H] + gh[:, :H])
            z = torch.sigmoid(xi[:, H:2 * H] + gh[:, H:2 * H])
            n = torch.tanh(xi[:, 2 * H:] + r * gh[:, 2 * H:])
            h, c = (1 - z) * n + z * hs[k], cs[k]
        if mask is not None and k == layer:
            h, c = h * mask, c * mask
        hs[k], cs[k] = h, c
        x = h


def effect(a, m, t):
    H, L, V = m.H, m.L, m.V
    out_wT, out_b = readout(t, V, H)
    idx = {ch: i for i, ch in enumerate(m.vocab)}
    data = open(a.text, "rb").read().decode("utf-8", errors="ignore")
    toks = [idx[ch] for ch in data if ch in idx]
    layer, _, us = a.ablate.partition(":")
    layer, units = int(layer), parse_units(us)
    sets = draw([j for j in range(H) if j not in units], len(units), a.controls, a.seed)
    S = 2 + len(sets)  # streams per window: the text, the tested set, the controls
    keep = torch.ones(S, H)
    keep[1, units] = 0
    for i, s in enumerate(sets):
        keep[2 + i, s] = 0
    text = "".join(m.vocab[x] for x in toks)
    masks = []
    for r in a.effect:  # as a Python user finds matches (leftmost-first: the same as POSIX's
        mk = torch.zeros(len(toks), dtype=torch.bool)  # leftmost-longest for these)
        for mt in re.finditer(r, text, re.DOTALL):
            mk[mt.start():mt.end()] = True
        masks.append(mk)
    wins = windows(toks, a.windows, a.window_len)
    # per stream and regex: the sums of the loss inside and outside, and the counts
    loss = torch.zeros(len(masks), 2, S, dtype=torch.float64)
    count = torch.zeros(len(masks), 2, dtype=torch.float64)
    for n in sorted(set(len(w) for _, w in wins)):
        group = [(s, w) for s, w in wins if len(w) == n]
        W = len(group)
        tok = torch.tensor([w for _, w in group]).repeat_interleave(S, dim=0).T.contiguous()
        mask = keep.repeat(W, 1)
        hs = [torch.zeros(W * S, H) for _ in range(L)]
        cs = [torch.zeros(W * S, H) for _ in range(L)]
        nll = torch.empty(n - 1, W * S)
        for p in range(n - 1):
            step(m, m.table0[tok[p]], hs, cs, mask, layer)
            logp = torch.log_softmax(torch.addmm(out_b, hs[L - 1], out_wT), dim=1)
            nll[p] = -logp.gather(1, tok[p + 1].unsqueeze(1)).squeeze(1)
        nll = nll.view(n - 1, W, S).double()
        pos = torch.tensor([s for s, _ in group])[None, :] + torch.arange(1, n)[:, None]
        for r, mk in enumerate(masks):
            inside = mk[pos]  # [n-1, W]
            for cls, sel in ((0, inside), (1, ~inside)):
                loss[r, cls] += (nll * sel[:, :, None]).sum((0, 1))
                count[r, cls] += sel.sum()
    res = []
    for r, regex in enumerate(a.effect):
        d = (loss[r, :, 1:] - loss[r, :, :1]) / count[r][:, None] / math.log(2)  # [2, S-1]
        spec = d[0] - d[1]
        res.append({"regex": regex, "inside": float(d[0, 0]), "outside": float(d[1, 0]),
                    "specificity": float(spec[0]), "controls": [float(x) for x in spec[1:]]})
    return {"effects": res}


def carriers(a, m, t):
    H, L, V = m.H, m.L, m.V
    out_wT, out_b = readout(t, V, H)
    idx = {ch: i for i, ch in enumerate(m.vocab)}
    data = open(a.text, "rb").read().decode("utf-8", errors="ignore")
    toks = torch.tensor([idx[ch] for ch in data if ch in idx])
    s, _, ch = a.edit.partition(":")
    s, to = int(s), idx[ch]
    K = min(a.horizon, len(toks) - 1 - s)
    hs = [torch.zeros(1, H) for _ in range(L)]
    cs = [torch.zeros(1, H) for _ in range(L)]
    for p in range(s):
        step(m, m.table0[toks[p:p + 1]], hs, cs, None, 0)
    he, ce = list(hs), list(cs)
    step(m, m.table0[toks[s:s + 1]], hs, cs, None, 0)
    step(m, m.table0[torch.tensor([to])], he, ce, None, 0)
    B = 2 + 2 * H
    j = torch.arange(H)
    hb = [torch.cat([hs[k], he[k], hs[k].expand(H, H), he[k].expand(H, H)]).clone() for k in range(L)]
    cb = [torch.cat([cs[k], ce[k], cs[k].expand(H, H), ce[k].expand(H, H)]).clone() for k in range(L)]
    hb[a.layer][2 + j, j] = he[a.layer][0]
    hb[a.layer][2 + H + j, j] = hs[a.layer][0]
    cb[a.layer][2 + j, j] = ce[a.layer][0]
    cb[a.layer][2 + H + j, j] = cs[a.layer][0]
    kl = torch.zeros(B, dtype=torch.float64)
    for p in range(s, s + K + 1):
        if p > s:
            step(m, m.table0[toks[p]].expand(B, -1), hb, cb, None, 0)
        lp = torch.log_softmax(torch.addmm(out_b, hb[L - 1], out_wT), dim=1)
        kl += (lp[0].exp() * (lp[0] - lp)).sum(1).double()
    E = float(kl[1])
    return {"effect": E, "alone": [float(x) for x in kl[2:2 + H]],
            "removed": [float(1 - x / E) for x in kl[2 + H:]]}


def main():
    if sys.argv[1:2] not in (["effect"], ["carriers"]):
        raise SystemExit(__doc__)
    ap = effect_parser()
    ap.add_argument("--threads", type=int, default=0)
    a = ap.parse_args(sys.argv[2:])
    if a.threads:
        torch.set_num_threads(a.threads)
    torch.set_grad_enabled(False)
    m = Model(a.model)
    t, _ = read_safetensors(a.model)
    a.ablate = a.ablate[-1] if a.ablate else None
    json.dump(effect(a, m, t) if sys.argv[1] == "effect" else carriers(a, m, t), sys.stdout,
              indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
