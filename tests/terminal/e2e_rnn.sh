#!/bin/sh
# The screen on a plain RNN in a real terminal (tmux on a private server at 120x40): the
# sample RNN's rows (a, h, no gate bars), an edit's perturbation without a forget-only
# curve, the derivative view without a carry line, and the carry gate's sorts, forget bias
# and carousel refused with a message (the screen stays up); then the sample LSTM beside it,
# Tab between them. GATETUI_VALGRIND=1 runs gatetui under valgrind (tests/lib/e2e_lib.sh).
src="${top_srcdir:-.}"
bld="${top_builddir:-.}"
. "$src/tests/lib/e2e_lib.sh"
e2e_terminal_or_skip
if [ ! -f "$src/samples/kjv-rnn.bin" ]; then
    echo "1..0 # SKIP the sample models are not in this tree"
    exit 0
fi
e2e_setup rnn
dir=$(cd "$src/samples" && pwd)
cat >"$work/run.sh" <<SH
cd "$work"
$runner "$dir/kjv-rnn.bin" "$dir/kjv-lstm.bin" "$dir/kjv-valid.txt" 2>err
echo "EXIT=\$?"
sleep 3600
SH
tm -f /dev/null new-session -d -s gt -x 120 -y 40 "sh $work/run.sh"
wait_for "kjv-rnn.bin \[1/2\]: RNN \(tanh\)"
check $? "the screen comes up on the sample RNN, the header naming its nonlinearity"
keys() { tm send-keys -t gt "$@"; }
settled | grep -q "#     a     h    Δh"
check $? "its rows give a, h and the change of h, no gates"
settled | grep -q "pre-activation against hidden"
check $? "the pre-activation against h, beside them"

keys g 500 Enter e x
wait_for "step 500: 'k' → 'x'"
check $? "e x at step 500: the perturbation panel shows the edit"
wait_for "t½ h [0-9.]+  L [0-9.]+  \(no F: no carry gate\)"
check $? "its half-lives of h and L, and no forget-only curve, saying why"
settled | grep -q "h measured  L linearized"
check $? "the legend without F"

keys D
wait_for "no carry line C"
check $? "D: the derivative without a carry line"
wait_for "no carry gates to set beside them: a plain RNN"
check $? "its eigenvalues with no carry gates beside them"
keys D

keys o g
wait_for "a plain RNN has no carry gate to sort by"
check $? "o g: no carry gate to sort by"
keys '<'
wait_for "a plain RNN has no carry gate \(no forget or update gate\) whose bias to shift"
check $? "<: no forget bias to shift"
keys C
wait_for "a plain RNN has no forget gate to hold at 1"
check $? "C: no carousel"
keys a
wait_for "unit 0 ablated"
check $? "a: ablation works on it"
keys Z

keys Tab
wait_for "kjv-lstm.bin \[2/2\]: LSTM"
check $? "Tab: the sample LSTM, at the same edit"
wait_for "of h by model: 1 [0-9.]+ +\[2\] [0-9.]+"
check $? "its panel lists both models' half-lives of h"
keys Tab
wait_for "kjv-rnn.bin \[1/2\]"
check $? "Tab: the RNN again"
keys q q
wait_for "EXIT=0"
check $? "q q quits (exit 0)"
[ ! -s "$work/err" ]
check $? "nothing on standard error"
echo "1..$n"
