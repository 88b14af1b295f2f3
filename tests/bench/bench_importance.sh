#!/bin/sh
# Times `gatetui --importance --json` against the batched float32 PyTorch computation of the
# same (tests/bench/importance_torch.py), one run each, and prints the two times, their
# ratio, how far apart the two sets of increases are, the floating-point operations of the
# matrix products per second of gatetui's wall time, and this machine's float32 FMA peak
# (tests/bench/probe.c) on one and on every processor. Run from the top of a configured and
# built tree (./build.sh); not part of make check.
#   tests/bench/bench_importance.sh [MODEL [TEXT [--layer N --windows N ...]]]
set -e
top=$(cd "$(dirname "$0")/../.." && pwd)
model=${1:-$top/samples/kjv-lstm.bin}
text=${2:-$top/samples/kjv-valid.txt}
[ $# -ge 2 ] && shift 2 || set --
py=/usr/bin/python3
bin=${GATETUI:-$top/gatetui}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
${CC:-cc} -O2 "$top/tests/bench/probe.c" -lpthread -o "$out/probe"
threads=${GATETUI_THREADS:-$(nproc)}
export OPENBLAS_NUM_THREADS=$threads OMP_NUM_THREADS=$threads
. "$top/tests/bench/machine.sh"
machine_line "$bin"
set -- "$@"
tc=$(GATETUI_THREADS=$threads wall_cpu "$out/c.json" "$bin" --importance --json "$@" "$model" "$text")
tt=$(wall_cpu "$out/t.json" "$py" "$top/tests/bench/importance_torch.py" --threads "$threads" "$@" "$model" "$text")
"$py" - "$out/c.json" "$out/t.json" "$model" "$tc" "$tt" "$threads" "$("$out/probe" fma 1)" "$("$out/probe" fma "$threads")" <<'PY'
import json, sys
c, t = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
tc, cc = map(float, sys.argv[4].split())
tt, ct = map(float, sys.argv[5].split())
threads, p1, pn = int(sys.argv[6]), float(sys.argv[7]), float(sys.argv[8])
dc = {u["unit"]: u["delta"] for u in c["units"]}
dt = {u["unit"]: u["delta"] for u in t["units"]}
worst = max(abs(dc[j] - dt[j]) for j in dc)
top_c = [u["unit"] for u in c["units"][:10]]
top_t = [u["unit"] for u in t["units"][:10]]
# the products: per stream and step, 2 G H H (W_hh), 2 G H H more per layer above 0 (W_ih),
# 2 V H (the readout); streams: the text and its H ablations, over the predictions
sys.path.insert(0, "tests/bench")
from bench_torch import read_safetensors
ts, _ = read_safetensors(sys.argv[3])
hh = sorted(k for k in ts if "weight_hh_l" in k)
H = ts[hh[0]].shape[1]
G = ts[hh[0]].shape[0] // H
L = len(hh)
V = c["loss"]["count"] and len(dc) and None
V = next(v.shape[0] for k, v in ts.items() if v.dim() == 2 and v.shape[1] == H and "weight_" not in k and "emb" not in k)
per = 2 * G * H * H * L + 2 * G * H * H * (L - 1) + 2 * V * H
flops = per * (H + 1) * c["loss"]["count"]
print("model %s, H %d, %d windows of %d: %d predictions x %d streams; %d threads, one run each"
      % (sys.argv[3].split("/")[-1], H, c["windows"], c["window_len"], c["loss"]["count"], H + 1, threads))
print("gatetui --importance      %8.3f s   (processor time %.3f s)" % (tc, cc))
print("PyTorch batched (float32) %8.3f s   (processor time %.3f s)" % (tt, ct))
print("ratio                     %8.2f x" % (tt / tc))
print("increases: largest difference %.2e nats; the ten largest %s" % (worst, "the same units" if top_c == top_t else "differ: %s / %s" % (top_c, top_t)))
print("matrix products           %8.2f GFLOP: %.1f GFLOP/s over gatetui's wall time, %.1f over its processor time"
      % (flops / 1e9, flops / tc / 1e9, flops / cc / 1e9))
print("float32 FMA peak          %8.1f GFLOP/s on 1 processor, %.1f on %d at once: gatetui at %.0f%% of %d x the one (%.0f%% of one processor's per processor second)"
      % (p1, pn, threads, 100 * flops / tc / 1e9 / (p1 * threads), threads, 100 * flops / cc / 1e9 / p1))
PY
printf 'load average after: %s\n' "$(cut -d' ' -f1-3 /proc/loadavg)"
