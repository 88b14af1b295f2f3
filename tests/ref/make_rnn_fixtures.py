#!/usr/bin/python3
"""Reference fixtures for gatetui's plain RNN: small random nn.RNN models and PyTorch's values.

Run from anywhere with a Python that has torch and numpy (Debian: /usr/bin/python3):

    /usr/bin/python3 tests/ref/make_rnn_fixtures.py

It writes into tests/fixtures/rnn/, for every model NAME, NAME.safetensors (float32
weights; the metadata says the vocabulary and, unless the model tests --nonlinearity, the
nonlinearity), NAME.txt and NAME.csv, what `gatetui --dump MODEL TEXT` must print
(columns a, h), and MANIFEST: the name and the options gatetui needs (tests/cli/rnn.sh).

h comes from torch.nn.RNN run in float64 on the weights as stored, one step at a time;
a = W_ih x + b_ih + W_hh h + b_hh is computed in float64 numpy from the same weights, and
the h it implies is checked against PyTorch's before anything is written. One relu model
has positive weights and a recurrence above the identity, so that its h grows past 1e9
over the text: the relative bound still holds there. (Where a relu RNN's large terms cancel
in a, float32 arithmetic cannot keep that bound; that case is not among the fixtures.) Everything is seeded.
"""
import os
import sys

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "tools"))
from gatetui_export import save_file  # noqa: E402
from rnn_growth import MAX_GROWTH, rounding_growth, step_jacobian  # noqa: E402

OUT = os.path.join(ROOT, "tests", "fixtures", "rnn")
TEXT = "In the beginning God created the heaven and the earth. And the earth was void;\n"

# name, nonlinearity, layers, hidden, embedding width (0: one-hot), biases, weight scale,
# whether the metadata names the nonlinearity (else the MANIFEST passes --nonlinearity)
MODELS = [
    ("tanh_onehot", "tanh", 1, 12, 0, True, 0.5, True),
    ("tanh_emb2", "tanh", 2, 10, 6, True, 0.6, True),
    ("tanh_nobias", "tanh", 2, 9, 0, False, 0.5, True),
    ("relu_onehot", "relu", 1, 12, 0, True, 0.3, True),
    ("relu_emb2", "relu", 2, 8, 5, True, 0.35, True),
    ("relu_nobias_cli", "relu", 1, 10, 4, False, 0.3, False),
    ("relu_grows", "relu", 1, 8, 0, True, 0.62, True),
]


def csv_char(c):
    if c in ',"\r\n':
        return '"' + c.replace('"', '""') + '"'
    return c


def make(name, nl, L, H, E, bias, scale, meta_nl, seed):
    rng = np.random.default_rng(seed)
    vocab = sorted(set(TEXT) - {";"})  # ';' is not in the vocabulary: skipped
    V = len(vocab)
    D0 = E if E else V
    W = {}
    if E:
        W["embedding.weight"] = rng.normal(0, 1, (V, E)).astype(np.float32)
    for k in range(L):
        D = D0 if k == 0 else H
        W["rnn.weight_ih_l%d" % k] = (rng.normal(0, scale, (H, D))).astype(np.float32)
        W["rnn.weight_hh_l%d" % k] = (rng.normal(0, scale, (H, H))).astype(np.float32)
        if name == "relu_grows":  # h grows: positive weights, an identity-like recurrence
            W["rnn.weight_ih_l%d" % k] = np.abs(W["rnn.weight_ih_l%d" % k])
            W["rnn.weight_hh_l%d" % k] = (np.eye(H) * 1.25 + np.abs(rng.normal(0, 0.02, (H, H)))
                                          ).astype(np.float32)
        if bias:
            W["rnn.bias_ih_l%d" % k] = rng.normal(0, scale, H).astype(np.float32)
            W["rnn.bias_hh_l%d" % k] = rng.normal(0, scale, H).astype(np.float32)
            if name == "relu_grows":
                W["rnn.bias_ih_l%d" % k] = np.abs(W["rnn.bias_ih_l%d" % k])
                W["rnn.bias_hh_l%d" % k] = np.abs(W["rnn.bias_hh_l%d" % k])
    W["readout.weight"] = rng.normal(0, 0.3, (V, H)).astype(np.float32)
    W["readout.bias"] = rng.normal(0, 0.1, V).astype(np.float32)
    meta = {"vocab": "".join(vocab)}
    if meta_nl:
        meta["nonlinearity"] = nl
    save_file(W, os.path.join(OUT, name + ".safetensors"), metadata=meta)
    with open(os.path.join(OUT, name + ".txt"), "w", encoding="utf-8", newline="") as f:
        f.write(TEXT)

    rnn = torch.nn.RNN(D0, H, num_layers=L, nonlinearity=nl, bias=bias).double()
    with torch.no_grad():
        for k in range(L):
            for part in ("weight_ih", "weight_hh") + (("bias_ih", "bias_hh") if bias else ()):
                getattr(rnn, "%s_l%d" % (part, k)).copy_(
                    torch.from_numpy(W["rnn.%s_l%d" % (part, k)].astype(np.float64)))
    W64 = {k: v.astype(np.float64) for k, v in W.items()}
    act = np.tanh if nl == "tanh" else (lambda v: np.maximum(v, 0.0))
    index = {c: i for i, c in enumerate(vocab)}
    rows = ["step,char,layer,unit,a,h\n"]
    state = None
    h64 = [np.zeros(H) for _ in range(L)]
    jacobians, sizes = [], []
    step = 0
    worst = 0.0
    with torch.no_grad():
        for ch in TEXT:
            if ch not in index:
                continue
            tok = index[ch]
            x = W64["embedding.weight"][tok] if E else np.eye(V)[tok]
            _, state = rnn(torch.from_numpy(x).reshape(1, 1, D0), state)
            th = state[:, 0, :].numpy()
            J = np.zeros((L * H, L * H))
            for k in range(L):
                a = W64["rnn.weight_ih_l%d" % k] @ x + W64["rnn.weight_hh_l%d" % k] @ h64[k]
                if bias:
                    a = a + W64["rnn.bias_ih_l%d" % k] + W64["rnn.bias_hh_l%d" % k]
                h64[k] = act(a)
                J[k * H:(k + 1) * H] = step_jacobian(W64, k, H, nl, a, J)
                worst = max(worst, np.max(np.abs(h64[k] - th[k]) / np.maximum(1, np.abs(th[k]))))
                for u in range(H):
                    rows.append("%d,%s,%d,%d,%.17g,%.17g\n" % (step, csv_char(ch), k, u, a[u],
                                                              th[k][u]))
                x = th[k]
            jacobians.append(J)
            sizes.append(max(1.0, np.max(np.abs(np.concatenate(h64)))))
            step += 1
    if worst > 1e-12:
        sys.exit("%s: numpy's h differs from nn.RNN's by %.3g" % (name, worst))
    growth = rounding_growth(jacobians, sizes)
    if growth > MAX_GROWTH:
        sys.exit("%s: a difference grows %.3g-fold along the text (over %g): float32 cannot "
                 "follow float64 on it" % (name, growth, MAX_GROWTH))
    with open(os.path.join(OUT, name + ".csv"), "w", encoding="utf-8", newline="") as f:
        f.write("".join(rows))
    if name == "relu_onehot":  # the nonlinearity from torch.save files too
        save_torch(rnn, W, "".join(vocab), name)
    return max(abs(v) for v in np.concatenate(h64)), growth


class CharRNN(torch.nn.Module):
    def __init__(self, rnn, readout):
        super().__init__()
        self.rnn = rnn
        self.readout = readout


def save_torch(rnn, W, vocab, name):
    """NAME.module.pt: the whole module pickled (nn.RNN's nonlinearity attribute);
    NAME.ckpt.pt: a checkpoint with a state_dict and a "nonlinearity" entry."""
    V, H = W["readout.weight"].shape
    readout = torch.nn.Linear(H, V).double()
    with torch.no_grad():
        readout.weight.copy_(torch.from_numpy(W["readout.weight"].astype(np.float64)))
        readout.bias.copy_(torch.from_numpy(W["readout.bias"].astype(np.float64)))
    model = CharRNN(rnn, readout).float()
    torch.save({"model": model, "vocab": vocab}, os.path.join(OUT, name + ".module.pt"))
    torch.save({"state_dict": model.state_dict(), "vocab": vocab, "nonlinearity": "relu"},
               os.path.join(OUT, name + ".ckpt.pt"))


def main():
    os.makedirs(OUT, exist_ok=True)
    manifest = ["# model, options (tests/ref/make_rnn_fixtures.py)\n"]
    for i, (name, nl, L, H, E, bias, scale, meta_nl) in enumerate(MODELS):
        top, growth = make(name, nl, L, H, E, bias, scale, meta_nl, 1000 + i)
        print("%s: %s, %d layer(s), H %d, last |h| max %.3g, a difference grows at most "
              "%.3g-fold" % (name, nl, L, H, top, growth))
        manifest.append(name + ("" if meta_nl else " --nonlinearity " + nl) + "\n")
    with open(os.path.join(OUT, "MANIFEST"), "w") as f:
        f.write("".join(manifest))


if __name__ == "__main__":
    main()
