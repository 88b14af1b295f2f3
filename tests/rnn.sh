#!/bin/sh
# The plain RNN (nn.RNN, tanh and relu) against PyTorch's float64 values (tests/fixtures/rnn,
# made by tests/ref/make_rnn_fixtures.py): every a and h of the dump within
# 1e-5 * max(1, |ref|), including a relu model whose h grows past 1e9; the nonlinearity from
# the metadata or --nonlinearity; the modes an RNN is not read by yet refused.
# Once per kernel set this processor runs, named in each line:
. "$top_srcdir/tests/each_kernel_set.sh"
fix="$top_srcdir/tests/fixtures/rnn"
bin="$top_builddir/gatetui"
cmp="$top_builddir/tests/dumpcmp"
. "$top_srcdir/tests/tap.sh"
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
n=$((n + 1))
if ! "$bin" --lyapunov "$fix/tanh_onehot.safetensors" "$fix/tanh_onehot.txt" >/dev/null 2>"$out/err" &&
    grep -q "not read by --lyapunov yet" "$out/err" && [ "$(wc -l <"$out/err")" -eq 1 ]; then
    echo "ok $n - rnn: --lyapunov refused with one line"
else
    echo "not ok $n - rnn: --lyapunov not refused"
fi
echo "1..$n"
