#!/bin/sh
# The vocabulary from a file of its own (doc/model-files.md, "The vocabulary"): --vocab FILE
# in each of its forms (a JSON list, token -> index, index -> token, {"itos"}, {"stoi"}, the
# characters in index order) gives the dump of the model that keeps the same vocabulary
# itself; MODEL.vocab.json or vocab.json beside a model without one is used and said so (on
# standard error and in the screen's header);
# without any, the message names --vocab first; malformed files get one line, exit 2.
src="${top_srcdir:-.}"
bld="${top_builddir:-.}"
. "$src/tests/lib/tap.sh"
bin=$(cd "$bld" && pwd)/gatetui
need "$bin" "$bld/tests/lib/mkframes"
command -v python3 >/dev/null || bail "python3 is needed to write the vocabulary files"
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT INT TERM
"$bld/tests/lib/mkframes" "$work" >/dev/null || bail "tests/lib/mkframes could not write the test model"
text="$(cd "$src/tests/golden/frames" && pwd)/text.txt"
mkdir "$work/d"
# the test model without its metadata vocabulary, and that vocabulary in every form
python3 - "$work/frames_lstm2.safetensors" "$work/d" <<'PY' || bail "could not write the files"
import json, struct, sys
b = open(sys.argv[1], "rb").read()
n = struct.unpack("<Q", b[:8])[0]
h = json.loads(b[8:8 + n])
v = h.pop("__metadata__")["vocab"]
head = json.dumps(h).encode()
d = sys.argv[2]
open(d + "/nov.safetensors", "wb").write(struct.pack("<Q", len(head)) + head + b[8 + n:])
forms = {"list.json": list(v), "stoi.json": {c: i for i, c in enumerate(v)},
         "itos_obj.json": {str(i): c for i, c in enumerate(v)}, "itos.json": {"itos": list(v)},
         "stoi2.json": {"stoi": {c: i for i, c in enumerate(v)}}}
for name, val in forms.items():
    json.dump(val, open(d + "/" + name, "w"))
open(d + "/chars.txt", "w").write(v)
open(d + "/chars_nl.txt", "w").write(v + "x")
json.dump({"a": 1, "b": 1}, open(d + "/dup.json", "w"))
open(d + "/bad.json", "w").write("[1, 2")
json.dump(["the", "and"] + ["x%d" % i for i in range(len(v) - 2)], open(d + "/words.json", "w"))
PY
"$bin" --dump "$work/frames_lstm2.safetensors" "$text" >"$work/want" 2>/dev/null ||
    bail "the dump of the test model failed"
m="$work/d/nov.safetensors"
for f in list.json stoi.json itos_obj.json itos.json stoi2.json chars.txt; do
    "$bin" --dump --vocab "$work/d/$f" "$m" "$text" >"$work/got" 2>"$work/err"
    st=$?
    [ $st -eq 0 ] && cmp -s "$work/want" "$work/got"
    check $? "--vocab $f: the dump of the model that keeps this vocabulary (exit $st)"
done
"$bin" --dump "$m" "$text" >/dev/null 2>"$work/err"
st=$?
[ $st -eq 2 ] && grep -q "no vocabulary .*: pass --vocab FILE .*, or --vocab-from TEXT, which rebuilds sorted(set(TEXT)): right only for a model trained so" "$work/err"
check $? "no vocabulary anywhere: the message names --vocab first (exit $st)"
for beside in nov.vocab.json nov.safetensors.vocab.json vocab.json; do
    cp "$work/d/stoi.json" "$work/d/$beside"
    "$bin" --dump "$m" "$text" >"$work/got" 2>"$work/err"
    st=$?
    [ $st -eq 0 ] && cmp -s "$work/want" "$work/got" &&
        grep -q "nov.safetensors: the vocabulary of .*$beside, beside the model" "$work/err"
    check $? "$beside beside the model: used, and said on standard error (exit $st)"
    "$bin" --export - --step 3 --size 160x30 "$m" "$text" 2>/dev/null | head -1 >"$work/head"
    grep -q "V 47 ($beside beside it)" "$work/head"
    check $? "$beside beside the model: said in the screen's header ($(cut -c1-90 "$work/head"))"
    rm "$work/d/$beside"
done
# bad vocabulary files: refused with one line
bad() { # FILE PATTERN WHAT
    "$bin" --dump --vocab "$work/d/$1" "$m" "$text" >/dev/null 2>"$work/err"
    st=$?
    [ $st -eq 2 ] && [ "$(wc -l <"$work/err")" -eq 1 ] && grep -q "$2" "$work/err"
    check $? "--vocab $1: $3 (exit $st)"
}
bad chars_nl.txt "has 48 tokens but the model has 47" "one character too many: the counts said"
bad dup.json "index 1 given twice" "an index given twice"
bad bad.json "not valid JSON" "broken JSON"
bad words.json 'line 1: ".*" is not in the vocabulary, which has no <unk> to read it as' "a vocabulary of words: the text split into words, the first unknown one refused with its line"
bad missing.json "missing.json" "a file that is not there"
# a byte-order mark before the characters (an editor's) is no token: read as without it
printf '\357\273\277' >"$work/d/bom.txt" && cat "$work/d/chars.txt" >>"$work/d/bom.txt"
"$bin" --dump --vocab "$work/d/bom.txt" "$m" "$text" >"$work/got" 2>"$work/err"
st=$?
[ $st -eq 0 ] && cmp -s "$work/want" "$work/got"
check $? "--vocab with a byte-order mark before the characters: read as without it (exit $st)"
# neither a line nor a character for each token: both counts said (the characters were
# called tokens: "has 438 tokens")
printf 'ab\ncd\nef\n' >"$work/d/lines3.txt"
bad lines3.txt "lines3.txt: 3 lines and 9 characters, but the model has 47 tokens (a vocabulary file holds one token a line, or one a character)" "three lines of two characters for 47 tokens: both counts said"
echo "1..$n"
