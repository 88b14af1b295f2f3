/* The BLAS routines gatetui calls (their Fortran interface: column-major, every argument by
 * address, each character argument's length after the others). Defined in numlibs.c,
 * which loads the BLAS when one is first called. */
#ifndef GATETUI_BLAS_H
#define GATETUI_BLAS_H

#include <stddef.h>

void dgemm_(const char *ta, const char *tb, const int *m, const int *n, const int *k,
            const double *alpha, const double *a, const int *lda, const double *b,
            const int *ldb, const double *beta, double *c, const int *ldc, size_t ta_len,
            size_t tb_len);
void dgemv_(const char *tr, const int *m, const int *n, const double *alpha, const double *a,
            const int *lda, const double *x, const int *incx, const double *beta, double *y,
            const int *incy, size_t tr_len);
void dsyrk_(const char *uplo, const char *tr, const int *n, const int *k, const double *alpha,
            const double *a, const int *lda, const double *beta, double *c, const int *ldc,
            size_t uplo_len, size_t tr_len);
void ssyrk_(const char *uplo, const char *trans, const int *n, const int *k, const float *alpha,
            const float *a, const int *lda, const float *beta, float *c, const int *ldc,
            size_t uplo_len, size_t trans_len);
void dtrsm_(const char *side, const char *uplo, const char *ta, const char *diag, const int *m,
            const int *n, const double *alpha, const double *a, const int *lda, double *b,
            const int *ldb, size_t side_len, size_t uplo_len, size_t ta_len, size_t diag_len);

/* Any other function of the BLAS by name (loading it first), NULL if it has none: OpenBLAS's
 * own (compute/blasthreads.c). */
void *numlibs_blas_symbol(const char *name);

#endif
