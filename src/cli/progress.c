/* The progress line of a long computation, and what it says of its options (cli.h). */
#include "config.h"

#include <stdio.h>
#include <time.h>

#include "cli/cli.h"

static void progress_show(void *ctx, double done)
{
    cli_progress *p = ctx;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    double el = (double)(now.tv_sec - p->start.tv_sec) +
                1e-9 * (double)(now.tv_nsec - p->start.tv_nsec);
    int percent = (int)(100 * done);
    if (el > 1.0 && (!p->shown || percent != p->percent)) {
        fprintf(stderr, "\rgatetui: %s %3d%%", p->what, percent);
        p->shown = 1;
        p->percent = percent;
    }
}

void cli_progress_start(cli_progress *p, const cli *c, void (**fn)(void *, double),
                        void **ctx)
{
    *p = (cli_progress){.shown = 0, .percent = -1, .what = c->mode->name};
    clock_gettime(CLOCK_MONOTONIC, &p->start);
    if (c->env.progress) {
        *fn = progress_show;
        *ctx = p;
    }
}

void cli_progress_end(const cli_progress *p)
{
    if (p->shown)
        fputs("\r\033[K", stderr);
}

void cli_windows_note(long asked, size_t used, size_t window_len, size_t steps,
                      const gt_model *m)
{
    static int said;
    char note[256];
    if (!said && report_windows_note(asked, used, window_len, steps, m, note, sizeof note)) {
        fprintf(stderr, "gatetui: %s\n", note);
        said = 1;
    }
}

void cli_report_note(const gt_report *r, long windows_asked, size_t steps)
{
    static int said;
    char note[256];
    cli_windows_note(windows_asked, r->windows, r->window_len, steps, r->m);
    if (!said && report_horizon_note(r, note, sizeof note)) {
        fprintf(stderr, "gatetui: %s\n", note);
        said = 1;
    }
}

void cli_report_options(const cli *c, gt_report_options *o, cli_progress *p)
{
    *o = c->report;
    o->layer = c->layer < 0 ? 0 : (int)c->layer;
    o->threads = c->env.threads < 0 ? 0 : c->env.threads;
    cli_progress_start(p, c, &o->progress, &o->progress_ctx);
}
