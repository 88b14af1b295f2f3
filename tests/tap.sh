# Shared by the test scripts (sourced): TAP lines. ok and notok DESCRIPTION, skip WHY,
# check STATUS DESCRIPTION; n counts them. bail WHY ends the script with "Bail out!", which
# the test harness counts as a failure: for what the test cannot do without (a program
# make check builds, the models a helper writes), never a skip. need PROGRAM... bails when
# one of them is not there.
n=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
notok() { n=$((n + 1)); echo "not ok $n - $*"; }
skip() { n=$((n + 1)); echo "ok $n # SKIP $*"; }
check() { if [ "$1" -eq 0 ]; then ok "$2"; else notok "$2"; fi; }
bail() {
    echo "Bail out! $*"
    exit 1
}
need() {
    for p in "$@"; do
        [ -x "$p" ] || bail "$p is missing (make check builds it)"
    done
}
