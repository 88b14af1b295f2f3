#!/bin/sh
# The model file truncated or rewritten (same size, another model's bytes) under a run: a
# long --units, and the screen after a key that computes. Each result must equal the run on
# the untouched file (before, the mapped weights faulted with SIGBUS past the truncation,
# or mixed the two models' weights). The file is changed once the run has used 0.5 s of
# processor time (its model long loaded), never after a fixed wait. On the screen, the
# status line says the file changed (the files are looked at once a second), and the header
# goes on saying it.
src="${top_srcdir:-.}"
bld="${top_builddir:-.}"
. "$src/tests/lib/e2e_lib.sh"
bin=$(cd "$bld" && pwd)/gatetui
need "$bin"
smp=$(cd "$src/samples" 2>/dev/null && pwd)
if [ ! -f "$smp/kjv-lstm.bin" ] || [ ! -f "$smp/kjv-lstm-800.bin" ]; then
    echo "1..0 # SKIP the sample models are not in this tree"
    exit 0
fi
work=$(mktemp -d) || exit 1
sock="gatetui-modelchange-$$"
p=""
trap '[ -n "$p" ] && kill -9 "$p" 2>/dev/null; tmux -L "$sock" kill-server 2>/dev/null; rm -rf "$work"' EXIT INT TERM
text="$smp/kjv-train.txt"
args="--units the --steps 300000"

# cputicks PID: the processor time the process has used, in clock ticks
cputicks() { awk '{ print $14 + $15 }' "/proc/$1/stat" 2>/dev/null; }
# busy PID: waits until the process has used 0.5 s of processor time (60 s at most); 1 if
# it ended first
busy() {
    hz=$(getconf CLK_TCK)
    i=0
    while [ $i -lt 1200 ]; do
        t=$(cputicks "$1")
        [ -z "$t" ] && return 1
        [ "$t" -ge $((hz / 2)) ] && return 0
        sleep 0.05
        i=$((i + 1))
    done
    return 1
}
# change HOW FILE: truncate it to 0 bytes, or write the other sample model over it in place
change() {
    case $1 in
    truncated) : >"$2" ;;
    overwritten) dd if="$smp/kjv-lstm-800.bin" of="$2" conv=notrunc status=none ;;
    esac
}

cp "$smp/kjv-lstm.bin" "$work/m.bin"
"$bin" $args "$work/m.bin" "$text" >"$work/ref" 2>"$work/ref.err"
check $? "--units on the untouched model"
for how in truncated overwritten; do
    cp "$smp/kjv-lstm.bin" "$work/m.bin"
    "$bin" $args "$work/m.bin" "$text" >"$work/out-$how" 2>"$work/err-$how" &
    p=$!
    busy "$p"
    b=$?
    change $how "$work/m.bin"
    wait "$p"
    st=$?
    p=""
    [ $b -eq 0 ] && [ $st -eq 0 ] && cmp -s "$work/ref" "$work/out-$how"
    r=$?
    [ $r -eq 0 ] || { echo "# running when changed: $((1 - b)), exit $st"; sed 's/^/# stderr: /' "$work/err-$how"; }
    check $r "the model file $how during --units: exit 0, the result of the untouched file"
done

# the screen: the file changed after it opened, then a key that computes (g 30000)
if ! command -v tmux >/dev/null 2>&1; then
    for i in 1 2 3 4 5 6; do skip "tmux is not installed: the screen"; done
    echo "1..$n"
    exit 0
fi
e2e_terminal || { for i in 1 2 3 4 5 6; do skip "$e2e_why"; done; echo "1..$n"; exit 0; }
slow=6 # each wait up to 60 s: g 30000 steps the sample model 30,000 times
# screenrun HOW: the screen on $work/m.bin, changed by HOW (none for the untouched file)
# once it shows step 0, then g 30000; the pane's text at step 30,000 in $work/screen-HOW
screenrun() {
    cp "$smp/kjv-lstm.bin" "$work/m.bin"
    tm kill-server 2>/dev/null
    sock="gatetui-modelchange-$$-$1" # a server of its own: the last one may still be ending
    tm -f /dev/null new-session -d -s gt -x 120 -y 40 \
        "$bin $work/m.bin $text 2>$work/serr-$1; echo EXIT=\$?; sleep 600"
    wait_for "step 0 of 0\.\." || return 1
    change "$1" "$work/m.bin"
    if [ "$1" != none ]; then
        wait_for "m\.bin changed on disk since it was read: the screen keeps the model as read" \
            >/dev/null
        check $? "the model file $1 on the screen: the status line says so, the model kept"
    fi
    tm send-keys -t gt g 30000 Enter
    wait_for "step 30,000 of 0\.\." || { sed 's/^/# stderr: /' "$work/serr-$1"; return 1; }
    settled >"$work/screen-$1"
    tm send-keys -t gt q
    wait_for "EXIT=0" >/dev/null
}
screenrun none
# below the header, byte for byte the untouched file's screen; the header marks the change
sed 1d "$work/screen-none" >"$work/body-none"
for how in truncated overwritten; do
    screenrun $how && sed 1d "$work/screen-$how" >"$work/body-$how" &&
        cmp -s "$work/body-none" "$work/body-$how"
    r=$?
    [ $r -eq 0 ] || diff "$work/screen-none" "$work/screen-$how" 2>&1 | head -10 | sed 's/^/# /'
    check $r "the model file $how on the screen, then g 30000: the screen of the untouched file, q exits 0"
    head -1 "$work/screen-$how" | grep -q "params (file changed on disk)" &&
        ! head -1 "$work/screen-none" | grep -q "changed on disk"
    check $? "and the header says the file changed on disk, long after the status line did"
done
echo "1..$n"
