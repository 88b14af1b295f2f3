#!/usr/bin/python3
"""Reference fixtures for gatetui: small random LSTM/GRU models and PyTorch's values.

Run from anywhere with a Python that has torch and numpy (Debian: /usr/bin/python3):

    /usr/bin/python3 tests/ref/make_fixtures.py [NAME ...]

(with names, only those models' files are written).

It writes into tests/fixtures/, for every model NAME:

    NAME.safetensors   the model (written with tools/gatetui_export.py's save_file)
    NAME.txt           the text (UTF-8, with a few characters not in the vocabulary)
    NAME.csv           what `gatetui --dump MODEL TEXT` must print
    NAME.probs.csv     what `gatetui --dump --probs MODEL TEXT` must print (readout only)
    NAME.vocab.txt     the --vocab-from file, for the model that needs one

and MANIFEST: one line per model, the name, the tolerance tests/cli/dump.sh holds the dump
to, and the command-line options gatetui needs for it (paths relative to the top of the
source tree).

The hidden and cell states come from torch.nn.LSTM / torch.nn.GRU (stacked
torch.nn.LSTMCell / GRUCell / RNNCell for the models whose layers each have a width of their
own), run in float64 one step at a time on the weights exactly as stored in the file (read back from it, so F16 and BF16
weights are the rounded values).  The gates are computed by hand in float64 numpy from the
same weights, and the states they imply are checked against PyTorch's before anything is
written.  The one GRU with the reset gate before W_hn (Cho et al. 2014), which PyTorch does
not have, is computed entirely in float64 numpy; the same numpy code run with the reset
after W_hn is checked against nn.GRU.  Everything is seeded: the output is the same on every
run.
"""
import os
import sys

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "tools"))
from gatetui_export import save_file  # noqa: E402
from report_ref import read_safetensors  # noqa: E402  (reads back exactly the stored values)

OUT_REL = "tests/fixtures"
OUT = os.path.join(ROOT, OUT_REL)

# PyTorch's float64 states and the float64 numpy cells must agree this closely.
CHECK_TOL = 1e-6
# A float32 evaluation (PyTorch in float32) must stay this close to the float64 values,
# so that a float32 engine can meet the 1e-5 doc/measures.md promises.
F32_MARGIN = 2e-6
# tests/cli/dump.sh holds every value v of gatetui's dump to |v - ref| <= tol * max(1, |ref|):
# absolute for the gates and h, which the vectorised nonlinearities compute to an absolute
# error, relative for a cell state above 1. tol is at least ten times the largest error
# measured with each of the avx512, avx2 and plain C kernels (1.5e-7 on the small models,
# 4.8e-7 on lstm_big and 7.4e-7 on gru_big, whose weights are five times larger), rounded
# up to 1, 2 or 5 times a power of ten; a model sets its own with "tol".
GOLDEN_TOL = 2e-6

# ---------------------------------------------------------------------------------------
# Texts.  Bytes, so that invalid UTF-8 can be part of them.

T_QUOTES = (
    'She said, "keep the cell, forget the rest."\n'
    'He: "caf\u00e9, 3\u20ac, quiet."\n'
).encode("utf-8")

T_EMBED = (
    "the forget gate keeps \u2014 na\u00efvely, one keeps.\n"
).encode("utf-8") + b"\xff" + b" end\n"

T_NOBIAS = (
    "abcabc abba cab, bac; \u00e9t\u00e9 acab\u00e9 abc\u20ac cabbage.\n"
    "a b c, c b a.\n"
).encode("utf-8")

T_F16 = (
    "In the beginning was the Word; \u00abthe Word\u00bb was.\n"
).encode("utf-8")

T_BF16 = (
    "1 + 1 = 2, 2 * 3 = 6; (a + b) ^ 2 \u2260 7, \u03c0 \u2248 3.14.\n"
).encode("utf-8")

T_F64 = (
    "tic tac toe, tic tac toe; toe tac tic!\n"
    "tactic: \"toc\" \u2192 tic.\n"
).encode("utf-8")

T_BIG = (
    "Large weights: keep all, or forget all.\n"
).encode("utf-8") + b"\xe2\x82" + " \u00c5ngstr\u00f6m.\n".encode("utf-8")

T_BYTES = (
    "Bytes: \u00e9 is two steps, \u20ac three.\r\n"
    "\"Quotes\", commas,\tand CR LF.\r\n"
    "{} [] <> | \\ / @ # $ % & * ( ) _ + = ?\r\n"
    "\u00c5 \u00df \u4e2d \U0001f600 end\r\n"
).encode("utf-8")

VOCABFROM_TRAIN = (
    "a model saved without its vocabulary needs the training text.\n"
    "every character here makes one token.\n"
).encode("utf-8")
T_VOCABFROM = (
    "the training text makes the tokens; \u00e9 or Q is skipped.\n"
).encode("utf-8")

T_GRU = (
    "GRU: r resets, z carries. \"z near one\" keeps h \u2014 Pytorch.\n"
).encode("utf-8")

T_GRU2 = (
    "two layers read one line\u2026\n"
).encode("utf-8") + b"\xc0\xaf" + b" the second reads it.\n"

T_GRU_NOBIAS = (
    "zzz zz z, zig zag; zag zig! zz\u00e9 zag.\n"
    "gaz, zig.\n"
).encode("utf-8")

T_GRU_BF16 = (
    "ON OFF ON ON OFF\nOFF OFF ON\n\u00d8N ON OFF ON\nNO NO ON\n"
).encode("utf-8")

T_GRU_F64 = (
    "rose, rows, roses; sore eros ores.\n"
    "\"sores\" \u2260 \"roses\".\n"
).encode("utf-8")

T_GRU_BEFORE = (
    "Cho: n = tanh(W x + U (r * h)), not after. \u00bfS\u00ed?\n"
).encode("utf-8")

T_GRU_CLI = (
    "before, after; after, before. \u00e0 bientot!\nbefore.\n"
).encode("utf-8")

T_GRU_BIG = (
    "Saturated: z at one holds h, z at zero \u2014 Swaps it.\n"
).encode("utf-8")

T_WIDTHS = (
    "Three cells, each its own width: sixteen, twenty-four, twelve.\n"
    "The readout reads the last \u2014 twelve wide.\n"
).encode("utf-8")

T_GRU_WIDTHS = (
    "Stacked GRU cells: nine, then fourteen, then five units; h carried by z.\n"
).encode("utf-8")

T_RNN_WIDTHS = (
    "A plain RNN of two cells: twelve units, then seven; no gate at all!\n"
).encode("utf-8")


def vocab_of(text, exclude=""):
    """The sorted set of the text's code points, without those in exclude."""
    s = text.decode("utf-8", errors="surrogateescape")
    chars = {c for c in s if not 0xDC80 <= ord(c) <= 0xDCFF}
    return "".join(sorted(chars - set(exclude)))


# ---------------------------------------------------------------------------------------
# The models.
#   arch: lstm | gru;  L layers;  H hidden units
#   emb: None (one-hot input, width V) or (name, D)
#   out: None, (weight name, bias name or None)
#   dtype: F32 | F16 | BF16 | F64
#   vocab: the vocabulary string; None for bytes (V = 256)
#   meta_vocab: write it into the metadata (else the MANIFEST passes --vocab-from)
#   reset: after | before (the GRU's), meta_reset: the metadata value to write, if any
#   scale: recurrent weights are uniform(-1, 1) * scale / sqrt(H)
#   tol: tests/cli/dump.sh's tolerance for this model (default GOLDEN_TOL)
#   cells: H is a list, one width per layer: stacked nn.LSTMCell / nn.GRUCell modules
#          (prefix + "<k>." + weight_ih, ...), each layer as wide as its own; the reference
#          is PyTorch's cells, one step at a time

MODELS = [
    dict(name="lstm_onehot", arch="lstm", L=1, H=5, emb=None, out=("fc.weight", "fc.bias"),
         dtype="F32", prefix="lstm.", bias=True, seed=101, text=T_QUOTES,
         vocab=vocab_of(T_QUOTES, "\u00e9\u20acq")),
    dict(name="lstm_emb2", arch="lstm", L=2, H=5, emb=("embedding.weight", 6),
         out=("fc.weight", "fc.bias"), dtype="F32", prefix="lstm.", bias=True, seed=102,
         text=T_EMBED, vocab=vocab_of(T_EMBED, "\u2014\u00ef")),
    dict(name="lstm_nobias", arch="lstm", L=1, H=4, emb=("encoder.weight", 3),
         out=("decoder.weight", None), dtype="F32", prefix="rnn.", bias=False, seed=103,
         text=T_NOBIAS, vocab=vocab_of(T_NOBIAS, "\u20acg")),
    dict(name="lstm_f16", arch="lstm", L=2, H=5, emb=None, out=None, dtype="F16",
         prefix="", bias=True, seed=104, text=T_F16, vocab=vocab_of(T_F16, "\u00ab\u00bbW")),
    dict(name="lstm_bf16", arch="lstm", L=1, H=9, emb=("embedding.weight", 5),
         out=None, dtype="BF16", prefix="lstm.", bias=True, seed=105,
         text=T_BF16, vocab=vocab_of(T_BF16, "\u2260\u2248")),
    dict(name="lstm_f64", arch="lstm", L=1, H=4, emb=None, out=("head.weight", "head.bias"),
         dtype="F64", prefix="", bias=True, seed=106, text=T_F64,
         vocab=vocab_of(T_F64, "\u2192!")),
    dict(name="lstm_big", arch="lstm", L=1, H=15, emb=("embedding.weight", 8), out=None,
         dtype="F32", prefix="lstm.", bias=True, seed=107, text=T_BIG, scale=5.0,
         vocab=vocab_of(T_BIG, "\u00c5\u00f6"), tol=5e-6),
    dict(name="lstm_bytes", arch="lstm", L=1, H=3, emb=("embedding.weight", 4), out=None,
         dtype="F32", prefix="lstm.", bias=True, seed=108, text=T_BYTES, vocab=None),
    dict(name="lstm_vocabfrom", arch="lstm", L=1, H=7, emb=None, out=None,
         dtype="F32", prefix="rnn.", bias=True, seed=109, text=T_VOCABFROM,
         vocab=vocab_of(VOCABFROM_TRAIN), meta_vocab=False, vocab_file=VOCABFROM_TRAIN),
    dict(name="gru_onehot", arch="gru", L=1, H=6, emb=None, out=("fc.weight", "fc.bias"),
         dtype="F32", prefix="rnn.", bias=True, seed=201, text=T_GRU,
         vocab=vocab_of(T_GRU, "\u2014P")),
    dict(name="gru_emb2", arch="gru", L=2, H=7, emb=("embedding.weight", 7),
         out=("head.weight", "head.bias"), dtype="F32", prefix="net.rnn.", bias=True,
         seed=202, text=T_GRU2, vocab=vocab_of(T_GRU2, "\u2026'")),
    dict(name="gru_nobias_f16", arch="gru", L=1, H=5, emb=None, out=("decoder.weight", None),
         dtype="F16", prefix="", bias=False, seed=203, text=T_GRU_NOBIAS,
         vocab=vocab_of(T_GRU_NOBIAS, "\u00e9!")),
    dict(name="gru_bf16", arch="gru", L=2, H=4, emb=None, out=("fc.weight", "fc.bias"),
         dtype="BF16",
         prefix="rnn.", bias=True, seed=204, text=T_GRU_BF16,
         vocab=vocab_of(T_GRU_BF16, "\u00d8")),
    dict(name="gru_f64", arch="gru", L=1, H=3, emb=("encoder.weight", 4),
         out=("decoder.weight", "decoder.bias"), dtype="F64", prefix="gru.", bias=True,
         seed=205, text=T_GRU_F64, vocab=vocab_of(T_GRU_F64, "\u2260;"), meta_reset="after"),
    dict(name="gru_before", arch="gru", L=2, H=6, emb=("embedding.weight", 5),
         out=("fc.weight", "fc.bias"), dtype="F32", prefix="rnn.", bias=True, seed=206,
         text=T_GRU_BEFORE, vocab=vocab_of(T_GRU_BEFORE, "\u00bf\u00ed"), reset="before",
         meta_reset="before"),
    dict(name="gru_cli_before", arch="gru", L=1, H=4, emb=None, out=None, dtype="F32",
         prefix="", bias=True, seed=207, text=T_GRU_CLI, vocab=vocab_of(T_GRU_CLI, "\u00e0!"),
         reset="before", options=["--gru-reset", "before"]),
    dict(name="gru_big", arch="gru", L=1, H=13, emb=None, out=None,
         dtype="F32", prefix="rnn.", bias=True, seed=208, text=T_GRU_BIG, scale=5.0,
         vocab=vocab_of(T_GRU_BIG, "\u2014S"), tol=1e-5),
    dict(name="lstm_widths", arch="lstm", L=3, H=[16, 24, 12], cells=True,
         emb=("embedding.weight", 6), out=("fc.weight", "fc.bias"), dtype="F32",
         prefix="cells.", bias=True, seed=301, text=T_WIDTHS,
         vocab=vocab_of(T_WIDTHS, "\u2014T")),
    dict(name="gru_widths", arch="gru", L=3, H=[9, 14, 5], cells=True, emb=None,
         out=("head.weight", "head.bias"), dtype="F32", prefix="net.cells.", bias=True,
         seed=302, text=T_GRU_WIDTHS, vocab=vocab_of(T_GRU_WIDTHS, ";S")),
    dict(name="rnn_widths", arch="rnn", L=2, H=[12, 7], cells=True,
         emb=("embedding.weight", 5), out=("fc.weight", "fc.bias"), dtype="F32",
         prefix="rnn.", bias=True, seed=303, text=T_RNN_WIDTHS,
         vocab=vocab_of(T_RNN_WIDTHS, "!A")),
]

# The gate blocks of each cell.
GATES = {"lstm": 4, "gru": 3, "rnn": 1}

def rounded(arr, dtype):
    """arr as stored with dtype, back in float64 (what save_file is asked to do)."""
    if dtype == "F32":
        return arr.astype(np.float32).astype(np.float64)
    if dtype == "F16":
        return arr.astype(np.float16).astype(np.float64)
    if dtype == "F64":
        return arr.astype(np.float64)
    bits = np.ascontiguousarray(arr, dtype="<f4").view("<u4").astype(np.uint64)
    bits = ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16) << 16
    return bits.astype("<u4").view("<f4").astype(np.float64)


# ---------------------------------------------------------------------------------------
# The cells, by hand, in float64.


def sigmoid(x):
    return 1.0 / (1.0 + np.exp(-x))


def lstm_cell(w, x, h, c):
    """One LSTM step: returns i, f, g, o, c', h'."""
    H = h.shape[0]
    a = w["w_ih"] @ x + w["b_ih"] + w["w_hh"] @ h + w["b_hh"]
    i = sigmoid(a[0:H])
    f = sigmoid(a[H:2 * H])
    g = np.tanh(a[2 * H:3 * H])
    o = sigmoid(a[3 * H:4 * H])
    c2 = f * c + i * g
    return i, f, g, o, c2, o * np.tanh(c2)


def gru_cell(w, x, h, before=False):
    """One GRU step: returns r, z, n, h'."""
    H = h.shape[0]
    gi = w["w_ih"] @ x + w["b_ih"]
    whh, bhh = w["w_hh"], w["b_hh"]
    gh_rz = whh[0:2 * H] @ h + bhh[0:2 * H]
    r = sigmoid(gi[0:H] + gh_rz[0:H])
    z = sigmoid(gi[H:2 * H] + gh_rz[H:2 * H])
    if before:
        n = np.tanh(gi[2 * H:] + whh[2 * H:] @ (r * h) + bhh[2 * H:])
    else:
        n = np.tanh(gi[2 * H:] + r * (whh[2 * H:] @ h + bhh[2 * H:]))
    return r, z, n, (1.0 - z) * n + z * h


def check_example_gru():
    """doc/measures.md example 4, the GRU: reset before gives (0.187823, -0.070821), after the mirror."""
    w = {"w_ih": np.zeros((6, 1)), "b_ih": np.array([np.log(3), -np.log(3), 0, 0, 0, 0]),
         "w_hh": np.zeros((6, 2)), "b_hh": np.zeros(6)}
    w["w_hh"][4:6] = [[0, 1], [1, 0]]
    h = np.array([0.5, -0.5])
    for before, want in ((True, (0.187823, -0.070821)), (False, (0.070821, -0.187823))):
        r, z, n, h2 = gru_cell(w, np.zeros(1), h, before)
        assert np.allclose(r, [0.75, 0.25]) and np.allclose(z, [0.5, 0.5])
        assert np.allclose(h2, want, atol=1e-6), (before, h2)


# ---------------------------------------------------------------------------------------


def widths(m):
    """Each layer's width."""
    return list(m["H"]) if m.get("cells") else [m["H"]] * m["L"]


def layer_name(m, layer, stem):
    """A layer's tensor: nn.LSTM's weight_ih_l<k>, or stacked cells' <k>.weight_ih."""
    if m.get("cells"):
        return f"{m['prefix']}{layer}.{stem}"
    return f"{m['prefix']}{stem}_l{layer}"


def make_cell_weights(m, rng):
    """Stacked cells, layer k of H_k units reading layer k-1's h (the readout the top's)."""
    Hs, G = widths(m), GATES[m["arch"]]
    V = 256 if m["vocab"] is None else len(m["vocab"])
    D0 = m["emb"][1] if m["emb"] else V
    t = {}
    for layer, H in enumerate(Hs):
        k = m.get("scale", 1.0) / np.sqrt(H)
        din = D0 if layer == 0 else Hs[layer - 1]
        t[layer_name(m, layer, "weight_ih")] = rng.uniform(-k, k, (G * H, din))
        t[layer_name(m, layer, "weight_hh")] = rng.uniform(-k, k, (G * H, H))
        if m["bias"]:
            t[layer_name(m, layer, "bias_ih")] = rng.uniform(-k, k, G * H)
            t[layer_name(m, layer, "bias_hh")] = rng.uniform(-k, k, G * H)
    if m["emb"]:
        t[m["emb"][0]] = rng.uniform(-1.0, 1.0, (V, D0))
    if m["out"]:
        wname, bname = m["out"]
        t[wname] = rng.uniform(-1.5, 1.5, (V, Hs[-1]))
        if bname:
            t[bname] = rng.uniform(-0.5, 0.5, V)
    return t, V, D0


def make_weights(m, rng):
    """The model's tensors (float64, not yet rounded), keyed by file name."""
    if m.get("cells"):
        return make_cell_weights(m, rng)
    H, L, G = m["H"], m["L"], 4 if m["arch"] == "lstm" else 3
    V = 256 if m["vocab"] is None else len(m["vocab"])
    D0 = m["emb"][1] if m["emb"] else V
    k = m.get("scale", 1.0) / np.sqrt(H)
    t = {}
    p = m["prefix"]
    for layer in range(L):
        din = D0 if layer == 0 else H
        t[f"{p}weight_ih_l{layer}"] = rng.uniform(-k, k, (G * H, din))
        t[f"{p}weight_hh_l{layer}"] = rng.uniform(-k, k, (G * H, H))
        if m["bias"]:
            t[f"{p}bias_ih_l{layer}"] = rng.uniform(-k, k, G * H)
            t[f"{p}bias_hh_l{layer}"] = rng.uniform(-k, k, G * H)
    if m["emb"]:
        t[m["emb"][0]] = rng.uniform(-1.0, 1.0, (V, D0))
    if m["out"]:
        wname, bname = m["out"]
        t[wname] = rng.uniform(-1.5, 1.5, (V, H))
        if bname:
            t[bname] = rng.uniform(-0.5, 0.5, V)
    return t, V, D0


def write_model(m, path):
    rng = np.random.default_rng(m["seed"])
    t, V, D0 = make_weights(m, rng)
    meta = {}
    if m["vocab"] is not None and m.get("meta_vocab", True):
        meta["vocab"] = m["vocab"]
    if m.get("meta_reset"):
        meta["gru_reset"] = m["meta_reset"]
    if m["arch"] == "rnn":
        meta["nonlinearity"] = "tanh"
    dt = m["dtype"]
    if dt == "F32":
        save_file({k: v.astype(np.float32) for k, v in t.items()}, path, meta or None)
    elif dt == "F64":
        save_file(t, path, meta or None)
    elif dt == "F16":
        save_file(t, path, meta or None, dtype=np.float16)
    else:
        save_file(t, path, meta or None, dtype="BF16")
    stored, smeta = read_safetensors(path)
    assert sorted(stored) == sorted(t), path
    assert smeta == meta, (path, smeta, meta)
    for k in t:
        assert np.array_equal(stored[k], rounded(t[k], dt)), (path, k)
    return stored, V, D0


def layer_weights(m, stored, layer):
    G, H = GATES[m["arch"]], widths(m)[layer]
    w = {"w_ih": stored[layer_name(m, layer, "weight_ih")],
         "w_hh": stored[layer_name(m, layer, "weight_hh")]}
    if m["bias"]:
        w["b_ih"] = stored[layer_name(m, layer, "bias_ih")]
        w["b_hh"] = stored[layer_name(m, layer, "bias_hh")]
    else:
        w["b_ih"] = np.zeros(G * H)
        w["b_hh"] = np.zeros(G * H)
    return w


def tokens_of(m):
    """The time steps: (token, character field) of each in-vocabulary character."""
    steps = []
    if m["vocab"] is None:
        for b in m["text"]:
            steps.append((b, csv_char(chr(b)) if b < 0x80 else "\\x%02X" % b))
        return steps
    index = {c: i for i, c in enumerate(m["vocab"])}
    for c in m["text"].decode("utf-8", errors="surrogateescape"):
        if c in index:
            steps.append((index[c], csv_char(c)))
    return steps


def csv_char(c):
    if c in ',"\r\n':
        return '"' + c.replace('"', '""') + '"'
    return c


def torch_states(m, stored, X, dtype):
    """Every layer's h (and c) after every step, from nn.LSTM / nn.GRU run step by step."""
    L, H = m["L"], m["H"]
    cls = torch.nn.LSTM if m["arch"] == "lstm" else torch.nn.GRU
    net = cls(X.shape[1], H, num_layers=L, bias=m["bias"])
    sd = {}
    p = m["prefix"]
    for k, v in stored.items():
        if k.startswith(p) and (k[len(p):].startswith("weight_") or k[len(p):].startswith("bias_")):
            sd[k[len(p):]] = torch.tensor(v)
    net.load_state_dict(sd)
    net = net.to(dtype)
    T = X.shape[0]
    hs = np.zeros((T, L, H))
    cs = np.zeros((T, L, H))
    xt = torch.tensor(X, dtype=dtype)
    with torch.no_grad():
        h = torch.zeros(L, 1, H, dtype=dtype)
        c = torch.zeros(L, 1, H, dtype=dtype)
        for t in range(T):
            if m["arch"] == "lstm":
                _, (h, c) = net(xt[t].view(1, 1, -1), (h, c))
                cs[t] = c[:, 0, :].double().numpy()
            else:
                _, h = net(xt[t].view(1, 1, -1), h)
            hs[t] = h[:, 0, :].double().numpy()
        whole = net(xt.view(T, 1, -1))[0][:, 0, :].double().numpy()
    assert np.allclose(whole, hs[:, L - 1], atol=1e-12 if dtype == torch.float64 else 1e-6)
    return hs, cs


def numpy_gru(m, stored, X, before):
    L, H = m["L"], m["H"]
    T = X.shape[0]
    gates = np.zeros((T, L, 4, H))
    h = np.zeros((L, H))
    ws = [layer_weights(m, stored, k) for k in range(L)]
    for t in range(T):
        x = X[t]
        for k in range(L):
            r, z, n, h[k] = gru_cell(ws[k], x, h[k], before)
            gates[t, k] = (r, z, n, h[k])
            x = h[k]
    return gates


def reference(m, stored, steps, V, D0):
    """Returns values [T, L, ncol, H] in dump column order, and h_top [T, H]."""
    T, L, H = len(steps), m["L"], m["H"]
    tok = [s[0] for s in steps]
    if m["emb"]:
        X = stored[m["emb"][0]][tok]
    else:
        X = np.eye(V)[tok]
    assert X.shape == (T, D0)
    if m.get("cells"):
        return reference_cells(m, stored, X)
    before = m.get("reset") == "before"

    if m["arch"] == "gru":
        # The same numpy code with the reset after W_hn must reproduce nn.GRU.
        hs, _ = torch_states(m, stored, X, torch.float64)
        after = numpy_gru(m, stored, X, before=False)
        err = np.abs(after[:, :, 3, :] - hs).max()
        assert err < CHECK_TOL, (m["name"], "numpy GRU against nn.GRU", err)
        if before:
            vals = numpy_gru(m, stored, X, before=True)
            f32 = numpy_gru_f32(m, stored, X)
            drift = np.abs(f32 - vals).max()
        else:
            vals = np.zeros((T, L, 4, H))
            ws = [layer_weights(m, stored, k) for k in range(L)]
            for t in range(T):
                for k in range(L):
                    x = X[t] if k == 0 else hs[t, k - 1]
                    hprev = hs[t - 1, k] if t else np.zeros(H)
                    r, z, n, h2 = gru_cell(ws[k], x, hprev)
                    err = np.abs(h2 - hs[t, k]).max()
                    assert err < CHECK_TOL, (m["name"], t, k, err)
                    vals[t, k] = (r, z, n, hs[t, k])
            h32, _ = torch_states(m, stored, X, torch.float32)
            drift = np.abs(h32 - hs).max()
    else:
        hs, cs = torch_states(m, stored, X, torch.float64)
        vals = np.zeros((T, L, 6, H))
        ws = [layer_weights(m, stored, k) for k in range(L)]
        for t in range(T):
            for k in range(L):
                x = X[t] if k == 0 else hs[t, k - 1]
                hprev = hs[t - 1, k] if t else np.zeros(H)
                cprev = cs[t - 1, k] if t else np.zeros(H)
                i, f, g, o, c2, h2 = lstm_cell(ws[k], x, hprev, cprev)
                err = max(np.abs(c2 - cs[t, k]).max(), np.abs(h2 - hs[t, k]).max())
                assert err < CHECK_TOL, (m["name"], t, k, err)
                vals[t, k] = (i, f, g, o, cs[t, k], hs[t, k])
        h32, c32 = torch_states(m, stored, X, torch.float32)
        drift = max(np.abs(h32 - hs).max(), np.abs(c32 - cs).max())
    assert drift < F32_MARGIN, (m["name"], "float32 drift", drift)
    h_top = vals[:, L - 1, -1, :]
    return vals, h_top, drift


def torch_cells(m, stored, X, dtype):
    """Every layer's h (and c) after every step from stacked nn.LSTMCell / nn.GRUCell modules,
    each of its own width, one step at a time: lists over the layers of [T, H_k]."""
    Hs, T = widths(m), X.shape[0]
    cls = {"lstm": torch.nn.LSTMCell, "gru": torch.nn.GRUCell, "rnn": torch.nn.RNNCell}
    cells = []
    for k, H in enumerate(Hs):
        w = layer_weights(m, stored, k)
        cell = cls[m["arch"]](w["w_ih"].shape[1], H, bias=m["bias"])
        sd = {"weight_ih": w["w_ih"], "weight_hh": w["w_hh"]}
        if m["bias"]:
            sd.update(bias_ih=w["b_ih"], bias_hh=w["b_hh"])
        cell.load_state_dict({n: torch.tensor(v) for n, v in sd.items()})
        cells.append(cell.to(dtype))
    hs = [np.zeros((T, H)) for H in Hs]
    cs = [np.zeros((T, H)) for H in Hs]
    with torch.no_grad():
        h = [torch.zeros(1, H, dtype=dtype) for H in Hs]
        c = [torch.zeros(1, H, dtype=dtype) for H in Hs]
        for t in range(T):
            x = torch.tensor(X[t], dtype=dtype).view(1, -1)
            for k in range(len(Hs)):
                if m["arch"] == "lstm":
                    h[k], c[k] = cells[k](x, (h[k], c[k]))
                    cs[k][t] = c[k][0].double().numpy()
                else:
                    h[k] = cells[k](x, h[k])
                hs[k][t] = h[k][0].double().numpy()
                x = h[k]
    return hs, cs


def reference_cells(m, stored, X):
    """Stacked cells of their own widths: per step, per layer, the dump's columns [ncol, H_k]
    (the gates by hand in float64, the states PyTorch's, checked against each other), the top
    layer's h [T, H_top], and how far float32 drifts."""
    Hs, T, lstm = widths(m), X.shape[0], m["arch"] == "lstm"
    hs, cs = torch_cells(m, stored, X, torch.float64)
    ws = [layer_weights(m, stored, k) for k in range(len(Hs))]
    vals = [[None] * len(Hs) for _ in range(T)]
    for t in range(T):
        for k, H in enumerate(Hs):
            x = X[t] if k == 0 else hs[k - 1][t]
            hprev = hs[k][t - 1] if t else np.zeros(H)
            if lstm:
                cprev = cs[k][t - 1] if t else np.zeros(H)
                i, f, g, o, c2, h2 = lstm_cell(ws[k], x, hprev, cprev)
                err = max(np.abs(c2 - cs[k][t]).max(), np.abs(h2 - hs[k][t]).max())
                vals[t][k] = np.array([i, f, g, o, cs[k][t], hs[k][t]])
            elif m["arch"] == "rnn":  # h = tanh(a): its pre-activation a, then h
                w = ws[k]
                a = w["w_ih"] @ x + w["b_ih"] + w["w_hh"] @ hprev + w["b_hh"]
                err = np.abs(np.tanh(a) - hs[k][t]).max()
                vals[t][k] = np.array([a, hs[k][t]])
            else:
                r, z, n, h2 = gru_cell(ws[k], x, hprev)
                err = np.abs(h2 - hs[k][t]).max()
                vals[t][k] = np.array([r, z, n, hs[k][t]])
            assert err < CHECK_TOL, (m["name"], t, k, err)
    h32, c32 = torch_cells(m, stored, X, torch.float32)
    drift = max(max(np.abs(a - b).max() for a, b in zip(h32, hs)),
                max(np.abs(a - b).max() for a, b in zip(c32, cs)))
    assert drift < F32_MARGIN, (m["name"], "float32 drift", drift)
    return vals, hs[-1], drift


def numpy_gru_f32(m, stored, X):
    """The reset-before GRU in float32, only to measure how far float32 drifts."""
    st32 = {k: v.astype(np.float32) for k, v in stored.items()}
    L, H = m["L"], m["H"]
    ws = [{k: v.astype(np.float32) for k, v in layer_weights(m, st32, layer).items()}
          for layer in range(L)]
    h = np.zeros((L, H), dtype=np.float32)
    out = np.zeros((X.shape[0], L, 4, H))
    one = np.float32(1)
    for t in range(X.shape[0]):
        x = X[t].astype(np.float32)
        for k in range(L):
            w = ws[k]
            gi = w["w_ih"] @ x + w["b_ih"]
            r = one / (one + np.exp(-(gi[:H] + w["w_hh"][:H] @ h[k] + w["b_hh"][:H])))
            z = one / (one + np.exp(-(gi[H:2 * H] + w["w_hh"][H:2 * H] @ h[k]
                                      + w["b_hh"][H:2 * H])))
            n = np.tanh(gi[2 * H:] + w["w_hh"][2 * H:] @ (r * h[k]) + w["b_hh"][2 * H:])
            h[k] = (one - z) * n + z * h[k]
            out[t, k] = (r, z, n, h[k])
            x = h[k]
    return out


def write_dump(m, path, steps, vals):
    arch_cols = {"lstm": "i,f,g,o,c,h", "gru": "r,z,n,h", "rnn": "a,h"}[m["arch"]]
    lines = ["step,char,layer,unit," + arch_cols]
    for t, (_, ch) in enumerate(steps):
        for k in range(m["L"]):
            for j in range(widths(m)[k]):
                nums = ",".join("%.9g" % v for v in vals[t][k][:, j])
                lines.append(f"{t},{ch},{k},{j},{nums}")
    with open(path, "wb") as f:
        f.write(("\n".join(lines) + "\n").encode("utf-8"))


def write_probs(m, stored, path, h_top):
    wname, bname = m["out"]
    W = stored[wname]
    b = stored[bname] if bname else np.zeros(W.shape[0])
    lines = ["step,token,p"]
    for t in range(h_top.shape[0]):
        logits = W @ h_top[t] + b
        e = np.exp(logits - logits.max())
        p = e / e.sum()
        assert abs(p.sum() - 1) < 1e-12
        lines.extend(f"{t},{v},{p[v]:.9g}" for v in range(W.shape[0]))
    with open(path, "wb") as f:
        f.write(("\n".join(lines) + "\n").encode("ascii"))


def main():
    """With names on the command line, only those models' files are written (the others are
    left as they are); MANIFEST, which says nothing computed, always lists every model."""
    only = set(sys.argv[1:])
    assert only <= {m["name"] for m in MODELS}, only - {m["name"] for m in MODELS}
    check_example_gru()
    os.makedirs(OUT, exist_ok=True)
    manifest = []
    names = set()
    for m in MODELS:
        name = m["name"]
        assert name not in names
        names.add(name)
        options = list(m.get("options", []))
        if m["vocab"] is not None and not m.get("meta_vocab", True):
            options += ["--vocab-from", f"{OUT_REL}/{name}.vocab.txt"]
        manifest.append(" ".join([name, "%g" % m.get("tol", GOLDEN_TOL)] + options))
        if only and name not in only:
            continue
        base = os.path.join(OUT, name)
        with open(base + ".txt", "wb") as f:
            f.write(m["text"])
        stored, V, D0 = write_model(m, base + ".safetensors")
        if m["vocab"] is not None and not m.get("meta_vocab", True):
            with open(base + ".vocab.txt", "wb") as f:
                f.write(m["vocab_file"])
        steps = tokens_of(m)
        skipped = 0 if m["vocab"] is None else \
            len(m["text"].decode("utf-8", errors="surrogateescape")) - len(steps)
        assert 40 <= len(steps) <= 300, (name, len(steps))
        assert m["vocab"] is None or skipped > 0, name
        vals, h_top, drift = reference(m, stored, steps, V, D0)
        write_dump(m, base + ".csv", steps, vals)
        if m["out"]:
            write_probs(m, stored, base + ".probs.csv", h_top)
        rows = {"gru": [0, 1], "lstm": [0, 1, 3], "rnn": []}[m["arch"]]
        sig = np.concatenate([vals[t][k][rows].ravel() for t in range(len(steps))
                              for k in range(m["L"])])
        sat = np.mean((sig < 0.1) | (sig > 0.9)) if sig.size else 0.0
        Hs = ",".join(str(h) for h in widths(m))
        print(f"{name:16s} {m['arch']} L={m['L']} H={Hs:>2s} V={V:3d} {m['dtype']:4s} "
              f"steps={len(steps):3d} skipped={skipped} saturated {sat:4.0%} f32 drift {drift:.1e}")
    with open(os.path.join(OUT, "MANIFEST"), "w") as f:
        f.write("# model, tolerance of tests/cli/dump.sh (tests/ref/make_fixtures.py, GOLDEN_TOL),"
                " options\n")
        f.write("\n".join(manifest) + "\n")


if __name__ == "__main__":
    main()
