#!/bin/sh
# Inputs that would cost without bound: a text or a --vocab-from file that never ends
# (/dev/zero, a FIFO fed forever) is read up to its bound (512 MB) and refused with one
# line, exit status 2. Each run has 20 s of processor time (ulimit -t): before, such a text
# was read until memory ran out. Then small faults of the command line (below).
src="${top_srcdir:-.}"
bld="${top_builddir:-.}"
. "$src/tests/lib/tap.sh"
bin=$(cd "$bld" && pwd)/gatetui
need "$bin" "$bld/tests/lib/mkframes" "$bld/tests/lib/maxrss"
work=$(mktemp -d) || exit 1
feeder=""
trap '[ -n "$feeder" ] && kill "$feeder" 2>/dev/null; rm -rf "$work"' EXIT INT TERM
"$bld/tests/lib/mkframes" "$work" >/dev/null || bail "tests/lib/mkframes could not write the test model"
model="$work/frames_lstm2.safetensors"
text="$(cd "$src/tests/golden/frames" && pwd)/text.txt"

# refused WHAT CMD...: CMD ends with exit 2 and the one line of the bound
refused() {
    what=$1
    shift
    (ulimit -t 20 && "$@" >"$work/out" 2>"$work/err")
    st=$?
    [ $st -eq 2 ] && [ "$(wc -l <"$work/err")" -eq 1 ] &&
        grep -q "more than 512 MB; a text or a vocabulary file may take at most that" "$work/err"
    r=$?
    [ $r -eq 0 ] || { echo "# exit $st"; head -3 "$work/err" | sed 's/^/# stderr: /'; }
    check $r "$what: refused at 512 MB with one line (exit 2)"
}
refused "the text /dev/zero" "$bin" --report "$model" /dev/zero
refused "--vocab-from /dev/zero" "$bin" --report --vocab-from /dev/zero "$model" "$text"
mkfifo "$work/fifo"
yes 'the text goes on' >"$work/fifo" &
feeder=$!
refused "a FIFO fed forever" "$bin" --report "$model" "$work/fifo"
kill "$feeder" 2>/dev/null
wait "$feeder" 2>/dev/null
feeder=""
head -c 1000 "$text" >"$work/small.txt"
"$bin" --report "$model" "$work/small.txt" >/dev/null 2>"$work/err"
check $? "a text under the bound loads"

# small faults of the command line: --help, --version and --kernels on a standard output
# that cannot take them (/dev/full) exit 1 with a message, not 0; --export "" is bad usage
# (exit 2), not an I/O error; --threshold inf refused as 1e999 is (infinite either way)
for o in --help --version --kernels; do
    if [ -w /dev/full ]; then
        "$bin" $o >/dev/full 2>"$work/err"
        st=$?
        [ $st -eq 1 ] && grep -q "standard output failed" "$work/err"
        check $? "$o onto /dev/full: exit 1 with a message (exit $st)"
    else
        skip "no /dev/full"
    fi
done
# a mode's output onto /dev/full: its last line names what was written and the system's reason
# (it was "error writing the report" alone)
for o in "--report" "--report --json" "--jacobian --step 40 --lag 8" "--importance --windows 2 --json"; do
    if [ -w /dev/full ]; then
        # shellcheck disable=SC2086
        LC_ALL=C "$bin" $o "$model" "$work/small.txt" >/dev/full 2>"$work/err" # the reason in English
        st=$?
        [ $st -eq 1 ] &&
            tail -n 1 "$work/err" | grep -q "^gatetui: error writing the [a-zA-Z]*: No space left on device$"
        check $? "$o onto /dev/full: exit 1, the reason said: $(tail -n 1 "$work/err") (exit $st)"
    else
        skip "no /dev/full"
    fi
done
"$bin" --export "" --step 3 "$model" "$text" >/dev/null 2>"$work/err"
st=$?
[ $st -eq 2 ] && grep -q -- "--export needs a file name" "$work/err"
check $? "--export \"\": bad usage, exit 2 (exit $st)"
for t in inf -inf 1e999; do
    "$bin" --select 5:6 --threshold "$t" "$model" "$text" >/dev/null 2>"$work/err"
    st=$?
    [ $st -eq 2 ] && grep -q -- "--threshold wants a number" "$work/err"
    check $? "--threshold $t: refused as every infinite threshold is (exit $st)"
done

# a file name with control characters: written as '?' in the headings of --report and
# --units and in messages (an escape sequence in a name never reaches the terminal)
esc=$(printf '\033')
cp "$model" "$work/m${esc}[31mX.safetensors"
odd="$work/m${esc}[31mX.safetensors"
"$bin" --report --windows 2 "$odd" "$text" >"$work/out" 2>&1 &&
    ! grep -q "$esc" "$work/out" && grep -q "m?\[31mX.safetensors: LSTM" "$work/out"
check $? "--report: a name's escape character is written as ?"
"$bin" --units 'e' --steps 100 "$odd" "$text" >"$work/out" 2>&1 &&
    ! grep -q "$esc" "$work/out" && grep -q "m?\[31mX.safetensors: LSTM" "$work/out"
check $? "--units: a name's escape character is written as ?"
# several models side by side: each column's head, the model's name, written so too
"$bin" --jacobian --step 50 --lag 4 "$odd" "$model" "$text" >"$work/out" 2>&1 &&
    ! grep -q "$esc" "$work/out" && grep -q "^m?\[31mX.safetensors  " "$work/out"
check $? "two models side by side: the head naming one with an escape character writes it as ?"
"$bin" --report "$odd" "$work/no${esc}[2Jtext" >"$work/out" 2>&1
! grep -q "$esc" "$work/out" && grep -q "no?\[2Jtext" "$work/out"
check $? "a message naming a missing file writes its escape character as ?"

# --html -: the page on the standard output, no file named "-"; the status line of --html
# FILE that cannot be written: exit 1 with a message (the page kept)
(cd "$work" && "$bin" --html - --unit 0 --to 50 "$model" "$text" >"$work/page" 2>"$work/err")
st=$?
[ $st -eq 0 ] && [ ! -e "$work/-" ] && grep -q '^<!DOCTYPE html>' "$work/page" &&
    grep -q '</html>' "$work/page"
check $? "--html -: the page on the standard output, no file named - (exit $st)"
if [ -w /dev/full ]; then
    "$bin" --html "$work/p.html" --unit 0 --to 50 "$model" "$text" >/dev/full 2>"$work/err"
    st=$?
    [ $st -eq 1 ] && grep -q "error writing the output" "$work/err" && [ -s "$work/p.html" ]
    check $? "--html FILE onto /dev/full: exit 1 with a message, the page kept (exit $st)"
else
    skip "no /dev/full"
fi

# numbers out of range say why
"$bin" --report --window-len 99999999999 "$model" "$text" >/dev/null 2>"$work/err"
st=$?
[ $st -eq 2 ] && grep -q -- "--window-len 99999999999: a window is 2 to 2147483647 characters" "$work/err"
check $? "--window-len 99999999999: refused, saying the range (exit $st)"
"$bin" --report --horizon 2147483648 "$model" "$text" >/dev/null 2>"$work/err"
st=$?
[ $st -eq 2 ] && grep -q -- "--horizon 2147483648: a horizon is 1 to 2147483647 steps" "$work/err"
check $? "--horizon 2147483648: refused, saying the range (exit $st)"
# a horizon past what a window holds after its edit: K = min(horizon, L - s - 1) (doc/usage.md),
# never cut short silently: one line says so
"$bin" --report --json --horizon 256 "$model" "$text" >"$work/out" 2>"$work/err"
st=$?
[ $st -eq 0 ] && [ "$(grep -vc "not in the vocabulary skipped" "$work/err")" -eq 1 ] &&
    grep -q -- "^gatetui: --horizon 256: a window of 128 characters holds 95 steps after its edit (at step 32), so the horizon is 95; --window-len 342 or more holds 256$" "$work/err" &&
    grep -q '"horizon": 95' "$work/out"
check $? "--horizon 256 with windows of 128: the horizon is 95, said in one line naming the length that holds 256 (exit $st)"
"$bin" --report --horizon 95 "$model" "$text" >/dev/null 2>"$work/err"
st=$?
[ $st -eq 0 ] && ! grep -q -- "--horizon" "$work/err"
check $? "--horizon 95 with windows of 128: nothing said (exit $st)"
"$bin" --report --json --horizon 256 --window-len 342 --windows 2 "$model" "$text" 2>/dev/null |
    grep -q '"horizon": 256'
check $? "--horizon 256 with --window-len 342: the report's horizon is 256"
# more windows asked for than the text holds: one line says how many are taken; the
# default (32, not asked for) says nothing
"$bin" --report --json --windows 32 "$model" "$text" >"$work/out" 2>"$work/err"
st=$?
[ $st -eq 0 ] && [ "$(grep -vc "not in the vocabulary skipped" "$work/err")" -eq 1 ] &&
    grep -qx -- "gatetui: --windows 32: the text's 378 characters make 3 windows of up to 128; all 3 are taken" "$work/err" &&
    grep -q '"positions": 378,' "$work/out"
check $? "--report --windows 32 on a text of 3 windows: the report's 3, said in one line (exit $st)"
"$bin" --report "$model" "$text" >/dev/null 2>"$work/err"
st=$?
[ $st -eq 0 ] && ! grep -q -- "--windows" "$work/err"
check $? "--report without --windows (32 by default) on the same text: nothing said (exit $st)"
"$bin" --report --windows 3 "$model" "$text" >/dev/null 2>"$work/err"
st=$?
[ $st -eq 0 ] && ! grep -q -- "--windows" "$work/err"
check $? "--report --windows 3: nothing said (exit $st)"
# (the window as long as the text: a window longer than the text is the text)
"$bin" --importance --windows 2 --window-len 4096 "$model" "$text" >"$work/out" 2>"$work/err"
st=$?
[ $st -eq 0 ] && grep -qx -- "gatetui: --windows 2: the text's 378 characters make 1 window of up to 378; it is taken" "$work/err"
check $? "--importance --windows 2 --window-len 4096: one window taken, said (exit $st)"
"$bin" --importance --window-len 99999999999 "$model" "$text" >/dev/null 2>"$work/err"
st=$?
[ $st -eq 2 ] && grep -q -- "--window-len 99999999999: a window is 2 to" "$work/err"
check $? "--importance --window-len 99999999999: refused, saying the range (exit $st)"
# a span is digits only, a space before it or after it alike
for sp in ' 5:6' '5:6 ' '5: 6' '+5:6'; do
    "$bin" --select "$sp" "$model" "$text" >/dev/null 2>"$work/err"
    st=$?
    [ $st -eq 2 ] && grep -q -- "--select wants A:B (two steps)" "$work/err"
    check $? "--select '$sp': refused like any other malformed span (exit $st)"
done

# archives: a local header that disagrees with the directory (Python's zipfile refuses it
# too), a deflated byteorder entry: refused with what is wrong, not read from the wrong
# bytes or called big-endian
mk="$(cd "$src/tests/terminal/robust" && pwd)/mktorch.py"
python3 "$mk" badlocal "$work/badlocal.pt" && python3 "$mk" zbyteorder "$work/zbo.pt" ||
    bail "mktorch.py failed"
"$bin" --report "$work/badlocal.pt" "$text" >/dev/null 2>"$work/err"
st=$?
[ $st -eq 2 ] && grep -q "its local header disagrees with the directory" "$work/err"
check $? "a zip entry whose local header is another entry's: refused (exit $st)"
"$bin" --report "$work/zbo.pt" "$text" >/dev/null 2>"$work/err"
st=$?
[ $st -eq 2 ] && grep -q "archive/byteorder is compressed" "$work/err" && ! grep -q big-endian "$work/err"
check $? "a deflated byteorder entry: said compressed, not big-endian (exit $st)"

# a single cell's tensors beside a stacked network's under one prefix: named, not "prefix
# \"rnn.\" besides \"rnn.\""
python3 - "$model" "$work/twoforms.safetensors" <<'PY' || bail "could not write twoforms"
import json, struct, sys
b = open(sys.argv[1], "rb").read()
n = struct.unpack("<Q", b[:8])[0]
h, data = json.loads(b[8:8 + n]), b[8 + n:]
extra = b""
for part in ("weight_ih", "weight_hh", "bias_ih", "bias_hh"):
    a, z = h["rnn." + part + "_l0"]["data_offsets"]
    o = len(data) + len(extra)
    h["rnn." + part] = dict(h["rnn." + part + "_l0"], data_offsets=[o, o + z - a])
    extra += data[a:z]
head = json.dumps(h).encode()
open(sys.argv[2], "wb").write(struct.pack("<Q", len(head)) + head + data + extra)
PY
"$bin" --report "$work/twoforms.safetensors" "$text" >/dev/null 2>"$work/err"
st=$?
[ $st -eq 2 ] && grep -q "rnn.weight_ih, rnn.weight_hh, rnn.bias_ih, ...: tensors an nn.LSTM does not have" "$work/err" &&
    ! grep -q besides "$work/err"
check $? "rnn.weight_ih... beside rnn.weight_ih_l0...: the cell's tensors named (exit $st)"
# Regular expressions: compiling one is bounded by its size once its bounded repetitions
# are written out (this one would take 1.8 GB), searching by --regex-seconds (this one takes
# half a minute over the sample text); the search's child is gone when gatetui is.
lstm="$src/samples/kjv-lstm.bin"
valid="$(cd "$src/samples" && pwd)/kjv-valid.txt"
mkdir "$work/long" && cp "$valid" "$work/long/kjv-valid.txt"
(ulimit -t 20 && "$bin" --units '(((a{1,100}){1,100}){1,100})' "$lstm" "$valid" >/dev/null 2>"$work/err")
st=$?
[ $st -eq 2 ] && [ "$(wc -l <"$work/err")" -eq 1 ] && grep -q 'expands to 1000000 atoms, over 2000' "$work/err"
check $? "--units with nested bounded repetitions: refused by their size, one line (exit $st)"
"$bin" --probe 'x{1999}|ab' "$lstm" "$valid" >/dev/null 2>"$work/err"
grep -q 'expands to 2002 atoms' "$work/err"
check $? "--probe: each branch of an alternation counted (x{1999}|ab: 2002 atoms)"
"$bin" --units '(.*){1,5}Q' --regex-seconds 1 "$lstm" "$work/long/kjv-valid.txt" >/dev/null 2>"$work/err"
st=$?
[ $st -eq 2 ] && [ "$(wc -l <"$work/err")" -eq 1 ] && grep -q 'still searching the text after 1 s and was stopped' "$work/err"
check $? "--units '(.*){1,5}Q' --regex-seconds 1: stopped after a second, one line (exit $st)"
! pgrep -f "$work/long/kjv-valid.txt" >/dev/null
check $? "no search left running after gatetui ends"
# killed by its process id (not by Ctrl-C, which reaches the whole group), gatetui takes
# its search's child with it
# (over four copies of the text the search takes some 16 times the half minute it takes over
# one: the child cannot end on its own within the minute the check waits)
mkdir "$work/kill" && cat "$valid" "$valid" "$valid" "$valid" >"$work/kill/kjv-valid.txt"
"$bin" --units '(.*){1,5}Q' --regex-seconds 600 "$lstm" "$work/kill/kjv-valid.txt" >/dev/null \
    2>&1 &
gpid=$!
child=
for _ in $(seq 1 600); do # until the search has started (a child of gatetui), at most a minute
    child=$(ps -o pid= --ppid "$gpid" 2>/dev/null | tr -d ' ' | head -1)
    [ -n "$child" ] && break
    sleep 0.1
done
kill -TERM "$gpid" 2>/dev/null
wait "$gpid" 2>/dev/null
left=1
for _ in $(seq 1 600); do # until the child is gone (at once: SIGKILL at its parent's end)
    kill -0 "$child" 2>/dev/null || { left=0; break; }
    sleep 0.1
done
[ -n "$child" ] && [ $left -eq 0 ]
check $? "gatetui ended by SIGTERM: its search's child ($child) gone with it"
pkill -KILL -f "$work/kill/kjv-valid.txt" 2>/dev/null
"$bin" --units 'the' --regex-seconds 0 "$lstm" "$valid" >/dev/null 2>"$work/err"
st=$?
[ $st -eq 2 ] && grep -q -- '--regex-seconds wants an integer >= 1' "$work/err"
check $? "--regex-seconds 0: refused (exit $st)"
"$bin" --units 'the' --steps 2000 --regex-seconds 5 "$lstm" "$valid" >"$work/out" 2>/dev/null &&
    grep -q '"the": [0-9]* matches' "$work/out"
check $? "--units 'the' within --regex-seconds 5: searched as before"
# Model files: their kind and size checked from their first bytes (a zip archive's from
# its last too) before anything large is read; a safetensors file read only as far as its
# header declares. Each run has 10 s of processor time and its peak memory is measured:
# before, a 3 GB file of zeros was read whole (71 s, 3.15 GB) before it was called not a
# model. FIFOs as the model or as --vocab: refused at once (before, open waited for a
# writer forever).
# small NAME CMD...: CMD ends with exit 2, one line holding NAME, in 10 s of processor time
# and under 64 MB of memory
small() {
    what=$1 said=$2
    shift 2
    kb=$( (ulimit -t 10 && "$bld/tests/lib/maxrss" "$@" 2>"$work/err"))
    st=$?
    [ $st -eq ${want:-2} ] && [ "${kb:-999999}" -lt 65536 ] && grep -q -- "$said" "$work/err" &&
        [ "$(wc -l <"$work/err")" -le 1 ]
    r=$?
    [ $r -eq 0 ] || { echo "# exit $st, $kb KB"; head -3 "$work/err" | sed 's/^/# stderr: /'; }
    check $r "$what: exit ${want:-2} in $kb KB"
}
if truncate -s 3G "$work/zeros.bin" 2>/dev/null; then
    small "a 3 GB file of zeros as the model" "not a model file: .* it starts 00 00 00 00" \
        "$bin" --report "$work/zeros.bin" "$text"
    printf 'PK\003\004' >"$work/pk.bin" && truncate -s 3G "$work/pk.bin"
    small "a zip's first bytes, then 3 GB of zeros" "a zip archive with no end record" \
        "$bin" --report "$work/pk.bin" "$text"
    cp "$model" "$work/tail.safetensors" && truncate -s +3G "$work/tail.safetensors"
    want=0 small "a safetensors model followed by 3 GB of zeros: read as far as its header says" "" \
        "$bin" --dump --to 20 "$work/tail.safetensors" "$text"
    "$bin" --dump --to 20 "$work/tail.safetensors" "$text" >"$work/a" 2>/dev/null &&
        "$bin" --dump --to 20 "$model" "$text" >"$work/b" 2>/dev/null && cmp -s "$work/a" "$work/b"
    check $? "... its dump that of the model alone"
    rm -f "$work/zeros.bin" "$work/pk.bin" "$work/tail.safetensors"
else
    skip "no sparse file of 3 GB here"
    skip "no sparse file of 3 GB here"
    skip "no sparse file of 3 GB here"
    skip "no sparse file of 3 GB here"
fi
hlen=$(od -An -tu4 -N4 "$model" | tr -d ' ')
head -c $((8 + hlen + 10)) "$model" >"$work/cut.safetensors"
small "a safetensors header that declares more than the file holds" "data_offsets end [0-9]* is outside the file (10 data bytes; truncated?)" \
    "$bin" --report "$work/cut.safetensors" "$text"
mkfifo "$work/mfifo"
small "a FIFO as the model (no writer)" "a pipe (FIFO), not a regular file" \
    timeout 20 "$bin" --report "$work/mfifo" "$text"
small "a FIFO as --vocab (no writer)" "a pipe (FIFO), not a regular file" \
    timeout 20 "$bin" --report --vocab "$work/mfifo" "$model" "$text"
# Options whose work multiplies, bounded so that the run finishes: refused at once, naming
# the bound (before, --hold 10^12 ran for ever, --folds 3000 --steps 3000 for hours).
# bounded WHAT SAID ARGS...: exit 2 within 20 s of wall time, one line holding SAID
bounded() {
    what=$1 said=$2
    shift 2
    timeout 20 "$bin" "$@" >/dev/null 2>"$work/err"
    st=$?
    [ $st -eq 2 ] && [ "$(wc -l <"$work/err")" -eq 1 ] && grep -q -- "$said" "$work/err"
    r=$?
    [ $r -eq 0 ] || { echo "# exit $st"; head -3 "$work/err" | sed 's/^/# stderr: /'; }
    check $r "$what: refused, naming the bound"
}
bounded "--fixed-points --hold 10^12" "--hold 1,000,000,000,000: at most 1,000,000 steps" \
    --fixed-points e --hold 1000000000000 "$lstm" "$valid"
bounded "--fixed-points --starts 5000" "--starts 5,000: at most 4,096 starts" \
    --fixed-points e --starts 5000 --steps 10000 "$lstm" "$valid"
bounded "--fixed-points --starts 64 --hold 1000000" "64,000,000 held steps in all, over the bound of 10,000,000" \
    --fixed-points e --hold 1000000 "$lstm" "$valid"
bounded "--probe --folds 3000 --steps 3000" "--folds 3000: at most 20 folds" \
    --probe e --folds 3000 --steps 3000 "$lstm" "$valid"
bounded "--probe --folds 21" "--folds 21: at most 20 folds (2..20)" --probe e --folds 21 "$lstm" "$valid"
python3 "$mk" wide "$work/wide.pt" 1024 || bail "mktorch.py failed"
yes 'the text goes on and on' | tr '\n' ' ' | head -c 1100000 >"$work/long.txt"
bounded "--probe --steps 1100000 on 1,024 units" "at most 1,048,576 steps of this model" \
    --probe e --steps 1100000 "$work/wide.pt" "$work/long.txt"
bounded "--components 3 --steps 1100000 on 1,024 units" "more than 1,073,741,824 values (4 GiB of float32)" \
    --components 3 --steps 1100000 "$work/wide.pt" "$work/long.txt"
rm -f "$work/wide.pt" "$work/long.txt"
# Weights whose float32 products overflow (mktorch.py overflow): the state (every W_ih x
# past float32, then +inf + -inf), or the readout alone (logits of +-inf). Each mode says it
# once, at the step where it happens, and prints no nan or inf (exit 2). Before, the vector
# kernels clamped the NaN pre-activations into gates of 1 and -1, the plain C set printed
# nan, and --dump --probs, the importance and the screen's header printed nan. (The
# importance and the dynamics step in double, where the state stays finite: they go on.)
python3 "$mk" overflow "$work/ovs.pt" && python3 "$mk" overflow "$work/ovr.pt" r ||
    bail "mktorch.py failed"
yes 'the text goes on' | tr '\n' ' ' | head -c 3000 >"$work/ascii.txt"
for m in ovs ovr; do
    said="the model's state overflows float32 at step 0 (layer 0, unit 0)"
    modes='--units e|--probe e|--select 5:6'
    if [ $m = ovr ]; then
        said="the model's readout overflows float32 at step 0"
        modes='--importance'
    fi
    old_ifs=$IFS
    IFS='|'
    set -- --dump '--dump --probs' --report '--export - --step 500' $modes
    IFS=$old_ifs
    for args in "$@"; do
        # shellcheck disable=SC2086
        "$bin" $args "$work/$m.pt" "$work/ascii.txt" >"$work/out" 2>"$work/err"
        st=$?
        [ $st -eq 2 ] && [ "$(wc -l <"$work/err")" -eq 1 ] && grep -qF "$said" "$work/err" &&
            ! grep -qiw 'nan\|-nan\|inf' "$work/out"
        r=$?
        [ $r -eq 0 ] || { echo "# exit $st"; head -2 "$work/err" | sed 's/^/# stderr: /'; grep -iwm2 'nan\|inf' "$work/out" | sed 's/^/# out: /'; }
        check $r "$m: $args: '$said', exit 2, no nan"
    done
done
for k in $("$bin" --kernels); do
    GATETUI_KERNEL=$k "$bin" --dump --to 3 "$work/ovs.pt" "$work/ascii.txt" >"$work/out" 2>"$work/err"
    st=$?
    [ $st -eq 2 ] && grep -qF "overflows float32 at step 0" "$work/err"
    check $? "kernel set $k: the state's overflow found (its nonlinearities clamp NaN or not)"
done
"$bin" --jacobian --step 500 "$work/ovs.pt" "$work/ascii.txt" >"$work/out" 2>"$work/err"
st=$?
[ $st -eq 2 ] && grep -qF "overflows float32 at step 0" "$work/err" && [ ! -s "$work/out" ]
check $? "ovs: --jacobian: the overflow said, nothing printed (exit $st)"
"$bin" --probe e --folds 20 --steps 3000 "$lstm" "$valid" >/dev/null 2>"$work/err"
check $? "--probe --folds 20 --steps 3000: within the bounds, computed"
echo "1..$n"
