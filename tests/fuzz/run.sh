#!/bin/sh
# Builds the model-loader fuzz target with clang's libFuzzer (ASan + UBSan) and runs it on
# the corpus for SECONDS (default 60). New inputs that libFuzzer finds go to the corpus
# folder given as WORKDIR (default: a temporary copy, so the committed corpus is unchanged).
# Usage: tests/fuzz/run.sh [SECONDS] [WORKDIR]
set -e
top=$(cd "$(dirname "$0")/../.." && pwd)
secs=${1:-60}
work=${2:-$(mktemp -d)}
cc=${CLANG:-clang}
command -v "$cc" >/dev/null || cc=$(ls /usr/bin/clang-1[0-9] 2>/dev/null | tail -1)
[ -n "$cc" ] || { echo "fuzz: clang not found"; exit 77; }
mkdir -p "$work"
bin="$work/fuzz_model"
# the engine library's sources: the layers below the screen (doc/architecture.md)
srcs=$(ls "$top"/src/base/*.c "$top"/src/compute/*.c "$top"/src/engine/*.c "$top"/src/analysis/*.c)
[ -f "$top/config.h" ] || { echo "fuzz: run ./configure first"; exit 1; }
# shellcheck disable=SC2086
"$cc" -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
    -I"$top" -I"$top/include" -I"$top/src" $srcs "$top/tests/fuzz/fuzz_model.c" \
    $(pkg-config --cflags --libs jansson) -lm -lpthread -o "$bin"
mkdir -p "$work/corpus"
cp "$top"/tests/fuzz/corpus/* "$work/corpus/" 2>/dev/null || true
cp "$top"/tests/malformed/*.safetensors "$work/corpus/" 2>/dev/null || true
cp "$top"/tests/fixtures/*.safetensors "$work/corpus/" 2>/dev/null || true
cd "$work"
"$bin" -max_total_time="$secs" -max_len=65536 -rss_limit_mb=2048 -timeout=10 \
    -artifact_prefix="$work/" -print_final_stats=1 corpus
