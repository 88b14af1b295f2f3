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
#include "compute/jobs.h"
#include "compute/pool.h"
#include "compute/threads.h"
#include "eigen.h"
#include "gatetui/bigmem.h"

/* ARPACK's restarts before it is given up for LAPACK, without a budget (eigen.h) */
#define EIGEN_RESTARTS 3000
/* A column with at most this many nonzeros is sparse: the first squaring skips its zeros */
#define EIGEN_SPARSE 4

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

/* ARPACK's workspace for nev wanted of n with ncv vectors, what it found, and the power
 * it works on */
typedef struct arnoldi {
    int n, nev, ncv, lworkl;
    long products;   /* how many it took */
    double *resid, *v, *workd, *workl, *workev, *z, *dr, *di;
    double *P, *T;   /* [n n] the power and its scratch */
    double *R, *wr, *wi, *res; /* [EIGEN_SPAN_SCRATCH(n, ncv)], [ncv] x 3: eigen_span's */
    a_int *select;
    int *perm;       /* [n] P's rows and columns are A's perm[0], perm[1], ... (power) */
    int *nz;         /* [n (EIGEN_SPARSE + 1)] a sparse column's count of nonzeros, rows */
} arnoldi;

/* The power's buffer kept from one call to the next (its 2 n^2 doubles are 4 MB at
 * n = 512: allocated and faulted in each time, they were 0.4 ms of the 23): a call takes it
 * when it is large enough, and gives its own back when the slot is empty or smaller. */
static pthread_mutex_t power_lock = PTHREAD_MUTEX_INITIALIZER;
static double *power_kept;
static size_t power_kept_len;

static double *power_take(size_t len)
{
    double *p = NULL;
    pthread_mutex_lock(&power_lock);
    if (power_kept && power_kept_len >= len) {
        p = power_kept;
        power_kept = NULL;
    }
    pthread_mutex_unlock(&power_lock);
    return p ? p : big_zalloc(len * sizeof *p); /* once: huge pages (bigmem.h) */
}

static void power_give(double *p, size_t len)
{
    if (!p)
        return;
    pthread_mutex_lock(&power_lock);
    if (!power_kept || power_kept_len < len) {
        double *old = power_kept;
        power_kept = p;
        power_kept_len = len;
        p = old;
    }
    pthread_mutex_unlock(&power_lock);
    free(p);
}

static void arnoldi_free(arnoldi *a)
{
    free(a->resid);
    free(a->select);
    free(a->perm);
    power_give(a->P, 2 * (size_t)a->n * (size_t)a->n);
}

static int arnoldi_init(arnoldi *a, int n, int nev, int ncv)
{
    a->n = n;
    a->nev = nev;
    a->ncv = ncv;
    a->products = 0;
    a->lworkl = 3 * ncv * ncv + 6 * ncv;
    const size_t N = (size_t)n, C = (size_t)ncv;
    /* resid, v, workd, workl, workev, z, dr, di, R, wr, wi, res */
    const size_t len = N + N * C + 3 * N + (size_t)a->lworkl + 3 * C + N * C + 2 * C +
                       EIGEN_SPAN_SCRATCH(N, C) + 3 * C;
    a->resid = malloc(len * sizeof *a->resid);
    a->select = malloc(C * sizeof *a->select);
    a->perm = malloc(N * (EIGEN_SPARSE + 2) * sizeof *a->perm);
    a->P = power_take(2 * N * N); /* every entry written before it is read (power) */
    if (!a->resid || !a->select || !a->perm || !a->P) {
        arnoldi_free(a);
        return -1;
    }
    a->T = a->P + N * N;
    a->nz = a->perm + N;
    a->v = a->resid + N;
    a->workd = a->v + N * C;
    a->workl = a->workd + 3 * N;
    a->workev = a->workl + a->lworkl;
    a->z = a->workev + 3 * C;
    a->dr = a->z + N * C;
    a->di = a->dr + C;
    a->R = a->di + C;
    a->wr = a->R + EIGEN_SPAN_SCRATCH(N, C);
    a->wi = a->wr + C;
    a->res = a->wi + C;
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

/* The power P = (A / s)^EIGEN_POWER that ARPACK works on (eigen.h), by squarings, each
 * split into blocks of rows over threads (the same numbers whatever the threads: each block
 * is one product of the BLAS on one thread, and its sparse columns' sums in one order). */
#define EIGEN_ROWS 128 /* a block's rows */

typedef struct square {
    const double *P; /* n x n, row-major */
    double *T;       /* P P */
    int n;
    int d;           /* P's first d columns are dense; the rest sparse (first squaring) */
    const int *nz;   /* a sparse column's count then rows, EIGEN_SPARSE + 1 a column */
} square;

/* Rows r0.. (rows of them) of T = P P where P's columns from d on have at most
 * EIGEN_SPARSE nonzeros each: with B = P's dense columns (n x d) and S its sparse ones,
 * T's dense columns are B's rows times its first d rows (one dgemm of rows x d x d) plus
 * S's nonzeros times P's rows they stand on; T's sparse columns are P times S's few
 * nonzeros. With d = n, the whole product. */
static void square_block(const square *q, int r0, int rows)
{
    const int n = q->n, d = q->d;
    const size_t N = (size_t)n;
    const double one = 1.0, zero = 0.0;
    const double *P = q->P;
    double *T = q->T;
    /* row-major P is P^T column-major: rows r0.. of T's first d columns, column-major, are
       (P[D,D])^T (P[r0.., D])^T */
    if (d > 0)
        dgemm_("N", "N", &d, &rows, &d, &one, P, &n, P + (size_t)r0 * N, &n, &zero,
               T + (size_t)r0 * N, &n, 1, 1);
    for (int c = d; c < n; c++) {
        const int *z = q->nz + (size_t)(c - d) * (EIGEN_SPARSE + 1);
        for (int t = 1; t <= z[0]; t++) { /* P[r][c] times row c of P's dense part */
            const int r = z[t];
            if (r < r0 || r >= r0 + rows)
                continue;
            const double a = P[(size_t)r * N + (size_t)c];
            const double *src = P + (size_t)c * N;
            double *dst = T + (size_t)r * N;
            for (int j = 0; j < d; j++)
                dst[j] += a * src[j];
        }
    }
    for (int i = r0; i < r0 + rows; i++) { /* T[i][c] = sum over P[r][c] != 0 of P[i][r] P[r][c] */
        const double *row = P + (size_t)i * N;
        for (int c = d; c < n; c++) {
            const int *z = q->nz + (size_t)(c - d) * (EIGEN_SPARSE + 1);
            double sum = 0;
            for (int t = 1; t <= z[0]; t++)
                sum += row[z[t]] * P[(size_t)z[t] * N + (size_t)c];
            T[(size_t)i * N + (size_t)c] = sum;
        }
    }
}

static int square_rows(void *ctx, void *state, size_t i, gt_error *e)
{
    (void)state;
    (void)e;
    const square *q = ctx;
    const int r0 = (int)i * EIGEN_ROWS;
    square_block(q, r0, q->n - r0 < EIGEN_ROWS ? q->n - r0 : EIGEN_ROWS);
    return GT_OK;
}

/* A's largest row sum of moduli (NaN when a row's is), read with each column's count of
 * nonzeros into count. */
static double sums_and_counts(const double *A, int n, int *count)
{
    const size_t N = (size_t)n;
    memset(count, 0, N * sizeof *count);
    double s = 0;
    for (size_t i = 0; i < N; i++) {
        const double *row = A + i * N;
        double r[4] = {0, 0, 0, 0}; /* four sums side by side, then added in one order */
        size_t j = 0;
        for (; j + 4 <= N; j += 4)
            for (int q = 0; q < 4; q++) {
                r[q] += fabs(row[j + (size_t)q]);
                count[j + (size_t)q] += row[j + (size_t)q] != 0;
            }
        for (; j < N; j++) {
            r[0] += fabs(row[j]);
            count[j] += row[j] != 0;
        }
        const double t = (r[0] + r[1]) + (r[2] + r[3]);
        s = t > s || isnan(t) ? t : s;
    }
    return s;
}

/* A's columns in order, the dense ones first then the sparse ones (at most EIGEN_SPARSE
 * nonzeros: the LSTM's cell's, where dc/dc and dh/dc are diagonal), into perm, from each
 * column's count of nonzeros. Returns how many are dense. */
static int order_columns(const int *count, int n, int *perm)
{
    int d = 0;
    for (int j = 0; j < n; j++)
        if (count[j] > EIGEN_SPARSE)
            perm[d++] = j;
    for (int j = 0, at = d; j < n; j++)
        if (count[j] <= EIGEN_SPARSE)
            perm[at++] = j;
    return d;
}

/* (A / s)^EIGEN_POWER with s the power of two at or above A's largest row sum of moduli
 * (so that no entry of it exceeds 1, and A / s is exact), its rows and columns in
 * a->perm's order (the dense columns first: the first squaring skips the sparse ones'
 * zeros), in a->P or a->T: which, or NULL when A is 0 or not finite. The BLAS is on one
 * thread. */
static const double *power(arnoldi *a, const double *A, int threads)
{
    const int n = a->n;
    const size_t N = (size_t)n;
    const double sum = sums_and_counts(A, n, a->nz);
    if (!(sum > 0) || !isfinite(sum))
        return NULL;
    int e2;
    frexp(sum, &e2);
    const double scale = ldexp(1.0, -e2); /* sum < 2^e2 */
    if (!isfinite(scale)) /* A's entries below 2^-1022: LAPACK then */
        return NULL;
    const int d = order_columns(a->nz, n, a->perm);
    int same = 1; /* the order A's own (an LSTM's J: h's columns, then c's) */
    for (int i = 0; i < n && same; i++)
        same = a->perm[i] == i;
    double *P = a->P, *T = a->T;
    for (size_t i = 0; i < N; i++) {
        double *to = P + i * N;
        if (same) {
            const double *from = A + i * N;
            for (size_t j = 0; j < N; j++)
                to[j] = from[j] * scale;
        } else {
            const double *from = A + (size_t)a->perm[i] * N;
            for (size_t j = 0; j < N; j++)
                to[j] = from[a->perm[j]] * scale;
        }
    }
    for (int c = d; c < n; c++) /* each sparse column's nonzeros, counted first */
        a->nz[(size_t)(c - d) * (EIGEN_SPARSE + 1)] = 0;
    for (size_t r = 0; r < N; r++)
        for (int c = d; c < n; c++)
            if (P[r * N + (size_t)c] != 0) {
                int *z = a->nz + (size_t)(c - d) * (EIGEN_SPARSE + 1);
                z[++z[0]] = (int)r;
            }
    const size_t blocks = (N + EIGEN_ROWS - 1) / EIGEN_ROWS;
    for (int m = 1; m < EIGEN_POWER; m *= 2) {
        square q = {P, T, n, m == 1 ? d : n, a->nz};
        const gt_jobs j = {.njobs = blocks, .threads = threads_choose(threads, blocks),
                           .ctx = &q, .run = square_rows};
        gt_error e;
        if (jobs_run(&j, NULL, &e))
            return NULL;
        double *t = P; /* the square is the next one's P */
        P = T;
        T = t;
    }
    return P;
}

/* ARPACK's products y = P x, in blocks of rows shared by a pool's threads (pool_blocks:
 * the same numbers whatever the threads; each thread its own blocks first, kept in its
 * processor's cache, and a thread the scheduler has not run holds none of them up). */
#define EIGEN_MV_ROWS 64

typedef struct product {
    const double *P, *x;
    double *y;
    int n;
} product;

static void product_block(void *ctx, int b)
{
    const product *m = ctx;
    const int n = m->n, one = 1;
    const double alpha = 1.0, beta = 0.0;
    const int r0 = b * EIGEN_MV_ROWS, rows = n - r0 < EIGEN_MV_ROWS ? n - r0 : EIGEN_MV_ROWS;
    /* P row-major is P^T column-major: its rows r0.. times x are those columns' */
    dgemv_("T", &n, &rows, &alpha, m->P + (size_t)r0 * (size_t)n, &n, m->x, &one, &beta,
           m->y + r0, &one, 1);
}

/* The c columns of Q (n x c, column-major), whose rows are in perm's order, back in A's:
 * row i is A's row perm[i]. tmp: scratch of n. */
static void unpermute(double *Q, int n, int c, const int *perm, double *tmp)
{
    for (int j = 0; j < c; j++) {
        double *q = Q + (size_t)j * (size_t)n;
        for (int i = 0; i < n; i++)
            tmp[perm[i]] = q[i];
        memcpy(q, tmp, (size_t)n * sizeof *q);
    }
}

/* ARPACK's iteration with P's products (y = P x, on pool's threads; pool may be NULL), at
 * most `budget` of them, then the Schur vectors of its converged Ritz values in a->v: how
 * many, or -1 when it failed or ran out of its budget. */
static int arnoldi_run(arnoldi *a, const double *P, long budget, gt_pool *pool)
{
    const int n = a->n;
    a_int iparam[11] = {0}, ipntr[14] = {0}, ido = 0, info = 1; /* info 1: resid given */
    iparam[0] = 1; /* exact shifts */
    /* restarts: the first factorization takes ncv products, each restart ncv - nev more */
    const long restarts = budget > a->ncv ? 1 + (budget - a->ncv) / (a->ncv - a->nev) : 1;
    iparam[2] = (a_int)(budget >= 0 && restarts < EIGEN_RESTARTS ? restarts : EIGEN_RESTARTS);
    iparam[6] = 1; /* A x = lambda x */
    pthread_mutex_lock(&arpack_lock);
    for (;;) {
        dnaupd_c(&ido, "I", n, "LM", a->nev, EIGEN_TOL, a->resid, a->ncv, a->v, n, iparam, ipntr,
                 a->workd, a->workl, a->lworkl, &info);
        if (ido != 1 && ido != -1)
            break;
        product m = {P, a->workd + ipntr[0] - 1, a->workd + ipntr[1] - 1, n};
        pool_blocks(pool, (n + EIGEN_MV_ROWS - 1) / EIGEN_MV_ROWS, product_block, &m);
    }
    int found = -1;
    a->products = iparam[8];
    if (info == 0) {
        /* 'P': the Schur vectors of the converged values, in v's first columns */
        dneupd_c(1, "P", a->select, a->dr, a->di, a->z, n, 0.0, 0.0, a->workev, "I", n, "LM",
                 a->nev, EIGEN_TOL, a->resid, a->ncv, a->v, n, iparam, ipntr, a->workd, a->workl,
                 a->lworkl, &info);
        if (info == 0)
            found = iparam[4] < a->ncv ? (int)iparam[4] : a->ncv;
    }
    pthread_mutex_unlock(&arpack_lock);
    return found;
}

int eigen_span(const double *A, int n, const double *Q, int c, double *r, double *wr,
               double *wi, double *res)
{
    const double one = 1.0, zero = 0.0, minus = -1.0;
    const int inc = 1;
    const size_t N = (size_t)n, C = (size_t)c;
    double *R = r, *H = R + N * C, *Z = H + C * C, *Rz = Z + C * C, *zr = Rz + N, *zi = zr + C,
           *key = zi + C;
    /* R = A Q (A row-major is A^T column-major), H = Q^T A Q, then R = A Q - Q H */
    dgemm_("T", "N", &n, &c, &n, &one, A, &n, Q, &n, &zero, R, &n, 1, 1);
    dgemm_("T", "N", &c, &c, &n, &one, Q, &n, R, &n, &zero, H, &c, 1, 1);
    dgemm_("N", "N", &n, &c, &c, &minus, Q, &n, H, &c, &one, R, &n, 1, 1);
    /* H's eigenvalues, and its eigenvectors each of unit length */
    if (LAPACKE_dgeev(LAPACK_COL_MAJOR, 'N', 'V', (lapack_int)c, H, (lapack_int)c, zr, zi, NULL,
                      1, Z, (lapack_int)c))
        return -1;
    /* A (Q z) - lambda (Q z) = R z: a complex pair's z is Z's two columns, u + i v */
    double *own = H; /* H is spent: each value's residual before ordering */
    for (int j = 0; j < c; j++) {
        const int pair = zi[j] != 0 && j + 1 < c;
        double s = 0;
        for (int part = 0; part <= pair; part++) {
            dgemv_("N", &n, &c, &one, R, &n, Z + (size_t)(j + part) * C, &inc, &zero, Rz, &inc,
                   1);
            for (int i = 0; i < n; i++)
                s += Rz[i] * Rz[i];
        }
        own[j] = sqrt(s) / hypot(zr[j], zi[j]);
        if (pair) {
            own[j + 1] = own[j];
            j++;
        }
    }
    memcpy(wr, zr, (size_t)c * sizeof *wr);
    memcpy(wi, zi, (size_t)c * sizeof *wi);
    eigen_order(wr, wi, c, key);
    for (int i = 0; i < c; i++) { /* each ordered value's own residual (the worst of equals) */
        res[i] = NAN;
        for (int j = 0; j < c; j++)
            if (zr[j] == wr[i] && zi[j] == wi[i] && !(own[j] <= res[i]))
                res[i] = own[j];
    }
    return 0;
}

/* 1 when the ordered values' residuals hold them: each of the first k within
 * EIGEN_PAIR_TOL, every one of the c within EIGEN_MIX_TOL (not so where two of A's
 * eigenvalues have one power, lambda and -lambda: Q then mixes them). */
static int residuals_hold(const double *res, int c, int k)
{
    for (int i = 0; i < c; i++)
        if (!(res[i] <= (i < k ? EIGEN_PAIR_TOL : EIGEN_MIX_TOL)))
            return 0;
    return 1;
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
    return (long)(7 * N * N * N / (2 * N * N + 6 * N * c + 10 * c * c * c / (c - nev)));
}

int eigen_top(const double *A, int n, int k, long budget, int threads, double *wr, double *wi,
              eigen_how *how, gt_error *e)
{
    const int nev = k + EIGEN_EXTRA, ncv = basis(n, k);
    *how = (eigen_how){EIGEN_BY_LAPACK, 0};
    if (ncv < 2 * nev + 1 || budget == 0)
        return top_by_lapack(A, n, k, wr, wi, e);
    arnoldi a;
    if (arnoldi_init(&a, n, nev, ncv))
        return gt_fail(e, GT_EFAIL, "out of memory for the eigenvalues");
    /* the BLAS on one thread: the squarings share their blocks among gatetui's threads */
    const int was = blas_threads(1);
    const double *P = power(&a, A, threads);
    int found = -1;
    if (P) {
        const int mv = threads_choose(threads, (size_t)(n + EIGEN_MV_ROWS - 1) / EIGEN_MV_ROWS);
        gt_pool *pool = pool_start(mv); /* NULL for one thread: then on this one */
        found = arnoldi_run(&a, P, budget, pool);
        pool_stop(pool);
    }
    if (found > 0)
        unpermute(a.v, n, found, a.perm, a.workd);
    int settled = 0;
    if (found > 0 && eigen_span(A, n, a.v, found, a.R, a.wr, a.wi, a.res) == 0 &&
        residuals_hold(a.res, found, k))
        settled = cut_settled(a.wr, a.wi, found, k);
    if (was)
        blas_threads(was);
    if (settled) {
        memcpy(wr, a.wr, (size_t)k * sizeof *wr);
        memcpy(wi, a.wi, (size_t)k * sizeof *wi);
        how->by = EIGEN_BY_ARPACK;
    }
    how->products = a.products;
    arnoldi_free(&a);
    return settled ? GT_OK : top_by_lapack(A, n, k, wr, wi, e);
}
