#!/usr/bin/python3
"""The perturbation panel of exported frames on the sample models at full length: one edit
at each of several steps of samples/kjv-valid.txt, its four curves computed in float64 from
the float64 run of the text before it (doc/measures.md, "Perturbation"), and what the panel
prints of them: the half-lives of the measured (c and h), linearized and forget-only curves
and the ratio measured / forget-only at its k. tests/samples/export_full.sh holds the frames that
`gatetui --export --edit` writes, with one model and with the three side by side, to them.

    /usr/bin/python3 tests/ref/make_export_fixtures.py

writes tests/fixtures/export/samples.json. numpy only (tests/ref/report_ref.py's reader,
step and perturbation); one thread.
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

MODELS = ["kjv-lstm", "kjv-gru", "kjv-rnn"]
STEPS = [200, 1200, 20000, 43200]  # the last near the end: its curves stop at the text's end
K = 64                             # the screen's horizon (data_pert.h)
FLOOR = 1e-13                      # the ratio's floor (doc/measures.md, "The ratio at the last k")


def edit_for(m, tok):
    """The character the edit puts in: 'x', or 'q' where the text has an 'x'."""
    new = "q" if m.vocab[tok] == "x" else "x"
    return m.vocab.index(new)


def ratio(meas, fo):
    """measured / forget-only at the last k whose measured value is >= FLOOR of its first."""
    if fo is None or not meas[0] > 0:
        return None, None
    k = max(q for q in range(len(meas)) if meas[q] >= FLOOR * meas[0])
    return meas[k] / fo[k], k


def main():
    out = {"horizon": K, "text": "samples/kjv-valid.txt", "models": {}}
    for name in MODELS:
        m = ref.Model(os.path.join(ROOT, "samples", name + ".bin"))
        toks = m.tokens(os.path.join(ROOT, "samples", "kjv-valid.txt"))
        T = len(toks)
        h, c = ref.zeros(m, 1)
        done = 0
        entries = []
        for s in STEPS:
            for t in range(done, s):  # the states before step s
                ref.step(m, [toks[t]], h, c, m.L - 1)
            done = s
            n = min(K, T - 1 - s)
            orig = toks[s:s + n + 1]
            new = edit_for(m, toks[s])
            edited = [new] + list(orig[1:])
            r = ref.perturb(m, 0, [x[0].copy() for x in h], [x[0].copy() for x in c], orig,
                            [edited], n, units=False)[0]
            dc = None if r["dc"] is None else [float(v) for v in r["dc"]]
            dh = [float(v) for v in r["dh"]]
            fo = None if r["fo"] is None else [float(v) for v in r["fo"]]
            lin = [float(v) for v in r["lin"]]
            q, qk = ratio(dc if dc is not None else dh, fo)
            entries.append({
                "step": s, "from": m.vocab[toks[s]], "to": m.vocab[new], "K": n,
                "halflife_cell": None if dc is None else ref.num(ref.halflife(dc)),
                "halflife_hidden": ref.num(ref.halflife(dh)),
                "halflife_forget": None if fo is None else ref.num(ref.halflife(fo)),
                "halflife_linear": ref.num(ref.halflife(lin)),
                "ratio": ref.num(q), "ratio_k": qk})
            print(name, entries[-1])
        out["models"][name] = {"arch": m.arch, "steps": T, "edits": entries}
    path = os.path.join(ROOT, "tests", "fixtures", "export", "samples.json")
    with open(path, "w") as f:
        json.dump(out, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
