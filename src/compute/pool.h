/* Worker threads that share one matrix-vector product: each thread always takes the
 * same rows, so each core keeps its part of the weights in its own cache. For one stream,
 * where a step is a few microseconds, the workers wait by spinning briefly, then sleep. */
#ifndef GATETUI_POOL_H
#define GATETUI_POOL_H

#include <stddef.h>

typedef struct gt_pool gt_pool;

/* Starts nthreads - 1 workers (the caller is the first thread). NULL on failure or when
 * nthreads < 2. */
gt_pool *pool_start(int nthreads);
void pool_stop(gt_pool *p);

/* y = W x + bias as kern_gemv_dir, shared among the pool's threads (p may be NULL). */
void pool_gemv(gt_pool *p, size_t rows, size_t cols, const float *W, const float *x,
               const float *bias, float *y, int backward);

#endif
