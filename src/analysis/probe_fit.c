/* The probe's parts (see probe.h): the signal as a matrix, the logistic fit, the AUC. */
#define _GNU_SOURCE /* qsort_r */
#include "config.h"

#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

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

/* The objective at w (d weights, then the bias); z gets x w + b. */
static double objective(const double *x, const unsigned char *y, size_t n, int d,
                        double lambda, const double *w, double *z)
{
    double loss = 0, reg = 0;
    for (size_t t = 0; t < n; t++) {
        const double *row = x + t * (size_t)d;
        double s = w[d];
        for (int j = 0; j < d; j++)
            s += row[j] * w[j];
        z[t] = s;
        loss += softplus(s) - (y[t] ? s : 0);
    }
    for (int j = 0; j < d; j++)
        reg += w[j] * w[j];
    return loss / (double)n + 0.5 * lambda * reg;
}

/* The BLAS's symmetric rank-k update (Fortran interface): c += alpha a a' (column-major). */
void dsyrk_(const char *uplo, const char *trans, const int *n, const int *k, const double *alpha,
            const double *a, const int *lda, const double *beta, double *c, const int *ldc,
            size_t uplo_len, size_t trans_len);

#define HESS_BLOCK 256 /* rows scaled and added to the Hessian at a time */

/* h (D x D, row-major, its upper triangle) += the sum over the rows of b (rows x D) of
 * b_t' b_t: one dsyrk (row-major upper is column-major lower). */
static void hessian_add(double *h, int D, const double *b, int rows)
{
    const double one = 1;
    dsyrk_("L", "N", &D, &rows, &one, b, &D, &one, h, &D, 1, 1);
}

/* The gradient g (d + 1) and the Hessian h ((d + 1)^2, its upper triangle, row-major) at
 * the point whose x w + b is z; returns |g|. */
static double derivatives(const double *x, const unsigned char *y, size_t n, int d,
                          double lambda, const double *w, const double *z, double *g,
                          double *h, double *b)
{
    const int D = d + 1;
    memset(g, 0, (size_t)D * sizeof *g);
    memset(h, 0, (size_t)D * (size_t)D * sizeof *h);
    int rows = 0;
    for (size_t t = 0; t < n; t++) {
        const double *row = x + t * (size_t)d;
        double p = 1 / (1 + exp(-z[t])), r = p - y[t], s = sqrt(p * (1 - p));
        double *bt = b + (size_t)rows * D; /* sqrt(q_t) (x_t, 1) */
        for (int i = 0; i < d; i++) {
            g[i] += r * row[i];
            bt[i] = s * row[i];
        }
        g[d] += r;
        bt[d] = s;
        if (++rows == HESS_BLOCK || t + 1 == n) {
            hessian_add(h, D, b, rows);
            rows = 0;
        }
    }
    double norm = 0;
    for (int i = 0; i < D; i++) {
        g[i] = g[i] / (double)n + (i < d ? lambda * w[i] : 0);
        for (int j = i; j < D; j++)
            h[(size_t)i * D + j] /= (double)n;
        if (i < d)
            h[(size_t)i * D + i] += lambda;
        norm += g[i] * g[i];
    }
    return sqrt(norm);
}

int probe_logistic(const double *x, const unsigned char *y, size_t n, int d, double lambda,
                   double *w, gt_error *e)
{
    const int D = d + 1;
    double *z = malloc(2 * n * sizeof *z), *g = malloc((size_t)D * 3 * sizeof *g),
           *h = malloc((size_t)D * (size_t)D * sizeof *h),
           *b = malloc((size_t)HESS_BLOCK * (size_t)D * sizeof *b);
    if (!z || !g || !h || !b) {
        free(z), free(g), free(h), free(b);
        return gt_fail(e, GT_EFAIL, "out of memory for the probe");
    }
    double *step = g + D, *trial = g + 2 * D, *z2 = z + n;
    size_t pos = 0;
    for (size_t t = 0; t < n; t++)
        pos += y[t];
    memset(w, 0, (size_t)D * sizeof *w);
    w[d] = pos && pos < n ? log((double)pos / (double)(n - pos)) : 0;
    double f = objective(x, y, n, d, lambda, w, z);
    int rc = GT_EFAIL;
    for (int it = 0; it < FIT_MAX_ITER; it++) {
        if (derivatives(x, y, n, d, lambda, w, z, g, h, b) < FIT_TOL) {
            rc = GT_OK;
            break;
        }
        memcpy(step, g, (size_t)D * sizeof *g);
        if (LAPACKE_dposv(LAPACK_ROW_MAJOR, 'U', D, 1, h, D, step, 1) != 0)
            break;
        double slope = 0, a = 1, f2 = f;
        for (int i = 0; i < D; i++)
            slope += g[i] * step[i];
        for (int k = 0; k < 40; k++, a *= 0.5) {
            for (int i = 0; i < D; i++)
                trial[i] = w[i] - a * step[i];
            f2 = objective(x, y, n, d, lambda, trial, z2);
            if (f2 <= f - 1e-4 * a * slope || k == 39)
                break;
        }
        memcpy(w, trial, (size_t)D * sizeof *w);
        memcpy(z, z2, n * sizeof *z);
        f = f2;
    }
    free(z), free(g), free(h), free(b);
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
