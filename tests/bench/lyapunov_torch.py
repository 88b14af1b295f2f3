#!/usr/bin/env python3
"""The peer of `gatetui --lyapunov --json` for tests/bench/bench_lyapunov.sh: the same spectrum
in PyTorch float64, each step's exact Jacobian of the whole state (torch.func-free: the
step's derivative written out, as gatetui forms it), the M tangents as one batched product
per step and torch.linalg.qr on them, diag R made >= 0: J_1..J_N of the text's steps 1..N
(step 0 sets the state J_1 is taken from), the means over t = W+1..N and their standard
errors by 10 batch means.

  lyapunov_torch.py MODEL TEXT [--modes M] [--steps N] [--warmup W] [--layer N]

prints the JSON object and, on standard error, the seconds taken by the spectrum."""
import argparse
import json
import math
import os
import sys
import time

import numpy as np
import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "ref"))
from report_ref import Model  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("model")
    ap.add_argument("text")
    ap.add_argument("--modes", type=int, default=32)
    ap.add_argument("--steps", type=int, default=5000)
    ap.add_argument("--warmup", type=int, default=100)
    ap.add_argument("--layer", type=int, default=0)
    a = ap.parse_args()
    m = Model(a.model)
    if m.arch == "gru" and m.before:
        sys.exit("lyapunov_torch.py: a GRU with the reset before W_hn is not written out")
    toks = m.tokens(a.text)
    N = min(a.steps, len(toks) - 1)  # J_1..J_N; step 0 sets the state J_1 is taken from
    H, L = m.H, a.layer
    d = torch.float64
    W = [[torch.tensor(np.asarray(x), dtype=d) for x in ly] for ly in m.layers]
    x0 = torch.tensor(np.asarray(m.x0(toks[:N + 1])), dtype=d)
    t0 = time.perf_counter()
    h = [torch.zeros(H, dtype=d) for _ in range(L + 1)]
    c = [torch.zeros(H, dtype=d) for _ in range(L + 1)]
    n = 2 * H if m.arch == "lstm" else H
    Q = torch.eye(n, dtype=d)[:, :a.modes]
    logs = torch.zeros(N - a.warmup, a.modes, dtype=d)  # ln R_t,ii, t = W+1..N
    for t in range(N + 1):
        x = x0[t]
        for k in range(L + 1):
            wih, whh, bih, bhh = W[k]
            gi = wih @ x + bih
            if m.arch == "lstm":
                g = gi + whh @ h[k] + bhh
                i, f = torch.sigmoid(g[:H]), torch.sigmoid(g[H:2 * H])
                gg, o = torch.tanh(g[2 * H:3 * H]), torch.sigmoid(g[3 * H:])
                cp = c[k]
                c[k] = f * cp + i * gg
                th = torch.tanh(c[k])
                h[k] = o * th
                if k == L:
                    A = (gg * i * (1 - i))[:, None] * whh[:H] + (cp * f * (1 - f))[:, None] * \
                        whh[H:2 * H] + (i * (1 - gg * gg))[:, None] * whh[2 * H:3 * H]
                    B = (th * o * (1 - o))[:, None] * whh[3 * H:]
                    u = o * (1 - th * th)
                    J = torch.cat([torch.cat([torch.diag(f), A], 1),
                                   torch.cat([torch.diag(u * f), B + u[:, None] * A], 1)], 0)
            else:
                hp = h[k]
                gh = whh @ hp + bhh
                r = torch.sigmoid(gi[:H] + gh[:H])
                z = torch.sigmoid(gi[H:2 * H] + gh[H:2 * H])
                hn = gh[2 * H:]
                nn = torch.tanh(gi[2 * H:] + r * hn)
                h[k] = (1 - z) * nn + z * hp
                if k == L:
                    e = (1 - z) * (1 - nn * nn)
                    J = (e * hn * r * (1 - r))[:, None] * whh[:H] + \
                        ((hp - nn) * z * (1 - z))[:, None] * whh[H:2 * H] + \
                        (e * r)[:, None] * whh[2 * H:] + torch.diag(z)
            x = h[k]
        if t == 0:
            continue
        Q, R = torch.linalg.qr(J @ Q)
        dg = torch.diagonal(R)
        Q = Q * torch.where(dg < 0, -1.0, 1.0).to(d)[None, :]
        if t > a.warmup:
            logs[t - a.warmup - 1] = torch.log(torch.abs(dg))
    ex = logs.mean(0)
    b = (N - a.warmup) // 10  # the standard errors by 10 batch means, the last the remainder
    se = torch.stack([logs[k * b:(k + 1) * b].mean(0) for k in range(9)] +
                     [logs[9 * b:].mean(0)]).std(0) / math.sqrt(10)
    order = sorted(range(a.modes), key=lambda i: -float(ex[i]))
    ex = [float(ex[i]) for i in order]
    se = [float(se[i]) if b else None for i in order]
    sys.stderr.write("%.3f\n" % (time.perf_counter() - t0))
    json.dump({"layer": L, "steps": N, "warmup": a.warmup, "modes": a.modes, "exponents": ex,
               "stderr": se, "halflives": [math.log(0.5) / x if x < 0 else None for x in ex]},
              sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
