#!/bin/sh
# The probe's fit against scikit-learn's LogisticRegression on the same standardised data
# and lambda (1e-3): tests/bench/bench_probe.c fits with gatetui's solver and writes the
# data; tests/bench/probe_sklearn.py fits it with scikit-learn's lbfgs and newton-cholesky
# solvers; the medians of REPS, the weights' largest difference and the ratio to the
# faster of the two. Twice: both on one thread (OPENBLAS_NUM_THREADS=1, gatetui's fit on
# one), then both on every processor (the BLAS's threads, gatetui's fit on two); with the share
# of the FMA peaks gatetui's passes (double) and Hessians (float32) reached. Needs
# Debian's python3-sklearn (/usr/bin/python3). Not part of make check (the machines are
# shared and noisy).
#   tests/bench/bench_probe.sh [MODEL [REGEX [STEPS [REPS]]]]
set -e
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/bench/machine.sh"
machine_line "$top/gatetui"
model=${1:-$top/samples/kjv-lstm.bin}
regex=${2:-'[A-Z]'}
steps=${3:-100000}
reps=${4:-5}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"${CC:-cc}" -O2 -I"$top" -I"$top/include" -I"$top/src" "$top/tests/bench/bench_probe.c" \
    "$top/libgatetui.a" $(pkg-config --libs jansson zlib arpack lapacke blas) -lm -lpthread -o "$work/bench_probe"
printf '%s, "%s", the first %s steps of kjv-train.txt; medians of %s\n' \
    "$(basename "$model")" "$regex" "$steps" "$reps"
all=$(getconf _NPROCESSORS_ONLN)
for threads in 1 "$all"; do
    [ "$threads" = 1 ] || [ "$all" -gt 1 ] || break
    export OPENBLAS_NUM_THREADS=$threads OMP_NUM_THREADS=$threads THREADS=$threads
    printf '\n%s thread(s) each; load average %s\n' "$threads" "$(cut -d' ' -f1-3 /proc/loadavg)"
    set -- $("$work/bench_probe" "$model" "$top/samples/kjv-train.txt" "$regex" "$steps" "$reps" \
        "$work")
    n=$1 d=$2 ours=$3 passes=$4 hrows=$5
    printf 'gatetui (Newton, LAPACK Cholesky): %s s for %s steps x %s units\n' "$ours" "$n" "$d"
    # its passes over the rows (in double: a score and a gradient sum a row, 4 n d) and its
    # Hessians' rows (in float32: d^2 each), each at its FMA peak (tests/bench/probe.c), as
    # a share of the time taken
    [ -x "$work/probe" ] || "${CC:-cc}" -O2 "$top/tests/bench/probe.c" -lpthread -o "$work/probe"
    # (the fit's rows are cut into two parts: two threads at most)
    awk -v p="$passes" -v h="$hrows" -v n="$n" -v d="$d" -v s="$ours" \
        -v t="$([ "$threads" -gt 2 ] && echo 2 || echo "$threads")" \
        -v p64="$("$work/probe" fma64 1)" -v p32="$("$work/probe" fma 1)" 'BEGIN {
        fp = 4 * p * n * d; fh = h * d * d; at = (fp / (p64 * t) + fh / (p32 * t)) / 1e9
        printf "gatetui: %d passes (%.2f GFLOP in double), Hessians from %d rows (%.2f GFLOP in float32): %.3f s at the FMA peaks (%.1f and %.1f GFLOP/s a processor, x %d), %.0f%% of its time\n",
            p, fp / 1e9, h, fh / 1e9, at, p64, p32, t, 100 * at / s }'
    /usr/bin/python3 "$top/tests/bench/probe_sklearn.py" "$work" "$n" "$d" "$reps" >"$work/sk"
    best=
    while read -r solver secs dw; do
        printf 'scikit-learn %s: %s s, weights within %s of gatetui'"'"'s\n' "$solver" "$secs" "$dw"
        if [ -z "$best" ] || [ "$(echo "$secs < $best" | bc -l)" = 1 ]; then best=$secs; fi
    done <"$work/sk"
    printf 'ratio (the faster scikit-learn solver / gatetui): %.2f\n' "$(echo "$best / $ours" | bc -l)"
done
