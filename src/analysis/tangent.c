/* Tangents carried forward (see tangent.h): for many tangents, the step's derivative M is
 * formed once (stepjac.c) and applied to all of them as one matrix-matrix product per layer
 * and step (2H x (H + D) multiply-adds a tangent for an LSTM); for a few, forming M would
 * cost more than it saves, and the tangents go through the weights themselves (G H (H + D)
 * a tangent) and the step's coefficients:
 *   LSTM   dc' = f dc + di da_i + df da_f + dg da_g,  dh' = do da_o + u dc'
 *   GRU    dh' = dr da_r + dz da_z + dn W_hn dh + e W_in dx + z dh            (reset after)
 *          dh' = dz da_z + e (W_in dx + W_hn (w da_r + r dh)) + z dh         (reset before)
 * with da = W_hh dh + W_ih dx the pre-activations' tangents and w = h r (1 - r). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "compute/gemm32.h"
#include "compute/kernels64.h"
#include "gatetui/tangent.h"

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("tree-vectorize")
#endif

/* Up to this many tangents go through the weights (measured on the sample LSTM: one
 * tangent 5 times faster than through M, four about as fast, more slower). */
#define TANGENT_DIRECT 4

void tangent_free(gt_tangent *t)
{
    for (int k = 0; t->sj && k <= t->upto; k++) {
        stepjac_free(&t->sj[k]);
        if (t->M)
            mat64_free(&t->M[k]);
        if (t->M32)
            mat32_free(&t->M32[k]);
        if (t->whh)
            mat32_free(&t->whh[k]);
        if (t->whn)
            mat32_free(&t->whn[k]);
        if (t->wih)
            mat32_free(&t->wih[k]);
    }
    free(t->whh);
    free(t->whn);
    free(t->wih);
    free(t->P);
    free(t->Q);
    free(t->Z);
    free(t->R);
    free(t->sj);
    free(t->M);
    free(t->M32);
    free(t->Xf);
    free(t->Yf);
    stepjac_work_free(&t->w);
    free(t->dh);
    free(t->dc);
    free(t->row);
    free(t->X);
    free(t->Y);
    memset(t, 0, sizeof *t);
}

/* The weights the few tangents go through: float32, as the model has them (half the bytes
 * to read at each step), multiplied in double (kern32_gemv64). */
static int pack_weights(gt_tangent *t)
{
    const gt_model *m = t->m;
    const size_t H = (size_t)t->H, GH = (size_t)m->gates * H;
    const int before = m->arch == GT_GRU && m->gru_reset_before;
    for (int k = 0; k <= t->upto; k++) {
        const gt_layer *ly = &m->layer[k];
        if (mat32_pack(&t->whh[k], ly->w_hh, before ? 2 * H : GH, H) ||
            (before && mat32_pack(&t->whn[k], ly->w_hh + 2 * H * H, H, H)) ||
            (k > 0 && mat32_pack(&t->wih[k], ly->w_ih, GH, (size_t)ly->in_dim)))
            return -1;
    }
    return 0;
}

int tangent_init(gt_tangent *t, const gt_model *m, int upto, int cap, gt_error *e)
{
    memset(t, 0, sizeof *t);
    if (upto < 0 || upto >= m->layers || cap < 1)
        return gt_fail(e, GT_EINPUT, "tangents: layer %d of %d, %d tangents", upto, m->layers,
                       cap);
    t->m = m;
    t->upto = upto;
    t->cap = cap;
    t->H = m->hidden;
    const size_t H = (size_t)m->hidden, NL = (size_t)upto + 1, n = (size_t)cap;
    t->sj = calloc(NL, sizeof *t->sj);
    t->M = calloc(NL, sizeof *t->M);
    t->dh = calloc(NL * n * H, sizeof *t->dh);
    t->dc = calloc(NL * n * H, sizeof *t->dc);
    t->row = malloc(2 * H * sizeof *t->row);
    t->X = malloc(n * 2 * H * sizeof *t->X);
    t->Y = malloc(n * 2 * H * sizeof *t->Y);
    const size_t GH = (size_t)m->gates * H;
    t->whh = calloc(NL, sizeof *t->whh);
    t->whn = calloc(NL, sizeof *t->whn);
    t->wih = calloc(NL, sizeof *t->wih);
    t->P = malloc(n * GH * sizeof *t->P);
    t->Q = malloc(n * GH * sizeof *t->Q);
    t->Z = calloc(GH, sizeof *t->Z);
    t->R = malloc(n * 2 * H * sizeof *t->R);
    if (!t->sj || !t->M || !t->dh || !t->dc || !t->row || !t->X || !t->Y || !t->whh ||
        !t->whn || !t->wih || !t->P || !t->Q || !t->Z || !t->R || pack_weights(t)) {
        tangent_free(t);
        return gt_fail(e, GT_EFAIL, "out of memory for %d tangents", cap);
    }
    for (int k = 0; k <= upto; k++) {
        int rc = stepjac_init(&t->sj[k], m, k, k > 0, e);
        if (rc) {
            tangent_free(t);
            return rc;
        }
        if (mat64_alloc(&t->M[k], (size_t)t->sj[k].rows, (size_t)t->sj[k].cols)) {
            tangent_free(t);
            return gt_fail(e, GT_EFAIL, "out of memory for %d tangents", cap);
        }
    }
    int rc = stepjac_work_init(&t->w, &t->sj[upto], e);
    if (rc)
        tangent_free(t);
    return rc;
}

int tangent_use_float32(gt_tangent *t, gt_error *e)
{
    if (t->M32)
        return GT_OK;
    const size_t n = (size_t)t->cap, H = (size_t)t->H;
    t->M32 = calloc((size_t)t->upto + 1, sizeof *t->M32);
    t->Xf = malloc(n * 2 * H * sizeof *t->Xf);
    t->Yf = malloc(n * 2 * H * sizeof *t->Yf);
    int oom = !t->M32 || !t->Xf || !t->Yf;
    for (int k = 0; k <= t->upto && !oom; k++)
        oom = mat32_alloc(&t->M32[k], (size_t)t->sj[k].rows, (size_t)t->sj[k].cols) != 0;
    if (oom)
        return gt_fail(e, GT_EFAIL, "out of memory for %d tangents", t->cap);
    return GT_OK;
}

/* Y = M X for n tangents, in double or (tangent_use_float32) in float32. */
static void product(gt_tangent *t, int k, int n)
{
    const gt_stepjac *s = &t->sj[k];
    const size_t cols = (size_t)s->cols, rows = (size_t)s->rows, m = (size_t)n * cols;
    if (!t->M32) {
        kern64_gemm(&t->M[k], (size_t)n, t->X, cols, NULL, t->Y, rows, 0);
        return;
    }
    for (size_t i = 0; i < m; i++)
        t->Xf[i] = (float)t->X[i];
    kern32_gemm(&t->M32[k], (size_t)n, t->Xf, cols, t->Yf, rows);
    for (size_t i = 0; i < (size_t)n * rows; i++)
        t->Y[i] = t->Yf[i];
}

/* Y[x] = A X[x] in double for n items (rows ldx and ldy apart). */
static void gemv_each(const gt_mat32 *A, int n, const double *X, size_t ldx, double *Y,
                      size_t ldy)
{
    for (int x = 0; x < n; x++)
        kern32_gemv64(A, X + (size_t)x * ldx, Y + (size_t)x * ldy);
}

/* Layer k's n tangents through the weights, the coefficients in t->w. */
static void direct_layer(gt_tangent *t, int k, int n)
{
    const gt_stepjac *s = &t->sj[k];
    const size_t H = (size_t)t->H, GH = (size_t)t->m->gates * H;
    const double *v = t->w.v;
#define C(i) (v + (size_t)(i) * H)
    /* P = W_hh dh (r and z rows only with the reset before W_hn), Q = W_ih dx */
    gemv_each(&t->whh[k], n, tangent_h(t, k, 0), H, t->P, GH);
    if (k > 0)
        gemv_each(&t->wih[k], n, tangent_h(t, k - 1, 0), H, t->Q, GH);
    if (s->before) { /* R = w (P_r + Q_r) + r dh, then W_hn R */
        for (int x = 0; x < n; x++) {
            const double *P = t->P + (size_t)x * GH, *Q = k ? t->Q + (size_t)x * GH : t->Z;
            const double *dh = tangent_h(t, k, x);
            double *R = t->R + (size_t)x * 2 * H;
            for (size_t j = 0; j < H; j++)
                R[j] = C(SJ_W)[j] * (P[j] + Q[j]) + C(SJ_R)[j] * dh[j];
        }
        gemv_each(&t->whn[k], n, t->R, 2 * H, t->R + H, 2 * H);
    }
    for (int x = 0; x < n; x++) {
        const double *restrict P = t->P + (size_t)x * GH;
        const double *restrict Q = k ? t->Q + (size_t)x * GH : t->Z; /* layer 0: no dx */
        double *restrict dh = tangent_h(t, k, x), *restrict dc = tangent_c(t, k, x);
        if (s->lstm) {
            for (size_t j = 0; j < H; j++) {
                dc[j] = C(SJ_F)[j] * dc[j] + C(SJ_DI)[j] * (P[j] + Q[j]) +
                        C(SJ_DF)[j] * (P[H + j] + Q[H + j]) +
                        C(SJ_DG)[j] * (P[2 * H + j] + Q[2 * H + j]);
                dh[j] = C(SJ_DO)[j] * (P[3 * H + j] + Q[3 * H + j]) + C(SJ_U)[j] * dc[j];
            }
        } else if (!s->before) {
            for (size_t j = 0; j < H; j++)
                dh[j] = C(SJ_DR)[j] * (P[j] + Q[j]) + C(SJ_DZ)[j] * (P[H + j] + Q[H + j]) +
                        C(SJ_DN)[j] * P[2 * H + j] + C(SJ_E)[j] * Q[2 * H + j] +
                        C(SJ_Z)[j] * dh[j];
        } else {
            const double *PN = t->R + (size_t)x * 2 * H + H;
            for (size_t j = 0; j < H; j++)
                dh[j] = C(SJ_DZ)[j] * (P[H + j] + Q[H + j]) +
                        C(SJ_E)[j] * (Q[2 * H + j] + PN[j]) + C(SJ_Z)[j] * dh[j];
        }
    }
#undef C
}

void tangent_step(gt_tangent *t, int n, const gt_step_point *pt)
{
    const size_t H = (size_t)t->H;
    for (int k = 0; k <= t->upto; k++) {
        if (n <= TANGENT_DIRECT) {
            stepjac_prepare(&t->sj[k], &t->w, &pt[k]);
            direct_layer(t, k, n);
            continue;
        }
        const gt_stepjac *s = &t->sj[k];
        const size_t cols = (size_t)s->cols, rows = (size_t)s->rows;
        stepjac_prepare(s, &t->w, &pt[k]);
        stepjac_rows(s, &t->w, 0, s->rows);
        for (int r = 0; r < s->rows; r++) {
            stepjac_row(s, &t->w, r, t->row);
            if (t->M32)
                mat32_put_row(&t->M32[k], (size_t)r, t->row);
            else
                mat64_put_row(&t->M[k], (size_t)r, t->row);
        }
        /* each tangent's [dh; dx]: dx is layer k - 1's new dh */
        for (int x = 0; x < n; x++) {
            double *X = t->X + (size_t)x * cols;
            memcpy(X, tangent_h(t, k, x), H * sizeof *X);
            if (k > 0)
                memcpy(X + H, tangent_h(t, k - 1, x), H * sizeof *X);
        }
        product(t, k, n);
        for (int x = 0; x < n; x++) {
            const double *restrict Y = t->Y + (size_t)x * rows;
            double *restrict dh = tangent_h(t, k, x), *restrict dc = tangent_c(t, k, x);
            if (s->lstm) {
                const double *f = t->w.f, *u = t->w.u;
                for (size_t j = 0; j < H; j++) {
                    dc[j] = f[j] * dc[j] + Y[j];
                    dh[j] = Y[H + j] + u[j] * dc[j];
                }
            } else {
                memcpy(dh, Y, H * sizeof *dh);
            }
        }
    }
}
