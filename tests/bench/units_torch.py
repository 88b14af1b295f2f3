#!/usr/bin/env python3
"""`gatetui --units` as a PyTorch user would compute it, for the benchmark: float32, batched
where the computation allows. One run from the zero state cannot be split, so nn.LSTM /
nn.GRU steps through the text (its own C++ loop) chunk by chunk, carrying the state, and
gives h at every step and (LSTM) c at each chunk's end; every gate of a block of chunks is
then one matrix product from h at the step before; an LSTM's c inside the chunks follows
c = f c + i g, one step at a time for all the block's chunks at once; the sums of the
correlations are products with the mask over the block. The block's products go through
oneDNN (torch's mkldnn tensors) where the build has it, which here is an order of magnitude
faster than the BLAS torch is linked with. The mask is Python's re (leftmost
first: the same as POSIX's leftmost-longest for the benchmark's expressions). Prints the
JSON of `gatetui --units --json` and, on standard error, the seconds it took (the model
file read and the tokens made not counted).

Usage: units_torch.py MODEL TEXT REGEX [STEPS] [THREADS]   (one-layer models)"""
import argparse
import json
import math
import os
import re
import sys
import time

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_torch import read_safetensors  # noqa: E402

CHUNK = 1024      # steps per nn.LSTM call
BLOCK = 16        # chunks per block of matrix products


def load(path):
    t, meta = read_safetensors(path)
    ih = sorted(k for k in t if "weight_ih_l" in k)
    p = ih[0][:ih[0].index("weight_ih_l")]
    L = len(ih)
    H = t[p + "weight_hh_l0"].shape[1]
    G = t[p + "weight_hh_l0"].shape[0] // H
    D = t[p + "weight_ih_l0"].shape[1]
    emb = next((v for k, v in t.items() if "emb" in k or k.endswith("encoder.weight")), None)
    cls = torch.nn.LSTM if G == 4 else torch.nn.GRU
    net = cls(D, H, num_layers=L, bias=(p + "bias_ih_l0") in t)
    net.load_state_dict({k[len(p):]: v for k, v in t.items() if k.startswith(p)})
    vocab = meta["vocab"] if "vocab" in meta else "".join(chr(i) for i in range(256))
    return net, emb, D, H, G, L, vocab, meta.get("gru_reset") == "before"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("model")
    ap.add_argument("text")
    ap.add_argument("regex")
    ap.add_argument("steps", type=int, nargs="?", default=1000000)
    ap.add_argument("threads", type=int, nargs="?", default=1)
    ap.add_argument("--layer", type=int, default=0)
    a = ap.parse_args()
    torch.set_num_threads(a.threads)
    net, emb, D, H, G, L, vocab, before = load(a.model)
    if before or L != 1 or a.layer != 0:
        raise SystemExit("units_torch: one layer, and a GRU's reset after W_hn (nn.GRU)")
    idx = {c: i for i, c in enumerate(vocab)}
    raw = open(a.text, encoding="utf-8").read()
    toks = [idx[c] for c in raw if c in idx]
    while len(toks) < a.steps:
        toks = toks + toks
    toks = toks[:a.steps]
    N, k = len(toks), a.layer
    text = "".join(vocab[t] for t in toks)
    start = time.time()
    with torch.no_grad():
        out = units(net, emb, D, H, G, L, k, toks, text, a.regex)
    took = time.time() - start
    json.dump(out, sys.stdout, indent=1)
    sys.stdout.write("\n")
    sys.stderr.write("seconds %.3f\n" % took)


def mask_of(text, regex):
    m = torch.zeros(len(text), dtype=torch.float64)
    for mt in re.finditer(regex, text, re.DOTALL):
        if mt.end() > mt.start():
            m[mt.start():mt.end()] = 1
    return m


def linear(x, w, b):
    """x @ w.T + b, through oneDNN when torch has it."""
    if torch.backends.mkldnn.is_available():
        return torch._C._nn.mkldnn_linear(x.contiguous().to_mkldnn(), w.to_mkldnn(),
                                          b.to_mkldnn()).to_dense()
    return torch.addmm(b, x, w.T)


def units(net, emb, D, H, G, L, k, toks, text, regex):
    N = len(toks)
    m = mask_of(text, regex)
    tt = torch.tensor(toks)
    w_ih = getattr(net, "weight_ih_l%d" % k)
    w_hh = getattr(net, "weight_hh_l%d" % k)
    b = getattr(net, "bias_ih_l%d" % k, None)
    b_ih = b if b is not None else torch.zeros(G * H)
    b = getattr(net, "bias_hh_l%d" % k, None)
    b_hh = b if b is not None else torch.zeros(G * H)
    lstm = G == 4
    S = 6 if lstm else 4
    # the sums over steps, in double: of every signal, of its square, of it inside
    s1 = torch.zeros(S * H, dtype=torch.float64)
    s2 = torch.zeros(S * H, dtype=torch.float64)
    sm = torch.zeros(S * H, dtype=torch.float64)
    state = None
    h_before = torch.zeros(L, 1, H)   # every layer's h before the block
    c_block0 = torch.zeros(H)         # layer k's c before the block
    for b0 in range(0, N, CHUNK * BLOCK):
        b1 = min(N, b0 + CHUNK * BLOCK)
        x = emb[tt[b0:b1]] if emb is not None else \
            torch.nn.functional.one_hot(tt[b0:b1], D).float()
        hs, c_ends = [], []
        for c0 in range(b0, b1, CHUNK):
            c1 = min(b1, c0 + CHUNK)
            y, state = net(x[c0 - b0:c1 - b0].unsqueeze(1), state)
            hs.append(y[:, 0])
            if lstm:
                c_ends.append(state[1][k, 0].clone())
        hk = torch.cat(hs)                                   # [B, H] layer k's h
        hprev = torch.cat([h_before[k], hk[:-1]])             # h before each step
        a = linear(x, w_ih, b_ih)                            # [B, GH]
        if lstm:
            a = a + linear(hprev, w_hh, b_hh)
            i, f = torch.sigmoid(a[:, :H]), torch.sigmoid(a[:, H:2 * H])
            g, o = torch.tanh(a[:, 2 * H:3 * H]), torch.sigmoid(a[:, 3 * H:])
            c = cells(f, i * g, c_block0, b1 - b0)
            sig = torch.cat([i, f, g, o, c, hk], dim=1)
            c_block0 = c_ends[-1]
        else:
            gh = linear(hprev, w_hh, b_hh)
            r = torch.sigmoid(a[:, :H] + gh[:, :H])
            z = torch.sigmoid(a[:, H:2 * H] + gh[:, H:2 * H])
            n = torch.tanh(a[:, 2 * H:] + r * gh[:, 2 * H:])
            sig = torch.cat([r, z, n, hk], dim=1)
        h_before = state[0] if lstm else state
        sd = sig.double()
        mb = m[b0:b1]
        s1 += sd.sum(0)
        s2 += (sd * sd).sum(0)
        sm += mb @ sd
    n = float(N)
    inside = float(m.sum())
    sxx = s2 - s1 * s1 / n
    sxm = sm - s1 * inside / n
    smm = inside * (n - inside) / n
    r = sxm / torch.sqrt(sxx * smm)
    mean_in = sm / inside
    mean_out = (s1 - sm) / (n - inside)
    names = ["i", "f", "g", "o", "c", "h"] if lstm else ["r", "z", "n", "h"]
    sigs = {}
    for s, name in enumerate(names):
        rows = []
        for j in range(H):
            x = float(r[s * H + j])
            ok = sxx[s * H + j] > 0 and math.isfinite(x)
            rows.append({"unit": j, "r": x if ok else None,
                         "mean_inside": float(mean_in[s * H + j]),
                         "mean_outside": float(mean_out[s * H + j])})
        rows.sort(key=lambda u: (u["r"] is None, -abs(u["r"] or 0), u["unit"]))
        sigs[name] = rows
    return {"regex": regex, "layer": k, "steps": N, "inside": int(inside), "signals": sigs}


def cells(f, u, c0, B):
    """c_t = f_t c_(t-1) + u_t over a block of B steps, chunk by chunk: the chunks' first
    states come one after the other, then every chunk steps at once."""
    H = f.shape[1]
    nch = (B + CHUNK - 1) // CHUNK
    pad = nch * CHUNK - B
    if pad:
        f = torch.cat([f, torch.ones(pad, H)])
        u = torch.cat([u, torch.zeros(pad, H)])
    fc = f.view(nch, CHUNK, H)
    uc = u.view(nch, CHUNK, H)
    # each chunk from zero, then the state carried in: c = c_zero + (prod f) c_in
    cz = torch.empty(nch, CHUNK, H)
    pf = torch.empty(nch, CHUNK, H)
    cur = torch.zeros(nch, H)
    prod = torch.ones(nch, H)
    for t in range(CHUNK):
        cur = fc[:, t] * cur + uc[:, t]
        prod = prod * fc[:, t]
        cz[:, t] = cur
        pf[:, t] = prod
    cin = c0
    out = torch.empty(nch, CHUNK, H)
    for ch in range(nch):
        out[ch] = cz[ch] + pf[ch] * cin
        cin = out[ch, -1]
    return out.view(-1, H)[:B]


if __name__ == "__main__":
    main()
