#!/bin/sh
# Several edits and sessions without a terminal, on the sample LSTM and its held-out text at
# full length: --edit repeated is made in the order given (the panel's last edit); --edits
# reads the list w writes (the frame equal to --edit's, a newline escaped, mixed with --edit
# in order) and refuses, naming FILE:LINE, a list made for another text (its offsets
# shifted, a character before that is not there) or a line that is not a list's;
# --carriers measures the last edit against the text with the others made (the JSON equal
# to one edit on the text so edited); a session file written by hand as doc/usage.md
# describes it renders with --export --session the frame that --export --step --edit (and
# --ablate) draws, its unit, order and layer shown; the effect's and the carriers' sheets
# opened by their names (a name of no sheet refused); a model or a text changed since, a file
# gone, a session that is not one, and --session beside what it replaces, each refused with
# one line. W and --session on the screen: tests/samples/e2e_session.sh.
src="${top_srcdir:-.}"
bld="${top_builddir:-.}"
. "$src/tests/lib/tap.sh"
bin="$bld/gatetui"
need "$bin"
command -v sha256sum >/dev/null 2>&1 || bail "sha256sum (coreutils) is missing"
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT INT TERM
model="$work/kjv-lstm.bin"
text="$work/kjv-valid.txt"
cp "$src/samples/kjv-lstm.bin" "$model" && cp "$src/samples/kjv-valid.txt" "$text" ||
    bail "cannot copy the samples"
export LC_ALL=C.UTF-8

# frame NAME ARGS...: --export into $work/NAME.txt at 120x40
frame() {
    f=$1
    shift
    "$bin" --export "$work/$f.txt" "$@" 2>"$work/$f.err"
}
# same A B WHAT: the two frames are the same, character for character
same() {
    if [ -s "$work/$1.txt" ] && cmp -s "$work/$1.txt" "$work/$2.txt"; then
        ok "$3"
    else
        notok "$3"
        diff "$work/$1.txt" "$work/$2.txt" 2>&1 | head -8 | sed 's/^/# /'
        cat "$work/$1.err" "$work/$2.err" 2>/dev/null | sed 's/^/# /'
    fi
}
# panel NAME: the perturbation panel's first line in frame NAME
panel() { sed -n 's/.*│ \(step [0-9,]*: .* edits*\)$/\1/p' "$work/$1.txt" | head -1; }

# --edit repeated: made in the order given
frame ab --step 1206 --edit 1205:a --edit 1205:b "$model" "$text"
frame ba --step 1206 --edit 1205:b --edit 1205:a "$model" "$text"
[ "$(panel ab)" = "step 1,205: 'a' → 'b'  layer 0, 2 edits" ] &&
    [ "$(panel ba)" = "step 1,205: 'b' → 'a'  layer 0, 2 edits" ]
check $? "--edit twice at one step: the panel's edit is the second against the first ($(panel ab); $(panel ba))"
frame two --step 1206 --edit 1200:x --edit 1205:y "$model" "$text"
[ "$(panel two)" = "step 1,205: ' ' → 'y'  layer 0, 2 edits" ] &&
    grep -q 'withxyou,yas' "$work/two.txt"
check $? "--edit 1200:x --edit 1205:y: both in the strip, the panel the last against the first"

# the list w writes (export_file.c), by hand: two lines of #, then step, offset, before, after
printf '# the edits of kjv-valid.txt written to kjv-valid-edited.txt, in the order they were made:\n# step\tbyte offset in kjv-valid.txt\tbefore\tafter\n1200\t1200\t \tx\n1205\t1205\t \ty\n' \
    >"$work/list.edits.txt"
frame list --step 1206 --edits "$work/list.edits.txt" "$model" "$text"
same two list "--edits with the two edits' list: the frame of --edit 1200:x --edit 1205:y"
sed 's/$/\r/' "$work/list.edits.txt" >"$work/crlf.edits.txt"
frame crlf --step 1206 --edits "$work/crlf.edits.txt" "$model" "$text"
same two crlf "--edits with the list's lines ended CR LF: the same frame"
printf '1210\t1210\te\t\\n\n' >"$work/nl.edits.txt"
frame nl --step 1212 --edits "$work/nl.edits.txt" "$model" "$text"
nl_edit=$(printf '1210:\n_')
nl_edit=${nl_edit%_}
frame nl_arg --step 1212 --edit "$nl_edit" "$model" "$text"
same nl nl_arg "--edits with an escaped newline after: the frame of --edit with a newline"
frame mixed --step 1221 --edits "$work/list.edits.txt" --edit 1220:z "$model" "$text"
frame mixed_arg --step 1221 --edit 1200:x --edit 1205:y --edit 1220:z "$model" "$text"
same mixed mixed_arg "--edits then --edit: the edits of the list, then the argument's"

# a list made for another text: an unknown character first shifts every byte offset by 2
{ printf 'é'; cat "$text"; } >"$work/shifted.txt"
"$bin" --export "$work/no.txt" --step 3 --edits "$work/list.edits.txt" "$model" "$work/shifted.txt" 2>"$work/err"
st=$?
said=$(tail -1 "$work/err") # after the line on the skipped character
[ $st -eq 2 ] && [ "$said" = "gatetui: $work/list.edits.txt:3: step 1,200 is at byte 1,202 of $work/shifted.txt, not 1200: the list was made for another text (or model)" ] &&
    [ ! -e "$work/no.txt" ]
check $? "--edits made for another text (its offsets shifted): exit 2, its first line that does not fit (3) named, no file ($said)"
printf '1200\t1200\t \tx\n1205\t1205\te\ty\n' >"$work/wrong.edits.txt"
said=$("$bin" --export "$work/no.txt" --step 3 --edits "$work/wrong.edits.txt" "$model" "$text" 2>&1)
[ $? -eq 2 ] && [ "$said" = "gatetui: $work/wrong.edits.txt:2: step 1,205 holds ' ', not 'e': the list was made for another text (or model)" ] &&
    [ ! -e "$work/no.txt" ]
check $? "--edits whose line 2 has another character before: exit 2, that line named, no file ($said)"
printf '1200\t1200\tx\tx\n1200\t1200\tx\ty\n' >"$work/again.edits.txt"
"$bin" --export - --step 3 --edits "$work/again.edits.txt" "$model" "$text" 2>&1 >/dev/null |
    grep -q "again.edits.txt:1: step 1,200 holds ' ', not 'x'"
check $? "--edits: a line's character before is checked against the text as the lines before it left it"
printf '1200\t1200\t \tx\n1205 1205 y\n' >"$work/bad.edits.txt"
refused "--edits with a line that is not a list's" \
    "$bin" --export "$work/no.txt" --step 3 --edits "$work/bad.edits.txt" "$model" "$text"
# a word model's list given to the character model: said so, not "not a line"
printf '# step\tbyte offset\tbefore\tafter\n40\t180\this\tlaw\n' >"$work/words.edits.txt"
"$bin" --export "$work/no.txt" --step 3 --edits "$work/words.edits.txt" "$model" "$text" 2>"$work/err"
[ $? -eq 2 ] && [ ! -e "$work/no.txt" ] &&
    grep -qx "gatetui: $work/words.edits.txt:2: 'his' is a word, and the model reads characters: a list written for a word model?" "$work/err"
check $? "--edits naming words for the character model: said so ($(head -c 160 "$work/err"))"
refused "--edits with a character not in the vocabulary" \
    "$bin" --export "$work/no.txt" --step 3 --edits "$work/list.edits.txt" --edit 5:Q "$model" "$text"
refused "--edits with a file that is not there" \
    "$bin" --export "$work/no.txt" --step 3 --edits "$work/none.edits.txt" "$model" "$text"

# --carriers: the last edit against the text with the others made
python3 - "$text" "$work/x1200.txt" <<'PY' || bail "python3 could not write the edited text"
import sys
b = bytearray(open(sys.argv[1], "rb").read())
assert b[1200:1201] == b" "
b[1200:1201] = b"x"
open(sys.argv[2], "wb").write(bytes(b))
PY
"$bin" --carriers --json --horizon 16 --edit 1200:x --edit 1205:y "$model" "$text" >"$work/c2.json" 2>"$work/c2.err"
"$bin" --carriers --json --horizon 16 --edit 1205:y "$model" "$work/x1200.txt" >"$work/c1.json" 2>"$work/c1.err"
"$bin" --carriers --json --horizon 16 --edits "$work/list.edits.txt" "$model" "$text" >"$work/cl.json" 2>&1
"$bin" --carriers --json --horizon 16 --edit 1205:y "$model" "$text" >"$work/c0.json" 2>&1
# the same but for edits_before, which names the edit made first
same_but_before() {
    /usr/bin/python3 -c '
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
before = b.pop("edits_before", None)
sys.exit(0 if a == b and before == [{"step": 1200, "from": " ", "to": "x"}] else 1)' "$1" "$2"
}
if [ -s "$work/c2.json" ] && same_but_before "$work/c1.json" "$work/c2.json" &&
    cmp -s "$work/cl.json" "$work/c2.json" && ! same_but_before "$work/c0.json" "$work/c2.json"; then
    ok "--carriers --edit 1200:x --edit 1205:y (and --edits): 1205:y on the text with x at 1200, not on the text as loaded; edits_before names 1200:x"
else
    notok "--carriers with two edits differs from the last on the text with the first made"
    head -c 300 "$work/c2.json" "$work/c1.json" | sed 's/^/# /'
fi
"$bin" --carriers --horizon 16 --edit 1200:x --edit 1205:y "$model" "$text" >"$work/c2.txt" 2>&1
sed -n 2p "$work/c2.txt" | grep -qx "the text with 1 edit before it: 1,200 (' ' -> 'x')"
check $? "--carriers' text with two edits: the edit before the one measured named on its second line"
# the units whose state put back removes most, as the JSON's removed order them
largest=$(/usr/bin/python3 -c '
import json, sys
u = [x for x in json.load(open(sys.argv[1]))["units"] if x["removed"] is not None]
u.sort(key=lambda x: (-x["removed"], x["unit"]))
print(", ".join("%d %.1f%%" % (x["unit"], 100 * x["removed"]) for x in u[:5]))' "$work/c2.json")
grep -qx "largest removed: unit $largest" "$work/c2.txt"
check $? "--carriers' text: the five units whose removal takes most, as the JSON's (unit $largest)"
printf '# nothing\n' >"$work/empty.edits.txt"
refused "--carriers with a list of no edit" \
    "$bin" --carriers --edits "$work/empty.edits.txt" "$model" "$text"

# a session written by hand, as doc/usage.md describes it
sha() { sha256sum "$1" | cut -d' ' -f1; }
size() { wc -c <"$1" | tr -d ' '; }
# session FILE MODEL TEXT INTERVENTIONS SCREEN
session() {
    cat >"$1" <<EOF
{"gatetui_session": 1,
 "models": [{"path": "$2", "size": $(size "$2"), "sha256": "$(sha "$2")",
             "interventions": [$4]}],
 "text": {"path": "$3", "size": $(size "$3"), "sha256": "$(sha "$3")"},
 "screen": {$5}}
EOF
}
edits='"edits": [{"step": 1200, "offset": 1200, "before": " ", "after": "x"},
                  {"step": 1205, "offset": 1205, "before": " ", "after": "y"}]'
session "$work/a.json" "$model" "$text" "" "\"step\": 1206, $edits"
frame sess --session "$work/a.json"
frame sess_arg --step 1206 --edit 1200:x --edit 1205:y "$model" "$text"
same sess sess_arg "--export --session: the session's step and edits, the frame of --export --step 1206 --edit ... --edit ..."
session "$work/iv.json" "$model" "$text" '{"option": "ablate", "value": "0:5-9,17"}, {"option": "forget-bias", "value": "0.5@0:3"}' \
    "\"step\": 1206, $edits"
frame sess_iv --session "$work/iv.json"
frame sess_iv_arg --step 1206 --edit 1200:x --edit 1205:y --ablate 0:5-9,17 --forget-bias 0.5@0:3 "$model" "$text"
same sess_iv sess_iv_arg "--export --session with interventions: the frame of --ablate 0:5-9,17 --forget-bias 0.5@0:3"
session "$work/u.json" "$model" "$text" "" '"step": 300, "unit": 77, "sort": {"by": "carry", "reverse": true}'
frame sess_u --session "$work/u.json"
grep -q '^ step 300 of ' "$work/sess_u.txt" && grep -q '◆ unit 77 ─' "$work/sess_u.txt" &&
    grep -q 'layer 0 by forget gate f, lowest first' "$work/sess_u.txt" && grep -q '^▶ *77 ' "$work/sess_u.txt"
check $? "--export --session: its step, selected unit and order (by the carry gate) drawn"

cp "$model" "$work/m2.bin"
session "$work/m2.json" "$work/m2.bin" "$text" "" '"step": 10'
printf 'x' >>"$work/m2.bin"
said=$("$bin" --export "$work/no.txt" --session "$work/m2.json" 2>&1)
[ $? -eq 2 ] && [ "$said" = "gatetui: $work/m2.bin has changed since the session $work/m2.json was written (another size): it would not open on the same screen" ] &&
    [ ! -e "$work/no.txt" ]
check $? "a model grown since the session: exit 2, one line naming it, no file ($said)"
cp "$text" "$work/t2.txt"
session "$work/t2.json" "$model" "$work/t2.txt" "" '"step": 10'
sed -i 's/Naomi/Naomo/' "$work/t2.txt"
"$bin" --export "$work/no.txt" --session "$work/t2.json" 2>&1 | grep -qx "gatetui: $work/t2.txt has changed since the session $work/t2.json was written (another SHA-256): it would not open on the same screen"
check $? "a text of the same size changed since the session: refused by its SHA-256, named"
rm "$work/t2.txt"
refused "a session naming a file that is gone" "$bin" --export "$work/no.txt" --session "$work/t2.json"
session "$work/bad.json" "$model" "$text" "" "\"step\": 1206, \"edits\": [{\"step\": 1200, \"offset\": 1200, \"before\": \"e\", \"after\": \"x\"}]"
"$bin" --export "$work/no.txt" --session "$work/bad.json" 2>&1 | grep -q "bad.json: screen.edits\[0\]: step 1,200 holds ' ', not 'e'"
check $? "a session's edits are checked as a list's are, the entry named"
# every sheet by its name: the effect's and the carriers' too; a name of none refused
session "$work/sh_e.json" "$model" "$text" '{"option": "ablate", "value": "0:209"}' \
    '"step": 1206, "find": [{"regex": " ", "signal": 5, "threshold": 0.5, "steps": 43235, "last": "match"}], "sheet": {"name": "effect", "state": [0]}'
frame sh_e --session "$work/sh_e.json"
grep -q "effect of ablated 0:209 where \" \" holds" "$work/sh_e.txt" && grep -q "controls: rank" "$work/sh_e.txt"
check $? "--export --session with the effect's sheet up: its table ($(head -c 200 "$work/sh_e.err"))"
# the report's sheet under an intervention: its lines and the loss's change as --report's
session "$work/sh_r.json" "$model" "$text" '{"option": "ablate", "value": "0:209"}' \
    '"step": 10, "sheet": {"name": "report", "state": [0, 0, 0]}'
frame sh_r --session "$work/sh_r.json"
"$bin" --report --ablate 0:209 "$model" "$text" 2>/dev/null | sed -n '4,6p' >"$work/sh_r.want"
sed -n '/^ interventions: ablated 0:209$/,+2p' "$work/sh_r.txt" | sed 's/^ //' | cmp -s - "$work/sh_r.want" &&
    [ "$(wc -l <"$work/sh_r.want")" -eq 3 ]
check $? "the report's sheet under --ablate 0:209: the interventions and the loss's change, as --report prints them"
session "$work/sh_c.json" "$model" "$text" "" "\"step\": 1206, $edits, \"sheet\": {\"name\": \"carriers\", \"state\": [0]}"
frame sh_c --session "$work/sh_c.json"
grep -q "carriers of the edit at step 1,205" "$work/sh_c.txt" && grep -q "alone (nats)" "$work/sh_c.txt" &&
    grep -q "^ the text with 1 edit before it: 1,200 (' ' -> 'x')" "$work/sh_c.txt"
check $? "--export --session with the carriers' sheet up: its table, the edit made before named ($(head -c 200 "$work/sh_c.err"))"
session "$work/sh_x.json" "$model" "$text" "" '"step": 10, "sheet": {"name": "nonesuch", "state": []}'
said=$("$bin" --export "$work/no.txt" --session "$work/sh_x.json" 2>&1)
[ $? -eq 2 ] && case $said in *'screen.sheet'*'names no sheet'*effect*carriers*) true ;; *) false ;; esac
check $? "a sheet's name that is none: exit 2, the sheets named ($said)"
# numbers of the screen's entry out of their range, or of the wrong kind: exit 2, one line
# naming the file, the entry's path and what it wants, no file written
# bad_state WHAT INTERVENTIONS SCREEN EXPECTED
bad_state() {
    session "$work/bs.json" "$model" "$text" "$2" "$3"
    rm -f "$work/no.txt"
    said=$("$bin" --export "$work/no.txt" --session "$work/bs.json" 2>&1 >/dev/null)
    rc=$?
    [ $rc -eq 2 ] && [ "$said" = "gatetui: $work/bs.json: $4" ] && [ ! -e "$work/no.txt" ]
    check $? "$1: exit $rc, one line naming the entry ($said)"
}
for col in 7 10 1000; do
    bad_state "the units' sheet sorted by column $col of 7" "" \
        "\"step\": 10, \"sheet\": {\"name\": \"units\", \"state\": [0, 0, $col, 0, 0]}" \
        "screen.sheet: state[2] (the column sorted by) wants an integer from 0 to 6"
done
bad_state "the units' sheet at the gate 4 of an LSTM's 3" "" \
    '"step": 10, "sheet": {"name": "units", "state": [0, 0, 1, 4, 0]}' \
    "screen.sheet: state[3] (the gate of a mean's column) wants an integer from 0 to 2"
bad_state "the report's sheet from model 2 of 1" "" \
    '"step": 10, "sheet": {"name": "report", "state": [0, 1, 0]}' \
    "screen.sheet: state[1] (the first model's column) wants an integer from 0 to 0"
bad_state "the derivative's sheet at K 300" "" \
    '"step": 10, "sheet": {"name": "derivative", "state": [300]}' \
    "screen.sheet: state[0] (the lag K) wants an integer from 1 to 256"
bad_state "the edits as a string" "" '"step": 10, "edits": "x"' "screen.edits: wants a list"
bad_state "the hypotheses as a number" "" '"step": 10, "find": 5' "screen.find: wants a list"
bad_state "a hypothesis as a number" "" '"step": 10, "find": [7]' "screen.find[0]: wants an object"
bad_state "the order as a number" "" '"step": 10, "sort": 5' "screen.sort: wants an object"
bad_state "the marks as a list" "" '"step": 10, "marks": [1, 2]' "screen.marks: wants an object"
bad_state "a sheet's state with a fraction" "" \
    '"step": 10, "sheet": {"name": "units", "state": [0, 0, 1.5, 99]}' \
    "screen.sheet: state[2] wants an integer"
bad_state "a sheet's state as a string" "" '"step": 10, "sheet": {"name": "units", "state": "x"}' \
    "screen.sheet: state wants a list of integers"
# what W writes opens again: "previous": null before any jump; the unit table's gate of a
# mean column of the model with the most gates, the state being every model's
session "$work/prev.json" "$model" "$text" "" '"step": 10, "previous": null'
rm -f "$work/prev.txt"
frame prev --session "$work/prev.json"
[ -s "$work/prev.txt" ]
check $? "\"previous\": null (W's before any jump) opens ($(head -c 200 "$work/prev.err"))"
gru="$(cd "$src/samples" && pwd)/kjv-gru.bin"
cat >"$work/two.json" <<EOF
{"gatetui_session": 1,
 "models": [{"path": "$model", "size": $(size "$model"), "sha256": "$(sha "$model")"},
            {"path": "$gru", "size": $(size "$gru"), "sha256": "$(sha "$gru")"}],
 "text": {"path": "$text", "size": $(size "$text"), "sha256": "$(sha "$text")"},
 "screen": {"model": 1, "step": 10, "sheet": {"name": "units", "state": [0, 0, 1, 2, 0]}}}
EOF
rm -f "$work/two.txt"
frame two --session "$work/two.json"
[ -s "$work/two.txt" ]
check $? "the unit table by the LSTM's third gate, the GRU shown (two gates): opens ($(head -c 200 "$work/two.err"))"
bad_state "a pinned curve past the text's end" "" \
    '"step": 10, "pinned": [{"step": 100000000, "from": " ", "to": "x", "all": false, "edits": 1, "layer": 0, "horizon": 2, "K": 2, "half_lives": {}, "c": [1, 0.5, 0.25], "h": [1, 0.5, 0.25], "F": [1, 0.5, 0.25], "L": [1, 0.5, 0.25]}]' \
    "screen.pinned: a step from 0 to 43234"
bad_state "a pinned curve's interventions as a number" "" \
    '"step": 10, "pinned": [{"step": 100, "from": " ", "to": "x", "all": false, "edits": 1, "layer": 0, "horizon": 2, "K": 2, "half_lives": {}, "c": [1, 0.5, 0.25], "h": [1, 0.5, 0.25], "F": [1, 0.5, 0.25], "L": [1, 0.5, 0.25], "interventions": 5}]' \
    'screen.pinned: wants "interventions" as a string, as W writes it'
# curves pinned beside an edit at 80x24: the pinned line keeps its half-lives, packed
curve() { awk -v r="$1" 'BEGIN { v = 1; for (k = 0; k <= 64; k++) { printf "%s%.6g", k ? ", " : "", v; v *= r } }'; }
pin="{\"step\": 1100, \"from\": \" \", \"to\": \"x\", \"all\": false, \"edits\": 1, \"layer\": 0, \"horizon\": 64, \"K\": 64, \"half_lives\": {}, \"c\": [$(curve 0.9)], \"h\": [$(curve 0.8)], \"F\": [$(curve 0.7)], \"L\": [$(curve 0.95)], \"interventions\": \"\"}"
session "$work/pin80.json" "$model" "$text" "" "\"step\": 1202, \"edits\": [{\"step\": 1200, \"offset\": 1200, \"before\": \" \", \"after\": \"x\"}], \"pinned\": [$pin]"
frame pin80 --size 80x24 --session "$work/pin80.json"
grep -qE '│ C f H: c6\.6 L13\.5 F1\.9 h3\.1 *$' "$work/pin80.txt"
check $? "at 80x24 the pinned line keeps its half-lives, taken from its curves ($(grep -o 'C f H[^│]*' "$work/pin80.txt" | head -1))"
bad_state "a pinned curve's value a string" "" \
    '"step": 10, "pinned": [{"step": 100, "from": " ", "to": "x", "all": false, "edits": 1, "layer": 0, "horizon": 2, "K": 2, "half_lives": {}, "c": [1, "x", 0.25], "h": [1, 0.5, 0.25], "F": [1, 0.5, 0.25], "L": [1, 0.5, 0.25]}]' \
    "screen.pinned: a curve of K + 1 numbers each (null where none)"
bad_state "the ratio's k past the horizon" "" '"step": 10, "perturbation": {"horizon": 64, "ratio_k": 1000}' \
    "screen.perturbation.ratio_k: wants an integer from 0 to 64"
for key in ab A 1; do
    bad_state "a mark named $key" "" "\"step\": 10, \"marks\": {\"$key\": 5}" \
        "screen.marks: wants marks named a to z (m then a letter sets one)"
done
bad_state "the colour's step 64" "" '"step": 10, "colour": {"by": "unit", "at": 64}' \
    "screen.colour.at: wants an integer from 0 to 63"
bad_state "the perturbation's horizon 0" "" '"step": 10, "perturbation": {"horizon": 0}' \
    "screen.perturbation.horizon: wants an integer from 4 to 1024"
bad_state "the hypothesis's signal 9 of an LSTM's 6" "" \
    '"step": 10, "find": [{"regex": " ", "signal": 9}]' \
    "screen.find[0].signal: wants an integer from 0 to 5"
bad_state "a hypothesis that matches nothing" "" '"step": 10, "find": [{"regex": "QQQQ"}]' \
    'screen.find[0].regex: "QQQQ" matches no character of the 43,235 steps searched'
bad_state "a hypothesis that matches everything" "" '"step": 10, "find": [{"regex": "."}]' \
    'screen.find[0].regex: "." matches every one of the 43,235 steps searched: nothing to compare with'
bad_state "a carousel on layer 7 of 1" '{"option": "carousel", "value": "7"}' '"step": 10' \
    "models[0].interventions: --carousel@L: layer 7: the model has 1 layer (0..0)"
# a session without the screen's entry: the screen at step 0, as the screen opens it
cat >"$work/noscreen.json" <<EOF
{"gatetui_session": 1,
 "models": [{"path": "$model", "size": $(size "$model"), "sha256": "$(sha "$model")"}],
 "text": {"path": "$text", "size": $(size "$text"), "sha256": "$(sha "$text")"}}
EOF
frame noscr --session "$work/noscreen.json"
frame step0 --step 0 "$model" "$text"
same noscr step0 "--export --session without the screen's entry: the frame at step 0"
rm -f "$work/no.txt"
echo '{}' >"$work/empty.json"
refused "a JSON file that is not a session" "$bin" --export "$work/no.txt" --session "$work/empty.json"
echo 'nonsense' >"$work/nonsense.json"
refused "a file that is not JSON" "$bin" --export "$work/no.txt" --session "$work/nonsense.json"
# the session file itself as any file is: named, and why, in the words of every other file
mkdir "$work/adir"
for c in "nonsense.json:not a gatetui session file: .* (line 1)" "adir:is a directory" \
    "gone.json:cannot open: No such file or directory" "fifo:a pipe (FIFO), not a regular file"; do
    f=${c%%:*} want=${c#*:}
    [ "$f" = fifo ] && mkfifo "$work/fifo"
    said=$("$bin" --export "$work/no.txt" --session "$work/$f" 2>&1 >/dev/null)
    rc=$?
    [ $rc -eq 2 ] && printf '%s\n' "$said" | grep -qx "gatetui: --session $work/$f: $want" &&
        [ ! -e "$work/no.txt" ]
    check $? "--session $f: exit $rc, one line naming it and why ($said)"
done
: >"$work/empty0.json"
said=$("$bin" --export "$work/no.txt" --session "$work/empty0.json" 2>&1 >/dev/null)
[ $? -eq 2 ] && [ "$said" = "gatetui: --session $work/empty0.json: the file is empty" ]
check $? "--session of an empty file: exit 2, said so ($said)"
frame exists --session "$work/a.json"
refused "--export --session over a file that exists" "$bin" --export "$work/exists.txt" --session "$work/a.json"

# --session with what it replaces: bad usage, exit 2
for extra in "--step 3" "--layer 0" "--edit 3:a" "--ablate 0:1" "--vocab-from $text" "--steps 100" \
    "--tokens chars"; do
    # shellcheck disable=SC2086
    "$bin" --export "$work/no.txt" $extra --session "$work/a.json" >/dev/null 2>"$work/err"
    [ $? -eq 2 ] && head -1 "$work/err" | grep -q "^gatetui: --session FILE: .* are the session's (--"
    check $? "--session with $extra: exit 2 ($(head -1 "$work/err"))"
done

# A word model's edits (doc/usage.md), the word sample at full length: --edit S:W, and
# the list naming each token by its word at its offset in the tokens joined (w's list: the
# first line's words are all in the vocabulary but Bethlehemjudah, read as <unk>), <eos> a
# token like any other
wmodel="$src/samples/kjv-words.pt" wtext="$src/samples/kjv-words-valid.txt"
frame wedit --step 1200 --edit 40:law --edit 48:and --edit 46:'<eos>' --edit 1200:go \
    "$wmodel" "$wtext"
printf '# step\tbyte offset in kjv-words-valid.txt\tbefore\tafter\n40\t180\this\tlaw\n48\t209\t<eos>\tand\n46\t203\tsons\t<eos>\n1200\t5231\tcome\tgo\n' \
    >"$work/words.edits.txt"
frame wlist --step 1200 --edits "$work/words.edits.txt" "$wmodel" "$wtext"
same wlist wedit "a word model's list by hand: the frame of the same --edit S:W ($(panel wlist))"
[ "$(panel wlist)" = "step 1,200: 'come' → 'go'  layer 0, 4 edits" ]
check $? "... its panel the last edit, a word for a word"
sed 's/\this\t/\ther\t/' "$work/words.edits.txt" >"$work/words-her.edits.txt"
"$bin" --export "$work/no.txt" --step 0 --edits "$work/words-her.edits.txt" "$wmodel" "$wtext" 2>&1 |
    grep -qx "gatetui: $work/words-her.edits.txt:2: step 40 holds 'his', not 'her': the list was made for another text (or model)"
check $? "a word model's list naming another word before: refused, FILE:LINE, both words"
sed 's/\tcome\tgo$/\tcome\tgoeth-not/' "$work/words.edits.txt" >"$work/words-new.edits.txt"
"$bin" --export "$work/no.txt" --step 0 --edits "$work/words-new.edits.txt" "$wmodel" "$wtext" 2>&1 |
    grep -qx "gatetui: $work/words-new.edits.txt:5: 'goeth-not' is not in the model's vocabulary"
check $? "a word model's list putting a word not in its vocabulary: refused, named"
sed 's/\t209\t/\t210\t/' "$work/words.edits.txt" >"$work/words-off.edits.txt"
"$bin" --export "$work/no.txt" --step 0 --edits "$work/words-off.edits.txt" "$wmodel" "$wtext" 2>&1 |
    grep -q "words-off.edits.txt:3: step 48 is at byte 209 of .*kjv-words-valid.txt, not 210"
check $? "a word model's list with an offset shifted: refused at its line"

"$bin" --session "$work/a.json" "$model" "$text" >/dev/null 2>"$work/err"
[ $? -eq 2 ] && head -1 "$work/err" | grep -q "^gatetui: --session FILE takes no MODEL or TEXT"
check $? "--session with MODEL and TEXT: exit 2 ($(head -1 "$work/err"))"
"$bin" --report --session "$work/a.json" >/dev/null 2>"$work/err"
[ $? -eq 2 ] && head -1 "$work/err" | grep -q "^gatetui: --session goes with the screen or --export, not --report"
check $? "--report --session: exit 2 ($(head -1 "$work/err"))"
echo "1..$n"
