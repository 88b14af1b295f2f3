#!/bin/sh
# The benchmark: gatetui against PyTorch on the same models and text, in one run. It prints
# one stream's median characters per second and their ratios to nn.LSTM/nn.GRU and to a
# hand loop, the bytes of weights read per second and what this machine's caches deliver
# (tests/bench/probe.c); the report against batched PyTorch and its share of the FMA peak;
# the screen's background pass with one, two and an adaptive number of threads
# (tests/bench/bench_pass.c); the Jacobian against PyTorch (tests/bench/bench_jacobian.sh);
# and the memory used for a 10 MB text (/usr/bin/time). Needs
# Debian's python3-torch (/usr/bin/python3). Not part of make check: the machines are
# shared and noisy, so it prints medians and ratios, never a pass or fail.
# Usage: tests/bench/bench.sh [THREADS]   (run from a configured and built tree)
set -e
top=$(cd "$(dirname "$0")/../.." && pwd)
threads=${1:-1}
py=/usr/bin/python3
# Debian's PyTorch multiplies through OpenBLAS, whose threads torch.set_num_threads does
# not set: without this, a one-thread run of PyTorch still uses every processor.
export OPENBLAS_NUM_THREADS=$threads OMP_NUM_THREADS=$threads
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cc=${CC:-cc}
"$cc" -O2 -I"$top" -I"$top/include" -I"$top/src" "$top/tests/bench/bench_step.c" "$top/libgatetui.a" \
    $(pkg-config --libs jansson zlib arpack lapacke blas) -lm -lpthread -o "$work/bench_step"
"$cc" -O2 -I"$top" -I"$top/include" -I"$top/src" "$top/tests/bench/bench_pass.c" "$top/libgatetui.a" \
    $(pkg-config --libs jansson zlib arpack lapacke blas) -lm -lpthread -o "$work/bench_pass"
"$cc" -O2 "$top/tests/bench/probe.c" -lpthread -o "$work/probe"
text="$top/samples/kjv-valid.txt"
[ -f "$text" ] || { echo "bench: $text missing"; exit 1; }
"$py" "$top/tests/bench/make_random.py" "$work/lstm1024.bin" lstm 1024 96
"$py" "$top/tests/bench/make_random.py" "$work/gru1024.bin" gru 1024 96
# a plain RNN of the same weights per step as lstm1024 (2048^2 = 4 x 1024^2)
"$py" "$top/tests/bench/make_random.py" "$work/rnn2048.bin" rnn 2048 96
. "$top/tests/bench/machine.sh"
machine_line "$top/gatetui"
printf 'threads: %s (PyTorch the same); kernels: %s\n' "$threads" \
    "$(GATETUI_THREADS=$threads "$work/bench_step" --kernels 2>/dev/null || echo auto)"
set -- $("$work/probe" bw 256k 1m 8m 256m)
printf 'one core reads (GB/s): %s from 256 KB (L2), %s from 1 MB, %s from 8 MB (L3), %s from 256 MB (memory)\n' "$@"
bw_l2=$1 bw_1m=$2 bw_l3=$3 bw_mem=$4
printf '%-14s %6s %9s %9s %9s %7s %7s %7s %s\n' model steps gatetui nn.LSTM hand-loop vs-nn vs-hand 'GB/s' 'weights per step'
for spec in "samples/kjv-lstm.bin 20000" "samples/kjv-gru.bin 20000" "samples/kjv-rnn.bin 20000" \
    "lstm1024.bin 3000" "gru1024.bin 3000" "rnn2048.bin 3000"; do
    set -- $spec
    model="$top/$1"
    [ -f "$model" ] || model="$work/$1"
    [ -f "$model" ] || continue
    set -- "$1" "$2" $(GATETUI_THREADS=$threads "$work/bench_step" "$model" "$text" 5 "$2" 2>/dev/null)
    g=$3 bytes=$4
    nn=$("$py" "$top/tests/bench/bench_torch.py" "$model" "$text" 3 "$2" "$threads" | sed -n 's/^nn //p')
    hand=$("$py" "$top/tests/bench/bench_torch.py" "$model" "$text" 3 "$(($2 / 4))" "$threads" | sed -n 's/^hand //p')
    kb=$((bytes / 1024))
    if [ "$bytes" -le 786432 ]; then lim="L2 $bw_l2"
    elif [ "$bytes" -le 1048576 ]; then lim="1 MB $bw_1m"
    elif [ "$bytes" -le 16777216 ]; then lim="L3 $bw_l3"
    else lim="memory $bw_mem"; fi
    printf '%-14s %6s %9s %9s %9s %6.1fx %6.1fx %7.1f %s KB (%s GB/s)\n' "$(basename "$1")" "$2" "$g" "$nn" "$hand" \
        "$(echo "$g / $nn" | bc -l)" "$(echo "$g / $hand" | bc -l)" "$(echo "$g * $bytes / 1000000000" | bc -l)" \
        "$kb" "$lim"
done
# the report against the batched float32 PyTorch implementation (tests/bench/
# bench_report_torch.sh, medians of 3); the H = 1024 models on 2 windows of 128 (their
# report is 16 times the work of the samples' a window)
printf '\nthe report (gatetui --report) against batched PyTorch:\n'
for spec in "samples/kjv-lstm.bin" "samples/kjv-gru.bin" "samples/kjv-rnn.bin" "lstm1024.bin --windows 2" \
    "gru1024.bin --windows 2"; do
    set -- $spec
    model="$top/$1"
    [ -f "$model" ] || model="$work/$1"
    shift
    GATETUI_THREADS=$threads "$top/tests/bench/bench_report_torch.sh" "$model" "$text" 3 "$@" |
        grep -E '^(model|ratio|matrix|float32)' | sed 's/^/  /'
done
printf '\n'

# the Jacobian for K = 32 against PyTorch in double (tests/bench/bench_jacobian.sh, medians
# of 3 rounds)
printf 'the Jacobian (gatetui --jacobian, K = 32) against PyTorch in double:\n'
for model in "$top/samples/kjv-lstm.bin" "$top/samples/kjv-gru.bin"; do
    GATETUI_THREADS=$threads "$top/tests/bench/bench_jacobian.sh" "$model" "$text" 1000 32 0 3 |
        grep -E '^(model|gatetui|PyTorch|ratio|products)' | sed 's/^/  /'
done
printf '\n'

# the screen's background pass over the training text: one thread, two, and the adaptive
# choice it makes by itself (medians of 3)
med3() { sort -n | sed -n 2p; }
printf 'the background pass, kjv-lstm.bin over kjv-train.txt (steps/s):'
for th in 1 2 0; do
    v=$(for i in 1 2 3; do GATETUI_THREADS=$th "$work/bench_pass" "$top/samples/kjv-lstm.bin" \
        "$top/samples/kjv-train.txt"; done | med3)
    case $th in 0) printf ' adaptive %s\n' "$v" ;; *) printf ' %s thread(s) %s,' "$th" "$v" ;; esac
done

# memory for a 10 MB text: the training text repeated (28 times, 10,253,432 bytes), the
# sample LSTM, the peak resident size of each mode that reads the whole text
big="$work/big.txt"
i=0
while [ $i -lt 28 ]; do cat "$top/samples/kjv-train.txt"; i=$((i + 1)); done >"$big"
steps=$("$top/gatetui" --export - --step 0 "$top/samples/kjv-lstm.bin" "$big" 2>/dev/null |
    sed -n 's/.*, \([0-9]*\) steps.*/\1/p' | head -1)
last=$((steps - 1))
rss() { # peak resident KB of "$@" (output discarded)
    /usr/bin/time -f %M -o "$work/rss" "$@" >/dev/null 2>&1 || echo "# failed: $*" >&2
    cat "$work/rss"
}
printf 'memory, sample LSTM, a %s-byte text of %s steps (peak resident):\n' "$(wc -c <"$big")" "$steps"
for mode in "--report" "--dump --from $((last - 10)) --to $last" "--export - --step $last"; do
    printf '  gatetui %-36s %6d MB\n' "$mode" "$(($(rss "$top/gatetui" $mode "$top/samples/kjv-lstm.bin" "$big") / 1024))"
done
printf 'load average after: %s\n' "$(cut -d' ' -f1-3 /proc/loadavg)"
