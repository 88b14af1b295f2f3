/* Vectors of the plain C set: 16 bytes, the width every 64-bit processor has (SSE2 on
 * x86-64, NEON on aarch64), as GCC's and clang's vector types, so that the compiler emits
 * the machine's own vector instructions without intrinsics. Arithmetic on them is element
 * by element, with each element's result rounded as in scalar code: a loop over a vector
 * of rows computes exactly the numbers of the scalar loop it replaces. */
#ifndef GATETUI_SIMD_H
#define GATETUI_SIMD_H

#include <string.h>

typedef float v4f __attribute__((vector_size(16)));
typedef double v2d __attribute__((vector_size(16)));
typedef long long v2l __attribute__((vector_size(16))); /* a v2d's bits, or a comparison's */
typedef unsigned long long v2u __attribute__((vector_size(16))); /* bits to shift */

/* Loads and stores at any alignment (memcpy: the compiler emits one unaligned move). */
static inline v4f v4f_load(const float *p)
{
    v4f v;
    memcpy(&v, p, sizeof v);
    return v;
}
static inline void v4f_store(float *p, v4f v)
{
    memcpy(p, &v, sizeof v);
}
static inline v2d v2d_load(const double *p)
{
    v2d v;
    memcpy(&v, p, sizeof v);
    return v;
}
static inline void v2d_store(double *p, v2d v)
{
    memcpy(p, &v, sizeof v);
}
static inline v4f v4f_splat(float x)
{
    return (v4f){x, x, x, x};
}
static inline v2d v2d_splat(double x)
{
    return (v2d){x, x};
}
/* Two floats from p, widened. */
static inline v2d v2d_widen(const float *p)
{
    return (v2d){(double)p[0], (double)p[1]};
}

#endif
