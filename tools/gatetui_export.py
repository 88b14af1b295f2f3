#!/usr/bin/env python3
"""gatetui-export: turn a PyTorch LSTM/GRU checkpoint into a model file gatetui reads.

The model file is safetensors: an 8-byte little-endian header length N, N bytes of UTF-8
JSON describing each tensor, then the raw little-endian data.  This module's save_file()
writes one from numpy arrays without needing the safetensors package; importing the module
needs only numpy (torch is imported when the command line loads a checkpoint).
"""
import argparse
import json
import os
import re
import struct
import sys

try:
    import numpy as np
except ImportError as _e:
    if __name__ != "__main__":
        raise
    sys.exit("gatetui-export: needs numpy, which %s (Python %d.%d) cannot import (%s); on "
             "Debian: apt-get install python3-numpy" % (sys.executable, sys.version_info[0],
                                                       sys.version_info[1], _e))

_DTYPES = {
    np.dtype("float32"): "F32",
    np.dtype("float16"): "F16",
    np.dtype("float64"): "F64",
}

# Names accepted for save_file's dtype argument besides numpy dtypes.  Note that numpy
# itself reads "f16" as a 16-byte float, hence the explicit table.
_DTYPE_NAMES = {
    "f16": np.float16, "float16": np.float16, "half": np.float16,
    "f32": np.float32, "float32": np.float32, "float": np.float32,
    "f64": np.float64, "float64": np.float64, "double": np.float64,
    "bf16": "BF16", "bfloat16": "BF16",
}


def save_file(tensors, path, metadata=None, dtype=None):
    """Write {name: array} to path as safetensors.

    dtype: None keeps each array's dtype (float32/float16/float64); "BF16" rounds
    float32 values to bfloat16 (round to nearest even).  Also accepted: "f16", "f32",
    "f64", "bf16" and numpy dtypes."""
    if isinstance(dtype, str):
        key = dtype.lower()
        if key not in _DTYPE_NAMES:
            raise ValueError("save_file: unknown dtype %r" % dtype)
        dtype = _DTYPE_NAMES[key]
    header = {}
    blobs = []
    offset = 0
    for name in sorted(tensors):
        arr = np.ascontiguousarray(tensors[name])
        if dtype == "BF16":
            bits = np.asarray(arr, dtype="<f4").view("<u4").astype(np.uint64)
            bits = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16
            raw = bits.astype("<u2").tobytes()
            code = "BF16"
        else:
            if dtype is not None:
                arr = arr.astype(dtype)
            if arr.dtype not in _DTYPES:
                arr = arr.astype(np.float32)
            code = _DTYPES[arr.dtype]
            raw = arr.astype(arr.dtype.newbyteorder("<")).tobytes()
        header[name] = {"dtype": code, "shape": list(arr.shape),
                        "data_offsets": [offset, offset + len(raw)]}
        blobs.append(raw)
        offset += len(raw)
    if metadata:
        header["__metadata__"] = {str(k): str(v) for k, v in metadata.items()}
    text = json.dumps(header, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    text += b" " * (-len(text) % 8)  # keep the data 8-byte aligned
    with open(path, "wb") as out:
        out.write(struct.pack("<Q", len(text)))
        out.write(text)
        for raw in blobs:
            out.write(raw)


# ---------------------------------------------------------------------------------------
# The command line.

class ExportError(Exception):
    """Bad input: reported as one line, exit status 2."""


class MissingModule(Exception):
    """A module the input needs and this Python lacks: one line, exit status 1."""


HELP = """\
Reads a PyTorch model holding one nn.LSTM (with or without proj_size), nn.GRU or nn.RNN (any
number of layers), an optional embedding and an optional readout, and writes it as a safetensors model file, with the
vocabulary in its metadata. (gatetui itself reads torch.save files as they are; this
writes a file for other tools, changes the dtype, or converts an ONNX model.)

INPUT may be
  - an ONNX model (.onnx) of LSTM or GRU nodes, as torch.onnx.export or tf2onnx (the way
    from Keras and TensorFlow) write it: ONNX's gate orders (i, o, f, c and z, r, h) become
    PyTorch's, a GRU's linear_before_reset=1 is PyTorch's reset after W_hn (0: before, as
    Cho et al.), the embedding is a Gather feeding the first layer and the readout a Gemm
    or MatMul on the last; initial states are taken as zero; needs the onnx package;
  - a state_dict saved with torch.save(model.state_dict(), INPUT);
  - a checkpoint dict holding the state_dict under 'state_dict', 'model_state_dict',
    'model', 'net' or 'module' (other entries are ignored; a string under 'vocab' is used
    as the vocabulary when no --vocab option is given);
  - a whole module saved with torch.save(model, INPUT): this needs --trust-pickle;
  - a safetensors file (to add or replace the vocabulary, or change the dtype).

Files are opened with torch.load(weights_only=True), which refuses arbitrary Python
objects.  A whole module, or a checkpoint holding other objects, is a pickle: loading it
RUNS CODE FROM THE FILE.  --trust-pickle allows that; use it only on files you trust.
Loading a whole module also needs its class to be importable (run from its project).

Only the tensors gatetui uses are written: <prefix>weight_ih_l<k>, weight_hh_l<k>,
bias_ih_l<k>, bias_hh_l<k> and an nn.LSTM(proj_size)'s weight_hr_l<k> (names as found),
the embedding (a 2-D [V, D0] tensor
whose name contains 'emb', 'wte', 'tok' or 'lookup' or ends in 'encoder.weight'; with none
so named, the one tensor of that shape not named like a readout) and the readout (a [V, H]
weight, [V, P] with projections, and its [V] bias).  Without an embedding the input is
one-hot and its width must equal V.  A plain RNN's nonlinearity (tanh or relu) is written
in the metadata: from --nonlinearity, or else from the input (a pickled nn.RNN's
attribute, a checkpoint's "nonlinearity" entry, a safetensors file's metadata).
Refused, with one line and exit status 2: bidirectional (_reverse) layers, a plain RNN
whose nonlinearity nothing says, more than one recurrent prefix (choose with --prefix),
shapes that disagree, non-float tensors, NaN or Inf values, a missing vocabulary or one
whose length is not V.

The vocabulary is one Unicode character per token, in index order.  --vocab-from-text
builds it as "".join(sorted(set(text))), the usual character-level recipe.  A vocabulary
file is used as it is (one trailing newline too many is dropped), or, when it is JSON, as
a list of one-character strings, a dict character -> index or index -> character, or one
of these under "itos" or "stoi".
"""


def _fail(msg):
    raise ExportError(msg)


def _is_safetensors(path):
    try:
        with open(path, "rb") as f:
            head = f.read(9)
    except OSError:
        return False
    if len(head) < 9:
        return False
    n = struct.unpack("<Q", head[:8])[0]
    return 2 <= n <= os.path.getsize(path) - 8 and head[8:9] == b"{"


def _read_safetensors(path):
    """Minimal reader: returns ({name: numpy array (float32 for BF16)}, metadata)."""
    codes = {"F64": "<f8", "F32": "<f4", "F16": "<f2", "BF16": "<u2",
             "I64": "<i8", "I32": "<i4", "I16": "<i2", "I8": "i1", "U8": "u1", "BOOL": "?"}
    with open(path, "rb") as f:
        blob = f.read()
    n = struct.unpack("<Q", blob[:8])[0]
    try:
        header = json.loads(blob[8:8 + n].decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as e:
        _fail("bad safetensors header (%s)" % e)
    base = 8 + n
    meta = header.pop("__metadata__", None) or {}
    out = {}
    for name, info in header.items():
        try:
            code, shape, (b, e) = info["dtype"], info["shape"], info["data_offsets"]
        except (KeyError, TypeError, ValueError):
            _fail("tensor %s: bad header entry" % name)
        if code not in codes:
            _fail("tensor %s: unknown dtype %s" % (name, code))
        if not (0 <= b <= e <= len(blob) - base):
            _fail("tensor %s: data offsets outside the file" % name)
        arr = np.frombuffer(blob[base + b:base + e], dtype=codes[code])
        if arr.size != int(np.prod(shape, dtype=np.int64)):
            _fail("tensor %s: shape %s does not match its %d bytes" % (name, shape, e - b))
        arr = arr.reshape(shape)
        if code == "BF16":
            arr = (arr.astype(np.uint32) << 16).view(np.float32)
        out[name] = arr
    return out, meta


def load_file(path):
    """Read a safetensors file: ({name: numpy array}, metadata).  BF16 becomes float32.
    Raises ValueError on a malformed file."""
    try:
        return _read_safetensors(path)
    except ExportError as e:
        raise ValueError("%s: %s" % (path, e))


_CKPT_KEYS = ("state_dict", "model_state_dict", "model", "net", "module",
              "model_state", "state")


def _import_torch():
    try:
        import torch
    except ImportError as e:
        raise MissingModule("needs PyTorch to read a torch.save file, which %s (Python "
                            "%d.%d) cannot import (%s); on Debian: apt-get install "
                            "python3-torch" % (sys.executable, sys.version_info[0],
                                               sys.version_info[1], e))
    return torch


# What a checkpoint may call besides building tensors and containers and still be read
# without running code from it: the classes and functions torch.save itself writes for
# tensors (and torch.<x>Storage), and numpy's scalars (a best loss kept as numpy.float64).
# Everything else a pickle names is a class or function it would call.
_DATA_GLOBALS = {
    ("collections", "OrderedDict"), ("torch._utils", "_rebuild_tensor_v2"),
    ("torch._utils", "_rebuild_parameter"), ("torch._utils", "_rebuild_parameter_with_state"),
    ("torch", "Size"), ("numpy.core.multiarray", "scalar"), ("numpy", "dtype"),
    ("builtins", "set"), ("builtins", "frozenset"), ("builtins", "slice"),
    ("__builtin__", "set"), ("__builtin__", "frozenset"), ("__builtin__", "slice"),
    ("_codecs", "encode"),  # protocol 2's bytes, from a str and an encoding name
}


def _pickle_globals(path):
    """The (module, name) pairs the pickle of a torch.save zip file would call, read from
    its opcodes without running them; None when the file is not such a zip, or a name is
    built in a way this does not follow (it then counts as unknown)."""
    import pickletools
    import zipfile
    try:
        with zipfile.ZipFile(path) as z:
            pkl = [n for n in z.namelist() if n == "data.pkl" or n.endswith("/data.pkl")]
            if len(pkl) != 1:
                return None
            data = z.read(pkl[0])
    except (zipfile.BadZipFile, OSError, KeyError):
        return None
    found, memo, recent = set(), {}, []
    strings = ("SHORT_BINUNICODE", "BINUNICODE", "BINUNICODE8", "UNICODE", "STRING",
               "BINSTRING", "SHORT_BINSTRING")
    try:
        for op, arg, _ in pickletools.genops(data):
            name = op.name
            if name == "GLOBAL":
                found.add(tuple(arg.split(" ", 1)))
            elif name == "STACK_GLOBAL":
                pair = tuple(recent[-2:]) if len(recent) >= 2 else (None, None)
                found.add(pair if None not in pair else ("?", "?"))
            if name in strings:
                recent.append(arg)
            elif name in ("BINPUT", "LONG_BINPUT", "PUT"):
                memo[arg] = recent[-1] if recent else None
            elif name == "MEMOIZE":
                memo[len(memo)] = recent[-1] if recent else None
            elif name in ("BINGET", "LONG_BINGET", "GET"):
                recent.append(memo.get(arg))
            elif op.stack_after:
                recent.append(None)
    except ValueError:
        return None
    return found


def _opcode_name(why):
    """'Unsupported operand 71' -> 'BINFLOAT (a Python float)'."""
    import pickletools
    m = re.search(r"Unsupported operand (\d+)", why)
    if not m:
        return why
    code = chr(int(m.group(1)))
    for op in pickletools.opcodes:
        if op.code == code:
            kind = {"BINFLOAT": "a Python float", "FLOAT": "a Python float",
                    "BININT": "a Python int", "LONG1": "a Python int"}.get(op.name, "")
            return "the pickle opcode %s%s" % (op.name, " (%s)" % kind if kind else "")
    return why


def _load_safely(torch, path):
    """torch.load's safe loader, or, where it refuses what is only data (the safe loader
    of older PyTorch refuses Python floats), the full loader once the file's pickle is
    seen to call nothing but _DATA_GLOBALS. The object, or why it was not loaded."""
    import pickle
    try:
        return torch.load(path, map_location="cpu", weights_only=True), None
    except pickle.UnpicklingError as e:
        first = _opcode_name(str(e).split("WeightsUnpickler error:")[-1].strip().rstrip("."))
    calls = _pickle_globals(path)
    if calls is None:
        return None, "holds a pickle torch.load's safe loader refuses (%s)" % first
    other = sorted(c for c in calls if c not in _DATA_GLOBALS and
                   not (c[0] == "torch" and c[1].endswith("Storage")))
    if other:
        return None, "names %s%s, which loading would call (PyTorch %s's safe loader " \
                     "refused %s)" % (", ".join("%s.%s" % c for c in other[:3]),
                                      ", ..." if len(other) > 3 else "", torch.__version__,
                                      first)
    return torch.load(path, map_location="cpu", weights_only=False), None


def _load_torch(path, trust):
    torch = _import_torch()
    try:
        obj, refused = _load_safely(torch, path)
    except Exception as e:
        _fail("not a PyTorch file torch.load can read (%s: %s)" % (type(e).__name__, e))
    if refused:
        if not trust:
            _fail("%s: a whole module or a pickled object, and loading it runs code from "
                  "the file, so rerun with --trust-pickle only if you trust it, or save "
                  "model.state_dict() instead" % refused)
        try:
            obj = torch.load(path, map_location="cpu", weights_only=False)
        except Exception as e2:  # a missing class, a broken pickle, ...
            _fail("cannot unpickle (%s: %s); a whole module needs its class importable"
                  % (type(e2).__name__, e2))

    vocab, meta = None, {}
    if isinstance(obj, torch.nn.Module):
        meta = _module_nonlinearity(torch, obj)
        obj = obj.state_dict()
    elif isinstance(obj, dict) and not all(isinstance(v, torch.Tensor) for v in obj.values()):
        v = obj.get("vocab")
        if isinstance(v, str):
            vocab = v
        if obj.get("nonlinearity") in ("tanh", "relu"):
            meta = {"nonlinearity": obj["nonlinearity"]}
        for key in _CKPT_KEYS:
            inner = obj.get(key)
            if isinstance(inner, torch.nn.Module):
                meta = _module_nonlinearity(torch, inner) or meta
                obj = inner.state_dict()
                break
            if isinstance(inner, dict) and inner and \
                    all(isinstance(t, torch.Tensor) for t in inner.values()):
                obj = inner
                break
        else:
            _fail("a dict without a state_dict: looked for a dict of tensors under %s; "
                  "keys found: %s" % (", ".join(repr(k) for k in _CKPT_KEYS),
                                      ", ".join(repr(k) for k in list(obj)[:12])))
    if not isinstance(obj, dict):
        _fail("holds a %s, not a state_dict, a module or a checkpoint dict"
              % type(obj).__name__)

    tensors = {}
    for name, t in obj.items():
        if not isinstance(t, torch.Tensor):
            continue
        if not t.is_floating_point():
            tensors[name] = (str(t.dtype).replace("torch.", ""), t)
            continue
        tensors[name] = t.detach().cpu().to(torch.float64 if t.dtype == torch.float64
                                            else torch.float32).numpy()
    return tensors, vocab, meta


def _module_nonlinearity(torch, module):
    """{"nonlinearity": ...} of the module's nn.RNN or nn.RNNCell, when it holds one."""
    for sub in module.modules():
        if isinstance(sub, (torch.nn.RNN, torch.nn.RNNCell)) and \
                getattr(sub, "nonlinearity", None) in ("tanh", "relu"):
            return {"nonlinearity": sub.nonlinearity}
    return {}


_ONNX_MOVES = ("Transpose", "Squeeze", "Unsqueeze", "Reshape", "Cast", "Identity", "Dropout")

# ONNX's gate blocks, in PyTorch's order: LSTM i, o, f, c -> i, f, g, o; GRU z, r, h -> r, z, n.
_ONNX_ORDER = {"LSTM": (0, 2, 3, 1), "GRU": (1, 0, 2)}


def _onnx_blocks(a, op):
    """The rows of a [G*H, ...] ONNX weight or bias in PyTorch's gate order."""
    blocks = np.split(np.asarray(a, dtype=np.float32), len(_ONNX_ORDER[op]), axis=0)
    return np.concatenate([blocks[i] for i in _ONNX_ORDER[op]], axis=0)


def _onnx_attrs(node):
    import onnx
    return {a.name: onnx.helper.get_attribute_value(a) for a in node.attribute}


def _onnx_layer(node, arrays, k, out):
    """One ONNX LSTM or GRU node as PyTorch's tensors of layer k; returns its reset mode."""
    op, at = node.op_type, _onnx_attrs(node)
    where = "%s node %s" % (op, node.name or k)
    direction = at.get("direction", b"forward")
    if isinstance(direction, bytes):
        direction = direction.decode()
    if direction != "forward":
        _fail("%s: direction %s (gatetui reads forward recurrent layers only)" % (where, direction))
    for bad in ("clip", "activations", "input_forget"):
        if at.get(bad):
            _fail("%s: attribute %s is not PyTorch's cell" % (where, bad))
    ins = list(node.input) + [""] * 8
    if ins[7]:
        _fail("%s: peephole weights (P) are not PyTorch's LSTM" % where)
    try:
        W, R = arrays[ins[1]], arrays[ins[2]]
    except KeyError:
        _fail("%s: W and R are not constants of the graph" % where)
    if W.ndim != 3 or R.ndim != 3 or W.shape[0] != 1 or R.shape[0] != 1:
        _fail("%s: W %s, R %s: expected one direction" % (where, list(W.shape), list(R.shape)))
    out["rnn.weight_ih_l%d" % k] = _onnx_blocks(W[0], op)
    out["rnn.weight_hh_l%d" % k] = _onnx_blocks(R[0], op)
    if ins[3]:
        B = np.asarray(arrays[ins[3]], dtype=np.float32).reshape(-1)
        half = B.size // 2
        out["rnn.bias_ih_l%d" % k] = _onnx_blocks(B[:half], op)
        out["rnn.bias_hh_l%d" % k] = _onnx_blocks(B[half:], op)
    if op == "GRU":
        return "after" if at.get("linear_before_reset", 0) else "before"
    return None


def _onnx_readout(graph, arrays, hidden, out):
    """The readout: a Gemm, or a MatMul and an Add, on an [H, V] or [V, H] constant."""
    adds = {n.input[i]: n for n in graph.node if n.op_type == "Add" for i in (0, 1)}
    for n in graph.node:
        if n.op_type not in ("Gemm", "MatMul") or len(n.input) < 2 or n.input[1] not in arrays:
            continue
        w = np.asarray(arrays[n.input[1]], dtype=np.float32)
        if w.ndim != 2:
            continue
        trans = n.op_type == "Gemm" and _onnx_attrs(n).get("transB", 0)
        w = w if trans else w.T
        if w.shape[1] != hidden:
            continue
        bias = arrays.get(n.input[2]) if n.op_type == "Gemm" and len(n.input) > 2 else None
        add = adds.get(n.output[0])
        if bias is None and add is not None:
            other = [i for i in add.input if i != n.output[0]]
            bias = arrays.get(other[0]) if other else None
        out["fc.weight"] = w
        if bias is not None:
            out["fc.bias"] = np.asarray(bias, dtype=np.float32).reshape(-1)
        return


def _load_onnx(path):
    """An ONNX model of LSTM or GRU nodes (e.g. from torch.onnx.export or tf2onnx) as
    PyTorch's tensors: ({name: array}, metadata). Initial states are taken as zero."""
    try:
        import onnx
        from onnx import numpy_helper
    except ImportError:
        _fail("reading ONNX needs the onnx package (Debian: python3-onnx; pip install onnx)")
    try:
        graph = onnx.load(path).graph
    except Exception as e:  # a damaged protobuf
        _fail("not an ONNX model onnx can read (%s)" % e)
    arrays = {i.name: numpy_helper.to_array(i) for i in graph.initializer}
    for n in graph.node:
        if n.op_type == "Constant" and n.attribute and n.attribute[0].name == "value":
            arrays[n.output[0]] = numpy_helper.to_array(n.attribute[0].t)
    rnns = [n for n in graph.node if n.op_type in ("LSTM", "GRU")]
    if not rnns:
        _fail("an ONNX model without LSTM or GRU nodes")
    if len({n.op_type for n in rnns}) > 1:
        _fail("an ONNX model with both LSTM and GRU nodes")
    out, resets = {}, set()
    for k, n in enumerate(rnns):
        resets.add(_onnx_layer(n, arrays, k, out))
    if len(resets) > 1:
        _fail("GRU nodes with different linear_before_reset")
    d0 = out["rnn.weight_ih_l0"].shape[1]
    hidden = out["rnn.weight_hh_l0"].shape[1]
    # the embedding: a Gather of a [V, D0] constant feeding layer 0, through ops that only
    # move data (Transpose, Squeeze, ...)
    maker = {o: n for n in graph.node for o in n.output}
    name = rnns[0].input[0]
    while name in maker and maker[name].op_type in _ONNX_MOVES:
        name = maker[name].input[0]
    n = maker.get(name)
    if n is not None and n.op_type == "Gather" and n.input[0] in arrays:
        emb = np.asarray(arrays[n.input[0]], dtype=np.float32)
        if emb.ndim == 2 and emb.shape[1] == d0:
            out["embedding.weight"] = emb
    _onnx_readout(graph, arrays, hidden, out)
    reset = resets.pop()
    return out, ({"gru_reset": reset} if reset else {})


def _dtype_name(a):
    if isinstance(a, tuple):
        return a[0]
    return str(a.dtype)


_RNN_RE = re.compile(r"^(.*?)(weight_ih|weight_hh|bias_ih|bias_hh|weight_hr)"
                     r"(?:_l(\d+))?(_reverse)?(_raw)?$")


def _norm_part(s):
    """A LayerNorm's name part ("layernorm_i", "ln_c", "norm_h", "ln1"), as gatetui's."""
    return "norm" in s or (s[:2] == "ln" and not s[2:3].isalpha())


def _peep_part(s):
    return "peep" in s or s.startswith("w_c") or s.startswith("weight_c")


def _refuse_foreign(tensors, p, members, arch):
    """Every tensor under the recurrent module's prefix must be one of the stock cell's (as
    gatetui refuses: doc/model-files.md, "What gatetui would compute wrongly"); with no
    prefix, the names of a cell's parts count (weight_*, bias_*, peepholes, LayerNorms)."""
    own = {n for n, _ in members}

    def under(name):
        if p:
            return name.startswith(p)
        if "." in name:
            return _norm_part(name) and name.count(".") == 1
        return name.startswith(("weight_", "bias_")) or _peep_part(name) or _norm_part(name)
    bad = sorted(n for n in tensors if n not in own and under(n))
    if not bad:
        return
    rest = [n[len(p):] for n in bad]
    names = ", ".join(bad[:3]) + (", ..." if len(bad) > 3 else "")
    module = {"lstm": "nn.LSTM", "gru": "nn.GRU", "rnn": "nn.RNN"}[arch]
    if any(_norm_part(r) for r in rest):
        _fail("%s: a layer-normalised cell is not an %s; gatetui computes the stock cells only"
              % (names, module))
    if any(_peep_part(r) for r in rest):
        _fail("%s: a cell with peepholes is not an %s; gatetui computes the stock cells only"
              % (names, module))
    _fail("%s: tensors an %s does not have under its prefix %r; gatetui computes the stock "
          "cells only" % (names, module, p))


def _recurrent_members(tensors, prefix):
    """The one recurrent module's tensors: its prefix and [(name, match)]."""
    groups = {}
    for name in tensors:
        m = _RNN_RE.match(name)
        if m:
            groups.setdefault(m.group(1), []).append((name, m))
    if prefix is not None:
        if prefix not in groups:
            found = ", ".join(repr(p) for p in sorted(groups)) or "none"
            _fail("no recurrent tensors under prefix %r (prefixes found: %s)" % (prefix, found))
        groups = {prefix: groups[prefix]}
    groups = {p: g for p, g in groups.items()
              if any(m.group(2) == "weight_ih" for _, m in g)}
    if not groups:
        _fail("no LSTM, GRU or RNN tensors (no name ending in weight_ih_l0)")
    if len(groups) > 1:
        _fail("more than one recurrent module (prefixes %s); choose one with --prefix"
              % ", ".join(repr(p) for p in sorted(groups)))
    (p, members), = groups.items()

    for name, m in members:
        if m.group(4):
            _fail("%s: bidirectional recurrent layers (_reverse) are not supported" % name)
    return p, members


def _cell_shape(tensors, parts, p):
    """(arch, gates, hidden, proj) from layer 0's weight_hh, [G*H, H], or with a projection
    weight_hr_l0 [P, H], an LSTM's weight_hh [4H, P] (proj P, else 0)."""
    hh0 = parts.get(("weight_hh", 0))
    if hh0 is None:
        _fail("%sweight_hh_l0 is missing" % p)
    w = tensors[hh0]
    hr0 = parts.get(("weight_hr", 0))
    if hr0 is not None:
        r = tensors[hr0]
        if r.ndim != 2 or not 0 < r.shape[0] < r.shape[1]:
            _fail("%s: shape %s is not [P, H] with 0 < P < H (nn.LSTM(proj_size=P))"
                  % (hr0, list(r.shape)))
        proj, hidden = r.shape
        if list(w.shape) != [4 * hidden, proj]:
            _fail("%s: shape %s, expected [%d, %d] (an LSTM's 4H by the projection's P)"
                  % (hh0, list(w.shape), 4 * hidden, proj))
        return "lstm", 4, hidden, proj
    if w.ndim != 2 or w.shape[1] == 0 or w.shape[0] % w.shape[1]:
        _fail("%s: shape %s is not [G*H, H]" % (hh0, list(w.shape)))
    hidden = w.shape[1]
    gates = w.shape[0] // hidden
    if gates not in (1, 3, 4):
        _fail("%s: shape %s has %d blocks of H = %d rows; an LSTM has 4, a GRU 3, an RNN 1"
              % (hh0, list(w.shape), gates, hidden))
    return {4: "lstm", 3: "gru", 1: "rnn"}[gates], gates, hidden, 0


def _expected_shape(t, kind, k, rows, hidden, width):
    """(ok, the shape expected as text, D0 when this is layer 0's weight_ih); width is what
    the recurrence and the layer above read: H, or P with a projection [P, H]."""
    if kind == "weight_ih":
        ok = t.ndim == 2 and t.shape[0] == rows and (k > 0 or t.shape[1] > 0)
        d0 = t.shape[1] if k == 0 and ok else None
        if k > 0 and ok:
            ok = t.shape[1] == width
        return ok, "[%d, %s]" % (rows, "D" if k == 0 else width), d0
    if kind == "weight_hh":
        return list(t.shape) == [rows, width], "[%d, %d]" % (rows, width), None
    if kind == "weight_hr":
        return list(t.shape) == [width, hidden], "[%d, %d]" % (width, hidden), None
    return list(t.shape) == [rows], "[%d]" % rows, None


def _layer_names(tensors, parts, p, layered, cell):
    """Every layer's tensors checked: their output names, D0 and whether there are biases."""
    arch, gates, hidden, proj = cell
    layers = 1 + max(k for _, k in parts)
    with_bias = ("bias_ih", 0) in parts or ("bias_hh", 0) in parts
    names, d0 = {}, None
    kinds = ("weight_ih", "weight_hh", "bias_ih", "bias_hh") + (("weight_hr",) if proj else ())
    if not proj and any(kind == "weight_hr" for kind, _ in parts):
        _fail("%s: a projection, but layer 0 has none"
              % next(n for (kind, _), n in parts.items() if kind == "weight_hr"))
    for k in range(layers):
        for kind in kinds:
            name = parts.get((kind, k))
            want = "%s%s_l%d" % (p, kind, k) if layered == {True} else p + kind
            if name is None:
                if kind.startswith("bias") and not with_bias:
                    continue
                _fail("%s is missing (layer %d of %d)" % (want, k, layers))
            if kind.startswith("bias") and not with_bias:
                _fail("%s present but layer 0 has no biases" % name)
            t = tensors[name]
            ok, expect, first = _expected_shape(t, kind, k, gates * hidden, hidden,
                                                proj or hidden)
            if first is not None:
                d0 = first
            if not ok:
                _fail("%s: shape %s, expected %s (%s, H = %d)"
                      % (name, list(t.shape), expect, arch.upper(), hidden))
            names[name] = "%s%s_l%d" % (p, kind, k)
    if any(k >= layers for _, k in parts):
        _fail("prefix %r: layer numbers are not 0..%d" % (p, layers - 1))
    return names, d0, with_bias


_EMB_WORDS = ("emb", "wte", "tok", "lookup", "encoder.weight")
_READOUT_WORDS = ("fc", "out", "head", "decoder", "readout", "proj", "linear", "classifier",
                  "logit")


def _find_embedding(tensors, floats, d0, p):
    """Embedding: [V, D0], named like one (*emb*, *wte*, *tok*, *lookup*, *encoder.weight);
    with none so named, by its shape: the one 2-D [V, D0] tensor not named like a readout,
    of as many rows as a readout's [V, H] when there is one; None for one-hot input."""
    two = [n for n in floats if tensors[n].ndim == 2]
    emb = [n for n in two if any(w in n.lower() for w in _EMB_WORDS)]
    if not emb:
        heads = {tensors[n].shape[0] for n in two if tensors[n].shape[1] != d0}
        emb = [n for n in two if tensors[n].shape[1] == d0 and tensors[n].shape[0] > 1 and
               not any(w in n.lower() for w in _READOUT_WORDS) and
               (not heads or tensors[n].shape[0] in heads)]
        if len(emb) > 1:
            _fail("more than one tensor of the embedding's shape [V, %d]: %s (name it with "
                  "'emb' or pass --prefix)" % (d0, ", ".join(emb)))
    emb_ok = [n for n in emb if tensors[n].shape[1] == d0]
    if len(emb_ok) > 1:
        _fail("more than one possible embedding: %s" % ", ".join(emb_ok))
    if emb and not emb_ok:
        _fail("%s: shape %s does not match the input width %d of %sweight_ih_l0"
              % (emb[0], list(tensors[emb[0]].shape), d0, p))
    return emb_ok[0] if emb_ok else None


def _find_readout(tensors, floats, embedding, vocab_size, hidden, names):
    """Readout: a [V, H] weight (not the embedding) and optionally its [V] bias, added to
    names; the weight's name or None."""
    heads = [n for n in floats if n != embedding and tensors[n].ndim == 2 and
             list(tensors[n].shape) == [vocab_size, hidden]]
    if len(heads) > 1:
        _fail("more than one possible readout of shape [%d, %d]: %s"
              % (vocab_size, hidden, ", ".join(heads)))
    readout = heads[0] if heads else None
    if readout:
        names[readout] = readout
        if readout.endswith("weight"):
            bias = readout[:-len("weight")] + "bias"
            if bias in tensors:
                if isinstance(tensors[bias], tuple):
                    _fail("%s: dtype %s; gatetui reads floating-point weights only"
                          % (bias, tensors[bias][0]))
                if list(tensors[bias].shape) != [vocab_size]:
                    _fail("%s: shape %s, expected [%d]"
                          % (bias, list(tensors[bias].shape), vocab_size))
                names[bias] = bias
    return readout


def find_model(tensors, prefix=None):
    """Pick out the recurrent layers, embedding and readout.

    Returns dict(arch, prefix, layers, hidden, proj, input, vocab_size, names) where names maps
    each tensor to write to its output name."""
    p, members = _recurrent_members(tensors, prefix)
    # nn.LSTM names carry _l<k>; nn.LSTMCell / nn.GRUCell names have none (one layer).
    layered = {m.group(3) is not None for _, m in members}
    if len(layered) > 1:
        _fail("prefix %r mixes cell (weight_ih) and layer (weight_ih_l0) names" % p)
    parts = {}
    for name, m in sorted(members, key=lambda nm: nm[1].group(5) is not None):
        # a WeightDrop's trained copy (awd-lstm-lm's weight_hh_l0_raw) before the weight
        k = int(m.group(3)) if m.group(3) is not None else 0
        parts[(m.group(2), k)] = name
    for name in (n for n, _ in members):
        if isinstance(tensors[name], tuple):
            _fail("%s: dtype %s; gatetui reads floating-point weights only"
                  % (name, tensors[name][0]))
    cell = _cell_shape(tensors, parts, p)
    arch, _, hidden, proj = cell
    _refuse_foreign(tensors, p, members, arch)
    names, d0, with_bias = _layer_names(tensors, parts, p, layered, cell)

    rest = [n for n in tensors if n not in names and not _RNN_RE.match(n)]
    floats = [n for n in rest if not isinstance(tensors[n], tuple)]
    embedding = _find_embedding(tensors, floats, d0, p)
    vocab_size = tensors[embedding].shape[0] if embedding else d0
    if embedding:
        names[embedding] = embedding
    readout = _find_readout(tensors, floats, embedding, vocab_size, proj or hidden, names)
    for n in list(names):
        if isinstance(tensors[n], tuple):
            _fail("%s: dtype %s; gatetui reads floating-point weights only"
                  % (n, tensors[n][0]))
    return {"arch": arch, "prefix": p, "layers": 1 + max(k for _, k in parts),
            "hidden": hidden, "proj": proj, "input": d0, "vocab_size": vocab_size, "embedding": embedding,
            "readout": readout, "bias": with_bias, "names": names}


def _read_text(path, what):
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        _fail("%s %s: %s" % (what, path, e.strerror or e))
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        _fail("%s %s: not UTF-8 (byte %d)" % (what, path, e.start))


def _tokens_of_json(items):
    """The tokens in index order from the JSON forms a vocabulary is kept in: a list, a
    dict token -> index or index -> token, or one under "itos" or "stoi"; None otherwise."""
    if isinstance(items, dict) and ("itos" in items or "stoi" in items) and \
            set(items) <= {"itos", "stoi"}:
        items = items["itos"] if "itos" in items else items["stoi"]
    if isinstance(items, list):
        return items if all(isinstance(t, str) for t in items) else None
    if not isinstance(items, dict) or not items:
        return None
    if all(isinstance(i, int) and not isinstance(i, bool) for i in items.values()):
        pairs = [(i, t) for t, i in items.items()]
    elif all(re.fullmatch(r"\d+", k) for k in items) and \
            all(isinstance(t, str) for t in items.values()):
        pairs = [(int(k), t) for k, t in items.items()]
    else:
        return None
    pairs.sort()
    if [i for i, _ in pairs] != list(range(len(pairs))):
        _fail("the vocabulary's indices are not 0..%d, each once" % (len(pairs) - 1))
    return [t for _, t in pairs]


def _vocab_from_file(path, size):
    text = _read_text(path, "vocabulary file")
    stripped = text.strip()
    if stripped[:1] in ("[", "{") and stripped[-1:] in ("]", "}"):
        try:
            tokens = _tokens_of_json(json.loads(stripped))
        except ValueError:
            tokens = None
        if tokens is not None:
            long = [t for t in tokens if len(t) != 1]
            if long:
                _fail("vocabulary file %s: %d of its %d tokens are not one character (%s): "
                      "the model file keeps one character per token; gatetui reads such a "
                      "vocabulary itself (gatetui --vocab %s MODEL TEXT)"
                      % (path, len(long), len(tokens),
                         ", ".join(repr(t) for t in long[:3]), path))
            return "".join(tokens)
    if size is not None and len(text) == size + 1 and text.endswith("\n"):
        return text[:-1]
    return text


def main(argv=None):
    ap = argparse.ArgumentParser(
        prog="gatetui-export", description=HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        usage="gatetui-export INPUT OUTPUT [--vocab STRING | --vocab-file FILE | "
              "--vocab-from-text FILE] [--prefix P] [--dtype f32|f16|bf16] "
              "[--gru-reset before|after] [--nonlinearity tanh|relu] [--trust-pickle]")
    ap.add_argument("input", metavar="INPUT", help="PyTorch file (or safetensors) to read")
    ap.add_argument("output", metavar="OUTPUT", help="model file to write (safetensors)")
    v = ap.add_mutually_exclusive_group()
    v.add_argument("--vocab", metavar="STRING",
                   help="the vocabulary itself, e.g. --vocab $'\\n abc' in bash")
    v.add_argument("--vocab-file", metavar="FILE", help="a file holding the vocabulary")
    v.add_argument("--vocab-from-text", metavar="FILE",
                   help='the training text: vocabulary = "".join(sorted(set(text)))')
    ap.add_argument("--prefix", metavar="P",
                    help="the recurrent module's name prefix, e.g. 'lstm.' (needed when "
                         "there are several)")
    ap.add_argument("--dtype", choices=["f32", "f16", "bf16"], default="f32",
                    help="dtype of the written tensors (default f32)")
    ap.add_argument("--gru-reset", choices=["before", "after"],
                    help="GRU only: where the reset gate applies; PyTorch's nn.GRU is "
                         "'after' (recorded in the metadata)")
    ap.add_argument("--nonlinearity", choices=["tanh", "relu"],
                    help="plain RNN only: h = tanh(a) or relu(a), when the input does not "
                         "say (recorded in the metadata)")
    ap.add_argument("--trust-pickle", action="store_true",
                    help="allow loading pickled Python objects (a whole nn.Module, a "
                         "checkpoint with other objects): this runs code from INPUT")
    args = ap.parse_args(argv)

    prog = "gatetui-export"
    try:
        return _export(args)
    except ExportError as e:
        print("%s: %s: %s" % (prog, args.input, e), file=sys.stderr)
        return 2
    except MissingModule as e:
        print("%s: %s: %s" % (prog, args.input, e), file=sys.stderr)
        return 1
    except OSError as e:
        print("%s: %s: %s" % (prog, getattr(e, "filename", None) or args.output,
                              e.strerror or e), file=sys.stderr)
        return 1


def _export(args):
    if not os.path.exists(args.input):
        _fail("no such file")
    if os.path.exists(args.output) and os.path.samefile(args.input, args.output):
        _fail("OUTPUT is the same file as INPUT")
    meta_in = {}
    with open(args.input, "rb") as f:
        head = f.read(3)
    if args.input.endswith(".onnx") or (len(head) == 3 and head[0] == 8 and head[2] == 0x12):
        tensors, meta_in = _load_onnx(args.input)
        ckpt_vocab = None
    elif _is_safetensors(args.input):
        tensors, meta_in = _read_safetensors(args.input)
        tensors = {n: (a if a.dtype.kind == "f" else (str(a.dtype), a))
                   for n, a in tensors.items()}
        ckpt_vocab = meta_in.get("vocab")
    else:
        tensors, ckpt_vocab, meta_in = _load_torch(args.input, args.trust_pickle)
    if not tensors:
        _fail("holds no tensors")

    info = find_model(tensors, args.prefix)
    V = info["vocab_size"]

    if args.vocab is not None:
        vocab, source = args.vocab, "--vocab"
    elif args.vocab_file:
        vocab, source = _vocab_from_file(args.vocab_file, V), args.vocab_file
    elif args.vocab_from_text:
        vocab = "".join(sorted(set(_read_text(args.vocab_from_text, "text file"))))
        source = args.vocab_from_text
    elif ckpt_vocab is not None:
        vocab, source = ckpt_vocab, "the input's vocab"
    else:
        _fail("no vocabulary: pass --vocab, --vocab-file or --vocab-from-text (the model "
              "has V = %d tokens)" % V)
    if len(vocab) != V:
        _fail("the vocabulary from %s has %d characters but the model has V = %d"
              % (source, len(vocab), V))
    if len(set(vocab)) != len(vocab):
        dup = sorted({c for c in vocab if vocab.count(c) > 1})
        _fail("the vocabulary from %s repeats %s" % (source, ", ".join(repr(c) for c in dup)))
    bad = [c for c in vocab if 0xD800 <= ord(c) <= 0xDFFF]
    if bad:
        _fail("the vocabulary from %s holds a lone surrogate, not a character" % source)

    if args.gru_reset and info["arch"] != "gru":
        _fail("--gru-reset applies to GRU models; this is an %s" % info["arch"].upper())
    if args.nonlinearity and info["arch"] != "rnn":
        _fail("--nonlinearity applies to plain RNN models; this is an %s" % info["arch"].upper())
    nonlinearity = None
    if info["arch"] == "rnn":
        nonlinearity = args.nonlinearity or meta_in.get("nonlinearity")
        if nonlinearity not in ("tanh", "relu"):
            _fail("a plain RNN, and the input does not say whether h = tanh(a) or relu(a): "
                  "pass --nonlinearity tanh or relu")

    out = {}
    limit = {"f32": 3.4028234663852886e38, "f16": 65504.0,
             "bf16": 3.3895313892515355e38}[args.dtype]
    for name, new in info["names"].items():
        a = tensors[name]
        if not np.isfinite(a).all():
            what = "NaN" if np.isnan(a).any() else "Inf"
            _fail("%s: holds %s values" % (name, what))
        if np.abs(a).max(initial=0.0) > limit:
            _fail("%s: values up to %g do not fit %s" % (name, np.abs(a).max(), args.dtype))
        out[new] = np.asarray(a, dtype=np.float32)

    meta = {"vocab": vocab}
    reset = args.gru_reset or (meta_in.get("gru_reset") if info["arch"] == "gru" else None)
    if reset:
        meta["gru_reset"] = reset
    if nonlinearity:
        meta["nonlinearity"] = nonlinearity
    tmp = args.output + ".tmp%d" % os.getpid()
    try:
        save_file(out, tmp, metadata=meta, dtype={"f32": None, "f16": np.float16,
                                                  "bf16": "BF16"}[args.dtype])
        os.replace(tmp, args.output)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    params = sum(int(a.size) for a in out.values())
    kind = info["arch"].upper()
    if nonlinearity:
        kind += " (%s)" % nonlinearity
    if info["proj"]:
        kind += " (proj %d)" % info["proj"]
    print("gatetui-export: wrote %s: %s, %d layer%s, H = %d, V = %d, %s input, %s, "
          "%d parameters, %s" % (
              args.output, kind, info["layers"],
              "" if info["layers"] == 1 else "s", info["hidden"], V,
              "embedding" if info["embedding"] else "one-hot",
              "readout %s" % info["readout"] if info["readout"] else "no readout",
              params, args.dtype.upper()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
