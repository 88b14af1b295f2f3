/* The kernels of each set, for the table in dispatch.c: plain C (_c) and the vectorised
 * versions (_avx2, _avx512, compiled only for x86-64). Their meaning is in kernels.h, at
 * the table's members of the same name. */
#ifndef GATETUI_VARIANTS_H
#define GATETUI_VARIANTS_H

#include "compute/kernels.h"
#include "compute/x86.h"

/* float32, one stream (kernels.c) */
void gemv_c(size_t rows, size_t cols, const float *W, const float *x, const float *bias,
            float *y, int backward);
void act_c(size_t n, float *v, int tanh_);
/* double, a batch (kernels64.c) */
void gemm64_c(const gt_mat64 *A, size_t nb, const double *X, size_t ldx, const double *bias,
              double *Y, size_t ldy, int accumulate);
void act64_c(size_t n, double *v, int tanh_);
/* float32 products over a batch (gemm32.c) */
void gemm32_c(const gt_mat32 *A, size_t nb, const float *X, size_t ldx, float *Y, size_t ldy);
void gemm32_t_c(const gt_mat32 *A, size_t nb, const float *XT, float *Y, size_t ldy,
                const double *x0, double *y0);
void gemv64_c(const gt_mat32 *A, const double *x, double *y);
/* running sums (moments.c) */
void moments_c(size_t n, const float *x, const double *base, double *s, double *q);

#ifdef GT_X86
void gemv_avx2(size_t rows, size_t cols, const float *W, const float *x, const float *bias,
               float *y, int backward);
void gemv_avx512(size_t rows, size_t cols, const float *W, const float *x, const float *bias,
                 float *y, int backward);
void act_avx2(size_t n, float *v, int tanh_);
void act_avx512(size_t n, float *v, int tanh_);
void lstm_avx512(const kern_set *k, size_t H, const float *xp, float *a, float *c, float *h);

void gemm64_avx2(const gt_mat64 *A, size_t nb, const double *X, size_t ldx, const double *bias,
                 double *Y, size_t ldy, int accumulate);
void act64_avx2(size_t n, double *v, int tanh_);
void act64_avx512(size_t n, double *v, int tanh_);
void lstm64_avx2(const kern_set *k, size_t H, const kern64_pre *p, double *g, double *t,
                 double *c, double *h);
void gru64_avx2(const kern_set *k, size_t H, const kern64_pre *p, double *g, double *t,
                double *h);
void lstm64_avx512(const kern_set *k, size_t H, const kern64_pre *p, double *g, double *t,
                   double *c, double *h);
void gru64_avx512(const kern_set *k, size_t H, const kern64_pre *p, double *g, double *t,
                  double *h);

void gemm32_avx2(const gt_mat32 *A, size_t nb, const float *X, size_t ldx, float *Y,
                 size_t ldy);
void gemm32_avx512(const gt_mat32 *A, size_t nb, const float *X, size_t ldx, float *Y,
                   size_t ldy);
void gemm32_t_avx512(const gt_mat32 *A, size_t nb, const float *XT, float *Y, size_t ldy,
                     const double *x0, double *y0);
void gemv64_avx2(const gt_mat32 *A, const double *x, double *y);
void gemv64_avx512(const gt_mat32 *A, const double *x, double *y);
void moments_avx2(size_t n, const float *x, const double *base, double *s, double *q);
void moments_avx512(size_t n, const float *x, const double *base, double *s, double *q);
#endif

#endif
