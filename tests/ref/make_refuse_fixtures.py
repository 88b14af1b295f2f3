#!/usr/bin/python3
"""Model files gatetui must refuse because it would compute them wrongly, and look-alikes it
must still read.

Run with a Python that has torch (Debian: /usr/bin/python3):

    /usr/bin/python3 tests/ref/make_refuse_fixtures.py

It writes into tests/fixtures/refuse/:

    EXPECTED      each file to refuse, a tab, and a word its one-line message must contain
    ACCEPTED      each look-alike that must load (tensors beside the cell, special tokens)
    PARAMS        files with shared storage and their parameter count as PyTorch gives it
    text.txt      a text to run them on

The refused files: cells that are not PyTorch's stock ones (a LayerNorm LSTM with the names
of PyTorch's own benchmarks/fastrnns LayerNormLSTMCell, stacked; peepholes; a third bias; a
layer-normalised GRU), as torch.save state_dicts and as safetensors files; word and
sub-word models (a word vocabulary of 5,000; a BPE vocabulary of 282 with its merges; a
byte-sized model with merges or a tokenizer object beside it). Everything is seeded.
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


WORDS = ("the and of to in is that it was for on with he as his be at by this had not are "
         "but from or have an they which one you were her all she there would their we him "
         "been has when who will more no if out so said what up its about into than them can "
         "only other new some could time these two may then do first any my now such like our "
         "over man me even most made after also did many before must through back years where "
         "much your way well down should because each just those people how too little state "
         "good very make world still own see men work long get here between both life being "
         "under never day same another know while last might us great old year off come since "
         "against go came right used take three").split()


def word_vocab(n):
    """<pad>, <unk>, <bos>, <eos>, 95 printable characters, then words up to n tokens."""
    toks = ["<pad>", "<unk>", "<bos>", "<eos>"] + [chr(c) for c in range(32, 127)]
    i = 0
    while len(toks) < n:
        w = WORDS[i % len(WORDS)] + ("" if i < len(WORDS) else str(i // len(WORDS)))
        toks.append(w)
        i += 1
    return toks


def lstm_sd(V, D, H, readout=True):
    torch.manual_seed(V)
    net = Net({"lstm": nn.LSTM(D, H)}, V, D, H)
    sd = net.state_dict()
    if not readout:
        del sd["fc.weight"], sd["fc.bias"]
    return sd


def tokens():
    """Word and sub-word models."""
    files = []
    itos = word_vocab(5000)
    torch.save({"model_state_dict": lstm_sd(5000, 2, 2, readout=False), "itos": itos},
               os.path.join(OUT, "word_lstm.pt"))
    # a word model (doc/usage.md, "Word models"): read a word at a time, listed in ACCEPTED by main
    pieces = ["th", "he", "in", "er", "an", "re", "on", "at", "en", "nd", "ti", "es", "or", "te",
              "of", "ed", "is", "it", "al", "ar", "st", "to", "nt", "ng", "se", "ha"]
    bpe = [chr(c) for c in range(256)] + pieces
    merges = [(p[0], p[1]) for p in pieces]
    torch.save({"model": lstm_sd(282, 4, 3), "vocab": bpe, "merges": merges},
               os.path.join(OUT, "bpe_lstm.pt"))
    files.append(("bpe_lstm.pt", "the file holds a tokenizer (\"merges\" in the file)"))
    torch.save({"model": lstm_sd(282, 4, 3), "vocab": bpe}, os.path.join(OUT, "bpe_vocab.pt"))
    files.append(("bpe_vocab.pt", "a sub-word model: 26 of the 282 tokens are longer than one "
                  "character ('th', 'he', ...) and 255 are one character"))
    torch.save({"model": lstm_sd(256, 4, 3), "merges": merges},
               os.path.join(OUT, "bpe_merges.pt"))
    files.append(("bpe_merges.pt", "a tokenizer (\"merges\" in the file)"))
    torch.save({"model": lstm_sd(256, 4, 3), "bpe_ranks": {m: i for i, m in enumerate(merges)}},
               os.path.join(OUT, "bpe_ranks.pt"))
    files.append(("bpe_ranks.pt", "a tokenizer (\"bpe_ranks\" in the file)"))
    torch.save({"model": lstm_sd(256, 4, 3), "tokenizer": BPETokenizer(merges)},
               os.path.join(OUT, "tokenizer_obj.pt"))
    files.append(("tokenizer_obj.pt", "a tokenizer (\"tokenizer\" in the file, a __main__.BPETokenizer)"))
    return files


class BPETokenizer:
    def __init__(self, merges):
        self.merges = list(merges)
        self.cache = {}


class CharTokenizer:
    def __init__(self, chars):
        self.stoi = {c: i for i, c in enumerate(chars)}
        self.itos = list(chars)


def accepted_tokens():
    """Character models with special tokens, a character tokenizer, a tokenizer setting."""
    V = len(CHARS) + 3
    itos = ["<pad>", "[MASK]"] + CHARS + ["<unk>"]
    torch.save({"model": lstm_sd(V, 4, 3), "itos": itos}, os.path.join(OUT, "specials.pt"))
    V = len(CHARS)
    torch.save({"model": lstm_sd(V, 4, 3), "tokenizer": CharTokenizer(CHARS),
                "config": {"tokenizer": "char"}},
               os.path.join(OUT, "char_tokenizer.pt"))
    return ["specials.pt", "char_tokenizer.pt"]


def params():
    """Parameters counted as PyTorch's model.parameters() counts them: a tied readout once,
    two views of one storage both."""
    V, H = len(CHARS), 4
    torch.manual_seed(3)
    tied = Net({"lstm": nn.LSTM(H, H)}, V, H, H)
    tied.fc.weight = tied.emb.weight
    torch.save({"model": tied.state_dict(), "chars": CHARS}, os.path.join(OUT, "tied.pt"))
    views = Net({"lstm": nn.LSTM(H, H)}, V, H, H)
    sd = views.state_dict()
    both = torch.randn(8 * H)
    sd["lstm.bias_ih_l0"], sd["lstm.bias_hh_l0"] = both[:4 * H], both[4 * H:]
    torch.save({"model": sd, "chars": CHARS}, os.path.join(OUT, "bias_views.pt"))
    views.lstm.bias_ih_l0.data, views.lstm.bias_hh_l0.data = both[:4 * H], both[4 * H:]
    return [("tied.pt", sum(p.numel() for p in tied.parameters())),
            ("bias_views.pt", sum(p.numel() for p in views.parameters()))]


def top_level():
    """A model whose recurrent module is the file's top level: its own odd tensors refused,
    an embedding and a readout beside it, unprefixed, read."""
    V, D, H = len(CHARS), 4, 3
    torch.manual_seed(4)
    sd = dict(nn.LSTM(D, H).state_dict())
    sd["emb"], sd["out"] = torch.randn(V, D), torch.randn(V, H)
    save_safetensors(sd, os.path.join(OUT, "top_level.safetensors"), "".join(CHARS))
    sd["bias_c_l0"] = torch.randn(4 * H)
    save_safetensors(sd, os.path.join(OUT, "top_third_bias.safetensors"), "".join(CHARS))
    torch.save(LayerNormLSTMCell(V, H).state_dict(), os.path.join(OUT, "top_ln_cell.pt"))
    refused = [("top_third_bias.safetensors", "bias_c_l0: tensors an nn.LSTM does not have"),
               ("top_ln_cell.pt", "layernorm_c.bias, layernorm_c.weight, layernorm_h.bias, ...: "
                "a layer-normalised cell is not an nn.LSTM")]
    return refused, ["top_level.safetensors"]


def main():
    os.makedirs(OUT, exist_ok=True)
    torch.manual_seed(1)
    refused, accepted = cells(), accepted_cells()
    refused += tokens()
    accepted += accepted_tokens() + ["word_lstm.pt"]
    r, a = top_level()
    refused += r
    accepted += a
    with open(os.path.join(OUT, "EXPECTED"), "w") as f:
        f.write("# file\tword of its one-line message (tests/cli/refuse.sh)\n")
        for name, word in refused:
            f.write(f"{name}\t{word}\n")
    with open(os.path.join(OUT, "ACCEPTED"), "w") as f:
        f.write("# files that must load (tests/cli/refuse.sh)\n")
        f.write("".join(n + "\n" for n in accepted))
    with open(os.path.join(OUT, "PARAMS"), "w") as f:
        f.write("# file\tparameters as PyTorch counts them (tests/cli/refuse.sh)\n")
        f.write("".join(f"{n}\t{c}\n" for n, c in params()))
    with open(os.path.join(OUT, "text.txt"), "w") as f:
        f.write(TEXT)


if __name__ == "__main__":
    main()
