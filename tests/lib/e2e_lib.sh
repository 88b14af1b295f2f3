# Shared by the terminal tests (sourced): TAP lines, the pane of a private tmux server (the
# script sets sock), waiting for the screen, gatetui under valgrind. e2e_terminal checks
# that tmux and a UTF-8 locale
# are there, exports that locale as LC_ALL and clears NO_COLOR and TMUX. When something is
# missing it returns 1 with the reason in e2e_why.
e2e_terminal() {
    if ! command -v tmux >/dev/null 2>&1; then
        e2e_why="tmux is not installed"
        return 1
    fi
    for l in C.UTF-8 C.utf8 en_US.UTF-8; do
        if LC_ALL=$l locale charmap 2>/dev/null | grep -qi 'utf-*8'; then
            LC_ALL=$l
            export LC_ALL
            unset NO_COLOR TMUX
            return 0
        fi
    done
    e2e_why="no UTF-8 locale"
    return 1
}

# commas N: N with thousands separators, as the screen's header writes it (43,234)
commas() { printf '%s\n' "$1" | sed -e ':a' -e 's/\([0-9]\)\([0-9]\{3\}\)\($\|,\)/\1,\2\3/' -e 'ta'; }

# e2e_terminal_or_skip: e2e_terminal, or the whole script skipped (TAP's "1..0 # SKIP",
# which .ci/run counts as a failure when its run does not expect it) with the reason.
e2e_terminal_or_skip() {
    if ! e2e_terminal; then
        echo "1..0 # SKIP $e2e_why"
        exit 0
    fi
}

# e2e_runner BIN WORK SRC: sets runner to the command that starts gatetui, and slow to how
# many times slower it runs (settled asks that many more captures alike). With
# GATETUI_VALGRIND=1 it runs under valgrind's memcheck (leaks at exit counted, suppressions
# in SRC/tests/lib/valgrind.supp, a log per process in WORK/vg.PID.log), about ten times slower;
# --fair-sched=yes, as the screen's thread reads the keys while a computation's thread runs
# (valgrind's default lock lets the running thread take it again and again).
e2e_runner() {
    runner=$1
    slow=1
    if [ -n "${GATETUI_VALGRIND:-}" ]; then
        runner="valgrind -q --fair-sched=yes --leak-check=full --errors-for-leak-kinds=definite,possible \
--error-exitcode=99 --suppressions=$(cd "$3" && pwd)/tests/lib/valgrind.supp --log-file=$2/vg.%p.log $1"
        slow=10
    fi
}

# e2e_valgrind_clean WORK: 0 when no valgrind log in WORK reports an error or a leak (and at
# least one log is there); otherwise 1, with the first lines of each bad log as comments.
e2e_valgrind_clean() {
    ls "$1"/vg.*.log >/dev/null 2>&1 || { echo "# no valgrind log in $1"; return 1; }
    bad=$(grep -lE "ERROR SUMMARY: [1-9]|definitely lost|possibly lost|Invalid|uninitialised" \
        "$1"/vg.*.log 2>/dev/null)
    for f in $bad; do head -60 "$f" | sed 's/^/# /'; done
    [ -z "$bad" ]
}

# TAP lines: ok, notok, skip, check, bail and need (tests/lib/tap.sh)
. "$src/tests/lib/tap.sh"

# the private tmux server (socket $sock) and the text of its pane
tm() { tmux -u -L "$sock" "$@"; }
screen() { tm capture-pane -p -t gt; }

# The waits depend on no speed of the machine. e2e_until COMMAND... runs COMMAND every
# 0.05 s until it succeeds; it gives up (1) only when the processes it watches (e2e_roots,
# or else the pane's, each with every process it started) have used no processor time for
# E2E_IDLE seconds (20: nothing computes what is awaited, so it will not come), when they
# have used more than e2e_cpu seconds of it since the wait began (when set: a computation
# that should have stopped), or after E2E_CAP seconds in all (1,800: one that never ends).
# A loaded machine, the sanitizers or valgrind make the work slower, never a wait fail.
E2E_IDLE=${E2E_IDLE:-20}
E2E_CAP=${E2E_CAP:-1800}
e2e_roots=""
e2e_cpu=""
e2e_hz=$(getconf CLK_TCK 2>/dev/null || echo 100)
# e2e_ticks PID...: the processor time (clock ticks: utime, stime, cutime and cstime of
# /proc/PID/stat) used so far by the processes PID and every process under them
e2e_ticks() {
    cat /proc/[0-9]*/stat 2>/dev/null | awk -v roots=" $* " '
        { pid = $1; s = $0; sub(/^[0-9]+ \(.*\) /, "", s); split(s, f, " ")
          up[pid] = f[2]; t[pid] = f[12] + f[13] + f[14] + f[15] }
        END { sum = 0
              for (p in up) for (q = p; q != "" && q > 1; q = up[q])
                  if (index(roots, " " q " ")) { sum += t[p]; break }
              print sum }'
}
# e2e_s2t SECONDS: in clock ticks (SECONDS may have decimals)
e2e_s2t() { awk -v s="$1" -v hz="$e2e_hz" 'BEGIN { printf "%d\n", s * hz }'; }
# e2e_cputime COMMAND...: runs COMMAND (its output as it is) and sets e2e_took to the
# processor time it used, in seconds
e2e_cputime() {
    { e2e_took=$(sh -c '"$@" >&3 2>&4 3>&- 4>&-; cut -d")" -f2- /proc/$$/stat |
        awk -v hz="'"$e2e_hz"'" "{ printf \"%.2f\", (\$14 + \$15) / hz }"' sh "$@"); } 3>&1 4>&2
}
# e2e_watched: the processes a wait watches
e2e_watched() {
    if [ -n "$e2e_roots" ]; then echo "$e2e_roots"; else tm display -p -t gt '#{pane_pid}' 2>/dev/null; fi
}
e2e_until() {
    e2e_t0=$(date +%s)
    e2e_c0=$(e2e_ticks "$(e2e_watched)")
    e2e_seen=$e2e_c0 e2e_busy=$e2e_t0 e2e_last=""
    while ! "$@"; do
        e2e_now=$(date +%s)
        if [ "$e2e_now" != "$e2e_last" ]; then # once a second, the processor time
            e2e_last=$e2e_now
            e2e_c=$(e2e_ticks "$(e2e_watched)")
            [ "$e2e_c" -gt "$e2e_seen" ] && e2e_seen=$e2e_c e2e_busy=$e2e_now
            if [ -n "$e2e_cpu" ] && [ $((e2e_c - e2e_c0)) -gt "$(e2e_s2t "$e2e_cpu")" ]; then
                echo "# more than $e2e_cpu s of processor time used waiting"
                return 1
            fi
            if [ $((e2e_now - e2e_busy)) -ge "$E2E_IDLE" ]; then
                echo "# no processor time used for $E2E_IDLE s: nothing is computing"
                return 1
            fi
            [ $((e2e_now - e2e_t0)) -lt "$E2E_CAP" ] || { echo "# waited $E2E_CAP s"; return 1; }
        fi
        sleep 0.05
    done
}

# wait_for PATTERN: until the screen shows it (grep -E; e2e_until), or 1 with the screen as
# comments. wait_gone PATTERN: until it no longer does.
slow=1
e2e_shows() { screen | grep -qE -- "$1"; }
e2e_hides() { ! screen | grep -qE -- "$1"; }
wait_for() {
    e2e_until e2e_shows "$1" && return 0
    echo "# waited in vain for: $1"
    screen | sed 's/^/#   | /'
    return 1
}
# wait_all PATTERN...: until the screen shows every pattern at once; a check made right
# after waiting for one part of a frame may read a capture taken between two of ncurses'
# writes, where the rest of the frame is not there yet
e2e_shows_all() {
    e2e_screen_now=$(screen)
    for e2e_p in "$@"; do
        printf '%s\n' "$e2e_screen_now" | grep -qE -- "$e2e_p" || return 1
    done
}
wait_all() {
    e2e_until e2e_shows_all "$@" && return 0
    echo "# waited in vain for all of: $*"
    screen | sed 's/^/#   | /'
    return 1
}
# settled: the screen once it has settled (the same in three captures in a row, fifteen
# under valgrind; e2e_until): ncurses writes a large frame in several writes, and a capture
# between them holds part of the new frame and part of the old; under valgrind on a loaded
# machine the pause between two writes can last longer than three captures.
e2e_same_again() {
    e2e_now_screen=$(screen)
    if [ "$e2e_now_screen" = "$e2e_prev" ]; then e2e_same=$((e2e_same + 1)); else e2e_same=0; fi
    e2e_prev=$e2e_now_screen
    [ $e2e_same -ge $e2e_need ]
}
settled() {
    e2e_prev=$(screen)
    e2e_same=0 e2e_need=3
    [ "$slow" -gt 1 ] && e2e_need=$((3 * slow / 2))
    e2e_until e2e_same_again >/dev/null
    printf '%s\n' "$e2e_prev"
}
wait_gone() {
    e2e_until e2e_hides "$1" && return 0
    echo "# still on the screen: $1"
    return 1
}
# e2e_gone PID SECONDS: 0 once process PID has ended (a zombie counts as ended), having used
# at most SECONDS of processor time from now on (with every process under it; e2e_until)
e2e_dead() { s=$(ps -o stat= -p "$1" 2>/dev/null) && [ -n "$s" ] && [ "${s#Z}" = "$s" ] && return 1; return 0; }
e2e_gone() {
    e2e_roots=$1 e2e_cpu=$2
    e2e_until e2e_dead "$1"
    e2e_r=$?
    e2e_roots="" e2e_cpu=""
    [ $e2e_r -eq 0 ] || echo "# process $1 still there: $(ps -o stat=,pcpu= -p "$1")"
    return $e2e_r
}

# restored RUN EXITCODE [NOALT]: gatetui's run RUN (started by the script so that the pane
# shows BEFORE-RUN, then EXIT=status, with the terminal's settings before and after in
# $work/stty.before-RUN and stty.after-RUN and its standard error in $work/err-RUN) ended
# with EXITCODE and left the terminal as it was: the same settings, the alternate screen
# left, the cursor shown, the screen of before back (not asked with NOALT: a terminal
# without an alternate screen, such as vt100, cannot show it again). Otherwise 1, with
# what differs as comments.
restored() {
    e2e_run=$1
    wait_for "EXIT=$2" >/dev/null
    e2e_exit=$?
    e2e_until test -s "$work/stty.after-$e2e_run" >/dev/null
    alt=$(tm display -p -t gt '#{alternate_on}')
    cur=$(tm display -p -t gt '#{cursor_flag}')
    if [ $e2e_exit -eq 0 ] && cmp -s "$work/stty.before-$e2e_run" "$work/stty.after-$e2e_run" &&
        [ "$alt" = 0 ] && [ "$cur" = 1 ] && { [ -n "${3:-}" ] || screen | grep -q "BEFORE-$e2e_run"; }; then
        return 0
    fi
    echo "# exit seen: $e2e_exit, alternate screen: $alt, cursor: $cur"
    diff "$work/stty.before-$e2e_run" "$work/stty.after-$e2e_run" | sed 's/^/# stty: /'
    screen | sed 's/^/#   | /'
    [ -f "$work/err-$e2e_run" ] && sed 's/^/# stderr: /' "$work/err-$e2e_run"
    return 1
}

# e2e_setup NAME (after e2e_terminal, with src and bld set): bin, text (tests/golden/frames/
# text.txt), work (a directory removed at exit, with the tmux server), sock, model (the
# two-layer test model, written into work) and the runner (e2e_runner). Without gatetui,
# tests/lib/mkframes or the model it writes, the script bails out (a failure).
e2e_setup() {
    bin=$(cd "$bld" && pwd)/gatetui
    text=$(cd "$src/tests/golden/frames" && pwd)/text.txt
    work=$(mktemp -d) || exit 1
    sock="gatetui-$1-$$"
    trap 'tm kill-server 2>/dev/null; rm -rf "$work"' EXIT INT TERM
    need "$bin" "$bld/tests/lib/mkframes"
    "$bld/tests/lib/mkframes" "$work" >/dev/null || bail "tests/lib/mkframes could not write the test model"
    model="$work/frames_lstm2.safetensors"
    e2e_runner "$bin" "$work" "$src"
}
