#!/bin/sh
# The report at the size users run it: gatetui --report --json with the defaults (layer 0,
# 32 windows of 128 characters, the horizon 64) on the sample LSTM, GRU and plain RNN over
# kjv-valid.txt against tests/ref/make_report_samples.py's float64 reference
# (tests/fixtures/report_samples/), within tests/lib/reportcmp's bounds: the gate tables, the
# curves and half-lives with their 95% intervals by the jackknife over the windows, and
# every unit's measured half-life with its interval; the word model (samples/kjv-words.pt)
# at full length, every step of kjv-words-valid.txt in 76 windows, its replacements the
# text's most frequent tokens, by_token; then the text's interval row is the JSON's
# intervals as printed.
. "$top_srcdir/tests/lib/tap.sh"
bin="$top_builddir/gatetui"
cmp="$top_builddir/tests/lib/reportcmp"
fix="$top_srcdir/tests/fixtures/report_samples"
samples="$top_srcdir/samples"
need "$bin" "$cmp"
out=$(mktemp -d) || exit 1
trap 'rm -rf "$out"' EXIT
for m in kjv-lstm kjv-gru kjv-rnn; do
    if "$bin" --report --json "$samples/$m.bin" "$samples/kjv-valid.txt" >"$out/$m.json" \
        2>"$out/err" && "$cmp" "$fix/$m.json" "$out/$m.json" >"$out/diff" 2>&1; then
        ok "$m --report (32 windows of kjv-valid.txt): matches the float64 reference, the" \
            "intervals too ($(tail -1 "$out/diff"))"
    else
        notok "$m --report: differs from the float64 reference"
        sed 's/^/# /' "$out/err" "$out/diff" | head -20
    fi
done

if "$bin" --report --json --windows 76 "$samples/kjv-words.pt" "$samples/kjv-words-valid.txt" \
    >"$out/w.json" 2>"$out/err" &&
    "$cmp" "$fix/kjv-words.json" "$out/w.json" >"$out/diff" 2>&1 &&
    grep -q '"positions": 9658' "$out/w.json" && grep -q '"by_token"' "$out/w.json"; then
    ok "kjv-words --report at full length (76 windows, 9,658 tokens): matches the float64" \
        "reference ($(tail -1 "$out/diff"))"
else
    notok "kjv-words --report: differs from the float64 reference"
    sed 's/^/# /' "$out/err" "$out/diff" | head -20
fi

# the text's row of intervals: the JSON's, with one decimal, in the columns' order
"$bin" --report "$samples/kjv-lstm.bin" "$samples/kjv-valid.txt" >"$out/plain" 2>"$out/err"
want=$(python3 -c '
import json, sys
p = json.load(open(sys.argv[1]))["perturbation"]["ci"]
keys = ["halflife_cell", "halflife_forget_only", "halflife_hidden", "halflife_linearized"]
print(" ".join("[%.1f, %.1f]" % tuple(p[k]) for k in keys))' "$out/kjv-lstm.json")
got=$(grep '^95% interval ' "$out/plain" | sed 's/^95% interval *//; s/\]  */] /g')
check "$([ -n "$want" ] && [ "$got" = "$want" ]; echo $?)" \
    "the text's 95% interval row is the JSON's: $got"
echo "1..$n"
