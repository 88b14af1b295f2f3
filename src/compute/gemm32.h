/* A float32 matrix-matrix product over a batch of streams, for the perturbation batches of
 * the report: there it multiplies the differences between each edited stream and the
 * original (see batch_use_float32), so that float32's relative error applies to the
 * difference, not to the state. */
#ifndef GATETUI_GEMM32_H
#define GATETUI_GEMM32_H

#include <stddef.h>

#define MAT32_PANEL 16

/* A weight matrix packed in panels of 16 rows, each stored input by input: element (r, j)
 * at data[((r / 16) * cols + j) * 16 + r % 16]; rows past the last are zero. */
typedef struct gt_mat32 {
    size_t rows, cols;
    float *data;
} gt_mat32;

/* Packs the row-major rows x cols matrix W. Returns 0, or -1 when out of memory. */
int mat32_pack(gt_mat32 *a, const float *W, size_t rows, size_t cols);
void mat32_free(gt_mat32 *a);
/* An empty (zero) rows x cols matrix, and A(r, j) = row[j] (rounded to float32), j < cols. */
int mat32_alloc(gt_mat32 *a, size_t rows, size_t cols);
void mat32_put_row(gt_mat32 *a, size_t r, const double *row);

/* The products with these matrices are the kernel sets' gemm32, gemm32_t and gemv64
 * (kernels.h). */

#endif
