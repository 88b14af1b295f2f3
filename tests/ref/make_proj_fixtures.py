#!/usr/bin/python3
"""Reference fixtures for gatetui's LSTM with projections: nn.LSTM(proj_size=P) and its values.

Run from anywhere with a Python that has torch and numpy (Debian: /usr/bin/python3):

    /usr/bin/python3 tests/ref/make_proj_fixtures.py

It writes into tests/fixtures/proj/, for every model NAME, NAME.safetensors (float32
weights, the vocabulary in the metadata), NAME.txt, NAME.csv (what `gatetui --dump MODEL
TEXT` must print: i, f, g, o, c and, as the h column, m = o * tanh(c), the H-wide vector the
projection reads), NAME.probs.csv (what `--dump --probs` must print: the next character's
probabilities from the readout of h = W_hr m), NAME.ckpt.pt (a torch.save checkpoint: a
state_dict and the vocabulary), NAME.module.pt (the whole module pickled) and MANIFEST
(each model's P and its parameter count as PyTorch's model.parameters() gives it).

PyTorch's h is torch.nn.LSTM(proj_size=P) run in float64 on the weights as stored, one step
at a time; the gates, c and m are computed in float64 numpy from the same weights, and the h
they imply, W_hr m, is checked against PyTorch's before anything is written. Everything is
seeded.
"""
import os
import sys

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "tools"))
sys.path.insert(0, HERE)
from gatetui_export import save_file  # noqa: E402
from make_rnn_fixtures import TEXT, csv_char  # noqa: E402

OUT = os.path.join(ROOT, "tests", "fixtures", "proj")

# name, layers, hidden H, projection P, embedding width (0: one-hot), biases, weight scale
MODELS = [
    ("proj_onehot", 1, 12, 5, 0, True, 0.5),
    ("proj_emb2", 2, 10, 4, 6, True, 0.6),
    ("proj_nobias", 2, 9, 3, 0, False, 0.5),
]


def sigmoid(v):
    return 1.0 / (1.0 + np.exp(-v))


class CharLSTM(torch.nn.Module):
    def __init__(self, V, E, H, P, L, bias):
        super().__init__()
        self.embedding = torch.nn.Embedding(V, E) if E else None
        self.lstm = torch.nn.LSTM(E if E else V, H, num_layers=L, bias=bias, proj_size=P)
        self.readout = torch.nn.Linear(P, V)


def make(name, L, H, P, E, bias, scale, seed):
    rng = np.random.default_rng(seed)
    vocab = sorted(set(TEXT) - {";"})  # ';' is not in the vocabulary: skipped
    V = len(vocab)
    D0 = E if E else V
    W = {}
    if E:
        W["embedding.weight"] = rng.normal(0, 1, (V, E)).astype(np.float32)
    for k in range(L):
        D = D0 if k == 0 else P
        W["lstm.weight_ih_l%d" % k] = rng.normal(0, scale, (4 * H, D)).astype(np.float32)
        W["lstm.weight_hh_l%d" % k] = rng.normal(0, scale, (4 * H, P)).astype(np.float32)
        if bias:
            W["lstm.bias_ih_l%d" % k] = rng.normal(0, scale, 4 * H).astype(np.float32)
            W["lstm.bias_hh_l%d" % k] = rng.normal(0, scale, 4 * H).astype(np.float32)
        W["lstm.weight_hr_l%d" % k] = rng.normal(0, 0.5, (P, H)).astype(np.float32)
    W["readout.weight"] = rng.normal(0, 0.3, (V, P)).astype(np.float32)
    W["readout.bias"] = rng.normal(0, 0.1, V).astype(np.float32)
    save_file(W, os.path.join(OUT, name + ".safetensors"), metadata={"vocab": "".join(vocab)})
    with open(os.path.join(OUT, name + ".txt"), "w", encoding="utf-8", newline="") as f:
        f.write(TEXT)

    model = CharLSTM(V, E, H, P, L, bias).double()
    with torch.no_grad():
        for key, value in model.state_dict().items():
            value.copy_(torch.from_numpy(W[key].astype(np.float64)))
    W64 = {k: v.astype(np.float64) for k, v in W.items()}
    index = {c: i for i, c in enumerate(vocab)}
    rows = ["step,char,layer,unit,i,f,g,o,c,h\n"]
    probs = ["step,token,p"]
    state = None
    h64 = [np.zeros(P) for _ in range(L)]
    c64 = [np.zeros(H) for _ in range(L)]
    step = 0
    worst = 0.0
    with torch.no_grad():
        for ch in TEXT:
            if ch not in index:
                continue
            tok = index[ch]
            x = W64["embedding.weight"][tok] if E else np.eye(V)[tok]
            _, state = model.lstm(torch.from_numpy(x).reshape(1, 1, D0), state)
            th = state[0][:, 0, :].numpy()
            for k in range(L):
                z = W64["lstm.weight_ih_l%d" % k] @ x + W64["lstm.weight_hh_l%d" % k] @ h64[k]
                if bias:
                    z = z + W64["lstm.bias_ih_l%d" % k] + W64["lstm.bias_hh_l%d" % k]
                i, f, o = sigmoid(z[:H]), sigmoid(z[H:2 * H]), sigmoid(z[3 * H:])
                g = np.tanh(z[2 * H:3 * H])
                c64[k] = f * c64[k] + i * g
                m = o * np.tanh(c64[k])
                h64[k] = W64["lstm.weight_hr_l%d" % k] @ m
                worst = max(worst, np.max(np.abs(h64[k] - th[k]) / np.maximum(1, np.abs(th[k]))))
                for u in range(H):
                    rows.append("%d,%s,%d,%d,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g\n" % (
                        step, csv_char(ch), k, u, i[u], f[u], g[u], o[u], c64[k][u], m[u]))
                x = th[k]
            logits = W64["readout.weight"] @ th[L - 1] + W64["readout.bias"]
            e = np.exp(logits - logits.max())
            p = e / e.sum()
            probs.extend("%d,%d,%.9g" % (step, v, p[v]) for v in range(V))
            step += 1
    if worst > 1e-12:
        sys.exit("%s: numpy's W_hr m differs from nn.LSTM's h by %.3g" % (name, worst))
    with open(os.path.join(OUT, name + ".csv"), "w", encoding="utf-8", newline="") as f:
        f.write("".join(rows))
    with open(os.path.join(OUT, name + ".probs.csv"), "w", encoding="ascii", newline="") as f:
        f.write("\n".join(probs) + "\n")
    model = model.float()
    torch.save({"model": model, "vocab": "".join(vocab)}, os.path.join(OUT, name + ".module.pt"))
    torch.save({"state_dict": model.state_dict(), "vocab": "".join(vocab)},
               os.path.join(OUT, name + ".ckpt.pt"))
    return worst, sum(v.numel() for v in model.state_dict().values())


def main():
    os.makedirs(OUT, exist_ok=True)
    manifest = ["# model, P, PyTorch's parameter count (tests/ref/make_proj_fixtures.py)\n"]
    for n, (name, L, H, P, E, bias, scale) in enumerate(MODELS):
        worst, params = make(name, L, H, P, E, bias, scale, 2000 + n)
        print("%s: %d layer(s), H %d, P %d: numpy against nn.LSTM %.3g" % (name, L, H, P, worst))
        manifest.append("%s %d %d\n" % (name, P, params))
    with open(os.path.join(OUT, "MANIFEST"), "w") as f:
        f.write("".join(manifest))


if __name__ == "__main__":
    main()
