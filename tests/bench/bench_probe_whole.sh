#!/bin/sh
# The whole of `gatetui --probe` (one process: reading the model and text, the run, the
# folds' fits, each fold's best unit, the fit on every step, units_for_95's fits) against
# scikit-learn doing the same work (tests/bench/probe_whole_sklearn.py: the same folds,
# standardisation, lambda, refits and tolerance 1e-8; its lbfgs and newton-cholesky
# solvers), the peer's signal computed by PyTorch and timed apart. Both results' mean AUC
# and units_for_95 printed side by side; the ratio is the faster solver's fits alone (its
# signal not counted) over gatetui's whole process. Twice: one thread each
# (OPENBLAS_NUM_THREADS=1, GATETUI_THREADS=1), then every processor each. Medians of REPS,
# the two taking turns. The share of the FMA peak the fit reaches is
# tests/bench/bench_probe.sh's. Needs Debian's python3-sklearn and python3-torch
# (/usr/bin/python3). Not part of make check.
#   tests/bench/bench_probe_whole.sh [MODEL [REGEX [STEPS [REPS]]]]
set -e
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/bench/machine.sh"
machine_line "$top/gatetui"
model=${1:-$top/samples/kjv-lstm.bin}
regex=${2:-'[A-Z][a-z]+'}
steps=${3:-20000}
reps=${4:-5}
text=$top/samples/kjv-valid.txt
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf '%s, "%s", the first %s steps of kjv-valid.txt, 5 folds, l2 0.001; medians of %s\n' \
    "$(basename "$model")" "$regex" "$steps" "$reps"
now() { date +%s.%N; }
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
all=$(getconf _NPROCESSORS_ONLN)
for threads in 1 "$all"; do
    [ "$threads" = 1 ] || [ "$all" -gt 1 ] || break
    export OPENBLAS_NUM_THREADS=$threads OMP_NUM_THREADS=$threads GATETUI_THREADS=$threads
    printf '\n%s thread(s) each; load average %s\n' "$threads" "$(cut -d' ' -f1-3 /proc/loadavg)"
    : >"$work/ours"
    : >"$work/peer"
    i=0
    while [ "$i" -lt "$reps" ]; do
        t0=$(now)
        "$top/gatetui" --probe "$regex" --steps "$steps" --json "$model" "$text" \
            >"$work/json" 2>/dev/null
        t1=$(now)
        echo "$t1 - $t0" | bc -l >>"$work/ours"
        /usr/bin/python3 "$top/tests/bench/probe_whole_sklearn.py" "$model" "$text" "$regex" \
            "$steps" 5 0.001 1 >>"$work/peer"
        i=$((i + 1))
    done
    ours=$(median <"$work/ours")
    set -- $(/usr/bin/python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
print("%.6f %d" % (d["auc"], d["units_for_95"]))' "$work/json")
    printf 'gatetui, the whole process: %.3f s (mean AUC %s, units_for_95 %s)\n' "$ours" "$1" "$2"
    best=
    for solver in lbfgs newton-cholesky; do
        fits=$(awk -v s="$solver" '$1 == s { print $2 }' "$work/peer" | median)
        feats=$(awk -v s="$solver" '$1 == s { print $3 }' "$work/peer" | median)
        set -- $(awk -v s="$solver" '$1 == s { a = $4; k = $5 } END { print a, k }' "$work/peer")
        printf 'scikit-learn %s: its fits %.3f s, its signal by PyTorch %.3f s (mean AUC %s, units_for_95 %s)\n' \
            "$solver" "$fits" "$feats" "$1" "$2"
        if [ -z "$best" ] || [ "$(echo "$fits < $best" | bc -l)" = 1 ]; then best=$fits; fi
    done
    printf 'ratio (the faster solver'"'"'s fits alone / gatetui'"'"'s whole process): %.2f\n' \
        "$(echo "$best / $ours" | bc -l)"
done
