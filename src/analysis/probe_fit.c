/* The probe's parts (see probe.h): the signal as a matrix, the logistic fit, the AUC. */
#define _GNU_SOURCE /* qsort_r */
#include "config.h"

#include <lapacke.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compute/simd.h"
#include "gatetui/probe.h"

typedef struct collect {
    gt_signal_matrix *x;
    int layer, signal;
} collect;

static int collect_step(void *ctx, size_t t, const gt_run *r)
{
    collect *c = ctx;
    const float *v = signals_of(r, c->layer, c->signal);
    double *row = c->x->x + t * (size_t)c->x->H;
    for (int j = 0; j < c->x->H; j++)
        row[j] = v[j];
    return 0;
}

int probe_matrix(gt_signal_matrix *out, const gt_model *m, const uint16_t *tok, size_t n,
                 int signal, const gt_pass_options *o, gt_error *e)
{
    out->n = n;
    out->H = m->hidden;
    out->x = malloc(n * (size_t)m->hidden * sizeof *out->x);
    if (!out->x)
        return gt_fail(e, GT_EFAIL, "out of memory for %zu steps of %d units", n, m->hidden);
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

/* log(1 + exp(z)), without overflow. */
static double softplus(double z)
{
    return z > 0 ? z + log1p(exp(-z)) : log1p(exp(z));
}

/* The BLAS's (Fortran interface): the symmetric rank-k update c = alpha a a' + beta c
 * (float32, column-major) and y = alpha op(a) x + beta y (double). */
void ssyrk_(const char *uplo, const char *trans, const int *n, const int *k, const float *alpha,
            const float *a, const int *lda, const float *beta, float *c, const int *ldc,
            size_t uplo_len, size_t trans_len);
void dgemv_(const char *trans, const int *m, const int *n, const double *alpha, const double *a,
            const int *lda, const double *x, const int *incx, const double *beta, double *y,
            const int *incy, size_t trans_len);

#define HESS_BLOCK 256    /* rows scaled and added to the Hessian at a time */
#define HESS_ROWS 16384   /* the Hessian's rows, at least (and 64 per weight) */

/* z = x w + b over the n rows, by the BLAS (x row-major n x d is column-major d x n; with
 * no column, the bias alone: the BLAS refuses a leading dimension of 0). */
static void scores(const double *x, size_t n, int d, const double *w, double *z)
{
    const int one = 1, ni = (int)n;
    const double a = 1, zero = 0;
    if (d > 0)
        dgemv_("T", &d, &ni, &a, x, &d, w, &one, &zero, z, &one, 1);
    for (size_t t = 0; t < n; t++)
        z[t] = (d > 0 ? z[t] : 0) + w[d];
}

/* The objective at w (d weights, then the bias); z gets x w + b. */
static double objective(const double *x, const unsigned char *y, size_t n, int d,
                        double lambda, const double *w, double *z)
{
    double loss = 0, reg = 0;
    scores(x, n, d, w, z);
    for (size_t t = 0; t < n; t++)
        loss += softplus(z[t]) - (y[t] ? z[t] : 0);
    for (int j = 0; j < d; j++)
        reg += w[j] * w[j];
    return loss / (double)n + 0.5 * lambda * reg;
}

/* h (D x D, row-major, its upper triangle) += the sum over the rows of b (rows x D, float32)
 * of b_t' b_t: one ssyrk into hf (row-major upper is column-major lower), then added in
 * double, so that float32 sums no more than HESS_BLOCK terms. */
static void hessian_add(double *h, float *hf, int D, const float *b, int rows)
{
    const float one = 1, zero = 0;
    ssyrk_("L", "N", &D, &rows, &one, b, &D, &zero, hf, &D, 1, 1);
    for (int i = 0; i < D; i++)
        for (int j = i; j < D; j++)
            h[(size_t)i * D + j] += hf[(size_t)i * D + j];
}

/* The gradient g (d + 1) at the point whose x w + b is z, exact (double, every row);
 * r gets p - y (n). Returns |g|. */
static double gradient(const double *x, const unsigned char *y, size_t n, int d, double lambda,
                       const double *w, const double *z, double *g, double *r)
{
    const int one = 1, ni = (int)n;
    const double inv_n = 1 / (double)n, zero = 0;
    double gb = 0;
    for (size_t t = 0; t < n; t++) {
        r[t] = 1 / (1 + exp(-z[t])) - y[t];
        gb += r[t];
    }
    if (d > 0)
        dgemv_("N", &d, &ni, &inv_n, x, &d, r, &one, &zero, g, &one, 1); /* x' r / n */
    g[d] = gb * inv_n;
    double norm = 0;
    for (int i = 0; i < d + 1; i++) {
        if (i < d)
            g[i] += lambda * w[i];
        norm += g[i] * g[i];
    }
    return sqrt(norm);
}

/* The Hessian h ((d + 1)^2, its upper triangle, row-major) at the point whose x w + b is
 * z, over every stride-th row, the products in float32 and their sums of HESS_BLOCK rows
 * added in double. b is scratch (HESS_BLOCK x (d + 1) floats). */
static void hessian(const double *x, size_t n, int d, double lambda, const double *z,
                    size_t stride, double *h, float *hf, float *b)
{
    const int D = d + 1;
    memset(h, 0, (size_t)D * (size_t)D * sizeof *h);
    int rows = 0;
    size_t taken = 0;
    for (size_t t = 0; t < n; t += stride) {
        const double *row = x + t * (size_t)d;
        const double p = 1 / (1 + exp(-z[t])), s = sqrt(p * (1 - p));
        float *bt = b + (size_t)rows * D; /* sqrt(q_t) (x_t, 1) */
        for (int i = 0; i < d; i++)
            bt[i] = (float)(s * row[i]);
        bt[d] = (float)s;
        taken++;
        if (++rows == HESS_BLOCK || t + stride >= n) {
            hessian_add(h, hf, D, b, rows);
            rows = 0;
        }
    }
    for (int i = 0; i < D; i++) {
        for (int j = i; j < D; j++)
            h[(size_t)i * D + j] /= (double)taken;
        if (i < d)
            h[(size_t)i * D + i] += lambda;
    }
}

/* One pass over the rows for the step from w to trial = w - s, given z, the scores at w:
 * z2 = z - (x s + s_b), the objective at trial (returned) and its gradient g (its norm into
 * *gn), each row read once for both its product with s and its share of g. */
static double step_pass(const double *restrict x, const unsigned char *y, size_t n, int d,
                        double lambda, const double *trial, const double *restrict s,
                        const double *z, double *z2, double *restrict g, double *gn)
{
    const int d4 = d / 4 * 4;
    memset(g, 0, (size_t)(d + 1) * sizeof *g);
    double loss = 0, gb = 0;
    for (size_t t = 0; t < n; t++) {
        const double *restrict row = x + t * (size_t)d;
        v2d a0 = v2d_splat(0), a1 = a0;
        for (int j = 0; j < d4; j += 4) {
            a0 += v2d_load(row + j) * v2d_load(s + j);
            a1 += v2d_load(row + j + 2) * v2d_load(s + j + 2);
        }
        const v2d a = a0 + a1;
        double u = s[d] + (a[0] + a[1]);
        for (int j = d4; j < d; j++)
            u += row[j] * s[j];
        const double zt = z[t] - u, r = 1 / (1 + exp(-zt)) - y[t];
        z2[t] = zt;
        loss += softplus(zt) - (y[t] ? zt : 0);
        gb += r;
        const v2d rv = v2d_splat(r);
        for (int j = 0; j < d4; j += 4) {
            v2d_store(g + j, v2d_load(g + j) + rv * v2d_load(row + j));
            v2d_store(g + j + 2, v2d_load(g + j + 2) + rv * v2d_load(row + j + 2));
        }
        for (int j = d4; j < d; j++)
            g[j] += r * row[j];
    }
    double reg = 0, norm = 0;
    g[d] = gb;
    for (int i = 0; i <= d; i++) {
        g[i] /= (double)n;
        if (i < d)
            g[i] += lambda * trial[i], reg += trial[i] * trial[i];
        norm += g[i] * g[i];
    }
    *gn = sqrt(norm);
    return loss / (double)n + 0.5 * lambda * reg;
}

/* Steps of 1/2, 1/4, ... of s from w until the objective falls by 1e-4 of the slope g's
 * times the step (at most 39 halvings): trial, its scores z2 and objective *f2. Returns
 * how many halvings it took. */
static int backtrack(const double *x, const unsigned char *y, size_t n, int d, double lambda,
                     const double *w, const double *s, double f, double slope, double *trial,
                     double *z2, double *f2)
{
    int k = 1;
    for (double a = 0.5; k < 40; k++, a *= 0.5) {
        for (int i = 0; i <= d; i++)
            trial[i] = w[i] - a * s[i];
        *f2 = objective(x, y, n, d, lambda, trial, z2);
        if (*f2 <= f - 1e-4 * a * slope || k == 39)
            break;
    }
    return k;
}

#define FIT_NEAR 3e-4 /* |g| below which the Hessian is taken over every row */
/* Past FIT_TOL, up to FIT_EXTRA more steps towards |g| < FIT_GOAL: the weights' error is
 * up to |g| / lambda along the least curved direction, and exact Newton steps would have
 * ended far below FIT_TOL */
#define FIT_GOAL 1e-11
#define FIT_EXTRA 3

/* Newton's method with the exact gradient and a Hessian that need not be exact, since the
 * gradient decides when to stop: far from the minimum (|g| >= FIT_NEAR) from every
 * stride-th row, near it from every row, its products in float32, and kept (its Cholesky
 * factor) while each step takes |g| below 0.3 of what it was. A step the line search must
 * shorten ten times over takes a new Hessian from every row. */
int probe_logistic(const double *x, const unsigned char *y, size_t n, int d, double lambda,
                   double *w, gt_error *e)
{
    const int D = d + 1;
    const size_t want = HESS_ROWS > 64 * (size_t)D ? HESS_ROWS : 64 * (size_t)D;
    const size_t sparse = n > want ? n / want : 1;
    double *z = malloc(3 * n * sizeof *z), *g = malloc((size_t)D * 5 * sizeof *g),
           *h = malloc((size_t)D * (size_t)D * sizeof *h);
    float *hf = malloc((size_t)D * (size_t)D * sizeof *hf),
          *b = malloc((size_t)HESS_BLOCK * (size_t)D * sizeof *b);
    if (!z || !g || !h || !hf || !b || n > (size_t)INT_MAX) {
        free(z), free(g), free(h), free(hf), free(b);
        return n > (size_t)INT_MAX
                   ? gt_fail(e, GT_EINPUT, "the probe: %zu steps, more than the BLAS takes", n)
                   : gt_fail(e, GT_EFAIL, "out of memory for the probe");
    }
    double *step = g + D, *trial = g + 2 * D, *good = g + 3 * D, *g2 = g + 4 * D;
    double *z2 = z + n, *r = z + 2 * n;
    size_t pos = 0;
    for (size_t t = 0; t < n; t++)
        pos += y[t];
    memset(w, 0, (size_t)D * sizeof *w);
    w[d] = pos && pos < n ? log((double)pos / (double)(n - pos)) : 0;
    double f = objective(x, y, n, d, lambda, w, z), last = INFINITY;
    double gn = gradient(x, y, n, d, lambda, w, z, g, r);
    int rc = GT_EFAIL, extra = 0;
    /* kept: h holds the factor of a Hessian from every row, to be used again; whole: the
     * Hessian is taken over every row from now on */
    int kept = 0, whole = 0;
    for (int it = 0; it < FIT_MAX_ITER; it++) {
        if (gn < FIT_TOL) { /* the last weights so close, kept in case a step goes astray */
            rc = GT_OK;
            memcpy(good, w, (size_t)D * sizeof *w);
        }
        if (gn < FIT_GOAL || (rc == GT_OK && extra++ == FIT_EXTRA))
            break;
        if (!kept || gn > 0.3 * last) {
            whole |= gn < FIT_NEAR;
            hessian(x, n, d, lambda, z, whole ? 1 : sparse, h, hf, b);
            if (LAPACKE_dpotrf(LAPACK_ROW_MAJOR, 'U', D, h, D) != 0)
                break;
            kept = whole;
        }
        last = gn;
        memcpy(step, g, (size_t)D * sizeof *g);
        if (LAPACKE_dpotrs(LAPACK_ROW_MAJOR, 'U', D, 1, h, D, step, 1) != 0)
            break;
        double slope = 0, f2;
        for (int i = 0; i < D; i++)
            slope += g[i] * step[i], trial[i] = w[i] - step[i];
        /* the whole step first, the scores and the gradient in the same pass */
        f2 = step_pass(x, y, n, d, lambda, trial, step, z, z2, g2, &gn);
        if (f2 <= f - 1e-4 * slope) {
            memcpy(g, g2, (size_t)D * sizeof *g);
        } else { /* shorter steps, and then the gradient */
            if (backtrack(x, y, n, d, lambda, w, step, f, slope, trial, z2, &f2) >= 10)
                kept = 0, whole = 1; /* a new Hessian, from every row */
            gn = gradient(x, y, n, d, lambda, trial, z2, g, r);
        }
        memcpy(w, trial, (size_t)D * sizeof *w);
        memcpy(z, z2, n * sizeof *z);
        f = f2;
    }
    if (rc == GT_OK) { /* the scores were carried from step to step: once more afresh */
        objective(x, y, n, d, lambda, good, z);
        if (gradient(x, y, n, d, lambda, good, z, g, r) >= FIT_TOL)
            rc = GT_EFAIL;
    }
    if (rc == GT_OK)
        memcpy(w, good, (size_t)D * sizeof *w);
    free(z), free(g), free(h), free(hf), free(b);
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
