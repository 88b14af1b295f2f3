/* A cell type as one descriptor (doc/architecture.md, "To add a cell type"): what it is
 * called, its gate blocks, its carry gate, its state, its signals, and its steps. A model
 * points at its cell's descriptor (gt_model.cell); the code that steps, measures or shows
 * a model asks it rather than testing which cell it is. Each cell's descriptor is in a
 * file of its own, src/engine/cell_NAME.c, with the parts of its steps that are its own;
 * the arithmetic they share (the nonlinearities, the products) is the compute layer's. */
#ifndef GATETUI_CELL_H
#define GATETUI_CELL_H

#include <stddef.h>

struct gt_error;
struct gt_model;
struct gt_model_options;

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
} gt_celltype;

/* The cells gatetui computes, in the order of their gate counts' search (model.c). */
extern const gt_celltype gt_cell_lstm, gt_cell_gru, gt_cell_rnn;

#endif
