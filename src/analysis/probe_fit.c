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

/* h's rows i..d-1 += q_k x_k[i] x_k[j] for four rows x_k at once (h: D wide). */
static void hessian_rows4(double *restrict h, int d, int D, const double *const x[4],
                          const double q[4])
{
    const double *restrict x0 = x[0], *restrict x1 = x[1], *restrict x2 = x[2],
                           *restrict x3 = x[3];
    for (int i = 0; i < d; i++) {
        double a0 = q[0] * x0[i], a1 = q[1] * x1[i], a2 = q[2] * x2[i], a3 = q[3] * x3[i];
        double *restrict hi = h + (size_t)i * D;
        for (int j = i; j < d; j++)
            hi[j] += a0 * x0[j] + a1 * x1[j] + a2 * x2[j] + a3 * x3[j];
        hi[d] += a0 + a1 + a2 + a3;
    }
    h[(size_t)d * D + d] += q[0] + q[1] + q[2] + q[3];
}

/* The gradient g (d + 1) and the Hessian h ((d + 1)^2, its upper triangle, row-major) at
 * the point whose x w + b is z; returns |g|. */
static double derivatives(const double *x, const unsigned char *y, size_t n, int d,
                          double lambda, const double *w, const double *z, double *g,
                          double *h)
{
    const int D = d + 1;
    memset(g, 0, (size_t)D * sizeof *g);
    memset(h, 0, (size_t)D * (size_t)D * sizeof *h);
    for (size_t t = 0; t < n; t += 4) {
        const double *rows[4];
        double q[4];
        for (int k = 0; k < 4; k++) {
            if (t + (size_t)k >= n) {
                rows[k] = rows[0], q[k] = 0;
                continue;
            }
            const double *row = x + (t + (size_t)k) * (size_t)d;
            double p = 1 / (1 + exp(-z[t + (size_t)k])), r = p - y[t + (size_t)k];
            rows[k] = row, q[k] = p * (1 - p);
            for (int i = 0; i < d; i++)
                g[i] += r * row[i];
            g[d] += r;
        }
        hessian_rows4(h, d, D, rows, q);
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
           *h = malloc((size_t)D * (size_t)D * sizeof *h);
    if (!z || !g || !h) {
        free(z), free(g), free(h);
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
        if (derivatives(x, y, n, d, lambda, w, z, g, h) < FIT_TOL) {
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
    free(z), free(g), free(h);
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
