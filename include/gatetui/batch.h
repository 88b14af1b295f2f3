/* A batch of independent streams through layers 0..upto of a model, stepped together in
 * double precision: each step is one matrix-matrix product per weight matrix for the
 * whole batch. The perturbation runs an original text and its edited versions this way. */
#ifndef GATETUI_BATCH_H
#define GATETUI_BATCH_H

#include <stddef.h>
#include <stdint.h>

#include "gatetui/error.h"
#include "gatetui/model.h"

typedef struct gt_batch {
    const gt_model *m;
    int upto;          /* layers 0..upto are stepped */
    int cap;           /* the most items a step takes */
    int Hmax, G;       /* the widest of layers 0..upto, and the gate blocks */
    int units;         /* T: the units of layers 0..upto, H_0 + ... + H_upto */
    double *h, *c;     /* [cap T]: layer k, item i at cap off_k + i H_k (gatetui/model.h) */
    double *gates;     /* [cap G T]: the last step's gates after their nonlinearity, i f g o
                          (LSTM) or r z n (GRU), layer k's item i at G (cap off_k + i H_k) */
    /* private */
    struct gt_mat64 *ih, *hh, *hn; /* per layer: W_ih (none for layer 0 when tabulated),
                                      W_hh (its r and z rows only for a GRU with the reset
                                      before W_hn, whose n rows are then hn) */
    double *b_ih, *b_hh;   /* [G T]: layer k's at G off_k */
    double *xtab;          /* (V, G*H_0): layer 0's W_ih x_v + b_ih, or NULL */
    double *xin, *acc, *tmp, *rh; /* [cap * D_0], [cap * G*Hmax] twice, [cap * Hmax]: one
                                     layer's, items G H_k (or H_k) apart */
    struct gt_mat32 *ih32, *hh32, *hn32; /* float32 copies (batch_use_float32), or NULL */
    float *dx, *dy, *dyi;  /* [cap * max(D, Hmax)], [cap * G*Hmax] twice */
    double *y0, *y0i;      /* [G*Hmax] twice */
    int interleave;        /* dx holds the items interleaved (kern32_gemm_t) */
    int single32;          /* one item's products from the float32 weights (batch_single_float32) */
    float *dT;             /* [cap T]: per layer (at cap off_k), items 1..n-1's h - item 0's h
                              in float32, laid out as the products read them */
    int dT_n;              /* the n of the step that left dT, 0 when it is not valid */
    double *dn2;           /* [cap * 2]: |c_i - c_0|^2, |h_i - h_0|^2 of layer upto */
    /* Ablation per item (the importance, the effect's sets): item i's units
     * ablate_unit[i * ablate_n .. i * ablate_n + ablate_n - 1] of layer ablate_layer (an
     * entry -1: none) have their c and h set to 0 after every step. ablate_unit NULL (the
     * default): none; ablate_n is 1 unless the caller sets it. */
    int ablate_layer, ablate_n;
    const int *ablate_unit;
    /* the readout (batch_use_readout), or NULL */
    struct gt_mat64 *out64;
    struct gt_mat32 *out32;
    double *out_b, *y0o;   /* [V] twice */
    float *dyo;            /* [cap * V] */
} gt_batch;

int batch_init(gt_batch *b, const gt_model *m, int upto, int cap, gt_error *e);
void batch_free(gt_batch *b);

/* From now on each product of item i > 0 is taken as item 0's product (in double) plus
 * the float32 product of the difference between the two items' inputs: W x_i =
 * W x_0 + W (x_i - x_0). Made for a batch whose item 0 is an original text and the others
 * its edits, whose differences are what is measured: float32's relative error (about 1e-6
 * after a product over H inputs) then applies to each difference rather than to the state,
 * and the product runs at float32 speed. Everything else stays double. */
int batch_use_float32(gt_batch *b, gt_error *e);
/* For a batch of one item: its products read the model's float32 weights (half the bytes
 * of their double copies) and sum in double (kern32_gemv64), the same products up to the
 * order of their sums. */
int batch_single_float32(gt_batch *b, gt_error *e);

/* After a step of n >= 2 items in the float32 mode of batch_use_float32 (an LSTM, or a GRU
 * with the reset after W_hn): 1, and b->dn2[2i], b->dn2[2i + 1] hold |c_i - c_0|^2 and
 * |h_i - h_0|^2 on layer upto for items i >= 1; in that mode only item 0's gates are kept
 * (batch_gates of item 0). 0 otherwise. */
int batch_diff_norms(const gt_batch *b);

/* Makes batch_logits possible (a model with a readout and upto its top layer). */
int batch_use_readout(gt_batch *b, gt_error *e);

/* The readout's logits W_out h + b_out of the top layer's h for items 0..n-1, into
 * logits[i*V + v], after a step: in double, or with batch_use_float32 item 0 in double and
 * the others through the float32 product of their difference from it. */
void batch_logits(gt_batch *b, int n, double *logits);

/* Item i's state, from float arrays of every layer ([hidden_total], layer by layer, as gt_run
 * keeps them); NULL for the zero state. c is ignored for a GRU. */
void batch_set_state(gt_batch *b, int i, const float *h, const float *c);

/* Item i's state from double arrays of layers 0..upto (as gt_run lays them out: layer k's
 * H_k units at its offset among hidden_total), and
 * back: the runs that continue from a state computed elsewhere (the carriers' patches).
 * c is ignored for a GRU or an RNN. */
void batch_set_state64(gt_batch *b, int i, const double *h, const double *c);
void batch_get_state64(const gt_batch *b, int i, double *h, double *c);

/* One step: item i (i < n <= cap) reads token tok[i]. */
void batch_step(gt_batch *b, int n, const uint16_t *tok);

/* Layer k's width H_k, and item i's h, c and gates on it. */
static inline size_t batch_width(const gt_batch *b, int k)
{
    return (size_t)b->m->layer[k].hidden;
}
static inline size_t batch_at(const gt_batch *b, int k, int i)
{
    return (size_t)b->cap * b->m->layer[k].off + (size_t)i * batch_width(b, k);
}
static inline double *batch_h(const gt_batch *b, int k, int i)
{
    return b->h + batch_at(b, k, i);
}
static inline double *batch_c(const gt_batch *b, int k, int i)
{
    return b->c + batch_at(b, k, i);
}
static inline double *batch_gates(const gt_batch *b, int k, int i)
{
    return b->gates + (size_t)b->G * batch_at(b, k, i);
}
/* After a step in double of a cell that keeps it (gatetui/cell.h: a GRU with the reset
 * after W_hn; not batch_use_float32's steps of several items): item 0's W_hn h + b_hn of the
 * batch's last layer (upto) only, h the state before the step; NULL for any other cell. */
static inline const double *batch_hn(const gt_batch *b)
{
    return b->m->cell->keeps_hn && (!b->hh32 || b->single32)
               ? b->tmp + (size_t)b->m->cell->candidate * batch_width(b, b->upto)
               : NULL;
}

#endif
