#!/bin/sh
# Sessions and two edits compared, in a real terminal (tmux at 120x40), on the sample LSTM
# and GRU side by side over the held-out text at full length: w's list read back by --edits
# draws the frame the screen's x wrote; b pins an edit's curves and the next edit's are
# drawn beside them, each with its half-lives (those of --export with that edit alone); W
# writes the session (with an ablation, a hypothesis, an order, the unit table up, the GRU
# shown), --export --session renders the frame x wrote, --session opens the screen on it,
# and W there writes the same file again; one model's report scrolled comes back scrolled;
# a model changed since is refused on the screen,
# the terminal restored. GATETUI_VALGRIND=1 runs gatetui under valgrind (tests/lib/e2e_lib.sh).
src="${top_srcdir:-.}"
bld="${top_builddir:-.}"
. "$src/tests/lib/e2e_lib.sh"
e2e_terminal_or_skip

bin=$(cd "$bld" && pwd)/gatetui
need "$bin"
work=$(mktemp -d) || exit 1
sock="gatetui-session-$$"
trap 'tm kill-server 2>/dev/null; rm -rf "$work"' EXIT INT TERM
e2e_runner "$bin" "$work" "$src"
cp "$src/samples/kjv-lstm.bin" "$src/samples/kjv-gru.bin" "$src/samples/kjv-valid.txt" "$work/" ||
    bail "cannot copy the samples"
lstm="$work/kjv-lstm.bin" gru="$work/kjv-gru.bin" text="$work/kjv-valid.txt"

# rows FILE: its first 39 rows (the frame but its status line)
rows() { sed -n '1,39p' "$1"; }
# same_rows A B WHAT: the two frames are the same but for the status line (their rows kept
# in A.rows and B.rows)
same_rows() {
    rows "$1" >"$1.rows" 2>/dev/null
    rows "$2" >"$2.rows" 2>/dev/null
    if [ -s "$1.rows" ] && cmp -s "$1.rows" "$2.rows"; then
        ok "$3"
    else
        notok "$3"
        diff "$1.rows" "$2.rows" | head -10 | sed 's/^/# /'
    fi
}
# panel_hl FILE: the half-lives of the last edit's line "t½ c 11.2 L 11.2 F 1.7 h 4.5 ..."
panel_hl() { sed -n 's/.*│ t½ c \([^ ]*\) L \([^ ]*\) F \([^ ]*\) h \([^ ]*\) .*/c \1 L \2 F \3 h \4/p' "$1" | head -1; }
# wait_file FILE: until it exists (10 s times slow)
wait_file() {
    i=0
    while [ ! -s "$1" ] && [ $i -lt $((200 * slow)) ]; do sleep 0.05; i=$((i + 1)); done
    [ -s "$1" ]
}

# a session of its own keeps the server up while gt is made again (kill-session, new-session)
tm -f /dev/null new-session -d -s keep "sleep 3600"
again() { tm kill-session -t gt 2>/dev/null; tm new-session -d -s gt -x 120 -y 40 "$1"; }
again "cd $work && $runner --steps 4000 kjv-lstm.bin kjv-gru.bin kjv-valid.txt 2>err; echo EXIT=\$?; sleep 60"
wait_for "step 0 of 0..43,234" >/dev/null
check $? "the screen comes up on the LSTM and the GRU"

# w, then --edits: the frame x wrote
tm send-keys -t gt g 1 2 0 0 Enter
wait_for "step 1,200 of 0..43,234" >/dev/null
tm send-keys -t gt e x
wait_for "step 1,200: ' ' → 'x'  layer 0, 1 edit" >/dev/null
tm send-keys -t gt l l e Enter Enter
wait_for "step 1,202: 'o' → '↵'  layer 0, 2 edits" >/dev/null
tm send-keys -t gt w
wait_for "its edits to ./kjv-valid-edited.edits.txt"
check $? "w writes the edited text and its edits' list"
tm send-keys -t gt x
wait_for "frame written to ./kjv-valid-step1202-edited.txt" >/dev/null
"$bin" --export "$work/edits.txt" --step 1202 --edits "$work/kjv-valid-edited.edits.txt" \
    "$lstm" "$gru" "$text" 2>"$work/edits.err"
same_rows "$work/edits.txt" "$work/kjv-valid-step1202-edited.txt" \
    "--export --edits with w's list: the frame the screen's x wrote (a newline among the edits)"
tm send-keys -t gt u u
wait_for "undid the edit at step 1,200 \(0 left" >/dev/null

# x while the frame is still being computed (an edit near the text's end: its carriers take
# seconds): written once computed, no placeholder in it; x then Esc: not written
tm send-keys -t gt g 4 3 0 0 0 Enter
wait_for "step 43,000 of 0..43,234" >/dev/null
tm send-keys -t gt e q x
wait_for "x: the frame is written once it is computed \(Esc: not written\)"
check $? "x while the edit's carriers are computed: the frame waits for them"
wait_for "frame written to ./kjv-valid-step43000-edited.txt" >/dev/null
late="$work/kjv-valid-step43000-edited.txt"
"$bin" --export "$work/late.txt" --step 43000 --edit 43000:q "$lstm" "$gru" "$text" 2>/dev/null
! grep -E -q 'computing|waiting|x: the frame is written' "$late" && grep -q 'carried by #' "$late"
check $? "the frame x waited for holds the carriers, no placeholder, not the wait's message"
same_rows "$work/late.txt" "$late" "the frame x waited for is --export --edit 43000:q's"
tm send-keys -t gt u e z x Escape
wait_for "the frame was not written" >/dev/null && wait_for "carried by #" >/dev/null &&
    [ ! -e "$work/kjv-valid-step43000-edited-2.txt" ]
check $? "x then Esc while it waits: the frame is not written, the carriers still computed"
tm send-keys -t gt u
wait_for "undid the edit at step 43,000 \(0 left" >/dev/null
# Esc on a sheet whose own Esc closes it: the wait ends, the sheet stays
tm send-keys -t gt D x Escape
wait_for "the frame was not written" >/dev/null && screen | grep -q "─ derivative: layer 0, step 43,000" &&
    [ ! -e "$work/kjv-valid-step43000.txt" ]
check $? "x then Esc on the derivative sheet: not written, the sheet still up"
tm send-keys -t gt D
wait_for "─ gates, layer 0" >/dev/null

# b: two edits on one panel
tm send-keys -t gt g 1 2 0 0 Enter
wait_for "step 1,200 of 0..43,234" >/dev/null
tm send-keys -t gt e x
wait_for "step 1,200: ' ' → 'x'  layer 0, 1 edit" >/dev/null
tm send-keys -t gt b
wait_for "step 1,200's curves pinned: the next edit's are drawn beside them \(b lets go\)"
check $? "b pins the edit's curves"
tm send-keys -t gt u l l l l l e y
wait_for "step 1,205: ' ' → 'y'  layer 0, 1 edit" >/dev/null && wait_for "C f H 1,200 ' '→'x': c"
check $? "after u and another edit: the pinned edit's line under the last edit's"
screen >"$work/two.txt"
sed -n '29,40p' "$work/two.txt" | sed 's/^/#   | /'
pinned=$(sed -n "s/.*│ C f H 1,200 ' '→'x': \(c [^ ]* L [^ ]* F [^ ]* h [^ ]*\)\$/\1/p" "$work/two.txt")
"$bin" --export "$work/x1200.txt" --step 1205 --edit 1200:x "$lstm" "$gru" "$text" 2>/dev/null
"$bin" --export "$work/y1205.txt" --step 1205 --edit 1205:y "$lstm" "$gru" "$text" 2>/dev/null
[ -n "$pinned" ] && [ "$pinned" = "$(panel_hl "$work/x1200.txt")" ] &&
    [ "$(panel_hl "$work/two.txt")" = "$(panel_hl "$work/y1205.txt")" ]
check $? "each edit with its half-lives: the pinned $pinned as --export --edit 1200:x's, the last $(panel_hl "$work/two.txt") as --edit 1205:y's"
# the curves' names: the letters at the end of the plot's rows (those with its axis)
names=$(grep '│ *[0-9e-]*│' "$work/two.txt" | sed -n 's/.*[^A-Za-z0-9]\([A-Za-z0-9]\{1,4\}\)$/\1/p' | tr -d '\n')
for l in C f H c F h L 2; do
    case $names in *$l*) ok "the plot names the curve $l at its end ($names)" ;;
    *) notok "the plot names no curve $l ($names)" ;; esac
done

# W with much on the screen, then --export --session: the frame x wrote
tm send-keys -t gt j j j a
wait_for "unit 3 ablated" >/dev/null
wait_all "pinned ones computed without interventions" "C f H 1,200 ' '→'x': c"
check $? "after an ablation the pinned curves say they were computed without it"
tm send-keys -t gt m L O R D Enter
wait_for '"LORD": [0-9]+ matches' >/dev/null
tm send-keys -t gt o g S c c p Tab
wait_for "model 2 of 2" >/dev/null
wait_for "profile: unit 3, h, layer 0 .* [0-9]+-[0-9]+ of [0-9]+" >/dev/null
tm send-keys -t gt W
wait_for "session written to ./kjv-valid.gatetui-session.json \(gatetui --session kjv-valid.gatetui-session.json opens it again\)"
check $? "W writes the session and says how to open it"
tm send-keys -t gt x
wait_for "frame written to ./kjv-valid-step1205-edited" >/dev/null
shot=$(ls "$work"/kjv-valid-step1205-edited*.txt | tail -1)
sess="$work/kjv-valid.gatetui-session.json"
[ "$(sha256sum "$lstm" | cut -d' ' -f1)" = "$(sed -n '/kjv-lstm.bin/,/sha256/s/.*"sha256": "\(.*\)".*/\1/p' "$sess")" ] &&
    grep -q '"value": "0:3"' "$sess" && grep -q '"regex": "LORD"' "$sess" &&
    grep -q '"name": "profile"' "$sess" && grep -q '"model": 1' "$sess"
st=$?
check $st "the session holds the model's SHA-256, the ablation, the hypothesis, the profile and the GRU shown"
[ $st -eq 0 ] || sed 's/^/# /' "$sess" | head -80
# the pinned curves for a reader: the LSTM's c half-life a number, the GRU's null and its c
# curve nulls (it wrote -1 and zeros: a GRU has no c)
/usr/bin/python3 - "$sess" <<'PY'
import json, sys
pins = []
def find(o):
    if isinstance(o, dict):
        if "half_lives" in o:
            pins.append(o)
        for v in o.values():
            find(v)
    elif isinstance(o, list):
        for v in o:
            find(v)
find(json.load(open(sys.argv[1])))
ok = (len(pins) == 2 and isinstance(pins[0]["half_lives"]["c"], float) and
      pins[1]["half_lives"]["c"] is None and all(x is None for x in pins[1]["c"]) and
      all(isinstance(pins[1]["half_lives"][k], float) for k in "hFL"))
sys.exit(0 if ok else 1)
PY
check $? "the pinned curves: the LSTM's c half-life a number, the GRU's null, its c curve nulls"
"$bin" --export "$work/sess.txt" --session "$sess" 2>"$work/sess.err"
same_rows "$work/sess.txt" "$shot" "--export --session renders the frame x wrote (the GRU, its profile, the hypothesis)"

tm send-keys -t gt q
wait_for "EXIT=0" >/dev/null
check $? "q quits at once: the session holds the edits"
cp "$sess" "$work/first.json"
again "cd $work && $runner --session kjv-valid.gatetui-session.json 2>err; echo EXIT=\$?; sleep 60"
wait_for "session kjv-valid.gatetui-session.json opened" >/dev/null
i=0 # until the screen is the frame (its background work done), or 20 s times slow
while settled | sed -n '1,39p' >"$work/again.txt" && ! cmp -s "$work/again.txt" "$work/sess.txt.rows" &&
    [ $i -lt $((20 * slow)) ]; do sleep 1; i=$((i + 1)); done
cmp -s "$work/again.txt" "$work/sess.txt.rows"
check $? "--session opens the screen on the same frame"
[ $i -lt $((20 * slow)) ] || diff "$work/again.txt" "$work/sess.txt.rows" | head -10 | sed 's/^/# /'
tm send-keys -t gt W
wait_for "session written to kjv-valid.gatetui-session.json" >/dev/null
check $? "W there writes the session's own file again"
[ ! -e "$work/kjv-valid-2.gatetui-session.json" ] && cmp -s "$sess" "$work/first.json"
check $? "... the same file, the same bytes (no second file)"
echo "my notes" >"$sess" # the file changed under the screen: W writes a new one
tm send-keys -t gt W
wait_for "kjv-valid.gatetui-session.json changed since read, kept: session in ./kjv-valid-2.gatetui-session.json" >/dev/null
check $? "W when its own file changed since: not written over, a new file, said"
[ "$(cat "$sess")" = "my notes" ] && cmp -s "$work/kjv-valid-2.gatetui-session.json" "$work/first.json"
check $? "... the notes kept, the session in the new file"
cp "$work/first.json" "$sess"
rm -f "$work/kjv-valid-2.gatetui-session.json"
tm send-keys -t gt q
wait_for "EXIT=0" >/dev/null

# the screen opened with --edits: the frame x wrote after those edits
again "cd $work && $runner --edits kjv-valid-edited.edits.txt kjv-lstm.bin kjv-gru.bin kjv-valid.txt 2>err; echo EXIT=\$?; sleep 60"
wait_for "step 0 of 0..43,234" >/dev/null
tm send-keys -t gt g 1 2 0 2 Enter
wait_for "step 1,202 of 0..43,234" >/dev/null && wait_for "step 1,202: 'o' → '↵'  layer 0, 2 edits" >/dev/null
settled | sed -n '1,39p' | cmp -s - "$work/kjv-valid-step1202-edited.txt.rows"
check $? "the screen opened with --edits w's list: at step 1,202 the frame x wrote"
tm send-keys -t gt q
wait_for "EXIT=0" >/dev/null
check $? "q quits at once: the edits of the command line count as written"

# one model's report scrolled: W keeps the scroll, --export --session comes back to it (the
# scroll was put back to the top while the report was computed again)
again "cd $work && $runner kjv-lstm.bin kjv-valid.txt 2>err; echo EXIT=\$?; sleep 60"
wait_for "step 0 of 0..43,234" >/dev/null
tm send-keys -t gt r
wait_for " 1-[0-9]+ of [0-9]+ " >/dev/null
tm send-keys -t gt j j j j j
wait_for " 6-[0-9]+ of [0-9]+ " >/dev/null
tm send-keys -t gt W
wait_for "session written to ./kjv-valid-2.gatetui-session.json" >/dev/null
tm send-keys -t gt x
wait_for "frame written to ./kjv-valid-step0" >/dev/null
rshot=$(ls "$work"/kjv-valid-step0*.txt | tail -1)
"$bin" --export "$work/rsess.txt" --session "$work/kjv-valid-2.gatetui-session.json" 2>/dev/null
grep -q " 6-[0-9]* of [0-9]* " "$work/rsess.txt"
check $? "a report scrolled by 5 lines: --export --session shows its lines from the 6th"
same_rows "$work/rsess.txt" "$rshot" "... the frame x wrote"
tm send-keys -t gt q
wait_for "EXIT=0" >/dev/null
rm -f "$work/kjv-valid-2.gatetui-session.json"

# a model changed since: refused before the screen starts, the terminal as it was
printf 'x' >>"$gru"
again "cd $work && echo BEFORE-changed; stty -a >stty.before-changed; $runner --session kjv-valid.gatetui-session.json 2>err-changed; echo EXIT=\$?; stty -a >stty.after-changed; sleep 60"
restored changed 2
check $? "a model changed since the session: exit 2, the terminal restored"
[ "$(cat "$work/err-changed")" = "gatetui: $gru has changed since the session kjv-valid.gatetui-session.json was written (another size): it would not open on the same screen" ]
check $? "... one line naming it ($(cat "$work/err-changed"))"

if [ -n "${GATETUI_VALGRIND:-}" ]; then
    e2e_valgrind_clean "$work"
    check $? "valgrind: no error and no leak"
fi
echo "1..$n"
