#!/usr/bin/env python3
"""The table that compares several models (gatetui --report MODEL MODEL ... TEXT) against
the JSON of the same run: every cell must be the JSON's value, formatted as
doc/usage.md ("Several models") says, the edit's rows labelled with the state they are of
(h beside h; c, h or each cell's own), each half-life with its 95% interval and marked "*"
where that interval and the one of the column to its left (of the same state) do not
overlap, the legend last. Usage: compare_cells.py TABLE.txt REPORT.json MODEL...
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


def edit_hl(p, key, state="", left=None, left_key=None):
    """An edit's half-life after state ("c ", "h " or ""), its interval after it, "* " before
    it when that interval and the column to its left's (left None: none) do not overlap."""
    if not p["pairs"] or p[key] is None and not p["beyond_horizon"][key]:
        return "-"
    mark = "* " if left and apart(p, key, left, left_key) else ""
    v = p[key]
    if v is None:
        return "%s%s> %d" % (mark, state, p["horizon"])
    ci = interval(p, key)
    return mark + state + format(v, ".1f") + ("" if ci is None else " " + ci)


def edit_cells(rep, left, named):
    """The four rows of an edit's half-lives: h beside h, then the carried state's measured,
    linearized and gate-only, marked against the column to the left where it carries the
    same state; named: each cell names its state (c, h), as the models' differ."""
    lstm, rnn = rep["model"]["arch"] == "lstm", rep["model"]["arch"] == "rnn"
    p = rep["perturbation"]
    lp = left["perturbation"] if left else None
    same = left is not None and (left["model"]["arch"] == "lstm") == lstm
    state = ("c " if lstm else "h ") if named else ""
    measured = "halflife_cell" if lstm else "halflife_hidden"
    fo = "halflife_forget_only"
    gated_left = same and left["model"]["arch"] != "rnn"
    return [edit_hl(p, "halflife_hidden", "", lp, "halflife_hidden"),
            edit_hl(p, measured, state, lp if same else None, measured),
            edit_hl(p, "halflife_linearized", state, lp if same else None,
                    "halflife_linearized"),
            "-" if rnn else edit_hl(p, fo, state, lp if gated_left else None, fo)]


def measured_count(rep):
    """The units whose measured half-life is 10 or more (one past the horizon counts when
    the horizon is 10 or more; one that does not exist does not)."""
    K = rep["perturbation"]["horizon"]
    return sum((K >= 10) if r["beyond_horizon"] else (r["halflife_measured"] or 0) >= 10
               for r in rep["unit_table"])


def cells(rep, path, left, named):
    """A model's column; left: the model to its left (None for the first)."""
    p, loss = rep["perturbation"], rep["loss"]
    head = [os.path.basename(path), "%s %d" % (rep["model"]["arch"].upper(),
                                               rep["model"]["hidden"]),
            "-" if loss is None else format(loss["nats"], ".3f")]
    measured = measured_count(rep) if p["pairs"] else "-"
    if rep["model"]["arch"] == "rnn":  # no carry gate: its rows of the gate say "-"
        return head + ["-", "- / -", "- / -", "- / %s" % measured] + \
            edit_cells(rep, left, named)
    gate = rep["units"]["gate"]
    u, sat = rep["units"], rep["saturation"][gate]
    return head + [
        format(rep["gates"][gate]["mean"], ".3f"),
        "%s / %s" % (format(sat["left"], ".3f"), format(sat["right"], ".3f")),
        "%s / %s" % (num(u["halflife_median"], ".2f"), num(u["halflife_max"], ".2f")),
        "%d / %s" % (u["halflife_ge10"], measured),
    ] + edit_cells(rep, left, named)


def main():
    table, js, paths = sys.argv[1], sys.argv[2], sys.argv[3:]
    models = json.load(open(js))["models"]
    lines = open(table).read().split("\n")[2:]
    lines = [l for l in lines if l]
    legend = lines.pop() if lines else ""
    lstms = sum(r["model"]["arch"] == "lstm" for r in models)
    named = 0 < lstms < len(models)  # c beside h: each cell says which
    want = [cells(r, p, models[i - 1] if i else None, named)
            for i, (r, p) in enumerate(zip(models, paths))]
    bad = 0
    if not legend.startswith("[lo, hi] 95% interval"):
        print("the last line is not the intervals' legend: %s" % legend)
        bad = 1
    if len(models) != len(paths) or len(lines) != len(want[0]):
        print("%d models, %d paths, %d rows (want %d)" % (len(models), len(paths), len(lines),
                                                          len(want[0])))
        return 1
    # the edit's rows: h beside h, then each model's carried state, named
    state = " of c," if lstms == len(models) else " of h," if not lstms else ","
    labels = {7: "an edit's half-life of h, measured",
              8: "an edit's half-life%s measured" % state, 9: "  linearized"}
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
