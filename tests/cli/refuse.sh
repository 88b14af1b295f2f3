#!/bin/sh
# Files gatetui would compute wrongly, refused (tests/fixtures/refuse, made by
# tests/ref/make_refuse_fixtures.py): each file of EXPECTED refused with exit status 2 and
# one line that names the file and contains its word, in every mode; each look-alike of
# ACCEPTED (tensors beside the cell, ...) read as before; the parameter count of PARAMS
# (shared storage once) in the report and the header.
fix=$(cd "$top_srcdir/tests/fixtures/refuse" && pwd)
bin=$(cd "$top_builddir" && pwd)/gatetui
out=$(mktemp -d) || exit 1
trap 'rm -rf "$out"' EXIT
. "$top_srcdir/tests/lib/tap.sh"
need "$bin"
fail() { # DESCRIPTION: notok, with the message got
    notok "$*"
    sed 's/^/# /' "$out/err" | head -5
}

while IFS="$(printf '\t')" read -r file want; do
    case "$file" in ''|'#'*) continue ;; esac
    for mode in --dump --report; do
        "$bin" $mode "$fix/$file" "$fix/text.txt" >/dev/null 2>"$out/err"
        st=$?
        msg=$(cat "$out/err")
        if [ "$st" -eq 2 ] && [ "$(wc -l <"$out/err")" -eq 1 ] &&
            printf '%s' "$msg" | grep -qF -- "$want" && printf '%s' "$msg" | grep -qF -- "$file"; then
            ok "$file ($mode): refused: $msg"
        else
            fail "$file ($mode): status $st, wanted exit 2 and \"$want\""
        fi
    done
done <"$fix/EXPECTED"

while read -r file; do
    case "$file" in ''|'#'*) continue ;; esac
    if "$bin" --dump --to 3 "$fix/$file" "$fix/text.txt" >"$out/dump" 2>"$out/err" &&
        [ "$(wc -l <"$out/dump")" -gt 4 ]; then
        ok "$file: read (the dump of steps 0..3)"
    else
        fail "$file: not read"
    fi
done <"$fix/ACCEPTED"
# the parameter count as PyTorch's model.parameters() gives it: shared storage once
while IFS="$(printf '\t')" read -r file want; do
    case "$file" in ''|'#'*) continue ;; esac
    "$bin" --report --json "$fix/$file" "$fix/text.txt" >"$out/json" 2>"$out/err"
    got=$(tr -d ' \n' <"$out/json" | sed -n 's/.*"params":\([0-9]*\).*/\1/p')
    LC_ALL=C.UTF-8 "$bin" --export - --step 1 --size 200x40 "$fix/$file" "$fix/text.txt" >"$out/frame" 2>>"$out/err"
    shown=$(head -1 "$out/frame" | sed -n 's/.* \([0-9,]*\) params.*/\1/p' | tr -d ,)
    if [ "$got" = "$want" ] && [ "$shown" = "$want" ]; then
        ok "$file: $want parameters, in the report and the header, as PyTorch counts them"
    else
        fail "$file: the report says \"$got\" parameters, the header \"$shown\"; PyTorch $want"
    fi
done <"$fix/PARAMS"
echo "1..$n"
