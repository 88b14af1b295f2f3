#!/usr/bin/env python3
"""Makes tests/fixtures/units/: the float64 reference outputs of units_ref.py for
`gatetui --units`, `--select` and `--profile` on the report fixtures' models (LSTM, GRU,
plain RNN) and text
(tests/fixtures/report/, made by make_report_fixtures.py), which tests/cli/units.sh compares
gatetui with (tests/lib/findcmp.c).  The spans of `--select` are found here: the first spans of
a fixed list where some unit is selected and no answer hangs on a value near the
threshold.  Needs numpy only (Debian's /usr/bin/python3).

    /usr/bin/python3 tests/ref/make_units_fixtures.py
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.normpath(os.path.join(HERE, "..", ".."))
MODELS = os.path.join(TOP, "tests", "fixtures", "report")
OUT = os.path.join(TOP, "tests", "fixtures", "units")
TEXT = "text.txt"

# name, model, regex, options
UNITS = [
    ("lstm1_vowels", "lstm1", "[aeio]+", ""),
    ("lstm1_newline", "lstm1", "\\n", "--steps 2000"),
    ("lstm2_l1_comma", "lstm2", "[^ ]+,", "--layer 1"),
    ("lstm2_l0_c", "lstm2", "[st][a-z]*", "--signal c"),
    ("gru1_longest", "gru1", "d|dh|dhg", ""),           # POSIX: the longest at the leftmost
    ("gru2_l1_empty", "gru2", "o*", "--layer 1 --signal n"),  # empty matches advance one step
    ("gru2_l0_word", "gru2", "[a-z]+\\.", "--steps 3000"),
    ("rnn1_vowels", "rnn1", "[aeio]+", ""),
    ("rnn2_l1_a", "rnn2", "[st][a-z]*", "--layer 1 --signal a"),
]

# name, model, options, how many spans; spans are searched among SPANS
SELECTS = [
    ("lstm1_h", "lstm1", "--steps 2000", 2),
    ("lstm1_i", "lstm1", "--signal i --threshold 0.6 --steps 2000", 1),
    ("lstm2_l1_c", "lstm2", "--layer 1 --signal c --threshold 0.2 --steps 2000", 1),
    ("gru1_h", "gru1", "--steps 2500", 2),
    ("gru2_l1_z", "gru2", "--layer 1 --signal z --threshold 0.7 --steps 2000", 1),
    ("rnn1_h", "rnn1", "--steps 2000", 1),
]
SPANS = [(a, a + d) for a in range(137, 1900, 71) for d in (0, 2, 3, 5)]

# name, model, unit, options
PROFILES = [
    ("lstm1_u3", "lstm1", 3, ""),
    ("lstm2_l1_c5", "lstm2", 5, "--layer 1 --signal c"),
    ("gru1_z2", "gru1", 2, "--signal z --steps 2000"),
    ("gru2_l1_n0", "gru2", 0, "--layer 1 --signal n"),
    ("rnn1_a4", "rnn1", 4, "--signal a"),
    ("rnn2_l1_h2", "rnn2", 2, "--layer 1"),
]


sys.path.insert(0, HERE)
import units_ref  # noqa: E402

_models = {}


def ref(model, args):
    """units_ref.py's JSON for MODEL (a fixture's name), the text and args: (0, text) or
    (1, why)."""
    if model not in _models:
        m = units_ref.Model(os.path.join(MODELS, model + ".safetensors"))
        _models[model] = (m, m.tokens(os.path.join(MODELS, TEXT)))
    m, toks = _models[model]
    try:
        out = units_ref.compute(m, toks, args)
    except SystemExit as e:
        return 1, str(e)
    return 0, json.dumps(out, indent=1, ensure_ascii=False) + "\n"


def write(name, text):
    with open(os.path.join(OUT, name + ".json"), "w", encoding="utf-8") as f:
        f.write(text)


def main():
    os.makedirs(OUT, exist_ok=True)
    lines = ["# name, mode, model, argument, options: tab-separated "
             "(made by tests/ref/make_units_fixtures.py)"]
    for name, model, regex, opts in UNITS:
        rc, out = ref(model, ["units", regex] + opts.split())
        if rc:
            raise SystemExit(out)
        write(name, out)
        lines.append("\t".join([name, "units", model, regex, opts]))
    for name, model, opts, want in SELECTS:
        found = 0
        for a, b in SPANS:
            span = "%d:%d" % (a, b)
            rc, out = ref(model, ["select", span] + opts.split())
            if rc or '"units": []' in out:
                continue
            found += 1
            fname = "%s_%d" % (name, found)
            write(fname, out)
            lines.append("\t".join([fname, "select", model, span, opts]))
            if found == want:
                break
        if found < want:
            raise SystemExit("no clear span for %s" % name)
    for name, model, unit, opts in PROFILES:
        rc, out = ref(model, ["profile", "--unit", str(unit)] + opts.split())
        if rc:
            raise SystemExit(out)
        write(name, out)
        lines.append("\t".join([name, "profile", model, str(unit), opts]))
    with open(os.path.join(OUT, "MANIFEST"), "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
