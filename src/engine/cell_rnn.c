/* The plain RNN's descriptor (gatetui/cell.h; doc/measures.md, "The cells"): one block, the
 * pre-activation a, and h = tanh(a) or relu(a) (gt_model.rnn_relu); no gate, no carry
 * gate. Its steps (the cell's arithmetic itself is compute/cell.c's) and its step's
 * derivative (gatetui/stepjac.h): M = diag(d) [W_hh | W_ih], d = 1 - h'^2 (tanh) or
 * [a > 0] (relu). */
#include "config.h"

#include <string.h>

#include "compute/kernels.h"
#include "compute/pool.h"
#include "engine/stepjac_impl.h"
#include "format/modelfile.h"

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("tree-vectorize")
#endif

static const gt_cell_signal rnn_signals[] = {
    {"a", "pre-activation a", "pre-act. a", 1, 0, 1},
    {"h", "hidden state h", NULL, 1, 0, 0},
};
static const int rnn_heat[] = {1, 0};    /* h, a */
static const int rnn_history[] = {1, 0}; /* h, a */

/* "RNN (tanh)" or "RNN (relu)", saying when neither the file nor --nonlinearity said
 * which. */
static const char *rnn_kind(const gt_model *m)
{
    if (m->nonlin_assumed)
        return m->rnn_relu ? "RNN (relu, assumed: --nonlinearity)"
                           : "RNN (tanh, assumed: --nonlinearity)";
    return m->rnn_relu ? "RNN (relu)" : "RNN (tanh)";
}

/* The nonlinearity: the file's metadata, or --nonlinearity; tanh, assumed, when neither
 * says. */
static int rnn_options(gt_model *m, const gt_model_options *opt, gt_error *e)
{
    const char *nl = m->file->nonlinearity;
    if (nl && strcmp(nl, "tanh") != 0 && strcmp(nl, "relu") != 0)
        return gt_fail(e, GT_EINPUT,
                       "%s: nonlinearity is \"%.40s\"; expected \"tanh\" or \"relu\"", m->path,
                       nl);
    m->rnn_relu = nl && strcmp(nl, "relu") == 0;
    if (opt && opt->nonlinearity >= 0) {
        m->rnn_relu = opt->nonlinearity;
        nl = "";
    }
    m->nonlin_assumed = !nl;
    return GT_OK;
}

/* The step's one coefficient: the slope d of the nonlinearity at a. */
enum { SJ_D };

static size_t rnn_step32(const gt_model *m, const gt_layer *ly, size_t H, gt_pool *pool,
                         int back, const float *xp, float *h, float *c, float *a, float *scratch)
{
    (void)c;
    (void)scratch;
    pool_gemv(pool, H, H, ly->w_hh, h, ly->b_hh, a, back);
    const size_t bad = kern_overflow_at(xp, a, H);
    kern_rnn(H, m->rnn_relu, xp, a, h);
    return bad;
}

static void rnn_cell64(const gt_model *m, size_t H, const kern64_pre *p, double *g, double *t,
                       double *c, double *h)
{
    (void)t;
    (void)c;
    kern64_rnn(H, m->rnn_relu, p, g, h);
}

static void rnn_sj_prepare(const gt_stepjac *s, gt_stepjac_work *w, const gt_step_point *pt)
{
    const size_t H = (size_t)s->H;
    const double *a = pt->gates;
    double *d = w->v + SJ_D * H;
    if (s->m->rnn_relu) {
        for (size_t j = 0; j < H; j++)
            d[j] = a[j] > 0 ? 1.0 : 0.0;
        return;
    }
    memcpy(d, a, H * sizeof *d);
    kern64_tanh(H, d);
    for (size_t j = 0; j < H; j++)
        d[j] = 1.0 - d[j] * d[j];
}

/* d W */
static void rnn_sj_row(const gt_stepjac *s, const gt_stepjac_work *w, int r, double *row)
{
    const size_t H = (size_t)s->H, D = (size_t)s->D, p = (size_t)r % H;
    const gt_layer *ly = &s->m->layer[s->layer];
    const float *hh = ly->w_hh + p * H, *ih = ly->w_ih + p * D;
    const double d = w->v[p];
    double *xr = row + H;
    for (size_t j = 0; j < H; j++)
        row[j] = d * hh[j];
    for (size_t j = 0; s->with_input && j < D; j++)
        xr[j] = d * ih[j];
}

/* dh' = d da, da = P + Q */
static void rnn_tangent_one(size_t H, const double *v, const double *restrict P,
                            const double *restrict Q, const double *PN, const double *dc_in,
                            const double *dh_in, double *dc, double *dh)
{
    (void)PN;
    (void)dc_in;
    (void)dh_in;
    (void)dc;
    for (size_t j = 0; j < H; j++)
        dh[j] = v[SJ_D * H + j] * (P[j] + Q[j]);
}

const gt_celltype gt_cell_rnn = {
    .name = "rnn",
    .kind = "RNN",
    .noun = "plain RNN",
    .module = "nn.RNN",
    .gates = 1,
    .carry = -1,
    .carry_word = NULL,
    .candidate = GT_A,
    .nsigmoid = 0,
    .has_c = 0,
    .state = 1,
    .carried = "h",
    .nsignals = 2,
    .signal = rnn_signals,
    .signal_list = "a, h",
    .beside_h = GT_A,
    .heat_order = rnn_heat,
    .history_order = rnn_history,
    .kind_of = rnn_kind,
    .options = rnn_options,
    .rec_blocks = 1,
    .diff_steps = 1,
    .step32 = rnn_step32,
    .cell64 = rnn_cell64,
    .sj_f = -1,
    .sj_u = -1,
    .sj_own = 1u << SJ_D,
    .sj_prepare = rnn_sj_prepare,
    .sj_row = rnn_sj_row,
    .tangent_one = rnn_tangent_one,
};
