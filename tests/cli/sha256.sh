#!/bin/sh
# gatetui's SHA-256 (src/base/sha256.c, what a session file holds of each file it names)
# against coreutils' sha256sum: the FIPS 180-4 examples ("abc", the 448-bit and 896-bit
# messages, a million a's), every length from 0 to 200 bytes (each padding case: the
# length's 64 bits in the last block or in one more), lengths about a read's 65,536 bytes,
# and the samples at full size (the models, the texts).
src="${top_srcdir:-.}"
bld="${top_builddir:-.}"
. "$src/tests/lib/tap.sh"
sum="$bld/tests/lib/sha256sum"
need "$sum"
command -v sha256sum >/dev/null 2>&1 || bail "sha256sum (coreutils) is missing"
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT INT TERM

# same FILES...: tests/lib/sha256sum's lines equal sha256sum's
same() {
    "$sum" "$@" >"$work/ours" 2>"$work/err"
    st=$?
    sha256sum "$@" >"$work/theirs"
    [ $st -eq 0 ] && cmp -s "$work/ours" "$work/theirs"
}

printf abc >"$work/abc"
printf abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq >"$work/448"
printf abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu >"$work/896"
awk 'BEGIN { for (i = 0; i < 1000; i++) { s = ""; for (j = 0; j < 1000; j++) s = s "a"; printf "%s", s } }' >"$work/million"
"$sum" "$work/abc" | grep -q '^ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad ' &&
    "$sum" "$work/448" | grep -q '^248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1 ' &&
    "$sum" "$work/896" | grep -q '^cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1 ' &&
    "$sum" "$work/million" | grep -q '^cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0 '
check $? "FIPS 180-4's examples: abc, 448 and 896 bits, a million a's"

i=0
files=""
while [ $i -le 200 ]; do
    head -c $i "$src/samples/kjv-valid.txt" >"$work/len$i"
    files="$files $work/len$i"
    i=$((i + 1))
done
# shellcheck disable=SC2086
same $files
check $? "every length from 0 to 200 bytes: the same digests as sha256sum"

for k in 65535 65536 65537 131072 131135; do
    head -c $k "$src/samples/kjv-train.txt" >"$work/read$k"
done
same "$work"/read*
check $? "lengths about a read's 65,536 bytes: the same digests as sha256sum"

same "$src"/samples/*.bin "$src/samples/kjv-valid.txt" "$src/samples/kjv-train.txt"
check $? "the samples at full size ($(ls "$src"/samples/*.bin | wc -l) models, the texts): the same digests as sha256sum"

refused "a directory" "$sum" "$src/samples"
echo "1..$n"
