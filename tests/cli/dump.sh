#!/bin/sh
# Every fixture model's dump against PyTorch's float64 values (tests/fixtures, made by
# tests/ref/make_fixtures.py): each value within tol * max(1, |ref|), tol given per model in
# the MANIFEST (at least ten times the largest error measured with the avx512, avx2 and
# plain C kernels). The readout's probabilities p within 1e-5 * max(1e-6, p): relative, 18
# times the largest error measured (5.5e-7 of p). The sample models' first steps against
# PyTorch's float32 within 1e-5 * max(1, |ref|): 5.5 times the 1.8e-6 measured, as both
# sides round in float32; their whole runs against float64 are tests/samples/t_longrun's.
# Once per kernel set this processor runs, named in each line:
. "$top_srcdir/tests/lib/each_kernel_set.sh"
fix="$top_srcdir/tests/fixtures"
bin="$top_builddir/gatetui"
cmp="$top_builddir/tests/lib/dumpcmp"
. "$top_srcdir/tests/lib/tap.sh"
need "$bin" "$cmp"
out=$(mktemp -d) || exit 1
trap 'rm -rf "$out"' EXIT
n=0
while read -r name tol opts; do
    case "$name" in ''|'#'*) continue ;; esac
    n=$((n + 1))
    opts=$(printf '%s' "$opts" | sed "s|tests/fixtures/|$fix/|g") # paths in MANIFEST are from the top
    # shellcheck disable=SC2086
    if "$bin" --dump $opts "$fix/$name.safetensors" "$fix/$name.txt" >"$out/$name.csv" 2>"$out/err" &&
        "$cmp" "$fix/$name.csv" "$out/$name.csv" "$tol" >"$out/diff" 2>&1; then
        echo "ok $n - $name: every value within $tol * max(1, |ref|) of PyTorch"
    else
        echo "not ok $n - $name: dump differs from PyTorch"
        sed 's/^/# /' "$out/err" "$out/diff" | head -20
    fi
    if [ -f "$fix/$name.probs.csv" ]; then
        n=$((n + 1))
        # shellcheck disable=SC2086
        if "$bin" --dump --probs $opts "$fix/$name.safetensors" "$fix/$name.txt" >"$out/$name.p.csv" 2>"$out/err" &&
            "$cmp" "$fix/$name.probs.csv" "$out/$name.p.csv" 1e-5 1e-6 >"$out/diff" 2>&1; then
            echo "ok $n - $name: next-character probabilities within 1e-5 * max(1e-6, p)"
        else
            echo "not ok $n - $name: probabilities differ from PyTorch"
            sed 's/^/# /' "$out/err" "$out/diff" | head -20
        fi
    fi
done <"$fix/MANIFEST"
# the sample models against the dumps their training script took from PyTorch
for ref in "$top_srcdir"/samples/*.ref.csv; do
    [ -f "$ref" ] || continue
    name=$(basename "$ref" .ref.csv)
    n=$((n + 1))
    if "$bin" --dump "$top_srcdir/samples/$name.bin" "$top_srcdir/samples/$name.ref.txt" >"$out/$name.csv" 2>"$out/err" &&
        "$cmp" "$ref" "$out/$name.csv" 1e-5 >"$out/diff" 2>&1; then
        echo "ok $n - sample $name: every value within 1e-5 * max(1, |ref|) of PyTorch"
    else
        echo "not ok $n - sample $name: dump differs from PyTorch"
        sed 's/^/# /' "$out/err" "$out/diff" | head -20
    fi
done
echo "1..$n"
