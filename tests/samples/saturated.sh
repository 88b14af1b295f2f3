#!/bin/sh
# Carry gates of exactly 1 (an infinite half-life) in every mode of `gatetui --help`: the
# sample LSTM with --carousel (f held at 1) and --forget-bias 20 (f rounds to 1 in float32),
# one unit's (--forget-bias 20@0:5), the sample GRU's z, two models side by side; on the
# full sample text. Each run exits 0 and prints no "nan", no sanitizer's report; the report's
# unit table bins, sorts and counts the infinite half-lives (doc/measures.md, "The unit
# table"). Then the screen in tmux: C, then the stats view (r) and the unit table (U).
src="${top_srcdir:-.}"
bld="${top_builddir:-.}"
. "$src/tests/lib/e2e_lib.sh"
bin="$bld/gatetui"
need "$bin"
lstm="$src/samples/kjv-lstm.bin"
gru="$src/samples/kjv-gru.bin"
text="$src/samples/kjv-valid.txt"
work=$(mktemp -d) || exit 1
sock="gatetui-saturated-$$"
trap 'tm kill-server 2>/dev/null; rm -rf "$work"' EXIT INT TERM

# clean NAME: the run's exit status 0, and neither output holds a NaN or a sanitizer's report
clean() {
    [ "$(cat "$work/rc")" = 0 ] && ! grep -qiw 'nan' "$work/out" "$work/err" &&
        ! grep -q 'runtime error\|Sanitizer' "$work/err"
}
# run ARGS...: gatetui's output in $work/out and $work/err, its exit status in $work/rc
run() {
    rm -f "$work/page.html" "$work/fig.svg" "$work/fig.svg.csv"
    "$bin" "$@" >"$work/out" 2>"$work/err"
    echo $? >"$work/rc"
    [ ! -f "$work/fig.svg.csv" ] || cat "$work/fig.svg.csv" >>"$work/out" # its numbers too
}
show() {
    echo "# exit $(cat "$work/rc")"
    grep -iw 'nan' "$work/out" | head -3 | sed 's/^/# out: /'
    head -5 "$work/err" | sed 's/^/# err: /'
}

# the modes, as --help's usage lists them (the first option of each line; the screen's has
# none), each with the arguments it is tried with here: a mode with none fails the test
modes=$("$bin" --help | sed -n 's/^\(usage:\)\{0,1\} *gatetui //p' | while read -r first rest; do
    case "$first $rest" in
    *--sweep-forget-bias*) echo sweep ;;
    \[*) echo screen ;;
    *) echo "${first#--}" ;;
    esac
done)
args_of() {
    case $1 in
    report) echo "--report" ;;
    dump) echo "--dump --from 43000" ;;
    export) echo "--export - --step 43000" ;;
    units) echo "--units [aeiou]" ;;
    select) echo "--select 5:6" ;;
    profile) echo "--profile --unit 5" ;;
    html) echo "--html $work/page.html --unit 5" ;;
    probe) echo "--probe [aeiou]" ;;
    components) echo "--components 3" ;;
    jacobian) echo "--jacobian --step 43000" ;;
    lyapunov) echo "--lyapunov --modes 8 --steps 2000" ;;
    spectrum) echo "--spectrum --step 43000" ;;
    fixed-points) echo "--fixed-points e --starts 8" ;;
    importance) echo "--importance --windows 8" ;;
    sweep) echo "--report --sweep-forget-bias 0:2:1 --windows 8" ;;
    effect) echo "--effect [aeiou] --windows 8" ;;
    carriers) echo "--carriers --edit 1200:x" ;;
    figure) echo "--figure $work/fig.svg halflives --windows 8" ;;
    *) return 1 ;;
    esac
}
for mode in $modes; do
    case $mode in
    screen) continue ;;  # in tmux below
    kernels) continue ;; # takes no model
    esac
    if ! a=$(args_of "$mode"); then
        notok "--help's mode $mode is not tried here"
        continue
    fi
    for iv in --carousel "--forget-bias 20"; do
        # shellcheck disable=SC2086
        run $a $iv "$lstm" "$text"
        if clean; then ok "$mode with $iv: exit 0, no nan"; else notok "$mode with $iv" && show; fi
    done
done
run --dump --probs --from 43000 --carousel "$lstm" "$text"
if clean; then ok "dump --probs with --carousel: exit 0, no nan"; else notok "dump --probs" && show; fi

# the report's unit table: every unit's gate half-life infinite, binned at >= 128, none
# counted as remembering twice as long as its gate; the sweep's median infinite
run --report --carousel "$lstm" "$text"
clean && grep -q '^256 units have a mean f gate of exactly 1 (an infinite half-life)$' "$work/out" &&
    grep -q '^0 of 256 units remember at least twice' "$work/out" &&
    grep -Eq '^  >= 128 +256 +256 +0$' "$work/out" && grep -Eq 'min inf +median inf +max inf' "$work/out"
st=$?
check $st "report --carousel: 256 infinite half-lives, binned >= 128, the median inf"
[ $st -eq 0 ] || show
# one unit's: +20 takes its f to 1 - 1e-9 or to 1 exactly, as the kernel set rounds; +40
# to 1 exactly with any
run --report --forget-bias 20@0:5 "$lstm" "$text"
clean && grep -A2 "longest-lived units by the gate's" "$work/out" | grep -Eq '^ +5 +> 64 '
st=$?
check $st "report --forget-bias 20@0:5: unit 5 the longest-lived by its gate"
[ $st -eq 0 ] || show
run --report --forget-bias 40@0:5 "$lstm" "$text"
clean && grep -q '^1 unit has a mean f gate of exactly 1' "$work/out" &&
    grep -Eq '^  >= 128 +1 +1 ' "$work/out" && grep -Eq 'max inf$' "$work/out"
st=$?
check $st "report --forget-bias 40@0:5: unit 5 alone infinite"
[ $st -eq 0 ] || show
run --report --forget-bias 20 "$gru" "$text"
clean && grep -q 'units\{0,1\} ha[sv]e\{0,1\} a mean z gate of exactly 1' "$work/out"
st=$?
check $st "the GRU's report with --forget-bias 20: z of exactly 1 said"
[ $st -eq 0 ] || show
run --report --full --carousel "$lstm" "$src/samples/kjv-lstm-800.bin" "$text"
clean && [ "$(grep -c 'units have a mean f gate of exactly 1' "$work/out")" -ge 2 ]
st=$?
check $st "two models, --report --full --carousel: each model's unit table"
[ $st -eq 0 ] || show
run --report --sweep-forget-bias 0:2:1 --windows 8 --carousel "$lstm" "$text"
clean && [ "$(grep -Ec '^ +\+[0-9.]+ +1\.000 +inf +256 ' "$work/out")" -eq 3 ]
st=$?
check $st "the sweep with --carousel: the median unit's half-life inf on each row"
[ $st -eq 0 ] || show

# the screen: C (the carousel), then the report in a child (r) and the unit table (U)
if e2e_terminal; then
    tm -f /dev/null new-session -d -s gt -x 120 -y 40 \
        "'$bin' '$lstm' '$text' 2>'$work/err'; echo EXIT=\$?; sleep 600"
    wait_for "step 0 of 0\.\." >/dev/null && tm send-keys -t gt C && wait_for "carousel@0" >/dev/null &&
        tm send-keys -t gt r && wait_for "1-[0-9]+ of [0-9]+ +↑↓ scroll|without its result" >/dev/null &&
        ! screen | grep -q "without its result" && screen | grep -Eq "min inf +median inf +max inf"
    check $? "screen: C then r shows the report, its median half-life inf"
    tm send-keys -t gt U && wait_for "unit table" >/dev/null &&
        [ "$(screen | grep -Ec '^ +[0-9]+ +[0-9.]+ +1\.0000 +[0-9.]+ +inf +inf +> 64 ')" -ge 20 ]
    st=$?
    check $st "screen: U lists the units with infinite half-lives"
    [ $st -eq 0 ] || screen | sed 's/^/#   | /'
    tm send-keys -t gt q && wait_for "EXIT=0" >/dev/null
    check $? "screen: q exits 0"
    [ ! -s "$work/err" ] || sed 's/^/# err: /' "$work/err"
else
    skip "$e2e_why"
    skip "$e2e_why"
    skip "$e2e_why"
fi
echo "1..$n"
