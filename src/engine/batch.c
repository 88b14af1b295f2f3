/* Stepping a batch of streams in double precision: the products, then the cells
 * (compute/cell.c; doc/measures.md, "The cells"), as run.c steps one stream in float32. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "engine/batch_impl.h"
#include "engine/model_impl.h"
#include "gatetui/bigmem.h"

/* The elementwise loops over a batch (differences, sums, the cells' products) are worth
 * vectorising even at -O2. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("tree-vectorize")
#endif

/* Layer 0's input part is tabulated per token when the table stays below this many
 * numbers (32 MB); otherwise it is computed at each step. */
#define MAX_XTAB ((size_t)1 << 22)

void batch_free(gt_batch *b)
{
    free(b->h);
    free(b->c);
    free(b->gates);
    for (int k = 0; k <= b->upto && (b->ih || b->hh || b->hn); k++) {
        if (b->ih)
            mat64_free(&b->ih[k]);
        if (b->hh)
            mat64_free(&b->hh[k]);
        if (b->hn)
            mat64_free(&b->hn[k]);
    }
    for (int k = 0; k <= b->upto && (b->ih32 || b->hh32 || b->hn32); k++) {
        if (b->ih32)
            mat32_free(&b->ih32[k]);
        if (b->hh32)
            mat32_free(&b->hh32[k]);
        if (b->hn32)
            mat32_free(&b->hn32[k]);
    }
    free(b->ih32);
    free(b->hh32);
    free(b->hn32);
    free(b->dx);
    free(b->dy);
    free(b->dyi);
    free(b->y0);
    free(b->y0i);
    free(b->dT);
    free(b->dn2);
    free(b->ih);
    free(b->hh);
    free(b->hn);
    free(b->b_ih);
    free(b->b_hh);
    free(b->xtab);
    free(b->xin);
    free(b->acc);
    free(b->tmp);
    free(b->rh);
    if (b->out64)
        mat64_free(b->out64);
    if (b->out32)
        mat32_free(b->out32);
    free(b->out64);
    free(b->out32);
    free(b->out_b);
    free(b->y0o);
    free(b->dyo);
    memset(b, 0, sizeof *b);
}

int batch_init(gt_batch *b, const gt_model *m, int upto, int cap, gt_error *e)
{
    memset(b, 0, sizeof *b);
    if (upto < 0 || upto >= m->layers || cap < 1)
        return gt_fail(e, GT_EINPUT, "batch: layer %d of %d, %d items", upto, m->layers, cap);
    b->m = m;
    b->upto = upto;
    b->cap = cap;
    b->G = m->gates;
    b->ablate_layer = -1;
    b->ablate_n = 1;
    for (int k = 0; k <= upto; k++) {
        b->Hmax = m->layer[k].hidden > b->Hmax ? m->layer[k].hidden : b->Hmax;
        b->units += m->layer[k].hidden;
    }
    const size_t G = (size_t)m->gates, NL = (size_t)upto + 1, T = (size_t)b->units;
    const size_t Hm = (size_t)b->Hmax, GH0 = G * (size_t)m->layer[0].hidden;
    const size_t V = (size_t)m->vocab, D0 = (size_t)m->input_dim, n = (size_t)cap;
    const int table = V * GH0 <= MAX_XTAB;
    b->ih = calloc(NL, sizeof *b->ih);
    b->hh = calloc(NL, sizeof *b->hh);
    b->hn = calloc(NL, sizeof *b->hn);
    b->h = calloc(n * T, sizeof *b->h);
    b->c = calloc(n * T, sizeof *b->c);
    b->gates = calloc(n * G * T, sizeof *b->gates);
    b->b_ih = malloc(G * T * sizeof *b->b_ih);
    b->b_hh = malloc(G * T * sizeof *b->b_hh);
    b->xin = malloc(n * D0 * sizeof *b->xin);
    b->acc = malloc(n * G * Hm * sizeof *b->acc);
    b->tmp = malloc(n * G * Hm * sizeof *b->tmp);
    b->rh = malloc(n * Hm * sizeof *b->rh);
    if (table)
        b->xtab = big_zalloc(V * GH0 * sizeof *b->xtab); /* gatetui/bigmem.h */
    if (!b->ih || !b->hh || !b->hn || !b->h || !b->c || !b->gates || !b->b_ih || !b->b_hh ||
        !b->xin || !b->acc || !b->tmp || !b->rh || (table && !b->xtab))
        goto oom;
    for (size_t k = 0; k < NL; k++) {
        const gt_layer *ly = &m->layer[k];
        /* the rows of W_hh in the product with h (RB), the others a second product (hn) */
        const size_t H = (size_t)ly->hidden, GH = G * H, RB = (size_t)m->cell->rec_blocks * H;
        if ((k > 0 || (!table && m->has_embedding)) &&
            mat64_pack(&b->ih[k], ly->w_ih, GH, (size_t)ly->in_dim))
            goto oom;
        if (mat64_pack(&b->hh[k], ly->w_hh, RB, H))
            goto oom;
        if (RB < GH && mat64_pack(&b->hn[k], ly->w_hh + RB * H, GH - RB, H))
            goto oom;
        for (size_t r = 0; r < GH; r++) {
            b->b_ih[G * ly->off + r] = ly->b_ih[r];
            b->b_hh[G * ly->off + r] = ly->b_hh[r];
        }
    }
    if (table) { /* engine/inputtable.c */
        float *et = model_emb_t(m);
        model_input_rows64(m, et, b->xtab, GH0);
        free(et);
    }
    return GT_OK;
oom:
    batch_free(b);
    return gt_fail(e, GT_EFAIL, "out of memory for a batch of %d perturbation runs", cap);
}

int batch_use_float32(gt_batch *b, gt_error *e)
{
    const gt_model *m = b->m;
    const size_t Hm = (size_t)b->Hmax, GHm = (size_t)b->G * Hm, NL = (size_t)b->upto + 1;
    const size_t n = (size_t)b->cap, D0 = (size_t)m->input_dim, D = D0 > Hm ? D0 : Hm;
    if (b->hh32)
        return GT_OK;
    b->interleave = kern()->interleave;
    b->ih32 = calloc(NL, sizeof *b->ih32);
    b->hh32 = calloc(NL, sizeof *b->hh32);
    b->hn32 = calloc(NL, sizeof *b->hn32);
    b->dx = malloc(n * D * sizeof *b->dx);
    b->dy = malloc(n * GHm * sizeof *b->dy);
    b->dyi = malloc(n * GHm * sizeof *b->dyi);
    b->y0 = malloc(GHm * sizeof *b->y0);
    b->y0i = malloc(GHm * sizeof *b->y0i);
    b->dT = malloc(n * (size_t)b->units * sizeof *b->dT);
    b->dn2 = malloc(n * 2 * sizeof *b->dn2);
    b->dT_n = 0;
    if (!b->ih32 || !b->hh32 || !b->hn32 || !b->dx || !b->dy || !b->dyi || !b->y0 || !b->y0i ||
        !b->dT || !b->dn2)
        goto oom;
    for (size_t k = 0; k < NL; k++) {
        const gt_layer *ly = &m->layer[k];
        const size_t H = (size_t)ly->hidden, GH = (size_t)b->G * H;
        const size_t RB = (size_t)m->cell->rec_blocks * H;
        if (b->ih[k].data && mat32_pack(&b->ih32[k], ly->w_ih, GH, (size_t)ly->in_dim))
            goto oom;
        if (mat32_pack(&b->hh32[k], ly->w_hh, RB, H))
            goto oom;
        if (RB < GH && mat32_pack(&b->hn32[k], ly->w_hh + RB * H, GH - RB, H))
            goto oom;
    }
    return GT_OK;
oom:
    return gt_fail(e, GT_EFAIL, "out of memory for a batch of %d perturbation runs", b->cap);
}

int batch_single_float32(gt_batch *b, gt_error *e)
{
    if (b->cap != 1)
        return gt_fail(e, GT_EFAIL, "batch_single_float32: a batch of %d items", b->cap);
    int rc = batch_use_float32(b, e);
    b->single32 = rc == GT_OK;
    return rc;
}

/* Item i's (i >= 1) difference x - x0 in float32, at its place among the n - 1 items'
 * inputs of the float32 product: interleaved (input j of item i at j * (n-1) + i - 1) for
 * the AVX-512 product, item after item otherwise. */
static void put_diff(const gt_batch *b, float *restrict d, size_t n, size_t i, size_t cols,
                     const double *restrict x, const double *restrict x0)
{
    const size_t m = n - 1;
    if (b->interleave) {
        for (size_t j = 0; j < cols; j++)
            d[j * m + i - 1] = (float)(x[j] - x0[j]);
    } else {
        d += (i - 1) * cols;
        for (size_t j = 0; j < cols; j++)
            d[j] = (float)(x[j] - x0[j]);
    }
}

/* Y = A X for the n - 1 items whose differences D holds (put_diff), and y0 = A x0 in
 * double. */
static void diff_product(const gt_batch *b, const gt_mat32 *A, size_t n, const float *D,
                         float *Y, const double *x0, double *y0)
{
    if (b->interleave)
        kern32_gemm_t(A, n - 1, D, Y, A->rows, x0, y0);
    else {
        kern32_gemv64(A, x0, y0);
        kern32_gemm(A, n - 1, D, A->cols, Y, A->rows);
    }
}

void batch_product(gt_batch *b, const gt_mat64 *A, const gt_mat32 *A32, size_t n,
                   const double *X, size_t ldx, const double *bias, double *Y, size_t ldy,
                   int accumulate)
{
    if (n == 1 && b->single32 && A32 && A32->data) {
        kern32_gemv64(A32, X, b->y0);
        for (size_t r = 0; r < A->rows; r++)
            Y[r] = (accumulate ? Y[r] : bias ? bias[r] : 0.0) + b->y0[r];
        return;
    }
    if (!b->hh32 || !A32 || !A32->data || n < 2) {
        kern64_gemm(A, n, X, ldx, bias, Y, ldy, accumulate);
        return;
    }
    const size_t rows = A->rows, cols = A->cols;
    double *restrict y0 = b->y0;
    for (size_t i = 1; i < n; i++)
        put_diff(b, b->dx, n, i, cols, X + i * ldx, X);
    diff_product(b, A32, n, b->dx, b->dy, X, y0);
    for (size_t r = 0; r < rows; r++)
        y0[r] += accumulate ? 0.0 : bias ? bias[r] : 0.0;
    for (size_t i = 0; i < n; i++) {
        double *restrict y = Y + i * ldy;
        if (accumulate) {
            for (size_t r = 0; r < rows; r++)
                y[r] += y0[r];
        } else {
            for (size_t r = 0; r < rows; r++)
                y[r] = y0[r];
        }
        if (i) {
            const float *restrict d = b->dy + (i - 1) * rows;
            for (size_t r = 0; r < rows; r++)
                y[r] += (double)d[r];
        }
    }
}

void batch_set_state(gt_batch *b, int i, const float *h, const float *c)
{
    b->dT_n = 0;
    for (int k = 0; k <= b->upto; k++) {
        const size_t H = batch_width(b, k), off = b->m->layer[k].off;
        double *dh = batch_h(b, k, i), *dc = batch_c(b, k, i);
        for (size_t j = 0; j < H; j++) {
            dh[j] = h ? h[off + j] : 0.0;
            dc[j] = c && b->m->cell->has_c ? c[off + j] : 0.0;
        }
    }
}

void batch_set_state64(gt_batch *b, int i, const double *h, const double *c)
{
    b->dT_n = 0;
    for (int k = 0; k <= b->upto; k++) {
        const size_t H = batch_width(b, k), off = b->m->layer[k].off;
        memcpy(batch_h(b, k, i), h + off, H * sizeof *h);
        if (b->m->cell->has_c)
            memcpy(batch_c(b, k, i), c + off, H * sizeof *c);
    }
}

void batch_get_state64(const gt_batch *b, int i, double *h, double *c)
{
    for (int k = 0; k <= b->upto; k++) {
        const size_t H = batch_width(b, k), off = b->m->layer[k].off;
        memcpy(h + off, batch_h(b, k, i), H * sizeof *h);
        memcpy(c + off, batch_c(b, k, i), H * sizeof *c);
    }
}

/* acc[i] = layer 0's W_ih x + b_ih for the tokens. */
static void input_part(gt_batch *b, size_t n, const uint16_t *tok)
{
    const gt_model *m = b->m;
    const size_t GH = (size_t)b->G * batch_width(b, 0), D0 = (size_t)m->input_dim;
    if (b->xtab) {
        for (size_t i = 0; i < n; i++)
            memcpy(b->acc + i * GH, b->xtab + (size_t)tok[i] * GH, GH * sizeof *b->acc);
    } else if (m->has_embedding) {
        for (size_t i = 0; i < n; i++)
            for (size_t j = 0; j < D0; j++)
                b->xin[i * D0 + j] = m->emb[(size_t)tok[i] * D0 + j];
        kern64_gemm(&b->ih[0], n, b->xin, D0, b->b_ih, b->acc, GH, 0);
    } else {
        const gt_layer *l0 = &m->layer[0];
        for (size_t i = 0; i < n; i++)
            for (size_t r = 0; r < GH; r++)
                b->acc[i * GH + r] = (double)l0->b_ih[r] + l0->w_ih[r * D0 + tok[i]];
    }
}

/* Layer k of n items when its cell's batch step is not its own: W_hh h summed into the
 * input part, then each item's cell with b_hh. */
static void summed_cells(gt_batch *b, int k, size_t n)
{
    const gt_model *m = b->m;
    const size_t H = batch_width(b, k), GH = (size_t)b->G * H;
    const double *bh = b->b_hh + (size_t)b->G * m->layer[k].off;
    batch_product(b, &b->hh[k], b->hh32 ? &b->hh32[k] : NULL, n, batch_h(b, k, 0), H, NULL,
                  b->acc, GH, 1);
    for (size_t i = 0; i < n; i++) {
        const kern64_pre p = {.a = b->acc + i * GH, .y = bh};
        m->cell->cell64(m, H, &p, batch_gates(b, k, (int)i), b->tmp, batch_c(b, k, (int)i),
                        batch_h(b, k, (int)i));
    }
}

/* The float32 path of batch_use_float32 for n >= 2 items (a cell whose diff_steps says
 * so: an LSTM, a GRU with the reset after W_hn, a plain RNN): each layer's inputs and state
 * enter the products as the items' differences from item 0, kept in float32 in the products' layout (dT) from the step that computed them;
 * item 0's products in double in the same pass over the weights; then each item's cell
 * in one pass: its pre-activations, nonlinearities, new state, its new difference for the
 * next products and, on the last layer, the squared norms of its differences. */
/* Item i's ablated units of layer k, if any, set to 0. */
static void ablate(gt_batch *b, int k, size_t i)
{
    if (!b->ablate_unit || k != b->ablate_layer)
        return;
    const int *u = b->ablate_unit + i * (size_t)b->ablate_n;
    double *c = batch_c(b, k, (int)i), *h = batch_h(b, k, (int)i);
    for (int x = 0; x < b->ablate_n; x++)
        if (u[x] >= 0) {
            c[u[x]] = 0;
            h[u[x]] = 0;
        }
}

static float *diffs(const gt_batch *b, int k)
{
    return b->dT + (size_t)b->cap * b->m->layer[k].off;
}

static void cell_diffs(gt_batch *b, int k, size_t n, size_t i)
{
    const size_t H = batch_width(b, k);
    const double *restrict h = batch_h(b, k, (int)i), *restrict h0 = batch_h(b, k, 0);
    put_diff(b, diffs(b, k), n, i, H, h, h0);
    if (k != b->upto)
        return;
    const double *restrict c = batch_c(b, k, (int)i), *restrict c0 = batch_c(b, k, 0);
    double sc = 0, sh = 0;
    for (size_t j = 0; j < H; j++) {
        sc += (c[j] - c0[j]) * (c[j] - c0[j]);
        sh += (h[j] - h0[j]) * (h[j] - h0[j]);
    }
    b->dn2[2 * i] = sc;
    b->dn2[2 * i + 1] = sh;
}

static void step_diffs(gt_batch *b, size_t n, const uint16_t *tok)
{
    const gt_model *m = b->m;
    if (b->dT_n != (int)n) /* the differences of the state set */
        for (int k = 0; k <= b->upto; k++)
            for (size_t i = 1; i < n; i++)
                put_diff(b, diffs(b, k), n, i, batch_width(b, k), batch_h(b, k, (int)i),
                         batch_h(b, k, 0));
    b->dT_n = (int)n;
    for (int k = 0; k <= b->upto; k++) {
        const size_t H = batch_width(b, k), GH = (size_t)b->G * H;
        const size_t GO = (size_t)b->G * m->layer[k].off; /* its biases */
        /* the input part: in (+ din for item i >= 1), double; the recurrent part: y0 + dy */
        const double *in = b->acc;
        size_t ldin = GH;
        const float *din = NULL;
        if (k == 0 && b->xtab) {
            in = NULL; /* item i's row of the table */
        } else if (k == 0) {
            input_part(b, n, tok);
        } else {
            diff_product(b, &b->ih32[k], n, diffs(b, k - 1), b->dyi, batch_h(b, k - 1, 0),
                         b->y0i);
            const double *bi = b->b_ih + GO;
            for (size_t r = 0; r < GH; r++)
                b->y0i[r] += bi[r];
            in = b->y0i;
            ldin = 0;
            din = b->dyi;
        }
        diff_product(b, &b->hh32[k], n, diffs(b, k), b->dy, batch_h(b, k, 0), b->y0);
        const double *bh = b->b_hh + GO;
        for (size_t r = 0; r < GH; r++)
            b->y0[r] += bh[r];
        for (size_t i = 0; i < n; i++) {
            const double *a = in ? in + i * ldin : b->xtab + (size_t)tok[i] * GH;
            const float *da = din && i ? din + (i - 1) * GH : NULL;
            const float *dy = i ? b->dy + (i - 1) * GH : NULL;
            /* item 0's gates where batch_gates says; the others' are not kept */
            double *g = i ? NULL : batch_gates(b, k, 0);
            const kern64_pre p = {.a = a, .da = da, .y = b->y0, .dy = dy};
            m->cell->cell64(m, H, &p, g, b->tmp, batch_c(b, k, (int)i), batch_h(b, k, (int)i));
            ablate(b, k, i);
            if (i)
                cell_diffs(b, k, n, i);
        }
    }
}

int batch_diff_norms(const gt_batch *b)
{
    return b->dT_n > 0;
}

void batch_step(gt_batch *b, int n, const uint16_t *tok)
{
    const size_t nn = (size_t)n;
    if (b->hh32 && n >= 2 && b->m->cell->diff_steps) {
        step_diffs(b, nn, tok);
        return;
    }
    if (b->hh32)
        b->dT_n = 0;
    for (int k = 0; k <= b->upto; k++) {
        if (k == 0)
            input_part(b, nn, tok);
        else /* the layer below's h, H_(k-1) apart */
            batch_product(b, &b->ih[k], b->ih32 ? &b->ih32[k] : NULL, nn, batch_h(b, k - 1, 0),
                          batch_width(b, k - 1), b->b_ih + (size_t)b->G * b->m->layer[k].off,
                          b->acc, (size_t)b->G * batch_width(b, k), 0);
        if (b->m->cell->batch_layer)
            b->m->cell->batch_layer(b, k, nn);
        else
            summed_cells(b, k, nn);
        for (size_t i = 0; i < nn; i++)
            ablate(b, k, i);
    }
}

int batch_use_readout(gt_batch *b, gt_error *e)
{
    const gt_model *m = b->m;
    const size_t V = (size_t)m->vocab, H = batch_width(b, b->upto);
    if (!m->has_readout || b->upto != m->layers - 1)
        return gt_fail(e, GT_EINPUT, "batch: no readout after layer %d", b->upto);
    if (b->out64)
        return GT_OK;
    b->out64 = calloc(1, sizeof *b->out64);
    b->out32 = calloc(1, sizeof *b->out32);
    b->out_b = malloc(V * sizeof *b->out_b);
    b->y0o = malloc(V * sizeof *b->y0o);
    b->dyo = malloc((size_t)b->cap * V * sizeof *b->dyo);
    if (!b->out64 || !b->out32 || !b->out_b || !b->y0o || !b->dyo ||
        mat64_pack(b->out64, m->out_w, V, H) || mat32_pack(b->out32, m->out_w, V, H))
        return gt_fail(e, GT_EFAIL, "out of memory for a batch's readout");
    for (size_t v = 0; v < V; v++)
        b->out_b[v] = m->out_b[v];
    return GT_OK;
}

void batch_logits(gt_batch *b, int n, double *logits)
{
    const size_t V = (size_t)b->m->vocab, nn = (size_t)n;
    if (!batch_diff_norms(b) || n < 2) {
        kern64_gemm(b->out64, nn, batch_h(b, b->upto, 0), batch_width(b, b->upto), b->out_b,
                    logits, V, 0);
        return;
    }
    diff_product(b, b->out32, nn, diffs(b, b->upto), b->dyo, batch_h(b, b->upto, 0), b->y0o);
    for (size_t v = 0; v < V; v++)
        b->y0o[v] += b->out_b[v];
    memcpy(logits, b->y0o, V * sizeof *logits);
    for (size_t i = 1; i < nn; i++) {
        double *restrict y = logits + i * V;
        const float *restrict d = b->dyo + (i - 1) * V;
        for (size_t v = 0; v < V; v++)
            y[v] = b->y0o[v] + (double)d[v];
    }
}
