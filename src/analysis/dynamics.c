/* The step's whole Jacobian and the Lyapunov spectrum (see dynamics.h). From the tangent
 * map's rows (tangent.h: A and B of an LSTM, M of a GRU, the h columns only), with the
 * state ordered (c, h):
 *   LSTM  J = [ diag(f)    A              ]      (dc' = f dc + A dh)
 *             [ diag(u f)  B + diag(u) A  ]      (dh' = B dh + u dc')
 *   GRU   J = M.
 * The spectrum: Q_0 the first M columns of the identity; at each step Z = J_t Q_(t-1) as one
 * matrix-matrix product (the M tangents as its items), Z = Q_t R_t by LAPACK's Householder
 * QR, each column of Q_t and row of R_t signed so that R_t's diagonal is >= 0. */
#include "config.h"

#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compute/kernels.h"
#include "dynrun.h"
#include "gatetui/dynamics.h"

int dyn_state_size(const gt_model *m)
{
    return m->arch == GT_LSTM ? 2 * m->hidden : m->hidden;
}

void dynrun_close(dynrun *d)
{
    batch_free(&d->b);
    stepjac_free(&d->sj);
    stepjac_work_free(&d->w);
    free(d->J);
    free(d->prev);
    memset(d, 0, sizeof *d);
}

int dynrun_open(dynrun *d, const gt_model *m, int layer, gt_error *e)
{
    memset(d, 0, sizeof *d);
    if (layer < 0 || layer >= m->layers)
        return gt_fail(e, GT_EINPUT, "--layer %d: the model has %d layer%s (0..%d)", layer,
                       m->layers, m->layers == 1 ? "" : "s", m->layers - 1);
    d->m = m;
    d->layer = layer;
    d->H = m->hidden;
    d->n = dyn_state_size(m);
    int rc = batch_init(&d->b, m, layer, 1, e);
    if (!rc)
        rc = stepjac_init(&d->sj, m, layer, 0, e);
    if (!rc)
        rc = stepjac_work_init(&d->w, &d->sj, e);
    if (rc) {
        dynrun_close(d);
        return rc;
    }
    const size_t n = (size_t)d->n, H = (size_t)d->H;
    d->J = malloc(n * n * sizeof *d->J);
    d->prev = malloc(2 * H * sizeof *d->prev);
    if (!d->J || !d->prev) {
        dynrun_close(d);
        return gt_fail(e, GT_EFAIL, "out of memory for the state's Jacobian");
    }
    batch_set_state(&d->b, 0, NULL, NULL);
    return GT_OK;
}

/* J from the tangent map's rows at the step just taken (per cell kind). */
static void form_jacobian(dynrun *d)
{
    const size_t H = (size_t)d->H, n = (size_t)d->n;
    double *J = d->J;
    stepjac_rows(&d->sj, &d->w, 0, d->sj.rows);
    if (d->m->arch != GT_LSTM) { /* GRU: M itself */
        for (size_t r = 0; r < H; r++)
            stepjac_row(&d->sj, &d->w, (int)r, J + r * n);
        return;
    }
    const double *f = d->w.f, *u = d->w.u;
    memset(J, 0, n * n * sizeof *J);
    for (size_t i = 0; i < H; i++) {
        double *jc = J + i * n, *jh = J + (H + i) * n;
        stepjac_row(&d->sj, &d->w, (int)i, jc + H);         /* A */
        stepjac_row(&d->sj, &d->w, (int)(H + i), jh + H);   /* B */
        jc[i] = f[i];
        jh[i] = u[i] * f[i];
        for (size_t q = 0; q < H; q++)
            jh[H + q] += u[i] * jc[H + q];
    }
}

void dynrun_step(dynrun *d, uint16_t tok, int jacobian)
{
    gt_batch *b = &d->b;
    const size_t H = (size_t)d->H;
    const int L = d->layer;
    memcpy(d->prev, batch_h(b, L, 0), H * sizeof *d->prev);
    memcpy(d->prev + H, batch_c(b, L, 0), H * sizeof *d->prev);
    batch_step(b, 1, &tok);
    if (!jacobian)
        return;
    gt_step_point pt = {d->prev, d->prev + H, batch_gates(b, L, 0), batch_c(b, L, 0)};
    stepjac_prepare(&d->sj, &d->w, &pt);
    form_jacobian(d);
}

const double *dynrun_carry(const dynrun *d)
{
    if (d->m->arch == GT_RNN) /* no carry gate */
        return NULL;
    return batch_gates(&d->b, d->layer, 0) + d->H; /* f (LSTM) or z (GRU) */
}

void lyapunov_free(gt_lyapunov *l)
{
    free(l->exponent);
    free(l->halflife);
    memset(l, 0, sizeof *l);
}

int dyn_cmp_desc(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return x < y ? 1 : x > y ? -1 : 0;
}

/* Z = Q R in place (Z becomes Q), diag R made >= 0; adds ln R_ii to sum when sum is set. */
static int qr_step(double *Z, size_t n, size_t M, double *tau, double *sum)
{
    if (LAPACKE_dgeqrf(LAPACK_COL_MAJOR, (lapack_int)n, (lapack_int)M, Z, (lapack_int)n, tau))
        return -1;
    double *sign = tau + M;
    for (size_t i = 0; i < M; i++) {
        const double r = Z[i * n + i];
        sign[i] = r < 0 ? -1.0 : 1.0;
        if (sum)
            sum[i] += log(fabs(r));
    }
    if (LAPACKE_dorgqr(LAPACK_COL_MAJOR, (lapack_int)n, (lapack_int)M, (lapack_int)M, Z,
                       (lapack_int)n, tau))
        return -1;
    for (size_t i = 0; i < M; i++)
        if (sign[i] < 0)
            for (size_t r = 0; r < n; r++)
                Z[i * n + r] = -Z[i * n + r];
    return 0;
}

/* The QR method over the steps, the sums of ln R_ii into sum. */
static int lyapunov_run(dynrun *d, gt_mat64 *Jm, size_t M, const uint16_t *tok, size_t steps,
                        size_t warmup, double *Q, double *Z, double *tau, double *sum)
{
    const size_t n = (size_t)d->n;
    for (size_t i = 0; i < M; i++)
        Q[i * n + i] = 1.0;
    for (size_t t = 0; t < steps; t++) {
        dynrun_step(d, tok[t], 1);
        for (size_t r = 0; r < n; r++)
            mat64_put_row(Jm, r, d->J + r * n);
        kern64_gemm(Jm, M, Q, n, NULL, Z, n, 0);
        if (qr_step(Z, n, M, tau, t >= warmup ? sum : NULL))
            return -1;
        double *s = Q;
        Q = Z;
        Z = s;
    }
    return 0;
}

int lyapunov_compute(gt_lyapunov *l, const gt_model *m, int layer, int M, const uint16_t *tok,
                     size_t steps, size_t warmup, gt_error *e)
{
    memset(l, 0, sizeof *l);
    const int n = dyn_state_size(m);
    if (M < 1 || M > n)
        return gt_fail(e, GT_EINPUT, "--modes %d: the state has %d numbers (1..%d)", M, n, n);
    if (warmup >= steps)
        return gt_fail(e, GT_EINPUT, "--warmup %zu: not below the %zu steps", warmup, steps);
    dynrun d;
    int rc = dynrun_open(&d, m, layer, e);
    if (rc)
        return rc;
    const size_t N = (size_t)n, MM = (size_t)M;
    gt_mat64 Jm;
    int jm = mat64_alloc(&Jm, N, N);
    double *Q = calloc(N * MM, sizeof *Q), *Z = calloc(N * MM, sizeof *Z);
    double *tau = malloc(2 * MM * sizeof *tau);
    l->exponent = calloc(MM, sizeof *l->exponent);
    l->halflife = malloc(MM * sizeof *l->halflife);
    if (jm || !Q || !Z || !tau || !l->exponent || !l->halflife)
        rc = gt_fail(e, GT_EFAIL, "out of memory for %d tangents", M);
    else if (lyapunov_run(&d, &Jm, MM, tok, steps, warmup, Q, Z, tau, l->exponent))
        rc = gt_fail(e, GT_EFAIL, "LAPACK's QR failed");
    if (!jm)
        mat64_free(&Jm);
    free(Q);
    free(Z);
    free(tau);
    dynrun_close(&d);
    if (rc) {
        lyapunov_free(l);
        return rc;
    }
    l->layer = layer;
    l->modes = M;
    l->steps = steps;
    l->warmup = warmup;
    for (size_t i = 0; i < MM; i++)
        l->exponent[i] /= (double)(steps - warmup);
    qsort(l->exponent, MM, sizeof *l->exponent, dyn_cmp_desc);
    for (size_t i = 0; i < MM; i++)
        l->halflife[i] = l->exponent[i] < 0 ? log(0.5) / l->exponent[i] : NAN;
    return GT_OK;
}
