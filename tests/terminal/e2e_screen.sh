#!/bin/sh
# The screen's keys in a real terminal (tmux on a private server at 120x40) on the sample
# LSTM and its text: the search reads the text as edited; the files x writes follow the
# umask; q asks again while edits are not written; Enter in the edit prompt asks before it
# puts a newline; the prompts edit like a shell's; redo; back to the previous position and
# through the edits; units by number, the top and bottom of the list; the unit table (U,
# sorted by a column, Enter) and the sort by the mean carry gate; mouse reports on
# while the screen is up, off after. GATETUI_VALGRIND=1
# runs gatetui under valgrind (tests/lib/e2e_lib.sh).
src="${top_srcdir:-.}"
bld="${top_builddir:-.}"
. "$src/tests/lib/e2e_lib.sh"
e2e_terminal_or_skip
if [ ! -f "$src/samples/kjv-lstm.bin" ]; then
    echo "1..0 # SKIP the sample model is not in this tree"
    exit 0
fi
e2e_setup screen
model=$(cd "$src/samples" && pwd)/kjv-lstm.bin
text=$(cd "$src/samples" && pwd)/kjv-valid.txt

cat >"$work/run.sh" <<SH
cd "$work"
umask 027
$runner "$model" "$text" 2>err
echo "EXIT=\$?"
sleep 3600
SH
tm -f /dev/null new-session -d -s gt -x 120 -y 40 "sh $work/run.sh"
wait_for "step 0 of 0..43,234"
check $? "the screen comes up on the sample text"
keys() { tm send-keys -t gt "$@"; }

# the search over the text as edited: 'kindly with you' at step 1200 becomes 'withxyou'
keys g 1200 Enter
wait_for "step 1,200 of 0..43,234"
check $? "g 1200: step 1200"
keys e x
wait_for "step 1,200 edited"
check $? "e x: the space at step 1200 edited"
keys g 0 Enter / withxyou Enter
wait_for "step 1,196 of 0..43,234"
check $? "/withxyou finds the edited text (step 1196)"
keys g 0 Enter / 'kindly with you' Enter
wait_for '"kindly with you" is not in the text'
check $? "/kindly with you no longer matches the characters the edit replaced"

# x writes the frame with the mode the umask (027) leaves: 0640
keys x
wait_for "written to"
f=$(ls "$work"/kjv-valid-step*-edited.txt 2>/dev/null | head -1)
mode=$(stat -c %a "$f" 2>/dev/null)
[ -n "$f" ] && [ "$mode" = 640 ]
check $? "x writes NAME-stepN-edited.txt with mode 640 under umask 027 (got ${mode:-none})"

# w writes the edited text with the same mode
keys w
wait_for "edited text written to ./kjv-valid-edited.txt, its edits to ./kjv-valid-edited.edits.txt"
mode=$(stat -c %a "$work/kjv-valid-edited.txt" 2>/dev/null)
[ "$mode" = 640 ]
check $? "w writes NAME-edited.EXT with mode 640 under umask 027 (got ${mode:-none})"

# smart case and the count: lower case finds either case, a capital only itself
keys g 0 Enter / 'the lord' Enter
wait_for "match 1 of [0-9,]+ \(either case\)"
check $? "/the lord finds 'the LORD' (either case) and counts the matches"
n_any=$(screen | sed -n 's/.*match 1 of \([0-9,]*\).*/\1/p' | head -1)
keys n
wait_for "match 2 of $n_any"
check $? "n: match 2 of the same $n_any"
keys g 0 Enter / 'the LORD' Enter
wait_for "match 1 of [0-9,]+[^(]*$"
n_case=$(screen | sed -n 's/.*match 1 of \([0-9,]*\).*/\1/p' | head -1)
[ -n "$n_case" ] && [ -n "$n_any" ] && [ "$(echo "$n_case" | tr -d ,)" -lt "$(echo "$n_any" | tr -d ,)" ]
check $? "/the LORD with capitals: only those ($n_case of the $n_any either case)"
keys / Up
wait_for "search the text: the LORD"
check $? "the up arrow in the prompt brings back the last search"
keys C-u 'x' Left y Enter
wait_for '"yx" is not in the text'
check $? "Ctrl-U empties the line, the left arrow moves in it: yx"

# Enter in the edit prompt asks first
keys g 30 Enter e Enter
wait_for "Enter again puts a newline"
check $? "e Enter: asks before putting a newline"
keys Escape
wait_gone "Enter again puts a newline"
check $? "Esc: nothing edited"

# the unit table: the report's rows computed in the background, sorted by the measured
# half-life the longest-lived unit first (69 does not halve within K), Enter selects it
keys U
wait_for "t½ meas .* right" # the report: a second or two, a minute under the sanitizers
check $? "U: the unit table of the sample LSTM"
keys Right Right Right Right Right Right
wait_for "by t½ meas▼"
row=$(settled | grep -A1 "t½ meas▼ .* right" | tail -1)
case $row in *" 69 "*"> 64"*) true ;; *) false ;; esac
check $? "sorted by the measured half-life: unit 69 first, past K (${row:-no row})"
keys Enter
wait_for "unit 69 selected"
check $? "Enter: unit 69 selected on the panels"
keys s s
wait_for "by mean f over the report's windows"
check $? "s s: the units by the mean forget gate"

# q with the edit not written since: asks; then quits on the second
keys u
wait_for "undid the edit"
keys C-r
wait_for "redid the edit at step 1,200"
check $? "Ctrl-R redoes the undone edit"
[ "$(tm display -p -t gt '#{mouse_standard_flag}')" = 1 ]
check $? "the terminal reports mouse presses while the screen is up"
keys q
wait_for "the edits are not written: q or Ctrl-C again quits"
check $? "q with an edit not written: asks again"
keys q
wait_for "EXIT=0"
check $? "q again quits"
[ "$(tm display -p -t gt '#{mouse_standard_flag}')" = 0 ]
check $? "and no longer after"
[ ! -s "$work/err" ]
check $? "nothing on standard error"
echo "1..$n"
