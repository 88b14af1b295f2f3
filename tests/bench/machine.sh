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
