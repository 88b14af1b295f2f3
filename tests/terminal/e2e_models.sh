#!/bin/sh
# Several models on the screen (tmux at 120x40): the report fixtures' lstm2, the same model
# with its vocabulary permuted, and gru1. Tab and Shift-Tab switch models at the same step
# with the same edit; the permuted model's perturbation half-lives equal the original's
# (the same function); the perturbation panel lists every model's half-life for the edit and
# draws their curves (the frame --export draws with the same edit); an undo on one model
# undoes it on all; the stats view shows the table that compares them, Enter one's report.
# GATETUI_VALGRIND=1 runs gatetui under valgrind (tests/lib/e2e_lib.sh).
src="${top_srcdir:-.}"
bld="${top_builddir:-.}"
. "$src/tests/lib/e2e_lib.sh"
if ! e2e_terminal; then
    echo "1..0 # SKIP $e2e_why"
    exit 0
fi
e2e_setup models
rep=$(cd "$src/tests/fixtures/report" && pwd)
fix=$(cd "$src/tests/fixtures/models" && pwd)
cp "$rep/text.txt" "$work/text.txt"
A="$rep/lstm2.safetensors" P="$fix/lstm2_perm.safetensors" G="$rep/gru1.safetensors"
# hl: the panel's line "t½ c 1.4  L 1.3  F 1.3  h 1.4 ..." (or its tighter form) as it is
# (read off the settled screen: a frame half drawn holds the new header and the old panel)
hl() { settled | grep -o 't½ c [^│]*' | head -1 | sed 's/ *$//'; }
# models_line: the line of every model's half-life of h, in whichever of its forms fits
models_line() {
    settled | grep -oE '(measured t½ of h by model|t½ of h by model|h t½ by model|h t½):[^│]*' |
        head -1 | sed 's/ *$//'
}

tm -f /dev/null new-session -d -s gt -x 120 -y 40 "cd $work && $runner $A $P $G text.txt 2>err; echo EXIT=\$?; sleep 3600"
wait_for "lstm2.safetensors \[1/3\]" >/dev/null && wait_for "step 0 of 0..3,548" >/dev/null
check $? "three models: the first is shown, [1/3] in the header"

tm send-keys -t gt g 5 0 Enter
wait_for "step 50 of 0..3,548" >/dev/null
tm send-keys -t gt e w
c_hl='( \(c [0-9.>]+\))?' # an LSTM's c beside its h, named
wait_for "step 50: 'c' → 'w'" >/dev/null &&
    wait_for "of h by model: \[1\] [0-9.>]+$c_hl +2 [0-9.>]+$c_hl +3 [0-9.>]+" >/dev/null
check $? "an edit: the panel lists every model's half-life of h"
first=$(hl) line1=$(models_line)
# the first model's entry is its own h half-life, as the line above gives it (h beside h)
own_h=$(echo "$first" | sed -n 's/.* h \{0,1\}\([0-9.>][0-9.>]*\).*/\1/p')
[ -n "$own_h" ] && echo "$line1" | grep -q "\[1\] $own_h[ (]"
check $? "the model shown's entry is its half-life of h ($own_h in $line1)"
# the frame once the background pass has ended (--export draws none: its progress, "states
# N%" in the header, shows only while it runs, for seconds under valgrind)
wait_gone "states [0-9]+%" >/dev/null
settled | sed -n '1,39p' >"$work/screen.txt"
tm send-keys -t gt Escape
"$bin" --export "$work/exp.txt" --step 50 --edit 50:w "$A" "$P" "$G" "$work/text.txt" 2>/dev/null &&
    sed -n '1,39p' "$work/exp.txt" | cmp -s - "$work/screen.txt"
r=$?
[ $r -eq 0 ] || sed -n '1,39p' "$work/exp.txt" | diff - "$work/screen.txt" | head -10 | sed 's/^/# /'
check $r "the screen is the frame --export --edit 50:w draws for the three models"
[ "$(sed -n '/perturbation/,$p' "$work/exp.txt" | grep -cE '[23]$')" -ge 1 ]
check $? "the other models' curves are drawn, named 2 and 3"

tm send-keys -t gt Tab
wait_for "lstm2_perm.safetensors \[2/3\]" >/dev/null && wait_for "step 50 of 0..3,548" >/dev/null &&
    wait_for "step 50: 'c' → 'w'" >/dev/null
check $? "Tab: the second model at the same step, with the same edit"
second=$(hl)
[ -n "$first" ] && [ "$first" = "$second" ]
check $? "the permuted model's half-lives equal the original's ($first | $second)"
line2=$(models_line)
# the same half-lives of h (each LSTM's c beside it where it fits: the model shown's is on
# the line above, so left out first)
h_only() { sed 's/\[\([0-9]\)\]/\1/g; s/ (c [^)]*)//g'; }
[ "$(echo "$line1" | h_only)" = "$(echo "$line2" | h_only)" ] &&
    echo "$line2" | grep -q '\[2\]'
check $? "the list of half-lives of h is the same, the model shown in brackets ($line2)"

tm send-keys -t gt Tab
wait_for "gru1.safetensors \[3/3\]" >/dev/null && wait_for "step 50: 'c' → 'w'" >/dev/null &&
    wait_for "t½ h [0-9]"
check $? "Tab again: the GRU, the same edit, its h half-life"
tm send-keys -t gt BTab
wait_for "lstm2_perm.safetensors \[2/3\]" >/dev/null
check $? "Shift-Tab: back to the second model"
tm send-keys -t gt Tab Tab
wait_for "lstm2.safetensors \[1/3\]" >/dev/null
check $? "Tab wraps around to the first"
tm resize-window -t gt -x 40 -y 10
wait_for "too small" >/dev/null
tm send-keys -t gt Tab
tm resize-window -t gt -x 120 -y 40
wait_for "lstm2.safetensors \[1/3\]" >/dev/null && wait_gone "too small"
check $? "Tab while the terminal is too small: nothing switched unseen"

tm send-keys -t gt Tab
wait_for "lstm2_perm.safetensors \[2/3\]" >/dev/null && wait_for "step 50: 'c' → 'w'" >/dev/null
tm send-keys -t gt u
wait_for "no edit: press e" >/dev/null
tm send-keys -t gt BTab
wait_for "lstm2.safetensors \[1/3\]" >/dev/null && wait_for "no edit: press e" >/dev/null
check $? "u on the second model undoes the edit on the first too"

tm send-keys -t gt '>'
wait_for "forget bias \+0.5@0" >/dev/null && tm send-keys -t gt Tab &&
    wait_for "lstm2_perm.safetensors \[2/3\]" >/dev/null && wait_for "forget bias \+0.5@0" >/dev/null
check $? "> on the first model: the second, of the same shape, has the same forget bias"
tm send-keys -t gt Z BTab
wait_for "lstm2.safetensors \[1/3\]" >/dev/null && wait_gone "forget bias \+0.5@0" >/dev/null
check $? "Z on the second model clears the first's too"
tm send-keys -t gt r
wait_for "report: text.txt, layer 0, 3 models" >/dev/null &&
    wait_for "mean carry gate \(f, z\)  *0\.[0-9]{3}  *0\.[0-9]{3}" >/dev/null && # once known
    wait_for "models 1-3 of 3" >/dev/null && wait_for "LSTM 16  *LSTM 16  *GRU 20" >/dev/null
check $? "r: the stats view shows the table that compares the three models"
tm send-keys -t gt Enter
wait_for "report: text.txt as loaded, layer 0, lstm2.safetensors \[1/3\]" >/dev/null &&
    wait_for "forget f " >/dev/null
check $? "Enter: the model shown's whole report"
tm send-keys -t gt r q
wait_for "EXIT=0" >/dev/null && ! grep -v "not in the vocabulary skipped" "$work/err" | grep -q .
check $? "q: exit 0, nothing on standard error but the skipped characters"
if [ -n "${GATETUI_VALGRIND:-}" ]; then
    e2e_valgrind_clean "$work"
    check $? "valgrind: no error and no leak"
fi
echo "1..$n"
