/* The arithmetic of one step: matrix-vector products and the cells' nonlinearities. */
#ifndef GATETUI_KERNELS_H
#define GATETUI_KERNELS_H

#include <stddef.h>

/* y[r] = (bias ? bias[r] : 0) + sum_j W[r*cols + j] * x[j], for r < rows. */
void kern_gemv(size_t rows, size_t cols, const float *W, const float *x, const float *bias,
               float *y);

float kern_sigmoid(float x);

#endif
