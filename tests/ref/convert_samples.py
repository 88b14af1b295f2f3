#!/usr/bin/python3
"""The shipped samples written as the files users have (tests/samples/files_samples.sh): run with a
Python that has torch and numpy (Debian: /usr/bin/python3), OUTDIR the folder to write:

    /usr/bin/python3 tests/ref/convert_samples.py OUTDIR

    lstm_sd.pt       kjv-lstm's state_dict with its characters, a config and numbers added
    lstm_script.pt   kjv-lstm as a TorchScript module, its characters an attribute
    lstm_awd.pt      kjv-lstm as awd-lstm-lm keeps it: the whole [model, criterion,
                     optimizer], the nn.LSTM inside a WeightDrop (weight_hh_l0_raw, a bound
                     method), the characters given with --vocab lstm_awd.vocab.json
    gru_script.pt    kjv-gru as a TorchScript module
    rnn_minchar.npz  kjv-rnn as min-char-rnn's arrays (np.savez, float64): the embedding
                     folded into Wxh = W_ih E^T, bh = b_ih + b_hh, with its characters
    rnn_minchar.pt   the same arrays as float64 tensors in a torch.save dict, char_to_ix

The weights are the samples' own float32 values (but the folded min-char-rnn arrays, summed
in float64), so gatetui must give the samples' numbers.
"""
import json
import os
import sys
from typing import List

import numpy as np
import torch
from torch import nn

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "tools"))
sys.path.insert(0, HERE)
from gatetui_export import load_file  # noqa: E402
from make_files_fixtures import SplitCrossEntropyLoss, WeightDrop  # noqa: E402


def sample(name):
    t, meta = load_file(os.path.join(ROOT, "samples", name + ".bin"))
    return {k: torch.from_numpy(np.array(v, dtype=np.float32)) for k, v in t.items()}, meta


class Net(nn.Module):
    chars: List[str]

    def __init__(self, sd, rec, chars):
        super().__init__()
        V, D = sd["embedding.weight"].shape
        H = sd[rec + ".weight_hh_l0"].shape[1]
        self.embedding = nn.Embedding(V, D)
        self.rnn = (nn.LSTM if rec == "lstm" else nn.GRU)(D, H)
        self.fc = nn.Linear(H, V)
        self.load_state_dict({k.replace(rec + ".", "rnn."): v for k, v in sd.items()})
        self.chars = list(chars)

    def forward(self, x):
        y, _ = self.rnn(self.embedding(x))
        return self.fc(y)


class AWDModel(nn.Module):
    def __init__(self, sd):
        super().__init__()
        V, D = sd["embedding.weight"].shape
        H = sd["lstm.weight_hh_l0"].shape[1]
        self.encoder = nn.Embedding(V, D)
        self.rnns = nn.ModuleList([WeightDrop(nn.LSTM(D, H), ["weight_hh_l0"], dropout=0.5)])
        self.decoder = nn.Linear(H, V)
        with torch.no_grad():
            self.encoder.weight.copy_(sd["embedding.weight"])
            m = self.rnns[0].module
            m.weight_ih_l0.copy_(sd["lstm.weight_ih_l0"])
            m.weight_hh_l0_raw.copy_(sd["lstm.weight_hh_l0"])
            m.bias_ih_l0.copy_(sd["lstm.bias_ih_l0"])
            m.bias_hh_l0.copy_(sd["lstm.bias_hh_l0"])
            self.decoder.weight.copy_(sd["fc.weight"])
            self.decoder.bias.copy_(sd["fc.bias"])
        self.rnns[0].eval()
        self.rnns[0]._setweights()


def main():
    out = sys.argv[1]
    sd, meta = sample("kjv-lstm")
    chars = list(meta["vocab"])
    torch.save(dict(sd, chars=chars, config={"hidden": 256, "layers": 1}, epoch=30),
               os.path.join(out, "lstm_sd.pt"))
    torch.jit.save(torch.jit.script(Net(sd, "lstm", chars)), os.path.join(out, "lstm_script.pt"))
    model = AWDModel(sd)
    crit = SplitCrossEntropyLoss(256, splits=[])
    opt = torch.optim.SGD(model.parameters(), lr=30)
    torch.save([model, crit, opt], os.path.join(out, "lstm_awd.pt"))
    with open(os.path.join(out, "lstm_awd.vocab.json"), "w", encoding="utf-8") as f:
        json.dump(chars, f)
    sd, meta = sample("kjv-gru")
    torch.jit.save(torch.jit.script(Net(sd, "gru", list(meta["vocab"]))),
                   os.path.join(out, "gru_script.pt"))
    sd, meta = sample("kjv-rnn")
    d = {k: v.double().numpy() for k, v in sd.items()}
    w = dict(Wxh=d["rnn.weight_ih_l0"] @ d["embedding.weight"].T, Whh=d["rnn.weight_hh_l0"],
             bh=(d["rnn.bias_ih_l0"] + d["rnn.bias_hh_l0"])[:, None], Why=d["fc.weight"],
             by=d["fc.bias"][:, None])
    chars = list(meta["vocab"])
    np.savez(os.path.join(out, "rnn_minchar.npz"), chars=np.array(chars), **w)
    torch.save(dict({k: torch.from_numpy(v) for k, v in w.items()},
                    char_to_ix={c: i for i, c in enumerate(chars)}),
               os.path.join(out, "rnn_minchar.pt"))


if __name__ == "__main__":
    main()
