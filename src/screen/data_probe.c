/* The hypothesis's linear probe on the screen (see data_probe.h). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gatetui/mask.h"
#include "gatetui/probe.h"
#include "screen/data_probe.h"

void data_probe_init(gt_data_probe *p, const gt_model *m, gt_trace *tr)
{
    memset(p, 0, sizeof *p);
    bgjob_init(&p->job);
    bgjob_init(&p->comp.job);
    p->m = m;
    p->tr = tr;
    p->layer = p->comp.layer = -1;
}

/* The components forgotten (their child ended). */
static void comp_forget(gt_data_comp *c)
{
    bgjob_cancel(&c->job);
    c->state = PROBE_NONE;
    c->layer = -1;
    free(c->score);
    c->score = NULL;
}

/* The first steps of the text as edited (NULL, with why, when out of memory). */
static uint16_t *edited(const gt_data_probe *p, size_t n, char *why)
{
    uint16_t *tok = malloc((n ? n : 1) * sizeof *tok);
    if (!tok)
        snprintf(why, 256, "out of memory for the text as edited");
    else
        trace_read(p->tr, 0, n, tok);
    return tok;
}

/* The probe forgotten (its child ended). */
static void probe_forget(gt_data_probe *p)
{
    bgjob_cancel(&p->job);
    p->state = PROBE_NONE;
    p->layer = -1;
    free(p->prob);
    p->prob = NULL;
    p->nprob = 0;
}

void data_probe_invalidate(gt_data_probe *p)
{
    probe_forget(p);
    comp_forget(&p->comp);
}

void data_probe_free(gt_data_probe *p)
{
    data_probe_invalidate(p);
}

float data_probe_at(const gt_data_probe *p, int layer, size_t s)
{
    return p->state == PROBE_KNOWN && p->layer == layer && s < p->nprob ? p->prob[s] : -1.0f;
}

/* In the child: the mean held-out AUC, the best unit's and units_for_95. */
static int probe_child(gt_bgjob *job, void *ctx, char *why)
{
    const gt_data_probe *p = ctx;
    const size_t n = p->steps;
    uint16_t *tok = edited(p, n, why);
    if (!tok)
        return 1;
    gt_error e = {0};
    gt_mask k;
    gt_signal_matrix x = {0};
    gt_probe pr;
    gt_pass_options po = {p->layer, 1, bgjob_progress, job};
    int rc = mask_from_regex(&k, p->m, tok, n, p->regex, MASK_SECONDS, &e);
    if (rc == GT_OK) {
        rc = probe_matrix(&x, p->m, tok, n, p->signal, &po, &e);
        if (rc == GT_OK)
            rc = probe_compute(&pr, &x, k.m, PROBE_DEFAULT_FOLDS, PROBE_DEFAULT_L2, 1, &e);
        if (rc == GT_OK) {
            double out[3] = {pr.auc, pr.best_unit_auc, (double)pr.units_for_95};
            float *q = malloc((n ? n : 1) * sizeof *q);
            if (q) {
                for (size_t t = 0; t < n; t++)
                    q[t] = (float)pr.prob[t];
                bgjob_write(job, out, sizeof out);
                bgjob_write(job, q, n * sizeof *q);
                free(q);
            } else {
                rc = gt_fail(&e, GT_EFAIL, "out of memory for the probe's probabilities");
            }
            probe_free(&pr);
        }
        free(x.x);
        mask_free(&k);
    }
    free(tok);
    if (rc)
        snprintf(why, 256, "%.200s", e.msg);
    return rc != GT_OK;
}

void data_probe_want(gt_data_probe *p, const char *regex, int layer, int signal, size_t steps)
{
    if (!regex[0]) {
        probe_forget(p);
        p->regex[0] = 0;
        return;
    }
    if (p->layer == layer && p->signal == signal && p->steps == steps &&
        strcmp(p->regex, regex) == 0 && p->state != PROBE_NONE)
        return;
    bgjob_cancel(&p->job);
    snprintf(p->regex, sizeof p->regex, "%s", regex);
    p->layer = layer;
    p->signal = signal;
    p->steps = steps;
    p->error[0] = 0;
    p->state = PROBE_COMPUTING;
    if (steps < PROBE_DEFAULT_FOLDS) {
        p->state = PROBE_FAILED;
        snprintf(p->error, sizeof p->error, "fewer steps than folds");
    } else if (bgjob_start(&p->job, 0, probe_child, p)) {
        p->state = PROBE_FAILED;
        snprintf(p->error, sizeof p->error, "%s", p->job.error);
    }
}

static void comp_take(gt_data_comp *c);

int data_probe_tick(gt_data_probe *p)
{
    int redraw = 0;
    if (bgjob_busy(&p->comp.job) && bgjob_tick(&p->comp.job)) {
        comp_take(&p->comp);
        redraw = 1;
    }
    if (!bgjob_busy(&p->job))
        return redraw;
    if (!bgjob_tick(&p->job))
        return 0;
    double out[3];
    const size_t want = sizeof out + p->steps * sizeof *p->prob;
    free(p->prob);
    p->prob = NULL;
    p->nprob = 0;
    if (p->job.result && p->job.result_len == want &&
        (p->prob = malloc((p->steps ? p->steps : 1) * sizeof *p->prob))) {
        memcpy(out, p->job.result, sizeof out);
        memcpy(p->prob, p->job.result + sizeof out, p->steps * sizeof *p->prob);
        p->nprob = p->steps;
        p->auc = out[0];
        p->best_auc = out[1];
        p->units_for_95 = (int)out[2];
        p->state = PROBE_KNOWN;
    } else {
        p->state = PROBE_FAILED;
        snprintf(p->error, sizeof p->error, "%.200s",
                 p->job.result ? "a short result" : p->job.error);
    }
    bgjob_cancel(&p->job);
    return 1;
}

int data_probe_busy(const gt_data_probe *p)
{
    return bgjob_busy(&p->job) || bgjob_busy(&p->comp.job);
}

/* ---- the components ---- */

/* In the child: each one's explained share, then its scores as floats. */
static int comp_child(gt_bgjob *job, void *ctx, char *why)
{
    const gt_data_probe *p = ctx;
    const gt_data_comp *c = &p->comp;
    const size_t n = c->steps;
    uint16_t *tok = edited(p, n, why);
    if (!tok)
        return 1;
    gt_error e = {0};
    gt_signal_matrix x = {0};
    gt_components pc;
    gt_pass_options po = {c->layer, 1, bgjob_progress, job};
    int rc = probe_matrix(&x, p->m, tok, n, c->signal, &po, &e);
    if (rc == GT_OK)
        rc = components_compute(&pc, &x, DATA_COMP_K, &e);
    if (rc == GT_OK) {
        float *q = malloc(DATA_COMP_K * (n ? n : 1) * sizeof *q);
        if (q) {
            for (size_t i = 0; i < DATA_COMP_K * n; i++)
                q[i] = (float)pc.score[i];
            bgjob_write(job, pc.explained, DATA_COMP_K * sizeof *pc.explained);
            bgjob_write(job, q, DATA_COMP_K * n * sizeof *q);
            free(q);
        } else {
            rc = gt_fail(&e, GT_EFAIL, "out of memory for the components' scores");
        }
        components_free(&pc);
    }
    free(x.x);
    free(tok);
    if (rc)
        snprintf(why, 256, "%.200s", e.msg);
    return rc != GT_OK;
}

void data_comp_want(gt_data_probe *p, int layer, int signal, size_t steps)
{
    gt_data_comp *c = &p->comp;
    if (c->layer == layer && c->signal == signal && c->steps == steps && c->state != PROBE_NONE)
        return;
    comp_forget(c);
    c->layer = layer;
    c->signal = signal;
    c->steps = steps;
    c->error[0] = 0;
    c->state = PROBE_COMPUTING;
    if (steps < 2 || model_width(p->m, layer) < DATA_COMP_K) {
        c->state = PROBE_FAILED;
        snprintf(c->error, sizeof c->error, "too few steps or units for %d components",
                 DATA_COMP_K);
    } else if (bgjob_start(&c->job, 0, comp_child, p)) {
        c->state = PROBE_FAILED;
        snprintf(c->error, sizeof c->error, "%s", c->job.error);
    }
}

/* The components' child, when it is done. */
static void comp_take(gt_data_comp *c)
{
    const size_t n = c->steps, head = DATA_COMP_K * sizeof *c->explained;
    const size_t want = head + DATA_COMP_K * n * sizeof *c->score;
    if (c->job.result && c->job.result_len == want &&
        (c->score = malloc(DATA_COMP_K * (n ? n : 1) * sizeof *c->score))) {
        memcpy(c->explained, c->job.result, head);
        memcpy(c->score, c->job.result + head, DATA_COMP_K * n * sizeof *c->score);
        for (int j = 0; j < DATA_COMP_K; j++) { /* the scores are centred: their deviation */
            double ss = 0;
            for (size_t t = 0; t < n; t++)
                ss += (double)c->score[j * n + t] * c->score[j * n + t];
            c->sd[j] = sqrt(ss / (double)n);
        }
        c->state = PROBE_KNOWN;
    } else {
        c->state = PROBE_FAILED;
        snprintf(c->error, sizeof c->error, "%.200s",
                 c->job.result ? "a short result" : c->job.error);
    }
    bgjob_cancel(&c->job);
}

float data_comp_at(const gt_data_probe *p, int j, int layer, size_t s)
{
    const gt_data_comp *c = &p->comp;
    if (c->state != PROBE_KNOWN || c->layer != layer || s >= c->steps || j < 0 ||
        j >= DATA_COMP_K || !(c->sd[j] > 0))
        return NAN;
    const double x = c->score[(size_t)j * c->steps + s] / (2 * c->sd[j]);
    return (float)(x < -1 ? -1 : x > 1 ? 1 : x);
}
