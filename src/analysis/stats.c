/* Summary statistics: a radix sort of floats, interpolated quantiles (of sorted values, or by
 * selection), means, half-lives. */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gatetui/stats.h"

static int cmp_float(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return x < y ? -1 : x > y;
}

/* Ascending, NaN after every number (a consistent order: qsort's needs one). */
static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    if (isnan(x) || isnan(y))
        return isnan(x) - isnan(y);
    return x < y ? -1 : x > y;
}

/* The float's bits as an unsigned key in the float's order. */
static uint32_t key_of(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u & 0x80000000u ? ~u : u | 0x80000000u;
}

static float float_of(uint32_t k)
{
    uint32_t u = k & 0x80000000u ? k & 0x7FFFFFFFu : ~k;
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

/* The keys a (n) sorted, a byte at a time from the lowest, with b (n) between passes, and
 * the indices ia alongside (ib between passes) unless ia is NULL. Four passes: the result is
 * in a and ia. */
static void radix_keys(uint32_t *a, uint32_t *b, size_t *ia, size_t *ib, size_t n)
{
    for (int shift = 0; shift < 32; shift += 8) {
        size_t count[257] = {0};
        for (size_t i = 0; i < n; i++)
            count[((a[i] >> shift) & 0xFF) + 1]++;
        for (int d = 0; d < 256; d++)
            count[d + 1] += count[d];
        for (size_t i = 0; i < n; i++) {
            const size_t at = count[(a[i] >> shift) & 0xFF]++;
            b[at] = a[i];
            if (ia)
                ib[at] = ia[i];
        }
        uint32_t *t = a;
        a = b, b = t;
        size_t *it = ia;
        ia = ib, ib = it;
    }
}

int stats_sort_floats(float *v, size_t n)
{
    if (n < 256) {
        qsort(v, n, sizeof *v, cmp_float);
        return 0;
    }
    uint32_t *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
    if (!a || !b) {
        free(a);
        free(b);
        qsort(v, n, sizeof *v, cmp_float);
        return -1;
    }
    for (size_t i = 0; i < n; i++)
        a[i] = key_of(v[i]);
    radix_keys(a, b, NULL, NULL, n);
    for (size_t i = 0; i < n; i++)
        v[i] = float_of(a[i]);
    free(a);
    free(b);
    return 0;
}

/* The buckets by the keys' top 16 bits, and the few that hold the wanted positions. */
#define QB 65536
typedef struct qbuckets {
    size_t start[QB + 1]; /* bucket b holds sorted positions start[b] .. start[b+1]-1 */
    int32_t slot[QB];     /* a wanted bucket's place in the gathered keys' order, else -1 */
} qbuckets;

/* The bucket that holds sorted position p. */
static size_t bucket_of(const qbuckets *qb, size_t p)
{
    size_t lo = 0, hi = QB; /* start[lo] <= p < start[hi] */
    while (hi - lo > 1) {
        const size_t mid = (lo + hi) / 2;
        if (qb->start[mid] <= p)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

/* The values at sorted positions pos[0..m) into val: the wanted buckets' keys gathered (one
 * pass), each bucket sorted; -1 when out of memory. */
static int select_positions(const float *v, size_t n, qbuckets *qb, const size_t *pos, int m,
                            float *val)
{
    size_t off[17], nb = 0;
    for (size_t b = 0; b < QB; b++)
        qb->slot[b] = -1;
    off[0] = 0;
    for (int i = 0; i < m; i++) {
        const size_t b = bucket_of(qb, pos[i]);
        if (qb->slot[b] < 0) {
            qb->slot[b] = (int32_t)nb;
            off[nb + 1] = off[nb] + (qb->start[b + 1] - qb->start[b]);
            nb++;
        }
    }
    uint32_t *keys = malloc(2 * off[nb] * sizeof *keys);
    if (!keys)
        return -1;
    size_t fill[16];
    memcpy(fill, off, nb * sizeof *fill);
    for (size_t i = 0; i < n; i++) {
        const uint32_t k = key_of(v[i]);
        const int32_t sl = qb->slot[k >> 16];
        if (sl >= 0)
            keys[fill[sl]++] = k;
    }
    for (size_t j = 0; j < nb; j++)
        radix_keys(keys + off[j], keys + off[nb] + off[j], NULL, NULL, off[j + 1] - off[j]);
    for (int i = 0; i < m; i++) {
        const size_t b = bucket_of(qb, pos[i]), j = (size_t)qb->slot[b];
        val[i] = float_of(keys[off[j] + pos[i] - qb->start[b]]);
    }
    free(keys);
    return 0;
}

void stats_order_floats(const float *v, size_t n, size_t stride, size_t *order, float *sorted,
                        size_t *order2, uint32_t *key, uint32_t *key2)
{
    for (size_t i = 0; i < n; i++)
        key[i] = key_of(v[i * stride]), order[i] = i;
    radix_keys(key, key2, order, order2, n);
    for (size_t i = 0; i < n; i++)
        sorted[i] = float_of(key[i]);
}

void stats_sort_doubles(double *v, size_t n)
{
    qsort(v, n, sizeof *v, cmp_double);
}

/* a + t (b - a), and a itself when t is 0 or b equals a: two infinite half-lives have an
 * infinite median, not inf - inf. */
static double lerp(double a, double b, double t)
{
    return t == 0 || a == b ? a : a + t * (b - a);
}

static void position(size_t n, double q, size_t *lo, size_t *hi, double *frac)
{
    double pos = q * (double)(n - 1);
    double fl = floor(pos);
    *lo = fl < 0 ? 0 : (size_t)fl;
    if (*lo > n - 1)
        *lo = n - 1;
    *hi = *lo + 1 < n ? *lo + 1 : n - 1;
    *frac = pos - (double)*lo;
}

double stats_quantile_f(const float *sorted, size_t n, double q)
{
    size_t lo, hi;
    double t;
    position(n, q, &lo, &hi, &t);
    return lerp(sorted[lo], sorted[hi], t);
}

int stats_quantiles_f(float *v, size_t n, int k, const double *q, double *out)
{
    qbuckets *qb = k <= 8 && n >= 4096 ? calloc(1, sizeof *qb) : NULL;
    size_t pos[16];
    float val[16];
    double t[8];
    if (qb) {
        for (size_t i = 0; i < n; i++)
            qb->start[(key_of(v[i]) >> 16) + 1]++;
        for (size_t b = 0; b < QB; b++)
            qb->start[b + 1] += qb->start[b];
        for (int i = 0; i < k; i++)
            position(n, q[i], &pos[2 * i], &pos[2 * i + 1], &t[i]);
        if (select_positions(v, n, qb, pos, 2 * k, val) == 0) {
            for (int i = 0; i < k; i++) { /* as stats_quantile_f interpolates */
                out[i] = lerp(val[2 * i], val[2 * i + 1], t[i]);
            }
            free(qb);
            return 0;
        }
        free(qb);
    }
    int rc = stats_sort_floats(v, n);
    for (int i = 0; i < k; i++)
        out[i] = stats_quantile_f(v, n, q[i]);
    return rc;
}

double stats_quantile(const double *sorted, size_t n, double q)
{
    size_t lo, hi;
    double t;
    position(n, q, &lo, &hi, &t);
    return lerp(sorted[lo], sorted[hi], t);
}

double stats_mean_f(const float *v, size_t n)
{
    double s = 0;
    for (size_t i = 0; i < n; i++)
        s += v[i];
    return n ? s / (double)n : 0.0;
}

double stats_mean(const double *v, size_t n)
{
    double s = 0;
    for (size_t i = 0; i < n; i++)
        s += v[i];
    return n ? s / (double)n : 0.0;
}

double stats_halflife(double m)
{
    if (isnan(m))
        return NAN;
    if (!(m > 0))
        return 0.0;
    if (m >= 1)
        return INFINITY;
    return log(0.5) / log(m);
}
