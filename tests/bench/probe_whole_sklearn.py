#!/usr/bin/env python3
"""The whole of `gatetui --probe` done by scikit-learn, for tests/bench/bench_probe_whole.sh:
the signal h of layer 0 by PyTorch (float32, nn.LSTM/GRU/RNN on the model file's weights),
the regular expression's mask over the steps, then the same work as gatetui's
(doc/measures.md, "Probes and components"): K contiguous folds, each unit standardised over
the training steps (population deviation), LogisticRegression with C = 1 / (n lambda) and
tol 1e-8 on each fold, scored by its held-out AUC; each fold's best single unit (the
largest |AUC - 1/2| on the training steps, scored held out in its direction); the fit on
every step; then units_for_95, the fewest largest-|w| units whose cross-validated AUC
reaches 95% of the probe's. Prints, for each solver, one line
"SOLVER FITS_SECONDS FEATURES_SECONDS MEAN_AUC UNITS_FOR_95" (the median of REPS).

    probe_whole_sklearn.py MODEL TEXT REGEX STEPS FOLDS LAMBDA REPS
"""
import os
import re
import statistics
import sys
import time
import warnings

import numpy as np
import torch
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_torch import read_safetensors  # noqa: E402


def features(path, text, steps):
    """Layer 0's h over the first STEPS in-vocabulary characters, and those characters."""
    t, meta = read_safetensors(path)
    idx = {c: i for i, c in enumerate(meta["vocab"])}
    chars = [c for c in open(text, encoding="utf-8").read() if c in idx][:steps]
    ih = sorted(k for k in t if "weight_ih_l" in k)
    prefix = ih[0][:ih[0].index("weight_ih_l")]
    whh = t[prefix + "weight_hh_l0"]
    H = whh.shape[1]
    G = whh.shape[0] // H
    D = t[prefix + "weight_ih_l0"].shape[1]
    bias = (prefix + "bias_ih_l0") in t
    if G == 1:
        net = torch.nn.RNN(D, H, bias=bias,
                           nonlinearity="relu" if meta.get("nonlinearity") == "relu" else "tanh")
    else:
        net = (torch.nn.LSTM if G == 4 else torch.nn.GRU)(D, H, bias=bias)
    net.load_state_dict({k[len(prefix):]: v for k, v in t.items()
                         if k.startswith(prefix) and k.endswith("_l0")})
    emb = next((v for k, v in t.items() if "emb" in k or k.endswith("encoder.weight")), None)
    tt = torch.tensor([idx[c] for c in chars])
    x = emb[tt] if emb is not None else torch.nn.functional.one_hot(tt, D).float()
    with torch.no_grad():
        h = net(x.unsqueeze(1))[0][:, 0, :]
    return h.numpy().astype(np.float64), "".join(chars)


def mask(chars, regex):
    y = np.zeros(len(chars), dtype=np.uint8)
    for m in re.finditer(regex, chars):
        y[m.start():m.end()] = 1
    return y


def fit(solver, x, y, lam):
    mu, sd = x.mean(axis=0), x.std(axis=0)
    keep = sd > 0
    z = (x[:, keep] - mu[keep]) / sd[keep]
    lr = LogisticRegression(C=1.0 / (len(y) * lam), tol=1e-8, max_iter=10000, solver=solver)
    lr.fit(z, y)
    return lambda v: lr.decision_function((v[:, keep] - mu[keep]) / sd[keep]), lr.coef_[0], keep


def folds(n, K):
    return [(n * k // K, n * (k + 1) // K) for k in range(K)]


def auc(y, s):
    return roc_auc_score(y, s) if 0 < y.sum() < len(y) else float("nan")


def cross_validate(solver, x, y, K, lam):
    aucs = []
    for lo, hi in folds(len(y), K):
        tr = np.r_[0:lo, hi:len(y)]
        score, _, _ = fit(solver, x[tr], y[tr], lam)
        aucs.append(auc(y[lo:hi], score(x[lo:hi])))
    return np.nanmean(aucs)


def probe(solver, x, y, K, lam):
    full = cross_validate(solver, x, y, K, lam)
    for lo, hi in folds(len(y), K):  # each fold's best single unit
        tr = np.r_[0:lo, hi:len(y)]
        a = np.array([auc(y[tr], x[tr, j]) for j in range(x.shape[1])])
        j = int(np.nanargmax(np.abs(a - 0.5)))
        auc(y[lo:hi], x[lo:hi, j] * (1 if a[j] >= 0.5 else -1))
    _, w, keep = fit(solver, x, y, lam)
    units = np.flatnonzero(keep)
    order = units[np.lexsort((units, -np.abs(w)))]
    for k in range(1, len(order) + 1):
        if k == len(order) or cross_validate(solver, x[:, order[:k]], y, K, lam) >= 0.95 * full:
            return full, k


def main():
    model, text, regex = sys.argv[1], sys.argv[2], sys.argv[3]
    steps, K, lam, reps = int(sys.argv[4]), int(sys.argv[5]), float(sys.argv[6]), int(sys.argv[7])
    warnings.simplefilter("ignore")
    for solver in ("lbfgs", "newton-cholesky"):
        fits, feats = [], []
        for _ in range(reps):
            t0 = time.perf_counter()
            x, chars = features(model, text, steps)
            y = mask(chars, regex)
            t1 = time.perf_counter()
            full, k = probe(solver, x, y, K, lam)
            fits.append(time.perf_counter() - t1)
            feats.append(t1 - t0)
        print("%s %.4f %.4f %.6f %d" % (solver, statistics.median(fits),
                                        statistics.median(feats), full, k))


if __name__ == "__main__":
    main()
