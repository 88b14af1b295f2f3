#!/usr/bin/python3
"""Word-model fixtures for gatetui (doc/usage.md, "Word models"): small random models of PyTorch's
word_language_model example (samples/word_model.py's RNNModel: encoder, rnn, decoder), a
word vocabulary, a text, and PyTorch's values.

    /usr/bin/python3 tests/ref/make_words_fixtures.py

Writes tests/fixtures/words/:

    text.txt             the first 60 verses of samples/kjv-valid.txt, punctuation split off
                         the words (as samples/word_model.py splits them), one verse a line
    short.txt            its first 4 lines
    unknown.txt          a line with words the vocabulary lacks
    w_lstm.safetensors   a 2-layer LSTM (embedding 8, H 12), untied; w_lstm.vocab.txt beside
    w_gru.safetensors    a 1-layer GRU (H 10), its decoder tied to its encoder; w_gru.vocab.txt
    NAME.csv             what `gatetui --dump NAME.safetensors short.txt` must print
    NAME.probs.csv       and with --probs
    module.pt            w_lstm saved whole, torch.save(model), module.vocab.txt beside it
    dictionary.pt        {"model": w_lstm, "dictionary": the example's Dictionary}
    sd/model.pt          w_lstm's state_dict, with sd/vocab.txt beside it
    nounk.txt            the vocabulary with <unk> renamed <pad>: no word reads as <unk>
    bpe.pt               a state_dict and a sentencepiece-like vocabulary ("▁the"): refused
    FIND, NAME.json      --units, --select, --profile and --probe with --json on the models
                         and text.txt (tab-separated: name, mode, model, argument, options),
                         float64 references of units_ref.py and make_probe_fixtures.py

The vocabulary: the text's 80 most frequent words (ties: first seen) and <eos> in the order
data.py's Dictionary meets them, then <unk>: not in the order of frequency, so that the
report's replacements (the most frequent tokens) are not the first tokens.
The gates are computed by hand in float64 numpy (report_ref.py's cells) from the weights as
stored (read back from the safetensors file), the states checked against nn.LSTM / nn.GRU
run in float64 to 1e-9 before anything is written. The report, Jacobian, dynamics, finding, probe and effect
fixtures of a word model are made by those modes' own scripts (make_report_fixtures.py and
the others), from these models. Seeded: the same files on every run.
"""
import collections
import json
import os
import sys

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
OUT = os.path.join(ROOT, "tests", "fixtures", "words")
sys.path.insert(0, os.path.join(ROOT, "tools"))
sys.path.insert(0, os.path.join(ROOT, "samples"))
sys.path.insert(0, HERE)
from gatetui_export import save_file  # noqa: E402
import report_ref  # noqa: E402
from report_ref import read_safetensors  # noqa: E402
import word_model  # noqa: E402

CHECK_TOL = 1e-9
LINES = 60
WORDS = 80
SHORT = 4


def g9(v):
    return "%.9g" % v


def csv_field(w):
    if any(c in w for c in ',"\r\n'):
        return '"' + w.replace('"', '""') + '"'
    return w


def texts():
    with open(os.path.join(ROOT, "samples", "kjv-valid.txt"), encoding="utf-8") as f:
        verses = [word_model.split_punctuation(v) for v in f.read().split("\n")[:LINES]]
    counts, first = collections.Counter(), {}
    for v in verses:
        for w in v.split():
            counts[w] += 1
            first.setdefault(w, len(first))
    kept = set(sorted(counts, key=lambda w: (-counts[w], first[w]))[:WORDS])
    d = word_model.Dictionary()  # in the order data.py meets them, <unk> last
    for v in verses:
        for w in v.split() + ["<eos>"]:
            if w in kept or w == "<eos>":
                d.add_word(w)
    d.add_word("<unk>")
    return verses, d


def tokenize(lines, d):
    ids = []
    for line in lines:
        for w in line.split() + ["<eos>"]:
            ids.append(d.word2idx.get(w, d.word2idx["<unk>"]))
    return ids


def numpy_steps(path, short_toks):
    """The float64 recurrence (report_ref.py's cells, numpy) on the weights as stored: per
    step, per layer, the gates and the states; and the readout's probabilities."""
    m = report_ref.Model(path)
    h, c = report_ref.zeros(m, 1)
    out = []
    for tok in short_toks:
        gates = report_ref.step(m, [tok], h, c, m.L - 1)
        rows = []
        for k in range(m.L):
            g, H = gates[k][0], m.Hs[k]
            blocks = [g[b * H:(b + 1) * H] for b in range(m.G)]
            rows.append(tuple(blocks) + ((c[k][0].copy(),) if m.arch == "lstm" else ()) +
                        (h[k][0].copy(),))
        logit = m.out_w @ h[m.L - 1][0] + m.out_b
        p = np.exp(logit - logit.max())
        out.append((rows, p / p.sum()))
    return out


def torch_check(model, W, toks, steps, arch):
    """nn.LSTM / nn.GRU in float64 on the stored weights against the numpy states."""
    m = model.double()
    with torch.no_grad():
        for name, p in m.named_parameters():
            p.copy_(torch.from_numpy(W[name]))
        out, _ = m.rnn(m.encoder(torch.tensor(toks).view(-1, 1)))
    worst = 0.0
    for t, (rows, _) in enumerate(steps):
        worst = max(worst, float(np.abs(out[t, 0].numpy() - rows[-1][-1]).max()))
    if worst > CHECK_TOL:
        raise SystemExit("make_words_fixtures: numpy and nn.%s differ by %g" % (arch, worst))
    model.float()
    return worst


def write_dump(name, steps, toks, d, arch, layers):
    sig = "i,f,g,o,c,h" if arch == "LSTM" else "r,z,n,h"
    lines = ["step,token,layer,unit," + sig + "\n"]
    plines = ["step,token,p\n"]
    for t, (rows, p) in enumerate(steps):
        w = csv_field(d.idx2word[toks[t]])
        for k in range(layers):
            for j in range(len(rows[k][0])):
                lines.append("%d,%s,%d,%d,%s\n" % (t, w, k, j,
                                                   ",".join(g9(v[j]) for v in rows[k])))
        for v in range(len(p)):
            plines.append("%d,%d,%s\n" % (t, v, g9(p[v])))
    for path, body in ((name + ".csv", lines), (name + ".probs.csv", plines)):
        with open(os.path.join(OUT, path), "w", encoding="utf-8", newline="") as f:
            f.write("".join(body))


def write(path, text):
    full = os.path.join(OUT, path)
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, "w", encoding="utf-8", newline="") as f:
        f.write(text)


def make_model(name, arch, layers, emsize, nhid, tied, seed, d, short_toks):
    torch.manual_seed(seed)
    model = word_model.RNNModel(arch, len(d), emsize, nhid, layers, 0.0, tied)
    with torch.no_grad():  # weights large enough that the gates spread
        model.encoder.weight.mul_(8.0)
        for p in model.rnn.parameters():
            p.mul_(2.5)
    model.eval()
    arrays = {k: v.detach().numpy().astype(np.float32) for k, v in model.state_dict().items()}
    path = os.path.join(OUT, name + ".safetensors")
    save_file(arrays, path)
    write(name + ".vocab.txt", "".join(w + "\n" for w in d.idx2word))
    W, _ = read_safetensors(path)
    steps = numpy_steps(path, short_toks)
    worst = torch_check(model, W, short_toks, steps, arch)
    write_dump(name, steps, short_toks, d, arch, layers)
    print("%s: %s, %d layers, H %d, V %d; numpy against nn.%s in float64: %.3g" % (
        name, arch, layers, nhid, len(d), arch, worst))
    return model


def torch_files(model, d):
    torch.save(model, os.path.join(OUT, "module.pt"))
    write("module.vocab.txt", "".join(w + "\n" for w in d.idx2word))
    torch.save({"model": model, "dictionary": d}, os.path.join(OUT, "dictionary.pt"))
    os.makedirs(os.path.join(OUT, "sd"), exist_ok=True)
    torch.save(model.state_dict(), os.path.join(OUT, "sd", "model.pt"))
    write("sd/vocab.txt", "".join(w + "\n" for w in d.idx2word))
    write("nounk.txt", "".join(("<pad>" if w == "<unk>" else w) + "\n" for w in d.idx2word))
    torch.manual_seed(7)
    pieces = ["<unk>", "<eos>"] + ["\u2581" + w for w in d.idx2word[2:]]
    bpe = word_model.RNNModel("LSTM", len(pieces), 4, 4, 1, 0.0, False)
    torch.save({"state_dict": bpe.state_dict(), "itos": pieces}, os.path.join(OUT, "bpe.pt"))


# name, mode, model, argument, options: the finding modes on a word model, the expressions
# matching the tokens joined by single spaces, <eos> a newline
FIND = [
    ("units_eos", "units", "w_lstm", "\\n", ""),
    ("units_the", "units", "w_lstm", "the [a-z]+", "--layer 1 --signal c"),
    ("units_gru_punct", "units", "w_gru", "[,.;:]", "--signal z"),
    ("profile_lstm", "profile", "w_lstm", "3", "--layer 1"),
    ("profile_gru", "profile", "w_gru", "4", "--signal n"),
    ("select_lstm", "select", "w_lstm", "600:601", "--threshold 0.2"),
    ("select_lstm_h", "select", "w_lstm", "301:302", "--threshold 0.2"),
    ("probe_eos", "probe", "w_lstm", "\\n", "--layer 1"),
    ("probe_and", "probe", "w_gru", "and", "--signal h --folds 4"),
]


def finding():
    """The finding modes' and the probe's references on the word models (FIND)."""
    import units_ref
    import make_probe_fixtures as mpf
    lines = ["# name, mode, model, argument, options: tab-separated "
             "(made by tests/ref/make_words_fixtures.py)"]
    for name, mode, model, arg, opts in FIND:
        m = units_ref.Model(os.path.join(OUT, model + ".safetensors"))
        toks = m.tokens(os.path.join(OUT, "text.txt"))
        args = opts.split()
        if mode == "probe":
            layer = mpf.opt(args, "--layer", 0, int)
            signal = mpf.opt(args, "--signal", "h", str)
            x = units_ref.values(m, toks, layer)[:, units_ref.signal_names(m).index(signal), :]
            y, _ = units_ref.step_mask(m, toks, arg)
            out = mpf.probe(x, y, arg, signal, mpf.opt(args, "--folds", 5, int),
                            mpf.opt(args, "--l2", 1e-3, float))
        else:
            lead = ["profile", "--unit", arg] if mode == "profile" else [mode, arg]
            out = units_ref.compute(m, toks, lead + args)
        with open(os.path.join(OUT, name + ".json"), "w", encoding="utf-8") as f:
            json.dump(out, f, indent=1, ensure_ascii=False)
            f.write("\n")
        lines.append("\t".join([name, mode, model, arg, opts]))
    write("FIND", "\n".join(lines) + "\n")


def main():
    os.makedirs(OUT, exist_ok=True)
    verses, d = texts()
    write("text.txt", "".join(v + "\n" for v in verses))
    write("short.txt", "".join(v + "\n" for v in verses[:SHORT]))
    write("unknown.txt", "the king of Persia , Xerxes , and Vashti\n")
    short_toks = tokenize(verses[:SHORT], d)
    lstm = make_model("w_lstm", "LSTM", 2, 8, 12, False, 1, d, short_toks)
    make_model("w_gru", "GRU", 1, 10, 10, True, 2, d, short_toks)
    torch_files(lstm, d)
    toks = tokenize(verses, d)
    print("text.txt: %d tokens, %d of them <unk>; short.txt: %d tokens" % (
        len(toks), toks.count(d.word2idx["<unk>"]), len(short_toks)))
    finding()


if __name__ == "__main__":
    main()
