#!/usr/bin/env python3
"""The PyTorch side of the stepping benchmark: on the same model file and text, the
median characters per second of (1) nn.LSTM/nn.GRU/nn.RNN forward over the whole sequence at
batch 1, and (2) a Python loop computing every gate by hand, step by step, as one would
to get the gates out.  Prints 'nn RATE' and 'hand RATE'.

Usage: bench_torch.py MODEL TEXT [REPS] [MAXSTEPS] [THREADS]"""
import json
import struct
import sys
import time

import numpy as np
import torch

DT = {"F32": np.float32, "F16": np.float16, "F64": np.float64}


def read_safetensors(path):
    raw = open(path, "rb").read()
    n = struct.unpack("<Q", raw[:8])[0]
    hdr = json.loads(raw[8:8 + n])
    meta = hdr.pop("__metadata__", {})
    base = 8 + n
    out = {}
    for name, d in hdr.items():
        b, e = d["data_offsets"]
        if d["dtype"] == "BF16":
            u = np.frombuffer(raw[base + b:base + e], "<u2").astype(np.uint32) << 16
            a = u.view(np.float32)
        else:
            a = np.frombuffer(raw[base + b:base + e], DT[d["dtype"]])
        out[name] = torch.tensor(a.astype(np.float32).reshape(d["shape"]))
    return out, meta


def main():
    path, text = sys.argv[1], sys.argv[2]
    reps = int(sys.argv[3]) if len(sys.argv) > 3 else 5
    maxsteps = int(sys.argv[4]) if len(sys.argv) > 4 else 1 << 62
    threads = int(sys.argv[5]) if len(sys.argv) > 5 else 1
    torch.set_num_threads(threads)
    t, meta = read_safetensors(path)
    vocab = meta["vocab"]
    idx = {c: i for i, c in enumerate(vocab)}
    toks = [idx[c] for c in open(text, encoding="utf-8").read() if c in idx][:maxsteps]
    ih = sorted(k for k in t if "weight_ih_l" in k)
    prefix = ih[0][:ih[0].index("weight_ih_l")]
    L = len(ih)
    whh = t[prefix + "weight_hh_l0"]
    H = whh.shape[1]
    G = whh.shape[0] // H
    emb = next((v for k, v in t.items() if "emb" in k or k.endswith("encoder.weight")), None)
    D = t[prefix + "weight_ih_l0"].shape[1]
    relu = meta.get("nonlinearity") == "relu"
    bias = (prefix + "bias_ih_l0") in t
    if G == 1:
        net = torch.nn.RNN(D, H, num_layers=L, bias=bias, nonlinearity="relu" if relu else "tanh")
    else:
        net = (torch.nn.LSTM if G == 4 else torch.nn.GRU)(D, H, num_layers=L, bias=bias)
    net.load_state_dict({k[len(prefix):]: v for k, v in t.items() if k.startswith(prefix)})
    tt = torch.tensor(toks)
    x = emb[tt] if emb is not None else torch.nn.functional.one_hot(tt, D).float()
    x = x.unsqueeze(1)

    def nn_pass():
        with torch.no_grad():
            net(x)

    W = [(t[f"{prefix}weight_ih_l{k}"], t[f"{prefix}weight_hh_l{k}"],
          t.get(f"{prefix}bias_ih_l{k}", torch.zeros(G * H)),
          t.get(f"{prefix}bias_hh_l{k}", torch.zeros(G * H))) for k in range(L)]

    def hand_pass():
        with torch.no_grad():
            h = [torch.zeros(H) for _ in range(L)]
            c = [torch.zeros(H) for _ in range(L)]
            for s in range(len(toks)):
                inp = x[s, 0]
                for k, (wi, wh, bi, bh) in enumerate(W):
                    if G == 1:
                        a = wi @ inp + bi + wh @ h[k] + bh
                        h[k] = a.relu() if relu else a.tanh()
                    elif G == 4:
                        a = wi @ inp + bi + wh @ h[k] + bh
                        i, f, g, o = a.chunk(4)
                        i, f, g, o = i.sigmoid(), f.sigmoid(), g.tanh(), o.sigmoid()
                        c[k] = f * c[k] + i * g
                        h[k] = o * c[k].tanh()
                    else:
                        gi = wi @ inp + bi
                        gh = wh @ h[k] + bh
                        r = (gi[:H] + gh[:H]).sigmoid()
                        z = (gi[H:2 * H] + gh[H:2 * H]).sigmoid()
                        n = (gi[2 * H:] + r * gh[2 * H:]).tanh()
                        h[k] = (1 - z) * n + z * h[k]
                    inp = h[k]

    for name, fn in (("nn", nn_pass), ("hand", hand_pass)):
        rates = []
        for _ in range(reps):
            t0 = time.perf_counter()
            fn()
            rates.append(len(toks) / (time.perf_counter() - t0))
        print(name, f"{sorted(rates)[len(rates) // 2]:.0f}", flush=True)


if __name__ == "__main__":
    main()
