#!/bin/sh
# Reading a 100 MB torch.save file: gatetui (the model loaded, a two-character text, no
# screen) against torch.load in PyTorch, median wall time and peak memory of REPS runs each,
# beside the size of the tensors. Run from the top of the build tree; not part of make check.
#   tests/bench/bench_torchload.sh [REPS] [FORMAT]     FORMAT: zip (default) or legacy
# The file (an LSTM of 3 layers, H = D = 1024, 100.7 MB of float32 tensors, in a training
# checkpoint with its vocabulary) is made once by PyTorch in $TMPDIR.
set -e
reps=${1:-5}
format=${2:-zip}
top=$(dirname "$0")/../..
. "$top/tests/bench/machine.sh"
machine_line "$top/gatetui"
py=${PYTHON:-/usr/bin/python3}
dir=${TMPDIR:-/tmp}/gatetui-bench-torchload
mkdir -p "$dir"
model="$dir/big-$format.pt"
text="$dir/text.txt"
printf 'ab' >"$text"
if [ ! -f "$model" ]; then
    "$py" - "$model" "$format" <<'PY'
import sys, torch
from torch import nn
torch.manual_seed(0)
V, D, H, L = 96, 1024, 1024, 3
chars = [chr(32 + i) for i in range(V)]
net = nn.ModuleDict({"embedding": nn.Embedding(V, D), "lstm": nn.LSTM(D, H, num_layers=L),
                     "fc": nn.Linear(H, V)})
torch.save({"epoch": 1, "model_state_dict": net.state_dict(), "loss": 1.5, "chars": chars},
           sys.argv[1], _use_new_zipfile_serialization=sys.argv[2] == "zip")
PY
fi
bytes=$("$py" -c "
import sys, torch
sd = torch.load(sys.argv[1])['model_state_dict']
print(sum(t.numel() * t.element_size() for t in sd.values()))" "$model")

median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
: >"$dir/c.times"
: >"$dir/c.rss"
i=0
while [ $i -lt "$reps" ]; do
    /usr/bin/time -f "%e %M" -o "$dir/t" "$top/gatetui" --dump --to 0 "$model" "$text" >/dev/null
    cut -d' ' -f1 "$dir/t" >>"$dir/c.times"
    cut -d' ' -f2 "$dir/t" >>"$dir/c.rss"
    i=$((i + 1))
done
"$py" - "$model" "$reps" >"$dir/py.out" <<'PY'
import resource, sys, time, torch
times, peaks = [], []
for _ in range(int(sys.argv[2])):
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    t = time.perf_counter()
    obj = torch.load(sys.argv[1], map_location="cpu")
    times.append(time.perf_counter() - t)
    peaks.append(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before)
    del obj
times.sort()
print(times[len(times) // 2], max(peaks))
PY
ct=$(median <"$dir/c.times")
cm=$(median <"$dir/c.rss")
read -r pt pm <"$dir/py.out"
awk -v b="$bytes" -v ct="$ct" -v cm="$cm" -v pt="$pt" -v pm="$pm" -v f="$format" 'BEGIN {
    mb = b / 1048576
    printf "torch.save file (%s format), tensors %.1f MB\n", f, mb
    printf "gatetui, whole process:      %6.3f s   peak RSS %7.1f MB (%.2f x the tensors)\n", ct, cm / 1024, cm / 1024 / mb
    printf "torch.load, the call alone:  %6.3f s   peak RSS growth %5.1f MB (%.2f x; first call)\n", pt, pm / 1024, pm / 1024 / mb
    printf "time ratio gatetui / torch.load: %.2f\n", ct / pt
}'
