#!/bin/sh
# Each malformed model file (tests/cli/malformed, made by tests/ref/make_malformed.py) is
# refused with exit status 2 and one line naming the problem. First, as a positive
# control, the valid model they are all made from loads: its dump and its readout's
# probabilities, nothing on standard error.
dir="$top_srcdir/tests/cli/malformed"
bin="$top_builddir/gatetui"
. "$top_srcdir/tests/lib/tap.sh"
need "$bin"
err=$(mktemp) || exit 1
printf 'abc\n' >"$err.txt"
trap 'rm -f "$err" "$err.txt" "$err.csv"' EXIT
# only_loss_warning FILE: FILE is empty but for the warning that a model of random weights
# predicts no better than a uniform guess
only_loss_warning() { ! grep -v 'is no better than a uniform guess' "$1" | grep -q .; }
# valid.safetensors: an LSTM of 2 units over the vocabulary "abc", a readout of 3
steps=$(tr -cd abc <"$dir/text.txt" | wc -c)
if "$bin" --dump "$dir/valid.safetensors" "$dir/text.txt" >"$err.csv" 2>"$err" &&
    [ "$(head -1 "$err.csv")" = "step,char,layer,unit,i,f,g,o,c,h" ] &&
    [ "$(wc -l <"$err.csv")" -eq $((steps * 2 + 1)) ] && only_loss_warning "$err" &&
    "$bin" --dump --probs "$dir/valid.safetensors" "$dir/text.txt" >"$err.csv" 2>"$err" &&
    [ "$(wc -l <"$err.csv")" -eq $((steps * 3 + 1)) ] && only_loss_warning "$err"; then
    ok "valid.safetensors (the malformed files' base) loads: $steps steps of 2 units, 3 probabilities each"
else
    notok "valid.safetensors (the malformed files' base) does not load"
    sed 's/^/# /' "$err"
fi
while IFS="$(printf '\t')" read -r file want; do
    case "$file" in ''|'#'*) continue ;; esac
    n=$((n + 1))
    "$bin" --dump "$dir/$file" "$err.txt" >/dev/null 2>"$err"
    st=$?
    lines=$(wc -l <"$err")
    msg=$(cat "$err")
    if [ "$st" -eq 2 ] && [ "$lines" -eq 1 ] &&
        printf '%s' "$msg" | grep -qiF -- "$want" && printf '%s' "$msg" | grep -qF -- "$file"; then
        echo "ok $n - $file: refused: $msg"
    else
        echo "not ok $n - $file: status $st, $lines lines, wanted \"$want\": $msg"
    fi
done <"$dir/EXPECTED"
# inputs the fuzzer once found a fault with: refused in one line, exit status 2
for f in "$top_srcdir"/tests/fuzz/crashes/*; do
    [ -f "$f" ] || continue
    n=$((n + 1))
    "$bin" --dump "$f" "$err.txt" >/dev/null 2>"$err"
    st=$?
    lines=$(wc -l <"$err")
    if [ "$st" -eq 2 ] && [ "$lines" -eq 1 ]; then
        echo "ok $n - fuzz finding $(basename "$f"): refused in one line"
    else
        echo "not ok $n - fuzz finding $(basename "$f"): status $st, $lines lines: $(cat "$err")"
    fi
done
echo "1..$n"
