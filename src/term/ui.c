/* The main loop: ncursesw draws, libtermkey reads keys; poll on standard input with a
 * timeout (a tenth of a second while the background pass runs, a second otherwise);
 * signals only set flags and wake the wait. They are blocked in
 * every thread and let in only while the loop waits (ppoll), so none is taken by another
 * thread or between the loop's test of the flags and its wait. Keys become actions on the
 * view (keys.c); a changed view is prepared and drawn into a surface, which the screen
 * shows and `x` exports. */
#define _GNU_SOURCE /* ppoll */
#include "config.h"

#include <curses.h>
#include <errno.h>
#include <fcntl.h>
#include <langinfo.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "compute/threads.h"
#include "screen/export_file.h"
#include "screen/frame.h"
#include "gatetui/trace.h"
#include "term/term.h"
#include "screen/sessionstate.h"
#include "term/ui.h"

static volatile sig_atomic_t got_winch, got_stop, got_tstp;
/* A pipe the handlers write a byte to, watched by the wait beside the keyboard: a signal
 * taken just before the wait still ends it where ppoll's mask does not close that gap (a
 * tracer such as valgrind sets the mask and waits in two steps). */
static int wake[2] = {-1, -1};

static void poke(void)
{
    int saved = errno;
    if (wake[1] >= 0 && write(wake[1], "", 1) < 0) { /* full: a wake-up is already there */
    }
    errno = saved;
}
static void on_winch(int sig) { (void)sig; got_winch = 1; poke(); }
static void on_stop(int sig) { got_stop = sig; poke(); }
static void on_tstp(int sig) { (void)sig; got_tstp = 1; poke(); }

static void drain_wake(void)
{
    char buf[64];
    while (wake[0] >= 0 && read(wake[0], buf, sizeof buf) > 0) {
    }
}

static const int caught_sigs[] = {SIGWINCH, SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGTSTP};
#define NCAUGHT (sizeof caught_sigs / sizeof caught_sigs[0])
static struct sigaction before[NCAUGHT]; /* their actions before */
static sigset_t started; /* the mask before */
static sigset_t waiting; /* the mask while it waits: the one before, less those */

/* Called before any thread is made, so that every thread keeps them blocked. A signal
 * ignored when gatetui started (SIGHUP under nohup) stays ignored. */
/* Whether caught signal i was ignored when gatetui started (SIGHUP under nohup): it stays
 * ignored. SIGWINCH, ignored by default, is always taken. */
static int ignored_from_start(size_t i)
{
    return before[i].sa_handler == SIG_IGN && caught_sigs[i] != SIGWINCH;
}

static void catch_signals(void)
{
    if (pipe2(wake, O_NONBLOCK | O_CLOEXEC) != 0)
        wake[0] = wake[1] = -1; /* then the mask of the wait alone */
    sigset_t caught;
    sigemptyset(&caught);
    for (size_t i = 0; i < NCAUGHT; i++)
        sigaddset(&caught, caught_sigs[i]);
    pthread_sigmask(SIG_BLOCK, &caught, &started);
    waiting = started;
    for (size_t i = 0; i < NCAUGHT; i++)
        sigdelset(&waiting, caught_sigs[i]);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < NCAUGHT; i++) {
        int sig = caught_sigs[i];
        sigaction(sig, NULL, &before[i]);
        if (ignored_from_start(i))
            continue;
        sa.sa_handler = sig == SIGWINCH ? on_winch : sig == SIGTSTP ? on_tstp : on_stop;
        sigaction(sig, &sa, NULL);
    }
}

/* Puts back the actions and the mask of before: a signal that came after the loop's last
 * wait then takes its own action (the process dies of it, as it should). */
static void release_signals(void)
{
    for (size_t i = 0; i < NCAUGHT; i++)
        sigaction(caught_sigs[i], &before[i], NULL);
    pthread_sigmask(SIG_SETMASK, &started, NULL);
    for (int i = 0; i < 2; i++) {
        if (wake[i] >= 0)
            close(wake[i]);
        wake[i] = -1;
    }
}

/* Lets signal sig in and takes its default action (stop or die). */
static void default_action(int sig)
{
    signal(sig, SIG_DFL);
    sigset_t one;
    sigemptyset(&one);
    sigaddset(&one, sig);
    raise(sig); /* pending until let in */
    pthread_sigmask(SIG_UNBLOCK, &one, NULL);
    pthread_sigmask(SIG_BLOCK, &one, NULL);
}

/* SIGTSTP caught again, after its default action stopped the process. */
static void restore_tstp(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sigemptyset(&sa.sa_mask);
    sa.sa_handler = on_tstp;
    sigaction(SIGTSTP, &sa, NULL);
}

/* A signal that ends the screen (SIGINT, SIGTERM, SIGHUP, SIGQUIT) pending, not ignored
 * from the start: 1, got_stop set to it. */
static int ending_pending(void)
{
    sigset_t p;
    if (sigpending(&p) != 0)
        return 0;
    for (size_t i = 0; i < NCAUGHT; i++) {
        const int sig = caught_sigs[i];
        if (sig != SIGWINCH && sig != SIGTSTP && sigismember(&p, sig) && !ignored_from_start(i)) {
            got_stop = sig;
            return 1;
        }
    }
    return 0;
}

/* The process's group is the terminal's foreground (or there is no telling). */
static int in_foreground(void)
{
    const pid_t fg = tcgetpgrp(STDIN_FILENO);
    return fg < 0 || fg == getpgrp();
}

/* SIGTSTP (or Ctrl-Z, which libtermkey reads as a key): the terminal goes back to the
 * shell, the process stops; after SIGCONT the keyboard and the screen are taken again and
 * everything is drawn anew. */
static void suspend(TermKey *tk)
{
    got_tstp = 0;
    for (size_t i = 0; i < NCAUGHT; i++) /* ignored (no job control): nobody would wake us */
        if (caught_sigs[i] == SIGTSTP && ignored_from_start(i))
            return;
    termkey_stop(tk);
    term_suspend();
    default_action(SIGTSTP); /* stopped here until SIGCONT */
    /* continued in the background (kill -CONT, bg): taking the terminal back there would
       stop the process again with a signal that came meanwhile still blocked (kill -TERM
       %1 then kill -CONT %1 never ended it); such a signal ends the screen now, the
       terminal left as the shell has it; without one the process stops again until it is
       in the foreground, as a job that touches its terminal does */
    while (!ending_pending() && !in_foreground()) {
        default_action(SIGTSTP);
        /* an orphaned process group is not stopped (the kernel discards the signal): a
           tenth of a second between tries, not a spin, until fg or a signal ends it */
        const struct timespec tenth = {0, 100000000L};
        if (!in_foreground())
            nanosleep(&tenth, NULL);
    }
    restore_tstp();
    if (got_stop)
        return;
    /* curses takes the terminal back first (its modes, as at the start: Ctrl-C a signal),
       then libtermkey sets its own over them (Ctrl-C a key), as when the screen started;
       the other way round, curses' next update put its modes back over libtermkey's and
       Ctrl-C, no longer a key, ended the program whatever it was for */
    term_resume();
    termkey_start(tk);
    got_winch = 1; /* the size may have changed meanwhile */
}

/* A signal that came while ppoll also found the keyboard ready stays pending: ppoll lets a
 * signal in only when it returns for it. Taken here as if it had been delivered, but for
 * one ignored from the start: blocked, it is pending like the others (a blocked signal is
 * never discarded), and its action is still to be ignored. */
static void take_pending(void)
{
    sigset_t p;
    if (sigpending(&p) != 0)
        return;
    for (size_t i = 0; i < NCAUGHT; i++) {
        int sig = caught_sigs[i];
        if (!sigismember(&p, sig) || ignored_from_start(i))
            continue;
        if (sig == SIGWINCH)
            got_winch = 1;
        else if (sig == SIGTSTP)
            got_tstp = 1;
        else
            got_stop = sig;
    }
}

/* The terminal went away (hung up, closed, the key reader at its end): the screen ends as
 * on SIGHUP; when SIGHUP was ignored from the start (nohup) it ends with an error. */
static int terminal_gone(gt_error *e)
{
    for (size_t i = 0; i < NCAUGHT; i++)
        if (caught_sigs[i] == SIGHUP && ignored_from_start(i))
            return gt_fail(e, GT_EFAIL, "the terminal went away");
    got_stop = SIGHUP;
    return GT_OK;
}

int ui_translate_key(const TermKeyKey *tk, gt_key *k)
{
    memset(k, 0, sizeof *k);
    k->ctrl = !!(tk->modifiers & TERMKEY_KEYMOD_CTRL);
    k->shift = !!(tk->modifiers & TERMKEY_KEYMOD_SHIFT);
    if (tk->type == TERMKEY_TYPE_UNICODE) {
        k->sym = K_CHAR;
        k->cp = (uint32_t)tk->code.codepoint;
        if (k->ctrl && k->cp >= 'A' && k->cp <= 'Z')
            k->cp += 'a' - 'A';
        return 1;
    }
    if (tk->type != TERMKEY_TYPE_KEYSYM)
        return 0;
    switch (tk->code.sym) {
    case TERMKEY_SYM_LEFT: k->sym = K_LEFT; break;
    case TERMKEY_SYM_RIGHT: k->sym = K_RIGHT; break;
    case TERMKEY_SYM_UP: k->sym = K_UP; break;
    case TERMKEY_SYM_DOWN: k->sym = K_DOWN; break;
    case TERMKEY_SYM_PAGEUP: k->sym = K_PGUP; break;
    case TERMKEY_SYM_PAGEDOWN: k->sym = K_PGDN; break;
    case TERMKEY_SYM_HOME: case TERMKEY_SYM_BEGIN: k->sym = K_HOME; break;
    case TERMKEY_SYM_END: k->sym = K_END; break;
    case TERMKEY_SYM_ENTER: case TERMKEY_SYM_KPENTER: k->sym = K_ENTER; break;
    case TERMKEY_SYM_ESCAPE: k->sym = K_ESC; break;
    case TERMKEY_SYM_BACKSPACE: case TERMKEY_SYM_DEL: k->sym = K_BACKSPACE; break;
    case TERMKEY_SYM_TAB: k->sym = K_TAB; break;
    case TERMKEY_SYM_SPACE: k->sym = K_CHAR; k->cp = ' '; break;
    default: return 0;
    }
    return 1;
}

int ui_translate_mouse(TermKey *tk, const TermKeyKey *key, gt_key *k)
{
    TermKeyMouseEvent ev;
    int button, line, col;
    memset(k, 0, sizeof *k);
    if (termkey_interpret_mouse(tk, key, &ev, &button, &line, &col) != TERMKEY_RES_KEY ||
        ev != TERMKEY_MOUSE_PRESS)
        return 0;
    k->sym = button == 1 ? K_CLICK : button == 4 ? K_WHEEL_UP : button == 5 ? K_WHEEL_DOWN
                                                                            : K_NONE;
    k->x = col - 1; /* libtermkey counts from 1 */
    k->y = line - 1;
    return k->sym != K_NONE;
}

typedef struct loop {
    gt_models *ms;      /* the models; the view shown is models_view(ms) */
    gt_surface surf;    /* the frame on screen */
    TermKey *tk;
    int dirty;
    int partial;        /* libtermkey holds the start of a key (a lone Esc?) */
} loop;

static int draw(loop *L, gt_error *e)
{
    int cols = term_cols(), rows = term_rows(), rc;
    if (cols < 2) {
        /* nothing fits in one column, and ncurses cannot update the bottom-right cell of
         * such a terminal (it reads the cell to its left: an invalid read in valgrind) */
        L->dirty = 0;
        return GT_OK;
    }
    if (L->surf.w != cols || L->surf.h != rows || !L->surf.cells) {
        surf_free(&L->surf);
        if (surf_init(&L->surf, cols, rows, models_view(L->ms)->utf8))
            return gt_fail(e, GT_EFAIL, "out of memory for the screen");
    }
    gt_view *v = models_view(L->ms);
    if ((rc = view_prepare(v, cols, rows, e)))
        return rc;
    frame_draw(&L->surf, v);
    term_show(&L->surf);
    doupdate();
    L->dirty = 0;
    return GT_OK;
}

/* What the status line says while x's frame waits (never in the frame written). */
#define EXPORT_WAIT "x: the frame is written once it is computed (Esc: not written)"

static void do_export(loop *L)
{
    gt_view *v = models_view(L->ms);
    gt_error e = {0};
    char name[200];
    if (export_to_cwd(&L->surf, v->text_name, v->t, trace_edit_count(v->tr) > 0, name,
                      sizeof name, &e) == GT_OK) {
        view_say_kept(v, "frame written to ./%s", name);
        v->ui->msg_error = 0;
    } else {
        snprintf(v->ui->msg, sizeof v->ui->msg, "export failed: %.200s", e.msg);
        v->ui->msg_error = 1;
    }
}

/* Reads the keys that are waiting; 1 when the user quits, 2 at the end of the keys. */
static int read_keys(loop *L, int force)
{
    TermKeyKey key;
    TermKeyResult r;
    while ((r = force ? termkey_getkey_force(L->tk, &key) : termkey_getkey(L->tk, &key)) ==
           TERMKEY_RES_KEY) {
        take_pending(); /* a signal that came during a long queue of keys: taken at once */
        if (got_stop)
            return 0;
        force = 0;
        L->partial = 0;
        gt_key k;
        if (key.type == TERMKEY_TYPE_MOUSE ? !ui_translate_mouse(L->tk, &key, &k)
                                           : !ui_translate_key(&key, &k))
            continue;
        if (k.sym == K_CHAR && k.ctrl && k.cp == 'z') {
            got_tstp = 1;
            return 0;
        }
        switch (keys_handle_models(L->ms, &k)) {
        case ACT_QUIT: return 1;
        case ACT_EXPORT: L->ms->ui.export_wanted = 1; L->dirty = 1; break;
        case ACT_SESSION:
        case ACT_REDRAW: L->dirty = 1; break;
        case ACT_NONE: break;
        }
    }
    L->partial = r == TERMKEY_RES_AGAIN;
    return r == TERMKEY_RES_EOF || r == TERMKEY_RES_ERROR ? 2 : 0;
}

static int run_loop(loop *L, gt_error *e)
{
    int rc = GT_OK;
    while (!got_stop) {
        if (got_tstp) {
            suspend(L->tk);
            if (got_stop) /* came while stopped: nothing drawn, the terminal the shell's */
                break;
        }
        if (got_winch) {
            got_winch = 0;
            term_resize();
            L->dirty = 1;
        }
        if (models_tick(L->ms))
            L->dirty = 1;
        if (L->dirty && (rc = draw(L, e)))
            return rc;
        if (L->ms->ui.export_wanted) { /* x: the frame drawn, once nothing in it computes */
            gt_view *v = models_view(L->ms);
            /* nor a prompt or the help open over it */
            const int ready = !view_shown_busy(v) && v->ui->input == INPUT_KEYS;
            if (ready) { /* drawn again: what came since the last draw in it, not the wait */
                if (strcmp(v->ui->msg, EXPORT_WAIT) == 0)
                    v->ui->msg[0] = 0;
                if ((rc = draw(L, e)))
                    return rc;
                if (!view_shown_busy(v)) { /* (unless preparing it started more) */
                    L->ms->ui.export_wanted = 0;
                    do_export(L);
                    L->dirty = 1;
                    continue;
                }
            }
            if (L->ms->ui.export_wanted == 1) {
                L->ms->ui.export_wanted = 2;
                view_say(v, 0, "%s", EXPORT_WAIT);
                L->dirty = 1;
                continue;
            }
        }
        /* a tick a second when idle: a model file changed on disk is said (models_tick) */
        int timeout = models_busy(L->ms) ? 100 : 1000;
        if (L->partial) {
            int wait = termkey_get_waittime(L->tk);
            if (wait < timeout)
                timeout = wait;
        }
        struct pollfd fds[2] = {{STDIN_FILENO, POLLIN, 0}, {wake[0], POLLIN, 0}};
        struct timespec ts = {timeout / 1000, (long)(timeout % 1000) * 1000000L};
        int n = ppoll(fds, wake[0] >= 0 ? 2 : 1, &ts, &waiting);
        if (n < 0 && errno != EINTR)
            return gt_fail(e, GT_EFAIL, "reading the keyboard: %s", strerror(errno));
        if (n > 0 && fds[1].revents) {
            drain_wake();
            n -= 1;
        }
        take_pending();
        if (got_stop)
            break;
        if (n > 0) {
            if (fds[0].revents & (POLLHUP | POLLERR | POLLNVAL) ||
                termkey_advisereadable(L->tk) == TERMKEY_RES_ERROR)
                return terminal_gone(e);
        }
        int was_partial = L->partial;
        int r = n > 0 ? read_keys(L, 0) : n == 0 && was_partial ? read_keys(L, 1) : 0;
        if (r == 2)
            return terminal_gone(e);
        if (r) /* q, or the end of the keys (a lone Esc is forced out after its wait) */
            return GT_OK;
    }
    return GT_OK;
}

/* What the screen opens on: the session's state (--session, whose file W then writes
 * again), or the command line's edits made, the cursor at the first step. */
static int start_state(gt_models *ms, const gt_screen_opts *o, gt_error *e)
{
    gt_view *v = models_view(ms);
    if (o->state) {
        sessionstate_own(ms, o->state_file);
        int rc = sessionstate_restore(ms, o->state, o->state_file, e);
        if (rc == GT_OK)
            view_say(models_view(ms), 0, "session %s opened", o->state_file);
        return rc;
    }
    gt_editlist l;
    int rc = editlist_parse(&l, v->m, v->text, o->edits, o->nedits, e);
    if (rc == GT_OK)
        rc = view_apply_edits(v, &l, e);
    editlist_free(&l);
    return rc;
}

int ui_main(const gt_session *sm, const gt_screen_opts *o, gt_error *e)
{
    if (!isatty(STDOUT_FILENO) || !isatty(STDIN_FILENO))
        return gt_fail(e, GT_EINPUT,
                       "the screen needs a terminal (standard %s is not one); without one use "
                       "--report, --dump or --export FILE --step N",
                       isatty(STDOUT_FILENO) ? "input" : "output");
    char why[160];
    if (!term_usable(o->term, why, sizeof why))
        return gt_fail(e, GT_EINPUT,
                       "%s; the screen needs one that can (e.g. TERM=xterm-256color), or use "
                       "--report, --dump or --export FILE --step N",
                       why);
    catch_signals(); /* before any thread, and before curses, which then leaves them to us */
    threads_background_wanted(); /* the keys before the background's work */
    gt_models ms;
    int rc = models_open(&ms, sm, o->threads, o->layer,
                         strcmp(nl_langinfo(CODESET), "UTF-8") == 0, e);
    if (rc) {
        release_signals();
        return rc;
    }
    for (int k = 0; k < ms.n && o->steps > 0; k++)
        ms.v[k].find.steps = (size_t)o->steps;
    if ((rc = start_state(&ms, o, e))) {
        models_close(&ms);
        release_signals();
        return rc;
    }
    ms.ui.pass_wanted = 1;
    gt_view *shown = models_view(&ms);
    trace_pass_start(shown->tr, shown->steps, NULL);
    view_seek(shown, ms.ui.t);

    loop L = {&ms, {0}, NULL, 1, 0};
    if (term_start(NULL, NULL, o->color, o->mouse)) {
        rc = gt_fail(e, GT_EFAIL, "cannot start the screen (TERM=%s)", o->term ? o->term : "");
    } else {
        for (int k = 0; k < ms.n; k++) /* each curve drawn with its letter */
            ms.v[k].mono = term_colors() == 0;
        L.tk = termkey_new(STDIN_FILENO, TERMKEY_FLAG_CTRLC);
        if (!L.tk)
            rc = gt_fail(e, GT_EFAIL, "cannot read the keyboard (libtermkey)");
        else
            rc = run_loop(&L, e);
        if (L.tk)
            termkey_destroy(L.tk);
        term_stop();
    }
    surf_free(&L.surf);
    models_close(&ms);
    if (got_stop) /* die of the signal, now that the terminal is restored */
        default_action(got_stop);
    release_signals();
    return rc;
}
