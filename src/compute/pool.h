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

/* Runs fn(ctx, k, n) on each of the n = pool_threads(p) threads (k = 0 on the caller) and
 * returns when every call has: for work already split into n independent parts. With p
 * NULL, fn(ctx, 0, 1) on the caller. */
int pool_threads(const gt_pool *p);
void pool_run(gt_pool *p, void (*fn)(void *ctx, int k, int n), void *ctx);

#endif
