#!/usr/bin/python3
"""Each unit's importance on the sample models at the size users run it:
tests/fixtures/report_samples/NAME_im.json, the float64 reference (tests/ref/intervene_ref.py's
importance, from tests/ref/report_ref.py's steps) of

    gatetui --importance --json samples/NAME.bin samples/kjv-valid.txt

with the defaults (layer 0, 32 windows of 128 characters): every unit's increase of the
loss and its 95% interval by the jackknife over the windows, for kjv-lstm, kjv-gru and
kjv-rnn, which tests/samples/report_samples.sh holds gatetui to. The units are in their
own order here (some increases lie closer together than float32's error: gatetui may
order those two either way), and the test puts gatetui's in the same.

    /usr/bin/python3 tests/ref/make_importance_samples.py [NAME ...]
        (default: kjv-lstm kjv-gru kjv-rnn)

Needs numpy.
"""
import json
import os
import sys

from samples_ref import TEXT, fixtures, model_path  # before numpy: one thread
from report_ref import Model  # noqa: E402
from intervene_ref import importance  # noqa: E402


def main():
    names = sys.argv[1:] or ["kjv-lstm", "kjv-gru", "kjv-rnn"]
    OUT = fixtures("report_samples")
    for name in names:
        m = Model(model_path(name))
        out = importance(m, m.tokens(TEXT), 0, 32, 128, by_unit=True)
        with open(os.path.join(OUT, name + "_im.json"), "w") as f:
            json.dump(out, f, indent=1)
            f.write("\n")
        top = max(out["units"], key=lambda u: u["delta"])
        sys.stderr.write("%s: unit %d first, %.5f nats, its interval [%.5f, %.5f]\n" % (
            name, top["unit"], top["delta"], top["delta_ci"][0], top["delta_ci"][1]))


if __name__ == "__main__":
    main()
