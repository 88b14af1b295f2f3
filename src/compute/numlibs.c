/* The numerical libraries, loaded when first used (gatetui/numlibs.h; doc/architecture.md,
 * "Libraries loaded when used"). Each function gatetui calls of LAPACKE, ARPACK and the
 * BLAS is defined here with the library's own prototype (lapacke.h, arpack.h,
 * compute/blas.h: the compiler checks each against it) and calls the library's, found
 * once by dlsym and kept. Loading them costs a process some ten milliseconds (OpenBLAS's
 * relocations and its threads' start), more than a small mode's whole computation. */
#define _GNU_SOURCE
#include "config.h"

#include <arpack.h>
#include <dlfcn.h>
#include <lapacke.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include "compute/blas.h"
#include "gatetui/libset.h"
#include "gatetui/numlibs.h"

enum { LIB_BLAS, LIB_LAPACKE, LIB_ARPACK };
/* their names as Debian installs them (configure.ac) */
static const char *const soname[] = {GT_SONAME_BLAS, GT_SONAME_LAPACKE, GT_SONAME_ARPACK, NULL};

/* OpenBLAS starts its threads as it is loaded, and each then waits for work spinning and
 * yielding for about a tenth of a second before it sleeps, a processor taken from
 * gatetui's own threads: stopped at once; OpenBLAS makes them again when a product asks
 * for them (compute/blasthreads.h). */
static void blas_idle(void *const *handle)
{
    int (*shutdown)(void);
    *(void **)&shutdown = dlsym(handle[LIB_BLAS], "blas_thread_shutdown_");
    if (shutdown)
        shutdown();
}

/* OpenBLAS (Debian's BLAS where gatetui is built; another BLAS takes less, and is held to
 * the same) takes a buffer of 128 MB for each of its threads (as it starts them, then as
 * they first work) besides its own mappings, 320 MB of address space in all for two
 * threads (measured: --spectrum went from 23 to 343 MB). Under a limit that leaves less
 * (ulimit -v) a thread retries its allocation for ever and the process hangs: refused
 * here, saying what to raise, before it is loaded. */
#define BLAS_THREAD_BYTES (132ull << 20)
#define BLAS_OWN_BYTES (56ull << 20)
#define BLAS_MAX_THREADS 64 /* Debian's OpenBLAS's build */

/* The threads OpenBLAS will take: its variable's count (OPENBLAS_NUM_THREADS, then
 * GOTO_NUM_THREADS, OMP_NUM_THREADS) or else the processors, at most the processors this
 * process may run on and its build's 64, as OpenBLAS counts them. */
static int blas_threads_env(void)
{
    static const char *const names[] = {"OPENBLAS_NUM_THREADS", "GOTO_NUM_THREADS",
                                        "OMP_NUM_THREADS"};
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
        cpus = CPU_COUNT(&set);
    long n = cpus > 0 ? cpus : 1;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        const char *v = getenv(names[i]);
        char *end;
        long t = v ? strtol(v, &end, 10) : 0;
        if (v && end != v && t > 0) {
            n = t < n ? t : n;
            break;
        }
    }
    return (int)(n < BLAS_MAX_THREADS ? n : BLAS_MAX_THREADS);
}

static int blas_room(char *why, size_t n)
{
    struct rlimit r;
    if (getrlimit(RLIMIT_AS, &r) || r.rlim_cur == RLIM_INFINITY)
        return 0;
    const int threads = blas_threads_env();
    const size_t need = (size_t)(BLAS_OWN_BYTES + (unsigned long long)threads *
                                                      BLAS_THREAD_BYTES);
    /* the address space it needs, reserved and given back: the limit counts it so */
    void *p = mmap(NULL, need, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p != MAP_FAILED) {
        munmap(p, need);
        return 0;
    }
    unsigned long pages = 0; /* the address space taken now (statm: its size in pages) */
    FILE *f = fopen("/proc/self/statm", "r");
    if (f) {
        if (fscanf(f, "%lu", &pages) != 1)
            pages = 0;
        fclose(f);
    }
    const unsigned long long kb =
        ((unsigned long long)pages * (unsigned long long)sysconf(_SC_PAGESIZE) + need) >> 10;
    char one[64] = "";
    if (threads > 1)
        snprintf(one, sizeof one, ", or set OPENBLAS_NUM_THREADS=1 (%llu MB)",
                 (unsigned long long)((BLAS_OWN_BYTES + BLAS_THREAD_BYTES) >> 20));
    snprintf(why, n, "the address-space limit (ulimit -v %llu) is below the %llu KB this needs "
             "with the BLAS loaded (%d thread%s: %zu MB): raise it%s",
             (unsigned long long)(r.rlim_cur >> 10), kb, threads, threads == 1 ? "" : "s",
             need >> 20, one);
    return 1;
}

static gt_libset numlibs = LIBSET(soname, blas_room, blas_idle);

int numlibs_load(gt_error *e)
{
    return libset_load(&numlibs, e);
}

void *numlibs_blas_symbol(const char *name)
{
    gt_error e = {0};
    return libset_load(&numlibs, &e) ? NULL : dlsym(numlibs.handle[LIB_BLAS], name);
}

#define REAL(lib, name) LIBSET_REAL(&numlibs, lib, name)

/* The BLAS */

void dgemm_(const char *ta, const char *tb, const int *m, const int *n, const int *k,
            const double *alpha, const double *a, const int *lda, const double *b,
            const int *ldb, const double *beta, double *c, const int *ldc, size_t ta_len,
            size_t tb_len)
{
    REAL(LIB_BLAS, dgemm_)(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, ta_len, tb_len);
}

void dgemv_(const char *tr, const int *m, const int *n, const double *alpha, const double *a,
            const int *lda, const double *x, const int *incx, const double *beta, double *y,
            const int *incy, size_t tr_len)
{
    REAL(LIB_BLAS, dgemv_)(tr, m, n, alpha, a, lda, x, incx, beta, y, incy, tr_len);
}

void dsyrk_(const char *uplo, const char *tr, const int *n, const int *k, const double *alpha,
            const double *a, const int *lda, const double *beta, double *c, const int *ldc,
            size_t uplo_len, size_t tr_len)
{
    REAL(LIB_BLAS, dsyrk_)(uplo, tr, n, k, alpha, a, lda, beta, c, ldc, uplo_len, tr_len);
}

void ssyrk_(const char *uplo, const char *trans, const int *n, const int *k, const float *alpha,
            const float *a, const int *lda, const float *beta, float *c, const int *ldc,
            size_t uplo_len, size_t trans_len)
{
    REAL(LIB_BLAS, ssyrk_)(uplo, trans, n, k, alpha, a, lda, beta, c, ldc, uplo_len, trans_len);
}

void dtrsm_(const char *side, const char *uplo, const char *ta, const char *diag, const int *m,
            const int *n, const double *alpha, const double *a, const int *lda, double *b,
            const int *ldb, size_t side_len, size_t uplo_len, size_t ta_len, size_t diag_len)
{
    REAL(LIB_BLAS, dtrsm_)(side, uplo, ta, diag, m, n, alpha, a, lda, b, ldb, side_len,
                           uplo_len, ta_len, diag_len);
}

/* LAPACKE */

lapack_int LAPACKE_dgeev(int layout, char jobvl, char jobvr, lapack_int n, double *a,
                         lapack_int lda, double *wr, double *wi, double *vl, lapack_int ldvl,
                         double *vr, lapack_int ldvr)
{
    return REAL(LIB_LAPACKE, LAPACKE_dgeev)(layout, jobvl, jobvr, n, a, lda, wr, wi, vl, ldvl,
                                            vr, ldvr);
}

lapack_int LAPACKE_dgeqrf(int layout, lapack_int m, lapack_int n, double *a, lapack_int lda,
                          double *tau)
{
    return REAL(LIB_LAPACKE, LAPACKE_dgeqrf)(layout, m, n, a, lda, tau);
}

lapack_int LAPACKE_dgesv(int layout, lapack_int n, lapack_int nrhs, double *a, lapack_int lda,
                         lapack_int *ipiv, double *b, lapack_int ldb)
{
    return REAL(LIB_LAPACKE, LAPACKE_dgesv)(layout, n, nrhs, a, lda, ipiv, b, ldb);
}

lapack_int LAPACKE_dgesvd(int layout, char jobu, char jobvt, lapack_int m, lapack_int n,
                          double *a, lapack_int lda, double *s, double *u, lapack_int ldu,
                          double *vt, lapack_int ldvt, double *superb)
{
    return REAL(LIB_LAPACKE, LAPACKE_dgesvd)(layout, jobu, jobvt, m, n, a, lda, s, u, ldu, vt,
                                             ldvt, superb);
}

lapack_int LAPACKE_dorgqr(int layout, lapack_int m, lapack_int n, lapack_int k, double *a,
                          lapack_int lda, const double *tau)
{
    return REAL(LIB_LAPACKE, LAPACKE_dorgqr)(layout, m, n, k, a, lda, tau);
}

lapack_int LAPACKE_dpotrf(int layout, char uplo, lapack_int n, double *a, lapack_int lda)
{
    return REAL(LIB_LAPACKE, LAPACKE_dpotrf)(layout, uplo, n, a, lda);
}

lapack_int LAPACKE_dpotrf_work(int layout, char uplo, lapack_int n, double *a, lapack_int lda)
{
    return REAL(LIB_LAPACKE, LAPACKE_dpotrf_work)(layout, uplo, n, a, lda);
}

lapack_int LAPACKE_dpotrs(int layout, char uplo, lapack_int n, lapack_int nrhs, const double *a,
                          lapack_int lda, double *b, lapack_int ldb)
{
    return REAL(LIB_LAPACKE, LAPACKE_dpotrs)(layout, uplo, n, nrhs, a, lda, b, ldb);
}

lapack_int LAPACKE_dtrcon_work(int layout, char norm, char uplo, char diag, lapack_int n,
                               const double *a, lapack_int lda, double *rcond, double *work,
                               lapack_int *iwork)
{
    return REAL(LIB_LAPACKE, LAPACKE_dtrcon_work)(layout, norm, uplo, diag, n, a, lda, rcond,
                                                  work, iwork);
}

/* ARPACK */

void dnaupd_c(a_int *ido, char const *bmat, a_int n, char const *which, a_int nev, double tol,
              double *resid, a_int ncv, double *v, a_int ldv, a_int *iparam, a_int *ipntr,
              double *workd, double *workl, a_int lworkl, a_int *info)
{
    REAL(LIB_ARPACK, dnaupd_c)(ido, bmat, n, which, nev, tol, resid, ncv, v, ldv, iparam, ipntr,
                               workd, workl, lworkl, info);
}

void dneupd_c(a_int rvec, char const *howmny, a_int const *select, double *dr, double *di,
              double *z, a_int ldz, double sigmar, double sigmai, double *workev,
              char const *bmat, a_int n, char const *which, a_int nev, double tol,
              double *resid, a_int ncv, double *v, a_int ldv, a_int *iparam, a_int *ipntr,
              double *workd, double *workl, a_int lworkl, a_int *info)
{
    REAL(LIB_ARPACK, dneupd_c)(rvec, howmny, select, dr, di, z, ldz, sigmar, sigmai, workev,
                               bmat, n, which, nev, tol, resid, ncv, v, ldv, iparam, ipntr,
                               workd, workl, lworkl, info);
}
