#!/usr/bin/env python3
"""An independent float64 reference for the modes that find units (doc/measures.md, "Finding
the units that mean something"): `gatetui --units`, `--select` and `--profile` with `--json`,
in numpy from the equations (the cells of report_ref.py), printing the same JSON objects.

  units_ref.py units MODEL TEXT REGEX [--layer N] [--steps N] [--signal s]
  units_ref.py select MODEL TEXT A:B [--layer N] [--steps N] [--signal s] [--threshold T]
  units_ref.py profile MODEL TEXT --unit J [--layer N] [--steps N] [--signal s]

The values are those of one run from the zero state over the first N steps (default
100,000). The mask follows POSIX, not Python: at the leftmost position where the expression
matches, the longest match (Python's re finds the position; the longest end is then
searched with fullmatch); an empty match advances one character.  `select` and `profile`
check that their answer does not hang on a value within MARGIN of a threshold or of
another value (float32 could decide it the other way) and fail if it does: a fixture must
be chosen where the answer is clear.  Needs only numpy.
"""
import argparse
import json
import math
import os
import re
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from report_ref import Model, step, zeros  # noqa: E402

MARGIN = 2e-5  # float32 values are within about 1e-6 of float64 ones
LONGEST = 400  # matches are searched up to this many characters long

LSTM_SIGNALS = ["i", "f", "g", "o", "c", "h"]
GRU_SIGNALS = ["r", "z", "n", "h"]


RNN_SIGNALS = ["a", "h"]  # a plain RNN: the pre-activation, then h


def signal_names(m):
    return {"lstm": LSTM_SIGNALS, "gru": GRU_SIGNALS, "rnn": RNN_SIGNALS}[m.arch]


_values = {}


def values(m, toks, layer):
    """[N, S, H]: every signal of the layer after each step, from the zero state."""
    key = (id(m), tuple(toks), layer)
    if key not in _values:  # m kept with its values, so that no other model takes its id
        _values[key] = (m, run_values(m, toks, layer))
    return _values[key][1]


def run_values(m, toks, layer):
    h, c = zeros(m, 1)
    H = m.H
    out = np.zeros((len(toks), len(signal_names(m)), H))
    for t, tok in enumerate(toks):
        g = step(m, [tok], h, c, layer)[layer][0]
        for b in range(m.G):
            out[t, b] = g[b * H:(b + 1) * H]
        if m.arch == "lstm":
            out[t, 4] = c[layer][0]
        out[t, -1] = h[layer][0]
    return out


def mask(text, regex):
    """m_t for each character of text (a str of the steps' characters), POSIX style."""
    rx = re.compile(regex, re.DOTALL)  # \n and \t as gatetui reads them
    n = len(text)
    m = np.zeros(n, dtype=np.int64)
    pos = 0
    matches = 0
    while pos <= n:
        mt = rx.search(text, pos)
        if not mt:
            break
        so = mt.start()
        eo = so
        for end in range(min(n, so + LONGEST), so - 1, -1):
            if rx.fullmatch(text, so, end):
                eo = end
                break
        if eo == so:
            pos = so + 1
            continue
        m[so:eo] = 1
        matches += 1
        pos = eo
    return m, matches


def step_mask(m, toks, regex):
    """m_t for each step: 1 when any character of its token lies inside a match of the
    steps' text joined (a word model's words by single spaces, <eos> a newline)."""
    text, spans = m.joined(toks)
    mk, matches = mask(text, regex)
    return np.array([int(mk[a:b].any()) for a, b in spans], dtype=np.int64), matches


def pearson(x, m):
    if np.all(x == x[0]) or np.all(m == m[0]):
        return None
    xc = x - x.mean()
    mc = m - m.mean()
    return float(np.dot(xc, mc) / math.sqrt(np.dot(xc, xc) * np.dot(mc, mc)))


def units(m, toks, layer, regex, only):
    mk, _ = step_mask(m, toks, regex)
    inside = int(mk.sum())
    if inside == 0 or inside == len(toks):
        raise SystemExit("units_ref: %r matches nothing or everything" % regex)
    vals = values(m, toks, layer)
    sigs = {}
    for s, name in enumerate(signal_names(m)):
        if only is not None and name != only:
            continue
        rows = []
        for j in range(m.H):
            x = vals[:, s, j]
            r = pearson(x, mk.astype(np.float64))
            rows.append({"unit": j, "r": r, "mean_inside": float(x[mk == 1].mean()),
                         "mean_outside": float(x[mk == 0].mean())})
        rows.sort(key=lambda u: (u["r"] is None, -abs(u["r"] or 0), u["unit"]))
        sigs[name] = rows
    return {"regex": regex, "layer": layer, "steps": len(toks), "inside": inside,
            "signals": sigs}


def runs(on):
    """The maximal runs of True in on, as (from, to)."""
    out = []
    start = None
    for t, v in enumerate(on):
        if v and start is None:
            start = t
        elif not v and start is not None:
            out.append((start, t - 1))
            start = None
    if start is not None:
        out.append((start, len(on) - 1))
    return out


def select(m, toks, layer, a, b, name, theta):
    vals = values(m, toks, layer)[:, signal_names(m).index(name), :]
    n = len(toks)

    def chosen(th):
        """The units selected with threshold th."""
        on = vals >= th
        ok = np.all(on[a:b + 1], axis=0)
        if a > 0:
            ok &= ~on[a - 1]
        if b + 1 < n:
            ok &= ~on[b + 1]
        return ok

    # a unit's choice must not change when every value moves by MARGIN either way
    lo = vals.copy()
    lo[a:b + 1] -= MARGIN
    for t in (a - 1, b + 1):
        if 0 <= t < n:
            lo[t] += MARGIN
    hi = vals.copy()
    hi[a:b + 1] += MARGIN
    for t in (a - 1, b + 1):
        if 0 <= t < n:
            hi[t] -= MARGIN
    strict = np.all(lo[a:b + 1] >= theta, axis=0)
    loose = np.all(hi[a:b + 1] >= theta, axis=0)
    for t in (a - 1, b + 1):
        if 0 <= t < n:
            strict &= lo[t] < theta
            loose &= hi[t] < theta
    if not np.array_equal(strict, loose) or not np.array_equal(strict, chosen(theta)):
        raise SystemExit("units_ref: a unit's choice hangs on a value within %g of the threshold"
                         % MARGIN)
    sel = [j for j in range(m.H) if strict[j]]
    mins = {j: float(vals[a:b + 1, j].min()) for j in sel}
    sel.sort(key=lambda j: (-mins[j], j))
    for x, y in zip(sel, sel[1:]):
        if mins[x] - mins[y] < MARGIN:
            raise SystemExit("units_ref: two selected units' minimums within %g" % MARGIN)
    matches = []
    if sel:
        on = np.all(vals[:, sel] >= theta, axis=1)
        if not (np.array_equal(on, np.all(vals[:, sel] >= theta + MARGIN, axis=1)) and
                np.array_equal(on, np.all(vals[:, sel] >= theta - MARGIN, axis=1))):
            raise SystemExit("units_ref: a match hangs on a value within %g of the threshold"
                             % MARGIN)
        matches = runs(on)
    return {"span": [a, b], "signal": name, "threshold": theta, "units": sel,
            "matches": [{"from": f, "to": t} for f, t in matches]}


def cut(w, n):
    """The UTF-8 bytes w cut to at most n at a character's start."""
    if len(w) <= n:
        return w
    while n > 0 and (w[n] & 0xC0) == 0x80:
        n -= 1
    return w[:n]


def word_context(m, toks, s, T):
    """A word model's context: the whole tokens within 40 bytes before step s (joined as the
    text joins them), its own token (cut to 60 bytes), the tokens within 20 bytes after."""
    size = lambda t: len(m.token_text(t).encode("utf-8"))
    a, used = s, 0
    while a > 0:
        n = size(toks[a - 1]) + m.gap(toks[a - 1], toks[a])
        if used + n > 40:
            break
        used, a = used + n, a - 1
    out, at, length = b"", 0, 0
    for t in range(a, min(T, s + 6)):
        g = m.gap(toks[t - 1], toks[t]) if t > a else 0
        if t > s and len(out) + g + size(toks[t]) > at + length + 20:
            break
        w = cut(m.token_text(toks[t]).encode("utf-8"), 60 if t == s else 40)
        if t == s:
            at, length = len(out) + g, len(w)
        out += b" " * g + w
    return out.decode("utf-8")


def context(m, toks, s, T):
    if m.words:
        return word_context(m, toks, s, T)
    a = max(0, s - 20)
    b = min(T, s + 6)
    return "".join(m.vocab[t] for t in toks[a:b])


def profile(m, toks, all_toks, layer, unit, name):
    x = values(m, toks, layer)[:, signal_names(m).index(name), unit]
    n = len(x)
    k = min(10, n)
    order_hi = sorted(range(n), key=lambda t: (-x[t], t))
    order_lo = sorted(range(n), key=lambda t: (x[t], t))
    for order in (order_hi, order_lo):
        # which steps are in the ten must not hang on a value float32 could put the other side
        if n > k and abs(x[order[k - 1]] - x[order[k]]) < MARGIN:
            raise SystemExit("units_ref: the 10th and 11th values within %g" % MARGIN)
    hits = lambda order: [{"step": t, "value": float(x[t]),
                           "context": context(m, all_toks, t, len(all_toks))}
                          for t in order[:k]]
    by = {}
    for t in range(n):
        by.setdefault(toks[t], []).append(x[t])
    if m.words:  # the 20 most frequent tokens, by mean (ties: the lower token)
        kept = sorted(by, key=lambda t: (-len(by[t]), t))[:20]
        toks_kept = sorted(kept, key=lambda t: (-float(np.mean(by[t])), t))
        words = [{"token": m.vocab[t], "mean": float(np.mean(by[t])), "count": len(by[t])}
                 for t in toks_kept]
        return {"unit": unit, "signal": name, "top": hits(order_hi), "bottom": hits(order_lo),
                "by_token": words}
    chars = [{"char": m.vocab[tok], "mean": float(np.mean(v)), "count": len(v)}
             for tok, v in by.items()]
    chars.sort(key=lambda c: (-c["mean"], ord(c["char"])))
    return {"unit": unit, "signal": name, "top": hits(order_hi), "bottom": hits(order_lo),
            "by_char": chars}


def compute(m, all_toks, argv):
    """The JSON object for one command line (without MODEL and TEXT)."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("mode", choices=["units", "select", "profile"])
    ap.add_argument("arg", nargs="?")
    ap.add_argument("--layer", type=int, default=0)
    ap.add_argument("--steps", type=int, default=100000)
    ap.add_argument("--signal")
    ap.add_argument("--threshold", type=float, default=0.3)
    ap.add_argument("--unit", type=int)
    a = ap.parse_args(argv)
    toks = all_toks[:a.steps]
    if a.mode == "units":
        return units(m, toks, a.layer, a.arg, a.signal)
    if a.mode == "select":
        lo, hi = (int(v) for v in a.arg.split(":"))
        return select(m, toks, a.layer, lo, hi, a.signal or "h", a.threshold)
    return profile(m, toks, all_toks, a.layer, a.unit, a.signal or "h")


def main():
    if len(sys.argv) < 4:
        raise SystemExit(__doc__)
    m = Model(sys.argv[2])
    out = compute(m, m.tokens(sys.argv[3]), [sys.argv[1]] + sys.argv[4:])
    json.dump(out, sys.stdout, indent=1, ensure_ascii=False)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
