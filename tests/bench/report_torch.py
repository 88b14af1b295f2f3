#!/usr/bin/env python3
"""The report of doc/measures.md as a PyTorch user would compute it, for the benchmark: float32,
batched. The windows run as one batch (the full ones; a short last one by itself), a hand
loop over time with one batched matrix product per layer and step for the gates (nn.LSTM
does not return them); the perturbation runs every replacement of every full window at
once, with the original windows, as one batch of K+1 steps; the linearized curve carries
each replacement's first difference forward along its window's original run with
forward-mode differentiation (functorch's jvp, vmapped over the replacements: the original
run once, the tangents batched). A plain RNN (nn.RNN, tanh or relu) likewise, with the
saturation of h for the gate tables and no forget-only curve. The readout's loss over the
windows, every position's logits at once: one matrix product over all of them. A word model
(a torch.save file or a safetensors one with vocab.txt beside it, PyTorch's
word_language_model's): its text split as data.py splits it, its perturbation's
replacements the text's 65 most frequent tokens, by_token (doc/measures.md). Prints the
report's JSON object (the same keys as `gatetui --report --json`).

Usage: report_torch.py MODEL TEXT [--layer N] [--windows N] [--window-len L] [--horizon K]
       [--threads T]"""
import argparse
import json
import os
import sys

import numpy as np
import torch
from functorch import jvp, vmap

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "ref"))
from bench_torch import read_safetensors  # noqa: E402
from report_ref import (add_report_options, beside_vocab, data_py_lines, halflife,  # noqa: E402
                        most_frequent, num, token_class)

KS = [0, 1, 2, 4, 8, 16, 32, 64]


def read_torch(path):
    """A torch.save file (a whole module, or a state_dict): its tensors as float32 and the
    parameters as PyTorch counts them (a tied decoder once)."""
    sys.path.insert(0, os.path.join(HERE, "..", "..", "samples"))
    obj = torch.load(path, map_location="cpu")
    sd = obj.state_dict() if hasattr(obj, "state_dict") else obj
    params = sum(p.numel() for p in obj.parameters()) if hasattr(obj, "parameters") else None
    return {k: v.detach().float() for k, v in sd.items()}, params


class Model:
    def __init__(self, path):
        with open(path, "rb") as f:
            zipped = f.read(2) == b"PK"
        if zipped:
            t, params = read_torch(path)
            meta = {}
        else:
            t, meta = read_safetensors(path)
            params = None
        ih = sorted(k for k in t if "weight_ih_l" in k)
        p = ih[0][:ih[0].index("weight_ih_l")]
        self.L = len(ih)
        self.H = t[p + "weight_hh_l0"].shape[1]
        self.G = t[p + "weight_hh_l0"].shape[0] // self.H
        self.lstm = self.G == 4
        self.rnn = self.G == 1
        self.relu = meta.get("nonlinearity") == "relu"
        z = torch.zeros(self.G * self.H)
        self.w = [(t[f"{p}weight_ih_l{k}"], t[f"{p}weight_hh_l{k}"].T.contiguous(),
                   t.get(f"{p}bias_ih_l{k}", z), t.get(f"{p}bias_hh_l{k}", z))
                  for k in range(self.L)]
        emb = next((v for k, v in t.items() if "emb" in k or k.endswith("encoder.weight")), None)
        D = self.w[0][0].shape[1]
        # layer 0's input projection for every vocabulary entry: a table look-up per token
        x = emb if emb is not None else torch.eye(D)
        self.table0 = x @ self.w[0][0].T + self.w[0][2]
        self.V = self.table0.shape[0]
        self.params = params or sum(v.numel() for v in t.values())
        self.before = meta.get("gru_reset") == "before"
        self.vocab = list(meta["vocab"]) if "vocab" in meta else [chr(i) for i in range(256)]
        words = beside_vocab(path) if "vocab" not in meta else None
        self.words = words is not None
        if self.words:  # a word model: one token per line
            self.vocab = open(words, encoding="utf-8").read().split("\n")
            if self.vocab[-1] == "":
                self.vocab.pop()
            self.index = {w: i for i, w in enumerate(self.vocab)}
            self.eos, self.unk = self.index.get("<eos>"), self.index.get("<unk>")
        # the readout: the [V, H] tensor beside the embedding and the layers, and its bias
        rec = {k for k in t if "weight_ih_l" in k or "weight_hh_l" in k or "bias_" in k}
        outs = [k for k in t if k not in rec and t[k].dim() == 2 and
                t[k].shape == (self.V, self.H) and "emb" not in k and
                not k.endswith("encoder.weight")]
        self.out_w = t[outs[0]] if outs else None
        self.out_b = t.get(outs[0][:-len("weight")] + "bias") if outs else None

    def tokens(self, path):
        data = open(path, "rb").read()
        if self.words:  # word_language_model's data.py
            return [self.index.get(w, self.unk) for line in data_py_lines(data)
                    for w in line.split() + (["<eos>"] if self.eos is not None else [])]
        idx = {c: i for i, c in enumerate(self.vocab)}
        return [idx[c] for c in data.decode("utf-8") if c in idx]

    def replacements(self, toks):
        """Every token; a word model's 65 most frequent of the text (report_ref.py's)."""
        return torch.tensor(most_frequent(toks, 64) if self.words else range(self.V))

    def input_class(self, tok):
        """by_char's class of a token, a word model's by_token's (report_ref.py's)."""
        return token_class(self.words, self.vocab[tok], tok == getattr(self, "eos", None))

    def run(self, toks, upto, h0=None, c0=None):
        """toks: [T, B] tokens. Layers 0..upto over all T steps, layer by layer. Returns the
        top layer's gates [T, B, G*H] (after the nonlinearity), h and c [T, B, H]."""
        T, B = toks.shape
        H = self.H
        inp = None
        for k in range(upto + 1):
            w_ih, w_hhT, b_ih, b_hh = self.w[k]
            xi = self.table0[toks] if k == 0 else inp @ w_ih.T + b_ih  # [T, B, GH]
            h = torch.zeros(B, H) if h0 is None else h0[k].expand(B, H).clone()
            c = torch.zeros(B, H) if c0 is None else c0[k].expand(B, H).clone()
            hs = torch.empty(T, B, H)
            cs = torch.empty(T, B, H) if self.lstm else None
            gs = torch.empty(T, B, self.G * H) if k == upto else None
            for t in range(T):
                if self.rnn:
                    a = torch.addmm(xi[t] + b_hh, h, w_hhT)
                    h = torch.relu(a) if self.relu else torch.tanh(a)
                    if gs is not None:
                        gs[t] = a
                elif self.lstm:
                    a = torch.addmm(xi[t] + b_hh, h, w_hhT)
                    i, f, g, o = a.split(H, dim=1)
                    i, f, g, o = torch.sigmoid(i), torch.sigmoid(f), torch.tanh(g), torch.sigmoid(o)
                    c = f * c + i * g
                    h = o * torch.tanh(c)
                    cs[t] = c
                    if gs is not None:
                        torch.cat((i, f, g, o), dim=1, out=gs[t])
                else:
                    if self.before:
                        gh = torch.addmm(b_hh[:2 * H], h, w_hhT[:, :2 * H])
                    else:
                        gh = torch.addmm(b_hh, h, w_hhT)
                    r = torch.sigmoid(xi[t, :, :H] + gh[:, :H])
                    zg = torch.sigmoid(xi[t, :, H:2 * H] + gh[:, H:2 * H])
                    if self.before:
                        n = torch.tanh(xi[t, :, 2 * H:] + torch.addmm(b_hh[2 * H:], r * h, w_hhT[:, 2 * H:]))
                    else:
                        n = torch.tanh(xi[t, :, 2 * H:] + r * gh[:, 2 * H:])
                    h = (1 - zg) * n + zg * h
                    if gs is not None:
                        torch.cat((r, zg, n), dim=1, out=gs[t])
                hs[t] = h
            inp = hs
            if k == upto:
                return gs, hs, cs, h, c

    def states_after(self, toks, upto):
        """Every layer's h and c after toks [T, B] (for the perturbation's starting states)."""
        T, B = toks.shape
        hs, cs = [], []
        inp = None
        for k in range(upto + 1):
            w_ih, w_hhT, b_ih, b_hh = self.w[k]
            xi = self.table0[toks] if k == 0 else inp @ w_ih.T + b_ih
            h, c = torch.zeros(B, self.H), torch.zeros(B, self.H)
            seq = torch.empty(T, B, self.H)
            for t in range(T):
                h, c = self.cell(k, xi[t], h, c)
                seq[t] = h
            inp = seq
            hs.append(h)
            cs.append(c)
        return hs, cs

    def cell(self, k, xi, h, c):
        H = self.H
        w_ih, w_hhT, b_ih, b_hh = self.w[k]
        if self.rnn:
            a = torch.addmm(xi + b_hh, h, w_hhT)
            return (torch.relu(a) if self.relu else torch.tanh(a)), c
        if self.lstm:
            a = torch.addmm(xi + b_hh, h, w_hhT)
            i, f, g, o = a.split(H, dim=1)
            c = torch.sigmoid(f) * c + torch.sigmoid(i) * torch.tanh(g)
            return torch.sigmoid(o) * torch.tanh(c), c
        gh = torch.addmm(b_hh, h, w_hhT)
        r = torch.sigmoid(xi[:, :H] + gh[:, :H])
        zg = torch.sigmoid(xi[:, H:2 * H] + gh[:, H:2 * H])
        if self.before:
            gh = torch.addmm(b_hh[2 * H:], r * h, w_hhT[:, 2 * H:])
            n = torch.tanh(xi[:, 2 * H:] + gh)
        else:
            n = torch.tanh(xi[:, 2 * H:] + r * gh[:, 2 * H:])
        return (1 - zg) * n + zg * h, c


def stack_step(m, toks, upto, *st):
    """One step of layers 0..upto: st = (h_0..h_upto, c_0..c_upto), each [B, H]."""
    n = upto + 1
    h, c = list(st[:n]), list(st[n:])
    inp = m.table0[toks]
    for j in range(n):
        if j > 0:
            inp = h[j - 1] @ m.w[j][0].T + m.w[j][2]
        h[j], c[j] = m.cell(j, inp, h[j], c[j])
    return tuple(h) + tuple(c)


def perturbation(m, wins, full, layer, L, horizon, cand):
    """The perturbation table: every replacement of every full window, with the originals,
    one batch. cand: the replacements (every token; a word model's most frequent)."""
    H = m.H
    s = L // 4
    K = min(horizon, L - s - 1)
    ks = [k for k in KS if k <= K]
    pert = {"site_offset": s, "horizon": K, "pairs": 0, "k": ks, "cell": None,
            "forget_only": None, "hidden": None, "halflife_cell": None,
            "halflife_forget_only": None, "halflife_hidden": None, "linearized": None,
            "halflife_linearized": None}
    if full and len(cand) > 1:
        F, R = len(full), len(cand) - 1
        seqs = torch.tensor([wins[w] for w in full])  # [F, L]
        h0, c0 = m.states_after(seqs[:, :s].T.contiguous(), layer)
        orig = seqs[:, s:s + K + 1]  # [F, K+1]
        reps = torch.stack([torch.cat((cand[cand != o], cand))[:R] for o in orig[:, 0]])
        ed = orig.repeat_interleave(R, 0).clone()
        ed[:, 0] = reps.reshape(-1)
        allseq = torch.cat((orig, ed)).T.contiguous()  # [K+1, F + F*R]
        idx = torch.cat((torch.arange(F), torch.arange(F).repeat_interleave(R)))
        h = [x[idx] for x in h0]
        c = [x[idx] for x in c0]
        base = lambda x: x[:F].repeat_interleave(R, 0)
        dh, dcs, fo, lin = [], [], [], []
        n = layer + 1
        for k in range(K + 1):
            if k > 0:  # the tangents over this step, along the originals' run
                prim = tuple(x[:F] for x in h[:n]) + tuple(x[:F] for x in c[:n])
                step = lambda *st: stack_step(m, allseq[k][:F], layer, *st)
                tang = vmap(lambda *t: jvp(step, prim, t)[1])(*tang)
            inp = m.table0[allseq[k]]
            for j in range(layer + 1):
                if j > 0:
                    inp = h[j - 1] @ m.w[j][0].T + m.w[j][2]
                if j == layer and not m.rnn:  # the originals' carry gate, for forget-only
                    xi = inp[:F]
                    a = torch.addmm(xi + m.w[j][3], h[j][:F], m.w[j][1])
                    carry = torch.sigmoid(a[:, H:2 * H])  # f or z: block 1 either way
                h[j], c[j] = m.cell(j, inp, h[j], c[j])
            st = c[layer] if m.lstm else h[layer]
            d = st[F:] - base(st)
            if k == 0:  # each replacement's first difference on every layer: [R, F, H]
                tang = tuple((x[F:] - base(x)).view(F, R, H).transpose(0, 1)
                             for x in h[:n] + c[:n])
            t_st = tang[n + layer] if m.lstm else tang[layer]
            lin.append(t_st.transpose(0, 1).reshape(F * R, H).norm(dim=1))
            if k == 0:
                d0 = d
                prod = torch.ones(F, H)
            elif not m.rnn:  # a plain RNN has no carry gate
                prod = prod * carry
            fo.append((d0 * prod.repeat_interleave(R, 0)).norm(dim=1))
            dcs.append(d.norm(dim=1))
            dh.append((h[layer][F:] - base(h[layer])).norm(dim=1))
        dh, fo, lin = torch.stack(dh), torch.stack(fo), torch.stack(lin)
        dc = torch.stack(dcs) if m.lstm else None
        ok = dh[0] > 0 if m.rnn else (fo[0] > 0) & (dh[0] > 0)
        if m.lstm:
            ok &= dc[0] > 0
        pairs = int(ok.sum())
        pert["pairs"] = pairs
        if pairs:
            mean = lambda d: (d[:, ok] / d[0, ok]).double().mean(1).numpy()
            curves = {"hidden": mean(dh), "linearized": mean(lin)}
            if not m.rnn:
                curves["forget_only"] = mean(fo)
            if m.lstm:
                curves["cell"] = mean(dc)
            for key, cv in curves.items():
                pert[key] = [float(cv[k]) for k in ks]
                pert["halflife_" + key] = num(halflife(list(cv)))
    return pert


def rnn_report(m, wins, full, short, layer, L, horizon):
    """A plain RNN's report: the saturation of h in place of the gate tables."""
    hs = {}
    for group in (full, short):
        if group:
            seq = torch.tensor([wins[w] for w in group]).T  # [T, B]
            h_all = m.run(seq, layer)[1]
            for b, w in enumerate(group):
                hs[w] = h_all[:, b]
    v = torch.cat([hs[w] for w in range(len(wins))])
    sat = ({"zero": float((v == 0).double().mean())} if m.relu else
           {"left": float((v < -0.9).double().mean()), "right": float((v > 0.9).double().mean())})
    return {"model": {"arch": "rnn", "layers": m.L, "hidden": m.H, "vocab": m.V,
                      "params": int(m.params), "nonlinearity": "relu" if m.relu else "tanh"},
            "layer": layer, "positions": v.shape[0], "gates": {}, "units": None,
            "saturation": {"h": sat}, "by_token" if m.words else "by_char": None,
            "perturbation": perturbation(m, wins, full, layer, L, horizon, m.cand),
            "loss": loss(m, wins, full, short)}


def loss(m, wins, full, short):
    """The readout's mean -ln p(next) over the windows, each from the zero state: every
    layer over the windows (the full ones as one batch), then one matrix product for the
    logits of every prediction at once."""
    if m.out_w is None:
        return None
    total, count = 0.0, 0
    for group in (full, short):
        if not group or len(wins[group[0]]) < 2:
            continue
        seq = torch.tensor([wins[w] for w in group]).T  # [T, B]
        hs = m.run(seq, m.L - 1)[1][:-1]  # the top layer's h before each next token
        logits = torch.addmm(m.out_b, hs.reshape(-1, m.H), m.out_w.T)
        nll = torch.nn.functional.cross_entropy(logits, seq[1:].reshape(-1), reduction="sum")
        total += float(nll)
        count += hs.shape[0] * hs.shape[1]
    return {"nats": total / count, "bits": total / count / np.log(2), "count": count}


def report(m, toks, layer, N, L, horizon):
    T, H = len(toks), m.H
    nwin = min(N, (T + L - 1) // L)
    wins = [toks[w * L:min((w + 1) * L, T)] for w in range(nwin)]
    full = [w for w in range(nwin) if len(wins[w]) == L]
    short = [w for w in range(nwin) if len(wins[w]) != L]
    if m.rnn:
        return rnn_report(m, wins, full, short, layer, L, horizon)
    names, blocks = (["i", "f", "o"], [0, 1, 3]) if m.lstm else (["r", "z"], [0, 1])
    per_win = {}
    for group in (full, short):
        if group:
            seq = torch.tensor([wins[w] for w in group]).T  # [T, B]
            gs = m.run(seq, layer)[0]
            for b, w in enumerate(group):
                per_win[w] = gs[:, b]
    g_all = torch.cat([per_win[w] for w in range(nwin)])  # [positions, GH]
    tok_all = torch.tensor([t for w in range(nwin) for t in wins[w]])
    positions = g_all.shape[0]
    gates, sat = {}, {}
    for name, blk in zip(names, blocks):
        v = g_all[:, blk * H:(blk + 1) * H].reshape(-1).double().numpy()
        q = np.quantile(v, [0.05, 0.25, 0.5, 0.75, 0.95])
        gates[name] = {"mean": float(v.mean()), "q05": q[0], "q25": q[1], "q50": q[2],
                       "q75": q[3], "q95": q[4]}
        sat[name] = {"left": float(np.mean(v < 0.1)), "right": float(np.mean(v > 0.9))}
    carry = g_all[:, H:2 * H].double()
    umean = carry.mean(0).numpy()
    with np.errstate(divide="ignore"):
        uhl = np.where(umean >= 1, np.inf, np.log(0.5) / np.log(umean))
    qm = np.quantile(umean, [0.05, 0.5, 0.95])
    units = {"gate": "f" if m.lstm else "z", "mean_min": float(umean.min()),
             "mean_q05": float(qm[0]), "mean_median": float(qm[1]), "mean_q95": float(qm[2]),
             "mean_max": float(umean.max()), "halflife_min": num(float(np.min(uhl))),
             "halflife_median": num(float(np.quantile(uhl, 0.5))),
             "halflife_max": num(float(np.max(uhl))),
             "below_half": int(np.sum(umean < 0.5)), "halflife_ge10": int(np.sum(uhl >= 10))}
    pos_mean = carry.mean(1)
    classes = [m.input_class(t) for t in range(m.V)]
    cls = [classes[t] for t in tok_all.tolist()]
    by_char = {}
    for key in ("punctuation", "eos", "other") if m.words else ("space", "newline", "other"):
        sel = torch.tensor([c == key for c in cls])
        cnt = int(sel.sum())
        by_char[key] = {"mean": float(pos_mean[sel].mean()) if cnt else None, "count": cnt}

    pert = perturbation(m, wins, full, layer, L, horizon, m.cand)
    return {"model": {"arch": "lstm" if m.lstm else "gru", "layers": m.L, "hidden": H,
                      "vocab": m.V, "params": int(m.params)},
            "layer": layer, "positions": positions,
            "gates": {g: {k: float(v) for k, v in d.items()} for g, d in gates.items()},
            "units": units, "saturation": sat, "by_token" if m.words else "by_char": by_char,
            "perturbation": pert, "loss": loss(m, wins, full, short)}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    add_report_options(ap)
    ap.add_argument("--threads", type=int, default=int(os.environ.get("GATETUI_THREADS", "0") or 0))
    a = ap.parse_args()
    if a.threads > 0:
        torch.set_num_threads(a.threads)
    m = Model(a.model)
    toks = m.tokens(a.text)
    m.cand = m.replacements(toks)
    with torch.no_grad():
        out = report(m, toks, a.layer, a.windows, a.window_len, a.horizon)
    json.dump(out, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
