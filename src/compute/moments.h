/* Running sums of float values in double: what the correlations of a unit with a mask are
 * made of (doc/measures.md, "A hypothesis as a regular expression"). */
#ifndef GATETUI_MOMENTS_H
#define GATETUI_MOMENTS_H

#include <stddef.h>

#include "compute/kernels.h"

/* For j < n: d = x[j] - base[j]; s[j] += d; q[j] += d * d. With the kernel set in use
 * (kernels.h); the same numbers as the plain loop. */
static inline void kern_moments(size_t n, const float *x, const double *base, double *s,
                                double *q)
{
    kern()->moments(n, x, base, s, q);
}
/* The plain loop, the reference. */
void kern_moments_ref(size_t n, const float *x, const double *base, double *s, double *q);

#endif
