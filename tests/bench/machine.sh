# shellcheck shell=sh
# Sourced by the benchmarks: machine_line BIN prints the processor, the number of processors,
# the load average and the kernel set BIN runs (GATETUI_KERNEL, or the best this processor
# runs) among those it could (doc/speed.md, "Kernel sets"), so that a figure is never quoted
# without the machine and the code that made it.
machine_line() {
    sets=$("$1" --kernels 2>/dev/null | tr '\n' ' ' | sed 's/ $//')
    set_used=${GATETUI_KERNEL:-${sets%% *}}
    printf '%s; %s processors; load average %s; kernel set %s (this processor runs: %s)\n' \
        "$(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //')" "$(getconf _NPROCESSORS_ONLN)" \
        "$(cut -d' ' -f1-3 /proc/loadavg)" "$set_used" "$sets"
}

# wall_cpu FILE COMMAND... prints the wall and the processor seconds COMMAND took (its own
# and its children's, /usr/bin/time), its standard output in FILE; $out is a scratch folder.
wall_cpu() {
    o=$1
    shift
    s=$(date +%s.%N)
    /usr/bin/time -f '%U %S' -o "$out/cpu" "$@" >"$o"
    e=$(date +%s.%N)
    awk -v s="$s" -v e="$e" -v c="$(cat "$out/cpu")" 'BEGIN { split(c, a, " "); printf "%.3f %.3f\n", e - s, a[1] + a[2] }'
}

# peak_share KIND FLOP SECONDS THREADS DIR prints this machine's FMA peak in KIND (float32 or
# double; tests/bench/probe.c, built into DIR once) on one processor, times THREADS, and the
# share of it that FLOP floating-point operations in SECONDS of wall time reached.
peak_share() {
    [ -x "$5/probe" ] || ${CC:-cc} -O2 "${top:-.}/tests/bench/probe.c" -lpthread -o "$5/probe" || return 1
    p1=$("$5/probe" "$([ "$1" = double ] && echo fma64 || echo fma)" 1)
    awk -v k="$1" -v f="$2" -v s="$3" -v n="$4" -v p="$p1" 'BEGIN {
        printf "%s FMA peak %.1f GFLOP/s on 1 processor, x %d = %.1f: %.2f GFLOP in %.3f s, %.1f GFLOP/s, %.0f%% of it\n",
            k, p, n, p * n, f / 1e9, s, f / s / 1e9, 100 * f / s / 1e9 / (p * n) }'
}

# report_flop JSON [OPTIONS...] prints the matrix products' floating-point operations of the
# report in JSON (gatetui --report --json, run with OPTIONS): 2 G H H per layer up to the
# chosen one and step (and 2 G H H more for W_ih above layer 0), over the windows' positions,
# the perturbation's prefix (s steps per full window) and its R + 1 streams (the original and
# R replacements: V - 1, a word model's 64) of K + 1 steps per full window; the linearized
# curve's, one product per layer and step k = 1..K for each replacement's tangent by the
# step's derivative (2H x (H + D) for an LSTM, H x (H + D) for a GRU or an RNN;
# doc/measures.md); and the readout's, 2 V H per prediction of the loss, with the layers
# above the chosen one run over the windows for it.
report_flop() {
    ${PYTHON:-/usr/bin/python3} - "$@" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
a = sys.argv[2:]
L = int(a[a.index("--window-len") + 1]) if "--window-len" in a else 128
m, p = r["model"], r["perturbation"]
G = {"lstm": 4, "gru": 3, "rnn": 1}[m["arch"]]
H, V = m["hidden"], m["vocab"]
R = min(64, V - 1) if "by_token" in r else V - 1
per_step = sum(2 * G * H * H * (2 if k else 1) for k in range(r["layer"] + 1))
full = r["positions"] // L
rows = 2 * H if m["arch"] == "lstm" else H
lin = sum(2 * rows * H * (2 if k else 1) for k in range(r["layer"] + 1))
above = sum(4 * G * H * H for k in range(r["layer"] + 1, m["layers"]))
loss = (2 * V * H * r["loss"]["count"] + above * r["positions"]) if r.get("loss") else 0
print(per_step * (r["positions"] + full * p["site_offset"] + full * (R + 1) * (p["horizon"] + 1))
      + lin * full * R * p["horizon"] + loss)
PY
}