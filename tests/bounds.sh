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
echo "1..$n"
