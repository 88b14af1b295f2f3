#!/usr/bin/env python3
"""Makes tests/fixtures/probe/: float64 references for `gatetui --probe` and
`--components` with --json (doc/measures.md, "Probes and components") on the report
fixtures' models and text (tests/fixtures/report/), which tests/cli/probe.sh compares gatetui
with (tests/lib/probecmp.c).  The signals are those of units_ref.py (numpy, float64); the
probe's weights are scikit-learn's LogisticRegression on the same standardised data with
C = 1 / (n lambda) (its objective, C times the summed log-loss plus half the squared
weights, is the mean log-loss plus (lambda/2)|w|^2 times n C; the intercept is not
penalised); the AUC is scikit-learn's roc_auc_score; the components numpy's SVD.  Needs
numpy and scikit-learn (Debian's python3-sklearn, /usr/bin/python3).

    /usr/bin/python3 tests/ref/make_probe_fixtures.py
"""
import json
import os
import sys

import numpy as np
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.normpath(os.path.join(HERE, "..", ".."))
MODELS = os.path.join(TOP, "tests", "fixtures", "report")
OUT = os.path.join(TOP, "tests", "fixtures", "probe")
TEXT = "text.txt"
sys.path.insert(0, HERE)
import units_ref  # noqa: E402

# name, mode, model, argument, options (as gatetui takes them)
CASES = [
    ("lstm1_vowels", "probe", "lstm1", "[aeio]", []),
    ("lstm1_space_c", "probe", "lstm1", " ", ["--signal", "c", "--folds", "4"]),
    ("gru1_word", "probe", "gru1", "[a-z]+,", ["--l2", "0.01"]),
    ("lstm2_l1_t", "probe", "lstm2", "t[a-z]*", ["--layer", "1", "--steps", "2000"]),
    ("lstm1_pca", "components", "lstm1", "4", []),
    ("gru2_l1_pca_z", "components", "gru2", "3", ["--layer", "1", "--signal", "z"]),
    ("rnn1_space", "probe", "rnn1", " ", []),
    ("rnn2_l1_vowels_a", "probe", "rnn2", "[aeio]", ["--layer", "1", "--signal", "a"]),
    ("rnn2_pca_a", "components", "rnn2", "3", ["--signal", "a"]),
]


def opt(opts, name, default, kind):
    return kind(opts[opts.index(name) + 1]) if name in opts else default


def standardise(x, rows, cols):
    sub = x[np.ix_(rows, cols)]
    keep = [i for i in range(len(cols)) if sub[:, i].min() != sub[:, i].max()]
    mu = sub[:, keep].mean(axis=0)
    sd = sub[:, keep].std(axis=0)
    return [cols[i] for i in keep], mu, sd


def fit(x, y, rows, cols, lam):
    kept, mu, sd = standardise(x, rows, cols)
    z = (x[np.ix_(rows, kept)] - mu) / sd
    lr = LogisticRegression(C=1.0 / (len(rows) * lam), tol=1e-12, max_iter=10000,
                            solver="newton-cholesky")
    lr.fit(z, y[rows])
    return kept, mu, sd, lr.coef_[0], float(lr.intercept_[0])


def auc(s, y):
    return None if y.min() == y.max() else float(roc_auc_score(y, s))


def spans(n, K):
    return [(n * k // K, n * (k + 1) // K) for k in range(K)]


def cross_validate(x, y, K, lam, cols):
    out = []
    for lo, hi in spans(len(y), K):
        rows = np.r_[0:lo, hi:len(y)]
        kept, mu, sd, w, b = fit(x, y, rows, cols, lam)
        s = ((x[lo:hi][:, kept] - mu) / sd) @ w + b
        out.append({"auc": auc(s, y[lo:hi]),
                    "accuracy": float(np.mean((s > 0) == (y[lo:hi] == 1)))})
    return out


def mean(v):
    v = [a for a in v if a is not None]
    return sum(v) / len(v) if v else None


def mean_interval(v):
    """The mean's 95% interval: mean +- 1.96 sd / sqrt(K) over the K values that exist, sd
    their sample deviation (over K - 1); None with fewer than two."""
    v = [a for a in v if a is not None]
    if len(v) < 2:
        return None
    m = sum(v) / len(v)
    hw = 1.96 * np.sqrt(sum((a - m) ** 2 for a in v) / (len(v) - 1)) / np.sqrt(len(v))
    return [float(m - hw), float(m + hw)]


def best_unit(x, y, lo, hi):
    rows = np.r_[0:lo, hi:len(y)]
    best, unit, sign = -1, 0, 1
    for j in range(x.shape[1]):
        a = auc(x[rows, j], y[rows])
        if a is not None and abs(a - 0.5) > best:
            best, unit, sign = abs(a - 0.5), j, (-1 if a < 0.5 else 1)
    return unit, auc(sign * x[lo:hi, unit], y[lo:hi])


def probe(x, y, regex, signal, K, lam):
    folds = cross_validate(x, y, K, lam, list(range(x.shape[1])))
    for f, (lo, hi) in zip(folds, spans(len(y), K)):
        f["best_unit"], f["best_unit_auc"] = best_unit(x, y, lo, hi)
    kept, _, _, w, b = fit(x, y, np.arange(len(y)), list(range(x.shape[1])), lam)
    order = sorted(range(len(kept)), key=lambda i: (-abs(w[i]), kept[i]))
    weights = [{"unit": kept[i], "w": float(w[i])} for i in order]
    full = mean([f["auc"] for f in folds])
    need = None
    for k in range(1, len(weights) + 1):
        if k == len(weights):
            need = k
            break
        cv = cross_validate(x, y, K, lam, [u["unit"] for u in weights[:k]])
        if mean([f["auc"] for f in cv]) >= 0.95 * full:
            need = k
            break
    return {"regex": regex, "signal": signal, "auc": full,
            "auc_ci": mean_interval([f["auc"] for f in folds]),
            "accuracy": mean([f["accuracy"] for f in folds]), "folds": folds,
            "weights": weights, "bias": b, "units_for_95": need}


def components(x, k, signal):
    xc = x - x.mean(axis=0)
    _, s, vt = np.linalg.svd(xc, full_matrices=False)
    out = []
    for i in range(k):
        v = vt[i]
        if v[np.argmax(np.abs(v))] < 0:
            v = -v
        top = sorted(range(len(v)), key=lambda j: (-abs(v[j]), j))[:10]
        out.append({"explained": float(s[i] ** 2 / np.sum(s ** 2)),
                    "loadings": [{"unit": j, "value": float(v[j])} for j in top]})
    return {"signal": signal, "steps": x.shape[0], "components": out}


def case(mode, model, arg, opts):
    m = units_ref.Model(os.path.join(MODELS, model + ".safetensors"))
    toks = m.tokens(os.path.join(MODELS, TEXT))[:opt(opts, "--steps", 100000, int)]
    layer = opt(opts, "--layer", 0, int)
    signal = opt(opts, "--signal", "h", str)
    names = units_ref.signal_names(m)
    x = units_ref.values(m, toks, layer)[:, names.index(signal), :]
    if mode == "components":
        return components(x, int(arg), signal)
    y, _ = units_ref.step_mask(m, toks, arg)
    return probe(x, y, arg, signal, opt(opts, "--folds", 5, int),
                 opt(opts, "--l2", 1e-3, float))


def main():
    os.makedirs(OUT, exist_ok=True)
    lines = ["# name, mode, model, argument, options: tab-separated "
             "(made by tests/ref/make_probe_fixtures.py)"]
    for name, mode, model, arg, opts in CASES:
        with open(os.path.join(OUT, name + ".json"), "w", encoding="utf-8") as f:
            json.dump(case(mode, model, arg, opts), f, indent=1)
            f.write("\n")
        lines.append("\t".join([name, mode, model, arg, " ".join(opts)]))
    with open(os.path.join(OUT, "MANIFEST"), "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
