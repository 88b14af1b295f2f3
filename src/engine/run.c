/* One step of an LSTM, GRU or plain RNN layer stack: layer 0's input part, the products
 * of the layers above, then each layer's cell step (its descriptor's, gatetui/cell.h;
 * compute/cell.c; doc/measures.md, "The cells"). */
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
    /* every layer's units; the scratch: one layer's input part and its cell's room */
    size_t H = (size_t)m->hidden_max, GH = (size_t)m->gates * H, T = (size_t)m->hidden_total;
    r->h = calloc(T, sizeof *r->h);
    r->c = calloc(T, sizeof *r->c);
    r->gates = calloc(T * (size_t)m->gates, sizeof *r->gates);
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
    size_t LH = (size_t)m->hidden_total;
    memset(r->h, 0, LH * sizeof *r->h);
    memset(r->c, 0, LH * sizeof *r->c);
    memset(r->gates, 0, LH * m->gates * sizeof *r->gates);
    r->overflowed = 0;
}

/* Layer 0's input part W_ih x + b_ih for token tok, in xp (or a pointer to the table). */
static const float *input_part(const gt_model *m, int tok, float *xp)
{
    size_t GH = (size_t)m->gates * (size_t)m->layer[0].hidden, D = (size_t)m->input_dim;
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

void run_step_layers(gt_run *r, int token, int upto)
{
    const gt_model *m = r->m;
    /* then the cell's room: G H + H, of the widest layer */
    float *xbuf = r->scratch, *gh = xbuf + (size_t)m->gates * (size_t)m->hidden_max;
    const int back = r->backward; /* the products' direction alternates (kern_gemv_dir) */
    for (int k = 0; k <= upto && k < m->layers; k++) {
        const gt_layer *ly = &m->layer[k];
        const size_t H = (size_t)ly->hidden, GH = (size_t)m->gates * H;
        const float *xp;
        if (k == 0) {
            xp = input_part(m, token, xbuf);
        } else {
            pool_gemv(r->pool, GH, (size_t)ly->in_dim, ly->w_ih, run_h(r, k - 1), ly->b_ih, xbuf,
                      back);
            xp = xbuf;
        }
        const size_t bad = m->cell->step32(m, ly, H, r->pool, back, xp, run_h(r, k),
                                           run_c(r, k), run_gates(r, k), gh);
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
    for (int k = 0; m->rnn_relu && k <= upto && k < m->layers; k++) { /* a relu is unbounded */
        const size_t H = (size_t)m->layer[k].hidden, j = kern_overflow_at(run_h(r, k), NULL, H);
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
    return kern_overflow_at(p, NULL, (size_t)m->vocab) == (size_t)m->vocab;
}

void run_step(gt_run *r, int token)
{
    run_step_layers(r, token, r->m->layers - 1);
}

void run_probs(const gt_run *r, float *p)
{
    const gt_model *m = r->m;
    size_t V = (size_t)m->vocab;
    kern_gemv(V, (size_t)m->layer[m->layers - 1].hidden, m->out_w, run_h(r, m->layers - 1),
              m->out_b, p);
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
