#!/usr/bin/python3
"""The report of the sample models at the size users run it: tests/fixtures/report_samples/
NAME.json, the float64 reference (tests/ref/report_ref.py) of

    gatetui --report --json samples/NAME.bin samples/kjv-valid.txt

with the defaults (layer 0, 32 windows of 128 characters, the horizon 64), for kjv-lstm,
kjv-gru and kjv-rnn, which tests/samples/report_samples.sh holds gatetui to: the gate tables, the
perturbation's curves and half-lives with their 95% intervals by the jackknife over the
windows, and the unit table with each unit's measured half-life's interval. And the word
model, at full length: kjv-words.json of

    gatetui --report --json --windows 76 samples/kjv-words.pt samples/kjv-words-valid.txt

(its 9,406 words and 252 <eos>: 9,658 steps, every one of them in the 76 windows, 75 of
128 steps and the last of 58).

    /usr/bin/python3 tests/ref/make_report_samples.py [NAME ...]
        (default: kjv-lstm kjv-gru kjv-rnn kjv-words; half a minute to a minute each)

Needs numpy; torch (Debian's python3-torch) for the word model's file.
"""
import json
import os
import sys

from samples_ref import TEXT, WORDS_TEXT, fixtures, model_path  # before numpy: one thread
from report_ref import Model, report  # noqa: E402

WORDS_WINDOWS = 76  # every step of the word sample's text: 75 windows of 128 and one of 58


def main():
    names = sys.argv[1:] or ["kjv-lstm", "kjv-gru", "kjv-rnn", "kjv-words"]
    OUT = fixtures("report_samples")
    for name in names:
        if name == "kjv-words":
            m = Model(model_path(name, ".pt"))
            out = report(m, m.tokens(WORDS_TEXT), 0, WORDS_WINDOWS, 128, 64)
        else:
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
