#!/bin/sh
# gatetui --fixed-points against its PyTorch float64 peer (tests/bench/fixed_torch.py: every
# start at once, the batch's Jacobians written out, torch.linalg.solve on the batch) on the
# same work: the sample models under a held space, the same starts (STARTS, default 16, from
# the first 5,000 steps of kjv-valid.txt); the points checked equal (tests/lib/reportcmp, 1e-6),
# the median of RUNS runs (default 3) of each and their ratio printed (the peer's time is
# from its run's start to its points, without loading), and the share of the double FMA
# peak reached by the Newton steps' solves. Run from the build directory:
#     sh tests/bench/bench_fixed.sh
top=${top_srcdir:-.}
. "$top/tests/bench/machine.sh"
machine_line "$top/gatetui"
py=${PYTHON:-/usr/bin/python3}
starts=${STARTS:-16}
runs=${RUNS:-3}
out=$(mktemp -d) || exit 1
trap 'rm -rf "$out"' EXIT
now() { date +%s.%N; }
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
for m in kjv-lstm kjv-gru; do
    : >"$out/g.times"
    : >"$out/t.times"
    i=0
    while [ $i -lt "$runs" ]; do
        a=$(now)
        ./gatetui --fixed-points ' ' --starts "$starts" --json "$top/samples/$m.bin" \
            "$top/samples/kjv-valid.txt" >"$out/g.json" || exit 1
        b=$(now)
        echo "$a $b" | awk '{ print $2 - $1 }' >>"$out/g.times"
        $py "$top/tests/bench/fixed_torch.py" "$top/samples/$m.bin" "$top/samples/kjv-valid.txt" \
            --char ' ' --starts "$starts" >"$out/t.json" 2>>"$out/t.times" || exit 1
        i=$((i + 1))
    done
    if ./tests/lib/reportcmp --tol 1e-6,0 "$out/t.json" "$out/g.json" >"$out/diff" 2>&1; then
        same=equal
    else
        same="DIFFERENT: $(head -5 "$out/diff")"
    fi
    g=$(median <"$out/g.times")
    t=$(median <"$out/t.times")
    awk -v g="$g" -v t="$t" -v m="$m" -v s="$same" -v n="$starts" -v r="$runs" \
        'BEGIN { printf "%s  --fixed-points \" \" --starts %d: %.2f s, PyTorch float64 %.2f s (medians of %d): %.2fx (points %s)\n", m, n, g, t, r, t / g, s }'
    # the Newton steps' solves (as the peer counts them: the same method from the same
    # starts), 2/3 n^3 + 2 n^2 each (the LU factorisation and its two triangular solves),
    # against the double FMA peak
    flop=$($py - "$top/samples/$m.bin" "$(tail -1 "$out/t.times" | cut -d' ' -f2)" "$top/tests/ref" <<'PY'
import sys
sys.path.insert(0, sys.argv[3])
from report_ref import Model
m = Model(sys.argv[1])
n = 2 * m.H if m.arch == "lstm" else m.H
print(int(sys.argv[2]) * (2 * n ** 3 / 3 + 2 * n * n))
PY
)
    printf '%s  the solves (%s): ' "$m" "$(tail -1 "$out/t.times" | cut -d' ' -f2)"
    peak_share double "$flop" "$g" "$([ "$(nproc)" -gt "$starts" ] && echo "$starts" || nproc)" "$out" # a start a job
done
