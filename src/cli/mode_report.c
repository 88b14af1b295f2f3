/* --report: the gate statistics tables, or their JSON (doc/usage.md, "--report"). */
#include "config.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "gatetui/compare.h"
#include "gatetui/loss.h"
#include "gatetui/report.h"

#define STR_(x) #x
#define STR(x) STR_(x)

/* The loss of the model without interventions over the report's windows, when it has
 * some (count 0 otherwise). */
static int base_loss(const gt_session_model *ms, const gt_report_options *o, const gt_text *t,
                     gt_loss *l, gt_error *e)
{
    memset(l, 0, sizeof *l);
    if (!ms->what[0])
        return GT_OK;
    return loss_measure(l, ms->base, t->tok, t->steps, (size_t)o->window_len,
                        (size_t)o->windows, o->threads, e);
}

int cli_report_one(const cli *c, const gt_session_model *ms, const gt_text *t, gt_report *r,
                   gt_error *e)
{
    gt_report_options o;
    cli_progress p;
    cli_report_options(c, &o, &p);
    gt_loss lb;
    int rc = base_loss(ms, &o, t, &lb, e);
    if (!rc)
        rc = report_compute(r, &ms->mi, t->tok, t->steps, &o, e);
    cli_progress_end(&p);
    if (rc)
        return rc;
    cli_report_note(r, o.windows_asked, t->steps);
    r->m = ms->base;
    r->interventions = ms->what;
    r->loss_base = lb;
    return GT_OK;
}

static int report_each(FILE *out, const cli *c, const gt_session_model *ms, const gt_text *t,
                       gt_error *e)
{
    gt_report r;
    int rc = cli_report_one(c, ms, t, &r, e);
    if (rc)
        return rc;
    rc = c->json ? report_print_json(out, &r, e)
                 : report_print_text(out, &r, t->path, e);
    report_free(&r);
    return rc;
}

/* Several models' text: the compact table (compare.h), then with --full each model's whole
 * report after it, one after the other. */
static int report_compare(const cli *c, gt_session *s, gt_report *r, gt_compare_col *col,
                          gt_error *e)
{
    int done = 0, rc = GT_OK;
    for (; rc == GT_OK && done < s->n; done++) {
        if ((rc = session_text_for(s, done, e)) == GT_OK &&
            (rc = cli_report_one(c, &s->model[done], &s->text, &r[done], e)) == GT_OK)
            compare_col(&col[done], &r[done], s->model[done].name);
        else
            break;
    }
    int back = session_text_for(s, 0, e);
    if (rc == GT_OK)
        rc = back;
    if (rc == GT_OK)
        rc = compare_print(stdout, col, s->n, &r[0], s->text.path, e);
    for (int k = 0; rc == GT_OK && c->full && k < s->n; k++) {
        fputc('\n', stdout);
        rc = report_print_text(stdout, &r[k], s->text.path, e);
    }
    for (int k = 0; k < done; k++)
        report_free(&r[k]);
    return rc;
}

static int report_run(const cli *c, gt_session *s, gt_error *e)
{
    if (s->n == 1 || c->json)
        return cli_each_model(c, s, report_each, e);
    gt_report *r = calloc((size_t)s->n, sizeof *r);
    gt_compare_col *col = calloc((size_t)s->n, sizeof *col);
    int rc = r && col ? report_compare(c, s, r, col, e) : gt_fail(e, GT_EFAIL, "out of memory");
    free(r);
    free(col);
    return rc;
}

/* --windows N: N, and that it was asked for (cli_windows_note says when the text holds
 * fewer) */
static int cli_set_windows(cli *c, const cli_option *o, const char *arg)
{
    int rc = cli_set_count(c, o, arg);
    if (rc == GT_OK)
        c->report.windows_asked = c->report.windows;
    return rc;
}

static const cli_option report_opts[] = {
    {"json", 0, cli_set_flag, offsetof(cli, json), 0},
    {"full", 0, cli_set_flag, offsetof(cli, full), 0},
    {"windows", 1, cli_set_windows, offsetof(cli, report.windows), 1},
    {"window-len", 1, cli_set_count, offsetof(cli, report.window_len), 2},
    {"horizon", 1, cli_set_count, offsetof(cli, report.horizon), 1},
    {0}};

const cli_mode cli_mode_report = {
    .name = "report",
    .option = "report",
    .run = report_run,
    .opts = report_opts,
    .usage = "--report [--json] [--full] [--layer N] [--windows N] [--window-len L] [--horizon K] "
             "MODEL [MODEL ...] TEXT",
    .help = "  --report            print the gate statistics tables (--json: as JSON)\n"
            "  --full              report, several models: each model's whole report after\n"
            "                      the table that compares them\n"
            "  --windows N         report, importance, effect, figure: number of windows\n"
            "                      (default " STR(REPORT_WINDOWS) ")\n"
            "  --window-len L      report, importance, effect, figure: window length\n"
            "                      (default " STR(REPORT_WINDOW_LEN) ")\n"
            "  --horizon K         report, figure: perturbation horizon (default "
            STR(REPORT_HORIZON) ", or\n"
            "                      what a window holds after its edit: L - L/4 - 1; no more);\n"
            "                      carriers: the steps after the edit (default 64)\n",
};
