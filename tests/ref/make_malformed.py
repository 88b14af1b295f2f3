#!/usr/bin/env python3
"""A corpus of malformed model files for gatetui's loader.

    python3 tests/ref/make_malformed.py

Writes into tests/cli/malformed/:

    valid.safetensors   the starting point: a tiny LSTM (H = 2, one-hot V = 3, vocab "abc",
                        prefix "lstm.", biases, readout fc.weight [3, 2] + fc.bias [3]);
                        gatetui must accept it
    text.txt            a text for all of them ("abcab...")
    NN_what.safetensors each breaking one thing
    EXPECTED            one line per broken file: "<file>\t<substring>", where <substring>
                        (lowercase) should occur in the lowercased one-line error message.
                        gatetui must exit with status 2, print one line on standard error,
                        and that line should also name the file.

Only the standard library is used; the output is the same on every run.
"""
import json
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.normpath(os.path.join(HERE, "..", "cli", "malformed"))

H, V, G = 2, 3, 4
P = "lstm."


def values(n, seed):
    """n small deterministic floats in (-0.8, 0.8)."""
    return [((i * 37 + seed * 11) % 17 - 8) / 10.0 for i in range(n)]


def f32(vals):
    return struct.pack("<%df" % len(vals), *vals)


def tensor(shape, seed, dtype="F32", vals=None):
    n = 1
    for d in shape:
        n *= d
    if vals is None:
        vals = values(n, seed)
    fmt = {"F32": "f", "F64": "d", "I64": "q"}[dtype]
    if dtype == "I64":
        vals = [int(v * 10) for v in vals]
    return {"dtype": dtype, "shape": list(shape),
            "data": struct.pack("<%d%s" % (n, fmt), *vals)}


def lstm_layer(prefix, k, din, h=H, g=G, bias=True, seed=0):
    t = {f"{prefix}weight_ih_l{k}": tensor([g * h, din], seed + 1),
         f"{prefix}weight_hh_l{k}": tensor([g * h, h], seed + 2)}
    if bias:
        t[f"{prefix}bias_ih_l{k}"] = tensor([g * h], seed + 3)
        t[f"{prefix}bias_hh_l{k}"] = tensor([g * h], seed + 4)
    return t


def base():
    """(tensors, metadata) of the valid model; tensors keep insertion order."""
    t = lstm_layer(P, 0, V)
    t["fc.weight"] = tensor([V, H], 5)
    t["fc.bias"] = tensor([V], 6)
    return t, {"vocab": "abc"}


def header_of(tensors, metadata):
    header = {}
    off = 0
    for name, t in tensors.items():
        header[name] = {"dtype": t["dtype"], "shape": t["shape"],
                        "data_offsets": [off, off + len(t["data"])]}
        off += len(t["data"])
    if metadata is not None:
        header["__metadata__"] = metadata
    return header


def pack(header, data, header_bytes=None, length=None):
    """The file: 8-byte length, JSON header (padded to 8 bytes), data."""
    if header_bytes is None:
        header_bytes = json.dumps(header, separators=(",", ":"), ensure_ascii=False).encode()
        header_bytes += b" " * (-len(header_bytes) % 8)
    n = len(header_bytes) if length is None else length
    return struct.pack("<Q", n) + header_bytes + data


def build(tensors=None, metadata="base", edit=None, **kw):
    """A file from tensors (default: the valid model), after edit(header) if given."""
    bt, bm = base()
    if tensors is None:
        tensors = bt
    if metadata == "base":
        metadata = bm
    header = header_of(tensors, metadata)
    if edit:
        edit(header)
    data = b"".join(t["data"] for t in tensors.values())
    return pack(header, data, **kw)


def with_tensors(change):
    """The valid model's tensors after change(tensors)."""
    t, _ = base()
    change(t)
    return t


def drop(*names):
    def change(t):
        for n in names:
            del t[n]
    return change


CASES = []


def case(name, substring, content):
    CASES.append((name, substring, content))


def container_cases(valid):
    """The container: the file too short, the header length wrong, the JSON not JSON."""
    case("00_empty", "short", b"")
    case("01_short", "short", valid[:5])
    case("02_header_past_end", "header", build(length=len(valid)))
    case("03_header_2p63", "header", build(length=1 << 63))
    case("04_header_all_ones", "header", build(length=(1 << 64) - 1))
    case("05_header_zero", "json", build(length=0))
    bad_json = b'{"lstm.weight_ih_l0": {"dtype": "F32", "shape": [8, 3], '
    case("06_json_invalid", "json", pack(None, valid[8 + struct.unpack("<Q", valid[:8])[0]:],
                                         header_bytes=bad_json + b" " * (-len(bad_json) % 8)))
    case("07_json_array", "json", pack(None, b"", header_bytes=b"[1, 2, 3]       "))
    dup = json.dumps(header_of(*base()), separators=(",", ":")).encode()
    dup = dup.replace(b'"fc.bias":', b'"fc.bias":{"dtype":"F32","shape":[3],'
                      b'"data_offsets":[0,12]},"fc.bias":', 1)
    case("08_json_duplicate_key", "duplicate",
         pack(None, valid[8 + struct.unpack("<Q", valid[:8])[0]:],
              header_bytes=dup + b" " * (-len(dup) % 8)))
    notutf8 = json.dumps(header_of(*base()), separators=(",", ":")).encode()
    notutf8 = notutf8.replace(b'"fc.weight"', b'"fc.\xffweight"')
    case("09_json_not_utf8", "json",
         pack(None, valid[8 + struct.unpack("<Q", valid[:8])[0]:],
              header_bytes=notutf8 + b" " * (-len(notutf8) % 8)))
    case("10_metadata_not_string", "metadata", build(metadata={"vocab": 3}))


def entry_cases(valid):
    """One tensor entry: its dtype, shape and data offsets."""
    def del_key(tname, key):
        return lambda h: h[tname].pop(key)

    def set_key(tname, key, value):
        def edit(h):
            h[tname][key] = value
        return edit

    case("11_no_dtype", "dtype", build(edit=del_key(P + "weight_hh_l0", "dtype")))
    case("12_no_shape", "shape", build(edit=del_key(P + "weight_ih_l0", "shape")))
    case("13_no_data_offsets", "data_offsets", build(edit=del_key(P + "bias_ih_l0", "data_offsets")))
    total = sum(len(t["data"]) for t in base()[0].values())

    def outside(h):
        h["fc.bias"]["data_offsets"] = [total - 4, total + 8]
    case("14_offsets_outside", "offset", build(edit=outside))
    case("15_truncated_data", "offset", valid[:-6])

    def overlap(h):
        h[P + "bias_hh_l0"]["data_offsets"] = list(h[P + "bias_ih_l0"]["data_offsets"])
    case("16_offsets_overlap", "overlap", build(edit=overlap))

    def reversed_(h):
        b, e = h[P + "bias_hh_l0"]["data_offsets"]
        h[P + "bias_hh_l0"]["data_offsets"] = [e, b]
    case("17_offsets_reversed", "offset", build(edit=reversed_))

    def negative(h):
        b, e = h["fc.weight"]["data_offsets"]
        h["fc.weight"]["data_offsets"] = [-4, e - b - 4]
    case("18_offsets_negative", "offset", build(edit=negative))
    case("19_bytes_mismatch", "bytes", build(edit=set_key(P + "bias_hh_l0", "dtype", "F64")))
    case("20_shape_overflow", "shape",
         build(edit=set_key(P + "weight_hh_l0", "shape", [1 << 32, 1 << 32])))
    case("21_shape_negative", "shape", build(edit=set_key(P + "bias_ih_l0", "shape", [-8])))
    case("22_shape_fraction", "shape", build(edit=set_key(P + "bias_ih_l0", "shape", [2.5, 3.2])))
    case("23_dtype_unknown", "dtype", build(edit=set_key(P + "weight_hh_l0", "dtype", "F7")))

    def int_weight(t):
        t[P + "weight_hh_l0"] = tensor([G * H, H], 2, dtype="I64")
    case("24_dtype_integer", "dtype", build(with_tensors(int_weight)))


def value_cases():
    """The values: NaN, infinite, out of float32 range."""
    def nan_weight(t):
        v = values(G * H * H, 2)
        v[5] = float("nan")
        t[P + "weight_hh_l0"] = tensor([G * H, H], 0, vals=v)
    case("25_nan_weight", "nan", build(with_tensors(nan_weight)))

    def inf_bias(t):
        v = values(G * H, 3)
        v[7] = float("-inf")
        t[P + "bias_ih_l0"] = tensor([G * H], 0, vals=v)
    case("26_inf_bias", "inf", build(with_tensors(inf_bias)))

    def f64_range(t):
        v = values(G * H * V, 1)
        v[2] = 1e300
        t[P + "weight_ih_l0"] = tensor([G * H, V], 0, dtype="F64", vals=v)
    case("27_f64_out_of_range", P + "weight_ih_l0", build(with_tensors(f64_range)))


def structure_cases():
    """The network's structure: layers and tensors missing or of the wrong shape."""
    case("28_no_weight_hh_l0", "weight_hh_l0", build(with_tensors(drop(P + "weight_hh_l0"))))
    case("29_no_weight_ih_l0", "weight_ih_l0", build(with_tensors(drop(P + "weight_ih_l0"))))

    def only_layer1(t):
        for n in list(t):
            if n.endswith("_l0"):
                t[n.replace("_l0", "_l1")] = t.pop(n)
    case("30_layer1_without_layer0", "_l0", build(with_tensors(only_layer1)))

    def layer1_wider(t):
        t.update(lstm_layer(P, 1, 3, h=3, seed=7))
    case("31_layers_hidden_differ", "_l1", build(with_tensors(layer1_wider)))

    def layer_gap(t):
        t.update(lstm_layer(P, 2, H, seed=8))
    case("32_layer_gap", "_l1", build(with_tensors(layer_gap)))

    def five_blocks(t):
        t.update(lstm_layer(P, 0, V, g=5))
    case("33_five_gate_blocks", "gate", build(with_tensors(five_blocks)))

    def ih_rows(t):
        t[P + "weight_ih_l0"] = tensor([12, V], 1)
    case("34_weight_ih_rows", "weight_ih_l0", build(with_tensors(ih_rows)))
    case("35_bias_ih_without_hh", "bias_hh_l0", build(with_tensors(drop(P + "bias_hh_l0"))))

    def short_bias(t):
        t[P + "bias_hh_l0"] = tensor([G * H - 1], 4)
    case("36_bias_wrong_length", "bias_hh_l0", build(with_tensors(short_bias)))

    def bidirectional(t):
        rev = lstm_layer(P, 0, V, seed=9)
        for n, v in rev.items():
            t[n + "_reverse"] = v
        t["fc.weight"] = tensor([V, 2 * H], 5)
    case("37_bidirectional", "bidirectional", build(with_tensors(bidirectional)))

    def projection_not_narrower(t):  # nn.LSTM(proj_size=P) wants P < H
        t[P + "weight_hr_l0"] = tensor([H, H], 10)
    case("38_projection_not_narrower", "p < h", build(with_tensors(projection_not_narrower)))

    def no_recurrent(t):
        for n in [n for n in t if n.startswith(P)]:
            del t[n]
    case("39_no_recurrent", "recurrent", build(with_tensors(no_recurrent)))
    case("40_no_tensors", "recurrent", build({}, metadata=None))

    def two_prefixes(t):
        t.update(lstm_layer("rnn.", 0, V, seed=11))
    case("41_two_prefixes", "prefix", build(with_tensors(two_prefixes)))

    def embedding_width(t):
        t["embedding.weight"] = tensor([V, 5], 12)
    case("42_embedding_width", "embedding.weight", build(with_tensors(embedding_width)))

    def zero_hidden(t):
        t.clear()
        t.update(lstm_layer(P, 0, V, h=0))
    case("43_zero_hidden", "weight_hh_l0", build(with_tensors(zero_hidden), metadata={"vocab": "abc"}))


def projected(t, layers=1):
    """t made an nn.LSTM(proj_size=1): each layer's recurrence reads the projection."""
    for k in range(1, layers):
        t.update(lstm_layer(P, k, 1, seed=20 + k))
    for k in range(layers):
        t[P + "weight_hh_l%d" % k] = tensor([G * H, 1], 2 + k)
        t[P + "weight_hr_l%d" % k] = tensor([1, H], 10 + k)
    t["fc.weight"] = tensor([V, 1], 5)


def projection_cases():
    """nn.LSTM(proj_size)'s projections, weight_hr_l<k>, that do not fit the network."""
    def hh_width(t):
        projected(t)
        t[P + "weight_hh_l0"] = tensor([G * H, H], 2)
    case("51_projection_hh_width", "weight_hh_l0", build(with_tensors(hh_width)))

    def stray(t):
        projected(t)
        t[P + "weight_hr_l4"] = tensor([1, H], 14)
    case("52_projection_stray", "layer 4", build(with_tensors(stray)))

    def gru(t):
        projected(t)
        t[P + "weight_ih_l0"] = tensor([3 * H, V], 1)
        t[P + "weight_hh_l0"] = tensor([3 * H, 1], 2)
        t[P + "bias_ih_l0"] = tensor([3 * H], 3)
        t[P + "bias_hh_l0"] = tensor([3 * H], 4)
    case("53_projection_gru", "lstm's 4h", build(with_tensors(gru)))

    def layer1_missing(t):
        projected(t, 2)
        del t[P + "weight_hr_l1"]
    case("54_projection_layer1_missing", "weight_hr_l1 is missing",
         build(with_tensors(layer1_missing)))

    def layer1_only(t):
        projected(t, 2)
        del t[P + "weight_hr_l0"]
        t[P + "weight_hh_l0"] = tensor([G * H, H], 2)
        t[P + "weight_ih_l1"] = tensor([G * H, H], 21)
        t[P + "weight_hh_l1"] = tensor([G * H, H], 3)
    case("55_projection_layer1_only", "layer 0 has none", build(with_tensors(layer1_only)))

    def readout_width(t):
        projected(t)
        t["fc.weight"] = tensor([V, H], 5)
    case("56_projection_readout_width", "reads the projection", build(with_tensors(readout_width)))

    def huge(t):  # a small file whose folded recurrence would be 4 * 8192 * 8192 weights
        t.clear()
        t[P + "weight_ih_l0"] = tensor([G * 8192, V], 1)
        t[P + "weight_hh_l0"] = tensor([G * 8192, 1], 2)
        t[P + "weight_hr_l0"] = tensor([1, 8192], 10)
        t["fc.weight"] = tensor([V, 1], 5)
    case("57_projection_huge", "more than gatetui holds", build(with_tensors(huge)))

    V2, H2 = 16385, 4096  # the recurrence folds into 2^26 weights; the readout past them

    def huge_readout(t):  # a small file whose readout would fold into V2 * H2 weights
        t.clear()
        t["emb.weight"] = tensor([V2, 1], 3)
        t[P + "weight_ih_l0"] = tensor([G * H2, 1], 1)
        t[P + "weight_hh_l0"] = tensor([G * H2, 1], 2)
        t[P + "weight_hr_l0"] = tensor([1, H2], 10)
        t["fc.weight"] = tensor([V2, 1], 5)
    case("58_projection_readout_huge", "more weights than gatetui holds",
         build(with_tensors(huge_readout),
               metadata={"vocab": "".join(chr(0x4E00 + i) for i in range(V2))}))


def vocabulary_cases():
    """The vocabulary, the input and the readout."""
    case("44_vocab_too_long", "vocab", build(metadata={"vocab": "abcd"}))
    case("45_vocab_too_short", "vocab", build(metadata={"vocab": "ab"}))
    case("46_vocab_duplicate", "vocab", build(metadata={"vocab": "aba"}))
    case("47_no_vocab", "vocab", build(metadata=None))

    def onehot_width(t):
        t[P + "weight_ih_l0"] = tensor([G * H, V + 1], 1)
    case("48_onehot_width", "vocab", build(with_tensors(onehot_width)))

    def readout_bias(t):
        t["fc.bias"] = tensor([V - 1], 6)
    case("49_readout_bias_length", "fc.bias", build(with_tensors(readout_bias)))
    case("50_gru_reset_value", "gru_reset",
         build(metadata={"vocab": "abc", "gru_reset": "sideways"}))

    def readout_rows(t):  # a readout of V - 1 rows: once read as a model without a readout
        t["fc.weight"] = tensor([V - 1, H], 5)
        t["fc.bias"] = tensor([V - 1], 6)
    case("59_readout_rows", "fc.weight: shape [2, 2], but a readout of the model's 3 tokens",
         build(with_tensors(readout_rows)))


def write(valid):
    """Writes the cases, valid.safetensors, the text and EXPECTED into OUT."""
    for f in os.listdir(OUT):
        if f.endswith(".safetensors"):
            os.remove(os.path.join(OUT, f))
    with open(os.path.join(OUT, "valid.safetensors"), "wb") as f:
        f.write(valid)
    with open(os.path.join(OUT, "text.txt"), "w") as f:
        f.write("abcabcabba cab\n")
    names = set()
    lines = []
    for name, sub, content in CASES:
        assert name not in names and content != valid, name
        names.add(name)
        assert sub == sub.lower() and "\t" not in sub, name
        fname = name + ".safetensors"
        with open(os.path.join(OUT, fname), "wb") as f:
            f.write(content)
        lines.append(f"{fname}\t{sub}")
    with open(os.path.join(OUT, "EXPECTED"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print(f"{len(CASES)} malformed files and valid.safetensors in {OUT}")


def main():
    os.makedirs(OUT, exist_ok=True)
    valid = build()
    container_cases(valid)
    entry_cases(valid)
    value_cases()
    structure_cases()
    vocabulary_cases()
    projection_cases()
    write(valid)


if __name__ == "__main__":
    main()
