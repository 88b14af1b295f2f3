#!/bin/sh
# Two builds side by side, for a change that must not cost speed: stepping one stream
# (tests/bench/bench_step.c, built from each tree's own source and library: 10 passes of
# 20000 steps) and the report (gatetui --report --json), on the sample models over the
# validation text, run in turns A B A B ... so that both see the same load. Each is timed
# in processor seconds (user + system, /usr/bin/time), which a loaded machine disturbs
# less than the wall clock; stepping also as bench_step's characters per second (the
# median pass, wall clock), the measure that counts with more than one thread, whose
# workers spin while they wait. Prints each side's median and the ratio B / A. Not part of
# make check: the machines are shared and noisy, so it prints medians and ratios, never a
# pass or fail.
# Usage: tests/bench/bench_ab.sh TREE_A TREE_B [ROUNDS] [THREADS]
#   TREE_A, TREE_B: built trees (./build.sh), e.g. the source of the commit before a change
#   (git archive REV | tar -x -C DIR; cd DIR; ./build.sh) and the working tree.
set -e
[ $# -ge 2 ] || { echo "usage: $0 TREE_A TREE_B [ROUNDS] [THREADS]" >&2; exit 2; }
a=$(cd "$1" && pwd) b=$(cd "$2" && pwd)
rounds=${3:-7}
export GATETUI_THREADS="${4:-1}"
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/bench/machine.sh"
machine_line "$top/gatetui"
text="$top/samples/kjv-valid.txt"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for side in a b; do
    eval "t=\$$side"
    "${CC:-cc}" -O2 -I"$t" -I"$t/include" -I"$t/src" "$t/tests/bench/bench_step.c" "$t/libgatetui.a" \
        $(pkg-config --libs jansson zlib arpack lapacke blas) -lm -lpthread -o "$work/step_$side"
done
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
secs() { # processor seconds of "$@", its output in $work/out
    /usr/bin/time -f '%U %S' -o "$work/time" "$@" >"$work/out" 2>/dev/null
    awk '{ printf "%.3f\n", $1 + $2 }' "$work/time"
}
printf '%s; threads %s; %s rounds A B A B ...\n' "$(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //')" \
    "$GATETUI_THREADS" "$rounds"
printf '%-34s %12s %12s %8s\n' measure A B B/A
for model in kjv-lstm kjv-gru; do
    m="$top/samples/$model.bin"
    : >"$work/sa" && : >"$work/sb" && : >"$work/ra" && : >"$work/rb" && : >"$work/wa" && : >"$work/wb"
    i=0
    while [ $i -lt "$rounds" ]; do
        for side in a b; do
            eval "t=\$$side"
            secs "$work/step_$side" "$m" "$text" 10 20000 >>"$work/s$side"
            cut -d' ' -f1 "$work/out" >>"$work/w$side"
            secs "$t/gatetui" --report --json "$m" "$text" >>"$work/r$side"
        done
        i=$((i + 1))
    done
    sa=$(median <"$work/sa") sb=$(median <"$work/sb") ra=$(median <"$work/ra") rb=$(median <"$work/rb")
    wa=$(median <"$work/wa") wb=$(median <"$work/wb")
    printf '%-34s %12.0f %12.0f %8.3f\n' "$model: stepping (chars/s, wall)" "$wa" "$wb" "$(echo "$wb / $wa" | bc -l)"
    printf '%-34s %12.3f %12.3f %8.3f\n' "$model: stepping (processor s)" "$sa" "$sb" "$(echo "$sb / $sa" | bc -l)"
    printf '%-34s %12.3f %12.3f %8.3f\n' "$model: --report (processor s)" "$ra" "$rb" "$(echo "$rb / $ra" | bc -l)"
    # the shares of the float32 FMA peak, by processor time: the stepping's products (2 G H H
    # a layer and step, as many again for W_ih above layer 0; 10 passes of 20,000 steps) and
    # the report's
    "$b/gatetui" --report --json "$m" "$text" >"$work/r.json"
    fs=$(${PYTHON:-/usr/bin/python3} -c 'import json, sys
m = json.load(open(sys.argv[1]))["model"]
G = {"lstm": 4, "gru": 3, "rnn": 1}[m["arch"]]
print(200000 * sum(2 * G * m["hidden"] ** 2 * (2 if k else 1) for k in range(m["layers"])))' "$work/r.json")
    fr=$(report_flop "$work/r.json")
    for side in a b; do
        eval "s=\$s$side; r=\$r$side"
        printf '%s: %s stepping: ' "$model" "$side"
        peak_share float32 "$fs" "$s" 1 "$work"
        printf '%s: %s --report: ' "$model" "$side"
        peak_share float32 "$fr" "$r" 1 "$work"
    done
done
