#!/usr/bin/env python3
"""scikit-learn's LogisticRegression on the data tests/bench/bench_probe.c wrote to DIR
(x.f64, y.u8: the same standardised values and mask), with the same objective (C =
1 / (n lambda), the intercept not penalised), each solver timed (the median of REPS fits),
its weights compared with gatetui's (w.f64). Prints one line per solver:
"SOLVER SECONDS MAX|dw|".  Run by tests/bench/bench_probe.sh.

    probe_sklearn.py DIR N D REPS
"""
import statistics
import sys
import time
import warnings

import numpy as np
from sklearn.linear_model import LogisticRegression


def main():
    d, n, k, reps = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    x = np.fromfile(d + "/x.f64").reshape(n, k)
    y = np.fromfile(d + "/y.u8", dtype=np.uint8)
    w = np.fromfile(d + "/w.f64")
    warnings.simplefilter("ignore")
    for solver in ("lbfgs", "newton-cholesky"):
        secs = []
        for _ in range(reps):
            lr = LogisticRegression(C=1.0 / (n * 1e-3), tol=1e-8, max_iter=10000,
                                    solver=solver)
            t0 = time.perf_counter()
            lr.fit(x, y)
            secs.append(time.perf_counter() - t0)
        got = np.r_[lr.coef_[0], lr.intercept_]
        print("%s %.6f %.3g" % (solver, statistics.median(secs), np.max(np.abs(got - w))))


if __name__ == "__main__":
    main()
