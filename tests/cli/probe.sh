#!/bin/sh
# The probe and the components without a screen: --probe and --components with --json on
# the report fixtures' models against the float64 reference (tests/fixtures/probe/MANIFEST,
# made by tests/ref/make_probe_fixtures.py with numpy and scikit-learn; compared by
# tests/lib/probecmp); the plain output; several models; and bad input: one line on standard
# error and exit status 2.
src="${top_srcdir:-.}"
bld="${top_builddir:-.}"
bin="$bld/gatetui"
cmp="$bld/tests/lib/probecmp"
models="$src/tests/fixtures/report"
fix="$src/tests/fixtures/probe"
text="$models/text.txt"
lstm="$models/lstm1.safetensors"
gru="$models/gru1.safetensors"
out=$(mktemp -d) || exit 1
trap 'rm -rf "$out"' EXIT
LC_ALL=C tr -d '\303\251Z' <"$text" >"$out/clean.txt"
clean="$out/clean.txt"
. "$src/tests/lib/tap.sh"

tab="$(printf '\t')"
while IFS="$tab" read -r name mode model arg opts; do
    case "$name" in ''|'#'*) continue ;; esac
    # shellcheck disable=SC2086
    if "$bin" "--$mode" "$arg" $opts --json "$models/$model.safetensors" "$text" >"$out/$name.json" 2>"$out/err" &&
        "$cmp" "$fix/$name.json" "$out/$name.json" >"$out/diff" 2>&1; then
        ok "$name: --$mode $arg $opts matches the float64 reference"
    else
        notok "$name: --$mode $arg $opts differs from the reference"
        sed 's/^/# /' "$out/err" "$out/diff" | head -20
    fi
done <"$fix/MANIFEST"

"$bin" --probe '[aeio]' "$lstm" "$clean" >"$out/plain" 2>"$out/err"
if grep -q '^mean  ' "$out/plain" && [ "$(grep -c '^fold ' "$out/plain")" = 5 ] &&
    grep -q "^the probe's mean AUC's 95% interval \[0\.[0-9]*, [01]\.[0-9]*\] " "$out/plain" &&
    grep -q "^units for 95% of the probe's AUC: [0-9]*$" "$out/plain" && [ ! -s "$out/err" ]; then
    ok "--probe prints the folds, their means, the mean AUC's interval and units_for_95"
else
    notok "--probe plain output"
    sed 's/^/# /' "$out/plain" "$out/err" | head -20
fi
"$bin" --components 2 "$lstm" "$clean" >"$out/plain" 2>"$out/err"
if [ "$(grep -c '^component [01]: ' "$out/plain")" = 2 ]; then
    ok "--components prints each component"
else
    notok "--components plain output"
    sed 's/^/# /' "$out/plain" "$out/err" | head -20
fi
# the fits on one thread and on two (GATETUI_THREADS; unset: two here): the same output
GATETUI_THREADS=1 "$bin" --probe '[aeio]' --json "$lstm" "$clean" >"$out/t1" 2>"$out/err"
GATETUI_THREADS=2 "$bin" --probe '[aeio]' --json "$lstm" "$clean" >"$out/t2" 2>>"$out/err"
if [ -s "$out/t1" ] && cmp -s "$out/t1" "$out/t2" && [ ! -s "$out/err" ]; then
    ok "--probe: the same output, byte for byte, with its fits on one thread and on two"
else
    notok "--probe on one thread and on two"
    diff "$out/t1" "$out/t2" | sed 's/^/# /' | head -10
    sed 's/^/# /' "$out/err" | head -5
fi
"$bin" --probe '[aeio]' --json "$lstm" "$gru" "$clean" >"$out/two" 2>"$out/err"
if [ "$(grep -c '"regex"' "$out/two")" = 2 ] && grep -q '"models"' "$out/two"; then
    ok "several models: one entry per model"
else
    notok "several models"
    sed 's/^/# /' "$out/two" "$out/err" | head -20
fi

# --html --component J: the page coloured by component J's scores, one title per step
"$bin" --html "$out/c.html" --component 1 --to 99 "$lstm" "$clean" >"$out/o" 2>"$out/err"
if [ "$(grep -o 'title="step [0-9]*: h ' "$out/c.html" | wc -l)" = 100 ] &&
    grep -q '<title>component 1 (h), layer 0: ' "$out/c.html" &&
    grep -q 'component 1, signal h, layer 0, steps 0 to 99' "$out/o"; then
    ok "--html --component colours the text by the component"
else
    notok "--html --component"
    sed 's/^/# /' "$out/o" "$out/err" | head -10
fi

bad() {
    want="$1"
    shift
    "$bin" "$@" >"$out/o" 2>"$out/e"
    rc=$?
    if [ $rc = 2 ] && [ "$(wc -l <"$out/e")" = 1 ] && grep -q -- "$want" "$out/e" && [ ! -s "$out/o" ]; then
        ok "refused in one line: $*"
    else
        notok "not refused in one line (exit $rc): $*"
        sed 's/^/# /' "$out/e" | head -5
    fi
}
bad 'matches no' --probe 'QQQ' "$lstm" "$clean"
bad 'every one' --probe '.' "$lstm" "$clean"
bad 'more folds than' --probe 'a' --folds 4000 "$lstm" "$clean"
bad 'the 5 folds of the default are more than the 3 steps searched' --probe 'a' --steps 3 "$lstm" "$clean"
bad 'folds' --probe 'a' --folds 1 "$lstm" "$clean"
bad 'l2' --probe 'a' --l2 -1 "$lstm" "$clean"
bad 'has 24 units' --components 25 "$lstm" "$clean"
bad 'count' --components x "$lstm" "$clean"
bad 'has 24 units' --html "$out/d.html" --component 24 "$lstm" "$clean"
bad 'signal' --probe 'a' --signal q "$lstm" "$clean"
echo "1..$n"
