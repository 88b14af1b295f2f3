#!/bin/sh
# The screen on a word model (doc/usage.md) in a real terminal (tmux on a private server
# at 100x30), the LSTM of tests/fixtures/words: the header names the token at the cursor
# and the loss per token; the strip shows the tokens apart by single spaces, <eos> as ↵
# ending its row, the cursor under the whole token; e asks for a token at a prompt that
# counts the tokens beginning with what is typed, Tab completes it, Enter replaces the token
# and the perturbation panel shows the edit; a token not in the vocabulary is refused and
# nothing changes; / finds a token in the text; u undoes the edit. GATETUI_VALGRIND=1 runs
# gatetui under valgrind (tests/lib/e2e_lib.sh).
src="${top_srcdir:-.}"
bld="${top_builddir:-.}"
. "$src/tests/lib/e2e_lib.sh"
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
wait_all " he , and thou <unk> , and his two"
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
# edits written (w) and a session (W) read back (thou at step 40 is still made): law over
# it, a word in place of <eos>, <eos> in place of a word
keys g 40 Enter e l a w Enter
wait_for "token 'law' \(edited, was 'his'\)" >/dev/null
keys g 48 Enter e l a w Enter
wait_for "token 'law' \(edited, was <eos>\)"
check $? "e law at step 48: a word where the text has <eos>"
keys g 46 Enter e '<eos>' Enter
wait_for "token <eos> \(edited, was 'sons'\)"
check $? "e <eos> at step 46: <eos> where the text has a word"
keys g 48 Enter w
wait_for "its edits to ./text-edited.edits.txt"
check $? "w writes the edited text and its edits' list"
printf '40\this\tthou\n40\tthou\tlaw\n48\t<eos>\tlaw\n46\tsons\t<eos>\n' >"$work/want.edits"
grep -v '^#' "$work/text-edited.edits.txt" | cut -f1,3,4 | cmp -s - "$work/want.edits"
st=$?
check $st "the list names the tokens by their words (the offsets: --export --edits below)"
[ $st -eq 0 ] || sed 's/^/#   | /' "$work/text-edited.edits.txt"
# its offsets are in the tokens joined (the text w wrote, the same up to step 40), not in
# text.txt, whose 'Now' is read as <unk>; and its header says so
off=$(awk -F'\t' '$1 == 40 { print $2; exit }' "$work/text-edited.edits.txt")
head -2 "$work/text-edited.edits.txt" | tail -1 |
    grep -qxF "# step	byte offset in text.txt's tokens joined by single spaces (<eos> a newline)	before	after" &&
    [ "$(tail -c +$((off + 1)) "$work/text-edited.txt" | head -c 4)" = "law " ] &&
    [ "$(tail -c +$((off + 1)) "$fix/text.txt" | head -c 4)" != "his " ]
check $? "the list's header: the offsets are in text.txt's tokens joined (not the file's)"
keys W
wait_for "session written to ./text.gatetui-session.json"
check $? "W writes the session"
keys x
wait_for "frame written to ./text-step48-edited.txt" >/dev/null
# rows FILE: the frame but its status line
rows() { sed -n '1,29p' "$1"; }
"$bin" --export "$work/edits.txt" --step 48 --size 100x30 --edits "$work/text-edited.edits.txt" \
    "$fix/w_lstm.safetensors" "$fix/text.txt" 2>"$work/edits.err"
rows "$work/edits.txt" | cmp -s - "$(rows "$work/text-step48-edited.txt" >"$work/x.rows"; echo "$work/x.rows")"
check $? "--export --edits with w's list: the frame x wrote"
grep -q '"before": "<eos>",' "$work/text.gatetui-session.json" &&
    grep -q '"after": "law"' "$work/text.gatetui-session.json" &&
    grep -q '"tokens": null' "$work/text.gatetui-session.json"
check $? "the session names the edits' tokens by their words"
"$bin" --export "$work/sess.txt" --size 100x30 --session "$work/text.gatetui-session.json" \
    2>"$work/sess.err"
rows "$work/sess.txt" | cmp -s - "$work/x.rows"
st=$?
check $st "--export --session renders the frame x wrote"
[ $st -eq 0 ] || { rows "$work/sess.txt" | diff "$work/x.rows" - | head -10 | sed 's/^/# /'; sed 's/^/# /' "$work/sess.err"; }
"$bin" --export "$work/edited.txt" --step 0 --size 100x30 --edits "$work/text-edited.edits.txt" \
    "$fix/w_lstm.safetensors" "$work/text-edited.txt" 2>"$work/edited.err"
grep -q "^gatetui: .*text-edited.edits.txt:3: step 40 holds 'law', not 'his': the list was made for another text (or model)\$" "$work/edited.err"
check $? "the list against the edited text: refused, naming the step's token ($(tail -1 "$work/edited.err"))"

keys q q
wait_for "EXIT=0"
check $? "q q quits (exit 0)"
grep -q "text.txt: 634 words not in the vocabulary read as <unk>: 'Now' x1, 'pass' x3" "$work/err"
check $? "the words read as <unk> said on standard error"
[ -z "${GATETUI_VALGRIND:-}" ] || { e2e_valgrind_clean "$work"; check $? "valgrind: no error, no leak"; }

# the report's sheet while it computes names the windows' steps as tokens: the sample word
# model (its report takes a second or more), its child held stopped while the screen is read
words="$src/samples/kjv-words.pt"
if [ -n "${GATETUI_VALGRIND:-}" ]; then
    skip "the sample word model's report under valgrind would take minutes"
elif [ -f "$words" ]; then
    words=$(cd "$(dirname "$words")" && pwd)
    tm respawn-pane -k -t gt "cd $work && $bin $words/kjv-words.pt $words/kjv-words-valid.txt 2>err3; echo EXIT=\$?; sleep 3600"
    wait_for "step 0 of 0..9,657" >/dev/null
    gpid=$(ps -o pid= --ppid "$(tm display -p -t gt '#{pane_pid}')" | tr -d ' ' | head -1)
    keys r
    wait_for "computing the report of layer 0" >/dev/null
    kids=$(ps -o pid= --ppid "$gpid" | tr -d ' ' | paste -sd' ')
    # shellcheck disable=SC2086
    [ -z "$kids" ] || kill -STOP $kids 2>/dev/null
    said=$(screen | tr -s ' \n' '  ')
    # shellcheck disable=SC2086
    [ -z "$kids" ] || kill -CONT $kids 2>/dev/null
    case $said in
    *"computing the report"*"32 windows of 128 tokens from the start"*) r=0 ;;
    *) r=1 ;;
    esac
    check $r "r on the sample word model: computing, over 32 windows of 128 tokens (not characters)"
    keys Escape q q
    wait_for "EXIT=0" >/dev/null
    # a session of a model whose vocabulary stands beside it names that file too: the
    # vocabulary changed since (two words swapped), or another file beside the model that
    # would now be read first, and the session is refused, the file named
    mkdir "$work/wc"
    cp "$words/kjv-words.pt" "$words/kjv-words.vocab.txt" "$work/wc/"
    tm respawn-pane -k -t gt "cd $work/wc && $bin kjv-words.pt $words/kjv-words-valid.txt 2>err4; echo EXIT=\$?; sleep 3600"
    wait_for "step 0 of 0..9,657" >/dev/null
    # the vocabulary changed while the screen is up: W refuses to name it as read
    cp "$work/wc/kjv-words.vocab.txt" "$work/wc/keep.txt"
    awk 'NR == 5 { l = $0; next } NR == 6 { print; print l; next } { print }' "$work/wc/keep.txt" \
        >"$work/wc/kjv-words.vocab.txt"
    keys W
    wait_for "session was not written: .*kjv-words.vocab.txt changed on disk since it was read" >/dev/null &&
        [ ! -e "$work/wc/kjv-words-valid.gatetui-session.json" ]
    check $? "the vocabulary beside the model changed after it was read: W writes no session, says why"
    cp "$work/wc/keep.txt" "$work/wc/kjv-words.vocab.txt"
    keys W
    wait_for "session written to ./kjv-words-valid.gatetui-session.json" >/dev/null
    keys q q
    wait_for "EXIT=0" >/dev/null
    wcp=$(cd "$work/wc" && pwd -P) # the paths the messages name, as the session holds them
    ses=$wcp/kjv-words-valid.gatetui-session.json
    "$bin" --export "$work/wc/before.txt" --session "$ses" 2>"$work/wc/e0" &&
        [ "$(/usr/bin/python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["models"][0]["vocab_beside"]["path"])' "$ses")" = \
            "$(cd "$work/wc" && pwd -P)/kjv-words.vocab.txt" ]
    check $? "W on the sample word model: the session names its vocabulary beside it; --export --session opens it"
    awk 'NR == 5 { l = $0; next } NR == 6 { print; print l; next } { print }' "$work/wc/keep.txt" \
        >"$work/wc/kjv-words.vocab.txt"
    "$bin" --export "$work/wc/after.txt" --session "$ses" 2>"$work/wc/e1"
    [ $? -eq 2 ] && [ ! -e "$work/wc/after.txt" ] &&
        grep -qx "gatetui: $wcp/kjv-words.vocab.txt has changed since the session $ses was written (another SHA-256): it would not open on the same screen" "$work/wc/e1"
    check $? "two words of the vocabulary beside it swapped: the session refused, the file named ($(head -c 160 "$work/wc/e1"))"
    cp "$work/wc/keep.txt" "$work/wc/kjv-words.vocab.txt"
    /usr/bin/python3 -c 'import json, sys; print(json.dumps(open(sys.argv[1]).read().split("\n")[:-1]))' \
        "$work/wc/keep.txt" >"$work/wc/kjv-words.vocab.json"
    "$bin" --export "$work/wc/after.txt" --session "$ses" 2>"$work/wc/e2"
    [ $? -eq 2 ] && grep -q "the model's vocabulary was $wcp/kjv-words.vocab.txt when the session .* was written, and is now .*kjv-words.vocab.json" "$work/wc/e2"
    check $? "another vocabulary beside it read first now: refused ($(head -c 200 "$work/wc/e2"))"
    rm "$work/wc/kjv-words.vocab.json"
    "$bin" --export "$work/wc/again.txt" --session "$ses" 2>"$work/wc/e3" &&
        cmp -s "$work/wc/before.txt" "$work/wc/again.txt"
    check $? "the vocabulary as it was: the session opens on the same frame"
else
    skip "no samples/kjv-words.pt"
fi
echo "1..$n"
