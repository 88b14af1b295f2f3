#!/bin/sh
# The kernel sets on the command line: `gatetui --kernels` lists the sets this processor
# runs, best first (known names, no repeats, "c" last); GATETUI_KERNEL chooses one in
# every mode, each set giving numbers of its own; an unknown name is refused in every mode
# with exit status 2 and one line naming the sets this processor runs.
bin="$top_builddir/gatetui"
model="$top_srcdir/samples/kjv-lstm.bin"
text="$top_srcdir/samples/kjv-valid.txt"
out=$(mktemp -d) || exit 1
trap 'rm -rf "$out"' EXIT
n=0
result() { # result STATUS DESCRIPTION
    n=$((n + 1))
    if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fi
}

"$bin" --kernels >"$out/sets" 2>"$out/err"
rc=$?
sets=$(tr '\n' ' ' <"$out/sets")
case "$sets" in
"avx512 avx2 c " | "avx2 c " | "c ") order=0 ;;
*) order=1 ;;
esac
[ $rc -eq 0 ] && [ ! -s "$out/err" ]
result $((order + $?)) "--kernels lists ${sets:-nothing}(exit $rc): known names, best first, c last"
[ -n "$sets" ] || { echo "Bail out! gatetui --kernels listed no kernel set"; exit 1; }

GATETUI_KERNEL=bogus "$bin" --kernels >"$out/sets2" 2>&1 && cmp -s "$out/sets" "$out/sets2"
result $? "--kernels lists the same whatever GATETUI_KERNEL says"

# each set in --dump and --report, and different numbers from each (the choice is made)
for k in $sets; do
    GATETUI_KERNEL=$k "$bin" --dump --to 40 "$model" "$text" >"$out/dump.$k" 2>"$out/err" &&
        GATETUI_KERNEL=$k "$bin" --report --json --windows 2 --window-len 40 "$model" "$text" \
            >"$out/report.$k" 2>>"$out/err" && [ -s "$out/dump.$k" ] && [ ! -s "$out/err" ]
    result $? "GATETUI_KERNEL=$k: --dump and --report run"
done
done=""
for k in $sets; do
    for l in $done; do
        ! cmp -s "$out/dump.$k" "$out/dump.$l" && ! cmp -s "$out/report.$k" "$out/report.$l"
        result $? "GATETUI_KERNEL=$l and $k: the dumps differ, and the reports (each set is used)"
    done
    done="$done $k"
done

GATETUI_KERNEL= "$bin" --dump --to 40 "$model" "$text" >"$out/dump.empty" 2>"$out/err" &&
    first=$(head -1 "$out/sets") && cmp -s "$out/dump.empty" "$out/dump.$first"
result $? "GATETUI_KERNEL empty: the best set, $(head -1 "$out/sets")"

# a set this processor lacks (on a processor with all three, none), then an unknown name in
# each mode (the screen's before it looks for a terminal)
for k in avx512 avx2; do
    case " $sets" in *" $k "*) continue ;; esac
    GATETUI_KERNEL=$k "$bin" --dump "$model" "$text" >/dev/null 2>"$out/err"
    rc=$?
    [ $rc -eq 2 ] && [ "$(wc -l <"$out/err")" -eq 1 ]
    result $? "GATETUI_KERNEL=$k, which this processor lacks: exit $rc, one line ($(head -1 "$out/err"))"
done
for mode in "--dump" "--report" "--export $out/frame.txt --step 3" ""; do
    # shellcheck disable=SC2086
    GATETUI_KERNEL=avx9 "$bin" $mode "$model" "$text" >/dev/null 2>"$out/err" </dev/null
    rc=$?
    named=0
    for k in $sets; do grep -q "$k" "$out/err" || named=1; done
    [ $rc -eq 2 ] && [ "$(wc -l <"$out/err")" -eq 1 ] && grep -q 'GATETUI_KERNEL.*avx9' "$out/err" &&
        [ $named -eq 0 ] && [ ! -e "$out/frame.txt" ]
    label=${mode%% *}
    result $? "GATETUI_KERNEL=avx9 ${label:-(the screen)}: exit $rc, one line naming the sets ($(head -1 "$out/err"))"
done
echo "1..$n"
