#!/bin/sh
# Build the sample texts from the King James Bible in Debian's bible-kjv package.
#
#   kjv-train.txt  Genesis and Exodus   (training text, about 366 KB)
#   kjv-valid.txt  Ruth and Esther      (held-out books, about 43 KB)
#
# One verse per line, verse references removed, plain ASCII.  Every character of the
# validation text occurs in the training text, so the vocabulary
# "".join(sorted(set(train_text))) covers both (checked below).
#
# Usage: samples/make_text.sh [OUTDIR]     (default: the directory of this script)
# Needs: bible (apt-get install bible-kjv)
set -eu

out=${1:-$(dirname "$0")}
command -v bible >/dev/null 2>&1 || {
    echo "make_text.sh: 'bible' not found; install it with: apt-get install bible-kjv" >&2
    exit 1
}

# bible -f prints "Ge1:1 In the beginning ..." one verse per line; Book99:99 runs to the
# book's last verse.  COLUMNS is set wide so no verse is wrapped.
verses() {
    for book in "$@"; do
        COLUMNS=10000 bible -f "${book}1:1-${book}99:99"
    done | sed -E 's/^[0-9]?[A-Za-z]+[0-9]+:[0-9]+ //'
}

verses Genesis Exodus > "$out/kjv-train.txt"
verses Ruth Esther > "$out/kjv-valid.txt"

# Sanity checks: no references left, validation characters all in the training vocabulary.
if grep -qE '[0-9]' "$out/kjv-train.txt" "$out/kjv-valid.txt"; then
    echo "make_text.sh: a verse reference was left in the text" >&2
    exit 1
fi
chars() { LC_ALL=C grep -o . "$1" | LC_ALL=C sort -u; }
tmp=$(mktemp)
chars "$out/kjv-valid.txt" > "$tmp"
extra=$(chars "$out/kjv-train.txt" | LC_ALL=C comm -23 "$tmp" - | tr -d '\n')
rm -f "$tmp"
if [ -n "$extra" ]; then
    echo "make_text.sh: characters in kjv-valid.txt not in kjv-train.txt: $extra" >&2
    exit 1
fi
wc -c "$out/kjv-train.txt" "$out/kjv-valid.txt"
