#!/bin/sh
# gatetui --lyapunov against its PyTorch float64 peer (tests/bench/lyapunov_torch.py) on the
# same work: the sample models over kjv-valid.txt, 32 modes, 5,000 steps; the exponents
# checked equal (tests/reportcmp, 1e-6), the ratio of the times printed (the peer's time is
# its spectrum alone, without loading). Then --spectrum's time at H = 256 (the sample LSTM's
# state: 512 numbers). Run from the build directory: sh tests/bench/bench_lyapunov.sh
top=${top_srcdir:-.}
py=${PYTHON:-/usr/bin/python3}
out=$(mktemp -d) || exit 1
trap 'rm -rf "$out"' EXIT
now() { date +%s.%N; }
. "$top/tests/bench/machine.sh"
machine_line ./gatetui
for m in kjv-lstm kjv-gru; do
    a=$(now)
    ./gatetui --lyapunov --json "$top/samples/$m.bin" "$top/samples/kjv-valid.txt" >"$out/g.json" || exit 1
    b=$(now)
    $py "$top/tests/bench/lyapunov_torch.py" "$top/samples/$m.bin" "$top/samples/kjv-valid.txt" \
        >"$out/t.json" 2>"$out/t.time" || exit 1
    if ./tests/reportcmp --tol 1e-6,0 "$out/t.json" "$out/g.json" >"$out/diff" 2>&1; then same=equal; else same="DIFFERENT: $(cat "$out/diff")"; fi
    awk -v a="$a" -v b="$b" -v t="$(cat "$out/t.time")" -v m="$m" -v s="$same" \
        'BEGIN { printf "%s  --lyapunov %.2f s, PyTorch float64 %.2f s: %.1fx (exponents %s)\n", m, b - a, t, t / (b - a), s }'
done
a=$(now)
./gatetui --spectrum --step 2000 "$top/samples/kjv-lstm.bin" "$top/samples/kjv-valid.txt" >/dev/null || exit 1
b=$(now)
awk -v a="$a" -v b="$b" 'BEGIN { printf "kjv-lstm  --spectrum --step 2000 (H = 256, 512 x 512): %.0f ms\n", (b - a) * 1000 }'
