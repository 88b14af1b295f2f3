/* The probe's parts (see probe.h): the signal as a matrix, the logistic fit, the AUC. */
#define _GNU_SOURCE /* qsort_r */
#include "config.h"

#include <float.h>
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compute/blas.h"
#include "compute/blasthreads.h"
#include "compute/pool.h"
#include "compute/x86.h"
#include "gatetui/bigmem.h"
#include "gatetui/probe.h"

typedef struct collect {
    gt_signal_matrix *x;
    int layer, signal;
} collect;

static int collect_step(void *ctx, size_t t, const gt_run *r)
{
    collect *c = ctx;
    const float *v = signals_of(r, c->layer, c->signal);
    memcpy(c->x->x + t * (size_t)c->x->H, v, (size_t)c->x->H * sizeof *v);
    return 0;
}

int probe_matrix(gt_signal_matrix *out, const gt_model *m, const uint16_t *tok, size_t n,
                 int signal, const gt_pass_options *o, gt_error *e)
{
    out->n = n;
    out->H = model_width(m, o->layer);
    out->x = big_zalloc(n * (size_t)out->H * sizeof *out->x); /* gatetui/bigmem.h */
    if (!out->x)
        return gt_fail(e, GT_EFAIL, "out of memory for %zu steps of %d units", n, out->H);
    collect c = {out, o->layer, signal};
    int rc = signals_pass(m, tok, n, o, collect_step, &c, e);
    if (rc) {
        free(out->x);
        out->x = NULL;
    }
    return rc;
}

#define FIT_TOL 1e-8
#define FIT_MAX_ITER 100

#define HESS_BLOCK 1024   /* rows scaled and added to the Hessian at a time */
/* The Hessian's rows (see hess): far from the minimum, HESS_FAR (and 32 per weight), near
 * it HESS_NEAR (and 64 per weight) */
#define HESS_FAR 8192
#define HESS_NEAR 16384

/* Four doubles (read and written at any alignment) and four floats: element by element,
 * each result rounded as in scalar code, so that the vectors' width does not change the
 * numbers (both clones below compute the same). Macros, not functions: a function's
 * 32-byte vector argument or result would depend on the processor's calling convention. */
typedef double v4d __attribute__((vector_size(32), aligned(8)));
typedef float f4 __attribute__((vector_size(16)));
#define LD4(p) (*(const v4d *)(p))
/* Four floats from p, widened (as elements: GCC makes one instruction of it where it
 * splits a __builtin_convertvector). */
#define WIDEN4(p) ((v4d){(p)[0], (p)[1], (p)[2], (p)[3]})
/* The passes over the rows: compiled for AVX2 (whose 32-byte vectors hold a v4d) and for
 * the baseline (compute/x86.h), the same numbers from both. */
#define PASS GT_CLONES_AVX2
#define INLINE __attribute__((always_inline)) static inline
/* x's values j..j+3 of a row: (v - mean) * scale, in double. */
#define X4(x, row, j) ((WIDEN4((row) + (j)) - LD4((x)->mean + (j))) * LD4((x)->scale + (j)))
static inline double x1(const gt_probe_rows *x, const float *row, int j)
{
    return ((double)row[j] - x->mean[j]) * x->scale[j];
}

/* A row's values j..j+3 centred, v - mean, in double. */
#define C4(x, row, j) (WIDEN4((row) + (j)) - LD4((x)->mean + (j)))

/* The product of a row of x with s, from ks = scale s: the sum of (v - mean) ks over the
 * row's 8-value blocks in two vectors, then the rest. */
INLINE double row_dot(const gt_probe_rows *x, const float *row, const double *ks)
{
    const int d = x->d, d8 = d & ~7;
    v4d a0 = {0, 0, 0, 0}, a1 = a0;
    int j = 0;
    for (; j < d8; j += 8)
        a0 += C4(x, row, j) * LD4(ks + j), a1 += C4(x, row, j + 4) * LD4(ks + j + 4);
    const v4d a = a0 + a1;
    double dot = (a[0] + a[1]) + (a[2] + a[3]);
    for (; j < d; j++)
        dot += ((double)row[j] - x->mean[j]) * ks[j];
    return dot;
}

/* g += r (v - mean) + q (w - mean) over the d values of two rows v and w (the scale is
 * applied to the sums at the end). */
INLINE void add_rows(double *restrict g, const gt_probe_rows *x, const float *v, double r,
                     const float *w, double q)
{
    const v4d rv = {r, r, r, r}, qv = {q, q, q, q};
    const int d = x->d;
    int j = 0;
    for (; j + 4 <= d; j += 4)
        *(v4d *)(g + j) += rv * C4(x, v, j) + qv * C4(x, w, j);
    for (; j < d; j++)
        g[j] += r * ((double)v[j] - x->mean[j]) + q * ((double)w[j] - x->mean[j]);
}

/* The sigmoid of z and, into *sp, log(1 + exp(z)), from one exponential. */
INLINE double logistic(double z, double *sp)
{
    const double e = exp(-fabs(z));
    *sp = (z > 0 ? z : 0) + log1p(e);
    return z >= 0 ? 1 / (1 + e) : e / (1 + e);
}

/* The rows in PARTS fixed parts, each summed on its own and the parts' sums then added in
 * order: the same numbers on one thread or two. */
#define PARTS 2

/* One pass over the rows for the step from w to trial = w - s, given z, the scores at w
 * (NULL: zero): z2 = z - (x s + s_b) (with z zero and s = -w, x w + b), and the sums of the
 * objective and the gradient at trial. */
typedef struct pass {
    const gt_probe_rows *x;
    const unsigned char *y;
    const double *s, *z;
    double *z2, *ks;             /* ks: [d], scale s */
    double loss[PARTS], gb[PARTS];
    double *g[PARTS];            /* [d] each: a part's sums of r (v - mean) */
    size_t count;                /* the passes made */
} pass;

/* A part's rows two by two: each row's score and r = p - y, then both rows' share of the
 * gradient's sums (the last row of an odd count with a second row of r = 0). */
PASS static void pass_rows(pass *p, int part)
{
    const gt_probe_rows *x = p->x;
    const int d = x->d;
    const size_t lo = x->n * (size_t)part / PARTS, hi = x->n * (size_t)(part + 1) / PARTS;
    double *restrict g = p->g[part], *restrict z2 = p->z2;
    const double *restrict ks = p->ks, *restrict z = p->z, sd = p->s[d];
    const unsigned char *restrict y = p->y;
    memset(g, 0, (size_t)d * sizeof *g);
    double loss = 0, gb = 0, sp, r[2];
    for (size_t t = lo; t < hi; t += 2) {
        const float *row[2] = {x->v + t * (size_t)d, x->v + t * (size_t)d};
        r[1] = 0;
        for (size_t i = t; i < t + 2 && i < hi; i++) {
            row[i - t] = x->v + i * (size_t)d;
            const double zt = (z ? z[i] : 0) - (sd + row_dot(x, row[i - t], ks));
            r[i - t] = logistic(zt, &sp) - y[i];
            z2[i] = zt;
            loss += sp - (y[i] ? zt : 0);
            gb += r[i - t];
        }
        add_rows(g, x, row[0], r[0], row[1], r[1]);
    }
    p->loss[part] = loss, p->gb[part] = gb;
}

static void pass_job(void *ctx, int k, int n)
{
    for (int part = k; part < PARTS; part += n)
        pass_rows(ctx, part);
}

/* The pass, and then the objective at trial (returned) and its gradient g (d + 1; its norm
 * into *gn). */
static double run_pass(pass *p, gt_pool *pool, double lambda, const double *trial, double *g,
                       double *gn)
{
    const gt_probe_rows *x = p->x;
    const int d = x->d;
    for (int j = 0; j < d; j++)
        p->ks[j] = x->scale[j] * p->s[j];
    pool_run(pool, pass_job, p);
    p->count++;
    double loss = 0, gb = 0, norm = 0, reg = 0;
    for (int k = 0; k < PARTS; k++)
        loss += p->loss[k], gb += p->gb[k];
    for (int j = 0; j < d; j++) {
        double sum = 0;
        for (int k = 0; k < PARTS; k++)
            sum += p->g[k][j];
        g[j] = x->scale[j] * sum / (double)x->n + lambda * trial[j];
        reg += trial[j] * trial[j];
        norm += g[j] * g[j];
    }
    g[d] = gb / (double)x->n;
    *gn = sqrt(norm + g[d] * g[d]);
    return loss / (double)x->n + 0.5 * lambda * reg;
}

/* The scores, objective and gradient at w afresh (from z zero, the step -w). */
static double run_at(pass *p, gt_pool *pool, double lambda, const double *w, double *neg,
                     double *z, double *g, double *gn)
{
    for (int i = 0; i <= p->x->d; i++)
        neg[i] = -w[i];
    p->s = neg, p->z = NULL, p->z2 = z;
    return run_pass(p, pool, lambda, w, g, gn);
}

/* The Hessian ((d + 1)^2, its upper triangle, row-major) at the point whose x w + b is z,
 * (1/n) sum_t q_t (x_t, 1)(x_t, 1)' with q_t = p_t (1 - p_t), over a sample of the rows
 * drawn by q (doc/measures.md, "The probe"): a row of q_t >= tau is taken with its own q_t,
 * one of q_t < tau with the chance q_t / tau and then counted as tau (systematically: each
 * time the running sum of q_t / tau passes a whole number), tau such that about `budget`
 * rows are taken (0 when the budget is every row). The taken rows scaled by the square
 * root of their q, their products in float32 by the BLAS's ssyrk on blocks of HESS_BLOCK
 * rows (so that float32 sums no more than HESS_BLOCK terms), the blocks' sums added in
 * double, each part's share of the taken rows in its own h. */
typedef struct hess {
    const gt_probe_rows *x;
    size_t *row, m;    /* the rows taken, [m] */
    double *s;         /* [m]: the square root of each one's q as counted */
    double *h[PARTS];  /* [D * D] */
    float *hf[PARTS];  /* [D * D] */
    float *b[PARTS];   /* [HESS_BLOCK * D] */
    size_t taken;      /* the rows of every Hessian so far */
} hess;

/* h (D x D, row-major, its upper triangle) += the sum over the rows of b (rows x D) of
 * b_t' b_t: one ssyrk into hf (row-major upper is column-major lower), added in double. */
static void hessian_add(double *h, float *hf, int D, const float *b, int rows)
{
    const float one = 1, zero = 0;
    ssyrk_("L", "N", &D, &rows, &one, b, &D, &zero, hf, &D, 1, 1);
    for (int i = 0; i < D; i++)
        for (int j = i; j < D; j++)
            h[(size_t)i * D + j] += hf[(size_t)i * D + j];
}

PASS static void hessian_rows(hess *q, int part)
{
    const gt_probe_rows *x = q->x;
    const int d = x->d, D = d + 1;
    const size_t lo = q->m * (size_t)part / PARTS, hi = q->m * (size_t)(part + 1) / PARTS;
    double *h = q->h[part];
    float *b = q->b[part];
    memset(h, 0, (size_t)D * (size_t)D * sizeof *h);
    int rows = 0;
    for (size_t i = lo; i < hi; i++) {
        const float *row = x->v + q->row[i] * (size_t)d;
        if (i + 2 < hi) /* rows apart: fetched ahead, the processor would not */
            for (int j = 0; j < d; j += 16)
                __builtin_prefetch(x->v + q->row[i + 2] * (size_t)d + j);
        const double s = q->s[i];
        float *bt = b + (size_t)rows * D; /* sqrt(q_t) (x_t, 1) */
        const v4d sv = {s, s, s, s};
        int j = 0;
        for (; j + 4 <= d; j += 4) {
            const v4d sx = sv * X4(x, row, j);
            const f4 b4 = {(float)sx[0], (float)sx[1], (float)sx[2], (float)sx[3]};
            memcpy(bt + j, &b4, sizeof b4);
        }
        for (; j < d; j++)
            bt[j] = (float)(s * x1(x, row, j));
        bt[d] = (float)s;
        if (++rows == HESS_BLOCK || i + 1 == hi) {
            hessian_add(h, q->hf[part], D, b, rows);
            rows = 0;
        }
    }
}

static void hessian_job(void *ctx, int k, int n)
{
    for (int part = k; part < PARTS; part += n)
        hessian_rows(ctx, part);
}

/* How many rows a threshold tau takes on average: sum_t min(1, q_t / tau). */
static double expected_rows(const double *qs, size_t n, double tau)
{
    const double inv = 1 / tau;
    double e = 0;
    for (size_t t = 0; t < n; t++)
        e += qs[t] >= tau ? 1 : qs[t] * inv;
    return e;
}

/* The rows taken (see hess), into q->row, q->s, q->m; qs: scratch (n). */
static void hessian_sample(hess *q, const double *z, size_t budget, double *qs)
{
    const size_t n = q->x->n;
    double sum = 0, tau = 0;
    for (size_t t = 0; t < n; t++) {
        const double p = 1 / (1 + exp(-z[t]));
        qs[t] = p * (1 - p), sum += qs[t];
    }
    if (budget < n && sum > 0) { /* tau below sum / budget (which takes at most budget) */
        double lo = sum / (double)budget * 1e-9, hi = sum / (double)budget;
        for (int k = 0; k < 12; k++) { /* to within 0.7% */
            const double mid = sqrt(lo * hi);
            *(expected_rows(qs, n, mid) > (double)budget ? &lo : &hi) = mid;
        }
        tau = hi;
    }
    double c = 0.5;
    q->m = 0;
    for (size_t t = 0; t < n; t++) {
        if (qs[t] >= tau) {
            q->row[q->m] = t, q->s[q->m++] = sqrt(qs[t]);
        } else if ((c += qs[t] / tau) >= 1) {
            c -= 1;
            q->row[q->m] = t, q->s[q->m++] = sqrt(tau);
        }
    }
}

/* The Hessian into h: the parts' sums added, divided by n, lambda added on the weights'
 * diagonal. */
static void hessian(hess *q, gt_pool *pool, double lambda, const double *z, size_t budget,
                    double *qs, double *h)
{
    const int d = q->x->d, D = d + 1;
    hessian_sample(q, z, budget, qs);
    q->taken += q->m;
    pool_run(pool, hessian_job, q);
    for (int i = 0; i < D; i++) {
        for (int j = i; j < D; j++) {
            const size_t at = (size_t)i * D + j;
            double sum = 0;
            for (int k = 0; k < PARTS; k++)
                sum += q->h[k][at];
            h[at] = sum / (double)q->x->n;
        }
        if (i < d)
            h[(size_t)i * D + i] += lambda;
    }
}

#define FIT_NEAR 3e-4 /* |g| below which the Hessian is near the minimum's */
/* Past FIT_TOL, up to FIT_EXTRA more steps towards |g| < FIT_GOAL: the weights' error is
 * up to |g| / lambda along the least curved direction, and exact Newton steps would have
 * ended far below FIT_TOL */
#define FIT_GOAL 1e-11
#define FIT_EXTRA 3

/* A fit's state: its passes, its Hessian, its threads, its arrays. */
typedef struct fit {
    pass ps;
    hess hs;
    gt_pool *pool;
    double *zs;                                /* [3n]: z, z2 and qs */
    double *qs;                                /* [n]: scratch for the Hessian */
    double *z, *z2;                            /* [n]: the scores at w, at trial */
    double *g, *step, *trial, *good, *g2, *neg; /* [d + 1] */
    double *h;                                 /* [(d + 1)^2]: the Hessian, its factor */
    float *hf;                                 /* the parts' float32 arrays */
    int blas;                                  /* the BLAS's threads before the fit */
} fit;

static void fit_close(fit *f)
{
    pool_stop(f->pool);
    if (f->blas)
        blas_threads(f->blas);
    free(f->zs), free(f->g), free(f->h), free(f->hf), free(f->hs.row), free(f->hs.s);
}

/* The arrays (each part's gradient sums in cache lines of their own) and the threads. */
static int fit_open(fit *f, const gt_probe_rows *x, const unsigned char *y, int threads)
{
    const size_t n = x->n, D = (size_t)x->d + 1, DD = D * D, Dp = (D + 7) / 8 * 8;
    const size_t shared = (D * 7 + 7) / 8 * 8; /* g .. neg, ks: up to a cache line */
    *f = (fit){.ps = {.x = x, .y = y}, .hs = {.x = x}};
    f->z = f->zs = malloc(3 * n * sizeof *f->zs);
    f->hs.row = malloc((n ? n : 1) * sizeof *f->hs.row);
    f->hs.s = malloc((n ? n : 1) * sizeof *f->hs.s);
    f->g = aligned_alloc(64, (shared + Dp * PARTS) * sizeof *f->g);
    f->h = malloc(DD * (1 + PARTS) * sizeof *f->h);
    f->hf = malloc((DD + HESS_BLOCK * D) * PARTS * sizeof *f->hf);
    if (!f->zs || !f->g || !f->h || !f->hf || !f->hs.row || !f->hs.s) {
        fit_close(f);
        return -1;
    }
    /* a smaller fit's passes take less than waking a second thread (and waiting for it) */
    f->pool = threads > 1 && n * D >= PROBE_FIT_THREADED ? pool_start(PARTS) : NULL;
    f->blas = blas_threads(1); /* the parts' products each on its own thread */
    f->z2 = f->z + n, f->qs = f->z + 2 * n;
    double **v[] = {&f->step, &f->trial, &f->good, &f->g2, &f->neg, &f->ps.ks};
    for (size_t i = 0; i < sizeof v / sizeof *v; i++)
        *v[i] = f->g + (i + 1) * D;
    for (int k = 0; k < PARTS; k++) {
        f->ps.g[k] = f->g + shared + Dp * (size_t)k;
        f->hs.h[k] = f->h + DD * (size_t)(1 + k);
        f->hs.hf[k] = f->hf + (DD + HESS_BLOCK * D) * (size_t)k;
        f->hs.b[k] = f->hs.hf[k] + DD;
    }
    return 0;
}

/* From w, whose objective is f and gradient norm gn, along -step: the whole step, then
 * 1/2, 1/4, ... of it (at most 39 halvings) until the objective falls by 1e-4 of the slope
 * times the step, or, near the minimum, where that fall is below the rounding of the
 * objective's sum over the rows (n eps |f| at most), stays within that rounding while the
 * gradient falls. trial, z2, g2 get the point taken; *f2 its objective, *g2n its gradient
 * norm. Returns how many halvings it took. */
static int line_search(fit *F, double lambda, const double *w, double f, double gn,
                       double *f2, double *g2n)
{
    const gt_probe_rows *x = F->ps.x;
    const double noise = (double)x->n * DBL_EPSILON * fabs(f);
    double slope = 0;
    for (int i = 0; i <= x->d; i++)
        slope += F->g[i] * F->step[i];
    int halvings = 0;
    for (double a = 1; halvings < 40; halvings++, a *= 0.5) {
        for (int i = 0; i <= x->d; i++)
            F->trial[i] = w[i] - a * F->step[i];
        if (a == 1) { /* from the scores at w */
            F->ps.s = F->step, F->ps.z = F->z, F->ps.z2 = F->z2;
            *f2 = run_pass(&F->ps, F->pool, lambda, F->trial, F->g2, g2n);
        } else {
            *f2 = run_at(&F->ps, F->pool, lambda, F->trial, F->neg, F->z2, F->g2, g2n);
        }
        if (*f2 <= f - 1e-4 * a * slope || (*f2 <= f + noise && *g2n < gn) || halvings == 39)
            break;
    }
    return halvings;
}

/* Newton's method with the exact gradient and a Hessian that need not be exact, since the
 * gradient decides when to stop: from a sample of the rows drawn by their weight in it
 * (hess), of HESS_FAR rows while |g| >= FIT_NEAR, then of HESS_NEAR, its products in
 * float32, and kept (its Cholesky factor) near the minimum while each step takes |g| below
 * 0.3 of what it was. A step the line search must shorten ten times over takes a new
 * Hessian from every row, and so do the steps after it. Each step's scores, objective and
 * gradient come from one pass over the rows. */
static int fit_logistic(const gt_probe_rows *x, const unsigned char *y, double lambda,
                        int threads, const double *start, double *w, gt_probe_work *work,
                        gt_error *e);

int probe_logistic(const gt_probe_rows *x, const unsigned char *y, double lambda, int threads,
                   double *w, gt_error *e)
{
    return fit_logistic(x, y, lambda, threads, NULL, w, NULL, e);
}

int probe_logistic_counted(const gt_probe_rows *x, const unsigned char *y, double lambda,
                           int threads, double *w, gt_probe_work *work, gt_error *e)
{
    return fit_logistic(x, y, lambda, threads, NULL, w, work, e);
}

int probe_logistic_from(const gt_probe_rows *x, const unsigned char *y, double lambda,
                        int threads, const double *start, double *w, gt_probe_work *work,
                        gt_error *e)
{
    return fit_logistic(x, y, lambda, threads, start, w, work, e);
}

/* From start (NULL: w zero, the bias the log-odds of y) */
static int fit_logistic(const gt_probe_rows *x, const unsigned char *y, double lambda,
                        int threads, const double *start, double *w, gt_probe_work *work,
                        gt_error *e)
{
    const size_t n = x->n;
    const int d = x->d, D = d + 1;
    const size_t far = HESS_FAR > 32 * (size_t)D ? HESS_FAR : 32 * (size_t)D,
                 near = HESS_NEAR > 64 * (size_t)D ? HESS_NEAR : 64 * (size_t)D;
    fit F;
    if (work)
        *work = (gt_probe_work){0, 0};
    if (fit_open(&F, x, y, threads))
        return gt_fail(e, GT_EFAIL, "out of memory for the probe");
    size_t pos = 0;
    for (size_t t = 0; t < n; t++)
        pos += y[t];
    if (start) {
        memcpy(w, start, (size_t)D * sizeof *w);
    } else {
        memset(w, 0, (size_t)D * sizeof *w);
        w[d] = pos && pos < n ? log((double)pos / (double)(n - pos)) : 0;
    }
    double gn, last = INFINITY, f = run_at(&F.ps, F.pool, lambda, w, F.neg, F.z, F.g, &gn);
    int rc = GT_EFAIL, extra = 0;
    /* kept: h holds the factor of a Hessian near the minimum, to be used again; close: the
     * Hessian is taken near the minimum's from now on; every: over every row */
    int kept = 0, close = 0, every = 0;
    for (int it = 0; it < FIT_MAX_ITER; it++) {
        if (gn < FIT_TOL) { /* the last weights so close, kept in case a step goes astray */
            rc = GT_OK;
            memcpy(F.good, w, (size_t)D * sizeof *w);
        }
        if (gn < FIT_GOAL || (rc == GT_OK && extra++ == FIT_EXTRA))
            break;
        if (!kept || gn > 0.3 * last) {
            close |= gn < FIT_NEAR;
            hessian(&F.hs, F.pool, lambda, F.z, every ? n : close ? near : far, F.qs, F.h);
            if (LAPACKE_dpotrf(LAPACK_ROW_MAJOR, 'U', D, F.h, D) != 0)
                break;
            kept = close;
        }
        last = gn;
        memcpy(F.step, F.g, (size_t)D * sizeof *F.g);
        if (LAPACKE_dpotrs(LAPACK_ROW_MAJOR, 'U', D, 1, F.h, D, F.step, 1) != 0)
            break;
        if (line_search(&F, lambda, w, f, gn, &f, &gn) >= 10)
            kept = 0, close = every = 1; /* a new Hessian, from every row */
        memcpy(F.g, F.g2, (size_t)D * sizeof *F.g);
        memcpy(w, F.trial, (size_t)D * sizeof *w);
        double *swap = F.z; /* the scores at the new w */
        F.z = F.z2, F.z2 = swap;
    }
    if (rc == GT_OK) { /* the scores were carried from step to step: once more afresh */
        run_at(&F.ps, F.pool, lambda, F.good, F.neg, F.z, F.g, &gn);
        if (gn >= FIT_TOL)
            rc = GT_EFAIL;
    }
    if (rc == GT_OK)
        memcpy(w, F.good, (size_t)D * sizeof *w);
    if (work)
        *work = (gt_probe_work){F.ps.count, F.hs.taken};
    fit_close(&F);
    return rc ? gt_fail(e, GT_EFAIL, "the probe's fit did not converge") : GT_OK;
}

static int by_score(const void *a, const void *b, void *ctx)
{
    const double *s = ctx;
    double x = s[*(const size_t *)a], y = s[*(const size_t *)b];
    return (x > y) - (x < y);
}

double probe_auc(const double *s, const unsigned char *y, size_t n)
{
    size_t *idx = malloc(n * sizeof *idx), P = 0;
    if (!idx)
        return NAN;
    for (size_t t = 0; t < n; t++)
        idx[t] = t, P += y[t];
    if (P == 0 || P == n) {
        free(idx);
        return NAN;
    }
    qsort_r(idx, n, sizeof *idx, by_score, (void *)s);
    double num = 0, below = 0; /* negatives of lower score */
    for (size_t i = 0; i < n;) {
        size_t j = i, p = 0;
        while (j < n && s[idx[j]] == s[idx[i]])
            p += y[idx[j++]];
        double q = (double)(j - i - p);
        num += (double)p * (below + 0.5 * q);
        below += q;
        i = j;
    }
    free(idx);
    return num / ((double)P * (double)(n - P));
}
