#!/bin/sh
# Times `gatetui --report --json` against the float64 numpy reference tests/ref/report_ref.py
# on the same model, text and options (best of REPS runs each), checks that they agree
# (tests/lib/reportcmp, built here if it is not yet, with the bounds of tests/cli/report.sh), and
# prints the ratio and the share of the float32 FMA peak gatetui's products reached. Run from a configured and built tree (./build.sh); not part of make check.
#   tests/bench/bench_report.sh MODEL TEXT [REPS] [--windows N ...]
# Example: tests/bench/bench_report.sh samples/kjv-lstm.bin samples/kjv-train.txt 3
set -e
model=$1 text=$2
reps=${3:-3}
[ $# -ge 2 ] && shift 2
[ $# -ge 1 ] && shift
top=$(dirname "$0")/../..
. "$top/tests/bench/machine.sh"
machine_line "$top/gatetui"
make -s -C "$top" tests/lib/reportcmp
py=${PYTHON:-/usr/bin/python3}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
best() { # best wall time of $reps runs of "$@", output in $out/last.json
    b=""
    i=0
    while [ $i -lt "$reps" ]; do
        s=$(date +%s.%N)
        "$@" >"$out/last.json"
        e=$(date +%s.%N)
        b=$(awk -v s="$s" -v e="$e" -v b="$b" 'BEGIN { t = e - s; print (b == "" || t < b) ? t : b }')
        i=$((i + 1))
    done
    echo "$b"
}
tc=$(best "$top/gatetui" --report --json "$@" "$model" "$text")
cp "$out/last.json" "$out/c.json"
tr=$(best "$py" "$top/tests/ref/report_ref.py" report "$@" "$model" "$text")
cp "$out/last.json" "$out/ref.json"
if "$top/tests/lib/reportcmp" "$out/ref.json" "$out/c.json" >"$out/diff"; then
    agree="agree"
else
    agree="DISAGREE: $(head -3 "$out/diff")"
fi
printf 'gatetui --report   %8.2f s\nreference (numpy)  %8.2f s\nratio              %8.2f x   (the two reports %s)\n' \
    "$tc" "$tr" "$(awk -v a="$tr" -v b="$tc" 'BEGIN { print a / b }')" "$agree"
printf 'gatetui: '
peak_share float32 "$(report_flop "$out/c.json" "$@")" "$tc" "${GATETUI_THREADS:-$(nproc)}" "$out"
