/* Double-precision arithmetic for the perturbation runs: a matrix-matrix product over a
 * batch of independent streams, and the cells' nonlinearities. The perturbation compares
 * two runs whose states differ by as little as 1e-6 of their size, which float32 cannot
 * resolve; the weights stay the model's float32 values, only the arithmetic is double. */
#ifndef GATETUI_KERNELS64_H
#define GATETUI_KERNELS64_H

#include <stddef.h>

#define MAT64_PANEL 8

/* A weight matrix packed for the product: panels of 8 rows, each stored input by input,
 * so the product reads it contiguously. Element (r, j) is at
 * data[((r / 8) * cols + j) * 8 + r % 8]; rows past the last are zero. */
typedef struct gt_mat64 {
    size_t rows, cols;
    double *data;
} gt_mat64;

/* Packs the row-major rows x cols matrix W. Returns 0, or -1 when out of memory. */
int mat64_pack(gt_mat64 *a, const float *W, size_t rows, size_t cols);
void mat64_free(gt_mat64 *a);
/* An empty (zero) rows x cols matrix for mat64_put_row / mat64_put_col to fill. */
int mat64_alloc(gt_mat64 *a, size_t rows, size_t cols);
/* A(r, j) = row[j] for j < cols; A(r, j) = col[r] for r < rows. */
void mat64_put_row(gt_mat64 *a, size_t r, const double *row);
void mat64_put_col(gt_mat64 *a, size_t j, const double *col);

/* For b < nb and r < A->rows:
 *   Y[b*ldy + r] = (accumulate ? Y[b*ldy + r] : bias ? bias[r] : 0)
 *                  + sum_{j < cols} A(r, j) * X[b*ldx + j]
 * (each sum taken in the order of j). */
void kern64_gemm(const gt_mat64 *A, size_t nb, const double *X, size_t ldx, const double *bias,
                 double *Y, size_t ldy, int accumulate);

/* The plain C version, the reference the vectorised one is tested against. */
void kern64_gemm_ref(const gt_mat64 *A, size_t nb, const double *X, size_t ldx,
                     const double *bias, double *Y, size_t ldy, int accumulate);

/* "avx2" or "c": the product in use (the plain C one when kern_select("c") chose it or the
 * processor lacks AVX2 and FMA). */
const char *kern64_name(void);

/* v[j] = 1 / (1 + exp(-v[j])) and v[j] = tanh(v[j]) for j < n, in double: vectorised with
 * AVX-512 (the engine's "avx512" kernels) or AVX2, absolute error below 1e-15 against libm
 * and the sigmoid's relative error below 6e-16; libm otherwise. */
void kern64_sigmoid(size_t n, double *v);
void kern64_tanh(size_t n, double *v);

/* One cell in double for H units from its pre-activations a[r] + da[r] + y[r] + dy[r]
 * (da, dy: float32 terms, NULL for none): for an LSTM (lstm set) the 4H rows of blocks
 * i f g o, c and h updated; for a GRU the r and z rows as that sum, the n rows as
 * a + da + r * (y + dy), h updated (c unused). The gates after their nonlinearities go to
 * g (G*H) unless g is NULL; t is scratch of 5H doubles. One pass over the units with
 * AVX-512, the gates kept in registers. */
void kern64_cell(int lstm, size_t H, const double *a, const float *da, const double *y,
                 const float *dy, double *g, double *t, double *c, double *h);

#endif
