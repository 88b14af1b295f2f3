/* The readout's mean loss on a text (loss.h): the windows run from the zero state as jobs
 * over a few threads (compute/jobs.h), each window's sum of -ln p(next) taken in double from
 * the logits (a log-softmax, so no probability underflows), the sums added in window order. */
#include "config.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "compute/jobs.h"
#include "compute/kernels.h"
#include "gatetui/loss.h"
#include "gatetui/run.h"
#include "compute/threads.h"

/* The readout packed for the kernel set's product (loss.h). */
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

size_t loss_scratch(const gt_model *m)
{
    return (size_t)top_width(m) + (size_t)m->vocab;
}

/* -ln softmax(W h + b)[next], in double: W h by the kernel set's double product of the
 * float32 weights, the bias added after. */
double loss_step(const gt_loss_steps *ls, const float *hf, double *scratch, int next)
{
    const gt_model *m = ls->m;
    const size_t V = (size_t)m->vocab, H = (size_t)top_width(m);
    double *h = scratch, *logit = scratch + H;
    for (size_t j = 0; j < H; j++)
        h[j] = hf[j];
    kern32_gemv64(&ls->out, h, logit);
    double mx = -INFINITY;
    for (size_t v = 0; v < V; v++) {
        const double s = logit[v] + m->out_b[v];
        if (!(fabs(s) <= FLT_MAX)) /* past float32: the readout overflows (loss.h) */
            return NAN;
        logit[v] = s;
        if (s > mx)
            mx = s;
    }
    double z = 0;
    for (size_t v = 0; v < V; v++)
        z += exp(logit[v] - mx);
    return mx + log(z) - logit[next];
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
    double *scratch;  /* loss_scratch */
} loss_thread;

static int thread_begin(void *ctx, void **state, gt_error *e)
{
    const loss_work *w = ctx;
    loss_thread *th = calloc(1, sizeof *th);
    *state = th;
    if (!th || !(th->scratch = malloc(loss_scratch(w->m) * sizeof *th->scratch)))
        return gt_fail(e, GT_EFAIL, "loss: out of memory");
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
            return rc;
        if (t + 1 < end) {
            const double l = loss_step(w->ls, run_h(&th->r, w->m->layers - 1), th->scratch,
                                       w->tok[t + 1]);
            if (isnan(l))
                return run_readout_overflow(w->m, t, e);
            w->sum[k] += l;
            w->count[k]++;
        }
    }
    return GT_OK;
}

static void thread_end(void *ctx, void *state)
{
    loss_thread *th = state;
    if (!th)
        return;
    if (th->have_run)
        run_free(&th->r);
    free(th->scratch);
    free(th);
}


int loss_measure(gt_loss *out, const gt_model *m, const uint16_t *tok, size_t steps,
                 size_t window_len, size_t windows, int threads, gt_error *e)
{
    out->nats = NAN;
    out->count = 0;
    out->uniform = log((double)m->vocab);
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

void loss_warning(const gt_model *m, const gt_loss *l, char *buf, size_t n)
{
    snprintf(buf, n,
             "the readout's loss, %.2f bits per %s, is no better than a uniform guess "
             "(%.2f): the vocabulary's order or the readout's layer is probably wrong",
             loss_bits(l), model_step_noun(m), l->uniform / 0.69314718055994530942);
}
