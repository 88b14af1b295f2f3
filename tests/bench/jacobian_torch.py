#!/usr/bin/env python3
"""The Jacobians of `gatetui --jacobian` (doc/measures.md, "The carry line against the whole
derivative") as a PyTorch user would compute them, for the benchmark: J(T-k, k) =
dc_T / dc_(T-k) for k = 1..K (a GRU: h), the layer's inputs fixed, h_(T-k) = o tanh(c_(T-k))
moving with c_(T-k). A zero tensor e_s is added to the state after each step s = T-K..T-1
(h recomputed from the moved c with the step's o), so that J(T-k, k) = dc_T / de_(T-k); two
ways, each timed from the state before T-K (the steps T-K..T and the derivatives):

  jacobian  torch.autograd.functional.jacobian(f, (e_(T-K), ..., e_(T-1)), vectorize=True):
            one forward run, the backward pass vectorised over the H rows of c_T
  vjp       the steps run for H copies at once and one backward pass with the identity as
            the output's gradient (a batched vector-Jacobian product)

Usage: jacobian_torch.py MODEL TEXT [--step T] [--lag K] [--layer N] [--reps R]
       [--threads N] [--dtype float64|float32]
Prints each way's median seconds and median processor seconds (all threads; "jacobian S
CPU", "vjp S CPU") and, last, the JSON object {"frob": [|J(T-k, k)|_F for k = 1..K]} of the
faster way."""
import argparse
import json
import os
import sys
import time

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from report_torch import Model  # noqa: E402


def cell(m, k, xi, h, c):
    """One step of layer k: (h, c, o) with o the output gate (None for a GRU)."""
    H = m.H
    w_ih, w_hhT, b_ih, b_hh = m.w[k]
    if m.lstm:
        a = torch.addmm(xi + b_hh, h, w_hhT)
        i, f, g, o = a.split(H, dim=-1)
        o = torch.sigmoid(o)
        c = torch.sigmoid(f) * c + torch.sigmoid(i) * torch.tanh(g)
        return o * torch.tanh(c), c, o
    h2, c2 = m.cell(k, xi, h, c)
    return h2, c2, None


def layer_inputs(m, toks, layer, h0, c0):
    """The layer's input part W_ih x + b_ih for each step of toks (the layers below run
    from their states h0, c0), and nothing else: the inputs are fixed."""
    xi = m.table0[toks]  # [T, GH]
    for k in range(layer):
        h, c = h0[k][None], c0[k][None]
        hs = []
        for t in range(len(toks)):
            h, c, _ = cell(m, k, xi[t][None], h, c)
            hs.append(h[0])
        w_ih, _, b_ih, _ = m.w[k + 1]
        xi = torch.stack(hs) @ w_ih.T + b_ih
    return xi


def run(m, layer, xi, h, c, eps):
    """Steps 0..K of the layer from (h, c), eps[p] added to the state after step p < K."""
    K = len(eps)
    for p in range(K + 1):
        h, c, o = cell(m, layer, xi[p].expand(h.shape[0], -1), h, c)
        if p < K:
            if m.lstm:
                c = c + eps[p]
                h = o * torch.tanh(c)
            else:
                h = h + eps[p]
    return c if m.lstm else h


def way_jacobian(m, layer, xi, h, c, K):
    f = lambda *e: run(m, layer, xi, h, c, e)[0]
    zero = tuple(torch.zeros(m.H, dtype=h.dtype) for _ in range(K))
    return list(torch.autograd.functional.jacobian(f, zero, vectorize=True))


def way_vjp(m, layer, xi, h, c, K):
    H = m.H
    eps = [torch.zeros(H, H, dtype=h.dtype, requires_grad=True) for _ in range(K)]
    out = run(m, layer, xi, h.expand(H, H), c.expand(H, H), eps)
    return list(torch.autograd.grad(out, eps, torch.eye(H, dtype=h.dtype)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("model")
    ap.add_argument("text")
    ap.add_argument("--step", type=int, default=1000)
    ap.add_argument("--lag", type=int, default=32)
    ap.add_argument("--layer", type=int, default=0)
    ap.add_argument("--reps", type=int, default=11)
    ap.add_argument("--threads", type=int, default=0)
    ap.add_argument("--dtype", choices=["float64", "float32"], default="float64")
    a = ap.parse_args()
    if a.threads > 0:
        torch.set_num_threads(a.threads)
    dt = getattr(torch, a.dtype)
    torch.set_default_dtype(dt)
    m = Model(a.model)
    m.w = [tuple(x.to(dt) for x in w) for w in m.w]
    m.table0 = m.table0.to(dt)
    idx = {ch: i for i, ch in enumerate(m.vocab)}
    toks = torch.tensor([idx[ch] for ch in open(a.text, encoding="utf-8").read() if ch in idx])
    T, K, L = a.step, a.lag, a.layer
    with torch.no_grad():  # the state before T - K, not timed
        h0, c0 = m.states_after(toks[:T - K, None], L) if T > K else (
            [torch.zeros(1, m.H)] * (L + 1), [torch.zeros(1, m.H)] * (L + 1))
        h0 = [x[0] for x in h0]
        c0 = [x[0] for x in c0]
    best = None
    for name, way in (("jacobian", way_jacobian), ("vjp", way_vjp)):
        times, cpu = [], []
        for r in range(a.reps + 1):  # the first run warms up
            t0, c0_ = time.perf_counter(), time.process_time()
            xi = layer_inputs(m, toks[T - K:T + 1], L, h0, c0)
            J = way(m, L, xi, h0[L][None], c0[L][None], K)
            if r:
                times.append(time.perf_counter() - t0)
                cpu.append(time.process_time() - c0_)
        med = sorted(times)[len(times) // 2]
        print("%s %.6f %.6f" % (name, med, sorted(cpu)[len(cpu) // 2]))
        if best is None or med < best[0]:
            best = (med, [float(J[K - k].norm()) for k in range(1, K + 1)])
    print(json.dumps({"frob": best[1]}))


if __name__ == "__main__":
    main()
