/* The readout's mean loss on a text (loss.h): the windows run from the zero state as jobs
 * over a few threads (compute/jobs.h), each window's sum of -ln p(next) taken in double from
 * the logits (a log-softmax, so no probability underflows), the sums added in window order. */
#include "config.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compute/jobs.h"
#include "compute/kernels.h"
#include "gatetui/loss.h"
#include "analysis/steptext.h"
#include "gatetui/run.h"
#include "compute/threads.h"

/* The readout packed for the kernel set's float32 product (loss.h). */
struct gt_loss_steps {
    const gt_model *m;
    gt_mat32 out;
};

/* The readout reads the top layer's h. */
static int top_width(const gt_model *m)
{
    return model_width(m, m->layers - 1);
}

gt_loss_steps *loss_steps_new(const gt_model *m, gt_error *e)
{
    gt_loss_steps *ls = calloc(1, sizeof *ls);
    if (!ls || mat32_pack(&ls->out, m->out_w, (size_t)m->vocab, (size_t)top_width(m))) {
        free(ls);
        gt_fail(e, GT_EFAIL, "loss: out of memory");
        return NULL;
    }
    ls->m = m;
    return ls;
}

void loss_steps_free(gt_loss_steps *ls)
{
    if (!ls)
        return;
    mat32_free(&ls->out);
    free(ls);
}

/* A block of predictions waiting for their product (loss.h). */
struct gt_loss_block {
    float *h;                 /* [LOSS_BLOCK * H] */
    float *logit;             /* [LOSS_BLOCK * V]: W h, float32 */
    int next[LOSS_BLOCK];
    size_t step[LOSS_BLOCK];
    int n;
    double *sum;              /* where the block's losses go (the window's sum and count) */
    size_t *count;
};

gt_loss_block *loss_block_new(const gt_model *m, gt_error *e)
{
    gt_loss_block *b = calloc(1, sizeof *b);
    if (b) {
        b->h = malloc(LOSS_BLOCK * (size_t)top_width(m) * sizeof *b->h);
        b->logit = malloc(LOSS_BLOCK * (size_t)m->vocab * sizeof *b->logit);
    }
    if (!b || !b->h || !b->logit) {
        loss_block_free(b);
        gt_fail(e, GT_EFAIL, "loss: out of memory");
        return NULL;
    }
    return b;
}

void loss_block_free(gt_loss_block *b)
{
    if (!b)
        return;
    free(b->h);
    free(b->logit);
    free(b);
}

/* -ln softmax(logit + b)[next], in double from the float32 product (a log-softmax: no
 * probability underflows); NAN when a logit passes float32's range. */
static double nll(const gt_model *m, const float *logit, int next)
{
    const size_t V = (size_t)m->vocab;
    double mx = -INFINITY;
    for (size_t v = 0; v < V; v++) {
        const double s = (double)logit[v] + m->out_b[v];
        if (!(fabs(s) <= FLT_MAX)) /* past float32: the readout overflows (loss.h) */
            return NAN;
        if (s > mx)
            mx = s;
    }
    double z = 0;
    for (size_t v = 0; v < V; v++)
        z += exp((double)logit[v] + m->out_b[v] - mx);
    return mx + log(z) - ((double)logit[next] + m->out_b[next]);
}

/* The block's product W h, float32 (the kernel set's over a batch, doc/measures.md "The
 * loss"), then each prediction's loss into the sum, in step order. */
int loss_block_flush(const gt_loss_steps *ls, gt_loss_block *b, gt_error *e)
{
    const gt_model *m = ls->m;
    const size_t V = (size_t)m->vocab, H = (size_t)top_width(m);
    if (b->n > 0)
        kern32_gemm(&ls->out, (size_t)b->n, b->h, H, b->logit, V);
    for (int i = 0; i < b->n; i++) {
        const double l = nll(m, b->logit + (size_t)i * V, b->next[i]);
        if (isnan(l)) {
            b->n = 0;
            return run_readout_overflow(m, b->step[i], e);
        }
        *b->sum += l;
        ++*b->count;
    }
    b->n = 0;
    return GT_OK;
}

int loss_block_failed(const gt_loss_steps *ls, gt_loss_block *b, int rc, gt_error *e)
{
    gt_error first = {0};
    if (ls && b->n && loss_block_flush(ls, b, &first)) {
        *e = first;
        return first.code;
    }
    return rc;
}

int loss_block_add(const gt_loss_steps *ls, gt_loss_block *b, const float *hf, int next,
                   size_t step, double *sum, size_t *count, gt_error *e)
{
    const size_t H = (size_t)top_width(ls->m);
    if (b->n && (sum != b->sum || count != b->count)) { /* another window's: its own sum */
        const int rc = loss_block_flush(ls, b, e);
        if (rc)
            return rc;
    }
    b->sum = sum;
    b->count = count;
    memcpy(b->h + (size_t)b->n * H, hf, H * sizeof *hf);
    b->next[b->n] = next;
    b->step[b->n++] = step;
    return b->n == LOSS_BLOCK ? loss_block_flush(ls, b, e) : GT_OK;
}

void loss_from_sums(gt_loss *out, const gt_model *m, const double *sum, const size_t *count,
                    size_t nwin)
{
    double total = 0;
    size_t n = 0;
    for (size_t k = 0; k < nwin; k++) {
        total += sum[k];
        n += count[k];
    }
    out->nats = n ? total / (double)n : NAN;
    out->count = n;
    out->uniform = log((double)m->vocab);
}

typedef struct loss_work {
    const gt_model *m;
    const uint16_t *tok;
    size_t steps, L;
    const gt_loss_steps *ls;
    double *sum;      /* [nwin] */
    size_t *count;    /* [nwin] */
} loss_work;

/* What a thread keeps from one window to the next. */
typedef struct loss_thread {
    gt_run r;
    int have_run;
    gt_loss_block *blk;
} loss_thread;

static int thread_begin(void *ctx, void **state, gt_error *e)
{
    const loss_work *w = ctx;
    loss_thread *th = calloc(1, sizeof *th);
    *state = th;
    if (!th)
        return gt_fail(e, GT_EFAIL, "loss: out of memory");
    if (!(th->blk = loss_block_new(w->m, e)))
        return e->code;
    if (run_init(&th->r, w->m, e))
        return e->code;
    th->have_run = 1;
    return GT_OK;
}

/* Window k's sum from the zero state. */
static int window_loss(void *ctx, void *state, size_t k, gt_error *e)
{
    loss_work *w = ctx;
    loss_thread *th = state;
    size_t start = k * w->L, end = start + w->L < w->steps ? start + w->L : w->steps;
    run_reset(&th->r);
    for (size_t t = start; t < end; t++) {
        run_step(&th->r, w->tok[t]);
        int rc = run_check_finite(&th->r, w->m->layers - 1, t, e);
        if (rc)
            return loss_block_failed(w->ls, th->blk, rc, e);
        if (t + 1 < end && (rc = loss_block_add(w->ls, th->blk, run_h(&th->r, w->m->layers - 1),
                                                 w->tok[t + 1], t, &w->sum[k], &w->count[k], e)))
            return rc;
    }
    return loss_block_flush(w->ls, th->blk, e);
}

static void thread_end(void *ctx, void *state)
{
    loss_thread *th = state;
    if (!th)
        return;
    if (th->have_run)
        run_free(&th->r);
    loss_block_free(th->blk);
    free(th);
}


int loss_measure(gt_loss *out, const gt_model *m, const uint16_t *tok, size_t steps,
                 size_t window_len, size_t windows, int threads, gt_error *e)
{
    out->nats = NAN;
    out->count = 0;
    out->uniform = log((double)m->vocab);
    loss_text(out, tok, steps);
    if (!m->has_readout || steps < 2 || window_len < 2 || windows == 0)
        return GT_OK;
    size_t chunks = (steps + window_len - 1) / window_len;
    size_t nwin = chunks < windows ? chunks : windows;
    int nt = threads_choose(threads, nwin);
    double *sum = calloc(nwin, sizeof *sum);
    size_t *count = calloc(nwin, sizeof *count);
    gt_loss_steps *ls = sum && count ? loss_steps_new(m, e) : NULL;
    int rc = GT_OK;
    if (!ls) {
        rc = gt_fail(e, GT_EFAIL, "loss: out of memory");
    } else {
        loss_work w = {m, tok, steps, window_len, ls, sum, count};
        const gt_jobs j = {.njobs = nwin, .threads = nt, .ctx = &w, .begin = thread_begin,
                           .run = window_loss, .end = thread_end};
        rc = jobs_run(&j, NULL, e);
    }
    if (rc == GT_OK)
        loss_from_sums(out, m, sum, count, nwin);
    loss_steps_free(ls);
    free(sum);
    free(count);
    return rc;
}

size_t loss_quick_windows(const gt_model *m, size_t window_len, size_t windows)
{
    double per_step = (double)m->vocab * top_width(m);
    for (int k = 0; k < m->layers; k++)
        per_step += (double)m->gates * model_width(m, k) *
                    (m->layer[k].in_dim + model_width(m, k));
    double fit = 2e9 / (per_step * (double)window_len);
    return fit < 1 ? 1 : fit > (double)windows ? windows : (size_t)fit;
}

void loss_text(gt_loss *l, const uint16_t *tok, size_t steps)
{
    l->distinct = steps > 0;
    l->first_tok = steps ? tok[0] : -1;
    l->other_tok = -1;
    for (size_t s = 1; s < steps && l->distinct < 3; s++) /* 1, 2, or more: all it says */
        if (tok[s] != l->first_tok && (l->other_tok < 0 || tok[s] != l->other_tok)) {
            if (l->other_tok < 0)
                l->other_tok = tok[s];
            l->distinct++;
        }
}

int loss_warning(const gt_model *m, const gt_loss *l, char *buf, size_t n)
{
    /* a text of one or two tokens over and over, from a vocabulary of many (a model of two
       or three tokens reads no other kind of text) */
    if ((l->distinct == 1 || l->distinct == 2) && (size_t)m->vocab >= 4 * l->distinct) {
        char a[64], b[64];
        steptext_name(m, l->first_tok, STEPTEXT_UTF8, a, sizeof a);
        if (l->distinct == 2)
            steptext_name(m, l->other_tok, STEPTEXT_UTF8, b, sizeof b);
        snprintf(buf, n,
                 "the readout's loss, %.2f bits per %s, is no better than a uniform guess "
                 "(%.2f): the text is %s%s%s over and over, unlike any text a model learns from",
                 loss_bits(l), model_step_noun(m), l->uniform / 0.69314718055994530942, a,
                 l->distinct == 2 ? " and " : "", l->distinct == 2 ? b : "");
        return 0;
    }
    snprintf(buf, n,
             "the readout's loss, %.2f bits per %s, is no better than a uniform guess "
             "(%.2f): the vocabulary's order or the readout's layer is probably wrong",
             loss_bits(l), model_step_noun(m), l->uniform / 0.69314718055994530942);
    return 1;
}
