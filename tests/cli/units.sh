#!/bin/sh
# Finding units without a screen. --units, --select and --profile with --json on the
# report fixtures' models against the float64 reference (tests/fixtures/units/MANIFEST,
# made by tests/ref/make_units_fixtures.py; compared by tests/lib/findcmp); the plain output;
# the HTML page (one title per character, its values those of --dump, never over a file);
# and bad input: one line on standard error and exit status 2.
src="${top_srcdir:-.}"
bld="${top_builddir:-.}"
bin="$bld/gatetui"
cmp="$bld/tests/lib/findcmp"
models="$src/tests/fixtures/report"
fix="$src/tests/fixtures/units"
text="$models/text.txt"
lstm="$models/lstm1.safetensors"
gru="$models/gru1.safetensors"
out=$(mktemp -d) || exit 1
trap 'rm -rf "$out"' EXIT
# the text without the characters the models skip (so that standard error has nothing to
# say about them): the same steps
LC_ALL=C tr -d '\303\251Z' <"$text" >"$out/clean.txt"
clean="$out/clean.txt"
. "$src/tests/lib/tap.sh"

tab="$(printf '\t')"
while IFS="$tab" read -r name mode model arg opts; do
    case "$name" in ''|'#'*) continue ;; esac
    case $mode in
    units) set -- --units "$arg" ;;
    select) set -- --select "$arg" ;;
    profile) set -- --profile --unit "$arg" ;;
    esac
    # shellcheck disable=SC2086
    if "$bin" "$@" $opts --json "$models/$model.safetensors" "$text" >"$out/$name.json" 2>"$out/err" &&
        "$cmp" "$mode" "$fix/$name.json" "$out/$name.json" >"$out/diff" 2>&1; then
        ok "$name: --$mode $arg $opts matches the float64 reference"
    else
        notok "$name: --$mode $arg $opts differs from the reference"
        sed 's/^/# /' "$out/err" "$out/diff" | head -20
    fi
done <"$fix/MANIFEST"

# one match of one step: singular ("1 match covers 1 step"), the text's first character
"$bin" --units '^w' "$lstm" "$clean" 2>/dev/null | grep -q '^"^w": 1 match covers 1 step (0.0%)$'
check $? "--units '^w': 1 match covers 1 step, in the singular"
# the plain output: a header, then the top ten of each of the six signals
"$bin" --units '[aeio]+' "$lstm" "$text" >"$out/plain" 2>"$out/err"
if [ "$(grep -c ': the 10 units of largest |r|$' "$out/plain")" = 6 ] &&
    grep -q '^"\[aeio\]+": 548 matches cover 671 steps' "$out/plain"; then
    ok "--units prints the top ten of every signal"
else
    notok "--units plain output"
    sed 's/^/# /' "$out/plain" "$out/err" | head -20
fi
"$bin" --profile --unit 3 "$lstm" "$text" >"$out/plain" 2>"$out/err"
if grep -q '^the 10 steps of highest value$' "$out/plain" &&
    grep -q '^mean by input character, highest first$' "$out/plain" &&
    [ "$(grep -c '\[.*\]' "$out/plain")" -ge 20 ]; then
    ok "--profile prints both ends with their context and the means by character"
else
    notok "--profile plain output"
    sed 's/^/# /' "$out/plain" "$out/err" | head -20
fi

# the figure: one span per step with the value in its title, the values of --dump
page="$out/fig.html"
if "$bin" --html "$page" --unit 5 --signal c --from 100 --to 399 "$lstm" "$text" >"$out/msg" 2>"$out/err" &&
    [ "$(grep -o 'title="step [0-9]*: c [-0-9.]*"' "$page" | wc -l)" = 300 ]; then
    ok "--html: a page of 300 characters, each with its value"
else
    notok "--html did not write the page"
    sed 's/^/# /' "$out/msg" "$out/err" | head
fi
# the text wraps between words, each character its own span: no rule that breaks a word
# anywhere (break-all cut "Bethlehemjudah" at the line's end), a word longer than the line
# broken
if grep -q '#text{[^}]*white-space:pre-wrap;overflow-wrap:break-word}' "$page" &&
    ! grep -q 'word-break' "$page"; then
    ok "--html: the text wraps between words"
else
    notok "--html: the text's wrapping breaks words"
fi
# (the last six fields are the values, the unit before them; a quoted line break splits a
# record, whose first line is then too short to count)
"$bin" --dump --from 100 --to 399 "$lstm" "$text" 2>/dev/null |
    awk -F, 'NR > 1 && NF >= 9 && $(NF - 6) == 5 { printf "%.4f\n", $(NF - 1) }' >"$out/want"
grep -o 'title="step [0-9]*: c [-0-9.]*"' "$page" | sed 's/.* c //; s/"//' >"$out/got"
if [ -s "$out/want" ] && awk 'NR == FNR { w[FNR] = $1; next } { d = $1 - w[FNR]; if (d < 0) d = -d; if (d > 1.5e-4) bad++ } END { exit bad > 0 }' "$out/want" "$out/got"; then
    ok "--html: the titles carry the values --dump writes"
else
    notok "--html: the titles' values differ from --dump's"
    paste "$out/want" "$out/got" | head -5 | sed 's/^/# /'
fi
cp "$page" "$out/before"
"$bin" --html "$page" --unit 5 "$lstm" "$clean" >/dev/null 2>"$out/err"
st=$?
if [ $st -eq 2 ] && [ "$(wc -l <"$out/err")" -eq 1 ] && grep -q 'exists; not overwritten' "$out/err" &&
    cmp -s "$page" "$out/before"; then
    ok "--html refuses an existing file, which stays as it was"
else
    notok "--html over an existing file: exit $st"
    sed 's/^/# /' "$out/err"
fi

# bad input: exit 2 and one line saying what
# bad WANT ARGS...: one line; usage WANT ARGS...: one line too (a bad usage names --help
# rather than printing the usage)
bad() { refused 1 "$@"; }
usage() { refused 1 "$@"; }
refused() {
    one=$1 want=$2
    shift 2
    "$bin" "$@" >"$out/stdout" 2>"$out/err"
    st=$?
    if [ $st -eq 2 ] && { [ "$one" = 0 ] || [ "$(wc -l <"$out/err")" -eq 1 ]; } &&
        head -1 "$out/err" | grep -qF -- "$want" && [ ! -s "$out/stdout" ]; then
        ok "$*: exit 2: $(head -1 "$out/err")"
    else
        notok "$*: exit $st, wanted one line with \"$want\""
        sed 's/^/# /' "$out/err" | head -5
    fi
}
bad 'not a valid regular expression' --units '(' "$lstm" "$clean"
bad 'not a valid regular expression' --units 'a{2,1}' "$lstm" "$clean"
bad 'matches no character' --units 'xyz' "$lstm" "$clean"
bad 'matches no character' --units 'q*' "$lstm" "$clean"
bad "^ is the start of the text alone: a line's start is \\n before it" --units '^xyz' "$lstm" "$clean"
bad 'matches every one' --units '.' "$lstm" "$clean"
bad 'matches every one' --units '.*' "$lstm" "$clean"
bad 'outside the text (steps 0..3548)' --select 3540:3549 "$lstm" "$clean"
bad 'the span ends before it starts' --select 20:10 "$lstm" "$clean"
bad 'past the 2000 steps searched' --select 2500:2501 --steps 2000 "$lstm" "$clean"
bad '--select wants A:B' --select 10 "$lstm" "$clean"
bad '--select wants A:B' --select 10:-3 "$lstm" "$clean"
bad '--threshold wants a number' --select 10:12 --threshold high "$lstm" "$clean"
bad 'the model has 24 units (0..23)' --profile --unit 24 "$lstm" "$clean"
bad '--profile needs --unit J' --profile "$lstm" "$clean"
bad '--html needs --unit J' --html "$out/x.html" "$lstm" "$clean"
bad "the LSTM's signals are i, f, g, o, c, h" --profile --unit 1 --signal q "$lstm" "$clean"
bad "the GRU's signals are r, z, n, h" --units a --signal c "$gru" "$clean"
bad 'outside the text (steps 0..3548)' --html "$out/y.html" --unit 1 --from 4000 "$lstm" "$clean"
usage '--from is after --to' --html "$out/y.html" --unit 1 --from 20 --to 10 "$lstm" "$clean"
usage '--steps wants an integer >= 1' --units a --steps 0 "$lstm" "$clean"
usage 'choose one of' --units a --select 1:2 "$lstm" "$clean"
[ ! -e "$out/x.html" ] && [ ! -e "$out/y.html" ] && ok "no page written on bad input" ||
    notok "a page was written on bad input"
echo "1..$n"
