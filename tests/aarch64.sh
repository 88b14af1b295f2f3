#!/bin/sh
# Builds gatetui for aarch64 (ARM: Graviton, Apple silicon under Linux, a Raspberry Pi) with
# Debian's cross compiler and runs the engine's tests there under qemu-user: the unit tests
# of the model, the kernels (there the plain C set alone, vectorised by the compiler for
# NEON), the statistics, the perturbation, the Jacobian, the dynamics, the layout and the
# screen's surface, and every fixture's dump against PyTorch (tests/cli/dump.sh), malformed
# files (tests/cli/malformed.sh) and the whole sample runs against float64 (tests/samples/t_longrun).
# tests/unit/t_trace, the background pass's threads, is left out: under the emulator it takes
# ten minutes and computes nothing the others do not. Prints the automake summary.
# Debian 12 on x86-64, as root or with sudo; installs what it needs (the arm64 libraries
# through multiarch). Run from the top of the tree; not part of make check.
#   tests/aarch64.sh [DIR]     (DIR: where to build, a new temporary directory by default)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:-$(mktemp -d)}
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
libs="libjansson-dev:arm64 zlib1g-dev:arm64 libncurses-dev:arm64 libtermkey-dev:arm64 liblapacke-dev:arm64 libblas-dev:arm64 libarpack2-dev:arm64 libcairo2-dev:arm64"
need=""
for p in gcc-aarch64-linux-gnu qemu-user $libs; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || need="$need $p"
done
if [ -n "$need" ]; then
    echo "aarch64.sh: installing:$need"
    dpkg --print-foreign-architectures | grep -qx arm64 || $sudo dpkg --add-architecture arm64
    $sudo apt-get update -qq
    # shellcheck disable=SC2086
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-remove $need >/dev/null
fi
git clone -q "$top" "$dir/src"
cd "$dir/src"
autoreconf -fi >/dev/null 2>&1
PKG_CONFIG_LIBDIR=/usr/lib/aarch64-linux-gnu/pkgconfig:/usr/share/pkgconfig \
    ./configure -q --host=aarch64-linux-gnu 2>/dev/null
make -j"$(nproc)" >/dev/null 2>&1
make -j"$(nproc)" check TESTS= >/dev/null 2>&1 # the test programs, built, not run
# the programs the scripts run, each through the emulator
for p in gatetui tests/lib/dumpcmp; do
    mv "$p" "$p.aarch64"
    printf '#!/bin/sh\nexec qemu-aarch64 "$0.aarch64" "$@"\n' >"$p"
    chmod +x "$p"
done
QEMU_LD_PREFIX=/ # the arm64 libraries of multiarch, under /usr/lib/aarch64-linux-gnu
export QEMU_LD_PREFIX
file gatetui.aarch64 | sed 's/,.*//'
echo "kernel sets: $(./gatetui --kernels | tr '\n' ' ')"
make -j"$(nproc)" check LOG_COMPILER=qemu-aarch64 TESTS="tests/unit/t_model tests/unit/t_kernels \
    tests/unit/t_pickle tests/unit/t_stats tests/unit/t_perturb tests/unit/t_jacobian tests/unit/t_dynamics \
    tests/unit/t_draw_layout tests/unit/t_draw_surface tests/cli/dump.sh tests/cli/malformed.sh tests/samples/t_longrun" \
    2>&1 | grep -E '^(FAIL|ERROR|XPASS)|^# [A-Z]+:' || true
