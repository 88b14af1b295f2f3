#!/bin/sh
# Golden frames: `gatetui --export` of the models tests/lib/mkframes writes, over
# tests/golden/frames/text.txt, at several sizes, compared byte for byte with tests/golden/frames/*.txt.
# After a deliberate change to the screen, make them again with
#     tests/golden/frames.sh --regen
# (from the top of a built tree) and look at the difference (git diff tests/golden/frames) before
# committing it. Only that argument writes them: make check runs the script without it,
# and nothing in the environment changes what it does.
# Also: --export refuses to overwrite, reports bad options, and the screen without a
# terminal points at the modes that need none.
src="${top_srcdir:-.}"
bld="${top_builddir:-.}"
bin="$bld/gatetui"
gold="$src/tests/golden/frames"
text="$gold/text.txt"
regen=""
case "${1:-}" in
--regen) regen=1 ;;
"") ;;
*) echo "usage: tests/golden/frames.sh [--regen]" >&2; exit 2 ;;
esac
. "$src/tests/lib/tap.sh"
need "$bin" "$bld/tests/lib/mkframes"
out=$(mktemp -d) || exit 1
trap 'rm -rf "$out"' EXIT
"$bld/tests/lib/mkframes" "$out" || bail "tests/lib/mkframes could not write the models"
lstm="$out/frames_lstm2.safetensors"
gru="$out/frames_gru.safetensors"

utf8=""
for l in C.UTF-8 C.utf8 en_US.UTF-8; do
    if LC_ALL=$l locale charmap 2>/dev/null | grep -qi 'utf-*8'; then utf8=$l; break; fi
done

# golden NAME LOCALE ARGS...: the frame of ARGS in LOCALE against tests/golden/frames/NAME.txt
golden() {
    name=$1 loc=$2
    shift 2
    if [ -z "$loc" ]; then skip "$name: no UTF-8 locale here"; return; fi
    f="$out/$name.txt"
    if ! LC_ALL=$loc NO_COLOR= "$bin" --export "$f" "$@" 2>"$out/err"; then
        notok "$name: gatetui --export failed"
        sed 's/^/# /' "$out/err"
        return
    fi
    if [ -n "$regen" ]; then
        cp "$f" "$gold/$name.txt"
        ok "$name: written to $gold/$name.txt"
    elif cmp -s "$f" "$gold/$name.txt"; then
        ok "$name: the frame is the golden one"
    else
        notok "$name: the frame differs from $gold/$name.txt"
        diff "$gold/$name.txt" "$f" | head -20 | sed 's/^/# /'
    fi
}

golden lstm2-120x40 "$utf8" --step 57 "$lstm" "$text"
# the smallest size: the gate values without bars, fields whole
golden lstm2-64x22 "$utf8" --step 60 --size 64x22 "$lstm" "$text"
golden lstm2-80x24-layer1-edit "$utf8" --step 60 --edit 55:x --layer 1 --size 80x24 "$lstm" "$text"
golden lstm2-200x60-end "$utf8" --step 377 --size 200x60 "$lstm" "$text"
golden gru-100x30-ascii C --step 20 --size 100x30 "$gru" "$text"
golden toosmall-40x10 C --step 0 --size 40x10 "$gru" "$text"
# an edit: the perturbation panel's curves, half-lives, ratio and units (LSTM, GRU, ASCII)
golden lstm2-120x40-edit "$utf8" --step 60 --edit 50:x "$lstm" "$text"
golden gru-120x40-edit "$utf8" --step 30 --edit 20:x "$gru" "$text"
golden lstm2-100x30-edit-ascii C --step 30 --edit 20:x --size 100x30 "$lstm" "$text"
golden lstm2-120x40-edit-end "$utf8" --step 377 --edit 370:a "$lstm" "$text"
# a byte model: the text's characters of several bytes drawn whole, the cursor on the second
# byte of an é under it; an edited byte shows the bytes one by one
bytes="$out/frames_bytes.safetensors"
golden bytes-100x30 "$utf8" --step 4 --size 100x30 "$bytes" "$src/tests/golden/frames/utf8.txt"
golden bytes-100x30-edit "$utf8" --step 16 --edit 3:x --size 100x30 "$bytes" "$src/tests/golden/frames/utf8.txt"
# a plain RNN: rows of a, h and the change (no gate bars, no half-life), the pre-activation
# against h, the unit's a and h, the perturbation without a forget-only curve (tanh, 2 layers,
# embedded; relu, one-hot, no readout, in ASCII)
rnn2="$out/frames_rnn2.safetensors" relu="$out/frames_relu.safetensors"
golden rnn2-120x40 "$utf8" --step 57 "$rnn2" "$text"
golden rnn2-100x30-layer1-edit "$utf8" --step 60 --edit 50:x --layer 1 --size 100x30 "$rnn2" "$text"
golden relu-80x24-edit-ascii C --step 60 --edit 50:x --size 80x24 "$relu" "$text"
golden relu-64x22 "$utf8" --step 30 --size 64x22 "$relu" "$text"
# stacked cells each of its own width (tests/fixtures/report: an LSTM of 16, 24 and 12 units,
# a GRU of 10, 14 and 6): a frame of every layer of the LSTM, each with its own units, gates,
# unit and perturbation, and of the GRU's widest and narrowest, after an edit
w3="$src/tests/fixtures/report/lstm3w.safetensors" g3="$src/tests/fixtures/report/gru3w.safetensors"
w3t="$src/tests/fixtures/report/text.txt"
golden lstm3w-120x40-layer0-edit "$utf8" --step 300 --edit 290:a --layer 0 "$w3" "$w3t"
golden lstm3w-120x40-layer1-edit "$utf8" --step 300 --edit 290:a --layer 1 "$w3" "$w3t"
golden lstm3w-120x40-layer2-edit "$utf8" --step 300 --edit 290:a --layer 2 "$w3" "$w3t"
golden gru3w-100x30-layer1-edit-ascii C --step 200 --edit 190:e --layer 1 --size 100x30 "$g3" "$w3t"
golden gru3w-100x30-layer2-edit-ascii C --step 200 --edit 190:e --layer 2 --size 100x30 "$g3" "$w3t"
# a word model (tests/fixtures/words): its tokens apart by spaces, <eos> as ↵, an edited
# token; and in ASCII
words="$src/tests/fixtures/words"
golden words-100x30-edit "$utf8" --step 40 --edit 40:law --size 100x30 "$words/w_lstm.safetensors" \
    "$words/text.txt"
golden words-80x24-ascii C --step 300 --size 80x24 "$words/w_gru.safetensors" "$words/text.txt"

# Numbers fitted, never cut: at every width from the smallest to 90 columns, the selected
# unit's row of gate values (left of the divider) and the unit panel's two lines of values
# (right of it) hold whole fields only: each one's fields are the first of those the same
# frame shows at 200 columns, where everything fits.
# fields FRAME: three lines, the gate row's numbers, the unit panel's gates and its state.
fields() {
    awk -v bar="│" -v tee="┬" '
    function before(l,   i, j) { i = index(l, bar); j = index(l, tee)
        if (j && (!i || j < i)) i = j; return i ? substr(l, 1, i - 1) : l }
    function after(l,   i, r) { r = l; while ((i = index(r, bar)) > 0) r = substr(r, i + length(bar)); return r }
    function nums(t,   o, k, a, m) { m = split(t, a, /[ ]+/); o = ""
        for (k = 1; k <= m; k++) if (a[k] ~ /^[-+]?[0-9]+(\.[0-9]*)?$/) o = o " " a[k]; return o }
    /^▶/ && !g { g = nums(before($0)) }
    index($0, "Δc") && !st { x = after($0); if (x ~ /^ c [-+]/) st = x }
    / i [0-9.]+ / && !gl { x = after($0); if (x ~ /^ i /) gl = x }
    END { print "gates" g; print "unit" gl; print "state" st }' "$1"
}
# prefix WIDE NARROW: NARROW is WIDE or its first words, with at least MIN words
prefix() {
    set -f
    set -- "$1" "$2" "$3"
    w=$(echo "$1" | tr -s ' ') nw=$(echo "$2" | tr -s ' ')
    set +f
    [ "$(echo "$nw" | wc -w)" -ge "$3" ] || return 1
    case "$w " in "$nw "*) return 0 ;; *) return 1 ;; esac
}
fit() { # fit NAME MODEL STEP [ARGS...]
    name=$1 m=$2 st=$3
    shift 3
    if [ -z "$utf8" ]; then skip "$name: no UTF-8 locale here"; return; fi
    LC_ALL=$utf8 "$bin" --export - --step "$st" --size 200x60 "$@" "$m" "$text" >"$out/wide.txt" 2>/dev/null
    fields "$out/wide.txt" >"$out/wide.f"
    bad=""
    for w in $(seq 64 90); do
        LC_ALL=$utf8 "$bin" --export - --step "$st" --size "${w}x24" "$@" "$m" "$text" >"$out/n.txt" 2>/dev/null
        fields "$out/n.txt" >"$out/n.f"
        prefix "$(sed -n 1p "$out/wide.f")" "$(sed -n 1p "$out/n.f")" 7 &&
            prefix "$(sed -n 2p "$out/wide.f")" "$(sed -n 2p "$out/n.f")" 3 &&
            prefix "$(sed -n 3p "$out/wide.f")" "$(sed -n 3p "$out/n.f")" 3 ||
            bad="$bad $w:[$(tr '\n' '/' <"$out/n.f")]"
    done
    if [ -z "$bad" ] && [ "$(wc -w <"$out/wide.f")" -ge 20 ]; then
        ok "$name: whole fields at 64-90 columns"
    else
        notok "$name: fields cut or missing at$bad (at 200: $(tr '\n' '/' <"$out/wide.f"))"
    fi
}
fit "lstm2 layer 1 after an edit" "$lstm" 60 --edit 55:x --layer 1
fit "lstm2 at the end" "$lstm" 377
if [ -f "$src/samples/kjv-lstm.bin" ]; then
    text_saved=$text text="$src/samples/kjv-valid.txt"
    fit "the sample LSTM at step 2301" "$src/samples/kjv-lstm.bin" 2301
    text=$text_saved
else
    skip "the sample LSTM is not in this tree"
fi

# the same frame again: the same bytes (nothing depends on time or memory)
if LC_ALL=C "$bin" --export - --step 20 --size 100x30 "$gru" "$text" >"$out/stdout.txt" 2>/dev/null &&
    cmp -s "$out/stdout.txt" "$out/gru-100x30-ascii.txt"; then
    ok "--export - writes the same frame to standard output"
else
    notok "--export - differs from --export FILE"
fi

# texts of one and two steps, every step, the smallest and a large size
printf 'a' >"$out/one.txt"
printf 'ab' >"$out/two.txt"
fails=""
for m in "$lstm" "$gru" "$rnn2" "$relu"; do
    for sz in 64x22 300x100; do
        for ts in one:0 two:0 two:1; do
            LC_ALL=${utf8:-C} "$bin" --export - --step "${ts#*:}" --size "$sz" "$m" \
                "$out/${ts%:*}.txt" >/dev/null 2>&1 || fails="$fails ${m##*/}:$sz:$ts"
        done
    done
done
if [ -z "$fails" ]; then
    ok "texts of one and two steps draw at every step"
else
    notok "short texts fail:$fails"
fi

# the file's mode is what the umask leaves of 0666, as for any file a user writes
modes=""
for um in 022 027 077; do
    (umask $um && LC_ALL=C "$bin" --export "$out/mode-$um.txt" --step 1 "$gru" "$text" 2>/dev/null)
    modes="$modes $(stat -c %a "$out/mode-$um.txt" 2>/dev/null)"
done
if [ "$modes" = " 644 640 600" ]; then
    ok "--export follows the umask (022, 027, 077:$modes)"
else
    notok "--export's modes under umasks 022, 027, 077:$modes (want 644 640 600)"
fi

# never overwrite
echo keep >"$out/exists.txt"
LC_ALL=C "$bin" --export "$out/exists.txt" --step 1 "$gru" "$text" 2>"$out/err"
rc=$?
if [ $rc -eq 2 ] && [ "$(cat "$out/exists.txt")" = keep ] && grep -q "exists" "$out/err"; then
    ok "--export refuses an existing file (exit 2, file untouched)"
else
    notok "--export over an existing file: exit $rc"
    sed 's/^/# /' "$out/err"
fi
if [ -z "$(find "$out" -name '.gatetui-frame-*')" ]; then
    ok "no temporary file left behind"
else
    notok "a temporary file was left behind"
fi

# bad options: exit 2 and one line
bad() {
    what=$1
    shift
    LC_ALL=C "$bin" "$@" >/dev/null 2>"$out/err"
    rc=$?
    if [ $rc -eq 2 ] && [ "$(wc -l <"$out/err")" -ge 1 ]; then
        ok "$what: exit 2 ($(tail -1 "$out/err"))"
    else
        notok "$what: exit $rc"
        sed 's/^/# /' "$out/err"
    fi
}
bad "--size 0x10" --export "$out/a.txt" --step 0 --size 0x10 "$gru" "$text"
bad "--size 120" --export "$out/a.txt" --step 0 --size 120 "$gru" "$text"
bad "--step past the end" --export "$out/a.txt" --step 378 "$gru" "$text"
bad "--edit with a character outside the vocabulary" --export "$out/a.txt" --step 0 --edit 3:Q "$gru" "$text"
bad "--edit without a character" --export "$out/a.txt" --step 0 --edit 3: "$gru" "$text"
bad "--edit past the end" --export "$out/a.txt" --step 0 --edit 999:a "$gru" "$text"
bad "--export without --step" --export "$out/a.txt" "$gru" "$text"
# a second --edit is made after the first, neither dropped (tests/samples/edits.sh: in order)
LC_ALL=C "$bin" --export "$out/a.txt" --step 0 --edit 3:a --edit 4:b "$gru" "$text" >/dev/null 2>"$out/err"
rc=$?
if [ $rc -eq 0 ] && grep -q "step 4: .* -> 'b'  layer 0, 2 edits" "$out/a.txt"; then
    ok "--edit twice: both made, the panel the second against the first"
else
    notok "--edit twice: exit $rc"
    sed 's/^/# /' "$out/err"
fi

# the screen needs a terminal
LC_ALL=C "$bin" "$gru" "$text" </dev/null >"$out/o" 2>"$out/err"
rc=$?
if [ $rc -eq 2 ] && grep -q -- "--report" "$out/err" && grep -q -- "--dump" "$out/err" &&
    grep -q -- "--export" "$out/err" && [ ! -s "$out/o" ]; then
    ok "without a terminal: exit 2, pointing at --report, --dump and --export"
else
    notok "without a terminal: exit $rc"
    sed 's/^/# /' "$out/err"
fi
echo "1..$n"
