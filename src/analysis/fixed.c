/* Fixed points of a layer under a held character (see dynamics.h): Newton's method on
 * F(s) - s = 0 from states of the text's run, with the step's exact Jacobian (dynrun.h, as
 * --spectrum forms it) and LAPACK's dgesv; the starts as jobs over threads. For layer L > 0
 * the layers below are solved first, each from the same start, and held at their own fixed
 * points: the stack's step map is then block lower triangular, its fixed points are those
 * of every layer in turn and its eigenvalues those of the layers' own Jacobians. */
#include "config.h"

#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compute/blasthreads.h"
#include "compute/jobs.h"
#include "dynrun.h"
#include "gatetui/dynamics.h"
#include "compute/threads.h"
#include "gatetui/report.h"

typedef struct fx_shared {
    const gt_model *m;
    int layer, n, nmax;   /* the layer's state's numbers, the most of layers 0..layer's */
    uint16_t tok;
    size_t nstarts, len;  /* len: the stack's state, layer k's (c, h) or h at stack_off(k) */
    size_t hold;          /* the held character's steps before Newton */
    double *st;           /* [nstarts * len]: each start, then its fixed point */
    double *res;          /* [nstarts]: the stack's residual, or -1: not converged */
} fx_shared;

typedef struct fx_work {
    dynrun *d;            /* [layer + 1]: layers 0..k stepped */
    double *A, *r;        /* [n * n + 2n] (a matrix, or the eigenvalues' parts), [n] (n: nmax) */
    double *s0, *t;       /* [n] twice: the state before a step, F of a trial */
    lapack_int *ipiv;     /* [n] */
} fx_work;

/* Where layer k's state is in the stack's: its (c, h) or h after the layers below's. */
static size_t stack_off(const gt_model *m, int k)
{
    return (size_t)m->cell->state * m->layer[k].off;
}

/* Layers 0..d->layer of d's batch set from the stack's state st ((c, h) or h per layer). */
static void load_state(dynrun *d, const double *st)
{
    const int lstm = d->m->cell->has_c; /* (c, h) */
    for (int k = 0; k <= d->layer; k++) {
        const size_t H = (size_t)model_width(d->m, k);
        const double *s = st + stack_off(d->m, k);
        if (lstm)
            memcpy(batch_c(&d->b, k, 0), s, H * sizeof *s);
        memcpy(batch_h(&d->b, k, 0), s + (lstm ? H : 0), H * sizeof *s);
    }
}

/* The layer's state after d's last step, (c, h) or h, into s. */
static void layer_state(const dynrun *d, double *s)
{
    const size_t H = (size_t)d->H;
    const int lstm = d->m->cell->has_c;
    if (lstm)
        memcpy(s, batch_c(&d->b, d->layer, 0), H * sizeof *s);
    memcpy(s + (lstm ? H : 0), batch_h(&d->b, d->layer, 0), H * sizeof *s);
}

/* Layers 0..d->layer of d's batch into the stack's state st. */
static void stack_state(const dynrun *d, double *st)
{
    const int lstm = d->m->cell->has_c;
    for (int k = 0; k <= d->layer; k++) {
        const size_t H = (size_t)model_width(d->m, k);
        double *s = st + stack_off(d->m, k);
        if (lstm)
            memcpy(s, batch_c(&d->b, k, 0), H * sizeof *s);
        memcpy(s + (lstm ? H : 0), batch_h(&d->b, k, 0), H * sizeof *s);
    }
}

/* F(s) - s of layer k at the stack's state st into r, and J into d->J; |r|_2 returned
 * (NAN when it is not finite). */
static double residual(dynrun *d, const double *st, uint16_t tok, double *r)
{
    const size_t n = (size_t)d->n;
    const double *s = st + stack_off(d->m, d->layer);
    load_state(d, st);
    dynrun_step(d, tok, 1);
    layer_state(d, r);
    double sum = 0;
    for (size_t i = 0; i < n; i++) {
        r[i] -= s[i];
        sum += r[i] * r[i];
    }
    return isfinite(sum) ? sqrt(sum) : NAN;
}

/* |F(s) - s|_2 at s + a step: s + alpha delta with alpha = 1, 1/2, 1/4, ... until the
 * residual falls by a share of alpha (Armijo's rule), at most FIXED_HALVINGS times; the
 * state moved there and its residual returned, or -1 when none fell. */
static double line_search(fx_work *w, dynrun *d, double *st, uint16_t tok, double res)
{
    const size_t n = (size_t)d->n;
    double *s = st + stack_off(d->m, d->layer), *s0 = w->s0, *delta = w->r;
    memcpy(s0, s, n * sizeof *s0);
    double alpha = 1;
    for (int i = 0; i <= FIXED_HALVINGS; i++, alpha *= 0.5) {
        for (size_t q = 0; q < n; q++)
            s[q] = s0[q] + alpha * delta[q];
        load_state(d, st);
        dynrun_step(d, tok, 0);
        layer_state(d, w->t);
        double sum = 0;
        for (size_t q = 0; q < n; q++)
            sum += (w->t[q] - s[q]) * (w->t[q] - s[q]);
        if (isfinite(sum) && sqrt(sum) <= (1 - 1e-4 * alpha) * res)
            return sqrt(sum);
    }
    memcpy(s, s0, n * sizeof *s);
    return -1;
}

/* Newton on layer k from st's part for it, the layers below at their fixed points: the
 * residual reached, or -1 when it did not fall to FIXED_TOL in FIXED_ITERS steps. */
static double newton_layer(fx_work *w, int k, double *st, uint16_t tok)
{
    dynrun *d = &w->d[k];
    const size_t n = (size_t)d->n;
    for (int it = 0;; it++) {
        const double res = residual(d, st, tok, w->r);
        if (isnan(res))
            return -1;
        if (res <= FIXED_TOL)
            return res;
        if (it == FIXED_ITERS)
            return -1;
        for (size_t i = 0; i < n; i++) { /* A = J - I, column-major for LAPACK */
            for (size_t q = 0; q < n; q++)
                w->A[q * n + i] = d->J[i * n + q];
            w->A[i * n + i] -= 1.0;
            w->r[i] = -w->r[i];
        }
        if (LAPACKE_dgesv(LAPACK_COL_MAJOR, (lapack_int)n, 1, w->A, (lapack_int)n, w->ipiv,
                          w->r, (lapack_int)n))
            return -1; /* singular: F(s) - s has no Newton step here */
        if (line_search(w, d, st, tok, res) < 0)
            return -1;
    }
}

static void work_end(void *ctx, void *state)
{
    const fx_shared *sh = ctx;
    fx_work *w = state;
    if (!w)
        return;
    for (int k = 0; w->d && k <= sh->layer; k++)
        dynrun_close(&w->d[k]);
    free(w->d);
    free(w->A);
    free(w->r);
    free(w->s0);
    free(w->t);
    free(w->ipiv);
    free(w);
}

static int work_begin(void *ctx, void **state, gt_error *e)
{
    const fx_shared *sh = ctx;
    const size_t n = (size_t)sh->nmax;
    fx_work *w = calloc(1, sizeof *w);
    *state = w;
    if (!w || !(w->d = calloc((size_t)sh->layer + 1, sizeof *w->d)) ||
        !(w->A = malloc((n * n + 2 * n) * sizeof *w->A)) || !(w->r = malloc(n * sizeof *w->r)) ||
        !(w->s0 = malloc(n * sizeof *w->s0)) || !(w->t = malloc(n * sizeof *w->t)) ||
        !(w->ipiv = malloc(n * sizeof *w->ipiv)))
        return gt_fail(e, GT_EFAIL, "out of memory for the fixed points' Newton steps");
    for (int k = 0; k <= sh->layer; k++) {
        int rc = dynrun_open(&w->d[k], sh->m, k, e);
        if (rc)
            return rc;
    }
    return GT_OK;
}

/* The stack's state st moved on by sh->hold steps reading the held character. */
static void hold(fx_work *w, const fx_shared *sh, double *st)
{
    if (!sh->hold)
        return;
    dynrun *d = &w->d[sh->layer];
    load_state(d, st);
    for (size_t t = 0; t < sh->hold; t++)
        dynrun_step(d, sh->tok, 0);
    stack_state(d, st);
}

/* Start i: every layer in turn, the stack's residual into res[i] (-1: not converged). */
static int work_run(void *ctx, void *state, size_t i, gt_error *e)
{
    (void)e;
    fx_shared *sh = ctx;
    double *st = sh->st + i * sh->len, sum = 0;
    hold(state, sh, st);
    for (int k = 0; k <= sh->layer; k++) {
        const double res = newton_layer(state, k, st, sh->tok);
        if (res < 0) {
            sh->res[i] = -1;
            return GT_OK;
        }
        sum += res * res;
    }
    sh->res[i] = sqrt(sum);
    return GT_OK;
}

/* The starts: the states after steps floor((i + 1) steps / N) - 1 of the text's run in
 * double precision from the zero state, i = 0..N-1, layers 0..layer, as (c, h) or h per
 * layer. */
static int take_starts(fx_shared *sh, const uint16_t *text, size_t steps, gt_error *e)
{
    dynrun d;
    int rc = dynrun_open(&d, sh->m, sh->layer, e);
    if (rc)
        return rc;
    size_t t = 0;
    for (size_t i = 0; i < sh->nstarts; i++) {
        const size_t upto = (i + 1) * steps / sh->nstarts;
        for (; t < upto; t++)
            dynrun_step(&d, text[t], 0);
        stack_state(&d, sh->st + i * sh->len);
    }
    dynrun_close(&d);
    return GT_OK;
}


/* Newton from every start over threads: sh->st and sh->res filled. */
static int newton_all(fx_shared *sh, const uint16_t *text, size_t steps, int threads, gt_error *e)
{
    int rc = take_starts(sh, text, steps, e);
    if (rc)
        return rc;
    const gt_jobs j = {.njobs = sh->nstarts, .threads = threads_choose(threads, sh->nstarts),
                       .ctx = sh, .begin = work_begin, .run = work_run, .end = work_end};
    const int was = blas_threads(1); /* and the same solves whatever the threads */
    rc = jobs_run(&j, NULL, e);
    blas_threads(was);
    return rc;
}

/* The largest |eigenvalue| of the stack's step Jacobian at its state st: the largest of
 * the layers' own (the stack's is block lower triangular). NAN when LAPACK fails. */
static double stack_max_abs(fx_work *w, const double *st, uint16_t tok, int layer)
{
    double best = 0;
    for (int k = 0; k <= layer; k++) {
        dynrun *d = &w->d[k];
        const size_t n = (size_t)d->n;
        residual(d, st, tok, w->r);
        double *wr = w->A, *wi = w->A + n;
        /* J row-major read as column-major: J^T, the same eigenvalues (no copy) */
        if (LAPACKE_dgeev(LAPACK_COL_MAJOR, 'N', 'N', (lapack_int)n, d->J, (lapack_int)n, wr,
                          wi, NULL, 1, NULL, 1))
            return NAN;
        for (size_t i = 0; i < n; i++)
            if (hypot(wr[i], wi[i]) > best)
                best = hypot(wr[i], wi[i]);
    }
    return best;
}

/* The stack's state's numbers (sh->len) and the most of one layer's (sh->nmax). */
static void stack_size(fx_shared *sh)
{
    sh->len = stack_off(sh->m, sh->layer) + (size_t)sh->n;
    sh->nmax = 0;
    for (int k = 0; k <= sh->layer; k++)
        if (dyn_state_size(sh->m, k) > sh->nmax)
            sh->nmax = dyn_state_size(sh->m, k);
}

void fixed_free(gt_fixed *f)
{
    free(f->point);
    free(f->store);
    memset(f, 0, sizeof *f);
}

static double distance(const double *a, const double *b, size_t len)
{
    double sum = 0;
    for (size_t i = 0; i < len; i++)
        sum += (a[i] - b[i]) * (a[i] - b[i]);
    return sqrt(sum);
}

/* By how many starts reached it, most first; then by the first start that did. */
static int cmp_points(const void *a, const void *b)
{
    const gt_fixed_point *x = a, *y = b;
    if (x->found_from != y->found_from)
        return x->found_from < y->found_from ? 1 : -1;
    return x->first < y->first ? -1 : x->first > y->first;
}

/* The converged starts kept once each (within FIXED_SAME of a point kept before them, in
 * the starts' order, they count for it), with the stability of each. */
static int gather(gt_fixed *f, fx_shared *sh, gt_error *e)
{
    const size_t len = sh->len, n = (size_t)sh->n;
    f->point = calloc(sh->nstarts, sizeof *f->point);
    f->store = malloc(sh->nstarts * n * sizeof *f->store);
    if (!f->point || !f->store)
        return gt_fail(e, GT_EFAIL, "out of memory for the fixed points");
    for (size_t i = 0; i < sh->nstarts; i++) {
        if (sh->res[i] < 0) {
            f->not_converged++;
            continue;
        }
        const double *st = sh->st + i * len;
        size_t p = 0;
        while (p < f->count && distance(sh->st + f->point[p].first * len, st, len) > FIXED_SAME)
            p++;
        if (p == f->count)
            f->point[f->count++] = (gt_fixed_point){.residual = sh->res[i], .first = i};
        f->point[p].found_from++;
    }
    qsort(f->point, f->count, sizeof *f->point, cmp_points);
    void *w = NULL;
    int rc = work_begin(sh, &w, e);
    for (size_t p = 0; !rc && p < f->count; p++) {
        gt_fixed_point *q = &f->point[p];
        const double *st = sh->st + q->first * len;
        q->state = f->store + p * n;
        memcpy(q->state, st + stack_off(sh->m, sh->layer), n * sizeof *q->state);
        q->max_abs = stack_max_abs(w, st, sh->tok, sh->layer);
        if (isnan(q->max_abs))
            rc = gt_fail(e, GT_EFAIL, "LAPACK's eigenvalues did not converge");
        q->stable = q->max_abs < 1;
        q->halflife = q->stable ? log(0.5) / log(q->max_abs) : NAN;
    }
    work_end(sh, w);
    return rc;
}

int fixed_from(gt_fixed *f, double *dist, const gt_model *m, int layer, uint16_t tok,
               const float *h, const float *c, size_t hold, gt_error *e)
{
    memset(f, 0, sizeof *f);
    *dist = NAN;
    if (layer < 0 || layer >= m->layers)
        return gt_fail(e, GT_EINPUT, "layer %d: the model has %d layer%s", layer, m->layers,
                       m->layers == 1 ? "" : "s");
    fx_shared sh = {.m = m, .layer = layer, .n = dyn_state_size(m, layer), .tok = tok,
                    .nstarts = 1, .hold = hold};
    const size_t n = (size_t)sh.n;
    stack_size(&sh);
    sh.st = malloc((sh.len + n) * sizeof *sh.st); /* then the start's own part, kept */
    sh.res = malloc(sizeof *sh.res);
    double *here = sh.st ? sh.st + sh.len : NULL;
    void *w = NULL;
    int rc = !sh.st || !sh.res ? gt_fail(e, GT_EFAIL, "out of memory for the fixed point")
                               : work_begin(&sh, &w, e);
    if (!rc) { /* the start: the state after the step reading tok from (h, c) */
        dynrun *d = &((fx_work *)w)->d[layer];
        batch_set_state(&d->b, 0, h, c);
        dynrun_step(d, tok, 0);
        stack_state(d, sh.st);
        memcpy(here, sh.st + stack_off(m, layer), n * sizeof *here);
        const int was = blas_threads(1);
        rc = work_run(&sh, w, 0, e);
        blas_threads(was);
    }
    work_end(&sh, w);
    f->layer = layer;
    f->n = sh.n;
    f->lstm = m->cell->has_c;
    f->tok = tok;
    f->starts = 1;
    f->hold = hold;
    if (!rc)
        rc = gather(f, &sh, e);
    if (!rc && f->count)
        *dist = distance(here, f->point[0].state, n);
    free(sh.st);
    free(sh.res);
    if (rc)
        fixed_free(f);
    return rc;
}

int fixed_compute(gt_fixed *f, const gt_model *m, int layer, uint16_t tok,
                  const uint16_t *text, const gt_fixed_options *o, gt_error *e)
{
    const size_t steps = o->steps, starts = o->starts;
    memset(f, 0, sizeof *f);
    f->words = m->words;
    if (layer < 0 || layer >= m->layers)
        return gt_fail(e, GT_EINPUT, "--layer %d: the model has %d layer%s (0..%d)", layer,
                       m->layers, m->layers == 1 ? "" : "s", m->layers - 1);
    if (starts < 1 || starts > steps)
        return gt_fail(e, GT_EINPUT, "--starts %zu: the text's run has %zu steps (1..%zu)",
                       starts, steps, steps);
    char a[32], b[32];
    if (starts > FIXED_MAX_STARTS)
        return gt_fail(e, GT_EINPUT, "--starts %s: at most %s starts",
                       report_commas(starts, a, sizeof a),
                       report_commas(FIXED_MAX_STARTS, b, sizeof b));
    if (o->hold > FIXED_MAX_HOLD)
        return gt_fail(e, GT_EINPUT, "--hold %s: at most %s steps of the held character from "
                       "each start", report_commas(o->hold, a, sizeof a),
                       report_commas(FIXED_MAX_HOLD, b, sizeof b));
    if (o->hold * starts > FIXED_MAX_HELD)
        return gt_fail(e, GT_EINPUT, "--starts %zu x --hold %zu: %s held steps in all, over "
                       "the bound of %s (fewer starts, or a shorter hold)", starts, o->hold,
                       report_commas(o->hold * starts, a, sizeof a),
                       report_commas(FIXED_MAX_HELD, b, sizeof b));
    fx_shared sh = {.m = m, .layer = layer, .n = dyn_state_size(m, layer), .tok = tok,
                    .nstarts = starts, .hold = o->hold};
    stack_size(&sh);
    sh.st = malloc(starts * sh.len * sizeof *sh.st);
    sh.res = malloc(starts * sizeof *sh.res);
    int rc = !sh.st || !sh.res ? gt_fail(e, GT_EFAIL, "out of memory for %zu starts", starts)
                               : newton_all(&sh, text, steps, o->threads, e);
    f->layer = layer;
    f->n = sh.n;
    f->lstm = m->cell->has_c;
    f->tok = tok;
    f->starts = starts;
    f->hold = o->hold;
    if (!rc)
        rc = gather(f, &sh, e);
    free(sh.st);
    free(sh.res);
    if (rc)
        fixed_free(f);
    return rc;
}
