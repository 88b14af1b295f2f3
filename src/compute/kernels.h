/* The arithmetic of one step: matrix-vector products and the cells' nonlinearities. */
#ifndef GATETUI_KERNELS_H
#define GATETUI_KERNELS_H

#include <stddef.h>

/* y[r] = (bias ? bias[r] : 0) + sum_j W[r*cols + j] * x[j], for r < rows. */
void kern_gemv(size_t rows, size_t cols, const float *W, const float *x, const float *bias,
               float *y);

/* The same, the blocks of rows taken from the last to the first when backward is set (the
 * same numbers either way). A caller that reads one matrix at every step alternates the
 * direction, so that the rows read last, still in the cache, are read first next time. */
void kern_gemv_dir(size_t rows, size_t cols, const float *W, const float *x, const float *bias,
                   float *y, int backward);

/* The same in plain C, the reference the fast versions are tested against. */
void kern_gemv_ref(size_t rows, size_t cols, const float *W, const float *x, const float *bias,
                   float *y);

float kern_sigmoid(float x);

/* The kernels in use: the fastest the processor supports ("avx512", "avx2" or "c"), or
 * the one kern_select chose (-1 when the processor lacks it). */
const char *kern_name(void);
int kern_select(const char *name);

/* v[j] = sigmoid(v[j]) and v[j] = tanh(v[j]) for j < n, vectorised (absolute error below
 * 3e-7 against libm). */
void kern_sigmoid_vec(size_t n, float *v);
void kern_tanh_vec(size_t n, float *v);
/* One LSTM cell (doc/measures.md, "The cells") for H units: a holds W_hh h + b_hh (4H, blocks i f g o);
 * xp (4H) is added, the sum becomes the gates after their nonlinearities; c and h [H] are
 * updated in place. Fused in one pass where the kernels allow. */
void kern_lstm_cell(size_t H, const float *xp, float *a, float *c, float *h);
/* The plain libm versions (tanh_ = 0: sigmoid, 1: tanh), the reference for the tests. */
void kern_act_ref(size_t n, float *v, int tanh_);

#endif
