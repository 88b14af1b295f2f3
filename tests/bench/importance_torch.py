#!/usr/bin/env python3
"""--importance (doc/measures.md, "Importance") as a PyTorch user would compute it, for the
benchmark: float32, batched. Every window's text and each of its H ablations run together
as one batch (windows x (H + 1) streams; windows of one length at a time), a hand loop over
time with one batched matrix product per weight matrix and step; an ablated stream has its
unit's c and h multiplied by 0 after its layer's cell (a 0/1 mask); the loss by log_softmax
and a gather. Prints JSON with the keys of `gatetui --importance --json`.

Usage: importance_torch.py MODEL TEXT [--layer N] [--windows N] [--window-len L] [--threads T]"""
import argparse
import json
import math
import os
import sys

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from bench_torch import read_safetensors  # noqa: E402
from report_torch import Model  # noqa: E402


def readout(t, V, H):
    w = next(v for k, v in t.items() if tuple(v.shape) == (V, H) and "weight_" not in k
             and "emb" not in k)
    name = next(k for k, v in t.items() if v is w)
    return w, t.get(name.rsplit("weight", 1)[0] + "bias", torch.zeros(V))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("model")
    ap.add_argument("text")
    ap.add_argument("--layer", type=int, default=0)
    ap.add_argument("--windows", type=int, default=32)
    ap.add_argument("--window-len", type=int, default=128)
    ap.add_argument("--threads", type=int, default=0)
    a = ap.parse_args()
    if a.threads:
        torch.set_num_threads(a.threads)
    torch.set_grad_enabled(False)
    m = Model(a.model)
    t, _ = read_safetensors(a.model)
    H, L, V = m.H, m.L, m.V
    out_wT, out_b = readout(t, V, H)
    out_wT = out_wT.T.contiguous()
    idx = {ch: i for i, ch in enumerate(m.vocab)}
    data = open(a.text, "rb").read().decode("utf-8", errors="ignore")
    toks = [idx[ch] for ch in data if ch in idx]
    T, Lw = len(toks), a.window_len
    nwin = min(a.windows, (T + Lw - 1) // Lw)
    wins = [toks[w * Lw:min((w + 1) * Lw, T)] for w in range(nwin)]
    S = H + 1  # streams per window: the text, then unit j ablated
    keep = torch.ones(S, H)
    keep[torch.arange(1, S), torch.arange(H)] = 0.0
    total = torch.zeros(S, dtype=torch.float64)
    count = 0
    for n in sorted(set(len(w) for w in wins)):
        group = torch.tensor([w for w in wins if len(w) == n])  # [W, n]
        W = group.shape[0]
        B = W * S
        mask = keep.repeat(W, 1)  # [B, H]
        tok = group.repeat_interleave(S, dim=0).T.contiguous()  # [n, B]
        hs = [torch.zeros(B, H) for _ in range(L)]
        cs = [torch.zeros(B, H) for _ in range(L)]
        for s in range(n - 1):
            x = None
            for k in range(L):
                w_ih, w_hhT, b_ih, b_hh = m.w[k]
                xi = m.table0[tok[s]] if k == 0 else torch.addmm(b_ih, x, w_ih.T)
                a_ = torch.addmm(xi + b_hh, hs[k], w_hhT)
                if m.lstm:
                    i, f, g, o = a_.split(H, dim=1)
                    c = torch.sigmoid(f) * cs[k] + torch.sigmoid(i) * torch.tanh(g)
                    h = torch.sigmoid(o) * torch.tanh(c)
                else:
                    r, z, nn_ = a_[:, :H], a_[:, H:2 * H], None
                    gh = torch.addmm(b_hh, hs[k], w_hhT)
                    r = torch.sigmoid(xi[:, :H] + gh[:, :H])
                    z = torch.sigmoid(xi[:, H:2 * H] + gh[:, H:2 * H])
                    nn_ = torch.tanh(xi[:, 2 * H:] + r * gh[:, 2 * H:])
                    h, c = (1 - z) * nn_ + z * hs[k], cs[k]
                if k == a.layer:
                    h, c = h * mask, c * mask
                hs[k], cs[k] = h, c
                x = h
            logp = torch.log_softmax(torch.addmm(out_b, hs[L - 1], out_wT), dim=1)
            nll = -logp.gather(1, tok[s + 1].unsqueeze(1)).squeeze(1)  # [B]
            total += nll.view(W, S).sum(0).double()
            count += W
    loss = total / count
    base = float(loss[0])
    units = sorted(({"unit": j, "loss": float(loss[j + 1]), "delta": float(loss[j + 1]) - base}
                    for j in range(H)), key=lambda u: (-u["delta"], u["unit"]))
    json.dump({"layer": a.layer, "windows": nwin, "window_len": Lw,
               "loss": {"nats": base, "bits": base / math.log(2), "count": count},
               "units": units}, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
