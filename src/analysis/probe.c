/* The probe (see probe.h): the folds, the best single unit, the weights, units_for_95. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gatetui/bigmem.h"
#include "gatetui/probe.h"
#include "gatetui/stats.h"

/* The rows [0, n) without [lo, hi): the training rows of a fold (lo = hi: every row). */
typedef struct rows {
    size_t n, lo, hi;
} rows;

static size_t row_count(const rows *r)
{
    return r->n - (r->hi - r->lo);
}

static size_t row_at(const rows *r, size_t i)
{
    return i < r->lo ? i : i + (r->hi - r->lo);
}

/* A fit on the columns cols[0..d) of x over the rows r, each column standardised by its
 * mean and deviation over those rows (a constant one dropped): (x - mean) * scale, the
 * scale the deviation's reciprocal. */
typedef struct fit {
    int d, *col;          /* the columns kept */
    double *mean, *scale, *w; /* [d], [d], [d + 1] */
} fit;

static void fit_free(fit *f)
{
    free(f->col), free(f->mean), free(f->scale), free(f->w);
}

/* from (unless NULL): a fit over the same rows on some of the same columns, its weights the
 * start of this one's (a column it did not have starts at 0). */
static int fit_rows(fit *f, const gt_signal_matrix *x, const unsigned char *y, const rows *r,
                    const int *cols, int d, double lambda, int threads, const fit *from,
                    gt_error *e)
{
    size_t n = row_count(r), H = (size_t)x->H;
    f->col = malloc((size_t)d * sizeof *f->col);
    f->mean = malloc((size_t)d * sizeof *f->mean);
    f->scale = malloc((size_t)d * sizeof *f->scale);
    f->w = malloc(((size_t)d + 1) * sizeof *f->w);
    float *v = big_zalloc(n * (size_t)d * sizeof *v); /* huge pages: gatetui/bigmem.h */
    unsigned char *yy = malloc(n);
    double *start = NULL;
    int rc = GT_EFAIL;
    if (!f->col || !f->mean || !f->scale || !f->w || !v || !yy)
        goto out;
    /* each column's sums over the rows in their order, row by row (a row's values lie
       together; a column's are H apart) */
    double *sum = calloc(2 * (size_t)d, sizeof *sum), *sq = sum + d;
    unsigned char *same = malloc((size_t)d);
    if (!sum || !same) {
        free(sum), free(same);
        goto out;
    }
    memset(same, 1, (size_t)d);
    const float *first = x->x + row_at(r, 0) * H;
    for (size_t i = 0; i < n; i++) {
        const float *row = x->x + row_at(r, i) * H;
        for (int c = 0; c < d; c++) {
            same[c] &= row[cols[c]] == first[cols[c]];
            sum[c] += row[cols[c]];
        }
    }
    for (int c = 0; c < d; c++)
        sum[c] /= (double)n; /* the means */
    for (size_t i = 0; i < n; i++) {
        const float *row = x->x + row_at(r, i) * H;
        for (int c = 0; c < d; c++) {
            const double dv = row[cols[c]] - sum[c];
            sq[c] += dv * dv;
        }
    }
    f->d = 0;
    for (int c = 0; c < d; c++) {
        if (same[c] || sq[c] <= 0)
            continue;
        f->col[f->d] = cols[c];
        f->mean[f->d] = sum[c];
        f->scale[f->d++] = 1 / sqrt(sq[c] / (double)n);
    }
    free(sum), free(same);
    /* the kept columns' values packed, standardised by the fit as it reads them */
    for (size_t i = 0; i < n; i++) {
        const float *row = x->x + row_at(r, i) * H;
        for (int c = 0; c < f->d; c++)
            v[i * (size_t)f->d + c] = row[f->col[c]];
        yy[i] = y[row_at(r, i)];
    }
    const gt_probe_rows pr = {v, f->mean, f->scale, n, f->d};
    if (from && !(start = malloc(((size_t)f->d + 1) * sizeof *start)))
        goto out;
    if (start) {
        for (int c = 0; c < f->d; c++) {
            start[c] = 0;
            for (int i = 0; i < from->d; i++)
                if (from->col[i] == f->col[c])
                    start[c] = from->w[i];
        }
        start[f->d] = from->w[from->d];
        rc = probe_logistic_from(&pr, yy, lambda, threads, start, f->w, NULL, e);
    } else {
        rc = probe_logistic(&pr, yy, lambda, threads, f->w, e);
    }
out:
    free(v), free(yy);
    free(start);
    return rc == GT_EFAIL && !e->msg[0] ? gt_fail(e, GT_EFAIL, "out of memory for the probe")
                                         : rc;
}

static double fit_score(const fit *f, const float *row)
{
    double s = f->w[f->d];
    for (int c = 0; c < f->d; c++)
        s += f->w[c] * ((row[f->col[c]] - f->mean[c]) * f->scale[c]);
    return s;
}

/* The mean of the defined values. */
static double mean_of(const double *v, int n, size_t stride)
{
    double s = 0;
    int k = 0;
    for (int i = 0; i < n; i++) {
        double a = *(const double *)((const char *)v + (size_t)i * stride);
        if (!isnan(a))
            s += a, k++;
    }
    return k ? s / k : NAN;
}

/* Steps [lo, hi) of fold k of K over n. */
static void fold_span(size_t n, int k, int K, size_t *lo, size_t *hi)
{
    *lo = n * (size_t)k / (size_t)K;
    *hi = n * (size_t)(k + 1) / (size_t)K;
}

/* The cross-validated fits on cols[0..d): each fold's held-out AUC and accuracy. last
 * (unless NULL): each fold's fit before, the start of this one's, then this one. */
static int cross_validate(const gt_signal_matrix *x, const unsigned char *y, int K,
                          double lambda, int threads, const int *cols, int d,
                          gt_probe_fold *folds, fit *last, int across, gt_error *e)
{
    double *s = malloc((x->n / (size_t)K + 2) * sizeof *s);
    if (!s)
        return gt_fail(e, GT_EFAIL, "out of memory for the probe");
    int rc = GT_OK;
    for (int k = 0; k < K && rc == GT_OK; k++) {
        size_t lo, hi, right = 0;
        fold_span(x->n, k, K, &lo, &hi);
        rows r = {x->n, lo, hi};
        fit f = {0};
        const fit *from = !last ? NULL : across ? (k ? &last[k - 1] : NULL) : &last[k];
        rc = fit_rows(&f, x, y, &r, cols, d, lambda, threads, from && from->w ? from : NULL, e);
        for (size_t t = lo; t < hi && rc == GT_OK; t++) {
            s[t - lo] = fit_score(&f, x->x + t * (size_t)x->H);
            right += (s[t - lo] > 0) == (y[t] != 0);
        }
        if (last) {
            fit_free(&last[k]);
            last[k] = f;
        } else {
            fit_free(&f);
        }
        if (rc != GT_OK) /* no scores: the fit failed */
            break;
        folds[k].auc = probe_auc(s, y + lo, hi - lo);
        folds[k].accuracy = (double)right / (double)(hi - lo);
    }
    free(s);
    return rc;
}

typedef struct valued {
    double v;
    size_t t;
} valued;

/* Each of the K folds' training AUC of one column (ties counted a half, NAN for a fold
 * whose training steps are of one class), from the column's n steps sorted by value once:
 * a fold's training steps are the sorted ones outside it, in the same order, and their
 * groups of equal values the whole groups less the fold's own steps, so that each fold's
 * sum is probe_auc's over its training steps term for term. fold[t]: step t's fold.
 * Scratch: num, below (K doubles), cnt (4K). */
static void fold_aucs(const valued *sorted, const unsigned char *y, const int *fold, size_t n,
                      int K, double *auc, double *num, double *below, size_t *cnt)
{
    size_t *pk = cnt, *qk = cnt + K, *pin = cnt + 2 * K, *nin = cnt + 3 * K, P = 0;
    for (int k = 0; k < K; k++)
        num[k] = below[k] = 0, pin[k] = nin[k] = 0;
    for (size_t t = 0; t < n; t++) {
        P += y[t];
        pin[fold[t]] += y[t];
        nin[fold[t]] += !y[t];
    }
    for (size_t i = 0; i < n;) {
        size_t j = i, p = 0;
        for (int k = 0; k < K; k++)
            pk[k] = qk[k] = 0;
        while (j < n && sorted[j].v == sorted[i].v) {
            const size_t t = sorted[j++].t;
            p += y[t];
            pk[fold[t]] += y[t];
            qk[fold[t]] += !y[t];
        }
        const size_t q = j - i - p;
        for (int k = 0; k < K; k++) { /* the group's training steps: all but fold k's */
            const double pt = (double)(p - pk[k]), qt = (double)(q - qk[k]);
            num[k] += pt * (below[k] + 0.5 * qt);
            below[k] += qt;
        }
        i = j;
    }
    for (int k = 0; k < K; k++) {
        const double pos = (double)(P - pin[k]), neg = (double)(n - P - nin[k]);
        auc[k] = pos == 0 || neg == 0 ? NAN : num[k] / (pos * neg);
    }
}

/* Each fold's best single unit: the largest |AUC - 1/2| on the training steps (ties: the
 * lowest unit), scored on the held-out steps in the direction it had in training. Each
 * unit's steps are sorted once for every fold (fold_aucs). */
static int best_units(const gt_signal_matrix *x, const unsigned char *y, int K,
                      gt_probe_fold *folds, gt_error *e)
{
    size_t n = x->n, H = (size_t)x->H;
    valued *sv = malloc(n * sizeof *sv);
    size_t *order = malloc(2 * n * sizeof *order);
    float *sorted = malloc(n * sizeof *sorted);
    uint32_t *key = malloc(2 * n * sizeof *key);
    int *fold = malloc(n * sizeof *fold);
    double *col = malloc(n * sizeof *col), *work = malloc(5 * (size_t)K * sizeof *work);
    size_t *cnt = malloc(4 * (size_t)K * sizeof *cnt);
    if (!sv || !order || !sorted || !key || !fold || !col || !work || !cnt) {
        free(sv), free(order), free(sorted), free(key), free(fold), free(col), free(work),
            free(cnt);
        return gt_fail(e, GT_EFAIL, "out of memory for the probe");
    }
    double *auc = work, *num = work + K, *below = work + 2 * K, *best = work + 3 * K,
           *dir = work + 4 * K;
    for (int k = 0; k < K; k++) {
        size_t lo, hi;
        fold_span(n, k, K, &lo, &hi);
        for (size_t t = lo; t < hi; t++)
            fold[t] = k;
        best[k] = -1, dir[k] = 1;
    }
    for (size_t j = 0; j < H; j++) {
        stats_order_floats(x->x + j, n, H, order, sorted, order + n, key, key + n);
        for (size_t i = 0; i < n; i++)
            sv[i] = (valued){sorted[i], order[i]};
        fold_aucs(sv, y, fold, n, K, auc, num, below, cnt);
        for (int k = 0; k < K; k++)
            if (!isnan(auc[k]) && fabs(auc[k] - 0.5) > best[k]) {
                best[k] = fabs(auc[k] - 0.5), folds[k].best_unit = (int)j;
                dir[k] = auc[k] < 0.5 ? -1 : 1;
            }
    }
    for (int k = 0; k < K; k++) {
        size_t lo, hi;
        fold_span(n, k, K, &lo, &hi);
        for (size_t t = lo; t < hi; t++)
            col[t - lo] = dir[k] * x->x[t * H + (size_t)folds[k].best_unit];
        folds[k].best_unit_auc = probe_auc(col, y + lo, hi - lo);
    }
    free(sv), free(order), free(sorted), free(key), free(fold), free(col), free(work), free(cnt);
    return GT_OK;
}

static int by_weight(const void *pa, const void *pb)
{
    const gt_probe_weight *a = pa, *b = pb;
    if (fabs(a->w) != fabs(b->w))
        return fabs(a->w) > fabs(b->w) ? -1 : 1;
    return (a->unit > b->unit) - (a->unit < b->unit);
}

/* The fit on every step: the weights, largest |w| first, and the bias. */
static int full_fit(gt_probe *p, const gt_signal_matrix *x, const unsigned char *y,
                    const int *all, int threads, gt_error *e)
{
    rows r = {x->n, 0, 0};
    fit f = {0};
    int rc = fit_rows(&f, x, y, &r, all, x->H, p->lambda, threads, NULL, e);
    if (rc == GT_OK && (!(p->weights = malloc(((size_t)f.d + 1) * sizeof *p->weights)) ||
                        !(p->prob = malloc((x->n ? x->n : 1) * sizeof *p->prob))))
        rc = gt_fail(e, GT_EFAIL, "out of memory for the probe");
    if (rc == GT_OK) {
        for (size_t t = 0; t < x->n; t++)
            p->prob[t] = 1.0 / (1.0 + exp(-fit_score(&f, x->x + t * (size_t)x->H)));
        for (int c = 0; c < f.d; c++)
            p->weights[c] = (gt_probe_weight){f.col[c], f.w[c]};
        p->nweights = f.d;
        p->bias = f.w[f.d];
        qsort(p->weights, (size_t)f.d, sizeof *p->weights, by_weight);
    }
    fit_free(&f);
    return rc;
}

/* The first m columns of the weights' order (largest |w| first), gathered row by row into
 * g (its buffer *buf grown as needed), so that a fit on the first k reads them side by
 * side: each fit reads the same values as from x, in the same order. */
static int gather_weights(gt_signal_matrix *g, float **buf, const gt_signal_matrix *x,
                          const gt_probe *p, int m)
{
    float *v = realloc(*buf, (x->n ? x->n : 1) * (size_t)m * sizeof *v);
    if (!v)
        return -1;
    *buf = v;
    for (size_t t = 0; t < x->n; t++) {
        const float *row = x->x + t * (size_t)x->H;
        for (int c = 0; c < m; c++)
            v[t * (size_t)m + c] = row[p->weights[c].unit];
    }
    *g = (gt_signal_matrix){v, x->n, m};
    return 0;
}

/* The fewest largest-|w| units whose probe reaches 95% of the full probe's mean AUC. Their
 * columns are gathered 32 at a time, then twice as many each time k passes them; each
 * fold's fit on k units starts from its fit on k - 1 (doc/measures.md, "The probe"). */
static int units_for_95(gt_probe *p, const gt_signal_matrix *x, const unsigned char *y,
                        int threads, gt_error *e)
{
    p->units_for_95 = -1;
    if (isnan(p->auc))
        return GT_OK;
    int *cols = malloc((size_t)p->nweights * sizeof *cols), rc = GT_OK;
    gt_probe_fold *fo = calloc((size_t)p->nfolds, sizeof *fo);
    fit *last = calloc((size_t)p->nfolds, sizeof *last);
    gt_signal_matrix g = {0};
    float *buf = NULL;
    if (!cols || !fo || !last)
        rc = gt_fail(e, GT_EFAIL, "out of memory for the probe");
    for (int k = 1; rc == GT_OK && k <= p->nweights; k++) {
        cols[k - 1] = k - 1;
        if (k == p->nweights) {
            p->units_for_95 = k;
            break;
        }
        if (k > g.H && gather_weights(&g, &buf, x, p,
                                      g.H ? (2 * g.H < p->nweights ? 2 * g.H : p->nweights)
                                          : (p->nweights < 32 ? p->nweights : 32))) {
            rc = gt_fail(e, GT_EFAIL, "out of memory for the probe");
            break;
        }
        rc = cross_validate(&g, y, p->nfolds, p->lambda, threads, cols, k, fo, last, 0, e);
        if (rc == GT_OK && mean_of(&fo[0].auc, p->nfolds, sizeof *fo) >= 0.95 * p->auc) {
            p->units_for_95 = k;
            break;
        }
    }
    for (int k = 0; last && k < p->nfolds; k++)
        fit_free(&last[k]);
    free(cols), free(fo), free(last), free(buf);
    return rc;
}

int probe_compute(gt_probe *p, const gt_signal_matrix *x, const unsigned char *y, int K,
                  double lambda, int threads, gt_error *e)
{
    memset(p, 0, sizeof *p);
    p->steps = x->n;
    p->nfolds = K;
    p->lambda = lambda;
    for (size_t t = 0; t < x->n; t++)
        p->inside += y[t];
    int *all = malloc((size_t)x->H * sizeof *all), rc;
    p->folds = calloc((size_t)K, sizeof *p->folds);
    if (!all || !p->folds) {
        free(all);
        return gt_fail(e, GT_EFAIL, "out of memory for the probe");
    }
    for (int j = 0; j < x->H; j++)
        all[j] = j;
    fit *chain = calloc((size_t)K, sizeof *chain);
    rc = cross_validate(x, y, K, lambda, threads, all, x->H, p->folds, chain, 1, e);
    for (int k = 0; k < K; k++)
        fit_free(&chain[k]);
    free(chain);
    if (rc == GT_OK)
        rc = best_units(x, y, K, p->folds, e);
    if (rc == GT_OK)
        rc = full_fit(p, x, y, all, threads, e);
    p->auc = mean_of(&p->folds[0].auc, K, sizeof *p->folds);
    interval_mean(&p->auc_ci, &p->folds[0].auc, (size_t)K, sizeof *p->folds);
    p->accuracy = mean_of(&p->folds[0].accuracy, K, sizeof *p->folds);
    p->best_unit_auc = mean_of(&p->folds[0].best_unit_auc, K, sizeof *p->folds);
    if (rc == GT_OK)
        rc = units_for_95(p, x, y, threads, e);
    free(all);
    if (rc)
        probe_free(p); /* nothing left allocated */
    return rc;
}

void probe_free(gt_probe *p)
{
    free(p->folds);
    free(p->weights);
    free(p->prob);
    memset(p, 0, sizeof *p);
}
