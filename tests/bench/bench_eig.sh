#!/bin/sh
# The derivative sheet's eigenvalues (doc/measures.md, "The eigenvalues at a step"): on the
# sample LSTM, GRU and RNN at step T of kjv-valid.txt, the step Jacobian's 16 eigenvalues
# of largest modulus by ARPACK against its whole spectrum by LAPACK (tests/bench/bench_eig.c:
# the medians and least of N runs each, in turn, wall and processor time; the eigenvalues
# alone, then with J formed as the screen's child does), what the sheet computes (ARPACK
# within its budget, or LAPACK), and how far ARPACK's 16 are from LAPACK's first 16, both
# listed side by side. Run from the top of a built tree; not part of make check. BUSY=B
# runs B busy loops beside it (another process on the machine: how a computation shared
# by threads copes when one of them is not run at once).
#   [BUSY=B] tests/bench/bench_eig.sh [T [N [K]]]      (defaults 2000, 11, 16)
set -e
top=$(cd "$(dirname "$0")/../.." && pwd)
T=${1:-2000}
N=${2:-11}
K=${3:-16}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# shellcheck disable=SC2046
${CC:-cc} -O2 -I"$top" -I"$top/include" -I"$top/src" $(pkg-config --cflags arpack) \
    "$top/tests/bench/bench_eig.c" "$top/libgatetui.a" \
    $(pkg-config --libs jansson zlib arpack lapacke blas) -lm -lpthread -ldl -o "$out/bench_eig"
. "$top/tests/bench/machine.sh"
machine_line "$top/gatetui"
printf 'BLAS and LAPACK: %s, %s; ARPACK %s\n' \
    "$(readlink -f /usr/lib/x86_64-linux-gnu/libblas.so.3 2>/dev/null || echo '?')" \
    "$(readlink -f /usr/lib/x86_64-linux-gnu/liblapack.so.3 2>/dev/null || echo '?')" \
    "$(pkg-config --modversion arpack)"
date -u '+%Y-%m-%d %H:%M UTC'
busy=
for _ in $(seq 1 "${BUSY:-0}"); do
    sh -c 'while :; do :; done' &
    busy="$busy $!"
done
[ -z "$busy" ] || echo "beside ${BUSY} busy loop(s)"
trap 'rm -rf "$out"; [ -z "$busy" ] || kill $busy 2>/dev/null' EXIT
st=0
for m in kjv-lstm kjv-gru kjv-rnn; do
    echo
    "$out/bench_eig" "$top/samples/$m.bin" "$top/samples/kjv-valid.txt" "$T" "$N" "$K" || st=1
done
exit $st
