#!/usr/bin/python3
"""The report of the sample models at the size users run it: tests/fixtures/report_samples/
NAME.json, the float64 reference (tests/ref/report_ref.py) of

    gatetui --report --json samples/NAME.bin samples/kjv-valid.txt

with the defaults (layer 0, 32 windows of 128 characters, the horizon 64), for kjv-lstm,
kjv-gru and kjv-rnn, which tests/report_samples.sh holds gatetui to: the gate tables, the
perturbation's curves and half-lives with their 95% intervals by the jackknife over the
windows, and the unit table with each unit's measured half-life's interval.

    /usr/bin/python3 tests/ref/make_report_samples.py [NAME ...]
        (default: kjv-lstm kjv-gru kjv-rnn; half a minute to a minute each)

Needs only numpy.
"""
import json
import os
import sys

from samples_ref import TEXT, fixtures, model_path  # before numpy: its BLAS on one thread
from report_ref import Model, report  # noqa: E402


def main():
    names = sys.argv[1:] or ["kjv-lstm", "kjv-gru", "kjv-rnn"]
    OUT = fixtures("report_samples")
    for name in names:
        m = Model(model_path(name))
        out = report(m, m.tokens(TEXT), 0, 32, 128, 64)
        with open(os.path.join(OUT, name + ".json"), "w") as f:
            json.dump(out, f, indent=1)
            f.write("\n")
        p = out["perturbation"]
        sys.stderr.write("%s: %d pairs, measured half-life %s, its interval %s\n" % (
            name, p["pairs"], p["halflife_cell"] or p["halflife_hidden"],
            p["ci"]["halflife_cell"] or p["ci"]["halflife_hidden"]))


if __name__ == "__main__":
    main()
