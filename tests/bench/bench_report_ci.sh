#!/bin/sh
# The report's time with its 95% intervals against without them: `gatetui --report --json`
# of this tree and of BASE, a gatetui built from the commit before the intervals (e.g.
# `git archive 68e22e4 | tar -x -C /tmp/base && (cd /tmp/base && ./build.sh)`), run in
# turn REPS times each on the same model, text and options (alternating, so that a change
# of the machine's load falls on both), with the median and the least wall time and
# processor time (user + system, /usr/bin/time) of each and their ratios (on a loaded
# machine the least is the one other work disturbed least).
# The intervals keep each window's decay sums and take each half-life once per window left
# out, from the sums the pass has: no second pass over the text (doc/speed.md). Run from a
# configured and built tree; not part of make check.
#   tests/bench/bench_report_ci.sh BASE MODEL TEXT [REPS] [--windows N ...]
# Example: tests/bench/bench_report_ci.sh /tmp/base/gatetui samples/kjv-lstm.bin samples/kjv-valid.txt 11
set -e
base=$1 model=$2 text=$3
reps=${4:-11}
[ $# -ge 3 ] && shift 3
[ $# -ge 1 ] && shift
top=$(dirname "$0")/../..
. "$top/tests/bench/machine.sh"
machine_line "$top/gatetui"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# run FILE CMD...: CMD's wall time and processor time (user + system, over its threads) as a
# line "WALL CPU" added to FILE.wall and FILE.cpu, its output discarded (/usr/bin/time)
run() {
    f=$1
    shift
    /usr/bin/time -f '%e %U %S' -o "$out/t" "$@" >/dev/null
    awk '{ print $1 >> "'"$f"'.wall"; print $2 + $3 >> "'"$f"'.cpu" }' "$out/t"
}
i=0
while [ $i -lt "$reps" ]; do
    run "$out/with" "$top/gatetui" --report --json "$@" "$model" "$text"
    run "$out/without" "$base" --report --json "$@" "$model" "$text"
    i=$((i + 1))
done
median() { sort -n "$1" | awk '{ v[NR] = $1 } END { print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
least() { sort -n "$1" | head -1; }
for kind in wall cpu; do
    for stat in median least; do
        a=$($stat "$out/with.$kind") b=$($stat "$out/without.$kind")
        printf '%s time, %s of %d: with the intervals %.3f s, without (BASE) %.3f s, ratio %.3f (%+.1f%%)\n' \
            "$kind" "$([ $stat = least ] && echo least || echo median)" "$reps" "$a" "$b" \
            "$(awk -v a="$a" -v b="$b" 'BEGIN { print a / b }')" \
            "$(awk -v a="$a" -v b="$b" 'BEGIN { print 100 * (a / b - 1) }')"
    done
done
