#!/bin/sh
# The structure check (tools/structure.sh): first on a small tree made here with one breach
# of each rule, which it must report each of (and nothing of the clean files); then on
# gatetui's own sources, where it must find none.
. "$top_srcdir/tests/lib/tap.sh"
check_sh=$top_srcdir/tools/structure.sh
[ -x "$check_sh" ] || bail "$check_sh is missing"
CC=${CC:-cc}
command -v "$CC" >/dev/null || bail "no C compiler ($CC)"
t=$(mktemp -d) || bail "no temporary directory"
trap 'rm -rf "$t"' EXIT
mkdir -p "$t/src/base" "$t/src/engine" "$t/src/screen" "$t/src/misc" "$t/tests"
# base/a.c calls the engine (up-call); engine/b.c and engine/c.c call each other (mutual);
# engine/d.c defines a function nobody uses (dead) and one over 80 lines; base includes a
# screen header (up-include); screen/p.c, q.c and r.c call each other round a loop (cycle);
# misc/ is no layer; the clean file base/ok.c breaks nothing.
cat >"$t/src/base/a.c" <<'EOF'
#include "screen/x.h"
int b_engine(void);
int a_base(void) { return b_engine(); }
EOF
cat >"$t/src/base/ok.c" <<'EOF'
int ok_base(void) { return 1; }
EOF
cat >"$t/src/engine/b.c" <<'EOF'
int c_engine(void);
int b_engine(void) { return c_engine() + 1; }
int b_helper(void) { return 2; }
EOF
cat >"$t/src/engine/c.c" <<'EOF'
int b_helper(void);
int ok_base(void);
int c_engine(void) { return b_helper() + ok_base(); }
EOF
{
    echo 'int d_unused(void) { return 3; }'
    echo 'int d_long(int x)'
    echo '{'
    i=0
    while [ $i -lt 80 ]; do echo '    x += 1;'; i=$((i + 1)); done
    echo '    return x;'
    echo '}'
} >"$t/src/engine/d.c"
echo 'int misc(void) { return 4; }' >"$t/src/misc/m.c"
echo 'int q_screen(int); int p_screen(int n) { return n ? q_screen(n - 1) : 0; }' >"$t/src/screen/p.c"
echo 'int r_screen(int); int q_screen(int n) { return n ? r_screen(n - 1) : 1; }' >"$t/src/screen/q.c"
echo 'int p_screen(int); int r_screen(int n) { return n ? p_screen(n - 1) : 2; }' >"$t/src/screen/r.c"
cat >"$t/tests/use.c" <<'EOF'
int a_base(void);
int d_long(int);
int misc(void);
int main(void) { return a_base() + d_long(0) + misc(); }
EOF
: >"$t/src/screen/x.h"
for f in src/base/a.c src/base/ok.c src/engine/b.c src/engine/c.c src/engine/d.c src/misc/m.c \
    src/screen/p.c src/screen/q.c src/screen/r.c tests/use.c; do
    (cd "$t" && "$CC" -I src -c -o "${f%.c}.o" "$f") || bail "cannot compile $f"
done
out=$("$check_sh" "$t" "$t")
rc=$?
check $((rc != 1)) "a tree with breaches: exit status 1 (got $rc)"
expect() {
    echo "$out" | grep -q -- "$1"
    check $? "$2"
}
expect '^up-call: src/base/a.c (base) uses b_engine of src/engine/b.c (engine)$' "a call up a layer"
expect '^up-include: src/base/a.c (base) includes screen/x.h (screen)$' "an include up a layer"
expect '^mutual: src/engine/b.c uses c_engine of src/engine/c.c, which uses b_helper of it$' "two files that call each other"
expect '^cycle: src/screen/p.c -> src/screen/q.c -> src/screen/r.c -> src/screen/p.c (3 files reach each other)$' \
    "three files that call each other round a loop"
echo "$out" | grep -q '^cycle: .*engine'
check $((1 - $?)) "two files that call each other: a mutual pair, not a cycle"
expect '^dead: d_unused (src/engine/d.c)' "a function no other file uses"
expect '^long: src/engine/d.c: d_long is 84 lines' "a function over 80 lines"
expect '^layer: src/misc/m.c is in no layer' "a file in no layer"
echo "$out" | grep -q 'ok_base\|c_engine is\|dead: a_base\|dead: d_long'
check $((1 - $?)) "nothing said of what breaks no rule"
# main.c's length
i=0
while [ $i -lt 400 ]; do echo '/* */'; i=$((i + 1)); done >"$t/src/main.c"
echo 'int main(void) { return 0; }' >>"$t/src/main.c"
(cd "$t" && "$CC" -c -o src/main.o src/main.c) || bail "cannot compile main.c"
"$check_sh" "$t" "$t" | grep -q '^main: src/main.c is 401 lines'
check $? "src/main.c of 400 lines or more"

# gatetui itself
out=$("$check_sh" "$top_srcdir" "$top_builddir")
rc=$?
[ -z "$out" ] || echo "$out" | sed 's/^/# /'
check $rc "gatetui's sources break no rule of the structure"
echo "1..$n"
