#!/usr/bin/env python3
"""Writes torch.save files (the zip format) without PyTorch, for the robustness tests and
measures: tensors are storages of float32 written as torch.save lays them out, the pickle
made by Python's own pickler with stand-ins for torch's globals.

  mktorch.py big FILE            an LSTM checkpoint of 3 layers, H = D = 1024 (100.7 MB)
  mktorch.py wide FILE H         an LSTM checkpoint of 1 layer, D = 16, H units (H 1024: 17 MB)
  mktorch.py shared FILE N M     a small LSTM whose checkpoint also holds an object whose
                                 state is a dict of N pairs, referenced M times
  mktorch.py sharedt FILE N M    the same with a dict of N tensors (one storage)
  mktorch.py expand FILE         every tensor of an LSTM a stride-0 view of one 4-byte
                                 storage (what expand() saves)
  mktorch.py tied16 FILE [apart] a float16 LSTM whose embedding and readout share one
                                 storage (with apart: two storages of the same values)
  mktorch.py badlocal FILE       a small LSTM checkpoint whose directory sends one storage
                                 to another's local header (same size: wrong bytes if used)
  mktorch.py zbyteorder FILE     a small LSTM checkpoint whose byteorder entry is deflated
  mktorch.py overflow FILE [r]   a small LSTM (H = 8) whose float32 products overflow: every
                                 W_ih x of 1e38 x 1e38 (+inf), W_hh -3e38 (-inf once h > 0),
                                 so the state is NaN from step 1; with r, the state finite
                                 (every gate's bias +30) and the readout's row 0 +3e38, row 1
                                 -3e38 (logits of +-inf, probabilities NaN)
  mktorch.py nested FILE N       a torch.save zip whose data.pkl is N tuples each inside the
                                 next (one byte each: N + 6 bytes)
"""
import collections
import io
import pickle
import struct
import sys
import types
import zipfile

torch = types.ModuleType("torch")
utils = types.ModuleType("torch._utils")
sys.modules["torch"] = torch
sys.modules["torch._utils"] = utils


class FloatStorage:
    pass


class HalfStorage:
    pass


FloatStorage.__module__ = HalfStorage.__module__ = "torch"
torch.FloatStorage = FloatStorage
torch.HalfStorage = HalfStorage


def _rebuild_tensor_v2(*args):
    pass


_rebuild_tensor_v2.__module__ = "torch._utils"
utils._rebuild_tensor_v2 = _rebuild_tensor_v2


class Storage:
    def __init__(self, key, data, half=False):
        self.key, self.data, self.half = key, data, half


class Tensor:
    def __init__(self, storage, offset, size, stride):
        self.storage, self.offset, self.size, self.stride = storage, offset, size, stride

    def __reduce__(self):
        return (_rebuild_tensor_v2, (self.storage, self.offset, tuple(self.size),
                                     tuple(self.stride), False, collections.OrderedDict()))


class Holder:  # an object of a class the file names, its state a dict
    pass


Holder.__module__ = "__main__"


class P(pickle.Pickler):
    def persistent_id(self, obj):
        if isinstance(obj, Storage):
            kind, size = (HalfStorage, 2) if obj.half else (FloatStorage, 4)
            return ("storage", kind, obj.key, "cpu", len(obj.data) // size)
        return None


def floats(n, seed):
    x = seed * 2654435761 % 2**32
    out = bytearray()
    for _ in range(min(n, 4096)):
        x = (x * 1103515245 + 12345) % 2**31
        out += struct.pack("<f", (x / 2**31 - 0.5) * 0.2)
    return bytes(out * (n // 4096 + 1))[: 4 * n]


def contiguous(shape):
    st, s = [], 1
    for d in reversed(shape):
        st.insert(0, s)
        s *= d
    return st


def lstm(V, D, H, L, storages, view=None):
    shapes = [("embedding.weight", [V, D])]
    for k in range(L):
        i = D if k == 0 else H
        shapes += [(f"lstm.weight_ih_l{k}", [4 * H, i]), (f"lstm.weight_hh_l{k}", [4 * H, H]),
                   (f"lstm.bias_ih_l{k}", [4 * H]), (f"lstm.bias_hh_l{k}", [4 * H])]
    shapes += [("fc.weight", [V, H]), ("fc.bias", [V])]
    sd = collections.OrderedDict()
    for j, (name, shape) in enumerate(shapes):
        if view is not None:
            sd[name] = Tensor(view, 0, shape, [0] * len(shape))
            continue
        n = 1
        for d in shape:
            n *= d
        s = Storage(str(len(storages)), floats(n, j + 1))
        storages.append(s)
        sd[name] = Tensor(s, 0, shape, contiguous(shape))
    return sd


def save(path, obj, storages, byteorder=None):
    buf = io.BytesIO()
    P(buf, protocol=2).dump(obj)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as z:
        z.writestr("archive/data.pkl", buf.getvalue())
        if byteorder is not None:
            z.writestr("archive/byteorder", "little", byteorder)
        for s in storages:
            z.writestr("archive/data/" + s.key, s.data)
        z.writestr("archive/version", "3\n")


def misdirect(path, a, b):
    """Points the directory record of entry a at entry b's local header."""
    with zipfile.ZipFile(path) as z:
        off = {i.filename: i.header_offset for i in z.infolist()}
    raw = bytearray(open(path, "rb").read())
    pos = raw.find(b"PK\x01\x02")
    while pos >= 0:
        nlen = struct.unpack_from("<H", raw, pos + 28)[0]
        name = raw[pos + 46:pos + 46 + nlen].decode()
        if name == a:
            struct.pack_into("<I", raw, pos + 42, off[b])
        pos = raw.find(b"PK\x01\x02", pos + 46)
    open(path, "wb").write(bytes(raw))


def nested(path, n):
    """data.pkl: PROTO 2, EMPTY_TUPLE, then TUPLE1 n times, STOP."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as z:
        z.writestr("archive/data.pkl", b"\x80\x02)" + b"\x85" * n + b".")
        z.writestr("archive/version", "3\n")


def main():
    what, path = sys.argv[1], sys.argv[2]
    if what == "nested":
        nested(path, int(sys.argv[3]))
        return
    chars = [chr(32 + i) for i in range(96)]
    storages = []
    if what == "big":
        sd = lstm(96, 1024, 1024, 3, storages)
        extra = {}
    elif what == "wide":
        sd = lstm(96, 16, int(sys.argv[3]), 1, storages)
        extra = {}
    elif what in ("shared", "sharedt"):
        n, m = int(sys.argv[3]), int(sys.argv[4])
        sd = lstm(96, 8, 8, 1, storages)
        h = Holder()
        if what == "shared":
            h.__dict__ = {f"k{i}": i for i in range(n)}
        else:
            s = Storage(str(len(storages)), floats(n, 7))
            storages.append(s)
            h.__dict__ = {f"k{i}": Tensor(s, i, [1], [1]) for i in range(n)}
        extra = {"refs": [h] * m}
    elif what == "tied16":
        sd = lstm(96, 64, 64, 1, storages)
        for s in storages:  # the same values as float16
            s.data = struct.pack(f"<{len(s.data) // 4}e", *struct.unpack(f"<{len(s.data) // 4}f", s.data))
            s.half = True
        emb = sd["embedding.weight"].storage
        if len(sys.argv) > 3:
            sd["fc.weight"].storage.data = emb.data
        else:
            storages.remove(sd["fc.weight"].storage)
            sd["fc.weight"].storage = emb
        extra = {}
    elif what == "expand":
        one = Storage("0", struct.pack("<f", 0.01))
        storages.append(one)
        sd = lstm(96, 1024, 1024, 3, storages, view=one)
        extra = {}
    elif what == "overflow":
        sd = lstm(96, 16, 8, 1, storages)
        fill = lambda name, v, n: setattr(sd[name].storage, "data", struct.pack("<f", v) * n)
        if len(sys.argv) <= 3:
            fill("embedding.weight", 1e38, 96 * 16)
            fill("lstm.weight_ih_l0", 1e38, 32 * 16)
            fill("lstm.weight_hh_l0", -3e38, 32 * 8)
        else:
            fill("lstm.bias_ih_l0", 30.0, 32)
            fc = sd["fc.weight"].storage
            fc.data = struct.pack("<f", 3e38) * 8 + struct.pack("<f", -3e38) * 8 + fc.data[64:]
        extra = {}
    elif what in ("badlocal", "zbyteorder"):
        sd = lstm(96, 8, 8, 1, storages)
        extra = {}
    else:
        sys.exit(__doc__)
    ckpt = {"epoch": 1, "model_state_dict": sd, "loss": 1.5, "chars": chars}
    ckpt.update(extra)
    save(path, ckpt, storages, zipfile.ZIP_DEFLATED if what == "zbyteorder" else None)
    if what == "badlocal":  # the two bias storages have the same size
        same = [s.key for s in storages if len(s.data) == 4 * 32]
        misdirect(path, "archive/data/" + same[0], "archive/data/" + same[1])


if __name__ == "__main__":
    main()
