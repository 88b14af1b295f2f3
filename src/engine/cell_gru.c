/* The GRU cell's descriptors (gatetui/cell.h; doc/measures.md, "The cells"): the reset gate
 * r, the update gate z carrying h, and the new state n, in PyTorch's row order; h' =
 * (1 - z) n + z h, with n = tanh(W_in x + b_in + r (W_hn h + b_hn)) (PyTorch's, the reset
 * after W_hn) or n = tanh(W_in x + b_in + W_hn (r h) + b_hn) (Cho et al.'s, before). Its
 * steps (the cell's arithmetic itself is compute/cell.c's) and its step's derivative
 * (gatetui/stepjac.h), with e = (1 - z)(1 - n^2) and s' = s (1 - s) the sigmoid's slope:
 *   reset after, hn = W_hn h + b_hn:
 *         M = dr W_r + dz W_z + e [r W_hn | W_in] + diag(z),  dr = e hn r', dz = (h - n) z'
 *   reset before:
 *         M = dz W_z + e ([W_hn diag(r) | W_in] + W_hn diag(h r') [W_hr | W_ir]) + diag(z). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "compute/kernels.h"
#include "compute/pool.h"
#include "engine/batch_impl.h"
#include "engine/stepjac_impl.h"

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("tree-vectorize")
#endif

static const gt_cell_signal gru_signals[] = {
    {"r", "reset gate r", "reset r", 0, 1, 0},
    {"z", "update gate z", "update z", 0, 1, 0},
    {"n", "new state n", "new n", -1, 1, 0},
    {"h", "hidden state h", NULL, 1, 0, 0},
};
static const int gru_heat[] = {3, 1, 0, 2};    /* h, z, r, n */
static const int gru_history[] = {3, 1, 0, 2}; /* h, z, r, n */

/* The step's coefficients, H values each: dr (after) or r (before), dz, dn (after: e r), e,
 * z, hn = W_hn h + b_hn (after) or w = h r' (before). */
enum { SJ_DR, SJ_DZ, SJ_DN, SJ_E, SJ_Z, SJ_HN };
#define SJ_R SJ_DR
#define SJ_W SJ_HN

/* ---- the steps ---- */

/* The first pre-activation row that overflowed: r and z (their two parts summed), then the
 * candidate's two parts apart; or 3 H. */
static size_t gru_step32_with(const gt_layer *ly, size_t H, int before, gt_pool *pool, int back,
                              const float *xp, float *h, float *gates, float *scratch)
{
    float *gh = scratch, *rh = scratch + 3 * H;
    pool_gemv(pool, before ? 2 * H : 3 * H, H, ly->w_hh, h, ly->b_hh, gh, back);
    kern_gru_gates(H, xp, gh, gates);
    if (before) { /* the candidate's product reads r h */
        for (size_t j = 0; j < H; j++)
            rh[j] = gates[j] * h[j];
        pool_gemv(pool, H, H, ly->w_hh + 2 * H * H, rh, ly->b_hh + 2 * H, gh + 2 * H, back);
    }
    size_t bad = kern_overflow_at(xp, gh, 2 * H);
    if (bad == 2 * H && (bad = 2 * H + kern_overflow_at(xp + 2 * H, NULL, H)) == 3 * H)
        bad = 2 * H + kern_overflow_at(gh + 2 * H, NULL, H);
    kern_gru_state(H, xp, gh, before, gates, h);
    return bad;
}

static size_t gru_step32(const gt_model *m, const gt_layer *ly, size_t H, gt_pool *pool, int back,
                       const float *xp, float *h, float *c, float *gates, float *scratch)
{
    (void)m;
    (void)c;
    return gru_step32_with(ly, H, 0, pool, back, xp, h, gates, scratch);
}

static size_t gru_before_step32(const gt_model *m, const gt_layer *ly, size_t H, gt_pool *pool,
                              int back, const float *xp, float *h, float *c, float *gates,
                              float *scratch)
{
    (void)m;
    (void)c;
    return gru_step32_with(ly, H, 1, pool, back, xp, h, gates, scratch);
}

static void gru_cell64(const gt_model *m, size_t H, const kern64_pre *p, double *g, double *t,
                       double *c, double *h)
{
    (void)m;
    (void)c;
    kern64_gru(H, p, g, t, h);
}

/* Layer k of a batch: tmp = W_hh h + b_hh, every block (reset after) or r and z (reset
 * before, then the candidate's product of r h). */
static void gru_batch_with(gt_batch *b, int k, size_t n, int before)
{
    const size_t H = batch_width(b, k), GH = 3 * H;
    const double *bh = b->b_hh + 3 * b->m->layer[k].off;
    batch_product(b, &b->hh[k], b->hh32 ? &b->hh32[k] : NULL, n, batch_h(b, k, 0), H, bh,
                  b->tmp, GH, 0);
    if (!before) {
        for (size_t i = 0; i < n; i++) {
            const kern64_pre p = {.a = b->acc + i * GH, .y = b->tmp + i * GH};
            kern64_gru(H, &p, batch_gates(b, k, (int)i), NULL, batch_h(b, k, (int)i));
        }
        return;
    }
    for (size_t i = 0; i < n; i++) { /* r and z, then the candidate's product of r h */
        const kern64_pre p = {.a = b->acc + i * GH, .y = b->tmp + i * GH};
        double *g = batch_gates(b, k, (int)i);
        const double *h = batch_h(b, k, (int)i);
        kern64_gru_gates(H, &p, g);
        for (size_t j = 0; j < H; j++)
            b->rh[i * H + j] = g[j] * h[j];
    }
    batch_product(b, &b->hn[k], b->hn32 ? &b->hn32[k] : NULL, n, b->rh, H, bh + 2 * H,
                  b->tmp + 2 * H, GH, 0);
    for (size_t i = 0; i < n; i++) {
        const kern64_pre p = {.a = b->acc + i * GH, .y = b->tmp + i * GH};
        kern64_gru_state(H, &p, 1, batch_gates(b, k, (int)i), batch_h(b, k, (int)i));
    }
}

static void gru_batch(gt_batch *b, int k, size_t n)
{
    gru_batch_with(b, k, n, 0);
}

static void gru_before_batch(gt_batch *b, int k, size_t n)
{
    gru_batch_with(b, k, n, 1);
}

/* ---- the step's derivative ---- */

/* [W_hr | W_ir]^T packed: row q < H + D, column j < H is W_hr[j][q] or W_ir[j][q - H]. */
static int pack_reset_t(gt_stepjac *s, const gt_layer *ly)
{
    const size_t H = (size_t)s->H, D = (size_t)s->D, R = H + (s->with_input ? D : 0);
    float *t = malloc(R * H * sizeof *t);
    if (!t)
        return -1;
    for (size_t j = 0; j < H; j++) {
        for (size_t q = 0; q < H; q++)
            t[q * H + j] = ly->w_hh[j * H + q];
        for (size_t q = H; q < R; q++)
            t[q * H + j] = ly->w_ih[j * D + q - H];
    }
    int rc = mat64_pack(s->wrT, t, R, H);
    free(t);
    return rc;
}

/* The reset after: W_hn and b_hn, for hn = W_hn h + b_hn when the run has not kept it. */
static int gru_sj_init(gt_stepjac *s, const gt_layer *ly)
{
    const size_t H = (size_t)s->H;
    s->whn = calloc(1, sizeof *s->whn);
    s->b_hn = malloc(H * sizeof *s->b_hn);
    if (!s->whn || !s->b_hn || mat64_pack(s->whn, ly->w_hh + 2 * H * H, H, H))
        return -1;
    for (size_t j = 0; j < H; j++)
        s->b_hn[j] = ly->b_hh[2 * H + j];
    return 0;
}

static int gru_before_sj_init(gt_stepjac *s, const gt_layer *ly)
{
    s->wrT = calloc(1, sizeof *s->wrT);
    return !s->wrT || pack_reset_t(s, ly) ? -1 : 0;
}

static double slope(double s)
{
    return s * (1.0 - s);
}

static void gru_prepare_with(const gt_stepjac *s, gt_stepjac_work *w, const gt_step_point *pt,
                             int before)
{
    const size_t H = (size_t)s->H;
    const double *r = pt->gates, *z = r + H, *n = r + 2 * H, *h = pt->h_prev;
    double *v0 = w->v + SJ_DR * H, *dz = w->v + SJ_DZ * H, *dn = w->v + SJ_DN * H;
    double *e = w->v + SJ_E * H, *zv = w->v + SJ_Z * H, *v5 = w->v + SJ_HN * H;
    if (!before && pt->hn) /* hn = W_hn h + b_hn */
        memcpy(v5, pt->hn, H * sizeof *v5);
    else if (!before)
        kern64_gemm(s->whn, 1, h, H, s->b_hn, v5, H, 0);
    for (size_t j = 0; j < H; j++) {
        e[j] = (1.0 - z[j]) * (1.0 - n[j] * n[j]);
        dz[j] = (h[j] - n[j]) * slope(z[j]);
        zv[j] = z[j];
        if (before) {
            v0[j] = r[j];
            v5[j] = h[j] * slope(r[j]);
        } else {
            v0[j] = e[j] * v5[j] * slope(r[j]);
            dn[j] = e[j] * r[j];
        }
    }
}

static void gru_sj_prepare(const gt_stepjac *s, gt_stepjac_work *w, const gt_step_point *pt)
{
    gru_prepare_with(s, w, pt, 0);
}

static void gru_before_sj_prepare(const gt_stepjac *s, gt_stepjac_work *w,
                                  const gt_step_point *pt)
{
    gru_prepare_with(s, w, pt, 1);
}

/* The reset before: G's rows r0..r1-1 = (W_hn diag(h r')) [W_hr | W_ir], row p of the left
 * factor as item p. */
static void gru_before_sj_rows(const gt_stepjac *s, gt_stepjac_work *w, int r0, int r1)
{
    const size_t H = (size_t)s->H, a = (size_t)r0, n = (size_t)(r1 - r0);
    const double *wv = w->v + SJ_W * H;
    const float *whn = s->m->layer[s->layer].w_hh + 2 * H * H;
    for (size_t p = a; p < a + n; p++)
        for (size_t j = 0; j < H; j++)
            w->X[p * H + j] = (double)whn[p * H + j] * wv[j];
    kern64_gemm(s->wrT, n, w->X + a * H, H, NULL, w->G + a * (size_t)s->cols,
                (size_t)s->cols, 0);
}

/* rows of block b of unit p: W_hh at hh + (b H + p) H, W_ih at ih + (b H + p) D */
#define HH(b) (ly->w_hh + ((b) * H + p) * H)
#define IH(b) (ly->w_ih + ((b) * H + p) * D)

/* dr W_r + dz W_z + [dn W_hn | e W_in] + diag(z) */
static void gru_sj_row(const gt_stepjac *s, const gt_stepjac_work *w, int r, double *row)
{
    const size_t H = (size_t)s->H, D = (size_t)s->D, p = (size_t)r % H;
    const gt_layer *ly = &s->m->layer[s->layer];
    const double *v = w->v;
    const double dr = v[p], dz = v[H + p], dn = v[2 * H + p], e = v[3 * H + p];
    stepjac_comb3(H, row, dr, HH(0), dz, HH(1), dn, HH(2));
    row[p] += v[4 * H + p];
    if (s->with_input)
        stepjac_comb3(D, row + H, dr, IH(0), dz, IH(1), e, IH(2));
}

/* dz W_z + e ([W_hn diag(r) | W_in] + G) + diag(z) */
static void gru_before_sj_row(const gt_stepjac *s, const gt_stepjac_work *w, int r, double *row)
{
    const size_t H = (size_t)s->H, D = (size_t)s->D, p = (size_t)r % H;
    const gt_layer *ly = &s->m->layer[s->layer];
    const double *v = w->v;
    const double dz = v[H + p], e = v[3 * H + p];
    const double *rv = v, *g = w->G + p * (size_t)s->cols;
    const float *wz = HH(1), *wn = HH(2);
    double *xr = row + H;
    for (size_t j = 0; j < H; j++)
        row[j] = dz * wz[j] + e * (wn[j] * rv[j] + g[j]);
    row[p] += v[4 * H + p];
    const float *wiz = IH(1), *win = IH(2);
    for (size_t j = 0; s->with_input && j < D; j++)
        xr[j] = dz * wiz[j] + e * (win[j] + g[H + j]);
}

#undef HH
#undef IH

#define C(i) (v + (size_t)(i) * H)

/* dh' = dr da_r + dz da_z + dn W_hn dh + e W_in dx + z dh, da = P + Q */
static void gru_tangent_one(size_t H, const double *v, const double *restrict P,
                            const double *restrict Q, const double *PN, const double *dc_in,
                            const double *dh_in, double *dc, double *dh)
{
    (void)PN;
    (void)dc_in;
    (void)dc;
    for (size_t j = 0; j < H; j++)
        dh[j] = C(SJ_DR)[j] * (P[j] + Q[j]) + C(SJ_DZ)[j] * (P[H + j] + Q[H + j]) +
                C(SJ_DN)[j] * P[2 * H + j] + C(SJ_E)[j] * Q[2 * H + j] + C(SJ_Z)[j] * dh_in[j];
}

/* The reset before: R = w (P_r + Q_r) + r dh, which W_hn multiplies (PN) */
static void gru_before_tangent_mid(size_t H, const double *v, const double *restrict P,
                                   const double *restrict Q, const double *restrict dh,
                                   double *restrict R)
{
    for (size_t j = 0; j < H; j++)
        R[j] = C(SJ_W)[j] * (P[j] + Q[j]) + C(SJ_R)[j] * dh[j];
}

/* dh' = dz da_z + e (W_in dx + W_hn (w da_r + r dh)) + z dh */
static void gru_before_tangent_one(size_t H, const double *v, const double *restrict P,
                                   const double *restrict Q, const double *restrict PN,
                                   const double *dc_in, const double *dh_in, double *dc,
                                   double *dh)
{
    (void)dc_in;
    (void)dc;
    for (size_t j = 0; j < H; j++)
        dh[j] = C(SJ_DZ)[j] * (P[H + j] + Q[H + j]) + C(SJ_E)[j] * (Q[2 * H + j] + PN[j]) +
                C(SJ_Z)[j] * dh_in[j];
}

#undef C

/* What the two descriptors share. */
#define GRU_CELL                                                                              \
    .name = "gru", .kind = "GRU", .noun = "GRU", .module = "nn.GRU", .gates = 3, .carry = GT_Z, \
    .carry_word = "update", .candidate = GT_N, .nsigmoid = 2, .sigmoid = {GT_R, GT_Z},        \
    .has_c = 0, .state = 1, .carried = "h", .nsignals = 4, .signal = gru_signals,             \
    .signal_list = "r, z, n, h", .beside_h = GT_N, .heat_order = gru_heat,                    \
    .history_order = gru_history, .options = gru_options, .sj_f = -1, .sj_u = -1

static int gru_options(gt_model *m, const gt_model_options *opt, gt_error *e);

const gt_celltype gt_cell_gru = {
    GRU_CELL,
    .rec_blocks = 3,
    .diff_steps = 1,
    .keeps_hn = 1,
    .step32 = gru_step32,
    .cell64 = gru_cell64,
    .batch_layer = gru_batch,
    .sj_init = gru_sj_init,
    .sj_prepare = gru_sj_prepare,
    .sj_own = 1u << SJ_DR | 1u << SJ_DZ | 1u << SJ_DN | 1u << SJ_E | 1u << SJ_Z,
    .sj_row = gru_sj_row,
    .tangent_one = gru_tangent_one,
};

const gt_celltype gt_cell_gru_before = {
    GRU_CELL,
    .rec_blocks = 2,
    .diff_steps = 0,
    .keeps_hn = 0,
    .step32 = gru_before_step32,
    .batch_layer = gru_before_batch,
    .sj_init = gru_before_sj_init,
    .sj_prepare = gru_before_sj_prepare,
    /* not r nor w = h r': they scale W_hn's columns (the others' rows through h_j) */
    .sj_own = 1u << SJ_DZ | 1u << SJ_E | 1u << SJ_Z,
    .sj_rows = gru_before_sj_rows,
    .sj_row = gru_before_sj_row,
    .tangent_one = gru_before_tangent_one,
    .tangent_mid = gru_before_tangent_mid,
};

/* The reset before W_hn (the file's metadata or --gru-reset, model.c): its own steps. */
static int gru_options(gt_model *m, const gt_model_options *opt, gt_error *e)
{
    (void)opt;
    (void)e;
    m->cell = m->gru_reset_before ? &gt_cell_gru_before : &gt_cell_gru;
    return GT_OK;
}
