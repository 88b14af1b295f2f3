#!/bin/sh
# Each malformed model file (tests/malformed, made by tests/ref/make_malformed.py) is
# refused with exit status 2 and one line naming the problem.
dir="$top_srcdir/tests/malformed"
bin="$top_builddir/gatetui"
err=$(mktemp) || exit 1
trap 'rm -f "$err"' EXIT
n=0
printf 'abc\n' >"$err.txt"
trap 'rm -f "$err" "$err.txt"' EXIT
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
