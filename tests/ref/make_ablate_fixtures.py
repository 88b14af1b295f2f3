#!/usr/bin/python3
"""Makes tests/fixtures/ablate/: the float64 reference, by PyTorch's autograd, of the step's
derivative with units ablated (doc/measures.md, "Interventions": their c and h set to 0
after every step), at the size users run it: the sample LSTM and GRU over
samples/kjv-valid.txt,

    gatetui --jacobian --json --step T --lag K --unit J --ablate 0:J MODEL TEXT
    gatetui --spectrum --json --step T --ablate 0:J MODEL TEXT

which tests/cli/ablate.sh holds gatetui to.

    /usr/bin/python3 tests/ref/make_ablate_fixtures.py

The map of a step is s -> Z(step(s)), Z setting the ablated units' c and h to 0 (not the
program's way of ablating, which zeroes the units' candidate rows of the weights: the same
values from the zero state, not the same derivative). The weights are the file's
(report_ref.Model, in numpy), the step is written in torch (float64) and differentiated by
torch.autograd.functional.jacobian; the text runs from the start in float64.
  --jacobian: J(T-k, k) = dc_T / dc_(T-k) (a GRU: dh_T / dh_(T-k)), c_(T-k) the variable,
      h_(T-k) = Z(o_(T-k) tanh c_(T-k)) following it (o as it was), then steps T-k+1..T;
      the carry line C(T-k, k) the product of the steps' d Z(f c) / dc with the gates held,
      diag(f) with the ablated units' f 0 (z for a GRU).
  --spectrum: the eigenvalues (numpy's eigvals) of ds_T / ds_(T-1), s = (c, h) or h, by
      modulus (conjugates: the positive imaginary part first); the carry line's step sorted.
Not --lyapunov: from Q_0, the identity's first M columns, the tangents never move an ablated
unit's coordinates when they are not among them (even with its rows diag(f) rather than 0, c_j
reads itself alone), and when they are, the tangent on them is lost (ln R_ii = -inf), which
leaves the reference's bound on the others' rounding without meaning.
Needs torch (Debian's python3-torch) and numpy; about 20 s.
"""
import argparse
import json
import math
import os
import sys

from samples_ref import TEXT, fixtures, model_path  # before numpy: its BLAS on one thread
import numpy as np  # noqa: E402
import torch  # noqa: E402

from report_ref import Model  # noqa: E402

torch.set_default_dtype(torch.float64)

# name, sample, step T, lag K, the ablated units of layer 0 (the first is --unit; None: the
# unit whose carry gate is largest at step T), the GRU's reset ("before": --gru-reset before,
# the sample read as Cho et al.'s GRU, whose derivative's rows are formed otherwise)
CASES = [
    ("kjv-lstm", "kjv-lstm", 1000, 4, [69], None),
    ("kjv-lstm-3", "kjv-lstm", 2000, 6, [69, 3, 200], None),
    ("kjv-gru", "kjv-gru", 1000, 4, [None], None),
    ("kjv-gru-before", "kjv-gru", 1500, 5, [None, 7], "before"),
]


class Cell:
    """Layer 0 of model m in torch, with the units `ablated` held at 0 after every step."""

    def __init__(self, m, ablated):
        assert m.L == 1, "the samples have one layer"
        self.m = m
        self.H = m.Hs[0]
        self.w_ih, self.w_hh, self.b_ih, self.b_hh = (torch.tensor(a) for a in m.layers[0])
        self.keep = torch.ones(self.H)
        self.keep[ablated] = 0.0

    def x(self, tok):
        return torch.tensor(self.m.x0([tok])[0])

    def step(self, tok, c, h):
        """(c, h) after reading tok from (c, h), and the gates after their nonlinearity."""
        H, x = self.H, self.x(tok)
        gi = self.w_ih @ x + self.b_ih
        if self.m.arch == "lstm":
            a = gi + self.w_hh @ h + self.b_hh
            i, f = torch.sigmoid(a[:H]), torch.sigmoid(a[H:2 * H])
            g, o = torch.tanh(a[2 * H:3 * H]), torch.sigmoid(a[3 * H:])
            c = (f * c + i * g) * self.keep
            return c, o * torch.tanh(c) * self.keep, (i, f, g, o)
        gh = self.w_hh @ h + self.b_hh
        r = torch.sigmoid(gi[:H] + gh[:H])
        z = torch.sigmoid(gi[H:2 * H] + gh[H:2 * H])
        if self.m.before:  # the reset before W_hn: W_hn (r h) + b_hn
            n = torch.tanh(gi[2 * H:] + self.w_hh[2 * H:] @ (r * h) + self.b_hh[2 * H:])
        else:
            n = torch.tanh(gi[2 * H:] + r * gh[2 * H:])
        return c, ((1.0 - z) * n + z * h) * self.keep, (r, z, n)

    def carry(self, gates):
        """The carry line's step: d Z(f c) / dc (a GRU: d Z(z h) / dh) with the gates held,
        its diagonal."""
        f = gates[1].detach()
        return torch.autograd.functional.jacobian(lambda c: f * c * self.keep,
                                                  torch.zeros(self.H)).diagonal()

    def state_map(self, tok):
        """s -> Z(step(s)) on the state s = (c, h) (an LSTM) or h."""
        H = self.H

        def fn(s):
            if self.m.arch == "lstm":
                c, h, _ = self.step(tok, s[:H], s[H:])
                return torch.cat([c, h])
            return self.step(tok, torch.zeros(H), s)[1]
        return fn


def run(cell, toks, upto):
    """The states (c, h) after steps 0..upto-1 (from the zero state), and each step's gates:
    states[t] is the state before step t."""
    c, h = torch.zeros(cell.H), torch.zeros(cell.H)
    states, gates = [], []
    with torch.no_grad():
        for t in range(upto + 1):
            states.append((c, h))
            c, h, g = cell.step(toks[t], c, h)
            gates.append(g)
    states.append((c, h))
    return states, gates


def jacobian(cell, toks, T, K, unit):
    """--jacobian --json's object: J(T-k, k), k = 1..K, by autograd."""
    states, gates = run(cell, toks, T)
    lstm = cell.m.arch == "lstm"
    carry = torch.ones(cell.H)
    lags = []
    for k in range(1, K + 1):
        carry = carry * cell.carry(gates[T - k + 1])
        o = gates[T - k][3] if lstm else None

        def fn(v, k=k, o=o):
            # v: c_(T-k) (h following it) or h_(T-k)
            c, h = (v, o * torch.tanh(v) * cell.keep) if lstm else (torch.zeros(cell.H), v)
            for p in range(T - k + 1, T + 1):
                c, h, _ = cell.step(toks[p], c, h)
            return c if lstm else h
        s = states[T - k + 1]  # the state after step T-k
        J = torch.autograd.functional.jacobian(fn, s[0] if lstm else s[1],
                                               vectorize=True).numpy()
        frob = float(np.linalg.norm(J))
        lags.append({"k": k, "frob": frob, "carry_frob": float(torch.linalg.norm(carry)),
                     "diag_share": float(np.linalg.norm(np.diag(J)) / frob) if frob > 0 else None,
                     "unit": {"diag": float(J[unit, unit]), "row": float(np.linalg.norm(J[unit])),
                              "carry": float(carry[unit])}})
    return {"step": T, "layer": 0, "unit": unit, "lags": lags}


def step_jacobian(cell, tok, state):
    c, h = state
    s = torch.cat([c, h]) if cell.m.arch == "lstm" else h
    return torch.autograd.functional.jacobian(cell.state_map(tok), s, vectorize=True).numpy()


def spectrum(cell, toks, T):
    """--spectrum --json's object: the eigenvalues of ds_T / ds_(T-1)."""
    states, gates = run(cell, toks, T)
    w = np.linalg.eigvals(step_jacobian(cell, toks[T], states[T]))
    w = sorted(w, key=lambda z: (abs(z), z.imag, z.real), reverse=True)
    ev = [{"re": float(z.real), "im": float(z.imag), "abs": float(abs(z)),
           "halflife": math.log(0.5) / math.log(abs(z)) if 0 < abs(z) < 1 else
           (0.0 if abs(z) == 0 else None)} for z in w]
    carry = sorted(cell.carry(gates[T]).tolist(), reverse=True)
    return {"step": T, "layer": 0, "eigenvalues": ev, "carry_sorted": carry}


def carried_most(m, toks, T):
    """The unit whose carry gate is largest at step T of the run without ablation (the
    ablated derivative differs from the program's unablated one the most there)."""
    cell = Cell(m, [])
    _, gates = run(cell, toks, T)
    return int(torch.argmax(gates[T][1]))


def write(out, name, obj):
    with open(os.path.join(out, name), "w") as f:
        json.dump(obj, f, indent=1)
        f.write("\n")


def main():
    argparse.ArgumentParser(description=__doc__.split("\n")[0]).parse_args()
    out = fixtures("ablate")
    man = ["# name, sample, step, lag, units ablated in layer 0 (the first --unit), options; made "
           "by tests/ref/make_ablate_fixtures.py"]
    for name, sample, T, K, units, reset in CASES:
        m = Model(model_path(sample), gru_reset=reset)
        toks = m.tokens(TEXT)
        units = [carried_most(m, toks, T) if u is None else u for u in units]
        cell = Cell(m, units)
        write(out, name + ".jacobian.json", jacobian(cell, toks, T, K, units[0]))
        write(out, name + ".spectrum.json", spectrum(cell, toks, T))
        man.append("%s %s %d %d %s%s" % (name, sample, T, K, ",".join(map(str, units)),
                                         " --gru-reset " + reset if reset else ""))
        sys.stderr.write("%s: units %s ablated\n" % (name, units))
    with open(os.path.join(out, "MANIFEST"), "w") as f:
        f.write("\n".join(man) + "\n")


if __name__ == "__main__":
    main()
