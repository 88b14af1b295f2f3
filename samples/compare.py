#!/usr/bin/python3
"""The report of several models side by side, as a Markdown table: one column per model.

Runs `gatetui --report --json MODEL ... TEXT` (one run, the models in the order given) and
prints the numbers the samples' README compares: the step and the losses the training
script measured (from each file's `training` metadata), the readout's loss on the report's
windows, the gates' means, the units' mean carry gate and the half-lives it implies, and
the perturbation curves' half-lives with their 95% intervals (the jackknife over the
windows) and measured / forget-only at k = 64.

    /usr/bin/python3 samples/compare.py samples/kjv-lstm-100.bin ... samples/kjv-valid.txt
"""
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tools"))
from gatetui_export import load_file  # noqa: E402


def training(path):
    """(step, train loss, valid loss) from the file's metadata, None where it says nothing."""
    _, meta = load_file(path)
    t = meta.get("training", "")
    step = re.search(r"; step (\d+);", t)
    tl = re.search(r"train ([0-9.]+), valid ([0-9.]+) nats/char", t)
    return (int(step.group(1)) if step else None,
            float(tl.group(1)) if tl else None, float(tl.group(2)) if tl else None)


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: compare.py MODEL [MODEL ...] TEXT")
    models, text = sys.argv[1:-1], sys.argv[-1]
    gatetui = os.environ.get("GATETUI", os.path.join(HERE, "..", "gatetui"))
    out = subprocess.run([gatetui, "--report", "--json"] + models + [text], check=True,
                         stdout=subprocess.PIPE).stdout
    reps = json.loads(out)
    reps = reps["models"] if "models" in reps else [reps]
    cols = []
    for path, r in zip(models, reps):
        step, tl, vl = training(path)
        u, p, carry = r["units"], r["perturbation"], r["gates"][r["units"]["gate"]]
        k = p["k"]
        meas = p["cell"] if r["model"]["arch"] == "lstm" else p["hidden"]
        def ratio(i):  # "-" where forget-only is at rounding's floor
            return "%.2f" % (meas[i] / p["forget_only"][i]) if p["forget_only"][i] > 1e-9 else "-"
        f = lambda v, d=3: "-" if v is None else ("%.*f" % (d, v))  # noqa: E731

        def hl(key):  # a half-life with its 95% interval ("> K" past the horizon)
            v, ci = p[key], p["ci"][key]
            if v is None:
                return "> %d" % p["horizon"] if p["beyond_horizon"][key] else "-"
            if ci is None:
                return f(v, 1)
            return "%s [%s, %s]" % (f(v, 1), f(ci[0], 1),
                                    "> %d" % p["horizon"] if ci[1] is None else f(ci[1], 1))
        cols.append([
            os.path.basename(path), "%s %d" % (r["model"]["arch"].upper(), r["model"]["hidden"]),
            "-" if step is None else str(step), f(tl, 4), f(vl, 4), f(r["loss"]["nats"], 4),
            "%s %s" % (u["gate"], f(carry["mean"])),
            "%s / %s / %s" % (f(carry["q05"]), f(carry["q50"]), f(carry["q95"])),
            f(u["mean_median"]), "%s / %s / %s" % (f(u["halflife_min"], 2),
                                                   f(u["halflife_median"], 2),
                                                   f(u["halflife_max"], 2)),
            "%d of %d" % (u["below_half"], r["model"]["hidden"]), str(u["halflife_ge10"]),
            hl("halflife_cell" if r["model"]["arch"] == "lstm" else "halflife_hidden"),
            hl("halflife_forget_only"), hl("halflife_linearized"),
            "%s / %s" % (ratio(k.index(16)), ratio(len(k) - 1)), "%s / %s" % (f(r["saturation"][u["gate"]]["left"]),
                                         f(r["saturation"][u["gate"]]["right"])),
            "%s / %s / %s" % (f(r["by_char"]["space"]["mean"]),
                              f(r["by_char"]["newline"]["mean"]),
                              f(r["by_char"]["other"]["mean"])),
        ])
    rows = ["model", "arch, H", "step", "train loss (nats/char)", "valid loss (nats/char)",
            "loss on the report's windows", "mean carry gate (f or z)",
            "its 5% / 50% / 95%", "median unit's mean carry gate",
            "unit half-lives min / median / max", "units below 0.5", "units with half-life >= 10",
            "half-life [95% interval], measured (c; GRU: h)",
            "half-life, forget-only (GRU: z alone)", "half-life, linearized", "measured / forget-only at k = 16 / %d" % k[-1],
            "carry gate < 0.1 / > 0.9", "carry gate at space / newline / other"]
    print("| | " + " | ".join(c[0] for c in cols) + " |")
    print("|---|" + "---|" * len(cols))
    for i, name in enumerate(rows[1:], start=1):
        print("| %s | %s |" % (name, " | ".join(c[i] for c in cols)))


if __name__ == "__main__":
    main()
