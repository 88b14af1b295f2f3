#!/bin/sh
# Only the characters come from the environment's locale (doc/usage.md, "Environment"): under
# de_DE.UTF-8, whose numbers have a decimal comma (made here by localedef into a directory of
# the test's own: Debian's `locales` holds its source), every output is byte for byte the one
# under C.UTF-8, on the shipped samples at full length: the report's tables and its JSON with
# an option's decimal point read (--forget-bias 0.5), --dump's CSV and --jacobian's --matrix
# near the text's end, --units over the whole text, --select with --threshold 0.3, a figure
# (its SVG and its CSV) and the screen by --export with an edit; an option written with a
# decimal comma is refused as under C.UTF-8. Before, the tables and the CSV had decimal commas
# (`0,937051833,0,11826852`: a CSV of twice the columns) and --forget-bias 0.5 was refused.
sam=$(cd "$top_srcdir/samples" && pwd)
bin=$(cd "$top_builddir" && pwd)/gatetui
. "$top_srcdir/tests/lib/tap.sh"
need "$bin"
out=$(mktemp -d) || exit 1
trap 'rm -rf "$out"' EXIT
mkdir -p "$out/loc"
if ! localedef -i de_DE -f UTF-8 "$out/loc/de_DE.UTF-8" >"$out/localedef.err" 2>&1 &&
    [ ! -d "$out/loc/de_DE.UTF-8" ]; then
    skip "no de_DE.UTF-8 locale can be made here (localedef and Debian's locales): $(head -1 "$out/localedef.err")"
    echo "1..$n"
    exit 0
fi
mkdir -p "$out/c" "$out/de"
# the locale is working: a program of the system's (printf) writes a decimal comma in it
if [ "$(LOCPATH=$out/loc LC_ALL=de_DE.UTF-8 /usr/bin/printf '%.1f' 0.5 2>/dev/null)" = "0,5" ]; then
    ok "de_DE.UTF-8 made: printf writes 0,5 in it"
else
    bail "de_DE.UTF-8 was made but does not write a decimal comma"
fi

lstm=$sam/kjv-lstm.bin gru=$sam/kjv-gru.bin text=$sam/kjv-valid.txt
# same NAME COMMAND...: COMMAND's standard output and its files (in the directory it runs
# in) under C.UTF-8 and under de_DE.UTF-8, compared byte for byte
same() {
    name=$1
    shift
    for l in c de; do
        if [ $l = c ]; then loc=C.UTF-8; else loc=de_DE.UTF-8; fi
        (cd "$out/$l" && LOCPATH=$out/loc LC_ALL=$loc "$@" >"$name.out" 2>"$name.err")
        echo $? >"$out/$l/$name.rc"
    done
    if [ "$(cat "$out/c/$name.rc")" != 0 ] || [ "$(cat "$out/de/$name.rc")" != 0 ]; then
        notok "$name: exit $(cat "$out/c/$name.rc") under C.UTF-8, $(cat "$out/de/$name.rc") under de_DE.UTF-8"
        head -2 "$out/de/$name.err" | sed 's/^/# /'
    elif [ ! -s "$out/c/$name.out" ] && [ -z "$(find "$out/c" -name "$name.*" ! -name "$name.out" \
        ! -name "$name.err" ! -name "$name.rc" | head -1)" ]; then
        notok "$name: wrote nothing"
    elif diff -r "$out/c" "$out/de" >"$out/diff" 2>&1; then
        ok "$name: the same under de_DE.UTF-8 as under C.UTF-8"
    else
        notok "$name: differs under de_DE.UTF-8"
        head -6 "$out/diff" | cut -c1-160 | sed 's/^/# /'
    fi
}
same report "$bin" --report "$lstm" "$text"
same report_json "$bin" --report --json --forget-bias 0.5 "$gru" "$text"
same dump "$bin" --dump --from 43200 --to 43234 "$lstm" "$text"
same matrix "$bin" --jacobian --step 43000 --lag 4 --matrix "$lstm" "$text"
same units "$bin" --units '[A-Z]' "$lstm" "$text"
same select "$bin" --select 100:120 --threshold 0.3 "$gru" "$text"
same figure "$bin" --figure figure.svg halflives --windows 8 "$lstm" "$text"
same export "$bin" --export - --step 43100 --edit 43000:x --size 120x40 "$lstm" "$text"
# a decimal comma in an option is refused, as under C.UTF-8
refused "--forget-bias 0,5 under de_DE.UTF-8" env LOCPATH="$out/loc" LC_ALL=de_DE.UTF-8 \
    "$bin" --report --forget-bias 0,5 "$lstm" "$text"
echo "1..$n"
