#!/usr/bin/env python3
"""Makes tests/fixtures/dynamics/: the float64 reference (dynamics_ref.py) of `gatetui
--lyapunov --json` and `--spectrum --json` on the random models of tests/fixtures/report
(LSTM and GRU, the GRU reset after and before W_hn, both layers of two-layer models), and
two models built by hand whose step Jacobian is diagonal and constant (no recurrent weight,
gates from their biases, the candidate 0 for the LSTM), so that the exponents are exactly
the logarithms of the carry gates.  Needs numpy only.

    /usr/bin/python3 tests/ref/make_dynamics_fixtures.py
"""
import math
import os
import subprocess
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.normpath(os.path.join(HERE, "..", ".."))
OUT = os.path.join(TOP, "tests", "fixtures", "dynamics")
sys.path.insert(0, os.path.join(TOP, "tools"))
from gatetui_export import save_file  # noqa: E402

R = "report/%s.safetensors"
T = "report/text.txt"
# name, what, model (relative to tests/fixtures), text, options
CASES = [
    ("ly_lstm1", "lyapunov", R % "lstm1", T, "--modes 8 --steps 400 --warmup 50"),
    ("ly_lstm2_l0", "lyapunov", R % "lstm2", T, "--modes 32 --steps 300 --warmup 20"),
    ("ly_lstm2_l1", "lyapunov", R % "lstm2", T, "--modes 5 --steps 500 --layer 1"),
    ("ly_gru1", "lyapunov", R % "gru1", T, "--modes 20 --steps 600 --warmup 100"),
    ("ly_gru2_l0", "lyapunov", R % "gru2", T, "--modes 3 --steps 200 --warmup 0"),
    ("ly_gru2_l1", "lyapunov", R % "gru2", T, "--modes 12 --steps 400 --layer 1"),
    ("sp_lstm1", "spectrum", R % "lstm1", T, "--step 300"),
    ("sp_lstm2_l1", "spectrum", R % "lstm2", T, "--step 250 --layer 1"),
    ("sp_gru1", "spectrum", R % "gru1", T, "--step 400"),
    ("sp_gru2_l0", "spectrum", R % "gru2", T, "--step 40"),
    ("sp_gru2_l1", "spectrum", R % "gru2", T, "--step 200 --layer 1"),
]

H = 4
BIAS = np.array([2.0, 0.5, -0.3, -1.5], dtype=np.float32)  # the carry gates' biases


def diagonal(kind):
    """H = 4, a one-hot input of "ab", no recurrent weight; the carry gate sigmoid(BIAS)."""
    G = 4 if kind == "lstm" else 3
    wih = np.zeros((G * H, 2), dtype=np.float32)
    wih[:H, 0] = 0.7  # the input and reset gates read the input: no effect on J
    b = np.zeros(G * H, dtype=np.float32)
    b[H:2 * H] = BIAS
    b[3 * H:] = 1.0 if kind == "lstm" else 0.0  # LSTM: o = sigmoid(1)
    if kind == "gru":
        wih[2 * H:, 1] = 0.9  # n reads the input
    t = {"embedding.weight": np.eye(2, dtype=np.float32),
         "rnn.weight_ih_l0": wih, "rnn.weight_hh_l0": np.zeros((G * H, H), dtype=np.float32),
         "rnn.bias_ih_l0": b, "rnn.bias_hh_l0": np.zeros(G * H, dtype=np.float32)}
    return t


def main():
    os.makedirs(OUT, exist_ok=True)
    fix = os.path.join(TOP, "tests", "fixtures")
    with open(os.path.join(OUT, "abab.txt"), "w") as f:
        f.write("ab" * 100)
    for kind in ("lstm", "gru"):
        t = diagonal(kind)
        t = {k.replace("rnn.", kind + "."): v for k, v in t.items()}
        save_file(t, os.path.join(OUT, "diag_%s.safetensors" % kind), metadata={"vocab": "ab"})
    # the exponents: ln sigmoid(b) of each carry gate, largest first (float64 of the bias)
    ex = sorted(math.log(1.0 / (1.0 + math.exp(-float(x)))) for x in BIAS)[::-1]
    with open(os.path.join(OUT, "diag.exponents"), "w") as f:
        f.write(" ".join("%.17g" % x for x in ex) + "\n")
    with open(os.path.join(OUT, "MANIFEST"), "w") as man:
        man.write("# name, what, model, text (under tests/fixtures), options "
                  "(made by tests/ref/make_dynamics_fixtures.py)\n")
        for name, what, model, text, opts in CASES:
            man.write("%s %s %s %s %s\n" % (name, what, model, text, opts))
            cmd = [sys.executable, os.path.join(HERE, "dynamics_ref.py"), what,
                   os.path.join(fix, model), os.path.join(fix, text)] + opts.split()
            with open(os.path.join(OUT, name + ".json"), "w") as f:
                subprocess.run(cmd, check=True, stdout=f)


if __name__ == "__main__":
    main()
