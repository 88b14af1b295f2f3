/* The exact tangent map of a layer's step (doc/measures.md, "The carry line against the
 * whole derivative"): the derivative of the state after one step with respect to the state
 * before it and the layer's input (the step's M, gatetui/stepjac.h), along a reference run
 * given in double precision, and tangents carried forward by it. */
#ifndef GATETUI_TANGENT_H
#define GATETUI_TANGENT_H

#include <stddef.h>

#include "gatetui/error.h"
#include "gatetui/model.h"
#include "gatetui/stepjac.h"

/* n tangents (d h, d c of layers 0..upto) carried forward along a reference run of those
 * layers, the same tokens read: layer 0's input does not move; layer k > 0's moves with
 * layer k - 1's h. */
typedef struct gt_tangent {
    const gt_model *m;
    int upto, cap, Hmax; /* Hmax: the widest of layers 0..upto (H below: layer k's H_k) */
    double *dh, *dc;    /* [cap T], T = H_0 + ... + H_upto: layer k, tangent x at
                           cap off_k + x H_k (gatetui/model.h) */
    /* private */
    gt_stepjac *sj;     /* [upto+1] */
    gt_stepjac_work w;
    double *M;          /* [2Hmax * 2Hmax] the step's derivative, row-major */
    float *M32;         /* the same in float32 with tangent_use_float32, or NULL */
    struct gt_mat64 *Xp; /* the tangents' [dh; dx] packed as a matrix (cap rows) */
    struct gt_mat32 *Xp32; /* the same in float32 with tangent_use_float32 */
    double *row, *Y;    /* [2Hmax], [2Hmax * cap]: M's row r times tangent x at Y[r * n + x] */
    float *Yf;
    struct gt_mat32 *whh, *whn, *wih; /* [upto+1]: W_hh (a GRU with the reset before W_hn:
                                         its r and z rows, and W_hn), W_ih above layer 0 */
    double *P, *Q, *R;  /* [cap * G*Hmax] twice, [cap * 2Hmax]: one layer's, G H_k (2 H_k)
                           apart */
    double *Z;          /* [G*Hmax] zeros: layer 0's input does not move */
} gt_tangent;

int tangent_init(gt_tangent *t, const gt_model *m, int upto, int cap, gt_error *e);
void tangent_free(gt_tangent *t);
/* From now on the products M [dh; dx] are taken in float32 (M and the tangents rounded,
 * everything else double): their relative error, about 1e-6, is relative to the tangent,
 * which is not a difference of large numbers; several times faster. */
int tangent_use_float32(gt_tangent *t, gt_error *e);

static inline size_t tangent_at(const gt_tangent *t, int k, int x)
{
    return (size_t)t->cap * t->m->layer[k].off + (size_t)x * (size_t)t->m->layer[k].hidden;
}
static inline double *tangent_h(const gt_tangent *t, int k, int x)
{
    return t->dh + tangent_at(t, k, x);
}
static inline double *tangent_c(const gt_tangent *t, int k, int x)
{
    return t->dc + tangent_at(t, k, x);
}

/* Carries tangents 0..n-1 over one step whose points on layers 0..upto are pt[0..upto]. */
void tangent_step(gt_tangent *t, int n, const gt_step_point *pt);

#endif
