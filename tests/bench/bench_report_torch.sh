#!/bin/sh
# Times `gatetui --report --json` against the batched float32 PyTorch implementation of the
# same computation (tests/bench/report_torch.py), alternating the two, REPS runs each, and
# prints the medians, their ratio, the floating-point operations of the report's matrix
# products per second of gatetui's wall time, and this machine's float32 FMA peak
# (tests/bench/probe.c) on one and on every processor. Checks that the two reports agree
# (tests/lib/reportcmp, built here if it is not yet, with RTOL 1e-5: PyTorch computes all of it,
# the perturbation curves too, in float32, and 1e-5 of a value's size is what a float32
# computation keeps to against float64; gatetui's curves are double precision). Run from
# the top of a configured and built tree (./build.sh); not part of make check. A word model
# (samples/kjv-words.pt and kjv-words-valid.txt; make_random.py --words) is read by the peer
# as gatetui reads it.
#   tests/bench/bench_report_torch.sh [MODEL [TEXT [REPS [--windows N ...]]]]
set -e
top=$(cd "$(dirname "$0")/../.." && pwd)
model=${1:-$top/samples/kjv-lstm.bin}
text=${2:-$top/samples/kjv-valid.txt}
reps=${3:-5}
[ $# -ge 3 ] && shift 3 || set --
py=/usr/bin/python3
bin=${GATETUI:-$top/gatetui} # the gatetui binary timed
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
${CC:-cc} -O2 "$top/tests/bench/probe.c" -lpthread -o "$out/probe"
make -s -C "$top" tests/lib/reportcmp
threads=${GATETUI_THREADS:-$(nproc)}
export OPENBLAS_NUM_THREADS=$threads OMP_NUM_THREADS=$threads # PyTorch's BLAS
. "$top/tests/bench/machine.sh"
machine_line "$bin"
secs() { # wall seconds of "$@", output in $out/last.json
    s=$(date +%s.%N)
    "$@" >"$out/last.json"
    e=$(date +%s.%N)
    awk -v s="$s" -v e="$e" 'BEGIN { printf "%.4f\n", e - s }'
}
: >"$out/tc"
: >"$out/tt"
i=0
while [ $i -lt "$reps" ]; do
    GATETUI_THREADS=$threads secs "$bin" --report --json "$@" "$model" "$text" >>"$out/tc"
    cp "$out/last.json" "$out/c.json"
    secs "$py" "$top/tests/bench/report_torch.py" --threads "$threads" "$@" "$model" "$text" >>"$out/tt"
    cp "$out/last.json" "$out/t.json"
    i=$((i + 1))
done
med() { sort -g "$1" | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
tc=$(med "$out/tc")
tt=$(med "$out/tt")
# the measures the peer computes: gatetui's keys it has not, at any depth (the loss, the
# unit table, the perturbation's table by window), set aside and named
left=$("$py" - "$out/c.json" "$out/t.json" <<'PY'
import json, sys
c, t = (json.load(open(f)) for f in sys.argv[1:3])
left = []
def common(a, b, path):
    if not isinstance(a, dict) or not isinstance(b, dict):
        return a
    left.extend(path + k for k in a if k not in b)
    return {k: common(v, b[k], path + k + ".") for k, v in a.items() if k in b}
json.dump(common(c, t, ""), open(sys.argv[1], "w"))
print(", ".join(left))
PY
)
if "$top/tests/lib/reportcmp" "$out/c.json" "$out/t.json" 1e-5 >"$out/diff"; then
    agree="agree: $(tail -1 "$out/diff")${left:+; not computed by the peer: $left}"
else
    agree="differ: $(head -2 "$out/diff" | tr '\n' ' ')"
fi
flops=$(report_flop "$out/c.json" "$@")
peak1=$("$out/probe" fma 1)
peakn=$("$out/probe" fma "$threads")
# the processors' peak: each one's measured peak times their number (measured all at once on
# a shared machine, the figure can only come out lower)
peak=$(awk -v p="$peak1" -v n="$threads" 'BEGIN { printf "%.1f", p * n }')
gf=$(awk -v f="$flops" -v t="$tc" 'BEGIN { printf "%.1f", f / t / 1e9 }')
printf 'model %s, text %s, %s threads, median of %s runs each\n' "$(basename "$model")" "$(basename "$text")" "$threads" "$reps"
printf 'gatetui --report            %8.3f s\n' "$tc"
printf 'PyTorch batched (float32)   %8.3f s\n' "$tt"
printf 'ratio                       %8.2f x   (the two reports %s)\n' "$(awk -v a="$tt" -v b="$tc" 'BEGIN { print a / b }')" "$agree"
printf 'matrix products             %8.2f GFLOP: %s GFLOP/s over gatetui'"'"'s wall time\n' "$(awk -v f="$flops" 'BEGIN { print f / 1e9 }')" "$gf"
printf 'float32 FMA peak            %8s GFLOP/s on 1 processor, %s x %s = %s (%s measured on %s at once): gatetui at %s%% of it\n' \
    "$peak1" "$peak1" "$threads" "$peak" "$peakn" "$threads" \
    "$(awk -v g="$gf" -v p="$peak" 'BEGIN { printf "%.0f", 100 * g / p }')"
printf 'load average after: %s\n' "$(cut -d' ' -f1-3 /proc/loadavg)"
