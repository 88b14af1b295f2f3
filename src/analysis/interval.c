/* 95% intervals: the jackknife over windows, the normal interval of a mean over folds, and
 * their text (interval.h; doc/measures.md, "Error bars"). */
#include "config.h"

#include <math.h>
#include <stdio.h>

#include "gatetui/interval.h"

static void none(gt_interval *ci)
{
    ci->lo = ci->hi = NAN;
    ci->has = ci->beyond = 0;
}

void interval_jackknife(gt_interval *ci, double theta, int exists, const double *t, size_t n,
                        int K)
{
    none(ci);
    if (!exists)
        return;
    ci->beyond = isnan(theta);
    if (n < 2)
        return;
    ci->has = 1;
    if (ci->beyond)
        return;
    double mean = 0, ss = 0;
    int open = 0;
    for (size_t w = 0; w < n; w++) {
        open |= isnan(t[w]);
        mean += isnan(t[w]) ? (double)K : t[w];
    }
    mean /= (double)n;
    for (size_t w = 0; w < n; w++) {
        double d = (isnan(t[w]) ? (double)K : t[w]) - mean;
        ss += d * d;
    }
    const double se = sqrt((double)(n - 1) / (double)n * ss);
    ci->lo = theta - INTERVAL_Z95 * se;
    ci->hi = open ? NAN : theta + INTERVAL_Z95 * se;
}

double interval_ratio_hw(const double *a, const size_t *na, const double *b, const size_t *nb,
                      size_t nwin)
{
    double A = 0, B = 0;
    size_t NA = 0, NB = 0, k = 0;
    for (size_t w = 0; w < nwin; w++) {
        A += a[w];
        NA += na[w];
        B += b ? b[w] : 0;
        NB += b ? nb[w] : 0;
    }
    double sum = 0, sum2 = 0;
    for (int pass = 0; pass < 2; pass++) {
        const double mean = k ? sum / (double)k : 0;
        k = 0;
        for (size_t w = 0; w < nwin; w++) {
            if (!na[w] && !(b && nb[w]))
                continue;
            if (NA == na[w] || (b && NB == nb[w]))
                return NAN;
            double th = (A - a[w]) / (double)(NA - na[w]);
            if (b)
                th -= (B - b[w]) / (double)(NB - nb[w]);
            if (pass)
                sum2 += (th - mean) * (th - mean);
            else
                sum += th;
            k++;
        }
    }
    if (k < 2)
        return NAN;
    return INTERVAL_Z95 * sqrt((double)(k - 1) / (double)k * sum2);
}

void interval_mean(gt_interval *ci, const double *v, size_t n, size_t stride)
{
    none(ci);
    double mean = 0, ss = 0;
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        double a = *(const double *)((const char *)v + i * stride);
        if (!isnan(a))
            mean += a, m++;
    }
    if (m < 2)
        return;
    mean /= (double)m;
    for (size_t i = 0; i < n; i++) {
        double a = *(const double *)((const char *)v + i * stride);
        if (!isnan(a))
            ss += (a - mean) * (a - mean);
    }
    const double hw = INTERVAL_Z95 * sqrt(ss / (double)(m - 1)) / sqrt((double)m);
    ci->has = 1;
    ci->lo = mean - hw;
    ci->hi = mean + hw;
}

const char *interval_text(const gt_interval *ci, int K, int decimals, char *buf, size_t len)
{
    if (!ci->has || ci->beyond || isnan(ci->lo))
        snprintf(buf, len, "-");
    else if (isnan(ci->hi))
        snprintf(buf, len, "[%.*f, > %d]", decimals, ci->lo, K);
    else
        snprintf(buf, len, "[%.*f, %.*f]", decimals, ci->lo, decimals, ci->hi);
    return buf;
}

int interval_apart(const gt_interval *a, const gt_interval *b)
{
    if (!a->has || !b->has || a->beyond || b->beyond)
        return 0;
    const double ahi = isnan(a->hi) ? INFINITY : a->hi, bhi = isnan(b->hi) ? INFINITY : b->hi;
    return ahi < b->lo || bhi < a->lo;
}
