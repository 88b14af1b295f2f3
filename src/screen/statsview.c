/* The report computed by a child process for the stats view (see statsview.h).
 *
 * The child (a fork: the model and the tokens are already in its memory) computes the
 * report with report.h, writes "p PERMILLE\n" lines as it goes, then "t\n" and the tables,
 * or "e MESSAGE\n", and exits. The parent reads the pipe without blocking whenever the
 * screen ticks. */
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
#include "gatetui/report.h"
#include "screen/statsview.h"
#include "screen/surface.h"

int statsview_init(gt_statsview *sv, const gt_model *m, gt_trace *tr, const char *text_name,
                   gt_error *e)
{
    memset(sv, 0, sizeof *sv);
    sv->m = m;
    sv->tr = tr;
    sv->layers = m->layers;
    sv->fd = -1;
    snprintf(sv->text_name, sizeof sv->text_name, "%s", text_name);
    sv->text = calloc((size_t)m->layers, sizeof *sv->text);
    sv->lines = calloc((size_t)m->layers, sizeof *sv->lines);
    sv->width = calloc((size_t)m->layers, sizeof *sv->width);
    if (!sv->text || !sv->lines || !sv->width) {
        statsview_free(sv);
        return gt_fail(e, GT_EFAIL, "out of memory for the stats view");
    }
    return GT_OK;
}

/* ---- the child ---- */

typedef struct child_ctx {
    int fd, last;
} child_ctx;

static void child_progress(void *ctx, double done)
{
    child_ctx *c = ctx;
    int pm = (int)(done * 1000);
    if (pm == c->last)
        return;
    c->last = pm;
    char line[32];
    int n = snprintf(line, sizeof line, "p %d\n", pm);
    write_all(c->fd, line, (size_t)n);
}

static void child_main(const gt_statsview *sv, int layer, int fd)
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
    if (getppid() == 1)
        _exit(1);
#endif
    child_ctx c = {fd, -1};
    gt_report_options o;
    report_options_init(&o);
    o.layer = layer;
    o.progress = child_progress;
    o.progress_ctx = &c;
    gt_report r;
    gt_error e = {0};
    char *buf = NULL;
    size_t n = 0;
    const gt_text *t = trace_text(sv->tr); /* as loaded: the edits are kept beside it */
    int rc = report_compute(&r, sv->m, t->tok, t->steps, &o, &e);
    if (rc == GT_OK) {
        FILE *f = open_memstream(&buf, &n);
        int bad = !f || report_print_text(f, &r, sv->text_name, &e);
        if (f && fclose(f))
            bad = 1;
        if (bad)
            rc = gt_fail(&e, GT_EFAIL, "out of memory for the tables");
    }
    if (rc == GT_OK) {
        write_all(fd, "t\n", 2);
        write_all(fd, buf, n);
    } else {
        char line[300];
        int len = snprintf(line, sizeof line, "e %.250s\n", e.msg);
        write_all(fd, line, (size_t)len);
    }
    _exit(0);
}

/* ---- the screen's side ---- */

static void stop_child(gt_statsview *sv, int kill_it)
{
    if (sv->pid > 0) {
        if (kill_it)
            kill(sv->pid, SIGKILL);
        while (waitpid(sv->pid, NULL, 0) < 0 && errno == EINTR) {
        }
    }
    if (sv->fd >= 0)
        close(sv->fd);
    sv->pid = 0;
    sv->fd = -1;
    free(sv->buf);
    sv->buf = NULL;
    sv->len = sv->cap = 0;
}

static void start(gt_statsview *sv, int layer)
{
    int fds[2];
    sv->error[0] = 0;
    if (pipe(fds) < 0) {
        snprintf(sv->error, sizeof sv->error, "report: no pipe: %s", strerror(errno));
        return;
    }
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(sv->error, sizeof sv->error, "report: cannot start: %s", strerror(errno));
        close(fds[0]);
        close(fds[1]);
        return;
    }
    if (pid == 0) {
        close(fds[0]);
        child_main(sv, layer, fds[1]);
    }
    close(fds[1]);
    fcntl(fds[0], F_SETFD, FD_CLOEXEC);
    fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK);
    sv->pid = pid;
    sv->fd = fds[0];
    sv->run_layer = layer;
    sv->permille = 0;
}

void statsview_cancel(gt_statsview *sv)
{
    stop_child(sv, 1);
}

void statsview_free(gt_statsview *sv)
{
    stop_child(sv, 1);
    for (int k = 0; sv->text && k < sv->layers; k++)
        free(sv->text[k]);
    free(sv->text);
    free(sv->lines);
    free(sv->width);
    memset(sv, 0, sizeof *sv);
    sv->fd = -1;
}

void statsview_want(gt_statsview *sv, int layer)
{
    if (layer < 0 || layer >= sv->layers || sv->text[layer])
        return;
    if (sv->pid > 0) {
        if (sv->run_layer == layer)
            return;
        stop_child(sv, 1);
    }
    start(sv, layer);
}

/* The tables (after "t\n") become layer k's text. */
static void take_tables(gt_statsview *sv, char *text)
{
    int k = sv->run_layer, lines = 0, width = 0;
    for (char *p = text; *p;) {
        char *nl = strchr(p, '\n');
        if (nl)
            *nl = 0;
        int w = surf_width(p);
        width = w > width ? w : width;
        lines++;
        if (!nl)
            break;
        *nl = '\n';
        p = nl + 1;
    }
    free(sv->text[k]);
    sv->text[k] = strdup(text);
    sv->lines[k] = lines;
    sv->width[k] = width;
    if (!sv->text[k])
        snprintf(sv->error, sizeof sv->error, "report of layer %d: out of memory", k);
}

int statsview_tick(gt_statsview *sv)
{
    if (sv->pid <= 0)
        return 0;
    int eof = 0;
    for (;;) {
        if (sv->cap - sv->len < 4096) {
            size_t cap = sv->cap ? sv->cap * 2 : 8192;
            char *nb = realloc(sv->buf, cap + 1);
            if (!nb) {
                stop_child(sv, 1);
                snprintf(sv->error, sizeof sv->error, "report: out of memory");
                return 1;
            }
            sv->buf = nb;
            sv->cap = cap;
        }
        ssize_t r = read(sv->fd, sv->buf + sv->len, sv->cap - sv->len);
        if (r > 0) {
            sv->len += (size_t)r;
            continue;
        }
        if (r == 0)
            eof = 1;
        else if (errno == EINTR)
            continue;
        else if (errno != EAGAIN && errno != EWOULDBLOCK)
            eof = 1;
        break;
    }
    sv->buf[sv->len] = 0;
    /* the progress lines, up to the tables */
    char *p = sv->buf, *tables = NULL, *err = NULL;
    while (*p) {
        char *nl = strchr(p, '\n');
        if (!nl)
            break;
        if (p[0] == 'p' && p[1] == ' ')
            sv->permille = atoi(p + 2);
        else if (p[0] == 't' && p[1] == '\n') {
            tables = nl + 1;
            break;
        } else if (p[0] == 'e' && p[1] == ' ') {
            *nl = 0;
            err = p + 2;
            break;
        }
        p = nl + 1;
    }
    if (!eof)
        return 1;
    if (tables)
        take_tables(sv, tables);
    else
        snprintf(sv->error, sizeof sv->error, "report of layer %d: %.200s", sv->run_layer,
                 err ? err : "the computation ended without its tables");
    stop_child(sv, 0);
    return 1;
}

int statsview_busy(const gt_statsview *sv)
{
    return sv->pid > 0;
}

double statsview_progress(const gt_statsview *sv, int *layer)
{
    if (layer)
        *layer = sv->run_layer;
    return sv->permille / 1000.0;
}
