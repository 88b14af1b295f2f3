#!/bin/sh
# The shipped samples at full length (all 43,235 steps of kjv-valid.txt, 338 windows) as the
# files users have (tests/ref/convert_samples.py, where a python3 with PyTorch is found;
# skipped elsewhere): kjv-lstm as a state_dict with its characters and a config added, as a
# TorchScript module and as awd-lstm-lm's pickled [model, criterion, optimizer]; kjv-gru as
# a TorchScript module; kjv-rnn as min-char-rnn's float64 arrays in np.savez and in a
# torch.save dict. `--report --json` of each against the sample's own (tests/lib/reportcmp):
# the same float32 weights give the same numbers, within 1e-9 (the sample's own report
# differs from run to run in its twelfth digit, sums taken across threads in another
# order); min-char-rnn's, whose embedding is folded into Wxh in float64, within 1e-5. The
# parameter counts aside.
src="${top_srcdir:-.}"
. "$src/tests/lib/tap.sh"
bin=$(cd "${top_builddir:-.}" && pwd)/gatetui
cmp="${top_builddir:-.}/tests/lib/reportcmp"
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT INT TERM
py=""
for p in /usr/bin/python3 python3; do
    if "$p" -c 'import torch, numpy' 2>/dev/null; then py=$p; break; fi
done
text="$src/samples/kjv-valid.txt"
cases="lstm_sd.pt:kjv-lstm:1e-9 lstm_script.pt:kjv-lstm:1e-9 lstm_awd.pt:kjv-lstm:1e-9
gru_script.pt:kjv-gru:1e-9 rnn_minchar.npz:kjv-rnn:1e-5 rnn_minchar.pt:kjv-rnn:1e-5"
if [ -z "$py" ]; then
    for c in $cases; do skip "no python3 here has PyTorch: ${c%%:*}"; done
    echo "1..$n"
    exit 0
fi
"$py" "$src/tests/ref/convert_samples.py" "$work" || bail "could not convert the samples"
report() { # model json [options]
    m=$1 j=$2
    shift 2
    "$bin" --report --json --windows 338 --horizon 8 "$@" "$m" "$text" >"$j" 2>"$work/err"
}
for s in kjv-lstm kjv-gru kjv-rnn; do
    report "$src/samples/$s.bin" "$work/$s.json" || bail "$s: $(cat "$work/err")"
done
for c in $cases; do
    file=${c%%:*} rest=${c#*:}
    s=${rest%%:*} tol=${rest#*:}
    opts=""
    [ "$file" = lstm_awd.pt ] && opts="--vocab $work/lstm_awd.vocab.json"
    # the parameters aside: min-char-rnn's Wxh holds the embedding folded in
    # shellcheck disable=SC2086
    report "$work/$file" "$work/$file.json" $opts &&
        sed -i 's/"params": [0-9]*/"params": 0/' "$work/$file.json" &&
        sed 's/"params": [0-9]*/"params": 0/' "$work/$s.json" >"$work/want.json" &&
        "$cmp" "$work/want.json" "$work/$file.json" "$tol" >"$work/diff" 2>&1
    st=$?
    [ $st -ne 0 ] && sed 's/^/# /' "$work/err" "$work/diff" | head -8
    check $st "$file: the report over the whole text equal to $s.bin's (within $tol): $(tail -1 "$work/diff")"
done
echo "1..$n"
