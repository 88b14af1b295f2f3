/* Double-precision kernels for the batched perturbation runs: the product, the
 * nonlinearities and the cells in one pass (kernels.h). The product is the usual
 * matrix-multiply micro-kernel: 8 outputs (one packed panel) for up to 6 batch items stay
 * in registers while the inputs stream past, so each weight loaded serves 6 items and the
 * panel is read contiguously; AVX2+FMA (in the "avx2" and "avx512" sets) or plain C. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compute/simd.h"
#include "gatetui/bigmem.h"
#include "compute/variants.h"

#define P MAT64_PANEL
#define CB 3 /* batch items per block of the plain C product */

size_t mat64_len(size_t rows, size_t cols)
{
    return (rows + P - 1) / P * cols * P;
}

void mat64_place(gt_mat64 *a, size_t rows, size_t cols, double *data)
{
    a->rows = rows;
    a->cols = cols;
    a->data = data;
}

int mat64_pack(gt_mat64 *a, const float *W, size_t rows, size_t cols)
{
    mat64_place(a, rows, cols, big_zalloc(mat64_len(rows, cols) * sizeof *a->data));
    if (!a->data)
        return -1;
    for (size_t r = 0; r < rows; r++)
        for (size_t j = 0; j < cols; j++)
            a->data[((r / P) * cols + j) * P + r % P] = W[r * cols + j];
    return 0;
}

void mat64_free(gt_mat64 *a)
{
    free(a->data);
    memset(a, 0, sizeof *a);
}

int mat64_alloc(gt_mat64 *a, size_t rows, size_t cols)
{
    mat64_place(a, rows, cols, big_zalloc(mat64_len(rows, cols) * sizeof *a->data));
    return a->data ? 0 : -1;
}

void mat64_put_row(gt_mat64 *a, size_t r, const double *restrict row)
{
    double *restrict d = a->data + (r / P) * a->cols * P + r % P;
    for (size_t j = 0; j < a->cols; j++)
        d[j * P] = row[j];
}

void mat64_put_col(gt_mat64 *a, size_t j, const double *restrict col)
{
    const size_t rows = a->rows, stride = a->cols * P;
    double *restrict d = a->data + j * P;
    size_t r = 0;
    for (; r + P <= rows; r += P, d += stride) { /* spelt out: a loop becomes a memcpy call */
        const double *c = col + r;
        d[0] = c[0], d[1] = c[1], d[2] = c[2], d[3] = c[3];
        d[4] = c[4], d[5] = c[5], d[6] = c[6], d[7] = c[7];
    }
    for (size_t q = 0; r + q < rows; q++)
        d[q] = col[r + q];
}

/* nbk (<= CB) items by one panel of 8 rows, four vectors of two, added to Y: each
 * element's sum taken in the order of j, as the scalar loop takes it. */
static inline __attribute__((always_inline)) void block_c(const int nbk, size_t cols,
                                                          const double *pan, const double *X,
                                                          size_t ldx, double *Y, size_t ldy)
{
    v2d a[CB][4];
    _Pragma("GCC unroll 4") for (int b = 0; b < nbk; b++)
        for (int q = 0; q < 4; q++)
            a[b][q] = v2d_load(Y + b * ldy + 2 * q);
    for (size_t j = 0; j < cols; j++) {
        const double *w = pan + j * P;
        const v2d w0 = v2d_load(w), w1 = v2d_load(w + 2), w2 = v2d_load(w + 4),
                  w3 = v2d_load(w + 6);
        _Pragma("GCC unroll 4") for (int b = 0; b < nbk; b++) {
            const v2d x = v2d_splat(X[b * ldx + j]);
            a[b][0] += w0 * x;
            a[b][1] += w1 * x;
            a[b][2] += w2 * x;
            a[b][3] += w3 * x;
        }
    }
    _Pragma("GCC unroll 4") for (int b = 0; b < nbk; b++)
        for (int q = 0; q < 4; q++)
            v2d_store(Y + b * ldy + 2 * q, a[b][q]);
}

void gemm64_c(const gt_mat64 *A, size_t nb, const double *X, size_t ldx, const double *bias,
              double *Y, size_t ldy, int accumulate)
{
    const size_t rows = A->rows, cols = A->cols;
    double tmp[CB * P];
    for (size_t r0 = 0; r0 < rows; r0 += P) {
        const double *pan = A->data + (r0 / P) * cols * P;
        const size_t nr = rows - r0 < P ? rows - r0 : P;
        for (size_t b = 0; b < nb; b += CB) {
            const int nbk = (int)(nb - b < CB ? nb - b : CB);
            for (int i = 0; i < nbk; i++) /* the sums' starts, through tmp */
                for (size_t q = 0; q < P; q++)
                    tmp[i * P + q] = q >= nr       ? 0.0
                                     : accumulate ? Y[(b + (size_t)i) * ldy + r0 + q]
                                     : bias       ? bias[r0 + q]
                                                  : 0.0;
            const double *x = X + b * ldx;
            if (nbk == CB)
                block_c(CB, cols, pan, x, ldx, tmp, P);
            else /* the last items, one by one */
                for (int i = 0; i < nbk; i++)
                    block_c(1, cols, pan, x + (size_t)i * ldx, ldx, tmp + i * P, P);
            for (int i = 0; i < nbk; i++)
                memcpy(Y + (b + (size_t)i) * ldy + r0, tmp + i * P, nr * sizeof *tmp);
        }
    }
}

#ifdef GT_X86
#define MR 6 /* batch items per block */

/* nbk (<= MR) items by one panel of 8 outputs, added to Y. Inlined with a constant nbk so
 * the accumulators stay in registers. */
__attribute__((target("avx2,fma"), always_inline)) static inline void
block(const int nbk, size_t cols, const double *pan, const double *X, size_t ldx, double *Y,
      size_t ldy)
{
    __m256d a0[MR], a1[MR];
    _Pragma("GCC unroll 6") for (int b = 0; b < nbk; b++) {
        a0[b] = _mm256_loadu_pd(Y + b * ldy);
        a1[b] = _mm256_loadu_pd(Y + b * ldy + 4);
    }
    for (size_t j = 0; j < cols; j++) {
        const __m256d w0 = _mm256_loadu_pd(pan + j * P), w1 = _mm256_loadu_pd(pan + j * P + 4);
        _Pragma("GCC unroll 6") for (int b = 0; b < nbk; b++) {
            const __m256d xv = _mm256_broadcast_sd(X + b * ldx + j);
            a0[b] = _mm256_fmadd_pd(w0, xv, a0[b]);
            a1[b] = _mm256_fmadd_pd(w1, xv, a1[b]);
        }
    }
    _Pragma("GCC unroll 6") for (int b = 0; b < nbk; b++) {
        _mm256_storeu_pd(Y + b * ldy, a0[b]);
        _mm256_storeu_pd(Y + b * ldy + 4, a1[b]);
    }
}

__attribute__((target("avx2,fma"))) void
gemm64_avx2(const gt_mat64 *A, size_t nb, const double *X, size_t ldx, const double *bias,
          double *Y, size_t ldy, int accumulate)
{
    const size_t rows = A->rows, cols = A->cols;
    double tmp[MR * P];
    /* Panels outermost: a panel (cols x 8) stays in L1 while every item passes. */
    for (size_t r0 = 0; r0 < rows; r0 += P) {
        const double *pan = A->data + (r0 / P) * cols * P;
        const size_t nr = rows - r0 < P ? rows - r0 : P;
        for (size_t b = 0; b < nb; b += MR) {
            const int nbk = (int)(nb - b < MR ? nb - b : MR);
            double *y = Y + b * ldy + r0;
            size_t ly = ldy;
            if (nr < P) { /* the last, partial panel goes through tmp */
                for (int i = 0; i < nbk; i++)
                    for (size_t q = 0; q < P; q++)
                        tmp[i * P + q] = q >= nr       ? 0.0
                                         : accumulate ? y[i * ldy + q]
                                         : bias       ? bias[r0 + q]
                                                      : 0.0;
                y = tmp;
                ly = P;
            } else if (!accumulate) {
                for (int i = 0; i < nbk; i++)
                    for (size_t q = 0; q < P; q++)
                        y[i * ldy + q] = bias ? bias[r0 + q] : 0.0;
            }
            const double *x = X + b * ldx;
            switch (nbk) {
            case 1: block(1, cols, pan, x, ldx, y, ly); break;
            case 2: block(2, cols, pan, x, ldx, y, ly); break;
            case 3: block(3, cols, pan, x, ldx, y, ly); break;
            case 4: block(4, cols, pan, x, ldx, y, ly); break;
            case 5: block(5, cols, pan, x, ldx, y, ly); break;
            default: block(6, cols, pan, x, ldx, y, ly); break;
            }
            if (nr < P)
                for (int i = 0; i < nbk; i++)
                    memcpy(Y + (b + (size_t)i) * ldy + r0, tmp + i * P, nr * sizeof *tmp);
        }
    }
}
#endif

/* Where m is set, a; elsewhere b. */
static inline v2d v2d_select(v2l m, v2d a, v2d b)
{
    return (v2d)((m & (v2l)a) | (~m & (v2l)b));
}

/* For 2 doubles in plain C (the machine's baseline vectors): x, clamped to [-708, 708]
 * (where e^x is a normal double; a NaN stays a NaN), = k ln2 + r with k the nearest integer
 * to x/ln2 (by adding 1.5 * 2^52, whose last place is 1, so that k is also the low bits of
 * the sum) and |r| <= ln2/2. Returns 2^k (through the exponent bits) and e^r - 1 into *q: r
 * times the Taylor polynomial of (e^r - 1)/r of degree 12 (truncation below 5e-18
 * relative), by Estrin's scheme, each product and sum rounded apart. */
static inline v2d v2d_reduce(v2d x, v2d *q)
{
    static const double c[13] = {
        1.0, 1.0 / 2, 1.0 / 6, 1.0 / 24, 1.0 / 120, 1.0 / 720, 1.0 / 5040, 1.0 / 40320,
        1.0 / 362880, 1.0 / 3628800, 1.0 / 39916800, 1.0 / 479001600, 1.0 / 6227020800};
    const v2d lo = v2d_splat(-708.0), hi = v2d_splat(708.0);
    x = v2d_select((v2l)(x < lo), lo, x);
    x = v2d_select((v2l)(x > hi), hi, x);
    const v2d shift = v2d_splat(6755399441055744.0);
    const v2d ks = x * v2d_splat(1.4426950408889634) + shift, k = ks - shift;
    /* ln2 in two parts, the first with its last 32 bits zero: k times it is exact */
    v2d r = x - k * v2d_splat(6.93147180369123816490e-01);
    r = r - k * v2d_splat(1.90821492927058770002e-10);
#define C_(i) v2d_splat(c[i])
    const v2d r2 = r * r, r4 = r2 * r2, r8 = r4 * r4;
    const v2d p01 = C_(1) * r + C_(0), p23 = C_(3) * r + C_(2), p45 = C_(5) * r + C_(4);
    const v2d p67 = C_(7) * r + C_(6), p89 = C_(9) * r + C_(8), pab = C_(11) * r + C_(10);
    const v2d p03 = p23 * r2 + p01, p47 = p67 * r2 + p45, p8b = pab * r2 + p89;
    const v2d p07 = p47 * r4 + p03, p8c = C_(12) * r4 + p8b;
#undef C_
    *q = r * (p8c * r8 + p07);
    const v2u e = ((v2u)ks + 1023) << 52; /* the low 12 bits: k + 1023 */
    return (v2d)e;
}

/* 1 / (1 + e^-x) with e^-x = 2^k (1 + q); and tanh|x| = -m / (2 + m) with m = e^(-2|x|) - 1
 * = 2^k q + (2^k - 1), so that a small |x| keeps its relative precision (where 1 - e^(-2|x|)
 * would cancel), the sign put back. */
static inline v2d v2d_act(v2d x, int tanh_)
{
    const v2d one = v2d_splat(1.0);
    v2d q;
    if (!tanh_) {
        const v2d s = v2d_reduce(-x, &q);
        return one / (one + s * (one + q));
    }
    const v2l sign = (v2l){(long long)0x8000000000000000ULL, (long long)0x8000000000000000ULL};
    const v2d s = v2d_reduce((v2d)((v2l)x & ~sign) * v2d_splat(-2.0), &q);
    const v2d m = s * q + (s - one);
    return (v2d)((v2l)((v2d_splat(0.0) - m) / (v2d_splat(2.0) + m)) | ((v2l)x & sign));
}

/* Two values at a time; an odd last one alone in a vector, by the same function, so that
 * a value's result does not depend on where it stands. */
void act64_c(size_t n, double *v, int tanh_)
{
    size_t j = 0;
    for (; j + 2 <= n; j += 2)
        v2d_store(v + j, v2d_act(v2d_load(v + j), tanh_));
    if (j < n)
        v[j] = v2d_act(v2d_splat(v[j]), tanh_)[0];
}

#ifdef GT_X86
/* The libm nonlinearities from v[j] on. */
static void act64_libm(size_t n, double *v, size_t j, int tanh_)
{
    for (; j < n; j++)
        v[j] = tanh_ ? tanh(v[j]) : 1.0 / (1.0 + exp(-v[j]));
}

/* exp(x) for 4 doubles: x = n ln2 + r with |r| <= ln2/2, e^r by its Taylor polynomial of
 * degree 12 (relative error below 2e-16) evaluated by Estrin's scheme (its chain of
 * dependent operations 5 long, not Horner's 12: a cell's five exponentials in a row would
 * otherwise wait on each other's latency), scaled by 2^n through the exponent bits. Inputs
 * are clamped to [-708, 708], where e^x is a normal double. */
__attribute__((target("avx2,fma"))) static __m256d exp4(__m256d x)
{
    static const double inv_fact[13] = {
        1.0, 1.0, 1.0 / 2, 1.0 / 6, 1.0 / 24, 1.0 / 120, 1.0 / 720, 1.0 / 5040, 1.0 / 40320,
        1.0 / 362880, 1.0 / 3628800, 1.0 / 39916800, 1.0 / 479001600};
    x = _mm256_min_pd(_mm256_max_pd(x, _mm256_set1_pd(-708.0)), _mm256_set1_pd(708.0));
    __m256d n = _mm256_round_pd(_mm256_mul_pd(x, _mm256_set1_pd(1.4426950408889634)),
                                _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    __m256d r = _mm256_fnmadd_pd(n, _mm256_set1_pd(6.93147180369123816490e-01), x);
    r = _mm256_fnmadd_pd(n, _mm256_set1_pd(1.90821492927058770002e-10), r);
    /* Estrin's scheme: pairs, then pairs of pairs, ... (a chain of 5 instead of 12) */
#define C_(k) _mm256_set1_pd(inv_fact[k])
    const __m256d r2 = _mm256_mul_pd(r, r), r4 = _mm256_mul_pd(r2, r2), r8 = _mm256_mul_pd(r4, r4);
    const __m256d p01 = _mm256_fmadd_pd(C_(1), r, C_(0)), p23 = _mm256_fmadd_pd(C_(3), r, C_(2));
    const __m256d p45 = _mm256_fmadd_pd(C_(5), r, C_(4)), p67 = _mm256_fmadd_pd(C_(7), r, C_(6));
    const __m256d p89 = _mm256_fmadd_pd(C_(9), r, C_(8)), pab = _mm256_fmadd_pd(C_(11), r, C_(10));
    const __m256d p03 = _mm256_fmadd_pd(p23, r2, p01), p47 = _mm256_fmadd_pd(p67, r2, p45);
    const __m256d p8b = _mm256_fmadd_pd(pab, r2, p89);
    const __m256d p07 = _mm256_fmadd_pd(p47, r4, p03), p8c = _mm256_fmadd_pd(C_(12), r4, p8b);
    const __m256d p = _mm256_fmadd_pd(p8c, r8, p07);
#undef C_
    __m256i e = _mm256_cvtepi32_epi64(_mm256_cvtpd_epi32(n));
    e = _mm256_slli_epi64(_mm256_add_epi64(e, _mm256_set1_epi64x(1023)), 52);
    return _mm256_mul_pd(p, _mm256_castsi256_pd(e));
}

__attribute__((target("avx2,fma"), always_inline)) static inline __m256d sig4(__m256d x)
{
    const __m256d one = _mm256_set1_pd(1.0);
    return _mm256_div_pd(one, _mm256_add_pd(one, exp4(_mm256_sub_pd(_mm256_setzero_pd(), x))));
}

/* tanh|x| = (1 - e) / (1 + e) with e = exp(-2|x|), the sign put back. */
__attribute__((target("avx2,fma"), always_inline)) static inline __m256d tanh4(__m256d x)
{
    const __m256d one = _mm256_set1_pd(1.0), sign = _mm256_set1_pd(-0.0);
    const __m256d ax = _mm256_andnot_pd(sign, x);
    const __m256d e = exp4(_mm256_mul_pd(ax, _mm256_set1_pd(-2.0)));
    const __m256d t = _mm256_div_pd(_mm256_sub_pd(one, e), _mm256_add_pd(one, e));
    return _mm256_or_pd(t, _mm256_and_pd(sign, x));
}

__attribute__((target("avx2,fma"))) static size_t sigmoid_avx2(size_t n, double *v)
{
    size_t j = 0;
    for (; j + 4 <= n; j += 4)
        _mm256_storeu_pd(v + j, sig4(_mm256_loadu_pd(v + j)));
    return j;
}

__attribute__((target("avx2,fma"))) static size_t tanh_avx2(size_t n, double *v)
{
    size_t j = 0;
    for (; j + 4 <= n; j += 4)
        _mm256_storeu_pd(v + j, tanh4(_mm256_loadu_pd(v + j)));
    return j;
}

/* The pre-activations of 4 rows from r, summed as pre_rows sums them (cell.c). */
__attribute__((target("avx2,fma"), always_inline)) static inline __m256d
pre4(const kern64_pre *p, size_t r)
{
    __m256d v = _mm256_add_pd(_mm256_loadu_pd(p->a + r), _mm256_loadu_pd(p->y + r));
    if (p->da)
        v = _mm256_add_pd(v, _mm256_cvtps_pd(_mm_loadu_ps(p->da + r)));
    if (p->dy)
        v = _mm256_add_pd(v, _mm256_cvtps_pd(_mm_loadu_ps(p->dy + r)));
    return v;
}

/* The cells 4 units at a time in two passes, the gates of every unit (a GRU's r and z)
 * and then the states, each value rounded as the plain cell with this set's nonlinearities
 * rounds it (so the numbers are that cell's); the units past the last multiple of 4 by that
 * cell. In one pass a unit's state would wait on its gates' exponentials, and the
 * processor would see too few units at once to hide that wait. */
__attribute__((target("avx2,fma"))) NO_CONTRACT void
lstm64_avx2(const kern_set *k, size_t H, const kern64_pre *p, double *g, double *t, double *c,
            double *h)
{
    double *q = g ? g : t; /* the gates: i f g o */
    const size_t n4 = H / 4 * 4;
    for (size_t j = 0; j < n4; j += 4) {
        _mm256_storeu_pd(q + j, sig4(pre4(p, j)));
        _mm256_storeu_pd(q + H + j, sig4(pre4(p, H + j)));
        _mm256_storeu_pd(q + 2 * H + j, tanh4(pre4(p, 2 * H + j)));
        _mm256_storeu_pd(q + 3 * H + j, sig4(pre4(p, 3 * H + j)));
    }
    for (size_t j = 0; j < n4; j += 4) {
        const __m256d i = _mm256_loadu_pd(q + j), f = _mm256_loadu_pd(q + H + j);
        const __m256d n = _mm256_loadu_pd(q + 2 * H + j);
        const __m256d cn = _mm256_add_pd(_mm256_mul_pd(f, _mm256_loadu_pd(c + j)),
                                         _mm256_mul_pd(i, n));
        _mm256_storeu_pd(c + j, cn);
        _mm256_storeu_pd(h + j, _mm256_mul_pd(_mm256_loadu_pd(q + 3 * H + j), tanh4(cn)));
    }
    if (n4 < H)
        cell64_lstm_from(k, H, n4, p, g, t, c, h);
}

__attribute__((target("avx2,fma"))) NO_CONTRACT void
gru64_avx2(const kern_set *k, size_t H, const kern64_pre *p, double *g, double *t, double *h)
{
    double *q = g ? g : t; /* the gates: r z n */
    const size_t n4 = H / 4 * 4;
    for (size_t j = 0; j < n4; j += 4) {
        _mm256_storeu_pd(q + j, sig4(pre4(p, j)));
        _mm256_storeu_pd(q + H + j, sig4(pre4(p, H + j)));
    }
    for (size_t j = 0; j < n4; j += 4) {
        const size_t r = 2 * H + j;
        __m256d an = _mm256_loadu_pd(p->a + r), yn = _mm256_loadu_pd(p->y + r);
        if (p->da)
            an = _mm256_add_pd(an, _mm256_cvtps_pd(_mm_loadu_ps(p->da + r)));
        if (p->dy)
            yn = _mm256_add_pd(yn, _mm256_cvtps_pd(_mm_loadu_ps(p->dy + r)));
        const __m256d n = tanh4(_mm256_add_pd(an, _mm256_mul_pd(_mm256_loadu_pd(q + j), yn)));
        const __m256d z = _mm256_loadu_pd(q + H + j), hv = _mm256_loadu_pd(h + j);
        _mm256_storeu_pd(q + r, n);
        const __m256d keep = _mm256_sub_pd(_mm256_set1_pd(1.0), z);
        _mm256_storeu_pd(h + j, _mm256_add_pd(_mm256_mul_pd(keep, n), _mm256_mul_pd(z, hv)));
    }
    if (n4 < H)
        cell64_gru_from(k, H, n4, p, g, t, h);
}

/* exp(x) for 8 doubles: x = (16 q + i) ln2/16 + r with |r| <= ln2/32, e^x = 2^q 2^(i/16) e^r,
 * 2^(i/16) from a table of 16 (one two-table permute), e^r by its Taylor polynomial of
 * degree 7 (truncation below 2e-18 relative); the table's and the arithmetic's rounding
 * leave a relative error below 4e-16. Inputs are clamped to [-708, 708]. */
__attribute__((target("avx512f"), always_inline)) static inline __m512d exp8(__m512d x)
{
    static const double tab[16] = {
        1.0, 1.0442737824274138, 1.0905077326652577, 1.1387886347566916,
        1.189207115002721, 1.241857812073484, 1.2968395546510096, 1.3542555469368927,
        1.4142135623730951, 1.4768261459394993, 1.5422108254079407, 1.6104903319492543,
        1.681792830507429, 1.7562521603732995, 1.8340080864093424, 1.9152065613971474};
    x = _mm512_min_pd(_mm512_max_pd(x, _mm512_set1_pd(-708.0)), _mm512_set1_pd(708.0));
    /* k = x 16/ln2 rounded to an integer: added to 1.5 * 2^52, whose last place is 1, it
     * is the low bits of the sum (the table's index in its last four) */
    const __m512d shift = _mm512_set1_pd(6755399441055744.0);
    const __m512d ks = _mm512_fmadd_pd(x, _mm512_set1_pd(23.083120654223414), shift);
    const __m512d k = _mm512_sub_pd(ks, shift);
    /* ln2/16 in two parts, the first exact times any k here (|k| < 2^14) */
    __m512d r = _mm512_fnmadd_pd(k, _mm512_set1_pd(0.04332169877307024), x);
    r = _mm512_fnmadd_pd(k, _mm512_set1_pd(1.1926343307941173e-11), r);
    __m512d p = _mm512_set1_pd(1.0 / 5040);
    p = _mm512_fmadd_pd(p, r, _mm512_set1_pd(1.0 / 720));
    p = _mm512_fmadd_pd(p, r, _mm512_set1_pd(1.0 / 120));
    p = _mm512_fmadd_pd(p, r, _mm512_set1_pd(1.0 / 24));
    p = _mm512_fmadd_pd(p, r, _mm512_set1_pd(1.0 / 6));
    p = _mm512_fmadd_pd(p, r, _mm512_set1_pd(0.5));
    p = _mm512_fmadd_pd(p, r, _mm512_set1_pd(1.0));
    p = _mm512_fmadd_pd(p, r, _mm512_set1_pd(1.0));
    const __m512i ki = _mm512_castpd_si512(ks);
    const __m512d t = _mm512_permutex2var_pd(_mm512_loadu_pd(tab), ki, _mm512_loadu_pd(tab + 8));
    /* 2^q, q = floor(k / 16): the low 12 bits of ks / 16 + 1023 hold q + 1023 */
    const __m512i e =
        _mm512_slli_epi64(_mm512_add_epi64(_mm512_srli_epi64(ki, 4), _mm512_set1_epi64(1023)), 52);
    return _mm512_mul_pd(_mm512_mul_pd(p, t), _mm512_castsi512_pd(e));
}

__attribute__((target("avx512f"), always_inline)) static inline __m512d sig8(__m512d x)
{
    const __m512d one = _mm512_set1_pd(1.0);
    return _mm512_div_pd(one, _mm512_add_pd(one, exp8(_mm512_sub_pd(_mm512_setzero_pd(), x))));
}

/* tanh|x| = (1 - e) / (1 + e) with e = exp(-2|x|), the sign put back. */
__attribute__((target("avx512f"), always_inline)) static inline __m512d tanh8(__m512d v)
{
    const __m512d one = _mm512_set1_pd(1.0);
    const __m512i sign = _mm512_set1_epi64((long long)0x8000000000000000ULL);
    const __m512i x = _mm512_castpd_si512(v);
    const __m512d ax = _mm512_castsi512_pd(_mm512_andnot_si512(sign, x));
    const __m512d e = exp8(_mm512_mul_pd(ax, _mm512_set1_pd(-2.0)));
    const __m512d t = _mm512_div_pd(_mm512_sub_pd(one, e), _mm512_add_pd(one, e));
    return _mm512_castsi512_pd(_mm512_or_si512(_mm512_castpd_si512(t), _mm512_and_si512(sign, x)));
}

__attribute__((target("avx512f"))) static size_t sigmoid_avx512(size_t n, double *v)
{
    size_t j = 0;
    for (; j + 8 <= n; j += 8)
        _mm512_storeu_pd(v + j, sig8(_mm512_loadu_pd(v + j)));
    return j;
}

__attribute__((target("avx512f"))) static size_t tanh_avx512(size_t n, double *v)
{
    size_t j = 0;
    for (; j + 8 <= n; j += 8)
        _mm512_storeu_pd(v + j, tanh8(_mm512_loadu_pd(v + j)));
    return j;
}

/* The pre-activations of 8 rows from r. */
__attribute__((target("avx512f"), always_inline)) static inline __m512d
pre8(const kern64_pre *p, size_t r)
{
    const double *a = p->a, *y = p->y;
    const float *da = p->da, *dy = p->dy;
    __m512d v = _mm512_add_pd(_mm512_loadu_pd(a + r), _mm512_loadu_pd(y + r));
    if (da)
        v = _mm512_add_pd(v, _mm512_cvtps_pd(_mm256_loadu_ps(da + r)));
    if (dy)
        v = _mm512_add_pd(v, _mm512_cvtps_pd(_mm256_loadu_ps(dy + r)));
    return v;
}

/* The cells 8 units at a time, the gates in registers; the units past the last multiple
 * of 8 by the plain cell with this set's nonlinearities. */
__attribute__((target("avx512f"))) void lstm64_avx512(const kern_set *k, size_t H,
                                                     const kern64_pre *p, double *g,
                                                     double *t, double *c, double *h)
{
    size_t j = 0;
    for (; j + 8 <= H; j += 8) {
        const __m512d i = sig8(pre8(p, j)), f = sig8(pre8(p, H + j));
        const __m512d n = tanh8(pre8(p, 2 * H + j));
        const __m512d o = sig8(pre8(p, 3 * H + j));
        const __m512d cn = _mm512_add_pd(_mm512_mul_pd(f, _mm512_loadu_pd(c + j)),
                                         _mm512_mul_pd(i, n));
        _mm512_storeu_pd(c + j, cn);
        _mm512_storeu_pd(h + j, _mm512_mul_pd(o, tanh8(cn)));
        if (g) {
            _mm512_storeu_pd(g + j, i);
            _mm512_storeu_pd(g + H + j, f);
            _mm512_storeu_pd(g + 2 * H + j, n);
            _mm512_storeu_pd(g + 3 * H + j, o);
        }
    }
    if (j < H)
        cell64_lstm_from(k, H, j, p, g, t, c, h);
}

__attribute__((target("avx512f"))) void gru64_avx512(const kern_set *k, size_t H,
                                                    const kern64_pre *p, double *g, double *t,
                                                    double *h)
{
    const double *a = p->a, *y = p->y;
    const float *da = p->da, *dy = p->dy;
    size_t j = 0;
    for (; j + 8 <= H; j += 8) {
        const __m512d r = sig8(pre8(p, j)), z = sig8(pre8(p, H + j));
        const size_t q = 2 * H + j;
        __m512d an = _mm512_loadu_pd(a + q), yn = _mm512_loadu_pd(y + q);
        if (da)
            an = _mm512_add_pd(an, _mm512_cvtps_pd(_mm256_loadu_ps(da + q)));
        if (dy)
            yn = _mm512_add_pd(yn, _mm512_cvtps_pd(_mm256_loadu_ps(dy + q)));
        const __m512d n = tanh8(_mm512_add_pd(an, _mm512_mul_pd(r, yn)));
        const __m512d hv = _mm512_loadu_pd(h + j);
        _mm512_storeu_pd(h + j, _mm512_add_pd(_mm512_mul_pd(_mm512_sub_pd(_mm512_set1_pd(1.0), z), n),
                                              _mm512_mul_pd(z, hv)));
        if (g) {
            _mm512_storeu_pd(g + j, r);
            _mm512_storeu_pd(g + H + j, z);
            _mm512_storeu_pd(g + 2 * H + j, n);
        }
    }
    if (j < H)
        cell64_gru_from(k, H, j, p, g, t, h);
}

/* AVX-512 on blocks of 8, then AVX2 on blocks of 4, then libm. */
void act64_avx512(size_t n, double *v, int tanh_)
{
    size_t j = tanh_ ? tanh_avx512(n, v) : sigmoid_avx512(n, v);
    j += tanh_ ? tanh_avx2(n - j, v + j) : sigmoid_avx2(n - j, v + j);
    act64_libm(n, v, j, tanh_);
}

void act64_avx2(size_t n, double *v, int tanh_)
{
    act64_libm(n, v, tanh_ ? tanh_avx2(n, v) : sigmoid_avx2(n, v), tanh_);
}
#endif
