#!/bin/sh
# Times `gatetui --effect --json` (the tested set and its control sets) and `gatetui
# --carriers --json` against the batched float32 PyTorch computations of the same
# (tests/bench/effect_torch.py: every window's streams, and the 2H + 2 patched runs, as one
# batch), one run each side by side, and prints for each the two times, their ratio, how far
# apart the two answers are, and the floating-point operations of the matrix products per
# second of gatetui's wall time against this machine's float32 FMA peak
# (tests/bench/machine.sh). Run from the top of a configured and built tree (./build.sh); not
# part of make check.
#   tests/bench/bench_effect.sh [MODEL [TEXT]]
# EFFECT ("--effect ' ' --ablate 0:209" by default) and CARRIERS ("--edit 1200:x") give the
# options of each.
set -e
top=$(cd "$(dirname "$0")/../.." && pwd)
model=${1:-$top/samples/kjv-lstm.bin}
text=${2:-$top/samples/kjv-valid.txt}
py=/usr/bin/python3
bin=${GATETUI:-$top/gatetui}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
threads=${GATETUI_THREADS:-$(nproc)}
export OPENBLAS_NUM_THREADS=$threads OMP_NUM_THREADS=$threads
. "$top/tests/bench/machine.sh"
machine_line "$bin"
effect=${EFFECT:-"--effect ' ' --ablate 0:209"}
carriers=${CARRIERS:-"--edit 1200:x"}
for mode in effect carriers; do
    eval "set -- $(if [ $mode = effect ]; then echo "$effect"; else echo "$carriers"; fi)"
    flag=$([ $mode = carriers ] && echo --carriers || echo --json)
    tc=$(GATETUI_THREADS=$threads wall_cpu "$out/c.json" "$bin" "$flag" --json "$@" "$model" "$text")
    tt=$(wall_cpu "$out/t.json" "$py" "$top/tests/bench/effect_torch.py" $mode --threads "$threads" \
        "$@" "$model" "$text")
    "$py" - "$mode" "$out/c.json" "$out/t.json" "$model" "$tc" "$tt" "$threads" "$*" >"$out/line" <<'PY'
import json, sys
sys.path.insert(0, "tests/bench")
from bench_torch import read_safetensors
mode, c, t = sys.argv[1], json.load(open(sys.argv[2])), json.load(open(sys.argv[3]))
tc, cc = map(float, sys.argv[5].split())
tt, ct = map(float, sys.argv[6].split())
ts, _ = read_safetensors(sys.argv[4])
hh = sorted(k for k in ts if "weight_hh_l" in k)
H = ts[hh[0]].shape[1]
G = ts[hh[0]].shape[0] // H
L = len(hh)
V = next(v.shape[0] for k, v in ts.items() if v.dim() == 2 and v.shape[1] == H and "weight_" not in k and "emb" not in k)
rec = 2 * G * H * H * L + 2 * G * H * H * (L - 1)  # a stream's step (layer 0's input a look-up)
out = 2 * V * H
if mode == "effect":
    e = c["effects"][0]
    n = e["inside"]["count"] + e["outside"]["count"]
    streams = 2 + len(e["controls"])
    flops = (rec + out) * streams * n
    worst = max([abs(e["specificity"] - t["effects"][0]["specificity"])] +
                [abs(x["specificity"] - y) for x, y in zip(e["controls"], t["effects"][0]["controls"])])
    what = "%d predictions x %d streams (the text, the tested set, %d controls)" % (n, streams, streams - 2)
    diff = "specificities: largest difference %.2e bits" % worst
else:
    K, s = c["horizon"], c["edit"]["step"]
    flops = rec * (s + 2) + (2 * H + 2) * (rec * K + out * (K + 1))
    alone = {u["unit"]: u["alone"] for u in c["units"]}
    worst = max(abs(alone[j] - t["alone"][j]) for j in range(H))
    what = "the text to step %d, then %d streams x %d steps" % (s, 2 * H + 2, K + 1)
    diff = "each unit's alone: largest difference %.2e nats" % worst
print("%s %s: %s" % (mode, sys.argv[8], what))
print("  gatetui --%-9s %8.3f s   (processor time %.3f s)" % (mode, tc, cc))
print("  PyTorch batched    %8.3f s   (processor time %.3f s)" % (tt, ct))
print("  ratio              %8.2f x   (processor time %.2f x)" % (tt / tc, ct / cc))
print("  %s" % diff)
print("FLOP %d SECS %.6f" % (flops, tc))
PY
    grep -v '^FLOP ' "$out/line"
    set -- $(grep '^FLOP ' "$out/line")
    printf '  '
    peak_share float32 "$2" "$4" "$threads" "$out"
done
printf 'load average after: %s\n' "$(cut -d' ' -f1-3 /proc/loadavg)"
