#!/bin/sh
# gatetui --report --json on the report fixtures (tests/fixtures/report/MANIFEST, made by
# tests/ref/make_report_fixtures.py) against the float64 reference tests/ref/report_ref.py:
# the same keys, counts exact, every other number within the bounds tests/lib/reportcmp.c
# states (1e-6 relative). Then: the numbers do not depend on the number of threads; the
# plain tables print.
# Once per kernel set this processor runs, named in each line:
. "$top_srcdir/tests/lib/each_kernel_set.sh"
fix="$top_srcdir/tests/fixtures/report"
bin="$top_builddir/gatetui"
cmp="$top_builddir/tests/lib/reportcmp"
. "$top_srcdir/tests/lib/tap.sh"
need "$bin" "$cmp"
out=$(mktemp -d) || exit 1
trap 'rm -rf "$out"' EXIT
n=0
while read -r name model text opts; do
    case "$name" in ''|'#'*) continue ;; esac
    n=$((n + 1))
    # shellcheck disable=SC2086
    if "$bin" --report --json $opts "$fix/$model.safetensors" "$fix/$text" >"$out/$name.json" 2>"$out/err" &&
        "$cmp" "$fix/$name.json" "$out/$name.json" >"$out/diff" 2>&1; then
        echo "ok $n - $name: report matches the float64 reference"
    else
        echo "not ok $n - $name: report differs from the reference"
        sed 's/^/# /' "$out/err" "$out/diff" | head -20
    fi
done <"$fix/MANIFEST"

# with_threads N MODEL: the report with N threads, standard output to $out/tN
with_threads() {
    GATETUI_THREADS=$1 "$bin" --report --json --windows 5 --window-len 40 "$fix/$2.safetensors" \
        "$fix/text.txt" >"$out/t$1" 2>>"$out/err"
}
for m in lstm1 gru2; do
    n=$((n + 1))
    : >"$out/err"
    if with_threads 1 "$m" && with_threads 3 "$m" && grep -q '"perturbation"' "$out/t1" &&
        cmp -s "$out/t1" "$out/t3"; then
        echo "ok $n - $m: the same report with 1 and 3 threads"
    else
        echo "not ok $n - $m: the report failed or depends on the number of threads"
        sed 's/^/# /' "$out/err"
    fi
done

n=$((n + 1))
if "$bin" --report "$fix/lstm1.safetensors" "$fix/text.txt" >"$out/plain" 2>"$out/err" &&
    grep -q '^forget f ' "$out/plain" && grep -q '^   half-life ' "$out/plain" &&
    grep -Eq '^95% interval( +\[-?[0-9.]+, [0-9.]+\]){4}$' "$out/plain" &&
    grep -q '^95% intervals: the jackknife over the 27 windows$' "$out/plain" &&
    grep -Eq '^ +[0-9]+ +[0-9.]+ +\[-?[0-9.]+, ([0-9.]+|> 64)\] ' "$out/plain" &&
    grep -q '^everything else' "$out/plain"; then
    echo "ok $n - the plain report prints its tables, the half-lives' intervals among them"
else
    echo "not ok $n - the plain report"
    sed 's/^/# /' "$out/err" "$out/plain" | head -20
fi

n=$((n + 1))
if "$bin" --report "$fix/rnn1.safetensors" "$fix/text.txt" >"$out/plain" 2>"$out/err" &&
    grep -q '^No gates: a plain RNN' "$out/plain" && grep -q '^hidden h ' "$out/plain" &&
    grep -q '^no forget-only curve: a plain RNN has no carry gate' "$out/plain" &&
    grep -q '^   half-life  ' "$out/plain" && ! grep -q 'forget gate alone' "$out/plain" &&
    grep -Eq '^95% interval( +\[-?[0-9.]+, [0-9.]+\]){2}$' "$out/plain"; then
    echo "ok $n - an RNN's plain report: no gates, h's saturation, no forget-only curve"
else
    echo "not ok $n - an RNN's plain report"
    sed 's/^/# /' "$out/err" "$out/plain" | head -20
fi

# the sweep's text: each shift's measured and forget-only half-lives with their intervals,
# as its JSON has them
n=$((n + 1))
sweep="--report --sweep-forget-bias -1:1:1 --windows 4 --window-len 48 --horizon 20"
# shellcheck disable=SC2086
if "$bin" $sweep "$fix/lstm1.safetensors" "$fix/text.txt" >"$out/sweep" 2>"$out/err" &&
    "$bin" $sweep --json "$fix/lstm1.safetensors" "$fix/text.txt" >"$out/sweep.json" 2>>"$out/err" &&
    python3 -c '
import json, re, sys
rows = [l for l in open(sys.argv[1]) if re.match(r"^ *[-+][0-9]", l)]
sweep = json.load(open(sys.argv[2]))["sweep"]
def cell(p, key):
    ci = p["ci"][key]
    if p[key] is None:  # past the horizon: no interval
        return "> %d " % p["horizon"] if p["beyond_horizon"][key] and ci == [None, None] else "?"
    return "%.1f [%.1f, %.1f]" % (p[key], ci[0], ci[1])
ok = len(rows) == len(sweep) == 3
for line, s in zip(rows, sweep):
    p = s["report"]["perturbation"]
    ok &= cell(p, "halflife_cell") in line and cell(p, "halflife_forget_only") in line
sys.exit(0 if ok else 1)' "$out/sweep" "$out/sweep.json"; then
    echo "ok $n - the sweep's text: each half-life with its interval, as in its JSON"
else
    echo "not ok $n - the sweep's text and its JSON"
    sed 's/^/# /' "$out/err" "$out/sweep" | head -10
fi

n=$((n + 1))
"$bin" --report --layer 1 "$fix/lstm1.safetensors" "$fix/text.txt" >/dev/null 2>"$out/err"
rc=$?
if [ $rc -eq 2 ] && [ "$(wc -l <"$out/err")" -eq 1 ]; then
    echo "ok $n - --layer past the last layer: exit 2, one line"
else
    echo "not ok $n - --layer past the last layer: exit $rc"
    sed 's/^/# /' "$out/err"
fi
# counts of one in the plain report: a text of one step has no next character to predict
# (the model has a readout; a model without one says so); one window of 2 characters makes
# one prediction; --importance and the sweep alike; a horizon past what a window holds
n=$((n + 1))
l1=$fix/lstm1.safetensors
printf 'w' >"$out/one.txt"
printf 'we' >"$out/two.txt"
"$bin" --report "$l1" "$out/one.txt" >"$out/one" 2>"$out/err" &&
    "$bin" --report "$top_srcdir/tests/fixtures/lstm_f16.safetensors" "$top_srcdir/tests/fixtures/lstm_f16.txt" \
        >"$out/none" 2>>"$out/err" &&
    "$bin" --report --windows 1 --window-len 2 "$l1" "$out/two.txt" >"$out/two" 2>>"$out/err" &&
    "$bin" --importance --windows 1 --window-len 2 "$l1" "$out/two.txt" >"$out/imp" 2>>"$out/err" &&
    "$bin" --report --sweep-forget-bias 0:1:1 --windows 1 --window-len 40 "$l1" "$fix/text.txt" \
        >"$out/sw" 2>>"$out/err"
rc=$?
"$bin" --report --window-len 2 --horizon 2 "$l1" "$fix/text.txt" >/dev/null 2>"$out/hz"
if [ $rc -eq 0 ] && grep -qx 'Readout loss: none (one step: no next character to predict)' "$out/one" &&
    grep -qx '1 position x 24 units = 24 values per gate' "$out/one" &&
    grep -qx 'Readout loss: none (the model has no readout)' "$out/none" &&
    grep -q ': layer 0, 1 window of 2 characters from zero state$' "$out/two" &&
    grep -qx '2 positions x 24 units = 48 values per gate' "$out/two" &&
    grep -q '^Readout loss: .* bits per character over 1 prediction$' "$out/two" &&
    grep -qx '(a uniform guess: 4.32 bits)' "$out/two" &&
    grep -qx 'over 1 window of 2 characters from zero state, 1 prediction' "$out/imp" &&
    grep -q ': layer 0, 1 window of 40 characters$' "$out/sw" && grep -qx "the forget bias (f's b_hh) shifted by D" "$out/sw" &&
    grep -qx 'gatetui: --horizon 2: a window of 2 characters holds 1 step after its edit (at step 0), so the horizon is 1; --window-len 3 or more holds 2' "$out/hz"; then
    echo "ok $n - counts of one: one step (no next character, not no readout), 1 prediction, 1 position, 1 window, 1 step"
else
    echo "not ok $n - counts of one in the plain report"
    sed 's/^/# /' "$out/err" "$out/one" "$out/two" "$out/imp" "$out/hz" | grep -i 'readout\|window\|position\|gatetui' | head -12
fi
# a text of one or two characters over and over: the loss warning says so, not that the
# vocabulary or the readout is wrong (both are the sample's own)
n=$((n + 1))
awk 'BEGIN { for (i = 0; i < 3000; i++) printf " " }' >"$out/spaces.txt"
awk 'BEGIN { for (i = 0; i < 800; i++) printf "Z\n" }' >"$out/zn.txt"
"$bin" --report "$top_srcdir/samples/kjv-lstm.bin" "$out/spaces.txt" >"$out/sp" 2>"$out/err"
"$bin" --report "$top_srcdir/samples/kjv-lstm.bin" "$out/zn.txt" >"$out/zn" 2>>"$out/err"
if grep -q "^warning: the readout's loss, .* is no better than a uniform guess (5.95): the text is ' ' over and over, unlike any text a model learns from$" "$out/sp" &&
    grep -q "^warning: .*: the text is 'Z' and '\\\\n' over and over, unlike any text a model learns from$" "$out/zn" &&
    ! grep -q "vocabulary's order" "$out/sp" "$out/zn"; then
    echo "ok $n - a text of spaces, of Z and newlines: the loss warning names the text, not the vocabulary"
else
    echo "not ok $n - the loss warning on a text of one or two characters"
    grep -h warning "$out/sp" "$out/zn" | sed 's/^/# /'
fi
echo "1..$n"
