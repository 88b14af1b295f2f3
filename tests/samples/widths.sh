#!/bin/sh
# The text outputs keep within 80 columns (doc/usage.md, "Output"): every mode's plain text on
# the shipped LSTM, GRU and plain RNN with kjv-valid.txt and on the word model with its text,
# named as they are in samples/ (a longer path makes the heading that names it longer).
# Columns are characters (the outputs have no wide ones), counted by python3. The report's
# loss line, its pairs, its windows' heading and its units' heading, --importance's and
# --effect's headings, --spectrum's, --select's, the sweep's table and a fixed point's state
# were 85-147 columns before, and --help's lines up to 99.
sam=$(cd "$top_srcdir/samples" && pwd)
bin=$(cd "$top_builddir" && pwd)/gatetui
. "$top_srcdir/tests/lib/tap.sh"
need "$bin"
py=/usr/bin/python3
[ -x "$py" ] || bail "$py is missing (build.sh installs python3)"
out=$(mktemp -d) || exit 1
trap 'rm -rf "$out"' EXIT
# fits MODEL TEXT WHAT OPTION...: gatetui OPTION... MODEL TEXT, run in samples/, exits 0 and
# writes lines, none wider than 80 columns
fits() {
    model=$1 text=$2 what=$3
    shift 3
    if ! (cd "$sam" && "$bin" "$@" "$model" "$text" >"$out/o" 2>"$out/e"); then
        notok "$model $what: exit status not 0"
        head -2 "$out/e" | sed 's/^/# /'
    elif [ ! -s "$out/o" ]; then
        notok "$model $what: printed nothing"
    elif "$py" -c '
import sys
wide = [(len(l), l) for l in open(sys.argv[1], encoding="utf-8").read().split("\n") if len(l) > 80]
for w, l in wide[:3]:
    print("# %d: %s" % (w, l[:120]))
sys.exit(1 if wide else 0)' "$out/o" >"$out/wide"; then
        ok "$model $what: $(wc -l <"$out/o" | tr -d ' ') lines within 80 columns"
    else
        notok "$model $what: lines wider than 80 columns"
        cat "$out/wide"
    fi
}
# every_mode MODEL TEXT REGEX HELD EDIT SPAN: each mode on MODEL and TEXT (REGEX for the
# hypotheses, HELD the held token, EDIT the carriers' edit, SPAN --select's)
every_mode() {
    m=$1 t=$2 re=$3 held=$4 edit=$5 span=$6
    fits $m $t --report --report
    fits $m $t --units --units "$re"
    fits $m $t --select --select "$span"
    fits $m $t --profile --profile --unit 3
    fits $m $t --probe --probe "$re" --steps 5000
    fits $m $t --components --components 3 --steps 5000
    fits $m $t --jacobian --jacobian --step 300
    fits $m $t --lyapunov --lyapunov --steps 1000
    fits $m $t --spectrum --spectrum --step 300
    fits $m $t --fixed-points --fixed-points "$held" --starts 4
    fits $m $t --importance --importance --windows 4
    fits $m $t --effect --effect "$re" --ablate 0:1,2,3 --controls 5 --windows 8
    fits $m $t --carriers --carriers --edit "$edit"
    [ $m = kjv-rnn.bin ] || # no carry gate whose bias to shift
        fits $m $t --sweep-forget-bias --report --sweep-forget-bias 0:1:1 --windows 4
}
for m in kjv-lstm.bin kjv-gru.bin kjv-rnn.bin; do
    every_mode $m kjv-valid.txt '[A-Z]' ' ' 1200:x 43100:43200
done
every_mode kjv-words.pt kjv-words-valid.txt LORD the 120:the 9600:9657
# the edits made before the one --carriers measures, on its second line: as many as fit
fits kjv-lstm.bin kjv-valid.txt "--carriers after 5 edits" --carriers --edit 1200:x --edit 1300:y \
    --edit 1400:z --edit 1500:q --edit 1600:w --edit 1700:v
# --help: every line but the synopsis's (one usage a line, as long as it is)
"$bin" --help >"$out/help" 2>&1
wide=$(grep -v -e '^usage: ' -e '^       gatetui ' -e '^  any mode: ' "$out/help" |
    "$py" -c 'import sys; print(sum(len(l.rstrip("\n")) > 80 for l in sys.stdin))')
[ -s "$out/help" ] && [ "$wide" = 0 ]
check $? "--help's lines within 80 columns but the synopsis ($wide wider)"
echo "1..$n"
