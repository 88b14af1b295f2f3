/* The derivative of a step (see tangent.h), formed row by row from the reference run's
 * gates and the model's weights.
 *
 * With a = W_ih x + W_hh h + b the pre-activations and s' = s (1 - s) the sigmoid's slope:
 *   LSTM  A = di W_i + df W_f + dg W_g,  B = do W_o,  with di = g i', df = c f', dg = i (1 - g^2),
 *         do = tanh(c') o' (each a row scale; W_b the block's rows of [W_hh | W_ih]).
 *   GRU, reset after (n = tanh(W_in x + b_in + r (W_hn h + b_hn)), hn = W_hn h + b_hn):
 *         M = dr W_r + dz W_z + e [r W_hn | W_in] + diag(z),
 *         e = (1 - z)(1 - n^2), dr = e hn r', dz = (h - n) z'.
 *   GRU, reset before (n = tanh(W_in x + b_in + W_hn (r h) + b_hn)):
 *         M = dz W_z + e ([W_hn diag(r) | W_in] + W_hn diag(h r') [W_hr | W_ir]) + diag(z).
 *   RNN   (h' = tanh(a) or relu(a)): M = diag(d) [W_hh | W_ih], d = 1 - h'^2 (tanh) or
 *         [a > 0] (relu). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "compute/kernels.h"
#include "compute/x86.h"
#include "gatetui/tangent.h"

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("tree-vectorize")
#endif

/* The coefficient vectors' places in w->v (tangent.h names them). */
enum { V0, V1, V2, V3, V4, V5, V6, V7 };

static double *vec(const gt_stepjac *s, const gt_stepjac_work *w, int i)
{
    return w->v + (size_t)i * s->H;
}

void stepjac_free(gt_stepjac *s)
{
    if (s->whn)
        mat64_free(s->whn);
    if (s->wrT)
        mat64_free(s->wrT);
    free(s->whn);
    free(s->wrT);
    free(s->b_hn);
    memset(s, 0, sizeof *s);
}

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

int stepjac_init(gt_stepjac *s, const gt_model *m, int layer, int with_input, gt_error *e)
{
    memset(s, 0, sizeof *s);
    if (layer < 0 || layer >= m->layers)
        return gt_fail(e, GT_EINPUT, "tangent map: layer %d, the model has %d", layer, m->layers);
    const gt_layer *ly = &m->layer[layer];
    s->m = m;
    s->layer = layer;
    s->H = m->hidden;
    s->D = ly->in_dim;
    s->lstm = m->arch == GT_LSTM;
    s->rnn = m->arch == GT_RNN;
    s->before = m->arch == GT_GRU && m->gru_reset_before;
    s->with_input = with_input;
    s->rows = s->lstm ? 2 * s->H : s->H;
    s->cols = s->H + (with_input ? s->D : 0);
    const size_t H = (size_t)s->H;
    int oom = 0;
    if (m->arch == GT_GRU && !s->before) {
        s->whn = calloc(1, sizeof *s->whn);
        s->b_hn = malloc(H * sizeof *s->b_hn);
        oom = !s->whn || !s->b_hn || mat64_pack(s->whn, ly->w_hh + 2 * H * H, H, H);
        for (size_t j = 0; !oom && j < H; j++)
            s->b_hn[j] = ly->b_hh[2 * H + j];
    } else if (s->before) {
        s->wrT = calloc(1, sizeof *s->wrT);
        oom = !s->wrT || pack_reset_t(s, ly);
    }
    if (oom) {
        stepjac_free(s);
        return gt_fail(e, GT_EFAIL, "out of memory for the tangent map of layer %d", layer);
    }
    return GT_OK;
}

int stepjac_work_init(gt_stepjac_work *w, const gt_stepjac *s, gt_error *e)
{
    memset(w, 0, sizeof *w);
    const size_t H = (size_t)s->H;
    w->v = calloc(8 * H, sizeof *w->v);
    if (s->before) {
        w->G = malloc(H * (size_t)s->cols * sizeof *w->G);
        w->X = malloc(H * H * sizeof *w->X);
    }
    if (!w->v || (s->before && (!w->G || !w->X))) {
        stepjac_work_free(w);
        return gt_fail(e, GT_EFAIL, "out of memory for the tangent map");
    }
    w->f = w->v + 4 * H;
    w->u = w->v + 5 * H;
    return GT_OK;
}

void stepjac_work_free(gt_stepjac_work *w)
{
    free(w->v);
    free(w->G);
    free(w->X);
    memset(w, 0, sizeof *w);
}

static double slope(double s)
{
    return s * (1.0 - s);
}

/* LSTM: di, df, dg, do, f, u in V0..V5 (tanh c' in V6). */
static void prepare_lstm(const gt_stepjac *s, gt_stepjac_work *w, const gt_step_point *pt)
{
    const size_t H = (size_t)s->H;
    const double *g = pt->gates, *i = g, *f = g + H, *gg = g + 2 * H, *o = g + 3 * H;
    double *di = vec(s, w, V0), *df = vec(s, w, V1), *dg = vec(s, w, V2), *dout = vec(s, w, V3);
    double *fv = vec(s, w, V4), *u = vec(s, w, V5), *th = vec(s, w, V6);
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

/* GRU: dr (after) or r (before), dz, dn (after: e r), e, z, hn (after) or h r' (before) in
 * V0..V5; before: G. */
static void prepare_gru(const gt_stepjac *s, gt_stepjac_work *w, const gt_step_point *pt)
{
    const size_t H = (size_t)s->H;
    const double *r = pt->gates, *z = r + H, *n = r + 2 * H, *h = pt->h_prev;
    double *v0 = vec(s, w, V0), *dz = vec(s, w, V1), *dn = vec(s, w, V2), *e = vec(s, w, V3);
    double *zv = vec(s, w, V4), *v5 = vec(s, w, V5);
    if (!s->before && pt->hn) /* hn = W_hn h + b_hn */
        memcpy(v5, pt->hn, H * sizeof *v5);
    else if (!s->before)
        kern64_gemm(s->whn, 1, h, H, s->b_hn, v5, H, 0);
    for (size_t j = 0; j < H; j++) {
        e[j] = (1.0 - z[j]) * (1.0 - n[j] * n[j]);
        dz[j] = (h[j] - n[j]) * slope(z[j]);
        zv[j] = z[j];
        if (s->before) {
            v0[j] = r[j];
            v5[j] = h[j] * slope(r[j]);
        } else {
            v0[j] = e[j] * v5[j] * slope(r[j]);
            dn[j] = e[j] * r[j];
        }
    }
}

/* RNN: the slope d of the nonlinearity at a (the step's one block) in V0. */
static void prepare_rnn(const gt_stepjac *s, gt_stepjac_work *w, const gt_step_point *pt)
{
    const size_t H = (size_t)s->H;
    const double *a = pt->gates;
    double *d = vec(s, w, V0);
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

void stepjac_rows(const gt_stepjac *s, gt_stepjac_work *w, int r0, int r1)
{
    if (!s->before || r1 <= r0)
        return;
    /* G's rows r0..r1-1 = (W_hn diag(h r')) [W_hr | W_ir]: row p of the left factor as item p */
    const size_t H = (size_t)s->H, a = (size_t)r0, n = (size_t)(r1 - r0);
    const double *wv = vec(s, w, V5);
    const float *whn = s->m->layer[s->layer].w_hh + 2 * H * H;
    for (size_t p = a; p < a + n; p++)
        for (size_t j = 0; j < H; j++)
            w->X[p * H + j] = (double)whn[p * H + j] * wv[j];
    kern64_gemm(s->wrT, n, w->X + a * H, H, NULL, w->G + a * (size_t)s->cols,
                (size_t)s->cols, 0);
}

void stepjac_prepare(const gt_stepjac *s, gt_stepjac_work *w, const gt_step_point *pt)
{
    if (s->lstm)
        prepare_lstm(s, w, pt);
    else if (s->rnn)
        prepare_rnn(s, w, pt);
    else
        prepare_gru(s, w, pt);
}

/* out[j] = a W1[j] + b W2[j] + c W3[j] for j < n (a weight row of each; W3 may be NULL);
 * for AVX2 and the baseline (compute/x86.h), the same numbers from both. */
GT_CLONES_AVX2 static void comb3(size_t n, double *restrict out, double a,
                                 const float *restrict W1, double b, const float *restrict W2,
                                 double c, const float *restrict W3)
{
    if (W3) {
        for (size_t j = 0; j < n; j++)
            out[j] = a * W1[j] + b * W2[j] + c * W3[j];
    } else {
        for (size_t j = 0; j < n; j++)
            out[j] = a * W1[j] + b * W2[j];
    }
}

void stepjac_row(const gt_stepjac *s, const gt_stepjac_work *w, int r, double *row)
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
    if (s->rnn) { /* d W */
        const double d = v[p];
        for (size_t j = 0; j < H; j++)
            row[j] = d * HH(0)[j];
        for (size_t j = 0; s->with_input && j < D; j++)
            xr[j] = d * IH(0)[j];
    } else if (s->lstm && (size_t)r >= H) { /* B = do W_o */
        const double d = v[3 * H + p];
        for (size_t j = 0; j < H; j++)
            row[j] = d * HH(3)[j];
        for (size_t j = 0; s->with_input && j < D; j++)
            xr[j] = d * IH(3)[j];
    } else if (s->lstm) { /* A = di W_i + df W_f + dg W_g */
        const double a = v[p], b = v[H + p], c = v[2 * H + p];
        comb3(H, row, a, HH(0), b, HH(1), c, HH(2));
        if (s->with_input)
            comb3(D, xr, a, IH(0), b, IH(1), c, IH(2));
    } else if (!s->before) { /* dr W_r + dz W_z + [dn W_hn | e W_in] + diag(z) */
        const double dr = v[p], dz = v[H + p], dn = v[2 * H + p], e = v[3 * H + p];
        comb3(H, row, dr, HH(0), dz, HH(1), dn, HH(2));
        row[p] += v[4 * H + p];
        if (s->with_input)
            comb3(D, xr, dr, IH(0), dz, IH(1), e, IH(2));
    } else { /* dz W_z + e ([W_hn diag(r) | W_in] + G) + diag(z) */
        const double dz = v[H + p], e = v[3 * H + p];
        const double *rv = v, *g = w->G + p * (size_t)s->cols;
        const float *wz = HH(1), *wn = HH(2);
        for (size_t j = 0; j < H; j++)
            row[j] = dz * wz[j] + e * (wn[j] * rv[j] + g[j]);
        row[p] += v[4 * H + p];
        const float *wiz = IH(1), *win = IH(2);
        for (size_t j = 0; s->with_input && j < D; j++)
            xr[j] = dz * wiz[j] + e * (win[j] + g[H + j]);
    }
#undef HH
#undef IH
}
