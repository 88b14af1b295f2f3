/* The eigenvalues of one step's whole Jacobian (see dynamics.h): all by LAPACK's dgeev, or
 * the largest by ARPACK (eigen.h). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dynrun.h"
#include "eigen.h"
#include "gatetui/dynamics.h"

void spectrum_free(gt_spectrum *s)
{
    free(s->re);
    free(s->carry);
    memset(s, 0, sizeof *s);
}

/* The moduli and half-lives of s's count eigenvalues, ordered. */
static void moduli(gt_spectrum *s)
{
    for (int i = 0; i < s->count; i++) {
        s->abs[i] = hypot(s->re[i], s->im[i]);
        s->halflife[i] = !(s->abs[i] < 1) ? NAN : s->abs[i] > 0 ? log(0.5) / log(s->abs[i]) : 0;
    }
}

/* d opened on layer and s's arrays allocated for it (s->step = T). */
static int spectrum_open(gt_spectrum *s, dynrun *d, const gt_model *m, int layer, size_t T,
                         gt_error *e)
{
    memset(s, 0, sizeof *s);
    int rc = dynrun_open(d, m, layer, e);
    if (rc)
        return rc;
    const size_t n = (size_t)d->n, H = (size_t)d->H;
    s->layer = layer;
    s->step = T;
    s->n = d->n;
    s->H = d->H;
    s->re = malloc(4 * n * sizeof *s->re); /* re, im, abs, halflife */
    s->carry = malloc(H * sizeof *s->carry);
    if (!s->re || !s->carry) {
        dynrun_close(d);
        spectrum_free(s);
        return gt_fail(e, GT_EFAIL, "out of memory for the eigenvalues");
    }
    s->im = s->re + n;
    s->abs = s->re + 2 * n;
    s->halflife = s->re + 3 * n;
    return GT_OK;
}

/* The eigenvalues of d's last step's J, all (k = 0: LAPACK) or the k largest (ARPACK), and
 * its carry gates into s; d is closed. */
static int spectrum_finish(gt_spectrum *s, dynrun *d, int k, int threads, gt_error *e)
{
    const size_t H = (size_t)d->H;
    dynrun_carry(d, s->carry); /* a plain RNN's: not there (NAN) */
    qsort(s->carry, H, sizeof *s->carry, dyn_cmp_desc);
    s->count = k > 0 && k < d->n ? k : d->n;
    eigen_how how;
    int rc = s->count < d->n ? eigen_top(d->J, d->n, k, eigen_budget(d->n, k), threads, s->re,
                                         s->im, &how, e)
                             : eigen_all(d->J, d->n, s->re, s->im, e);
    dynrun_close(d);
    if (rc) {
        char why[sizeof e->msg];
        snprintf(why, sizeof why, "%s", e->msg);
        const size_t T = s->step;
        spectrum_free(s);
        return gt_fail(e, rc, "%s at step %zu", why, T);
    }
    moduli(s);
    return GT_OK;
}

int spectrum_compute(gt_spectrum *s, const gt_model *m, int layer, const uint16_t *tok,
                     size_t T, gt_error *e)
{
    dynrun d;
    int rc = spectrum_open(s, &d, m, layer, T, e);
    if (rc)
        return rc;
    for (size_t t = 0; t <= T; t++)
        dynrun_step(&d, tok[t], t == T);
    return spectrum_finish(s, &d, 0, 1, e);
}

int spectrum_top_from(gt_spectrum *s, const gt_model *m, int layer, const float *h,
                      const float *c, uint16_t tok, size_t T, int k, int threads, gt_error *e)
{
    dynrun d;
    int rc = spectrum_open(s, &d, m, layer, T, e);
    if (rc)
        return rc;
    batch_set_state(&d.b, 0, h, c);
    dynrun_step(&d, tok, 1);
    return spectrum_finish(s, &d, k, threads, e);
}

int spectrum_from(gt_spectrum *s, const gt_model *m, int layer, const float *h,
                  const float *c, uint16_t tok, size_t T, gt_error *e)
{
    return spectrum_top_from(s, m, layer, h, c, tok, T, 0, 1, e);
}
