/* The principal components (see probe.h): the centred signal's singular value
 * decomposition (LAPACK), each component's explained-variance ratio, loadings and scores,
 * its sign fixed so that its largest loading is positive. */
#include "config.h"

#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gatetui/probe.h"

/* Fixes component c's sign: its loading of largest magnitude (the lowest unit among
 * equals) positive. */
static void fix_sign(double *v, int H)
{
    int big = 0;
    for (int j = 1; j < H; j++)
        if (fabs(v[j]) > fabs(v[big]))
            big = j;
    if (v[big] < 0)
        for (int j = 0; j < H; j++)
            v[j] = -v[j];
}

int components_compute(gt_components *c, const gt_signal_matrix *x, int k, gt_error *e)
{
    memset(c, 0, sizeof *c);
    const size_t n = x->n, H = (size_t)x->H;
    const size_t r = n < H ? n : H;
    c->k = k;
    c->H = x->H;
    c->steps = n;
    double *a = malloc(n * H * sizeof *a), *s = malloc(r * sizeof *s),
           *vt = malloc(r * H * sizeof *vt), *super = malloc(r * sizeof *super),
           *mean = calloc(H, sizeof *mean);
    c->explained = malloc((size_t)k * sizeof *c->explained);
    c->loading = malloc((size_t)k * H * sizeof *c->loading);
    c->score = malloc((size_t)k * n * sizeof *c->score);
    int rc = GT_OK;
    if (!a || !s || !vt || !super || !mean || !c->explained || !c->loading || !c->score)
        rc = gt_fail(e, GT_EFAIL, "out of memory for the components");
    for (size_t t = 0; rc == GT_OK && t < n; t++)
        for (size_t j = 0; j < H; j++)
            mean[j] += x->x[t * H + j] / (double)n;
    for (size_t t = 0; rc == GT_OK && t < n; t++)
        for (size_t j = 0; j < H; j++)
            a[t * H + j] = x->x[t * H + j] - mean[j];
    if (rc == GT_OK && LAPACKE_dgesvd(LAPACK_ROW_MAJOR, 'N', 'S', (lapack_int)n,
                                      (lapack_int)H, a, (lapack_int)H, s, NULL, 1, vt,
                                      (lapack_int)H, super) != 0)
        rc = gt_fail(e, GT_EFAIL, "the singular value decomposition did not converge");
    double total = 0;
    for (size_t i = 0; rc == GT_OK && i < r; i++)
        total += s[i] * s[i];
    for (int i = 0; rc == GT_OK && i < k; i++) {
        double *v = c->loading + (size_t)i * H;
        memcpy(v, vt + (size_t)i * H, H * sizeof *v);
        fix_sign(v, (int)H);
        c->explained[i] = total > 0 ? s[i] * s[i] / total : NAN;
        for (size_t t = 0; t < n; t++) {
            double z = 0;
            for (size_t j = 0; j < H; j++)
                z += (x->x[t * H + j] - mean[j]) * v[j];
            c->score[(size_t)i * n + t] = z;
        }
    }
    free(a), free(s), free(vt), free(super), free(mean);
    if (rc)
        components_free(c);
    return rc;
}

void components_free(gt_components *c)
{
    free(c->explained);
    free(c->loading);
    free(c->score);
    memset(c, 0, sizeof *c);
}
