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
 * layer k - 1's h. Room for cap tangents; on failure *out is NULL. */
typedef struct gt_tangent gt_tangent;
int tangent_new(gt_tangent **out, const gt_model *m, int upto, int cap, gt_error *e);
void tangent_free(gt_tangent *t);
/* From now on the products M [dh; dx] are taken in float32 (M and the tangents rounded,
 * everything else double): their relative error, about 1e-6, is relative to the tangent,
 * which is not a difference of large numbers; several times faster. */
int tangent_use_float32(gt_tangent *t, gt_error *e);

/* Tangent x's d h and d c of layer k ([H_k] each). */
double *tangent_h(const gt_tangent *t, int k, int x);
double *tangent_c(const gt_tangent *t, int k, int x);

/* Carries tangents 0..n-1 over one step whose points on layers 0..upto are pt[0..upto]. */
void tangent_step(gt_tangent *t, int n, const gt_step_point *pt);

#endif
