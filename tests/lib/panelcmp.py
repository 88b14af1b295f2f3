#!/usr/bin/python3
"""Reads the perturbation panel of an exported frame and holds its numbers to the float64
values of tests/fixtures/export/samples.json (tests/ref/make_export_fixtures.py).

    python3 tests/lib/panelcmp.py FRAME FIXTURE MODEL STEP [PEER ...]

MODEL is the fixture's name of the model the frame shows (kjv-lstm, ...), STEP the edit's
step; with the names of every model open (PEER ..., in their order, MODEL among them), the
line of every model's half-life of h ("t½ of h by model: [1] 4.5 (c 12.3)  2 5.7  3 4.5")
is held to them too: each model's h, and an LSTM's c where the line has room for it. A printed number stands for every value that rounds to it: it agrees when the float64
value is within half a unit of its last digit (and 1e-4 more, the float32 run's share).
Prints one line; exit 0 when every number is there and agrees, 1 otherwise."""
import json
import re
import sys


def digits_tol(s):
    """Half a unit of the printed number's last digit."""
    return 0.5 * 10 ** -(len(s.split(".")[1]) if "." in s else 0)


def agree(printed, want):
    if want is None:
        return printed is None or printed.startswith(">")
    if printed is None or printed.startswith(">"):
        return False
    return abs(float(printed) - want) <= digits_tol(printed) + 1e-4 * max(1.0, abs(want))


def main():
    frame, fix, model, step = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    lines = open(frame, encoding="utf-8").read().split("\n")
    want = [e for e in json.load(open(fix))["models"][model]["edits"] if e["step"] == step][0]
    # the panel's lines: right of the last box-drawing bar
    panel = [ln.rsplit("│", 1)[-1] for ln in lines if "│" in ln]
    if any("waiting for" in p for p in panel):
        print("the panel is waiting: " + " ".join(p.strip() for p in panel if "waiting" in p))
        return 1
    hl = [p for p in panel if re.match(r"\s*t½ ", p)]
    if not hl:
        print("no half-life line in the panel")
        return 1
    line = hl[0]
    got = {}
    for key, name in (("c", "halflife_cell"), ("L", "halflife_linear"), ("F", "halflife_forget"),
                      ("h", "halflife_hidden")):
        m = re.search(r"(?:^|\s)" + key + r" ?(>\s?\d+|[0-9]+(?:\.[0-9]+)?)(?=\s|$)", line)
        got[name] = m.group(1) if m else None
    m = re.search(r"[ch]/F(?:\((\d+)\)| at k=(\d+):) ([0-9.]+)", line)
    bad = []
    for name in ("halflife_cell", "halflife_hidden", "halflife_forget", "halflife_linear"):
        if want[name] is None and got[name] is None:
            continue
        if not agree(got[name], want[name]):
            bad.append("%s %s, float64 %s" % (name, got[name], want[name]))
    if want["ratio"] is not None:
        if not m:
            bad.append("no ratio with its k")
        else:
            k = int(m.group(1) or m.group(2))
            if k != want["ratio_k"] or not agree(m.group(3), want["ratio"]):
                bad.append("ratio %s at k=%d, float64 %.6g at k=%d"
                           % (m.group(3), k, want["ratio"], want["ratio_k"]))
    elif m:
        bad.append("a ratio where there is no forget-only curve")
    peers = sys.argv[5:]
    if peers:
        fixall = json.load(open(fix))["models"]
        ml = [p for p in panel if re.search(r"by model:|h t½:", p)]
        if not ml:
            bad.append("no line of the models' half-lives of h")
        else:
            body = re.split(r"by model:|h t½:", ml[0])[1]
            got = dict((int(k), (h, c)) for k, h, c in
                       re.findall(r"\[?(\d+)\]? ([0-9.]+|>\s?\d+|-)(?: \(c ([0-9.]+|>\s?\d+)\))?", body))
            more = re.search(r"\+(\d+)", body)
            for i, name in enumerate(peers, 1):
                w = [e for e in fixall[name]["edits"] if e["step"] == step][0]
                if i not in got:
                    if not more:
                        bad.append("model %d missing from the models' line, not counted" % i)
                    continue
                h, c = got[i]
                if not agree(h, w["halflife_hidden"]):
                    bad.append("model %d's h %s, float64 %s" % (i, h, w["halflife_hidden"]))
                if c and not agree(c, w["halflife_cell"]):
                    bad.append("model %d's c %s, float64 %s" % (i, c, w["halflife_cell"]))
            line = line + " | " + ml[0].strip()
    if bad:
        print("; ".join(bad) + "  [" + line.strip() + "]")
        return 1
    print(line.strip())
    return 0


if __name__ == "__main__":
    sys.exit(main())
