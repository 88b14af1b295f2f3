#!/bin/sh
# Builds the libFuzzer targets with clang (ASan + UBSan) and runs them on their corpora:
# fuzz_model (any bytes as a model file through the whole loader, then a text through the
# model) and fuzz_torch (any bytes as a torch.save file or a bare pickle, read in memory by
# the zip reader and the pickle machine). TARGET is model, torch or both (the default:
# SECONDS, default 60, shared between them). New inputs that libFuzzer finds go to the
# corpus folders under WORKDIR (default: a temporary folder, so the committed corpora are
# unchanged); a fault leaves a crash-* file there.
# Usage: tests/fuzz/run.sh [SECONDS] [WORKDIR] [TARGET]
set -e
top=$(cd "$(dirname "$0")/../.." && pwd)
secs=${1:-60}
work=${2:-$(mktemp -d)}
target=${3:-both}
cc=${CLANG:-clang}
command -v "$cc" >/dev/null || cc=$(ls /usr/bin/clang-1[0-9] 2>/dev/null | tail -1)
[ -n "$cc" ] || { echo "fuzz: clang not found"; exit 77; }
[ -f "$top/config.h" ] || { echo "fuzz: run ./configure first"; exit 1; }
mkdir -p "$work"
# the engine library's sources: the layers below the screen (doc/architecture.md)
srcs=$(ls "$top"/src/base/*.c "$top"/src/compute/*.c "$top"/src/format/*.c "$top"/src/engine/*.c "$top"/src/analysis/*.c)

build() { # NAME
    # one version of each function (GT_NO_CLONES, src/compute/x86.h): clang calls a function
    # with target_clones from another file by a name it never defines; the zip entries'
    # CRC-32 not checked (FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION), so that changed bytes
    # reach the readers behind it
    # shellcheck disable=SC2086
    "$cc" -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -DGT_NO_CLONES \
        -DFUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION \
        -I"$top" -I"$top/include" -I"$top/src" $srcs "$top/tests/fuzz/fuzz_$1.c" \
        $(pkg-config --cflags --libs jansson zlib lapacke blas arpack) -lm -lpthread -o "$work/fuzz_$1"
}

run() { # NAME SECONDS CORPUS-SOURCES...
    name=$1 t=$2
    shift 2
    mkdir -p "$work/corpus_$name"
    for src in "$@"; do
        cp "$top"/$src "$work/corpus_$name/" 2>/dev/null || true
    done
    (cd "$work" && "./fuzz_$name" -max_total_time="$t" -max_len=65536 -rss_limit_mb=2048 \
        -timeout=10 -artifact_prefix="$work/" -print_final_stats=1 "corpus_$name")
}

case $target in
both) half=$(((secs + 1) / 2)) ;;
*) half=$secs ;;
esac
if [ "$target" = model ] || [ "$target" = both ]; then
    build model
    run model "$half" 'tests/fuzz/corpus/*' 'tests/cli/malformed/*.safetensors' \
        'tests/fixtures/*.safetensors' 'tests/fixtures/torch/*.pt' 'tests/fixtures/files/*.pt' \
        'tests/fixtures/files/*.npz'
fi
if [ "$target" = torch ] || [ "$target" = both ]; then
    build torch
    run torch "$half" 'tests/fuzz/corpus_torch/*' 'tests/fixtures/torch/*.pt' \
        'tests/fixtures/torch/bad/*' 'tests/fixtures/files/*.pt'
fi
