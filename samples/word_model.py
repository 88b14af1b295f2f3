#!/usr/bin/python3
"""A word-level language model as PyTorch's word_language_model example builds it, trained on
the King James text: `samples/train.py --words` runs this file's main.

RNNModel and Dictionary are the example's (model.py, data.py): an embedding `encoder`, an
nn.LSTM / nn.GRU `rnn`, a linear `decoder` (tied to the encoder with --tied), and the
tokenization of data.py: each line split on white space, then '<eos>'. The text is the
Bible as Debian's bible-kjv prints it, one verse per line, with the punctuation
, ; : . ? ! ( ) split off the words (as the example's WikiText is); the vocabulary is the
tokens '<unk>' and '<eos>', then the --vocab most frequent words of the training books, in
their order of frequency (ties in order of first appearance); a word not in it reads as
'<unk>'.

Training: Adam, truncated backpropagation through time over --batch streams of --bptt
tokens, dropout on the embedding and the recurrent output, the gradient norm clipped,
seeded; the weights with the lowest validation loss (measured every --eval-every steps)
are kept. Written:
  OUT            the whole module, torch.save(model, OUT), as the example saves it
  OUT-stem.vocab.txt   the vocabulary, one token per line in index order
  --state-dict FILE    also the state_dict alone (FILE), beside it FILE-stem.vocab.txt
  --valid-out FILE     the validation books as tokenized text, one verse per line

Example (the sample, from the top directory):
    /usr/bin/python3 samples/train.py --words --out samples/kjv-words.pt \\
        --valid-out samples/kjv-words-valid.txt
"""
import argparse
import collections
import json
import math
import os
import re
import subprocess
import sys
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

BOOKS = ("Genesis Exodus Leviticus Numbers Deuteronomy Joshua Judges Ruth 1Samuel 2Samuel "
         "1Kings 2Kings 1Chronicles 2Chronicles Ezra Nehemiah Esther Job Psalms Proverbs "
         "Ecclesiastes Song Isaiah Jeremiah Lamentations Ezekiel Daniel Hosea Joel Amos "
         "Obadiah Jonah Micah Nahum Habakkuk Zephaniah Haggai Zechariah Malachi Matthew Mark "
         "Luke John Acts Romans 1Corinthians 2Corinthians Galatians Ephesians Philippians "
         "Colossians 1Thessalonians 2Thessalonians 1Timothy 2Timothy Titus Philemon Hebrews "
         "James 1Peter 2Peter 1John 2John 3John Jude Revelation").split()
VALID_BOOKS = ("Ruth", "Esther")  # held out, as for the character models' kjv-valid.txt
TRAIN_EVAL = 100000


class RNNModel(nn.Module):
    """The example's model.py: encoder, a recurrent module, decoder."""

    def __init__(self, rnn_type, ntoken, ninp, nhid, nlayers, dropout=0.5, tie_weights=False):
        super(RNNModel, self).__init__()
        self.ntoken = ntoken
        self.drop = nn.Dropout(dropout)
        self.encoder = nn.Embedding(ntoken, ninp)
        if rnn_type in ['LSTM', 'GRU']:
            self.rnn = getattr(nn, rnn_type)(ninp, nhid, nlayers, dropout=dropout)
        else:
            nonlinearity = {'RNN_TANH': 'tanh', 'RNN_RELU': 'relu'}[rnn_type]
            self.rnn = nn.RNN(ninp, nhid, nlayers, nonlinearity=nonlinearity, dropout=dropout)
        self.decoder = nn.Linear(nhid, ntoken)
        if tie_weights:
            if nhid != ninp:
                raise ValueError('When using the tied flag, nhid must be equal to emsize')
            self.decoder.weight = self.encoder.weight
        self.init_weights()
        self.rnn_type = rnn_type
        self.nhid = nhid
        self.nlayers = nlayers

    def init_weights(self):
        initrange = 0.1
        nn.init.uniform_(self.encoder.weight, -initrange, initrange)
        nn.init.zeros_(self.decoder.bias)
        nn.init.uniform_(self.decoder.weight, -initrange, initrange)

    def forward(self, input, hidden):
        emb = self.drop(self.encoder(input))
        output, hidden = self.rnn(emb, hidden)
        output = self.drop(output)
        decoded = self.decoder(output)
        decoded = decoded.view(-1, self.ntoken)
        return F.log_softmax(decoded, dim=1), hidden

    def init_hidden(self, bsz):
        weight = next(self.parameters())
        if self.rnn_type == 'LSTM':
            return (weight.new_zeros(self.nlayers, bsz, self.nhid),
                    weight.new_zeros(self.nlayers, bsz, self.nhid))
        return weight.new_zeros(self.nlayers, bsz, self.nhid)


class Dictionary(object):
    """The example's data.py Dictionary."""

    def __init__(self):
        self.word2idx = {}
        self.idx2word = []

    def add_word(self, word):
        if word not in self.word2idx:
            self.idx2word.append(word)
            self.word2idx[word] = len(self.idx2word) - 1
        return self.word2idx[word]

    def __len__(self):
        return len(self.idx2word)


def verses(books):
    """The verses of the books, one a line, as samples/make_text.sh takes them."""
    out = []
    for book in books:
        text = subprocess.run(["bible", "-f", "%s1:1-%s999:999" % (book, book)],
                              env=dict(os.environ, COLUMNS="10000"), check=True,
                              capture_output=True, text=True).stdout
        for line in text.splitlines():
            out.append(re.sub(r"^[0-9]?[A-Za-z]+[0-9]+:[0-9]+ ", "", line))
    return out


def split_punctuation(line):
    """The punctuation as words of its own: 'land.' -> 'land .'."""
    return " ".join(re.sub(r"([,;:.?!()])", r" \1 ", line).split())


def tokenize(lines, dictionary, unk):
    """data.py's tokenization: each line split on white space, then '<eos>'; a word not in
    the dictionary is '<unk>'."""
    ids = []
    for line in lines:
        for word in line.split() + ['<eos>']:
            ids.append(dictionary.word2idx.get(word, unk))
    return torch.tensor(ids, dtype=torch.long)


def build_dictionary(lines, size):
    counts = collections.Counter()
    first = {}
    for line in lines:
        for word in line.split():
            counts[word] += 1
            first.setdefault(word, len(first))
    kept = sorted(counts, key=lambda w: (-counts[w], first[w]))[:size]
    d = Dictionary()
    d.add_word('<unk>')
    d.add_word('<eos>')
    for w in kept:
        d.add_word(w)
    return d, sum(counts[w] for w in kept), sum(counts.values())


def batchify(data, bsz):
    nbatch = data.size(0) // bsz
    return data[:nbatch * bsz].view(bsz, -1).t().contiguous()


@torch.no_grad()
def evaluate(model, data, streams=10, chunk=70):
    """Mean cross-entropy (nats per token) of predicting each next token, the data read as
    `streams` contiguous pieces from zero state, dropout off."""
    model.eval()
    source = batchify(data, streams)
    hidden = model.init_hidden(streams)
    total, count = 0.0, 0
    for i in range(0, source.size(0) - 1, chunk):
        n = min(chunk, source.size(0) - 1 - i)
        out, hidden = model(source[i:i + n], hidden)
        total += F.nll_loss(out, source[i + 1:i + 1 + n].reshape(-1), reduction="sum").item()
        count += n * streams
    model.train()
    return total / count


def repackage(h):
    return tuple(repackage(v) for v in h) if isinstance(h, tuple) else h.detach()


def fit(model, args, train, valid):
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    source = batchify(train, args.batch)
    best, best_state, step, t0 = math.inf, None, 0, time.time()
    for epoch in range(args.epochs):
        hidden = model.init_hidden(args.batch)
        for i in range(0, source.size(0) - 1 - args.bptt, args.bptt):
            x, y = source[i:i + args.bptt], source[i + 1:i + 1 + args.bptt]
            hidden = repackage(hidden)
            out, hidden = model(x, hidden)
            loss = F.nll_loss(out, y.reshape(-1))
            opt.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(model.parameters(), args.clip)
            opt.step()
            step += 1
            if step % args.eval_every == 0:
                vl = evaluate(model, valid)
                mark = ""
                if vl < best:
                    best, mark = vl, " *"
                    best_state = {k: v.clone() for k, v in model.state_dict().items()}
                print("epoch %d step %6d %7.1fs  train %.4f  valid %.4f nats/token%s" % (
                    epoch, step, time.time() - t0, loss.item(), vl, mark), flush=True)
            if args.steps and step >= args.steps:
                break
        if args.steps and step >= args.steps:
            break
    vl = evaluate(model, valid)
    if vl < best:
        best, best_state = vl, None
    if best_state is not None:
        model.load_state_dict(best_state)
    return step, time.time() - t0


def vocab_path(path):
    stem = path.rsplit(".", 1)[0] if "." in os.path.basename(path) else path
    return stem + ".vocab.txt"


def write_new(path, text):
    with open(path, "x", encoding="utf-8", newline="\n") as f:
        f.write(text)


def parse_args(argv):
    ap = argparse.ArgumentParser(prog="train.py --words", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--words", action="store_true", help="(this mode)")
    ap.add_argument("--model", default="LSTM", choices=["LSTM", "GRU", "RNN_TANH"])
    ap.add_argument("--vocab", type=int, default=10000, help="most frequent words kept")
    ap.add_argument("--emsize", type=int, default=128)
    ap.add_argument("--nhid", type=int, default=128)
    ap.add_argument("--nlayers", type=int, default=2)
    ap.add_argument("--tied", type=int, default=1, help="1: decoder tied to the encoder")
    ap.add_argument("--dropout", type=float, default=0.2)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--clip", type=float, default=0.25)
    ap.add_argument("--batch", type=int, default=32)
    ap.add_argument("--bptt", type=int, default=35)
    ap.add_argument("--epochs", type=int, default=2)
    ap.add_argument("--steps", type=int, default=0, help="stop after this many (0: epochs)")
    ap.add_argument("--eval-every", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--out", required=True, help="the whole module, torch.save(model, OUT)")
    ap.add_argument("--state-dict", help="also the state_dict alone")
    ap.add_argument("--valid-out", help="the validation books as tokenized text")
    ap.add_argument("--summary", help="a JSON summary")
    return ap.parse_args(argv)


def main(argv):
    args = parse_args(argv)
    for path in [args.out, vocab_path(args.out), args.valid_out] + (
            [args.state_dict, vocab_path(args.state_dict)] if args.state_dict else []):
        if path and os.path.exists(path):
            sys.exit("%s exists; not overwritten" % path)
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    torch.use_deterministic_algorithms(True)
    books = [b for b in BOOKS if b not in VALID_BOOKS]
    train_lines = [split_punctuation(v) for v in verses(books)]
    valid_lines = [split_punctuation(v) for v in verses(VALID_BOOKS)]
    d, covered, total = build_dictionary(train_lines, args.vocab)
    unk = d.word2idx['<unk>']
    train, valid = tokenize(train_lines, d, unk), tokenize(valid_lines, d, unk)
    print("train %d tokens (%d lines), valid %d tokens (%d lines); V = %d; the kept words "
          "cover %.2f%% of the training words, %.2f%% of the validation tokens are <unk>" % (
              len(train), len(train_lines), len(valid), len(valid_lines), len(d),
              100.0 * covered / total, 100.0 * float((valid == unk).sum()) / len(valid)),
          flush=True)
    model = RNNModel(args.model, len(d), args.emsize, args.nhid, args.nlayers, args.dropout,
                     bool(args.tied))
    steps, seconds = fit(model, args, train, valid)
    model.eval()
    # the training loss on its first TRAIN_EVAL tokens (the whole text would take as long
    # as a third of an epoch)
    tl, vl = evaluate(model, train[:TRAIN_EVAL]), evaluate(model, valid)
    torch.save(model, args.out)
    vocab = "".join(w + "\n" for w in d.idx2word)
    write_new(vocab_path(args.out), vocab)
    if args.state_dict:
        torch.save(model.state_dict(), args.state_dict)
        write_new(vocab_path(args.state_dict), vocab)
    if args.valid_out:
        write_new(args.valid_out, "".join(line + "\n" for line in valid_lines))
    params = sum(p.numel() for p in model.parameters())
    result = {"model": args.model, "V": len(d), "emsize": args.emsize, "nhid": args.nhid,
              "nlayers": args.nlayers, "tied": args.tied, "params": params, "steps": steps,
              "seconds": round(seconds, 1), "train_loss_first_100k": tl, "valid_loss": vl,
              "train_tokens": len(train), "valid_tokens": len(valid),
              "file_bytes": os.path.getsize(args.out), "args": vars(args)}
    print("SUMMARY " + json.dumps(result), flush=True)
    if args.summary:
        with open(args.summary, "w") as f:
            json.dump(result, f, indent=1)


if __name__ == "__main__":
    main(sys.argv[1:])
