#!/bin/sh
# The screen on the shipped samples at full length (samples/kjv-valid.txt, 43,235 steps), in
# a real terminal (tmux on a private server at 100x30), for what the screen leaves to its
# background pass: an edit far into the text, its curves computed once the pass reaches it,
# then the same numbers as the float64 run of tests/ref/make_export_fixtures.py for each of
# the three models (Tab); an intervention (`>`) far into the text, while sorted by
# importance: until the model as changed is computed, every frame that names the new forget
# bias says its values are those of before the change, in the header and the gate panel's
# title, and a frame without that mark shows the new values (doc/screen.md, "Interventions").
# GATETUI_VALGRIND=1 runs gatetui under valgrind (tests/lib/e2e_lib.sh).
src="${top_srcdir:-.}"
bld="${top_builddir:-.}"
. "$src/tests/lib/e2e_lib.sh"
e2e_terminal_or_skip
e2e_setup samples
py=$(command -v python3) || bail "python3 is missing (build.sh installs it)"
dir=$(cd "$src/samples" && pwd)
fix="$src/tests/fixtures/export/samples.json"
keys() { tm send-keys -t gt "$@"; }

cat >"$work/run.sh" <<SH
cd "$work"
$runner "$dir/kjv-lstm.bin" "$dir/kjv-gru.bin" "$dir/kjv-rnn.bin" "$dir/kjv-valid.txt" 2>err
echo "EXIT=\$?"
sleep 3600
SH
tm -f /dev/null new-session -d -s gt -x 100 -y 30 "sh $work/run.sh"
wait_for "kjv-lstm.bin \[1/3\]"
check $? "the screen comes up on the three samples"

# the edit at step 20,000: the panel of each model against float64
keys g 20000 Enter
wait_for "step 20,000 of"
check $? "g 20000: the cursor at step 20,000"
keys e x
wait_for "step 20,000: ' ' → 'x'"
check $? "e x at step 20,000: the perturbation panel shows the edit"
for name in kjv-lstm kjv-gru kjv-rnn; do
    wait_for "t½ [ch] ?[0-9]" >/dev/null
    settled >"$work/frame-$name.txt"
    if said=$("$py" "$src/tests/lib/panelcmp.py" "$work/frame-$name.txt" "$fix" $name 20000); then
        ok "$name: the panel's half-lives and ratio those of float64 ($said)"
    else
        notok "$name: $said"
        sed 's/^/#   | /' "$work/frame-$name.txt"
    fi
    keys Tab
    wait_gone "$name.bin \[" >/dev/null
done
wait_for "kjv-lstm.bin \[1/3\]" >/dev/null
keys u
wait_for "no edit: press e" >/dev/null

# > at step 20,000 sorted by importance: never the new label over the old numbers
keys o p
wait_for "by importance" >/dev/null
check $? "o p: the units sorted by importance"
wait_gone "importance: computing|computing each unit" >/dev/null
before=$(settled | sed -n 2p | grep -oE "loss of '.': [0-9.]+ nats")
keys '>'
# each frame while the pass computes, until the new values are shown (e2e_until)
watch_frame() {
    f=$(screen)
    head2=$(printf '%s\n' "$f" | sed -n 2p)
    title=$(printf '%s\n' "$f" | grep -E "^─ " | sed -n 2p)
    if printf '%s' "$head2" | grep -q "forget bias +0.5@0"; then
        if printf '%s' "$head2" | grep -q "(values as before)"; then
            l=$(printf '%s' "$head2" | grep -oE "loss of '.': [0-9.]+ nats")
            [ -z "$l" ] || [ "$l" = "$before" ] || {
                bad=1
                echo "# marked as before the change, but not the values of before: $head2"
            }
            marked=1
            printf '%s' "$title" | grep -q "as before the change" || {
                bad=1
                echo "# the header marks the values as before the change, the gate title not: $title"
            }
        else # the new values from here on: never those of before under the new label
            l=$(printf '%s' "$head2" | grep -oE "loss of '.': [0-9.]+ nats")
            [ -z "$l" ] || [ "$l" != "$before" ] || {
                bad=1
                echo "# the new label over the values of before, unmarked: $head2"
            }
            return 0
        fi
    fi
    return 1
}
bad=0 marked=0
e2e_until watch_frame
after=$(settled | sed -n 2p)
printf '%s' "$after" | grep -q "forget bias +0.5@0" && ! printf '%s' "$after" | grep -q "as before"
check $? "> at step 20,000: the model as changed computed, its label without the mark"
[ $bad -eq 0 ]
check $? "while it was computed ($([ $marked = 1 ] && echo "seen" || echo "not seen: the pass was quick")), the header's mark and the gate title's agreed, never the new label over the old values unmarked"
now=$(printf '%s' "$after" | grep -oE "loss of '.': [0-9.]+ nats")
if [ -n "$before" ] && [ -n "$now" ] && [ "$before" != "$now" ]; then
    ok "the prediction's loss after the change differs from before it ($before / $now)"
else
    notok "the prediction's loss after > is that of before, or not shown: \"$before\" / \"$now\""
fi
keys q q
wait_for "EXIT=0" >/dev/null
check $? "q q: exit 0"
echo "1..$n"
