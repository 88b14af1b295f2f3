#!/usr/bin/python3
"""Model files as users have them beyond plain state_dicts, and PyTorch's (or numpy's) values.

Run with a Python that has torch and numpy (Debian: /usr/bin/python3):

    /usr/bin/python3 tests/ref/make_files_fixtures.py

It writes into tests/fixtures/files/, for every case NAME (tests/cli/torchfiles.sh reads them):

    NAME.pt / NAME.npz   the file as the user's code wrote it
    NAME.txt             the text
    NAME.csv             what `gatetui --dump --to 119 FILE NAME.txt` must print
    NAME.probs.csv       what `gatetui --dump --probs --to 119` must print (with a readout)
    NAME.loss            the readout's mean loss over the report's default windows

MANIFEST (one line per case: the file, then the options gatetui needs), NOTES (a file, then
a word gatetui must say of it on standard error while loading it) and EXPECTED (files
gatetui refuses, with a word of the one-line message).

The cases: a state_dict with its vocabulary, a config and numbers added to it; a float LSTM
whose readout alone is int8-quantized (read with the readout left out) and a dynamically
quantized model (refused); a TorchScript archive with its vocabulary as an attribute;
Karpathy's min-char-rnn (Wxh, Whh, Why, bh, by) from a torch.save dict and from np.savez;
an AWD-LSTM (salesforce/awd-lstm-lm's structure: separate nn.LSTM layers of different
widths under a WeightDrop that keeps the trained recurrent weights as weight_hh_l0_raw and
a bound method, a tied embedding and decoder) as its state_dict and as the whole pickled
[model, criterion, optimizer].

The values: every layer is run in float64 numpy from the weights as stored and checked
against PyTorch's own nn.LSTM / nn.GRU / nn.RNN in float64 (min-char-rnn against its own
step, in float64 numpy) before anything is written.
"""
import io
import json
import math
import os
import shutil
import sys
import zipfile
from typing import List

import numpy as np
import torch
from torch import nn

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, HERE)
from make_fixtures import csv_char, gru_cell, lstm_cell  # noqa: E402
from make_torch_fixtures import CHARS, TRAIN, text_of  # noqa: E402

OUT_REL = "tests/fixtures/files"
OUT = os.path.join(ROOT, OUT_REL)
CHECK_TOL = 1e-9
WINDOW, WINDOWS = 128, 32
DUMP_STEPS = 120


def seeded(seed):
    torch.manual_seed(seed)
    np.random.seed(seed)


def f64(t):
    return t.detach().double().numpy() if isinstance(t, torch.Tensor) else np.asarray(t, np.float64)


# ---------------------------------------------------------------------------------------
# The reference: a stack of layers, each its own width, as numpy float64.

class Ref:
    """arch "lstm", "gru" or "rnn" (tanh); layers: dicts w_ih, w_hh, b_ih, b_hh (float64);
    emb: [V, D] or None (one-hot); out: (W [V, H_top], b [V]) or None."""

    def __init__(self, arch, layers, emb, out, V):
        self.arch, self.layers, self.emb, self.out, self.V = arch, layers, emb, out, V
        self.widths = [ly["w_hh"].shape[1] for ly in layers]

    def inputs(self, toks):
        return self.emb[toks] if self.emb is not None else np.eye(self.V)[toks]

    def values(self, toks):
        """Every step's columns for every layer: a list over steps of lists over layers of
        [ncol, H_k] arrays."""
        X = self.inputs(toks)
        h = [np.zeros(w) for w in self.widths]
        c = [np.zeros(w) for w in self.widths]
        out = []
        for t in range(len(toks)):
            x, row = X[t], []
            for k, ly in enumerate(self.layers):
                if self.arch == "lstm":
                    i, f, g, o, c[k], h[k] = lstm_cell(ly, x, h[k], c[k])
                    row.append(np.array([i, f, g, o, c[k], h[k]]))
                elif self.arch == "gru":
                    r, z, n, h[k] = gru_cell(ly, x, h[k])
                    row.append(np.array([r, z, n, h[k]]))
                else:
                    a = ly["w_ih"] @ x + ly["b_ih"] + ly["w_hh"] @ h[k] + ly["b_hh"]
                    h[k] = np.tanh(a)
                    row.append(np.array([a, h[k]]))
                x = h[k]
            out.append(row)
        return out

    def torch_check(self, toks):
        """The top h at every step from PyTorch's modules, one per layer, in float64."""
        Mod = {"lstm": nn.LSTM, "gru": nn.GRU, "rnn": nn.RNN}[self.arch]
        mods = []
        for ly in self.layers:
            G, D = ly["w_ih"].shape
            m = Mod(D, ly["w_hh"].shape[1]).double()
            with torch.no_grad():
                for name in ("w_ih", "w_hh", "b_ih", "b_hh"):
                    getattr(m, name.replace("w_", "weight_").replace("b_", "bias_") + "_l0").copy_(
                        torch.from_numpy(ly[name]))
            mods.append(m)
        X = torch.from_numpy(self.inputs(toks))
        with torch.no_grad():
            y = X.view(len(toks), 1, -1)
            for m in mods:
                y, _ = m(y)
        return y[:, 0, :].numpy()


def write_dump(path, ref, steps, vals):
    cols = {"lstm": "i,f,g,o,c,h", "gru": "r,z,n,h", "rnn": "a,h"}[ref.arch]
    lines = ["step,char,layer,unit," + cols]
    for t, (_, ch) in enumerate(steps):
        for k, w in enumerate(ref.widths):
            for j in range(w):
                lines.append("%d,%s,%d,%d,%s" % (t, ch, k, j,
                                                ",".join("%.9g" % v for v in vals[t][k][:, j])))
    with open(path, "wb") as f:
        f.write(("\n".join(lines) + "\n").encode("utf-8"))


def softmax(logit):
    e = np.exp(logit - logit.max())
    return e / e.sum()


def write_probs(path, ref, tops):
    W, b = ref.out
    lines = ["step,token,p"]
    for t, top in enumerate(tops):
        p = softmax(W @ top + b)
        lines.extend("%d,%d,%.9g" % (t, v, p[v]) for v in range(len(p)))
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def ref_loss(ref, toks):
    W, b = ref.out
    total, count = 0.0, 0
    for w in range(min(WINDOWS, (len(toks) + WINDOW - 1) // WINDOW)):
        win = toks[w * WINDOW:(w + 1) * WINDOW]
        vals = ref.values(win)
        for t in range(len(win) - 1):
            logit = W @ vals[t][-1][-1] + b
            mx = logit.max()
            total += mx + math.log(np.exp(logit - mx).sum()) - logit[win[t + 1]]
            count += 1
    return total / count, count


def tokens_with(vocab):
    index = {tok: i for i, tok in enumerate(vocab) if len(tok) == 1}

    def steps(text):
        return [(index[ch], csv_char(ch)) for ch in text if ch in index]
    return steps


def write_case(file, name, ref, vocab, seed, options, manifest, top_check=None):
    """The text, the dump, the probabilities and the loss of one case; top_check: the top
    layer's h at every step from an independent run (PyTorch's by default)."""
    base = os.path.join(OUT, name)
    text = text_of(seed)
    with open(base + ".txt", "w", encoding="utf-8") as f:
        f.write(text)
    steps = tokens_with(vocab)(text)
    toks = [tk for tk, _ in steps]
    vals = ref.values(toks)
    top = np.array([v[-1][-1] for v in vals])
    other = top_check(toks) if top_check else ref.torch_check(toks)
    err = np.abs(other - top).max()
    assert err < CHECK_TOL, (name, "numpy against the independent run", err)
    write_dump(base + ".csv", ref, steps[:DUMP_STEPS], vals[:DUMP_STEPS])
    line = "%-16s %s widths %s V=%d steps=%d" % (name, ref.arch, ref.widths, ref.V, len(toks))
    if ref.out is not None:
        write_probs(base + ".probs.csv", ref, top[:DUMP_STEPS])
        nats, count = ref_loss(ref, toks)
        with open(base + ".loss", "w") as f:
            f.write("%.12g %d\n" % (nats, count))
        line += " loss %.3f bits" % (nats / math.log(2))
    print(line)
    manifest.append(" ".join([file, name + ".txt"] + options))


def torch_layers(mods):
    """The layers of nn.LSTM / nn.GRU modules (each of one layer or more) as float64."""
    out = []
    for m in mods:
        for k in range(m.num_layers):
            g = lambda s: f64(getattr(m, "%s_l%d" % (s, k)))
            out.append(dict(w_ih=g("weight_ih"), w_hh=g("weight_hh"), b_ih=g("bias_ih"),
                            b_hh=g("bias_hh")))
    return out


class CharNet(nn.Module):
    def __init__(self, V, D, H, arch="lstm", layers=1):
        super().__init__()
        self.embedding = nn.Embedding(V, D)
        self.rnn = (nn.LSTM if arch == "lstm" else nn.GRU)(D, H, num_layers=layers)
        self.fc = nn.Linear(H, V)

    def ref(self, arch, readout=True):
        out = (f64(self.fc.weight), f64(self.fc.bias)) if readout else None
        return Ref(arch, torch_layers([self.rnn]), f64(self.embedding.weight), out,
                   self.embedding.num_embeddings)


# ---------------------------------------------------------------------------------------
# 1. a state_dict with its vocabulary, a config and numbers added to it

def sd_extras(manifest):
    seeded(101)
    V = len(CHARS)
    net = CharNet(V, 6, 8, "lstm", 2)
    sd = net.state_dict()
    sd["chars"] = CHARS
    sd["config"] = {"hidden": 8, "layers": 2, "lr": 0.002, "arch": "lstm"}
    sd["epoch"] = 12
    sd["best_loss"] = 1.87
    torch.save(sd, os.path.join(OUT, "sd_chars.pt"))
    write_case("sd_chars.pt", "sd_chars", net.ref("lstm"), CHARS, 101, [], manifest)


# ---------------------------------------------------------------------------------------
# 2. quantized models

def quantized(manifest, notes, expected):
    import warnings
    warnings.simplefilter("ignore")
    seeded(102)
    V = len(CHARS)
    net = CharNet(V, 5, 7, "lstm", 1)
    q = torch.ao.quantization.quantize_dynamic(net, {nn.Linear}, dtype=torch.qint8)
    sd = q.state_dict()
    assert "fc._packed_params._packed_params" in sd and "fc.weight" not in sd
    torch.save({"model_state_dict": sd, "vocab": "".join(CHARS)},
               os.path.join(OUT, "quant_readout.pt"))
    write_case("quant_readout.pt", "quant_readout", net.ref("lstm", readout=False), CHARS, 102,
               [], manifest)
    notes.append(("quant_readout.pt", "int8-quantized"))
    seeded(103)
    q = torch.ao.quantization.quantize_dynamic(CharNet(V, 5, 7, "lstm", 1), {nn.LSTM, nn.Linear},
                                               dtype=torch.qint8)
    torch.save(q.state_dict(), os.path.join(OUT, "quant_dynamic.pt"))
    expected.append(("quant_dynamic.pt", "int8 dynamic quantization"))


# ---------------------------------------------------------------------------------------
# 3. TorchScript

class ScriptNet(nn.Module):
    chars: List[str]

    def __init__(self, V, D, H):
        super().__init__()
        self.embedding = nn.Embedding(V, D)
        self.rnn = nn.GRU(D, H, num_layers=2)
        self.fc = nn.Linear(H, V)
        self.chars = list(CHARS)

    def forward(self, x):
        y, _ = self.rnn(self.embedding(x))
        return self.fc(y)


def torchscript(manifest):
    seeded(104)
    net = ScriptNet(len(CHARS), 5, 6)
    torch.jit.save(torch.jit.script(net), os.path.join(OUT, "script_gru.pt"))
    ref = Ref("gru", torch_layers([net.rnn]), f64(net.embedding.weight),
              (f64(net.fc.weight), f64(net.fc.bias)), len(CHARS))
    write_case("script_gru.pt", "script_gru", ref, CHARS, 104, [], manifest)


# ---------------------------------------------------------------------------------------
# 4. min-char-rnn

def minchar_weights(seed, V, H):
    rng = np.random.default_rng(seed)
    # min-char-rnn's initialisation, then moved as training would move them
    return dict(Wxh=rng.normal(0, 0.5, (H, V)), Whh=rng.normal(0, 0.3, (H, H)),
                Why=rng.normal(0, 0.5, (V, H)), bh=rng.normal(0, 0.2, (H, 1)),
                by=rng.normal(0, 0.2, (V, 1)))


def minchar_step(w, chars):
    """min-char-rnn's own forward pass (lossFun's), float64: the top h at every step."""
    V = len(chars)

    def run(toks):
        hs, hprev = [], np.zeros((w["Whh"].shape[0], 1))
        for t in toks:
            x = np.zeros((V, 1))
            x[t] = 1
            hprev = np.tanh(np.dot(w["Wxh"], x) + np.dot(w["Whh"], hprev) + w["bh"])
            y = np.dot(w["Why"], hprev) + w["by"]
            p = np.exp(y) / np.sum(np.exp(y))
            assert abs(p.sum() - 1) < 1e-12
            hs.append(hprev[:, 0])
        return np.array(hs)
    return run


def minchar(manifest, expected):
    # the characters in min-char-rnn's order: list(set(data))
    chars = list(CHARS)
    np.random.default_rng(105).shuffle(chars)
    V, H = len(chars), 12
    w = minchar_weights(105, V, H)
    ref = Ref("rnn", [dict(w_ih=w["Wxh"], w_hh=w["Whh"], b_ih=w["bh"][:, 0], b_hh=np.zeros(H))],
              None, (w["Why"], w["by"][:, 0]), V)
    char_to_ix = {ch: i for i, ch in enumerate(chars)}
    ix_to_char = {i: ch for i, ch in enumerate(chars)}
    # its whole state: the arrays, the Adagrad memories, the vocabulary
    mem = {"m" + k: torch.from_numpy(np.abs(v) * 0.1) for k, v in w.items()}
    torch.save({k: torch.from_numpy(v) for k, v in w.items()} | mem |
               {"char_to_ix": char_to_ix, "ix_to_char": ix_to_char, "n": 50000,
                "smooth_loss": 61.2},
               os.path.join(OUT, "minchar.pt"))
    write_case("minchar.pt", "minchar", ref, chars, 105, [], manifest,
               top_check=minchar_step(w, chars))
    # np.savez: the five arrays and the characters as an array of strings
    np.savez(os.path.join(OUT, "minchar.npz"), chars=np.array(chars), **w)
    write_case("minchar.npz", "minchar_npz", ref, chars, 106, [], manifest,
               top_check=minchar_step(w, chars))
    # the five arrays alone; the vocabulary from a file of its own
    np.savez(os.path.join(OUT, "minchar_bare.npz"), **w)
    with open(os.path.join(OUT, "minchar_chars.json"), "w", encoding="utf-8") as f:
        json.dump(chars, f)
    write_case("minchar_bare.npz", "minchar_bare", ref, chars, 107,
               ["--vocab", OUT_REL + "/minchar_chars.json"], manifest,
               top_check=minchar_step(w, chars))
    # arrays in Fortran order (fortran_order True: column-major strides)
    fw = {k: np.asfortranarray(v) for k, v in w.items()}
    np.savez(os.path.join(OUT, "minchar_fortran.npz"), chars=np.array(chars), **fw)
    with zipfile.ZipFile(os.path.join(OUT, "minchar_fortran.npz")) as z:
        assert b"'fortran_order': True" in z.read("Wxh.npy")[:128]
    write_case("minchar_fortran.npz", "minchar_fortran", ref, chars, 108, [], manifest,
               top_check=minchar_step(w, chars))
    # big-endian arrays; a .npy header cut short
    np.savez(os.path.join(OUT, "minchar_bigendian.npz"),
             **{k: v.astype(">f8") for k, v in w.items()})
    expected.append(("minchar_bigendian.npz", "big-endian"))
    with zipfile.ZipFile(os.path.join(OUT, "minchar_cut.npz"), "w") as z:
        for k, v in w.items():
            b = io.BytesIO()
            np.save(b, v)
            z.writestr(zipfile.ZipInfo(k + ".npy", date_time=(2020, 1, 1, 0, 0, 0)),
                       b.getvalue()[:40] if k == "Whh" else b.getvalue())
    expected.append(("minchar_cut.npz", "truncated"))
    # np.savez_compressed deflates its entries
    np.savez_compressed(os.path.join(OUT, "minchar_compressed.npz"), **w)
    expected.append(("minchar_compressed.npz", "np.savez_compressed"))


# ---------------------------------------------------------------------------------------
# 5. AWD-LSTM (salesforce/awd-lstm-lm's module structure, written here)

class WeightDrop(nn.Module):
    """awd-lstm-lm's WeightDrop: the wrapped module's weight_hh_l0 becomes the parameter
    weight_hh_l0_raw, from which each forward sets weight_hh_l0 (dropped out in training);
    flatten_parameters is replaced by a method of this module (a bound method: pickled as a
    getattr call)."""

    def __init__(self, module, weights, dropout=0.0):
        super().__init__()
        self.module, self.weights, self.dropout, self.variational = module, weights, dropout, False
        self._setup()

    def widget_demagnetizer_y2k_edition(*args, **kwargs):
        return

    def _setup(self):
        if issubclass(type(self.module), nn.RNNBase):
            self.module.flatten_parameters = self.widget_demagnetizer_y2k_edition
        for name_w in self.weights:
            w = getattr(self.module, name_w)
            del self.module._parameters[name_w]
            self.module.register_parameter(name_w + "_raw", nn.Parameter(w.data))

    def _setweights(self):
        for name_w in self.weights:
            raw_w = getattr(self.module, name_w + "_raw")
            w = nn.functional.dropout(raw_w, p=self.dropout, training=self.training)
            setattr(self.module, name_w, w)


class LockedDropout(nn.Module):
    pass


class RNNModel(nn.Module):
    """awd-lstm-lm's RNNModel for the LSTM: layer l of nhid units (the last of ninp when the
    weights are tied), each an nn.LSTM of one layer under a WeightDrop."""

    def __init__(self, ntoken, ninp, nhid, nlayers, tie_weights=True):
        super().__init__()
        self.lockdrop = LockedDropout()
        self.encoder = nn.Embedding(ntoken, ninp)
        self.rnns = [nn.LSTM(ninp if l == 0 else nhid[l - 1],
                             nhid[l] if l != nlayers - 1 else (ninp if tie_weights else nhid[l]),
                             1, dropout=0) for l in range(nlayers)]
        self.rnns = [WeightDrop(rnn, ["weight_hh_l0"], dropout=0.5) for rnn in self.rnns]
        self.rnns = nn.ModuleList(self.rnns)
        self.decoder = nn.Linear(nhid[-1] if not tie_weights else ninp, ntoken)
        if tie_weights:
            self.decoder.weight = self.encoder.weight
        self.ninp, self.nhid, self.nlayers = ninp, nhid, nlayers
        self.rnn_type, self.dropout, self.tie_weights = "LSTM", 0.4, tie_weights

    def ref(self):
        layers = []
        for wd in self.rnns:
            m = wd.module
            layers.append(dict(w_ih=f64(m.weight_ih_l0), w_hh=f64(m.weight_hh_l0_raw),
                               b_ih=f64(m.bias_ih_l0), b_hh=f64(m.bias_hh_l0)))
        return Ref("lstm", layers, f64(self.encoder.weight),
                   (f64(self.decoder.weight), f64(self.decoder.bias)), self.encoder.num_embeddings)


class SplitCrossEntropyLoss(nn.Module):
    def __init__(self, hidden_size, splits):
        super().__init__()
        self.hidden_size, self.splits, self.nsplits = hidden_size, [0] + splits + [100 * 1000000], 1
        self.stats = {}


def awd(manifest):
    seeded(108)
    # the characters in the order awd-lstm-lm's Dictionary meets them
    order = list(dict.fromkeys(TRAIN))
    V = len(order)
    model = RNNModel(V, 6, [10, 14, 6], 3)
    for wd in model.rnns:
        wd.eval()
        wd._setweights()  # as after a forward pass: weight_hh_l0 a plain attribute
    with torch.no_grad():  # trained-looking biases
        for wd in model.rnns:
            wd.module.bias_ih_l0.normal_(0, 0.3)
    vocab_file = os.path.join(OUT, "awd.vocab.json")
    with open(vocab_file, "w", encoding="utf-8") as f:
        json.dump({"itos": order}, f)
    ref = model.ref()
    vf = ["--vocab", OUT_REL + "/awd.vocab.json"]
    torch.save(model.state_dict(), os.path.join(OUT, "awd_sd.pt"))
    assert "rnns.0.module.weight_hh_l0_raw" in model.state_dict()
    write_case("awd_sd.pt", "awd_sd", ref, order, 108, vf, manifest)
    criterion = SplitCrossEntropyLoss(6, splits=[])
    params = list(model.parameters()) + list(criterion.parameters())
    optimizer = torch.optim.SGD(params, lr=30, weight_decay=1.2e-6)
    with open(os.path.join(OUT, "awd_whole.pt"), "wb") as f:
        torch.save([model, criterion, optimizer], f)
    raw = zipfile.ZipFile(os.path.join(OUT, "awd_whole.pt"))
    pkl = [n for n in raw.namelist() if n.endswith("data.pkl")][0]
    assert b"getattr" in raw.read(pkl), "the bound method is pickled as a getattr call"
    write_case("awd_whole.pt", "awd_whole", ref, order, 109, vf, manifest)


class WeightDropout(nn.Module):
    """fastai's WeightDropout (ULMFiT's AWD_LSTM): the trained weight as its own parameter
    weight_hh_l0_raw, beside the wrapped module, whose weight_hh_l0 is set from it in each
    forward pass, dropped out in training (as it is when a model is saved mid-training)."""

    def __init__(self, module, weight_p, layer_names=("weight_hh_l0",)):
        super().__init__()
        self.module, self.weight_p, self.layer_names = module, weight_p, layer_names
        for layer in self.layer_names:
            w = getattr(self.module, layer)
            self.register_parameter(layer + "_raw", nn.Parameter(w.data))
            self.module._parameters[layer] = nn.functional.dropout(w, p=self.weight_p,
                                                                   training=False)

    def _setweights(self):
        for layer in self.layer_names:
            raw_w = getattr(self, layer + "_raw")
            self.module._parameters[layer] = nn.Parameter(
                nn.functional.dropout(raw_w.data, p=self.weight_p, training=self.training))


class EmbeddingDropout(nn.Module):
    def __init__(self, emb, embed_p):
        super().__init__()
        self.emb, self.embed_p = emb, embed_p


class FastAWD(nn.Module):
    """fastai's AWD_LSTM: encoder, encoder_dp (holding the same embedding), rnns of
    WeightDropout(nn.LSTM), each layer its own width."""

    def __init__(self, V, D, H, n_layers):
        super().__init__()
        self.encoder = nn.Embedding(V, D)
        self.encoder_dp = EmbeddingDropout(self.encoder, 0.1)
        self.rnns = nn.ModuleList([WeightDropout(nn.LSTM(D if l == 0 else H, D if l == n_layers - 1
                                                          else H, 1), 0.5)
                                   for l in range(n_layers)])


class SequentialRNN(nn.Sequential):
    pass


class LinearDecoder(nn.Module):
    def __init__(self, V, D, tie):
        super().__init__()
        self.decoder = nn.Linear(D, V)
        self.decoder.weight = tie


def fastai(manifest):
    seeded(110)
    V = len(CHARS)
    enc = FastAWD(V, 7, 11, 2)
    model = SequentialRNN(enc, LinearDecoder(V, 7, enc.encoder.weight))
    torch.manual_seed(111)
    for wd in enc.rnns:  # saved mid-training: the module's copy dropped out
        wd.train()
        wd._setweights()
    sd = model.state_dict()
    assert "0.rnns.0.weight_hh_l0_raw" in sd and "0.rnns.0.module.weight_hh_l0" in sd
    assert (sd["0.rnns.0.module.weight_hh_l0"] == 0).any()
    torch.save({"model": sd, "opt": None}, os.path.join(OUT, "fastai_awd.pt"))
    layers = [dict(w_ih=f64(wd.module.weight_ih_l0), w_hh=f64(wd.weight_hh_l0_raw),
                   b_ih=f64(wd.module.bias_ih_l0), b_hh=f64(wd.module.bias_hh_l0))
              for wd in enc.rnns]
    ref = Ref("lstm", layers, f64(enc.encoder.weight),
              (f64(model[1].decoder.weight), f64(model[1].decoder.bias)), V)
    write_case("fastai_awd.pt", "fastai_awd", ref, CHARS, 110,
               ["--vocab-from", OUT_REL + "/train.txt"], manifest)


def main():
    if os.path.isdir(OUT):
        shutil.rmtree(OUT)
    os.makedirs(OUT)
    manifest, notes, expected = [], [], []
    sd_extras(manifest)
    quantized(manifest, notes, expected)
    torchscript(manifest)
    minchar(manifest, expected)
    awd(manifest)
    with open(os.path.join(OUT, "train.txt"), "w", encoding="utf-8") as f:
        f.write(TRAIN)
    fastai(manifest)
    with open(os.path.join(OUT, "MANIFEST"), "w") as f:
        f.write("# model file, text and options (made by tests/ref/make_files_fixtures.py)\n")
        f.write("\n".join(manifest) + "\n")
    with open(os.path.join(OUT, "NOTES"), "w") as f:
        f.write("# model file, then a word gatetui says of it on standard error "
                "(tests/ref/make_files_fixtures.py)\n")
        f.write("".join("%s\t%s\n" % n for n in notes))
    with open(os.path.join(OUT, "EXPECTED"), "w") as f:
        f.write("# file, then a word of its one-line refusal (tests/ref/make_files_fixtures.py)\n")
        f.write("".join("%s\t%s\n" % n for n in expected))


if __name__ == "__main__":
    main()
