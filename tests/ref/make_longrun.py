#!/usr/bin/python3
"""The sample models over the whole of samples/kjv-valid.txt in float64: the fixtures
tests/fixtures/longrun/NAME.ref.gz that tests/samples/t_longrun holds gatetui's run to.

    /usr/bin/python3 tests/ref/make_longrun.py [NAME ...]     (default: kjv-lstm kjv-gru)

The bound is the one doc/measures.md states ("Precision"): every value v of the run
(each gate, c and h of
every unit at every step) within 1e-5 * max(1, |ref|) of the float64 value ref. A fixture
of every value would be hundreds of megabytes, so each holds what that bound implies about
the whole run:

  per step and layer, for the states (LSTM c and h; GRU n and h): the largest |ref| over
      the units, M, and the sum over the units, S. If every value is within its bound,
      gatetui's largest |v| is within 1e-5 * max(1, M) of M and its sum within
      1e-5 * H * max(1, M) of S.
  per layer, quantity and unit, over all the steps: the mean, with its bound 1e-5 times
      the mean of max(1, |ref|), and the largest |ref|.
  single values (step, layer, unit, quantity): for each quantity the 64 of largest |ref|
      and the 128 where a float32 run of the same equations (numpy) strays furthest from
      float64 relative to max(1, |ref|), and 1024 more drawn at random (seeded).

The float64 run uses tests/ref/report_ref.py's model reader and step (numpy only). With
PyTorch at hand it also prints how far nn.LSTM / nn.GRU in float32 stray from float64 on
the same run, by the same measure. Everything runs on one thread, so that the float32
sums, and with them the values picked, are the same on every run.
"""
import gzip
import io
import os
import sys

for _v in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_v] = "1"  # before numpy loads its BLAS
import numpy as np  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, HERE)
import report_ref as ref  # noqa: E402

OUT = os.path.join(ROOT, "tests", "fixtures", "longrun")
TEXT = "kjv-valid.txt"
RTOL = 1e-5
TOP, DRIFT, RANDOM = 64, 128, 1024


class Float32Model:
    """The same model with every weight rounded to float32, for report_ref.step."""

    def __init__(self, m):
        self.__dict__.update(m.__dict__)
        self.layers = [tuple(a.astype(np.float32) for a in lay) for lay in m.layers]
        self.emb = None if m.emb is None else m.emb.astype(np.float32)

    def x0(self, toks):
        if self.emb is not None:
            return self.emb[np.asarray(toks)]
        x = np.zeros((len(toks), self.V), dtype=np.float32)
        x[np.arange(len(toks)), toks] = 1.0
        return x


def run(m, toks, dtype):
    """Every value of the run: [T, L, Q, H], Q the gates then (LSTM) c and h, or (GRU) h."""
    L, H, G = m.L, m.H, m.G
    Q = G + 2 if m.arch == "lstm" else G + 1
    out = np.empty((len(toks), L, Q, H), dtype=dtype)
    h = [np.zeros((1, H), dtype=dtype) for _ in range(L)]
    c = [np.zeros((1, H), dtype=dtype) for _ in range(L)]
    for t, tok in enumerate(toks):
        gates = ref.step(m, [tok], h, c, L - 1)
        for k in range(L):
            out[t, k, :G] = gates[k][0].reshape(G, H)
            if m.arch == "lstm":
                out[t, k, G] = c[k][0]
            out[t, k, Q - 1] = h[k][0]
    return out


def torch_states(m, toks):
    """nn.LSTM / nn.GRU in float32 on the same run: [T, L, 2 or 1, H] (c and h, or h)."""
    import torch
    torch.set_num_threads(1)
    rnn = (torch.nn.LSTM if m.arch == "lstm" else torch.nn.GRU)(
        m.layers[0][0].shape[1], m.H, m.L)
    with torch.no_grad():
        for k, (w_ih, w_hh, b_ih, b_hh) in enumerate(m.layers):
            for name, a in (("weight_ih", w_ih), ("weight_hh", w_hh), ("bias_ih", b_ih),
                            ("bias_hh", b_hh)):
                getattr(rnn, "%s_l%d" % (name, k)).copy_(torch.from_numpy(a.astype(np.float32)))
        x = torch.from_numpy(Float32Model(m).x0(toks)[:, None, :].astype(np.float32))
        state = None
        hs, cs = [], []
        for t in range(len(toks)):  # one step at a time, as gatetui reads a text
            _, state = rnn(x[t:t + 1], state)
            if m.arch == "lstm":
                hs.append(state[0][:, 0].numpy().copy())
                cs.append(state[1][:, 0].numpy().copy())
            else:
                hs.append(state[:, 0].numpy().copy())
    hs = np.array(hs, dtype=np.float64)
    return np.stack([np.array(cs, dtype=np.float64), hs], axis=2) if cs else hs[:, :, None]


def worst(d, r):
    """The largest |d| / max(1, |r|) and where: (value, index tuple)."""
    q = np.abs(d) / np.maximum(1.0, np.abs(r))
    i = np.unravel_index(np.argmax(q), q.shape)
    return q[i], i


def names_of(m):
    return list("ifgoch") if m.arch == "lstm" else list("rznh")


def write(path, name, m, toks, v64, v32):
    T, L, Q, H = v64.shape
    qn = names_of(m)
    per_step = [qn.index("c"), qn.index("h")] if m.arch == "lstm" else [qn.index("n"), qn.index("h")]
    absv = np.abs(v64)
    rng = np.random.default_rng(20240519)
    picks = set()
    rel32 = np.abs(v32 - v64) / np.maximum(1.0, absv)
    for q in range(Q):
        for src in ((absv[:, :, q], TOP), (rel32[:, :, q], DRIFT)):
            flat = np.argsort(src[0], axis=None)[-src[1]:]
            for t, k, u in zip(*np.unravel_index(flat, src[0].shape)):
                picks.add((int(t), int(k), q, int(u)))
    while len(picks) < Q * (TOP + DRIFT) + RANDOM:
        picks.add((int(rng.integers(T)), int(rng.integers(L)), int(rng.integers(Q)),
                   int(rng.integers(H))))
    with gzip.GzipFile(path, "wb", 9, mtime=0) as gz, io.TextIOWrapper(gz, "ascii") as f:
        f.write("# The whole run of samples/%s.bin over samples/%s in float64, made by\n"
                "# tests/ref/make_longrun.py: every value within %g * max(1, |ref|) of these.\n"
                % (name, TEXT, RTOL))
        f.write("model %s.bin\ntext %s\narch %s\nlayers %d\nhidden %d\nsteps %d\n"
                % (name, TEXT, m.arch, L, H, T))
        f.write("quantities %s\n" % " ".join(qn))
        f.write("# per step and layer: largest |ref| of %s and of %s over the units, then their sums\n"
                % (qn[per_step[0]], qn[per_step[1]]))
        f.write("per-step %s %s\n" % (qn[per_step[0]], qn[per_step[1]]))
        for t in range(T):
            for k in range(L):
                a, b = v64[t, k, per_step[0]], v64[t, k, per_step[1]]
                f.write("%.9g %.9g %.5f %.5f\n" % (np.abs(a).max(), np.abs(b).max(), a.sum(), b.sum()))
        f.write("# per layer, quantity and unit over all the steps: mean, its bound, largest |ref|\n")
        f.write("units %d\n" % (L * Q * H))
        bound = RTOL * np.maximum(1.0, absv).mean(axis=0)
        mean, top = v64.mean(axis=0), absv.max(axis=0)
        for k in range(L):
            for q in range(Q):
                for u in range(H):
                    f.write("%d %s %d %.10g %.4g %.8g\n" % (k, qn[q], u, mean[k, q, u],
                                                          bound[k, q, u], top[k, q, u]))
        f.write("# single values: step layer unit quantity value\n")
        f.write("values %d\n" % len(picks))
        for t, k, q, u in sorted(picks):
            f.write("%d %d %d %s %.10g\n" % (t, k, u, qn[q], v64[t, k, q, u]))


def main():
    names = sys.argv[1:] or ["kjv-lstm", "kjv-gru"]
    os.makedirs(OUT, exist_ok=True)
    for name in names:
        m = ref.Model(os.path.join(ROOT, "samples", name + ".bin"))
        toks = m.tokens(os.path.join(ROOT, "samples", TEXT))
        v64 = run(m, toks, np.float64)
        v32 = run(Float32Model(m), toks, np.float32).astype(np.float64)
        qn = names_of(m)
        q, i = worst(v32 - v64, v64)
        print("%s: %d steps; numpy float32 strays up to %.2g of max(1, |ref|) (%s at step %d, "
              "unit %d: %.6g); the largest |%s| %.4g"
              % (name, len(toks), q, qn[i[2]], i[0], i[3], v64[i], qn[-2],
                 np.abs(v64[:, :, -2]).max()))
        try:
            st = torch_states(m, toks)
        except ImportError:
            st = None
        if st is not None:
            states = v64[:, :, -st.shape[2]:]
            q, i = worst(st - states, states)
            d = np.abs(st - states)
            j = np.unravel_index(np.argmax(d), d.shape)
            print("%s: PyTorch float32 strays up to %.2g of max(1, |ref|) (step %d, unit %d: "
                  "%.6g); largest difference %.2g (step %d, unit %d: %.6g)"
                  % (name, q, i[0], i[3], states[i], d[j], j[0], j[3], states[j]))
        write(os.path.join(OUT, name + ".ref.gz"), name, m, toks, v64, v32)


if __name__ == "__main__":
    main()
