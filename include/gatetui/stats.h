/* Summary statistics for the report: sorting, quantiles, means, half-lives. */
#ifndef GATETUI_STATS_H
#define GATETUI_STATS_H

#include <stddef.h>
#include <stdint.h>

/* Sorts v[0..n) ascending (no NaN). A radix sort: O(n), with n floats of scratch.
 * Returns 0, or -1 when the scratch cannot be allocated (v is then sorted by qsort). */
int stats_sort_floats(float *v, size_t n);
/* Sorts v[0..n) ascending, NaN last. */
void stats_sort_doubles(double *v, size_t n);
/* The indices 0..n-1 into order in the increasing order of the floats v[t * stride] (no NaN;
 * equal values in the order of their indices, -0 before +0), and the values so sorted into
 * sorted: the same radix sort. Scratch: key, key2 and order2 of n each. */
void stats_order_floats(const float *v, size_t n, size_t stride, size_t *order, float *sorted,
                        size_t *order2, uint32_t *key, uint32_t *key2);

/* The q-quantile (0 <= q <= 1) of sorted values, interpolating linearly at the position
 * q*(n-1), as numpy's default; n > 0. Between two equal values (two infinities too) that
 * value. */
double stats_quantile_f(const float *sorted, size_t n, double q);
double stats_quantile(const double *sorted, size_t n, double q);
/* The k q-quantiles of v[0..n) (n > 0, no NaN) into out, exactly stats_quantile_f's of v
 * sorted, without sorting it (for k <= 8 and n >= 4096): the order statistics they need
 * found by a histogram of the values' top 16 bits, then sorting only the buckets that hold
 * them; otherwise, or when that is out of memory, v sorted as stats_sort_floats sorts it.
 * Returns 0, or -1 when even the sort's scratch could not be had (qsort then). */
int stats_quantiles_f(float *v, size_t n, int k, const double *q, double *out);

/* Arithmetic means, summed in double; 0 for n == 0. */
double stats_mean_f(const float *v, size_t n);
double stats_mean(const double *v, size_t n);

/* The half-life in steps of a state multiplied by m at each step: ln 0.5 / ln m.
 * 0 for m <= 0, +infinity for m >= 1 (a carry gate of exactly 1: nothing is forgotten), NaN
 * for NaN (a state that overflowed). */
double stats_halflife(double m);

#endif
