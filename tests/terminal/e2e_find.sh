#!/bin/sh
# Finding units in a real terminal (tmux at 120x40, the two-layer test model): m with a
# regular expression underlines its matches, puts an r column in the unit rows whose value
# for the selected unit is the one `gatetui --units --json` gives, and says how many
# matches; another layer computes it again; a bad expression is said on the screen; v
# selects; p shows the profile and Esc closes it; the help lists the keys; q quits.
# GATETUI_VALGRIND=1 runs gatetui under valgrind (tests/lib/e2e_lib.sh).
src="${top_srcdir:-.}"
bld="${top_builddir:-.}"
. "$src/tests/lib/e2e_lib.sh"
e2e_terminal_or_skip
e2e_setup find

cat >"$work/run.sh" <<EOF
cd "$work"
$runner "$model" "$text" 2>err
echo "EXIT=\$?"
sleep 3600
EOF
tm -f /dev/null new-session -d -s gt -x 120 -y 40 "sh $work/run.sh"
wait_for 'gates, layer 0' >/dev/null
check $? "the screen is up"

regex='[aeiou]+'
tm send-keys -t gt m
tm send-keys -t gt -l "$regex"
tm send-keys -t gt Enter
wait_for '"\[aeiou\]\+": [0-9]+ matches, [0-9]+ of [0-9]+ steps'
check $? "m: the matches and the unit of largest |r| are said"
wait_all ' r h  *│'
check $? "the unit rows have an r column (of h)"
screen | sed -n '4,7p' | grep -q '‾'
check $? "the matches are marked under the strip"

# the r on the screen of the unit --units ranks first with h is the one --units computes
"$bin" --units "$regex" --signal h --json "$model" "$text" 2>/dev/null >"$work/units.json"
top=$(sed -n '/"h": \[/,$p' "$work/units.json" | grep -m1 '"unit"' | sed 's/[^0-9]//g')
want=$(sed -n '/"h": \[/,$p' "$work/units.json" | grep -m1 '"r"' | sed 's/.*"r": //; s/,//')
want=$(printf '%+.3f' "$want")
i=0
while [ "$i" -lt "${top:-0}" ]; do tm send-keys -t gt j; i=$((i + 1)); done
wait_for "^▶ *$top " >/dev/null
got=$(settled | grep '^▶' | sed 's/ *│.*//' | awk '{ print $NF }')
[ -n "$top" ] && [ "$got" = "$want" ]
check $? "unit $top, first by |r| with h: its r on the screen ($got) is that of --units ($want)"

tm send-keys -t gt ']'
wait_for 'gates, layer 1' >/dev/null && wait_for ' r h  *│' >/dev/null
check $? "] : the r column of layer 1 after it is computed"

tm send-keys -t gt m C-u
for i in 1 2 3 4 5 6 7 8 9; do tm send-keys -t gt BSpace; done
tm send-keys -t gt -l '('
tm send-keys -t gt Enter
wait_for 'not a valid regular expression' >/dev/null
check $? "m with a bad expression: said on the screen"

tm send-keys -t gt m C-u
tm send-keys -t gt -l '(((a{1,100}){1,100}){1,100})'
tm send-keys -t gt Enter
wait_for 'expands to 1000000 atoms' >/dev/null
check $? "m with nested bounded repetitions: refused by their size, said on the screen"

tm send-keys -t gt v l l l v
wait_for 'steps [0-9]+-[0-9]+(, h >= 0.30: unit|: no unit has h)' >/dev/null
check $? "v, three steps, v: the selection is said"

tm send-keys -t gt p
wait_for 'the 10 steps of highest value' >/dev/null
check $? "p: the profile"
tm send-keys -t gt Escape
wait_gone 'the 10 steps of highest value' >/dev/null
check $? "Esc closes the profile"

tm send-keys -t gt '?'
wait_for 'match a regular expression' >/dev/null
check $? "the help lists m, v and p"
tm send-keys -t gt x q
wait_for 'EXIT=0' >/dev/null
check $? "q quits"
if [ -n "${GATETUI_VALGRIND:-}" ]; then
    e2e_valgrind_clean "$work"
    check $? "valgrind: no error, no leak"
fi
echo "1..$n"
