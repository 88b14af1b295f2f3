/* Importance (importance.h): jobs of (window, units) over a few threads, each a batch of the
 * window's text as it is and with each of its units ablated; every job writes its own
 * sums, which are added in window order afterwards, so the numbers do not depend on the
 * number of threads. */
#include "config.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "compute/jobs.h"
#include "gatetui/batch.h"
#include "gatetui/importance.h"
#include "gatetui/interval.h"
#include "gatetui/run.h"
#include "analysis/windows.h"
#include "compute/threads.h"

#define CHUNK_MAX 256 /* ablations per batch */

typedef struct ijob {
    size_t win;
    int first, count; /* units first .. first+count-1 */
} ijob;

typedef struct ishared {
    const gt_model *m;
    const uint16_t *tok;
    const gt_report_options *o;
    size_t H, L, steps, nwin, njobs, chunk;
    ijob *jobs;
    double *base;     /* [nwin]: item 0's sum of the window (from its first job) */
    size_t *count;    /* [nwin] */
    double *sum;      /* [nwin * H] */
} ishared;

static size_t win_len(const ishared *sh, size_t w)
{
    size_t s = w * sh->L;
    return sh->steps - s < sh->L ? sh->steps - s : sh->L;
}

/* -ln softmax(l)[next], in double. */
static double nll(const double *l, size_t V, int next)
{
    double mx = l[0];
    for (size_t v = 1; v < V; v++)
        mx = l[v] > mx ? l[v] : mx;
    double z = 0;
    for (size_t v = 0; v < V; v++)
        z += exp(l[v] - mx);
    return mx + log(z) - l[next];
}

/* The unablated stream's state and logits after step t: past float32's range, the model's
 * state or its readout overflows (run.h's words), an error. */
static int overflowed(const ishared *sh, const gt_batch *b, const double *logit, size_t t,
                      gt_error *e)
{
    const gt_model *m = sh->m;
    const int top = m->layers - 1;
    const double *h = batch_h(b, top, 0), *c = batch_c(b, top, 0);
    for (int j = 0; j < model_width(m, top); j++)
        if (!(fabs(h[j]) <= FLT_MAX) || (m->cell->has_c && !(fabs(c[j]) <= FLT_MAX)))
            return run_state_overflow(m, t, top, (size_t)j, e);
    for (int v = 0; v < m->vocab; v++)
        if (!(fabs(logit[v]) <= FLT_MAX))
            return run_readout_overflow(m, t, e);
    return GT_OK;
}

static int run_job(ishared *sh, gt_batch *b, int *unit, uint16_t *tk, double *logit,
                   double *acc, const ijob *jb, gt_error *e)
{
    const size_t V = (size_t)sh->m->vocab, n = (size_t)jb->count + 1;
    const size_t start = jb->win * sh->L, len = win_len(sh, jb->win);
    unit[0] = -1;
    for (size_t i = 1; i < n; i++)
        unit[i] = jb->first + (int)i - 1;
    for (size_t i = 0; i < n; i++) {
        batch_set_state(b, (int)i, NULL, NULL);
        acc[i] = 0;
    }
    for (size_t t = 0; t + 1 < len; t++) { /* the last step predicts nothing counted */
        for (size_t i = 0; i < n; i++)
            tk[i] = sh->tok[start + t];
        batch_step(b, (int)n, tk);
        batch_logits(b, (int)n, logit);
        int rc = overflowed(sh, b, logit, start + t, e);
        if (rc)
            return rc;
        const int next = sh->tok[start + t + 1];
        for (size_t i = 0; i < n; i++)
            acc[i] += nll(logit + i * V, V, next);
    }
    if (jb->first == 0) {
        sh->base[jb->win] = acc[0];
        sh->count[jb->win] = len - 1;
    }
    for (int x = 0; x < jb->count; x++)
        sh->sum[jb->win * sh->H + (size_t)(jb->first + x)] = acc[x + 1];
    return GT_OK;
}

/* What a thread keeps from one job to the next: its batch and the batch's buffers. */
typedef struct iworker {
    gt_batch b;
    int have_b;
    int *unit;
    uint16_t *tk;
    double *logit, *acc;
} iworker;

static int worker_begin(void *ctx, void **state, gt_error *e)
{
    ishared *sh = ctx;
    const size_t cap = sh->chunk + 1, V = (size_t)sh->m->vocab;
    iworker *wk = calloc(1, sizeof *wk);
    *state = wk;
    if (!wk)
        return gt_fail(e, GT_EFAIL, "out of memory for the importance");
    wk->unit = malloc(cap * sizeof *wk->unit);
    wk->tk = malloc(cap * sizeof *wk->tk);
    wk->logit = malloc(cap * V * sizeof *wk->logit);
    wk->acc = malloc(cap * sizeof *wk->acc);
    if (!wk->unit || !wk->tk || !wk->logit || !wk->acc)
        return gt_fail(e, GT_EFAIL, "out of memory for the importance");
    if (batch_init(&wk->b, sh->m, sh->m->layers - 1, (int)cap, e))
        return e->code;
    wk->have_b = 1;
    wk->b.ablate_layer = sh->o->layer;
    wk->b.ablate_unit = wk->unit;
    if (batch_use_float32(&wk->b, e) || batch_use_readout(&wk->b, e))
        return e->code;
    return GT_OK;
}

static int worker_job(void *ctx, void *state, size_t i, gt_error *e)
{
    ishared *sh = ctx;
    iworker *wk = state;
    return run_job(sh, &wk->b, wk->unit, wk->tk, wk->logit, wk->acc, &sh->jobs[i], e);
}

static void worker_end(void *ctx, void *state)
{
    iworker *wk = state;
    if (!wk)
        return;
    if (wk->have_b)
        batch_free(&wk->b);
    free(wk->unit);
    free(wk->tk);
    free(wk->logit);
    free(wk->acc);
    free(wk);
}

void importance_free(gt_importance *r)
{
    free(r->unit_loss);
    free(r->delta_hw);
    free(r->order);
    memset(r, 0, sizeof *r);
}

typedef struct ranked {
    double delta;
    int unit;
} ranked;

static int by_delta(const void *a, const void *b)
{
    const ranked *x = a, *y = b;
    if (isnan(x->delta) || isnan(y->delta)) /* not known: last (a consistent order) */
        return isnan(x->delta) != isnan(y->delta) ? isnan(x->delta) - isnan(y->delta)
                                                  : x->unit - y->unit;
    if (x->delta != y->delta)
        return x->delta > y->delta ? -1 : 1;
    return x->unit - y->unit;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The windows' sums added in window order: each unit's loss, the loss as it is, the units
 * by the loss their ablation adds. */
static int reduce(gt_importance *r, const ishared *sh, gt_error *e)
{
    double base = 0;
    size_t count = 0;
    for (size_t w = 0; w < sh->nwin; w++) {
        base += sh->base[w];
        count += sh->count[w];
    }
    for (size_t j = 0; j < sh->H; j++) {
        double s = 0;
        for (size_t w = 0; w < sh->nwin; w++)
            s += sh->sum[w * sh->H + j];
        r->unit_loss[j] = s / (double)count;
        r->order[j] = (int)j;
    }
    r->loss = (gt_loss){.nats = base / (double)count, .count = count,
                        .uniform = log((double)sh->m->vocab)};
    ranked *rk = malloc(sh->H * sizeof *rk);
    double *d = malloc(sh->nwin * sizeof *d);
    int rc = GT_OK;
    if (d) /* each unit's interval: its windows' sums less the text's, by their predictions */
        for (size_t j = 0; j < sh->H; j++) {
            for (size_t w = 0; w < sh->nwin; w++)
                d[w] = sh->sum[w * sh->H + j] - sh->base[w];
            r->delta_hw[j] = interval_ratio_hw(d, sh->count, NULL, NULL, sh->nwin);
        }
    if (!rk || !d) {
        rc = gt_fail(e, GT_EFAIL, "out of memory for the importance");
    } else {
        for (size_t j = 0; j < sh->H; j++)
            rk[j] = (ranked){r->unit_loss[j] - r->loss.nats, (int)j};
        qsort(rk, sh->H, sizeof *rk, by_delta);
        for (size_t j = 0; j < sh->H; j++)
            r->order[j] = rk[j].unit;
    }
    free(rk);
    free(d);
    r->layer = sh->o->layer;
    r->hidden = (int)sh->H;
    r->lstm = sh->m->cell->has_c;
    r->windows = sh->nwin;
    r->window_len = sh->L;
    return rc;
}

int importance_compute(gt_importance *r, const gt_model *m, const uint16_t *tok, size_t steps,
                       const gt_report_options *o, gt_error *e)
{
    memset(r, 0, sizeof *r);
    r->step_noun = model_step_noun(m);
    if (!m->has_readout)
        return gt_fail(e, GT_EINPUT, "--importance: the model has no readout, so there is no "
                                     "loss to compare");
    int bad = report_check_windows(m, o, e);
    if (bad)
        return bad;
    if (steps < 2)
        return gt_fail(e, GT_EINPUT, "importance: the text has fewer than 2 steps");
    double t0 = now();
    ishared sh;
    memset(&sh, 0, sizeof sh);
    sh.m = m;
    sh.tok = tok;
    sh.o = o;
    sh.H = (size_t)model_width(m, o->layer); /* the ablated layer's units */
    /* a window longer than the text is the text: the length said is the one used */
    sh.L = (size_t)o->window_len < steps ? (size_t)o->window_len : steps;
    sh.steps = steps;
    size_t chunks = (steps + sh.L - 1) / sh.L;
    sh.nwin = chunks < (size_t)o->windows ? chunks : (size_t)o->windows;
    if (win_len(&sh, sh.nwin - 1) < 2)
        sh.nwin--; /* a last window of one step predicts nothing */
    int threads = threads_choose(o->threads, 0);
    /* the units of a window in as few batches as give every thread about two jobs */
    size_t want = (2 * (size_t)threads + sh.nwin - 1) / sh.nwin;
    size_t chunk = (sh.H + want - 1) / want;
    sh.chunk = chunk > CHUNK_MAX ? CHUNK_MAX : chunk < 1 ? 1 : chunk;
    size_t per_win = (sh.H + sh.chunk - 1) / sh.chunk;
    sh.njobs = sh.nwin * per_win;
    sh.jobs = calloc(sh.njobs, sizeof *sh.jobs);
    sh.base = calloc(sh.nwin, sizeof *sh.base);
    sh.count = calloc(sh.nwin, sizeof *sh.count);
    sh.sum = calloc(sh.nwin * sh.H, sizeof *sh.sum);
    r->unit_loss = malloc(sh.H * sizeof *r->unit_loss);
    r->delta_hw = malloc(sh.H * sizeof *r->delta_hw);
    r->order = malloc(sh.H * sizeof *r->order);
    int rc = GT_OK;
    if (!sh.jobs || !sh.base || !sh.count || !sh.sum || !r->unit_loss || !r->delta_hw || !r->order)
        rc = gt_fail(e, GT_EFAIL, "out of memory for the importance");
    size_t nj = 0;
    for (size_t w = 0; !rc && w < sh.nwin; w++)
        for (size_t f = 0; f < sh.H; f += sh.chunk)
            sh.jobs[nj++] = (ijob){w, (int)f, (int)(sh.H - f < sh.chunk ? sh.H - f : sh.chunk)};
    if ((size_t)threads > sh.njobs)
        threads = (int)sh.njobs;
    if (!rc) {
        const gt_jobs j = {.njobs = sh.njobs, .threads = threads, .ctx = &sh,
                           .begin = worker_begin, .run = worker_job, .end = worker_end,
                           .total = (long long)sh.njobs,
                           .progress = o->progress, .progress_ctx = o->progress_ctx};
        rc = jobs_run(&j, &r->threads, e);
    }
    if (!rc)
        rc = reduce(r, &sh, e);
    free(sh.jobs);
    free(sh.base);
    free(sh.count);
    free(sh.sum);
    if (rc) {
        importance_free(r);
        return rc;
    }
    r->seconds = now() - t0;
    return GT_OK;
}
