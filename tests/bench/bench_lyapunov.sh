#!/bin/sh
# gatetui --lyapunov against its PyTorch float64 peer (tests/bench/lyapunov_torch.py) on the
# same work: the sample models over kjv-valid.txt, 32 modes, 5,000 steps; the exponents
# checked equal (tests/lib/reportcmp, 1e-6), the medians of RUNS runs (default 3) of each, one
# after the other, and their ratio printed (the peer's time is its spectrum alone, without
# loading), with the share of the double FMA peak reached. Then the median of RUNS times of
# --spectrum at H = 256 (the sample LSTM's state: 512 numbers), and of the derivative view's
# eigenvalues at the same step (tests/bench/bench_spectrum.c). Run from the build directory:
# sh tests/bench/bench_lyapunov.sh
top=${top_srcdir:-.}
py=${PYTHON:-/usr/bin/python3}
runs=${RUNS:-3}
out=$(mktemp -d) || exit 1
trap 'rm -rf "$out"' EXIT
now() { date +%s.%N; }
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
. "$top/tests/bench/machine.sh"
machine_line ./gatetui
for m in kjv-lstm kjv-gru; do
    : >"$out/g.times"
    : >"$out/t.times"
    same=equal
    for r in $(seq "$runs"); do
        a=$(now)
        ./gatetui --lyapunov --json "$top/samples/$m.bin" "$top/samples/kjv-valid.txt" >"$out/g.json" || exit 1
        b=$(now)
        echo "$a $b" | awk '{ print $2 - $1 }' >>"$out/g.times"
        $py "$top/tests/bench/lyapunov_torch.py" "$top/samples/$m.bin" "$top/samples/kjv-valid.txt" \
            >"$out/t.json" 2>>"$out/t.times" || exit 1
        ./tests/lib/reportcmp --tol 1e-6,0 "$out/t.json" "$out/g.json" >"$out/diff" 2>&1 ||
            same="DIFFERENT: $(cat "$out/diff")"
    done
    g=$(median <"$out/g.times")
    t=$(median <"$out/t.times")
    awk -v g="$g" -v t="$t" -v m="$m" -v s="$same" -v r="$runs" -v all="$(paste -sd/ "$out/g.times") against $(paste -sd/ "$out/t.times")" \
        'BEGIN { printf "%s  --lyapunov %.2f s, PyTorch float64 %.2f s (medians of %d: %s): %.1fx (exponents %s)\n", m, g, t, r, all, t / g, s }'
    # the products of a step: an LSTM's W_hh (4H x H) times the M tangents' h part, a GRU's
    # or an RNN's J (H x H) times the tangents; and the Cholesky QR twice (two Gram matrices
    # and two triangular solves, n M^2 each)
    flop=$($py - "$top/samples/$m.bin" "$out/g.json" "$top/tests/ref" <<'PY'
import json, sys
sys.path.insert(0, sys.argv[3])
from report_ref import Model
m, r = Model(sys.argv[1]), json.load(open(sys.argv[2]))
H, M, N = m.H, r["modes"], r["steps"]
n = 2 * H if m.arch == "lstm" else H
print(N * ((2 * 4 * H * H * M if m.arch == "lstm" else 2 * n * n * M) + 4 * n * M * M))
PY
)
    printf '%s  ' "$m"
    peak_share double "$flop" "$g" "$([ "$(nproc)" -gt 1 ] && echo 2 || echo 1)" "$out" # two threads at most
done
: >"$out/s.times"
for r in $(seq "$runs"); do
    a=$(now)
    ./gatetui --spectrum --step 2000 "$top/samples/kjv-lstm.bin" "$top/samples/kjv-valid.txt" >/dev/null || exit 1
    b=$(now)
    echo "$a $b" | awk '{ print $2 - $1 }' >>"$out/s.times"
done
awk -v s="$(median <"$out/s.times")" -v r="$runs" 'BEGIN { printf "kjv-lstm  --spectrum --step 2000 (H = 256, 512 x 512): %.0f ms (median of %d, loading and the 2,000 steps in double included)\n", s * 1000, r }'
# what the derivative view computes at its cursor: the eigenvalues from the traced state
${CC:-cc} -O2 -I"$top" -I"$top/include" -I"$top/src" "$top/tests/bench/bench_spectrum.c" ./libgatetui.a \
    $(pkg-config --libs jansson zlib arpack) -llapacke -llapack -lblas -lm -lpthread -ldl -o "$out/bench_spectrum" || exit 1
for m in kjv-lstm kjv-gru; do
    printf '%s  the screen'"'"'s eigenvalues at step 2000: %s\n' "$m" \
        "$("$out/bench_spectrum" "$top/samples/$m.bin" "$top/samples/kjv-valid.txt" 2000 11 | sed -n 2p)"
done
