/* The step's whole Jacobian and the Lyapunov spectrum (see dynamics.h). From the tangent
 * map's rows (tangent.h: A and B of an LSTM, M of a GRU, the h columns only), with the
 * state ordered (c, h):
 *   LSTM  J = [ diag(f)    A              ]      (dc' = f dc + A dh)
 *             [ diag(u f)  B + diag(u) A  ]      (dh' = B dh + u dc')
 *   GRU   J = M.
 * The spectrum: Q_0 the first M columns of the identity; at each step Z = J_t Q_(t-1) as one
 * matrix-matrix product (the M tangents as its items; an LSTM's without forming J: W_hh
 * times the tangents' h part, then A's and B's coefficients row by row, as many products
 * and no J to write), Z = Q_t R_t by LAPACK's Householder QR, each column of Q_t and row of
 * R_t signed so that R_t's diagonal is >= 0. An LSTM's products are split among threads
 * by chunks of 16 tangents, each one call of the BLAS on any number of threads (the same
 * numbers on one as on many); the step before them and the QR after are the calling
 * thread's. */
#include "config.h"

#include <dlfcn.h>
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compute/kernels.h"
#include "compute/pool.h"
#include "dynrun.h"
#include "gatetui/dynamics.h"

int dyn_state_size(const gt_model *m)
{
    return m->arch == GT_LSTM ? 2 * m->hidden : m->hidden;
}

void dynrun_close(dynrun *d)
{
    free(d->whh);
    free(d->P);
    batch_free(&d->b);
    stepjac_free(&d->sj);
    stepjac_work_free(&d->w);
    free(d->J);
    free(d->prev);
    memset(d, 0, sizeof *d);
}

int dynrun_open(dynrun *d, const gt_model *m, int layer, gt_error *e)
{
    memset(d, 0, sizeof *d);
    if (layer < 0 || layer >= m->layers)
        return gt_fail(e, GT_EINPUT, "--layer %d: the model has %d layer%s (0..%d)", layer,
                       m->layers, m->layers == 1 ? "" : "s", m->layers - 1);
    d->m = m;
    d->layer = layer;
    d->H = m->hidden;
    d->n = dyn_state_size(m);
    int rc = batch_init(&d->b, m, layer, 1, e);
    if (!rc)
        rc = stepjac_init(&d->sj, m, layer, 0, e);
    if (!rc)
        rc = stepjac_work_init(&d->w, &d->sj, e);
    if (rc) {
        dynrun_close(d);
        return rc;
    }
    const size_t n = (size_t)d->n, H = (size_t)d->H;
    d->J = malloc(n * n * sizeof *d->J);
    d->prev = malloc(2 * H * sizeof *d->prev);
    if (!d->J || !d->prev) {
        dynrun_close(d);
        return gt_fail(e, GT_EFAIL, "out of memory for the state's Jacobian");
    }
    batch_set_state(&d->b, 0, NULL, NULL);
    return GT_OK;
}

/* J from the tangent map's rows at the step just taken (per cell kind). */
static void form_jacobian(dynrun *d)
{
    const size_t H = (size_t)d->H, n = (size_t)d->n;
    double *J = d->J;
    stepjac_rows(&d->sj, &d->w, 0, d->sj.rows);
    if (d->m->arch != GT_LSTM) { /* GRU: M itself */
        for (size_t r = 0; r < H; r++)
            stepjac_row(&d->sj, &d->w, (int)r, J + r * n);
        return;
    }
    const double *f = d->w.f, *u = d->w.u;
    memset(J, 0, n * n * sizeof *J);
    for (size_t i = 0; i < H; i++) {
        double *jc = J + i * n, *jh = J + (H + i) * n;
        stepjac_row(&d->sj, &d->w, (int)i, jc + H);         /* A */
        stepjac_row(&d->sj, &d->w, (int)(H + i), jh + H);   /* B */
        jc[i] = f[i];
        jh[i] = u[i] * f[i];
        for (size_t q = 0; q < H; q++)
            jh[H + q] += u[i] * jc[H + q];
    }
}

void dynrun_step(dynrun *d, uint16_t tok, int jacobian)
{
    gt_batch *b = &d->b;
    const size_t H = (size_t)d->H;
    const int L = d->layer;
    memcpy(d->prev, batch_h(b, L, 0), H * sizeof *d->prev);
    memcpy(d->prev + H, batch_c(b, L, 0), H * sizeof *d->prev);
    batch_step(b, 1, &tok);
    if (!jacobian)
        return;
    gt_step_point pt = {d->prev, d->prev + H, batch_gates(b, L, 0), batch_c(b, L, 0)};
    stepjac_prepare(&d->sj, &d->w, &pt);
    form_jacobian(d);
}

/* For step_tangents with M tangents: 1 for an LSTM, 0 for a GRU or an RNN (whose H x H J
 * is cheaper formed whole), -1 when out of memory. */
static int tangents_init(dynrun *d, size_t M)
{
    /* a GRU's or an RNN's J (H x H) formed whole costs less than the product with W_hh of
       3H or H rows; an LSTM's (2H x 2H) costs as much as the product, and forming it more */
    d->M = M;
    if (d->m->arch != GT_LSTM)
        return 0;
    const size_t H = (size_t)d->H;
    const float *w = d->m->layer[d->layer].w_hh;
    d->whh = malloc(4 * H * H * sizeof *d->whh);
    d->P = malloc(M * 4 * H * sizeof *d->P);
    if (!d->whh || !d->P)
        return -1;
    for (size_t i = 0; i < 4 * H * H; i++)
        d->whh[i] = w[i];
    return 1;
}

/* The BLAS's matrix product (Fortran interface, column-major). */
void dgemm_(const char *ta, const char *tb, const int *m, const int *n, const int *k,
            const double *alpha, const double *a, const int *lda, const double *b,
            const int *ldb, const double *beta, double *c, const int *ldc, size_t ta_len,
            size_t tb_len);

/* Y = A X by the BLAS's dgemm: A rows x k row-major, X k x M and Y rows x M column-major
 * with leading dimensions ldx and ldy. */
static void dyn_gemm(const double *A, int rows, int k, const double *X, int ldx, int M,
                     double *Y, int ldy)
{
    const double one = 1.0, zero = 0.0;
    /* A row-major is A^T column-major (leading dimension k) */
    dgemm_("T", "N", &rows, &M, &k, &one, A, &k, X, &ldx, &zero, Y, &ldy, 1, 1);
}

/* An LSTM's Z = J Q from P = W_hh Q_h (block b's rows at b H) and the step's coefficients,
 * for the tangents from..to-1:
 *   Zc = f Qc + A Qh, Zh = u Zc + B Qh   (A Qh = di P_i + df P_f + dg P_g, B Qh = do P_o) */
static void tangents_from(const dynrun *d, const double *Q, double *Z, size_t from, size_t to)
{
    const size_t H = (size_t)d->H, n = (size_t)d->n, GH = 4 * H;
    const double *v = d->w.v;
    for (size_t b = from; b < to; b++) {
        const double *q = Q + b * n, *p = d->P + b * GH;
        double *z = Z + b * n;
        for (size_t j = 0; j < H; j++) {
            z[j] = v[SJ_F * H + j] * q[j] + v[SJ_DI * H + j] * p[j] +
                   v[SJ_DF * H + j] * p[H + j] + v[SJ_DG * H + j] * p[2 * H + j];
            z[H + j] = v[SJ_U * H + j] * z[j] + v[SJ_DO * H + j] * p[3 * H + j];
        }
    }
}

/* An LSTM's step reading tok, its coefficients prepared for products_part. */
static void step_lstm(dynrun *d, uint16_t tok)
{
    gt_batch *b = &d->b;
    const size_t H = (size_t)d->H;
    const int L = d->layer;
    memcpy(d->prev, batch_h(b, L, 0), H * sizeof *d->prev);
    memcpy(d->prev + H, batch_c(b, L, 0), H * sizeof *d->prev);
    batch_step(b, 1, &tok);
    gt_step_point pt = {d->prev, d->prev + H, batch_gates(b, L, 0), batch_c(b, L, 0)};
    stepjac_prepare(&d->sj, &d->w, &pt);
}

/* One step's products, Z = J Q for the M tangents Q (column-major, n x M), part k of n_parts
 * (pool_run): an LSTM's without forming J (W_hh times their h part as one product, then each
 * row's coefficients), a GRU's or an RNN's with the J formed whole. */
typedef struct products {
    dynrun *d;
    int direct;
    const double *Q;
    double *Z;
} products;

/* The tangents from..to-1's products. */
static void products_of(const products *p, size_t from, size_t to)
{
    dynrun *d = p->d;
    const size_t n = (size_t)d->n;
    const int cols = (int)(to - from);
    if (p->direct) {
        const size_t GH = 4 * (size_t)d->H;
        dyn_gemm(d->whh, (int)GH, d->H, p->Q + from * n + (size_t)d->H, (int)n, cols,
                 d->P + from * GH, (int)GH); /* h part */
        tangents_from(d, p->Q, p->Z, from, to);
    } else {
        dyn_gemm(d->J, (int)n, (int)n, p->Q + from * n, (int)n, cols, p->Z + from * n, (int)n);
    }
}

/* An LSTM's products in chunks of DYN_CHUNK tangents, each always one call of the BLAS
 * whatever the number of threads (a BLAS's rounding may depend on how many columns a call
 * has): thread k of n_parts takes its share of the chunks. A GRU's or an RNN's, one call on
 * one thread (its J formed whole is most of the step, and the threads' meeting at every
 * step cost more than they saved). */
#define DYN_CHUNK 16
static void products_part(void *ctx, int k, int n_parts)
{
    const products *p = ctx;
    const size_t M = p->d->M, chunks = (M + DYN_CHUNK - 1) / DYN_CHUNK;
    if (!p->direct) {
        products_of(p, 0, M);
        return;
    }
    for (size_t c = chunks * (size_t)k / (size_t)n_parts;
         c < chunks * (size_t)(k + 1) / (size_t)n_parts; c++)
        products_of(p, c * DYN_CHUNK, c * DYN_CHUNK + DYN_CHUNK < M ? c * DYN_CHUNK + DYN_CHUNK : M);
}

/* OpenBLAS's threads set by openblas_set_num_threads, found by dlsym (dynrun.h). */
int dyn_blas_threads(int n)
{
    int (*get)(void);
    void (*set)(int);
    *(void **)&get = dlsym(RTLD_DEFAULT, "openblas_get_num_threads");
    *(void **)&set = dlsym(RTLD_DEFAULT, "openblas_set_num_threads");
    if (!get || !set || n < 1)
        return 0;
    const int was = get();
    set(n);
    return was;
}

const double *dynrun_carry(const dynrun *d)
{
    if (d->m->arch == GT_RNN) /* no carry gate */
        return NULL;
    return batch_gates(&d->b, d->layer, 0) + d->H; /* f (LSTM) or z (GRU) */
}

void lyapunov_free(gt_lyapunov *l)
{
    free(l->exponent);
    free(l->halflife);
    memset(l, 0, sizeof *l);
}

int dyn_cmp_desc(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return x < y ? 1 : x > y ? -1 : 0;
}

/* Z = Q R in place (Z becomes Q), diag R made >= 0; adds ln R_ii to sum when sum is set. */
static int qr_step(double *Z, size_t n, size_t M, double *tau, double *sum)
{
    if (LAPACKE_dgeqrf(LAPACK_COL_MAJOR, (lapack_int)n, (lapack_int)M, Z, (lapack_int)n, tau))
        return -1;
    double *sign = tau + M;
    for (size_t i = 0; i < M; i++) {
        const double r = Z[i * n + i];
        sign[i] = r < 0 ? -1.0 : 1.0;
        if (sum)
            sum[i] += log(fabs(r));
    }
    if (LAPACKE_dorgqr(LAPACK_COL_MAJOR, (lapack_int)n, (lapack_int)M, (lapack_int)M, Z,
                       (lapack_int)n, tau))
        return -1;
    for (size_t i = 0; i < M; i++)
        if (sign[i] < 0)
            for (size_t r = 0; r < n; r++)
                Z[i * n + r] = -Z[i * n + r];
    return 0;
}

/* The QR method over the steps, the sums of ln R_ii into sum; the products on the pool's
 * threads (pool may be NULL). */
static int lyapunov_run(dynrun *d, gt_pool *pool, size_t M, const uint16_t *tok, size_t steps,
                        size_t warmup, double *Q, double *Z, double *tau, double *sum)
{
    const size_t n = (size_t)d->n;
    for (size_t i = 0; i < M; i++)
        Q[i * n + i] = 1.0;
    const int direct = tangents_init(d, M);
    if (direct < 0)
        return -1;
    for (size_t t = 0; t < steps; t++) {
        if (direct)
            step_lstm(d, tok[t]);
        else /* J formed whole */
            dynrun_step(d, tok[t], 1);
        products p = {d, direct, Q, Z};
        pool_run(pool, products_part, &p);
        if (qr_step(Z, n, M, tau, t >= warmup ? sum : NULL))
            return -1;
        double *s = Q;
        Q = Z;
        Z = s;
    }
    return 0;
}

int lyapunov_compute(gt_lyapunov *l, const gt_model *m, int layer, int M, const uint16_t *tok,
                     size_t steps, size_t warmup, int threads, gt_error *e)
{
    memset(l, 0, sizeof *l);
    const int n = dyn_state_size(m);
    if (M < 1 || M > n)
        return gt_fail(e, GT_EINPUT, "--modes %d: the state has %d numbers (1..%d)", M, n, n);
    if (warmup >= steps)
        return gt_fail(e, GT_EINPUT, "--warmup %zu: not below the %zu steps", warmup, steps);
    dynrun d;
    int rc = dynrun_open(&d, m, layer, e);
    if (rc)
        return rc;
    const size_t N = (size_t)n, MM = (size_t)M;
    double *Q = calloc(N * MM, sizeof *Q), *Z = calloc(N * MM, sizeof *Z);
    double *tau = malloc(2 * MM * sizeof *tau);
    l->exponent = calloc(MM, sizeof *l->exponent);
    l->halflife = malloc(MM * sizeof *l->halflife);
    if (!Q || !Z || !tau || !l->exponent || !l->halflife)
        rc = gt_fail(e, GT_EFAIL, "out of memory for %d tangents", M);
    else {
        const int was = dyn_blas_threads(1); /* the same products and QR on any machine */
        if (threads < 1) {
            long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
            threads = ncpu > 0 ? (int)ncpu : 1;
        }
        /* at most one thread for every chunk of an LSTM's products; one for the others */
        if (m->arch != GT_LSTM)
            threads = 1;
        if (threads > (M + DYN_CHUNK - 1) / DYN_CHUNK)
            threads = (M + DYN_CHUNK - 1) / DYN_CHUNK;
        gt_pool *pool = threads > 1 ? pool_start(threads) : NULL;
        if (lyapunov_run(&d, pool, MM, tok, steps, warmup, Q, Z, tau, l->exponent))
            rc = gt_fail(e, GT_EFAIL, "LAPACK's QR failed (or out of memory)");
        pool_stop(pool);
        dyn_blas_threads(was);
    }
    free(Q);
    free(Z);
    free(tau);
    dynrun_close(&d);
    if (rc) {
        lyapunov_free(l);
        return rc;
    }
    l->layer = layer;
    l->modes = M;
    l->steps = steps;
    l->warmup = warmup;
    for (size_t i = 0; i < MM; i++)
        l->exponent[i] /= (double)(steps - warmup);
    qsort(l->exponent, MM, sizeof *l->exponent, dyn_cmp_desc);
    for (size_t i = 0; i < MM; i++)
        l->halflife[i] = l->exponent[i] < 0 ? log(0.5) / l->exponent[i] : NAN;
    return GT_OK;
}
