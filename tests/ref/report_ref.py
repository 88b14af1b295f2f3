#!/usr/bin/env python3
"""An independent float64 reference for `gatetui --report --json` (doc/measures.md, "The report") and for
the perturbation curves of doc/measures.md, in numpy from the equations there.

  report_ref.py report MODEL TEXT [--layer N] [--windows N] [--window-len L]
                [--horizon K] [--vocab-from FILE] [--gru-reset before|after]
                [--nonlinearity tanh|relu]
      prints the report's JSON object; each row of its unit table has one key more than
      gatetui's, "condition": {"halflife_measured": k, "halflife_measured_ci": k'}, the
      half-life's condition number (halflife_condition) and its interval's (from those of
      the leave-one-out half-lives, interval_condition) that tests/lib/reportcmp bounds them by,
      and perturbation.ci likewise; a row where a leave-one-out half-life has a lag whose
      ratio lies within its error of 0.5, so that the half-life may jump or be past the
      horizon or not, one more, "either": {"halflife_measured_ci": [the intervals with that
      lag on the other side, ...]}.

  report_ref.py perturb MODEL TEXT --edit S=T[,S2=T2...] [--edit ...] [--layer N]
                [--horizon K] [--vocab-from FILE] [--gru-reset before|after]
      prints, for each edit (token T at step S, and so on; steps count the in-vocabulary
      characters from 0, the first S is the edited step s), the unnormalised curves
      D_c, D_h, F and the linearized L for k = 0..K from the state before s (the text run
      from the start), their half-lives, D0 per unit and how long each unit's difference
      lasts.

The linearized curve is taken by central differences (a plain RNN's exactly, see
rnn_tangents): the original state after s moved
by +-eps times the edit's difference there (every layer up to the one compared, c and h),
both run on with the original tokens; |(c(+) - c(-)) / (2 eps)| (h for a GRU or an RNN).

A plain RNN (one block: h = tanh(a) or relu(a)) has no gates: its report has no gate
tables, units or by_char (null), the saturation of h instead (the fractions of h below
-0.9 and above 0.9 for tanh, at 0 for relu), and no forget-only curve (null).

Everything is float64: the windows run together as one batch, and the replacements of a
window together with the original text as another.  Needs only numpy.
"""
import argparse
import io
import json
import math
import os
import struct
import sys

import numpy as np

# ---------------------------------------------------------------------------------------
# The model file.

DTYPES = {"F32": "<f4", "F16": "<f2", "F64": "<f8"}


def read_safetensors(path):
    with open(path, "rb") as f:
        data = f.read()
    (n,) = struct.unpack("<Q", data[:8])
    header = json.loads(data[8:8 + n].decode("utf-8"))
    body = data[8 + n:]
    meta = header.pop("__metadata__", {}) or {}
    out = {}
    for name, t in header.items():
        b, e = t["data_offsets"]
        raw = body[b:e]
        if t["dtype"] == "BF16":
            arr = (np.frombuffer(raw, dtype="<u2").astype(np.uint32) << 16).view("<f4")
        else:
            arr = np.frombuffer(raw, dtype=DTYPES[t["dtype"]])
        out[name] = arr.astype(np.float64).reshape(t["shape"])
    return out, meta


def layer_names(t, path):
    """The layers' tensor names (ih, hh, bias ih, bias hh): nn.LSTM / nn.GRU / nn.RNN's
    <prefix>weight_ih_l<k>, or stacked cells' <prefix><k>.weight_ih in the order of k; and
    the prefix every recurrent tensor starts with."""
    ih0 = [k for k in t if k.endswith("weight_ih_l0")]
    if len(ih0) == 1:
        p = ih0[0][:-len("weight_ih_l0")]
        names = []
        while p + "weight_ih_l%d" % len(names) in t:
            k = len(names)
            names.append(tuple(p + s % k for s in ("weight_ih_l%d", "weight_hh_l%d",
                                                   "bias_ih_l%d", "bias_hh_l%d")))
        return names, p
    cells = sorted((int(k[:-len(".weight_ih")].rsplit(".", 1)[1]), k[:-len("weight_ih")])
                   for k in t if k.endswith(".weight_ih"))
    if not cells or [n for n, _ in cells] != list(range(len(cells))):
        raise SystemExit("%s: expected one weight_ih_l0 or cells <prefix><k>.weight_ih" % path)
    names = [tuple(q + s for s in ("weight_ih", "weight_hh", "bias_ih", "bias_hh"))
             for _, q in cells]
    return names, cells[0][1][:-len("0.")]


def read_torch(path):
    """A torch.save file (a whole module, or a state_dict) as {name: float64 array}: for
    the word sample, samples/kjv-words.pt (its class in samples/word_model.py). Needs torch
    (Debian's python3-torch)."""
    import torch
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                    "samples"))
    obj = torch.load(path, map_location="cpu")
    sd = obj.state_dict() if hasattr(obj, "state_dict") else obj
    # the parameters as PyTorch counts them (a tied decoder once)
    params = sum(p.numel() for p in obj.parameters()) if hasattr(obj, "parameters") else None
    return {k: v.detach().double().numpy() for k, v in sd.items()}, {"params": params}


def beside_vocab(path):
    """A word model's vocabulary file beside the model, as gatetui finds it: MODEL.vocab.txt
    (without the model's extension, or with it) or vocab.txt in its folder; None when none
    is there."""
    stem = os.path.splitext(path)[0]
    for c in (stem + ".vocab.txt", path + ".vocab.txt",
              os.path.join(os.path.dirname(path), "vocab.txt")):
        if os.path.isfile(c):
            return c
    return None


def data_py_lines(data):
    """The lines of a text as data.py reads them: Python's text file, universal newlines."""
    return list(io.StringIO(data.decode("utf-8"), newline=None))


def token_class(words, w, eos):
    """The report's class of a token w (by_char: "space", "newline", "other"; a word
    model's by_token: "punctuation", "eos", "other"; doc/measures.md)."""
    if not words:
        return "space" if w == " " else "newline" if w == "\n" else "other"
    if eos:
        return "eos"
    punct = w != "" and all(
        (0x20 < ord(ch) < 0x7F and not ch.isalnum()) or 0x2010 <= ord(ch) <= 0x205E
        or ord(ch) in (0xA1, 0xA7, 0xAB, 0xB6, 0xB7, 0xBB, 0xBF) for ch in w)
    return "punctuation" if punct else "other"


def most_frequent(toks, count):
    """The count + 1 most frequent tokens of toks (ties: the lower token first)."""
    freq = {}
    for t in toks:
        freq[t] = freq.get(t, 0) + 1
    return sorted(freq, key=lambda t: (-freq[t], t))[:count + 1]


class Model:
    def __init__(self, path, vocab_from=None, gru_reset=None, nonlinearity=None, words=None):
        with open(path, "rb") as f:
            zipped = f.read(2) == b"PK"
        t, meta = read_torch(path) if zipped else read_safetensors(path)
        names, p = layer_names(t, path)
        self.L = len(names)
        # each layer's width (stacked cells may differ); H: theirs when they are all alike
        self.Hs = [t[n[1]].shape[1] for n in names]
        self.H = self.Hs[0] if len(set(self.Hs)) == 1 else None
        whh = t[names[0][1]]
        self.G = whh.shape[0] // self.Hs[0]
        self.arch = {4: "lstm", 3: "gru", 1: "rnn"}[self.G]
        self.relu = (nonlinearity or meta.get("nonlinearity", "tanh")) == "relu"
        self.nonlin_assumed = nonlinearity is None and "nonlinearity" not in meta
        self.layers = []
        for k, (ih, hh, bi, bh) in enumerate(names):
            w_ih, w_hh = t[ih], t[hh]
            b_ih = t.get(bi, np.zeros(self.G * self.Hs[k]))
            b_hh = t.get(bh, np.zeros(self.G * self.Hs[k]))
            self.layers.append((w_ih, w_hh, b_ih, b_hh))
        D0 = self.layers[0][0].shape[1]
        rec = {n for layer in names for n in layer}
        emb = [k for k in t if t[k].ndim == 2 and not k.startswith(p + "weight_")
               and k not in rec and ("emb" in k.lower() or k.endswith("encoder.weight")) and t[k].shape[1] == D0]
        self.emb = t[emb[0]] if emb else None
        self.V = self.emb.shape[0] if emb else D0
        out = [k for k in t if t[k].shape == (self.V, self.Hs[-1]) and k not in rec
               and not k.startswith(p + "weight_") and k not in emb]
        self.out_w = t[out[0]] if out else None
        self.out_b = t.get(out[0].rsplit("weight", 1)[0] + "bias" + out[0].rsplit("weight", 1)[1],
                           np.zeros(self.V)) if out else None
        self.params = meta.get("params") or sum(a.size for a in t.values())
        self.before = meta.get("gru_reset") == "before"
        if gru_reset is not None:
            self.before = gru_reset == "before"
        self.words = False
        words = words or (beside_vocab(path) if "vocab" not in meta else None)
        if words is not None:  # a word model (doc/usage.md, "Word models"): one token per line
            with open(words, encoding="utf-8") as f:
                self.vocab = f.read().split("\n")
            if self.vocab and self.vocab[-1] == "":
                self.vocab.pop()
            self.words, self.bytes = True, False
            self.index = {w: i for i, w in enumerate(self.vocab)}
            self.eos, self.unk = self.index.get("<eos>"), self.index.get("<unk>")
        elif vocab_from is not None:
            with open(vocab_from, "rb") as f:
                chars = sorted(set(f.read().decode("utf-8", errors="ignore")))
            self.vocab = chars
            self.bytes = False
        elif "vocab" in meta:
            self.vocab = list(meta["vocab"])
            self.bytes = False
        else:
            self.vocab = [chr(i) for i in range(256)]
            self.bytes = True
        assert len(self.vocab) == self.V, (len(self.vocab), self.V)

    def tokens(self, path):
        with open(path, "rb") as f:
            data = f.read()
        if self.words:  # word_language_model's data.py, <unk> for a word not in it
            out = []
            for line in data_py_lines(data):
                for w in line.split() + (["<eos>"] if self.eos is not None else []):
                    out.append(self.index[w] if w in self.index else self.unk)
            assert None not in out, "a word not in the vocabulary, and no <unk>"
            return out
        if self.bytes:
            return list(data)
        idx = {c: i for i, c in enumerate(self.vocab)}
        text = data.decode("utf-8", errors="surrogateescape")
        return [idx[c] for c in text if c in idx]

    def code_point(self, tok):
        return ord(self.vocab[tok])

    def token_text(self, tok):
        """A token as the joined text shows it: a word model's <eos> a newline."""
        return "\n" if self.words and tok == self.eos else self.vocab[tok]

    def gap(self, a, b):
        """The bytes between two tokens in the joined text: a space between words."""
        return 1 if self.words and a != self.eos and b != self.eos else 0

    def joined(self, toks):
        """The steps' text joined, and each step's [start, end) in it (characters)."""
        parts, spans, pos = [], [], 0
        for i, t in enumerate(toks):
            if i and self.gap(toks[i - 1], t):
                parts.append(" ")
                pos += 1
            w = self.token_text(t)
            parts.append(w)
            spans.append((pos, pos + len(w)))
            pos += len(w)
        return "".join(parts), spans

    def input_class(self, tok):
        """The report's class of an input (by_char, a word model's by_token)."""
        return token_class(self.words, self.vocab[tok], self.words and tok == self.eos)

    def replacements(self, toks, count=64):
        """The report's replacements: every token, or a word model's count + 1 most
        frequent tokens of the text (ties: the lower token first)."""
        return most_frequent(toks, count) if self.words else list(range(self.V))

    def x0(self, toks):
        """Layer 0's input for a batch of tokens: [B, D0]."""
        toks = np.asarray(toks)
        if self.emb is not None:
            return self.emb[toks]
        x = np.zeros((len(toks), self.V))
        x[np.arange(len(toks)), toks] = 1.0
        return x


def sigmoid(x):
    return 1.0 / (1.0 + np.exp(-x))


def step(m, toks, h, c, upto, ablate=None, carousel=()):
    """One step of layers 0..upto for a batch: h, c are lists of [B, H] (updated in place
    as new arrays); returns the gates of each layer, [B, G*H] after the nonlinearity.
    Interventions (intervene_ref.py): ablate {layer: [units]} sets those units' c and h to
    0 after their layer's cell (their candidate, an RNN's a, shown as 0); carousel: layers
    with f = 1.  Layer k is H_k wide (m.Hs)."""
    x = m.x0(toks)
    gates = []
    m.ablated = ablate or {}  # what rnn_tangents holds at 0 too
    for k in range(upto + 1):
        H = m.Hs[k]
        w_ih, w_hh, b_ih, b_hh = m.layers[k]
        gi = x @ w_ih.T + b_ih
        if m.arch == "rnn":
            a = gi + h[k] @ w_hh.T + b_hh
            h[k] = np.maximum(a, 0.0) if m.relu else np.tanh(a)
            gates.append(a)
        elif m.arch == "lstm":
            a = gi + h[k] @ w_hh.T + b_hh
            i, f = sigmoid(a[:, :H]), sigmoid(a[:, H:2 * H])
            if k in carousel:
                f = np.ones_like(f)
            g, o = np.tanh(a[:, 2 * H:3 * H]), sigmoid(a[:, 3 * H:])
            c[k] = f * c[k] + i * g
            h[k] = o * np.tanh(c[k])
            gates.append(np.concatenate([i, f, g, o], axis=1))
        else:
            gh = h[k] @ w_hh[:2 * H].T + b_hh[:2 * H]
            r = sigmoid(gi[:, :H] + gh[:, :H])
            z = sigmoid(gi[:, H:2 * H] + gh[:, H:])
            if m.before:
                n = np.tanh(gi[:, 2 * H:] + (r * h[k]) @ w_hh[2 * H:].T + b_hh[2 * H:])
            else:
                n = np.tanh(gi[:, 2 * H:] + r * (h[k] @ w_hh[2 * H:].T + b_hh[2 * H:]))
            h[k] = (1.0 - z) * n + z * h[k]
            gates.append(np.concatenate([r, z, n], axis=1))
        units = (ablate or {}).get(k, [])
        if units:
            h[k], c[k] = h[k].copy(), c[k].copy()
            h[k][:, units] = 0.0
            c[k][:, units] = 0.0
            # the candidate (an RNN's a) shown as 0, as its weights' rows are
            cand = 0 if m.arch == "rnn" else 2 * H
            gates[k][:, [cand + u for u in units]] = 0.0
        x = h[k]
    return gates


def zeros(m, B):
    return [np.zeros((B, H)) for H in m.Hs], [np.zeros((B, H)) for H in m.Hs]


def halflife(curve):
    """Smallest k with curve[k]/curve[0] <= 0.5, log-linearly interpolated; None if never."""
    if not curve[0] > 0:
        return None
    prev = 1.0
    for k in range(1, len(curve)):
        r = curve[k] / curve[0]
        if r <= 0.5:
            if r <= 0:
                return float(k - 1)
            return k - 1 + math.log(prev / 0.5) / math.log(prev / r)
        prev = r
    return None


def interpolation_condition(S, N, k):
    """The condition number of the interpolation between lags k - 1 and k, hl = k - 1 + a / b,
    a = ln(S[k-1] / S[0]) + ln 2, b = ln(S[k-1] / S[k]): d hl / d ln S[0] = -1/b,
    d / d ln S[k-1] = 1/b - a/b^2, d / d ln S[k] = a/b^2, their sizes times N[q] / S[q]."""
    a = math.log(S[k - 1] / S[0]) + math.log(2)
    b = math.log(S[k - 1] / S[k])
    g = {0: -1 / b}
    g[k - 1] = g.get(k - 1, 0.0) + 1 / b - a / b ** 2
    g[k] = g.get(k, 0.0) + a / b ** 2
    return sum(abs(v) * N[q] / S[q] for q, v in g.items())


def halflife_condition(S, N):
    """The measured half-life of a unit's decay S[0..K] (halflife(S)), and its condition
    number: k with |d hl| <= k * eps when every pair's difference vector D(q) carries an
    error of at most eps * |D(q)| (the float32 difference path's relative error, which
    tests/lib/reportcmp holds the curves to) and so each unit's share of it at most that:
    S[q] then moves by at most eps * N[q], N[q] the sum over the pairs of |D(q)|; the
    interpolation's (interpolation_condition).  (None, 0) when there is no half-life.  A
    lag q whose ratio lies within the error of 0.5 may be the crossing or not: when the
    next ratio is surely below 0.5 the half-life goes on continuously (both interpolations
    give q at a ratio of 0.5) and the larger of their two conditions holds; otherwise the
    half-life could jump (an ambiguous fixture): ValueError."""
    hl = halflife(list(S))
    if not S[0] > 0:
        return hl, 0.0
    for q in ambiguous_lags(S, N):
        if q + 1 < len(S) and S[q + 1] / S[0] < 0.5 - 2 * ratio_error(S, N, q + 1) and S[q + 1] > 0:
            return hl, max(interpolation_condition(S, N, q),
                           interpolation_condition(S, N, q + 1))
        raise ValueError("a unit's decay ratio %.9g at lag %d is within its error "
                         "%.3g of 0.5" % (S[q] / S[0], q, ratio_error(S, N, q)))
    return hl, crossing_condition(S, N, hl)


RATIO_EPS = 1e-6  # the float32 difference path's relative error (halflife_condition)


def ratio_error(S, N, q):
    """The error of the ratio S[q] / S[0] when each S[i] moves by RATIO_EPS N[i]."""
    return RATIO_EPS * (N[q] / S[0] + S[q] * N[0] / S[0] ** 2)


def ambiguous_lags(S, N):
    """The lags up to the first whose ratio is surely at or below 0.5 whose ratio lies within
    twice its error of 0.5: on either side of it as far as the sums can tell."""
    out = []
    for q in range(1, len(S)):
        r, err = S[q] / S[0], ratio_error(S, N, q)
        if abs(r - 0.5) <= 2 * err:
            out.append(q)
        elif r <= 0.5:
            break
    return out


def crossing_condition(S, N, hl):
    """The condition of the half-life hl of S at its crossing (0 without one, or where it is
    a whole lag: a ratio of 0 or below)."""
    if hl is None or hl == math.floor(hl):
        return 0.0
    return interpolation_condition(S, N, int(math.floor(hl)) + 1)


def halflife_sides(S, N):
    """The half-life of S with its condition, and the half-lives (each with its condition)
    it would have with a lag of ambiguous_lags on the other side of 0.5: where such a lag
    makes the half-life jump, or lie within the horizon or past it, either may be the
    output's. A leave-one-out half-life (unit_measured)."""
    hl = halflife(list(S))
    if not S[0] > 0:
        return hl, 0.0, []
    others = []
    for q in ambiguous_lags(S, N):
        T = np.array(S, dtype=float)
        T[q] = S[0] * 0.5 * (1 + 1e-9 if S[q] / S[0] <= 0.5 else 1 - 1e-9)
        t = halflife(list(T))
        others.append((t, crossing_condition(T, N, t)))
    return hl, crossing_condition(S, N, hl), others


def num(v):
    return None if v is None or not math.isfinite(v) else float(v)


# ---------------------------------------------------------------------------------------
# Perturbation: the original tokens and edited versions, from one state, as one batch.


LIN_EPS = 1e-5


def fd_items(m, layer, h, c, E, eps):
    """After the edited step: 2E more items, the original state plus and minus eps times
    each edit's difference, on every layer up to `layer` (the others as the original's)."""
    for q in range(m.L):
        for st in (h, c):
            d = st[q][1:E + 1] - st[q][0] if q <= layer else 0 * st[q][1:E + 1]
            st[q] = np.concatenate([st[q][:E + 1], st[q][0] + eps * d, st[q][0] - eps * d])


def rnn_tangents(m, layer, h, gates, tang, E):
    """A plain RNN's linearized differences after a step, exactly: after the edited step
    (tang None) each edit's difference from the original on layers 0..layer; after a later
    one, dh' = s * (W_hh dh + W_ih dh_below'), s the slope of the nonlinearity at the
    original run's a (relu: 1 where a > 0), layer 0's input fixed."""
    if tang is None:
        return [h[q][1:E + 1] - h[q][0] for q in range(layer + 1)]
    out = []
    for q in range(layer + 1):
        w_ih, w_hh = m.layers[q][0], m.layers[q][1]
        a = gates[q][0]
        slope = (a > 0).astype(np.float64) if m.relu else 1.0 - np.tanh(a) ** 2
        d = tang[q] @ w_hh.T + (out[q - 1] @ w_ih.T if q > 0 else 0.0)
        d = d * slope
        d[:, getattr(m, "ablated", {}).get(q, [])] = 0.0  # an ablated unit's h is held at 0
        out.append(d)
    return out


def perturb(m, layer, h0, c0, orig, edits, K, units=True):
    """orig: tokens s..s+K; edits: list of token lists of the same length.  h0, c0: lists
    of [H] per layer.  Returns per edit (dc, dh, fo, lin, and with units, d0, last,
    last_fo, margin)."""
    E = len(edits)
    B = E + 1
    h = [np.tile(h0[k], (B, 1)) for k in range(m.L)]
    c = [np.tile(c0[k], (B, 1)) for k in range(m.L)]
    seqs = np.array([orig] + list(edits) + [orig] * (2 * E))
    H = m.Hs[layer]
    lstm = m.arch == "lstm"
    carried = []
    dcs, dhs, lins = [], [], []
    tang = None
    zgate = []
    acc = [None] * E   # an edit's forget-only vector once a later step differs
    fo_later = [[] for _ in range(E)]
    for k in range(K + 1):
        prev_h = [x[0:1].copy() for x in h]  # the original's state before the step
        prev_c = [x[0:1].copy() for x in c]
        gates = step(m, seqs[:h[0].shape[0], k], h, c, layer)
        st = c[layer] if lstm else h[layer]
        # where an edited text differs again (k > 0): that step's own difference, the
        # original's state stepped with the edited token less the original's step
        inj = {}
        for e in range(E):
            if k > 0 and seqs[1 + e][k] != seqs[0][k]:
                ih, ic = [x.copy() for x in prev_h], [x.copy() for x in prev_c]
                step(m, [seqs[1 + e][k]], ih, ic, layer)
                inj[e] = ([ih[q][0] - h[q][0] for q in range(layer + 1)],
                          [ic[q][0] - c[q][0] for q in range(layer + 1)])
        carried.append(st[1:E + 1] - st[0])
        dhs.append(np.linalg.norm(h[layer][1:E + 1] - h[layer][0], axis=1))
        if lstm:
            dcs.append(np.linalg.norm(c[layer][1:E + 1] - c[layer][0], axis=1))
        if m.arch != "rnn":  # an RNN has no carry gate
            zgate.append(gates[layer][0, H:2 * H])  # f or z of the original run
            for e in range(E):  # F's vector, once a later step differed: carried, plus it
                if acc[e] is not None:
                    acc[e] = acc[e] * zgate[-1]
                if e in inj:
                    if acc[e] is None:  # the first difference carried so far
                        prod_k = np.ones(H)
                        for z in zgate[1:]:
                            prod_k = prod_k * z
                        acc[e] = carried[0][e] * prod_k
                    acc[e] = acc[e] + (inj[e][1][layer] if lstm else inj[e][0][layer])
                fo_later[e].append(None if acc[e] is None else float(np.linalg.norm(acc[e])))
        if m.arch == "rnn":  # exact tangents: central differences lose the tail
            tang = rnn_tangents(m, layer, h, gates, tang if k else None, E)
            for e, (dh_, _) in inj.items():
                for q in range(layer + 1):
                    tang[q][e] = tang[q][e] + dh_[q]
            lins.append(np.linalg.norm(tang[layer], axis=1))
        elif k == 0:
            lins.append(np.linalg.norm(st[1:E + 1] - st[0], axis=1))
            fd_items(m, layer, h, c, E, LIN_EPS)
        else:
            for e, (dh_, dc_) in inj.items():  # the tangent's items moved by eps times it
                for q in range(layer + 1):
                    for arr, d in ((h, dh_), (c, dc_)):
                        arr[q] = arr[q].copy()
                        arr[q][E + 1 + e] += LIN_EPS * d[q]
                        arr[q][2 * E + 1 + e] -= LIN_EPS * d[q]
            st = c[layer] if lstm else h[layer]
            lins.append(np.linalg.norm((st[E + 1:2 * E + 1] - st[2 * E + 1:]) / (2 * LIN_EPS),
                                       axis=1))
    D = np.array(carried)          # [K+1, E, H]
    lin = np.array(lins)           # [K+1, E]
    d0 = D[0]
    prod = np.ones((K + 1, H))
    for k in range(1, K + 1):
        prod[k] = prod[k - 1] * zgate[k] if zgate else np.nan
    fo = np.linalg.norm(d0[None, :, :] * prod[:, None, :], axis=2)  # [K+1, E]; NaN: RNN
    for e in range(E):  # from a later difference on, the vector carried with it
        for k, v in enumerate(fo_later[e]):
            if v is not None:
                fo[k, e] = v
    out = []
    for e in range(E):
        if not units:
            out.append(dict(dc=np.array(dcs)[:, e] if lstm else None,
                            dh=np.array(dhs)[:, e], fo=None if not zgate else fo[:, e],
                            lin=lin[:, e], absd=np.abs(D[:, e, :])))
            continue
        ratio = np.abs(D[:, e, :]) / np.where(d0[e] != 0, np.abs(d0[e]), 1.0)
        last, last_fo, margin = [], [], []
        for j in range(H):
            if d0[e, j] == 0:
                last.append(-1)
                last_fo.append(-1)
                margin.append(None)
                continue
            ks = [k for k in range(K + 1) if ratio[k, j] >= 0.5]
            last.append(max(ks))
            if not zgate:
                last_fo.append(-1)
                margin.append(float(np.min(np.abs(ratio[1:, j] - 0.5), initial=1.0)))
                continue
            last_fo.append(max(k for k in range(K + 1) if prod[k, j] >= 0.5))
            margin.append(float(min(np.min(np.abs(ratio[1:, j] - 0.5), initial=1.0),
                                    np.min(np.abs(prod[1:, j] - 0.5), initial=1.0))))
        out.append(dict(
            dc=[float(v) for v in np.array(dcs)[:, e]] if lstm else None,
            dh=[float(v) for v in np.array(dhs)[:, e]],
            fo=[float(v) for v in fo[:, e]] if zgate else None,
            lin=[float(v) for v in lin[:, e]],
            d0=[float(v) for v in d0[e]], last=last, last_fo=last_fo, margin=margin))
    return out


# ---------------------------------------------------------------------------------------
# The report.

KS = [0, 1, 2, 4, 8, 16, 32, 64]


def window_entry(w):
    """A full window's entry: its steps, its kept pairs, the half-lives of their mean
    measured and forget-only curves (None past K, or with no pair)."""
    own = w["own"]
    mean = lambda v: np.mean(np.array(v), axis=0) if v else None
    hl = lambda a: None if a is None else num(halflife(list(a)))
    return {"start": w["start"], "edited": w["edited"], "pairs": len(own["measured"]),
            "halflife_measured": hl(mean(own["measured"])),
            "halflife_forget_only": hl(mean(own["fo"]))}


Z95 = 1.96  # the normal quantile of a two-sided 95% interval


def jackknife(theta, exists, loo, K):
    """The 95% interval of a half-life theta (None: past K) by the jackknife over windows,
    from its leave-one-out values loo (None: past K), and whether theta is past K:
    SE = sqrt((n-1)/n sum (t_w - mean t)^2), theta +- Z95 SE; a t_w past K counts as K and
    leaves the upper end open (None); theta past K gives [None, None]; no interval (None)
    when theta does not exist or fewer than two windows keep pairs."""
    if not exists:
        return None, False
    if len(loo) < 2:
        return None, theta is None
    if theta is None:
        return [None, None], True
    vals = [float(K) if t is None else t for t in loo]
    n = len(vals)
    mean = sum(vals) / n
    se = math.sqrt((n - 1) / n * sum((v - mean) ** 2 for v in vals))
    return [theta - Z95 * se, None if None in loo else theta + Z95 * se], False


def interval_condition(theta_cond, loo_conds):
    """The condition of an interval's ends (reportcmp: |error| <= RTOL max(1, |end|, k))
    from theta's bound b (its error at most RTOL b) and each leave-one-out value's b_w (0 for
    one past K: exact): the ends move by at most b + Z95 |dSE|, and by Cauchy-Schwarz
    |dSE| <= sqrt((n-1)/n) |d t - mean d t| <= sqrt((n-1)/n) sqrt(sum b_w^2)."""
    n = len(loo_conds)
    return theta_cond + Z95 * math.sqrt((n - 1) / n * sum(b * b for b in loo_conds))


def bound(v, cond=0.0):
    """What reportcmp holds a half-life v to, over RTOL: max(1, |v|, cond); 0 past K."""
    return 0.0 if v is None else max(1.0, abs(v), cond)


def curve_intervals(windows, mean, K):
    """Each mean curve's half-life interval by the jackknife over the windows that keep
    pairs: the mean over the pairs of every such window but one, taken afresh; with each
    end's condition."""
    keys = {"cell": "halflife_cell", "fo": "halflife_forget_only",
            "hidden": "halflife_hidden", "lin": "halflife_linearized"}
    kept = [w for w in windows if w["own"]["hidden"]]
    ci, beyond, cond = {}, {}, {}
    for c, key in keys.items():
        exists = mean[c] is not None
        theta = num(halflife(list(mean[c]))) if exists else None
        loo = []
        for w in kept:
            rest = [v for x in kept if x is not w for v in x["own"][c]]
            loo.append(num(halflife(list(np.mean(np.array(rest), axis=0)))) if rest else None)
        ci[key], b = jackknife(theta, exists, loo, K)
        beyond[key] = b if exists else None
        if ci[key] is not None and ci[key][0] is not None:
            cond[key] = interval_condition(bound(theta), [bound(t) for t in loo])
    ci["condition"] = cond
    return ci, beyond


def perturbation(m, wins, layer, L, horizon):
    """The report's perturbation table: step L // 4 of each full window replaced by every
    other token, the normalised curves averaged over the pairs that differ at k = 0."""
    lstm, rnn = m.arch == "lstm", m.arch == "rnn"
    s = L // 4
    K = min(horizon, L - s - 1)
    curves = {"cell": [], "fo": [], "hidden": [], "lin": []}
    absd = np.zeros((K + 1, m.Hs[layer]))  # the unit table's sum over pairs of |D_j(k)|
    normd = np.zeros(K + 1)        # and of |D(k)| (halflife_condition)
    windows = []  # each full window's own pairs: where, how many, their half-lives
    for w, win in enumerate(wins):
        if len(win) != L:
            continue
        own = {"measured": [], "fo": [], "cell": [], "hidden": [], "lin": []}
        own_abs = {"absd": np.zeros((K + 1, m.Hs[layer])), "normd": np.zeros(K + 1)}
        windows.append({"start": w * L, "edited": w * L + s, "own": own, "abs": own_abs})
        h, c = zeros(m, 1)
        for p in range(s):
            step(m, [win[p]], h, c, layer)
        h0 = [x[0] for x in h]
        c0 = [x[0] for x in c]
        orig = win[s:s + K + 1]
        edits = []
        reps = m.rep_list
        reps = [v for v in reps if v != orig[0]][:len(reps) - 1]
        for v in reps:
            edits.append([v] + list(orig[1:]))
        if not edits:
            continue
        for res in perturb(m, layer, h0, c0, orig, edits, K, units=False):
            if not ((rnn or res["fo"][0] > 0) and res["dh"][0] > 0 and
                    (not lstm or res["dc"][0] > 0)):
                continue
            absd += res["absd"]
            normd += np.linalg.norm(res["absd"], axis=1)
            own_abs["absd"] += res["absd"]
            own_abs["normd"] += np.linalg.norm(res["absd"], axis=1)
            if lstm:
                curves["cell"].append(np.array(res["dc"]) / res["dc"][0])
                own["cell"].append(curves["cell"][-1])
            if not rnn:
                curves["fo"].append(np.array(res["fo"]) / res["fo"][0])
                own["fo"].append(curves["fo"][-1])
            curves["hidden"].append(np.array(res["dh"]) / res["dh"][0])
            curves["lin"].append(np.array(res["lin"]) / res["lin"][0])
            own["hidden"].append(curves["hidden"][-1])
            own["lin"].append(curves["lin"][-1])
            own["measured"].append(curves["cell" if lstm else "hidden"][-1])
    pairs = len(curves["hidden"])
    ks = [k for k in KS if k <= K]
    mean = {key: (np.mean(np.array(v), axis=0) if v else None) for key, v in curves.items()}
    pick = lambda a: None if a is None else [float(a[k]) for k in ks]
    hl = lambda a: None if a is None else num(halflife(list(a)))
    pert = {"site_offset": s, "horizon": K, "pairs": pairs, "k": ks,
            "cell": pick(mean["cell"]), "forget_only": pick(mean["fo"]),
            "hidden": pick(mean["hidden"]),
            "halflife_cell": hl(mean["cell"]), "halflife_forget_only": hl(mean["fo"]),
            "halflife_hidden": hl(mean["hidden"]),
            "linearized": pick(mean["lin"]), "halflife_linearized": hl(mean["lin"])}
    pert["ci"], pert["beyond_horizon"] = curve_intervals(windows, mean, K)
    pert["windows"] = [window_entry(w) for w in windows]
    return pert, absd, normd, windows


def unit_measured(absd, normd, windows, j, K):
    """Unit j's measured half-life, its interval by the jackknife over the windows that keep
    pairs (its decay summed afresh over every such window but one), whether it is past K,
    and the conditions of the half-life and of the interval's ends."""
    hl, cond = halflife_condition(absd[:, j], normd)
    kept = [w for w in windows if w["own"]["hidden"]]
    loo, loo_b, others = [], [], []
    for i, w in enumerate(kept):
        rest = [x["abs"] for x in kept if x is not w]
        S = sum(x["absd"][:, j] for x in rest)
        N = sum(x["normd"] for x in rest)
        t, c, other = halflife_sides(S, N)
        loo.append(num(t))
        loo_b.append(bound(num(t), c))
        others += [(i, num(ot), bound(num(ot), oc)) for ot, oc in other]
    exists = absd[0, j] > 0
    ci, beyond = jackknife(num(hl), exists, loo, K)
    row = {"halflife_measured": num(hl), "halflife_measured_ci": ci, "beyond_horizon": beyond,
           "condition": {"halflife_measured": cond}}
    if ci is None or ci[0] is None:
        return row
    theta_b = bound(num(hl), cond)
    kc, alts = interval_condition(theta_b, loo_b), []
    for i, t, b in others:  # a leave-one-out half-life on the other side of an ambiguous lag
        vals, bs = list(loo), list(loo_b)
        vals[i], bs[i] = t, b
        alt, _ = jackknife(num(hl), exists, vals, K)
        kc = max(kc, interval_condition(theta_b, bs))
        if alt != ci and alt not in alts:
            alts.append(alt)
    row["condition"]["halflife_measured_ci"] = kc
    if alts:
        row["either"] = {"halflife_measured_ci": alts}
    return row


def loss(m, wins):
    """The readout's mean -ln p(next) over the windows, each from the zero state: the
    prediction after step t of the token at t + 1, t = 0 .. len - 2 (doc/measures.md)."""
    if m.out_w is None:
        return None
    total, count = 0.0, 0
    for win in wins:
        h, c = zeros(m, 1)
        for p in range(len(win)):
            step(m, [win[p]], h, c, m.L - 1)
            if p + 1 < len(win):
                logit = m.out_w @ h[m.L - 1][0] + m.out_b
                mx = logit.max()
                total += mx + math.log(np.exp(logit - mx).sum()) - logit[win[p + 1]]
                count += 1
    if count == 0:
        return None
    return {"nats": total / count, "bits": total / count / math.log(2), "count": count}


def rnn_report(m, wins, layer, L, horizon):
    """A plain RNN's report: no gates; the saturation of h."""
    hs = []
    for win in wins:
        h, c = zeros(m, 1)
        for p in range(len(win)):
            step(m, [win[p]], h, c, layer)
            hs.append(h[layer][0])
    v = np.array(hs).ravel()
    sat = ({"zero": float(np.mean(v == 0))} if m.relu else
           {"left": float(np.mean(v < -0.9)), "right": float(np.mean(v > 0.9))})
    pert, absd, normd, windows = perturbation(m, wins, layer, L, horizon)
    # the unit table: no gates, so only each unit's measured half-life
    table = []
    for j in range(m.Hs[layer]):
        row = {"unit": j, "mean": {}, "halflife": None, "halflife_bias": None}
        row.update(unit_measured(absd, normd, windows, j, pert["horizon"]))
        row.update({"left": None, "right": None})
        table.append(row)
    return {"model": dict(model_entry(m, layer), nonlinearity="relu" if m.relu else "tanh",
                          nonlinearity_assumed=m.nonlin_assumed),
            "layer": layer, "positions": len(hs), "gates": {}, "units": None,
            "saturation": {"h": sat}, "by_token" if m.words else "by_char": None,
            "perturbation": pert, "loss": loss(m, wins), "unit_table": table}


def model_entry(m, layer):
    """The report's "model": its layer's width as "hidden", every layer's as "widths" when
    they differ."""
    out = {"arch": m.arch, "layers": m.L, "hidden": m.Hs[layer], "vocab": m.V,
           "params": int(m.params)}
    if len(set(m.Hs)) > 1:
        out["widths"] = list(m.Hs)
    return out


def report(m, toks, layer, N, L, horizon):
    m.rep_list = m.replacements(toks)
    T = len(toks)
    H = m.Hs[layer]
    chunks = (T + L - 1) // L
    nwin = min(N, chunks)
    wins = [toks[w * L:min((w + 1) * L, T)] for w in range(nwin)]
    if m.arch == "rnn":
        return rnn_report(m, wins, layer, L, horizon)
    lstm = m.arch == "lstm"
    names = ["i", "f", "o"] if lstm else ["r", "z"]
    blocks = [0, 1, 3] if lstm else [0, 1]
    vals = {g: [] for g in names}
    carry_rows, chars = [], []
    # the windows: full ones as one batch, a short last one by itself
    groups = [[w for w in range(nwin) if len(wins[w]) == L],
              [w for w in range(nwin) if len(wins[w]) != L]]
    for group in groups:
        if not group:
            continue
        n = len(wins[group[0]])
        seq = np.array([wins[w] for w in group])
        h, c = zeros(m, len(group))
        per_pos = []
        for p in range(n):
            g = step(m, seq[:, p], h, c, layer)[layer]
            per_pos.append(g)
        arr = np.array(per_pos)  # [n, B, G*H]
        for bi, w in enumerate(group):
            for gname, blk in zip(names, blocks):
                vals[gname].append((w, arr[:, bi, blk * H:(blk + 1) * H]))
            carry_rows.append((w, arr[:, bi, H:2 * H]))
            chars.append((w, [m.input_class(t) for t in wins[w]]))
    order = lambda lst: [a for _, a in sorted(lst, key=lambda x: x[0])]
    carry = np.concatenate(order(carry_rows), axis=0)     # [positions, H]
    cps = [cp for cl in order(chars) for cp in cl]
    positions = carry.shape[0]
    gates, sat = {}, {}
    for gname in names:
        v = np.concatenate(order(vals[gname]), axis=0).ravel()
        q = np.quantile(v, [0.05, 0.25, 0.5, 0.75, 0.95])
        gates[gname] = {"mean": float(np.mean(v)), "q05": q[0], "q25": q[1], "q50": q[2],
                        "q75": q[3], "q95": q[4]}
        sat[gname] = {"left": float(np.mean(v < 0.1)), "right": float(np.mean(v > 0.9))}
    umean = carry.mean(axis=0)
    with np.errstate(divide="ignore"):
        uhl = np.where(umean >= 1, np.inf, np.log(0.5) / np.log(umean))
    qm = np.quantile(umean, [0.05, 0.5, 0.95])
    units = {"gate": "f" if lstm else "z",
             "mean_min": float(umean.min()), "mean_q05": qm[0], "mean_median": qm[1],
             "mean_q95": qm[2], "mean_max": float(umean.max()),
             "halflife_min": num(float(np.min(uhl))),
             "halflife_median": num(float(np.quantile(uhl, 0.5))),
             "halflife_max": num(float(np.max(uhl))),
             "below_half": int(np.sum(umean < 0.5)), "halflife_ge10": int(np.sum(uhl >= 10))}
    pos_mean = carry.mean(axis=1)
    by_char = {}
    for key in (("punctuation", "eos", "other") if m.words else ("space", "newline", "other")):
        sel = np.array([cl == key for cl in cps])
        cnt = int(sel.sum())
        by_char[key] = {"mean": float(pos_mean[sel].mean()) if cnt else None, "count": cnt}

    pert, absd, normd, windows = perturbation(m, wins, layer, L, horizon)
    # the unit table: each unit's mean gates, three half-lives, its carry gate's saturation
    b = m.layers[layer][2] + m.layers[layer][3]
    table = []
    for j in range(H):
        mean = {}
        for gname in names:
            mean[gname] = float(np.concatenate(order(vals[gname]), axis=0)[:, j].mean())
        bias_gate = sigmoid(b[H + j])
        row = {"unit": j, "mean": mean, "halflife": num(float(uhl[j])),
               "halflife_bias": num(math.log(0.5) / math.log(bias_gate))}
        row.update(unit_measured(absd, normd, windows, j, pert["horizon"]))
        row.update({"left": float(np.mean(carry[:, j] < 0.1)),
                    "right": float(np.mean(carry[:, j] > 0.9))})
        table.append(row)
    return {"model": model_entry(m, layer),
            "layer": layer, "positions": positions,
            "gates": {g: {k: float(v) for k, v in d.items()} for g, d in gates.items()},
            "units": {k: (float(v) if isinstance(v, np.floating) else v)
                      for k, v in units.items()},
            "saturation": sat, "by_token" if m.words else "by_char": by_char,
            "perturbation": pert,
            "loss": loss(m, wins), "unit_table": table}


def add_report_options(ap):
    """MODEL, TEXT and the options of `gatetui --report`, with its defaults."""
    ap.add_argument("model")
    ap.add_argument("text")
    ap.add_argument("--layer", type=int, default=0)
    ap.add_argument("--windows", type=int, default=32)
    ap.add_argument("--window-len", type=int, default=128)
    ap.add_argument("--horizon", type=int, default=64)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("mode", choices=["report", "perturb"])
    add_report_options(ap)
    ap.add_argument("--vocab-from")
    ap.add_argument("--vocab", help="a word model's vocabulary, one token per line")
    ap.add_argument("--gru-reset", choices=["before", "after"])
    ap.add_argument("--nonlinearity", choices=["tanh", "relu"])
    ap.add_argument("--edit", action="append", default=[])
    a = ap.parse_args()
    m = Model(a.model, a.vocab_from, a.gru_reset, a.nonlinearity, a.vocab)
    toks = m.tokens(a.text)
    if a.mode == "report":
        out = report(m, toks, a.layer, a.windows, a.window_len, a.horizon)
    else:
        results = []
        for spec in a.edit:
            changes = [tuple(int(x) for x in part.split("=")) for part in spec.split(",")]
            s = changes[0][0]
            edited = list(toks)
            for pos, tok in changes:
                edited[pos] = tok
            K = min(a.horizon, len(toks) - s - 1)
            h, c = zeros(m, 1)
            for p in range(s):
                step(m, [toks[p]], h, c, a.layer)
            res = perturb(m, a.layer, [x[0] for x in h], [x[0] for x in c],
                          toks[s:s + K + 1], [edited[s:s + K + 1]], K)[0]
            res.update(changes=[list(ch) for ch in changes], K=K,
                       halflife_cell=num(halflife(res["dc"])) if res["dc"] else None,
                       halflife_hidden=num(halflife(res["dh"])),
                       halflife_forget_only=num(halflife(res["fo"])) if res["fo"] else None,
                       halflife_linearized=num(halflife(res["lin"])))
            results.append(res)
        out = {"layer": a.layer, "horizon": a.horizon, "steps": len(toks), "edits": results}
    json.dump(out, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
