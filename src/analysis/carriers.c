/* The carriers (carriers.h; doc/measures.md, "The carriers"): the text before the edit is run
 * once, one stream in double (the float32 weights summed in double); then jobs of units
 * over threads, each a batch of the clean run (item 0, in double), the edited run and the
 * job's units patched alone and removed, their products through their float32 differences
 * from item 0 (batch_use_float32). Each job writes its own units' sums; the edit's effect
 * comes from the first job. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "compute/jobs.h"
#include "compute/threads.h"
#include "gatetui/batch.h"
#include "gatetui/carriers.h"

#define UNITS_MAX 128 /* units per batch (2 runs each) */

typedef struct cjob {
    int first, count; /* units first .. first+count-1 */
} cjob;

typedef struct cshared {
    const gt_model *m;
    const uint16_t *tok;
    size_t s, K, LH;
    int layer, chunk;
    double *hc, *cc, *he, *ce; /* [hidden_total] the states after step s: clean, edited */
    cjob *jobs;
    size_t njobs;
    double effect;
    double *alone, *removed; /* [H] sums of KL */
} cshared;

/* The states after step s of the clean and the edited run, from the zero state. */
static int prefix(cshared *sh, int to, gt_error *e)
{
    gt_batch b;
    double *h0 = malloc(sh->LH * sizeof *h0), *c0 = malloc(sh->LH * sizeof *c0);
    int rc = h0 && c0 ? GT_OK : gt_fail(e, GT_EFAIL, "out of memory for the carriers");
    if (rc == GT_OK && (rc = batch_init(&b, sh->m, sh->m->layers - 1, 1, e)) == GT_OK) {
        if ((rc = batch_single_float32(&b, e)) == GT_OK) {
            batch_set_state(&b, 0, NULL, NULL);
            for (size_t t = 0; t < sh->s; t++)
                batch_step(&b, 1, sh->tok + t);
            batch_get_state64(&b, 0, h0, c0);
            batch_step(&b, 1, sh->tok + sh->s);
            batch_get_state64(&b, 0, sh->hc, sh->cc);
            const uint16_t edited = (uint16_t)to;
            batch_set_state64(&b, 0, h0, c0);
            batch_step(&b, 1, &edited);
            batch_get_state64(&b, 0, sh->he, sh->ce);
        }
        batch_free(&b);
    }
    free(h0);
    free(c0);
    return rc;
}

/* What a thread keeps from one job to the next. */
typedef struct cworker {
    gt_batch b;
    int have_b;
    uint16_t *tk;
    double *logit, *p, *kl; /* [cap * V], [V], [cap] */
} cworker;

/* Item i's state: the clean run's (edited 0) or the edited run's after step s, with unit j
 * of the layer (j >= 0) taken from the other run. */
static void set_item(const cshared *sh, gt_batch *b, int i, int edited, int j)
{
    batch_set_state64(b, i, edited ? sh->he : sh->hc, edited ? sh->ce : sh->cc);
    if (j < 0)
        return;
    const size_t at = sh->m->layer[sh->layer].off + (size_t)j;
    batch_h(b, sh->layer, i)[j] = edited ? sh->hc[at] : sh->he[at];
    if (sh->m->cell->has_c)
        batch_c(b, sh->layer, i)[j] = edited ? sh->cc[at] : sh->ce[at];
}

static double logsumexp(const double *l, size_t V)
{
    double mx = l[0], z = 0;
    for (size_t v = 1; v < V; v++)
        mx = l[v] > mx ? l[v] : mx;
    for (size_t v = 0; v < V; v++)
        z += exp(l[v] - mx);
    return mx + log(z);
}

/* e^-x - 1 + x, without the cancellation of its first order near 0: the series to x^10
 * for |x| < 0.1 (the next term 5e-17 of the value there). */
static double g_of(double x)
{
    if (fabs(x) >= 0.1)
        return expm1(-x) + x;
    double s = 1.0 / 3628800;
    static const double c[] = {-1.0 / 362880, 1.0 / 40320, -1.0 / 5040, 1.0 / 720, -1.0 / 120,
                               1.0 / 24, -1.0 / 6, 1.0 / 2};
    for (size_t k = 0; k < sizeof c / sizeof *c; k++)
        s = s * x + c[k];
    return s * x * x;
}

/* u - ln(1 + u), likewise: the series to u^10 for |u| < 0.01. */
static double h_of(double u)
{
    if (fabs(u) >= 0.01)
        return u - log1p(u);
    double s = 1.0 / 10;
    for (int k = 9; k >= 2; k--)
        s = s * u + (k % 2 ? -1.0 : 1.0) / k;
    return s * u * u;
}

/* KL(p || softmax(l)) from d = l_p - l, p = softmax(l_p): with d' = d less its mean under
 * p (KL does not change), KL = G - h(G - m), G = sum p g(d'), m = sum p d' (0 but for
 * rounding), exact algebra of sum p d + ln sum p e^-d; so a divergence of 1e-14 keeps its
 * digits where ln sum e^l - ln sum e^l_p would leave rounding of 1e-16 of the logits. A
 * large one (G - m above 0.01, or |d'| above 30, whose e^-d' could overflow) goes the plain
 * way, sum p d + ln sum e^l - ln sum e^l_p, which then loses nothing that matters (the
 * other would cancel G against h). */
static double kl_of(const double *p, const double *l0, const double *li, size_t V, double z0)
{
    double mean = 0, G = 0, m = 0, big = 0;
    for (size_t v = 0; v < V; v++)
        mean += p[v] * (l0[v] - li[v]);
    for (size_t v = 0; v < V; v++) {
        const double d = l0[v] - li[v] - mean;
        big = fabs(d) > big ? fabs(d) : big;
        G += p[v] * g_of(d);
        m += p[v] * d;
    }
    if (big > 30 || G - m > 0.01)
        return mean + logsumexp(li, V) - z0;
    return G - h_of(G - m);
}

/* KL(p_0 || p_i) of items 1..n-1 from the logits, added to kl[i]. */
static void add_kl(cworker *wk, size_t n, size_t V)
{
    const double *l0 = wk->logit, z0 = logsumexp(l0, V);
    for (size_t v = 0; v < V; v++)
        wk->p[v] = exp(l0[v] - z0);
    for (size_t i = 1; i < n; i++)
        wk->kl[i] += kl_of(wk->p, l0, wk->logit + i * V, V, z0);
}

static void run_job(cshared *sh, cworker *wk, const cjob *jb)
{
    gt_batch *b = &wk->b;
    const size_t V = (size_t)sh->m->vocab, n = 2 + 2 * (size_t)jb->count;
    set_item(sh, b, 0, 0, -1);
    set_item(sh, b, 1, 1, -1);
    for (int x = 0; x < jb->count; x++) {
        set_item(sh, b, 2 + 2 * x, 0, jb->first + x); /* alone */
        set_item(sh, b, 3 + 2 * x, 1, jb->first + x); /* removed */
    }
    memset(wk->kl, 0, n * sizeof *wk->kl);
    for (size_t t = sh->s; t <= sh->s + sh->K; t++) {
        if (t > sh->s) {
            for (size_t i = 0; i < n; i++)
                wk->tk[i] = sh->tok[t];
            batch_step(b, (int)n, wk->tk);
        }
        batch_logits(b, (int)n, wk->logit);
        add_kl(wk, n, V);
    }
    if (jb->first == 0)
        sh->effect = wk->kl[1];
    for (int x = 0; x < jb->count; x++) {
        sh->alone[jb->first + x] = wk->kl[2 + 2 * x];
        sh->removed[jb->first + x] = wk->kl[3 + 2 * x];
    }
}

static int worker_begin(void *ctx, void **state, gt_error *e)
{
    cshared *sh = ctx;
    const size_t cap = 2 + 2 * (size_t)sh->chunk, V = (size_t)sh->m->vocab;
    cworker *wk = calloc(1, sizeof *wk);
    *state = wk;
    if (!wk)
        return gt_fail(e, GT_EFAIL, "out of memory for the carriers");
    wk->tk = malloc(cap * sizeof *wk->tk);
    wk->logit = malloc(cap * V * sizeof *wk->logit);
    wk->p = malloc(V * sizeof *wk->p);
    wk->kl = malloc(cap * sizeof *wk->kl);
    if (!wk->tk || !wk->logit || !wk->p || !wk->kl)
        return gt_fail(e, GT_EFAIL, "out of memory for the carriers");
    if (batch_init(&wk->b, sh->m, sh->m->layers - 1, (int)cap, e))
        return e->code;
    wk->have_b = 1;
    if (batch_use_float32(&wk->b, e) || batch_use_readout(&wk->b, e))
        return e->code;
    return GT_OK;
}

static int worker_job(void *ctx, void *state, size_t i, gt_error *e)
{
    cshared *sh = ctx;
    (void)e;
    run_job(sh, state, &sh->jobs[i]);
    return GT_OK;
}

static void worker_end(void *ctx, void *state)
{
    cworker *wk = state;
    (void)ctx;
    if (!wk)
        return;
    if (wk->have_b)
        batch_free(&wk->b);
    free(wk->tk);
    free(wk->logit);
    free(wk->p);
    free(wk->kl);
    free(wk);
}

void carriers_free(gt_carriers *r)
{
    free(r->alone);
    free(r->removed);
    free(r->order);
    memset(r, 0, sizeof *r);
}

typedef struct ranked {
    double alone;
    int unit;
} ranked;

static int by_alone(const void *a, const void *b)
{
    const ranked *x = a, *y = b;
    if (x->alone != y->alone)
        return x->alone > y->alone ? -1 : 1;
    return x->unit - y->unit;
}

/* The units' sums into r: A_j, R_j, the order by A_j. */
static int finish(gt_carriers *r, const cshared *sh, gt_error *e)
{
    const int H = r->hidden;
    ranked *rk = malloc((size_t)H * sizeof *rk);
    if (!rk)
        return gt_fail(e, GT_EFAIL, "out of memory for the carriers");
    r->effect = sh->effect;
    for (int j = 0; j < H; j++) {
        r->alone[j] = sh->alone[j];
        r->removed[j] = sh->effect > 0 ? 1.0 - sh->removed[j] / sh->effect : NAN;
        rk[j] = (ranked){r->alone[j], j};
    }
    qsort(rk, (size_t)H, sizeof *rk, by_alone);
    for (int j = 0; j < H; j++)
        r->order[j] = rk[j].unit;
    free(rk);
    return GT_OK;
}

static int check(const gt_model *m, size_t steps, size_t s, const gt_report_options *o,
                 gt_error *e)
{
    if (!m->has_readout)
        return gt_fail(e, GT_EINPUT, "--carriers: the model has no readout, so there are no "
                                     "next-character distributions to compare");
    if (m->proj)
        return gt_fail(e, GT_EINPUT, "--carriers: %s is an LSTM with projections (proj_size "
                       "%d): its h is the %d projected values, not a value per unit to patch",
                       m->path, m->proj, m->proj);
    if (o->layer < 0 || o->layer >= m->layers)
        return gt_fail(e, GT_EINPUT, "--layer %d: the model has %d layer%s (0..%d)", o->layer,
                       m->layers, m->layers == 1 ? "" : "s", m->layers - 1);
    if (o->horizon < 0 || o->horizon > INT32_MAX)
        return gt_fail(e, GT_EINPUT, "--horizon %ld: a horizon is 1 to %ld steps", o->horizon,
                       (long)INT32_MAX);
    if (s >= steps)
        return gt_fail(e, GT_EINPUT, "--carriers: the edit's step %zu is past the text's %zu "
                       "steps", s, steps);
    return GT_OK;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The jobs: the layer's units in as few batches as give every thread about two. */
static int plan(cshared *sh, int threads, gt_error *e)
{
    const int H = model_width(sh->m, sh->layer);
    int chunk = (H + 2 * threads - 1) / (2 * threads);
    sh->chunk = chunk > UNITS_MAX ? UNITS_MAX : chunk < 1 ? 1 : chunk;
    sh->njobs = (size_t)((H + sh->chunk - 1) / sh->chunk);
    sh->jobs = calloc(sh->njobs, sizeof *sh->jobs);
    sh->hc = malloc(4 * sh->LH * sizeof *sh->hc);
    sh->alone = calloc((size_t)H, sizeof *sh->alone);
    sh->removed = calloc((size_t)H, sizeof *sh->removed);
    if (!sh->jobs || !sh->hc || !sh->alone || !sh->removed)
        return gt_fail(e, GT_EFAIL, "out of memory for the carriers");
    sh->cc = sh->hc + sh->LH;
    sh->he = sh->hc + 2 * sh->LH;
    sh->ce = sh->hc + 3 * sh->LH;
    for (size_t k = 0; k < sh->njobs; k++) {
        const int f = (int)k * sh->chunk;
        sh->jobs[k] = (cjob){f, H - f < sh->chunk ? H - f : sh->chunk};
    }
    return GT_OK;
}

int carriers_compute(gt_carriers *r, const gt_model *m, const uint16_t *tok, size_t steps,
                     size_t s, int to, const gt_report_options *o, gt_error *e)
{
    memset(r, 0, sizeof *r);
    int rc = check(m, steps, s, o, e);
    if (rc)
        return rc;
    const double t0 = now();
    const size_t want = o->horizon > 0 ? (size_t)o->horizon : REPORT_HORIZON;
    cshared sh = {.m = m, .tok = tok, .s = s, .K = steps - 1 - s < want ? steps - 1 - s : want,
                  .LH = (size_t)m->hidden_total, .layer = o->layer};
    int threads = threads_choose(o->threads, 0);
    const size_t H = (size_t)model_width(m, o->layer);
    r->alone = malloc(H * sizeof *r->alone);
    r->removed = malloc(H * sizeof *r->removed);
    r->order = malloc(H * sizeof *r->order);
    if (!r->alone || !r->removed || !r->order)
        rc = gt_fail(e, GT_EFAIL, "out of memory for the carriers");
    if (rc == GT_OK && (rc = plan(&sh, threads, e)) == GT_OK)
        rc = prefix(&sh, to, e);
    if (rc == GT_OK) {
        const gt_jobs j = {.njobs = sh.njobs,
                           .threads = threads < (int)sh.njobs ? threads : (int)sh.njobs,
                           .ctx = &sh, .begin = worker_begin, .run = worker_job,
                           .end = worker_end, .total = (long long)sh.njobs,
                           .progress = o->progress, .progress_ctx = o->progress_ctx};
        rc = jobs_run(&j, &r->threads, e);
    }
    if (rc == GT_OK) {
        *r = (gt_carriers){.m = m, .step = s, .from = tok[s], .to = to, .layer = o->layer,
                           .hidden = (int)H, .horizon = sh.K, .alone = r->alone,
                           .removed = r->removed, .order = r->order, .threads = r->threads};
        rc = finish(r, &sh, e);
        r->seconds = now() - t0;
    }
    free(sh.jobs);
    free(sh.hc);
    free(sh.alone);
    free(sh.removed);
    if (rc)
        carriers_free(r);
    return rc;
}
