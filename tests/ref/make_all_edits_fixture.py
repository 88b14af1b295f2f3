#!/usr/bin/python3
"""The perturbation panel with every edit at once (the screen's `A`, a session's
"all_edits"): two edits of samples/kjv-valid.txt, at step 1,200 (its character made an 'x')
and ten steps later (made a 'y'), compared with the text as loaded from step 1,200 on, on
the sample LSTM, GRU and RNN, in float64 from the float64 run of the text before
(doc/measures.md, "Perturbation"). All four curves follow both edits: the measured ones run
both texts; the linearized and forget-only ones carry the first difference forward (by the
exact derivative of each step, resp. the carry gates alone) and add, at the second edited
step, that step's own difference: the original's state stepped with the edited character
less the original's step. The linearized tangent is carried by central differences (items
the original's state plus and minus 1e-5 times it, on every layer up to the one shown), a
plain RNN's exactly (report_ref.rnn_tangents' formula).

    /usr/bin/python3 tests/ref/make_all_edits_fixture.py

writes tests/fixtures/export/all_edits.json in tests/lib/panelcmp.py's form (the half-lives
c, L, F, h and the ratio measured / forget-only with its k). numpy only; one thread.
"""
import json
import os
import sys

for _v in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_v] = "1"
import numpy as np  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, HERE)
import report_ref as ref  # noqa: E402
from make_export_fixtures import ratio  # noqa: E402

MODELS = ["kjv-lstm", "kjv-gru", "kjv-rnn"]
STEP, LATER = 1200, 10          # the first edit's step, the second's lag after it
K = 64                          # the screen's horizon
EPS = 1e-5


def put(m, tok, want, other):
    """The character want, or other where the text has want there."""
    return m.vocab.index(other if m.vocab[tok] == want else want)


def copy(st):
    return [x.copy() for x in st]


def stepped(m, state, tok, layer):
    """(h, c) after one step of layers 0..layer from state with tok, and the gates."""
    h, c = copy(state[0]), copy(state[1])
    gates = ref.step(m, [tok], h, c, layer)
    return (h, c), gates


def curves(m, layer, h0, c0, orig, edited):
    lstm, rnn = m.arch == "lstm", m.arch == "rnn"
    start = ([x[None, :].copy() for x in h0], [x[None, :].copy() for x in c0])
    so, se = start, start
    dc, dh, fo, lin = [], [], [], []
    tang = acc = None
    for k in range(len(orig)):
        before = so
        so, gates = stepped(m, before, orig[k], layer)
        se, _ = stepped(m, se, edited[k], layer)
        carried = (lambda s: s[1][layer]) if lstm else (lambda s: s[0][layer])
        dh.append(float(np.linalg.norm(se[0][layer] - so[0][layer])))
        if lstm:
            dc.append(float(np.linalg.norm(se[1][layer] - so[1][layer])))
        if k == 0:
            tang = ([se[0][q] - so[0][q] for q in range(layer + 1)],
                    [se[1][q] - so[1][q] for q in range(layer + 1)])
            acc = carried(se) - carried(so)
        else:
            if rnn:  # exactly: dh' = s * (W_hh dh + W_ih dh_below')
                th = []
                for q in range(layer + 1):
                    w_ih, w_hh = m.layers[q][0], m.layers[q][1]
                    a = gates[q]
                    slope = (a > 0).astype(np.float64) if m.relu else 1.0 - np.tanh(a) ** 2
                    d = tang[0][q] @ w_hh.T + (th[q - 1] @ w_ih.T if q > 0 else 0.0)
                    th.append(d * slope)
                tang = (th, tang[1])
            else:  # by central differences along the original run
                plus = ([before[0][q] + EPS * tang[0][q] if q <= layer else before[0][q]
                         for q in range(m.L)],
                        [before[1][q] + EPS * tang[1][q] if q <= layer else before[1][q]
                         for q in range(m.L)])
                minus = ([before[0][q] - EPS * tang[0][q] if q <= layer else before[0][q]
                          for q in range(m.L)],
                         [before[1][q] - EPS * tang[1][q] if q <= layer else before[1][q]
                          for q in range(m.L)])
                sp, _ = stepped(m, plus, orig[k], layer)
                sm, _ = stepped(m, minus, orig[k], layer)
                tang = ([(sp[0][q] - sm[0][q]) / (2 * EPS) for q in range(layer + 1)],
                        [(sp[1][q] - sm[1][q]) / (2 * EPS) for q in range(layer + 1)])
            if not rnn:  # the forget-only vector carried by the original's carry gate
                H = m.Hs[layer]
                acc = acc * gates[layer][:, H:2 * H]
            if edited[k] != orig[k]:  # this step's own difference joins both
                si, _ = stepped(m, before, edited[k], layer)
                tang = ([tang[0][q] + si[0][q] - so[0][q] for q in range(layer + 1)],
                        [tang[1][q] + si[1][q] - so[1][q] for q in range(layer + 1)])
                acc = acc + carried(si) - carried(so)
        lin.append(float(np.linalg.norm(tang[1][layer] if lstm else tang[0][layer])))
        fo.append(None if rnn else float(np.linalg.norm(acc)))
    return (dc if lstm else None), dh, (None if rnn else fo), lin


def main():
    out = {"horizon": K, "text": "samples/kjv-valid.txt", "models": {}}
    for name in MODELS:
        m = ref.Model(os.path.join(ROOT, "samples", name + ".bin"))
        toks = m.tokens(os.path.join(ROOT, "samples", "kjv-valid.txt"))
        h, c = ref.zeros(m, 1)
        for t in range(STEP):
            ref.step(m, [toks[t]], h, c, m.L - 1)
        orig = list(toks[STEP:STEP + K + 1])
        edited = list(orig)
        edited[0] = put(m, orig[0], "x", "q")
        edited[LATER] = put(m, orig[LATER], "y", "z")
        dc, dh, fo, lin = curves(m, 0, [x[0] for x in h], [x[0] for x in c], orig, edited)
        q, qk = ratio(dc if dc is not None else dh, fo)
        entry = {
            "step": STEP, "later": STEP + LATER,
            "to": [m.vocab[edited[0]], m.vocab[edited[LATER]]], "K": K,
            "halflife_cell": None if dc is None else ref.num(ref.halflife(dc)),
            "halflife_hidden": ref.num(ref.halflife(dh)),
            "halflife_forget": None if fo is None else ref.num(ref.halflife(fo)),
            "halflife_linear": ref.num(ref.halflife(lin)),
            "ratio": ref.num(q), "ratio_k": qk}
        print(name, entry)
        out["models"][name] = {"arch": m.arch, "edits": [entry]}
    path = os.path.join(ROOT, "tests", "fixtures", "export", "all_edits.json")
    with open(path, "w") as f:
        json.dump(out, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
