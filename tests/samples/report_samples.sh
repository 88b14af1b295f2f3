#!/bin/sh
# The report at the size users run it: gatetui --report --json with the defaults (layer 0,
# 32 windows of 128 characters, the horizon 64) on the sample LSTM, GRU and plain RNN over
# kjv-valid.txt against tests/ref/make_report_samples.py's float64 reference
# (tests/fixtures/report_samples/), within tests/lib/reportcmp's bounds: the gate tables, the
# curves and half-lives with their 95% intervals by the jackknife over the windows, and
# every unit's measured half-life with its interval; the word model (samples/kjv-words.pt)
# at full length, every step of kjv-words-valid.txt in 76 windows, its replacements the
# text's most frequent tokens, by_token; then the text's interval row is the JSON's
# intervals as printed. And --importance --json with the defaults on the three character
# models against tests/ref/make_importance_samples.py's reference (each unit's increase of
# the loss and its interval by the jackknife over the windows), in the units' order, with
# gatetui's own order the increases' from the largest; the text's intervals the JSON's.
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

# each unit's importance: its JSON in the units' order (gatetui's by the increase, largest
# first: near ties may fall either way) against the reference
for m in kjv-lstm kjv-gru kjv-rnn; do
    "$bin" --importance --json "$samples/$m.bin" "$samples/kjv-valid.txt" >"$out/im.json" \
        2>"$out/err" || { notok "$m --importance failed"; sed 's/^/# /' "$out/err"; continue; }
    python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
deltas = [u["delta"] for u in d["units"]]
if any(a < b for a, b in zip(deltas, deltas[1:])):
    sys.exit("the units are not in the order of their increase")
d["units"].sort(key=lambda u: u["unit"])
json.dump(d, open(sys.argv[2], "w"))' "$out/im.json" "$out/im_units.json" >"$out/diff" 2>&1 &&
        "$cmp" "$fix/${m}_im.json" "$out/im_units.json" >"$out/diff" 2>&1
    check $? "$m --importance (32 windows of kjv-valid.txt): every unit's increase and its \
interval match the float64 reference, largest first ($(tail -1 "$out/diff"))"
done
# the text's first row: the JSON's first unit, its increase and interval in bits
"$bin" --importance "$samples/kjv-rnn.bin" "$samples/kjv-valid.txt" >"$out/plain" 2>"$out/err"
want=$(python3 -c '
import json, math, sys
u = json.load(open(sys.argv[1]))["units"][0]
b = [x / math.log(2) for x in [u["delta"]] + u["delta_ci"]]
print("%d %+.5f [%+.5f, %+.5f]" % (u["unit"], b[0], b[1], b[2]))' "$out/im.json")
got=$(awk '$1 == "1" { print $2, $4, $5, $6 }' "$out/plain")
check "$([ -n "$want" ] && [ "$got" = "$want" ]; echo $?)" \
    "--importance's first row in text is the JSON's, in bits: $got"
echo "1..$n"
