/* What this machine can do, for the benchmarks to compare against:
 *   probe fma [THREADS]   float32 FMA peak in GFLOP/s: THREADS threads (default 1) each run
 *                         independent 256-bit FMAs (AVX2; AVX-512 has the same rate on
 *                         processors that split it in two), the best of 5 runs (other
 *                         work on the machine can only lower it).
 *   probe fma64 [THREADS] the same in double precision (4 doubles an FMA).
 *   probe bw BYTES...     read bandwidth in GB/s of one core summing a buffer of BYTES
 *                         (k, K, m, M suffixes) over and over, the best of 5 runs: the
 *                         cache level that holds BYTES.
 * Prints one number per line. */
#include <immintrin.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "clock.h"

#define FMA_ITERS 20000000L

/* 12 independent chains hide the FMA latency; 8 floats x 2 flops each. */
__attribute__((target("avx2,fma"))) static void *fma_loop(void *arg)
{
    float *out = arg;
    __m256 a[12], m = _mm256_set1_ps(0.999999f), c = _mm256_set1_ps(1e-7f);
    for (int i = 0; i < 12; i++)
        a[i] = _mm256_set1_ps((float)i);
    for (long n = 0; n < FMA_ITERS; n++) {
        _Pragma("GCC unroll 12") for (int i = 0; i < 12; i++)
            a[i] = _mm256_fmadd_ps(a[i], m, c);
    }
    __m256 s = a[0];
    for (int i = 1; i < 12; i++)
        s = _mm256_add_ps(s, a[i]);
    *out = _mm256_cvtss_f32(s);
    return NULL;
}

__attribute__((target("avx2,fma"))) static void *fma64_loop(void *arg)
{
    double *out = arg;
    __m256d a[12], m = _mm256_set1_pd(0.999999), c = _mm256_set1_pd(1e-7);
    for (int i = 0; i < 12; i++)
        a[i] = _mm256_set1_pd((double)i);
    for (long n = 0; n < FMA_ITERS; n++) {
        _Pragma("GCC unroll 12") for (int i = 0; i < 12; i++)
            a[i] = _mm256_fmadd_pd(a[i], m, c);
    }
    __m256d s = a[0];
    for (int i = 1; i < 12; i++)
        s = _mm256_add_pd(s, a[i]);
    *out = _mm256_cvtsd_f64(s);
    return NULL;
}

/* lanes: 8 (float32) or 4 (double) per FMA. */
static double fma_peak(int threads, int lanes)
{
    pthread_t t[64];
    double sink[64];
    void *(*loop)(void *) = lanes == 8 ? fma_loop : fma64_loop;
    double t0 = bench_now();
    for (int i = 1; i < threads; i++)
        pthread_create(&t[i], NULL, loop, &sink[i]);
    loop(&sink[0]);
    for (int i = 1; i < threads; i++)
        pthread_join(t[i], NULL);
    double dt = bench_now() - t0;
    return (double)threads * FMA_ITERS * 12 * lanes * 2 / dt / 1e9;
}

__attribute__((target("avx2"))) static double bw(size_t bytes)
{
    size_t n = bytes / sizeof(float) / 64 * 64;
    float *buf = aligned_alloc(64, n * sizeof *buf + 64);
    for (size_t i = 0; i < n; i++)
        buf[i] = (float)(i & 7);
    size_t reps = (size_t)(4e9 / (double)bytes) + 1;
    __m256 s[8];
    for (int k = 0; k < 8; k++)
        s[k] = _mm256_setzero_ps();
    double t0 = bench_now();
    for (size_t r = 0; r < reps; r++)
        for (size_t i = 0; i < n; i += 64) {
            _Pragma("GCC unroll 8") for (int k = 0; k < 8; k++)
                s[k] = _mm256_add_ps(s[k], _mm256_load_ps(buf + i + 8 * k));
        }
    double dt = bench_now() - t0;
    for (int k = 1; k < 8; k++)
        s[0] = _mm256_add_ps(s[0], s[k]);
    volatile float sink = _mm256_cvtss_f32(s[0]);
    (void)sink;
    free(buf);
    return (double)reps * (double)n * sizeof(float) / dt / 1e9;
}

static size_t parse_size(const char *s)
{
    char *end;
    double v = strtod(s, &end);
    if (*end == 'k' || *end == 'K')
        v *= 1024;
    else if (*end == 'm' || *end == 'M')
        v *= 1024 * 1024;
    return (size_t)v;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: probe fma|fma64 [THREADS] | probe bw BYTES...\n");
        return 2;
    }
    double r[5];
    if (strcmp(argv[1], "fma") == 0 || strcmp(argv[1], "fma64") == 0) {
        int th = argc > 2 ? atoi(argv[2]) : 1;
        if (th < 1 || th > 64)
            th = 1;
        for (int k = 0; k < 5; k++)
            r[k] = fma_peak(th, strcmp(argv[1], "fma") == 0 ? 8 : 4);
        qsort(r, 5, sizeof *r, bench_cmp_double);
        printf("%.1f\n", r[4]);
        return 0;
    }
    for (int i = 2; i < argc; i++) {
        size_t b = parse_size(argv[i]);
        for (int k = 0; k < 5; k++)
            r[k] = bw(b);
        qsort(r, 5, sizeof *r, bench_cmp_double);
        printf("%.1f\n", r[4]);
    }
    return 0;
}
