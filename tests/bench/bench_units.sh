#!/bin/sh
# What --units costs: over STEPS steps (the training text repeated), in one binary
# (tests/bench/bench_units.c) the plain pass against --units and the sums alone, medians of
# REPS alternated runs and their ratios; then `gatetui --units` itself and the batched
# PyTorch computation of the same correlations (tests/bench/units_torch.py) over
# TORCH_STEPS steps, alternated, medians of TREPS, their ratio, and the two results
# compared (tests/lib/findcmp). Needs Debian's python3-torch (/usr/bin/python3). Not part of
# make check: the machines are shared and noisy, so it prints medians and ratios only, and
# the share of the float32 FMA peak the stepping's products reached.
#   tests/bench/bench_units.sh [MODEL [REGEX [STEPS [REPS [TORCH_STEPS [TREPS]]]]]]
set -e
top=$(cd "$(dirname "$0")/../.." && pwd)
model=${1:-$top/samples/kjv-lstm.bin}
regex=${2:-' '}
steps=${3:-1000000}
reps=${4:-3}
tsteps=${5:-$steps}
treps=${6:-3}
py=/usr/bin/python3
threads=${GATETUI_THREADS:-1}
export GATETUI_THREADS=$threads OPENBLAS_NUM_THREADS=$threads OMP_NUM_THREADS=$threads
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"${CC:-cc}" -O2 -I"$top" -I"$top/include" -I"$top/src" "$top/tests/bench/bench_units.c" \
    "$top/libgatetui.a" $(pkg-config --libs jansson zlib arpack lapacke blas) -lm -lpthread -o "$work/bench_units"
big="$work/text.txt"
: >"$big"
while [ "$(wc -c <"$big")" -lt $((steps + steps / 10)) ]; do cat "$top/samples/kjv-train.txt" >>"$big"; done
. "$top/tests/bench/machine.sh"
machine_line "$top/gatetui"
printf '%s, "%s", %s steps of kjv-train.txt repeated, %s thread(s)\n' \
    "$(basename "$model")" "$regex" "$steps" "$threads"
set -- $("$work/bench_units" "$model" "$big" "$regex" "$steps" "$reps")
printf 'one binary, medians of %s: plain pass %s s, --units %s s: %+.1f%%; the sums alone %s s: %.1f%% of the pass\n' \
    "$reps" "$4" "$6" "$(echo "($8 - 1) * 100" | bc -l)" "${10}" "$(echo "${12} * 100" | bc -l)"
printf 'processor time (the wall clock of a busy machine counts the waits): plain pass %s s, --units %s s: %+.1f%%\n' \
    "${14}" "${16}" "$(echo "(${18} - 1) * 100" | bc -l)"
# the stepping's matrix products: 2 G H H a layer and step (and as many for W_ih above layer
# 0; layer 0 reads its input's column), against the float32 FMA peak
flop=$("$py" - "$model" "$steps" "$top/tests/ref" <<'PY'
import sys
sys.path.insert(0, sys.argv[3])
from report_ref import Model
m = Model(sys.argv[1])
G = {"lstm": 4, "gru": 3, "rnn": 1}[m.arch]
print(int(sys.argv[2]) * sum(2 * G * m.H * m.H * (2 if k else 1) for k in range(len(m.layers))))
PY
)
printf 'the plain pass: '
peak_share float32 "$flop" "$4" "$threads" "$work"
printf 'with --units: '
peak_share float32 "$flop" "$6" "$threads" "$work"

secs() { # wall seconds of "$@", standard output to $work/last
    s=$(date +%s.%N)
    "$@" >"$work/last" 2>"$work/err"
    e=$(date +%s.%N)
    awk -v s="$s" -v e="$e" 'BEGIN { printf "%.3f\n", e - s }'
}
med() { sort -g "$1" | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
: >"$work/tg"
: >"$work/tt"
: >"$work/tp"
i=0
while [ $i -lt "$treps" ]; do
    secs "$top/gatetui" --units "$regex" --steps "$tsteps" --json "$model" "$big" >>"$work/tg"
    cp "$work/last" "$work/g.json"
    secs "$py" "$top/tests/bench/units_torch.py" "$model" "$big" "$regex" "$tsteps" "$threads" >>"$work/tt"
    cp "$work/last" "$work/t.json"
    sed -n 's/^seconds //p' "$work/err" >>"$work/tp"
    i=$((i + 1))
done
g=$(med "$work/tg") t=$(med "$work/tt") tp=$(med "$work/tp")
printf 'over %s steps, medians of %s: gatetui --units %s s (the whole command), PyTorch %s s (%s s without reading the model and the text): %.1fx\n' \
    "$tsteps" "$treps" "$g" "$t" "$tp" "$(echo "$tp / $g" | bc -l)"
if "$top/tests/lib/findcmp" units "$work/t.json" "$work/g.json" >"$work/diff"; then
    echo "the two agree (every r and mean within 1e-4)"
else
    echo "the two differ:"
    head -5 "$work/diff"
fi
printf 'PyTorch %s, BLAS: %s; load average after: %s\n' \
    "$("$py" -c 'import torch; print(torch.__version__)')" \
    "$(readlink -f /usr/lib/x86_64-linux-gnu/libblas.so.3 2>/dev/null || echo unknown)" \
    "$(cut -d' ' -f1-3 /proc/loadavg)"
