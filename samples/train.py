#!/usr/bin/python3
"""Train a character-level LSTM, GRU or plain RNN (tanh) on a text and save it as a gatetui model file.

The model is Embedding (or one-hot) -> nn.LSTM / nn.GRU / nn.RNN -> Linear readout, trained on the
CPU with Adam and truncated backpropagation through time: the training text is cut into
--batch parallel streams, each step takes the next --seq characters of every stream and
carries the recurrent state over (detached) from the previous step.  Everything is seeded,
so the same command gives the same file.

The validation loss is measured every --eval-every steps; the weights with the lowest
validation loss are kept and training stops after --patience evaluations without
improvement (or at --steps).  --snapshot STEP:FILE additionally saves the weights exactly as
they are after STEP steps; the data order and the updates do not depend on --steps or on
the evaluations, so a snapshot equals a separate run with --steps STEP.  A snapshot's
reference dump draws from the random generator (it builds a model), which changes the
dropout masks after it; --checkpoint STEP:FILE saves the same way and puts the generator
back, so the run goes on as it would without (STEP 0: the weights as initialised).
--convert MODEL OUT --dtype f16 writes a model file's weights rounded to F16.

Each saved model FILE (say samples/kjv-lstm.bin) gets a reference dump next to it,
samples/kjv-lstm.ref.csv, in the format of `gatetui --dump`, computed on the first
characters of --ref-text (saved as samples/kjv-lstm.ref.txt).  The states c and h are
nn.LSTM's / nn.GRU's / nn.RNN's own outputs; the gates (an RNN's pre-activation a) are computed by hand in float64 from the saved
weights, and the float64 states are checked against PyTorch's to 1e-5.

Example:
    /usr/bin/python3 samples/train.py --arch lstm --hidden 256 --out samples/kjv-lstm.bin

--words trains a word-level model instead (samples/word_model.py: PyTorch's
word_language_model example's RNNModel on the King James text, saved whole with its
vocabulary beside it); `samples/train.py --words --help` lists its options.
"""
import argparse
import json
import math
import os
import sys
import time

# One thread unless asked otherwise (the BLAS library has its own thread pool).
for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402
import torch  # noqa: E402
import torch.nn as nn  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tools"))
from gatetui_export import load_file, save_file  # noqa: E402


class CharRNN(nn.Module):
    def __init__(self, arch, vocab_size, hidden, layers, embed, dropout=0.0):
        super().__init__()
        self.arch = arch
        self.vocab_size = vocab_size
        if embed > 0:
            self.embedding = nn.Embedding(vocab_size, embed)
            width = embed
        else:
            self.embedding = None
            width = vocab_size
        # The attribute name gives the tensor prefix: lstm.weight_ih_l0 / gru.weight_ih_l0 /
        # rnn.weight_ih_l0 (an nn.RNN with tanh).
        if arch == "rnn":
            cell = nn.RNN(width, hidden, num_layers=layers, nonlinearity="tanh",
                          batch_first=True)
        else:
            cls = nn.LSTM if arch == "lstm" else nn.GRU
            cell = cls(width, hidden, num_layers=layers, batch_first=True)
        setattr(self, arch, cell)
        self.fc = nn.Linear(hidden, vocab_size)
        # Dropout on the recurrent layer's input and output during training only; it has
        # no weights, so the saved model is the same architecture either way.
        self.drop = nn.Dropout(dropout)

    @property
    def recurrent(self):
        return getattr(self, self.arch)

    def inputs(self, idx):
        if self.embedding is not None:
            return self.embedding(idx)
        return nn.functional.one_hot(idx, self.vocab_size).float()

    def forward(self, idx, state=None):
        out, state = self.recurrent(self.drop(self.inputs(idx)), state)
        return self.fc(self.drop(out)), state


def detach(state):
    if isinstance(state, tuple):
        return tuple(s.detach() for s in state)
    return state.detach()


def epoch_batches(data, batch, seq, rng):
    """One pass over data as `batch` contiguous streams, in chunks of `seq` characters.
    The streams start at a random offset in 0..seq-1 so epochs see different cuts."""
    off = int(rng.integers(0, seq))
    length = (len(data) - 1 - off) // batch
    x = data[off:off + batch * length].view(batch, length)
    y = data[off + 1:off + 1 + batch * length].view(batch, length)
    for s in range(0, length - seq + 1, seq):
        yield x[:, s:s + seq], y[:, s:s + seq]


@torch.no_grad()
def evaluate(model, data, streams=16, chunk=512):
    """Mean cross-entropy (nats per character) of predicting data[1:] from data[:-1],
    reading the text as `streams` contiguous pieces, each from zero state."""
    model.eval()
    length = (len(data) - 1) // streams
    x = data[:streams * length].view(streams, length)
    y = data[1:1 + streams * length].view(streams, length)
    total, count, state = 0.0, 0, None
    for s in range(0, length, chunk):
        logits, state = model(x[:, s:s + chunk], state)
        total += nn.functional.cross_entropy(
            logits.reshape(-1, logits.shape[-1]), y[:, s:s + chunk].reshape(-1),
            reduction="sum").item()
        count += y[:, s:s + chunk].numel()
    model.train()
    return total / count


def export_arrays(model, dtype):
    """The state_dict as numpy arrays, rounded to the file's dtype."""
    arrays = {}
    for name, t in model.state_dict().items():
        a = t.detach().cpu().numpy().astype(np.float32)
        if dtype == "f16":
            a = a.astype(np.float16)
        arrays[name] = a
    return arrays


def csv_char(ch):
    if ch in ',"\n\r':
        return '"' + ch.replace('"', '""') + '"'
    return ch


def g9(v):
    return "%.9g" % v


def sigmoid(x):
    return 1.0 / (1.0 + np.exp(-x))


def reference_dump(model_path, arrays, arch, layers, hidden, vocab, text, ref_chars,
                   ref_bytes):
    """Write <model>.ref.csv and <model>.ref.txt for the weights in `arrays` (as saved).
    Returns (characters used, rows, max |float64 - PyTorch| over c and h)."""
    stem = model_path[:-4] if model_path.endswith(".bin") else model_path
    index = {ch: k for k, ch in enumerate(vocab)}
    V = len(vocab)
    embed = arrays["embedding.weight"].shape[1] if "embedding.weight" in arrays else 0

    # A PyTorch model holding exactly the saved (possibly rounded) weights.
    ref = CharRNN(arch, V, hidden, layers, embed)
    ref.load_state_dict({k: torch.from_numpy(v.astype(np.float32)) for k, v in arrays.items()})
    ref.eval()
    W = {k: v.astype(np.float64) for k, v in arrays.items()}
    p = arch + "."

    text = text[:ref_chars]
    if arch == "lstm":
        header = "step,char,layer,unit,i,f,g,o,c,h\n"
    elif arch == "rnn":
        header = "step,char,layer,unit,a,h\n"
    else:
        header = "step,char,layer,unit,r,z,n,h\n"
    out = [header]
    size = len(header.encode())
    h64 = [np.zeros(hidden) for _ in range(layers)]
    c64 = [np.zeros(hidden) for _ in range(layers)]
    state = None
    step = 0
    used = 0
    worst = 0.0
    with torch.no_grad():
        for pos, ch in enumerate(text):
            if ch not in index:
                used = pos + 1
                continue
            tok = index[ch]
            xt = torch.tensor([[tok]])
            _, state = ref.recurrent(ref.inputs(xt), state)
            if arch == "lstm":
                th, tc = state[0][:, 0, :].numpy(), state[1][:, 0, :].numpy()
            else:
                th, tc = state[:, 0, :].numpy(), None
            x = W["embedding.weight"][tok] if embed else np.eye(V)[tok]
            rows = []
            for l in range(layers):
                wih, whh = W[p + "weight_ih_l%d" % l], W[p + "weight_hh_l%d" % l]
                bih, bhh = W[p + "bias_ih_l%d" % l], W[p + "bias_hh_l%d" % l]
                H = hidden
                if arch == "lstm":
                    a = wih @ x + bih + whh @ h64[l] + bhh
                    i, f = sigmoid(a[:H]), sigmoid(a[H:2 * H])
                    g, o = np.tanh(a[2 * H:3 * H]), sigmoid(a[3 * H:])
                    c64[l] = f * c64[l] + i * g
                    h64[l] = o * np.tanh(c64[l])
                    worst = max(worst, np.abs(c64[l] - tc[l]).max(), np.abs(h64[l] - th[l]).max())
                    for u in range(H):
                        rows.append("%d,%s,%d,%d,%s,%s,%s,%s,%s,%s\n" % (
                            step, csv_char(ch), l, u, g9(i[u]), g9(f[u]), g9(g[u]), g9(o[u]),
                            g9(tc[l][u]), g9(th[l][u])))
                elif arch == "rnn":
                    a = wih @ x + bih + whh @ h64[l] + bhh
                    h64[l] = np.tanh(a)
                    worst = max(worst, np.abs(h64[l] - th[l]).max())
                    for u in range(H):
                        rows.append("%d,%s,%d,%d,%s,%s\n" % (
                            step, csv_char(ch), l, u, g9(a[u]), g9(th[l][u])))
                else:
                    ai, ah = wih @ x + bih, whh @ h64[l] + bhh
                    r = sigmoid(ai[:H] + ah[:H])
                    z = sigmoid(ai[H:2 * H] + ah[H:2 * H])
                    n = np.tanh(ai[2 * H:] + r * ah[2 * H:])  # reset after (PyTorch)
                    h64[l] = (1 - z) * n + z * h64[l]
                    worst = max(worst, np.abs(h64[l] - th[l]).max())
                    for u in range(H):
                        rows.append("%d,%s,%d,%d,%s,%s,%s,%s\n" % (
                            step, csv_char(ch), l, u, g9(r[u]), g9(z[u]), g9(n[u]),
                            g9(th[l][u])))
                x = h64[l]
            block = "".join(rows)
            if step > 0 and size + len(block.encode()) > ref_bytes:
                break
            out.append(block)
            size += len(block.encode())
            step += 1
            used = pos + 1
    if worst > 1e-5:
        log("WARNING: float64 states differ from PyTorch's by %.3g (more than 1e-5)" % worst)
    with open(stem + ".ref.csv", "w", encoding="utf-8", newline="") as f:
        f.write("".join(out))
    with open(stem + ".ref.txt", "w", encoding="utf-8", newline="") as f:
        f.write(text[:used])
    return used, step, worst


def save_model(model, path, args, vocab, step, extra, ref_text):
    arrays = export_arrays(model, args.dtype)
    meta = {"vocab": vocab}
    if args.arch == "gru":
        meta["gru_reset"] = "after"
    if args.arch == "rnn":
        meta["nonlinearity"] = "tanh"
    meta["training"] = ("samples/train.py --arch %s --hidden %d --layers %d --embed %d "
                        "--dropout %g --seed %d; step %d; %s" % (
                            args.arch, args.hidden, args.layers, args.embed, args.dropout,
                            args.seed, step, extra))
    save_file(arrays, path, metadata=meta)
    used, steps, worst = reference_dump(path, arrays, args.arch, args.layers, args.hidden,
                                        vocab, ref_text, args.ref_chars, args.ref_bytes)
    log("saved %s (%d bytes, step %d); reference dump: %d characters, max |float64 - "
        "PyTorch| = %.3g" % (path, os.path.getsize(path), step, used, worst))
    return arrays


def log(msg):
    print(msg, flush=True)


def parse_args():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--arch", choices=["lstm", "gru", "rnn"], default="lstm")
    ap.add_argument("--hidden", type=int, default=256, help="units per layer (default 256)")
    ap.add_argument("--layers", type=int, default=1)
    ap.add_argument("--embed", type=int, default=64,
                    help="embedding width; 0 feeds one-hot vectors (default 64)")
    ap.add_argument("--batch", type=int, default=64)
    ap.add_argument("--seq", type=int, default=128, help="BPTT length (default 128)")
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--dropout", type=float, default=0.0,
                    help="dropout on the recurrent layer's input and output (default 0)")
    ap.add_argument("--clip", type=float, default=1.0, help="gradient norm clip (0: none)")
    ap.add_argument("--steps", type=int, default=20000, help="maximum number of steps")
    ap.add_argument("--eval-every", type=int, default=50)
    ap.add_argument("--patience", type=int, default=8,
                    help="stop after this many evaluations without improvement (0: never)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--train", default=os.path.join(HERE, "kjv-train.txt"))
    ap.add_argument("--valid", default=os.path.join(HERE, "kjv-valid.txt"))
    ap.add_argument("--ref-text", default=None, help="text for the reference dump "
                    "(default: the validation text)")
    ap.add_argument("--ref-chars", type=int, default=300,
                    help="characters of the reference text to dump (default 300)")
    ap.add_argument("--ref-bytes", type=int, default=1000000,
                    help="stop the dump earlier to keep the CSV under this size")
    ap.add_argument("--dtype", choices=["f32", "f16"], default="f32")
    ap.add_argument("--out", help="model file for the weights with the best validation loss")
    ap.add_argument("--snapshot", action="append", default=[], metavar="STEP:FILE",
                    help="also save the weights after exactly STEP steps")
    ap.add_argument("--checkpoint", action="append", default=[], metavar="STEP:FILE",
                    help="also save the weights after exactly STEP steps, leaving the run as "
                    "it would be without (a --snapshot's reference dump draws from the random "
                    "generator, which changes the dropout masks after it)")
    ap.add_argument("--last", metavar="FILE",
                    help="also save the weights as they are when training stops")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--ref-only", metavar="MODEL",
                    help="do not train: write the reference dump of an existing model file")
    ap.add_argument("--summary", help="write a JSON summary here")
    ap.add_argument("--convert", nargs=2, metavar=("MODEL", "OUT"),
                    help="do not train: write MODEL's weights rounded to --dtype into the new "
                    "file OUT, with MODEL's metadata")
    return ap.parse_args()


def reference_only(args):
    """The reference dump of the existing model file args.ref_only."""
    arrays, meta = load_file(args.ref_only)
    arch = next(a for a in ("lstm", "gru", "rnn") if a + ".weight_hh_l0" in arrays)
    hidden = arrays[arch + ".weight_hh_l0"].shape[1]
    layers = sum(1 for k in arrays if k.startswith(arch + ".weight_hh_l"))
    ref_text = open(args.ref_text or args.valid, encoding="utf-8").read()
    used, steps, worst = reference_dump(args.ref_only, arrays, arch, layers, hidden,
                                        meta["vocab"], ref_text, args.ref_chars,
                                        args.ref_bytes)
    log("%s: reference dump of %d characters, max |float64 - PyTorch| = %.3g"
        % (args.ref_only, used, worst))


def convert(args):
    """args.convert's model file rounded to args.dtype, into a new file."""
    src, out = args.convert
    if os.path.exists(out):
        sys.exit("%s exists; not overwritten" % out)
    arrays, meta = load_file(src)
    rounded = {k: np.asarray(v, dtype=np.float16 if args.dtype == "f16" else np.float32)
               for k, v in arrays.items()}
    worst = max(float(np.abs(rounded[k].astype(np.float64) - np.asarray(v, np.float64)).max())
                for k, v in arrays.items())
    meta = dict(meta)
    meta["training"] = meta.get("training", "") + "; stored as %s" % args.dtype.upper()
    save_file(rounded, out, metadata=meta)
    log("%s -> %s (%s, %d bytes): largest |rounding| of a weight %.3g" % (
        src, out, args.dtype.upper(), os.path.getsize(out), worst))


def save_snapshot(model, args, vocab, step, path, train, valid, ref_text, t0, results,
                  keep_rng):
    """Saves the weights as they are after `step` steps; with keep_rng, the random
    generator is left as it was (the reference dump's model draws from it)."""
    vl = evaluate(model, valid)
    tl = evaluate(model, train)
    extra = "train %.4f, valid %.4f nats/char" % (tl, vl)
    rng_state = torch.get_rng_state()
    save_model(model, path, args, vocab, step, extra, ref_text)
    if keep_rng:
        torch.set_rng_state(rng_state)
    results["snapshots"][path] = {"step": step, "train_loss": tl, "valid_loss": vl,
                                  "seconds": time.time() - t0}


def fit(model, args, vocab, train, valid, ref_text, rng):
    """Trains model until --steps or --patience (and past the last --snapshot), saving the
    snapshots on the way. Returns (best, steps run, seconds, results): best is
    (valid loss, step, weights) of the best evaluation (weights None when there was none),
    results has the snapshots' losses."""
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    snapshots, keep_rng = {}, set()
    for spec in args.snapshot + args.checkpoint:
        s, _, f = spec.partition(":")
        snapshots[int(s)] = f
        if spec in args.checkpoint:
            keep_rng.add(int(s))
    last_needed = max(snapshots) if snapshots else 0

    best = (math.inf, 0, None)
    bad = 0
    step = 0
    recent = []
    t0 = time.time()
    results = {"snapshots": {}}
    stop = False
    if 0 in snapshots:  # the weights as initialised
        save_snapshot(model, args, vocab, 0, snapshots[0], train, valid, ref_text, t0, results,
                      0 in keep_rng)
    while not stop:
        state = None
        for x, y in epoch_batches(train, args.batch, args.seq, rng):
            logits, state = model(x, state)
            state = detach(state)
            loss = nn.functional.cross_entropy(logits.reshape(-1, logits.shape[-1]),
                                               y.reshape(-1))
            opt.zero_grad()
            loss.backward()
            if args.clip > 0:
                nn.utils.clip_grad_norm_(model.parameters(), args.clip)
            opt.step()
            step += 1
            recent.append(loss.item())
            if step in snapshots:
                save_snapshot(model, args, vocab, step, snapshots[step], train, valid, ref_text,
                              t0, results, step in keep_rng)
            if step % args.eval_every == 0:
                vl = evaluate(model, valid)
                mark = ""
                if vl < best[0]:
                    best = (vl, step, {k: v.clone() for k, v in model.state_dict().items()})
                    bad = 0
                    mark = " *"
                else:
                    bad += 1
                log("step %6d  %7.1fs  train(batch mean) %.4f  valid %.4f nats/char%s" % (
                    step, time.time() - t0, sum(recent) / len(recent), vl, mark))
                recent = []
                if args.patience and bad >= args.patience and step >= last_needed:
                    log("no improvement in %d evaluations: stopping" % bad)
                    stop = True
            if step >= args.steps and step >= last_needed:
                stop = True
            if stop:
                break
    return best, step, time.time() - t0, results


def main():
    if "--words" in sys.argv[1:]:  # a word-level model: samples/word_model.py
        import word_model
        word_model.main(sys.argv[1:])
        return
    args = parse_args()
    torch.set_num_threads(args.threads)
    if args.ref_only:
        reference_only(args)
        return
    if args.convert:
        convert(args)
        return
    torch.manual_seed(args.seed)
    torch.use_deterministic_algorithms(True)
    rng = np.random.default_rng(args.seed)

    train_text = open(args.train, encoding="utf-8").read()
    valid_text = open(args.valid, encoding="utf-8").read()
    ref_text = open(args.ref_text or args.valid, encoding="utf-8").read()
    vocab = "".join(sorted(set(train_text)))
    index = {ch: k for k, ch in enumerate(vocab)}
    skipped = sorted(set(valid_text) - set(vocab))
    if skipped:
        log("validation characters not in the vocabulary (skipped): %r" % "".join(skipped))
    train = torch.tensor([index[c] for c in train_text], dtype=torch.long)
    valid = torch.tensor([index[c] for c in valid_text if c in index], dtype=torch.long)

    model = CharRNN(args.arch, len(vocab), args.hidden, args.layers, args.embed, args.dropout)
    params = sum(t.numel() for t in model.state_dict().values())
    rnn_params = sum(t.numel() for t in model.recurrent.state_dict().values())
    log("%s: V = %d, H = %d, layers = %d, embed = %d, parameters %d (recurrent %d)" % (
        args.arch, len(vocab), args.hidden, args.layers, args.embed, params, rnn_params))
    log("train %d characters, valid %d characters, %d steps per epoch" % (
        len(train), len(valid), ((len(train) - 1 - args.seq) // args.batch) // args.seq))

    best, step, seconds, results = fit(model, args, vocab, train, valid, ref_text, rng)
    results.update({"arch": args.arch, "hidden": args.hidden, "layers": args.layers,
                    "embed": args.embed, "vocab": len(vocab), "params": params,
                    "rnn_params": rnn_params, "steps_run": step, "seconds": seconds,
                    "args": vars(args)})
    if args.last:
        vl = evaluate(model, valid)
        tl = evaluate(model, train)
        extra = "train %.4f, valid %.4f nats/char" % (tl, vl)
        save_model(model, args.last, args, vocab, step, extra, ref_text)
        results["last"] = {"file": args.last, "step": step, "train_loss": tl,
                           "valid_loss": vl}
    if args.out:
        if best[2] is not None:
            model.load_state_dict(best[2])
            best_step = best[1]
        else:
            best_step = step
        vl = evaluate(model, valid)
        tl = evaluate(model, train)
        extra = "train %.4f, valid %.4f nats/char" % (tl, vl)
        save_model(model, args.out, args, vocab, best_step, extra, ref_text)
        results["best"] = {"file": args.out, "step": best_step, "train_loss": tl,
                           "valid_loss": vl}
    log("done: %d steps in %.1f s" % (step, seconds))
    log("SUMMARY " + json.dumps(results))
    if args.summary:
        with open(args.summary, "w") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
