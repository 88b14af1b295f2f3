/* One layer's steps in double precision with the whole Jacobian of each (dynamics.c), for
 * the Lyapunov spectrum and the eigenvalues at a step. */
#ifndef GATETUI_ANALYSIS_DYNRUN_H
#define GATETUI_ANALYSIS_DYNRUN_H

#include <stdint.h>

#include "compute/kernels64.h"
#include "gatetui/batch.h"
#include "gatetui/error.h"
#include "gatetui/model.h"
#include "gatetui/tangent.h"

typedef struct dynrun {
    const gt_model *m;
    int layer, H, n;    /* n: the state's size */
    gt_batch b;         /* layers 0..layer, from the zero state */
    gt_stepjac *sj;
    gt_stepjac_work w;
    double *J;          /* [n * n] row-major: the last step's ds'/ds */
    double *prev;       /* [2H] h and c before the step */
    /* for the Lyapunov spectrum's products: a cell state's W_hh in double, and its products
       with the tangents */
    gt_mat64 whh;       /* packed for kern64_gemm */
    double *P;          /* [M * G H] */
    double *Z;          /* [G H] zeros: the layer's input is fixed */
    size_t M;
} dynrun;

int dynrun_open(dynrun *d, const gt_model *m, int layer, gt_error *e);
void dynrun_close(dynrun *d);
/* One step reading tok; with jacobian, its J into d->J. */
void dynrun_step(dynrun *d, uint16_t tok, int jacobian);
/* The carry line of the last step into out ([H]: f, or z; 0 for an ablated unit, whose
 * rows of J are 0; NAN for a plain RNN, which has no carry gate). */
void dynrun_carry(const dynrun *d, double *out);
/* qsort's order of doubles, largest first, NaN last. */
int dyn_cmp_desc(const void *a, const void *b);

#endif
