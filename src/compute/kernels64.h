/* Double-precision arithmetic for the perturbation runs: the weight matrices packed for a
 * matrix-matrix product over a batch of independent streams. The perturbation compares
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
/* The doubles a rows x cols matrix takes, and one placed in the caller's zeroed memory of
 * that many (the caller frees it; not mat64_free). */
size_t mat64_len(size_t rows, size_t cols);
void mat64_place(gt_mat64 *a, size_t rows, size_t cols, double *data);
/* A(r, j) = row[j] for j < cols; A(r, j) = col[r] for r < rows. */
void mat64_put_row(gt_mat64 *a, size_t r, const double *row);
void mat64_put_col(gt_mat64 *a, size_t j, const double *col);

/* The products with these matrices are the kernel sets' gemm64 (kernels.h). */

#endif
