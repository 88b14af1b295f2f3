#!/bin/sh
# Installs what gatetui needs to build and test (Debian/Ubuntu, when missing; python3 makes
# some test files, locales a locale with a decimal comma for one), then builds it. OpenBLAS
# is installed beside the reference BLAS that libblas-dev brings: Debian's alternatives then
# load it for libblas.so.3 and liblapack.so.3,
# and the eigenvalues, the probe and the spectrum run several times faster on it
# (doc/architecture.md, "Libraries loaded when used").
# Extra arguments go to ./configure (e.g. --enable-sanitizers).
set -e
cd "$(dirname "$0")"
need="autoconf automake pkg-config make gcc libjansson-dev zlib1g-dev libncurses-dev libtermkey-dev liblapacke-dev libblas-dev libopenblas0-pthread libarpack2-dev libcairo2-dev fonts-dejavu-core tmux python3 poppler-utils locales"
missing=""
for p in $need; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
    echo "build.sh: installing:$missing"
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    # shellcheck disable=SC2086
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq $missing >/dev/null
fi
[ -x configure ] && [ configure -nt configure.ac ] && [ configure -nt Makefile.am ] || autoreconf -fi
[ -f Makefile ] && [ $# -eq 0 ] || ./configure -q "$@"
make -j"$(nproc 2>/dev/null || echo 2)"
