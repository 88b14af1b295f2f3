#!/usr/bin/env python3
"""Writes a random character-level LSTM, GRU or plain tanh RNN model file for the benchmarks.
Usage: make_random.py OUT lstm|gru|rnn H [V] [LAYERS] [D] [--words TEXT]
With --words, a word model (doc/usage.md): the vocabulary <unk>, <eos>, w2 .. w(V-1) in
OUT's stem .vocab.txt beside it, and TEXT a text of 10,000 of its words in lines of 20,
drawn with Zipf's law (the word of rank r with probability proportional to 1/r)."""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "tools"))
from gatetui_export import save_file  # noqa: E402


def words(out, text, V, rng):
    """The word model's vocabulary beside OUT, and its text."""
    vocab = ["<unk>", "<eos>"] + ["w%d" % i for i in range(2, V)]
    with open(os.path.splitext(out)[0] + ".vocab.txt", "w") as f:
        f.write("".join(w + "\n" for w in vocab))
    p = 1.0 / np.arange(1, V - 1)
    draw = rng.choice(np.arange(2, V), size=10000, p=p / p.sum())
    with open(text, "w") as f:
        for i in range(0, len(draw), 20):
            f.write(" ".join(vocab[w] for w in draw[i:i + 20]) + "\n")


def main():
    text = None
    if "--words" in sys.argv:
        i = sys.argv.index("--words")
        text = sys.argv[i + 1]
        del sys.argv[i:i + 2]
    out, arch, H = sys.argv[1], sys.argv[2], int(sys.argv[3])
    V = int(sys.argv[4]) if len(sys.argv) > 4 else 80
    L = int(sys.argv[5]) if len(sys.argv) > 5 else 1
    D = int(sys.argv[6]) if len(sys.argv) > 6 else 64
    G = {"lstm": 4, "gru": 3, "rnn": 1}[arch]
    rng = np.random.default_rng(1)
    u = lambda *s: (rng.uniform(-1, 1, s) / np.sqrt(H)).astype(np.float32)
    t = {"embedding.weight": rng.normal(size=(V, D)).astype(np.float32)}
    for k in range(L):
        t[f"rnn.weight_ih_l{k}"] = u(G * H, D if k == 0 else H)
        t[f"rnn.weight_hh_l{k}"] = u(G * H, H)
        t[f"rnn.bias_ih_l{k}"] = u(G * H)
        t[f"rnn.bias_hh_l{k}"] = u(G * H)
    t["fc.weight"] = u(V, H)
    t["fc.bias"] = u(V)
    chars = [chr(c) for c in range(32, 32 + V - 1)] + ["\n"]
    meta = {"vocab": "".join(sorted(chars))}
    if text:
        del meta["vocab"]
        words(out, text, V, rng)
    if arch == "rnn":
        meta["nonlinearity"] = "tanh"
    save_file(t, out, metadata=meta)


if __name__ == "__main__":
    main()
