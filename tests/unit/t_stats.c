/* The report's statistics: sorting, interpolated quantiles (numpy's default), means and
 * half-lives. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gatetui/interval.h"
#include "gatetui/stats.h"
#include "../lib/tap.h"

static int cmp_float(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return x < y ? -1 : x > y;
}

/* (value, index) pairs: by value (-0 before +0), then by index (the stable order). */
typedef struct pair {
    float v;
    size_t i;
} pair;

static int cmp_pair(const void *a, const void *b)
{
    const pair *x = a, *y = b;
    if (x->v != y->v)
        return x->v < y->v ? -1 : 1;
    if (signbit(x->v) != signbit(y->v))
        return signbit(x->v) ? -1 : 1;
    return (x->i > y->i) - (x->i < y->i);
}

/* The order of a strided column of floats (many ties, negative, -0 and +0) against qsort's
 * stable order of (value, index). */
static void test_order(void)
{
    enum { N = 5000, S = 3 };
    float *v = malloc(N * S * sizeof *v), *sorted = malloc(N * sizeof *sorted);
    size_t *order = malloc(2 * N * sizeof *order);
    uint32_t *key = malloc(2 * N * sizeof *key);
    pair *p = malloc(N * sizeof *p);
    unsigned s = 777;
    for (size_t i = 0; i < N; i++) {
        s = s * 1103515245u + 12345u;
        float x = (float)((int)(s >> 20) % 41 - 20) / 8; /* 41 values: ties */
        if (i % 7 == 0)
            x = i % 2 ? -0.0f : 0.0f;
        v[i * S + 1] = x, v[i * S] = v[i * S + 2] = 1e9f; /* the other columns */
        p[i] = (pair){x, i};
    }
    stats_order_floats(v + 1, N, S, order, sorted, order + N, key, key + N);
    qsort(p, N, sizeof *p, cmp_pair);
    int same = 1;
    for (size_t i = 0; i < N; i++)
        same &= order[i] == p[i].i && sorted[i] == p[i].v;
    tap_ok(same, "the order of 5000 strided floats (ties, -0 and +0) is the stable one");
    free(v), free(sorted), free(order), free(key), free(p);
}

static void test_quantiles(void)
{
    const double v[] = {1, 2, 3, 4};
    tap_near(stats_quantile(v, 4, 0.5), 2.5, 1e-15, "median of 1..4");
    tap_near(stats_quantile(v, 4, 0.05), 1.15, 1e-15, "q05 of 1..4 (position 0.15)");
    tap_near(stats_quantile(v, 4, 0.95), 3.85, 1e-15, "q95 of 1..4 (position 2.85)");
    tap_near(stats_quantile(v, 4, 0), 1, 0, "q0 is the minimum");
    tap_near(stats_quantile(v, 4, 1), 4, 0, "q1 is the maximum");
    tap_near(stats_quantile(v + 2, 1, 0.3), 3, 0, "one value: every quantile is it");
    const float f[] = {0.1f, 0.2f, 0.4f, 0.8f, 1.6f};
    tap_near(stats_quantile_f(f, 5, 0.25), 0.2f, 1e-15, "float q25 of 5 values (position 1)");
    tap_near(stats_quantile_f(f, 5, 0.6), (double)0.4f + 0.4 * ((double)0.8f - (double)0.4f),
             1e-15, "float q60 of 5 values (position 2.4)");
    /* carry gates of exactly 1 give infinite half-lives: their quantiles are infinite, never
     * inf - inf */
    const double hl[] = {2, INFINITY, INFINITY, INFINITY};
    tap_ok(isinf(stats_quantile(hl, 4, 0.5)), "median of 2, inf, inf, inf is inf (%g)",
           stats_quantile(hl, 4, 0.5));
    tap_ok(isinf(stats_quantile(hl, 4, 1)), "max of them is inf (%g)", stats_quantile(hl, 4, 1));
    tap_ok(isinf(stats_quantile(hl, 4, 0.2)), "between 2 and inf: inf (%g)",
           stats_quantile(hl, 4, 0.2));
    tap_near(stats_quantile(hl, 4, 0), 2, 0, "q0 of 2, inf, inf, inf is 2");
    const float fi[] = {0.5f, INFINITY, INFINITY};
    tap_ok(isinf(stats_quantile_f(fi, 3, 0.5)), "float median of 0.5, inf, inf is inf (%g)",
           stats_quantile_f(fi, 3, 0.5));
}

/* NaN (a half-life of a state that overflowed) sorts after every number, infinities before
 * it: one consistent order. */
static void test_sort_nan(void)
{
    double v[] = {3, NAN, INFINITY, 1, NAN, -1, INFINITY, 2};
    stats_sort_doubles(v, 8);
    tap_ok(v[0] == -1 && v[1] == 1 && v[2] == 2 && v[3] == 3 && isinf(v[4]) && isinf(v[5]) &&
               isnan(v[6]) && isnan(v[7]),
           "doubles with NaN sorted: -1 1 2 3 inf inf nan nan (%g %g %g %g %g %g %g %g)", v[0],
           v[1], v[2], v[3], v[4], v[5], v[6], v[7]);
}

static void test_sort(void)
{
    unsigned s = 12345;
    size_t n = 100000;
    float *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
    for (size_t i = 0; i < n; i++) {
        s = s * 1103515245u + 12345u;
        float v = (float)((int)(s >> 8) - (1 << 23)) / (float)(1 << 20);
        if (i % 1000 == 0)
            v = -0.0f;
        if (i % 1001 == 0)
            v = 0.0f;
        if (i % 997 == 0)
            v = 1e-30f * (float)(i % 5) - 2e-30f;
        a[i] = b[i] = v;
    }
    stats_sort_floats(a, n);
    qsort(b, n, sizeof *b, cmp_float);
    int same = 1;
    for (size_t i = 0; i < n; i++)
        same &= a[i] == b[i];
    tap_ok(same, "radix sort of 100000 floats (negative, zero, tiny) agrees with qsort");
    int ordered = 1;
    for (size_t i = 1; i < n; i++)
        ordered &= a[i - 1] <= a[i];
    tap_ok(ordered, "sorted ascending");
    float few[] = {3, -1, 2};
    stats_sort_floats(few, 3);
    tap_ok(few[0] == -1 && few[1] == 2 && few[2] == 3, "three values sorted");
    free(a);
    free(b);
}

/* The quantiles by selection against the sorted values' (stats_quantile_f), bit for bit:
 * gate-like values (many exactly 0 and 1, the rest in between), values of both signs with
 * -0 and +0 and ties, all equal, and sizes below and above the selection's threshold. */
static void test_select(void)
{
    static const double q[6] = {0.05, 0.25, 0.5, 0.75, 0.95, 1.0};
    static const size_t sizes[] = {1, 2, 7, 4095, 4096, 4097, 65537, 300000};
    unsigned s = 777;
    int same = 1, cases = 0;
    for (size_t z = 0; z < sizeof sizes / sizeof *sizes; z++)
        for (int kind = 0; kind < 3; kind++) {
            const size_t n = sizes[z];
            float *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
            for (size_t i = 0; i < n; i++) {
                s = s * 1103515245u + 12345u;
                const float u = (float)(s >> 8) / (float)(1 << 24);
                float v = kind == 2 ? 0.5f
                          : kind == 0 ? (u < 0.3f ? 0.0f : u > 0.7f ? 1.0f : u)
                                      : (float)((int)(s >> 8) - (1 << 23)) / (float)(1 << 16);
                if (kind == 1 && i % 7 == 0)
                    v = i % 14 ? -0.0f : 0.0f;
                a[i] = b[i] = v;
            }
            double got[6];
            stats_quantiles_f(a, n, 6, q, got);
            stats_sort_floats(b, n);
            for (int i = 0; i < 6; i++) {
                const double want = stats_quantile_f(b, n, q[i]);
                same &= memcmp(&got[i], &want, sizeof want) == 0;
            }
            cases++;
            free(a);
            free(b);
        }
    tap_ok(same, "quantiles by selection equal the sorted values' bit for bit (%d cases, n 1 "
           "to 300000, saturated, signed with -0 and +0, all equal)", cases);
}

static void test_means(void)
{
    const float f[] = {0.25f, 0.5f, 0.75f, 1.0f};
    tap_near(stats_mean_f(f, 4), 0.625, 1e-15, "mean of floats");
    const double d[] = {1, 2, 6};
    tap_near(stats_mean(d, 3), 3, 1e-15, "mean of doubles");
    tap_near(stats_mean(d, 0), 0, 0, "mean of nothing is 0");
}

static void test_halflife(void)
{
    tap_near(stats_halflife(0.5), 1, 1e-15, "half-life of 0.5 per step: 1 step");
    tap_near(stats_halflife(0.75), log(0.5) / log(0.75), 1e-15, "half-life of 0.75: 2.41");
    /* ln 0.5 / ln m to 30 digits (Python's decimal): 0.98570766304073190027 and
     * 68.967563936528493296; double precision gives them within a few units of 1e-16 */
    tap_near(stats_halflife(0.495), 0.98570766304073190, 1e-12, "a median unit: 0.495 gives 0.9857");
    tap_near(stats_halflife(0.99), 68.967563936528493, 1e-11, "0.99 holds 68.97 steps");
    tap_ok(isinf(stats_halflife(1.0)), "a gate at 1 never forgets: infinite half-life");
    tap_near(stats_halflife(0), 0, 0, "a gate at 0 forgets at once: half-life 0");
    tap_ok(isnan(stats_halflife(NAN)), "a gate that overflowed (NaN) has no half-life: NaN");
}

/* The 95% intervals on values worked out by hand (doc/measures.md, "Error bars"). */
static void test_intervals(void)
{
    gt_interval ci;
    /* leave-one-out 9, 10, 11, 10: mean 10, squares 2, SE = sqrt(3/4 * 2) = sqrt(1.5) */
    const double t[4] = {9, 10, 11, 10};
    interval_jackknife(&ci, 10.5, 1, t, 4, 64);
    tap_ok(ci.has && !ci.beyond && fabs(ci.lo - (10.5 - 1.96 * sqrt(1.5))) < 1e-14 &&
               fabs(ci.hi - (10.5 + 1.96 * sqrt(1.5))) < 1e-14,
           "the jackknife: theta +- 1.96 sqrt((n-1)/n sum (t_w - mean)^2), centred on theta "
           "(%.15g, %.15g)", ci.lo, ci.hi);
    /* one past K = 16 counts as 16: 9, 10, 16, 10, mean 11.25, squares 5.0625 + 1.5625 +
       22.5625 + 1.5625 = 30.75; the upper end open */
    const double u[4] = {9, 10, NAN, 10};
    interval_jackknife(&ci, 10.5, 1, u, 4, 16);
    tap_ok(ci.has && fabs(ci.lo - (10.5 - 1.96 * sqrt(0.75 * 30.75))) < 1e-13 && isnan(ci.hi),
           "a leave-one-out value past K counts as K for the lower end, the upper end open");
    interval_jackknife(&ci, NAN, 1, t, 4, 64);
    tap_ok(ci.has && ci.beyond && isnan(ci.lo) && isnan(ci.hi),
           "theta past K: [null, null], beyond the horizon");
    interval_jackknife(&ci, NAN, 0, t, 4, 64);
    tap_ok(!ci.has && !ci.beyond, "a half-life that does not exist: no interval, not beyond");
    interval_jackknife(&ci, NAN, 1, t, 1, 64);
    tap_ok(!ci.has && ci.beyond, "one window: no interval, but past K all the same");
    /* AUCs 0.9, 1.0, (none), 0.95 in structs of three doubles: mean 0.95, sd 0.05 */
    const double aucs[4][3] = {{0.9, 0, 0}, {1.0, 0, 0}, {NAN, 0, 0}, {0.95, 0, 0}};
    interval_mean(&ci, &aucs[0][0], 4, sizeof aucs[0]);
    double hw = 1.96 * 0.05 / sqrt(3);
    tap_ok(ci.has && fabs(ci.lo - (0.95 - hw)) < 1e-15 && fabs(ci.hi - (0.95 + hw)) < 1e-15,
           "the mean's interval over the folds with a value: mean +- 1.96 sd / sqrt(3), sd "
           "over n - 1 (%.15g, %.15g)", ci.lo, ci.hi);
    interval_mean(&ci, &aucs[1][0], 2, sizeof aucs[0]);
    tap_ok(!ci.has, "one fold with a value: no interval");
    char buf[48];
    gt_interval a = {9.46, 11.35, 1, 0}, b = {11.36, NAN, 1, 0}, c = {8.0, 9.46, 1, 0};
    tap_ok(!strcmp(interval_text(&a, 64, 1, buf, sizeof buf), "[9.5, 11.3]") &&
               !strcmp(interval_text(&b, 64, 2, buf, sizeof buf), "[11.36, > 64]") &&
               !strcmp(interval_text(&(gt_interval){NAN, NAN, 1, 1}, 64, 1, buf, sizeof buf), "-"),
           "its text: [lo, hi], [lo, > K] with the upper end open, - past K");
    tap_ok(interval_apart(&a, &b) && interval_apart(&b, &a) && !interval_apart(&a, &c) &&
               interval_apart(&b, &c) && !interval_apart(&a, &(gt_interval){0, 20, 0, 0}),
           "apart: no overlap (an open end reaches past any number; touching overlaps; none "
           "without an interval)");
}

int main(void)
{
    test_quantiles();
    test_sort();
    test_sort_nan();
    test_order();
    test_select();
    test_means();
    test_halflife();
    test_intervals();
    return tap_done();
}
