# Shared by the terminal tests (sourced): e2e_terminal checks that tmux and a UTF-8 locale
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
