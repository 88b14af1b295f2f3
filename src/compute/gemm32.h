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

/* Y[b*ldy + r] = sum_{j < cols} A(r, j) * X[b*ldx + j] for b < nb, r < A->rows
 * (each sum in the order of j). */
void kern32_gemm(const gt_mat32 *A, size_t nb, const float *X, size_t ldx, float *Y, size_t ldy);
/* The same with the inputs interleaved: item b's input j at XT[j * nb + b]. */
void kern32_gemm_t(const gt_mat32 *A, size_t nb, const float *XT, float *Y, size_t ldy);
/* kern32_gemm_t, and y0 = A x0 in double as kern32_gemv64 computes it (the same numbers):
 * the two in one pass over A where the kernels allow. */
void kern32_gemm_t0(const gt_mat32 *A, size_t nb, const float *XT, float *Y, size_t ldy,
                    const double *x0, double *y0);
/* The plain C version, the reference for the tests. */
void kern32_gemm_ref(const gt_mat32 *A, size_t nb, const float *X, size_t ldx, float *Y,
                     size_t ldy);
/* y[r] = sum_j A(r, j) * x[j] in double, for r < A->rows (the partial sums in an order of
 * the kernel's choosing). */
void kern32_gemv64(const gt_mat32 *A, const double *x, double *y);

/* "avx512", "avx2" or "c": the version in use (follows kern_select). */
const char *kern32_name(void);

#endif
