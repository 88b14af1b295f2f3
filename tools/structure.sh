#!/bin/sh
# The structure check (doc/architecture.md, "The layers and the rule"): reads the built
# objects of every source file under src/ and the sources themselves, and prints one line
# per breach of the rules, then exits 1 if there was any (0 otherwise, 2 if it cannot run):
#   up-call     a file uses a function or variable defined in a layer after its own
#   up-include  a file includes a private header ("LAYER/x.h") of a layer after its own
#   mutual      two files each use something the other defines
#   cycle       files that call each other round a longer loop (a uses b, b uses c, c uses a):
#               a shortest such loop, and how many files reach each other through it
#   dead        a function defined in one file and used by no other file (make it static,
#               or delete it when nothing calls it); the tests count as users
#   long        a function of more than 80 lines, its signature and braces included
#   main        src/main.c of 400 lines or more
#   layer       a source file in no known layer
# Usage: tools/structure.sh [SRCDIR [BUILDDIR]] (default: the tree this script is in, built
# in place). The layers, lowest first, are the folders of src/ in LAYERS below.
set -u
LAYERS="base compute format engine analysis figure screen term cli main"
MAXLEN=80
MAINMAX=400
here=$(cd "$(dirname "$0")/.." && pwd)
src=${1:-$here}
build=${2:-$src}
NM=${NM:-nm}
command -v "$NM" >/dev/null || { echo "structure: $NM is not installed"; exit 2; }
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT

# layer_of PATH (relative to SRCDIR): the layer's name, or "" when none
layer_of() {
    case $1 in
    src/main.c) echo main ;;
    src/*/*)
        l=${1#src/}
        l=${l%%/*}
        for k in $LAYERS; do [ "$k" = "$l" ] && echo "$l" && return; done ;;
    esac
}

# object_of PATH: the object make built from the source (in BUILDDIR, beside it: NAME.o or
# PREFIX-NAME.o, not one built into a test program)
object_of() {
    d=$build/$(dirname "$1")
    b=$(basename "$1" .c)
    for o in "$d/$b.o" "$d"/*-"$b".o; do
        case $(basename "$o") in tests_*) continue ;; esac
        [ -f "$o" ] && echo "$o" && return
    done
}

(cd "$src" && find src -name '*.c' | LC_ALL=C sort) >"$tmp/sources"
[ -s "$tmp/sources" ] || { echo "structure: no sources under $src/src"; exit 2; }
: >"$tmp/syms"
: >"$tmp/layers"
: >"$tmp/pre"
while read -r f; do
    l=$(layer_of "$f")
    if [ -z "$l" ]; then
        echo "layer: $f is in no layer ($LAYERS)" >>"$tmp/pre"
        echo "$f ?" >>"$tmp/layers"
        continue
    fi
    echo "$f $l" >>"$tmp/layers"
    o=$(object_of "$f")
    [ -n "$o" ] || { echo "structure: $f has no object in $build (build it first)"; exit 2; }
    # name type: defined globals (T, D, B, R, ...) and the undefined ones (U)
    "$NM" -P "$o" | awk -v f="$f" '$2 ~ /^[TDBRCGSVW]$/ { print f, "def", $1, $2 }
                                   $2 == "U" { print f, "use", $1, "U" }' >>"$tmp/syms"
done <"$tmp/sources"
# the tests' own objects use the library too (not the copies of src/ files built into them)
find "$build/tests" -name '*.o' 2>/dev/null | while read -r o; do
    "$NM" -P "$o" | awk '$2 == "U" { print "tests", "use", $1, "U" }'
done >>"$tmp/syms"

awk -v layers="$LAYERS" '
    # Tarjan: the strongly connected component of file f (its index, low link, on the stack)
    function scc(f,    i, d) {
        idx[f] = low[f] = ++counter
        stack[++sp] = f; onstack[f] = 1
        for (i = 1; i <= nout[f]; i++) {
            d = out[f, i]
            if (!(d in idx)) {
                scc(d)
                if (low[d] < low[f]) low[f] = low[d]
            } else if (onstack[d] && idx[d] < low[f])
                low[f] = idx[d]
        }
        if (low[f] == idx[f]) {
            ncomp++
            do {
                d = stack[sp--]; onstack[d] = 0
                comp[d] = ncomp; size[ncomp]++
                if (!(ncomp in first) || d < first[ncomp]) first[ncomp] = d
            } while (d != f)
        }
    }
    # a shortest loop from f back to itself within its component, as "f -> ... -> f"
    function loop(f,    q, head, tail, i, u, d, prev, path) {
        head = 1; tail = 0
        for (i = 1; i <= nout[f]; i++) {
            d = out[f, i]
            if (comp[d] == comp[f] && !(d in prev)) { prev[d] = f; q[++tail] = d }
        }
        while (head <= tail && !(f in prev)) {
            u = q[head++]
            for (i = 1; i <= nout[u]; i++) {
                d = out[u, i]
                if (comp[d] == comp[f] && !(d in prev)) { prev[d] = u; q[++tail] = d }
            }
        }
        path = f
        for (u = prev[f]; u != f; u = prev[u]) path = u " -> " path
        return f " -> " path
    }
    BEGIN { n = split(layers, L, " "); for (i = 1; i <= n; i++) rank[L[i]] = i }
    FILENAME ~ /layers$/ { layer[$1] = $2; next }
    $2 == "def" { if (!($3 in owner)) owner[$3] = $1; kind[$3] = $4; next }
    $2 == "use" { uses[++nu] = $1 SUBSEP $3 }
    END {
        for (i = 1; i <= nu; i++) {
            split(uses[i], p, SUBSEP)
            f = p[1]; s = p[2]
            if (!(s in owner) || owner[s] == f) continue
            d = owner[s]
            used[s] = 1
            if (f == "tests") continue
            if (!((f, d) in edge)) {
                edge[f, d] = s; pairs[++np] = f SUBSEP d
                out[f, ++nout[f]] = d; files[f] = 1
            }
            if (rank[layer[d]] > rank[layer[f]] && !((f, d) in upsaid)) {
                upsaid[f, d] = 1
                printf "up-call: %s (%s) uses %s of %s (%s)\n", f, layer[f], s, d, layer[d]
            }
        }
        for (i = 1; i <= np; i++) {
            split(pairs[i], p, SUBSEP)
            if ((p[2], p[1]) in edge && p[1] < p[2])
                printf "mutual: %s uses %s of %s, which uses %s of it\n", p[1], edge[p[1], p[2]], p[2], edge[p[2], p[1]]
        }
        for (f in files)
            if (!(f in idx)) scc(f)
        for (c = 1; c <= ncomp; c++)
            if (size[c] > 2)
                printf "cycle: %s (%d files reach each other)\n", loop(first[c]), size[c]
        for (s in owner)
            if (kind[s] == "T" && !(s in used) && s != "main" && s !~ /^LLVMFuzzer/)
                printf "dead: %s (%s) is used by no other file\n", s, owner[s]
    }' "$tmp/layers" "$tmp/syms" | LC_ALL=C sort >>"$tmp/pre"; mv "$tmp/pre" "$tmp/out"

# the private headers a file includes ("LAYER/x.h"), and the functions' lengths
while read -r f l; do
    [ "$l" = "?" ] && continue
    awk -v f="$f" -v layers="$LAYERS" -v max="$MAXLEN" -v own="$l" '
        BEGIN { n = split(layers, L, " "); for (i = 1; i <= n; i++) rank[L[i]] = i }
        /^#[ \t]*include[ \t]*"/ {
            h = $0; sub(/^[^"]*"/, "", h); sub(/".*/, "", h)
            k = h; sub(/\/.*/, "", k)
            if ((k in rank) && rank[k] > rank[own])
                printf "up-include: %s (%s) includes %s (%s)\n", f, own, h, k
        }
        /^[A-Za-z_]/ { sig = NR; name = $0; sub(/\(.*/, "", name); sub(/.*[ *]/, "", name) }
        /^\{/ { start = sig ? sig : NR }
        /^\}/ && start {
            if (NR - start + 1 > max)
                printf "long: %s: %s is %d lines (at most %d)\n", f, name, NR - start + 1, max
            start = 0
        }' "$src/$f"
done <"$tmp/layers" >>"$tmp/out"

# a function only the benchmarks call (built on demand, so without objects here) is used
if grep -q '^dead: ' "$tmp/out"; then
    find "$src/tests" -name '*.c' >"$tmp/testsrc"
    while IFS= read -r line; do
        case $line in
        dead:*)
            s=${line#dead: }
            s=${s%% *}
            xargs grep -lw -- "$s" <"$tmp/testsrc" 2>/dev/null | grep -q . && continue ;;
        esac
        echo "$line"
    done <"$tmp/out" >"$tmp/out2"
    mv "$tmp/out2" "$tmp/out"
fi
if [ -f "$src/src/main.c" ]; then
    lines=$(wc -l <"$src/src/main.c")
    [ "$lines" -lt "$MAINMAX" ] || echo "main: src/main.c is $lines lines (under $MAINMAX)" >>"$tmp/out"
fi
cat "$tmp/out"
[ ! -s "$tmp/out" ]
