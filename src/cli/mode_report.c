/* --report: the gate statistics tables, or their JSON (doc/usage.md, "--report"). */
#include "config.h"

#include <stddef.h>
#include <string.h>

#include "cli/cli.h"
#include "gatetui/loss.h"
#include "gatetui/report.h"

#define STR_(x) #x
#define STR(x) STR_(x)

/* The loss of the model without interventions over the report's windows, when it has
 * some (count 0 otherwise). */
static int base_loss(const intervened *ms, const gt_report_options *o, const gt_text *t,
                     gt_loss *l, gt_error *e)
{
    memset(l, 0, sizeof *l);
    if (!ms->what[0])
        return GT_OK;
    return loss_measure(l, ms->base, t->tok, t->steps, (size_t)o->window_len,
                        (size_t)o->windows, o->threads, e);
}

static int report_each(FILE *out, const cli *c, const intervened *ms, const gt_text *t,
                       gt_error *e)
{
    gt_report_options o;
    cli_progress p;
    cli_report_options(c, &o, &p);
    gt_report r;
    gt_loss lb;
    int rc = base_loss(ms, &o, t, &lb, e);
    if (!rc)
        rc = report_compute(&r, &ms->mi, t->tok, t->steps, &o, e);
    cli_progress_end(&p);
    if (rc)
        return rc;
    r.m = ms->base;
    r.interventions = ms->what;
    r.loss_base = lb;
    rc = c->json ? report_print_json(out, &r, e)
                 : report_print_text(out, &r, t->path, e);
    report_free(&r);
    return rc;
}

static const cli_option report_opts[] = {
    {"json", 0, cli_set_flag, offsetof(cli, json), 0},
    {"windows", 1, cli_set_count, offsetof(cli, report.windows), 1},
    {"window-len", 1, cli_set_count, offsetof(cli, report.window_len), 2},
    {"horizon", 1, cli_set_count, offsetof(cli, report.horizon), 1},
    {0}};

const cli_mode cli_mode_report = {
    .name = "report",
    .option = "report",
    .each = report_each,
    .opts = report_opts,
    .usage = "--report [--json] [--layer N] [--windows N] [--window-len L] [--horizon K] "
             "MODEL [MODEL ...] TEXT",
    .help = "  --report            print the gate statistics tables (--json: as JSON)\n"
            "  --windows N         report: number of windows (default " STR(REPORT_WINDOWS) ")\n"
            "  --window-len L      report: window length (default " STR(REPORT_WINDOW_LEN) ")\n"
            "  --horizon K         report: perturbation horizon (default " STR(REPORT_HORIZON)
            ")\n",
};
