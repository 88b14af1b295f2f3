#!/bin/sh
# The stepping benchmark: gatetui's engine against PyTorch on the same model and text, in
# one run, printing median characters per second and their ratios. Needs Debian's
# python3-torch (/usr/bin/python3). Not part of make check: the machines are shared and
# noisy, so it prints medians and ratios, never a pass or fail.
# Usage: tests/bench/bench.sh [THREADS]   (run from a configured and built tree)
set -e
top=$(cd "$(dirname "$0")/../.." && pwd)
threads=${1:-1}
py=/usr/bin/python3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cc=${CC:-cc}
"$cc" -O2 -I"$top" -I"$top/include" "$top/tests/bench/bench_step.c" "$top/libgatetui.a" \
    $(pkg-config --libs jansson) -lm -lpthread -o "$work/bench_step"
text="$top/samples/kjv-valid.txt"
[ -f "$text" ] || { echo "bench: $text missing"; exit 1; }
"$py" "$top/tests/bench/make_random.py" "$work/lstm1024.bin" lstm 1024 96
"$py" "$top/tests/bench/make_random.py" "$work/gru1024.bin" gru 1024 96
printf 'threads: %s; kernels: %s\n' "$threads" "$(GATETUI_THREADS=$threads "$work/bench_step" --kernels 2>/dev/null || echo auto)"
printf '%-22s %6s %10s %10s %10s %8s %8s\n' model steps gatetui nn.forward hand-loop vs-nn vs-hand
for spec in "samples/kjv-lstm.bin 20000" "samples/kjv-gru.bin 20000" "lstm1024.bin 3000" "gru1024.bin 3000"; do
    set -- $spec
    model="$top/$1"
    [ -f "$model" ] || model="$work/$1"
    [ -f "$model" ] || continue
    g=$(GATETUI_THREADS=$threads "$work/bench_step" "$model" "$text" 5 "$2" 2>/dev/null)
    nn=$("$py" "$top/tests/bench/bench_torch.py" "$model" "$text" 3 "$2" "$threads" | sed -n 's/^nn //p')
    hand=$("$py" "$top/tests/bench/bench_torch.py" "$model" "$text" 3 "$(($2 / 4))" "$threads" | sed -n 's/^hand //p')
    printf '%-22s %6s %10s %10s %10s %7.1fx %7.1fx\n' "$(basename "$1")" "$2" "$g" "$nn" "$hand" \
        "$(echo "$g / $nn" | bc -l)" "$(echo "$g / $hand" | bc -l)"
done
