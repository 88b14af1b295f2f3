/* Tangents carried forward (see tangent.h): for many tangents, the step's derivative M is
 * formed once (gatetui/stepjac.h) and applied to all of them as one matrix-matrix product per layer
 * and step (2H x (H + D) multiply-adds a tangent for an LSTM): the tangents packed as the
 * product's matrix and M's rows, as formed, its items (no reordering of M's 2H (H + D)
 * numbers, only of the tangents'); for a few, forming M would
 * cost more than it saves, and the tangents go through the weights themselves (G H (H + D)
 * a tangent) and the step's coefficients, as each cell's descriptor says (tangent_one):
 *   LSTM   dc' = f dc + di da_i + df da_f + dg da_g,  dh' = do da_o + u dc'
 *   GRU    dh' = dr da_r + dz da_z + dn W_hn dh + e W_in dx + z dh            (reset after)
 *          dh' = dz da_z + e (W_in dx + W_hn (w da_r + r dh)) + z dh         (reset before)
 *   RNN    dh' = d da
 * with da = W_hh dh + W_ih dx the pre-activations' tangents and w = h r (1 - r). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "compute/gemm32.h"
#include "compute/kernels.h"
#include "compute/x86.h"
#include "gatetui/tangent.h"

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("tree-vectorize")
#endif

/* Up to this many tangents go through the weights (measured on the sample LSTM: one
 * tangent 5 times faster than through M, four about as fast, more slower). */
#define TANGENT_DIRECT 4

/* The tangents (tangent.h): their values, and what carrying them takes. */
struct gt_tangent {
    const gt_model *m;
    int upto, cap, Hmax; /* Hmax: the widest of layers 0..upto (H below: layer k's H_k) */
    double *dh, *dc;    /* [cap T], T = H_0 + ... + H_upto: layer k, tangent x at
                           cap off_k + x H_k (gatetui/model.h) */
    gt_stepjac **sj;    /* [upto+1] */
    gt_stepjac_work w;
    double *M;          /* [2Hmax * 2Hmax] the step's derivative, row-major */
    float *M32;         /* the same in float32 with tangent_use_float32, or NULL */
    struct gt_mat64 *Xp; /* the tangents' [dh; dx] packed as a matrix (cap rows) */
    struct gt_mat32 *Xp32; /* the same in float32 with tangent_use_float32 */
    double *row, *Y;    /* [2Hmax], [2Hmax * cap]: M's row r times tangent x at Y[r * n + x] */
    float *Yf;
    struct gt_mat32 *whh, *whn, *wih; /* [upto+1]: W_hh (a GRU with the reset before W_hn:
                                         its r and z rows, and W_hn), W_ih above layer 0 */
    double *P, *Q, *R;  /* [cap * G*Hmax] twice, [cap * 2Hmax]: one layer's, G H_k (2 H_k)
                           apart */
    double *Z;          /* [G*Hmax] zeros: layer 0's input does not move */
};

static size_t tangent_at(const gt_tangent *t, int k, int x)
{
    return (size_t)t->cap * t->m->layer[k].off + (size_t)x * (size_t)t->m->layer[k].hidden;
}

double *tangent_h(const gt_tangent *t, int k, int x)
{
    return t->dh + tangent_at(t, k, x);
}

double *tangent_c(const gt_tangent *t, int k, int x)
{
    return t->dc + tangent_at(t, k, x);
}

void tangent_free(gt_tangent *t)
{
    if (!t)
        return;
    for (int k = 0; t->sj && k <= t->upto; k++) {
        stepjac_free(t->sj[k]);
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
    if (t->Xp)
        mat64_free(t->Xp);
    if (t->Xp32)
        mat32_free(t->Xp32);
    free(t->Xp);
    free(t->Xp32);
    free(t->M);
    free(t->M32);
    free(t->Yf);
    stepjac_work_free(&t->w);
    free(t->dh);
    free(t->dc);
    free(t->row);
    free(t->Y);
    free(t);
}

/* The weights the few tangents go through: float32, as the model has them (half the bytes
 * to read at each step), multiplied in double (kern32_gemv64). */
static int pack_weights(gt_tangent *t)
{
    const gt_model *m = t->m;
    for (int k = 0; k <= t->upto; k++) {
        const gt_layer *ly = &m->layer[k];
        const size_t H = (size_t)ly->hidden, GH = (size_t)m->gates * H;
        const size_t RB = (size_t)m->cell->rec_blocks * H; /* the rest: a second product */
        if (mat32_pack(&t->whh[k], ly->w_hh, RB, H) ||
            (RB < GH && mat32_pack(&t->whn[k], ly->w_hh + RB * H, GH - RB, H)) ||
            (k > 0 && mat32_pack(&t->wih[k], ly->w_ih, GH, (size_t)ly->in_dim)))
            return -1;
    }
    return 0;
}

/* t's arrays (t from calloc; tangent_new frees it on failure). */
static int init(gt_tangent *t, const gt_model *m, int upto, int cap, gt_error *e)
{
    if (upto < 0 || upto >= m->layers || cap < 1)
        return gt_fail(e, GT_EINPUT, "tangents: layer %d of %d, %d tangents", upto, m->layers,
                       cap);
    t->m = m;
    t->upto = upto;
    t->cap = cap;
    size_t T = 0, H = 0; /* every layer's units, the widest layer's */
    for (int k = 0; k <= upto; k++) {
        T += (size_t)m->layer[k].hidden;
        H = (size_t)m->layer[k].hidden > H ? (size_t)m->layer[k].hidden : H;
    }
    t->Hmax = (int)H;
    const size_t NL = (size_t)upto + 1, n = (size_t)cap;
    t->sj = calloc(NL, sizeof *t->sj);
    t->M = malloc(4 * H * H * sizeof *t->M);
    t->Xp = calloc(1, sizeof *t->Xp);
    t->dh = calloc(n * T, sizeof *t->dh);
    t->dc = calloc(n * T, sizeof *t->dc);
    t->row = malloc(2 * H * sizeof *t->row);
    t->Y = malloc(n * 2 * H * sizeof *t->Y);
    const size_t GH = (size_t)m->gates * H;
    t->whh = calloc(NL, sizeof *t->whh);
    t->whn = calloc(NL, sizeof *t->whn);
    t->wih = calloc(NL, sizeof *t->wih);
    t->P = malloc(n * GH * sizeof *t->P);
    t->Q = malloc(n * GH * sizeof *t->Q);
    t->Z = calloc(GH, sizeof *t->Z);
    t->R = malloc(n * 2 * H * sizeof *t->R);
    if (!t->sj || !t->M || !t->Xp || mat64_alloc(t->Xp, n, 2 * H) || !t->dh || !t->dc ||
        !t->row || !t->Y || !t->whh ||
        !t->whn || !t->wih || !t->P || !t->Q || !t->Z || !t->R || pack_weights(t))
        return gt_fail(e, GT_EFAIL, "out of memory for %d tangents", cap);
    for (int k = 0; k <= upto; k++) {
        int rc = stepjac_new(&t->sj[k], m, k, k > 0, e);
        if (rc)
            return rc;
    }
    return stepjac_work_init(&t->w, t->sj[upto], e);
}

int tangent_new(gt_tangent **out, const gt_model *m, int upto, int cap, gt_error *e)
{
    gt_tangent *t = calloc(1, sizeof *t);
    int rc = t ? init(t, m, upto, cap, e)
               : gt_fail(e, GT_EFAIL, "out of memory for %d tangents", cap);
    if (rc) {
        tangent_free(t);
        t = NULL;
    }
    *out = t;
    return rc;
}



int tangent_use_float32(gt_tangent *t, gt_error *e)
{
    if (t->M32)
        return GT_OK;
    const size_t n = (size_t)t->cap, H = (size_t)t->Hmax;
    t->M32 = malloc(4 * H * H * sizeof *t->M32);
    t->Xp32 = calloc(1, sizeof *t->Xp32);
    t->Yf = malloc(n * 2 * H * sizeof *t->Yf);
    if (!t->M32 || !t->Xp32 || !t->Yf || mat32_alloc(t->Xp32, n, 2 * H))
        return gt_fail(e, GT_EFAIL, "out of memory for %d tangents", t->cap);
    return GT_OK;
}

/* Layer k's M times the n tangents' [dh; dx] (dx: layer k - 1's new dh) into Y (or Yf),
 * M's row r times tangent x at r * n + x: in double, or with tangent_use_float32 in
 * float32. */
static void product(gt_tangent *t, int k, int n)
{
    const gt_stepjac *s = t->sj[k];
    const size_t H = (size_t)t->m->layer[k].hidden, cols = (size_t)stepjac_ncols(s),
                 rows = (size_t)stepjac_nrows(s);
    t->Xp->rows = (size_t)n; /* the same storage, laid out for this layer's columns */
    t->Xp->cols = cols;
    if (t->Xp32) {
        t->Xp32->rows = (size_t)n;
        t->Xp32->cols = cols;
    }
    for (int x = 0; x < n; x++) {
        memcpy(t->row, tangent_h(t, k, x), H * sizeof *t->row);
        if (k > 0) /* the layer below's, D_k = H_(k-1) */
            memcpy(t->row + H, tangent_h(t, k - 1, x),
                   (size_t)t->m->layer[k].in_dim * sizeof *t->row);
        if (t->Xp32)
            mat32_put_row(t->Xp32, (size_t)x, t->row);
        else
            mat64_put_row(t->Xp, (size_t)x, t->row);
    }
    if (t->Xp32)
        kern32_gemm(t->Xp32, rows, t->M32, cols, t->Yf, (size_t)n);
    else
        kern64_gemm(t->Xp, rows, t->M, cols, NULL, t->Y, (size_t)n, 0);
}

/* Y[x] = A X[x] in double for n items (rows ldx and ldy apart). */
static void gemv_each(const gt_mat32 *A, int n, const double *X, size_t ldx, double *Y,
                      size_t ldy)
{
    for (int x = 0; x < n; x++)
        kern32_gemv64(A, X + (size_t)x * ldx, Y + (size_t)x * ldy);
}

/* Layer k's n tangents through the weights, the coefficients in t->w, each by its cell's
 * tangent_one (and tangent_mid before a second product). */
static void direct_layer(gt_tangent *t, int k, int n)
{
    const gt_celltype *cl = t->m->cell;
    const size_t H = (size_t)t->m->layer[k].hidden, GH = (size_t)t->m->gates * H;
    const double *v = t->w.v;
    /* P = W_hh dh (its first rec_blocks blocks), Q = W_ih dx */
    gemv_each(&t->whh[k], n, tangent_h(t, k, 0), H, t->P, GH);
    if (k > 0)
        gemv_each(&t->wih[k], n, tangent_h(t, k - 1, 0), (size_t)t->m->layer[k].in_dim, t->Q,
                  GH);
    if (cl->tangent_mid) { /* R, then W_hn R */
        for (int x = 0; x < n; x++)
            cl->tangent_mid(H, v, t->P + (size_t)x * GH, k ? t->Q + (size_t)x * GH : t->Z,
                            tangent_h(t, k, x), t->R + (size_t)x * 2 * H);
        gemv_each(&t->whn[k], n, t->R, 2 * H, t->R + H, 2 * H);
    }
    for (int x = 0; x < n; x++) {
        const double *P = t->P + (size_t)x * GH;
        const double *Q = k ? t->Q + (size_t)x * GH : t->Z; /* layer 0: no dx */
        double *dh = tangent_h(t, k, x), *dc = tangent_c(t, k, x);
        cl->tangent_one(H, v, P, Q, t->R + (size_t)x * 2 * H + H, dc, dh, dc, dh);
    }
}

typedef double tv4d __attribute__((vector_size(32), aligned(8)));
typedef float tv4f __attribute__((vector_size(16), aligned(4)));

/* out = (float)in for n values, four at a time (for AVX2 and the baseline, compute/x86.h):
 * each value rounded as one conversion rounds it. */
GT_CLONES_AVX2 static void to_float(size_t n, const double *restrict in, float *restrict out)
{
    size_t j = 0;
    for (; j + 4 <= n; j += 4)
        *(tv4f *)(out + j) = __builtin_convertvector(*(const tv4d *)(in + j), tv4f);
    for (; j < n; j++)
        out[j] = (float)in[j];
}

void tangent_step(gt_tangent *t, int n, const gt_step_point *pt)
{
    for (int k = 0; k <= t->upto; k++) {
        if (n <= TANGENT_DIRECT) {
            stepjac_prepare(t->sj[k], &t->w, &pt[k]);
            direct_layer(t, k, n);
            continue;
        }
        const gt_stepjac *s = t->sj[k];
        const int rows = stepjac_nrows(s);
        const size_t cols = (size_t)stepjac_ncols(s), H = (size_t)t->m->layer[k].hidden;
        stepjac_prepare(s, &t->w, &pt[k]);
        stepjac_rows(s, &t->w, 0, rows);
        for (int r = 0; r < rows; r++) { /* in float32: each row through M's first */
            double *row = t->M + (t->M32 ? 0 : (size_t)r * cols);
            stepjac_row(s, &t->w, r, row);
            if (t->M32)
                to_float(cols, row, t->M32 + (size_t)r * cols);
        }
        product(t, k, n);
        const size_t nn = (size_t)n;
        const double *Y = t->Y;
        const float *Yf = t->M32 ? t->Yf : NULL;
        for (int x = 0; x < n; x++) {
            double *restrict dh = tangent_h(t, k, x), *restrict dc = tangent_c(t, k, x);
#define YV(r) (Yf ? (double)Yf[(r) * nn + (size_t)x] : Y[(r) * nn + (size_t)x])
            if (t->m->cell->has_c) { /* dc' = f dc + A [dh; dx], dh' = B [dh; dx] + u dc' */
                const double *f = t->w.f, *u = t->w.u;
                for (size_t j = 0; j < H; j++) {
                    dc[j] = f[j] * dc[j] + YV(j);
                    dh[j] = YV(H + j) + u[j] * dc[j];
                }
            } else {
                for (size_t j = 0; j < H; j++)
                    dh[j] = YV(j);
            }
#undef YV
        }
    }
}
