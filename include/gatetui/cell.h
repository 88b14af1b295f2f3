/* A cell type as one descriptor (doc/architecture.md, "Cells and widths"): what it is
 * called, its gate blocks, its carry gate, its state, its signals, and its steps. A model
 * points at its cell's descriptor (gt_model.cell); the code that steps, measures or shows
 * a model asks it rather than testing which cell it is. Each cell's descriptor is in a
 * file of its own, src/engine/cell_NAME.c, with the parts of its steps that are its own;
 * the arithmetic they share (the nonlinearities, the products) is the compute layer's. */
#ifndef GATETUI_CELL_H
#define GATETUI_CELL_H

#include <stddef.h>

struct gt_batch;
struct gt_error;
struct gt_layer;
struct gt_model;
struct gt_model_options;
struct gt_pool;
struct gt_step_point;
struct gt_stepjac;
struct gt_stepjac_work;
struct kern64_pre;

/* Gate blocks, in PyTorch's row order. */
enum { GT_I = 0, GT_F = 1, GT_G = 2, GT_O = 3 }; /* LSTM */
enum { GT_R = 0, GT_Z = 1, GT_N = 2 };           /* GRU */
enum { GT_A = 0 }; /* RNN: its one block is the pre-activation a, h = tanh(a) or relu(a) */

/* One of a cell's signals: its gate blocks in PyTorch's row order, then c when it has a
 * cell state, then h. */
typedef struct gt_cell_signal {
    const char *name;  /* "i", "f", "g", "o", "c", "h" */
    const char *title; /* "input gate i", ... (the finding modes' text) */
    const char *column; /* a gate's column title on the screen ("input i"), NULL for c, h */
    float lo, hi;      /* the values' range: 0..1 a sigmoid's, -1..1 a tanh's; lo > hi: none */
    int tanh_shown;    /* unbounded, and coloured by tanh of the value (c, an RNN's a) */
} gt_cell_signal;

typedef struct gt_celltype {
    const char *name;  /* "lstm", "gru", "rnn": model_arch_name, the JSON's "arch" */
    const char *kind;  /* "LSTM", "GRU", "RNN": the cell in messages */
    const char *noun;  /* "LSTM", "GRU", "plain RNN": "a %s has no carry gate" */
    const char *module; /* "nn.LSTM", "nn.GRU", "nn.RNN": PyTorch's, in messages */
    int gates;         /* G: the gate blocks of H rows of W_ih and W_hh */
    int carry;         /* the carry gate's block (f, z: what multiplies the carried state
                          elementwise from one step to the next), -1: none */
    const char *carry_word; /* "forget", "update"; NULL without a carry gate */
    int candidate;     /* the candidate's block (g, n), or a plain RNN's pre-activation a:
                          zeroed, its unit stays 0 (an ablation) */
    int nsigmoid;      /* the gates proper, the sigmoids, the carry gate second */
    int sigmoid[3];
    int has_c;         /* 1: a cell state c beside h, the state an edit is carried by */
    int state;         /* the state's numbers per unit: 2 (c, h) or 1 (h) */
    const char *carried; /* the carried state's name: "c" or "h" */
    int nsignals;      /* G + has_c + 1 */
    const gt_cell_signal *signal; /* [nsignals] */
    const char *signal_list;      /* "i, f, g, o, c, h" */
    int beside_h;      /* the signal in the column beside h: c, n (GRU), a (RNN) */
    const int *heat_order;    /* [nsignals]: the order c steps the strip's colouring by */
    const int *history_order; /* [nsignals]: the unit panel's histories, the first kept */
    /* the cell as the header names it, when the model says more than kind (a plain RNN's
       nonlinearity), or NULL */
    const char *(*kind_of)(const struct gt_model *m);
    /* what the file's metadata and the options say of the cell's own (a GRU's reset, a
       plain RNN's nonlinearity), once the layers are loaded; may set m->cell to a variant
       of the same cell; GT_EINPUT when the metadata is not understood. NULL: nothing */
    int (*options)(struct gt_model *m, const struct gt_model_options *opt,
                   struct gt_error *e);

    /* ---- the steps, for the engine and the measures (every hook runs per layer, per
       item or per tangent, never per unit) ---- */
    int rec_blocks;    /* the blocks of W_hh in the step's product with h (a GRU with the
                          reset before W_hn: 2, its n rows then multiply r h apart) */
    int diff_steps;    /* 1: a batch's float32 products of the items' differences apply
                          (batch_use_float32); 0: its items are stepped in double */
    int keeps_hn;      /* 1: a double step keeps W_hn h + b_hn beside the gates (batch_hn) */
    /* One float32 step of layer ly of H units (src/engine/run.c): xp its input part
       W_ih x + b_ih ([G H]), h and c its state (c a cell state's), gates its gates after
       the step, scratch room for G H + H floats; pool shares the products (NULL: one
       thread), back their direction (kern_gemv_dir). Returns the first row of the
       pre-activations whose float32 value overflowed (looked for before the nonlinearities,
       which would clamp it: kern_overflow_at), or G H. */
    size_t (*step32)(const struct gt_model *m, const struct gt_layer *ly, size_t H,
                   struct gt_pool *pool, int back, const float *xp, float *h, float *c,
                   float *gates, float *scratch);
    /* One item's double step from its pre-activations p (compute/kernels.h): gates g
       (NULL: not kept), t room for G H doubles, c and h the state; NULL for a cell whose
       batch step is its own (batch_layer) */
    void (*cell64)(const struct gt_model *m, size_t H, const struct kern64_pre *p, double *g,
                   double *t, double *c, double *h);
    /* Layer k of a batch's n items in double (src/engine/batch.c), the input part in b->acc;
       NULL: W_hh h summed into it, then cell64 item by item with b_hh */
    void (*batch_layer)(struct gt_batch *b, int k, size_t n);

    /* ---- the step's derivative (gatetui/stepjac.h) ---- */
    int sj_f, sj_u;    /* a cell state's: where f and u are among the coefficients (of H
                          values each), -1 otherwise */
    unsigned sj_own;   /* bit b set: coefficient b scales unit j's own rows alone (row j of
                          M, and of f and u), so that with each such one 0 at j every row of
                          unit j is 0 in every product (an ablated unit's: stepjac.c) */
    /* packs what the rows read into s (NULL: nothing); -1 when out of memory */
    int (*sj_init)(struct gt_stepjac *s, const struct gt_layer *ly);
    /* the step's coefficients into w->v from the reference run's point pt */
    void (*sj_prepare)(const struct gt_stepjac *s, struct gt_stepjac_work *w,
                       const struct gt_step_point *pt);
    /* M's rows r0..r1-1 made ready (a second product, rec_blocks < gates), or NULL */
    void (*sj_rows)(const struct gt_stepjac *s, struct gt_stepjac_work *w, int r0, int r1);
    /* row r of M into row[0..s->cols) */
    void (*sj_row)(const struct gt_stepjac *s, const struct gt_stepjac_work *w, int r,
                   double *row);
    /* One tangent through the weights (few tangents, src/analysis/tangent.c), from the
       coefficients v: P = W_hh dh (its first rec_blocks blocks), Q = W_ih dx ([G H]),
       PN = W_hn R with R from tangent_mid when rec_blocks < gates; dc_in, dh_in the tangent
       before the step, dc, dh after (the same arrays, or others) */
    void (*tangent_one)(size_t H, const double *v, const double *P, const double *Q,
                        const double *PN, const double *dc_in, const double *dh_in, double *dc,
                        double *dh);
    /* rec_blocks < gates: what the second product multiplies, R ([H]), for one tangent */
    void (*tangent_mid)(size_t H, const double *v, const double *P, const double *Q,
                        const double *dh, double *R);
} gt_celltype;

/* The cells gatetui computes, in the order of their gate counts' search (model.c). */
extern const gt_celltype gt_cell_lstm, gt_cell_gru, gt_cell_gru_before, gt_cell_rnn;

#endif
