#!/bin/sh
# gatetui --lyapunov and --spectrum on the fixtures of tests/fixtures/dynamics (MANIFEST,
# made by tests/ref/make_dynamics_fixtures.py) against the float64 reference of
# tests/ref/dynamics_ref.py, whose step Jacobians are central differences: the exponents
# within 1e-4, the eigenvalues and the sorted carry gates within 1e-6 (tests/reportcmp).
# Then the models built by hand whose step Jacobian is diagonal and constant: the exponents
# are the logarithms of the carry gates (to 1e-12), LSTM and GRU; two models at once, one
# entry each; bad input: exit 2, one line.
fix="$top_srcdir/tests/fixtures"
bin="$top_builddir/gatetui"
cmp="$top_builddir/tests/reportcmp"
out=$(mktemp -d) || exit 1
trap 'rm -rf "$out"' EXIT
. "$top_srcdir/tests/tap.sh"

while read -r name what model text opts; do
    case "$name" in ''|'#'*) continue ;; esac
    tol=1e-6,0
    [ "$what" = lyapunov ] && tol=1e-4,0
    # shellcheck disable=SC2086
    if "$bin" --"$what" --json $opts "$fix/$model" "$fix/$text" >"$out/$name.json" 2>"$out/err" &&
        "$cmp" --tol "$tol" "$fix/dynamics/$name.json" "$out/$name.json" >"$out/diff" 2>&1; then
        ok "$name ($what $opts): matches the float64 reference within $tol"
    else
        notok "$name ($what $opts): differs from the reference"
        sed 's/^/# /' "$out/err" "$out/diff" | head -20
    fi
done <"$fix/dynamics/MANIFEST"

# the diagonal models: exponents = ln of the carry gates, largest first
for kind in lstm gru; do
    "$bin" --lyapunov --json --modes 4 --steps 200 --warmup 10 "$fix/dynamics/diag_$kind.safetensors" \
        "$fix/dynamics/abab.txt" >"$out/d.json" 2>"$out/err"
    if tr -d ' \n' <"$out/d.json" | sed 's/.*"exponents":\[//; s/\].*//' | tr ',' '\n' |
        awk -v want="$(cat "$fix/dynamics/diag.exponents")" 'BEGIN { nw = split(want, w, " ") }
            { d = $1 - w[NR]; if (d < 0) d = -d; if (d > 1e-12) bad++ } END { exit (bad || NR != nw) }'; then
        ok "diagonal $kind: the exponents are the logarithms of its carry gates"
    else
        notok "diagonal $kind: the exponents are not ln of the carry gates"
        sed 's/^/# /' "$out/d.json" "$out/err" | head -20
    fi
done
# its eigenvalues at a step: the carry gates (and, for the LSTM, H zeros)
"$bin" --spectrum --json --step 5 "$fix/dynamics/diag_lstm.safetensors" "$fix/dynamics/abab.txt" >"$out/s.json" 2>&1
if tr -d ' \n' <"$out/s.json" | awk -F'"abs":' '{ for (i = 2; i <= NF; i++) { split($i, a, ","); v[i - 1] = a[1] } }
        END { exit !(v[1] > 0.88 && v[1] < 0.881 && v[5] == 0 && v[8] == 0) }'; then
    ok "diagonal lstm: eigenvalues the carry gates and zeros"
else
    notok "diagonal lstm: eigenvalues not the carry gates"
    sed 's/^/# /' "$out/s.json" | head -30
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

# the text output: the slowest half-life beside the report's
"$bin" --lyapunov --modes 3 --steps 300 "$m1" "$t1" >"$out/t.txt" 2>"$out/err"
if grep -q 'slowest mode .*measured .*linearized .*forget-only' "$out/t.txt"; then
    ok "the text sets the slowest half-life beside the report's"
else
    notok "the text lacks the report's half-lives"
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
bad "--warmup not below the steps" --lyapunov --steps 50 --warmup 50
bad "--layer past the model's layers" --lyapunov --layer 1
bad "--spectrum --step past the text's end" --spectrum --step 100000
bad "--spectrum --layer past the model's layers" --spectrum --step 3 --layer 2
echo "1..$n"
