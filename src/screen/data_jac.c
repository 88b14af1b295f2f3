/* The Jacobian view's data (see data_jac.h). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "screen/data_jac.h"

int data_jac_init(gt_data_jac *jv, const gt_model *m, gt_error *e)
{
    memset(jv, 0, sizeof *jv);
    jv->m = m;
    jv->horizon = DATA_JAC_KDEFAULT;
    jv->j_layer = -1;
    const size_t LH = (size_t)m->layers * m->hidden;
    jv->h0 = malloc(LH * sizeof *jv->h0);
    jv->c0 = malloc(LH * sizeof *jv->c0);
    jv->tok = malloc((DATA_JAC_KMAX + 1) * sizeof *jv->tok);
    jv->lag = calloc(DATA_JAC_KMAX, sizeof *jv->lag);
    if (!jv->h0 || !jv->c0 || !jv->tok || !jv->lag) {
        data_jac_free(jv);
        return gt_fail(e, GT_EFAIL, "out of memory for the Jacobian view");
    }
    return GT_OK;
}

void data_jac_free(gt_data_jac *jv)
{
    if (jv->j_layer >= 0)
        jacobian_free(&jv->j);
    free(jv->h0);
    free(jv->c0);
    free(jv->tok);
    free(jv->lag);
    memset(jv, 0, sizeof *jv);
    jv->j_layer = -1;
}

void data_jac_model_changed(gt_data_jac *jv)
{
    if (jv->j_layer >= 0)
        jacobian_free(&jv->j);
    jv->j_layer = -1;
    jv->valid = 0;
}

void data_jac_invalidate(gt_data_jac *jv)
{
    jv->valid = 0;
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return 1e3 * (double)ts.tv_sec + 1e-6 * (double)ts.tv_nsec;
}

/* J at step t of layer, K = min(horizon, t) lags. */
static int compute(gt_data_jac *jv, gt_trace *tr, int layer, size_t t, gt_error *e)
{
    const int K = t < (size_t)jv->horizon ? (int)t : jv->horizon;
    if (jv->j_layer != layer) {
        if (jv->j_layer >= 0)
            jacobian_free(&jv->j);
        jv->j_layer = -1;
        int rc = jacobian_init(&jv->j, jv->m, layer, DATA_JAC_KMAX, jv->threads, e);
        if (rc)
            return rc;
        jv->j_layer = layer;
    }
    jv->K = K;
    if (K == 0)
        return GT_OK;
    double t0 = now_ms();
    int rc = trace_state_before(tr, t - (size_t)K, jv->h0, jv->c0, e);
    if (!rc) {
        trace_read(tr, t - (size_t)K, (size_t)K + 1, jv->tok); /* T - K .. T, as edited */
        rc = jacobian_run(&jv->j, jv->h0, jv->c0, jv->tok, K, e);
    }
    jv->ms = now_ms() - t0;
    return rc;
}

void data_jac_update(gt_data_jac *jv, gt_trace *tr, int layer, size_t t, int unit, int horizon)
{
    jv->horizon = horizon;
    int want_K = t < (size_t)jv->horizon ? (int)t : jv->horizon;
    if (!jv->valid || jv->step != t || jv->layer != layer || jv->K != want_K) {
        gt_error e = {0};
        jv->valid = 0;
        jv->error[0] = 0;
        if (compute(jv, tr, layer, t, &e)) {
            snprintf(jv->error, sizeof jv->error, "%s", e.msg);
            return;
        }
        jv->valid = 1;
        jv->step = t;
        jv->layer = layer;
    }
    jv->unit = unit;
    for (int k = 1; k <= jv->K; k++)
        jacobian_lag(&jv->j, k, unit, &jv->lag[k - 1]);
}
