/* The LSTM cell's descriptor (gatetui/cell.h; doc/measures.md, "The cells"): the gates
 * i, f, g, o in PyTorch's row order, the forget gate f carrying the cell state c, and h =
 * o tanh c; its steps (the cell's arithmetic itself is compute/cell.c's) and its step's
 * derivative (gatetui/stepjac.h):
 *   A = di W_i + df W_f + dg W_g,  B = do W_o,  with di = g i', df = c f', dg = i (1 - g^2),
 *   do = tanh(c') o' (each a row scale; W_b the block's rows of [W_hh | W_ih], s' = s (1 - s)
 *   the sigmoid's slope), and dc' = f dc + A [dh; dx], dh' = B [dh; dx] + u dc',
 *   u = o (1 - tanh^2 c'). */
#include "config.h"

#include <string.h>

#include "compute/kernels.h"
#include "compute/pool.h"
#include "engine/stepjac_impl.h"

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("tree-vectorize")
#endif

static const gt_cell_signal lstm_signals[] = {
    {"i", "input gate i", "input i", 0, 1, 0},
    {"f", "forget gate f", "forget f", 0, 1, 0},
    {"g", "cell input g", "cell g", -1, 1, 0},
    {"o", "output gate o", "output o", 0, 1, 0},
    {"c", "cell state c", NULL, 1, 0, 1},
    {"h", "hidden state h", NULL, 1, 0, 0},
};
static const int lstm_heat[] = {4, 5, 0, 1, 2, 3};    /* c, h, i, f, g, o */
static const int lstm_history[] = {4, 1, 5, 0, 3, 2}; /* c, f, h, i, o, g */

/* The step's coefficients, H values each: di, df, dg, do, f, u (tanh c' in SJ_TH). */
enum { SJ_DI, SJ_DF, SJ_DG, SJ_DO, SJ_F, SJ_U, SJ_TH };

static size_t lstm_step32(const gt_model *m, const gt_layer *ly, size_t H, gt_pool *pool,
                          int back, const float *xp, float *h, float *c, float *a,
                          float *scratch)
{
    (void)m;
    (void)scratch;
    pool_gemv(pool, 4 * H, H, ly->w_hh, h, ly->b_hh, a, back);
    const size_t bad = kern_overflow_at(xp, a, 4 * H);
    kern_lstm(H, xp, a, c, h);
    return bad;
}

static void lstm_cell64(const gt_model *m, size_t H, const kern64_pre *p, double *g, double *t,
                        double *c, double *h)
{
    (void)m;
    kern64_lstm(H, p, g, t, c, h);
}

static double slope(double s)
{
    return s * (1.0 - s);
}

static void lstm_sj_prepare(const gt_stepjac *s, gt_stepjac_work *w, const gt_step_point *pt)
{
    const size_t H = (size_t)s->H;
    const double *g = pt->gates, *i = g, *f = g + H, *gg = g + 2 * H, *o = g + 3 * H;
    double *di = w->v + SJ_DI * H, *df = w->v + SJ_DF * H, *dg = w->v + SJ_DG * H;
    double *dout = w->v + SJ_DO * H, *fv = w->v + SJ_F * H, *u = w->v + SJ_U * H;
    double *th = w->v + SJ_TH * H;
    memcpy(th, pt->c, H * sizeof *th);
    kern64_tanh(H, th);
    for (size_t j = 0; j < H; j++) {
        di[j] = gg[j] * slope(i[j]);
        df[j] = pt->c_prev[j] * slope(f[j]);
        dg[j] = i[j] * (1.0 - gg[j] * gg[j]);
        dout[j] = th[j] * slope(o[j]);
        fv[j] = f[j];
        u[j] = o[j] * (1.0 - th[j] * th[j]);
    }
}

/* Row r of M: A's (r < H) or B's. */
static void lstm_sj_row(const gt_stepjac *s, const gt_stepjac_work *w, int r, double *row)
{
    const size_t H = (size_t)s->H, D = (size_t)s->D;
    const gt_layer *ly = &s->m->layer[s->layer];
    const float *hh = ly->w_hh, *ih = ly->w_ih;
    const size_t p = (size_t)r % H;
    double *xr = row + H;
    const double *v = w->v;
    /* rows of block b: W_hh at hh + (b H + p) H, W_ih at ih + (b H + p) D */
#define HH(b) (hh + ((b) * H + p) * H)
#define IH(b) (ih + ((b) * H + p) * D)
    if ((size_t)r >= H) { /* B = do W_o */
        const double d = v[SJ_DO * H + p];
        for (size_t j = 0; j < H; j++)
            row[j] = d * HH(3)[j];
        for (size_t j = 0; s->with_input && j < D; j++)
            xr[j] = d * IH(3)[j];
    } else { /* A = di W_i + df W_f + dg W_g */
        const double a = v[p], b = v[H + p], c = v[2 * H + p];
        stepjac_comb3(H, row, a, HH(0), b, HH(1), c, HH(2));
        if (s->with_input)
            stepjac_comb3(D, xr, a, IH(0), b, IH(1), c, IH(2));
    }
#undef HH
#undef IH
}

/* dc' = f dc + di da_i + df da_f + dg da_g, dh' = do da_o + u dc', da = P + Q. */
static void lstm_tangent_one(size_t H, const double *v, const double *restrict P,
                             const double *restrict Q, const double *PN,
                             const double *dc_in, const double *dh_in, double *dc, double *dh)
{
    (void)PN;
    (void)dh_in;
#define C(i) (v + (size_t)(i) * H)
    for (size_t j = 0; j < H; j++) {
        dc[j] = C(SJ_F)[j] * dc_in[j] + C(SJ_DI)[j] * (P[j] + Q[j]) +
                C(SJ_DF)[j] * (P[H + j] + Q[H + j]) + C(SJ_DG)[j] * (P[2 * H + j] + Q[2 * H + j]);
        dh[j] = C(SJ_DO)[j] * (P[3 * H + j] + Q[3 * H + j]) + C(SJ_U)[j] * dc[j];
    }
#undef C
}

const gt_celltype gt_cell_lstm = {
    .name = "lstm",
    .kind = "LSTM",
    .noun = "LSTM",
    .module = "nn.LSTM",
    .gates = 4,
    .carry = GT_F,
    .carry_word = "forget",
    .candidate = GT_G,
    .nsigmoid = 3,
    .sigmoid = {GT_I, GT_F, GT_O},
    .has_c = 1,
    .state = 2,
    .carried = "c",
    .nsignals = 6,
    .signal = lstm_signals,
    .signal_list = "i, f, g, o, c, h",
    .beside_h = 4,
    .heat_order = lstm_heat,
    .history_order = lstm_history,
    .rec_blocks = 4,
    .diff_steps = 1,
    .step32 = lstm_step32,
    .cell64 = lstm_cell64,
    .sj_f = SJ_F,
    .sj_u = SJ_U,
    .sj_own = 1u << SJ_DI | 1u << SJ_DF | 1u << SJ_DG | 1u << SJ_DO | 1u << SJ_F | 1u << SJ_U,
    .sj_prepare = lstm_sj_prepare,
    .sj_row = lstm_sj_row,
    .tangent_one = lstm_tangent_one,
};
