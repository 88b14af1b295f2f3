#!/usr/bin/env python3
"""Makes tests/fixtures/intervene/: the float64 reference of gatetui's interventions
(doc/measures.md, "Interventions"), from the equations, on the report fixtures' models
(tests/fixtures/report/).  Needs numpy only.

    python3 tests/ref/intervene_ref.py

- The forget bias: the model file with b_hh's carry rows (f of an LSTM, z of a GRU) shifted
  by D, written here as a new safetensors file, and report_ref.py's report of it; gatetui
  --report on that file and gatetui --report --forget-bias on the original must both match.
- Ablation: each step as report_ref.py's, with the ablated units' c and h set to 0 after
  their layer's cell (before the layer above reads h); the candidate g (n) of an ablated
  unit is shown as 0, the way gatetui holds the unit at 0 (its candidate rows are zero).
- The carousel: an LSTM step with f = 1 on the layers chosen; the dump of every value (the
  cell grows), and the report.
- Importance: for every unit j of the layer, the readout's mean loss over the report's
  windows with j ablated, less the loss without; sorted by the increase, largest first.
"""
import json
import math
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.normpath(os.path.join(HERE, "..", ".."))
REP = os.path.join(TOP, "tests", "fixtures", "report")
OUT = os.path.join(TOP, "tests", "fixtures", "intervene")
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(TOP, "tools"))
import report_ref as rr  # noqa: E402
from gatetui_export import save_file  # noqa: E402

ORIG_STEP = rr.step


def make_step(ablate=None, carousel=()):
    """report_ref.step with interventions: ablate {layer: [units]}, carousel: layers."""
    return lambda m, toks, h, c, upto: ORIG_STEP(m, toks, h, c, upto, ablate, carousel)




def with_step(st, fn, *args):
    rr.step = st
    try:
        return fn(*args)
    finally:
        rr.step = ORIG_STEP


def windows(toks, N, L):
    T = len(toks)
    nwin = min(N, (T + L - 1) // L)
    return [toks[w * L:min((w + 1) * L, T)] for w in range(nwin)]


def window_losses(m, wins, st):
    """Each window's summed loss and its count of predictions, with step function st
    (windows of one length run as one batch)."""
    total, count = [0.0] * len(wins), [0] * len(wins)
    for n in sorted(set(len(w) for w in wins)):
        idx = [i for i, w in enumerate(wins) if len(w) == n]
        group = np.array([wins[i] for i in idx])
        h, c = rr.zeros(m, len(group))
        for p in range(n - 1):
            st(m, group[:, p], h, c, m.L - 1)
            logit = h[m.L - 1] @ m.out_w.T + m.out_b
            mx = logit.max(axis=1)
            lse = mx + np.log(np.exp(logit - mx[:, None]).sum(axis=1))
            nll = lse - logit[np.arange(len(group)), group[:, p + 1]]
            for k, i in enumerate(idx):
                total[i] += float(nll[k])
                count[i] += 1
    return total, count


def jackknife_ratio(d, n):
    """[lo, hi] of sum(d)/sum(n) by the jackknife over windows (leave window w out:
    (D - d_w)/(N - n_w); SE = sqrt((k-1)/k sum (t_w - mean t)^2); +- 1.96 SE), [None,
    None] under two windows."""
    k = len(d)
    if k < 2:
        return [None, None]
    D, N = sum(d), sum(n)
    t = [(D - d[w]) / (N - n[w]) for w in range(k)]
    mean = sum(t) / k
    se = math.sqrt((k - 1) / k * sum((x - mean) ** 2 for x in t))
    return [D / N - 1.96 * se, D / N + 1.96 * se]


def importance(m, toks, layer, N, L, by_unit=False):
    """Each unit's increase of the loss, largest first; by_unit: in the units' order, for
    a comparison that near ties (within float32's error) cannot upset."""
    wins = windows(toks, N, L)
    b, n = window_losses(m, wins, make_step())
    base, count = sum(b) / sum(n), sum(n)
    units = []
    for j in range(m.H):
        a, _ = window_losses(m, wins, make_step(ablate={layer: [j]}))
        lj = sum(a) / count
        units.append({"unit": j, "loss": lj, "delta": lj - base,
                      "delta_ci": jackknife_ratio([x - y for x, y in zip(a, b)], n)})
    if not by_unit:
        units.sort(key=lambda u: (-u["delta"], u["unit"]))
    for a, b in zip(units, units[1:]) if not by_unit else []:  # an order that float32 differences cannot swap
        if a["delta"] - b["delta"] < 1e-7 and a["delta"] != b["delta"]:
            raise SystemExit("importance: units %d and %d too close to order" % (a["unit"], b["unit"]))
    return {"layer": layer, "windows": len(wins), "window_len": L,
            "loss": {"nats": base, "bits": base / math.log(2), "count": count}, "units": units}


def report(m, toks, opts, st=None):
    a = dict(layer=0, windows=32, window_len=128, horizon=64)
    a.update(opts)
    return with_step(st or ORIG_STEP, rr.report, m, toks, a["layer"], a["windows"],
                     a["window_len"], a["horizon"])


def with_change(rep, what, base):
    """The keys gatetui adds when the model has interventions."""
    rep["interventions"] = what
    l, b = rep["loss"], base
    rep["loss_without_interventions"] = {
        "nats": b["nats"], "bits": b["bits"], "change_nats": l["nats"] - b["nats"],
        "change_bits": l["bits"] - b["bits"]}
    return rep


def shifted_file(src, dst, d, layer=None, units=None):
    """src's tensors with D added to b_hh's carry rows (every layer, or one; every unit, or
    some), written to dst; returns the stored tensors."""
    t, meta = rr.read_safetensors(src)
    m = rr.Model(src)
    out = {}
    for name, arr in t.items():
        out[name] = np.array(arr, dtype=np.float32) if arr.dtype != np.float32 else arr
    p = [k for k in t if k.endswith("weight_hh_l0")][0][:-len("weight_hh_l0")]
    for k in range(m.L):
        if layer is not None and k != layer:
            continue
        name = p + "bias_hh_l%d" % k
        b = np.array(t[name], dtype=np.float64)
        for j in (units if units is not None else range(m.H)):
            b[m.H + j] += d
        out[name] = b.astype(np.float32)
    save_file(out, dst, metadata=meta)


def opts_dict(s):
    a = s.split()
    keys = {"--layer": "layer", "--windows": "windows", "--window-len": "window_len",
            "--horizon": "horizon"}
    return {keys[a[i]]: int(a[i + 1]) for i in range(0, len(a), 2) if a[i] in keys}


def dump_csv(m, toks, st, path):
    cols = {"lstm": "i,f,g,o,c,h", "gru": "r,z,n,h", "rnn": "a,h"}[m.arch]
    lines = ["step,char,layer,unit," + cols]
    h, c = rr.zeros(m, 1)
    for t, tok in enumerate(toks):
        gates = st(m, [tok], h, c, m.L - 1)
        ch = m.vocab[tok]
        ch = '"' + ch.replace('"', '""') + '"' if ch in ',"\r\n' else ch
        for k in range(m.L):
            g = gates[k][0]
            for j in range(m.H):
                if m.arch == "lstm":
                    v = [g[j], g[m.H + j], g[2 * m.H + j], g[3 * m.H + j], c[k][0, j], h[k][0, j]]
                elif m.arch == "rnn":
                    v = [g[j], h[k][0, j]]
                else:
                    v = [g[j], g[m.H + j], g[2 * m.H + j], h[k][0, j]]
                lines.append("%d,%s,%d,%d,%s" % (t, ch, k, j, ",".join("%.12g" % x for x in v)))
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    return max(abs(float(x)) for x in c[0][0]) if m.arch == "lstm" else None


def write_json(name, obj):
    with open(os.path.join(OUT, name + ".json"), "w") as f:
        json.dump(obj, f, indent=1)
        f.write("\n")


def main():
    os.makedirs(OUT, exist_ok=True)
    model = lambda n: rr.Model(os.path.join(REP, n + ".safetensors"))
    text = os.path.join(REP, "text.txt")
    manifest = ["# name, what, model, gatetui's options (made by tests/ref/intervene_ref.py)"]

    # the forget bias: shifted files, and the same report through --forget-bias
    for name, src, d, layer, units, ropts, cli in [
            ("lstm1_fb", "lstm1", 1.5, None, None, "--windows 6 --window-len 48 --horizon 20",
             "--forget-bias 1.5"),
            ("gru2_fb", "gru2", -1.0, 1, [3, 5, 6, 7], "--layer 1 --windows 4 --window-len 32",
             "--forget-bias -1@1:3,5-7"),
            ("gru1_fb", "gru1", 2.0, None, None, "--windows 4 --window-len 50 --horizon 16",
             "--forget-bias 0.5 --forget-bias 1.5")]:
        shifted_file(os.path.join(REP, src + ".safetensors"), os.path.join(OUT, name + ".safetensors"),
                     d, layer, units)
        ms = rr.Model(os.path.join(OUT, name + ".safetensors"))
        toks = ms.tokens(text)
        rep = report(ms, toks, opts_dict(ropts))
        write_json(name, rep)
        manifest.append("%s report %s %s" % (name, name, ropts))
        base = report(model(src), toks, opts_dict(ropts))["loss"]
        what = "forget bias %+g@" % d
        m0 = model(src)
        if layer is None:
            what = ", ".join("forget bias %+g@%d" % (d, k) for k in range(m0.L))
        else:
            what = "forget bias %+g@%d:3,5-7" % (d, layer)
        write_json(name + "_cli", with_change(dict(rep), what, base))
        manifest.append("%s_cli report %s %s %s" % (name, src, ropts, cli))
        if name == "lstm1_fb":  # the sweep through 0 and 1.5: the plain report, then this one
            plain = report(m0, toks, opts_dict(ropts))
            # the sweep's reports carry no unit table (gatetui --sweep-forget-bias --json)
            bare = lambda r: {k: v for k, v in r.items() if k != "unit_table"}
            write_json("lstm1_sweep", {"sweep": [{"forget_bias": 0.0, "report": bare(plain)},
                                                 {"forget_bias": 1.5, "report": bare(with_change(dict(rep), what, base))}]})
            manifest.append("lstm1_sweep sweep lstm1 %s --sweep-forget-bias 0:1.5:1.5" % ropts)

    # ablation
    for name, src, abl, ropts, cli, what in [
            ("lstm1_ab", "lstm1", {0: [2, 5, 6, 7, 8, 9]}, "--windows 6 --window-len 48 --horizon 20",
             "--ablate 0:2,5-9", "ablated 0:2,5-9"),
            ("lstm2_ab", "lstm2", {0: [1, 4], 1: [0]}, "--layer 1 --windows 5 --window-len 40",
             "--ablate 0:1,4 --ablate 1:0", "ablated 0:1,4, ablated 1:0"),
            ("gru2_ab", "gru2", {0: [1, 3]}, "--layer 1 --windows 4 --window-len 32",
             "--ablate 0:1,3", "ablated 0:1,3"),
            ("rnn1_ab", "rnn1", {0: [0, 4, 5, 6]}, "--windows 6 --window-len 48 --horizon 20",
             "--ablate 0:0,4-6", "ablated 0:0,4-6"),
            ("rnn2_ab", "rnn2", {0: [2], 1: [1, 7]}, "--layer 1 --windows 5 --window-len 40",
             "--ablate 0:2 --ablate 1:1,7", "ablated 0:2, ablated 1:1,7")]:
        m = model(src)
        toks = m.tokens(text)
        rep = report(m, toks, opts_dict(ropts), make_step(ablate=abl))
        base = report(m, toks, opts_dict(ropts))["loss"]
        write_json(name, with_change(rep, what, base))
        manifest.append("%s report %s %s %s" % (name, src, ropts, cli))
    m = model("lstm2")
    dump_csv(m, m.tokens(text)[:60], make_step(ablate={0: [1, 4], 1: [0]}),
             os.path.join(OUT, "lstm2_ab.csv"))
    manifest.append("lstm2_ab dump lstm2 --to 59 --ablate 0:1,4 --ablate 1:0")
    m = model("rnn2")  # a plain RNN's ablated a and h are 0
    dump_csv(m, m.tokens(text)[:60], make_step(ablate={0: [2], 1: [1, 7]}),
             os.path.join(OUT, "rnn2_ab.csv"))
    manifest.append("rnn2_ab dump rnn2 --to 59 --ablate 0:2 --ablate 1:1,7")

    # the carousel: the cell grows
    m = model("lstm1")
    toks = m.tokens(text)
    # f = 1 forgets no rounding either: a float32 run's error in c grows with the steps like
    # a random walk (numpy's float32 reaches 1.3e-5 of max(1, |c|) after 400 steps of
    # lstm1, 2e-6 after 100), so the dumps stop at 100 steps; tests/cli/intervene.sh checks the
    # growth over 400
    top = dump_csv(m, toks[:100], make_step(carousel=(0,)), os.path.join(OUT, "lstm1_ca.csv"))
    h, c = rr.zeros(m, 1)
    for tok in toks[:100]:
        ORIG_STEP(m, [tok], h, c, 0)
    print("carousel: max |c| after 100 steps %.2f, without %.2f" % (top, float(np.max(np.abs(c[0])))))
    manifest.append("lstm1_ca dump lstm1 --to 99 --carousel")
    rep = report(m, toks, opts_dict("--windows 6 --window-len 48 --horizon 20"),
                 make_step(carousel=(0,)))
    base = report(m, toks, opts_dict("--windows 6 --window-len 48 --horizon 20"))["loss"]
    for row in rep["unit_table"]:  # the carry gate is 1 whatever its bias: no half-life
        row["halflife_bias"] = None
    write_json("lstm1_ca", with_change(rep, "carousel@0", base))
    manifest.append("lstm1_ca report lstm1 --windows 6 --window-len 48 --horizon 20 --carousel")
    m = model("lstm2")
    dump_csv(m, m.tokens(text)[:100], make_step(carousel=(1,)), os.path.join(OUT, "lstm2_ca.csv"))
    manifest.append("lstm2_ca dump lstm2 --to 99 --carousel@1")

    # importance
    for name, src, layer, N, L in [("lstm1_im", "lstm1", 0, 6, 48), ("lstm2_im", "lstm2", 1, 5, 40),
                                   ("lstm2_im0", "lstm2", 0, 3, 64), ("gru1_im", "gru1", 0, 4, 50),
                                   ("gru2_im", "gru2", 0, 4, 32), ("rnn1_im", "rnn1", 0, 6, 48),
                                   ("rnn2_im", "rnn2", 1, 5, 40)]:
        m = model(src)
        write_json(name, importance(m, m.tokens(text), layer, N, L))
        manifest.append("%s importance %s --layer %d --windows %d --window-len %d" % (name, src, layer, N, L))
    with open(os.path.join(OUT, "MANIFEST"), "w") as f:
        f.write("\n".join(manifest) + "\n")


if __name__ == "__main__":
    main()
