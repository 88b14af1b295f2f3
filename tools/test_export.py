#!/usr/bin/python3
"""Tests for tools/gatetui_export.py (needs torch; run by hand, not part of `make check`):

    /usr/bin/python3 tools/test_export.py

Saves small PyTorch models the ways users do (a state_dict, a whole module, checkpoint
dicts), exports them, reads the safetensors back with the small reader below and checks
every tensor and the metadata; then checks that what gatetui cannot read is refused with
one line and exit status 2."""
import contextlib
import io
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile

import numpy as np
import torch
import torch.nn as nn

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gatetui_export  # noqa: E402

VOCAB = "\n !,.:;?ABCabcdefghijklmnopqrstuvwxyz"
V = len(VOCAB)
failures = 0
count = 0


def check(cond, what):
    global failures, count
    count += 1
    print("%s %d - %s" % ("ok" if cond else "not ok", count, what))
    if not cond:
        failures += 1


def read_safetensors(path):
    """A reader written from the format description, independent of the exporter."""
    with open(path, "rb") as f:
        data = f.read()
    (n,) = struct.unpack("<Q", data[:8])
    header = json.loads(data[8:8 + n])
    meta = header.pop("__metadata__", {})
    out = {}
    for name, info in header.items():
        b, e = info["data_offsets"]
        raw = data[8 + n + b:8 + n + e]
        if info["dtype"] == "BF16":
            a = (np.frombuffer(raw, "<u2").astype(np.uint32) << 16).view(np.float32)
        else:
            a = np.frombuffer(raw, {"F32": "<f4", "F16": "<f2", "F64": "<f8"}[info["dtype"]])
        out[name] = (info["dtype"], a.reshape(info["shape"]))
    return out, meta, n


class Net(nn.Module):
    def __init__(self, arch="lstm", hidden=8, layers=2, embed=5, **kw):
        super().__init__()
        self.emb = nn.Embedding(V, embed) if embed else None
        cls = {"lstm": nn.LSTM, "gru": nn.GRU, "rnn": nn.RNN}[arch]
        self.rnn = cls(embed or V, hidden, num_layers=layers, batch_first=True, **kw)
        self.drop = nn.Dropout(0.1)
        width = kw.get("proj_size") or hidden
        self.head = nn.Linear(width * (2 if kw.get("bidirectional") else 1), V)
        self.register_buffer("steps", torch.tensor(7))  # an integer buffer, not exported


def export(*argv):
    """Run the exporter in this process; returns (status, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = gatetui_export.main([str(a) for a in argv])
        except SystemExit as e:
            status = e.code
    return status, out.getvalue(), err.getvalue()


def same_tensors(path, state, names, what, exact=True):
    got, meta, _ = read_safetensors(path)
    ok = set(got) == set(names.values())
    for src, dst in names.items():
        want = state[src].detach().float().numpy()
        have = got.get(dst, (None, np.zeros(0)))[1]
        if have.shape != want.shape:
            ok = False
        elif exact and not np.array_equal(have.astype(np.float32), want):
            ok = False
        elif not exact and not np.allclose(have.astype(np.float32), want, rtol=1e-2,
                                           atol=1e-3):
            ok = False
    check(ok, what + ": tensors read back equal")
    return got, meta


class Forward(nn.Module):
    """Net's forward pass (embedding or one-hot, recurrent layers, readout), for ONNX."""

    def __init__(self, net):
        super().__init__()
        self.net = net

    def forward(self, x):
        n = self.net
        h = n.emb(x) if n.emb is not None else nn.functional.one_hot(x, V).float()
        return n.head(n.rnn(h)[0])


def onnx_checks(p):
    """Models from torch.onnx.export converted: every tensor equal to PyTorch's in
    PyTorch's gate order, the GRU's reset recorded, and (with gatetui built) the same dump
    as the torch.save file of the same model."""
    try:
        import onnx  # noqa: F401
    except ImportError:
        check(False, "the onnx package is needed for the ONNX checks (Debian: python3-onnx)")
        return
    import warnings
    gatetui = os.path.join(HERE, "..", "gatetui")
    text = p("onnx-text.txt")
    with open(text, "w") as f:
        f.write("The cat sat; the dog ran.\nA bat? No: 3 cats!\n" * 3)
    for arch, embed, layers in (("lstm", 5, 2), ("gru", 0, 2), ("gru", 4, 1)):
        torch.manual_seed(layers * 10 + embed)
        net = Net(arch, hidden=6, layers=layers, embed=embed)
        name = "%s-%d-%d" % (arch, embed, layers)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            torch.onnx.export(Forward(net), (torch.zeros(1, 5, dtype=torch.long),),
                              p(name + ".onnx"))
        st, out, err = export(p(name + ".onnx"), p(name + ".bin"), "--vocab", VOCAB)
        check(st == 0, "ONNX %s exports %s%s" % (name, out.strip(), err.strip()))
        sd = net.state_dict()
        names = {k: k for k in sd if k.startswith("rnn.")}
        names.update({"head.weight": "fc.weight", "head.bias": "fc.bias"})
        if embed:
            names["emb.weight"] = "embedding.weight"
        got, meta = same_tensors(p(name + ".bin"), sd, names, "ONNX " + name)
        check(meta.get("gru_reset") == ("after" if arch == "gru" else None),
              "ONNX %s: metadata gru_reset %s" % (name, "after (linear_before_reset=1)"
                                                  if arch == "gru" else "absent (LSTM)"))
        if not os.path.exists(gatetui):
            continue
        torch.save({"model": net.state_dict(), "vocab": VOCAB}, p(name + ".pt"))
        a = subprocess.run([gatetui, "--dump", p(name + ".bin"), text], capture_output=True)
        b = subprocess.run([gatetui, "--dump", p(name + ".pt"), text], capture_output=True)
        check(a.returncode == 0 and a.stdout and a.stdout == b.stdout,
              "ONNX %s: gatetui's dump of the converted file is that of the torch.save file" % name)


def test_state_dict(p, sd, lstm_names):
    """A plain state_dict."""
    torch.save(sd, p("sd.pt"))
    st, out, err = export(p("sd.pt"), p("sd.bin"), "--vocab", VOCAB)
    check(st == 0 and err == "", "state_dict exports (%s%s)" % (out.strip(), err.strip()))
    got, meta = same_tensors(p("sd.bin"), sd, lstm_names, "state_dict")
    hlen = read_safetensors(p("sd.bin"))[2]
    check(meta == {"vocab": VOCAB}, "metadata holds the vocabulary")
    check(all(d == "F32" for d, _ in got.values()), "default dtype is F32")
    check(hlen % 8 == 0, "data is 8-byte aligned")


def test_whole_module(p, lstm, sd, lstm_names):
    """A whole module: refused without --trust-pickle, exported with it."""
    torch.save(lstm, p("module.pt"))
    st, out, err = export(p("module.pt"), p("module.bin"), "--vocab", VOCAB)
    check(st == 2 and "--trust-pickle" in err and err.count("\n") == 1,
          "whole module refused without --trust-pickle: " + err.strip())
    check(not os.path.exists(p("module.bin")), "nothing written when refused")
    st, out, err = export(p("module.pt"), p("module.bin"), "--vocab", VOCAB, "--trust-pickle")
    check(st == 0, "whole module exports with --trust-pickle " + err.strip())
    same_tensors(p("module.bin"), sd, lstm_names, "whole module")


def test_checkpoints(p, lstm, sd, lstm_names):
    """Checkpoint dicts: tensors only (safe loader), and with Python floats."""
    torch.save({"model_state_dict": sd, "epoch": 3, "vocab": VOCAB}, p("ckpt.pt"))
    st, out, err = export(p("ckpt.pt"), p("ckpt.bin"))
    check(st == 0, "checkpoint dict exports, vocabulary taken from it " + err.strip())
    _, meta = same_tensors(p("ckpt.bin"), sd, lstm_names, "checkpoint dict")
    check(meta.get("vocab") == VOCAB, "checkpoint vocabulary recorded")
    opt = torch.optim.Adam(lstm.parameters(), lr=1e-3)
    torch.save({"state_dict": sd, "optimizer": opt.state_dict(), "loss": 1.25}, p("ckpt2.pt"))
    st, out, err = export(p("ckpt2.pt"), p("ckpt2.bin"), "--vocab", VOCAB, "--trust-pickle")
    check(st == 0, "checkpoint with optimizer state exports " + err.strip())
    same_tensors(p("ckpt2.bin"), sd, lstm_names, "checkpoint with optimizer")


def test_gru(p):
    """A GRU with one-hot input, vocabulary from a text and from a file, --gru-reset."""
    gru = Net("gru", hidden=6, layers=1, embed=0)
    gsd = gru.state_dict()
    torch.save(gsd, p("gru.pt"))
    with open(p("text.txt"), "w") as f:
        f.write("the cat sat on the mat.\nA B C? yes: no; ok, fine!\n" + VOCAB)
    st, out, err = export(p("gru.pt"), p("gru.bin"), "--vocab-from-text", p("text.txt"),
                          "--gru-reset", "before")
    check(st == 0, "GRU with one-hot input exports " + err.strip())
    _, meta = same_tensors(p("gru.bin"), gsd, {n: n for n in gsd if n != "steps"}, "GRU")
    check(meta == {"vocab": VOCAB, "gru_reset": "before"}, "GRU metadata: " + repr(meta))
    with open(p("vocab.txt"), "w") as f:
        f.write(VOCAB + "\n")  # as print() would write it
    st, out, err = export(p("gru.pt"), p("gru2.bin"), "--vocab-file", p("vocab.txt"))
    check(st == 0 and read_safetensors(p("gru2.bin"))[1]["vocab"] == VOCAB,
          "vocabulary file with a trailing newline " + err.strip())


def test_dtypes(p, sd, lstm_names):
    """dtypes."""
    for dt, code in (("f16", "F16"), ("bf16", "BF16")):
        st, out, err = export(p("sd.pt"), p("sd-%s.bin" % dt), "--vocab", VOCAB, "--dtype", dt)
        got, _ = same_tensors(p("sd-%s.bin" % dt), sd, lstm_names, dt, exact=False)
        check(st == 0 and all(d == code for d, _ in got.values()), "--dtype %s writes %s"
              % (dt, code))
    w = sd["rnn.weight_hh_l0"].numpy()
    f16 = read_safetensors(p("sd-f16.bin"))[0]["rnn.weight_hh_l0"][1]
    check(np.array_equal(f16, w.astype(np.float16)), "f16 values are numpy's rounding")
    bf = read_safetensors(p("sd-bf16.bin"))[0]["rnn.weight_hh_l0"][1]
    check(np.abs(bf - w).max() <= np.abs(w).max() * 2 ** -8, "bf16 values within rounding")


def test_cell(p):
    """An nn.LSTMCell (no _l0 in the names) is written with layer names."""
    cell = nn.ModuleDict({"embedding": nn.Embedding(V, 4), "cell": nn.LSTMCell(4, 3),
                          "fc": nn.Linear(3, V)})
    csd = cell.state_dict()
    torch.save(csd, p("cell.pt"))
    st, out, err = export(p("cell.pt"), p("cell.bin"), "--vocab", VOCAB)
    names = {n: (n + "_l0" if n.startswith("cell.") else n) for n in csd}
    check(st == 0, "LSTMCell exports " + err.strip())
    same_tensors(p("cell.bin"), csd, names, "LSTMCell renamed to _l0")


def test_safetensors_input(p):
    """A safetensors input: re-export with another vocabulary order."""
    st, out, err = export(p("sd.bin"), p("again.bin"), "--vocab", VOCAB[::-1])
    check(st == 0 and read_safetensors(p("again.bin"))[1]["vocab"] == VOCAB[::-1],
          "safetensors input re-exported " + err.strip())


def test_command_line(p):
    """The command line itself: exit status and one line on stderr."""
    r = subprocess.run([sys.executable, os.path.join(HERE, "gatetui_export.py"),
                        p("sd.pt"), p("cli.bin")], capture_output=True, text=True)
    check(r.returncode == 2 and r.stderr.count("\n") == 1 and "vocabulary" in r.stderr,
          "CLI without a vocabulary: status 2, one line: " + r.stderr.strip())
    r = subprocess.run([sys.executable, os.path.join(HERE, "gatetui_export.py"),
                        p("sd.pt"), p("cli.bin"), "--vocab", VOCAB],
                       capture_output=True, text=True)
    check(r.returncode == 0 and os.path.exists(p("cli.bin")), "CLI exports")
    r = subprocess.run([sys.executable, os.path.join(HERE, "gatetui_export.py"), "--help"],
                       capture_output=True, text=True)
    check(r.returncode == 0 and "runs code" in r.stdout.lower().replace("\n", " ")
          .replace("  ", " "), "--help warns that pickles run code")


def same_dump(p, a, b, what):
    """gatetui's dump of file a equals that of file b (when gatetui is built)."""
    gatetui = os.path.join(HERE, "..", "gatetui")
    if not os.access(gatetui, os.X_OK):
        check(False, "gatetui is built (for %s)" % what)
        return
    text = p("dump-text.txt")
    with open(text, "w") as f:
        f.write("The cat sat; the dog ran.\nA bat? No: 3 cats!\n")
    dumps = [subprocess.run([gatetui, "--dump", "--probs", f, text], capture_output=True)
             for f in (a, b)]
    check(all(d.returncode == 0 for d in dumps) and dumps[0].stdout == dumps[1].stdout and
          dumps[0].stdout.count(b"\n") > 100, what + ": gatetui's dump of it is the .pt's")


def test_breadth(p):
    """nn.LSTM(proj_size) and nn.RNN (tanh, relu): every tensor written, the metadata's
    nonlinearity from the option, a pickled module's attribute or a checkpoint's entry, and
    gatetui reading the written file as it reads the .pt."""
    torch.manual_seed(3)
    net = Net(proj_size=3)
    sd = net.state_dict()
    torch.save(sd, p("proj.pt"))
    st, out, err = export(p("proj.pt"), p("proj.bin"), "--vocab", VOCAB)
    check(st == 0 and "LSTM (proj 3), 2 layers, H = 8" in out, "proj exports: " + out + err)
    names = {n: n for n in sd if n != "steps"}
    names.update({"head.weight": "head.weight", "head.bias": "head.bias"})
    same_tensors(p("proj.bin"), sd, names, "proj")
    torch.save({"state_dict": sd, "vocab": VOCAB}, p("proj-ckpt.pt"))
    same_dump(p, p("proj.bin"), p("proj-ckpt.pt"), "proj")
    for nl, how in (("tanh", "option"), ("relu", "option"), ("relu", "module"),
                    ("relu", "checkpoint")):
        net = Net("rnn", nonlinearity=nl)
        sd = net.state_dict()
        src = p("rnn-%s-%s.pt" % (nl, how))
        extra = []
        if how == "option":
            torch.save(sd, src)
            extra = ["--nonlinearity", nl]
        elif how == "module":
            torch.save(net, src)
            extra = ["--trust-pickle"]
        else:
            torch.save({"state_dict": sd, "nonlinearity": nl}, src)
        st, out, err = export(src, p("rnn.bin"), "--vocab", VOCAB, *extra)
        check(st == 0 and "RNN (%s)" % nl in out, "rnn %s from the %s exports: %s%s"
              % (nl, how, out, err))
        got, meta = same_tensors(p("rnn.bin"), sd, {n: n for n in sd if n != "steps"},
                                 "rnn %s from the %s" % (nl, how))
        check(meta.get("nonlinearity") == nl, "rnn %s from the %s: the metadata says %s"
              % (nl, how, meta.get("nonlinearity")))
        if how == "checkpoint":
            torch.save({"state_dict": sd, "nonlinearity": nl, "vocab": VOCAB}, src)
            same_dump(p, p("rnn.bin"), src, "rnn relu")


def test_refusals(p, sd):
    """Refusals."""
    def refused(name, state, words, *extra, vocab=VOCAB):
        torch.save(state, p(name + ".pt"))
        args = [p(name + ".pt"), p(name + ".bin")] + list(extra)
        if vocab is not None:
            args += ["--vocab", vocab]
        st, out, err = export(*args)
        ok = st == 2 and err.count("\n") == 1 and all(w in err for w in words) \
            and not os.path.exists(p(name + ".bin"))
        check(ok, "refused, %s: %s" % (name, err.strip() or "status %s" % st))

    refused("bidirectional", Net(bidirectional=True).state_dict(), ["_reverse"])
    refused("no-vocab", sd, ["no vocabulary"], vocab=None)
    refused("short-vocab", sd, ["has %d characters" % (V - 1), "V = %d" % V],
            vocab=VOCAB[:-1])
    refused("repeated-vocab", sd, ["repeats"], vocab=VOCAB[:-1] + "a")
    two = dict(sd)
    two.update({"dec." + k[4:]: v for k, v in sd.items() if k.startswith("rnn.")})
    refused("two-prefixes", two, ["more than one", "--prefix"])
    st, out, err = export(p("two-prefixes.pt"), p("two-ok.bin"), "--vocab", VOCAB,
                          "--prefix", "dec.")
    check(st == 0 and any(k.startswith("dec.") for k in read_safetensors(p("two-ok.bin"))[0]),
          "--prefix picks one of two recurrent modules " + err.strip())
    ints = dict(sd)
    ints["rnn.weight_hh_l1"] = torch.zeros_like(sd["rnn.weight_hh_l1"], dtype=torch.int64)
    refused("integer", ints, ["rnn.weight_hh_l1", "int64"])
    nan = {k: v.clone() for k, v in sd.items()}
    nan["rnn.weight_ih_l0"][3, 1] = float("nan")
    refused("nan", nan, ["rnn.weight_ih_l0", "NaN"])
    inf = {k: v.clone() for k, v in sd.items()}
    inf["head.bias"][0] = float("inf")
    refused("inf", inf, ["head.bias", "Inf"])
    big = {k: v.clone() for k, v in sd.items()}
    big["head.weight"][0, 0] = 1e6
    refused("f16-overflow", big, ["head.weight", "f16"], "--dtype", "f16")
    refused("plain-rnn-unsaid", Net("rnn").state_dict(), ["plain RNN", "--nonlinearity"])
    refused("nonlinearity-on-lstm", sd, ["--nonlinearity"], "--nonlinearity", "relu")
    hr = Net(proj_size=3).state_dict()
    hr["rnn.weight_hr_l1"] = torch.zeros(3, 7)
    refused("projection-shape", hr, ["rnn.weight_hr_l1", "[3, 8]"])
    hr = Net(proj_size=3).state_dict()
    del hr["rnn.weight_hr_l0"]
    hr["rnn.weight_hh_l0"] = torch.zeros(32, 8)
    refused("projection-layer0-missing", hr, ["weight_hr_l1", "layer 0 has none"])
    missing = {k: v for k, v in sd.items() if k != "rnn.weight_hh_l1"}
    refused("missing-layer-tensor", missing, ["weight_hh_l1", "missing"])
    nobias = {k: v for k, v in sd.items() if k != "rnn.bias_hh_l0"}
    refused("half-bias", nobias, ["bias_hh_l0", "missing"])
    badshape = dict(sd)
    badshape["rnn.weight_ih_l1"] = torch.zeros(32, 5)
    refused("bad-shape", badshape, ["rnn.weight_ih_l1", "shape"])
    refused("gru-reset-on-lstm", sd, ["--gru-reset"], "--gru-reset", "after")
    refused("no-rnn", nn.Linear(3, 4).state_dict(), ["no LSTM, GRU or RNN"])
    torch.save({"epoch": 1, "optimizer": {}}, p("nostate.pt"))
    st, out, err = export(p("nostate.pt"), p("nostate.bin"), "--vocab", VOCAB)
    check(st == 2 and "state_dict" in err, "dict without a state_dict: " + err.strip())
    with open(p("garbage.pt"), "wb") as f:
        f.write(b"this is not a model file at all")
    st, out, err = export(p("garbage.pt"), p("garbage.bin"), "--vocab", VOCAB)
    check(st == 2 and err.count("\n") == 1, "not a PyTorch file: " + err.strip())


def main():
    torch.manual_seed(0)
    tmp = tempfile.mkdtemp(prefix="gatetui-export-test-")
    p = lambda name: os.path.join(tmp, name)  # noqa: E731

    # Importing the module must not import torch.
    r = subprocess.run([sys.executable, "-c", "import sys; sys.path.insert(0, %r); "
                        "import gatetui_export; sys.exit('torch' in sys.modules)" % HERE])
    check(r.returncode == 0, "importing gatetui_export does not import torch")

    lstm = Net("lstm")
    sd = lstm.state_dict()
    lstm_names = {n: n for n in sd if n != "steps"}
    test_state_dict(p, sd, lstm_names)
    test_whole_module(p, lstm, sd, lstm_names)
    test_checkpoints(p, lstm, sd, lstm_names)
    test_gru(p)
    test_dtypes(p, sd, lstm_names)
    test_cell(p)
    test_safetensors_input(p)
    test_command_line(p)
    test_refusals(p, sd)
    test_breadth(p)
    onnx_checks(p)

    print("1..%d" % count)
    if failures:
        print("# %d of %d failed (files kept in %s)" % (failures, count, tmp))
        return 1
    print("# all passed")
    shutil.rmtree(tmp)
    return 0


if __name__ == "__main__":
    sys.exit(main())
