/* The step's whole Jacobian and the Lyapunov spectrum (see dynamics.h). From the tangent
 * map's rows (tangent.h: A and B of an LSTM, M of a GRU, the h columns only), with the
 * state ordered (c, h):
 *   LSTM  J = [ diag(f)    A              ]      (dc' = f dc + A dh)
 *             [ diag(u f)  B + diag(u) A  ]      (dh' = B dh + u dc')
 *   GRU   J = M.
 * The spectrum: Q_0 the first M columns of the identity; at each step Z = J_t Q_(t-1) as
 * matrix-matrix products (the M tangents as their items; an LSTM's without forming J: W_hh
 * times the tangents' h part, then A's and B's coefficients row by row, as many products
 * and no J to write; a GRU's or an RNN's J formed whole), then Z = Q_t R_t with R_t's
 * diagonal > 0 (the Cholesky QR twice, the Householder QR where Z is near rank deficient;
 * doc/measures.md, "The whole state's dynamics"). Each step's work is cut into fixed parts
 * (the products' two halves; the QR, and the run of the text a step on, which does not
 * depend on the tangents), run on two threads or in turn on one: the same calls, the same
 * numbers. */
#include "config.h"

#include <float.h>
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compute/blas.h"
#include "compute/blasthreads.h"
#include "compute/kernels.h"
#include "compute/pool.h"
#include "dynrun.h"
#include "gatetui/dynamics.h"
#include "compute/threads.h"

int dyn_state_size(const gt_model *m, int layer)
{
    return m->cell->state * model_width(m, layer);
}

void dynrun_close(dynrun *d)
{
    if (d->whh.data)
        mat64_free(&d->whh);
    free(d->P);
    free(d->Z);
    batch_free(&d->b);
    stepjac_free(d->sj);
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
    d->H = model_width(m, layer);
    d->n = dyn_state_size(m, layer);
    int rc = batch_init(&d->b, m, layer, 1, e);
    if (!rc)
        rc = batch_single_float32(&d->b, e);
    if (!rc)
        rc = stepjac_new(&d->sj, m, layer, 0, e);
    if (!rc)
        rc = stepjac_work_init(&d->w, d->sj, e);
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

/* A GRU's or an RNN's rows r0..r1-1 of J (M itself) from the coefficients w. */
static void jacobian_rows(dynrun *d, gt_stepjac_work *w, int r0, int r1)
{
    stepjac_rows(d->sj, w, r0, r1);
    for (int r = r0; r < r1; r++)
        stepjac_row(d->sj, w, r, d->J + (size_t)r * (size_t)d->n);
}

/* J from the tangent map's rows of the step whose coefficients w holds (per cell kind). */
static void form_jacobian(dynrun *d, gt_stepjac_work *w)
{
    const size_t H = (size_t)d->H, n = (size_t)d->n;
    double *J = d->J;
    if (!d->m->cell->has_c) { /* a state of h alone: M itself */
        jacobian_rows(d, w, 0, d->H);
        return;
    }
    stepjac_rows(d->sj, w, 0, stepjac_nrows(d->sj));
    const double *f = w->f, *u = w->u;
    memset(J, 0, n * n * sizeof *J);
    for (size_t i = 0; i < H; i++) {
        double *jc = J + i * n, *jh = J + (H + i) * n;
        stepjac_row(d->sj, w, (int)i, jc + H);         /* A */
        stepjac_row(d->sj, w, (int)(H + i), jh + H);   /* B */
        jc[i] = f[i];
        jh[i] = u[i] * f[i];
        for (size_t q = 0; q < H; q++)
            jh[H + q] += u[i] * jc[H + q];
    }
}

/* The step reading tok; with prepare, its coefficients in d->w (the forward part of the
 * spectrum's run: it does not depend on the tangents). */
static void step_run(dynrun *d, uint16_t tok, int prepare)
{
    gt_batch *b = &d->b;
    const size_t H = (size_t)d->H;
    const int L = d->layer;
    memcpy(d->prev, batch_h(b, L, 0), H * sizeof *d->prev);
    memcpy(d->prev + H, batch_c(b, L, 0), H * sizeof *d->prev);
    batch_step(b, 1, &tok);
    if (!prepare)
        return;
    gt_step_point pt = {d->prev, d->prev + H, batch_gates(b, L, 0), batch_c(b, L, 0),
                        batch_hn(b)};
    stepjac_prepare(d->sj, &d->w, &pt);
}

void dynrun_step(dynrun *d, uint16_t tok, int jacobian)
{
    step_run(d, tok, jacobian);
    if (jacobian)
        form_jacobian(d, &d->w);
}

/* For step_tangents with M tangents: 1 for a cell with a cell state (an LSTM), 0 for one
 * whose state is h alone (a GRU, an RNN: an H x H J is cheaper formed whole), -1 when out
 * of memory. */
static int tangents_init(dynrun *d, size_t M)
{
    /* a GRU's or an RNN's J (H x H) formed whole costs less than the product with W_hh of
       3H or H rows; an LSTM's (2H x 2H) costs as much as the product, and forming it more */
    d->M = M;
    if (!d->m->cell->has_c)
        return 0;
    const size_t H = (size_t)d->H, GH = (size_t)d->m->gates * H;
    d->P = malloc(M * GH * sizeof *d->P);
    d->Z = calloc(GH, sizeof *d->Z);
    if (!d->P || !d->Z || mat64_pack(&d->whh, d->m->layer[d->layer].w_hh, GH, H))
        return -1;
    return 1;
}

/* Y = A X by the BLAS's dgemm: A rows x k row-major, X k x M and Y rows x M column-major
 * with leading dimensions ldx and ldy. */
static void dyn_gemm(const double *A, int rows, int k, const double *X, int ldx, int M,
                     double *Y, int ldy)
{
    const double one = 1.0, zero = 0.0;
    /* A row-major is A^T column-major (leading dimension k) */
    dgemm_("T", "N", &rows, &M, &k, &one, A, &k, X, &ldx, &zero, Y, &ldy, 1, 1);
}

/* A cell state's Z = J Q from P = W_hh Q_h (block b's rows at b H) and the step's
 * coefficients, for the tangents from..to-1, each by the cell's tangent_one with the input
 * fixed: Zc = f Qc + A Qh, Zh = u Zc + B Qh. */
static void tangents_from(const dynrun *d, const double *v, const double *Q, double *Z,
                          size_t from, size_t to)
{
    const size_t H = (size_t)d->H, n = (size_t)d->n, GH = (size_t)d->m->gates * H;
    for (size_t b = from; b < to; b++) {
        const double *q = Q + b * n;
        double *z = Z + b * n;
        d->m->cell->tangent_one(H, v, d->P + b * GH, d->Z, NULL, q, q + H, z, z + H);
    }
}

/* One step's products, Z = J Q for the M tangents Q (column-major, n x M), from the step's
 * coefficients w: an LSTM's without forming J (W_hh times their h part, then each row's
 * coefficients), a GRU's or an RNN's with the J formed whole. */
typedef struct products {
    dynrun *d;
    int direct;
    gt_stepjac_work *w;
    const double *Q;
    double *Z;
    double *halves;     /* [2 M M]: a GRU's or an RNN's Z^T Z over each half's rows, or NULL */
} products;

/* An LSTM's products for the tangents from..to-1: W_hh times their h part by the kernel
 * set's double product, then each row's coefficients. */
static void products_of(const products *p, size_t from, size_t to)
{
    dynrun *d = p->d;
    const size_t n = (size_t)d->n, GH = (size_t)d->m->gates * (size_t)d->H;
    kern64_gemm(&d->whh, to - from, p->Q + from * n + (size_t)d->H, n, NULL, d->P + from * GH,
                GH, 0);
    tangents_from(d, p->w->v, p->Q, p->Z, from, to);
}

/* Half h (0 or 1) of a step's products, always the same whatever the number of threads
 * (a BLAS's rounding may depend on the shape of a call): an LSTM's tangents in chunks of
 * DYN_CHUNK, each one call, the first half of the chunks and the rest; a GRU's or an RNN's
 * rows of J, the first half and the rest, each formed and multiplied by one call. */
#define DYN_CHUNK 16
static void products_half(const products *p, int h)
{
    dynrun *d = p->d;
    const size_t M = d->M, n = (size_t)d->n;
    if (p->direct) {
        const size_t chunks = (M + DYN_CHUNK - 1) / DYN_CHUNK;
        for (size_t c = chunks * (size_t)h / 2; c < chunks * (size_t)(h + 1) / 2; c++)
            products_of(p, c * DYN_CHUNK,
                        c * DYN_CHUNK + DYN_CHUNK < M ? c * DYN_CHUNK + DYN_CHUNK : M);
        return;
    }
    const int r0 = d->H * h / 2, r1 = d->H * (h + 1) / 2;
    if (r1 <= r0) {
        if (p->halves)
            memset(p->halves + (size_t)h * M * M, 0, M * M * sizeof *p->halves);
        return;
    }
    jacobian_rows(d, p->w, r0, r1);
    dyn_gemm(d->J + (size_t)r0 * n, r1 - r0, (int)n, p->Q, (int)n, (int)M, p->Z + r0, (int)n);
    if (p->halves) { /* the QR's first product, its share here */
        const int K = (int)M, R = r1 - r0, N = (int)n;
        const double one = 1.0, zero = 0.0;
        dsyrk_("U", "T", &K, &R, &one, p->Z + r0, &N, &zero, p->halves + (size_t)h * M * M, &K,
               1, 1);
    }
}

void dynrun_carry(const dynrun *d, double *out)
{
    stepjac_carry(d->sj, batch_gates(&d->b, d->layer, 0), out);
}

void lyapunov_free(gt_lyapunov *l)
{
    free(l->exponent);
    free(l->se);
    free(l->halflife);
    free(l->halflife_hw);
    memset(l, 0, sizeof *l);
}

int dyn_cmp_desc(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    if (isnan(x) || isnan(y)) /* NaN last: a consistent order */
        return isnan(x) - isnan(y);
    return x < y ? 1 : x > y ? -1 : 0;
}

/* Z = Q R in place by Householder reflections (Z becomes Q), diag R made >= 0; adds ln R_ii
 * to sum when sum is set. An R_ii within n times the rounding unit of Z's Frobenius norm is
 * what the product's rounding leaves of a direction J annihilates (more tangents than J has
 * rank), not a contraction double precision resolves: it is taken as 0, ln R_ii = -inf
 * (doc/measures.md, "The whole state's dynamics"), whatever the BLAS's order of sums. */
static int householder(double *Z, size_t n, size_t M, double *tau, double *sum)
{
    double big = 0, sq = 0; /* ||Z||_F = big sqrt(sq), scaled against overflow */
    for (size_t i = 0; i < n * M; i++)
        big = fabs(Z[i]) > big ? fabs(Z[i]) : big;
    for (size_t i = 0; big > 0 && i < n * M; i++)
        sq += (Z[i] / big) * (Z[i] / big);
    const double tiny = (double)n * DBL_EPSILON * big * sqrt(sq);
    if (LAPACKE_dgeqrf(LAPACK_COL_MAJOR, (lapack_int)n, (lapack_int)M, Z, (lapack_int)n, tau))
        return -1;
    double *sign = tau + M;
    for (size_t i = 0; i < M; i++) {
        const double r = Z[i * n + i];
        sign[i] = r < 0 ? -1.0 : 1.0;
        if (sum)
            sum[i] += fabs(r) <= tiny ? -INFINITY : log(fabs(r));
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

/* The smallest reciprocal condition number of Z (n x M) for which the Cholesky QR is taken:
 * its orthogonality error after two passes is of the order of the rounding unit while
 * cond(Z) stays well below its inverse square root (6.7e7). */
#define CHOLQR_RCOND 1e-5

/* One pass of the Cholesky QR: G = Z^T Z = R^T R (LAPACK's Cholesky; Z^T Z given as the sum
 * of its halves' unless halves is NULL), Z = Z R^-1, ln R_ii added to sum when sum is set.
 * -1, Z unchanged, when G is not positive definite or R's reciprocal condition number is
 * below rcond (0: no check). */
static int cholqr_pass(double *Z, size_t n, size_t M, double *G, const double *halves,
                       double rcond, double *sum)
{
    const int N = (int)n, K = (int)M;
    const double one = 1.0, zero = 0.0;
    if (halves) /* G over the two halves of Z's rows, summed */
        for (size_t i = 0; i < M * M; i++)
            G[i] = halves[i] + halves[M * M + i];
    else
        dsyrk_("U", "T", &K, &N, &one, Z, &N, &zero, G, &K, 1, 1);
    if (LAPACKE_dpotrf_work(LAPACK_COL_MAJOR, 'U', K, G, K))
        return -1;
    if (rcond > 0) {
        double rc = 0, *work = G + M * M;
        lapack_int *iwork = (lapack_int *)(work + 3 * M);
        if (LAPACKE_dtrcon_work(LAPACK_COL_MAJOR, '1', 'U', 'N', K, G, K, &rc, work, iwork) ||
            !(rc >= rcond))
            return -1;
    }
    dtrsm_("R", "U", "N", "N", &N, &K, &one, G, &K, Z, &N, 1, 1, 1, 1);
    for (size_t i = 0; sum && i < M; i++)
        sum[i] += log(G[i * M + i]);
    return 0;
}

/* Z = Q R in place (Z becomes Q), diag R >= 0, ln R_ii added to sum when sum is set: by
 * the Cholesky QR twice (three products of the BLAS's level 3, where the Householder QR of
 * a few columns works a column at a time), each pass's R_ii multiplying; the Householder QR
 * where the first pass is refused (Z near rank deficient), or for what the second left.
 * G: M * M + 3 M doubles and M ints of room; halves: the first pass's Z^T Z in two parts,
 * or NULL. */
static int qr_step(double *Z, size_t n, size_t M, double *tau, double *G, const double *halves,
                   double *sum)
{
    if (cholqr_pass(Z, n, M, G, halves, CHOLQR_RCOND, sum) ||
        cholqr_pass(Z, n, M, G, NULL, 0, sum))
        return householder(Z, n, M, tau, sum);
    return 0;
}

/* The QR method over the steps, in two phases a step on two threads (one runs both in
 * turn: the same calls, the same numbers): the products, in their two halves; then the QR
 * on one thread while the other runs the text on by a step and keeps its coefficients (the
 * run does not depend on the tangents): step t's in coef's slot t % 2. */
typedef struct dynpipe {
    dynrun *d;
    const uint16_t *tok;
    size_t steps, warmup, M, V; /* V: the numbers of a step's coefficients */
    int failed;
    double *coef;               /* [2 V] */
    products pr;                /* the step's products, their coefficients in coef */
    double *tau, *gram;         /* gram: qr_step's room */
    double *sum;                /* [LYAPUNOV_BATCHES M]: batch b's sums of ln R_t,ii at b M */
    size_t batch;               /* the summed steps of each batch but the last */
    size_t t;                   /* the step carried: J_t, t = 1..steps */
} dynpipe;

/* The batch step t's ln R_t,ii are summed in (t > warmup): the summed steps W+1..N cut into
 * LYAPUNOV_BATCHES in turn, the last taking the remainder (all in the first when there are
 * fewer steps than batches). */
static double *batch_sum(const dynpipe *p)
{
    size_t b = p->batch ? (p->t - p->warmup - 1) / p->batch : 0;
    if (b > LYAPUNOV_BATCHES - 1)
        b = LYAPUNOV_BATCHES - 1;
    return p->sum + b * p->M;
}

/* Runs the text on to step t, its coefficients into its slot. */
static void pipe_forward(dynpipe *p, size_t t)
{
    step_run(p->d, p->tok[t], 1);
    memcpy(p->coef + (t % 2) * p->V, p->d->w.v, p->V * sizeof *p->coef);
}

static void phase_products(void *ctx, int k, int n)
{
    dynpipe *p = ctx;
    for (int h = k; h < 2; h += n)
        products_half(&p->pr, h);
}

static void phase_qr(void *ctx, int k, int n)
{
    dynpipe *p = ctx;
    if (k == 0 && qr_step(p->pr.Z, (size_t)p->d->n, p->M, p->tau, p->gram, p->pr.halves,
                          p->t > p->warmup ? batch_sum(p) : NULL))
        p->failed = 1;
    if ((k == 1 || n == 1) && p->t < p->steps)
        pipe_forward(p, p->t + 1);
}

/* The QR method over J_1..J_steps, J_t taken at the text's step t (step 0, from the zero
 * state, only sets the state J_1 is taken from: doc/measures.md, "The whole state's
 * dynamics"), the sums of ln R_t,ii over t > warmup into sum by batch (batch_sum); pool
 * (NULL: one thread) of two threads. */
static int lyapunov_run(dynrun *d, gt_pool *pool, size_t M, const uint16_t *tok, size_t steps,
                        size_t warmup, double *Q, double *Z, double *tau, double *sum)
{
    const size_t n = (size_t)d->n, H = (size_t)d->H;
    for (size_t i = 0; i < M; i++)
        Q[i * n + i] = 1.0;
    const int direct = tangents_init(d, M);
    if (direct < 0)
        return -1;
    gt_stepjac_work tw;
    gt_error e;
    const size_t V = STEPJAC_COEFS * H;
    dynpipe p = {d, tok, steps, warmup, M, V, 0, NULL, {d, direct, &tw, Q, Z, NULL}, tau,
                 NULL, sum, (steps - warmup) / LYAPUNOV_BATCHES, 0};
    p.coef = malloc(2 * p.V * sizeof *p.coef);
    p.gram = malloc(((direct ? 1 : 3) * M * M + 4 * M) * sizeof *p.gram);
    if (!direct && p.gram)
        p.pr.halves = p.gram + M * M + 4 * M;
    if (!p.coef || !p.gram || stepjac_work_init(&tw, d->sj, &e)) {
        free(p.coef);
        free(p.gram);
        return -1;
    }
    double *own = tw.v; /* put back before it is freed */
    step_run(d, tok[0], 0); /* step 0 sets the state J_1 is taken from */
    if (steps)
        pipe_forward(&p, 1);
    for (p.t = 1; p.t <= steps && !p.failed; p.t++) {
        stepjac_work_at(&tw, d->sj, p.coef + (p.t % 2) * p.V);
        pool_run(pool, phase_products, &p);
        pool_run(pool, phase_qr, &p);
        double *s = (double *)p.pr.Q;
        p.pr.Q = p.pr.Z;
        p.pr.Z = s;
    }
    stepjac_work_at(&tw, d->sj, own);
    stepjac_work_free(&tw);
    free(p.coef);
    free(p.gram);
    return p.failed ? -1 : 0;
}

/* An exponent and its standard error, sorted together. */
typedef struct ly_pair {
    double ex, se;
} ly_pair;

/* From the batches' sums of ln R_t,ii (batch b's at b M): each exponent, the mean over the
 * S = steps - warmup summed steps, and its standard error by batch means (doc/measures.md),
 * sd_b(lambda_i,b) / sqrt(B) over the B = LYAPUNOV_BATCHES batch means (the sample
 * deviation; NAN when S < B); then sorted, largest first, each with its own standard error,
 * and the half-lives with theirs carried to first order. v: room for M pairs. */
static void lyapunov_finish(gt_lyapunov *l, const double *sum, ly_pair *v, size_t steps,
                            size_t warmup)
{
    const size_t M = (size_t)l->modes, S = steps - warmup, B = LYAPUNOV_BATCHES, b = S / B;
    for (size_t i = 0; i < M; i++) {
        double all = 0, mean = 0, ss = 0, bm[LYAPUNOV_BATCHES];
        for (size_t k = 0; k < B; k++) {
            all += sum[k * M + i];
            bm[k] = sum[k * M + i] / (double)(k < B - 1 ? b : S - (B - 1) * b);
            mean += bm[k] / (double)B;
        }
        for (size_t k = 0; k < B; k++)
            ss += (bm[k] - mean) * (bm[k] - mean);
        v[i].ex = all / (double)S;
        v[i].se = b ? sqrt(ss / (double)(B - 1)) / sqrt((double)B) : NAN;
    }
    qsort(v, M, sizeof *v, dyn_cmp_desc); /* by ex, the pair's first double */
    for (size_t i = 0; i < M; i++) {
        l->exponent[i] = v[i].ex;
        l->se[i] = v[i].se;
    }
    for (size_t i = 0; i < M; i++) {
        const double x = l->exponent[i];
        l->halflife[i] = !(x < 0) ? NAN /* does not halve (or not known) */
                         : isinf(x) ? 0 /* gone at the first step */
                                    : log(0.5) / x;
        /* d(ln 1/2 / x) = -ln 1/2 / x^2 dx: the half-life's half-width, 1.96 SE carried */
        l->halflife_hw[i] = x < 0 && !isinf(x) ? LYAPUNOV_Z95 * l->se[i] * -log(0.5) / (x * x)
                                                : NAN;
    }
}

int lyapunov_compute(gt_lyapunov *l, const gt_model *m, int layer, int M, const uint16_t *tok,
                     size_t steps, size_t warmup, int threads, gt_error *e)
{
    memset(l, 0, sizeof *l);
    l->step_noun = model_step_noun(m);
    if (layer < 0 || layer >= m->layers) /* as dynrun_open says it */
        return gt_fail(e, GT_EINPUT, "--layer %d: the model has %d layer%s (0..%d)", layer,
                       m->layers, m->layers == 1 ? "" : "s", m->layers - 1);
    const int n = dyn_state_size(m, layer);
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
    double *sum = calloc(LYAPUNOV_BATCHES * MM, sizeof *sum);
    ly_pair *pairs = malloc(MM * sizeof *pairs);
    l->exponent = malloc(MM * sizeof *l->exponent);
    l->se = malloc(MM * sizeof *l->se);
    l->halflife = malloc(MM * sizeof *l->halflife);
    l->halflife_hw = malloc(MM * sizeof *l->halflife_hw);
    if (!Q || !Z || !tau || !sum || !pairs || !l->exponent || !l->se || !l->halflife ||
        !l->halflife_hw)
        rc = gt_fail(e, GT_EFAIL, "out of memory for %d tangents", M);
    else {
        const int was = blas_threads(1); /* the same products and QR on any machine */
        threads = threads_choose(threads, 2); /* the tangents, the run ahead */
        gt_pool *pool = threads > 1 ? pool_start(2) : NULL; /* the tangents, the run ahead */
        if (lyapunov_run(&d, pool, MM, tok, steps, warmup, Q, Z, tau, sum))
            rc = gt_fail(e, GT_EFAIL, "LAPACK's QR failed (or out of memory)");
        pool_stop(pool);
        blas_threads(was);
    }
    free(Q);
    free(Z);
    free(tau);
    dynrun_close(&d);
    l->layer = layer;
    l->modes = M;
    l->steps = steps;
    l->warmup = warmup;
    if (!rc)
        lyapunov_finish(l, sum, pairs, steps, warmup);
    free(sum);
    free(pairs);
    if (rc)
        lyapunov_free(l);
    return rc;
}
