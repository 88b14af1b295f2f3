#!/bin/sh
# The Jacobian against the carry line (gatetui --jacobian, the screen's Jacobian view; doc/
# measures.md) against PyTorch computing the same Jacobians in the same precision (double)
# with torch.autograd.functional.jacobian (vectorize=True) and with a batched vector-Jacobian
# product (tests/bench/jacobian_torch.py), alternating the two ROUNDS times. Each side times
# its own computation from the state before T-K (the steps T-K..T and the derivatives, every
# lag 1..K), medians of REPS inside each round; printed: the medians of the rounds, the ratio
# to PyTorch's faster way, the products' GFLOP/s against this machine's FMA peak in double
# and in float32 (tests/bench/probe.c), the processor time gatetui took, and whether the two
# agree (|J|_F of every lag within 1e-6). Then gatetui as a whole process (`gatetui
# --jacobian`: starting, reading the model and the text, the run to T, the Jacobians,
# printing), REPS runs a round, against PyTorch's computation alone. Run from the top of a
# built tree; not part of make check.
#   tests/bench/bench_jacobian.sh [MODEL [TEXT [T [K [LAYER [ROUNDS [REPS]]]]]]]
set -e
top=$(cd "$(dirname "$0")/../.." && pwd)
model=${1:-$top/samples/kjv-lstm.bin}
text=${2:-$top/samples/kjv-valid.txt}
T=${3:-1000}
K=${4:-32}
layer=${5:-0}
rounds=${6:-3}
reps=${7:-11}
py=/usr/bin/python3
threads=${GATETUI_THREADS:-$(nproc)}
# PyTorch's BLAS and OpenMP threads; on a shared machine their spinning waits for a
# descheduled thread burn whole time slices (2 threads under a load of 5: 3 to 25 times
# slower), so they wait passively here
export OPENBLAS_NUM_THREADS="$threads" OMP_NUM_THREADS="$threads" OMP_WAIT_POLICY=PASSIVE
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
cc=${CC:-cc}
"$cc" -O2 -I"$top" -I"$top/include" -I"$top/src" "$top/tests/bench/bench_jacobian.c" \
    "$top/libgatetui.a" $(pkg-config --libs jansson zlib arpack lapacke blas) -lm -lpthread -o "$out/bench_jacobian"
"$cc" -O2 "$top/tests/bench/probe.c" -lpthread -o "$out/probe"
. "$top/tests/bench/machine.sh"
machine_line "$top/gatetui"
printf 'PyTorch %s, BLAS: %s\n' "$("$py" -c 'import torch; print(torch.__version__)')" \
    "$(readlink -f /usr/lib/x86_64-linux-gnu/libblas.so.3 2>/dev/null || echo '?')"
: >"$out/g"
: >"$out/gc"
: >"$out/tj"
: >"$out/tv"
: >"$out/tjc"
: >"$out/tvc"
: >"$out/gw"
i=0
while [ $i -lt "$rounds" ]; do
    GATETUI_THREADS=$threads "$out/bench_jacobian" "$model" "$text" "$T" "$K" "$reps" "$layer" >"$out/g.txt"
    sed -n 's/^median \([0-9.]*\) ms.*/\1/p' "$out/g.txt" >>"$out/g"
    sed -n 's/^processor time (every thread) median \([0-9.]*\) ms.*/\1/p' "$out/g.txt" >>"$out/gc"
    "$py" "$top/tests/bench/jacobian_torch.py" "$model" "$text" --step "$T" --lag "$K" \
        --layer "$layer" --reps "$reps" --threads "$threads" >"$out/t.txt"
    r=0
    while [ $r -lt "$reps" ]; do
        t0=$(date +%s%N)
        GATETUI_THREADS=$threads "$top/gatetui" --jacobian --step "$T" --lag "$K" --layer "$layer" \
            "$model" "$text" >/dev/null
        t1=$(date +%s%N)
        echo $(((t1 - t0) / 1000)) | awk '{ print $1 / 1000 }' >>"$out/gw"
        r=$((r + 1))
    done
    awk '$1 == "jacobian" { print 1000 * $2 >>"'"$out/tj"'"; print 1000 * $3 >>"'"$out/tjc"'" }
         $1 == "vjp" { print 1000 * $2 >>"'"$out/tv"'"; print 1000 * $3 >>"'"$out/tvc"'" }' "$out/t.txt"
    i=$((i + 1))
done
med() { sort -g "$1" | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
g=$(med "$out/g")
gw=$(med "$out/gw")
gc=$(med "$out/gc")
tj=$(med "$out/tj")
tv=$(med "$out/tv")
tjc=$(med "$out/tjc")
tvc=$(med "$out/tvc")
best=$(awk -v a="$tj" -v b="$tv" 'BEGIN { print a < b ? a : b }')
bestc=$(awk -v a="$tjc" -v b="$tvc" 'BEGIN { print a < b ? a : b }')
gflop=$(sed -n 's/^products \([0-9.]*\) GFLOP.*/\1/p' "$out/g.txt")
agree=$("$py" - "$out/g.txt" "$out/t.txt" <<'EOF'
import json, sys
g = json.loads(open(sys.argv[1]).read().strip().splitlines()[-1])["frob"]
t = json.loads(open(sys.argv[2]).read().strip().splitlines()[-1])["frob"]
d = max(abs(a - b) / abs(b) for a, b in zip(g, t)) if len(g) == len(t) else float("inf")
print("agree: |J|_F of every lag within %.1e" % d if d <= 1e-6 else "DIFFER by %.1e" % d)
EOF
)
p64=$("$out/probe" fma64 1)
p32=$("$out/probe" fma 1)
rate=$(awk -v f="$gflop" -v t="$g" 'BEGIN { printf "%.1f", f / t * 1000 }')
printf 'model %s, layer %s, step %s, lags 1..%s, %s threads, medians of %s rounds of %s runs\n' \
    "$(basename "$model")" "$layer" "$T" "$K" "$threads" "$rounds" "$reps"
printf 'gatetui (double)                       %9.2f ms   (processor time %.2f ms)\n' "$g" "$gc"
printf 'PyTorch functional.jacobian (double)   %9.2f ms   (processor time %.2f ms)\n' "$tj" "$tjc"
printf 'PyTorch batched vjp (double)           %9.2f ms   (processor time %.2f ms)\n' "$tv" "$tvc"
printf 'ratio to the faster                    %9.2f x   (processor time: %.2f x; %s)\n' \
    "$(awk -v a="$best" -v b="$g" 'BEGIN { print a / b }')" \
    "$(awk -v a="$bestc" -v b="$gc" 'BEGIN { print a / b }')" "$agree"
printf 'gatetui --jacobian, the whole process %9.2f ms   ratio to the faster'"'"'s computation %.2f x\n' \
    "$gw" "$(awk -v a="$best" -v b="$gw" 'BEGIN { print a / b }')"
printf 'products %s GFLOP: %s GFLOP/s over gatetui'"'"'s time, %.1f per processor busy\n' "$gflop" "$rate" \
    "$(awk -v f="$gflop" -v t="$gc" 'BEGIN { printf "%.1f", f / t * 1000 }')"
printf 'FMA peak: double %s GFLOP/s a processor, %s x %s = %.1f: gatetui at %.0f%% of it; float32 %s x %s = %.1f: %.0f%%\n' \
    "$p64" "$p64" "$threads" "$(awk -v p="$p64" -v n="$threads" 'BEGIN { print p * n }')" \
    "$(awk -v r="$rate" -v p="$p64" -v n="$threads" 'BEGIN { print 100 * r / (p * n) }')" \
    "$p32" "$threads" "$(awk -v p="$p32" -v n="$threads" 'BEGIN { print p * n }')" \
    "$(awk -v r="$rate" -v p="$p32" -v n="$threads" 'BEGIN { print 100 * r / (p * n) }')"
printf 'load average after: %s\n' "$(cut -d' ' -f1-3 /proc/loadavg)"
