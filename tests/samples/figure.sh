#!/bin/sh
# --figure FILE KIND and F on the screen (doc/figures.md). Each kind in each format on the
# shipped samples over the whole text where the kind reads it: the SVG parses as XML with
# its strokes and glyphs, the PDF renders (pdftoppm; else its header and trailer are
# checked, and this says so) and holds its legend's text (pdftotext), the PNG has its
# signature and size and is not blank; every number of FILE.csv equals the JSON the same
# run prints (--report --json, --lyapunov --json) or the dump's value; the same CSV whatever
# the format. Never over a file: FILE or FILE.csv there already refuses the run (exit 2,
# one line, nothing written); bad kinds, endings and options are refused. A golden SVG of a
# small fixture (tests/fixtures/figure/perturbation.svg): its structure (the axes, one path
# per curve, the legend's entries) and the run's the same, its CSV within 1e-6 of the
# float64 reference of tests/ref/report_ref.py. The perturbation figure of edits given on
# the command line (--edit, twice): the last edit's curves those tests/lib/perthl computes and
# its half-life --export's panel prints; edits refused by the other kinds and by --report
# (never ignored). The word sample: the unit figure's tokens (a token column, the words
# beneath 24 steps or fewer), the checkpoints in bits per token, the exponents per token.
# The screen (tmux): F after an edit writes
# the perturbation figure named like the exported frame, its curves those tests/lib/perthl
# computes from the engine, again to a new name; F on the unit table and on two models'
# report. `tests/samples/figure.sh --regen` writes the golden SVG again.
src="${top_srcdir:-.}"
bld="${top_builddir:-.}"
. "$src/tests/lib/e2e_lib.sh"
bin=$(cd "$bld" && pwd)/gatetui
perthl=$(cd "$bld" && pwd)/tests/lib/perthl
need "$bin" "$perthl"
chk="python3 $(cd "$src" && pwd)/tests/lib/figcheck.py"
S=$(cd "$src/samples" && pwd)
F=$(cd "$src/tests/fixtures/report" && pwd)
golden=$(cd "$src/tests/fixtures" && pwd)/figure/perturbation.svg
L=$S/kjv-lstm.bin G=$S/kjv-gru.bin R=$S/kjv-rnn.bin T=$S/kjv-valid.txt
work=$(mktemp -d) || exit 1
sock=figure$$
trap 'tmux -L "$sock" kill-server 2>/dev/null; rm -rf "$work"' EXIT INT TERM
cd "$work" || exit 1

# fig DESCRIPTION FILE ARGS...: gatetui --figure FILE ARGS... exits 0 saying where it wrote,
# and the two files are there
fig() {
    what=$1 file=$2
    shift 2
    "$bin" --figure "$file" "$@" >"$work/out" 2>"$work/err"
    st=$?
    [ $st -eq 0 ] && [ -s "$file" ] && [ -s "$file.csv" ] &&
        grep -q "^$file: the .* figure of [0-9]* models*; its numbers in $file.csv$" "$work/out"
    check $? "$what: exit $st, $file and $file.csv written ($(cat "$work/out" "$work/err" | head -2 | tr '\n' ' '))"
}
# said DESCRIPTION COMMAND...: figcheck's check holds, its line as the description
said() {
    what=$1
    shift
    if line=$("$@" 2>&1); then ok "$what: $line"; else notok "$what: $line"; fi
}
# looks FILE W H: the format's own checks (W x H points; a PNG has 2 pixels a point)
looks() {
    case $1 in
    *.svg) said "$1 is an SVG" $chk svg "$1" "$2" "$3" ;;
    *.png) said "$1 is a PNG" $chk png "$1" $(($2 * 2)) $(($3 * 2)) ;;
    *.pdf)
        if command -v pdftoppm >/dev/null; then
            rm -f "$work/page.png"
            pdftoppm -png -r 72 -singlefile "$1" "$work/page" 2>"$work/err"
            said "$1 renders (pdftoppm)" $chk png "$work/page.png" "$2" "$3"
        else
            said "$1 is a PDF (pdftoppm is not installed: its header and trailer checked)" \
                $chk pdf "$1"
        fi ;;
    esac
}
# pdf_says FILE TEXT...: pdftotext finds each TEXT in the PDF (its legend, its caption)
pdf_says() {
    f=$1
    shift
    if ! command -v pdftotext >/dev/null; then
        ok "$f's text: pdftotext is not installed (its header and trailer were checked)"
        return
    fi
    pdftotext "$f" "$work/pdf.txt"
    miss=
    for t in "$@"; do grep -qF -- "$t" "$work/pdf.txt" || miss="$miss [$t]"; done
    [ -z "$miss" ]
    check $? "$f's text holds $*${miss:+ (missing:$miss)}"
}

# caption_says FILE WHAT TEXT: pdftotext finds TEXT in the PDF's caption, its lines joined
# (WHAT says it in the test's line: a backslash there would be echo's)
caption_says() {
    if ! command -v pdftotext >/dev/null; then
        ok "$1's caption: pdftotext is not installed"
        return
    fi
    pdftotext "$1" - | tr '\n' ' ' | grep -qF -- "$3"
    check $? "$1's caption: $2"
}

# formats KIND STEM JSON "MODELS" "MODELS2": STEM.svg of MODELS, STEM.pdf and STEM.png of
# MODELS2 (the first of MODELS), each CSV's numbers those of the report JSON
formats() {
    for f in "$2.svg" "$2.pdf" "$2.png"; do
        models=$4
        [ "$f" = "$2.svg" ] || models=$5
        # shellcheck disable=SC2086
        fig "$1 of $(echo $models | wc -w) model(s)" "$f" "$1" $models "$T"
        said "$f.csv's numbers are the report's" $chk "$1" "$f.csv" "$3"
    done
}

# --- the perturbation figure of the three samples, in each format
"$bin" --report --json "$L" "$G" "$R" "$T" >rep3.json 2>/dev/null
check $? "--report --json of the three samples"
formats perturbation p rep3.json "$L $G $R" "$L"
looks p.svg 640 470
said "p.svg: 9 curves of 65 points and 10 legend entries" $chk structure p.svg 9 65 10
looks p.pdf 640 470
looks p.png 640 470
pdf_says p.pdf "kjv-lstm.bin measured c: t½" "kjv-lstm.bin forget-only: t½" \
    "on kjv-valid.txt (43,235 steps), layer 0"
tail -n +2 p.pdf.csv >p.rows
cmp -s p.pdf.csv p.png.csv && grep '^kjv-lstm.bin,' p.svg.csv | cmp -s - p.rows
check $? "the same CSV whatever the format and whichever models are beside"

# --- the half-lives: the sample LSTM and GRU's unit tables
formats halflives h rep3.json "$L $G" "$L"
looks h.svg 640 400
looks h.pdf 640 400
looks h.png 640 400
pdf_says h.pdf "kjv-lstm.bin: 255 units" "past the horizon" "measured = 2 × gate"
if command -v pdftotext >/dev/null; then
    pdftotext h.pdf - | tr '\n' ' ' | grep -qF "intervals"
    [ $? -ne 0 ] && pdftotext p.pdf - | tr '\n' ' ' | grep -qF "95% intervals by the jackknife"
    check $? "the caption names the intervals where they are drawn (the perturbation), not where none are (the half-lives)"
    fig "perturbation, one window (no interval)" p1.pdf perturbation --windows 1 "$L" "$T"
    ! pdftotext p1.pdf - | tr '\n' ' ' | grep -qF "intervals"
    check $? "one window: no interval drawn, none named in the caption"
fi

# --- the perturbation figure of six LSTMs: every model's every curve drawn (each its colour
# and dash), named and in the CSV: 24 (more than the 20 drawn once); a horizon of 16, where
# no two of a curve's points fall on the same point of the page
P6="$S/kjv-lstm-100.bin $S/kjv-lstm-300.bin $S/kjv-lstm-800.bin $S/kjv-lstm-2000.bin"
P6="$P6 $S/kjv-lstm-2650.bin $L"
# shellcheck disable=SC2086
fig "perturbation, six models" p6.svg perturbation --windows 4 --horizon 16 $P6 "$T"
said "p6.svg: 24 curves of 17 points and 25 legend entries" $chk structure p6.svg 24 17 25
[ "$(tail -n +2 p6.svg.csv | cut -d, -f1,2 | sort -u | wc -l)" -eq 24 ] &&
    [ "$(tail -n +2 p6.svg.csv | cut -d, -f1 | sort -u | wc -l)" -eq 6 ]
check $? "p6.svg.csv: the 24 curves of the six models"

# --- the checkpoints of the sample LSTM's training, in the order given
C="$S/kjv-lstm-0.bin $S/kjv-lstm-300.bin $S/kjv-lstm-2000.bin $L"
# shellcheck disable=SC2086
"$bin" --report --json $C "$T" >repc.json 2>/dev/null
check $? "--report --json of four checkpoints"
# shellcheck disable=SC2086
fig "checkpoints, four" c.svg checkpoints $C "$T"
said "c.svg.csv's numbers are the reports'" $chk checkpoints c.svg.csv repc.json
looks c.svg 640 520
"$bin" --report --json --windows 4 "$S/kjv-lstm-100.bin" "$L" "$T" >repc2.json 2>/dev/null
for f in c.pdf c.png; do
    fig "checkpoints, two, 4 windows" $f checkpoints --windows 4 "$S/kjv-lstm-100.bin" "$L" "$T"
    said "$f.csv's numbers are the reports'" $chk checkpoints $f.csv repc2.json
done
looks c.pdf 640 520
looks c.png 640 520
pdf_says c.pdf "kjv-lstm-100.bin" "measured t½ of c" "measured t½ of h" "forget-only t½" \
    "mean forget gate" "the mean carry gate (f) over"
caption_says c.pdf "a run's checkpoints are joined" "of c, an LSTM's, and of h) with their 95% intervals"
# an LSTM beside a GRU: c's half-life the LSTM's alone (not a line from the LSTM's c to the
# GRU's h), the points not joined
"$bin" --report --json "$L" "$G" "$T" >repcm.json 2>/dev/null
fig "checkpoints, an LSTM and a GRU" cm.svg checkpoints "$L" "$G" "$T"
said "cm.svg: every point clear of its panel's frame (the GRU's mean 0.350 stood on it)" \
    $chk clear cm.svg
fig "checkpoints, an LSTM and a GRU" cm.pdf checkpoints "$L" "$G" "$T"
said "cm.pdf.csv's numbers are the reports': c's half-life the LSTM's alone" \
    $chk checkpoints cm.pdf.csv repcm.json
caption_says cm.pdf "unlike models' points not joined" "the points are not joined: the models differ in their cells"
# the gates named as every model's is (f of LSTMs only: c.pdf), here both: the carry gate
pdf_says cm.pdf "mean carry gate" "gate-only t½" "the mean carry gate (f, z)"

# --- the Lyapunov spectrum: the LSTM at the default 5,000 steps; the GRU and the RNN shorter
"$bin" --lyapunov --json "$L" "$T" >ly.json 2>/dev/null
fig "lyapunov, LSTM" l.svg lyapunov "$L" "$T"
said "l.svg.csv's numbers are --lyapunov's" $chk lyapunov l.svg.csv ly.json
looks l.svg 640 400
said "l.svg: one line of 32 exponents" $chk structure l.svg 1 32 2
"$bin" --lyapunov --json --steps 400 --modes 8 "$G" "$R" "$T" >ly2.json 2>/dev/null
for f in l.pdf l.png; do
    fig "lyapunov, GRU and RNN, 400 steps" $f lyapunov --steps 400 --modes 8 "$G" "$R" "$T"
    said "$f.csv's numbers are --lyapunov's" $chk lyapunov $f.csv ly2.json
done
looks l.pdf 640 400
looks l.png 640 400
pdf_says l.pdf "kjv-gru.bin: λ₁ =" "kjv-rnn.bin: λ₁ =" "standard errors by batch means"
caption_says l.pdf "the steps in words, not J_1..J_400" "the Jacobians of steps 1..400, the means over steps 101..400"

# --- a unit along the whole text, and along its last 100 steps with the text beneath
fig "unit 5, the whole text" u.svg unit --unit 5 --from 0 --to 43234 "$L" "$T"
looks u.svg 900 400
said "u.svg: one line of 43,235 points, no legend" $chk structure u.svg 1 43235 0
said "u.svg.csv: a row for each step" $chk steps u.svg.csv 0 43234
"$bin" --dump --layer 0 --from 43035 --to 43234 "$L" "$T" >dump.csv 2>/dev/null
said "u.svg.csv's last 200 values are the dump's" $chk unit u.svg.csv dump.csv 5 h 43035 43234
for f in u.pdf u.png; do
    fig "unit 5, steps 43,135..43,234" $f unit --unit 5 --from 43135 --to 43234 "$L" "$T"
    said "$f.csv: the whole text's values at those steps" $chk rows u.svg.csv $f.csv 43135 43234
done
looks u.pdf 900 400
looks u.png 900 400
pdf_says u.pdf "Unit 5's h at steps 43,135 to 43,234, the text beneath"

# --- a word model (doc/usage.md): the word sample over its held-out words; a step is a
# token: the unit figure's tokens (beneath 24 steps or fewer), bits and exponents per token
W=$S/kjv-words.pt WT=$S/kjv-words-valid.txt
fig "unit 89 of the word sample, steps 0..23" wu.pdf unit --unit 89 --from 0 --to 23 "$W" "$WT"
"$bin" --dump --layer 0 --from 0 --to 23 "$W" "$WT" >wdump.csv 2>/dev/null
said "wu.pdf.csv's values and tokens are the dump's" $chk unit wu.pdf.csv wdump.csv 89 h 0 23
[ "$(head -1 wu.pdf.csv)" = "model,step,token,value" ]
check $? "wu.pdf.csv's column is token ($(head -1 wu.pdf.csv))"
pdf_says wu.pdf "Unit 89's h at steps 0 to 23, the text beneath" "judges"
fig "unit 89 of the word sample, steps 0..24" wu25.pdf unit --unit 89 --from 0 --to 24 "$W" "$WT"
pdf_says wu25.pdf "(the text is written beneath stretches of 24 steps or fewer)"
"$bin" --report --json "$W" "$WT" >repw.json 2>/dev/null
fig "checkpoints, the word sample" wc.pdf checkpoints "$W" "$WT"
said "wc.pdf.csv's numbers are the report's" $chk checkpoints wc.pdf.csv repw.json
pdf_says wc.pdf "loss (bits/token)" "loss in bits per token"
fig "lyapunov, the word sample, 400 steps" wl.pdf lyapunov --steps 400 --modes 8 "$W" "$WT"
pdf_says wl.pdf "exponent λᵢ per token"
fig "perturbation of the word sample, --edit 10:<eos>" wp.pdf perturbation --edit '10:<eos>' "$W" "$WT"
caption_says wp.pdf "a word quoted, <eos> bare" \
    "the edit at step 10 ('judges' to <eos>) against the text before it"

# --- never over a file, and bad input
echo keep >x.svg
refused "FILE there already" "$bin" --figure x.svg perturbation "$L" "$T"
[ "$(cat x.svg)" = keep ] && [ ! -e x.svg.csv ]
check $? "FILE there already: left as it was, no CSV written"
echo keep >y.svg.csv
refused "FILE.csv there already" "$bin" --figure y.svg perturbation "$L" "$T"
[ "$(cat y.svg.csv)" = keep ] && [ ! -e y.svg ]
check $? "FILE.csv there already: left as it was, no figure written"
ln -s nowhere z.svg
refused "FILE a dangling symbolic link" "$bin" --figure z.svg perturbation "$L" "$T"
[ ! -e nowhere ] && [ ! -e z.svg.csv ]
check $? "a dangling link: nothing written through it"
# a text without a full window: no pairs, nothing to draw for the curves and the units
printf '\n' >nl.txt
printf 'And\n' >one.txt
for k in perturbation halflives; do
    for t in nl.txt one.txt; do
        refused "$k on $t (no window full)" "$bin" --figure "e-$k.svg" $k "$L" $t
        [ ! -e "e-$k.svg" ] && [ ! -e "e-$k.svg.csv" ] && printf '%s' "$said" | grep -qF "$t: nothing to draw: no pairs"
        check $? "$k on $t: nothing written, the text named ($said)"
    done
done
"$bin" --figure e-ck.pdf checkpoints "$L" "$L" one.txt >/dev/null 2>&1
check $? "checkpoints on one.txt: the losses and carry gates drawn"
caption_says e-ck.pdf "no half-lives, none claimed" "and no half-lives after an edit: no model's report has a pair (no full window"
# a FILE with nowhere to go, refused before anything is computed (exit 2, not the write's
# exit 1 at the end), its directory named: --figure, --export and --html alike
echo keep >afile
for c in "nodir:No such file or directory" "afile:not a directory"; do
    d=${c%%:*} why=${c#*:}
    for m in "--figure $d/f.svg perturbation" "--export $d/f.txt --step 5" "--html $d/f.html --unit 3"; do
        # shellcheck disable=SC2086
        said=$("$bin" $m "$L" "$T" 2>&1 >/dev/null)
        rc=$?
        [ $rc -eq 2 ] && [ "$said" = "gatetui: $d: cannot create a file: $why" ] && [ ! -e nodir ]
        check $? "${m%% *} into $d/: exit $rc before computing, one line ($said)"
    done
done
said=$("$bin" --html "" --unit 3 "$L" "$T" 2>&1 >/dev/null)
[ $? -eq 2 ] && [ "$said" = "gatetui: an empty file name" ]
check $? "--html '': exit 2 before computing ($said)"
said=$("$bin" --export "$PWD/" --step 5 "$L" "$T" 2>&1 >/dev/null)
[ $? -eq 2 ] && [ "$said" = "gatetui: $PWD/: a directory's name, not a file's" ]
check $? "--export DIR/: exit 2, a directory's name ($said)"
refused "FILE .jpg" "$bin" --figure x.jpg perturbation "$L" "$T"
refused "halflives of a plain RNN" "$bin" --figure r.svg halflives "$R" "$T"
refused "unit without --unit" "$bin" --figure r.svg unit "$L" "$T"
refused "unit 999 of 256" "$bin" --figure r.svg unit --unit 999 "$L" "$T"
refused "--to past the text" "$bin" --figure r.svg unit --unit 1 --to 50000 "$L" "$T"
refused "--figure ''" "$bin" --figure '' perturbation "$L" "$T"
"$bin" --figure r.svg bogus "$L" "$T" >out 2>err
st=$?
[ $st -eq 2 ] && [ ! -s out ] &&
    [ "$(cat err)" = 'gatetui: --figure: KIND is perturbation, halflives, checkpoints, lyapunov or unit, not "bogus" (gatetui --help shows the usage)' ]
check $? "an unknown KIND: exit $st, one line naming the kinds"
"$bin" --figure r.svg "$L" "$T" >out 2>err
st=$?
[ $st -eq 2 ] && [ "$(cat err)" = "gatetui: --figure needs KIND (perturbation, halflives, checkpoints, lyapunov or unit), then MODEL and TEXT (gatetui --help shows the usage)" ]
check $? "KIND left out, two operands: exit $st, KIND asked for ($(head -1 err))"
"$bin" --figure r.svg "$L" "$G" "$T" >out 2>err
st=$?
[ $st -eq 2 ] && grep -q '^gatetui: --figure: KIND is .*, not ".*kjv-lstm.bin"' err
check $? "KIND left out, three operands: exit $st, the model's name is not a kind"
[ ! -e r.svg ] && [ ! -e r.svg.csv ]
check $? "nothing written by a refused run"

# --- the golden figure of a small fixture: an LSTM and an RNN of tests/fixtures/report
GOPT="--windows 6 --window-len 48 --horizon 20"
# shellcheck disable=SC2086
fig "perturbation, fixtures lstm1 and rnn1" g.svg perturbation $GOPT "$F/lstm1.safetensors" \
    "$F/rnn1.safetensors" "$F/text.txt"
if [ "${1:-}" = --regen ]; then
    mkdir -p "$(dirname "$golden")" && cp g.svg "$golden" && echo "# wrote $golden"
fi
said "g.svg: the axes, 6 curves of 21 points, 7 legend entries" $chk structure g.svg 6 21 7
said "g.svg: the golden figure's structure" $chk same g.svg "$golden"
said "g.svg.csv within 1e-6 of the float64 reference" $chk perturbation g.svg.csv \
    "$F/lstm1_w6.json,$F/rnn1_w6.json" 1e-6
# shellcheck disable=SC2086
"$bin" --report --json $GOPT "$F/lstm1.safetensors" "$F/rnn1.safetensors" "$F/text.txt" \
    >repg.json 2>/dev/null
said "g.svg.csv's numbers are the report's" $chk perturbation g.svg.csv repg.json
# shellcheck disable=SC2086
fig "the same as PDF" g.pdf perturbation $GOPT "$F/lstm1.safetensors" "$F/rnn1.safetensors" \
    "$F/text.txt"
pdf_says g.pdf "lstm1.safetensors measured c: t½" "lstm1.safetensors measured h: t½" \
    "lstm1.safetensors linearized: t½" "lstm1.safetensors forget-only: t½" \
    "rnn1.safetensors measured h: t½" "rnn1.safetensors linearized: t½" "one half" \
    "k: steps after the edit" "difference / its value at k = 0"

# perthl_same CSV EDIT...: the perturbation figure's CSV holds, for the sample LSTM and GRU,
# the curves tests/lib/perthl computes from the engine for the last edit against the text with
# the others made (c or h, forget-only, h, each over its k = 0 value) within 1e-5; prints
# what differs (nothing when all agree)
perthl_same() {
    csv=$1
    shift
    [ -s "$csv" ] || { echo " (no CSV)"; return; }
    for m in "$L" "$G"; do
        name=$(basename "$m")
        PERTHL_CURVES=1 "$perthl" "$m" "$T" 0 64 "$@" | tail -n +2 >"$work/perthl.txt"
        awk -F, -v m="$name" -v OFS=' ' '$1 == m { print $2, $3, $4 }' "$csv" >"$work/mine.txt"
        [ -s "$work/mine.txt" ] || { printf ' %s (none in the CSV)' "$name"; continue; }
        awk -v m="$name" 'NR == FNR { v[$1 " " $2] = $3; next }
            { c = (m ~ /lstm/) ? "c" : "h"; want[0] = $2; want[1] = $3; want[2] = $4
              split(c " " ((m ~ /lstm/) ? "forget_only" : "update_only") " h", key, " ")
              for (i = 1; i <= 3; i++) {
                  got = v[key[i] " " $1]; w = want[i - 1]
                  d = got - w; if (d < 0) d = -d
                  if (got == "" || d > 1e-5 * (w < 0 ? -w : w) + 1e-12) { print m, key[i], $1, got, w; exit 1 } } }' \
            "$work/mine.txt" "$work/perthl.txt" >/dev/null || printf ' %s' "$name"
    done
}

# --- the perturbation figure of edits given on the command line: the last edit's curves
fig "perturbation --edit 1200:x, LSTM and GRU" e1.svg perturbation --edit 1200:x "$L" "$G" "$T"
bad=$(perthl_same e1.svg.csv 1200:x)
[ -z "$bad" ]
check $? "--edit 1200:x: the curves are those the engine computes (tests/lib/perthl)${bad:+: not$bad}"
said "e1.svg: 7 curves of 65 points and the legend" $chk structure e1.svg 7 65 8
# the caption names the edit's characters as the perturbation panel does: a newline '\n',
# never '?' (a character of the vocabulary too); the sample GRU's step 100 is an 'r'
nl='
'
fig "perturbation --edit 100:(a newline), GRU" nl.pdf perturbation --edit "100:$nl" "$G" "$T"
caption_says nl.pdf "the newline named as the panel names it, not '?'" \
    "the edit at step 100 ('r' to '\n') against the text before it"
"$bin" --export e2.txt --step 1300 --edit 1200:x --edit 1290:q "$L" "$T" >/dev/null 2>&1
fig "perturbation --edit 1200:x --edit 1290:q" e2.svg perturbation --edit 1200:x --edit 1290:q \
    "$L" "$G" "$T"
bad=$(perthl_same e2.svg.csv 1200:x 1290:q)
[ -z "$bad" ]
check $? "two edits: the last's curves against the text with the first made${bad:+: not$bad}"
hl=$(awk -F, '$1 == "kjv-lstm.bin" && $2 == "c" && $3 == 0 { printf "%.1f", $5 }' e2.svg.csv)
grep -q "t½ c $hl " e2.txt
check $? "its c half-life ($hl) is the one --export --edit's panel prints"
# an edit near the end: the caption says K and why it is short; the last step, or the token
# already there (no difference at k = 0), refused with nothing written
fig "perturbation --edit 43200:x, GRU" end.pdf perturbation --edit 43200:x "$G" "$T"
caption_says end.pdf "K = 34, the text ending" "one run of each, K = 34 (the text ends)"
pdf_says end.pdf "kjv-gru.bin update-only: t½" # a GRU's carry gate alone: z, not f
for ed in 43234:x "1200: "; do
    "$bin" --figure r.svg perturbation --edit "$ed" "$L" "$T" >out 2>err
    st=$?
    case "$(head -1 err)" in
    *"is the text's last step: no step after it"* | *"changes nothing (no difference at k = 0"*) r=0 ;;
    *) r=1 ;;
    esac
    [ $st -eq 2 ] && [ $r -eq 0 ] && [ ! -e r.svg ] && [ ! -e r.svg.csv ]
    check $? "--figure perturbation --edit '$ed': exit $st, refused, nothing written ($(head -1 err))"
done
for kind in lyapunov halflives; do
    "$bin" --figure r.svg "$kind" --edit 1200:x "$L" "$T" >out 2>err
    st=$?
    [ $st -eq 2 ] && [ "$(head -1 err)" = "gatetui: --figure $kind: --edit and --edits go with the perturbation figure (the curves of the last edit)" ]
    check $? "--figure $kind --edit: exit $st, refused ($(head -1 err))"
done
"$bin" --report --edit 1200:x "$L" "$T" >out 2>err
st=$?
[ $st -eq 2 ] && [ ! -s out ] && [ "$(cat err)" = "gatetui: --edit and --edits go with the screen, --export, --carriers and --figure perturbation, not --report (gatetui --help shows the usage)" ]
check $? "--report --edit: exit $st, refused, not ignored ($(head -1 err))"
[ ! -e r.svg ] && [ ! -e r.svg.csv ]
check $? "nothing written by the refused runs"

# --- F on the screen: the sample LSTM and GRU, an edit at step 1,200
if ! e2e_terminal; then
    notok "the screen's F: $e2e_why"
    echo "1..$n"
    exit 0
fi
mkdir scr && cd scr || exit 1
tm -f /dev/null new-session -d -s gt -x 120 -y 40 "$bin $L $G $T 2>err; echo EXIT=\$?; sleep 60"
wait_for "step 0 of 0..43,234" >/dev/null
check $? "the screen comes up with two models"
tm send-keys -t gt g 1 2 0 0 Enter
wait_for "step 1,200 of" >/dev/null
tm send-keys -t gt e x
wait_for "step 1,200: ' ' → 'x'" >/dev/null
wait_for "measured t½ of h by model: \[1\] [0-9.]+ +2 [0-9.]+" # both models' curves
check $? "the edit's curves of both models are on the panel"
tm send-keys -t gt F
wait_for "./kjv-valid-step1200-edited-perturbation.svg written: the perturbation figure" >/dev/null &&
    [ -s kjv-valid-step1200-edited-perturbation.svg.csv ]
check $? "F after an edit: the perturbation figure named like the frame, its CSV beside it"
said "its SVG" $chk svg kjv-valid-step1200-edited-perturbation.svg 640 470
said "its 7 curves (the LSTM's c, h, L, F; the GRU's h, L, F) and legend" \
    $chk structure kjv-valid-step1200-edited-perturbation.svg 7 65 8
bad=$(perthl_same kjv-valid-step1200-edited-perturbation.svg.csv 1200:x)
[ -z "$bad" ]
check $? "the figure's curves are those the engine computes (tests/lib/perthl)${bad:+: not$bad}"
tm send-keys -t gt F
wait_for "./kjv-valid-step1200-edited-perturbation-2.svg written" >/dev/null &&
    [ -s kjv-valid-step1200-edited-perturbation-2.svg.csv ] &&
    cmp -s kjv-valid-step1200-edited-perturbation.svg.csv kjv-valid-step1200-edited-perturbation-2.svg.csv
check $? "F again: a new name (-2), the first left as it was"
tm send-keys -t gt U
wait_for "unit table: .* row 1 of 256" >/dev/null # the report computed
tm send-keys -t gt F
wait_for "./kjv-valid-step1200-edited-halflives.svg written: the half-lives figure" >/dev/null &&
    [ -s kjv-valid-step1200-edited-halflives.svg.csv ]
check $? "F on the unit table: the half-lives figure"
said "its numbers are the report's" $chk halflives kjv-valid-step1200-edited-halflives.svg.csv \
    "$work/rep3.json"
tm send-keys -t gt r
wait_for "an edit's half-life, measured +c [0-9.]+ .* h [0-9.]+" >/dev/null # both reports
tm send-keys -t gt F
wait_for "./kjv-valid-step1200-edited-checkpoints.svg written: the models' figure" >/dev/null
"$bin" --report --json "$L" "$G" "$T" >"$work/rep2.json" 2>/dev/null
said "F on two models' report: their figure, its numbers the reports'" \
    $chk checkpoints kjv-valid-step1200-edited-checkpoints.svg.csv "$work/rep2.json"
tm send-keys -t gt D
wait_for "derivative" >/dev/null
tm send-keys -t gt F
wait_for "no figure of the derivative" >/dev/null
check $? "F on the derivative: says which views have a figure"
# b, u, another edit: F draws the pinned edit's curves beside the last edit's, as the panel
tm send-keys -t gt Escape
wait_gone "─ derivative" >/dev/null
tm send-keys -t gt b
wait_for "step 1,200's curves pinned" >/dev/null
tm send-keys -t gt u l l l l l e y
wait_for "step 1,205: ' ' → 'y'" >/dev/null && wait_for "C f H 1,200 ' '→'x': c" >/dev/null
tm send-keys -t gt F
wait_for "./kjv-valid-step1205-edited-perturbation.svg written" >/dev/null
pin=kjv-valid-step1205-edited-perturbation.svg.csv
first=kjv-valid-step1200-edited-perturbation.svg.csv
# the pinned rows are the first figure's rows of the edit at 1,200, renamed
sed -n 's/^"\{0,1\}\(kjv-[a-z]*\.bin\) (pinned: step 1,200)"\{0,1\},/\1,/p' "$pin" >"$work/pinrows"
grep -E '^kjv-(lstm|gru)\.bin,' "$first" >"$work/firstrows"
[ -s "$work/pinrows" ] && cmp -s "$work/pinrows" "$work/firstrows" &&
    [ "$(cut -d, -f1 "$pin" | grep -c '^kjv-lstm.bin$')" -gt 0 ] &&
    ! cmp -s "$(grep -E '^kjv-lstm\.bin,' "$pin" | head -5 >"$work/lastrows"; echo "$work/lastrows")" \
        "$(head -5 "$work/firstrows" >"$work/f5"; echo "$work/f5")"
check $? "F with curves pinned: both models' pinned curves beside the last edit's, each the first figure's"
tm send-keys -t gt q q
wait_for "EXIT=0" >/dev/null
check $? "q q: exit 0"
echo "1..$n"
