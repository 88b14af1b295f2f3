#!/bin/sh
# The interventions against the float64 reference (tests/fixtures/intervene/MANIFEST, made by
# tests/ref/intervene_ref.py from the report fixtures' models): the report of a model file
# whose forget bias the reference shifted, and the same report through --forget-bias on the
# original; reports and dumps with units ablated and with the carousel (whose cell grows);
# --importance. Reports and importance within the bounds of tests/lib/reportcmp (1e-6), dumps
# within 1e-5 * max(1, |ref|) (tests/lib/dumpcmp). Then the bad input: one line, exit 2.
# Once per kernel set this processor runs, named in each line:
. "$top_srcdir/tests/lib/each_kernel_set.sh"
fix="$top_srcdir/tests/fixtures/intervene"
rep="$top_srcdir/tests/fixtures/report"
bin="$top_builddir/gatetui"
. "$top_srcdir/tests/lib/tap.sh"
need "$bin" "$top_builddir/tests/lib/reportcmp" "$top_builddir/tests/lib/dumpcmp"
out=$(mktemp -d) || exit 1
trap 'rm -rf "$out"' EXIT
n=0
while read -r name what model opts; do
    case "$name" in ''|'#'*) continue ;; esac
    n=$((n + 1))
    file="$fix/$model.safetensors"
    [ -f "$file" ] || file="$rep/$model.safetensors"
    case "$what" in
    report|sweep) set -- --report --json; ext=json; cmp="$top_builddir/tests/lib/reportcmp" ;;
    importance) set -- --importance --json; ext=json; cmp="$top_builddir/tests/lib/reportcmp" ;;
    dump) set -- --dump; ext=csv; cmp="$top_builddir/tests/lib/dumpcmp" ;;
    esac
    # shellcheck disable=SC2086
    if "$bin" "$@" $opts "$file" "$rep/text.txt" >"$out/$name.$ext" 2>"$out/err" &&
        "$cmp" "$fix/$name.$ext" "$out/$name.$ext" >"$out/diff" 2>&1; then
        echo "ok $n - $name: $what $opts matches the float64 reference"
    else
        echo "not ok $n - $name: $what $opts differs from the reference"
        sed 's/^/# /' "$out/err" "$out/diff" | head -20
    fi
done <"$fix/MANIFEST"

# the carousel's cell grows: the dump's largest |c| after 400 steps, with and without
n=$((n + 1))
big() { awk -F, 'NR > 1 && $1 == 399 { v = $9 < 0 ? -$9 : $9; if (v > m) m = v } END { print m + 0 }'; }
with=$("$bin" --dump --to 399 --carousel "$rep/lstm1.safetensors" "$rep/text.txt" 2>/dev/null | big)
without=$("$bin" --dump --to 399 "$rep/lstm1.safetensors" "$rep/text.txt" 2>/dev/null | big)
if awk -v a="$with" -v b="$without" 'BEGIN { exit !(a > 20 * b) }'; then
    echo "ok $n - the carousel's cell grows: max |c| $with against $without"
else
    echo "not ok $n - the carousel's cell: max |c| $with against $without"
fi

# named wherever values are shown: the export's header (with the loss's change), the dump
n=$((n + 1))
"$bin" --export - --size 160x40 --step 40 --ablate 0:2,5-9 --forget-bias 1.5@0:3 "$rep/lstm1.safetensors" "$rep/text.txt" \
    >"$out/frame" 2>"$out/err"
if head -2 "$out/frame" | grep -q 'forget bias +1.5@0:3, ablated 0:2,5-9' &&
    head -1 "$out/frame" | grep -Eq 'bpc \([+-][0-9.]+\)|against no interventions'; then
    echo "ok $n - the export's header names the interventions and the loss's change"
else
    echo "not ok $n - the export's header"
    sed 's/^/# /' "$out/err" "$out/frame" | head -4
fi
n=$((n + 1))
"$bin" --dump --to 3 --carousel "$rep/lstm1.safetensors" "$rep/text.txt" >/dev/null 2>"$out/err"
if grep -q '^gatetui: interventions: carousel@0$' "$out/err"; then
    echo "ok $n - the dump names the interventions on standard error"
else
    echo "not ok $n - the dump does not name the interventions"
    sed 's/^/# /' "$out/err"
fi

# bad input: one line, exit 2
bad() { # DESCRIPTION ARGS...
    n=$((n + 1))
    d=$1
    shift
    "$bin" "$@" >/dev/null 2>"$out/err"
    rc=$?
    if [ $rc -eq 2 ] && [ "$(wc -l <"$out/err")" -eq 1 ]; then
        echo "ok $n - $d: exit 2, one line: $(cat "$out/err")"
    else
        echo "not ok $n - $d: exit $rc"
        sed 's/^/# /' "$out/err"
    fi
}
l1="$rep/lstm1.safetensors"
t="$rep/text.txt"
bad "a unit out of range" --report --ablate 0:24 "$l1" "$t"
bad "a layer out of range" --report --forget-bias 1@1 "$l1" "$t"
bad "a layer out of range for the carousel" --report --carousel@2 "$rep/lstm2.safetensors" "$t"
bad "a bad list of units" --dump --ablate 0:3-1 "$l1" "$t"
bad "a bad shift" --dump --forget-bias x "$l1" "$t"
"$bin" --report --forget-bias 1e39 "$l1" "$t" >/dev/null 2>"$out/err"
rc=$?
n=$((n + 1))
if [ $rc -eq 2 ] && [ "$(wc -l <"$out/err")" -eq 1 ] && grep -q 'a shift is at most 1000' "$out/err"; then
    echo "ok $n - a shift past 1000 refused as such (1e39 overflowed the state, blamed on the model): $(cat "$out/err")"
else
    echo "not ok $n - --forget-bias 1e39: exit $rc, $(cat "$out/err")"
fi
bad "a GRU with --carousel" --report --carousel "$rep/gru1.safetensors" "$t"
bad "a plain RNN with --carousel" --report --carousel "$rep/rnn1.safetensors" "$t"
bad "a plain RNN with --forget-bias" --report --forget-bias 1 "$rep/rnn1.safetensors" "$t"
bad "a plain RNN with --sweep-forget-bias" --report --sweep-forget-bias 0:1:0.5 \
    "$rep/rnn1.safetensors" "$t"
bad "a model without a readout asked for importance" --importance \
    "$top_srcdir/tests/fixtures/lstm_f16.safetensors" "$top_srcdir/tests/fixtures/lstm_f16.txt"
bad "a bad sweep" --report --sweep-forget-bias 2:1:0.5 "$l1" "$t"
n=$((n + 1))
"$bin" --dump --sweep-forget-bias 0:1:0.5 "$l1" "$t" >/dev/null 2>"$out/err"
rc=$?
if [ $rc -eq 2 ] && [ "$(wc -l <"$out/err")" -eq 1 ] && grep -q 'goes with --report' "$out/err"; then
    echo "ok $n - a sweep without --report: exit 2, one line: $(cat "$out/err")"
else
    echo "not ok $n - a sweep without --report: exit $rc"
    sed 's/^/# /' "$out/err"
fi
# said DESCRIPTION WANT ARGS...: exit 2, one line, and that line is "gatetui: WANT"
said() {
    n=$((n + 1))
    d=$1
    want=$2
    shift 2
    "$bin" "$@" >/dev/null 2>"$out/err"
    rc=$?
    if [ $rc -eq 2 ] && [ "$(cat "$out/err")" = "gatetui: $want" ]; then
        echo "ok $n - $d: exit 2, one line: $want"
    else
        echo "not ok $n - $d: exit $rc, wanted one line: $want"
        sed 's/^/# /' "$out/err"
    fi
}
said "--carousel@ with no layer (it was every layer)" \
    "--carousel@ wants a layer after the @ (--carousel@0; --carousel alone: every layer)" \
    --report --carousel@ "$l1" "$t"
# an option of one kind of cell where no model has it (it was ignored without a word)
said "--gru-reset on an LSTM" \
    "--gru-reset is for a GRU, and no model here is one ($l1: LSTM)" \
    --report --gru-reset before "$l1" "$t"
said "--nonlinearity on an LSTM and a GRU" \
    "--nonlinearity is for a plain RNN, and no model here is one ($l1: LSTM; $rep/gru1.safetensors: GRU)" \
    --report --nonlinearity relu "$l1" "$rep/gru1.safetensors" "$t"
n=$((n + 1))
if "$bin" --report --gru-reset after "$l1" "$rep/gru1.safetensors" "$t" >/dev/null 2>"$out/err"; then
    echo "ok $n - --gru-reset with an LSTM beside a GRU: the GRU's, accepted"
else
    echo "not ok $n - --gru-reset with an LSTM beside a GRU refused"
    sed 's/^/# /' "$out/err"
fi
# a window longer than the text: --importance and --effect say the window used, the text's
# length (they said "1 window of 100,000 characters"), as the report's positions count it
n=$((n + 1))
steps=$("$bin" --report --window-len 100000 "$l1" "$t" 2>/dev/null | sed -n 's/^\([0-9,]*\) positions x .*/\1/p')
"$bin" --importance --window-len 100000 "$l1" "$t" >"$out/imp.txt" 2>/dev/null
"$bin" --effect e --ablate 0:1 --window-len 100000 "$l1" "$t" >"$out/eff.txt" 2>/dev/null
if [ -n "$steps" ] && grep -q "^over 1 window of $steps characters" "$out/imp.txt" &&
    grep -q "^over 1 window of $steps characters" "$out/eff.txt"; then
    echo "ok $n - --window-len past the text: one window of its $steps characters said"
else
    echo "not ok $n - --window-len past the text (the text's $steps steps)"
    grep -h "window" "$out/imp.txt" "$out/eff.txt" | sed 's/^/# /'
fi
echo "1..$n"
