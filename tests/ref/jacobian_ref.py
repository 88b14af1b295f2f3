#!/usr/bin/env python3
"""An independent float64 reference for `gatetui --jacobian` (doc/measures.md, "The carry line
against the whole derivative"), by central finite differences in numpy:

  jacobian_ref.py MODEL TEXT --step T [--lag K] [--unit J] [--layer N] [--matrix FILE]
                  [--vocab-from FILE] [--gru-reset before|after] [--eps E]

prints the JSON object of --jacobian --json and, with --matrix, writes J(T-K, K) as CSV.

The text runs from the start in float64.  For each lag k, J(T-k, k) = dc_T / dc_{T-k} is
taken column by column: c_{T-k} of the layer moved by +-eps e_q, h_{T-k} = o_{T-k} tanh(c_{T-k})
moved with it (o_{T-k} as it was), every state of the layers below as it was (their values do
not depend on this layer), then steps T-k+1..T run again, every gate moving: column q is
(c_T(+) - c_T(-)) / (2 eps).  For a GRU the same with h.  The carry line is the product of the
run's f (z).  Needs only numpy.
"""
import argparse
import json
import math
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from report_ref import Model, step, zeros  # noqa: E402


def run_states(m, toks, layer, T, K):
    """The float64 states of layers 0..layer after each step T-K..T: lists (one per step) of
    (h, c, gates) with h, c lists of [H] per layer and gates of the layer."""
    h, c = zeros(m, 1)
    for p in range(T - K):
        step(m, [toks[p]], h, c, layer)
    out = []
    for p in range(T - K, T + 1):
        g = step(m, [toks[p]], h, c, layer)
        out.append(([x[0].copy() for x in h], [x[0].copy() for x in c], g[layer][0].copy()))
    return out


def jacobian_at(m, toks, layer, T, k, states, K, eps):
    """J(T-k, k) by central differences: [H, H], row i = unit i of the state at T (H the
    layer's width)."""
    H = m.Hs[layer]
    lstm = m.arch == "lstm"
    h_s, c_s, g_s = states[K - k]
    B = 2 * H
    h = [np.tile(h_s[q], (B, 1)) for q in range(m.L)]
    c = [np.tile(c_s[q], (B, 1)) for q in range(m.L)]
    sign = np.concatenate([np.ones(H), -np.ones(H)])[:, None]
    move = np.concatenate([np.eye(H), np.eye(H)]) * sign * eps
    if lstm:
        o = g_s[3 * H:]
        c[layer] = c[layer] + move
        h[layer] = o[None, :] * np.tanh(c[layer])
    else:
        h[layer] = h[layer] + move
    for p in range(T - k + 1, T + 1):
        step(m, [toks[p]] * B, h, c, layer)
    end = c[layer] if lstm else h[layer]
    return ((end[:H] - end[H:]) / (2 * eps)).T


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("model")
    ap.add_argument("text")
    ap.add_argument("--step", type=int, required=True)
    ap.add_argument("--lag", type=int, default=32)
    ap.add_argument("--unit", type=int, default=0)
    ap.add_argument("--layer", type=int, default=0)
    ap.add_argument("--matrix")
    ap.add_argument("--vocab-from")
    ap.add_argument("--gru-reset", choices=["before", "after"])
    ap.add_argument("--nonlinearity", choices=["tanh", "relu"])
    ap.add_argument("--eps", type=float, default=1e-5)
    a = ap.parse_args()
    m = Model(a.model, a.vocab_from, a.gru_reset, a.nonlinearity)
    rnn = m.arch == "rnn"  # no carry gate: no carry line (null)
    toks = m.tokens(a.text)
    T, K, j = a.step, a.lag, a.unit
    H = m.Hs[a.layer]
    states = run_states(m, toks, a.layer, T, K)
    carry = np.ones(H)
    lags = []
    for k in range(1, K + 1):
        if not rnn:
            carry = carry * states[K - k + 1][2][H:2 * H]  # f (z) of step T-k+1
        J = jacobian_at(m, toks, a.layer, T, k, states, K, a.eps)
        frob = float(np.linalg.norm(J))
        lags.append({"k": k, "frob": frob,
                     "carry_frob": None if rnn else float(np.linalg.norm(carry)),
                     "diag_share": float(np.linalg.norm(np.diag(J)) / frob) if frob > 0 else None,
                     "unit": {"diag": float(J[j, j]), "row": float(np.linalg.norm(J[j])),
                              "carry": None if rnn else float(carry[j])}})
        if k == K and a.matrix:
            np.savetxt(a.matrix, J, delimiter=",", fmt="%.17g")
    json.dump({"step": T, "layer": a.layer, "unit": j, "lags": lags}, sys.stdout, indent=1)
    sys.stdout.write("\n")
    if not all(math.isfinite(x["frob"]) for x in lags):
        sys.exit(1)


if __name__ == "__main__":
    main()
