/* Running sums for the correlations (see moments.h). A step of the model reads a few
 * megabytes of weights; the sums read and write three doubles a value of its layer, so
 * they take a few percent of the step only when vectorised. */
#include "config.h"

#include "compute/moments.h"
#include "compute/variants.h"

/* d * d is rounded before the sum in every version, so that they agree bit for bit. */
NO_CONTRACT void moments_c(size_t n, const float *x, const double *base, double *s, double *q)
{
    for (size_t j = 0; j < n; j++) {
        double d = (double)x[j] - base[j];
        s[j] += d;
        q[j] += d * d;
    }
}

#ifdef GT_X86
__attribute__((target("avx512f"))) void moments_avx512(size_t n, const float *x,
                                                              const double *base, double *s,
                                                              double *q)
{
    size_t j = 0;
    for (; j + 8 <= n; j += 8) {
        __m512d d = _mm512_sub_pd(_mm512_cvtps_pd(_mm256_loadu_ps(x + j)),
                                  _mm512_loadu_pd(base + j));
        _mm512_storeu_pd(s + j, _mm512_add_pd(_mm512_loadu_pd(s + j), d));
        _mm512_storeu_pd(q + j, _mm512_add_pd(_mm512_loadu_pd(q + j), _mm512_mul_pd(d, d)));
    }
    moments_c(n - j, x + j, base + j, s + j, q + j);
}

__attribute__((target("avx2"))) void moments_avx2(size_t n, const float *x,
                                                         const double *base, double *s,
                                                         double *q)
{
    size_t j = 0;
    for (; j + 4 <= n; j += 4) {
        __m256d d = _mm256_sub_pd(_mm256_cvtps_pd(_mm_loadu_ps(x + j)),
                                  _mm256_loadu_pd(base + j));
        _mm256_storeu_pd(s + j, _mm256_add_pd(_mm256_loadu_pd(s + j), d));
        _mm256_storeu_pd(q + j, _mm256_add_pd(_mm256_loadu_pd(q + j), _mm256_mul_pd(d, d)));
    }
    moments_c(n - j, x + j, base + j, s + j, q + j);
}
#endif

void kern_moments_ref(size_t n, const float *x, const double *base, double *s, double *q)
{
    moments_c(n, x, base, s, q);
}
