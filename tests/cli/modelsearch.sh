#!/bin/sh
# The model search visits each object of a torch.save file once: a checkpoint beside an
# object whose state is a dict of 100,000 pairs referenced 10,000 times, or a dict of
# 100,000 tensors referenced 1,000 times (files made by tests/terminal/robust/mktorch.py), loads
# with the report of the same model saved without them, within 5 s of processor time
# (ulimit -t; before, the search went through every reference again and ran out of its
# bound on the values it may visit, or for minutes).
src="${top_srcdir:-.}"
bld="${top_builddir:-.}"
. "$src/tests/lib/tap.sh"
bin=$(cd "$bld" && pwd)/gatetui
need "$bin" "$bld/tests/lib/maxrss"
mk="$(cd "$src/tests/terminal/robust" && pwd)/mktorch.py"
command -v python3 >/dev/null 2>&1 || { echo "1..0 # SKIP python3 is not installed"; exit 0; }
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT INT TERM
printf 'the text' >"$work/t.txt"
mkdir "$work/plain"
python3 "$mk" shared "$work/plain/m.pt" 1 0 || bail "mktorch.py failed"
(cd "$work/plain" && "$bin" --report m.pt ../t.txt >../plain.out 2>&1)
check $? "the small model saved alone loads"
for shape in "shared 100000 10000" "sharedt 100000 1000"; do
    set -- $shape
    d="$work/$1"
    mkdir "$d"
    python3 "$mk" $1 "$d/m.pt" $2 $3 || bail "mktorch.py failed"
    (cd "$d" && ulimit -t 5 && "$bin" --report m.pt ../t.txt >"$d.out" 2>&1)
    st=$?
    [ $st -eq 0 ] && cmp -s "$work/plain.out" "$d.out"
    r=$?
    [ $r -eq 0 ] || { echo "# exit $st"; sed 's/^/# /' "$d.out" | head -5; }
    check $r "$1 $2 x $3 ($(wc -c <"$d/m.pt") bytes): loads within 5 s of processor time, the model as saved alone"
done
# every tensor a stride-0 view of one 4-byte storage (expand()): 100 MB from 2 KB, refused
# with one line before anything is copied
python3 "$mk" expand "$work/expand.pt" || bail "mktorch.py failed"
(ulimit -t 5 && "$bin" --report "$work/expand.pt" "$work/t.txt" >"$work/expand.out" 2>&1)
st=$?
[ $st -eq 2 ] && [ "$(wc -l <"$work/expand.out")" -eq 1 ] &&
    grep -q "would take more than 64 MB as float32" "$work/expand.out"
r=$?
[ $r -eq 0 ] || { echo "# exit $st"; head -3 "$work/expand.out" | sed 's/^/# /'; }
check $r "stride-0 views of one 4-byte storage ($(wc -c <"$work/expand.pt") bytes): refused with one line (exit 2)"

# a pickle of 15,000,000 tuples each inside the next (15 MB): refused once its values take
# 16 times its bytes plus 64 MB (before, 1.43 GB were taken before it was refused)
python3 "$mk" nested "$work/nested.pt" 15000000 || bail "mktorch.py failed"
kb=$( (ulimit -t 20 && "$bld/tests/lib/maxrss" "$bin" --report "$work/nested.pt" "$work/t.txt" 2>"$work/nested.err"))
st=$?
limit=400000
if ldd "$bin" 2>/dev/null | grep -q libasan; then # its allocator's quarantine and shadow
    limit=99999999                                 # are not the program's memory
fi
[ $st -eq 2 ] && [ "$(wc -l <"$work/nested.err")" -eq 1 ] && [ "${kb:-99999999}" -lt $limit ] &&
    grep -q "its values would take more than 292 MB, at most 16 times the pickle's 15000004 bytes plus 64 MB" "$work/nested.err"
r=$?
[ $r -eq 0 ] || { echo "# exit $st, $kb KB"; head -3 "$work/nested.err" | sed 's/^/# /'; }
check $r "15,000,000 nested tuples (15 MB): refused with one line in $kb KB (exit 2)"
rm -f "$work/nested.pt"

# a float16 model whose embedding and readout share one storage: the same report as with
# two storages of the same values (the shared bytes are read twice, so they must stay),
# but for the parameter count, where a shared storage counts once as in PyTorch
mkdir "$work/tied" "$work/apart"
python3 "$mk" tied16 "$work/tied/m.pt" && python3 "$mk" tied16 "$work/apart/m.pt" apart ||
    bail "mktorch.py failed"
(cd "$work/tied" && "$bin" --report m.pt ../t.txt >../tied.out 2>&1) &&
    (cd "$work/apart" && "$bin" --report m.pt ../t.txt >../apart.out 2>&1)
head -1 "$work/tied.out" | grep -q ' 39,520 parameters$' &&
    head -1 "$work/apart.out" | grep -q ' 45,664 parameters$'
check $? "the shared storage's parameters counted once (39,520 against 45,664 for two storages)"
tail -n +2 "$work/tied.out" >"$work/tied.rest" && tail -n +2 "$work/apart.out" >"$work/apart.rest" &&
    cmp -s "$work/tied.rest" "$work/apart.rest"
r=$?
[ $r -eq 0 ] || diff "$work/tied.out" "$work/apart.out" | sed 's/^/# /' | head -6
check $r "float16 weights of one storage shared by two tensors: the report of two storages"
echo "1..$n"
