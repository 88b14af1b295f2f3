#!/bin/sh
# gatetui --jacobian on the fixtures of tests/fixtures/jacobian (MANIFEST, made by
# tests/ref/make_jacobian_fixtures.py) against the float64 reference by central differences
# (tests/ref/jacobian_ref.py): --json within 1e-7 + 1e-6 of each value (tests/lib/reportcmp),
# --matrix likewise entry by entry. (The reference runs the text from its start in float64,
# gatetui the steps T-K..T in double from its float32 state: 1e-8 apart; t_jacobian checks
# against differences from the same state to 1e-8.) Then the worked example of
# doc/measures.md from its model file against the example's own numbers, and with the
# recurrent weight zero J = C exactly; units ablated in the sample LSTM and GRU against
# PyTorch's autograd (tests/fixtures/ablate); bad input: exit 2, one line.
fix="$top_srcdir/tests/fixtures"
bin="$top_builddir/gatetui"
cmp="$top_builddir/tests/lib/reportcmp"
out=$(mktemp -d) || exit 1
trap 'rm -rf "$out"' EXIT
. "$top_srcdir/tests/lib/tap.sh"

# the matrices: every entry within 1e-7 + 1e-6 |want|, and the same shape
matcmp() {
    awk -F, 'NR == FNR { for (i = 1; i <= NF; i++) w[FNR, i] = $i; nf[FNR] = NF; rows = FNR; next }
        { if (NF != nf[FNR]) bad++
          for (i = 1; i <= NF; i++) { d = $i - w[FNR, i]; a = w[FNR, i] < 0 ? -w[FNR, i] : w[FNR, i]
              if ((d < 0 ? -d : d) > 1e-7 + 1e-6 * a) { bad++; if (bad < 4) print "# row " FNR - 1 ", column " i - 1 ": got " $i ", want " w[FNR, i] } }
          got = FNR }
        END { if (got != rows) { print "# " got " rows, want " rows; bad++ } exit bad ? 1 : 0 }' "$1" "$2"
}

while read -r name model text opts; do
    case "$name" in ''|'#'*) continue ;; esac
    # shellcheck disable=SC2086
    if "$bin" --jacobian --json $opts "$fix/$model" "$fix/$text" >"$out/$name.json" 2>"$out/err" &&
        "$cmp" --tol 1e-7,1e-6 "$fix/jacobian/$name.json" "$out/$name.json" >"$out/diff" 2>&1; then
        ok "$name ($opts): --json matches the central differences"
    else
        notok "$name ($opts): --json differs from the reference"
        sed 's/^/# /' "$out/err" "$out/diff" | head -20
    fi
    # shellcheck disable=SC2086
    if "$bin" --jacobian --matrix $opts "$fix/$model" "$fix/$text" >"$out/$name.csv" 2>"$out/err" &&
        matcmp "$fix/jacobian/$name.csv" "$out/$name.csv" >"$out/diff"; then
        ok "$name: --matrix, J(T-K, K) entry by entry"
    else
        notok "$name: --matrix differs from the reference"
        sed 's/^/# /' "$out/err" "$out/diff" | head -20
    fi
done <"$fix/jacobian/MANIFEST"

# The worked example: dc3/dc1 = 1.317600 (dc3/dc2 = 1.078827) against the carry line f f =
# 0.5625, to the example's six digits
cat >"$out/seed.json" <<'JSON'
{"step": 2, "layer": 0, "unit": 0, "lags": [
 {"k": 1, "frob": 1.078827, "carry_frob": 0.75, "diag_share": 1.0,
  "unit": {"diag": 1.078827, "row": 1.078827, "carry": 0.75}},
 {"k": 2, "frob": 1.317600, "carry_frob": 0.5625, "diag_share": 1.0,
  "unit": {"diag": 1.317600, "row": 1.317600, "carry": 0.5625}}]}
JSON
ex="$fix/jacobian/example.safetensors"
if "$bin" --jacobian --json --step 2 --lag 2 "$ex" "$fix/jacobian/abb.txt" >"$out/ex.json" 2>"$out/err" &&
    "$cmp" --tol 5e-7,0 "$out/seed.json" "$out/ex.json" >"$out/diff" 2>&1; then
    ok "the worked example from its model file: dc3/dc1 = 1.317600 against the carry line 0.5625"
else
    notok "the worked example: not 1.317600 against 0.5625"
    sed 's/^/# /' "$out/err" "$out/diff" | head -10
fi
"$bin" --jacobian --json --step 2 --lag 2 "$fix/jacobian/example0.safetensors" "$fix/jacobian/abb.txt" >"$out/ex0.json" 2>&1
if awk '{ sub(/,$/, "") } /"diag":/ { d[++nd] = $2 } /"carry":/ { c[++nc] = $2 }
        END { if (nd != 2 || nc != 2) exit 1; for (i = 1; i <= nd; i++) if (d[i] != c[i]) exit 1 }' "$out/ex0.json"; then
    ok "the worked example with the recurrent weight zero: J equals the carry line exactly"
else
    notok "the worked example with the recurrent weight zero: J is not the carry line"
    sed 's/^/# /' "$out/ex0.json" | head -30
fi

# units ablated (their c and h held at 0 after every step): their rows of the derivative are
# 0, J_jj = |J_j.| = C_jj = 0, at the size users run it (the sample LSTM and GRU) against
# PyTorch's autograd of s -> Z(step(s)), Z setting them to 0 (tests/ref/make_ablate_fixtures.py),
# within 1e-7 + 1e-6 of each value
while read -r name sample step lag units opts; do
    case "$name" in ''|'#'*) continue ;; esac
    # shellcheck disable=SC2086
    if "$bin" --jacobian --json --step "$step" --lag "$lag" --unit "${units%%,*}" --ablate "0:$units" $opts \
        "$top_srcdir/samples/$sample.bin" "$top_srcdir/samples/kjv-valid.txt" >"$out/abl.json" 2>"$out/err" &&
        "$cmp" --tol 1e-7,1e-6 "$fix/ablate/$name.jacobian.json" "$out/abl.json" >"$out/diff" 2>&1 &&
        [ "$(tr -d ' \n' <"$out/abl.json" | grep -oE '"unit":\{"diag":0(\.0)?,"row":0(\.0)?,"carry":0(\.0)?}' | wc -l)" -eq "$lag" ]; then
        ok "$sample --ablate 0:$units${opts:+ $opts}, step $step: J_jj, |J_j.| and C_jj 0 at every lag, the rest as autograd's"
    else
        notok "$sample --ablate 0:$units${opts:+ $opts}, step $step: the ablated unit's derivative is not autograd's"
        sed 's/^/# /' "$out/err" "$out/diff" | head -20
    fi
done <"$fix/ablate/MANIFEST"

# bad input: exit 2 and one line
bad() {
    what=$1
    shift
    refused "$what" "$bin" --jacobian "$@" "$ex" "$fix/jacobian/abb.txt"
}
bad "--step past the text's end" --step 3 --lag 1
bad "T - K < 0" --step 1 --lag 2
bad "--unit past the layer's units" --step 2 --lag 1 --unit 1
bad "--lag 0" --step 2 --lag 0
bad "--layer past the model's layers" --step 2 --lag 1 --layer 1
"$bin" --jacobian "$ex" "$fix/jacobian/abb.txt" >/dev/null 2>&1
rc=$?
if [ $rc -eq 2 ]; then ok "--jacobian without --step: exit 2"; else notok "--jacobian without --step: exit $rc"; fi
# a plain RNN's table says it has no carry line and leaves its columns empty
if "$bin" --jacobian --step 300 --lag 3 "$fix/report/rnn1.safetensors" "$fix/report/text.txt" \
    >"$out/rnn" 2>/dev/null && grep -q 'no carry line: a plain RNN has no carry gate' "$out/rnn" &&
    [ "$(grep -c '^  [123] .* - .* - ' "$out/rnn")" -eq 3 ]; then
    ok "a plain RNN: J = dh_T / dh_(T-k), no carry line"
else
    notok "a plain RNN's table"
    sed 's/^/# /' "$out/rnn" | head -8
fi
# the text within 80 columns (its header lines were 83 and 118 wide; a plain RNN's 107)
"$bin" --jacobian --step 300 --lag 24 "$top_srcdir/samples/kjv-lstm.bin" \
    "$top_srcdir/samples/kjv-valid.txt" >"$out/w.txt" 2>/dev/null
cat "$out/rnn" >>"$out/w.txt"
wide=$(awk 'length($0) > 80' "$out/w.txt" | wc -l)
if [ -s "$out/w.txt" ] && [ "$wide" -eq 0 ]; then
    ok "--jacobian's text within 80 columns (the sample LSTM, a plain RNN)"
else
    notok "--jacobian's text: $wide lines past 80 columns"
    awk 'length($0) > 80' "$out/w.txt" | head -3 | sed 's/^/# /'
fi
echo "1..$n"
