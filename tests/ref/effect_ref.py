#!/usr/bin/env python3
"""An independent float64 reference for `gatetui --effect` and `gatetui --carriers` with
`--json` (doc/measures.md, "The effect" and "The carriers"), in numpy from the definitions,
on report_ref.py's reader and step and units_ref.py's mask.

  effect_ref.py effect MODEL TEXT --what DESCRIPTION (--ablate L:UNITS | --forget-bias D[@L]
                | --carousel[@L]) --effect REGEX [--effect REGEX ...] [--controls R]
                [--seed S] [--windows N] [--window-len L]
  effect_ref.py carriers MODEL TEXT --edit S:C [--layer N] [--horizon K] [--ablate L:UNITS]
                [--what DESCRIPTION]
  effect_ref.py fixtures [NAME ...]  makes tests/fixtures/effect/ (every line of its
                                     MANIFEST, or those named)

Each prints gatetui's JSON object. DESCRIPTION is the interventions as gatetui names them
("ablated 0:3,17").

The effect: the report's windows (consecutive windows of L from the start, the first N, a
last window of one step dropped), each from the zero state; at each position t = 0..len-2
the loss -ln p(x_(t+1)) in float64 from the readout, and whether x_(t+1) is the most
probable character, without and with the intervention (an ablation: the units' c and h set
to 0 after their layer's cell; a forget bias: b_hh's carry rows shifted; the carousel:
f = 1). Inside: x_(t+1) lies inside a match (POSIX leftmost-longest, over the whole
sequence). Per class the means in bits, delta = mean(l1 - l0), its jackknife over the
windows holding the class (each left out in turn, the class's delta recomputed as a ratio
of sums; SE = sqrt((n-1)/n sum (d_-w - mean)^2), delta +- 1.96 SE); the specificity and its
jackknife over the windows holding either class. Controls (an ablation of one layer alone):
R sets of the same size from the layer's other units, each a partial Fisher-Yates shuffle of
their ascending list afresh driven by one splitmix64 generator seeded with S; rank, p.

Each item (the text, the tested set, each control) runs all windows of one length as one
batch. The accuracy at a position is a decision: where the next character's logit lies
within AMBIGUOUS of the largest other one (float32 products could decide it the other
way), the position is counted and the class's accuracies carry a "condition" beside them
(tests/lib/reportcmp's) that lets each such position go either way; a control whose
specificity lies within 1e-6 bits of the tested set's, which could change the rank, stops
the script (a fixture must be chosen where the rank is clear).

The carriers: the text run from the zero state to step s - 1, then step s as it is (clean)
and edited; for each unit j of the layer the clean run with j's state after s (c_j and
h_j, a GRU's or an RNN's h_j) taken from the edited run (alone), and the edited run with it
put back to the clean run's (removed); all run on over the text's steps s+1..s+K
(K = min(horizon, len - 1 - s)) as one batch; KL(p_clean || p) of the readout's
distributions at t = s..s+K summed. Two units whose A_j lie within ORDER_MARGIN of each
other, relative, which float32 products could swap, stop the script. Needs only numpy.
"""
import argparse
import copy
import json
import math
import os
import shlex
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, HERE)
import report_ref as rr  # noqa: E402
from units_ref import step_mask  # noqa: E402

AMBIGUOUS = 1e-5  # logits: float32 products are within about 1e-6 of float64 ones
RANK_MARGIN = 1e-6
ORDER_MARGIN = 2e-6  # relative: gatetui's A_j are within 2e-7 of float64's (measured)
LN2 = math.log(2.0)
M64 = (1 << 64) - 1


# ---------------------------------------------------------------------------------------
# The interventions.

def parse_units(s):
    out = []
    for part in s.split(","):
        a, _, b = part.partition("-")
        out.extend(range(int(a), int(b or a) + 1))
    return sorted(set(out))


class Change:
    """What the intervention does to a model: ablate {layer: units}, a forget bias per layer,
    carousel layers."""

    def __init__(self, ablate=None, forget=None, carousel=None):
        self.ablate, self.forget, self.carousel = {}, [], []
        if ablate:
            for a in ablate:
                k, _, u = a.partition(":")
                self.ablate.setdefault(int(k), [])
                self.ablate[int(k)] = sorted(set(self.ablate[int(k)]) | set(parse_units(u)))
        for f in forget or []:
            d, _, k = f.partition("@")
            self.forget.append((float(d), None if k == "" else int(k)))
        for c in carousel or []:
            self.carousel.append(None if c in ("", None) else int(c))

    def ablation_alone(self):
        return len(self.ablate) == 1 and not self.forget and not self.carousel

    def layers(self, m):
        touched = set(self.ablate)
        for _, k in self.forget:
            touched |= set(range(m.L)) if k is None else {k}
        for k in self.carousel:
            touched |= set(range(m.L)) if k is None else {k}
        return touched

    def model(self, m):
        """m with the forget bias shifted (a copy when it is)."""
        if not self.forget:
            return m
        m2 = copy.copy(m)
        m2.layers = [tuple(np.array(a) for a in ly) for ly in m.layers]
        for d, k in self.forget:
            for q in range(m.L) if k is None else [k]:
                m2.layers[q][3][m.H:2 * m.H] += d
        return m2

    def carousel_layers(self, m):
        out = set()
        for k in self.carousel:
            out |= set(range(m.L)) if k is None else {k}
        return tuple(sorted(out))


# ---------------------------------------------------------------------------------------
# The effect.

def splitmix64(state):
    state = (state + 0x9E3779B97F4A7C15) & M64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
    return state, z ^ (z >> 31)


def draw(others, n, R, seed):
    state, sets = seed & M64, []
    for _ in range(R):
        a = list(others)
        for i in range(n):
            state, z = splitmix64(state)
            j = i + z % (len(a) - i)
            a[i], a[j] = a[j], a[i]
        sets.append(sorted(a[:n]))
    return sets


def windows(toks, N, L):
    T = len(toks)
    nwin = min(N, (T + L - 1) // L)
    wins = [(w * L, toks[w * L:min((w + 1) * L, T)]) for w in range(nwin)]
    if len(wins[-1][1]) < 2:
        wins.pop()
    return wins


def run_item(m, wins, ablate=None, carousel=()):
    """Per window: [len-1] losses in nats, whether the next token is the most probable, and
    whether the decision is ambiguous."""
    out = {}
    for n in sorted(set(len(w) for _, w in wins)):
        group = [(s, w) for s, w in wins if len(w) == n]
        toks = np.array([w for _, w in group])
        h, c = rr.zeros(m, len(group))
        loss = np.zeros((len(group), n - 1))
        right = np.zeros((len(group), n - 1), dtype=bool)
        amb = np.zeros((len(group), n - 1), dtype=bool)
        rows = np.arange(len(group))
        for p in range(n - 1):
            rr.step(m, toks[:, p], h, c, m.L - 1, ablate, carousel)
            logit = h[m.L - 1] @ m.out_w.T + m.out_b
            mx = logit.max(axis=1)
            lse = mx + np.log(np.exp(logit - mx[:, None]).sum(axis=1))
            nxt = toks[:, p + 1]
            loss[:, p] = lse - logit[rows, nxt]
            mine = logit[rows, nxt].copy()
            other = logit.copy()
            other[rows, nxt] = -np.inf
            best = other.max(axis=1)
            # the most probable, the first of equal ones: next wins ties only from below
            first = np.array([int(np.argmax(logit[i])) for i in rows])
            right[:, p] = first == nxt
            amb[:, p] = np.abs(mine - best) <= AMBIGUOUS
        for i, (s, _) in enumerate(group):
            out[s] = (loss[i], right[i], amb[i])
    return [out[s] for s, _ in wins]


def jack(a, na, b=None, nb=None):
    """1.96 SE of sum(a)/sum(na) (- sum(b)/sum(nb)) by the jackknife over the windows
    holding a position of either; None where it does not exist."""
    A, NA = sum(a), sum(na)
    B, NB = (sum(b), sum(nb)) if b is not None else (0.0, 0)
    th = []
    for w in range(len(a)):
        if na[w] == 0 and (b is None or nb[w] == 0):
            continue
        if NA == na[w] or (b is not None and NB == nb[w]):
            return None
        t = (A - a[w]) / (NA - na[w])
        if b is not None:
            t -= (B - b[w]) / (NB - nb[w])
        th.append(t)
    k = len(th)
    if k < 2:
        return None
    th = np.array(th)
    return 1.96 * math.sqrt((k - 1) / k * float(np.sum((th - th.mean()) ** 2)))


def num(v):
    return None if v is None or not math.isfinite(v) else float(v)


def class_entry(c0, c1, cls_mask):
    """c0, c1: per window (loss, right, amb) of the text and of the item; cls_mask: per
    window the positions of the class."""
    n = [int(np.sum(k)) for k in cls_mask]
    N = sum(n)
    L0 = sum(float(np.sum(x[0][k])) for x, k in zip(c0, cls_mask))
    L1 = sum(float(np.sum(x[0][k])) for x, k in zip(c1, cls_mask))
    d = [float(np.sum(y[0][k]) - np.sum(x[0][k])) for x, y, k in zip(c0, c1, cls_mask)]
    if N == 0:
        return {"count": 0, "loss_without": None, "loss_with": None, "delta": None,
                "delta_ci": [None, None], "accuracy_without": None, "accuracy_with": None}, d, n
    A0 = sum(int(np.sum(x[1][k])) for x, k in zip(c0, cls_mask))
    A1 = sum(int(np.sum(x[1][k])) for x, k in zip(c1, cls_mask))
    delta = (L1 - L0) / N / LN2
    hw = jack(d, n)
    e = {"count": N, "loss_without": L0 / N / LN2, "loss_with": L1 / N / LN2, "delta": delta,
         "delta_ci": [None, None] if hw is None else [delta - hw / LN2, delta + hw / LN2],
         "accuracy_without": A0 / N, "accuracy_with": A1 / N}
    amb0 = sum(int(np.sum(x[2][k])) for x, k in zip(c0, cls_mask))
    amb1 = sum(int(np.sum(x[2][k])) for x, k in zip(c1, cls_mask))
    if amb0 or amb1:  # reportcmp's bound RTOL * max(1, |w|, k): each may go either way
        e["condition"] = {"accuracy_without": amb0 / N / 1e-5, "accuracy_with": amb1 / N / 1e-5}
    return e, d, n


def delta_of(c0, c1, cls_mask):
    N = sum(int(np.sum(k)) for k in cls_mask)
    if N == 0:
        return None
    return sum(float(np.sum(y[0][k]) - np.sum(x[0][k])) for x, y, k in zip(c0, c1, cls_mask)) / N / LN2


def one_regex(regex, m, toks, wins, base, tested, controls, sets):
    mk, _ = step_mask(m, toks, regex)
    inside = [mk[s + 1:s + len(w)].astype(bool) for s, w in wins]
    outside = [~k for k in inside]
    ein, din, nin = class_entry(base, tested, inside)
    eout, dout, nout = class_entry(base, tested, outside)
    spec = None if ein["delta"] is None or eout["delta"] is None else ein["delta"] - eout["delta"]
    hw = jack(din, nin, dout, nout) if spec is not None else None
    out = {"regex": regex, "inside": ein, "outside": eout, "specificity": spec,
           "specificity_ci": [None, None] if hw is None else [spec - hw / LN2, spec + hw / LN2],
           "controls": [], "rank": None, "p": None}
    rank = 0
    for units, ctl in zip(sets, controls):
        di, do = delta_of(base, ctl, inside), delta_of(base, ctl, outside)
        sp = None if di is None or do is None else di - do
        out["controls"].append({"units": units, "inside": di, "outside": do, "specificity": sp})
        if sp is not None and spec is not None:
            if abs(sp - spec) <= RANK_MARGIN:
                raise SystemExit("%s: a control's specificity %.9g is within %g of the tested "
                                 "set's %.9g" % (regex, sp, RANK_MARGIN, spec))
            rank += sp >= spec
    if sets and spec is not None:
        out["rank"] = rank
        out["p"] = (1 + rank) / (1 + len(sets))
    return out


def effect(m, toks, change, regexes, what, R=20, seed=1, N=32, L=128):
    wins = windows(toks, N, L)
    base = run_item(m, [(s, w) for s, w in wins])
    layers = change.layers(m)
    layer = next(iter(layers)) if len(layers) == 1 else None
    sets, controls = [], []
    if change.ablation_alone():
        units = change.ablate[layer]
        tested = run_item(m, wins, ablate={layer: units})
        if R:
            others = [j for j in range(m.H) if j not in units]
            sets = draw(others, len(units), R, seed)
            controls = [run_item(m, wins, ablate={layer: s}) for s in sets]
    else:
        tested = run_item(change.model(m), wins, ablate=change.ablate or None,
                          carousel=change.carousel_layers(m))
    return {"intervention": what, "layer": layer, "windows": len(wins),
            "effects": [one_regex(r, m, toks, wins, base, tested, controls, sets)
                        for r in regexes]}


# ---------------------------------------------------------------------------------------
# The carriers.

def log_softmax(logit):
    mx = logit.max(axis=1, keepdims=True)
    return logit - (mx + np.log(np.exp(logit - mx).sum(axis=1, keepdims=True)))


def g_of(x):
    """e^-x - 1 + x, its series to x^10 for |x| < 0.1 (no cancellation of the first order)."""
    s = np.full_like(x, 1 / math.factorial(10))
    for k in range(9, 1, -1):
        s = s * x + (-1) ** k / math.factorial(k)
    return np.where(np.abs(x) < 0.1, s * x * x, np.expm1(-x) + x)


def h_of(u):
    """u - ln(1 + u), its series to u^10 for |u| < 0.01."""
    s = np.full_like(u, 0.1)
    for k in range(9, 1, -1):
        s = s * u + (-1) ** k / k
    return np.where(np.abs(u) < 0.01, s * u * u, u - np.log1p(np.maximum(u, -0.5)))


def kl_rows(logit):
    """KL(p_0 || p_i) for each row i of the logits (row 0 the reference), in float64,
    keeping the digits of a small one: with d = l_0 - l_i less its mean under p_0 (KL does
    not change by a constant), KL = G - h(G - m), G = sum p_0 g(d), m = sum p_0 d (exact
    algebra of sum p_0 d + ln sum p_0 e^-d); a large one (G - m > 0.01 or |d| > 30) as
    sum p_0 (log p_0 - log p_i)."""
    lp = log_softmax(logit)
    p0 = np.exp(lp[0])
    plain = (p0[None, :] * (lp[0][None, :] - lp)).sum(axis=1)
    d = logit[0][None, :] - logit
    d = d - (p0[None, :] * d).sum(axis=1, keepdims=True)
    big = np.abs(d).max(axis=1) > 30
    G = (p0[None, :] * g_of(np.where(np.abs(d) > 30, 0.0, d))).sum(axis=1)
    m = (p0[None, :] * d).sum(axis=1)
    small = G - h_of(G - m)
    return np.where(big | (G - m > 0.01), plain, small)


def carriers(m, toks, s, to, layer, horizon, what="", ablate=None):
    H = m.H
    K = min(horizon, len(toks) - 1 - s)
    h, c = rr.zeros(m, 1)
    for t in range(s):
        rr.step(m, [toks[t]], h, c, m.L - 1, ablate)
    he, ce = [x.copy() for x in h], [x.copy() for x in c]
    rr.step(m, [toks[s]], h, c, m.L - 1, ablate)
    rr.step(m, [to], he, ce, m.L - 1, ablate)
    # items: clean, edited, alone_j (j = 0..H-1), removed_j
    B = 2 + 2 * H
    hb = [np.concatenate([h[k], he[k], np.repeat(h[k], H, 0), np.repeat(he[k], H, 0)]) for k in range(m.L)]
    cb = [np.concatenate([c[k], ce[k], np.repeat(c[k], H, 0), np.repeat(ce[k], H, 0)]) for k in range(m.L)]
    j = np.arange(H)
    hb[layer][2 + j, j] = he[layer][0, j]
    hb[layer][2 + H + j, j] = h[layer][0, j]
    if m.arch == "lstm":
        cb[layer][2 + j, j] = ce[layer][0, j]
        cb[layer][2 + H + j, j] = c[layer][0, j]
    kl = np.zeros(B)
    for t in range(s, s + K + 1):
        if t > s:
            rr.step(m, [toks[t]] * B, hb, cb, m.L - 1, ablate)
        kl += kl_rows(hb[m.L - 1] @ m.out_w.T + m.out_b)
    E = float(kl[1])
    units = [{"unit": int(u), "alone": float(kl[2 + u]),
              "alone_share": float(kl[2 + u] / E) if E > 0 else None,
              "removed": float(1 - kl[2 + H + u] / E) if E > 0 else None} for u in range(H)]
    units.sort(key=lambda x: (-x["alone"], x["unit"]))
    for a, b in zip(units, units[1:]):  # an order that float32 differences cannot swap
        if a["alone"] - b["alone"] <= ORDER_MARGIN * a["alone"] and a["alone"] != b["alone"]:
            raise SystemExit("carriers: units %d and %d too close to order (%.9g, %.9g)"
                             % (a["unit"], b["unit"], a["alone"], b["alone"]))
    out = {"edit": {"step": s, "from": m.vocab[toks[s]], "to": m.vocab[to]}, "layer": layer,
           "horizon": K, "effect": E, "units": units}
    if what:
        out["interventions"] = what
    return out


# ---------------------------------------------------------------------------------------

def effect_parser():
    """The options of both modes (and the reference's --what)."""
    ap = argparse.ArgumentParser()
    ap.add_argument("model")
    ap.add_argument("text")
    ap.add_argument("--what", default="")
    ap.add_argument("--effect", action="append", default=[])
    ap.add_argument("--ablate", action="append")
    ap.add_argument("--forget-bias", action="append")
    ap.add_argument("--carousel", action="append", nargs="?", const="")
    ap.add_argument("--controls", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--windows", type=int, default=32)
    ap.add_argument("--window-len", type=int, default=128)
    ap.add_argument("--edit")
    ap.add_argument("--layer", type=int, default=0)
    ap.add_argument("--horizon", type=int, default=64)
    return ap


def effect_args(argv):
    return effect_parser().parse_args(argv)


def compute(mode, argv):
    # --carousel@L is one word, as gatetui takes it
    argv = sum(([x[:10], x[11:]] if x.startswith("--carousel@") else [x] for x in argv), [])
    a = effect_args(argv)
    m = rr.Model(a.model)
    toks = m.tokens(a.text)
    if mode == "effect":
        ch = Change(a.ablate, a.forget_bias, a.carousel)
        return effect(m, toks, ch, a.effect, a.what, a.controls, a.seed, a.windows,
                      a.window_len)
    s, _, cc = a.edit.partition(":")
    ab = Change(a.ablate).ablate or None
    return carriers(m, toks, int(s), m.vocab.index(cc), a.layer, a.horizon, a.what, ab)


def selftest():
    """The worked examples of doc/measures.md, "The effect", and the divergence against 60
    digits."""
    hw = jack([0.4, 0.1, 0.0], [4, 2, 0])
    assert abs(hw - 0.049) < 1e-15 and abs(0.5 / 6 / LN2 - 0.120225) < 5e-7 and \
        abs(hw / LN2 - 0.070692) < 5e-7, hw
    assert draw([j for j in range(256) if j != 209], 1, 5, 1) == [[95], [34], [0], [80], [156]]
    from decimal import Decimal, getcontext
    getcontext().prec = 60
    rng = np.random.default_rng(1)
    for scale in [1e-9, 1e-5, 1e-2, 0.3, 5.0]:
        l0 = rng.normal(size=20)
        l1 = l0 + scale * rng.normal(size=20)
        got = kl_rows(np.stack([l0, l1]))[1]
        a, b = [Decimal(x) for x in l0], [Decimal(x) for x in l1]
        za, zb = sum(x.exp() for x in a), sum(x.exp() for x in b)
        want = float(sum(x.exp() / za * ((x - za.ln()) - (y - zb.ln())) for x, y in zip(a, b)))
        assert abs(got - want) <= 1e-13 * want, (scale, got, want)


def fixtures():
    """Every line of tests/fixtures/effect/MANIFEST, shell words: NAME MODE WHERE WHAT MODEL
    TEXT OPTIONS..., WHERE "fixture" (tests/fixtures/report/) or "sample" (samples/), WHAT
    the interventions as gatetui names them, OPTIONS gatetui's."""
    selftest()
    out = os.path.join(TOP, "tests", "fixtures", "effect")
    with open(os.path.join(out, "MANIFEST")) as f:
        lines = [shlex.split(l) for l in f if l.strip() and not l.startswith("#")]
    only = sys.argv[2:]
    for name, mode, where, what, model, text, *opts in lines:
        if only and name not in only:
            continue
        base = os.path.join(TOP, "tests", "fixtures", "report") if where == "fixture" else \
            os.path.join(TOP, "samples")
        obj = compute(mode, [os.path.join(base, model), os.path.join(base, text), "--what",
                             what] + opts)
        with open(os.path.join(out, name + ".json"), "w") as f:
            json.dump(obj, f, indent=1)
            f.write("\n")
        print(name, file=sys.stderr)


def main():
    if sys.argv[1:2] == ["fixtures"]:
        return fixtures()
    if len(sys.argv) < 4 or sys.argv[1] not in ("effect", "carriers"):
        raise SystemExit(__doc__)
    json.dump(compute(sys.argv[1], sys.argv[2:]), sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
