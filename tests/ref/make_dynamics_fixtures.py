#!/usr/bin/env python3
"""Makes tests/fixtures/dynamics/: the float64 reference (dynamics_ref.py) of `gatetui
--lyapunov --json`, `--spectrum --json` and `--fixed-points --json` on the random models of tests/fixtures/report
(LSTM, GRU and plain RNN, tanh and relu, the GRU reset after and before W_hn, both layers of
two-layer models, every layer of stacked cells each of its own width), and
two models built by hand whose step Jacobian is diagonal and constant (no recurrent weight,
gates from their biases, the candidate 0 for the LSTM), so that the exponents are exactly
the logarithms of the carry gates; for the fixed points, two more models built by hand:
one with no recurrent weight and gates fixed by the held input, whose one fixed point is
known in closed form (c* = i g / (1 - f), h* = o tanh c*; a GRU: h* = n), and a one-unit GRU
h' = tanh(2h) (z = 0, r = 1) whose fixed points are 0, unstable (|lambda| = 2), and the two
roots of h = tanh(2h), stable.  Needs numpy only.

    /usr/bin/python3 tests/ref/make_dynamics_fixtures.py [NAME ...]

With names, only those cases' files are written; MANIFEST always lists every case.
"""
import json
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
    ("ly_rnn1", "lyapunov", R % "rnn1", T, "--modes 10 --steps 400 --warmup 50"),
    ("ly_rnn2_l1", "lyapunov", R % "rnn2", T, "--modes 6 --steps 300 --layer 1"),
    ("ly_rnnrelu", "lyapunov", R % "rnnrelu", T, "--modes 4 --steps 300 --warmup 20 --nonlinearity relu"),
    ("sp_rnn1", "spectrum", R % "rnn1", T, "--step 300"),
    ("sp_rnn2_l1", "spectrum", R % "rnn2", T, "--step 120 --layer 1"),
    # the fixed points: CHAR first (a space as \s), then the options
    ("fx_lstm1_e", "fixed", R % "lstm1", T, "e"),
    ("fx_lstm1_a", "fixed", R % "lstm1", T, "a --starts 40 --steps 2000 --hold 0"),
    ("fx_lstm1_a20", "fixed", R % "lstm1", T, "a --starts 40 --hold 20"),
    ("fx_gru1_s", "fixed", R % "gru1", T, "\\s --starts 32"),
    ("fx_gru1_nl", "fixed", R % "gru1", T, "\\n --starts 16 --steps 3000 --hold 0"),
    ("fx_lstm2_l1", "fixed", R % "lstm2", T, "e --layer 1 --hold 5"),
    ("fx_lstm2_l0", "fixed", R % "lstm2", T, "\\s --hold 0"),
    ("fx_lstm2_l0h", "fixed", R % "lstm2", T, "\\s"),
    ("fx_gru2_l1", "fixed", R % "gru2", T, "s --layer 1 --starts 48 --hold 0"),
    ("fx_rnn1_s", "fixed", R % "rnn1", T, "\\s --starts 32"),
    ("fx_rnn2_l1", "fixed", R % "rnn2", T, "e --layer 1 --starts 24 --hold 10"),
    # stacked cells, each layer of its own width
    ("ly_lstm3w_l0", "lyapunov", R % "lstm3w", T, "--modes 32 --steps 300 --warmup 20"),
    ("ly_lstm3w_l1", "lyapunov", R % "lstm3w", T, "--modes 12 --steps 300 --layer 1"),
    ("ly_lstm3w_l2", "lyapunov", R % "lstm3w", T, "--modes 24 --steps 400 --warmup 50 --layer 2"),
    ("ly_gru3w_l1", "lyapunov", R % "gru3w", T, "--modes 14 --steps 300 --layer 1"),
    ("ly_gru3w_l2", "lyapunov", R % "gru3w", T, "--modes 6 --steps 300 --layer 2"),
    ("sp_lstm3w_l1", "spectrum", R % "lstm3w", T, "--step 250 --layer 1"),
    ("sp_lstm3w_l2", "spectrum", R % "lstm3w", T, "--step 200 --layer 2"),
    ("sp_gru3w_l2", "spectrum", R % "gru3w", T, "--step 150 --layer 2"),
    ("fx_lstm3w_l2", "fixed", R % "lstm3w", T, "e --layer 2 --starts 24 --hold 10"),
    ("fx_gru3w_l1", "fixed", R % "gru3w", T, "\\s --layer 1 --starts 16 --hold 0"),
    # word models (tests/ref/make_words_fixtures.py): a token a step, a held word
    ("ly_words_lstm", "lyapunov", "words/w_lstm.safetensors", "words/text.txt",
     "--modes 12 --steps 600 --warmup 50"),
    ("ly_words_gru_l0", "lyapunov", "words/w_gru.safetensors", "words/text.txt",
     "--modes 10 --steps 500"),
    ("sp_words_lstm_l1", "spectrum", "words/w_lstm.safetensors", "words/text.txt",
     "--step 400 --layer 1"),
    ("fx_words_lstm", "fixed", "words/w_lstm.safetensors", "words/text.txt",
     "the --starts 24 --hold 10"),
    ("fx_words_gru", "fixed", "words/w_gru.safetensors", "words/text.txt", "<eos> --starts 16"),
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


def held(kind):
    """No recurrent weight, the gates from the held input 'a' and the biases (vocab "ab")."""
    G = 4 if kind == "lstm" else 3
    rng = np.random.default_rng(7 if kind == "lstm" else 8)
    wih = rng.uniform(-1.5, 1.5, (G * H, 2)).astype(np.float32)
    b = rng.uniform(-1, 1, G * H).astype(np.float32)
    b[H:2 * H] = BIAS  # the carry gates
    t = {"embedding.weight": np.eye(2, dtype=np.float32),
         kind + ".weight_ih_l0": wih, kind + ".weight_hh_l0": np.zeros((G * H, H), np.float32),
         kind + ".bias_ih_l0": b, kind + ".bias_hh_l0": np.zeros(G * H, dtype=np.float32)}
    a = wih[:, 0].astype(np.float64) + b  # the held 'a': x = e_0
    sg = lambda v: 1.0 / (1.0 + np.exp(-v))  # noqa: E731
    if kind == "lstm":
        i, f, g, o = sg(a[:H]), sg(a[H:2 * H]), np.tanh(a[2 * H:3 * H]), sg(a[3 * H:])
        c = i * g / (1 - f)
        state, carry = np.concatenate([c, o * np.tanh(c)]), f
    else:
        z, n = sg(a[H:2 * H]), np.tanh(a[2 * H:])
        state, carry = n, z
    mx = float(carry.max())
    want = {"layer": 0, "char": "a", "starts": 10, "hold": 0, "not_converged": 0,
            "fixed_points": [
        {"residual": 0.0, "max_abs_eigenvalue": mx, "stable": True,
         "halflife": math.log(0.5) / math.log(mx), "found_from": 10, "state": state.tolist()}]}
    return t, want


def unstable():
    """One GRU unit, h' = tanh(2h) under 'a' (z = sigmoid(-40), r = sigmoid(40)); 'b' and 'c'
    reset it (r = sigmoid(-40)) to tanh(+-0.3).  Its fixed points under 'a': 0 (|lambda| =
    2) and +-h*, h* = tanh(2h*)."""
    wih = np.zeros((3, 3), dtype=np.float32)
    wih[0, 1], wih[0, 2] = -80.0, -80.0
    wih[2, 1], wih[2, 2] = 0.3, -0.3
    b_ih = np.array([40.0, -40.0, 0.0], dtype=np.float32)
    w_hh = np.array([[0.0], [0.0], [2.0]], dtype=np.float32)
    t = {"embedding.weight": np.eye(3, dtype=np.float32), "gru.weight_ih_l0": wih,
         "gru.weight_hh_l0": w_hh, "gru.bias_ih_l0": b_ih,
         "gru.bias_hh_l0": np.zeros(3, dtype=np.float32)}
    r = 1.0 / (1.0 + math.exp(-40.0))
    hs = 1.0
    for _ in range(200):  # h = tanh(2 r h): Newton
        hs -= (math.tanh(2 * r * hs) - hs) / (2 * r * (1 - math.tanh(2 * r * hs) ** 2) - 1)
    z = 1.0 / (1.0 + math.exp(40.0))
    lam = (1 - z) * 2 * r * (1 - hs * hs) + z
    lines = ["%.17g %.17g false" % (0.0, (1 - z) * 2 * r + z),
             "%.17g %.17g true" % (hs, lam), "%.17g %.17g true" % (-hs, lam)]
    return t, "\n".join(sorted(lines)) + "\n"


def main():
    only = set(sys.argv[1:])
    os.makedirs(OUT, exist_ok=True)
    fix = os.path.join(TOP, "tests", "fixtures")
    if not only:
        models_by_hand()
    with open(os.path.join(OUT, "MANIFEST"), "w") as man:
        man.write("# name, what, model, text (under tests/fixtures), options "
                  "(made by tests/ref/make_dynamics_fixtures.py)\n")
        for name, what, model, text, opts in CASES:
            man.write("%s %s %s %s %s\n" % (name, what, model, text, opts))
            if only and name not in only:
                continue
            o = opts.split()
            if what == "fixed":
                o = ["--char", {"\\s": " ", "\\n": "\n"}.get(o[0], o[0])] + o[1:]
            cmd = [sys.executable, os.path.join(HERE, "dynamics_ref.py"), what,
                   os.path.join(fix, model), os.path.join(fix, text)] + o
            with open(os.path.join(OUT, name + ".json"), "w") as f:
                subprocess.run(cmd, check=True, stdout=f)


def models_by_hand():
    """The models built by hand and what they must give."""
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
    for kind in ("lstm", "gru"):
        t, want = held(kind)
        save_file(t, os.path.join(OUT, "held_%s.safetensors" % kind), metadata={"vocab": "ab"})
        with open(os.path.join(OUT, "held_%s.json" % kind), "w") as f:
            json.dump(want, f, indent=1)
            f.write("\n")
    t, want = unstable()
    save_file(t, os.path.join(OUT, "unstable_gru.safetensors"), metadata={"vocab": "abc"})
    with open(os.path.join(OUT, "unstable.expected"), "w") as f:
        f.write(want)
    with open(os.path.join(OUT, "bca.txt"), "w") as f:
        f.write(("b" + "a" * 7 + "c" + "a" * 5) * 20)


if __name__ == "__main__":
    main()
