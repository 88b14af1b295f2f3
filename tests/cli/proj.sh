#!/bin/sh
# The LSTM with projections (nn.LSTM(proj_size=P)) against PyTorch's float64 values
# (tests/fixtures/proj, made by tests/ref/make_proj_fixtures.py): every gate, c and m (the
# dump's h) within 1e-5 * max(1, |ref|), and the readout's probabilities of the projected h,
# from safetensors and both torch.save forms; the header's kind and PyTorch's parameter
# count; the screen's frame; the report's JSON; the dynamics on (c, m).
# Once per kernel set this processor runs, named in each line:
. "$top_srcdir/tests/lib/each_kernel_set.sh"
fix="$top_srcdir/tests/fixtures/proj"
bin="$top_builddir/gatetui"
cmp="$top_builddir/tests/lib/dumpcmp"
. "$top_srcdir/tests/lib/tap.sh"
need "$bin" "$cmp"
out=$(mktemp -d) || exit 1
trap 'rm -rf "$out"' EXIT
while read -r name P params; do
    case "$name" in ''|'#'*) continue ;; esac
    for kind in safetensors ckpt.pt module.pt; do
        if "$bin" --dump "$fix/$name.$kind" "$fix/$name.txt" >"$out/$name.csv" 2>"$out/err" &&
            "$cmp" "$fix/$name.csv" "$out/$name.csv" 1e-5 >"$out/diff" 2>&1; then
            ok "proj $name.$kind: every i, f, g, o, c and m within 1e-5 * max(1, |ref|) of nn.LSTM(proj_size=$P)"
        else
            notok "proj $name.$kind: dump differs from nn.LSTM(proj_size=$P)"
            sed 's/^/# /' "$out/err" "$out/diff" | head -20
        fi
    done
    if "$bin" --dump --probs "$fix/$name.safetensors" "$fix/$name.txt" >"$out/p.csv" 2>"$out/err" &&
        "$cmp" "$fix/$name.probs.csv" "$out/p.csv" 1e-5 1e-6 >"$out/diff" 2>&1; then
        ok "proj $name: the readout of the projected h, every probability as PyTorch's"
    else
        notok "proj $name: the readout's probabilities differ from PyTorch's"
        sed 's/^/# /' "$out/err" "$out/diff" | head -20
    fi
    params=$(echo "$params" | sed -e :a -e 's/\([0-9]\)\([0-9]\{3\}\)\($\|,\)/\1,\2\3/' -e ta)
    if "$bin" --report --windows 1 --window-len 32 "$fix/$name.safetensors" "$fix/$name.txt" \
        2>/dev/null | head -1 | grep -q "LSTM (proj $P), .*, $params parameters$"; then
        ok "proj $name: the report's header says LSTM (proj $P) and PyTorch's $params parameters"
    else
        notok "proj $name: the report's header is not LSTM (proj $P) with $params parameters"
    fi
done <"$fix/MANIFEST"
f="$fix/proj_emb2"
if "$bin" --report --json --windows 1 --window-len 32 "$f.safetensors" "$f.txt" 2>/dev/null |
    tr -d '\n' | sed 's/  */ /g' | grep -qF '"params": 1191, "proj": 4 }'; then
    ok "proj: the report's JSON says \"proj\": 4"
else
    notok "proj: the report's JSON does not say \"proj\": 4"
fi
# the screen's frame at a step of layer 1 after an edit: the kind in the header, H rows
if "$bin" --export "$out/frame.txt" --step 9 --edit 4:a --layer 1 "$f.safetensors" "$f.txt" \
    2>"$out/err" && grep -q "LSTM (proj 4), 2 layers, H 10" "$out/frame.txt" &&
    grep -q "units 0-9 of 10" "$out/frame.txt"; then
    ok "proj: --export draws the frame of layer 1 after an edit, its 10 cells as rows"
else
    notok "proj: --export on a projected LSTM"
    sed 's/^/# /' "$out/err" | head -5
fi
# the dynamics run on (c, m): 2H numbers per layer
for mode in "--lyapunov --modes 20 --warmup 10" "--spectrum --step 10" "--fixed-points e"; do
    # shellcheck disable=SC2086
    if "$bin" $mode --layer 1 "$f.safetensors" "$f.txt" >"$out/o" 2>"$out/err" &&
        grep -q "layer 1" "$out/o" && ! grep -qi "nan\|inf" "$out/o"; then
        ok "proj: $mode on layer 1"
    else
        notok "proj: $mode on layer 1"
        sed 's/^/# /' "$out/err" | head -5
    fi
done
tr -d ';' <"$f.txt" >"$out/text.txt"  # every character in the vocabulary: no warning
refused "proj: --modes 21 above the state's 2H = 20 numbers" \
    "$bin" --lyapunov --modes 21 "$f.safetensors" "$out/text.txt"
echo "1..$n"
