#!/bin/sh
# The effect and the carriers on the screen (doc/screen.md, "The effect and the carriers"),
# on the three samples at full length (samples/kjv-valid.txt, 43,235 steps) in a real
# terminal (tmux on a private server at 120x40), each model's own held to the batch modes:
# the edit at step 1,200 (' ' -> 'x'): the perturbation panel's "carried by" line, the
# units and their shares of --carriers --edit 1200:x --json in its order
# (tests/lib/causescmp.py), and B's sheet the lines of --carriers' table; the hypothesis ' '
# (m, each model's own) with unit 209 ablated (a on the first, shared by the others): the
# status line's delta inside and outside with their
# intervals those of --effect ' ' --ablate 0:209 --json, and I's sheet the lines of
# --effect's table with its 20 controls; for the LSTM, the GRU and the plain RNN (Tab).
# GATETUI_VALGRIND=1 runs gatetui under valgrind (tests/lib/e2e_lib.sh).
src="${top_srcdir:-.}"
bld="${top_builddir:-.}"
. "$src/tests/lib/e2e_lib.sh"
e2e_terminal_or_skip
e2e_setup causes
py=$(command -v python3) || bail "python3 is missing (build.sh installs it)"
dir=$(cd "$src/samples" && pwd)
keys() { tm send-keys -t gt "$@"; }
names="kjv-lstm kjv-gru kjv-rnn"

# the batch modes' answers, text and JSON, for each model
for name in $names; do
    for j in "" --json; do
        "$bin" --carriers --edit 1200:x $j "$dir/$name.bin" "$dir/kjv-valid.txt" \
            >"$work/carriers-$name$j" 2>/dev/null || bail "--carriers $j on $name failed"
        "$bin" --effect ' ' --ablate 0:209 $j "$dir/$name.bin" "$dir/kjv-valid.txt" \
            >"$work/effect-$name$j" 2>/dev/null || bail "--effect $j on $name failed"
    done
done

# shown FILE LINES: 0 when the first LINES lines of FILE (their trailing spaces aside) are
# each a line of the screen (after its first column); else 1, with the first one missing
shown() {
    screen | sed -e 's/^.//' -e 's/ *$//' >"$work/screen.txt"
    head -n "$2" "$1" | sed 's/ *$//' | while IFS= read -r line; do
        [ -z "$line" ] && continue
        grep -qxF -- "$line" "$work/screen.txt" || { echo "# not on the screen: $line"; exit 1; }
    done
}

cat >"$work/run.sh" <<SH
cd "$work"
$runner "$dir/kjv-lstm.bin" "$dir/kjv-gru.bin" "$dir/kjv-rnn.bin" "$dir/kjv-valid.txt" 2>err
echo "EXIT=\$?"
sleep 60
SH
tm -f /dev/null new-session -d -s gt -x 120 -y 40 "sh $work/run.sh"
wait_for "kjv-lstm.bin \[1/3\]"
check $? "the screen comes up on the three samples"

keys g 1200 Enter
wait_for "step 1,200 of" >/dev/null
keys e x
wait_for "step 1,200: ' ' → 'x'"
check $? "e x at step 1,200: the perturbation panel shows the edit"
for name in $names; do
    wait_for "carried by #" >/dev/null
    settled >"$work/frame-$name.txt"
    if said=$("$py" "$src/tests/lib/causescmp.py" carried "$work/frame-$name.txt" \
        "$work/carriers-$name--json"); then
        ok "$name: the panel's carriers those of --carriers --json ($said)"
    else
        notok "$name: $said"
        sed 's/^/#   | /' "$work/frame-$name.txt"
    fi
    keys B
    wait_for "carriers of the edit at step 1,200" >/dev/null
    shown "$work/carriers-$name" 12
    check $? "$name: B lists the carriers as --carriers' table does"
    keys B Tab
    wait_gone "$name.bin \[" >/dev/null
done
wait_for "kjv-lstm.bin \[1/3\]" >/dev/null

# each model's own hypothesis; the intervention shared: a on the first model ablates unit
# 209 of every model (the GRU and the plain RNN have a unit 209 too), which the others show
# at once
a=a
for name in $names; do
    keys m ' ' Enter
    wait_for "‾ \" \"" >/dev/null
    keys '#' 209 Enter
    wait_for "unit 209," >/dev/null
    [ -z "$a" ] || keys "$a"
    wait_for "ablated 0:209" >/dev/null
    check $? "$name: m ' ', # 209${a:+, a}: unit 209 ablated ${a:-by the first model's a, shared} with the hypothesis ' '"
    if [ -n "$a" ]; then # after # 209's message, the others' delta comes with I
        wait_for "Δ inside .* bits I table" >/dev/null
        check $? "$name: the status line gives the delta without another key (no message over it)"
    fi
    a=
    keys I
    wait_for "effect of ablated 0:209 where" >/dev/null
    wait_for "Δ inside .* bits I table" >/dev/null # the result (not a count of windows so far)
    settled >"$work/effect-frame-$name.txt"
    if said=$("$py" "$src/tests/lib/causescmp.py" delta "$work/effect-frame-$name.txt" \
        "$work/effect-$name--json"); then
        ok "$name: the status line's deltas those of --effect --json ($said)"
    else
        notok "$name: $said"
        sed 's/^/#   | /' "$work/effect-frame-$name.txt"
    fi
    shown "$work/effect-$name" 28
    check $? "$name: I shows --effect's table with its controls"
    keys I Tab
    wait_gone "$name.bin \[" >/dev/null
done

keys q q
wait_for "EXIT=0" >/dev/null
check $? "q q: exit 0"
echo "1..$n"
