/* One step of an LSTM, GRU or plain RNN layer stack: the products, then the cells (compute/cell.c;
 * doc/measures.md, "The cells"). */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "compute/kernels.h"
#include "compute/pool.h"
#include "gatetui/run.h"

int run_init(gt_run *r, const gt_model *m, gt_error *e)
{
    memset(r, 0, sizeof *r);
    r->m = m;
    size_t H = (size_t)m->hidden, GH = (size_t)m->gates * H, L = (size_t)m->layers;
    r->h = calloc(L * H, sizeof *r->h);
    r->c = calloc(L * H, sizeof *r->c);
    r->gates = calloc(L * GH, sizeof *r->gates);
    r->scratch = calloc(2 * GH + H + (size_t)m->input_dim, sizeof *r->scratch);
    if (!r->h || !r->c || !r->gates || !r->scratch) {
        run_free(r);
        return gt_fail(e, GT_EFAIL, "out of memory for a model state");
    }
    return GT_OK;
}

void run_set_threads(gt_run *r, int n)
{
    pool_stop(r->pool);
    r->pool = pool_start(n);
}

void run_free(gt_run *r)
{
    pool_stop(r->pool);
    free(r->h);
    free(r->c);
    free(r->gates);
    free(r->scratch);
    memset(r, 0, sizeof *r);
}

void run_reset(gt_run *r)
{
    const gt_model *m = r->m;
    size_t LH = (size_t)m->layers * m->hidden;
    memset(r->h, 0, LH * sizeof *r->h);
    memset(r->c, 0, LH * sizeof *r->c);
    memset(r->gates, 0, LH * m->gates * sizeof *r->gates);
    r->overflowed = 0;
}

/* Layer 0's input part W_ih x + b_ih for token tok, in xp (or a pointer to the table). */
static const float *input_part(const gt_model *m, int tok, float *xp)
{
    size_t GH = (size_t)m->gates * m->hidden, D = (size_t)m->input_dim;
    if (m->x_table)
        return m->x_table + (size_t)tok * GH;
    const gt_layer *l0 = &m->layer[0];
    if (m->has_embedding) {
        kern_gemv(GH, D, l0->w_ih, m->emb + (size_t)tok * D, l0->b_ih, xp);
    } else {
        for (size_t r = 0; r < GH; r++)
            xp[r] = l0->w_ih[r * D + (size_t)tok] + l0->b_ih[r];
    }
    return xp;
}

/* The first i < n where x[i] + y[i] (y NULL: x[i]) is not finite in float32 (a product or
 * a sum that overflowed), or n. The cells' vector nonlinearities clamp such a value into
 * range, so it is looked for before them. */
static size_t overflow_at(const float *x, const float *y, size_t n)
{
    unsigned bad = 0;
    for (size_t i = 0; i < n; i++) {
        const float s = y ? x[i] + y[i] : x[i];
        uint32_t u;
        memcpy(&u, &s, sizeof u);
        bad |= (u & 0x7f800000u) == 0x7f800000u;
    }
    if (!bad)
        return n;
    size_t i = 0;
    while (i < n && isfinite(y ? x[i] + y[i] : x[i]))
        i++;
    return i;
}

/* Each layer's step; the first row of its pre-activations that overflowed, or G*H. */
static size_t lstm_layer(gt_pool *pool, int back, const gt_layer *ly, size_t H,
                         const float *xp, float *h, float *c, float *a)
{
    pool_gemv(pool, 4 * H, H, ly->w_hh, h, ly->b_hh, a, back);
    size_t bad = overflow_at(xp, a, 4 * H);
    kern_lstm(H, xp, a, c, h);
    return bad;
}

static size_t gru_layer(gt_pool *pool, int back, const gt_layer *ly, size_t H, int reset_before,
                        const float *xp, float *h, float *gates, float *gh, float *rh)
{
    pool_gemv(pool, reset_before ? 2 * H : 3 * H, H, ly->w_hh, h, ly->b_hh, gh, back);
    kern_gru_gates(H, xp, gh, gates);
    if (reset_before) { /* the candidate's product reads r h */
        for (size_t j = 0; j < H; j++)
            rh[j] = gates[j] * h[j];
        pool_gemv(pool, H, H, ly->w_hh + 2 * H * H, rh, ly->b_hh + 2 * H, gh + 2 * H, back);
    }
    size_t bad = overflow_at(xp, gh, 2 * H); /* r and z; then n's two parts apart */
    if (bad == 2 * H && (bad = 2 * H + overflow_at(xp + 2 * H, NULL, H)) == 3 * H)
        bad = 2 * H + overflow_at(gh + 2 * H, NULL, H);
    kern_gru_state(H, xp, gh, reset_before, gates, h);
    return bad;
}

static size_t rnn_layer(gt_pool *pool, int back, const gt_layer *ly, size_t H, int relu,
                        const float *xp, float *h, float *a)
{
    pool_gemv(pool, H, H, ly->w_hh, h, ly->b_hh, a, back);
    size_t bad = overflow_at(xp, a, H);
    kern_rnn(H, relu, xp, a, h);
    return bad;
}

void run_step_layers(gt_run *r, int token, int upto)
{
    const gt_model *m = r->m;
    size_t H = (size_t)m->hidden, GH = (size_t)m->gates * H;
    float *xbuf = r->scratch, *gh = xbuf + GH, *rh = gh + GH;
    const int back = r->backward; /* the products' direction alternates (kern_gemv_dir) */
    for (int k = 0; k <= upto && k < m->layers; k++) {
        const gt_layer *ly = &m->layer[k];
        const float *xp;
        if (k == 0) {
            xp = input_part(m, token, xbuf);
        } else {
            pool_gemv(r->pool, GH, H, ly->w_ih, run_h(r, k - 1), ly->b_ih, xbuf, back);
            xp = xbuf;
        }
        size_t bad;
        if (m->arch == GT_LSTM)
            bad = lstm_layer(r->pool, back, ly, H, xp, run_h(r, k), run_c(r, k), run_gates(r, k));
        else if (m->arch == GT_RNN)
            bad = rnn_layer(r->pool, back, ly, H, m->rnn_relu, xp, run_h(r, k), run_gates(r, k));
        else
            bad = gru_layer(r->pool, back, ly, H, m->gru_reset_before, xp, run_h(r, k),
                            run_gates(r, k), gh, rh);
        if (bad < GH && !r->overflowed) {
            r->overflowed = 1;
            r->overflow_layer = k;
            r->overflow_unit = bad % H;
        }
    }
    r->backward = !back;
}

int run_check_finite(const gt_run *r, int upto, size_t step, gt_error *e)
{
    const gt_model *m = r->m;
    const size_t H = (size_t)m->hidden;
    for (int k = 0; m->arch == GT_RNN && m->rnn_relu && k <= upto && k < m->layers; k++) {
        const size_t j = overflow_at(run_h(r, k), NULL, H);
        if (j < H)
            return gt_fail(e, GT_EINPUT, "%s: the relu RNN's h overflowed float32 at step "
                           "%zu (layer %d, unit %zu): relu is unbounded, and there are no "
                           "numbers past that step", m->path, step, k, j);
    }
    if (r->overflowed && r->overflow_layer <= upto)
        return run_state_overflow(m, step, r->overflow_layer, r->overflow_unit, e);
    return GT_OK;
}

int run_state_overflow(const gt_model *m, size_t step, int layer, size_t unit, gt_error *e)
{
    return gt_fail(e, GT_EINPUT, "%s: the model's state overflows float32 at step %zu (layer "
                   "%d, unit %zu): its weights are too large for its products, and there are "
                   "no numbers past that step", m->path, step, layer, unit);
}

int run_readout_overflow(const gt_model *m, size_t step, gt_error *e)
{
    return gt_fail(e, GT_EINPUT, "%s: the model's readout overflows float32 at step %zu (its "
                   "logits pass 3.4e38: weights too large), and there are no probabilities or "
                   "loss past that step", m->path, step);
}

int run_probs_finite(const gt_model *m, const float *p)
{
    return overflow_at(p, NULL, (size_t)m->vocab) == (size_t)m->vocab;
}

void run_step(gt_run *r, int token)
{
    run_step_layers(r, token, r->m->layers - 1);
}

void run_probs(const gt_run *r, float *p)
{
    const gt_model *m = r->m;
    size_t V = (size_t)m->vocab;
    kern_gemv(V, (size_t)m->hidden, m->out_w, run_h(r, m->layers - 1), m->out_b, p);
    float mx = p[0];
    for (size_t v = 1; v < V; v++)
        if (p[v] > mx)
            mx = p[v];
    double sum = 0;
    for (size_t v = 0; v < V; v++) {
        p[v] = expf(p[v] - mx);
        sum += p[v];
    }
    for (size_t v = 0; v < V; v++)
        p[v] = (float)(p[v] / sum);
}
