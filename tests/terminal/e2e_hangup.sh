#!/bin/sh
# The terminal that goes away (tmux on a private server): the pane killed or the server
# ended, while the screen runs, or after Ctrl-Z has stopped it (the kernel then sends
# SIGHUP and SIGCONT); and SIGHUP after a stop and a continue. Each time the process must be
# gone having used little processor time more (before, a stopped screen whose terminal
# closed spun on the dead terminal forever). Whatever is left at the end is killed and counted as a failure:
# the script leaves no orphan. GATETUI_VALGRIND=1 runs gatetui under valgrind, without the
# stops (valgrind does not stop a process on SIGTSTP's default action).
src="${top_srcdir:-.}"
bld="${top_builddir:-.}"
. "$src/tests/lib/e2e_lib.sh"
e2e_terminal_or_skip
e2e_setup hangup
pids=""
trap 'for p in $pids; do kill -9 "$p" 2>/dev/null; done; tm kill-server 2>/dev/null; rm -rf "$work"' EXIT INT TERM

# start RUN [MODEL]: gatetui in a new pane under a shell with job control; its pid in $p
start() {
    cat >"$work/run-$1.sh" <<EOF
set -m
$runner "${2:-$model}" "$text" 2>"$work/err-$1"
st=\$?
while [ \$st = 148 ]; do
    echo "STOPPED"
    read x
    fg >/dev/null
    st=\$?
done
echo "EXIT=\$st"
exec sleep 3600
EOF
    tm kill-server 2>/dev/null
    sock="gatetui-hangup-$$-$1" # a server of its own: never the old one while it exits
    tm -f /dev/null new-session -d -s gt -x 120 -y 40 "sh $work/run-$1.sh"
    wait_for "step 0 of 0\.\." >/dev/null
    p=$(ps -o pid= --ppid "$(tm display -p -t gt '#{pane_pid}')" | tr -d ' ' | head -1)
    pids="$pids $p"
}
# alive PID: the process is there and not a zombie
alive() { s=$(ps -o stat= -p "$1" 2>/dev/null) && [ -n "$s" ] && [ "${s#Z}" = "$s" ]; }
# gone_within PID [SECONDS]: 0 once the process has ended, having used at most 5 s (or
# SECONDS) of processor time from now on (e2e_gone: spinning on a dead terminal, or a
# computation that goes on, uses it up; a process that waits for nothing is given up on)
gone_within() { e2e_gone "$1" "${2:-5}"; }
is_stopped() { case $(ps -o stat= -p "$1" 2>/dev/null) in T*) return 0 ;; esac; return 1; }
stopped() { e2e_until is_stopped "$1"; } # stopped PID: waits until the process is stopped (T)

start run
tm kill-pane -t gt
gone_within "$p"
check $? "the pane killed while the screen runs: the process ends"

if [ -n "${GATETUI_VALGRIND:-}" ]; then
    for _ in 1 2 3 4 5 6; do skip "Ctrl-Z under valgrind"; done
else
    start zpane
    tm send-keys -t gt C-z
    wait_for STOPPED >/dev/null && stopped "$p" && tm kill-pane -t gt && gone_within "$p"
    check $? "Ctrl-Z, then the pane killed: the process ends (no orphan spinning)"

    start zserver
    tm send-keys -t gt C-z
    wait_for STOPPED >/dev/null && stopped "$p" && tm kill-server && gone_within "$p"
    check $? "Ctrl-Z, then the tmux server ended: the process ends"

    start zhup
    tm send-keys -t gt C-z
    wait_for STOPPED >/dev/null && tm send-keys -t gt Enter && wait_for "step 0 of 0\.\." >/dev/null &&
        kill -HUP "$p" && wait_for "EXIT=129" >/dev/null && gone_within "$p"
    check $? "Ctrl-Z, fg, then SIGHUP: exit 129"

    # after Ctrl-Z and fg, Ctrl-C is a key again: it cancels a prompt (it was SIGINT: the
    # terminal's modes came back as curses had them, and the program ended)
    start zint
    tm send-keys -t gt C-z
    wait_for STOPPED >/dev/null && tm send-keys -t gt Enter && wait_for "step 0 of 0\.\." >/dev/null &&
        tm send-keys -t gt g && wait_for "go to step" >/dev/null && tm send-keys -t gt C-c &&
        wait_gone "go to step" && alive "$p" && tm send-keys -t gt q && wait_for "EXIT=0" >/dev/null
    check $? "Ctrl-Z, fg, then g and Ctrl-C: the prompt cancelled, the screen still there (q: exit 0)"

    # stopped, then SIGTERM and SIGCONT (kill -TERM %1 in a shell): continued in the
    # background, it ends of the signal (it took the terminal back there, which stopped it
    # again with SIGTERM still blocked: only SIGKILL or fg ended it)
    start zterm
    tm send-keys -t gt C-z
    wait_for STOPPED >/dev/null && stopped "$p" && kill -TERM "$p" && kill -CONT "$p" &&
        gone_within "$p"
    check $? "Ctrl-Z, then SIGTERM and SIGCONT: the process ends"

    # continued in the background alone (bg): stopped again until it is in the foreground,
    # then the screen as before
    start zbg
    tm send-keys -t gt C-z
    wait_for STOPPED >/dev/null && stopped "$p" && kill -CONT "$p" && stopped "$p" &&
        tm send-keys -t gt Enter && wait_for "step 0 of 0\.\." >/dev/null && alive "$p" &&
        tm send-keys -t gt q && wait_for "EXIT=0" >/dev/null
    check $? "Ctrl-Z, then SIGCONT in the background: stopped again; fg: the screen back (q: exit 0)"
fi

# The derivative view computing on a model of 1,024 units, K 256, one thread (about 30 s of
# processor time on a 3 GHz core: 1.1e12 floating-point operations): a signal, the
# terminal's loss or q ends the process having used at most 3 s of processor time more, its
# computation stopped (before, the process went on until the computation ended, the
# terminal given back meanwhile).
if [ -n "${GATETUI_VALGRIND:-}" ]; then
    for w in TERM INT HUP pane zpane quit; do skip "the derivative of 1,024 units under valgrind"; done
else
    python3 "$src/tests/terminal/robust/mktorch.py" wide "$work/wide.pt" 1024 || bail "mktorch.py failed"
    runner_was=$runner
    runner="env GATETUI_THREADS=1 $bin"
    for w in TERM INT HUP pane zpane quit; do
        start "d$w" "$work/wide.pt"
        # K 256 at step 0 (nothing to compute), then step 300: the first computation is the
        # long one, and the view says it computes (it said "step 0: no state before it")
        tm send-keys -t gt D && wait_for "step 0: no state before it" && tm send-keys -t gt + + + &&
            wait_for "K 256 " && tm send-keys -t gt g 300 Enter &&
            wait_for "computing the derivative at step 300"
        st=$?
        case $w in
        pane) tm kill-pane -t gt ;;
        zpane) tm send-keys -t gt C-z && wait_for STOPPED >/dev/null && stopped "$p" && tm kill-pane -t gt ;;
        quit) tm send-keys -t gt q ;;
        *) kill -"$w" "$p" ;;
        esac
        [ $st -eq 0 ] && gone_within "$p" 3
        check $? "the derivative of 1,024 units computing, then $w: the process ends, within 3 s of processor time"
    done
    runner=$runner_was
fi

left=""
for q in $pids; do alive "$q" && left="$left $q"; done
[ -z "$left" ]
check $? "no process left behind${left:+:$left}"
if [ -n "${GATETUI_VALGRIND:-}" ]; then
    e2e_valgrind_clean "$work"
    check $? "valgrind: no error, no leak"
fi
echo "1..$n"
