#!/bin/sh
# The exporter (tools/gatetui_export.py): a clear line when the Python running it lacks
# numpy or PyTorch; vocabulary files in their JSON forms; an embedding found by its name
# (wte) or its shape; a checkpoint holding Python floats and numpy scalars (which the safe
# loader of older PyTorch refuses) read without --trust-pickle, while a whole module is
# refused naming the classes it would call; cells gatetui refuses (a LayerNorm, peepholes)
# refused, never written as a plain LSTM; a WeightDrop's weight_hh_l0_raw. What needs numpy, or PyTorch, is skipped where
# no python3 has it (the continuous integration has neither).
src="${top_srcdir:-.}"
. "$src/tests/lib/tap.sh"
exp="$src/tools/gatetui_export.py"
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT INT TERM
py=""
for p in python3 /usr/bin/python3; do
    if "$p" -c 'import numpy' 2>/dev/null; then py=$p; break; fi
done
torch=""
[ -n "$py" ] && "$py" -c 'import torch' 2>/dev/null && torch=1

# without numpy (-S hides the site packages where it lives): one line, exit 1
python3 -S "$exp" "$work/in.pt" "$work/out.safetensors" 2>"$work/err"
st=$?
[ $st -eq 1 ] && [ "$(wc -l <"$work/err")" -eq 1 ] &&
    grep -q "needs numpy, which .*python3.* (Python [0-9.]*) cannot import" "$work/err"
check $? "without numpy: one line naming the module and the interpreter (exit $st)"

if [ -z "$py" ]; then
    for what in "without PyTorch" "JSON vocabulary forms" "an embedding by name" \
        "an embedding by shape" "a layer-normalised cell" "a cell with peepholes" \
        "a WeightDrop's raw weights" "special tokens in a vocabulary file"; do
        skip "no python3 here has numpy: $what"
    done
else
    # a tiny LSTM as safetensors: an embedding named TABLE, a readout lm_head
    mk() {
        "$py" - "$src/tools" "$1" "$2" <<'PY' || bail "could not write $2"
import sys
sys.path.insert(0, sys.argv[1])
import numpy as np
from gatetui_export import save_file
r = np.random.default_rng(3)
f = lambda *s: r.normal(0, 0.5, s).astype(np.float32)
save_file({sys.argv[2]: f(7, 3), "rnn.weight_ih_l0": f(16, 3), "rnn.weight_hh_l0": f(16, 4),
           "rnn.bias_ih_l0": f(16), "rnn.bias_hh_l0": f(16), "lm_head.weight": f(7, 4),
           "lm_head.bias": f(7)}, sys.argv[3])
PY
    }
    vocab_of() {
        "$py" -c 'import sys; sys.path.insert(0, sys.argv[1]); import gatetui_export as g; print(g.load_file(sys.argv[2])[1]["vocab"])' "$src/tools" "$1"
    }
    mk wte.weight "$work/wte.safetensors"
    mk table "$work/table.safetensors"
    mkdir "$work/notorch" "$work/notorch/torch"
    echo 'raise ImportError("No module named torch")' >"$work/notorch/torch/__init__.py"
    : >"$work/in.pt"
    PYTHONPATH="$work/notorch" "$py" "$exp" --vocab abcdefg "$work/in.pt" "$work/o.safetensors" 2>"$work/err"
    st=$?
    [ $st -eq 1 ] && grep -q "needs PyTorch to read a torch.save file, which .* cannot import" "$work/err"
    check $? "without PyTorch, a .pt file: one line naming the module and the interpreter (exit $st)"
    bad=""
    for form in '{"b": 0, "a": 1, "c": 2, "d": 3, "e": 4, "f": 5, "g": 6}' \
        '{"0": "b", "1": "a", "2": "c", "3": "d", "4": "e", "5": "f", "6": "g"}' \
        '{"itos": ["b", "a", "c", "d", "e", "f", "g"]}' \
        '{"stoi": {"b": 0, "a": 1, "c": 2, "d": 3, "e": 4, "f": 5, "g": 6}}' \
        '{"itos": ["b", "a", "c", "d", "e", "f", "g"], "stoi": {"b": 0, "a": 1, "c": 2, "d": 3, "e": 4, "f": 5, "g": 6}}' \
        '["b", "a", "c", "d", "e", "f", "g"]'; do
        printf '%s\n' "$form" >"$work/v.json"
        rm -f "$work/o.safetensors"
        "$py" "$exp" --vocab-file "$work/v.json" "$work/wte.safetensors" "$work/o.safetensors" >/dev/null 2>"$work/err" &&
            [ "$(vocab_of "$work/o.safetensors")" = bacdefg ] || bad="$bad $form;"
    done
    [ -z "$bad" ]
    check $? "a JSON vocabulary as a list, token -> index, index -> token, under itos, stoi or both: bacdefg${bad:+ (wrong:$bad)}"
    rm -f "$work/o.safetensors"
    "$py" "$exp" --vocab abcdefg "$work/wte.safetensors" "$work/o.safetensors" >"$work/out" 2>"$work/err"
    grep -q "V = 7, embedding input, readout lm_head.weight" "$work/out"
    check $? "an embedding named wte.weight: V = 7 from it, not the input width 3"
    rm -f "$work/o.safetensors"
    "$py" "$exp" --vocab abcdefg "$work/table.safetensors" "$work/o.safetensors" >"$work/out" 2>"$work/err"
    grep -q "V = 7, embedding input, readout lm_head.weight" "$work/out"
    check $? "an embedding named table: found by its shape [7, 3], as many rows as the readout's"
    # cells gatetui refuses (a LayerNorm or peepholes under the cell's prefix): refused here
    # too, no file written; awd-lstm-lm's weight_hh_l0_raw written as weight_hh_l0
    "$py" - "$src/tools" "$work" <<'PY' || bail "could not write the cells"
import sys
sys.path.insert(0, sys.argv[1])
import numpy as np
from gatetui_export import save_file
r = np.random.default_rng(4)
f = lambda *s: r.normal(0, 0.5, s).astype(np.float32)
base = {"emb.weight": f(7, 3), "fc.weight": f(7, 4), "fc.bias": f(7)}
save_file(dict(base, **{"cell.weight_ih": f(16, 3), "cell.weight_hh": f(16, 4),
                        "cell.layernorm_i.weight": f(16), "cell.layernorm_i.bias": f(16),
                        "cell.layernorm_c.weight": f(4)}), sys.argv[2] + "/ln.safetensors")
save_file(dict(base, **{"rnn.weight_ih_l0": f(16, 3), "rnn.weight_hh_l0": f(16, 4),
                        "rnn.w_ci": f(4), "rnn.w_cf": f(4)}), sys.argv[2] + "/peep.safetensors")
save_file(dict(base, **{"rnns.0.module.weight_ih_l0": f(16, 3),
                        "rnns.0.module.weight_hh_l0_raw": f(16, 4)}), sys.argv[2] + "/raw.safetensors")
PY
    for c in "ln:a layer-normalised cell is not an nn.LSTM" "peep:a cell with peepholes is not an nn.LSTM"; do
        rm -f "$work/o.safetensors"
        "$py" "$exp" --vocab abcdefg "$work/${c%%:*}.safetensors" "$work/o.safetensors" >/dev/null 2>"$work/err"
        st=$?
        [ $st -eq 2 ] && grep -q "${c#*:}" "$work/err" && [ ! -e "$work/o.safetensors" ]
        check $? "${c%%:*}: refused as gatetui refuses it, no file written (exit $st): $(cat "$work/err")"
    done
    rm -f "$work/o.safetensors"
    "$py" "$exp" --vocab abcdefg "$work/raw.safetensors" "$work/o.safetensors" >/dev/null 2>"$work/err" &&
        "$py" -c 'import sys; sys.path.insert(0, sys.argv[1]); import gatetui_export as g; import numpy as np; t, _ = g.load_file(sys.argv[2]); s, _ = g.load_file(sys.argv[3]); sys.exit(not np.array_equal(t["rnns.0.module.weight_hh_l0"], s["rnns.0.module.weight_hh_l0_raw"]))' "$src/tools" "$work/o.safetensors" "$work/raw.safetensors"
    check $? "a WeightDrop's weight_hh_l0_raw written as weight_hh_l0"
    printf '["<pad>", "a", "b", "c", "d", "e", "f"]\n' >"$work/v.json"
    rm -f "$work/o.safetensors"
    "$py" "$exp" --vocab-file "$work/v.json" "$work/wte.safetensors" "$work/o.safetensors" 2>"$work/err"
    st=$?
    [ $st -eq 2 ] && grep -q "1 of its 7 tokens are not one character ('<pad>').*gatetui --vocab" "$work/err" &&
        [ ! -e "$work/o.safetensors" ]
    check $? "a vocabulary file with <pad>: refused, pointing to gatetui --vocab, no file written (exit $st)"
fi

if [ -z "$torch" ]; then
    skip "no python3 here has PyTorch: a checkpoint with Python floats"
    skip "no python3 here has PyTorch: a whole module"
else
    "$py" - "$work" <<'PY' || bail "could not write the checkpoints"
import sys
import numpy as np
import torch
torch.manual_seed(0)
class CharLSTM(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = torch.nn.Embedding(5, 3)
        self.rnn = torch.nn.LSTM(3, 4)
        self.fc = torch.nn.Linear(4, 5)
m = CharLSTM()
torch.save({"state_dict": m.state_dict(), "lr": 0.01, "epoch": 3, "vocab": "abcde",
            "best": np.float64(1.5)}, sys.argv[1] + "/floats.pt")
torch.save(m, sys.argv[1] + "/whole.pt")
PY
    rm -f "$work/o.safetensors"
    "$py" "$exp" "$work/floats.pt" "$work/o.safetensors" >"$work/out" 2>"$work/err" &&
        [ "$(vocab_of "$work/o.safetensors")" = abcde ]
    check $? "a checkpoint with a Python float and a numpy scalar: read without --trust-pickle"
    rm -f "$work/o.safetensors"
    "$py" "$exp" "$work/whole.pt" "$work/o.safetensors" 2>"$work/err"
    st=$?
    [ $st -eq 2 ] && grep -q "names __main__.CharLSTM, torch.nn.modules.*which loading would call.*--trust-pickle" "$work/err" &&
        [ ! -e "$work/o.safetensors" ]
    check $? "a whole module: refused, naming the classes loading would call (exit $st)"
fi
echo "1..$n"
