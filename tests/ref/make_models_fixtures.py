#!/usr/bin/env python3
"""Makes tests/fixtures/models/: the report fixtures' models (tests/fixtures/report) with
their vocabulary in another order, one whose vocabulary differs, and one with two special
tokens (<pad>, <unk>) besides the same characters, for tests/cli/models.sh.

A model with its vocabulary permuted computes the same function of the text: token j of
the new order is token p[j] of the old one, so the one-hot columns of W_ih (or the rows of
the embedding) and the readout's rows are taken in the order p. Its report must therefore
match the original model's float64 reference (tests/fixtures/report/*.json).  The model
with special tokens first is lstm1 with two more tokens in front: one-hot columns of zeros
(no text holds them) and readout rows of bias -1e4, whose share of the softmax is 0 even in
float32, so it too computes lstm1's function of any text. Its vocabulary is a JSON list
beside it (lstm1_specials.vocab.json).  Needs numpy only.

    python3 tests/ref/make_models_fixtures.py
"""
import json
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.normpath(os.path.join(HERE, "..", ".."))
SRC = os.path.join(TOP, "tests", "fixtures", "report")
OUT = os.path.join(TOP, "tests", "fixtures", "models")
sys.path.insert(0, os.path.join(TOP, "tools"))
from gatetui_export import load_file, save_file  # noqa: E402


def permuted(name, p):
    """The model `name` with token j of the new vocabulary being its token p[j]."""
    arrays, meta = load_file(os.path.join(SRC, name + ".safetensors"))
    vocab = meta["vocab"]
    out = {}
    for k, a in arrays.items():
        a = np.asarray(a)
        if k == "embedding.weight" or k.startswith("fc."):
            a = a[p]
        elif k.endswith("weight_ih_l0") and "embedding.weight" not in arrays:
            a = a[:, p]  # one-hot input: a column per token
        out[k] = np.ascontiguousarray(a)
    meta = dict(meta)
    meta["vocab"] = "".join(vocab[i] for i in p)
    return out, meta


def main():
    os.makedirs(OUT, exist_ok=True)
    rng = np.random.default_rng(17)
    for name in ("lstm1", "lstm2", "gru1", "gru2"):
        arrays, meta = load_file(os.path.join(SRC, name + ".safetensors"))
        p = rng.permutation(len(meta["vocab"]))
        a, m = permuted(name, p)
        save_file(a, os.path.join(OUT, name + "_perm.safetensors"), metadata=m)
    # lstm1 with 'w' replaced by 'x' and ',' by ';': the vocabularies differ by two each way
    arrays, meta = load_file(os.path.join(SRC, "lstm1.safetensors"))
    meta = dict(meta)
    meta["vocab"] = meta["vocab"].replace("w", "x").replace(",", ";")
    save_file({k: np.asarray(v) for k, v in arrays.items()},
              os.path.join(OUT, "lstm1_other.safetensors"), metadata=meta)
    with_specials()


def with_specials():
    arrays, meta = load_file(os.path.join(SRC, "lstm1.safetensors"))
    out = {k: np.asarray(v) for k, v in arrays.items()}
    w = out["rnn.weight_ih_l0"]
    out["rnn.weight_ih_l0"] = np.ascontiguousarray(
        np.concatenate([np.zeros((w.shape[0], 2), w.dtype), w], axis=1))
    fw, fb = out["fc.weight"], out["fc.bias"]
    out["fc.weight"] = np.concatenate([np.zeros((2, fw.shape[1]), fw.dtype), fw])
    out["fc.bias"] = np.concatenate([np.full(2, -1e4, fb.dtype), fb])
    save_file(out, os.path.join(OUT, "lstm1_specials.safetensors"))
    with open(os.path.join(OUT, "lstm1_specials.vocab.json"), "w", encoding="utf-8") as f:
        json.dump(["<pad>", "<unk>"] + list(meta["vocab"]), f)


if __name__ == "__main__":
    main()
