/* A computation in a child process (see bgjob.h). Through the pipe: "p PERMILLE\n" lines,
 * then "r\n" and the result's bytes to the end, or "e MESSAGE\n". */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include "gatetui/fileio.h"
#include "gatetui/numlibs.h"
#include "compute/threads.h"
#include "screen/bgjob.h"

void bgjob_init(gt_bgjob *j)
{
    memset(j, 0, sizeof *j);
    j->fd = -1;
}

/* ---- the child ---- */

void bgjob_progress(void *job, double done)
{
    gt_bgjob *j = job;
    int pm = (int)(done * 1000);
    if (pm == j->last)
        return;
    j->last = pm;
    char line[32];
    int n = snprintf(line, sizeof line, "p %d\n", pm);
    write_all(j->fd, line, (size_t)n);
}

void bgjob_note(gt_bgjob *j, const char *line)
{
    char buf[264];
    int n = snprintf(buf, sizeof buf, "n %.250s\n", line);
    write_all(j->fd, buf, (size_t)n);
}

void bgjob_write(gt_bgjob *j, const void *p, size_t n)
{
    if (!j->len) { /* the result begins */
        write_all(j->fd, "r\n", 2);
        j->len = 1;
    }
    write_all(j->fd, p, n);
}

static void child_main(gt_bgjob *j, gt_bgjob_fn fn, void *ctx, pid_t parent)
{
    /* the screen's handlers are not the child's business; the screen blocks its signals
     * (not the faults), the child takes them as they come */
    static const int screen_sigs[] = {SIGINT,   SIGTERM, SIGHUP, SIGQUIT,
                                      SIGWINCH, SIGPIPE, SIGTSTP};
    static const int fault_sigs[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
    sigset_t mine;
    sigemptyset(&mine);
    for (size_t i = 0; i < sizeof screen_sigs / sizeof screen_sigs[0]; i++) {
        signal(screen_sigs[i], SIG_DFL);
        sigaddset(&mine, screen_sigs[i]);
    }
    for (size_t i = 0; i < sizeof fault_sigs / sizeof fault_sigs[0]; i++)
        signal(fault_sigs[i], SIG_DFL);
    sigprocmask(SIG_UNBLOCK, &mine, NULL);
#ifdef __linux__
    prctl(PR_SET_PDEATHSIG, SIGKILL); /* not to outlive the screen */
    if (getppid() != parent) /* it ended before the line above */
        _exit(1);
#else
    (void)parent;
#endif
    threads_background(); /* the screen's keys first (doc/architecture.md, "Concurrency") */
    j->last = -1;
    j->len = 0; /* no result written yet */
    char why[256] = "";
    if (fn(j, ctx, why)) {
        char line[300];
        int len = snprintf(line, sizeof line, "e %.250s\n", why[0] ? why : "failed");
        write_all(j->fd, line, (size_t)len);
    } else if (!j->len) {
        write_all(j->fd, "r\n", 2); /* an empty result */
    }
    _exit(0);
}

/* ---- the screen's side ---- */

static void stop_child(gt_bgjob *j, int kill_it)
{
    if (j->pid > 0) {
        if (kill_it)
            kill(j->pid, SIGKILL);
        while (waitpid(j->pid, NULL, 0) < 0 && errno == EINTR) {
        }
    }
    if (j->fd >= 0)
        close(j->fd);
    j->pid = 0;
    j->fd = -1;
}

void bgjob_cancel(gt_bgjob *j)
{
    stop_child(j, 1);
    free(j->buf);
    j->buf = j->result = NULL;
    j->len = j->cap = j->result_len = 0;
    j->error[0] = 0;
    j->note[0] = 0;
    j->permille = 0;
}

int bgjob_start(gt_bgjob *j, int tag, gt_bgjob_fn fn, void *ctx)
{
    bgjob_cancel(j);
    /* loaded before the fork: a child of a process with threads must not load a library
       (gatetui/numlibs.h) */
    gt_error e = {0};
    if (numlibs_load(&e)) {
        snprintf(j->error, sizeof j->error, "%.200s", e.msg);
        return -1;
    }
    int fds[2];
    if (pipe(fds) < 0) {
        snprintf(j->error, sizeof j->error, "no pipe: %s", strerror(errno));
        return -1;
    }
    const pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(j->error, sizeof j->error, "cannot start: %s", strerror(errno));
        close(fds[0]);
        close(fds[1]);
        return -1;
    }
    if (pid == 0) {
        close(fds[0]);
        j->fd = fds[1];
        child_main(j, fn, ctx, parent);
    }
    close(fds[1]);
    fcntl(fds[0], F_SETFD, FD_CLOEXEC);
    fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK);
    j->pid = pid;
    j->fd = fds[0];
    j->tag = tag;
    return 0;
}

/* Reads what is waiting in the pipe; 1 at its end. */
static int drain(gt_bgjob *j)
{
    for (;;) {
        if (j->cap - j->len < 4096) {
            size_t cap = j->cap ? j->cap * 2 : 8192;
            char *nb = realloc(j->buf, cap + 1);
            if (!nb) {
                snprintf(j->error, sizeof j->error, "out of memory");
                return -1;
            }
            j->buf = nb;
            j->cap = cap;
        }
        ssize_t r = read(j->fd, j->buf + j->len, j->cap - j->len);
        if (r > 0) {
            j->len += (size_t)r;
            continue;
        }
        if (r < 0 && errno == EINTR)
            continue;
        return r == 0 || (errno != EAGAIN && errno != EWOULDBLOCK);
    }
}

int bgjob_tick(gt_bgjob *j)
{
    if (j->pid <= 0)
        return 0;
    int eof = drain(j);
    if (eof < 0) {
        stop_child(j, 1);
        return 1;
    }
    j->buf[j->len] = 0;
    char *p = j->buf, *err = NULL;
    int errlen = 0; /* the buffer is read again at the next tick: left as it came */
    while (p < j->buf + j->len) { /* the progress lines, up to the result */
        char *nl = memchr(p, '\n', (size_t)(j->buf + j->len - p));
        if (!nl)
            break;
        if (p[0] == 'p' && p[1] == ' ')
            j->permille = atoi(p + 2);
        else if (p[0] == 'n' && p[1] == ' ')
            snprintf(j->note, sizeof j->note, "%.*s", (int)(nl - p - 2 < 250 ? nl - p - 2 : 250),
                     p + 2);
        else if (p[0] == 'r' && p[1] == '\n') {
            j->result = nl + 1;
            break;
        } else if (p[0] == 'e' && p[1] == ' ') {
            err = p + 2;
            errlen = (int)(nl - err < 250 ? nl - err : 250);
            break;
        }
        p = nl + 1;
    }
    if (!eof) {
        j->result = NULL;
        return 0;
    }
    if (j->result)
        j->result_len = (size_t)(j->buf + j->len - j->result);
    else
        snprintf(j->error, sizeof j->error, "%.*s", err ? errlen : 250,
                 err ? err : "the computation ended without its result");
    stop_child(j, 0);
    return 1;
}

int bgjob_busy(const gt_bgjob *j)
{
    return j->pid > 0;
}

int bgjob_stop(gt_bgjob *j, int *state)
{
    if (!bgjob_busy(j))
        return 0;
    bgjob_cancel(j);
    *state = BG_STOPPED;
    return 1;
}

void bgjob_again(int *state)
{
    if (*state == BG_STOPPED || *state == BG_FAILED)
        *state = BG_NONE;
}

int bgjob_deliver(gt_bgjob *j, void (*take)(void *ctx, const char *p, size_t n),
                  void (*fail)(void *ctx, const char *why), void *ctx)
{
    if (!bgjob_busy(j))
        return 0;
    if (bgjob_tick(j)) {
        if (j->result)
            take(ctx, j->result, j->result_len);
        else
            fail(ctx, j->error);
        bgjob_cancel(j);
    }
    return 1;
}

double bgjob_done(const gt_bgjob *j)
{
    return j->permille / 1000.0;
}
