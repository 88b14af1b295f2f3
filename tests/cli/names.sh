#!/bin/sh
# How several models are named and picked (doc/usage.md, "Several models"). The names: the
# base name when the base names differ; else the shortest end of the path no other path
# ends with (run1/m.safetensors, x/run/m.safetensors, ./run1/m.safetensors beside
# run1/m.safetensors); the same path twice with its place (#1, #3); one name in the
# report's table, the figure's legend, caption and CSV (each model's rows those of its own
# figure), and --export's header; on the samples at full length, the sample LSTM beside a
# copy of a checkpoint under the same file name. --model I: --dump of the I-th model (one
# whose vocabulary is in another order too: the text in its tokens) is that model's own dump; --export --model I
# shows its screen; past the models, below 1, with another mode, beside --session and a
# dump of several without it: refused, exit 2. The JSON of several models: its "names".
src="${top_srcdir:-.}"
bld="${top_builddir:-.}"
bin=$(cd "$bld" && pwd)/gatetui
rep=$(cd "$src/tests/fixtures/report" && pwd)
fix=$(cd "$src/tests/fixtures/models" && pwd)
S=$(cd "$src/samples" && pwd)
. "$src/tests/lib/tap.sh"
need "$bin"
out=$(mktemp -d) || exit 1
trap 'rm -rf "$out"' EXIT
cd "$out" || exit 1
text="$rep/text.txt" A="$rep/lstm1.safetensors" G="$rep/gru1.safetensors"
P="$fix/lstm1_perm.safetensors"
mkdir -p run1 run2 x/run y/run
cp "$A" run1/m.safetensors
cp "$G" run2/m.safetensors
cp "$A" x/run/m.safetensors
cp "$G" y/run/m.safetensors
fast="--windows 2 --window-len 40 --horizon 8"

# heads MODELS...: the report table's "model" row, its names one a line
heads() {
    # shellcheck disable=SC2086
    "$bin" --report $fast "$@" "$text" 2>"$out/err" | sed -n 's/^model  *//p' |
        sed 's/   */\n/g'
}
# names DESCRIPTION WANT MODELS...: the table's heads are WANT (names separated by |)
names() {
    what=$1 want=$2
    shift 2
    got=$(heads "$@" | paste -sd '|')
    [ "$got" = "$want" ]
    check $? "$what: the report's table names them $want (got $got)"
}
names "different base names" "lstm1.safetensors|gru1.safetensors" "$A" "$G"
names "one base name in two folders" "run1/m.safetensors|run2/m.safetensors" \
    run1/m.safetensors run2/m.safetensors
names "a whole path against its end" "run1/m.safetensors|./run1/m.safetensors" \
    run1/m.safetensors ./run1/m.safetensors
names "two folders deep" "x/run/m.safetensors|y/run/m.safetensors|gru1.safetensors" \
    x/run/m.safetensors y/run/m.safetensors "$G"
names "absolute paths" "run/m.safetensors|run2/m.safetensors" \
    "$out/x/run/m.safetensors" "$out/run2/m.safetensors"
names "the same path twice, and another" "m.safetensors #1|gru1.safetensors|m.safetensors #3" \
    run1/m.safetensors "$G" run1/m.safetensors
names "the same path twice beside one of its base name" \
    "run1/m.safetensors #1|run2/m.safetensors|run1/m.safetensors #3" \
    run1/m.safetensors run2/m.safetensors run1/m.safetensors

# the JSON of several models names them as the tables do, in "names" beside "models"
"$bin" --jacobian --step 5 --lag 1 --json run1/m.safetensors "$G" run1/m.safetensors "$text" \
    2>"$out/err" | tail -1 | grep -qxF '"names": ["m.safetensors #1", "gru1.safetensors", "m.safetensors #3"]}'
check $? "--json of several models: \"names\" as the tables name them (m.safetensors #1, gru1.safetensors, #3)"

# the figure: legend, caption and CSV name each model; each model's rows are its own
# figure's (the model's name aside)
# shellcheck disable=SC2086
"$bin" --figure two.pdf perturbation $fast run1/m.safetensors run2/m.safetensors "$text" \
    >/dev/null 2>"$out/err"
st=$?
bad=
[ $st -eq 0 ] || bad="$bad exit $st;"
[ "$(tail -n +2 two.pdf.csv | cut -d, -f1 | sort -u | paste -sd ' ')" = \
    "run1/m.safetensors run2/m.safetensors" ] || bad="$bad the CSV's models;"
k=0
for m in run1/m.safetensors run2/m.safetensors; do
    k=$((k + 1))
    # shellcheck disable=SC2086
    "$bin" --figure one$k.pdf perturbation $fast "$m" "$text" >/dev/null 2>>"$out/err"
    tail -n +2 one$k.pdf.csv | cut -d, -f2- >want$k
    grep "^$m," two.pdf.csv | cut -d, -f2- >got$k
    [ -s want$k ] && cmp -s want$k got$k || bad="$bad $m's rows;"
done
cmp -s got1 got2 && bad="$bad the two models' rows are the same (an LSTM and a GRU);"
[ -z "$bad" ]
check $? "--figure perturbation of run1/m and run2/m: the CSV's rows name them, each model's rows its own figure's${bad:+ (not:$bad)}"
if command -v pdftotext >/dev/null; then
    pdftotext two.pdf two.txt
    grep -q "^run1/m.safetensors measured c: t½" two.txt &&
        grep -q "^run2/m.safetensors measured h: t½" two.txt &&
        tr '\n' ' ' <two.txt | grep -q "Models run1/m.safetensors and run2/m.safetensors on text.txt"
    check $? "--figure: the legend and the caption name run1/m.safetensors and run2/m.safetensors"
else
    skip "pdftotext is not installed: the figure's legend unread"
fi

# --export: the header's name; --model I its screen
"$bin" --export - --step 5 run1/m.safetensors run2/m.safetensors "$text" >e1 2>"$out/err" &&
    "$bin" --export - --step 5 --model 2 run1/m.safetensors run2/m.safetensors "$text" >e2 2>>"$out/err"
st=$?
[ $st -eq 0 ] && head -1 e1 | grep -q " run1/m.safetensors \[1/2\]: LSTM" &&
    head -1 e2 | grep -q " run2/m.safetensors \[2/2\]: GRU"
check $? "--export: run1/m.safetensors [1/2] in the header; --model 2: run2/m.safetensors [2/2], the GRU's screen"
"$bin" --export - --step 5 --model 1 run1/m.safetensors run2/m.safetensors "$text" >e0 2>>"$out/err" &&
    cmp -s e0 e1
check $? "--export --model 1: the first model's screen, as without --model"

# --dump --model I: that model's own dump (the second's vocabulary in another order)
for k in 1 2; do
    [ $k = 1 ] && m=$A || m=$P
    "$bin" --dump --to 40 --model $k "$A" "$P" "$text" >d$k 2>"$out/err" &&
        "$bin" --dump --to 40 "$m" "$text" >s$k 2>>"$out/err" && [ -s d$k ] && cmp -s d$k s$k
    check $? "--dump --model $k of two: $(basename "$m")'s own dump"
done
"$bin" --dump --probs --to 40 --model 2 "$A" "$P" "$text" >d3 2>"$out/err" &&
    "$bin" --dump --probs --to 40 "$P" "$text" >s3 2>>"$out/err" && cmp -s d3 s3
check $? "--dump --probs --model 2: the second model's own probabilities"
"$bin" --dump --to 40 --model 2 "$A" "$G" "$text" >d4 2>"$out/err" &&
    "$bin" --dump --to 40 "$G" "$text" >s4 2>>"$out/err" && cmp -s d4 s4 && ! cmp -s d4 d1
check $? "--dump --model 2 of an LSTM and a GRU: the GRU's own dump, not the LSTM's"

# refusals: exit 2, one line (where the command line is wrong, ending by naming --help), no
# output
# said WANT ARGS...: exit 2, one line, WANT (then, for a bad usage, where the usage is),
# nothing on standard output
said() {
    want=$1
    shift
    st=0
    "$bin" "$@" >"$out/o" 2>"$out/e" || st=$?
    line=$(cat "$out/e")
    [ $st -eq 2 ] && [ ! -s "$out/o" ] && [ "$(wc -l <"$out/e")" -eq 1 ] &&
        { [ "$line" = "gatetui: $want" ] || [ "$line" = "gatetui: $want (gatetui --help shows the usage)" ]; }
    check $? "$*: exit $st, one line, \"$want\""
}
said "--model 3: 2 models given (--model 1..2)" --dump --model 3 "$A" "$P" "$text"
said "--model 2: 1 model given (--model 1..1)" --export - --step 3 --model 2 "$A" "$text"
said "--model wants an integer >= 1, not \"0\"" --dump --model 0 "$A" "$P" "$text"
said "--model goes with --dump and --export, not --report" --report --model 1 "$A" "$text"
said "--model goes with --dump and --export, not the screen" --model 1 "$A" "$text"
said "--dump takes one MODEL: --model I picks one of the 2 given (1..2)" --dump "$A" "$P" "$text"
grep -qF '(gatetui --help shows the usage)' "$out/e"
check $? "the dump of several without --model: the line says where the usage is"
said "--session FILE: the models, the text, their options, the edits, the interventions, the layer, the step and the steps searched are the session's (--model given)" \
    --export - --model 1 --session "$out/none.json"

# the samples at full length: the sample LSTM beside a checkpoint copied under its name
if [ -f "$S/kjv-lstm-800.bin" ]; then
    mkdir cp
    cp "$S/kjv-lstm-800.bin" cp/kjv-lstm.bin
    "$bin" --figure d.pdf perturbation "$S/kjv-lstm.bin" cp/kjv-lstm.bin "$S/kjv-valid.txt" \
        >/dev/null 2>"$out/err"
    st=$?
    [ $st -eq 0 ] && [ "$(tail -n +2 d.pdf.csv | cut -d, -f1 | sort | uniq -c | awk '{ print $1, $2 }' | paste -sd ' ')" = \
        "260 cp/kjv-lstm.bin 260 samples/kjv-lstm.bin" ]
    check $? "the samples: the perturbation figure's CSV has 260 rows of samples/kjv-lstm.bin and 260 of cp/kjv-lstm.bin (exit $st)"
    if command -v pdftotext >/dev/null; then
        pdftotext d.pdf d.txt
        tr '\n' ' ' <d.txt | grep -q "Models samples/kjv-lstm.bin and cp/kjv-lstm.bin on kjv-valid.txt (43,235 steps)" &&
            grep -q "^cp/kjv-lstm.bin measured c: t½ 6.2" d.txt &&
            grep -q "^samples/kjv-lstm.bin measured c: t½ 10.4" d.txt
        check $? "the samples: the caption and the legend name samples/kjv-lstm.bin and cp/kjv-lstm.bin"
    else
        skip "pdftotext is not installed: the figure's legend unread"
    fi
    "$bin" --report "$S/kjv-lstm.bin" cp/kjv-lstm.bin "$S/kjv-valid.txt" >r.txt 2>"$out/err" &&
        grep -q "^model  *samples/kjv-lstm.bin  *cp/kjv-lstm.bin$" r.txt
    check $? "the samples: the report's table heads samples/kjv-lstm.bin and cp/kjv-lstm.bin"
else
    bail "the sample checkpoints are missing"
fi
echo "1..$n"
