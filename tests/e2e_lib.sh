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

# e2e_runner BIN WORK SRC: sets runner to the command that starts gatetui and slow to how many
# times longer to wait for it. With GATETUI_VALGRIND=1 it runs under valgrind's memcheck
# (leaks at exit counted, suppressions in SRC/tests/valgrind.supp, a log per process in
# WORK/vg.PID.log), about ten times slower.
e2e_runner() {
    runner=$1
    slow=1
    if [ -n "${GATETUI_VALGRIND:-}" ]; then
        runner="valgrind -q --leak-check=full --errors-for-leak-kinds=definite,possible \
--error-exitcode=99 --suppressions=$(cd "$3" && pwd)/tests/valgrind.supp --log-file=$2/vg.%p.log $1"
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

# TAP lines: ok, notok, skip, check, bail and need (tests/tap.sh)
. "$src/tests/tap.sh"

# the private tmux server (socket $sock) and the text of its pane
tm() { tmux -u -L "$sock" "$@"; }
screen() { tm capture-pane -p -t gt; }

# wait_for PATTERN: until the screen shows it (grep -E), at most 60 s (10 s times slow under
# valgrind): what the screen computes in the background (the derivative of a 542-unit RNN
# under the sanitizers, on a loaded machine) can take more than 10 s; 1, with the screen as
# comments, if it never does. wait_gone PATTERN: until it no longer does.
slow=1
wait_for() {
    i=0
    while [ $i -lt $((slow > 1 ? 200 * slow : 1200)) ]; do
        if screen | grep -qE -- "$1"; then return 0; fi
        sleep 0.05
        i=$((i + 1))
    done
    echo "# waited in vain for: $1"
    screen | sed 's/^/#   | /'
    return 1
}
# settled: the screen once it has settled (the same in three captures in a row, fifteen
# under valgrind, at most 10 s times slow): ncurses writes a large frame in several writes,
# and a capture between them holds part of the new frame and part of the old; under
# valgrind on a loaded machine the pause between two writes can last longer than three
# captures.
settled() {
    e2e_prev=$(screen)
    e2e_same=0 e2e_i=0 e2e_need=3
    [ "$slow" -gt 1 ] && e2e_need=$((3 * slow / 2))
    while [ $e2e_same -lt $e2e_need ] && [ $e2e_i -lt $((200 * slow)) ]; do
        sleep 0.05
        e2e_now=$(screen)
        if [ "$e2e_now" = "$e2e_prev" ]; then e2e_same=$((e2e_same + 1)); else e2e_same=0; fi
        e2e_prev=$e2e_now
        e2e_i=$((e2e_i + 1))
    done
    printf '%s\n' "$e2e_prev"
}
wait_gone() {
    i=0
    while [ $i -lt $((slow > 1 ? 200 * slow : 1200)) ]; do
        if ! screen | grep -qE -- "$1"; then return 0; fi
        sleep 0.05
        i=$((i + 1))
    done
    echo "# still on the screen: $1"
    return 1
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
    i=0
    while [ ! -s "$work/stty.after-$e2e_run" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
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

# e2e_setup NAME (after e2e_terminal, with src and bld set): bin, text (tests/frames/
# text.txt), work (a directory removed at exit, with the tmux server), sock, model (the
# two-layer test model, written into work) and the runner (e2e_runner). Without gatetui,
# tests/mkframes or the model it writes, the script bails out (a failure).
e2e_setup() {
    bin=$(cd "$bld" && pwd)/gatetui
    text=$(cd "$src/tests/frames" && pwd)/text.txt
    work=$(mktemp -d) || exit 1
    sock="gatetui-$1-$$"
    trap 'tm kill-server 2>/dev/null; rm -rf "$work"' EXIT INT TERM
    need "$bin" "$bld/tests/mkframes"
    "$bld/tests/mkframes" "$work" >/dev/null || bail "tests/mkframes could not write the test model"
    model="$work/frames_lstm2.safetensors"
    e2e_runner "$bin" "$work" "$src"
}
