#!/usr/bin/env python3
"""The table that compares several models (gatetui --report MODEL MODEL ... TEXT) against
the JSON of the same run: every cell must be the JSON's value, formatted as
doc/usage.md ("Several models") says, and the edit's rows labelled with the state they are
of (h beside h; c, h or each cell's own). Usage: compare_cells.py TABLE.txt REPORT.json MODEL...
Prints what differs; exit status 1 when anything does."""
import json
import os
import re
import sys


def num(v, fmt):
    return "inf" if v is None else format(v, fmt)  # null: an infinite half-life


def edit_hl(p, key):
    if not p["pairs"]:
        return "-"
    v = p[key]
    return "> %d" % p["horizon"] if v is None else format(v, ".1f")


def rnn_cells(rep, path, named):
    """A plain RNN's column: no carry gate, so its rows of the gate say "-"."""
    p = rep["perturbation"]
    measured = sum((p["horizon"] >= 10) if r["halflife_measured"] is None
                   else (r["halflife_measured"] >= 10) for r in rep["unit_table"])
    loss = rep["loss"]
    return [os.path.basename(path), "RNN %d" % rep["model"]["hidden"],
            "-" if loss is None else format(loss["nats"], ".3f"), "-", "- / -", "- / -",
            "- / %s" % (measured if p["pairs"] else "-"), edit_hl(p, "halflife_hidden"),
            "%s%s / %s / -" % ("h " if named else "", edit_hl(p, "halflife_hidden"),
                               edit_hl(p, "halflife_linearized"))]


def cells(rep, path, named):
    """A model's column; named: the edit's row names the state (c, h) in each cell, as the
    models' states differ."""
    if rep["model"]["arch"] == "rnn":
        return rnn_cells(rep, path, named)
    gate = rep["units"]["gate"]
    lstm = rep["model"]["arch"] == "lstm"
    p, u = rep["perturbation"], rep["units"]
    sat = rep["saturation"][gate]
    measured = 0
    for row in rep["unit_table"]:
        h = row["halflife_measured"]
        measured += (p["horizon"] >= 10) if h is None else (h >= 10)
    loss = rep["loss"]
    return [
        os.path.basename(path),
        "%s %d" % (rep["model"]["arch"].upper(), rep["model"]["hidden"]),
        "-" if loss is None else format(loss["nats"], ".3f"),
        format(rep["gates"][gate]["mean"], ".3f"),
        "%s / %s" % (format(sat["left"], ".3f"), format(sat["right"], ".3f")),
        "%s / %s" % (num(u["halflife_median"], ".2f"), num(u["halflife_max"], ".2f")),
        "%d / %s" % (u["halflife_ge10"], measured if p["pairs"] else "-"),
        edit_hl(p, "halflife_hidden"),
        "%s%s / %s / %s" % (("c " if lstm else "h ") if named else "",
                            edit_hl(p, "halflife_cell" if lstm else "halflife_hidden"),
                            edit_hl(p, "halflife_linearized"),
                            edit_hl(p, "halflife_forget_only")),
    ]


def main():
    table, js, paths = sys.argv[1], sys.argv[2], sys.argv[3:]
    models = json.load(open(js))["models"]
    lines = open(table).read().split("\n")[2:]
    lines = [l for l in lines if l]
    lstms = sum(r["model"]["arch"] == "lstm" for r in models)
    named = 0 < lstms < len(models)  # c beside h: each cell says which
    want = [cells(r, p, named) for r, p in zip(models, paths)]
    bad = 0
    if len(models) != len(paths) or len(lines) != len(want[0]):
        print("%d models, %d paths, %d rows (want %d)" % (len(models), len(paths), len(lines),
                                                          len(want[0])))
        return 1
    # the edit's rows: h beside h, then each model's carried state, named
    state = " of c," if lstms == len(models) else " of h," if not lstms else ","
    labels = {7: "an edit's half-life of h, measured",
              8: "an edit's half-life%s measured / linearized /" % state}
    for i, line in enumerate(lines):
        if i in labels and not line.startswith(labels[i]):
            print("row %d: the label is not %r: %s" % (i, labels[i], line))
            bad = 1
        got = re.split(r"\s{2,}", line.strip())[1:]
        row = [w[i] for w in want]
        if got != row:
            print("row %d (%s): got %s, want %s" % (i, line[:30], got, row))
            bad = 1
        else:
            print("row %d: %s" % (i, " | ".join(got)))
    return bad


if __name__ == "__main__":
    sys.exit(main())
