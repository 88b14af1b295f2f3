#!/bin/sh
# The plain RNN (nn.RNN, tanh and relu) against PyTorch's float64 values (tests/fixtures/rnn,
# made by tests/ref/make_rnn_fixtures.py): every a and h of the dump within
# 1e-5 * max(1, |ref|), including a relu model whose h grows past 1e9; the nonlinearity from
# the metadata or --nonlinearity; the screen's frame; the forget-bias sweep refused.
# Once per kernel set this processor runs, named in each line:
. "$top_srcdir/tests/lib/each_kernel_set.sh"
fix="$top_srcdir/tests/fixtures/rnn"
rep="$top_srcdir/tests/fixtures/report"
bin="$top_builddir/gatetui"
cmp="$top_builddir/tests/lib/dumpcmp"
. "$top_srcdir/tests/lib/tap.sh"
need "$bin" "$cmp"
out=$(mktemp -d) || exit 1
trap 'rm -rf "$out"' EXIT
n=0
while read -r name opts; do
    case "$name" in ''|'#'*) continue ;; esac
    n=$((n + 1))
    # shellcheck disable=SC2086
    if "$bin" --dump $opts "$fix/$name.safetensors" "$fix/$name.txt" >"$out/$name.csv" 2>"$out/err" &&
        "$cmp" "$fix/$name.csv" "$out/$name.csv" 1e-5 >"$out/diff" 2>&1; then
        echo "ok $n - rnn $name: every a and h within 1e-5 * max(1, |ref|) of nn.RNN"
    else
        echo "not ok $n - rnn $name: dump differs from nn.RNN"
        sed 's/^/# /' "$out/err" "$out/diff" | head -20
    fi
done <"$fix/MANIFEST"
# the nonlinearity from torch.save files: a pickled nn.RNN, a checkpoint's entry
for kind in module ckpt; do
    n=$((n + 1))
    if "$bin" --dump "$fix/relu_onehot.$kind.pt" "$fix/relu_onehot.txt" >"$out/t.csv" 2>"$out/err" &&
        "$cmp" "$fix/relu_onehot.csv" "$out/t.csv" 1e-5 >"$out/diff" 2>&1; then
        echo "ok $n - rnn: relu read from the $kind's torch.save file, every value within 1e-5 * max(1, |ref|)"
    else
        echo "not ok $n - rnn: the $kind's torch.save file not read as relu"
        sed 's/^/# /' "$out/err" "$out/diff" | head -10
    fi
done
# the nonlinearity the file leaves unsaid is tanh unless --nonlinearity says relu
n=$((n + 1))
"$bin" --dump "$fix/relu_nobias_cli.safetensors" "$fix/relu_nobias_cli.txt" >"$out/t.csv" 2>/dev/null
if ! "$cmp" "$fix/relu_nobias_cli.csv" "$out/t.csv" 1e-5 >/dev/null 2>&1; then
    echo "ok $n - rnn: without --nonlinearity an unsaid nonlinearity is tanh"
else
    echo "not ok $n - rnn: without --nonlinearity the relu model was read as relu"
fi
n=$((n + 1))
if ! "$bin" --dump --nonlinearity sigmoid "$fix/tanh_onehot.safetensors" "$fix/tanh_onehot.txt" >/dev/null 2>"$out/err" &&
    grep -q "wants 'tanh' or 'relu'" "$out/err"; then
    echo "ok $n - rnn: --nonlinearity sigmoid refused"
else
    echo "not ok $n - rnn: --nonlinearity sigmoid not refused"
fi
# every mode reads an RNN: the screen's frame (a relu model, embedded, two layers) at a step
# and after an edit; the forget-bias sweep refused with one line, as it has no carry gate
for args in "--step 2" "--step 9 --edit 4:a --layer 1"; do
    n=$((n + 1))
    rm -f "$out/frame.txt"
    # shellcheck disable=SC2086
    if "$bin" --export "$out/frame.txt" $args "$fix/relu_emb2.safetensors" "$fix/relu_emb2.txt" \
        2>"$out/err" && grep -q "RNN (relu)" "$out/frame.txt" &&
        grep -q "pre-activation against hidden" "$out/frame.txt" &&
        grep -q "|a|, max [0-9]" "$out/frame.txt" && ! grep -q "tanh |a|" "$out/frame.txt" &&
        { [ "${args#*edit}" = "$args" ] || grep -q "no F" "$out/frame.txt"; }; then
        echo "ok $n - rnn: --export $args draws a relu RNN's frame, |a| against |h| to their largest (after an edit no forget-only curve)"
    else
        echo "not ok $n - rnn: --export $args on a relu RNN"
        sed 's/^/# /' "$out/err" | head -5
    fi
done
n=$((n + 1))
rm -f "$out/frame.txt"
if "$bin" --export "$out/frame.txt" --step 5 "$fix/tanh_onehot.safetensors" "$fix/tanh_onehot.txt" \
    2>/dev/null && grep -q "tanh |a|" "$out/frame.txt"; then
    echo "ok $n - rnn: a tanh RNN's frame plots tanh |a| against |h|"
else
    echo "not ok $n - rnn: a tanh RNN's frame does not plot tanh |a|"
fi
n=$((n + 1))
if ! "$bin" --report --sweep-forget-bias -1:1:1 "$fix/tanh_onehot.safetensors" "$fix/tanh_onehot.txt" \
    >/dev/null 2>"$out/err" && grep -q "plain RNN, with no carry gate" "$out/err" &&
    [ "$(wc -l <"$out/err")" -eq 1 ]; then
    echo "ok $n - rnn: --sweep-forget-bias refused with one line"
else
    echo "not ok $n - rnn: --sweep-forget-bias not refused"
fi
# relu is unbounded: relu_grows's h passes float32's largest value after 266 steps of its
# text repeated; the dump, the report and the finding modes say so in one line (exit 2),
# and no value printed is inf or nan. The report, whose windows of 400 take the readout's
# loss along, finds the readout's logits past float32 a step before (266)
for i in 1 2 3 4 5 6 7; do cat "$fix/relu_grows.txt"; done >"$out/long.txt"
for mode in "--dump" "--report --window-len 400" "--units a"; do
    n=$((n + 1))
    said="relu RNN's h overflowed float32 at step 267"
    [ "$mode" = "--dump" ] || [ "$mode" = "--units a" ] ||
        said="the model's readout overflows float32 at step 266"
    # shellcheck disable=SC2086
    "$bin" $mode "$fix/relu_grows.safetensors" "$out/long.txt" >"$out/o" 2>"$out/err"
    rc=$?
    if [ $rc -eq 2 ] && [ "$(grep -c "$said" "$out/err")" -eq 1 ] &&
        ! grep -qi 'inf\|nan' "$out/o"; then
        echo "ok $n - rnn: $mode on a relu RNN whose h overflows: one line, exit 2, no inf"
    else
        echo "not ok $n - rnn: $mode on a relu RNN whose h overflows: exit $rc"
        sed 's/^/# /' "$out/err" | head -5
    fi
done
# the header names the nonlinearity, and says when it is assumed
for case in "rnnrelu:RNN (tanh, assumed: --nonlinearity)" "rnnrelu --nonlinearity relu:RNN (relu)" \
    "rnn1:RNN (tanh)"; do
    n=$((n + 1))
    args=${case%%:*} want=${case#*:}
    set -- $args
    m=$1
    shift
    if "$bin" --report --windows 1 --window-len 32 "$@" "$rep/$m.safetensors" "$rep/text.txt" \
        2>/dev/null | head -1 | grep -qF "$m.safetensors: $want, "; then
        echo "ok $n - rnn: the report's header says $want"
    else
        echo "not ok $n - rnn: the report's header does not say $want"
    fi
done
# and the JSON says it too: "nonlinearity" and whether it was assumed
for case in "rnnrelu:\"nonlinearity\": \"tanh\", \"nonlinearity_assumed\": true" \
    "rnnrelu --nonlinearity relu:\"nonlinearity\": \"relu\", \"nonlinearity_assumed\": false" \
    "rnn1:\"nonlinearity\": \"tanh\", \"nonlinearity_assumed\": false"; do
    n=$((n + 1))
    args=${case%%:*} want=${case#*:}
    set -- $args
    m=$1
    shift
    if "$bin" --report --json --windows 1 --window-len 32 "$@" "$rep/$m.safetensors" \
        "$rep/text.txt" 2>/dev/null | tr -d '\n' | sed 's/  */ /g' | grep -qF "$want"; then
        echo "ok $n - rnn: the report's JSON says $want"
    else
        echo "not ok $n - rnn: the report's JSON does not say $want"
    fi
done
echo "1..$n"
