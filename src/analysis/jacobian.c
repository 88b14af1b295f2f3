/* The backward sweep (see jacobian.h). With Lc, Lh the rows of dc_T / dc_t and dc_T / dh_t
 * (for a GRU, L = dh_T / dh_t) at step t, going back over step t (the step's derivative M of
 * tangent.h, the h columns only: the inputs are fixed):
 *
 *   LSTM  Lc' = Lc + Lh * u_t            (h_t moves with c_t: dc_T / dc_t in full)
 *         J(t, T-t) = Lc'
 *         Lh <- [Lc' Lh] [A_t; B_t],    Lc <- Lc' * f_t
 *         (the two updates of Lc taken in one pass: Lc' = Lc'_(t+1) f_(t+1) + Lh u_t)
 *   GRU   J(t, T-t) = L,  L <- L M_t
 *
 * from Lc = I, Lh = 0 (L = I) at T. Each thread takes a block of rows through every step:
 * its own copy of the step's derivative (formed in O(H^2), against the product's O(H^3 /
 * threads)) and no sharing until the end. (Forming it once, each thread a part, costs a
 * meeting of the threads at every step: on a busy machine, where one of them may wait for
 * a processor, 20-40% slower on the sample LSTM.) The sums over rows are taken afterwards in row
 * order, so the numbers do not depend on the number of threads. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compute/kernels.h"
#include "compute/pool.h"
#include "gatetui/bigmem.h"
#include "gatetui/jacobian.h"
#include "compute/threads.h"

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("tree-vectorize")
#endif

typedef struct jac_part {
    gt_jacobian *j;
    int i0, i1;         /* rows */
    gt_stepjac_work w;
    double *mem;        /* X or Lc, Lh and M's data, in one buffer (in as few huge pages) */
    gt_mat64 M;         /* M_t^T packed: row q < H, column p < rows(M) */
    double *X;          /* [(i1-i0) * 2H]: [Lc' Lh], an LSTM's only */
    double *Lc, *Lh;    /* [(i1-i0) * H]: a GRU's or plain RNN's L and the next (Lc), an
                           LSTM's Lh */
    double *row;        /* [2H] */
    double *f;          /* [H] the f of the step after the one at hand */
} jac_part;

static size_t tape_stride(const gt_jacobian *j)
{
    return (size_t)(j->m->gates + 3) * (size_t)j->H;
}

/* The step point of tape step p (0: step T-K). */
static gt_step_point tape_point(const gt_jacobian *j, int p)
{
    const size_t H = (size_t)j->H;
    const double *t = j->tape + (size_t)p * tape_stride(j);
    return (gt_step_point){t, t + H, t + 2 * H, t + (2 + (size_t)j->m->gates) * H, NULL};
}

static void free_part(jac_part *pt)
{
    stepjac_work_free(&pt->w);
    free(pt->mem);
    free(pt->row);
    free(pt->f);
}

void jacobian_free(gt_jacobian *j)
{
    pool_stop(j->pool);
    for (int t = 0; j->part && t < j->threads; t++)
        free_part(&j->part[t]);
    free(j->part);
    batch_free(&j->fwd);
    stepjac_free(j->sj);
    free(j->tape); /* and j->mat */
    free(j->carry);
    free(j->rowsq);
    free(j->diag);
    memset(j, 0, sizeof *j);
}

static int init_part(gt_jacobian *j, jac_part *pt, int t, gt_error *e)
{
    const size_t H = (size_t)j->H;
    pt->j = j;
    pt->i0 = (int)(H * (size_t)t / (size_t)j->threads);
    pt->i1 = (int)(H * (size_t)(t + 1) / (size_t)j->threads);
    const size_t nr = (size_t)(pt->i1 - pt->i0);
    int rc = stepjac_work_init(&pt->w, j->sj, e);
    if (rc)
        return rc;
    /* every buffer of the sweep's in one: each of 256 KB to 1 MB would take a huge page of
       its own (doc/speed.md, "The Jacobian") */
    const size_t rows = nr ? nr : 1, ml = mat64_len(H, (size_t)stepjac_nrows(j->sj));
    const int lstm = j->m->cell->has_c;
    pt->mem = big_zalloc((rows * 3 * H - (lstm ? 0 : rows * H) + ml) * sizeof *pt->mem);
    pt->row = malloc(2 * H * sizeof *pt->row);
    pt->f = malloc(H * sizeof *pt->f);
    if (!pt->mem || !pt->row || !pt->f)
        return gt_fail(e, GT_EFAIL, "out of memory for the Jacobian");
    pt->X = lstm ? pt->mem : NULL;
    pt->Lc = lstm ? NULL : pt->mem;
    pt->Lh = pt->mem + rows * (lstm ? 2 : 1) * H;
    mat64_place(&pt->M, H, (size_t)stepjac_nrows(j->sj), pt->Lh + rows * H);
    return GT_OK;
}

int jacobian_init(gt_jacobian *j, const gt_model *m, int layer, int kmax, int threads,
                  gt_error *e)
{
    memset(j, 0, sizeof *j);
    if (layer < 0 || layer >= m->layers)
        return gt_fail(e, GT_EINPUT, "--layer %d: the model has %d layer%s (0..%d)", layer,
                       m->layers, m->layers == 1 ? "" : "s", m->layers - 1);
    if (kmax < 1)
        return gt_fail(e, GT_EINPUT, "Jacobian: lag %d", kmax);
    /* each thread forms its own copy of every step's derivative: 16 copies at most */
    const int width = model_width(m, layer);
    threads = threads_choose(threads, width < 16 ? (size_t)width : 16);
    j->m = m;
    j->layer = layer;
    j->kmax = kmax;
    j->part_macs = JACOBIAN_STOP_MACS;
    j->H = width;
    const size_t H = (size_t)width, K1 = (size_t)kmax + 1;
    int rc = batch_init(&j->fwd, m, layer, 1, e);
    if (!rc)
        rc = stepjac_new(&j->sj, m, layer, 0, e);
    if (rc) {
        jacobian_free(j);
        return rc;
    }
    /* the tape, then the matrix of the last lag, in one buffer */
    j->tape = big_zalloc((K1 * tape_stride(j) + H * H) * sizeof *j->tape);
    j->carry = malloc(K1 * H * sizeof *j->carry);
    j->rowsq = malloc((size_t)kmax * H * sizeof *j->rowsq);
    j->diag = malloc((size_t)kmax * H * sizeof *j->diag);
    j->mat = j->tape ? j->tape + K1 * tape_stride(j) : NULL;
    /* the threads the pool could start (the caller is one) */
    j->pool = threads > 1 ? pool_start(threads) : NULL;
    j->threads = pool_threads(j->pool);
    j->part = calloc((size_t)j->threads, sizeof *j->part);
    if (!j->tape || !j->carry || !j->rowsq || !j->diag || !j->mat || !j->part) {
        jacobian_free(j);
        return gt_fail(e, GT_EFAIL, "out of memory for the Jacobian (lags up to %d)", kmax);
    }
    for (int t = 0; t < j->threads; t++)
        if ((rc = init_part(j, &j->part[t], t, e))) {
            jacobian_free(j);
            return rc;
        }
    return GT_OK;
}

static int stopped(const gt_jacobian *j)
{
    return j->stop && atomic_load_explicit(j->stop, memory_order_relaxed);
}

/* Y = X M^T for nr rows of X, in parts of rows of at most j->part_macs multiply-adds (one row
 * at least), the stop flag read between them (each row's sums are the same in any part). */
static void product(const gt_jacobian *j, const gt_mat64 *M, size_t nr, const double *X,
                    size_t ldx, double *Y, size_t ldy)
{
    const size_t macs = M->rows * M->cols,
                 part = macs < j->part_macs ? j->part_macs / (macs ? macs : 1) : 1;
    for (size_t i = 0; i < nr && !stopped(j); i += part)
        kern64_gemm(M, nr - i < part ? nr - i : part, X + i * ldx, ldx, NULL, Y + i * ldy, ldy,
                    0);
}

/* The forward run of steps T-K..T into the tape, and the carry products by lag. */
static void forward(gt_jacobian *j, const float *h0, const float *c0, const uint16_t *tok, int K)
{
    gt_batch *b = &j->fwd;
    const size_t H = (size_t)j->H, GH = (size_t)j->m->gates * H;
    const int L = j->layer, lstm = j->m->cell->has_c;
    batch_set_state(b, 0, h0, c0);
    for (int p = 0; p <= K && !stopped(j); p++) {
        double *t = j->tape + (size_t)p * tape_stride(j);
        memcpy(t, batch_h(b, L, 0), H * sizeof *t);
        memcpy(t + H, batch_c(b, L, 0), H * sizeof *t);
        batch_step(b, 1, &tok[p]);
        memcpy(t + 2 * H, batch_gates(b, L, 0), GH * sizeof *t);
        memcpy(t + 2 * H + GH, lstm ? batch_c(b, L, 0) : batch_h(b, L, 0), H * sizeof *t);
    }
    /* C(T-k, k) = f_{T-k+1} ... f_T, multiplied from T back (as the sweep does), an ablated
       unit's f 0 (stepjac_carry); a plain RNN has no carry gate, no carry line (NAN) */
    for (size_t q = 0; q < H; q++)
        j->carry[q] = j->m->cell->carry < 0 ? NAN : 1.0;
    for (int k = 1; k <= K; k++) {
        double *c = j->carry + (size_t)k * H;
        const double *before = c - H;
        stepjac_carry(j->sj, tape_point(j, K - k + 1).gates, c);
        for (size_t q = 0; q < H; q++)
            c[q] *= before[q];
    }
}

/* The rows of lag k (1..K) in X (row stride ld): their squared norms and diagonal entries;
 * at the last lag the rows themselves. */
static void record(jac_part *pt, const double *X, size_t ld, int k)
{
    gt_jacobian *j = pt->j;
    const size_t H = (size_t)j->H;
    for (int i = pt->i0; i < pt->i1; i++) {
        const double *x = X + (size_t)(i - pt->i0) * ld;
        double s = 0;
        for (size_t q = 0; q < H; q++)
            s += x[q] * x[q];
        j->rowsq[(size_t)(k - 1) * H + (size_t)i] = s;
        j->diag[(size_t)(k - 1) * H + (size_t)i] = x[i];
        if (k == j->K)
            memcpy(j->mat + (size_t)i * H, x, H * sizeof *x);
    }
}

/* The coefficients of tape step p, and with `rows` M_t^T into pt->M. */
static void form_step(jac_part *pt, int p, int rows)
{
    const gt_jacobian *j = pt->j;
    gt_step_point sp = tape_point(j, p);
    const int nrows = stepjac_nrows(j->sj);
    stepjac_prepare(j->sj, &pt->w, &sp);
    if (rows)
        stepjac_rows(j->sj, &pt->w, 0, nrows);
    for (int r = 0; rows && r < nrows; r++) {
        stepjac_row(j->sj, &pt->w, r, pt->row);
        mat64_put_col(&pt->M, (size_t)r, pt->row);
    }
}

/* Step T first: Lc' = I, Lh = 0, so Lh before it is the rows i0..i1 of A_T (no product);
 * then each step back one pass over the rows: Lc' = Lc' f_(t+1) + Lh u_t (the Lc' of the
 * step after times its f), recorded as it is made, then the product. */
static void sweep_lstm(jac_part *pt)
{
    gt_jacobian *j = pt->j;
    const size_t H = (size_t)j->H, nr = (size_t)(pt->i1 - pt->i0);
    const int K = j->K;
    form_step(pt, K, 0);
    memset(pt->X, 0, nr * 2 * H * sizeof *pt->X);
    for (size_t i = 0; i < nr; i++) {
        pt->X[i * 2 * H + (size_t)pt->i0 + i] = 1.0;
        stepjac_row(j->sj, &pt->w, pt->i0 + (int)i, pt->Lh + i * H);
    }
    memcpy(pt->f, pt->w.f, H * sizeof *pt->f);
    for (int p = K - 1; p >= 0 && !stopped(j); p--) {
        form_step(pt, p, p > 0); /* u and f of step p; M when p > 0 */
        const double *restrict u = pt->w.u, *restrict f = pt->f;
        const size_t k = (size_t)(K - p);
        for (size_t i = 0; i < nr; i++) {
            double *restrict x = pt->X + i * 2 * H;
            const double *restrict lh = pt->Lh + i * H;
            double s = 0;
            for (size_t q = 0; q < H; q++) {
                const double c = x[q] * f[q] + lh[q] * u[q];
                x[q] = c;
                x[H + q] = lh[q];
                s += c * c;
            }
            const size_t row = (size_t)pt->i0 + i;
            j->rowsq[(k - 1) * H + row] = s;
            j->diag[(k - 1) * H + row] = x[row];
            if (p == 0)
                memcpy(j->mat + row * H, x, H * sizeof *x);
        }
        if (p == 0)
            break;
        product(j, &pt->M, nr, pt->X, 2 * H, pt->Lh, H);
        memcpy(pt->f, pt->w.f, H * sizeof *pt->f);
    }
}

static void sweep_gru(jac_part *pt)
{
    gt_jacobian *j = pt->j;
    const size_t H = (size_t)j->H, nr = (size_t)(pt->i1 - pt->i0);
    const int K = j->K;
    double *L = pt->Lc, *next = pt->Lh;
    memset(L, 0, nr * H * sizeof *L);
    for (size_t i = 0; i < nr; i++)
        L[i * H + (size_t)pt->i0 + i] = 1.0;
    for (int p = K; p >= 0 && !stopped(j); p--) {
        if (p < K)
            record(pt, L, H, K - p);
        if (p == 0)
            break;
        form_step(pt, p, 1);
        product(j, &pt->M, nr, L, H, next, H);
        double *t = L;
        L = next;
        next = t;
    }
}

static void sweep(void *ctx, int k, int n)
{
    gt_jacobian *j = ctx;
    (void)n;
    jac_part *pt = &j->part[k];
    if (pt->i1 <= pt->i0)
        return;
    if (j->m->cell->has_c) /* a cell state's: dc_T / dc_(T-k) */
        sweep_lstm(pt);
    else /* a GRU's or a plain RNN's: dh_T / dh_(T-k) */
        sweep_gru(pt);
}

int jacobian_run(gt_jacobian *j, const float *h0, const float *c0, const uint16_t *tok, int K,
                 gt_error *e)
{
    if (K < 1 || K > j->kmax)
        return gt_fail(e, GT_EINPUT, "Jacobian: lag %d, not in 1..%d", K, j->kmax);
    forward(j, h0, c0, tok, K);
    j->K = K;
    if (j->threads > 1 && !stopped(j))
        pool_run(j->pool, sweep, j);
    else if (!stopped(j))
        sweep(j, 0, 1);
    if (stopped(j)) {
        j->K = 0;
        return gt_fail(e, GT_EFAIL, "the Jacobian was stopped");
    }
    return GT_OK;
}

void jacobian_lag(const gt_jacobian *j, int k, int unit, gt_jacobian_lag *out)
{
    const size_t H = (size_t)j->H;
    const double *rs = j->rowsq + (size_t)(k - 1) * H, *dg = j->diag + (size_t)(k - 1) * H;
    const double *c = j->carry + (size_t)k * H;
    double f = 0, d = 0, cf = 0;
    for (size_t i = 0; i < H; i++) {
        f += rs[i];
        d += dg[i] * dg[i];
        cf += c[i] * c[i];
    }
    out->k = k;
    out->frob = sqrt(f);
    out->carry_frob = sqrt(cf);
    out->diag_share = f > 0 ? sqrt(d / f) : NAN;
    out->diag = dg[unit];
    out->row = sqrt(rs[unit]);
    out->carry = c[unit];
}

const double *jacobian_matrix(const gt_jacobian *j)
{
    return j->mat;
}

double jacobian_flops(const gt_jacobian *j)
{
    const double H = j->H, K = j->K;
    if (j->m->cell->has_c) /* [Lc' Lh] (H x 2H) by (2H x H), step T's taken as A_T */
        return 2.0 * (K - 1) * H * (2 * H) * H;
    if (j->m->cell->sj_rows)
        return 2.0 * K * (H * H * H + H * H * H); /* G, then L M */
    return 2.0 * K * H * H * H;
}
