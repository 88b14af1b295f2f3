/* The float32 batched product: the usual matrix-multiply micro-kernel. One packed panel of
 * 16 rows stays in L1 while the batch passes in blocks of up to 12 items (AVX-512: 12
 * accumulators of 16 outputs) or 6 items (AVX2: 12 accumulators of 8 outputs, two per item);
 * each weight loaded serves every item of the block. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "compute/simd.h"
#include "compute/variants.h"

#define P MAT32_PANEL
#define CB 3 /* batch items per block of the plain C product */

int mat32_alloc(gt_mat32 *a, size_t rows, size_t cols)
{
    size_t panels = (rows + P - 1) / P;
    a->rows = rows;
    a->cols = cols;
    a->data = aligned_alloc(64, (panels * cols * P * sizeof(float) + 63) / 64 * 64 + 64);
    if (!a->data)
        return -1;
    memset(a->data, 0, panels * cols * P * sizeof(float));
    return 0;
}

int mat32_pack(gt_mat32 *a, const float *W, size_t rows, size_t cols)
{
    if (mat32_alloc(a, rows, cols))
        return -1;
    for (size_t r = 0; r < rows; r++)
        for (size_t j = 0; j < cols; j++)
            a->data[((r / P) * cols + j) * P + r % P] = W[r * cols + j];
    return 0;
}

void mat32_put_row(gt_mat32 *a, size_t r, const double *restrict row)
{
    float *restrict d = a->data + (r / P) * a->cols * P + r % P;
    for (size_t j = 0; j < a->cols; j++)
        d[j * P] = (float)row[j];
}

void mat32_free(gt_mat32 *a)
{
    free(a->data);
    memset(a, 0, sizeof *a);
}

/* nbk (<= CB) items by one panel, out[b*16 + q]: the 16 rows as four vectors, each
 * element's sum taken in the order of j as the scalar loop takes it. */
static inline __attribute__((always_inline)) void block_c(const int nbk, size_t cols,
                                                          const float *pan, const float *X,
                                                          size_t ldx, float *out)
{
    v4f a[CB][4];
    _Pragma("GCC unroll 4") for (int b = 0; b < nbk; b++)
        a[b][0] = a[b][1] = a[b][2] = a[b][3] = v4f_splat(0.0f);
    for (size_t j = 0; j < cols; j++) {
        const float *w = pan + j * P;
        const v4f w0 = v4f_load(w), w1 = v4f_load(w + 4), w2 = v4f_load(w + 8),
                  w3 = v4f_load(w + 12);
        _Pragma("GCC unroll 4") for (int b = 0; b < nbk; b++) {
            const v4f x = v4f_splat(X[b * ldx + j]);
            a[b][0] += w0 * x;
            a[b][1] += w1 * x;
            a[b][2] += w2 * x;
            a[b][3] += w3 * x;
        }
    }
    _Pragma("GCC unroll 4") for (int b = 0; b < nbk; b++)
        for (int q = 0; q < 4; q++)
            v4f_store(out + b * P + q * 4, a[b][q]);
}

void gemm32_c(const gt_mat32 *A, size_t nb, const float *X, size_t ldx, float *Y, size_t ldy)
{
    const size_t rows = A->rows, cols = A->cols;
    float out[CB * P];
    for (size_t r0 = 0; r0 < rows; r0 += P) {
        const float *pan = A->data + (r0 / P) * cols * P;
        const size_t nr = rows - r0 < P ? rows - r0 : P;
        for (size_t b = 0; b < nb; b += CB) {
            const int nbk = (int)(nb - b < CB ? nb - b : CB);
            const float *x = X + b * ldx;
            if (nbk == CB)
                block_c(CB, cols, pan, x, ldx, out);
            else /* the last items, one by one */
                for (int i = 0; i < nbk; i++)
                    block_c(1, cols, pan, x + (size_t)i * ldx, ldx, out + i * P);
            for (int i = 0; i < nbk; i++)
                memcpy(Y + (b + (size_t)i) * ldy + r0, out + i * P, nr * sizeof *out);
        }
    }
}

#ifdef GT_X86
/* The size of the block of items from item b when nb items pass in blocks of at most mr,
 * as few blocks as that allows, their sizes differing by one at most (61 items in blocks
 * of 6: six of 6 and five of 5, not ten of 6 and one of 1, which would take as long as one
 * of 6). */
static inline int block_items(size_t nb, size_t mr, size_t b)
{
    const size_t nblk = (nb + mr - 1) / mr, base = nb / nblk, rem = nb % nblk;
    return (int)(b < rem * (base + 1) ? base + 1 : base);
}

#define MR512 12
#define MR256 6

/* nbk (<= 12) items by one panel: out[b*16 + q], q < 16. */
__attribute__((target("avx512f"), always_inline)) static inline void
block512(const int nbk, size_t cols, const float *pan, const float *X, size_t ldx, float *out)
{
    __m512 a[MR512];
    _Pragma("GCC unroll 12") for (int b = 0; b < nbk; b++) a[b] = _mm512_setzero_ps();
    for (size_t j = 0; j < cols; j++) {
        const __m512 w = _mm512_load_ps(pan + j * P);
        _Pragma("GCC unroll 12") for (int b = 0; b < nbk; b++)
            a[b] = _mm512_fmadd_ps(w, _mm512_set1_ps(X[b * ldx + j]), a[b]);
    }
    _Pragma("GCC unroll 12") for (int b = 0; b < nbk; b++) _mm512_storeu_ps(out + b * P, a[b]);
}

__attribute__((target("avx512f"))) void gemm32_avx512(const gt_mat32 *A, size_t nb,
                                                     const float *X, size_t ldx, float *Y,
                                                     size_t ldy)
{
    const size_t rows = A->rows, cols = A->cols;
    float out[MR512 * P];
    int nbk = 0;
    for (size_t r0 = 0; r0 < rows; r0 += P) {
        const float *pan = A->data + (r0 / P) * cols * P;
        const size_t nr = rows - r0 < P ? rows - r0 : P;
        for (size_t b = 0; b < nb; b += (size_t)nbk) {
            nbk = block_items(nb, MR512, b);
            const float *x = X + b * ldx;
            switch (nbk) {
            case 1: block512(1, cols, pan, x, ldx, out); break;
            case 2: block512(2, cols, pan, x, ldx, out); break;
            case 3: block512(3, cols, pan, x, ldx, out); break;
            case 4: block512(4, cols, pan, x, ldx, out); break;
            case 5: block512(5, cols, pan, x, ldx, out); break;
            case 6: block512(6, cols, pan, x, ldx, out); break;
            case 7: block512(7, cols, pan, x, ldx, out); break;
            case 8: block512(8, cols, pan, x, ldx, out); break;
            case 9: block512(9, cols, pan, x, ldx, out); break;
            case 10: block512(10, cols, pan, x, ldx, out); break;
            case 11: block512(11, cols, pan, x, ldx, out); break;
            default: block512(12, cols, pan, x, ldx, out); break;
            }
            for (int i = 0; i < nbk; i++)
                memcpy(Y + (b + (size_t)i) * ldy + r0, out + i * P, nr * sizeof *out);
        }
    }
}

/* One panel of y = A x in double: 16 outputs as two vectors of 8 doubles, the even and odd
 * inputs summed apart (four independent chains), the weights widened as they are loaded. */
__attribute__((target("avx512f"), always_inline)) static inline void
panel64(const gt_mat32 *A, size_t r0, const double *x, double *y)
{
    const size_t rows = A->rows, cols = A->cols;
    const float *pan = A->data + (r0 / P) * cols * P;
    double out[P];
    __m512d a0 = _mm512_setzero_pd(), a1 = a0, b0 = a0, b1 = a0;
    size_t j = 0;
    for (; j + 2 <= cols; j += 2) {
        const __m512d xa = _mm512_set1_pd(x[j]), xb = _mm512_set1_pd(x[j + 1]);
        a0 = _mm512_fmadd_pd(_mm512_cvtps_pd(_mm256_load_ps(pan + j * P)), xa, a0);
        a1 = _mm512_fmadd_pd(_mm512_cvtps_pd(_mm256_load_ps(pan + j * P + 8)), xa, a1);
        b0 = _mm512_fmadd_pd(_mm512_cvtps_pd(_mm256_load_ps(pan + (j + 1) * P)), xb, b0);
        b1 = _mm512_fmadd_pd(_mm512_cvtps_pd(_mm256_load_ps(pan + (j + 1) * P + 8)), xb, b1);
    }
    if (j < cols) {
        const __m512d xa = _mm512_set1_pd(x[j]);
        a0 = _mm512_fmadd_pd(_mm512_cvtps_pd(_mm256_load_ps(pan + j * P)), xa, a0);
        a1 = _mm512_fmadd_pd(_mm512_cvtps_pd(_mm256_load_ps(pan + j * P + 8)), xa, a1);
    }
    _mm512_storeu_pd(out, _mm512_add_pd(a0, b0));
    _mm512_storeu_pd(out + 8, _mm512_add_pd(a1, b1));
    const size_t nr = rows - r0 < P ? rows - r0 : P;
    memcpy(y + r0, out, nr * sizeof *out);
}

/* The same with the items' inputs interleaved, XT[j * ldt + b]: each step of j reads the
 * block's inputs from one or two cache lines instead of one line per item. */
__attribute__((target("avx512f"), always_inline)) static inline void
block512t(const int nbk, size_t cols, const float *pan, const float *XT, size_t ldt, float *out)
{
    __m512 a[MR512];
    _Pragma("GCC unroll 12") for (int b = 0; b < nbk; b++) a[b] = _mm512_setzero_ps();
    for (size_t j = 0; j < cols; j++) {
        const __m512 w = _mm512_load_ps(pan + j * P);
        const float *x = XT + j * ldt;
        _Pragma("GCC unroll 12") for (int b = 0; b < nbk; b++)
            a[b] = _mm512_fmadd_ps(w, _mm512_set1_ps(x[b]), a[b]);
    }
    _Pragma("GCC unroll 12") for (int b = 0; b < nbk; b++) _mm512_storeu_ps(out + b * P, a[b]);
}

/* With x0, y0 = A x0 in double too, each panel's part while the panel is in the cache. */
__attribute__((target("avx512f"))) void gemm32_t_avx512(const gt_mat32 *A, size_t nb,
                                                       const float *XT, float *Y, size_t ldy,
                                                       const double *x0, double *y0)
{
    const size_t rows = A->rows, cols = A->cols;
    float out[MR512 * P];
    int nbk = 0;
    for (size_t r0 = 0; r0 < rows; r0 += P) {
        const float *pan = A->data + (r0 / P) * cols * P;
        if (x0)
            panel64(A, r0, x0, y0);
        const size_t nr = rows - r0 < P ? rows - r0 : P;
        for (size_t b = 0; b < nb; b += (size_t)nbk) {
            nbk = block_items(nb, MR512, b);
            const float *x = XT + b;
            switch (nbk) {
            case 1: block512t(1, cols, pan, x, nb, out); break;
            case 2: block512t(2, cols, pan, x, nb, out); break;
            case 3: block512t(3, cols, pan, x, nb, out); break;
            case 4: block512t(4, cols, pan, x, nb, out); break;
            case 5: block512t(5, cols, pan, x, nb, out); break;
            case 6: block512t(6, cols, pan, x, nb, out); break;
            case 7: block512t(7, cols, pan, x, nb, out); break;
            case 8: block512t(8, cols, pan, x, nb, out); break;
            case 9: block512t(9, cols, pan, x, nb, out); break;
            case 10: block512t(10, cols, pan, x, nb, out); break;
            case 11: block512t(11, cols, pan, x, nb, out); break;
            default: block512t(12, cols, pan, x, nb, out); break;
            }
            for (int i = 0; i < nbk; i++)
                memcpy(Y + (b + (size_t)i) * ldy + r0, out + i * P, nr * sizeof *out);
        }
    }
}

__attribute__((target("avx2,fma"), always_inline)) static inline void
block256(const int nbk, size_t cols, const float *pan, const float *X, size_t ldx, float *out)
{
    __m256 a0[MR256], a1[MR256];
    _Pragma("GCC unroll 6") for (int b = 0; b < nbk; b++) a0[b] = a1[b] = _mm256_setzero_ps();
    for (size_t j = 0; j < cols; j++) {
        const __m256 w0 = _mm256_load_ps(pan + j * P), w1 = _mm256_load_ps(pan + j * P + 8);
        _Pragma("GCC unroll 6") for (int b = 0; b < nbk; b++) {
            const __m256 xv = _mm256_broadcast_ss(X + b * ldx + j);
            a0[b] = _mm256_fmadd_ps(w0, xv, a0[b]);
            a1[b] = _mm256_fmadd_ps(w1, xv, a1[b]);
        }
    }
    _Pragma("GCC unroll 6") for (int b = 0; b < nbk; b++) {
        _mm256_storeu_ps(out + b * P, a0[b]);
        _mm256_storeu_ps(out + b * P + 8, a1[b]);
    }
}

__attribute__((target("avx2,fma"))) void gemm32_avx2(const gt_mat32 *A, size_t nb,
                                                   const float *X, size_t ldx, float *Y,
                                                   size_t ldy)
{
    const size_t rows = A->rows, cols = A->cols;
    float out[MR256 * P];
    int nbk = 0;
    for (size_t r0 = 0; r0 < rows; r0 += P) {
        const float *pan = A->data + (r0 / P) * cols * P;
        const size_t nr = rows - r0 < P ? rows - r0 : P;
        for (size_t b = 0; b < nb; b += (size_t)nbk) {
            nbk = block_items(nb, MR256, b);
            const float *x = X + b * ldx;
            switch (nbk) {
            case 1: block256(1, cols, pan, x, ldx, out); break;
            case 2: block256(2, cols, pan, x, ldx, out); break;
            case 3: block256(3, cols, pan, x, ldx, out); break;
            case 4: block256(4, cols, pan, x, ldx, out); break;
            case 5: block256(5, cols, pan, x, ldx, out); break;
            default: block256(6, cols, pan, x, ldx, out); break;
            }
            for (int i = 0; i < nbk; i++)
                memcpy(Y + (b + (size_t)i) * ldy + r0, out + i * P, nr * sizeof *out);
        }
    }
}

/* One panel of y = A x in double with AVX2: the 16 rows as four vectors of 4 doubles,
 * each row's products rounded and summed in the order of j, as gemv64_c sums them. */
__attribute__((target("avx2,fma"), always_inline)) NO_CONTRACT static inline void
panel64_avx2(const gt_mat32 *A, size_t r0, const double *x, double *y)
{
    const size_t rows = A->rows, cols = A->cols;
    const float *pan = A->data + (r0 / P) * cols * P;
    double out[P];
    __m256d a0 = _mm256_setzero_pd(), a1 = a0, a2 = a0, a3 = a0;
    for (size_t j = 0; j < cols; j++) {
        const float *w = pan + j * P;
        const __m256d xv = _mm256_broadcast_sd(x + j);
        a0 = _mm256_add_pd(a0, _mm256_mul_pd(_mm256_cvtps_pd(_mm_load_ps(w)), xv));
        a1 = _mm256_add_pd(a1, _mm256_mul_pd(_mm256_cvtps_pd(_mm_load_ps(w + 4)), xv));
        a2 = _mm256_add_pd(a2, _mm256_mul_pd(_mm256_cvtps_pd(_mm_load_ps(w + 8)), xv));
        a3 = _mm256_add_pd(a3, _mm256_mul_pd(_mm256_cvtps_pd(_mm_load_ps(w + 12)), xv));
    }
    _mm256_storeu_pd(out, a0);
    _mm256_storeu_pd(out + 4, a1);
    _mm256_storeu_pd(out + 8, a2);
    _mm256_storeu_pd(out + 12, a3);
    memcpy(y + r0, out, (rows - r0 < P ? rows - r0 : P) * sizeof *out);
}

/* Two panels at once (rows r0 .. r0+31, both full): eight chains of sums where one panel
 * has four, so that the additions' latency is hidden; each row's sum as panel64_avx2's. */
__attribute__((target("avx2,fma"), always_inline)) NO_CONTRACT static inline void
panels64_avx2(const gt_mat32 *A, size_t r0, const double *x, double *y)
{
    const size_t cols = A->cols;
    const float *pa = A->data + (r0 / P) * cols * P, *pb = pa + cols * P;
    __m256d a0 = _mm256_setzero_pd(), a1 = a0, a2 = a0, a3 = a0;
    __m256d b0 = a0, b1 = a0, b2 = a0, b3 = a0;
    for (size_t j = 0; j < cols; j++) {
        const float *w = pa + j * P, *v = pb + j * P;
        const __m256d xv = _mm256_broadcast_sd(x + j);
        a0 = _mm256_add_pd(a0, _mm256_mul_pd(_mm256_cvtps_pd(_mm_load_ps(w)), xv));
        a1 = _mm256_add_pd(a1, _mm256_mul_pd(_mm256_cvtps_pd(_mm_load_ps(w + 4)), xv));
        a2 = _mm256_add_pd(a2, _mm256_mul_pd(_mm256_cvtps_pd(_mm_load_ps(w + 8)), xv));
        a3 = _mm256_add_pd(a3, _mm256_mul_pd(_mm256_cvtps_pd(_mm_load_ps(w + 12)), xv));
        b0 = _mm256_add_pd(b0, _mm256_mul_pd(_mm256_cvtps_pd(_mm_load_ps(v)), xv));
        b1 = _mm256_add_pd(b1, _mm256_mul_pd(_mm256_cvtps_pd(_mm_load_ps(v + 4)), xv));
        b2 = _mm256_add_pd(b2, _mm256_mul_pd(_mm256_cvtps_pd(_mm_load_ps(v + 8)), xv));
        b3 = _mm256_add_pd(b3, _mm256_mul_pd(_mm256_cvtps_pd(_mm_load_ps(v + 12)), xv));
    }
    _mm256_storeu_pd(y + r0, a0);
    _mm256_storeu_pd(y + r0 + 4, a1);
    _mm256_storeu_pd(y + r0 + 8, a2);
    _mm256_storeu_pd(y + r0 + 12, a3);
    _mm256_storeu_pd(y + r0 + 16, b0);
    _mm256_storeu_pd(y + r0 + 20, b1);
    _mm256_storeu_pd(y + r0 + 24, b2);
    _mm256_storeu_pd(y + r0 + 28, b3);
}

__attribute__((target("avx2,fma"))) NO_CONTRACT void gemv64_avx2(const gt_mat32 *A,
                                                                  const double *x, double *y)
{
    size_t r0 = 0;
    for (; r0 + 2 * P <= A->rows; r0 += 2 * P)
        panels64_avx2(A, r0, x, y);
    for (; r0 < A->rows; r0 += P)
        panel64_avx2(A, r0, x, y);
}
#endif

/* One panel's 16 rows as eight vectors of two doubles, each row's sum in the order of j. */
void gemv64_c(const gt_mat32 *A, const double *x, double *y)
{
    const size_t rows = A->rows, cols = A->cols;
    double out[P];
    for (size_t r0 = 0; r0 < rows; r0 += P) {
        const float *pan = A->data + (r0 / P) * cols * P;
        v2d a[P / 2];
        for (int q = 0; q < P / 2; q++)
            a[q] = v2d_splat(0.0);
        for (size_t j = 0; j < cols; j++) {
            const v2d xv = v2d_splat(x[j]);
            _Pragma("GCC unroll 8") for (int q = 0; q < P / 2; q++)
                a[q] += v2d_widen(pan + j * P + 2 * q) * xv;
        }
        for (int q = 0; q < P / 2; q++)
            v2d_store(out + 2 * q, a[q]);
        memcpy(y + r0, out, (rows - r0 < P ? rows - r0 : P) * sizeof *out);
    }
}

#ifdef GT_X86
__attribute__((target("avx512f"))) void gemv64_avx512(const gt_mat32 *A, const double *x,
                                                      double *y)
{
    for (size_t r0 = 0; r0 < A->rows; r0 += P)
        panel64(A, r0, x, y);
}
#endif

void gemm32_t_c(const gt_mat32 *A, size_t nb, const float *XT, float *Y, size_t ldy,
                const double *x0, double *y0)
{
    if (x0)
        gemv64_c(A, x0, y0);
    const size_t rows = A->rows, cols = A->cols;
    for (size_t b = 0; b < nb; b++)
        for (size_t r = 0; r < rows; r++) {
            const float *w = A->data + (r / P) * cols * P + r % P;
            float acc = 0.0f;
            for (size_t j = 0; j < cols; j++)
                acc += w[j * P] * XT[j * nb + b];
            Y[b * ldy + r] = acc;
        }
}
