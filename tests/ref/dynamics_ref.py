#!/usr/bin/env python3
"""An independent float64 reference for `gatetui --lyapunov --json` and `--spectrum --json`
(doc/measures.md, "The whole state's dynamics"), in numpy:

  dynamics_ref.py lyapunov MODEL TEXT [--modes M] [--steps N] [--warmup W] [--layer N]
  dynamics_ref.py spectrum MODEL TEXT --step T [--layer N]

The text runs from the start in float64.  Each step's Jacobian J_t = ds_t / ds_(t-1) of the
layer's state s = (c, h) (LSTM) or h (GRU) is taken by central differences: each number of
the layer's state before the step moved by +-eps (the layers below as they were), the step
run again.  The spectrum: numpy's QR of J_t Q_(t-1), the signs making diag R >= 0, the means
of ln R_ii after the warm-up; the eigenvalues: numpy's eigvals, by modulus (conjugates: the
positive imaginary part first).  Needs only numpy.
"""
import argparse
import json
import math
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from report_ref import Model, num, step, zeros  # noqa: E402


def state_jacobian(m, tok, h, c, layer, eps):
    """J of the step reading tok from the state (h, c) (lists of [1, H]), by differences."""
    H = m.H
    lstm = m.arch == "lstm"
    n = 2 * H if lstm else H
    B = 2 * n
    hh = [np.tile(x, (B, 1)) for x in h]
    cc = [np.tile(x, (B, 1)) for x in c]
    move = np.concatenate([np.eye(n), -np.eye(n)]) * eps
    if lstm:
        cc[layer] = cc[layer] + move[:, :H]
        hh[layer] = hh[layer] + move[:, H:]
    else:
        hh[layer] = hh[layer] + move
    step(m, [tok] * B, hh, cc, layer)
    end = np.concatenate([cc[layer], hh[layer]], axis=1) if lstm else hh[layer]
    return ((end[:n] - end[n:]) / (2 * eps)).T


def lyapunov(m, toks, a):
    H = m.H
    n = 2 * H if m.arch == "lstm" else H
    N = min(a.steps, len(toks))
    h, c = zeros(m, 1)
    Q = np.eye(n)[:, :a.modes]
    s = np.zeros(a.modes)
    for t in range(N):
        J = state_jacobian(m, toks[t], h, c, a.layer, a.eps)
        step(m, [toks[t]], h, c, a.layer)
        Q, R = np.linalg.qr(J @ Q)
        d = np.sign(np.diag(R))
        d[d == 0] = 1
        Q = Q * d[None, :]
        if t >= a.warmup:
            s += np.log(np.abs(np.diag(R)))
    ex = sorted((s / (N - a.warmup)).tolist(), reverse=True)
    return {"layer": a.layer, "steps": N, "warmup": a.warmup, "modes": a.modes,
            "exponents": ex, "halflives": [num(math.log(0.5) / x) if x < 0 else None
                                           for x in ex]}


def spectrum(m, toks, a):
    H = m.H
    h, c = zeros(m, 1)
    for t in range(a.step):
        step(m, [toks[t]], h, c, a.layer)
    J = state_jacobian(m, toks[a.step], h, c, a.layer, a.eps)
    g = step(m, [toks[a.step]], h, c, a.layer)[a.layer][0]
    w = np.linalg.eigvals(J)
    w = sorted(w, key=lambda z: (abs(z), z.imag, z.real), reverse=True)
    ev = [{"re": float(z.real), "im": float(z.imag), "abs": float(abs(z)),
           "halflife": math.log(0.5) / math.log(abs(z)) if abs(z) < 1 else None} for z in w]
    carry = sorted(g[H:2 * H].tolist(), reverse=True)
    return {"step": a.step, "layer": a.layer, "eigenvalues": ev, "carry_sorted": carry}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("what", choices=["lyapunov", "spectrum"])
    ap.add_argument("model")
    ap.add_argument("text")
    ap.add_argument("--modes", type=int, default=32)
    ap.add_argument("--steps", type=int, default=5000)
    ap.add_argument("--warmup", type=int, default=100)
    ap.add_argument("--step", type=int)
    ap.add_argument("--layer", type=int, default=0)
    ap.add_argument("--eps", type=float, default=1e-6)
    a = ap.parse_args()
    m = Model(a.model)
    toks = m.tokens(a.text)
    out = lyapunov(m, toks, a) if a.what == "lyapunov" else spectrum(m, toks, a)
    json.dump(out, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
