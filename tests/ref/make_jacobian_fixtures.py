#!/usr/bin/env python3
"""Makes tests/fixtures/jacobian/: the float64 reference (jacobian_ref.py, central
differences) of `gatetui --jacobian --json` and `--matrix` on the random models of
tests/fixtures/report (LSTM, GRU and plain RNN, tanh and relu, the GRU reset after and
before W_hn, layer 1 of two-layer models, every layer of stacked cells each of its own
width), and the scalar LSTM of the worked example in doc/measures.md (the
candidate reading h with weight 2, and with 0) with the text "abb", which tests/cli/jacobian.sh
also checks against the example's own numbers.  Needs numpy only.

    python3 tests/ref/make_jacobian_fixtures.py [NAME ...]

With names, only those cases' files are written; MANIFEST always lists every case.
"""
import math
import os
import subprocess
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.normpath(os.path.join(HERE, "..", ".."))
OUT = os.path.join(TOP, "tests", "fixtures", "jacobian")
sys.path.insert(0, os.path.join(TOP, "tools"))
from gatetui_export import save_file  # noqa: E402

# name, model (relative to tests/fixtures), text (likewise), options
CASES = [
    ("lstm1", "report/lstm1.safetensors", "report/text.txt", "--step 300 --lag 20 --unit 3"),
    ("lstm2_l1", "report/lstm2.safetensors", "report/text.txt",
     "--step 250 --lag 16 --unit 5 --layer 1"),
    ("gru1", "report/gru1.safetensors", "report/text.txt", "--step 400 --lag 24 --unit 7"),
    ("gru2_l1", "report/gru2.safetensors", "report/text.txt",
     "--step 200 --lag 12 --unit 2 --layer 1"),
    ("gru2_l0", "report/gru2.safetensors", "report/text.txt", "--step 40 --lag 40 --unit 11"),
    ("rnn1", "report/rnn1.safetensors", "report/text.txt", "--step 300 --lag 12 --unit 4"),
    ("rnn2_l1", "report/rnn2.safetensors", "report/text.txt",
     "--step 250 --lag 10 --unit 3 --layer 1"),
    ("rnnrelu", "report/rnnrelu.safetensors", "report/text.txt",
     "--step 120 --lag 8 --unit 5 --nonlinearity relu"),
    ("lstm3w_l0", "report/lstm3w.safetensors", "report/text.txt", "--step 300 --lag 16 --unit 9"),
    ("lstm3w_l1", "report/lstm3w.safetensors", "report/text.txt",
     "--step 250 --lag 20 --unit 20 --layer 1"),
    ("lstm3w_l2", "report/lstm3w.safetensors", "report/text.txt",
     "--step 200 --lag 12 --unit 11 --layer 2"),
    ("gru3w_l1", "report/gru3w.safetensors", "report/text.txt",
     "--step 300 --lag 16 --unit 13 --layer 1"),
    ("gru3w_l2", "report/gru3w.safetensors", "report/text.txt",
     "--step 150 --lag 10 --unit 5 --layer 2"),
    ("example", "jacobian/example.safetensors", "jacobian/abb.txt", "--step 2 --lag 2"),
    ("example0", "jacobian/example0.safetensors", "jacobian/abb.txt", "--step 2 --lag 2"),
    # word models (tests/ref/make_words_fixtures.py): steps count tokens
    ("words_lstm_l1", "words/w_lstm.safetensors", "words/text.txt",
     "--step 500 --lag 24 --unit 4 --layer 1"),
    ("words_gru", "words/w_gru.safetensors", "words/text.txt", "--step 300 --lag 16 --unit 2"),
]


def example(path, u):
    """H = 1, input x = 1 for 'a' and 0 for 'b' (a 1-wide embedding), b_f = b_o = ln 3, the
    candidate's input weight ln 3 and its recurrent weight u; every other weight 0."""
    ln3 = math.log(3.0)
    t = {"embedding.weight": np.array([[1.0], [0.0]], dtype=np.float32),
         "lstm.weight_ih_l0": np.array([[0.0], [0.0], [ln3], [0.0]], dtype=np.float32),
         "lstm.weight_hh_l0": np.array([[0.0], [0.0], [u], [0.0]], dtype=np.float32),
         "lstm.bias_ih_l0": np.array([0.0, ln3, 0.0, ln3], dtype=np.float32),
         "lstm.bias_hh_l0": np.zeros(4, dtype=np.float32)}
    save_file(t, path, metadata={"vocab": "ab"})


def main():
    only = set(sys.argv[1:])
    os.makedirs(OUT, exist_ok=True)
    if not only:
        example(os.path.join(OUT, "example.safetensors"), 2.0)
        example(os.path.join(OUT, "example0.safetensors"), 0.0)
        with open(os.path.join(OUT, "abb.txt"), "w") as f:
            f.write("abb")
    fix = os.path.join(TOP, "tests", "fixtures")
    with open(os.path.join(OUT, "MANIFEST"), "w") as man:
        man.write("# name, model, text (under tests/fixtures), options "
                  "(made by tests/ref/make_jacobian_fixtures.py)\n")
        for name, model, text, opts in CASES:
            man.write("%s %s %s %s\n" % (name, model, text, opts))
            if only and name not in only:
                continue
            cmd = [sys.executable, os.path.join(HERE, "jacobian_ref.py"),
                   os.path.join(fix, model), os.path.join(fix, text)] + opts.split() + \
                  ["--matrix", os.path.join(OUT, name + ".csv")]
            with open(os.path.join(OUT, name + ".json"), "w") as f:
                subprocess.run(cmd, check=True, stdout=f)


if __name__ == "__main__":
    main()
