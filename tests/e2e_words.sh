#!/bin/sh
# The screen on a word model (SPEC section 27) in a real terminal (tmux on a private server
# at 100x30), the LSTM of tests/fixtures/words: the header names the token at the cursor
# and the loss per token; the strip shows the tokens apart by single spaces, <eos> as ↵
# ending its row, the cursor under the whole token; e asks for a token at a prompt that
# counts the tokens beginning with what is typed, Tab completes it, Enter replaces the token
# and the perturbation panel shows the edit; a token not in the vocabulary is refused and
# nothing changes; / finds a token in the text; u undoes the edit. GATETUI_VALGRIND=1 runs
# gatetui under valgrind (tests/e2e_lib.sh).
src="${top_srcdir:-.}"
bld="${top_builddir:-.}"
. "$src/tests/e2e_lib.sh"
e2e_terminal_or_skip
e2e_setup words
fix=$(cd "$src/tests/fixtures/words" && pwd)
cat >"$work/run.sh" <<SH
cd "$work"
$runner "$fix/w_lstm.safetensors" "$fix/text.txt" 2>err
echo "EXIT=\$?"
sleep 60
SH
tm -f /dev/null new-session -d -s gt -x 100 -y 30 "sh $work/run.sh"
wait_for "w_lstm.safetensors: LSTM, 2 layers"
check $? "the screen comes up on the word model"
keys() { tm send-keys -t gt "$@"; }
settled | grep -q "bits/token"
check $? "the header gives the loss in bits per token"
settled | grep -q "step 0 of 0..2,226 .* token <unk>"
check $? "the header names the token at the cursor"
settled | grep -q "^ <unk> it came to <unk> in the <unk> when the <unk> <unk> , that there was a"
check $? "the strip: the tokens apart by single spaces"

keys g 40 Enter
wait_for "step 40 of 0..2,226 .* token 'his'"
check $? "g 40: the cursor on step 40, 'his'"
screen | awk '/ he , and his / { getline; if ($0 ~ /▲▲▲/) found = 1 } END { exit !found }'
check $? "the cursor marked under the whole token"
screen | grep -q "^ sons \. ↵ *$"
check $? "<eos> as ↵ at the end of its row"

keys e
wait_for "replace 'his' at step 40 with:"
check $? "e: a prompt for the token"
keys t h
wait_for "9 tokens: that, the, thee, them, \.\.\."
check $? "the prompt counts the tokens beginning with what is typed"
keys o
wait_for "1 token: thou; Tab completes"
check $? "one token begins with 'tho'"
keys Tab
wait_for "with: thou "
check $? "Tab completes it"
keys Enter
wait_for "token 'thou' \(edited, was 'his'\)"
check $? "Enter: the token replaced, the header saying what it was"
wait_for "step 40: 'his' → 'thou'"
check $? "the perturbation panel shows the edit"
screen | grep -q " he , and thou <unk> , and his two"
check $? "the strip shows the new token"

keys e l a Tab Enter
wait_for "token 'law' \(edited, was 'his'\)"
check $? "e la Tab Enter: law"
keys e x y z Enter
wait_for '"xyz" is not in the vocabulary; nothing changed'
check $? "a token not in the vocabulary refused"
settled | grep -q "token 'law' (edited, was 'his')"
check $? "and nothing changed"

keys u
wait_for "undid the edit at step 40"
check $? "u undoes"
keys / Moab Enter
wait_for "token 'Moab'"
check $? "/ finds a token"
keys q q
wait_for "EXIT=0"
check $? "q q quits (exit 0)"
grep -q "text.txt: 634 words not in the vocabulary read as <unk>: 'Now' x1, 'pass' x3" "$work/err"
check $? "the words read as <unk> said on standard error"
[ -z "${GATETUI_VALGRIND:-}" ] || { e2e_valgrind_clean "$work"; check $? "valgrind: no error, no leak"; }
echo "1..$n"
