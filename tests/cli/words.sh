#!/bin/sh
# Word models (doc/usage.md, "Word models") on the fixtures of tests/fixtures/words (made by
# tests/ref/make_words_fixtures.py): the dump, token by token, against the float64 recurrence
# checked against nn.LSTM / nn.GRU (every value within 2e-6 * max(1, |ref|), the
# probabilities within 1e-5 * max(1e-6, p)); the same model as the example saves it whole
# (vocab.txt beside it), in a checkpoint with its Dictionary, as a state_dict with vocab.txt
# in its folder, and with --vocab FILE (one token per line); --units, --select, --profile and
# --probe against units_ref.py and make_probe_fixtures.py (FIND; tests/lib/findcmp,
# tests/lib/probecmp); an unknown word read as <unk>, and refused naming it and its line when the
# vocabulary has no <unk>; a sub-word vocabulary, --tokens chars on words, and a word model
# beside a character model refused; the plain tables say tokens. (The report, the Jacobian,
# the dynamics and the effect of the word models are in those modes' own fixtures.)
fix="$top_srcdir/tests/fixtures/words"
bin="$top_builddir/gatetui"
dcmp="$top_builddir/tests/lib/dumpcmp"
fcmp="$top_builddir/tests/lib/findcmp"
pcmp="$top_builddir/tests/lib/probecmp"
. "$top_srcdir/tests/lib/tap.sh"
need "$bin" "$dcmp" "$fcmp" "$pcmp"
out=$(mktemp -d) || exit 1
trap 'rm -rf "$out"' EXIT

# dump_as WHAT REF MODEL [OPTION...]: the dump of short.txt against REF.csv
dump_as() {
    what=$1 ref=$2 model=$3
    shift 3
    if "$bin" --dump "$@" "$model" "$fix/short.txt" >"$out/d.csv" 2>"$out/err" &&
        "$dcmp" "$fix/$ref.csv" "$out/d.csv" 2e-6 >"$out/diff" 2>&1; then
        ok "$what: every value within 2e-6 * max(1, |ref|) of the float64 recurrence"
    else
        notok "$what: the dump differs"
        sed 's/^/# /' "$out/err" "$out/diff" | head -10
    fi
}
for m in w_lstm w_gru; do
    dump_as "$m.safetensors, $m.vocab.txt beside it" "$m" "$fix/$m.safetensors"
    if "$bin" --dump --probs "$fix/$m.safetensors" "$fix/short.txt" >"$out/p.csv" 2>"$out/err" &&
        "$dcmp" "$fix/$m.probs.csv" "$out/p.csv" 1e-5 1e-6 >"$out/diff" 2>&1; then
        ok "$m: next-token probabilities within 1e-5 * max(1e-6, p)"
    else
        notok "$m: the probabilities differ"
        sed 's/^/# /' "$out/err" "$out/diff" | head -10
    fi
done
head -1 "$out/d.csv" | grep -q '^step,token,layer,unit,r,z,n,h$' &&
    grep -q '^[0-9]*,<eos>,0,0,' "$out/d.csv" && grep -q '^[0-9]*,",",0,0,' "$out/d.csv"
check $? "the dump's second column is the token, <eos> as itself, a comma quoted"

dump_as "the whole module, torch.save(model), module.vocab.txt beside it" w_lstm "$fix/module.pt"
grep -q "module.pt: the vocabulary of .*module.vocab.txt, beside the model" "$out/err"
check $? "the vocabulary beside the model said on standard error"
"$bin" --dump --layer 7 "$fix/module.pt" "$fix/text.txt" >/dev/null 2>"$out/err"
st=$?
[ $st -eq 2 ] && [ "$(wc -l <"$out/err")" -eq 1 ] && grep -q -- '--layer 7' "$out/err"
check $? "an error after the vocabulary beside the model was found: one line, the error alone (exit $st: $(cat "$out/err"))"
dump_as "a checkpoint with the example's Dictionary (idx2word, word2idx)" w_lstm \
    "$fix/dictionary.pt"
dump_as "a state_dict with vocab.txt in its folder" w_lstm "$fix/sd/model.pt"
mkdir "$out/alone" && cp "$fix/sd/model.pt" "$out/alone/model.pt"
dump_as "a state_dict and --vocab FILE, one token per line" w_lstm "$out/alone/model.pt" \
    --vocab "$fix/w_lstm.vocab.txt"
refused "a state_dict with no vocabulary anywhere" "$bin" --dump "$out/alone/model.pt" \
    "$fix/short.txt"

# the finding modes and the probe: the expressions match the tokens joined by single spaces
tab="$(printf '\t')"
while IFS="$tab" read -r name mode model arg opts; do
    case "$name" in ''|'#'*) continue ;; esac
    case $mode in
    units) set -- --units "$arg" ;;
    select) set -- --select "$arg" ;;
    profile) set -- --profile --unit "$arg" ;;
    probe) set -- --probe "$arg" ;;
    esac
    shown=$(printf '%s' "$arg" | sed 's/\\/\\\\/g') # a backslash doubled for echo
    # shellcheck disable=SC2086
    if "$bin" "$@" $opts --json "$fix/$model.safetensors" "$fix/text.txt" >"$out/$name.json" \
        2>"$out/err"; then
        if [ "$mode" = probe ]; then
            "$pcmp" "$fix/$name.json" "$out/$name.json" >"$out/diff" 2>&1
        else
            "$fcmp" "$mode" "$fix/$name.json" "$out/$name.json" >"$out/diff" 2>&1
        fi
        check $? "$name: --$mode '$shown' $opts on $model matches the float64 reference"
    else
        notok "$name: --$mode '$shown' failed"
    fi
    [ -s "$out/diff" ] && sed 's/^/# /' "$out/err" "$out/diff" | head -10
done <"$fix/FIND"

# the plain profile's table by token: its heads over its columns (each row's mean ends where
# "mean" does, its count where "count" does), a character model's too
for m in "$fix/w_lstm.safetensors" "$top_srcdir/tests/fixtures/report/lstm1.safetensors"; do
    "$bin" --profile --unit 1 "$m" "$fix/text.txt" 2>/dev/null | sed -n '/^mean by input/,$p' |
        tail -n +2 >"$out/bytok"
    /usr/bin/python3 -c '
import sys
rows = open(sys.argv[1]).read().split("\n")
head, body = rows[0], [r for r in rows[1:] if r]
ends = [head.index(w) + len(w) for w in ("mean", "count")]
ok = body and all(len(r) == ends[1] and r[ends[0] - 1] != " " and r[ends[0]] == " " for r in body)
sys.exit(0 if ok else 1)' "$out/bytok"
    check $? "--profile's table by $(basename "$m"): each row's mean and count under their heads"
done

# unknown words: <unk>, or refused naming the first and its line
"$bin" --dump "$fix/w_lstm.safetensors" "$fix/unknown.txt" >"$out/u.csv" 2>"$out/err"
st=$?
"$bin" --report "$fix/w_lstm.safetensors" "$fix/unknown.txt" >/dev/null 2>"$out/err"
[ $st -eq 0 ] && [ "$(awk -F, '$3 == 0 && $4 == 0 && $2 == "<unk>"' "$out/u.csv" | wc -l)" -eq 4 ] &&
    grep -q "unknown.txt: 4 words not in the vocabulary read as <unk>: 'king' x1, 'Persia' x1, 'Xerxes' x1, 'Vashti' x1" "$out/err"
check $? "unknown words read as <unk> (4 steps), and named on standard error"
"$bin" --dump --vocab "$fix/nounk.txt" "$fix/w_lstm.safetensors" "$fix/unknown.txt" \
    >/dev/null 2>"$out/err"
st=$?
[ $st -eq 2 ] && [ "$(wc -l <"$out/err")" -eq 1 ] &&
    grep -q 'unknown.txt: line 1: "king" is not in the vocabulary, which has no <unk> to read it as' "$out/err"
check $? "without <unk>, the first unknown word refused with its line (exit $st)"

# refused: sub-word pieces, words stepped as characters, words beside characters
refused "a sentencepiece vocabulary (pieces marked with U+2581)" "$bin" --dump "$fix/bpe.pt" \
    "$fix/short.txt"
"$bin" --dump "$fix/bpe.pt" "$fix/short.txt" 2>&1 >/dev/null | grep -q "a sub-word model: 80 of the 82 tokens are pieces of words"
check $? "the sub-word model's message counts the pieces"
refused "--tokens chars on a word model" "$bin" --dump --tokens chars \
    "$fix/w_lstm.safetensors" "$fix/short.txt"
# --tokens words on a character model: its message says the tokens are characters
"$bin" --dump --tokens words "$top_srcdir/tests/fixtures/report/lstm1.safetensors" "$fix/short.txt" \
    >/dev/null 2>"$out/err"
[ $? -eq 2 ] && grep -q "which has no <unk> to read it as (its tokens are characters: read the text by characters, without --tokens words)$" "$out/err"
check $? "--tokens words on a character model: refused, saying its tokens are characters ($(head -c 150 "$out/err"))"
"$bin" --dump --tokens bytes "$fix/w_lstm.safetensors" "$fix/short.txt" >"$out/o" 2>"$out/err"
st=$?
[ $st -eq 2 ] && [ ! -s "$out/o" ] &&
    [ "$(wc -l <"$out/err")" -eq 1 ] &&
    grep -q "^gatetui: --tokens wants 'chars' or 'words', not \"bytes\" (gatetui --help shows the usage)$" "$out/err"
check $? "--tokens with neither chars nor words: bad usage (exit $st)"
refused "a word model beside a character model" "$bin" --report "$fix/dictionary.pt" \
    "$top_srcdir/tests/fixtures/report/lstm1.safetensors" "$fix/short.txt"
"$bin" --units '<eos>' "$fix/dictionary.pt" "$fix/text.txt" >"$out/o" 2>"$out/err"
st=$?
[ $st -eq 2 ] && grep -q '^gatetui: "<eos>" matches no token of the 2,227 steps searched (the tokens joined by spaces, <eos> as \\n)$' "$out/err"
check $? "a hypothesis that matches no token: says token, and how the tokens are joined (exit $st)"

# the plain tables say tokens; two word models of one vocabulary side by side
if "$bin" --report --windows 4 --window-len 64 "$fix/dictionary.pt" "$fix/text.txt" \
    >"$out/one" 2>"$out/err"; then
    grep -q "^Mean forget gate by input token" "$out/one" && grep -q "^punctuation " "$out/one" &&
        grep -q "^<eos> " "$out/one" &&
        grep -q "4 windows of 64 tokens from zero state" "$out/one" &&
        grep -q "bits per token" "$out/one" &&
        grep -q "^the text's 65 most frequent tokens$" "$out/one"
    check $? "the plain report: by token (punctuation, <eos>), bits per token"
else
    notok "the plain report failed"
    sed 's/^/# /' "$out/err" | head -5
fi
"$bin" --report --windows 4 --window-len 64 "$fix/w_lstm.safetensors" "$fix/dictionary.pt" \
    "$fix/text.txt" >"$out/two" 2>"$out/err" &&
    grep -q "4 windows of 64 tokens from zero state, 2 models" "$out/two" &&
    awk '/^loss \(nats\/token\) / { found = 1; same = $3 == $4 && $3 > 0 } END { exit !(found && same) }' "$out/two"
check $? "two word models of one vocabulary compared: the same loss per token"
echo "1..$n"
