/* The run of the text before the last edit (see data_diff.h). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "screen/data_diff.h"

int data_diff_init(gt_data_diff *d, const gt_model *m, gt_error *e)
{
    memset(d, 0, sizeof *d);
    d->m = m;
    const size_t per = (size_t)(m->gates + 2) * (size_t)m->hidden_max * sizeof(float);
    d->span = DATA_DIFF_BUDGET / per;
    d->span = d->span > DATA_DIFF_SPAN ? DATA_DIFF_SPAN
              : d->span < DATA_DIFF_MIN_SPAN ? DATA_DIFF_MIN_SPAN : d->span;
    (void)e;
    return GT_OK;
}

/* The arrays and the run, at the first use. */
static int allocate(gt_data_diff *d, gt_error *e)
{
    const gt_model *m = d->m;
    /* a step of the widest layer's; every layer's state */
    const size_t H = (size_t)m->hidden_max, G = (size_t)m->gates, S = d->span;
    const size_t LH = (size_t)m->hidden_total;
    d->g = malloc(S * G * H * sizeof *d->g);
    d->c = malloc(S * H * sizeof *d->c);
    d->h = malloc(S * H * sizeof *d->h);
    d->h0 = malloc(LH * sizeof *d->h0);
    d->c0 = malloc(LH * sizeof *d->c0);
    d->tok = malloc(S * sizeof *d->tok);
    int rc = !d->g || !d->c || !d->h || !d->h0 || !d->c0 || !d->tok
                 ? gt_fail(e, GT_EFAIL, "out of memory for the difference")
                 : run_init(&d->run, m, e);
    if (rc) {
        free(d->g);
        free(d->c);
        free(d->h);
        free(d->h0);
        free(d->c0);
        free(d->tok);
        d->g = d->c = d->h = d->h0 = d->c0 = NULL;
        d->tok = NULL;
        return rc;
    }
    d->have_run = 1;
    return GT_OK;
}

void data_diff_free(gt_data_diff *d)
{
    if (d->have_run)
        run_free(&d->run);
    free(d->g);
    free(d->c);
    free(d->h);
    free(d->h0);
    free(d->c0);
    free(d->tok);
    memset(d, 0, sizeof *d);
}

int data_diff_update(gt_data_diff *d, gt_trace *tr, int layer, gt_error *e)
{
    d->valid = 0;
    size_t ne = trace_edit_count(tr);
    if (!ne)
        return GT_OK;
    const gt_model *m = d->m;
    if (!d->have_run) {
        int rc = allocate(d, e);
        if (rc)
            return rc;
    }
    const gt_edit *ed = trace_edit_at(tr, ne - 1);
    size_t s = ed->step, T = trace_steps(tr);
    size_t n = T - s < d->span ? T - s : d->span;
    int rc = trace_state_before(tr, s, d->h0, d->c0, e);
    if (rc)
        return rc;
    const size_t H = (size_t)model_width(m, layer), GH = (size_t)m->gates * H;
    const size_t LH = (size_t)m->hidden_total;
    memcpy(d->run.h, d->h0, LH * sizeof *d->h0);
    memcpy(d->run.c, d->c0, LH * sizeof *d->c0);
    trace_read(tr, s, n, d->tok); /* as edited, then the edited step put back */
    d->tok[0] = (uint16_t)ed->old_tok;
    for (size_t i = 0; i < n; i++) {
        run_step_layers(&d->run, d->tok[i], layer);
        memcpy(d->g + i * GH, run_gates(&d->run, layer), GH * sizeof *d->g);
        memcpy(d->c + i * H, run_c(&d->run, layer), H * sizeof *d->c);
        memcpy(d->h + i * H, run_h(&d->run, layer), H * sizeof *d->h);
    }
    d->step = s;
    d->n = n;
    d->layer = layer;
    d->valid = 1;
    return GT_OK;
}

int data_diff_known(const gt_data_diff *d, size_t st)
{
    return d->valid && st < d->step + d->n;
}

const float *data_diff_gates(const gt_data_diff *d, size_t st)
{
    return d->g + (st - d->step) * (size_t)d->m->gates * (size_t)model_width(d->m, d->layer);
}

const float *data_diff_c(const gt_data_diff *d, size_t st)
{
    return d->c + (st - d->step) * (size_t)model_width(d->m, d->layer);
}

const float *data_diff_h(const gt_data_diff *d, size_t st)
{
    return d->h + (st - d->step) * (size_t)model_width(d->m, d->layer);
}
