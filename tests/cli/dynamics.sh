#!/bin/sh
# gatetui --lyapunov, --spectrum and --fixed-points on the fixtures of tests/fixtures/dynamics (MANIFEST,
# made by tests/ref/make_dynamics_fixtures.py) against the float64 reference of
# tests/ref/dynamics_ref.py (tests/lib/reportcmp): the exponents of the documented formula (J_1..J_N,
# step 0 setting the state J_1 is taken from, the means over t = W+1..N) and their standard
# errors by the means of 10 batches, the reference's J_t written out and checked against
# central differences, within 1e-14 max(1, |lambda|, k), k = n max_t cond(J_t Q_(t-1)) the
# reference's first-order bound on the QR's rounding (both run in double: doc/testing.md);
# the eigenvalues, whose J_T is central differences, and the sorted carry gates within 1e-6;
# the fixed points within 1e-6 (their counts exactly). The same exponents at full size: the
# sample LSTM and GRU with the defaults (tests/fixtures/lyapunov). Then the models built by
# hand whose step Jacobian is diagonal and constant: the exponents are the logarithms of the
# carry gates (to 1e-12), LSTM and GRU, and the fixed point is the closed form's (to 1e-12);
# a GRU unit whose fixed points are 0 (unstable) and +-h*; two models at once, one entry
# each; the text output; bad input: exit 2, one line.
fix="$top_srcdir/tests/fixtures"
bin="$top_builddir/gatetui"
cmp="$top_builddir/tests/lib/reportcmp"
out=$(mktemp -d) || exit 1
trap 'rm -rf "$out"' EXIT
. "$top_srcdir/tests/lib/tap.sh"

# the reference's bound: the exponents' RTOL max(1, |w|, k), k their condition there; else 1e-6
ref_cmp() {
    if [ "$what" = lyapunov ]; then
        "$cmp" "$1" "$2" 1e-14
    else
        "$cmp" --tol 1e-6,0 "$1" "$2"
    fi
}
while read -r name what model text opts; do
    case "$name" in ''|'#'*) continue ;; esac
    tol="within 1e-6"
    [ "$what" = lyapunov ] && tol="within 1e-14 max(1, |w|, its condition)"
    set -- --"$what"
    label="$what $opts"
    if [ "$what" = fixed ]; then # CHAR first, a space written \s
        ch=${opts%% *}
        opts=${opts#"$ch"}
        [ "$ch" = '\s' ] && ch=' '
        set -- --fixed-points "$ch"
    fi
    # shellcheck disable=SC2086
    if "$bin" "$@" --json $opts "$fix/$model" "$fix/$text" >"$out/$name.json" 2>"$out/err" &&
        ref_cmp "$fix/dynamics/$name.json" "$out/$name.json" >"$out/diff" 2>&1; then
        ok "$name ($label): matches the float64 reference $tol"
    else
        notok "$name ($label): differs from the reference"
        sed 's/^/# /' "$out/err" "$out/diff" | head -20
    fi
done <"$fix/dynamics/MANIFEST"

# at the size users run it: the sample LSTM and GRU over kjv-valid.txt with the defaults (32
# modes, J_1..J_5000, a warm-up of 100) against tests/ref/make_lyapunov_samples.py's float64
# run of the documented formula, held as the fixtures above
for m in kjv-lstm kjv-gru; do
    if "$bin" --lyapunov --json "$top_srcdir/samples/$m.bin" "$top_srcdir/samples/kjv-valid.txt" \
        >"$out/$m.json" 2>"$out/err" &&
        "$cmp" "$fix/lyapunov/$m.json" "$out/$m.json" 1e-14 >"$out/diff" 2>&1; then
        ok "$m --lyapunov (32 modes, steps 101..5,000 of kjv-valid.txt): matches the float64" \
            "reference within 1e-14 max(1, |w|, its condition) ($(tail -1 "$out/diff"))"
    else
        notok "$m --lyapunov: differs from the float64 reference"
        sed 's/^/# /' "$out/err" "$out/diff" | head -20
    fi
done

# units ablated (their c and h held at 0 after every step) in the sample LSTM and GRU: their
# rows of J_t are 0 (an LSTM's: 2 zero eigenvalues a unit, its carry line 0), against PyTorch's
# autograd of s -> Z(step(s)), Z setting them to 0 (tests/ref/make_ablate_fixtures.py): the
# eigenvalues and the sorted carry line within 1e-6 + 1e-6 of each value (a half-life near 1e4
# moves by |d lambda| ln 2 / (lambda ln^2 lambda): relative)
while read -r name sample step lag units opts; do
    case "$name" in ''|'#'*) continue ;; esac
    src="$top_srcdir/samples/$sample.bin"
    # shellcheck disable=SC2086
    if "$bin" --spectrum --json --step "$step" --ablate "0:$units" $opts "$src" "$top_srcdir/samples/kjv-valid.txt" \
        >"$out/abl.json" 2>"$out/err" &&
        "$cmp" --tol 1e-6,1e-6 "$fix/ablate/$name.spectrum.json" "$out/abl.json" >"$out/diff" 2>&1; then
        ok "$sample --ablate 0:$units${opts:+ $opts}, --spectrum --step $step: autograd's eigenvalues and carry line"
    else
        notok "$sample --ablate 0:$units${opts:+ $opts}, --spectrum --step $step: not autograd's"
        sed 's/^/# /' "$out/err" "$out/diff" | head -20
    fi
done <"$fix/ablate/MANIFEST"

# the products split among threads by tangents: the same exponents to the last digit on
# one thread as on three (an LSTM's products through W_hh, a GRU's through J formed whole)
for case in "lstm2.safetensors --modes 32 --steps 300" "gru1.safetensors --modes 20 --steps 300"; do
    set -- $case
    m=$1
    shift
    GATETUI_THREADS=1 "$bin" --lyapunov --json "$@" "$fix/report/$m" "$fix/report/text.txt" >"$out/t1.json" 2>/dev/null
    GATETUI_THREADS=3 "$bin" --lyapunov --json "$@" "$fix/report/$m" "$fix/report/text.txt" >"$out/t3.json" 2>/dev/null
    if [ -s "$out/t1.json" ] && cmp -s "$out/t1.json" "$out/t3.json"; then
        ok "--lyapunov $m $*: the same exponents on one thread as on three"
    else
        notok "--lyapunov $m $*: the exponents differ between one thread and three"
        diff "$out/t1.json" "$out/t3.json" | head -5 | sed 's/^/# /'
    fi
done

# the diagonal models: exponents = ln of the carry gates, largest first
diag_exponents() { # the JSON in $1 has them, to 1e-12
    tr -d ' \n' <"$1" | sed 's/.*"exponents":\[//; s/\].*//' | tr ',' '\n' |
        awk -v want="$(cat "$fix/dynamics/diag.exponents")" 'BEGIN { nw = split(want, w, " ") }
            { d = $1 - w[NR]; if (d < 0) d = -d; if (d > 1e-12) bad++ } END { exit (bad || NR != nw) }'
}
for kind in lstm gru; do
    "$bin" --lyapunov --json --modes 4 --steps 200 --warmup 10 "$fix/dynamics/diag_$kind.safetensors" \
        "$fix/dynamics/abab.txt" >"$out/d.json" 2>"$out/err"
    if diag_exponents "$out/d.json"; then
        ok "diagonal $kind: the exponents are the logarithms of its carry gates"
    else
        notok "diagonal $kind: the exponents are not ln of the carry gates"
        sed 's/^/# /' "$out/d.json" "$out/err" | head -20
    fi
done
# fewer summed steps than the 10 batches (J_11..J_15): the exponents, no standard errors
"$bin" --lyapunov --json --modes 4 --steps 15 --warmup 10 "$fix/dynamics/diag_lstm.safetensors" \
    "$fix/dynamics/abab.txt" >"$out/d.json" 2>"$out/err"
if tr -d ' \n' <"$out/d.json" | grep -q '"stderr":\[null,null,null,null\]' &&
    diag_exponents "$out/d.json"; then
    ok "5 steps summed, fewer than the 10 batches: the exponents, their standard errors null"
else
    notok "5 steps summed: not the exponents with null standard errors"
    sed 's/^/# /' "$out/d.json" "$out/err" | head -20
fi
# more tangents than the LSTM's J has rank (H = 4 of 8: the Cholesky QR refuses, the Householder
# QR takes them): the first 4 exponents still ln of the carry gates, the rest -inf (null)
"$bin" --lyapunov --json --modes 8 --steps 200 --warmup 10 "$fix/dynamics/diag_lstm.safetensors" \
    "$fix/dynamics/abab.txt" >"$out/d.json" 2>"$out/err"
if tr -d ' \n' <"$out/d.json" | sed 's/.*"exponents":\[//; s/\].*//' | tr ',' '\n' |
    awk -v want="$(cat "$fix/dynamics/diag.exponents")" 'BEGIN { nw = split(want, w, " ") }
        NR <= nw { d = $1 - w[NR]; if (d < 0) d = -d; if (d > 1e-12) bad++ }
        NR > nw + 1 && $1 != "null" { bad++ } END { exit (bad || NR != 8) }'; then
    ok "diagonal lstm, 8 modes of a rank-4 J: ln of its carry gates, then -inf"
else
    notok "diagonal lstm, 8 modes of a rank-4 J: not ln of its carry gates and -inf"
    sed 's/^/# /' "$out/d.json" "$out/err" | head -20
fi
# its eigenvalues at a step: the carry gates (and, for the LSTM, H zeros)
"$bin" --spectrum --json --step 5 "$fix/dynamics/diag_lstm.safetensors" "$fix/dynamics/abab.txt" >"$out/s.json" 2>&1
if tr -d ' \n' <"$out/s.json" | awk -F'"abs":' '{ for (i = 2; i <= NF; i++) { split($i, a, ","); v[i - 1] = a[1] } }
        END { exit !(v[1] > 0.88 && v[1] < 0.881 && v[5] == 0 && v[8] == 0) }'; then
    ok "diagonal lstm: eigenvalues the carry gates and zeros"
else
    notok "diagonal lstm: eigenvalues not the carry gates"
    sed 's/^/# /' "$out/s.json" | head -30
fi

# the fixed point of the models with no recurrent weight: the closed form's
for kind in lstm gru; do
    "$bin" --fixed-points a --starts 10 --hold 0 --json "$fix/dynamics/held_$kind.safetensors" \
        "$fix/dynamics/abab.txt" >"$out/h.json" 2>"$out/err"
    if "$cmp" --tol 1e-12,0 "$fix/dynamics/held_$kind.json" "$out/h.json" >"$out/diff" 2>&1; then
        ok "held input, no recurrence, $kind: the fixed point in closed form, stable, to 1e-12"
    else
        notok "held input, no recurrence, $kind: not the closed form's fixed point"
        sed 's/^/# /' "$out/err" "$out/diff" | head -20
    fi
done

# h' = tanh(2h): 0 unstable (|lambda| = 2), +-h* stable; each point: state, max |lambda|, stable
"$bin" --fixed-points a --hold 0 --json "$fix/dynamics/unstable_gru.safetensors" "$fix/dynamics/bca.txt" \
    >"$out/u.json" 2>"$out/err"
tr -d ' \n' <"$out/u.json" | sed 's/"residual"/\
/g' | sed -n '2,$s/.*"max_abs_eigenvalue":\([^,]*\),"stable":\([a-z]*\),.*"state":\[\([^]]*\)\].*/\3 \1 \2/p' >"$out/u.got"
if awk 'NR == FNR { s[NR] = $1; a[NR] = $2; st[NR] = $3; n = NR; next }
        { for (i = 1; i <= n; i++) { d = $1 - s[i]; e = $2 - a[i]; if (d < 0) d = -d; if (e < 0) e = -e
              if (d < 1e-9 && e < 1e-9 && $3 == st[i] && !used[i]) { used[i] = 1; hit++; break } } }
        END { exit !(hit == n && FNR == n) }' "$fix/dynamics/unstable.expected" "$out/u.got"; then
    ok "h' = tanh(2h): the fixed points 0 (unstable, |lambda| = 2) and +-h* (stable)"
else
    notok "h' = tanh(2h): not the fixed points 0, +-h*"
    sed 's/^/# /' "$out/u.got" "$out/err" | head -20
fi
"$bin" --fixed-points a --hold 0 "$fix/dynamics/unstable_gru.safetensors" "$fix/dynamics/bca.txt" >"$out/u.txt" 2>"$out/err"
if grep -q 'fixed points under a held .a.' "$out/u.txt" && grep -Eq '^ +[0-9]+ +[0-9]+ .* 2\.0+ +no +-$' "$out/u.txt"; then
    ok "the text names the held character and the unstable point"
else
    notok "the text lacks the held character or the unstable point"
    sed 's/^/# /' "$out/u.txt" "$out/err" | head -20
fi

# two models: one entry each
m1="$fix/report/lstm1.safetensors"
t1="$fix/report/text.txt"
"$bin" --lyapunov --json --modes 2 --steps 150 "$m1" "$fix/report/gru1.safetensors" "$t1" >"$out/two.json" 2>"$out/err"
if [ "$(grep -c '"exponents"' "$out/two.json")" -eq 2 ]; then
    ok "two models: one spectrum each"
else
    notok "two models: not one spectrum each"
    sed 's/^/# /' "$out/two.json" "$out/err" | head -20
fi
"$bin" --fixed-points e --starts 8 --json "$m1" "$fix/report/gru1.safetensors" "$fix/dynamics/abab.txt" \
    >"$out/two.json" 2>"$out/err"
if [ "$(grep -c '"fixed_points"' "$out/two.json")" -eq 2 ]; then
    ok "two models: fixed points for each"
else
    notok "two models: not fixed points for each"
    sed 's/^/# /' "$out/two.json" "$out/err" | head -20
fi

# the text output: the steps summed, the slowest half-life +- its half-width beside the
# report's, each exponent +- 1.96 SE (the JSON's stderr times 1.96, to the 3 digits printed),
# numbered from 1 as the figure's lambda_1, lambda_2, ...; every line within 80 columns
"$bin" --lyapunov --modes 3 --steps 300 "$m1" "$t1" >"$out/t.txt" 2>"$out/err"
"$bin" --lyapunov --json --modes 3 --steps 300 "$m1" "$t1" >"$out/t.json" 2>/dev/null
se=$(tr -d ' \n' <"$out/t.json" | sed 's/.*"stderr":\[//; s/\].*//' | tr ',' ' ')
if grep -q "over the text's steps 101\.\.300 (3 modes; steps 1\.\.100 a warm-up)" "$out/t.txt" &&
    grep -Eq 'slowest mode [0-9.]+ \+- [0-9.]+;$' "$out/t.txt" &&
    grep -Eq "^the report's measured .*linearized .*forget-only" "$out/t.txt" &&
    [ "$(awk 'length($0) > 80' "$out/t.txt" | wc -l)" -eq 0 ] &&
    awk -v se="$se" 'BEGIN { split(se, s, " ") } /^ +[1-3] / { i = $1; w = 1.96 * s[i]
            d = $3 - w; if (d < 0) d = -d; if (d > 5e-3 * w) bad++; n++ } END { exit (bad || n != 3) }' \
        "$out/t.txt"; then
    ok "the text names steps 101..300, sets the slowest half-life +- its half-width beside" \
        "the report's, each exponent +- 1.96 SE"
else
    notok "the text lacks the steps summed, the report's half-lives or the +- 1.96 SE"
    sed 's/^/# /' "$out/t.txt" "$out/err" | head -20
fi

bad() {
    what=$1
    shift
    refused "$what" "$bin" "$@" "$fix/dynamics/diag_lstm.safetensors" "$fix/dynamics/abab.txt"
}
bad "--modes above the state's size" --lyapunov --modes 9
bad "--steps 0" --lyapunov --steps 0
bad "--modes 0" --lyapunov --modes 0
bad "--warmup not below the steps" --lyapunov --modes 4 --steps 50 --warmup 50
bad "--warmup not below the text's steps - 1" --lyapunov --modes 4 --warmup 199
bad "--layer past the model's layers" --lyapunov --layer 1
# J_1 is taken from the state step 0 left: a text of one step has no Jacobian to sum
printf a >"$out/one.txt"
refused "--lyapunov on a text of one step" "$bin" --lyapunov --modes 4 --warmup 0 \
    "$fix/dynamics/diag_lstm.safetensors" "$out/one.txt"
bad "--spectrum --step past the text's end" --spectrum --step 100000
bad "--spectrum --layer past the model's layers" --spectrum --step 3 --layer 2
bad "--fixed-points: a character not in the vocabulary" --fixed-points z
bad "--fixed-points: two characters" --fixed-points ab
bad "--fixed-points: nothing" --fixed-points ''
bad "--fixed-points: an escape it does not know" --fixed-points '\q'
bad "--fixed-points --starts 0" --fixed-points a --starts 0
bad "--fixed-points --starts above the steps run" --fixed-points a --starts 201
bad "--fixed-points --starts above --steps" --fixed-points a --steps 10 --starts 11
bad "--fixed-points --layer past the model's layers" --fixed-points a --layer 1
bad "--fixed-points --hold not a count" --fixed-points a --hold -1
echo "1..$n"
