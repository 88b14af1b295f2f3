#!/usr/bin/python3
"""Model files gatetui must refuse because it would compute them wrongly, and look-alikes it
must still read.

Run with a Python that has torch (Debian: /usr/bin/python3):

    /usr/bin/python3 tests/ref/make_refuse_fixtures.py

It writes into tests/fixtures/refuse/:

    EXPECTED      each file to refuse, a tab, and a word its one-line message must contain
    ACCEPTED      each look-alike that must load (tensors beside the cell)
    text.txt      a text to run them on

The refused files: cells that are not PyTorch's stock ones (a LayerNorm LSTM with the names
of PyTorch's own benchmarks/fastrnns LayerNormLSTMCell, stacked; peepholes; a third bias; a
layer-normalised GRU), as torch.save state_dicts and as safetensors files. Everything is
seeded.
"""
import json
import os
import struct

import torch
from torch import nn

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
OUT = os.path.join(ROOT, "tests", "fixtures", "refuse")

CHARS = sorted(set("the quick brown fox jumps over the lazy dog.\n"))
TEXT = "the quick brown fox jumps over the lazy dog.\n" * 3


class LayerNormLSTMCell(nn.Module):
    """PyTorch's benchmarks/fastrnns/custom_lstms.py LayerNormLSTMCell, its names."""

    def __init__(self, input_size, hidden_size):
        super().__init__()
        self.weight_ih = nn.Parameter(torch.randn(4 * hidden_size, input_size))
        self.weight_hh = nn.Parameter(torch.randn(4 * hidden_size, hidden_size))
        self.layernorm_i = nn.LayerNorm(4 * hidden_size)
        self.layernorm_h = nn.LayerNorm(4 * hidden_size)
        self.layernorm_c = nn.LayerNorm(hidden_size)


class LSTMLayer(nn.Module):
    def __init__(self, cell):
        super().__init__()
        self.cell = cell


class PeepholeCell(nn.Module):
    def __init__(self, input_size, hidden_size):
        super().__init__()
        self.weight_ih = nn.Parameter(torch.randn(4 * hidden_size, input_size))
        self.weight_hh = nn.Parameter(torch.randn(4 * hidden_size, hidden_size))
        self.bias_ih = nn.Parameter(torch.randn(4 * hidden_size))
        self.bias_hh = nn.Parameter(torch.randn(4 * hidden_size))
        self.w_ci = nn.Parameter(torch.randn(hidden_size))
        self.w_cf = nn.Parameter(torch.randn(hidden_size))
        self.w_co = nn.Parameter(torch.randn(hidden_size))


class Net(nn.Module):
    """An embedding, a recurrent part and a readout."""

    def __init__(self, rec, vocab, d, h):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        for name, mod in rec.items():
            setattr(self, name, mod)
        self.fc = nn.Linear(h, vocab)


def save_safetensors(sd, path, vocab):
    header, blobs, off = {}, [], 0
    for name, t in sd.items():
        b = t.detach().to(torch.float32).contiguous().numpy().tobytes()
        header[name] = {"dtype": "F32", "shape": list(t.shape), "data_offsets": [off, off + len(b)]}
        blobs.append(b)
        off += len(b)
    header["__metadata__"] = {"vocab": vocab}
    h = json.dumps(header).encode()
    h += b" " * (-len(h) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(h)) + h + b"".join(blobs))


def cells():
    """The files whose recurrent part holds tensors an nn.LSTM / nn.GRU does not."""
    V, D, H = len(CHARS), 4, 3
    vocab = "".join(CHARS)
    out = []
    ln = Net({"cell": LayerNormLSTMCell(D, H)}, V, D, H)
    out.append(("ln_lstm", ln.state_dict(), "layer-normalised cell is not an nn.LSTM"))
    stacked = Net({"layers": nn.ModuleList([LSTMLayer(LayerNormLSTMCell(D, H)),
                                            LSTMLayer(LayerNormLSTMCell(H, H))])}, V, D, H)
    out.append(("ln_lstm_stacked", stacked.state_dict(), "layers.0.cell.layernorm_"))
    peep = Net({"cell": PeepholeCell(D, H)}, V, D, H)
    out.append(("peephole_lstm", peep.state_dict(), "a cell with peepholes is not an nn.LSTM"))
    third = Net({"lstm": nn.LSTM(D, H)}, V, D, H)
    sd = third.state_dict()
    sd["lstm.bias_c_l0"] = torch.randn(4 * H)
    out.append(("third_bias", sd, "lstm.bias_c_l0: tensors an nn.LSTM does not have under its prefix"))
    gru = Net({"gru": nn.GRU(D, H)}, V, D, H)
    sd = gru.state_dict()
    sd["gru.ln_r.weight"] = torch.ones(H)
    sd["gru.ln_r.bias"] = torch.zeros(H)
    out.append(("ln_gru", sd, "layer-normalised cell is not an nn.GRU"))
    files = []
    for name, sd, word in out:
        torch.save(sd, os.path.join(OUT, name + ".pt"))
        torch.save({"model_state_dict": sd, "chars": CHARS}, os.path.join(OUT, name + "_ckpt.pt"))
        save_safetensors(sd, os.path.join(OUT, name + ".safetensors"), vocab)
        files += [(name + ".pt", word), (name + "_ckpt.pt", word), (name + ".safetensors", word)]
    return files


def accepted_cells():
    """Look-alikes: tensors near the cell's prefix but outside it, an optimizer beside it."""
    V, D, H = len(CHARS), 4, 3
    net = Net({"cell": nn.LSTMCell(D, H), "cell_norm": nn.LayerNorm(H)}, V, D, H)
    opt = torch.optim.Adam(net.parameters())
    loss = net.fc(net.cell(net.emb(torch.tensor([1, 2])))[0]).sum()
    loss.backward()
    opt.step()
    torch.save({"model": net.state_dict(), "optimizer": opt.state_dict(), "chars": CHARS},
               os.path.join(OUT, "cell_beside.pt"))
    sd = nn.LSTM(D, H).state_dict()
    sd = {"lstm." + k: v for k, v in sd.items()}
    sd["lstm_out.weight"] = torch.randn(V, H)
    sd["emb.weight"] = torch.randn(V, D)
    save_safetensors(sd, os.path.join(OUT, "lstm_out_beside.safetensors"), "".join(CHARS))
    return ["cell_beside.pt", "lstm_out_beside.safetensors"]


def main():
    os.makedirs(OUT, exist_ok=True)
    torch.manual_seed(1)
    refused = cells()
    accepted = accepted_cells()
    with open(os.path.join(OUT, "EXPECTED"), "w") as f:
        f.write("# file\tword of its one-line message (tests/refuse.sh)\n")
        for name, word in refused:
            f.write(f"{name}\t{word}\n")
    with open(os.path.join(OUT, "ACCEPTED"), "w") as f:
        f.write("# files that must load (tests/refuse.sh)\n")
        f.write("".join(n + "\n" for n in accepted))
    with open(os.path.join(OUT, "text.txt"), "w") as f:
        f.write(TEXT)


if __name__ == "__main__":
    main()
