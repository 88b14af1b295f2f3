#!/bin/sh
# The perturbation panel and the stats view in a real terminal (tmux at 120x40, the
# two-layer test model): an edit's half-lives and ratio read off the screen equal what
# tests/lib/perthl computes straight from the engine; + and - change K; a second edit stacks
# (against the text with the first); u goes back to the first edit's curves, then to an
# empty panel; ] recomputes for layer 1; d shows edited - before; w writes the edited text
# to a new file; r shows the report's tables, the same as gatetui --report.
# GATETUI_VALGRIND=1 runs gatetui under valgrind (tests/lib/e2e_lib.sh).
src="${top_srcdir:-.}"
bld="${top_builddir:-.}"
. "$src/tests/lib/e2e_lib.sh"
e2e_terminal_or_skip

e2e_setup pert
perthl=$(cd "$bld" && pwd)/tests/lib/perthl
need "$perthl"
cp "$text" "$work/text.txt"


# the panel's numbers as "c F h ratio K L", from the line
# "t½ c 1.4  L 1.3  F 1.3  h 1.4   c/F at k=64: 3.34" or, when that does not fit,
# "t½ c 1.4 L 1.3 F 1.3 h 1.4  c/F(144) 23.11"
panel() {
    screen | sed -n -e 's/.*t½ c \([^ ]*\)  L \([^ ]*\)  F \([^ ]*\)  h \([^ ]*\)   c\/F at k=\([0-9]*\): \([^ ]*\).*/\1 \3 \4 \6 \5 \2/p' \
        -e 's/.*t½ c \([^ ]*\) L \([^ ]*\) F \([^ ]*\) h \([^ ]*\)  c\/F(\([0-9]*\)) \([^ ]*\).*/\1 \3 \4 \6 \5 \2/p' | head -1
}
# perthl under valgrind too when gatetui is: the kernels chosen depend on the processor
# valgrind shows, and far from the edit the curves are at double precision's floor, where
# each kernel rounds its own way
perthl_run=$perthl
[ -n "${GATETUI_VALGRIND:-}" ] && perthl_run="valgrind -q $perthl"
# same_numbers DESCRIPTION LAYER K EDITS...: the panel against perthl
same_numbers() {
    what=$1 layer=$2 K=$3
    shift 3
    got=$(panel)
    if want=$($perthl_run "$model" "$work/text.txt" "$layer" "$K" "$@") && [ -n "$got" ] &&
        [ "$got" = "$want" ]; then
        ok "$what: the panel's half-lives and ratio equal the engine's ($got)"
    else
        notok "$what: the panel says \"$got\", the engine \"$want\""
        screen | sed -n '28,40p' | sed 's/^/#   | /'
    fi
}

tm -f /dev/null new-session -d -s gt -x 120 -y 40 "cd $work && $runner $model text.txt 2>err; echo EXIT=\$?; sleep 3600"
wait_for "step 0 of 0..377" >/dev/null
check $? "the screen comes up"
wait_for "no edit: press e"
check $? "no edit: the panel says how to make one"

tm send-keys -t gt g 5 0 Enter
wait_for "step 50 of 0..377" >/dev/null
tm send-keys -t gt e x
wait_for "step 50: 's' → 'x'  layer 0, 1 edit"
check $? "e x at step 50: the panel shows the edit"
wait_all "c (measured|meas\.)  F (forget-only|forget)  h hidden  L (linearized|linear)" "│ +1e0│"
check $? "the curves are drawn on a log scale with their legend"
same_numbers "edit 50:x" 0 64 50:x
"$bin" --export "$work/exp.txt" --step 50 --edit 50:x "$model" "$work/text.txt" 2>/dev/null
# until the screen is the frame (e2e_until), its carriers line computed too
is_frame() { screen | sed -n '1,39p' >"$work/screen.txt" && sed -n '1,39p' "$work/exp.txt" | cmp -s - "$work/screen.txt"; }
e2e_until is_frame >/dev/null
is_frame
r=$?
check $r "the screen is the frame --export --edit 50:x draws"
[ $r -eq 0 ] || sed -n '1,39p' "$work/exp.txt" | diff - "$work/screen.txt" | sed 's/^/#   /'

tm send-keys -t gt +
wait_for "K 128  \+/-" >/dev/null && wait_for "c/F( at k=|\()128"
check $? "+ doubles K (128)"
same_numbers "K 128" 0 128 50:x
tm send-keys -t gt - -
wait_for "c/F( at k=|\()32"
check $? "- - halves it twice (32)"
same_numbers "K 32" 0 32 50:x
tm send-keys -t gt + + + + + +
wait_for "K is 1024" >/dev/null && wait_for "K 1024  \+/-" && wait_for " 0 +k +327$"
check $? "+ up to K 1024, no further; the curves stop at the text's end (k = 327)"
# far from the edit the measured difference is rounding (below 1e-13 of its start after
# k = 144 here): the ratio is taken at the last k above that
wait_for "c/F( at k=|\()144"
check $? "the ratio is given where the difference is still above rounding (k = 144, not 327)"
same_numbers "K 1024" 0 1024 50:x
tm send-keys -t gt - - - -
wait_for "c/F( at k=|\()64" >/dev/null

tm send-keys -t gt g 5 5 Enter
wait_for "step 55 of 0..377" >/dev/null
tm send-keys -t gt e y
wait_for "step 55: ' ' → 'y'  layer 0, 2 edits"
check $? "a second edit stacks (2 edits)"
same_numbers "edit 55:y after 50:x" 0 64 50:x 55:y

tm send-keys -t gt ']'
wait_for "step 55: ' ' → 'y'  layer 1, 2 edits"
check $? "] recomputes the curves for layer 1"
same_numbers "layer 1" 1 64 50:x 55:y
tm send-keys -t gt '['
wait_for "layer 0, 2 edits" >/dev/null

tm send-keys -t gt d
wait_all "layer 0 edited − before \(step 55\) by unit.* units 0-[0-9]+ of 20 " \
    "unit 0, layer 0, edited − before"
check $? "d shows the gate bars and the unit as edited − before, the rows shown still said"
tm send-keys -t gt d
wait_for "gates, layer 0: 20 units"
check $? "d again shows the values"

tm send-keys -t gt w
wait_for "edited text written to ./text-edited.txt, its edits to ./text-edited.edits.txt"
check $? "w writes the edited text to a new file, and its edits beside it"
o50=$(head -c 50 "$work/text.txt" | wc -c) o55=$(head -c 55 "$work/text.txt" | wc -c)
[ "$(grep -v '^#' "$work/text-edited.edits.txt")" = "$(printf '50\t%s\ts\tx\n55\t%s\t \ty' "$o50" "$o55")" ]
check $? "the edits' list: step, byte offset, before and after, in the order made"
cmp -l "$work/text.txt" "$work/text-edited.txt" >"$work/cmp" 2>/dev/null
[ "$(wc -l <"$work/cmp")" -eq 2 ]
check $? "it differs from the text in the two edited characters"
tm send-keys -t gt w
wait_for "written to ./text-edited-2.txt, its edits to ./text-edited-2.edits.txt"
check $? "w again: new files, not over the first"

tm send-keys -t gt u
wait_for "step 50: 's' → 'x'  layer 0, 1 edit"
check $? "u: the panel shows the first edit again"
same_numbers "after undo" 0 64 50:x
# a second edit, to a space: the report's count of spaces would show it
tm send-keys -t gt l e Space
wait_for "step 51: .* → ' '  layer 0, 2 edits" >/dev/null
tm send-keys -t gt r
wait_for "report: text.txt as loaded, layer 0"
check $? "r opens the stats view (with two edits made: the report is of the text as loaded)"
wait_for "Gates over all positions and units"
check $? "the report's tables come"
screen | sed -n 's/^ \(forget f.*\|space .*\)$/\1/p' | sed 's/ *$//' >"$work/got"
"$bin" --report "$model" "$work/text.txt" >"$work/report" 2>/dev/null &&
    grep -E "^(forget f|space) " "$work/report" >"$work/want" &&
    grep -q "^space " "$work/want" && cmp -s "$work/want" "$work/got"
check $? "the forget gate's and the spaces' rows are those of gatetui --report on the text as loaded ($(tr '\n' ';' <"$work/got"))"
tm send-keys -t gt ']'
wait_for "report: text.txt as loaded, layer 1" && wait_for "Gates over all positions"
check $? "] shows layer 1's report"
tm send-keys -t gt r
wait_for "gates, layer 1: 20 units"
check $? "r closes it"

tm send-keys -t gt u u
wait_for "no edit: press e"
check $? "u again: no edit left, the panel empties"
# (waited for: a capture can fall between two parts of curses' update, the panel's first
# row new and its half-lives' row not yet, as one did under valgrind)
wait_gone "t½ c"
check $? "no half-lives left on the screen"


tm send-keys -t gt '?'
wait_all "write the edited text" "report tables"
check $? "the help lists the new keys"
tm send-keys -t gt q
tm send-keys -t gt q
wait_for "EXIT=0" >/dev/null
check $? "q quits (exit 0)"
# the sample model: its report takes a second or two, computed by a child process that
# Esc ends at once, as does quitting: what the processes use after Esc or q is held to a
# quarter of what the whole report takes (gatetui --report, measured here), never to a
# time on the clock
sample="$src/samples/kjv-lstm.bin"
sampletext="$src/samples/kjv-valid.txt"
if [ "$slow" -gt 1 ]; then
    skip "the sample model's report under valgrind would take minutes"
elif [ -f "$sample" ] && [ -f "$sampletext" ]; then
    sample=$(cd "$(dirname "$sample")" && pwd)/kjv-lstm.bin
    sampletext=$(cd "$(dirname "$sampletext")" && pwd)/kjv-valid.txt
    children() { ps -o pid= --ppid "$1" 2>/dev/null | wc -l; }
    no_children() { [ "$(children "$1")" -eq 0 ]; }
    e2e_cputime "$bin" --report "$sample" "$sampletext" >"$work/report" 2>/dev/null
    quarter=$(awk -v t="$e2e_took" 'BEGIN { print t / 4 }')
    tm respawn-pane -k -t gt "cd $work && $bin $sample $sampletext 2>err2; echo EXIT=\$?; sleep 3600"
    wait_for "step 0 of 0..43,234" >/dev/null
    gpid=$(ps -o pid= --ppid "$(tm display -p -t gt '#{pane_pid}')" | tr -d ' ' | head -1)
    tm send-keys -t gt r
    wait_for "computing the report of layer 0" >/dev/null && [ "$(children "$gpid")" -ge 1 ]
    check $? "r on the sample: computing, in a child process"
    # the child held stopped while the key is taken, so that the report cannot end first
    # however slow the machine is
    kids=$(ps -o pid= --ppid "$gpid" | tr -d ' ' | paste -sd' ')
    # shellcheck disable=SC2086
    kill -STOP $kids 2>/dev/null
    held=$?
    tm send-keys -t gt l
    wait_for "step 1 of 0..43,234" && screen | grep -q "computing the report" && [ $held -eq 0 ]
    check $? "the keys keep working meanwhile (the report's child $kids held stopped)"
    # shellcheck disable=SC2086
    kill -CONT $kids 2>/dev/null
    tm send-keys -t gt Escape
    e2e_cpu=$quarter
    e2e_until no_children "$gpid"
    r=$?
    e2e_cpu=""
    [ $r -eq 0 ] && wait_for "gates, layer 0: 256 units" >/dev/null
    check $? "Esc closes the view and ends the computation (its child gone, within $quarter s of processor time, a quarter of the report's)"
    tm send-keys -t gt r
    wait_for "Gates over all positions" >/dev/null
    screen | sed -n 's/^ \(forget f.*\)$/\1/p' | head -1 | sed 's/ *$//' >"$work/got"
    grep "^forget f" "$work/report" | head -1 >"$work/want" &&
        [ -s "$work/want" ] && cmp -s "$work/want" "$work/got"
    check $? "r again: the sample's tables, as gatetui --report ($(cat "$work/got"))"
    tm send-keys -t gt r
    wait_for "gates, layer 0: 256 units" >/dev/null
    tm send-keys -t gt r
    wait_for "Gates over all positions" && ! screen | grep -q "computing" &&
        [ "$(children "$gpid")" -eq 0 ]
    check $? "closed and opened again: the tables are kept, shown at once"
    tm send-keys -t gt q
    wait_for "EXIT=0"
    check $? "q quits (exit 0)"
    tm respawn-pane -k -t gt "cd $work && $bin $sample $sampletext 2>err3; echo EXIT=\$?; sleep 3600"
    wait_for "step 0 of 0..43,234" >/dev/null
    gpid=$(ps -o pid= --ppid "$(tm display -p -t gt '#{pane_pid}')" | tr -d ' ' | head -1)
    tm send-keys -t gt r
    wait_for "computing the report of layer 0" >/dev/null
    t0=$(date +%s%N)
    tm send-keys -t gt q
    e2e_cpu=$quarter
    wait_for "EXIT=0"
    r=$?
    e2e_cpu=""
    t1=$(date +%s%N)
    ms=$(((t1 - t0) / 1000000))
    [ $r -eq 0 ] && ! kill -0 "$gpid" 2>/dev/null
    check $? "q while the report is computed quits at once (${ms} ms, within $quarter s of processor time)"
else
    bail "the sample model $sample or its text is missing"
fi
if [ -n "${GATETUI_VALGRIND:-}" ]; then
    e2e_valgrind_clean "$work"
    check $? "valgrind: no error and no leak in any run"
fi
echo "1..$n"
