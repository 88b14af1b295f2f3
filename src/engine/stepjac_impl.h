/* Inside a step's derivative: what stepjac.c and the cells' derivatives (their descriptors'
 * sj_ hooks, src/engine/cell_NAME.c) share. */
#ifndef GATETUI_ENGINE_STEPJAC_IMPL_H
#define GATETUI_ENGINE_STEPJAC_IMPL_H

#include "gatetui/stepjac.h"

struct gt_stepjac {
    const gt_model *m;
    int layer, H, D;
    int with_input;     /* M has the input's D columns */
    int rows, cols;     /* 2H (a cell state) or H; H or H + D */
    const unsigned char *ablated; /* [H] the layer's ablated units (m->ablated), or NULL */
    /* weights the cell's derivative reads packed (a GRU's) */
    struct gt_mat64 *whn; /* GRU, reset after: W_hn (hn = W_hn h + b_hn) */
    struct gt_mat64 *wrT; /* GRU, reset before: [W_hr | W_ir]^T */
    double *b_hn;         /* [H] */
};

#endif
