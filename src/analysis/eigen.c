/* The eigenvalues of a dense real matrix, all or the largest (see eigen.h). */
#include "config.h"

#include <arpack.h>
#include <lapacke.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "compute/blas.h"
#include "compute/blasthreads.h"
#include "eigen.h"

/* ARPACK's restarts before it is given up for LAPACK, without a budget (eigen.h) */
#define EIGEN_RESTARTS 3000

/* The first `count` doubles of a and b compared in turn, largest first, NaN last. */
static int desc(const double *a, const double *b, int count)
{
    for (int i = 0; i < count; i++) {
        if (isnan(a[i]) || isnan(b[i])) {
            if (isnan(a[i]) != isnan(b[i]))
                return isnan(a[i]) ? 1 : -1;
        } else if (a[i] != b[i]) {
            return a[i] > b[i] ? -1 : 1;
        }
    }
    return 0;
}

/* (modulus, imaginary, real) triples by modulus, then the parts */
static int by_modulus(const void *a, const void *b)
{
    return desc(a, b, 3);
}

/* the same triples by their imaginary, then their real part */
static int by_parts(const void *a, const void *b)
{
    return desc((const double *)a + 1, (const double *)b + 1, 2);
}

/* The end of the tie that starts at i: the first j whose modulus is more than tie below
 * key[i]'s (triples sorted by_modulus; NaN ends a tie). */
static int tie_end(const double *key, int n, int i, double tie)
{
    int j = i + 1;
    while (j < n && !isnan(key[3 * j]) && key[3 * i] - key[3 * j] <= tie)
        j++;
    return j;
}

void eigen_order(double *wr, double *wi, int n, double *key)
{
    for (int i = 0; i < n; i++) {
        key[3 * i] = hypot(wr[i], wi[i]);
        key[3 * i + 1] = wi[i];
        key[3 * i + 2] = wr[i];
    }
    qsort(key, (size_t)n, 3 * sizeof *key, by_modulus);
    const double tie = n && !isnan(key[0]) ? EIGEN_TIE * key[0] : 0;
    for (int i = 0; i < n && !isnan(key[3 * i]);) {
        const int j = tie_end(key, n, i, tie);
        qsort(key + 3 * i, (size_t)(j - i), 3 * sizeof *key, by_parts);
        i = j;
    }
    for (int i = 0; i < n; i++) {
        wi[i] = key[3 * i + 1];
        wr[i] = key[3 * i + 2];
    }
}

int eigen_all(double *A, int n, double *wr, double *wi, gt_error *e)
{
    double *key = malloc(3 * (size_t)n * sizeof *key);
    if (!key)
        return gt_fail(e, GT_EFAIL, "out of memory for the eigenvalues");
    /* A row-major read as column-major is A^T, whose eigenvalues are A's (no copy); the
       BLAS on one thread: faster at these sizes, and on a loaded machine OpenBLAS's threads
       waiting for each other took 17 times longer (doc/speed.md) */
    const int was = blas_threads(1);
    lapack_int info = LAPACKE_dgeev(LAPACK_COL_MAJOR, 'N', 'N', (lapack_int)n, A,
                                    (lapack_int)n, wr, wi, NULL, 1, NULL, 1);
    if (was)
        blas_threads(was);
    if (!info)
        eigen_order(wr, wi, n, key);
    free(key);
    return info ? gt_fail(e, GT_EFAIL, "LAPACK's eigenvalues did not converge") : GT_OK;
}

/* The k largest from the whole spectrum of a copy of A. */
static int top_by_lapack(const double *A, int n, int k, double *wr, double *wi, gt_error *e)
{
    double *B = malloc(((size_t)n * (size_t)n + 2 * (size_t)n) * sizeof *B);
    if (!B)
        return gt_fail(e, GT_EFAIL, "out of memory for the eigenvalues");
    memcpy(B, A, (size_t)n * (size_t)n * sizeof *B);
    double *r = B + (size_t)n * (size_t)n, *i = r + n;
    int rc = eigen_all(B, n, r, i, e);
    if (!rc) {
        memcpy(wr, r, (size_t)k * sizeof *wr);
        memcpy(wi, i, (size_t)k * sizeof *wi);
    }
    free(B);
    return rc;
}

/* ARPACK's workspace for nev wanted of n with ncv vectors, and what it found */
typedef struct arnoldi {
    int n, nev, ncv, lworkl;
    long products;   /* how many it took */
    double *resid, *v, *workd, *workl, *workev, *z, *dr, *di;
    a_int *select;
} arnoldi;

static void arnoldi_free(arnoldi *a)
{
    free(a->resid);
    free(a->select);
}

static int arnoldi_init(arnoldi *a, int n, int nev, int ncv)
{
    a->n = n;
    a->nev = nev;
    a->ncv = ncv;
    a->lworkl = 3 * ncv * ncv + 6 * ncv;
    const size_t N = (size_t)n, C = (size_t)ncv;
    /* resid, v, workd, workl, workev, z, dr, di */
    const size_t len = N + N * C + 3 * N + (size_t)a->lworkl + 3 * C + N * (size_t)(nev + 1) +
                       2 * (size_t)(nev + 1);
    a->resid = malloc(len * sizeof *a->resid);
    a->select = malloc(C * sizeof *a->select);
    if (!a->resid || !a->select) {
        arnoldi_free(a);
        return -1;
    }
    a->v = a->resid + N;
    a->workd = a->v + N * C;
    a->workl = a->workd + 3 * N;
    a->workev = a->workl + a->lworkl;
    a->z = a->workev + 3 * C;
    a->dr = a->z + N * (size_t)(nev + 1);
    a->di = a->dr + nev + 1;
    /* the start vector: the same on every run (splitmix64 from a fixed seed), in (-1, 1) */
    uint64_t x = 0x9e3779b97f4a7c15u;
    for (size_t i = 0; i < N; i++) {
        uint64_t z = (x += 0x9e3779b97f4a7c15u);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
        z ^= z >> 31;
        a->resid[i] = 2.0 * ((double)(z >> 11) / 9007199254740992.0) - 1.0;
    }
    return 0;
}

static pthread_mutex_t arpack_lock = PTHREAD_MUTEX_INITIALIZER;

/* ARPACK's iteration with A's products (y = A x, the BLAS on one thread), at most `budget`
 * of them, then its Ritz values: how many converged into a->dr, a->di, or -1 when it
 * failed or ran out of its budget. */
static int arnoldi_run(arnoldi *a, const double *A, long budget)
{
    const int n = a->n, one = 1;
    const double alpha = 1.0, beta = 0.0;
    a_int iparam[11] = {0}, ipntr[14] = {0}, ido = 0, info = 1; /* info 1: resid given */
    iparam[0] = 1; /* exact shifts */
    /* restarts: the first factorization takes ncv products, each restart ncv - nev more */
    const long restarts = budget > a->ncv ? 1 + (budget - a->ncv) / (a->ncv - a->nev) : 1;
    iparam[2] = (a_int)(budget >= 0 && restarts < EIGEN_RESTARTS ? restarts : EIGEN_RESTARTS);
    iparam[6] = 1; /* A x = lambda x */
    pthread_mutex_lock(&arpack_lock);
    const int was = blas_threads(1);
    for (;;) {
        dnaupd_c(&ido, "I", n, "LM", a->nev, EIGEN_TOL, a->resid, a->ncv, a->v, n, iparam, ipntr,
                 a->workd, a->workl, a->lworkl, &info);
        if (ido != 1 && ido != -1)
            break;
        /* A row-major is A^T column-major: y = A x is its transpose's product */
        dgemv_("T", &n, &n, &alpha, A, &n, a->workd + ipntr[0] - 1, &one, &beta,
               a->workd + ipntr[1] - 1, &one, 1);
    }
    if (was)
        blas_threads(was);
    int found = -1;
    a->products = iparam[8];
    if (info == 0) {
        dneupd_c(0, "A", a->select, a->dr, a->di, a->z, n, 0.0, 0.0, a->workev, "I", n, "LM",
                 a->nev, EIGEN_TOL, a->resid, a->ncv, a->v, n, iparam, ipntr, a->workd, a->workl,
                 a->lworkl, &info);
        if (info == 0)
            found = iparam[4] < a->nev + 1 ? (int)iparam[4] : a->nev + 1;
    }
    pthread_mutex_unlock(&arpack_lock);
    return found;
}

/* 1 when the first k of the `found` values ordered settle the cut: the tie that holds the
 * k-th ends before the last value found (so every value tied with it was found). */
static int cut_settled(const double *wr, const double *wi, int found, int k)
{
    if (found < k)
        return 0;
    const double top = hypot(wr[0], wi[0]), tie = EIGEN_TIE * top;
    if (isnan(top))
        return 0;
    int i = 0;
    for (;;) { /* the ties from the top, as eigen_order makes them */
        int j = i + 1;
        const double at = hypot(wr[i], wi[i]);
        while (j < found && at - hypot(wr[j], wi[j]) <= tie)
            j++;
        if (j >= k)
            return j < found;
        i = j;
    }
}

/* ARPACK's basis for k wanted of n: EIGEN_NCV times the k + EIGEN_EXTRA it is asked for, at
 * most n. */
static int basis(int n, int k)
{
    const int ncv = EIGEN_NCV * (k + EIGEN_EXTRA);
    return ncv < n ? ncv : n;
}

long eigen_budget(int n, int k)
{
    if (n < EIGEN_FROM)
        return 0;
    const double N = n, c = basis(n, k), nev = k + EIGEN_EXTRA;
    return (long)(13 * N * N * N / (2 * N * N + 6 * N * c + 10 * c * c * c / (c - nev)));
}

int eigen_top(const double *A, int n, int k, long budget, double *wr, double *wi,
              eigen_how *how, gt_error *e)
{
    const int nev = k + EIGEN_EXTRA, ncv = basis(n, k);
    *how = (eigen_how){EIGEN_BY_LAPACK, 0};
    if (ncv < 2 * nev + 1 || budget == 0)
        return top_by_lapack(A, n, k, wr, wi, e);
    arnoldi a;
    if (arnoldi_init(&a, n, nev, ncv))
        return gt_fail(e, GT_EFAIL, "out of memory for the eigenvalues");
    int found = arnoldi_run(&a, A, budget), settled = 0;
    if (found > 0) {
        eigen_order(a.dr, a.di, found, a.workl); /* workl: room for 3 ncv > 3 found */
        settled = cut_settled(a.dr, a.di, found, k);
    }
    if (settled) {
        memcpy(wr, a.dr, (size_t)k * sizeof *wr);
        memcpy(wi, a.di, (size_t)k * sizeof *wi);
        how->by = EIGEN_BY_ARPACK;
    }
    how->products = a.products;
    arnoldi_free(&a);
    return settled ? GT_OK : top_by_lapack(A, n, k, wr, wi, e);
}
