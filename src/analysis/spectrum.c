/* The eigenvalues of one step's whole Jacobian (see dynamics.h), by LAPACK's dgeev. */
#include "config.h"

#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dynrun.h"
#include "gatetui/dynamics.h"

void spectrum_free(gt_spectrum *s)
{
    free(s->re);
    free(s->carry);
    memset(s, 0, sizeof *s);
}

/* Sorts the n eigenvalues by modulus, largest first (a conjugate pair: + before -). */
static void sort_eigen(gt_spectrum *s, const double *wr, const double *wi)
{
    const size_t n = (size_t)s->n;
    double *key = s->halflife; /* scratch: (abs, im, re) triples sorted as one */
    for (size_t i = 0; i < n; i++) {
        key[3 * i] = hypot(wr[i], wi[i]);
        key[3 * i + 1] = wi[i];
        key[3 * i + 2] = wr[i];
    }
    qsort(key, n, 3 * sizeof *key, dyn_cmp_desc);
    for (size_t i = 0; i < n; i++) {
        s->abs[i] = key[3 * i];
        s->im[i] = key[3 * i + 1];
        s->re[i] = key[3 * i + 2];
    }
    for (size_t i = 0; i < n; i++)
        s->halflife[i] = !(s->abs[i] < 1) ? NAN : s->abs[i] > 0 ? log(0.5) / log(s->abs[i]) : 0;
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
    /* re, im, abs and 3n for the half-lives (the sort's scratch); then wr, wi */
    s->re = malloc(8 * n * sizeof *s->re);
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

/* The eigenvalues of d's last step's J and its carry gates into s; d is closed. */
static int spectrum_finish(gt_spectrum *s, dynrun *d, gt_error *e)
{
    const size_t n = (size_t)d->n, H = (size_t)d->H;
    double *wr = s->re + 6 * n, *wi = s->re + 7 * n;
    const double *carry = dynrun_carry(d);
    for (size_t j = 0; j < H; j++) /* a plain RNN's: not there (NAN) */
        s->carry[j] = carry ? carry[j] : NAN;
    qsort(s->carry, H, sizeof *s->carry, dyn_cmp_desc);
    /* J row-major read as column-major is J^T, whose eigenvalues are J's (no copy) */
    lapack_int info = LAPACKE_dgeev(LAPACK_COL_MAJOR, 'N', 'N', (lapack_int)n, d->J,
                                    (lapack_int)n, wr, wi, NULL, 1, NULL, 1);
    dynrun_close(d);
    if (info) {
        const size_t T = s->step;
        spectrum_free(s);
        return gt_fail(e, GT_EFAIL, "LAPACK's eigenvalues did not converge at step %zu", T);
    }
    sort_eigen(s, wr, wi);
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
    return spectrum_finish(s, &d, e);
}

int spectrum_from(gt_spectrum *s, const gt_model *m, int layer, const float *h,
                  const float *c, uint16_t tok, size_t T, gt_error *e)
{
    dynrun d;
    int rc = spectrum_open(s, &d, m, layer, T, e);
    if (rc)
        return rc;
    batch_set_state(&d.b, 0, h, c);
    dynrun_step(&d, tok, 1);
    return spectrum_finish(s, &d, e);
}
