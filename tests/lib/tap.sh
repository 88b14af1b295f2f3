# Shared by the test scripts (sourced): TAP lines. ok and notok DESCRIPTION, skip WHY,
# check STATUS DESCRIPTION; n counts them. bail WHY ends the script with "Bail out!", which
# the test harness counts as a failure: for what the test cannot do without (a program
# make check builds, the models a helper writes), never a skip. need PROGRAM... bails when
# one of them is not there. refused WHAT COMMAND...: checks that COMMAND exits with status 2
# and says why in one line on standard error.
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
refused() {
    what=$1
    shift
    said=$("$@" 2>&1 >/dev/null)
    rc=$?
    if [ $rc -eq 2 ] && [ -n "$said" ] && [ "$(printf '%s\n' "$said" | wc -l)" -eq 1 ]; then
        ok "$what: exit 2, one line ($said)"
    else
        notok "$what: exit $rc"
        printf '%s\n' "$said" | sed 's/^/# /' | head -5
    fi
}
