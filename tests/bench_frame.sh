#!/bin/sh
# Frame render time per key at 200x60 (not part of make check):
#     tests/bench_frame.sh [MODEL TEXT]
# Builds tests/bench_frame and runs it on the sample model (or the frame tests' model).
cd "$(dirname "$0")/.." || exit 1
make -s tests/bench_frame tests/lib/mkframes || exit 1
if [ $# -eq 2 ]; then
    model=$1 text=$2
elif [ -f samples/kjv-lstm.bin ]; then
    model=samples/kjv-lstm.bin text=samples/kjv-valid.txt
else
    dir=$(mktemp -d) && trap 'rm -rf "$dir"' EXIT
    tests/lib/mkframes "$dir" && model=$dir/frames_lstm2.safetensors text=tests/golden/frames/text.txt
fi
for l in C.UTF-8 C.utf8 en_US.UTF-8; do
    if LC_ALL=$l locale charmap 2>/dev/null | grep -qi 'utf-*8'; then export LC_ALL=$l; break; fi
done
exec tests/bench_frame "$model" "$text"
