#!/usr/bin/env python3
"""The table that compares several models (gatetui --report MODEL MODEL ... TEXT) against
the JSON of the same run: every cell must be the JSON's value, formatted as
doc/usage.md ("Several models") says, each half-life with its 95% interval and marked "*"
where that interval and the one of the column to its left do not overlap, the legend last. Usage: compare_cells.py TABLE.txt REPORT.json MODEL...
Prints what differs; exit status 1 when anything does."""
import json
import os
import re
import sys


def num(v, fmt):
    return "inf" if v is None else format(v, fmt)  # null: an infinite half-life


def interval(p, key):
    """key's 95% interval as the table writes it ("[lo, hi]", "[lo, > K]"), or None."""
    ci = p["ci"][key]
    if ci is None or ci[0] is None:
        return None
    hi = "> %d" % p["horizon"] if ci[1] is None else format(ci[1], ".1f")
    return "[%s, %s]" % (format(ci[0], ".1f"), hi)


def apart(p, key, q, qkey):
    """Whether p's interval of key and q's of qkey both exist and do not overlap (an open
    upper end reaches past any number)."""
    a, b = p["ci"].get(key), q["ci"].get(qkey) if q else None
    if a is None or b is None or a[0] is None or b[0] is None:
        return False
    inf = float("inf")
    ahi, bhi = inf if a[1] is None else a[1], inf if b[1] is None else b[1]
    return ahi < b[0] or bhi < a[0]


def edit_hl(p, key, left=None, left_key=None):
    """An edit's half-life, its interval after it, "* " before it when that interval and the
    column to its left's do not overlap."""
    if not p["pairs"] or p[key] is None and not p["beyond_horizon"][key]:
        return "-"
    mark = "* " if apart(p, key, left, left_key) else ""
    v = p[key]
    if v is None:
        return "%s> %d" % (mark, p["horizon"])
    ci = interval(p, key)
    return mark + format(v, ".1f") + ("" if ci is None else " " + ci)


def measured_key(rep):
    return "halflife_cell" if rep["model"]["arch"] == "lstm" else "halflife_hidden"


def edit_cells(rep, left):
    """The three rows of an edit's half-lives, each marked against the column to the left."""
    p, lp = rep["perturbation"], left["perturbation"] if left else None
    fo = "halflife_forget_only"
    return [edit_hl(p, measured_key(rep), lp, measured_key(left) if left else None),
            edit_hl(p, "halflife_linearized", lp, "halflife_linearized"),
            "-" if rep["model"]["arch"] == "rnn" else
            edit_hl(p, fo, lp if left and left["model"]["arch"] != "rnn" else None, fo)]


def rnn_cells(rep, path, left):
    """A plain RNN's column: no carry gate, so its rows of the gate say "-"."""
    p = rep["perturbation"]
    measured = sum((p["horizon"] >= 10) if r["beyond_horizon"]
                   else (r["halflife_measured"] or 0) >= 10 for r in rep["unit_table"])
    loss = rep["loss"]
    return [os.path.basename(path), "RNN %d" % rep["model"]["hidden"],
            "-" if loss is None else format(loss["nats"], ".3f"), "-", "- / -", "- / -",
            "- / %s" % (measured if p["pairs"] else "-")] + edit_cells(rep, left)


def cells(rep, path, left):
    if rep["model"]["arch"] == "rnn":
        return rnn_cells(rep, path, left)
    gate = rep["units"]["gate"]
    p, u = rep["perturbation"], rep["units"]
    sat = rep["saturation"][gate]
    measured = 0
    for row in rep["unit_table"]:
        h = row["halflife_measured"]
        measured += (p["horizon"] >= 10) if row["beyond_horizon"] else (h or 0) >= 10
    loss = rep["loss"]
    return [
        os.path.basename(path),
        "%s %d" % (rep["model"]["arch"].upper(), rep["model"]["hidden"]),
        "-" if loss is None else format(loss["nats"], ".3f"),
        format(rep["gates"][gate]["mean"], ".3f"),
        "%s / %s" % (format(sat["left"], ".3f"), format(sat["right"], ".3f")),
        "%s / %s" % (num(u["halflife_median"], ".2f"), num(u["halflife_max"], ".2f")),
        "%d / %s" % (u["halflife_ge10"], measured if p["pairs"] else "-"),
    ] + edit_cells(rep, left)


def main():
    table, js, paths = sys.argv[1], sys.argv[2], sys.argv[3:]
    models = json.load(open(js))["models"]
    lines = open(table).read().split("\n")[2:]
    lines = [l for l in lines if l]
    legend = lines.pop() if lines else ""
    want = [cells(r, p, models[i - 1] if i else None)
            for i, (r, p) in enumerate(zip(models, paths))]
    bad = 0
    if not legend.startswith("[lo, hi] a 95% interval"):
        print("the last line is not the intervals' legend: %s" % legend)
        bad = 1
    if len(models) != len(paths) or len(lines) != len(want[0]):
        print("%d models, %d paths, %d rows (want %d)" % (len(models), len(paths), len(lines),
                                                          len(want[0])))
        return 1
    for i, line in enumerate(lines):
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
