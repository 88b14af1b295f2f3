#!/bin/sh
# Exported frames with an edit on the shipped samples at full length (samples/kjv-valid.txt,
# 43,235 steps; H 256 to 542): at steps 200, 1,200, 20,000 and 43,200 (its curves cut by the
# text's end), one model and the three side by side (the first's panel, and the line of every
# model's half-life of h), at 100x30 and 120x40. A batch mode
# computes everything its frame shows (doc/usage.md, "Exporting a frame"): the perturbation
# panel's half-lives and ratio are those of the float64 run of
# tests/ref/make_export_fixtures.py (tests/fixtures/export/samples.json), never "waiting".
src="${top_srcdir:-.}"
bld="${top_builddir:-.}"
. "$src/tests/lib/tap.sh"
bin="$bld/gatetui"
need "$bin"
fix="$src/tests/fixtures/export/samples.json"
text="$src/samples/kjv-valid.txt"
py=$(command -v python3) || bail "python3 is missing (build.sh installs it)"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# export_check WHAT MODELNAME STEP SIZE MODEL...: the frame at STEP + 2 after the edit at STEP
export_check() {
    what=$1 name=$2 step=$3 size=$4
    shift 4
    to=$("$py" -c "import json,sys; print([e['to'] for e in json.load(open('$fix'))['models']['$name']['edits'] if e['step']==$step][0])")
    out="$work/f-$name-$step-$size-$#.txt"
    if ! "$bin" --export "$out" --step $((step + 2)) --edit "$step:$to" --size "$size" "$@" \
        "$text" 2>"$work/err"; then
        notok "$what: exit status $? ($(head -1 "$work/err"))"
        return
    fi
    peers=
    [ $# -gt 1 ] && peers="kjv-lstm kjv-gru kjv-rnn"
    # shellcheck disable=SC2086
    if said=$("$py" "$src/tests/lib/panelcmp.py" "$out" "$fix" "$name" "$step" $peers); then
        ok "$what: $said"
    else
        notok "$what: $said"
        grep -A12 "perturbation ─" "$out" | sed 's/.*[│┬]/# /'
    fi
}

for step in 200 1200 20000 43200; do
    for size in 100x30 120x40; do
        for name in kjv-lstm kjv-gru kjv-rnn; do
            export_check "$name, edit at $step, $size" $name $step $size "$src/samples/$name.bin"
        done
        export_check "three models, edit at $step, $size: the first model's panel, every model's h" kjv-lstm \
            $step $size "$src/samples/kjv-lstm.bin" "$src/samples/kjv-gru.bin" \
            "$src/samples/kjv-rnn.bin"
    done
done
# the frame README.md and doc/screen.md show is what the command they name writes
"$bin" --export "$work/doc.txt" --step 1200 --edit 1200:x --size 100x30 \
    "$src/samples/kjv-lstm.bin" "$text" 2>/dev/null
for doc in README.md doc/screen.md; do
    awk '/^```$/ { if (on) exit; on = 1; next } on' "$src/$doc" >"$work/docframe.txt"
    if cmp -s "$work/doc.txt" "$work/docframe.txt"; then
        ok "$doc's frame is --export --step 1200 --edit 1200:x --size 100x30's"
    else
        notok "$doc's frame differs from --export --step 1200 --edit 1200:x --size 100x30's"
        diff "$work/docframe.txt" "$work/doc.txt" | head -20 | sed 's/^/# /'
    fi
done
# README.md's frame of the GRU's line-length unit (m, sorted by |r|, coloured by unit 52):
# that screen's session rendered by --export --session
abs() { (cd "$(dirname "$1")" && printf '%s/%s' "$(pwd)" "$(basename "$1")"); }
entry() { # entry FILE: a session's {"path", "size", "sha256"} of FILE
    printf '{"path": "%s", "size": %s, "sha256": "%s"' "$(abs "$1")" "$(wc -c <"$1" | tr -d ' ')" \
        "$("$bld/tests/lib/sha256sum" "$1" | cut -d' ' -f1)"
}
{
    printf '{"gatetui_session": 1, "models": [%s, "interventions": []}], ' \
        "$(entry "$src/samples/kjv-gru.bin")"
    printf '"text": %s}, ' "$(entry "$text")"
    printf '"screen": {"step": 300, "unit": 52, "sort": {"by": "r", "reverse": false}, '
    printf '"colour": {"by": "unit", "at": 0}, "find": [{"regex": "\\\\n[^\\\\n]{0,79}", '
    printf '"signal": 3, "threshold": 0.3, "steps": 100000, "last": "match"}]}}\n'
} >"$work/gru.json"
"$bin" --export "$work/gru.txt" --size 100x30 --session "$work/gru.json" 2>"$work/gru.err"
awk '/^```$/ { on = !on; if (on) n++; next } on && n == 2' "$src/README.md" >"$work/docgru.txt"
if [ -s "$work/gru.txt" ] && cmp -s "$work/gru.txt" "$work/docgru.txt"; then
    ok "README.md's GRU frame is --export --session's of that screen (step 300, m, |r|, c)"
else
    notok "README.md's GRU frame differs from --export --session's of that screen"
    sed 's/^/# /' "$work/gru.err" | head -3
    diff "$work/docgru.txt" "$work/gru.txt" | head -20 | sed 's/^/# /'
fi
# the word sample at its first step: every guess under 1% (the largest 0.17%), with a decimal
"$bin" --export "$work/w0.txt" --step 0 "$src/samples/kjv-words.pt" "$src/samples/kjv-words-valid.txt" \
    2>/dev/null
if sed -n 2p "$work/w0.txt" | grep -q "│ next: 'the' 0\.2% 'that' 0\.1% 'of' 0\.1% │"; then
    ok "the word sample's guesses at step 0 under 1%: with a decimal, not 0%"
else
    notok "the word sample's guesses at step 0: $(sed -n 2p "$work/w0.txt")"
fi
# README.md's word-model frame: the top of --export --step 1841 --layer 1 --size 100x30, the
# header's loss saying it is over the first 10 windows (the report's is over 32: another
# number, 6.95)
"$bin" --export "$work/w1841.txt" --step 1841 --layer 1 --size 100x30 "$src/samples/kjv-words.pt" \
    "$src/samples/kjv-words-valid.txt" 2>/dev/null
awk '/^```$/ { on = !on; if (on) n++; next } on && /kjv-words.pt: LSTM, 2 layers/ { w = n } on && n == w' \
    "$src/README.md" >"$work/docw.txt"
if [ -s "$work/docw.txt" ] && head -n "$(wc -l <"$work/docw.txt")" "$work/w1841.txt" | cmp -s - "$work/docw.txt" &&
    head -1 "$work/w1841.txt" | grep -q 'loss 6.78 bits/token (first 10 windows)$'; then
    ok "README.md's word-model frame is the top of --export --step 1841's; its loss over the first 10 windows, said"
else
    notok "README.md's word-model frame differs from --export --step 1841 --layer 1 --size 100x30's"
    head -n 12 "$work/w1841.txt" | diff "$work/docw.txt" - | head -10 | sed 's/^/# /'
fi
# the header's counts with thousands separators (V 10,002), and a name never cut: at 80
# columns three models' headers leave the text's name out after " …", not "kjv-v…"
h=$(sed -n 1p "$work/w0.txt")
case "$h" in
*"V 10,002 "*) ok "the word sample's header: V 10,002, as the report writes it" ;;
*) notok "the word sample's header: $h" ;;
esac
"$bin" --export "$work/h80.txt" --size 80x24 --step 0 "$src/samples/kjv-lstm.bin" \
    "$src/samples/kjv-gru.bin" "$src/samples/kjv-rnn.bin" "$text" 2>/dev/null
h=$(sed -n 1p "$work/h80.txt")
case "$h" in
*"kjv-v"*) notok "at 80 columns the header cuts the text's name: $h" ;;
*", … │ "*) ok "at 80 columns three models' header leaves the text's name out, after \" …\"" ;;
*) notok "at 80 columns, the header: $h" ;;
esac
echo "1..$n"
