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
