#!/bin/sh
# Inputs that would cost without bound: a text or a --vocab-from file that never ends
# (/dev/zero, a FIFO fed forever) is read up to its bound (512 MB) and refused with one
# line, exit status 2. Each run has 20 s of processor time (ulimit -t): before, such a text
# was read until memory ran out. Then small faults of the command line (below).
src="${top_srcdir:-.}"
bld="${top_builddir:-.}"
. "$src/tests/tap.sh"
bin=$(cd "$bld" && pwd)/gatetui
need "$bin" "$bld/tests/mkframes"
work=$(mktemp -d) || exit 1
feeder=""
trap '[ -n "$feeder" ] && kill "$feeder" 2>/dev/null; rm -rf "$work"' EXIT INT TERM
"$bld/tests/mkframes" "$work" >/dev/null || bail "tests/mkframes could not write the test model"
model="$work/frames_lstm2.safetensors"
text="$(cd "$src/tests/frames" && pwd)/text.txt"

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
# a horizon past what a window holds after its edit: refused, never cut short silently
"$bin" --report --horizon 256 "$model" "$text" >/dev/null 2>"$work/err"
st=$?
[ $st -eq 2 ] && [ "$(grep -vc "not in the vocabulary skipped" "$work/err")" -eq 1 ] &&
    grep -q -- "--horizon 256: a window of 128 characters holds 95 steps after its edit (at step 32); --window-len 342 or more holds 256" "$work/err"
check $? "--horizon 256 with windows of 128: refused, naming the 95 steps a window holds and the length that holds 256 (exit $st)"
"$bin" --report --json --horizon 256 --window-len 342 --windows 2 "$model" "$text" 2>/dev/null |
    grep -q '"horizon": 256'
check $? "--horizon 256 with --window-len 342: the report's horizon is 256"
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
mk="$(cd "$src/tests/robust" && pwd)/mktorch.py"
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
# hours over the sample text); the search's child is gone when gatetui is.
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
"$bin" --units 'the' --regex-seconds 0 "$lstm" "$valid" >/dev/null 2>"$work/err"
st=$?
[ $st -eq 2 ] && grep -q -- '--regex-seconds wants an integer >= 1' "$work/err"
check $? "--regex-seconds 0: refused (exit $st)"
"$bin" --units 'the' --steps 2000 --regex-seconds 5 "$lstm" "$valid" >"$work/out" 2>/dev/null &&
    grep -q '"the": [0-9]* matches' "$work/out"
check $? "--units 'the' within --regex-seconds 5: searched as before"
echo "1..$n"
