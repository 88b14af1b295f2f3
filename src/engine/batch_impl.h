/* Inside a batch's step: what batch.c and a cell whose batch step is its own (its
 * descriptor's batch_layer, src/engine/cell_NAME.c) share. */
#ifndef GATETUI_ENGINE_BATCH_IMPL_H
#define GATETUI_ENGINE_BATCH_IMPL_H

#include "compute/kernels.h"
#include "gatetui/batch.h"

/* Y[i] = (accumulate ? Y[i] : bias or 0) + A X[i] for the first n items: kern64_gemm, or
 * with batch_use_float32, item 0 in double and the others through the differences; for a
 * batch of one item with batch_single_float32, A32 summed in double. */
void batch_product(gt_batch *b, const gt_mat64 *A, const gt_mat32 *A32, size_t n,
                   const double *X, size_t ldx, const double *bias, double *Y, size_t ldy,
                   int accumulate);

#endif
