/* The derivative sheet's eigenvalues, fixed point and Lyapunov half-lives (see data_eig.h). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gatetui/dynamics.h"
#include "screen/data_eig.h"

int data_eig_init(gt_data_eig *de, const gt_model *m, gt_error *e)
{
    memset(de, 0, sizeof *de);
    bgjob_init(&de->job);
    bgjob_init(&de->fp_job);
    bgjob_init(&de->ly_job);
    de->m = m;
    /* room for the widest layer's; n and H are the computed layer's (data_eig_tick) */
    de->n = m->cell->state * m->hidden_max;
    de->H = m->hidden_max;
    const size_t LH = (size_t)m->hidden_total;
    de->h0 = malloc(LH * sizeof *de->h0);
    de->c0 = malloc(LH * sizeof *de->c0);
    de->abs = malloc((size_t)(de->n + de->H) * sizeof *de->abs);
    if (!de->h0 || !de->c0 || !de->abs) {
        data_eig_free(de);
        return gt_fail(e, GT_EFAIL, "out of memory for the derivative's eigenvalues");
    }
    de->carry = de->abs + de->n;
    return GT_OK;
}

void data_eig_free(gt_data_eig *de)
{
    bgjob_cancel(&de->job);
    bgjob_cancel(&de->fp_job);
    bgjob_cancel(&de->ly_job);
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
    bgjob_cancel(&de->fp_job);
    de->valid = de->fp_valid = 0;
}

void data_eig_model_changed(gt_data_eig *de)
{
    data_eig_invalidate(de);
    bgjob_cancel(&de->ly_job);
    de->ly_valid = 0;
    de->ly_error[0] = 0;
}

/* In the child: found (1 or 0), the distance, the largest |eigenvalue| and the half-life. */
static int fp_job(gt_bgjob *job, void *ctx, char *why)
{
    const gt_data_eig *de = ctx;
    gt_fixed f;
    gt_error e = {0};
    double out[4] = {0, NAN, NAN, NAN};
    if (fixed_from(&f, &out[1], de->m, de->job_layer, (uint16_t)de->job_tok, de->h0, de->c0,
                   DATA_EIG_HOLD, &e)) {
        snprintf(why, 256, "%.200s", e.msg);
        return 1;
    }
    if (f.count) {
        out[0] = 1;
        out[2] = f.point[0].max_abs;
        out[3] = f.point[0].halflife;
    }
    fixed_free(&f);
    bgjob_write(job, out, sizeof out);
    return 0;
}

/* The Lyapunov spectrum's N, warm-up and modes over a text of `steps` steps (at least 2):
 * J_1..J_N at the text's steps 1..N, step 0 setting the state J_1 is taken from. */
static void ly_sizes(const gt_data_eig *de, size_t steps, size_t *n, size_t *warm, int *modes)
{
    *n = steps - 1 < DATA_EIG_LY_STEPS ? steps - 1 : DATA_EIG_LY_STEPS;
    *warm = *n / 20 < 100 ? *n / 20 : 100;
    const int sn = dyn_state_size(de->m, de->ly_job_layer);
    *modes = sn < DATA_EIG_LY_MODES ? sn : DATA_EIG_LY_MODES;
}

/* In the child: the half-lives of the modes, then their 95% half-widths. */
static int ly_job(gt_bgjob *job, void *ctx, char *why)
{
    const gt_data_eig *de = ctx;
    size_t n, warm;
    int modes;
    ly_sizes(de, de->text->steps, &n, &warm, &modes);
    gt_lyapunov l;
    gt_error e = {0};
    if (lyapunov_compute(&l, de->m, de->ly_job_layer, modes, de->text->tok, n, warm, 1, &e)) {
        snprintf(why, 256, "%.200s", e.msg);
        return 1;
    }
    double out[2 * DATA_EIG_LY_MODES];
    memcpy(out, l.halflife, (size_t)modes * sizeof *out);
    memcpy(out + modes, l.halflife_hw, (size_t)modes * sizeof *out);
    bgjob_write(job, out, 2 * (size_t)modes * sizeof *out);
    lyapunov_free(&l);
    return 0;
}

/* Starts the layer's Lyapunov half-lives unless they are known or on their way. */
static void ly_want(gt_data_eig *de, const gt_text *text, int layer)
{
    if ((de->ly_valid || de->ly_error[0]) && de->ly_layer == layer)
        return;
    if (bgjob_busy(&de->ly_job) && de->ly_job_layer == layer)
        return;
    bgjob_cancel(&de->ly_job);
    de->ly_valid = 0;
    de->ly_error[0] = 0;
    de->ly_layer = layer;
    de->text = text;
    if (text->steps < 2) {
        snprintf(de->ly_error, sizeof de->ly_error, "the text is too short for them");
        return;
    }
    de->ly_job_layer = layer;
    if (bgjob_start(&de->ly_job, 0, ly_job, de))
        snprintf(de->ly_error, sizeof de->ly_error, "%s", de->ly_job.error);
}

/* In the child: the DATA_EIG_K largest moduli (all when there are fewer), then the carry
 * gates, as doubles. */
static int eig_job(gt_bgjob *job, void *ctx, char *why)
{
    const gt_data_eig *de = ctx;
    gt_spectrum s;
    gt_error e = {0};
    if (spectrum_top_from(&s, de->m, de->job_layer, de->h0, de->c0, (uint16_t)de->job_tok,
                          de->job_step, DATA_EIG_K, de->threads, &e)) {
        snprintf(why, 256, "%.200s", e.msg);
        return 1;
    }
    bgjob_write(job, s.abs, (size_t)s.count * sizeof *s.abs);
    bgjob_write(job, s.carry, (size_t)s.H * sizeof *s.carry);
    spectrum_free(&s);
    return 0;
}

void data_eig_want(gt_data_eig *de, gt_trace *tr, int layer, size_t t)
{
    ly_want(de, trace_text(tr), layer);
    if (de->valid && de->step == t && de->layer == layer)
        return;
    if (bgjob_busy(&de->job) && de->job_step == t && de->job_layer == layer)
        return;
    gt_error e = {0};
    data_eig_invalidate(de);
    de->error[0] = de->fp_error[0] = 0;
    if (trace_state_before(tr, t, de->h0, de->c0, &e)) {
        snprintf(de->error, sizeof de->error, "%.200s", e.msg);
        return;
    }
    de->job_step = t;
    de->job_layer = layer;
    de->job_tok = trace_token(tr, t);
    if (bgjob_start(&de->job, 0, eig_job, de))
        snprintf(de->error, sizeof de->error, "%s", de->job.error);
    if (bgjob_start(&de->fp_job, 0, fp_job, de))
        snprintf(de->fp_error, sizeof de->fp_error, "%s", de->fp_job.error);
}

/* The fixed point's child, when it is done. */
static void fp_tick(gt_data_eig *de)
{
    double out[4];
    if (de->fp_job.result && de->fp_job.result_len == sizeof out) {
        memcpy(out, de->fp_job.result, sizeof out);
        de->fp_valid = 1;
        de->fp_found = out[0] != 0;
        de->fp_dist = out[1];
        de->fp_max_abs = out[2];
        de->fp_halflife = out[3];
        de->fp_step = de->job_step;
        de->fp_layer = de->job_layer;
    } else {
        snprintf(de->fp_error, sizeof de->fp_error, "the fixed point at step %zu: %.200s",
                 de->job_step, de->fp_job.result ? "a short result" : de->fp_job.error);
    }
    bgjob_cancel(&de->fp_job);
}

/* The Lyapunov spectrum's child, when it is done. */
static void ly_tick(gt_data_eig *de)
{
    size_t n, warm;
    int modes;
    ly_sizes(de, de->text->steps, &n, &warm, &modes);
    const size_t want = (size_t)modes * sizeof *de->ly_hl;
    if (de->ly_job.result && de->ly_job.result_len == 2 * want) {
        memcpy(de->ly_hl, de->ly_job.result, want);
        memcpy(de->ly_hw, (const char *)de->ly_job.result + want, want);
        de->ly_valid = 1;
        de->ly_modes = modes;
        de->ly_steps = n;
        de->ly_warmup = warm;
    } else {
        snprintf(de->ly_error, sizeof de->ly_error, "%.200s",
                 de->ly_job.result ? "a short result" : de->ly_job.error);
    }
    bgjob_cancel(&de->ly_job);
}

int data_eig_tick(gt_data_eig *de)
{
    int redraw = 0;
    if (bgjob_busy(&de->fp_job)) {
        redraw = 1;
        if (bgjob_tick(&de->fp_job))
            fp_tick(de);
    }
    if (bgjob_busy(&de->ly_job)) {
        redraw = 1;
        if (bgjob_tick(&de->ly_job))
            ly_tick(de);
    }
    if (!bgjob_busy(&de->job))
        return redraw;
    if (bgjob_tick(&de->job)) {
        const int n = dyn_state_size(de->m, de->job_layer);
        const int H = model_width(de->m, de->job_layer), k = n < DATA_EIG_K ? n : DATA_EIG_K;
        const size_t want = (size_t)(k + H) * sizeof *de->abs;
        if (de->job.result && de->job.result_len == want) {
            memcpy(de->abs, de->job.result, want);
            de->n = n;
            de->H = H;
            de->count = k;
            de->carry = de->abs + k;
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
    return bgjob_busy(&de->job) || bgjob_busy(&de->fp_job) || bgjob_busy(&de->ly_job);
}
