#!/usr/bin/env python3
"""The peer of `gatetui --fixed-points CHAR --json` for tests/bench/bench_fixed.sh: the same
fixed points of layer 0 in PyTorch float64, every start at once.  The starts: the states of
the text's run in float64 after steps floor((i + 1) S / N) - 1 (as gatetui takes them), each
then reading the held character K times (all starts as one batch); then
Newton's method on F(s) - s with the step's Jacobian written out for the whole batch of
starts (as gatetui forms it), torch.linalg.solve on the batch of J - I, the step halved per
start until its residual falls by 1e-4 of its share (at most 30 halvings), at most 50
steps, converged at |F(s) - s| <= 1e-10; points within 1e-6 kept once, the largest
|eigenvalue| by torch.linalg.eigvals.

  fixed_torch.py MODEL TEXT --char C [--starts N] [--hold K] [--steps S]

prints the JSON object and, on standard error, the seconds taken (after loading) and the
number of Newton steps' linear systems solved."""
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

D = torch.float64


class Layer:
    def __init__(self, m, x):
        """Layer 0 of m with the input x (its D numbers) held."""
        self.H, self.lstm, self.before = m.H, m.arch == "lstm", m.before
        w_ih, w_hh, b_ih, b_hh = (torch.tensor(np.asarray(a), dtype=D) for a in m.layers[0])
        self.gi = w_ih @ x + b_ih + (b_hh if self.lstm else 0)
        self.whh, self.bhh = w_hh, b_hh

    def step(self, s, jac):
        """F of a batch of states s [B, n], and its Jacobians [B, n, n] when jac."""
        H, W = self.H, self.whh
        if self.lstm:
            c, h = s[:, :H], s[:, H:]
            a = self.gi + h @ W.T
            i, f = torch.sigmoid(a[:, :H]), torch.sigmoid(a[:, H:2 * H])
            g, o = torch.tanh(a[:, 2 * H:3 * H]), torch.sigmoid(a[:, 3 * H:])
            c2 = f * c + i * g
            th = torch.tanh(c2)
            out = torch.cat([c2, o * th], 1)
            if not jac:
                return out, None
            A = ((g * i * (1 - i))[:, :, None] * W[:H] + (c * f * (1 - f))[:, :, None] * W[H:2 * H]
                 + (i * (1 - g * g))[:, :, None] * W[2 * H:3 * H])
            B = (th * o * (1 - o))[:, :, None] * W[3 * H:]
            u = o * (1 - th * th)
            J = torch.cat([torch.cat([torch.diag_embed(f), A], 2),
                           torch.cat([torch.diag_embed(u * f), B + u[:, :, None] * A], 2)], 1)
            return out, J
        h = s
        gh = h @ W[:2 * H].T + self.bhh[:2 * H]
        r = torch.sigmoid(self.gi[:H] + gh[:, :H])
        z = torch.sigmoid(self.gi[H:2 * H] + gh[:, H:])
        if self.before:
            n = torch.tanh(self.gi[2 * H:] + (r * h) @ W[2 * H:].T + self.bhh[2 * H:])
        else:
            hn = h @ W[2 * H:].T + self.bhh[2 * H:]
            n = torch.tanh(self.gi[2 * H:] + r * hn)
        out = (1 - z) * n + z * h
        if not jac:
            return out, None
        dr = (r * (1 - r))[:, :, None] * W[:H]
        if self.before:
            dn = W[2 * H:] @ (torch.diag_embed(r) + h[:, :, None] * dr)
        else:
            dn = r[:, :, None] * W[2 * H:] + hn[:, :, None] * dr
        J = (torch.diag_embed(z) + (h - n)[:, :, None] * ((z * (1 - z))[:, :, None] * W[H:2 * H])
             + ((1 - z) * (1 - n * n))[:, :, None] * dn)
        return out, J


def starts(m, toks, N, S):
    """The run's states after steps floor((i + 1) S / N) - 1, as [N, n]."""
    ly = Layer(m, torch.zeros(m.layers[0][0].shape[1], dtype=D))
    x0 = torch.tensor(np.asarray(m.x0(toks[:S])), dtype=D)
    w_ih = torch.tensor(np.asarray(m.layers[0][0]), dtype=D)
    b = torch.tensor(np.asarray(m.layers[0][2]), dtype=D)
    gis = x0 @ w_ih.T + b + (torch.tensor(np.asarray(m.layers[0][3]), dtype=D) if ly.lstm else 0)
    n = 2 * m.H if ly.lstm else m.H
    s = torch.zeros(1, n, dtype=D)
    out, t = [], 0
    for i in range(N):
        while t < (i + 1) * S // N:
            ly.gi = gis[t]
            s, _ = ly.step(s, False)
            t += 1
        out.append(s[0])
    return torch.stack(out)


SOLVES = [0]  # the linear systems solved, over every start and Newton step


def newton(ly, s):
    """Newton from every row of s at once: the residuals (NaN where not converged)."""
    B, n = s.shape
    res = torch.full((B,), math.nan, dtype=D)
    live = torch.ones(B, dtype=torch.bool)
    eye = torch.eye(n, dtype=D)
    for it in range(51):
        idx = live.nonzero()[:, 0]
        if len(idx) == 0:
            break
        f, J = ly.step(s[idx], True)
        r = f - s[idx]
        rn = r.norm(dim=1)
        done = rn <= 1e-10
        res[idx[done]] = rn[done]
        live[idx[done]] = False
        live[idx[~torch.isfinite(rn)]] = False
        go = ~done & torch.isfinite(rn)
        if it == 50:
            live[idx[go]] = False
            break
        idx, J, r, rn = idx[go], J[go], r[go], rn[go]
        if len(idx) == 0:
            break
        delta, info = torch.linalg.solve_ex(J - eye, -r)
        SOLVES[0] += len(idx)
        ok = info == 0
        live[idx[~ok]] = False
        idx, delta, rn = idx[ok], delta[ok], rn[ok]
        s0 = s[idx]
        alpha = torch.ones(len(idx), dtype=D)
        todo = torch.ones(len(idx), dtype=torch.bool)
        for _ in range(31):
            q = todo.nonzero()[:, 0]
            if len(q) == 0:
                break
            t = s0[q] + alpha[q, None] * delta[q]
            ft, _ = ly.step(t, False)
            rt = (ft - t).norm(dim=1)
            acc = torch.isfinite(rt) & (rt <= (1 - 1e-4 * alpha[q]) * rn[q])
            s[idx[q[acc]]] = t[acc]
            todo[q[acc]] = False
            alpha[q[~acc]] *= 0.5
        live[idx[todo]] = False
    return res


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("model")
    ap.add_argument("text")
    ap.add_argument("--char", required=True)
    ap.add_argument("--starts", type=int, default=64)
    ap.add_argument("--steps", type=int, default=5000)
    ap.add_argument("--hold", type=int, default=100)
    a = ap.parse_args()
    torch.set_num_threads(os.cpu_count() or 1)  # both cores, as gatetui uses them
    ch = {"\\n": "\n", "\\t": "\t"}.get(a.char, a.char)
    m = Model(a.model)
    toks = m.tokens(a.text)
    tok = [v for v in range(m.V) if m.code_point(v) == ord(ch)][0]
    S = min(a.steps, len(toks))
    t0 = time.perf_counter()
    s = starts(m, toks, a.starts, S)
    ly = Layer(m, torch.tensor(np.asarray(m.x0([tok])[0]), dtype=D))
    for _ in range(a.hold):  # every start reads the held character, as one batch
        s, _ = ly.step(s, False)
    res = newton(ly, s)
    pts = []
    for i in range(a.starts):
        if math.isnan(res[i]):
            continue
        for p in pts:
            if (s[p["first"]] - s[i]).norm() <= 1e-6:
                p["found_from"] += 1
                break
        else:
            pts.append({"first": i, "found_from": 1})
    pts.sort(key=lambda p: -p["found_from"])
    if pts:
        _, J = ly.step(s[[p["first"] for p in pts]], True)
        mx = torch.linalg.eigvals(J).abs().max(dim=1).values.tolist()
    out = []
    for k, p in enumerate(pts):
        out.append({"residual": float(res[p["first"]]), "max_abs_eigenvalue": mx[k],
                    "stable": mx[k] < 1,
                    "halflife": math.log(0.5) / math.log(mx[k]) if mx[k] < 1 else None,
                    "found_from": p["found_from"], "state": s[p["first"]].tolist()})
    sys.stderr.write("%.3f %d\n" % (time.perf_counter() - t0, SOLVES[0]))
    json.dump({"layer": 0, "char": ch, "starts": a.starts, "hold": a.hold,
               "not_converged": int(torch.isnan(res).sum()), "fixed_points": out}, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
