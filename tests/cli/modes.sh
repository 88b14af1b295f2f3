#!/bin/sh
# The command line's table of modes (src/cli/modes.c, its rows in src/cli/*.c) against what
# gatetui says: the usage and --help list every mode of the table, and so do gatetui.1 and
# doc/usage.md; --help's usage is the one gatetui prints when given nothing; two modes at
# once (every pair, and each twice, but for a repeatable one: MODE_REPEAT), an unknown
# option, a missing argument and a variant without its mode each give one line (the
# message, and that --help shows the usage), exit status 2 and nothing on standard output; a repeatable mode's option given twice is one mode; a bad
# GATETUI_THREADS one line and exit status 2.
bin="$top_builddir/gatetui"
cli="$top_srcdir/src/cli"
. "$top_srcdir/tests/lib/tap.sh"
need "$bin"
out=$(mktemp -d) || exit 1
trap 'rm -rf "$out"' EXIT

# The rows: "NAME OPTION ARG WITH KIND REPEAT" per row of the table, in its order (OPTION,
# WITH "-" when none; KIND model, now or group; REPEAT 1 for an option that may be given
# again).
awk '
FNR == 1 { row = "" }
/^const cli_mode [a-z_]+ = \{/ || /^static const cli_mode [a-z_]+ = \{/ {
    row = $0; sub(/^(static )?const cli_mode /, "", row); sub(/ = \{.*/, "", row)
    opt[row] = "-"; arg[row] = 0; with[row] = "-"; kind[row] = "group"; rep[row] = 0
}
row != "" && /^    \.option = "/ { s = $0; sub(/^[^"]*"/, "", s); sub(/".*/, "", s); opt[row] = s }
row != "" && /^    \.with = "/ { s = $0; sub(/^[^"]*"/, "", s); sub(/".*/, "", s); with[row] = s }
row != "" && /^    \.arg = 1/ { arg[row] = 1 }
row != "" && /^    \.flags = .*MODE_REPEAT/ { rep[row] = 1 }
row != "" && /^    \.(each|run) = / { kind[row] = "model" }
row != "" && /^    \.now = / { kind[row] = "now" }
row != "" && /^};/ { row = "" }
/^const cli_mode \*const cli_modes\[\] = \{/ { table = 1; next }
table && /^};/ { table = 0 }
table && /&[a-z_]+/ { s = $0; sub(/^[^&]*&/, "", s); sub(/[,)].*/, "", s); order[++n] = s }
END { for (i = 1; i <= n; i++) print order[i], opt[order[i]], arg[order[i]], with[order[i]], kind[order[i]], rep[order[i]] }
' "$cli"/*.c >"$out/rows"
rows=$(wc -l <"$out/rows")
modes=$(awk '$5 != "group"' "$out/rows" | wc -l)
[ "$modes" -ge 14 ] && [ "$(awk '$5 == "model" && $2 == "-"' "$out/rows" | wc -l)" -eq 1 ]
check $? "the table: $rows rows, $modes of them modes, one without an option (the screen)"

"$bin" >/dev/null 2>"$out/usage"
"$bin" --help >"$out/help" 2>&1
# the usage: what follows the first line when nothing is given
tail -n +2 "$out/usage" >"$out/usage.only"
sed -n '/^usage: /,/^$/p' "$out/help" | sed '$d' >"$out/help.usage"
cmp -s "$out/usage.only" "$out/help.usage"
check $? "--help's usage is the one bad usage prints ($(wc -l <"$out/usage.only") lines)"

while read -r name option arg with kind repeat; do
    [ "$option" = - ] && continue
    grep -qE -- "(^| )--$option( |\$)" "$out/usage.only"
    check $? "the usage lists --$option ($name)"
    grep -qE -- "^  (--[a-z-]+, )?--$option( |,|\$)" "$out/help"
    check $? "--help lists --$option ($name)"
    grep -qF -- "--$option" "$top_srcdir/doc/usage.md" &&
        grep -qF -- "$(printf '%s' "--$option" | sed 's/-/\\-/g')" "$top_srcdir/gatetui.1"
    check $? "doc/usage.md and gatetui.1 name --$option ($name)"
done <"$out/rows"
# every option a row brings (its cli_option table) in --help, doc/usage.md, gatetui.1 and
# the README
grep -ho '{"[a-z0-9-]*", [01], cli_set' "$cli"/*.c | sed 's/{"\([a-z0-9-]*\)".*/\1/' | sort -u \
    >"$out/options"
[ "$(wc -l <"$out/options")" -ge 30 ]
check $? "the rows bring $(wc -l <"$out/options") options"
while read -r o; do
    miss=
    grep -qE -- "(^| |\[|\()--$o( |,|\[|\]|\)|\$)" "$out/help" || miss="$miss --help"
    grep -qF -- "--$o" "$top_srcdir/doc/usage.md" || miss="$miss doc/usage.md"
    grep -qF -- "$(printf '%s' "--$o" | sed 's/-/\\-/g')" "$top_srcdir/gatetui.1" || miss="$miss gatetui.1"
    grep -qF -- "--$o" "$top_srcdir/README.md" || miss="$miss README.md"
    [ -z "$miss" ]
    check $? "--$o is in --help, doc/usage.md, gatetui.1 and README.md${miss:+ (not in$miss)}"
done <"$out/options"
# the man page as man shows it (where groff is there): no word hyphenated across two lines
# (an option so split, --nonlin-/earity, could not be copied), every option whole
if command -v groff >/dev/null 2>&1; then
    groff -man -Tutf8 -rLL=78n "$top_srcdir/gatetui.1" 2>/dev/null | sed 's/.\x08//g' \
        >"$out/man.txt" # bold and underline overstruck: each character alone
    miss=
    while read -r o; do
        grep -qF -- "--$o" "$out/man.txt" || miss="$miss --$o"
    done <"$out/options"
    cut=$(grep -c '‐$' "$out/man.txt")
    [ -s "$out/man.txt" ] && [ -z "$miss" ] && [ "$cut" -eq 0 ]
    check $? "the man page as shown: no word cut by a hyphen ($cut), every option whole${miss:+ (not:$miss)}"
else
    skip "no groff to show the man page with"
fi
# every line of the usage, word for word, in README's Modes and doc/usage.md's synopsis (the
# indented block after their heading), and nothing else there
sed -e 's/^usage: //' -e 's/^       //' -e 's/^  any mode:/  any mode:/' "$out/usage.only" \
    >"$out/usage.lines"
for doc in README.md:'## Modes' doc/usage.md:'# Usage'; do
    f=${doc%%:*} head=${doc#*:}
    awk -v h="$head" '$0 == h { on = 1; next } on && /^    / { sub(/^    /, ""); print; seen = 1; next }
        on && seen { exit }' "$top_srcdir/$f" >"$out/doc.lines"
    if cmp -s "$out/usage.lines" "$out/doc.lines"; then
        ok "$f's block under \"$head\" is the usage, line for line ($(wc -l <"$out/doc.lines") lines)"
    else
        notok "$f's block under \"$head\" differs from the usage"
        diff "$out/usage.lines" "$out/doc.lines" | sed 's/^/# /' | head -20
    fi
done
# the man page's synopsis, its macros read (.B, .I: the words; .RB, .IR, ...: joined), entry
# by entry (each ends at .br): every entry that starts with "gatetui" is a line of the usage,
# and every such line of the usage is an entry
awk '/^\.SH SYNOPSIS/ { on = 1; next } /^\.SH/ { on = 0 } !on { next }
    function args(s,   a, n, q, c, i, w) { # the arguments of a macro line, a quoted one kept whole
        n = 0; q = 0; w = ""
        for (i = 1; i <= length(s); i++) {
            c = substr(s, i, 1)
            if (c == "\"") { q = !q; continue }
            if (c == " " && !q) { if (w != "") A[++n] = w; w = ""; continue }
            w = w c
        }
        if (w != "") A[++n] = w
        return n
    }
    /^\.br$/ { print line; line = ""; next }
    {
        s = $0; sep = " "
        if (s ~ /^\.(B|I) /) sub(/^\.(B|I) /, "", s)
        else if (s ~ /^\.(RB|IR|RI|BR|BI|IB) /) {
            sub(/^\.[A-Z][A-Z] /, "", s); n = args(s); s = ""
            for (i = 1; i <= n; i++) s = s A[i]
        }
        line = line (line == "" ? "" : sep) s
    }
    END { if (line != "") print line }' "$top_srcdir/gatetui.1" |
    sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' -e 's/\\&//g' -e 's/  */ /g' -e 's/ *$//' |
    grep '^gatetui' | sort >"$out/man.lines"
grep '^gatetui' "$out/usage.lines" | sort >"$out/usage.gatetui"
if [ -s "$out/man.lines" ] && cmp -s "$out/usage.gatetui" "$out/man.lines"; then
    ok "gatetui.1's synopsis is the usage, entry for entry ($(wc -l <"$out/man.lines") entries)"
else
    notok "gatetui.1's synopsis differs from the usage"
    diff "$out/usage.gatetui" "$out/man.lines" | sed 's/^/# /' | head -20
fi
grep -q '^usage: gatetui \[--layer N\].* MODEL \[MODEL \.\.\.\] TEXT$' "$out/usage.only"
check $? "the usage's first line is the screen's"

# refused WANT ARGS...: exit 2, one line: WANT and where the usage is; nothing on standard output
refused() {
    want=$1
    shift
    "$bin" "$@" >"$out/stdout" 2>"$out/err"
    st=$?
    if [ $st -eq 2 ] && [ "$(wc -l <"$out/err")" -eq 1 ] &&
        [ "$(cat "$out/err")" = "gatetui: $want (gatetui --help shows the usage)" ] &&
        [ ! -s "$out/stdout" ]; then
        ok "$*: exit 2, one line: \"$want\" and where the usage is"
    else
        notok "$*: exit $st, wanted one line, \"$want\" and where the usage is"
        sed 's/^/# /' "$out/err" | head -3
    fi
}
# each mode that reads models and has an option of its own, as words (with an argument)
awk '$5 == "model" && $2 != "-" && $4 == "-" { print "--" $2 ($3 ? " x" : "") }' "$out/rows" \
    >"$out/modes"
awk '$6 == 1 { print "--" $2 ($3 ? " x" : "") }' "$out/rows" >"$out/repeat"
list=$(awk '{ sub(/ x$/, ""); a[++n] = $0 } END {
    for (i = 1; i <= n; i++) printf "%s%s", (i == 1 ? "" : i == n ? " and " : ", "), a[i] }' \
    "$out/modes")
one="choose one of $list"
while read -r a; do
    while read -r b; do
        [ "$a" = "$b" ] && grep -qxF -- "$a" "$out/repeat" && continue
        want=$one # a mode given twice is said so (it was "choose one of" that very mode)
        [ "$a" = "$b" ] && want="${a% x} is given twice: a run has one"
        # shellcheck disable=SC2086
        refused "$want" $a $b model.bin text.txt
    done <"$out/modes"
done <"$out/modes"
# a repeatable mode twice is that mode once: no "choose one" (its own word on what is missing)
while read -r a; do
    # shellcheck disable=SC2086
    "$bin" $a $a model.bin text.txt >"$out/stdout" 2>"$out/err"
    st=$?
    [ $st -eq 2 ] && ! grep -q 'choose one' "$out/err" && [ ! -s "$out/stdout" ]
    check $? "$a $a: one mode, its option given twice (exit $st: $(head -1 "$out/err"))"
done <"$out/repeat"
[ -s "$out/repeat" ]
check $? "the table has a repeatable mode ($(tr '\n' ' ' <"$out/repeat"))"
# a file named -weird.txt is read as options; the message names it (it named the argument
# before it) and says how to give it
refused "unknown option -weird.txt (a file whose name starts with - is given as ./-weird.txt)" \
    --report model.bin -weird.txt
refused "unknown option or missing argument: --bogus" --bogus model.bin text.txt
refused "unknown option or missing argument: --bogus" --report --bogus model.bin text.txt
refused "unknown option or missing argument: --units" model.bin text.txt --units
refused "unknown option or missing argument: --layer" --dump --layer
awk '$4 != "-" { print $2, $4 }' "$out/rows" >"$out/variants"
[ -s "$out/variants" ] || echo "- -" >"$out/variants"
while read -r option with; do
    [ "$option" = - ] && { skip "no variant in the table"; continue; }
    refused "--$option goes with --$with" --"$option" 0:1:1 model.bin text.txt
done <"$out/variants"
refused "expected MODEL and TEXT" --report text.txt

for v in x -1 2x 99999999999; do
    GATETUI_THREADS=$v "$bin" --dump "$top_srcdir/samples/kjv-lstm.bin" \
        "$top_srcdir/samples/kjv-valid.txt" >"$out/stdout" 2>"$out/err"
    st=$?
    [ $st -eq 2 ] && [ "$(wc -l <"$out/err")" -eq 1 ] && [ ! -s "$out/stdout" ] &&
        grep -qF "GATETUI_THREADS wants an integer >= 0, not \"$v\"" "$out/err"
    check $? "GATETUI_THREADS=$v: exit $st, one line ($(head -1 "$out/err"))"
done
echo "1..$n"
