#!/usr/bin/env python3
"""What the screen shows of the effect and the carriers against the batch modes' JSON
(tests/samples/e2e_causes.sh). Plain python3, no numpy.

    causescmp.py carried FRAME JSON   the perturbation panel's "carried by #u p% ..." line:
                                      the units in the order of --carriers --json's "units",
                                      each share alone_share in percent as the panel writes
                                      it (%.0f from 10%, else %.1f), at least two
    causescmp.py delta FRAME JSON     the status line's "Δ inside D [LO, HI]  outside D [LO,
                                      HI] bits": --effect --json's first effect's inside
                                      and outside delta and delta_ci, each as %+.4f

Prints what it compared and exits 0, or prints what differs and exits 1."""
import json
import re
import sys


def load(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def share(x):
    p = 100.0 * x
    return "%.0f%%" % p if p >= 10 else "%.1f%%" % p


def carried(frame, ref):
    m = re.search(r"carried by((?: #\d+ [0-9.]+%)+)", frame)
    if not m:
        return 1, "no line 'carried by #u p% ...' in the frame"
    got = re.findall(r"#(\d+) ([0-9.]+%)", m.group(1))
    units = ref["units"]
    if len(got) < 2:
        return 1, "only %d units on the line: %s" % (len(got), m.group(0))
    want = [(str(u["unit"]), share(u["alone_share"])) for u in units[: len(got)]]
    if got != want:
        return 1, "the line %s, the JSON's first units %s" % (got, want)
    return 0, "%d units: %s" % (len(got), " ".join("#%s %s" % g for g in got))


def delta(frame, ref):
    num = r"([+-]\d+\.\d{4}|none)"
    ci = r"\[([+-]\d+\.\d{4}), ([+-]\d+\.\d{4})\]"
    m = re.search("Δ inside " + num + " " + ci + "  outside " + num + " " + ci + " bits", frame)
    if not m:
        return 1, "no status line 'Δ inside D [LO, HI]  outside D [LO, HI] bits' in the frame"
    e = ref["effects"][0]
    want = []
    for cls in ("inside", "outside"):
        c = e[cls]
        want += ["%+.4f" % c["delta"], "%+.4f" % c["delta_ci"][0], "%+.4f" % c["delta_ci"][1]]
    got = list(m.groups())
    if got != want:
        return 1, "the status line %s, the JSON %s" % (got, want)
    return 0, "inside %s [%s, %s], outside %s [%s, %s]" % tuple(got)


def main():
    if len(sys.argv) != 4 or sys.argv[1] not in ("carried", "delta"):
        print(__doc__)
        return 2
    frame = load(sys.argv[2])
    ref = json.loads(load(sys.argv[3]))
    rc, said = (carried if sys.argv[1] == "carried" else delta)(frame, ref)
    print(said)
    return rc


if __name__ == "__main__":
    sys.exit(main())
