/* The readout's mean loss on a text (loss.h): the windows run from the zero state as jobs
 * over a few threads (compute/jobs.h), each window's sum of -ln p(next) taken in double from
 * the logits (a log-softmax, so no probability underflows), the sums added in window order. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "compute/jobs.h"
#include "compute/kernels.h"
#include "gatetui/loss.h"
#include "gatetui/run.h"

#define MAX_THREADS 16

typedef struct loss_work {
    const gt_model *m;
    const uint16_t *tok;
    size_t steps, L;
    gt_mat32 out;     /* the readout's weights, packed for the kernel set's product */
    double *sum;      /* [nwin] */
    size_t *count;    /* [nwin] */
} loss_work;

/* What a thread keeps from one window to the next. */
typedef struct loss_thread {
    gt_run r;
    int have_run;
    double *logit;    /* [V] */
    double *h;        /* [H]: the last layer's h in double */
} loss_thread;

/* -ln softmax(W h + b)[next], in double: W h by the kernel set's double product of the
 * float32 weights. */
static double step_loss(const loss_work *w, const float *hf, double *h, double *logit,
                        int next)
{
    const gt_model *m = w->m;
    const size_t V = (size_t)m->vocab, H = (size_t)m->hidden;
    for (size_t j = 0; j < H; j++)
        h[j] = hf[j];
    kern32_gemv64(&w->out, h, logit);
    double mx = -INFINITY;
    for (size_t v = 0; v < V; v++) {
        const double s = logit[v] + m->out_b[v];
        logit[v] = s;
        if (s > mx)
            mx = s;
    }
    double z = 0;
    for (size_t v = 0; v < V; v++)
        z += exp(logit[v] - mx);
    return mx + log(z) - logit[next];
}

static int thread_begin(void *ctx, void **state, gt_error *e)
{
    const loss_work *w = ctx;
    loss_thread *th = calloc(1, sizeof *th);
    *state = th;
    if (!th || !(th->logit = malloc((size_t)w->m->vocab * sizeof *th->logit)) ||
        !(th->h = malloc((size_t)w->m->hidden * sizeof *th->h)))
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
            w->sum[k] += step_loss(w, run_h(&th->r, w->m->layers - 1), th->h, th->logit,
                                   w->tok[t + 1]);
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
    free(th->logit);
    free(th->h);
    free(th);
}

static int threads_for(int threads, size_t nwin)
{
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    int n = threads > 0 ? threads : ncpu > 0 ? (int)ncpu : 1;
    if (n > MAX_THREADS)
        n = MAX_THREADS;
    return (size_t)n > nwin ? (int)nwin : n;
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
    int nt = threads_for(threads, nwin);
    double *sum = calloc(nwin, sizeof *sum);
    size_t *count = calloc(nwin, sizeof *count);
    loss_work w = {m, tok, steps, window_len, {0}, sum, count};
    int rc = GT_OK;
    if (!sum || !count || mat32_pack(&w.out, m->out_w, (size_t)m->vocab, (size_t)m->hidden)) {
        rc = gt_fail(e, GT_EFAIL, "loss: out of memory");
    } else {
        const gt_jobs j = {.njobs = nwin, .threads = nt, .ctx = &w, .begin = thread_begin,
                           .run = window_loss, .end = thread_end};
        rc = jobs_run(&j, NULL, e);
    }
    mat32_free(&w.out);
    double total = 0;
    size_t n = 0;
    for (size_t k = 0; rc == GT_OK && k < nwin; k++) {
        total += sum[k];
        n += count[k];
    }
    free(sum);
    free(count);
    if (rc == GT_OK && n) {
        out->nats = total / (double)n;
        out->count = n;
    }
    return rc;
}

size_t loss_quick_windows(const gt_model *m, size_t window_len, size_t windows)
{
    double per_step = (double)m->vocab * m->hidden;
    for (int k = 0; k < m->layers; k++)
        per_step += (double)m->gates * m->hidden * (m->layer[k].in_dim + m->hidden);
    double fit = 2e9 / (per_step * (double)window_len);
    return fit < 1 ? 1 : fit > (double)windows ? windows : (size_t)fit;
}

void loss_warning(const gt_loss *l, char *buf, size_t n)
{
    snprintf(buf, n,
             "the readout's loss, %.2f bits per character, is no better than a uniform guess "
             "(%.2f): the vocabulary's order or the readout's layer is probably wrong",
             loss_bits(l), l->uniform / 0.69314718055994530942);
}
