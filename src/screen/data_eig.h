/* The derivative view's eigenvalues (doc/screen.md, "The derivative against the carry
 * line"): the moduli of the eigenvalues of the whole state's step Jacobian at the cursor's
 * step T (dynamics.h), against the carry gates at T sorted. A 512 x 512 eigenvalue problem
 * takes a good part of a second, so it is computed by a child process (bgjob.h) from the
 * state before T as edited; moving on ends it and starts the next. */
#ifndef GATETUI_DATA_EIG_H
#define GATETUI_DATA_EIG_H

#include <stddef.h>

#include "gatetui/error.h"
#include "gatetui/model.h"
#include "gatetui/trace.h"
#include "screen/bgjob.h"

typedef struct gt_data_eig {
    int valid;          /* abs and carry hold step's and layer's */
    size_t step;
    int layer;
    int n, H;           /* the state's size; the carry gates' number */
    double *abs;        /* [n] the moduli, largest first */
    double *carry;      /* [H] the carry gates, largest first */
    char error[256];    /* why the last computation failed, or "" */
    /* private */
    const gt_model *m;
    float *h0, *c0;     /* [L*H]: the state before the step */
    gt_bgjob job;       /* the computation */
    size_t job_step;
    int job_layer, job_tok;
} gt_data_eig;

int data_eig_init(gt_data_eig *de, const gt_model *m, gt_error *e);
void data_eig_free(gt_data_eig *de);
/* The edits or the model changed: what was computed is dropped, a computation ended. */
void data_eig_invalidate(gt_data_eig *de);
/* Asks for step t of layer: starts computing it unless it is known or on its way (another
 * computation is ended). */
void data_eig_want(gt_data_eig *de, gt_trace *tr, int layer, size_t t);
/* Reads what the child sent; 1 when the view should be redrawn. */
int data_eig_tick(gt_data_eig *de);
/* 1 while a computation runs. */
int data_eig_busy(const gt_data_eig *de);

#endif
