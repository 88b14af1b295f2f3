/* The derivative view's eigenvalues (see data_eig.h). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gatetui/dynamics.h"
#include "screen/data_eig.h"

int data_eig_init(gt_data_eig *de, const gt_model *m, gt_error *e)
{
    memset(de, 0, sizeof *de);
    bgjob_init(&de->job);
    de->m = m;
    de->n = dyn_state_size(m);
    de->H = m->hidden;
    const size_t LH = (size_t)m->layers * m->hidden;
    de->h0 = malloc(LH * sizeof *de->h0);
    de->c0 = malloc(LH * sizeof *de->c0);
    de->abs = malloc((size_t)(de->n + de->H) * sizeof *de->abs);
    if (!de->h0 || !de->c0 || !de->abs) {
        data_eig_free(de);
        return gt_fail(e, GT_EFAIL, "out of memory for the derivative view's eigenvalues");
    }
    de->carry = de->abs + de->n;
    return GT_OK;
}

void data_eig_free(gt_data_eig *de)
{
    bgjob_cancel(&de->job);
    free(de->h0);
    free(de->c0);
    free(de->abs);
    de->h0 = de->c0 = NULL;
    de->abs = de->carry = NULL;
    de->valid = 0;
}

void data_eig_invalidate(gt_data_eig *de)
{
    bgjob_cancel(&de->job);
    de->valid = 0;
}

/* In the child: the moduli, then the carry gates, as doubles. */
static int eig_job(gt_bgjob *job, void *ctx, char *why)
{
    const gt_data_eig *de = ctx;
    gt_spectrum s;
    gt_error e = {0};
    if (spectrum_from(&s, de->m, de->job_layer, de->h0, de->c0, (uint16_t)de->job_tok,
                      de->job_step, &e)) {
        snprintf(why, 256, "%.200s", e.msg);
        return 1;
    }
    bgjob_write(job, s.abs, (size_t)s.n * sizeof *s.abs);
    bgjob_write(job, s.carry, (size_t)s.H * sizeof *s.carry);
    spectrum_free(&s);
    return 0;
}

void data_eig_want(gt_data_eig *de, gt_trace *tr, int layer, size_t t)
{
    if (de->valid && de->step == t && de->layer == layer)
        return;
    if (bgjob_busy(&de->job) && de->job_step == t && de->job_layer == layer)
        return;
    gt_error e = {0};
    bgjob_cancel(&de->job);
    de->valid = 0;
    de->error[0] = 0;
    if (trace_state_before(tr, t, de->h0, de->c0, &e)) {
        snprintf(de->error, sizeof de->error, "%.200s", e.msg);
        return;
    }
    de->job_step = t;
    de->job_layer = layer;
    de->job_tok = trace_token(tr, t);
    if (bgjob_start(&de->job, 0, eig_job, de))
        snprintf(de->error, sizeof de->error, "%s", de->job.error);
}

int data_eig_tick(gt_data_eig *de)
{
    if (!bgjob_busy(&de->job))
        return 0;
    if (bgjob_tick(&de->job)) {
        const size_t want = (size_t)(de->n + de->H) * sizeof *de->abs;
        if (de->job.result && de->job.result_len == want) {
            memcpy(de->abs, de->job.result, want);
            de->valid = 1;
            de->step = de->job_step;
            de->layer = de->job_layer;
        } else {
            snprintf(de->error, sizeof de->error, "eigenvalues at step %zu: %.200s",
                     de->job_step, de->job.result ? "a short result" : de->job.error);
        }
        bgjob_cancel(&de->job);
    }
    return 1;
}

int data_eig_busy(const gt_data_eig *de)
{
    return bgjob_busy(&de->job);
}
