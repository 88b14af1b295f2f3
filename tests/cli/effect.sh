#!/bin/sh
# --effect and --carriers against the float64 reference (tests/fixtures/effect/MANIFEST, made
# by tests/ref/effect_ref.py from the definitions of doc/measures.md): the report fixtures'
# LSTMs, GRUs (the reset before and after) and plain RNNs, one and two layers, each layer,
# an ablation with its controls (several seeds and counts), a forget bias, the carousel and
# both at once (no controls), one window (no interval), a class with no position, an edit
# that changes nothing, the last step; each once per kernel set this processor runs. Then
# the shipped samples at full length (every window of kjv-valid.txt: the LSTM's space and
# line-start units with 20 controls, the GRU's; the carriers of the edit at step 1,200 on the
# LSTM, the GRU and the plain RNN). Every number within 1e-5 * max(1, |ref|) (tests/lib/reportcmp
# 1e-5), the counts, the control sets' units, the ranks and the units' order exactly; an
# accuracy beside a reference "condition" may move by the positions whose decision lies
# within the float32 products' error. Then the numbers on 1 and 3 threads, two models, the
# text tables, and bad input: one line, exit 2.
fix="$top_srcdir/tests/fixtures/effect"
rep="$top_srcdir/tests/fixtures/report"
sam="$top_srcdir/samples"
bin="$top_builddir/gatetui"
cmp="$top_builddir/tests/lib/reportcmp"
. "$top_srcdir/tests/lib/tap.sh"
need "$bin" "$cmp"
out=$(mktemp -d) || exit 1
trap 'rm -rf "$out"' EXIT

# against LINE [KERNEL]: runs the MANIFEST line's gatetui and compares its JSON with the
# fixture; the kernel set named (or the default one)
against() {
    line=$1 kset=${2:-}
    eval "set -- $line"
    name=$1 mode=$2 where=$3
    shift 4
    dir=$rep
    [ "$where" = sample ] && dir=$sam
    model=$dir/$1 text=$dir/$2
    shift 2
    [ "$mode" = carriers ] && set -- --carriers "$@"
    # a TAP line is one line: a newline as ^, a backslash doubled for echo
    said=$(printf '%s' "$*" | tr '\n' '^' | sed 's/\\/\\\\/g')
    if GATETUI_KERNEL=$kset "$bin" --json "$@" "$model" "$text" >"$out/$name.json" 2>"$out/err" &&
        "$cmp" "$fix/$name.json" "$out/$name.json" 1e-5 >"$out/diff" 2>&1; then
        ok "${kset:-default}: $name: $said matches the float64 reference ($(tail -1 "$out/diff"))"
    else
        notok "${kset:-default}: $name: $said differs from the reference"
        sed 's/^/# /' "$out/err" "$out/diff" | head -12
    fi
}

grep -v '^#' "$fix/MANIFEST" | grep ' fixture ' >"$out/fixtures"
grep -v '^#' "$fix/MANIFEST" | grep ' sample ' >"$out/samples"
for k in $("$bin" --kernels); do
    while read -r line; do
        against "$line" "$k"
    done <"$out/fixtures"
done
while read -r line; do
    against "$line"
done <"$out/samples"

# the same numbers on 1 and on 3 threads
for t in 1 3; do
    for name in lstm1_two gru1_nl lstm2_c1; do
        line=$(grep "^$name " "$out/fixtures")
        eval "set -- $line"
        mode=$2 model=$rep/$5 text=$rep/$6
        shift 6
        [ "$mode" = carriers ] && set -- --carriers "$@"
        GATETUI_THREADS=$t "$bin" --json "$@" "$model" "$text" >"$out/t.json" 2>"$out/err" &&
            "$cmp" "$fix/$name.json" "$out/t.json" 1e-5 >"$out/diff"
        check $? "$name on $t thread(s): the reference's numbers ($(tail -1 "$out/diff"))"
    done
done

# two models: {"models": [...]}, each entry the model's own JSON
two() { # DESCRIPTION OPTIONS...
    what=$1
    shift
    {
        printf '{"models": [\n'
        "$bin" --json "$@" "$rep/lstm1.safetensors" "$rep/text.txt" 2>/dev/null | sed '$d'
        "$bin" --json "$@" "$rep/lstm1.safetensors" "$rep/text.txt" 2>/dev/null | tail -1 | tr -d '\n'
        printf ',\n'
        "$bin" --json "$@" "$rep/gru1.safetensors" "$rep/text.txt" 2>/dev/null | sed '$d'
        "$bin" --json "$@" "$rep/gru1.safetensors" "$rep/text.txt" 2>/dev/null | tail -1 | tr -d '\n'
        printf '\n],\n"names": ["lstm1.safetensors", "gru1.safetensors"]}\n'
    } >"$out/want.json"
    "$bin" --json "$@" "$rep/lstm1.safetensors" "$rep/gru1.safetensors" "$rep/text.txt" \
        >"$out/got.json" 2>"$out/err" && cmp -s "$out/want.json" "$out/got.json"
    check $? "$what of two models: {\"models\": [...], \"names\"}, each entry the model's own JSON, then their names"
}
two "--effect" --effect ' ' --ablate 0:3 --windows 5 --window-len 50 --controls 4
two "--carriers" --carriers --edit 200:e --horizon 10

# the text: the table with its controls, the rank and p; the carriers' top 20
"$bin" --effect ' ' --effect 'e[a-z]*' --ablate 0:2,5-7 --windows 12 --window-len 40 \
    --controls 9 --seed 7 "$rep/lstm1.safetensors" "$rep/text.txt" >"$out/e.txt" 2>"$out/err"
rank=$(sed -n 's/.*"rank": \([0-9]*\),*$/\1/p' "$fix/lstm1_two.json" | head -1)
grep -q '^Effect of ablated 0:2,5-7$' "$out/e.txt" &&
    grep -q '^over 12 windows of 40 characters' "$out/e.txt" &&
    grep -q '^controls: 9 sets of 4 units drawn from layer 0.s 20 others (seed 7)$' "$out/e.txt" &&
    grep -q '^the tested set: 2,5,6,7$' "$out/e.txt" &&
    [ "$(grep -c '^  controls: rank [0-9]* of 9 (specificity at least the tested set.s), p = ' "$out/e.txt")" -eq 2 ] &&
    grep -q "^  controls: rank $rank of 9" "$out/e.txt" &&
    [ "$(grep -Ec '^ +[-+][0-9.]+ +[-+][0-9.]+ +[-+][0-9.]+  [0-9]+,[0-9]+,[0-9]+,[0-9]+$' "$out/e.txt")" -eq 18 ] &&
    grep -q '^  inside  ' "$out/e.txt" && grep -q '^  specificity (inside - outside) ' "$out/e.txt"
check $? "--effect's text: the interventions, the windows, the controls, two tables with 9 sets each, the rank $rank"
"$bin" --effect ' ' --ablate 0:3 --windows 5 --window-len 50 --controls 1 "$rep/lstm1.safetensors" \
    "$rep/text.txt" >"$out/e1.txt" 2>"$out/err" &&
    grep -q "^controls: 1 set of 1 unit drawn from layer 0's 23 others (seed 1)\$" "$out/e1.txt" &&
    grep -q "^the tested set: 3\$" "$out/e1.txt"
check $? "--effect's text with one control set of one unit: 1 set of 1 unit"
# control sets drawn afresh may repeat: the text says how many repeat one drawn before, as
# the JSON's sets count them, and lists each set's every unit (a set of 12 units, half the
# layer: every one the same set, said)
for a in "0:3 20" "0:3,5 30" "0:0-11 3"; do
    set -- $a
    "$bin" --effect ' ' --ablate "$1" --windows 5 --window-len 50 --controls "$2" \
        "$rep/lstm1.safetensors" "$rep/text.txt" >"$out/r.txt" 2>"$out/err" &&
        "$bin" --json --effect ' ' --ablate "$1" --windows 5 --window-len 50 --controls "$2" \
            "$rep/lstm1.safetensors" "$rep/text.txt" >"$out/r.json" 2>>"$out/err"
    said=$(sed -n 's/^(\([0-9]*\) of them repeats* a set drawn before: each set is drawn afresh)$/\1/p' "$out/r.txt")
    grep -qx '(every one the same: the others are as many as the tested set)' "$out/r.txt" && said=all
    sets=$(/usr/bin/python3 -c '
import json, sys
c = [tuple(x["units"]) for x in json.load(open(sys.argv[1]))["effects"][0]["controls"]]
r = sum(1 for k in range(len(c)) if c[k] in c[:k])
print("all" if len(c) > 1 and len(set(c)) == 1 and len(c[0]) == 12 else r)' "$out/r.json")
    rows=$(grep -Ec "^ +[-+][0-9.]+ +[-+][0-9.]+ +[-+][0-9.]+  [0-9]+(,[0-9]+)*,?\$" "$out/r.txt")
    [ "${said:-0}" = "$sets" ] && [ "$rows" -ge "$2" ]
    check $? "--ablate $1, $2 controls: the sets that repeat one drawn before said ($said, the JSON's $sets), $rows rows"
done
"$bin" --carriers --edit 1200:x "$sam/kjv-lstm.bin" "$sam/kjv-valid.txt" >"$out/c.txt" 2>"$out/err"
first=$(sed -n '/"unit"/{s/[^0-9]//g;p;q}' "$fix/kjv_lstm_carriers.json")
grep -q "^Carriers of the edit at step 1,200 (' ' -> 'x'): layer 0's 256 units, K = 64\$" "$out/c.txt" &&
    [ "$(grep -c '^ *[0-9]* *[0-9]* *[0-9.]* *[0-9.]*% ' "$out/c.txt")" -eq 20 ] &&
    grep -Eq "^   1 +$first " "$out/c.txt"
check $? "--carriers' text: the edit, K, the top 20 units, unit $first first"
# within 80 columns (its three header lines were 91, 83 and 92 wide), near the text's end too
"$bin" --carriers --edit 43100:x "$sam/kjv-lstm.bin" "$sam/kjv-valid.txt" >>"$out/c.txt" 2>"$out/err"
wide=$(awk 'length($0) > 80' "$out/c.txt" | wc -l)
[ -s "$out/c.txt" ] && [ "$wide" -eq 0 ]
check $? "--carriers' text within 80 columns (the sample LSTM at steps 1,200 and 43,100; $wide wider)"
# the characters of the edit named as the perturbation panel names them ('\n', never '?',
# which is a character of the vocabulary too), the JSON's the characters themselves: the
# sample GRU, step 100 an 'r', the text's last step (43,234) a newline
nl='
'
g="$sam/kjv-gru.bin"
"$bin" --carriers --edit "100:$nl" "$g" "$sam/kjv-valid.txt" >"$out/cn.txt" 2>"$out/err" &&
    "$bin" --carriers --edit 43234:x "$g" "$sam/kjv-valid.txt" >>"$out/cn.txt" 2>"$out/err" &&
    "$bin" --carriers --json --edit "100:$nl" "$g" "$sam/kjv-valid.txt" >"$out/cn.json" 2>"$out/err" &&
    "$bin" --carriers --json --edit 43234:x "$g" "$sam/kjv-valid.txt" >>"$out/cn.json" 2>"$out/err" &&
    grep -qF "Carriers of the edit at step 100 ('r' -> '\n'): layer 0's 300 units" "$out/cn.txt" &&
    grep -qF "Carriers of the edit at step 43,234 ('\n' -> 'x'): layer 0's 300 units, K = 0" "$out/cn.txt" &&
    [ "$(grep -cF '"from": "r"' "$out/cn.json")" -eq 1 ] && [ "$(grep -cF '"to": "\n"' "$out/cn.json")" -eq 1 ] &&
    [ "$(grep -cF '"from": "\n"' "$out/cn.json")" -eq 1 ] && [ "$(grep -cF '"to": "x"' "$out/cn.json")" -eq 1 ] &&
    ! grep -qF '?' "$out/cn.txt" && ! grep -qF '?' "$out/cn.json"
check $? "--carriers names a newline as the panel does, never '?' (from and to), the JSON's the newline itself (the sample GRU at full length)"
# a word model's tokens: a word quoted, <eos> bare; the JSON's the words
w="$top_srcdir/tests/fixtures/words"
"$bin" --carriers --edit '300:<eos>' --layer 1 --horizon 20 "$w/w_lstm.safetensors" "$w/text.txt" \
    >"$out/cw.txt" 2>"$out/err" &&
    "$bin" --carriers --json --edit '300:<eos>' --layer 1 --horizon 20 "$w/w_lstm.safetensors" \
        "$w/text.txt" >"$out/cw.json" 2>"$out/err" &&
    grep -qF "Carriers of the edit at step 300 ('of' -> <eos>): layer 1's 12 units" "$out/cw.txt" &&
    grep -qF '"from": "of"' "$out/cw.json" && grep -qF '"to": "<eos>"' "$out/cw.json"
check $? "--carriers on a word model names the words ('of' -> <eos>), the JSON \"of\" and \"<eos>\""

# bad input: one line, exit 2
l1=$rep/lstm1.safetensors
t=$out/text.txt # the characters of the model's vocabulary only: nothing skipped to say
sed 's/[^a-z ,.]//g' "$rep/text.txt" >"$t"
refused "--effect without an intervention" "$bin" --effect ' ' "$l1" "$t"
refused "--effect with an intervention that changes nothing" "$bin" --effect ' ' --forget-bias 0 "$l1" "$t"
refused "--effect with a set too large for its controls" "$bin" --effect ' ' --ablate 0:0-12 "$l1" "$t"
refused "--effect with a regular expression that matches nothing" "$bin" --effect 'q' --ablate 0:1 "$l1" "$t"
refused "--effect with a bad regular expression" "$bin" --effect '(' --ablate 0:1 "$l1" "$t"
# an option the mode does not read is refused, not ignored (the screen's --windows took the
# report's 32 windows in silence, --carriers' --windows, --effect's --horizon likewise)
for a in "--windows 3 --carriers --edit 5:a" "--window-len 40 --carriers --edit 5:a" \
    "--horizon 8 --effect e --ablate 0:1" "--controls 3 --report" "--seed 2 --carriers --edit 5:a" \
    "--windows 3 --export - --step 5" "--windows 3" "--horizon 3 --export - --session x.json"; do
    # shellcheck disable=SC2086
    refused "$a: the option the mode does not read" "$bin" $a "$l1" "$t"
    # shellcheck disable=SC2086
    "$bin" $a "$l1" "$t" 2>&1 >/dev/null | grep -q "^gatetui: --[a-z-]* goes with --" ||
        notok "$a: the message does not name the modes that read it"
done
refused "--effect on a model without a readout" "$bin" --effect ' ' --ablate 0:1 \
    "$top_srcdir/tests/fixtures/lstm_f16.safetensors" "$top_srcdir/tests/fixtures/lstm_f16.txt"
refused "--controls -1" "$bin" --effect ' ' --ablate 0:1 --controls -1 "$l1" "$t"
refused "--carriers without --edit" "$bin" --carriers "$l1" "$t"
refused "--carriers with an edit past the text" "$bin" --carriers --edit 3549:e "$l1" "$t"
refused "--carriers with a character not in the vocabulary" "$bin" --carriers --edit 3:q "$l1" "$t"
refused "--carriers with a bad edit" "$bin" --carriers --edit 3e "$l1" "$t"
refused "--carriers on a layer the model lacks" "$bin" --carriers --edit 3:e --layer 1 "$l1" "$t"
tr -d ';' <"$top_srcdir/tests/fixtures/proj/proj_emb2.txt" >"$out/proj.txt" # all in its vocabulary
refused "--carriers on an LSTM with projections" "$bin" --carriers --edit 3:a \
    "$top_srcdir/tests/fixtures/proj/proj_emb2.safetensors" "$out/proj.txt"
# the horizon cut by the text's end is said (K = 34 after step 43,200; K = 0 at the last step),
# a horizon within the text is not
"$bin" --carriers --edit 43200:x --horizon 64 "$sam/kjv-lstm.bin" "$sam/kjv-valid.txt" >/dev/null 2>"$out/k34"
"$bin" --carriers --edit 43234:x "$sam/kjv-lstm.bin" "$sam/kjv-valid.txt" >/dev/null 2>"$out/k0"
"$bin" --carriers --edit 43100:x "$sam/kjv-lstm.bin" "$sam/kjv-valid.txt" >/dev/null 2>"$out/k64"
[ "$(cat "$out/k34")" = "gatetui: K is 34: the text ends 34 steps after the edit at step 43,200 (--horizon 64)" ] &&
    [ "$(cat "$out/k0")" = "gatetui: K is 0: the text ends at the edit (step 43,234; the horizon 64 by default)" ] &&
    [ ! -s "$out/k64" ]
check $? "--carriers near the text's end: the horizon cut said ($(cat "$out/k34"))"
echo "1..$n"
