/* --jacobian: dc_T/dc_(T-k) against the carry line at step T (doc/usage.md). */
#include "config.h"

#include <pthread.h>
#include <stddef.h>

#include "cli/cli.h"
#include "gatetui/jacobian.h"
#include "gatetui/run.h"

/* The longest lag --jacobian takes (its memory grows as K x H). */
#define JACOBIAN_MAX_LAG 100000

static int jacobian_check_args(const cli *c, const gt_model *m, const gt_text *t, int layer,
                               long unit, gt_error *e)
{
    const size_t T = (size_t)c->step;
    if (T >= t->steps)
        return cli_past_end(e, "--step", c->step, t->steps);
    if (c->lag > JACOBIAN_MAX_LAG)
        return gt_fail(e, GT_EINPUT, "--lag %ld: at most %d", c->lag, JACOBIAN_MAX_LAG);
    if ((size_t)c->lag > T)
        return gt_fail(e, GT_EINPUT, "--step %zu --lag %ld: the lags reach back before step 0 "
                       "(T - K = %ld)", T, c->lag, (long)T - c->lag);
    const int H = model_width(m, layer);
    if (unit >= H)
        return gt_fail(e, GT_EINPUT, "--unit %ld: layer %d has %d unit%s (0..%d)", unit, layer,
                       H, H == 1 ? "" : "s", H - 1);
    return GT_OK;
}

/* The Jacobian's buffers made on a thread of their own while the run steps to T - K: the
 * two take about as long (doc/speed.md, "The Jacobian"). */
typedef struct jac_setup {
    gt_jacobian *j;
    const gt_model *m;
    int layer, K, threads, rc;
    gt_error e;
} jac_setup;

static void *setup_run(void *arg)
{
    jac_setup *s = arg;
    s->rc = jacobian_init(s->j, s->m, s->layer, s->K, s->threads, &s->e);
    return NULL;
}

static int jacobian_each(FILE *out, const cli *c, const gt_session_model *im, const gt_text *t,
                         gt_error *e)
{
    const gt_model *m = &im->mi;
    cli_say_interventions(im);
    const int layer = c->layer < 0 ? 0 : (int)c->layer;
    const long unit = c->find.unit < 0 ? 0 : c->find.unit;
    int rc = jacobian_check_args(c, m, t, layer, unit, e);
    if (rc)
        return rc;
    const size_t T = (size_t)c->step;
    const int K = (int)c->lag;
    gt_run r;
    if ((rc = run_init(&r, m, e)))
        return rc;
    gt_jacobian j;
    jac_setup su = {&j, m, layer, K, c->env.threads < 0 ? 0 : c->env.threads, 0, {0}};
    pthread_t setup;
    const int apart = pthread_create(&setup, NULL, setup_run, &su) == 0;
    for (size_t s = 0; s < T - (size_t)K && !rc; s++) { /* the state before step T - K */
        run_step_layers(&r, t->tok[s], layer);
        rc = run_check_finite(&r, layer, s, e);
    }
    if (apart)
        pthread_join(setup, NULL);
    else
        setup_run(&su);
    if (rc || su.rc) {
        if (!su.rc)
            jacobian_free(&j);
        else if (!rc)
            *e = su.e, rc = su.rc;
        run_free(&r);
        return rc;
    }
    if (!rc)
        rc = jacobian_run(&j, r.h, r.c, t->tok + T - K, K, e);
    for (size_t s = T - (size_t)K; s <= T && !rc; s++) { /* the steps it ran, in float32 */
        run_step_layers(&r, t->tok[s], layer);
        rc = run_check_finite(&r, layer, s, e);
    }
    run_free(&r);
    if (!rc)
        rc = c->matrix ? jacobian_print_matrix(out, &j, e)
             : c->json ? jacobian_print_json(out, &j, T, (int)unit, e)
                       : jacobian_print_text(out, &j, T, (int)unit, e);
    jacobian_free(&j);
    return rc;
}

static const cli_option jacobian_opts[] = {
    {"lag", 1, cli_set_count, offsetof(cli, lag), 1},
    {"matrix", 0, cli_set_flag, offsetof(cli, matrix), 0},
    {0}};

const cli_mode cli_mode_jacobian = {
    .name = "jacobian",
    .option = "jacobian",
    .needs_step = "T",
    .each = jacobian_each,
    .opts = jacobian_opts,
    .usage = "--jacobian --step T [--lag K] [--unit J] [--layer N] [--json | --matrix] "
             "MODEL [MODEL ...] TEXT",
    .help = "  --jacobian          dc_T/dc_(T-k) (GRU: h) against the carry line at --step T\n"
            "  --lag K             jacobian: lags k = 1..K (default 32)\n"
            "  --matrix            jacobian: J at lag K as CSV (row i, column j) instead\n",
};
