/* float32 kernels for one stream: the matrix-vector product (the step's cost), the
 * nonlinearities, and the LSTM cell in one pass; plain C (the reference), AVX2+FMA and
 * AVX-512 (kernels.h). */
#include "config.h"

#include <math.h>
#include <string.h>

#include "compute/variants.h"

static float sigmoid1(float x)
{
    return 1.0f / (1.0f + expf(-x));
}

static void gemv_rows(size_t rows, size_t cols, const float *W, const float *x, const float *bias,
                   float *y)
{
    for (size_t r = 0; r < rows; r++) {
        const float *w = W + r * cols;
        float acc[8] = {0};
        size_t j = 0;
        for (; j + 8 <= cols; j += 8)
            for (int u = 0; u < 8; u++)
                acc[u] += w[j + u] * x[j + u];
        float s = ((acc[0] + acc[4]) + (acc[1] + acc[5])) + ((acc[2] + acc[6]) + (acc[3] + acc[7]));
        for (; j < cols; j++)
            s += w[j] * x[j];
        y[r] = (bias ? bias[r] : 0.0f) + s;
    }
}

#ifdef GT_X86
__attribute__((target("avx2,fma"))) static float hsum256(__m256 v)
{
    __m128 s = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
    s = _mm_add_ps(s, _mm_movehl_ps(s, s));
    s = _mm_add_ss(s, _mm_shuffle_ps(s, s, 1));
    return _mm_cvtss_f32(s);
}

/* Rows r .. r+3 of y, four rows at a time so that each load of x serves four rows. */
__attribute__((target("avx2,fma"), always_inline)) static inline void
gemv4_avx2(size_t r, size_t cols, const float *W, const float *x, const float *bias, float *y)
{
    const size_t c8 = cols & ~(size_t)7;
    const float *w0 = W + r * cols, *w1 = w0 + cols, *w2 = w1 + cols, *w3 = w2 + cols;
    __m256 a0 = _mm256_setzero_ps(), a1 = a0, a2 = a0, a3 = a0;
    for (size_t j = 0; j < c8; j += 8) {
        __m256 xv = _mm256_loadu_ps(x + j);
        a0 = _mm256_fmadd_ps(_mm256_loadu_ps(w0 + j), xv, a0);
        a1 = _mm256_fmadd_ps(_mm256_loadu_ps(w1 + j), xv, a1);
        a2 = _mm256_fmadd_ps(_mm256_loadu_ps(w2 + j), xv, a2);
        a3 = _mm256_fmadd_ps(_mm256_loadu_ps(w3 + j), xv, a3);
    }
    float s0 = hsum256(a0), s1 = hsum256(a1), s2 = hsum256(a2), s3 = hsum256(a3);
    for (size_t j = c8; j < cols; j++) {
        s0 += w0[j] * x[j];
        s1 += w1[j] * x[j];
        s2 += w2[j] * x[j];
        s3 += w3[j] * x[j];
    }
    y[r] = (bias ? bias[r] : 0.0f) + s0;
    y[r + 1] = (bias ? bias[r + 1] : 0.0f) + s1;
    y[r + 2] = (bias ? bias[r + 2] : 0.0f) + s2;
    y[r + 3] = (bias ? bias[r + 3] : 0.0f) + s3;
}

/* backward: see gemv_avx512. */
__attribute__((target("avx2,fma"))) void gemv_avx2(size_t rows, size_t cols,
                                                          const float *W, const float *x,
                                                          const float *bias, float *y,
                                                          int backward)
{
    const size_t r4 = rows & ~(size_t)3;
    if (backward) {
        if (r4 < rows)
            gemv_rows(rows - r4, cols, W + r4 * cols, x, bias ? bias + r4 : NULL, y + r4);
        for (size_t r = r4; r > 0; r -= 4)
            gemv4_avx2(r - 4, cols, W, x, bias, y);
        return;
    }
    for (size_t r = 0; r < r4; r += 4)
        gemv4_avx2(r, cols, W, x, bias, y);
    if (r4 < rows)
        gemv_rows(rows - r4, cols, W + r4 * cols, x, bias ? bias + r4 : NULL, y + r4);
}

/* Rows r .. r+3 of y (r a multiple of 4). */
__attribute__((target("avx512f"), always_inline)) static inline void
gemv4_avx512(size_t r, size_t cols, const float *W, const float *x, const float *bias, float *y)
{
    const size_t c16 = cols & ~(size_t)15;
    const __mmask16 tail = (__mmask16)((1u << (cols - c16)) - 1);
    {
        const float *w0 = W + r * cols, *w1 = w0 + cols, *w2 = w1 + cols, *w3 = w2 + cols;
        __m512 a0 = _mm512_setzero_ps(), a1 = a0, a2 = a0, a3 = a0;
        for (size_t j = 0; j < c16; j += 16) {
            __m512 xv = _mm512_loadu_ps(x + j);
            a0 = _mm512_fmadd_ps(_mm512_loadu_ps(w0 + j), xv, a0);
            a1 = _mm512_fmadd_ps(_mm512_loadu_ps(w1 + j), xv, a1);
            a2 = _mm512_fmadd_ps(_mm512_loadu_ps(w2 + j), xv, a2);
            a3 = _mm512_fmadd_ps(_mm512_loadu_ps(w3 + j), xv, a3);
        }
        if (tail) {
            __m512 xv = _mm512_maskz_loadu_ps(tail, x + c16);
            a0 = _mm512_fmadd_ps(_mm512_maskz_loadu_ps(tail, w0 + c16), xv, a0);
            a1 = _mm512_fmadd_ps(_mm512_maskz_loadu_ps(tail, w1 + c16), xv, a1);
            a2 = _mm512_fmadd_ps(_mm512_maskz_loadu_ps(tail, w2 + c16), xv, a2);
            a3 = _mm512_fmadd_ps(_mm512_maskz_loadu_ps(tail, w3 + c16), xv, a3);
        }
        y[r] = (bias ? bias[r] : 0.0f) + _mm512_reduce_add_ps(a0);
        y[r + 1] = (bias ? bias[r + 1] : 0.0f) + _mm512_reduce_add_ps(a1);
        y[r + 2] = (bias ? bias[r + 2] : 0.0f) + _mm512_reduce_add_ps(a2);
        y[r + 3] = (bias ? bias[r + 3] : 0.0f) + _mm512_reduce_add_ps(a3);
    }
}

/* backward: the blocks of 4 rows from the last to the first. Each row's sum is the same
 * either way; alternating the direction from one step to the next makes the rows read last
 * the first read again, while they are still in the cache (a matrix the size of the
 * core's L2 cache then mostly stays there instead of being streamed from L3). */
__attribute__((target("avx512f"))) void gemv_avx512(size_t rows, size_t cols,
                                                           const float *W, const float *x,
                                                           const float *bias, float *y,
                                                           int backward)
{
    const size_t r4 = rows & ~(size_t)3;
    if (backward) {
        if (r4 < rows)
            gemv_rows(rows - r4, cols, W + r4 * cols, x, bias ? bias + r4 : NULL, y + r4);
        for (size_t r = r4; r > 0; r -= 4)
            gemv4_avx512(r - 4, cols, W, x, bias, y);
        return;
    }
    for (size_t r = 0; r < r4; r += 4)
        gemv4_avx512(r, cols, W, x, bias, y);
    if (r4 < rows)
        gemv_rows(rows - r4, cols, W + r4 * cols, x, bias ? bias + r4 : NULL, y + r4);
}

/* exp(x) for a vector: x = n ln2 + r with |r| <= ln2/2, e^r by a degree-6 polynomial
 * (relative error below 2e-7), scaled by 2^n through the exponent bits. Inputs are
 * clamped to [-87, 88], where e^x is a normal float. */
#define EXP_CONSTS                                                                          \
    const float c_log2e = 1.44269504088896341f, c_ln2hi = 0.693359375f,                     \
                c_ln2lo = -2.12194440e-4f, p0 = 1.9875691500e-4f, p1 = 1.3981999507e-3f,    \
                p2 = 8.3334519073e-3f, p3 = 4.1665795894e-2f, p4 = 1.6666665459e-1f,        \
                p5 = 5.0000001201e-1f

__attribute__((target("avx512f"))) static __m512 exp512(__m512 x)
{
    EXP_CONSTS;
    x = _mm512_min_ps(_mm512_max_ps(x, _mm512_set1_ps(-87.0f)), _mm512_set1_ps(88.0f));
    __m512 n = _mm512_roundscale_ps(_mm512_mul_ps(x, _mm512_set1_ps(c_log2e)),
                                    _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    __m512 r = _mm512_fnmadd_ps(n, _mm512_set1_ps(c_ln2hi), x);
    r = _mm512_fnmadd_ps(n, _mm512_set1_ps(c_ln2lo), r);
    __m512 p = _mm512_set1_ps(p0);
    p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(p1));
    p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(p2));
    p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(p3));
    p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(p4));
    p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(p5));
    p = _mm512_fmadd_ps(p, _mm512_mul_ps(r, r), _mm512_add_ps(r, _mm512_set1_ps(1.0f)));
    return _mm512_scalef_ps(p, n);
}

__attribute__((target("avx2,fma"))) static __m256 exp256(__m256 x)
{
    EXP_CONSTS;
    x = _mm256_min_ps(_mm256_max_ps(x, _mm256_set1_ps(-87.0f)), _mm256_set1_ps(88.0f));
    __m256 n = _mm256_round_ps(_mm256_mul_ps(x, _mm256_set1_ps(c_log2e)),
                               _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    __m256 r = _mm256_fnmadd_ps(n, _mm256_set1_ps(c_ln2hi), x);
    r = _mm256_fnmadd_ps(n, _mm256_set1_ps(c_ln2lo), r);
    __m256 p = _mm256_set1_ps(p0);
    p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(p1));
    p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(p2));
    p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(p3));
    p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(p4));
    p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(p5));
    p = _mm256_fmadd_ps(p, _mm256_mul_ps(r, r), _mm256_add_ps(r, _mm256_set1_ps(1.0f)));
    __m256i e = _mm256_slli_epi32(_mm256_add_epi32(_mm256_cvtps_epi32(n), _mm256_set1_epi32(127)), 23);
    return _mm256_mul_ps(p, _mm256_castsi256_ps(e));
}

/* sigmoid(x) = 1 / (1 + e^-x); tanh(x) = sign(x) (1 - 2 / (e^{2|x|} + 1)), whose absolute
 * error stays below 2e-7 also near 0. */
__attribute__((target("avx512f"))) void act_avx512(size_t n, float *v, int tanh_)
{
    const __m512 one = _mm512_set1_ps(1.0f), two = _mm512_set1_ps(2.0f);
    for (size_t j = 0; j < n; j += 16) {
        __mmask16 k = n - j >= 16 ? (__mmask16)0xFFFF : (__mmask16)((1u << (n - j)) - 1);
        __m512 x = _mm512_maskz_loadu_ps(k, v + j), y;
        if (tanh_) {
            __m512 a = _mm512_abs_ps(x);
            y = _mm512_sub_ps(one, _mm512_div_ps(two, _mm512_add_ps(exp512(_mm512_add_ps(a, a)), one)));
            y = _mm512_castsi512_ps(_mm512_or_epi32(
                _mm512_castps_si512(y),
                _mm512_and_epi32(_mm512_castps_si512(x), _mm512_set1_epi32((int)0x80000000u))));
        } else {
            y = _mm512_div_ps(one, _mm512_add_ps(one, exp512(_mm512_sub_ps(_mm512_setzero_ps(), x))));
        }
        _mm512_mask_storeu_ps(v + j, k, y);
    }
}

/* One LSTM cell for all H units in one pass: a (4H: i, f, g, o before their
 * nonlinearity) gets xp added and becomes the gates; c and h are updated. The same
 * arithmetic as act_avx512 applied block by block. */
__attribute__((target("avx512f"), always_inline)) static inline __m512 sig512(__m512 x)
{
    const __m512 one = _mm512_set1_ps(1.0f);
    return _mm512_div_ps(one, _mm512_add_ps(one, exp512(_mm512_sub_ps(_mm512_setzero_ps(), x))));
}

__attribute__((target("avx512f"), always_inline)) static inline __m512 tanh512(__m512 x)
{
    const __m512 one = _mm512_set1_ps(1.0f), two = _mm512_set1_ps(2.0f);
    __m512 a = _mm512_abs_ps(x);
    __m512 y = _mm512_sub_ps(one, _mm512_div_ps(two, _mm512_add_ps(exp512(_mm512_add_ps(a, a)), one)));
    return _mm512_castsi512_ps(_mm512_or_epi32(
        _mm512_castps_si512(y),
        _mm512_and_epi32(_mm512_castps_si512(x), _mm512_set1_epi32((int)0x80000000u))));
}

/* c = f c + i g with both products rounded (no fused multiply-add), as cell32_lstm
 * computes it. */
__attribute__((target("avx512f"))) NO_CONTRACT void
lstm_avx512(const kern_set *ks, size_t H, const float *xp, float *a, float *c, float *h)
{
#ifdef __clang__
#pragma clang fp contract(off)
#endif
    for (size_t j = 0; j < H; j += 16) {
        __mmask16 k = H - j >= 16 ? (__mmask16)0xFFFF : (__mmask16)((1u << (H - j)) - 1);
        __m512 i = sig512(_mm512_add_ps(_mm512_maskz_loadu_ps(k, a + j), _mm512_maskz_loadu_ps(k, xp + j)));
        __m512 f = sig512(_mm512_add_ps(_mm512_maskz_loadu_ps(k, a + H + j), _mm512_maskz_loadu_ps(k, xp + H + j)));
        __m512 g = tanh512(_mm512_add_ps(_mm512_maskz_loadu_ps(k, a + 2 * H + j), _mm512_maskz_loadu_ps(k, xp + 2 * H + j)));
        __m512 o = sig512(_mm512_add_ps(_mm512_maskz_loadu_ps(k, a + 3 * H + j), _mm512_maskz_loadu_ps(k, xp + 3 * H + j)));
        __m512 cv = _mm512_add_ps(_mm512_mul_ps(f, _mm512_maskz_loadu_ps(k, c + j)), _mm512_mul_ps(i, g));
        _mm512_mask_storeu_ps(a + j, k, i);
        _mm512_mask_storeu_ps(a + H + j, k, f);
        _mm512_mask_storeu_ps(a + 2 * H + j, k, g);
        _mm512_mask_storeu_ps(a + 3 * H + j, k, o);
        _mm512_mask_storeu_ps(c + j, k, cv);
        _mm512_mask_storeu_ps(h + j, k, _mm512_mul_ps(o, tanh512(cv)));
    }
}

__attribute__((target("avx2,fma"))) void act_avx2(size_t n, float *v, int tanh_)
{
    const __m256 one = _mm256_set1_ps(1.0f), two = _mm256_set1_ps(2.0f),
                 sign = _mm256_set1_ps(-0.0f);
    size_t j = 0;
    for (; j + 8 <= n; j += 8) {
        __m256 x = _mm256_loadu_ps(v + j), y;
        if (tanh_) {
            __m256 a = _mm256_andnot_ps(sign, x);
            y = _mm256_sub_ps(one, _mm256_div_ps(two, _mm256_add_ps(exp256(_mm256_add_ps(a, a)), one)));
            y = _mm256_or_ps(y, _mm256_and_ps(x, sign));
        } else {
            y = _mm256_div_ps(one, _mm256_add_ps(one, exp256(_mm256_sub_ps(_mm256_setzero_ps(), x))));
        }
        _mm256_storeu_ps(v + j, y);
    }
    for (; j < n; j++)
        v[j] = tanh_ ? tanhf(v[j]) : sigmoid1(v[j]);
}
#endif

void act_c(size_t n, float *v, int tanh_)
{
    for (size_t j = 0; j < n; j++)
        v[j] = tanh_ ? tanhf(v[j]) : sigmoid1(v[j]);
}

void gemv_c(size_t rows, size_t cols, const float *W, const float *x, const float *bias,
            float *y, int backward)
{
    if (!backward) {
        gemv_rows(rows, cols, W, x, bias, y);
        return;
    }
    for (size_t r = rows; r > 0; r--)
        gemv_rows(1, cols, W + (r - 1) * cols, x, bias ? bias + r - 1 : NULL, y + r - 1);
}
