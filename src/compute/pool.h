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

/* Runs fn(ctx, b) once for each block b in [0, blocks), on the caller and the pool's
 * workers, and returns when every block is done: each thread takes its own share of the
 * blocks first (the same ones at every call: their data stays in its processor's cache),
 * then what is left of the others', so that a worker the scheduler has not run (on a busy
 * machine) holds nobody up: the caller does its blocks. The blocks must be independent
 * (then the results are the same whichever thread takes which). With p NULL or more than
 * 256 blocks, all on the caller. */
void pool_blocks(gt_pool *p, int blocks, void (*fn)(void *ctx, int b), void *ctx);

#endif
