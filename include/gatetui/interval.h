/* 95% intervals (doc/measures.md, "Error bars"): computed in a stated, repeatable way (no
 * random resampling), so that a float64 reference can check them; written as text one way
 * everywhere ("[lo, hi]"), and compared between models.
 *
 * - A half-life by the jackknife over windows: leave one window's pairs out, recompute
 *   the mean curve and its half-life t_w (w = 1..n); SE = sqrt((n-1)/n sum_w (t_w - mean
 *   t)^2); theta +- INTERVAL_Z95 SE, not clipped. A t_w past the horizon K counts as K for
 *   the lower end and leaves the upper end open (null); a theta past K has [null, null].
 * - A mean over folds (the probe's AUC): mean +- INTERVAL_Z95 sd / sqrt(n), sd the sample
 *   deviation (over n - 1). */
#ifndef GATETUI_INTERVAL_H
#define GATETUI_INTERVAL_H

#include <stddef.h>

#define INTERVAL_Z95 1.96 /* the normal quantile of a two-sided 95% interval */

typedef struct gt_interval {
    double lo, hi;      /* the ends; NAN: null (hi: open, a leave-one-out value past K) */
    int has;            /* 0: there is no interval (JSON null): the value does not exist,
                           or fewer than two windows (folds) give one */
    int beyond;         /* the value itself is past the horizon (null in JSON, "> K" in text,
                           its interval [null, null]) */
} gt_interval;

/* The jackknife interval of a half-life theta (NAN: none within K) from its leave-one-out
 * values t[0..n) (NAN: none within K). exists: theta is a half-life at all (a curve that
 * starts above zero); without it there is no interval and nothing is beyond. */
void interval_jackknife(gt_interval *ci, double theta, int exists, const double *t, size_t n,
                        int K);

/* The half-width of the jackknife's 95% interval over windows (1.96 SE) of a ratio of sums,
 * sum(a)/sum(na), less sum(b)/sum(nb) when b is given (a mean per position of each class,
 * a[w] the sum of window w's values and na[w] its positions): each window that holds a
 * position of either left out in turn. NAN when fewer than two windows hold one or leaving
 * one out empties a class. */
double interval_ratio_hw(const double *a, const size_t *na, const double *b, const size_t *nb,
                         size_t nwin);

/* The interval of the mean of the n values that are not NaN, each stride bytes after the
 * one before from v (the folds' AUCs in their structs), by their sample deviation; none
 * with fewer than two of them. */
void interval_mean(gt_interval *ci, const double *v, size_t n, size_t stride);

/* The interval as text: "[lo, hi]" with `decimals` decimals, "[lo, > K]" with the upper end
 * open; "-" without one (beyond the horizon included: the value says "> K"). Returns buf. */
const char *interval_text(const gt_interval *ci, int K, int decimals, char *buf, size_t len);

/* 1 when a and b both have an interval and the two do not overlap (an open upper end
 * reaches past any number); 0 otherwise. */
int interval_apart(const gt_interval *a, const gt_interval *b);

#endif
