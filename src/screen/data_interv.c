/* The screen's interventions (data_interv.h): the model made again when they change; the loss
 * and the importance computed by child processes, each sending its numbers as text. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gatetui/importance.h"
#include "gatetui/loss.h"
#include "gatetui/report.h"
#include "screen/data_interv.h"

static void want_loss(gt_data_interv *s);

int data_interv_init(gt_data_interv *s, const gt_model *base, const gt_intervention *iv, const gt_text *t,
                gt_error *e)
{
    memset(s, 0, sizeof *s);
    s->base = base;
    s->text = t;
    s->imp_layer = -1;
    bgjob_init(&s->loss_job);
    bgjob_init(&s->imp_job);
    int rc = iv ? iv_copy(&s->iv, iv, e) : iv_init(&s->iv, base, e);
    if (rc)
        return rc;
    s->imp = calloc((size_t)base->hidden_max, sizeof *s->imp); /* any layer's */
    if (!s->imp) {
        iv_free(&s->iv);
        return gt_fail(e, GT_EFAIL, "out of memory for the interventions");
    }
    if ((rc = iv_apply(&s->m, base, &s->iv, e))) {
        free(s->imp);
        iv_free(&s->iv);
        return rc;
    }
    iv_describe(&s->iv, s->what, sizeof s->what);
    if (t->loss_count) {
        s->loss_nats = t->loss_nats;
        s->loss_count = t->loss_count;
    }
    if (s->what[0])
        want_loss(s); /* the change against the model without them */
    else
        s->loss_known = t->loss_count > 0, s->base_nats = t->loss_nats;
    return GT_OK;
}

void data_interv_free(gt_data_interv *s)
{
    bgjob_cancel(&s->loss_job);
    bgjob_cancel(&s->imp_job);
    iv_model_free(&s->m);
    iv_free(&s->iv);
    free(s->imp);
    memset(s, 0, sizeof *s);
}

void data_interv_set_map(gt_data_interv *s, const uint16_t *map) { s->map = map; }

/* ---- the children ---- */

const uint16_t *data_interv_tokens(const gt_data_interv *s)
{
    if (!s->map)
        return s->text->tok;
    uint16_t *t = malloc((s->text->steps ? s->text->steps : 1) * sizeof *t);
    for (size_t i = 0; t && i < s->text->steps; i++)
        t[i] = s->map[s->text->tok[i]];
    return t;
}

void data_interv_tokens_done(const gt_data_interv *s, const uint16_t *t)
{
    if (t != s->text->tok)
        free((void *)t);
}

/* The header's loss with and without the interventions, over the windows of the loss
 * measured when the screen starts. */
static int both_losses(const gt_data_interv *s, gt_loss *a, gt_loss *b, gt_error *e)
{
    gt_report_options ro;
    report_options_init(&ro);
    const size_t L = (size_t)ro.window_len;
    const size_t w = loss_quick_windows(s->base, L, (size_t)ro.windows);
    const uint16_t *tok = data_interv_tokens(s);
    if (!tok)
        return gt_fail(e, GT_EFAIL, "out of memory for the text's tokens");
    int rc = loss_measure(a, &s->m, tok, s->text->steps, L, w, 0, e);
    if (!rc)
        rc = loss_measure(b, s->base, tok, s->text->steps, L, w, 0, e);
    data_interv_tokens_done(s, tok);
    return rc;
}

int data_interv_measure_now(gt_data_interv *s, gt_error *e)
{
    gt_loss a, b;
    if (!s->base->has_readout)
        return GT_OK;
    bgjob_cancel(&s->loss_job);
    int rc = both_losses(s, &a, &b, e);
    if (!rc) {
        s->loss_nats = a.nats;
        s->base_nats = b.nats;
        s->loss_count = a.count;
        s->loss_known = 1;
    }
    return rc;
}

static int loss_child(gt_bgjob *job, void *ctx, char *why)
{
    const gt_data_interv *s = ctx;
    gt_loss a, b;
    gt_error e = {0};
    if (both_losses(s, &a, &b, &e)) {
        snprintf(why, 256, "%.250s", e.msg);
        return 1;
    }
    char line[128];
    int n = snprintf(line, sizeof line, "%a %a %zu\n", a.nats, b.nats, a.count);
    bgjob_write(job, line, (size_t)n);
    return 0;
}

static int imp_child(gt_bgjob *job, void *ctx, char *why)
{
    const gt_data_interv *s = ctx;
    gt_report_options o;
    report_options_init(&o);
    o.layer = s->imp_layer; /* set before the fork (the job's tag is set after) */
    o.progress = bgjob_progress;
    o.progress_ctx = job;
    gt_importance im;
    gt_error e = {0};
    const uint16_t *tok = data_interv_tokens(s);
    int rc = tok ? importance_compute(&im, &s->m, tok, s->text->steps, &o, &e)
                 : gt_fail(&e, GT_EFAIL, "out of memory for the text's tokens");
    if (tok)
        data_interv_tokens_done(s, tok);
    if (rc) {
        snprintf(why, 256, "%.250s", e.msg);
        return 1;
    }
    for (int j = 0; j < im.hidden; j++) {
        char line[64];
        int n = snprintf(line, sizeof line, "%a\n", im.unit_loss[j] - im.loss.nats);
        bgjob_write(job, line, (size_t)n);
    }
    importance_free(&im);
    return 0;
}

static void want_loss(gt_data_interv *s)
{
    s->loss_known = 0;
    if (!s->base->has_readout)
        return;
    bgjob_start(&s->loss_job, 0, loss_child, s);
}

void data_interv_want_importance(gt_data_interv *s, int layer)
{
    if (!s->base->has_readout) {
        snprintf(s->imp_error, sizeof s->imp_error, "the model has no readout: no loss");
        return;
    }
    if (s->imp_layer == layer && (s->imp_known || bgjob_busy(&s->imp_job)))
        return;
    s->imp_layer = layer;
    s->imp_known = 0;
    s->imp_error[0] = 0;
    if (bgjob_start(&s->imp_job, layer, imp_child, s))
        snprintf(s->imp_error, sizeof s->imp_error, "%s", s->imp_job.error);
}

int data_interv_apply(gt_data_interv *s, gt_error *e)
{
    bgjob_cancel(&s->loss_job);
    bgjob_cancel(&s->imp_job);
    iv_model_free(&s->m);
    int rc = iv_apply(&s->m, s->base, &s->iv, e);
    if (rc) { /* out of memory: the model as loaded */
        iv_clear(&s->iv);
        if (iv_apply(&s->m, s->base, &s->iv, NULL))
            abort(); /* a copy without changes allocates one array of L layers */
    }
    iv_describe(&s->iv, s->what, sizeof s->what);
    want_loss(s);
    int layer = s->imp_layer;
    s->imp_known = 0;
    s->imp_layer = -1;
    if (layer >= 0)
        data_interv_want_importance(s, layer);
    return rc;
}

int data_interv_tick(gt_data_interv *s)
{
    int changed = 0;
    if (bgjob_tick(&s->loss_job)) {
        double a, b;
        size_t n;
        if (s->loss_job.result && sscanf(s->loss_job.result, "%la %la %zu", &a, &b, &n) == 3) {
            s->loss_nats = a;
            s->base_nats = b;
            s->loss_count = n;
            s->loss_known = 1;
        }
        changed = 1;
    }
    if (bgjob_tick(&s->imp_job)) {
        if (s->imp_job.result) {
            const char *p = s->imp_job.result;
            int j = 0;
            char *end;
            const int H = model_width(s->base, s->imp_layer);
            for (; j < H; j++, p = end) {
                s->imp[j] = strtod(p, &end);
                if (end == p)
                    break;
            }
            s->imp_known = j == H;
            if (!s->imp_known)
                snprintf(s->imp_error, sizeof s->imp_error, "importance: a short result");
        } else {
            snprintf(s->imp_error, sizeof s->imp_error, "importance: %.230s", s->imp_job.error);
        }
        changed = 1;
    }
    return changed;
}

int data_interv_busy(const gt_data_interv *s)
{
    return bgjob_busy(&s->loss_job) || bgjob_busy(&s->imp_job);
}

int data_interv_importance_busy(const gt_data_interv *s)
{
    return bgjob_busy(&s->imp_job);
}
