/* The carriers of the screen's last edit (see data_carriers.h): computed with carriers.h
 * by a child process, which sends the numbers and the table's text. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gatetui/carriers.h"
#include "gatetui/report.h"
#include "screen/data_carriers.h"

/* What the result's bytes begin with; the H values of alone, removed and order follow,
 * then the table's text to the end. */
typedef struct head {
    size_t step;
    int from, to, hidden, horizon;
    double effect;
} head;

void data_carriers_init(gt_data_carriers *c, const gt_model *m, gt_trace *tr)
{
    memset(c, 0, sizeof *c);
    c->m = m;
    c->tr = tr;
    c->layer = -1;
    bgjob_init(&c->job);
}

/* The result forgotten. */
static void drop(gt_data_carriers *c)
{
    free(c->alone);
    free(c->removed);
    free(c->order);
    free(c->text);
    c->alone = c->removed = NULL;
    c->order = NULL;
    c->text = NULL;
    c->lines = c->hidden = 0;
}

void data_carriers_free(gt_data_carriers *c)
{
    bgjob_cancel(&c->job);
    drop(c);
    c->state = CARRY_NONE;
}

/* ---- the computation ---- */

/* The carriers of the last edit, as the result's bytes onto f. The text as edited, with
 * the last edit's step put back to the token it replaced: the clean run. */
static int compute(const gt_data_carriers *c, FILE *f, gt_bgjob *job, gt_error *e)
{
    const size_t n = trace_edit_count(c->tr), steps = trace_steps(c->tr);
    if (!n)
        return gt_fail(e, GT_EINPUT, "no edit");
    const gt_edit ed = *trace_edit_at(c->tr, n - 1);
    uint16_t *tok = malloc(steps * sizeof *tok);
    if (!tok)
        return gt_fail(e, GT_EFAIL, "out of memory for the text as edited");
    trace_read(c->tr, 0, steps, tok);
    tok[ed.step] = (uint16_t)ed.old_tok;
    gt_report_options o;
    report_options_init(&o);
    o.layer = c->layer;
    o.horizon = c->K;
    o.progress = job ? bgjob_progress : NULL;
    o.progress_ctx = job;
    gt_carriers r;
    int rc = carriers_compute(&r, c->m, tok, steps, ed.step, ed.new_tok, &o, e);
    free(tok);
    if (rc)
        return rc;
    /* the edits made before it, named in the text (as --carriers names them) */
    gt_carriers_edit *before = n > 1 ? malloc((n - 1) * sizeof *before) : NULL;
    for (size_t i = 0; before && i + 1 < n; i++) {
        const gt_edit *x = trace_edit_at(c->tr, i);
        before[i] = (gt_carriers_edit){x->step, x->old_tok, x->new_tok};
    }
    r.before = before;
    r.nbefore = before ? n - 1 : 0;
    head hd = {r.step, r.from, r.to, r.hidden, (int)r.horizon, r.effect};
    const size_t H = (size_t)r.hidden;
    fwrite(&hd, sizeof hd, 1, f);
    fwrite(r.alone, sizeof *r.alone, H, f);
    fwrite(r.removed, sizeof *r.removed, H, f);
    fwrite(r.order, sizeof *r.order, H, f);
    rc = carriers_print_text(f, &r, c->what[0] ? c->what : NULL, 0, e);
    carriers_free(&r);
    free(before);
    return rc;
}

/* compute() into a buffer (*buf, *len: freed by the caller). */
static int compute_to(const gt_data_carriers *c, gt_bgjob *job, char **buf, size_t *len,
                      gt_error *e)
{
    *buf = NULL;
    *len = 0;
    FILE *f = open_memstream(buf, len);
    if (!f)
        return gt_fail(e, GT_EFAIL, "out of memory for the carriers");
    int rc = compute(c, f, job, e);
    if (fclose(f) && rc == GT_OK)
        rc = gt_fail(e, GT_EFAIL, "out of memory for the carriers");
    return rc;
}

static int child_main(gt_bgjob *job, void *ctx, char *why)
{
    char *buf;
    size_t len;
    gt_error e = {0};
    int rc = compute_to(ctx, job, &buf, &len, &e);
    if (rc == GT_OK)
        bgjob_write(job, buf, len);
    else
        snprintf(why, 256, "%.250s", e.msg);
    free(buf);
    return rc;
}

/* The computation's error as the screen says it (without the batch mode's "--carriers: "). */
static void failed(void *ctx, const char *msg)
{
    gt_data_carriers *c = ctx;
    static const char mode[] = "--carriers: ";
    drop(c);
    c->state = CARRY_FAILED;
    snprintf(c->error, sizeof c->error, "%.250s",
             strncmp(msg, mode, sizeof mode - 1) ? msg : msg + sizeof mode - 1);
}

/* The result's bytes (n at p) taken: CARRY_KNOWN, or CARRY_FAILED when they are short. */
static void take(void *ctx, const char *p, size_t n)
{
    gt_data_carriers *c = ctx;
    head hd;
    drop(c);
    c->state = CARRY_FAILED;
    snprintf(c->error, sizeof c->error, "a short result");
    if (n < sizeof hd)
        return;
    memcpy(&hd, p, sizeof hd);
    const size_t H = hd.hidden > 0 ? (size_t)hd.hidden : 0;
    const size_t nums = H * (2 * sizeof(double) + sizeof(int));
    if (!H || n - sizeof hd < nums)
        return;
    const char *q = p + sizeof hd, *t = q + nums;
    c->alone = malloc(H * sizeof *c->alone);
    c->removed = malloc(H * sizeof *c->removed);
    c->order = malloc(H * sizeof *c->order);
    c->text = malloc((size_t)(p + n - t) + 1);
    if (!c->alone || !c->removed || !c->order || !c->text) {
        drop(c);
        snprintf(c->error, sizeof c->error, "out of memory for the carriers");
        return;
    }
    memcpy(c->alone, q, H * sizeof *c->alone);
    memcpy(c->removed, q + H * sizeof(double), H * sizeof *c->removed);
    memcpy(c->order, q + 2 * H * sizeof(double), H * sizeof *c->order);
    memcpy(c->text, t, (size_t)(p + n - t));
    c->text[p + n - t] = 0;
    c->lines = 0;
    for (const char *s = c->text; *s; s++)
        c->lines += *s == '\n' || !s[1];
    c->step = hd.step;
    c->from = hd.from;
    c->to = hd.to;
    c->hidden = hd.hidden;
    c->horizon = hd.horizon;
    c->effect = hd.effect;
    c->error[0] = 0;
    c->state = CARRY_KNOWN;
}

/* ---- the screen's side ---- */

void data_carriers_want(gt_data_carriers *c, unsigned gen, int layer, int K, const char *what,
                        int now)
{
    if (!trace_edit_count(c->tr) || !c->m->has_readout) { /* no predictions to carry */
        data_carriers_free(c);
        return;
    }
    if (c->state != CARRY_NONE && c->gen == gen && c->layer == layer && c->K == K)
        return; /* known, computing, failed or stopped for these */
    c->gen = gen;
    c->layer = layer;
    c->K = K;
    snprintf(c->what, sizeof c->what, "%s", what);
    c->error[0] = 0;
    if (now) {
        char *buf;
        size_t len;
        gt_error e = {0};
        bgjob_cancel(&c->job);
        if (compute_to(c, NULL, &buf, &len, &e) == GT_OK) {
            take(c, buf, len);
        } else {
            failed(c, e.msg);
        }
        free(buf);
        return;
    }
    c->state = CARRY_COMPUTING;
    if (bgjob_start(&c->job, 0, child_main, c))
        failed(c, c->job.error);
}

void data_carriers_forget(gt_data_carriers *c)
{
    data_carriers_free(c);
}

int data_carriers_stop(gt_data_carriers *c)
{
    return bgjob_stop(&c->job, &c->state);
}

void data_carriers_again(gt_data_carriers *c)
{
    bgjob_again(&c->state);
}

int data_carriers_tick(gt_data_carriers *c)
{
    return bgjob_deliver(&c->job, take, failed, c);
}

int data_carriers_busy(const gt_data_carriers *c)
{
    return bgjob_busy(&c->job);
}

double data_carriers_progress(const gt_data_carriers *c)
{
    return bgjob_done(&c->job);
}
