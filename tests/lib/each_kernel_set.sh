# shellcheck shell=sh
# Sourced at the top of a TAP script: runs the script once per kernel set this processor
# runs (gatetui --kernels), with GATETUI_KERNEL set to it, its lines numbered on from one
# set to the next and the set named at the start of each description ("ok 7 - avx2: ..."),
# then exits with the worst of the runs' statuses. A run that ends before its plan, or a
# gatetui that lists no set, fails.
if [ -z "${each_kernel_set_run:-}" ]; then
    each_sets=$("$top_builddir/gatetui" --kernels 2>/dev/null)
    if [ -z "$each_sets" ]; then
        echo "Bail out! $top_builddir/gatetui --kernels listed no kernel set"
        exit 1
    fi
    each_tmp=$(mktemp -d) || exit 1
    each_n=0 each_rc=0
    for each_k in $each_sets; do
        { each_kernel_set_run=1 GATETUI_KERNEL=$each_k sh "$0" "$@"; echo $? >"$each_tmp/rc"; } |
            awk -v k="$each_k" -v base="$each_n" -v cf="$each_tmp/count" '
                /^(not )?ok [0-9]+/ {
                    ok = $1 == "not" ? "not ok" : "ok"
                    rest = $0
                    sub(/^(not )?ok [0-9]+ *(- )?/, "", rest)
                    printf "%s %d - %s: %s\n", ok, base + ++n, k, rest
                    next
                }
                /^1\.\.[0-9]+/ { plan = substr($0, 4) + 0; next }
                { print }
                END { print n + 0, (plan == "" ? -1 : plan) > cf }'
        read -r got plan <"$each_tmp/count"
        each_n=$((each_n + got))
        if [ "$plan" -ne "$got" ]; then
            each_n=$((each_n + 1))
            echo "not ok $each_n - $each_k: $got checks where the plan says $plan (-1: none)"
        fi
        [ "$(cat "$each_tmp/rc")" -le "$each_rc" ] || each_rc=$(cat "$each_tmp/rc")
    done
    rm -rf "$each_tmp"
    echo "1..$each_n"
    exit "$each_rc"
fi
