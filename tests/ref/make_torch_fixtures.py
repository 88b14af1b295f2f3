#!/usr/bin/python3
"""torch.save fixtures for gatetui: every kind of file a PyTorch user has, and PyTorch's values.

Run with a Python that has torch and numpy (Debian: /usr/bin/python3):

    /usr/bin/python3 tests/ref/make_torch_fixtures.py

It writes into tests/fixtures/torch/, for every model NAME:

    NAME.pt          the file as torch.save wrote it (or edited, for strides and views)
    NAME.txt         the text (with a few characters outside the vocabulary)
    NAME.csv         what `gatetui --dump --to 119 NAME.pt NAME.txt` must print
    NAME.probs.csv   what `gatetui --dump --probs --to 119` must print (with a readout)
    NAME.loss        the readout's mean loss over the report's default windows: nats count

and MANIFEST (one line per model: its name and the options gatetui needs), and in bad/ the
files gatetui must refuse (hostile pickles, damaged archives, files of other kinds) with
bad/EXPECTED: each file and a word its one-line message must contain.

The values: the models are PyTorch modules defined here (the whole-module files pickle
them as __main__ classes, as a training script does); their weights, as stored, are run
in float64 by PyTorch's own nn.LSTM / nn.GRU / nn.LSTMCell / nn.GRUCell step by step, the
gates are computed in float64 numpy from the same weights and the states they give are
checked against PyTorch's before anything is written. The hostile pickles are checked to
be hostile: torch.load, run on each in a scratch folder, does create the file the pickle
asks for (gatetui must refuse them and create nothing). Everything is seeded; only the
legacy-format files (which name storages by their objects' addresses) and the TorchScript
archive (which holds a random id) differ in their bytes from run to run.
"""
import argparse
import collections
import gzip
import io
import math
import os
import pickle
import shutil
import struct
import subprocess
import sys
import tempfile
import zipfile

import numpy as np
import torch
from torch import nn

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, HERE)
from make_fixtures import csv_char, gru_cell, lstm_cell, write_dump  # noqa: E402

OUT_REL = "tests/fixtures/torch"
OUT = os.path.join(ROOT, OUT_REL)
BAD = os.path.join(OUT, "bad")
CHECK_TOL = 1e-9      # numpy float64 against PyTorch float64
WINDOW, WINDOWS = 128, 32  # the report's default windows, for the loss
DUMP_STEPS = 120  # the dumps cover steps 0..119 (`--to 119`); the loss the whole text

TRAIN = (
    "the cat sat on the mat. the dog sat on the log. a cat and a dog sat.\n"
    "on the mat the cat sat; on the log the dog sat, and the hat was on the cat.\n"
    "that is all the cat and the dog said to the rat that sat on the hat.\n"
)
EXTRA = "\u00e9\u2014Q"  # characters outside every vocabulary


def text_of(seed, n=300):
    """A text from the training text's words, with a few characters it does not have."""
    rng = np.random.default_rng(seed)
    words = TRAIN.replace("\n", " \n ").split(" ")
    out = []
    while sum(len(w) + 1 for w in out) < n:
        out.append(words[rng.integers(len(words))])
        if rng.random() < 0.02:
            out.append(EXTRA[rng.integers(len(EXTRA))])
    return " ".join(out).replace(" \n ", "\n")


CHARS = sorted(set(TRAIN))


# ---------------------------------------------------------------------------------------
# The models: an embedding (or one-hot input), recurrent layers and a readout, under the
# names a user gives them.

class Net(nn.Module):
    """rec: "stack" (one nn.LSTM / nn.GRU of `layers` layers), "cells" (a ModuleList of
    cells), "named" (cells as attributes cell1, cell2, ...), "modules" (single-layer
    nn.LSTM / nn.GRU modules lstm1, lstm2, ...). D None: one-hot input."""

    def __init__(self, V, H, arch="lstm", layers=1, D=None, rec="stack", names=None,
                 bias=True):
        super().__init__()
        n = dict(emb="embedding", rnn="rnn", out="fc", base="cell")
        n.update(names or {})
        self.n, self.V, self.H, self.D, self.arch, self.rec = n, V, H, D, arch, rec
        self.nlayers = layers
        D0 = D if D else V
        if D:
            setattr(self, n["emb"], nn.Embedding(V, D))
        Stack = nn.LSTM if arch == "lstm" else nn.GRU
        Cell = nn.LSTMCell if arch == "lstm" else nn.GRUCell
        widths = [D0] + [H] * (layers - 1)
        if rec == "stack":
            setattr(self, n["rnn"], Stack(D0, H, num_layers=layers, bias=bias))
        elif rec == "cells":
            setattr(self, n["rnn"], nn.ModuleList([Cell(w, H, bias=bias) for w in widths]))
        elif rec == "named":
            for k, w in enumerate(widths):
                setattr(self, "%s%d" % (n["base"], k + 1), Cell(w, H, bias=bias))
        else:
            for k, w in enumerate(widths):
                setattr(self, "%s%d" % (n["base"], k + 1), Stack(w, H, bias=bias))
        if n["out"]:
            setattr(self, n["out"], nn.Linear(H, V))

    # the recurrent modules, lowest first, and whether each is a cell
    def recs(self):
        if self.rec == "stack":
            return [(getattr(self, self.n["rnn"]), False)]
        if self.rec == "cells":
            return [(c, True) for c in getattr(self, self.n["rnn"])]
        return [(getattr(self, "%s%d" % (self.n["base"], k + 1)), self.rec == "named")
                for k in range(self.nlayers)]

    def ref_layers(self):
        """Every layer's weights as float64 numpy arrays, as the model holds them."""
        out = []
        for m, cell in self.recs():
            for k in range(1 if cell else m.num_layers):
                sfx = "" if cell else "_l%d" % k
                g = lambda s: getattr(m, s + sfx, None)
                w_ih, w_hh = g("weight_ih"), g("weight_hh")
                z = torch.zeros(w_ih.shape[0], dtype=torch.float64)
                b_ih = g("bias_ih") if g("bias_ih") is not None else z
                b_hh = g("bias_hh") if g("bias_hh") is not None else z
                out.append({k2: v.detach().double().numpy()
                            for k2, v in dict(w_ih=w_ih, w_hh=w_hh, b_ih=b_ih, b_hh=b_hh).items()})
        return out

    def inputs(self, toks):
        if self.D:
            return getattr(self, self.n["emb"]).weight.detach().double().numpy()[toks]
        return np.eye(self.V)[toks]

    def readout(self):
        if not self.n["out"]:
            return None
        lin = getattr(self, self.n["out"])
        return lin.weight.detach().double().numpy(), lin.bias.detach().double().numpy()

    def torch_h(self, toks):
        """Every layer's h after every step, from PyTorch's modules in float64: [T, L, H]."""
        mods = [(m.double(), cell) for m, cell in self.recs()]
        X = torch.tensor(self.inputs(toks))
        state = [None] * len(mods)
        hs = []
        with torch.no_grad():
            for t in range(len(toks)):
                x, row = X[t].view(1, -1), []
                for j, (m, cell) in enumerate(mods):
                    if cell:
                        state[j] = m(x, state[j])
                        h = state[j][0] if self.arch == "lstm" else state[j]
                        row.append(h[0])
                        x = h
                    else:
                        y, state[j] = m(x.view(1, 1, -1), state[j])
                        hh = state[j][0] if self.arch == "lstm" else state[j]
                        row.extend(hh[:, 0, :])
                        x = y.view(1, -1)
                hs.append(torch.stack(row).numpy())
        for m, _ in mods:
            m.float()
        return np.array(hs)

    def forward_seq(self, toks):
        """Logits [T, V] for training, in float32."""
        X = torch.tensor(self.inputs(toks), dtype=torch.float32)
        if self.D:
            X = getattr(self, self.n["emb"])(torch.tensor(toks))
        state = [None] * len(self.recs())
        outs = []
        for t in range(len(toks)):
            x = X[t].view(1, -1)
            for j, (m, cell) in enumerate(self.recs()):
                if cell:
                    state[j] = m(x, state[j])
                    x = state[j][0] if self.arch == "lstm" else state[j]
                else:
                    y, state[j] = m(x.view(1, 1, -1), state[j])
                    x = y.view(1, -1)
            outs.append(x)
        return getattr(self, self.n["out"])(torch.cat(outs))


def train(net, toks, steps, seed):
    torch.manual_seed(seed)
    opt = torch.optim.Adam(net.parameters(), lr=0.02)
    for s in range(steps):
        start = (s * 37) % max(1, len(toks) - 48)
        seq = toks[start:start + 48]
        loss = nn.functional.cross_entropy(net.forward_seq(seq[:-1]), torch.tensor(seq[1:]))
        opt.zero_grad()
        loss.backward()
        opt.step()
    return opt


# ---------------------------------------------------------------------------------------
# The reference: gates by numpy, states checked against PyTorch.

def ref_values(net, toks):
    layers = net.ref_layers()
    X = net.inputs(toks)
    H, L = net.H, len(layers)
    ncol = 6 if net.arch == "lstm" else 4
    vals = np.zeros((len(toks), L, ncol, H))
    h = [np.zeros(H) for _ in range(L)]
    c = [np.zeros(H) for _ in range(L)]
    for t in range(len(toks)):
        x = X[t]
        for k in range(L):
            if net.arch == "lstm":
                i, f, g, o, c[k], h[k] = lstm_cell(layers[k], x, h[k], c[k])
                vals[t, k] = (i, f, g, o, c[k], h[k])
            else:
                r, z, n, h[k] = gru_cell(layers[k], x, h[k])
                vals[t, k] = (r, z, n, h[k])
            x = h[k]
    th = net.torch_h(toks)
    err = np.abs(th - vals[:, :, -1, :]).max()
    assert err < CHECK_TOL, ("numpy against PyTorch", err)
    return vals


def log_softmax_at(logit, k):
    mx = logit.max()
    return mx + math.log(np.exp(logit - mx).sum()) - logit[k]


def ref_loss(net, toks):
    """The readout's mean loss over the report's default windows (doc/measures.md)."""
    W, b = net.readout()
    total, count = 0.0, 0
    for w in range(min(WINDOWS, (len(toks) + WINDOW - 1) // WINDOW)):
        win = toks[w * WINDOW:(w + 1) * WINDOW]
        top = ref_values(net, win)[:, -1, -1, :]
        for t in range(len(win) - 1):
            total += log_softmax_at(W @ top[t] + b, win[t + 1])
            count += 1
    return total / count, count


def write_probs(path, net, top):
    W, b = net.readout()
    lines = ["step,token,p"]
    for t in range(top.shape[0]):
        logit = W @ top[t] + b
        e = np.exp(logit - logit.max())
        p = e / e.sum()
        lines.extend("%d,%d,%.9g" % (t, v, p[v]) for v in range(len(p)))
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def write_case(name, net, tokens_of_text, text, options, manifest):
    """The text, the dump, the probabilities and the loss of one fixture."""
    base = os.path.join(OUT, name)
    with open(base + ".txt", "w", encoding="utf-8") as f:
        f.write(text)
    steps = tokens_of_text(text)
    toks = [tk for tk, _ in steps]
    vals = ref_values(net, toks)
    assert len(toks) > max(DUMP_STEPS, WINDOW), (name, len(toks))
    write_dump({"arch": net.arch, "L": vals.shape[1], "H": net.H}, base + ".csv",
               steps[:DUMP_STEPS], vals[:DUMP_STEPS])
    if net.readout() is not None:
        write_probs(base + ".probs.csv", net, vals[:DUMP_STEPS, -1, -1, :])
        nats, count = ref_loss(net, toks)
        with open(base + ".loss", "w") as f:
            f.write("%.12g %d\n" % (nats, count))
        print("%-22s %s L=%d H=%d V=%d steps=%d loss %.3f bits (uniform %.3f)"
              % (name, net.arch, vals.shape[1], net.H, net.V, len(toks), nats / math.log(2),
                 math.log2(net.V)))
    manifest.append(" ".join([name] + options))


def tokens_with(vocab):
    """The time steps of a text for a vocabulary (a list of tokens, in index order)."""
    index = {tok: i for i, tok in enumerate(vocab) if len(tok) == 1}

    def steps(text):
        return [(index[ch], csv_char(ch)) for ch in text if ch in index]
    return steps


def seeded(seed):
    torch.manual_seed(seed)
    np.random.seed(seed)


# ---------------------------------------------------------------------------------------
# Editing what torch.save wrote: strides, offsets, shared storage.

def views_and_strides(net):
    """weight_hh_l0 transposed (column-major strides), weight_ih_l0 a view at an offset of a
    larger storage, both biases views of one storage."""
    rnn = getattr(net, net.n["rnn"])
    with torch.no_grad():
        whh = rnn.weight_hh_l0.detach().clone()
        rnn.weight_hh_l0 = nn.Parameter(whh.t().contiguous().t())
        wih = rnn.weight_ih_l0.detach().clone()
        big = torch.randn(wih.numel() + 37)
        big[37:] = wih.reshape(-1)
        rnn.weight_ih_l0 = nn.Parameter(big[37:].view(wih.shape))
        both = torch.cat([rnn.bias_ih_l0.detach(), rnn.bias_hh_l0.detach()])
        n = rnn.bias_ih_l0.numel()
        rnn.bias_ih_l0 = nn.Parameter(both[:n])
        rnn.bias_hh_l0 = nn.Parameter(both[n:])
    assert not rnn.weight_hh_l0.is_contiguous()
    assert rnn.weight_ih_l0.storage_offset() == 37
    assert rnn.bias_ih_l0.data_ptr() + 4 * n == rnn.bias_hh_l0.data_ptr()


# ---------------------------------------------------------------------------------------
# The fixtures that load.

def cases(manifest):
    V = len(CHARS)
    steps = tokens_with(CHARS)
    vocab_file = os.path.join(OUT, "train.txt")
    with open(vocab_file, "w", encoding="utf-8") as f:
        f.write(TRAIN)
    vf = ["--vocab-from", OUT_REL + "/train.txt"]

    # a state_dict, zip format, no vocabulary in it
    seeded(1)
    net = Net(V, 8, "lstm", 2, D=6)
    torch.save(net.state_dict(), os.path.join(OUT, "sd_zip.pt"))
    write_case("sd_zip", net, steps, text_of(1), vf, manifest)

    # a checkpoint in the legacy format, vocabulary as a string
    seeded(2)
    net = Net(V, 7, "gru", 1)
    torch.save({"state_dict": net.state_dict(), "vocab": "".join(CHARS)},
               os.path.join(OUT, "legacy_ckpt.pt"), _use_new_zipfile_serialization=False)
    write_case("legacy_ckpt", net, steps, text_of(2), [], manifest)

    # a training checkpoint: optimizer, a float loss, chars as a list; trained
    seeded(3)
    net = Net(V, 16, "lstm", 1, D=8)
    opt = train(net, [CHARS.index(ch) for ch in TRAIN], 150, 3)
    torch.save({"epoch": 7, "model_state_dict": net.state_dict(),
                "optimizer_state_dict": opt.state_dict(), "loss": 2.1, "chars": CHARS},
               os.path.join(OUT, "ckpt_optim.pt"))
    write_case("ckpt_optim", net, steps, text_of(3), [], manifest)

    # a whole module of a class of this script, vocabulary as its attributes
    seeded(4)
    net = Net(V, 8, "lstm", 1, D=5, names=dict(emb="encoder", rnn="lstm", out="decoder"))
    net.chars = CHARS
    net.char2idx = {ch: i for i, ch in enumerate(CHARS)}
    torch.save(net, os.path.join(OUT, "whole_module.pt"))
    write_case("whole_module", net, steps, text_of(4), [], manifest)

    # the same kind, GRU, legacy format
    seeded(5)
    net = Net(V, 6, "gru", 2, D=4, names=dict(rnn="gru", out="head"))
    net.itos = CHARS
    torch.save(net, os.path.join(OUT, "whole_module_legacy.pt"),
               _use_new_zipfile_serialization=False)
    write_case("whole_module_legacy", net, steps, text_of(5), [], manifest)

    # a checkpoint holding a whole module, argparse options and an optimizer
    seeded(6)
    net = Net(V, 9, "lstm", 1, D=6)
    opt = torch.optim.SGD(net.parameters(), lr=0.1, momentum=0.9)
    args = argparse.Namespace(hidden=9, lr=0.1, data="train.txt")
    torch.save({"model": net, "args": args, "optimizer": opt.state_dict(), "itos": CHARS},
               os.path.join(OUT, "ckpt_module_args.pt"))
    write_case("ckpt_module_args", net, steps, text_of(6), [], manifest)

    # stacked nn.LSTMCell (cells.0., cells.1.), readout on the top one; idx2char
    seeded(7)
    net = Net(V, 6, "lstm", 2, D=5, rec="cells", names=dict(rnn="cells", out="head"))
    torch.save({"model": net.state_dict(), "idx2char": dict(enumerate(CHARS))},
               os.path.join(OUT, "cells_lstm.pt"))
    write_case("cells_lstm", net, steps, text_of(7), [], manifest)

    # three nn.GRUCell as cell1, cell2, cell3, one-hot input; char2idx
    seeded(8)
    net = Net(V, 5, "gru", 3, rec="named", names=dict(out="decoder"))
    torch.save({"state_dict": net.state_dict(), "char2idx": {c: i for i, c in enumerate(CHARS)}},
               os.path.join(OUT, "cells_gru_named.pt"))
    write_case("cells_gru_named", net, steps, text_of(8), [], manifest)

    # two single-layer nn.LSTM modules lstm1, lstm2 stacked
    seeded(9)
    net = Net(V, 6, "lstm", 2, D=4, rec="modules", names=dict(base="lstm"))
    torch.save({"net": net.state_dict(), "alphabet": "".join(CHARS)},
               os.path.join(OUT, "lstm_modules.pt"))
    write_case("lstm_modules", net, steps, text_of(9), [], manifest)

    special_cases(manifest, steps, V)


def special_cases(manifest, steps, V):
    # one nn.LSTMCell, odd names (wte, lm_head), a vocabulary with <pad> and <unk> as stoi
    seeded(10)
    vocab = ["<pad>", "<unk>"] + CHARS
    net = Net(len(vocab), 7, "lstm", 1, D=4, rec="named",
              names=dict(emb="wte", base="rnn_cell", out="lm_head"))
    torch.save({"state_dict": net.state_dict(), "vocab": {"stoi": {t: i for i, t in enumerate(vocab)}}},
               os.path.join(OUT, "cell_specials.pt"))
    write_case("cell_specials", net, tokens_with(vocab), text_of(10), [], manifest)

    # a vocabulary in the order of list(set(text)), as int2char; trained on that order
    seeded(11)
    shuffled = list(CHARS)
    np.random.default_rng(11).shuffle(shuffled)
    net = Net(V, 16, "gru", 1, D=8)
    train(net, [shuffled.index(ch) for ch in TRAIN], 150, 11)
    torch.save({"model_state_dict": net.state_dict(), "int2char": dict(enumerate(shuffled))},
               os.path.join(OUT, "shuffled_vocab.pt"))
    write_case("shuffled_vocab", net, tokens_with(shuffled), text_of(11), [], manifest)

    # an embedding called char_lookup as wide as the hidden state, beside the readout
    seeded(12)
    net = Net(V, 8, "lstm", 1, D=8, names=dict(emb="char_lookup", out="proj"))
    torch.save({"weights": net.state_dict(), "vocab": CHARS}, os.path.join(OUT, "emb_lookup.pt"))
    write_case("emb_lookup", net, steps, text_of(12), [], manifest)

    # two tensors of shape [V, D]: the embedding is chosen with --embedding
    seeded(13)
    net = Net(V, 6, "gru", 1, D=5, names=dict(emb="E"))
    net.register_buffer("char_stats", torch.randn(V, 5))
    torch.save({"model": net.state_dict(), "chars": "".join(CHARS)},
               os.path.join(OUT, "emb_choose.pt"))
    write_case("emb_choose", net, steps, text_of(13), ["--embedding", "E.weight"], manifest)

    # nn.DataParallel's "module." prefix
    seeded(14)
    net = Net(V, 7, "lstm", 1, D=6)
    sd = nn.DataParallel(net).state_dict()
    assert all(k.startswith("module.") for k in sd)
    torch.save({"state_dict": sd, "vocab": "".join(CHARS)}, os.path.join(OUT, "module_prefix.pt"))
    write_case("module_prefix", net, steps, text_of(14), [], manifest)

    # transposed weights, a view at an offset, biases sharing a storage, tied weights
    seeded(15)
    net = Net(V, 8, "lstm", 1, D=8, names=dict(emb="encoder", out="decoder"))
    net.decoder.weight = net.encoder.weight
    views_and_strides(net)
    torch.save({"model": net.state_dict(), "vocab": CHARS}, os.path.join(OUT, "views_tied.pt"))
    write_case("views_tied", net, steps, text_of(15), [], manifest)

    dtype_cases(manifest, steps, V)


def dtype_cases(manifest, steps, V):
    for seed, name, dt, legacy, arch in ((16, "f16_zip", torch.float16, False, "gru"),
                                         (17, "bf16_legacy", torch.bfloat16, True, "lstm"),
                                         (18, "f64_zip", torch.float64, False, "lstm")):
        seeded(seed)
        net = Net(V, 6, arch, 2, D=5)
        low = {k: v.to(dt) for k, v in net.state_dict().items()}
        net.load_state_dict({k: v.float() for k, v in low.items()})  # the rounded values
        torch.save({"model_state_dict": low, "vocab": "".join(CHARS)},
                   os.path.join(OUT, name + ".pt"), _use_new_zipfile_serialization=not legacy)
        write_case(name, net, steps, text_of(seed), [], manifest)

    # other pickle protocols: 4 (frames, memoize, stack_global), 5, and 1 (text longs)
    for seed, name, proto, legacy, whole in ((21, "proto4_zip", 4, False, False),
                                             (22, "proto5_module", 5, False, True),
                                             (23, "proto1_legacy", 1, True, False)):
        seeded(seed)
        net = Net(V, 5, "gru" if seed % 2 else "lstm", 1, D=4)
        if whole:
            net.vocab = "".join(CHARS)
            obj = net
        else:
            obj = {"state_dict": net.state_dict(), "chars": CHARS, "best": 1 << 70}
        torch.save(obj, os.path.join(OUT, name + ".pt"), pickle_protocol=proto,
                   _use_new_zipfile_serialization=not legacy)
        write_case(name, net, steps, text_of(seed), [], manifest)

    # deep checkpoint: the model and its vocabulary (itos and stoi) nested
    seeded(19)
    net = Net(V, 6, "lstm", 1, D=4)
    opt = torch.optim.Adam(net.parameters())
    ck = {"meta": {"version": 3, "note": "run 7"},
          "training": {"state": {"model": net.state_dict()}, "optim": opt.state_dict(), "step": 10},
          "data": {"vocab": {"itos": CHARS, "stoi": {c: i for i, c in enumerate(CHARS)}}}}
    torch.save(ck, os.path.join(OUT, "deep_ckpt.pt"))
    write_case("deep_ckpt", net, steps, text_of(19), [], manifest)

    # an encoder (embedding and GRU) and a decoder saved side by side
    seeded(20)
    net = Net(V, 7, "gru", 1, D=5, names=dict(rnn="gru", out="out"))
    enc = {k: v for k, v in net.state_dict().items() if not k.startswith("out.")}
    dec = {k: v for k, v in net.state_dict().items() if k.startswith("out.")}
    torch.save({"encoder": enc, "decoder": dec, "epoch": 2, "vocab": "".join(CHARS)},
               os.path.join(OUT, "enc_dec.pt"))
    write_case("enc_dec", net, steps, text_of(20), [], manifest)


# ---------------------------------------------------------------------------------------
# Files gatetui refuses.

class Call:
    """Pickles as a call of fn with args: what a hostile __reduce__ makes."""

    def __init__(self, fn, args):
        self.fn, self.args = fn, args

    def __reduce__(self):
        return self.fn, self.args


PWNED = "gatetui-pwned"


def hostile(expected):
    import builtins
    import os as os_
    seeded(30)
    sd = Net(len(CHARS), 4, "lstm", 1).state_dict()
    calls = {
        "hostile_os_system": Call(os_.system, ("touch " + PWNED,)),
        "hostile_subprocess": Call(subprocess.Popen, (["touch", PWNED],)),
        "hostile_eval": Call(builtins.eval, ("__import__('os').system('touch %s')" % PWNED,)),
        "hostile_exec": Call(builtins.exec, ("open('%s', 'w').close()" % PWNED,)),
    }
    for name, call in calls.items():
        path = os.path.join(BAD, name + ".pt")
        torch.save({"model_state_dict": sd, "vocab": "".join(CHARS), "extra": call}, path)
        proven_hostile(path)
        expected.append((name + ".pt", "would call"))
    # the same in the legacy format
    path = os.path.join(BAD, "hostile_legacy.pt")
    torch.save({"state_dict": sd, "x": calls["hostile_os_system"]}, path,
               _use_new_zipfile_serialization=False)
    proven_hostile(path)
    expected.append(("hostile_legacy.pt", "would call"))
    # a call of the result of another call (getattr's way): refused before anything
    body = (b"\x80\x02cmylib\nmake\nq\x00)Rq\x01X\x04\x00\x00\x00argsq\x02\x85q\x03R.")
    write_zip(os.path.join(BAD, "hostile_call_result.pt"), {"data.pkl": body})
    expected.append(("hostile_call_result.pt", "calls a value it built"))


def proven_hostile(path):
    """torch.load runs the pickle's call: the file appears (in a scratch folder)."""
    scratch = tempfile.mkdtemp()
    here = os.getcwd()
    try:
        os.chdir(scratch)
        try:
            torch.load(path)
        except Exception:
            pass
        for _ in range(50):  # Popen runs in the background
            if os.path.exists(PWNED):
                break
            import time
            time.sleep(0.02)
        assert os.path.exists(PWNED), (path, "is not hostile")
    finally:
        os.chdir(here)
        shutil.rmtree(scratch)


def write_zip(path, entries, prefix="archive/", compress=zipfile.ZIP_STORED):
    def put(z, name, data):  # a fixed date: the same bytes on every run
        z.writestr(zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0)), data, compress)
    with zipfile.ZipFile(path, "w", compression=compress) as z:
        for name, data in entries.items():
            put(z, prefix + name, data)
        if "version" not in entries:
            put(z, prefix + "version", b"3\n")


def pickle_ops(*parts):
    return b"\x80\x02" + b"".join(parts) + b"."


def tensor_pickle(storage_type=b"FloatStorage", numel=4, offset=0, size=(2, 2), stride=(2, 1),
                  key=b"0"):
    """data.pkl of {"w": tensor} in torch.save's form, with the numbers given."""
    def tup(vals):
        return b"(" + b"".join(b"J" + struct.pack("<i", v) for v in vals) + b"t"
    return pickle_ops(
        b"}(X\x01\x00\x00\x00w",
        b"ctorch._utils\n_rebuild_tensor_v2\n",
        b"((X\x07\x00\x00\x00storagectorch\n" + storage_type + b"\n",
        b"X" + struct.pack("<I", len(key)) + key, b"X\x03\x00\x00\x00cpu",
        b"J" + struct.pack("<i", numel), b"tQ",
        b"J" + struct.pack("<i", offset), tup(size), tup(stride),
        b"\x89ccollections\nOrderedDict\n)Rt", b"R", b"u")


def damaged(expected):
    good = os.path.join(OUT, "sd_zip.pt")
    with open(good, "rb") as f:
        data = f.read()
    z = zipfile.ZipFile(good)
    entries = {n.split("/", 1)[1]: z.read(n) for n in z.namelist()}

    def put(name, raw, word):
        with open(os.path.join(BAD, name), "wb") as f:
            f.write(raw)
        expected.append((name, word))

    put("truncated_half.pt", data[:len(data) // 2], "end record")
    put("truncated_tail.pt", data[:-30], "end record")
    cut = dict(entries)
    cut["data.pkl"] = entries["data.pkl"][:len(entries["data.pkl"]) // 2]
    write_zip(os.path.join(BAD, "pickle_truncated.pt"), cut)
    expected.append(("pickle_truncated.pt", "truncated"))
    small = dict(entries)
    small["data/1"] = entries["data/1"][:-4]
    write_zip(os.path.join(BAD, "storage_short.pt"), small)
    expected.append(("storage_short.pt", "need more"))
    write_zip(os.path.join(BAD, "deflated.pt"), entries, compress=zipfile.ZIP_DEFLATED)
    expected.append(("deflated.pt", "compressed"))
    raw4 = struct.pack("<4f", 1, 2, 3, 4)
    for name, pkl, word in (
            ("tensor_past_storage.pt", tensor_pickle(size=(3, 2)), "reaching element"),
            ("tensor_offset_past.pt", tensor_pickle(offset=3), "reaching element"),
            ("tensor_size_overflow.pt", tensor_pickle(stride=(1, 1, 1), size=(0x7fffffff,) * 3),
             "overflow"),
            ("tensor_negative_size.pt", tensor_pickle(size=(-1, 2)), "not what PyTorch writes"),
            ("storage_unknown_type.pt", tensor_pickle(storage_type=b"EvilStorage"), "storage type"),
            ("storage_missing.pt", tensor_pickle(key=b"7"), "no entry"),
            ("memo_unset.pt", pickle_ops(b"h\x05"), "never stored"),
            ("memo_far.pt", pickle_ops(b"Nr\xf0\xff\xff\x0f"), "far beyond"),
            ("opcode_unknown.pt", pickle_ops(b"N\xff"), "unknown opcode"),
            ("protocol_6.pt", b"\x80\x06N.", "protocol"),
            ("marks_deep.pt", b"\x80\x02" + b"(" * 70000 + b"N.", "marks"),
            ("no_stop.pt", b"\x80\x02N", "without STOP"),
            ("stack_left.pt", pickle_ops(b"NN"), "STOP with"),
            ("unicode_past_end.pt", b"\x80\x02X\xff\xff\x00\x00ab.", "truncated"),
            ("long4_negative.pt", b"\x80\x02\x8b\xff\xff\xff\xffN.", "negative length"),
            ("ext_code.pt", b"\x80\x02\x82\x01.", "extension"),
            ("dict_odd.pt", pickle_ops(b"(Nd"), "odd number")):
        write_zip(os.path.join(BAD, name), {"data.pkl": pkl, "data/0": raw4})
        expected.append((name, word))
    write_zip(os.path.join(BAD, "no_data_pkl.pt"), {"hello.txt": b"hello"}, prefix="")
    expected.append(("no_data_pkl.pt", "without data.pkl"))
    two = {"a": Net(len(CHARS), 4, "lstm", 1).state_dict(),
           "b": Net(len(CHARS), 4, "lstm", 1).state_dict(), "vocab": "".join(CHARS)}
    torch.save(two, os.path.join(BAD, "two_models.pt"))
    expected.append(("two_models.pt", "two recurrent models"))
    legacy_damaged(expected)


def legacy_damaged(expected):
    good = os.path.join(OUT, "legacy_ckpt.pt")
    with open(good, "rb") as f:
        data = f.read()

    def put(name, raw, word):
        with open(os.path.join(BAD, name), "wb") as f:
            f.write(raw)
        expected.append((name, word))
    put("legacy_truncated.pt", data[:-10], "truncated")
    put("legacy_cut_in_pickle.pt", data[:200], "truncated")
    proto = data.replace(b"M\xe9\x03.", b"M\xea\x03.", 1)
    assert proto != data
    put("legacy_protocol.pt", proto, "1001")


def other_kinds(expected):
    def put(name, raw, word):
        with open(os.path.join(BAD, name), "wb") as f:
            f.write(raw)
        expected.append((name, word))
    put("text.pt", TRAIN.encode("utf-8"), "text file")
    put("empty.pt", b"", "empty")
    put("keras.h5", b"\x89HDF\r\n\x1a\n" + bytes(200), "Keras")
    with open(os.path.join(OUT, "sd_zip.pt"), "rb") as f:
        put("gzipped.pt.gz", gzip.compress(f.read(), mtime=0), "gzip")
    buf = io.BytesIO()
    np.savez(buf, a=np.zeros(3))
    put("arrays.npz", buf.getvalue(), "NumPy")
    put("plain_pickle.pkl",
        pickle.dumps({k: v.numpy() for k, v in Net(3, 2).state_dict().items()}, protocol=4),
        "Python pickle")
    seeded(40)
    ts = torch.jit.script(nn.LSTM(3, 4))
    torch.jit.save(ts, os.path.join(BAD, "torchscript.pt"))
    # read as torch.save's files are (doc/model-files.md, "TorchScript"): a bare nn.LSTM
    # with one-hot input has no vocabulary
    expected.append(("torchscript.pt", "no vocabulary of 3 tokens"))
    m = nn.LSTM(3, 4)
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.onnx.export(m, (torch.randn(5, 1, 3),), os.path.join(BAD, "lstm.onnx"))
    expected.append(("lstm.onnx", "ONNX"))


def main():
    if os.path.isdir(OUT):
        shutil.rmtree(OUT)
    os.makedirs(BAD)
    manifest = []
    cases(manifest)
    with open(os.path.join(OUT, "MANIFEST"), "w") as f:
        f.write("# name and options (made by tests/ref/make_torch_fixtures.py)\n")
        f.write("\n".join(manifest) + "\n")
    expected = []
    hostile(expected)
    damaged(expected)
    other_kinds(expected)
    with open(os.path.join(BAD, "EXPECTED"), "w") as f:
        f.write("# file, then a word of its one-line refusal (tests/ref/make_torch_fixtures.py)\n")
        for name, word in expected:
            f.write("%s\t%s\n" % (name, word))


if __name__ == "__main__":
    main()
