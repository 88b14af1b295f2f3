#!/bin/sh
# The libraries loaded when used (doc/architecture.md, "Libraries loaded when used"): a
# mode that never calls LAPACK, ARPACK or the BLAS (--jacobian, --dump) starts without
# loading them; one that does (--spectrum) loads them as it first calls them; the screen
# loads them before anything else; cairo and fontconfig only --figure (and the screen's F)
# loads. A library that cannot be loaded (here an empty file found first on
# LD_LIBRARY_PATH) ends the mode with one line naming it and that file, and the screen
# before it touches the terminal. Under an address-space limit (ulimit -v) that leaves too
# little for OpenBLAS's buffers (whose threads then retried their allocation for ever),
# the BLAS is not loaded: one line saying what the limit must be, exit 1; with room for
# one thread's, OPENBLAS_NUM_THREADS=1 runs.
bin="$top_builddir/gatetui"
model="$top_srcdir/samples/kjv-rnn.bin"
text="$top_srcdir/samples/kjv-valid.txt"
out=$(mktemp -d) || exit 1
trap 'rm -rf "$out"' EXIT
n=0
result() { # result STATUS DESCRIPTION
    n=$((n + 1))
    if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fi
}
loaded() { # the numerical libraries the dynamic loader's log (file $1) shows loaded
    grep -oE "find library=lib(blas|lapacke|arpack|cairo|fontconfig)\.so\.[0-9]+" "$1" |
        sed 's/.*=//' |
        sort -u | tr '\n' ' '
}

for mode in "--jacobian --step 200 --lag 8" "--dump --to 50"; do
    # shellcheck disable=SC2086
    LD_DEBUG=libs "$bin" $mode "$model" "$text" >"$out/stdout" 2>"$out/log"
    rc=$?
    libs=$(loaded "$out/log")
    [ $rc -eq 0 ] && [ -s "$out/stdout" ] && [ -z "$libs" ]
    result $? "$mode: runs (exit $rc) without loading the numerical libraries (loaded: ${libs:-none})"
done

LD_DEBUG=libs "$bin" --spectrum --step 50 "$model" "$text" >"$out/stdout" 2>"$out/log"
rc=$?
libs=$(loaded "$out/log")
[ $rc -eq 0 ] && [ "$libs" = "libarpack.so.2 libblas.so.3 liblapacke.so.3 " ] &&
    grep -q "eigenvalues" "$out/stdout"
result $? "--spectrum: loads them as it needs them (exit $rc; loaded: ${libs:-none})"

mkdir "$out/broken"
: >"$out/broken/libarpack.so.2"
LD_LIBRARY_PATH="$out/broken" "$bin" --spectrum --step 50 "$model" "$text" >"$out/stdout" \
    2>"$out/err"
rc=$?
[ $rc -eq 1 ] && [ "$(wc -l <"$out/err")" -eq 1 ] &&
    grep -q "^gatetui: cannot load libarpack.so.2: $out/broken/libarpack.so.2: " "$out/err"
result $? "an empty libarpack.so.2 first on the path: --spectrum exits 1 with one line naming it ($(cat "$out/err"))"

LD_LIBRARY_PATH="$out/broken" "$bin" "$model" "$text" </dev/null >"$out/stdout" 2>"$out/err"
rc=$?
[ $rc -eq 1 ] && [ ! -s "$out/stdout" ] && [ "$(wc -l <"$out/err")" -eq 1 ] &&
    grep -q "^gatetui: cannot load libarpack.so.2: " "$out/err"
result $? "and the screen, before it writes anything to the terminal (exit $rc: $(cat "$out/err"))"

LD_DEBUG=libs "$bin" --figure "$out/f.svg" perturbation --windows 2 "$model" "$text" \
    >"$out/stdout" 2>"$out/log"
rc=$?
libs=$(loaded "$out/log")
[ $rc -eq 0 ] && [ "$libs" = "libcairo.so.2 libfontconfig.so.1 " ] && grep -q "<svg" "$out/f.svg"
result $? "--figure loads cairo and fontconfig (exit $rc; loaded: ${libs:-none})"

: >"$out/broken/libcairo.so.2"
LD_LIBRARY_PATH="$out/broken" "$bin" --figure "$out/g.svg" perturbation --windows 2 "$model" \
    "$text" >"$out/stdout" 2>"$out/err"
rc=$?
[ $rc -eq 1 ] && [ "$(wc -l <"$out/err")" -eq 1 ] && [ ! -e "$out/g.svg" ] &&
    grep -q "^gatetui: cannot load libcairo.so.2: $out/broken/libcairo.so.2: " "$out/err"
result $? "an empty libcairo.so.2: --figure exits 1 with one line naming it, no file written ($(cat "$out/err"))"

if ldd "$bin" 2>/dev/null | grep -q libasan; then # its shadow memory needs terabytes
    n=$((n + 2))
    echo "ok $((n - 1)) # SKIP AddressSanitizer cannot start under an address-space limit"
    echo "ok $n # SKIP AddressSanitizer cannot start under an address-space limit"
else
    # (timeout: only a safety net, the line comes at once where it passes)
    (ulimit -v 200000 && OPENBLAS_NUM_THREADS=2 timeout 300 "$bin" --spectrum --step 100 "$model" \
        "$text" >"$out/stdout" 2>"$out/err")
    rc=$?
    [ $rc -eq 1 ] && [ "$(wc -l <"$out/err")" -eq 1 ] &&
        grep -q "^gatetui: the address-space limit (ulimit -v 200000) is below the [0-9]* KB this needs with the BLAS loaded (2 threads: 320 MB): raise it, or set OPENBLAS_NUM_THREADS=1 (188 MB)\$" "$out/err"
    result $? "ulimit -v 200000: --spectrum exits 1 with one line saying the limit the BLAS needs ($(cat "$out/err"))"
    (ulimit -v 400000 && OPENBLAS_NUM_THREADS=1 timeout 300 "$bin" --spectrum --step 100 "$model" \
        "$text" >"$out/stdout" 2>"$out/err")
    rc=$?
    [ $rc -eq 0 ] && [ -s "$out/stdout" ]
    result $? "ulimit -v 400000 and OPENBLAS_NUM_THREADS=1: --spectrum runs (exit $rc)"
fi

echo "1..$n"
