#!/usr/bin/env python3
"""An independent float64 reference for `gatetui --lyapunov --json` and `--spectrum --json`
(doc/measures.md, "The whole state's dynamics"), in numpy:

  dynamics_ref.py lyapunov MODEL TEXT [--modes M] [--steps N] [--warmup W] [--layer N] [--check K]
  dynamics_ref.py spectrum MODEL TEXT --step T [--layer N]
  dynamics_ref.py fixed MODEL TEXT --char C [--starts N] [--hold K] [--steps N] [--layer N]
  (and --nonlinearity tanh|relu for a plain RNN whose file does not say)

The text runs from the start in float64.  The step's Jacobian J_t = ds_t / ds_(t-1) of the
layer's state s = (c, h) (LSTM) or h (GRU, plain RNN) is taken by central differences for
the eigenvalues: each number of the layer's state before the step moved by +-eps (the layers
below as they were), the step run again; the eigenvalues: numpy's eigvals, by modulus
(conjugates: the positive imaginary part first).  The spectrum (doc/measures.md): step 0
sets the state J_1 is taken from; J_t, t = 1..N, at the text's step t, written out as
matrices (layer_step, below) and checked against the central differences every K steps
(--check, default 1); numpy's QR of J_t Q_(t-1), the signs making diag R >= 0, the means of
ln R_t,ii over t = W+1..N, and their condition for tests/lib/reportcmp.

The fixed points under a held character: the starts are the states of the text's run
after steps floor((i + 1) T / N) - 1, each then reading the character K times;
from each, layer by layer (the layers below held at their fixed points), Newton's method on
F(s) - s = 0 with the step's Jacobian written out as matrices (not the program's row by row
forming; tests/unit/t_dynamics checks that one against differences), numpy's solve, the step
halved until the residual falls by 1e-4 of its share (at most 30 halvings), at most 50
steps, converged at |F(s) - s| <= 1e-10; points within 1e-6 (the stack's state) are one;
the stability from numpy's eigvals of each layer's Jacobian at the point.  Needs only numpy.
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
    """J of the step reading tok from the state (h, c) (lists of [1, H_k]), by differences."""
    H = m.Hs[layer]
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


def exact_jacobian(m, tok, h, c, L):
    """J of layer L's step reading tok from the state (h, c) (lists of [1, H]), written out as
    matrices (layer_step below); the layers below stepped on copies for layer L's input."""
    x = m.x0([tok])[0]
    if L > 0:
        hh, cc = [v.copy() for v in h], [v.copy() for v in c]
        step(m, [tok], hh, cc, L - 1)
        x = hh[L - 1][0]
    s = np.concatenate([c[L][0], h[L][0]]) if m.arch == "lstm" else h[L][0]
    return layer_step(m, L, x, s)[1]


def lyapunov_logs(m, toks, a):
    """The documented formula's ln R_t,ii, t = W+1..N ([N - W, M]), N, and the largest
    cond(Z_t) = sigma_1 / sigma_M of Z_t = J_t Q_(t-1) over t = W+1..N: step 0 from the zero
    state sets the state J_1 is taken from; for t = 1..N, J_t = ds_t / ds_(t-1) at the text's
    step t (written out; checked against central differences every a.check steps, the
    largest difference on standard error), Q_t R_t = qr(J_t Q_(t-1)), the signs making
    diag R >= 0."""
    n = state_size(m, a.layer)
    N = min(a.steps, len(toks) - 1)
    h, c = zeros(m, 1)
    step(m, [toks[0]], h, c, a.layer)
    Q = np.eye(n)[:, :a.modes]
    logs, worst, cond = [], 0.0, 1.0
    for t in range(1, N + 1):
        J = exact_jacobian(m, toks[t], h, c, a.layer)
        if a.check and (t - 1) % a.check == 0:
            fd = state_jacobian(m, toks[t], h, c, a.layer, a.eps)
            worst = max(worst, float(np.abs(fd - J).max() / max(1.0, np.abs(J).max())))
        step(m, [toks[t]], h, c, a.layer)
        Z = J @ Q
        Q, R = np.linalg.qr(Z)
        d = np.sign(np.diag(R))
        d[d == 0] = 1
        Q = Q * d[None, :]
        if t > a.warmup:
            logs.append(np.log(np.abs(np.diag(R))))
            sv = np.linalg.svd(Z, compute_uv=False)
            cond = max(cond, float(sv[0] / sv[-1]) if sv[-1] > 0 else math.inf)
    sys.stderr.write("J_t written out against central differences (every %d steps): largest "
                     "|difference| / max(1, max |J|) %.3g\n" % (a.check, worst))
    if worst > 1e-6:
        raise SystemExit("the written-out J_t is not the step's derivative (%.3g)" % worst)
    return np.array(logs), N, cond


def batch_stderr(logs):
    """The standard errors by batch means (doc/measures.md): the summed steps' ln R_t,ii
    ([S, M]) cut into 10 batches in turn, the last taking the remainder; each column's 10
    batch means' sample deviation / sqrt(10); None when S < 10."""
    S, B = len(logs), 10
    b = S // B
    if b == 0:
        return [None] * logs.shape[1]
    means = np.array([logs[k * b:(k + 1) * b].mean(axis=0) for k in range(B - 1)] +
                     [logs[(B - 1) * b:].mean(axis=0)])
    return (means.std(axis=0, ddof=1) / math.sqrt(B)).tolist()


def lyapunov(m, toks, a):
    """The exponents, their standard errors and half-lives, and their condition for
    tests/lib/reportcmp (not compared):
    k = n max_t cond(Z_t), n the state's size. Each ln R_t,ii of a QR whose backward error
    is a share c n u of |Z_t| (u the rounding unit) moves by at most c n u cond(Z_t) to
    first order, and so does their mean: an exponent within RTOL max(1, |lambda|, k), RTOL
    = c u; a half-life ln 1/2 / lambda moves by its own share of lambda's difference, held
    to RTOL k max_i(t_i / |lambda_i|); a standard error, the sample deviation of the batch
    means over sqrt(10), by at most a third of their largest move: k too."""
    logs, N, cond = lyapunov_logs(m, toks, a)
    ex = (logs.sum(axis=0) / (N - a.warmup)).tolist()
    se = batch_stderr(logs)
    order = sorted(range(len(ex)), key=lambda i: -ex[i])
    ex, se = [ex[i] for i in order], [se[i] for i in order]
    hl = [num(math.log(0.5) / x) if x < 0 else None for x in ex]
    k = state_size(m, a.layer) * cond
    kh = k * max([t / abs(x) for t, x in zip(hl, ex) if t is not None] or [1.0])
    return {"layer": a.layer, "steps": N, "warmup": a.warmup, "modes": a.modes,
            "exponents": ex, "stderr": [num(v) for v in se], "halflives": hl,
            "condition": {"exponents": num(k), "stderr": num(k), "halflives": num(kh)}}


def state_size(m, k):
    """Layer k's state: (c, h) or h of its own width."""
    return 2 * m.Hs[k] if m.arch == "lstm" else m.Hs[k]


def spectrum(m, toks, a):
    H = m.Hs[a.layer]
    h, c = zeros(m, 1)
    for t in range(a.step):
        step(m, [toks[t]], h, c, a.layer)
    J = state_jacobian(m, toks[a.step], h, c, a.layer, a.eps)
    g = step(m, [toks[a.step]], h, c, a.layer)[a.layer][0]
    w = np.linalg.eigvals(J)
    w = sorted(w, key=lambda z: (abs(z), z.imag, z.real), reverse=True)
    ev = [{"re": float(z.real), "im": float(z.imag), "abs": float(abs(z)),
           "halflife": math.log(0.5) / math.log(abs(z)) if abs(z) < 1 else None} for z in w]
    carry = None if m.arch == "rnn" else sorted(g[H:2 * H].tolist(), reverse=True)
    return {"step": a.step, "layer": a.layer, "eigenvalues": ev, "carry_sorted": carry}


def sigmoid(x):
    return 1.0 / (1.0 + np.exp(-x))


def layer_step(m, k, x, s):
    """F of layer k at state s ((c, h) or h) with input x [D]: the new state and its J."""
    H = m.Hs[k]
    w_ih, w_hh, b_ih, b_hh = m.layers[k]
    gi = w_ih @ x + b_ih
    if m.arch == "lstm":
        c, h = s[:H], s[H:]
        a = gi + w_hh @ h + b_hh
        i, f = sigmoid(a[:H]), sigmoid(a[H:2 * H])
        g, o = np.tanh(a[2 * H:3 * H]), sigmoid(a[3 * H:])
        c2 = f * c + i * g
        th = np.tanh(c2)
        A = ((g * i * (1 - i))[:, None] * w_hh[:H] + (c * f * (1 - f))[:, None] * w_hh[H:2 * H]
             + (i * (1 - g * g))[:, None] * w_hh[2 * H:3 * H])
        B = (th * o * (1 - o))[:, None] * w_hh[3 * H:]
        u = o * (1 - th * th)
        J = np.block([[np.diag(f), A], [np.diag(u * f), B + u[:, None] * A]])
        return np.concatenate([c2, o * th]), J
    if m.arch == "rnn":  # h' = tanh(a) or relu(a): J = diag(slope) W_hh
        a = gi + w_hh @ s + b_hh
        if m.relu:
            return np.maximum(a, 0.0), (a > 0).astype(np.float64)[:, None] * w_hh
        h2 = np.tanh(a)
        return h2, (1 - h2 * h2)[:, None] * w_hh
    h = s
    gh = w_hh[:2 * H] @ h + b_hh[:2 * H]
    r, z = sigmoid(gi[:H] + gh[:H]), sigmoid(gi[H:2 * H] + gh[H:])
    dr = (r * (1 - r))[:, None] * w_hh[:H]
    if m.before:
        n = np.tanh(gi[2 * H:] + w_hh[2 * H:] @ (r * h) + b_hh[2 * H:])
        dn = w_hh[2 * H:] @ (np.diag(r) + h[:, None] * dr)
    else:
        hn = w_hh[2 * H:] @ h + b_hh[2 * H:]
        n = np.tanh(gi[2 * H:] + r * hn)
        dn = r[:, None] * w_hh[2 * H:] + hn[:, None] * dr
    J = (np.diag(z) + (h - n)[:, None] * ((z * (1 - z))[:, None] * w_hh[H:2 * H])
         + ((1 - z) * (1 - n * n))[:, None] * dn)
    return (1 - z) * n + z * h, J


def layer_input(m, k, tok, st):
    """Layer k's input: the token's, or layer k-1's h after a step from its fixed point."""
    if k == 0:
        return m.x0([tok])[0]
    s, _ = layer_step(m, k - 1, layer_input(m, k - 1, tok, st), st[k - 1])
    return s[m.Hs[k - 1]:] if m.arch == "lstm" else s


def newton(m, k, tok, st):
    """Newton on layer k from st[k] (in place): the residual, or None."""
    x = layer_input(m, k, tok, st)
    n = len(st[k])
    for it in range(51):
        f, J = layer_step(m, k, x, st[k])
        r = f - st[k]
        res = float(np.sqrt(r @ r))
        if not math.isfinite(res):
            return None
        if res <= 1e-10:
            return res
        if it == 50:
            return None
        try:
            d = np.linalg.solve(J - np.eye(n), -r)
        except np.linalg.LinAlgError:
            return None
        s0, alpha = st[k].copy(), 1.0
        for _ in range(31):
            t = s0 + alpha * d
            ft, _ = layer_step(m, k, x, t)
            rt = float(np.sqrt((ft - t) @ (ft - t)))
            if math.isfinite(rt) and rt <= (1 - 1e-4 * alpha) * res:
                st[k] = t
                break
            alpha *= 0.5
        else:
            return None


def starts(m, toks, N, T, L):
    """The states of the run after steps floor((i + 1) T / N) - 1, layers 0..L."""
    h, c = zeros(m, 1)
    out, t = [], 0
    for i in range(N):
        while t < (i + 1) * T // N:
            step(m, [toks[t]], h, c, L)
            t += 1
        out.append([np.concatenate([c[k][0], h[k][0]]) if m.arch == "lstm" else h[k][0].copy()
                    for k in range(L + 1)])
    return out


def fixed(m, toks, a):
    if m.words:  # a word model's held token, by its word
        tok = m.vocab.index(a.char)
    else:
        tok = [v for v in range(m.V) if m.code_point(v) == ord(a.char)][0]
    T = min(a.steps, len(toks))
    L = a.layer
    found, bad = [], 0
    for st in starts(m, toks, a.starts, T, L):
        h = [x[None, H:].copy() if m.arch == "lstm" else x[None, :].copy()
             for x, H in zip(st, m.Hs)]
        c = [x[None, :H].copy() if m.arch == "lstm" else np.zeros((1, H))
             for x, H in zip(st, m.Hs)]
        for _ in range(a.hold):
            step(m, [tok], h, c, L)
        st = [np.concatenate([c[k][0], h[k][0]]) if m.arch == "lstm" else h[k][0].copy()
              for k in range(L + 1)]
        res = [newton(m, k, tok, st) for k in range(L + 1)]
        if any(r is None for r in res):
            bad += 1
            continue
        flat = np.concatenate(st)
        for p in found:
            if np.sqrt(((p["flat"] - flat) ** 2).sum()) <= 1e-6:
                p["found_from"] += 1
                break
        else:
            found.append({"flat": flat, "st": [s.copy() for s in st], "found_from": 1,
                          "residual": math.sqrt(sum(r * r for r in res))})
    found.sort(key=lambda p: -p["found_from"])  # stable: the first start's order kept
    pts = []
    for p in found:
        mx = max(float(np.abs(np.linalg.eigvals(
            layer_step(m, k, layer_input(m, k, tok, p["st"]), p["st"][k])[1])).max())
            for k in range(L + 1))
        pts.append({"residual": p["residual"], "max_abs_eigenvalue": mx, "stable": mx < 1,
                    "halflife": math.log(0.5) / math.log(mx) if mx < 1 else None,
                    "found_from": p["found_from"], "state": p["st"][L].tolist()})
    return {"layer": L, "token" if m.words else "char": a.char, "starts": a.starts,
            "hold": a.hold, "not_converged": bad, "fixed_points": pts}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("what", choices=["lyapunov", "spectrum", "fixed"])
    ap.add_argument("model")
    ap.add_argument("text")
    ap.add_argument("--modes", type=int, default=32)
    ap.add_argument("--steps", type=int, default=5000)
    ap.add_argument("--warmup", type=int, default=100)
    ap.add_argument("--step", type=int)
    ap.add_argument("--layer", type=int, default=0)
    ap.add_argument("--eps", type=float, default=1e-6)
    ap.add_argument("--check", type=int, default=1)
    ap.add_argument("--char")
    ap.add_argument("--starts", type=int, default=64)
    ap.add_argument("--hold", type=int, default=100)
    ap.add_argument("--nonlinearity", choices=["tanh", "relu"])
    a = ap.parse_args()
    m = Model(a.model, nonlinearity=a.nonlinearity)
    toks = m.tokens(a.text)
    if a.what == "fixed":
        a.char = {"\\n": "\n", "\\t": "\t"}.get(a.char, a.char)
        out = fixed(m, toks, a)
    else:
        out = lyapunov(m, toks, a) if a.what == "lyapunov" else spectrum(m, toks, a)
    json.dump(out, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
