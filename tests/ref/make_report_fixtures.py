#!/usr/bin/env python3
"""Makes tests/fixtures/report/: small random LSTM and GRU models (one and two layers,
one-hot and embedding input, with and without biases, GRU reset after and before; stacked
cells of three layers each of its own width), plain
RNNs (tanh and relu; the relu one's nonlinearity given by --nonlinearity) that do not
amplify rounding (rnn_growth.py), a text,
and the float64 reference outputs of report_ref.py that tests/cli/report.sh and tests/unit/t_perturb
compare gatetui with.  Needs numpy only.

    python3 tests/ref/make_report_fixtures.py [NAME ...]

With names (of models, reports or perturbations), only those files are written; MANIFEST and
PERTURB, which hold nothing computed, always list every one.
"""
import os
import subprocess
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.normpath(os.path.join(HERE, "..", ".."))
OUT = os.path.join(TOP, "tests", "fixtures", "report")
sys.path.insert(0, os.path.join(TOP, "tools"))
from gatetui_export import save_file  # noqa: E402
from rnn_growth import MAX_GROWTH, text_growth  # noqa: E402

VOCAB = " \n.,abcdeghilmnorstw"  # 20 characters

MODELS = [
    # name, arch, layers, H, embedding width (None: one-hot), bias, gru reset, seed
    ("lstm1", "lstm", 1, 24, None, True, None, 1),
    ("lstm2", "lstm", 2, 16, 8, False, None, 2),
    ("gru1", "gru", 1, 20, None, True, None, 3),
    ("gru2", "gru", 2, 12, 6, True, "before", 4),
]

# stacked cells (<prefix><k>.weight_ih, ...), each layer of its own width: name, arch, the
# layers' widths, embedding width (None: one-hot), bias, seed
CELL_MODELS = [
    ("lstm3w", "lstm", [16, 24, 12], 8, True, 11),
    ("gru3w", "gru", [10, 14, 6], None, True, 12),
]

# plain RNNs: name, layers, H, embedding width (None: one-hot), bias, nonlinearity, weight
# scale of W_hh (times 1 / sqrt(H)), whether the metadata names the nonlinearity, seed
RNN_MODELS = [
    ("rnn1", 1, 20, None, True, "tanh", 0.9, True, 5),
    ("rnn2", 2, 12, 6, False, "tanh", 0.8, True, 6),
    ("rnnrelu", 1, 16, None, True, "relu", 0.6, False, 7),
]

# name, model, text, options for both gatetui and the reference
REPORTS = [
    ("lstm1_w6", "lstm1", "text.txt", "--windows 6 --window-len 48 --horizon 20"),
    ("lstm1_default", "lstm1", "text.txt", ""),
    ("lstm1_short", "lstm1", "short.txt", ""),
    ("lstm2_l1", "lstm2", "text.txt", "--layer 1 --windows 5 --window-len 40"),
    ("lstm2_l0", "lstm2", "text.txt", "--windows 3 --window-len 64 --horizon 47"),  # all a window holds
    ("gru1_w4", "gru1", "text.txt", "--windows 4 --window-len 50 --horizon 16"),
    ("gru2_l1", "gru2", "text.txt", "--layer 1 --windows 4 --window-len 32"),
    ("gru2_l0", "gru2", "text.txt", "--windows 7 --window-len 24 --horizon 5"),
    ("rnn1_w6", "rnn1", "text.txt", "--windows 6 --window-len 48 --horizon 20"),
    ("rnn1_short", "rnn1", "short.txt", ""),
    ("rnn2_l1", "rnn2", "text.txt", "--layer 1 --windows 5 --window-len 40"),
    # an RNN's curves fall fast: horizons where they stay above 1e-9, the float64
    # reference's resolution of a difference of two runs whose states are about 1
    ("rnn2_l0", "rnn2", "text.txt", "--windows 3 --window-len 64 --horizon 24"),
    ("rnnrelu_w4", "rnnrelu", "text.txt", "--windows 4 --window-len 50 --horizon 16 "
     "--nonlinearity relu"),
    ("lstm3w_l0", "lstm3w", "text.txt", "--windows 4 --window-len 50 --horizon 20"),
    ("lstm3w_l1", "lstm3w", "text.txt", "--layer 1 --windows 4 --window-len 48 --horizon 20"),
    ("lstm3w_l2", "lstm3w", "text.txt", "--layer 2 --windows 5 --window-len 40"),
    ("gru3w_l1", "gru3w", "text.txt", "--layer 1 --windows 4 --window-len 50 --horizon 16"),
    ("gru3w_l2", "gru3w", "text.txt", "--layer 2 --windows 4 --window-len 32"),
    # word models (tests/ref/make_words_fixtures.py): a token a step, the perturbation's
    # replacements the text's 65 most frequent tokens, by_token
    ("words_lstm_l0", "../words/w_lstm", "../words/text.txt",
     "--windows 6 --window-len 64 --horizon 20"),
    ("words_lstm_l1", "../words/w_lstm", "../words/text.txt",
     "--layer 1 --windows 4 --window-len 80"),
    ("words_gru", "../words/w_gru", "../words/text.txt",
     "--windows 5 --window-len 48 --horizon 16"),
]

# name, model, options, edits (step=token, ...)
PERTURBS = [
    ("lstm1", "lstm1", "--horizon 40", ["0=3", "37=0", "100=7", "120=5,122=9", "3530=2"]),
    ("lstm2_l1", "lstm2", "--layer 1 --horizon 64", ["5=1", "64=12", "300=4,301=4,310=0"]),
    ("lstm2_l0", "lstm2", "--horizon 30", ["17=19"]),
    ("gru1", "gru1", "--horizon 50", ["0=0", "44=13", "200=6,205=1"]),
    ("gru2_l1", "gru2", "--layer 1 --horizon 64", ["9=2", "150=18"]),
    ("gru2_l0", "gru2", "--horizon 25", ["80=11", "3540=3"]),
    ("lstm3w_l2", "lstm3w", "--layer 2 --horizon 40", ["30=3", "200=11,204=2"]),
    ("lstm3w_l1", "lstm3w", "--layer 1 --horizon 30", ["77=8"]),
    ("gru3w_l1", "gru3w", "--layer 1 --horizon 30", ["12=5", "400=0"]),
]


def random_weights(rng, G, L, H, E, bias, hh_scale):
    """Random weights under nn.LSTM / nn.GRU / nn.RNN names (G gate blocks) and a readout;
    the carry gate's biases (block 1) shifted towards keeping."""
    V = len(VOCAB)
    D0 = E if E else V
    t = {}
    if E:
        t["embedding.weight"] = rng.normal(size=(V, E)).astype(np.float32)
    for k in range(L):
        D = D0 if k == 0 else H
        t["rnn.weight_ih_l%d" % k] = (rng.normal(size=(G * H, D)) * 1.2 / np.sqrt(D)).astype(np.float32)
        t["rnn.weight_hh_l%d" % k] = (rng.normal(size=(G * H, H)) * hh_scale / np.sqrt(H)).astype(np.float32)
        if bias:
            b = rng.normal(size=(2, G * H)) * 0.5
            b[0, H:2 * H] += 1.0  # forget / update biases towards keeping (none in an RNN)
            t["rnn.bias_ih_l%d" % k] = b[0].astype(np.float32)
            t["rnn.bias_hh_l%d" % k] = b[1].astype(np.float32)
    t["fc.weight"] = (rng.normal(size=(V, H)) / np.sqrt(H)).astype(np.float32)
    t["fc.bias"] = np.zeros(V, dtype=np.float32)
    return t


def make_cells(name, arch, Hs, E, bias, seed):
    """Stacked cells, layer k of H_k units reading layer k-1's h, the readout the top's;
    the carry gates' biases towards keeping, as random_weights's."""
    rng = np.random.default_rng(seed)
    G, V = 4 if arch == "lstm" else 3, len(VOCAB)
    t = {}
    if E:
        t["embedding.weight"] = rng.normal(size=(V, E)).astype(np.float32)
    for k, H in enumerate(Hs):
        D = (E if E else V) if k == 0 else Hs[k - 1]
        t["cells.%d.weight_ih" % k] = (rng.normal(size=(G * H, D)) * 1.2 / np.sqrt(D)).astype(np.float32)
        t["cells.%d.weight_hh" % k] = (rng.normal(size=(G * H, H)) * 1.5 / np.sqrt(H)).astype(np.float32)
        if bias:
            b = rng.normal(size=(2, G * H)) * 0.5
            b[0, H:2 * H] += 1.0
            t["cells.%d.bias_ih" % k] = b[0].astype(np.float32)
            t["cells.%d.bias_hh" % k] = b[1].astype(np.float32)
    t["fc.weight"] = (rng.normal(size=(V, Hs[-1])) / np.sqrt(Hs[-1])).astype(np.float32)
    t["fc.bias"] = np.zeros(V, dtype=np.float32)
    save_file(t, os.path.join(OUT, name + ".safetensors"), metadata={"vocab": VOCAB})


def make_model(name, arch, L, H, E, bias, reset, seed):
    rng = np.random.default_rng(seed)
    t = random_weights(rng, 4 if arch == "lstm" else 3, L, H, E, bias, 1.5)
    meta = {"vocab": VOCAB}
    if reset:
        meta["gru_reset"] = reset
    save_file(t, os.path.join(OUT, name + ".safetensors"), metadata=meta)


def make_rnn(name, L, H, E, bias, nl, scale, meta_nl, seed):
    """A plain RNN, refused when it would amplify float32's rounding along the text's first
    windows (each from the zero state)."""
    rng = np.random.default_rng(seed)
    t = random_weights(rng, 1, L, H, E, bias, scale)
    V = len(VOCAB)
    W64 = {k: v.astype(np.float64) for k, v in t.items()}
    with open(os.path.join(OUT, "text.txt"), encoding="utf-8") as f:
        toks = [VOCAB.index(c) for c in f.read() if c in VOCAB]
    for w in range(3):  # the first windows of the longest window length used
        xs = [W64["embedding.weight"][v] if E else np.eye(V)[v] for v in toks[w * 128:(w + 1) * 128]]
        growth = text_growth(W64, L, H, nl, xs, bias)
        if growth > MAX_GROWTH:
            sys.exit("%s: a difference grows %.3g-fold along window %d (over %g): float32 "
                     "cannot follow float64 on it" % (name, growth, w, MAX_GROWTH))
    meta = {"vocab": VOCAB}
    if meta_nl:
        meta["nonlinearity"] = nl
    save_file(t, os.path.join(OUT, name + ".safetensors"), metadata=meta)


def make_text(path, n, seed):
    """Words of the vocabulary's letters, with spaces, punctuation, newlines, and a few
    characters outside the vocabulary (skipped)."""
    rng = np.random.default_rng(seed)
    letters = "abcdeghilmnorstw"
    out = []
    while len(out) < n:
        w = "".join(rng.choice(list(letters), size=rng.integers(1, 8)))
        out.append(w)
        r = rng.random()
        out.append(", " if r < 0.1 else ".\n" if r < 0.18 else "\u00e9 " if r < 0.2 else
                   "Z" if r < 0.21 else " ")
    text = "".join(out)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def run_ref(args, out):
    cmd = [sys.executable, os.path.join(HERE, "report_ref.py")] + args
    with open(out, "w") as f:
        subprocess.run(cmd, check=True, stdout=f)


def main():
    only = set(sys.argv[1:])
    want = lambda name: not only or name in only  # noqa: E731
    os.makedirs(OUT, exist_ok=True)
    for m in MODELS:
        if want(m[0]):
            make_model(*m)
    if not only:
        make_text(os.path.join(OUT, "text.txt"), 1400, 10)
    for m in RNN_MODELS:
        if want(m[0]):
            make_rnn(*m)
    for m in CELL_MODELS:
        if want(m[0]):
            make_cells(*m)
    if not only:
        with open(os.path.join(OUT, "short.txt"), "w") as f:
            f.write("the cat sat on the mat.\nno.\n")
    with open(os.path.join(OUT, "MANIFEST"), "w") as man:
        man.write("# report name, model, text, options (made by tests/ref/make_report_fixtures.py)\n")
        for name, model, text, opts in REPORTS:
            man.write("%s %s %s %s\n" % (name, model, text, opts))
            if not want(name):
                continue
            run_ref(["report", os.path.join(OUT, model + ".safetensors"),
                     os.path.join(OUT, text)] + opts.split(),
                    os.path.join(OUT, name + ".json"))
    with open(os.path.join(OUT, "PERTURB"), "w") as man:
        man.write("# perturbation name, model (text.txt), options (made by make_report_fixtures.py)\n")
        for name, model, opts, edits in PERTURBS:
            man.write("%s %s %s\n" % (name, model, opts))
            if not want(name):
                continue
            args = ["perturb", os.path.join(OUT, model + ".safetensors"),
                    os.path.join(OUT, "text.txt")] + opts.split()
            for e in edits:
                args += ["--edit", e]
            run_ref(args, os.path.join(OUT, "perturb_" + name + ".json"))


if __name__ == "__main__":
    main()
