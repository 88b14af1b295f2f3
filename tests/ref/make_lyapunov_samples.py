#!/usr/bin/python3
"""The Lyapunov spectrum of the sample models at the size users run it: tests/fixtures/lyapunov/
NAME.json, the float64 reference (tests/ref/dynamics_ref.py) of

    gatetui --lyapunov --json samples/NAME.bin samples/kjv-valid.txt

with the defaults (32 modes, N = 5,000, a warm-up of 100), for kjv-lstm and kjv-gru, which
tests/cli/dynamics.sh holds gatetui to.

    /usr/bin/python3 tests/ref/make_lyapunov_samples.py [NAME ...]   (default: kjv-lstm kjv-gru)

The documented formula (doc/measures.md, "The whole state's dynamics"): step 0 from the zero
state sets the state J_1 is taken from; J_t = ds_t / ds_(t-1), t = 1..N, at the text's steps
1..N; the exponents the means of ln R_t,ii over t = W+1..N. The text runs in float64 from the
model's weights (as gatetui runs it: in double, not from its float32 trace), each J_t written
out as matrices from the float64 state before the step and checked against central
differences of the step every 250 steps (the largest difference printed); numpy's QR. The
JSON carries the exponents' condition k = n max_t cond(J_t Q_(t-1)) for tests/lib/reportcmp (see
dynamics_ref.py's lyapunov). Needs only numpy; a few minutes on one processor.
"""
import argparse
import json
import os
import sys

from samples_ref import TEXT, fixtures, model_path  # before numpy: its BLAS on one thread
import dynamics_ref  # noqa: E402
from report_ref import Model  # noqa: E402


def main():
    names = sys.argv[1:] or ["kjv-lstm", "kjv-gru"]
    OUT = fixtures("lyapunov")
    for name in names:
        m = Model(model_path(name))
        a = argparse.Namespace(modes=32, steps=5000, warmup=100, layer=0, eps=1e-6, check=250)
        out = dynamics_ref.lyapunov(m, m.tokens(TEXT), a)
        with open(os.path.join(OUT, name + ".json"), "w") as f:
            json.dump(out, f, indent=1)
            f.write("\n")
        sys.stderr.write("%s: exponents %.6g .. %.6g, condition %.3g\n" % (
            name, out["exponents"][0], out["exponents"][-1], out["condition"]["exponents"]))


if __name__ == "__main__":
    main()
