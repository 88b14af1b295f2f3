/* Stepping a model through tokens: the state of every layer and the gates of the last
 * step, exactly as PyTorch's nn.LSTM / nn.GRU compute them. */
#ifndef GATETUI_RUN_H
#define GATETUI_RUN_H

#include "gatetui/error.h"
#include "gatetui/model.h"

typedef struct gt_run {
    const gt_model *m;
    float *h;       /* [hidden_total] hidden state of each layer after the last step,
                       layer k's H_k at its off_k (gatetui/model.h) */
    float *c;       /* [hidden_total] cell state (a cell state's; zeros otherwise) */
    float *gates;   /* [G hidden_total] the last step's gates after their nonlinearity:
                       i, f, g, o (LSTM) or r, z, n (GRU), layer by layer (layer k's
                       G H_k at G off_k); an RNN's pre-activation a */
    float *scratch; /* private */
    struct gt_pool *pool; /* threads sharing each product, or NULL */
    int backward;   /* private: the direction of the next step's products */
    /* private: a pre-activation overflowed float32 since the last reset, first where */
    int overflowed, overflow_layer;
    size_t overflow_unit;
} gt_run;

int run_init(gt_run *r, const gt_model *m, gt_error *e);
void run_free(gt_run *r);
/* Shares each step's products among n threads (n < 2: the calling thread alone). Worth it
 * for one long stream of a wide model; not when several runs already use every core. */
void run_set_threads(gt_run *r, int n);
/* Back to the zero state of the start of a text. */
void run_reset(gt_run *r);
/* Reads one token (0 <= token < V) through every layer. */
void run_step(gt_run *r, int token);
/* Reads one token through layers 0..upto only (the others keep their state). */
void run_step_layers(gt_run *r, int token, int upto);

/* GT_OK while the state of layers 0..upto is that of finite float32 products, else GT_EINPUT
 * and one line in e saying it overflowed at `step` (where, and why): a relu RNN's h, which
 * is unbounded, or any cell's pre-activation since the last reset (weights too large for
 * float32; the cells' nonlinearities would have clamped it into range unseen). Called after
 * each step, `step` is the first that overflowed. */
int run_check_finite(const gt_run *r, int upto, size_t step, gt_error *e);

/* Next-token probabilities from the top layer's h (the model must have a readout). */
void run_probs(const gt_run *r, float *p /* [V] */);
/* 1 when the V probabilities p are finite; else the readout overflowed float32. */
int run_probs_finite(const gt_model *m, const float *p);
/* GT_EINPUT and the one line saying the state (at unit of layer) or the readout overflowed
 * float32 at `step`. */
int run_state_overflow(const gt_model *m, size_t step, int layer, size_t unit, gt_error *e);
int run_readout_overflow(const gt_model *m, size_t step, gt_error *e);

/* Pointers into the run for layer k (its H_k units). */
static inline float *run_h(const gt_run *r, int k) { return r->h + r->m->layer[k].off; }
static inline float *run_c(const gt_run *r, int k) { return r->c + r->m->layer[k].off; }
static inline float *run_gates(const gt_run *r, int k)
{
    return r->gates + (size_t)r->m->gates * r->m->layer[k].off;
}

#endif
