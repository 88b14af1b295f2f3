/* --report --sweep-forget-bias A:B:STEP: the whole report for each shift of the layer's
 * forget bias (on top of the other interventions), one after the other. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "gatetui/intervene.h"
#include "gatetui/loss.h"
#include "gatetui/report.h"

/* --sweep-forget-bias A:B:STEP: the shifts A, A+STEP, ..., B (at most 1001) into d. */
static int sweep_shifts(const char *arg, double **d, int *n, gt_error *e)
{
    double a, b, st;
    char tail;
    if (sscanf(arg, "%lf:%lf:%lf%c", &a, &b, &st, &tail) != 3 || !isfinite(a) ||
        !isfinite(b) || !isfinite(st) || !(st > 0) || b < a)
        return gt_fail(e, GT_EINPUT, "--sweep-forget-bias wants A:B:STEP with A <= B and STEP "
                       "> 0, not \"%s\"", arg);
    double count = floor((b - a) / st + 1e-9) + 1;
    if (count > 1001)
        return gt_fail(e, GT_EINPUT, "--sweep-forget-bias %s: %.0f shifts, at most 1001", arg,
                       count);
    *n = (int)count;
    *d = malloc((size_t)*n * sizeof **d);
    if (!*d)
        return gt_fail(e, GT_EFAIL, "out of memory for the sweep");
    for (int i = 0; i < *n; i++)
        (*d)[i] = a + st * i;
    return GT_OK;
}

/* The report of ms with shift d of the layer's forget bias, into r (named what). */
static int shifted_report(gt_report *r, const gt_session_model *ms, const gt_report_options *o,
                          const gt_text *t, double d, char *what, size_t n, gt_error *e)
{
    gt_intervention iv;
    gt_model m;
    int rc = iv_copy(&iv, &ms->iv, e);
    if (rc)
        return rc;
    iv_shift(&iv, o->layer, -1, d);
    iv_describe(&iv, what, n);
    if (!(rc = iv_apply(&m, ms->base, &iv, e))) {
        if (!(rc = report_compute(r, &m, t->tok, t->steps, o, e)))
            cli_report_note(r, o->windows_asked, t->steps);
        iv_model_free(&m);
    }
    iv_free(&iv);
    return rc;
}

static int sweep_each(FILE *out, const cli *c, const gt_session_model *ms, const gt_text *t,
                      gt_error *e)
{
    gt_report_options o;
    cli_progress p;
    cli_report_options(c, &o, &p);
    double *d = NULL;
    int n = 0, rc = sweep_shifts(c->mode_arg, &d, &n, e);
    if (rc)
        return rc;
    gt_report *rs = calloc((size_t)n, sizeof *rs);
    char (*what)[1024] = calloc((size_t)n, sizeof *what);
    gt_loss lb;
    memset(&lb, 0, sizeof lb);
    if (!rs || !what)
        rc = gt_fail(e, GT_EFAIL, "out of memory for the sweep");
    if (!rc)
        rc = loss_measure(&lb, ms->base, t->tok, t->steps, (size_t)o.window_len,
                          (size_t)o.windows, o.threads, e);
    int done = 0;
    for (int i = 0; !rc && i < n; i++) {
        if (!(rc = shifted_report(&rs[i], ms, &o, t, d[i], what[i], sizeof what[i], e))) {
            rs[i].m = ms->base; /* the model named; its interventions are named apart */
            rs[i].interventions = what[i];
            rs[i].loss_base = lb;
            done++;
        }
    }
    cli_progress_end(&p);
    if (!rc)
        rc = c->json ? report_print_sweep_json(out, rs, d, n, e)
                     : report_print_sweep_text(out, rs, d, n, t->path, ms->what, e);
    for (int i = 0; i < done; i++)
        report_free(&rs[i]);
    free(rs);
    free(what);
    free(d);
    return rc;
}

/* The shifts checked before anything is loaded. */
static int sweep_check(const cli *c, gt_error *e)
{
    double *d = NULL;
    int n = 0, rc = sweep_shifts(c->mode_arg, &d, &n, e);
    free(d);
    return rc;
}

const cli_mode cli_mode_sweep = {
    .name = "sweep",
    .option = "sweep-forget-bias",
    .arg = 1,
    .with = "report",
    .check = sweep_check,
    .each = sweep_each,
    .usage = "--report --sweep-forget-bias A:B:STEP [--layer N] [--windows N] [--window-len L] "
             "[--horizon K] [--json] MODEL [MODEL ...] TEXT",
    .help = "  --sweep-forget-bias A:B:STEP  report: the whole report for each shift\n"
            "                      D = A, A+STEP, ..., B of the layer's forget bias, one row\n"
            "                      each\n",
};
