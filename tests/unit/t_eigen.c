/* The k eigenvalues of largest modulus by ARPACK (eigen_top, what the derivative sheet shows;
 * doc/measures.md, "The eigenvalues at a step") against LAPACK's whole spectrum (eigen_all,
 * what --spectrum prints) in the same order, to 1e-8 of max(1, |lambda|): on the step
 * Jacobians of the sample LSTM, GRU and RNN at steps through the whole of kjv-valid.txt, on
 * random matrices (their eigenvalues fill a disk: conjugate pairs at the cut), and on
 * matrices made with known eigenvalues S D S^-1 (S not orthogonal): complex pairs, a pair
 * split by the cut, four distinct eigenvalues of one modulus across the cut (the tie's
 * order: the imaginary part, then the real part, largest first), an eigenvalue repeated
 * across the cut; each also against the eigenvalues it was made with; on a matrix with
 * sparse columns among its dense ones. Then the order itself
 * on values given by hand, and spectrum_top_from against spectrum_from. */
#include <lapacke.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/dynrun.h"
#include "analysis/eigen.h"
#include "gatetui/dynamics.h"
#include "gatetui/model.h"
#include "gatetui/run.h"
#include "gatetui/text.h"
#include "../lib/tap.h"

#define K 16
#define TOL 1e-8

static uint64_t rng = 0x243f6a8885a308d3u;

static double uniform(void) /* in (0, 1) */
{
    uint64_t z = (rng += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    z ^= z >> 31;
    return ((double)(z >> 11) + 0.5) / 9007199254740992.0;
}

static double gauss(void)
{
    return sqrt(-2 * log(uniform())) * cos(2 * M_PI * uniform());
}

/* The largest difference of the first k of (ar, ai) and (br, bi), relative to
 * max(1, |b|). */
static double worst(const double *ar, const double *ai, const double *br, const double *bi,
                    int k)
{
    double w = 0;
    for (int i = 0; i < k; i++) {
        const double d = hypot(ar[i] - br[i], ai[i] - bi[i]) / fmax(1, hypot(br[i], bi[i]));
        w = d > w || isnan(d) ? d : w;
    }
    return w;
}

static void show(const double *ar, const double *ai, const double *br, const double *bi, int k)
{
    for (int i = 0; i < k; i++)
        printf("#   %2d  %+.12f %+.12fi   %+.12f %+.12fi\n", i, ar[i], ai[i], br[i], bi[i]);
}

/* eigen_top's k of A (n x n, row-major; by ARPACK, or when `lapack` by LAPACK: a tie that
 * reaches past what ARPACK computes) against LAPACK's, and against want (ordered, when
 * given) to wtol; 1 when both agree. */
static int check(const double *A, int n, int k, const double *wr, const double *wi,
                 double wtol, int lapack, const char *what)
{
    double *B = malloc((size_t)n * (size_t)n * sizeof *B);
    double *v = malloc(2 * ((size_t)n + (size_t)k) * sizeof *v);
    double *ar = v, *ai = v + k, *lr = v + 2 * k, *li = lr + n;
    memcpy(B, A, (size_t)n * (size_t)n * sizeof *B);
    gt_error e;
    eigen_how how;
    int ok = eigen_top(A, n, k, -1, 0, ar, ai, &how, &e) == GT_OK;
    if (!ok)
        printf("# ARPACK: %s\n", e.msg);
    else if (how.by != (lapack ? EIGEN_BY_LAPACK : EIGEN_BY_ARPACK))
        printf("# computed by %s\n", how.by == EIGEN_BY_ARPACK ? "ARPACK" : "LAPACK");
    ok = ok && how.by == (lapack ? EIGEN_BY_LAPACK : EIGEN_BY_ARPACK);
    ok = eigen_all(B, n, lr, li, &e) == GT_OK && ok;
    const double d = ok ? worst(ar, ai, lr, li, k) : INFINITY;
    tap_ok(d <= TOL, "%s (n %d): the %d largest by %s are LAPACK's first %d (%.1e)", what, n, k,
           lapack ? "LAPACK (a tie past ARPACK's)" : "ARPACK", k, d);
    if (!(d <= TOL))
        show(ar, ai, lr, li, k);
    if (wr) {
        const double dw = worst(lr, li, wr, wi, k), da = worst(ar, ai, wr, wi, k);
        tap_ok(dw <= wtol && da <= wtol, "%s: both are the eigenvalues it was made with "
               "(LAPACK %.1e, ARPACK %.1e)", what, dw, da);
        if (!(dw <= wtol && da <= wtol))
            show(ar, ai, wr, wi, k);
    }
    const int agree = d <= TOL;
    free(B);
    free(v);
    return agree;
}

/* A = S D S^-1 (row-major) with D real block diagonal: (wr[i], wi[i]) a real eigenvalue
 * when wi[i] = 0, else with (wr[i+1], wi[i+1]) its conjugate a 2 x 2 block; S = I + s G
 * with G Gaussian / sqrt(n). */
static double *made(const double *wr, const double *wi, int n, double s)
{
    const size_t N = (size_t)n;
    double *D = calloc(N * N, sizeof *D), *S = malloc(N * N * sizeof *S);
    double *SD = calloc(N * N, sizeof *SD), *A = malloc(N * N * sizeof *A);
    lapack_int *piv = malloc(N * sizeof *piv);
    for (int i = 0; i < n; i++) {
        if (wi[i] != 0 && i + 1 < n) {
            D[i * N + i] = D[(i + 1) * N + i + 1] = wr[i];
            D[i * N + i + 1] = wi[i];
            D[(i + 1) * N + i] = -wi[i];
            i++;
        } else {
            D[i * N + i] = wr[i];
        }
    }
    for (size_t i = 0; i < N * N; i++)
        S[i] = s * gauss() / sqrt((double)n) + (i % (N + 1) == 0);
    for (size_t i = 0; i < N; i++)
        for (size_t q = 0; q < N; q++)
            for (size_t j = 0; j < N; j++)
                SD[i * N + j] += S[i * N + q] * D[q * N + j];
    /* A S = S D: A^T from S^T A^T = (S D)^T, i.e. row-major S X = ... read transposed */
    double *St = malloc(N * N * sizeof *St);
    for (size_t i = 0; i < N; i++)
        for (size_t j = 0; j < N; j++) {
            St[i * N + j] = S[j * N + i];
            A[i * N + j] = SD[j * N + i];
        }
    /* row-major St X = (SD)^T: X = S^-T D^T S^T = A^T */
    LAPACKE_dgesv(LAPACK_ROW_MAJOR, n, n, St, n, piv, A, n);
    for (size_t i = 0; i < N; i++)
        for (size_t j = i + 1; j < N; j++) {
            double t = A[i * N + j];
            A[i * N + j] = A[j * N + i];
            A[j * N + i] = t;
        }
    free(D);
    free(S);
    free(SD);
    free(St);
    free(piv);
    return A;
}

/* The eigenvalues wr, wi as eigen_order puts them (a copy, for the comparison). */
static void ordered(const double *wr, const double *wi, int n, double *or_, double *oi)
{
    double *key = malloc(3 * (size_t)n * sizeof *key);
    memcpy(or_, wr, (size_t)n * sizeof *or_);
    memcpy(oi, wi, (size_t)n * sizeof *oi);
    eigen_order(or_, oi, n, key);
    free(key);
}

/* n eigenvalues: `top` given, the rest of modulus below `below`, real or in pairs. */
static void fill(double *wr, double *wi, int n, const double *tr, const double *ti, int top,
                 double below)
{
    memcpy(wr, tr, (size_t)top * sizeof *wr);
    memcpy(wi, ti, (size_t)top * sizeof *wi);
    for (int i = top; i < n; i++) {
        const double r = below * sqrt(uniform()), a = M_PI * uniform();
        if (i + 1 < n && uniform() < 0.5) {
            wr[i] = wr[i + 1] = r * cos(a);
            wi[i] = r * sin(a);
            wi[i + 1] = -wi[i];
            i++;
        } else {
            wr[i] = r * (uniform() < 0.5 ? -1 : 1);
            wi[i] = 0;
        }
    }
}

/* A matrix made with the `top` eigenvalues given above the rest, S = I + s G, checked. */
static void made_case_s(const double *tr, const double *ti, int top, int n, double s,
                        int lapack, const char *what)
{
    double *w = malloc(4 * (size_t)n * sizeof *w), *wr = w, *wi = w + n, *or_ = w + 2 * n,
           *oi = w + 3 * n;
    fill(wr, wi, n, tr, ti, top, 0.9);
    double *A = made(wr, wi, n, s);
    ordered(wr, wi, n, or_, oi);
    check(A, n, K, or_, oi, 1e-9, lapack, what);
    free(A);
    free(w);
}

static void made_case(const double *tr, const double *ti, int top, int n, int lapack,
                      const char *what)
{
    made_case_s(tr, ti, top, n, 0.3, lapack, what);
}

static void made_cases(void)
{
    double tr[24], ti[24];
    /* complex pairs above: 8 pairs of moduli 1.9 .. 1.2, each at its own modulus */
    for (int p = 0; p < 8; p++) {
        const double r = 1.9 - 0.1 * p, a = 0.3 + 0.35 * p;
        tr[2 * p] = tr[2 * p + 1] = r * cos(a);
        ti[2 * p] = r * sin(a);
        ti[2 * p + 1] = -ti[2 * p];
    }
    made_case(tr, ti, 16, 300, 0, "complex pairs, 8 of them the largest");
    /* 15 real, then a pair the cut splits: its + half is taken */
    for (int i = 0; i < 15; i++)
        tr[i] = 2.5 - 0.05 * i, ti[i] = 0;
    tr[15] = tr[16] = 0.6, ti[15] = 1.0, ti[16] = -1.0;
    made_case(tr, ti, 17, 300, 0, "a conjugate pair split by the cut");
    /* 14 real, then 1.2i, 1.2, -1.2, -1.2i: the cut after 1.2 */
    for (int i = 0; i < 14; i++)
        tr[i] = 2.5 - 0.05 * i, ti[i] = 0;
    tr[14] = 0, ti[14] = 1.2;
    tr[15] = 0, ti[15] = -1.2;
    tr[16] = 1.2, ti[16] = 0;
    tr[17] = -1.2, ti[17] = 0;
    made_case(tr, ti, 18, 300, 0, "four of modulus 1.2 across the cut (1.2i and 1.2 taken)");
    /* 14 real, then 1.5 three times (two after the cut), distinct from the rest */
    for (int i = 0; i < 14; i++)
        tr[i] = 2.5 - 0.05 * i, ti[i] = 0;
    tr[14] = tr[15] = tr[16] = 1.5, ti[14] = ti[15] = ti[16] = 0;
    made_case(tr, ti, 17, 300, 0, "1.5 three times across the cut");
    /* 14 real, then 10 of modulus 1.2 (5 pairs): the tie reaches past the 21 ARPACK finds,
       so the 2 taken (the largest imaginary parts) are LAPACK's */
    for (int p = 0; p < 5; p++) {
        const double a = 0.25 + 0.5 * p;
        tr[14 + 2 * p] = tr[15 + 2 * p] = 1.2 * cos(a);
        ti[14 + 2 * p] = 1.2 * sin(a);
        ti[15 + 2 * p] = -ti[14 + 2 * p];
    }
    made_case(tr, ti, 24, 300, 1, "ten of modulus 1.2 across the cut, past ARPACK's 21");
    /* two of one eighth power inside the first 16, 1.2 and -1.2 (then 1.2 e^(+-i pi/4)
       too): P's eigenvalue 1.2^8 twice (three times); with S = I its Krylov space holds
       one direction of that eigenspace */
    for (int i = 0; i < 13; i++)
        tr[i] = 2.5 - 0.05 * i, ti[i] = 0;
    tr[13] = 1.2, tr[14] = -1.2, ti[13] = ti[14] = 0;
    tr[15] = 1.1, ti[15] = 0;
    made_case_s(tr, ti, 16, 300, 0, 0, "1.2 and -1.2 inside the first 16, S = I");
    made_case_s(tr, ti, 16, 300, 0.3, 0, "1.2 and -1.2 inside the first 16");
    tr[15] = tr[16] = 1.2 * cos(M_PI / 4), ti[15] = 1.2 * sin(M_PI / 4), ti[16] = -ti[15];
    tr[17] = 1.1, ti[17] = 0;
    made_case_s(tr, ti, 18, 300, 0, 0, "1.2, -1.2, 1.2 e^(+-i pi/4) across the cut, S = I");
    made_case_s(tr, ti, 18, 300, 0.3, 0, "1.2, -1.2, 1.2 e^(+-i pi/4) across the cut");
}

/* The order on values given by hand, a tie within EIGEN_TIE of the largest modulus. */
static void order_by_hand(void)
{
    double wr[] = {-1, 0.5, 0, 1, 0, 2, 0.6, 1 + 1e-12, NAN};
    double wi[] = {0, 0, -1, 0, 1, 0, 0.8, 0, 0};
    double key[27];
    eigen_order(wr, wi, 9, key);
    /* 2; then |.| = 1 (1 + 1e-12 tied with them): 0.6+0.8i, i, 1 + 1e-12, 1, -1, -i, 0.6-0.8i
       would need its conjugate: here 0.6 + 0.8i alone; then 0.5; NaN last */
    const double er[] = {2, 0, 0.6, 1 + 1e-12, 1, -1, 0, 0.5};
    const double ei[] = {0, 1, 0.8, 0, 0, 0, -1, 0};
    int ok = isnan(wr[8]);
    for (int i = 0; i < 8; i++)
        ok = ok && wr[i] == er[i] && wi[i] == ei[i];
    tap_ok(ok, "the order: by modulus, a tie by the imaginary part then the real part, NaN last");
    if (!ok)
        show(wr, wi, er, ei, 8);
}

/* eigen_span, the certificate eigen_top's values are taken on: on A = diag(1.2, -1.2, 0.7,
 * 0.5, ...), the span of e0, e1, e2 (invariant) gives 1.2, -1.2, 0.7 with residuals 0;
 * the span of (2 e0 + e1) / sqrt 5 and e2 (a vector mixing two eigenvectors of one eighth
 * power, as a Krylov space of A^8 may hold it) gives 0.72 with a residual above
 * EIGEN_MIX_TOL. */
static void span_cases(void)
{
    const int n = 40;
    double *A = calloc((size_t)n * (size_t)n, sizeof *A);
    double *Q = calloc(3 * (size_t)n, sizeof *Q);
    double *r = malloc(EIGEN_SPAN_SCRATCH((size_t)n, 3) * sizeof *r);
    double wr[3], wi[3], res[3];
    for (int i = 0; i < n; i++)
        A[i * n + i] = i == 0 ? 1.2 : i == 1 ? -1.2 : i == 2 ? 0.7 : 0.5 * (n - i) / n;
    Q[0] = 1, Q[n + 1] = 1, Q[2 * n + 2] = 1;
    int ok = eigen_span(A, n, Q, 3, r, wr, wi, res) == 0 && wr[0] == 1.2 && wr[1] == -1.2 &&
             wr[2] == 0.7 && !wi[0] && !wi[1] && !wi[2];
    for (int i = 0; i < 3; i++)
        ok = ok && res[i] <= 1e-15;
    tap_ok(ok, "eigen_span on an invariant span: 1.2, -1.2, 0.7, residuals %.1e %.1e %.1e",
           res[0], res[1], res[2]);
    memset(Q, 0, 3 * (size_t)n * sizeof *Q);
    Q[0] = 2 / sqrt(5), Q[1] = 1 / sqrt(5), Q[n + 2] = 1;
    ok = eigen_span(A, n, Q, 2, r, wr, wi, res) == 0 && fabs(wr[0] - 0.72) < 1e-15 &&
         wr[1] == 0.7 && res[0] > 1 && res[0] > EIGEN_MIX_TOL && res[1] <= 1e-15;
    tap_ok(ok, "eigen_span on a vector mixing 1.2 and -1.2: %.3f with residual %.2f, 0.7 with "
           "%.1e", wr[0], res[0], res[1]);
    free(A);
    free(Q);
    free(r);
}

static void random_cases(void)
{
    const int sizes[] = {120, 300, 500};
    for (int c = 0; c < 3; c++) {
        const int n = sizes[c];
        double *A = malloc((size_t)n * (size_t)n * sizeof *A);
        for (size_t i = 0; i < (size_t)n * (size_t)n; i++)
            A[i] = gauss() / sqrt((double)n);
        char what[64];
        snprintf(what, sizeof what, "Gaussian random matrix %d", c + 1);
        check(A, n, K, NULL, NULL, 0, 0, what);
        free(A);
    }
}

/* ARPACK given too few products (its first basis and one restart: about 2 EIGEN_NCV
 * (K + EIGEN_EXTRA) of them, where these need more than 200): LAPACK's first K, said so. */
static void short_budget(const double *A, int n, const char *what)
{
    double *B = malloc((size_t)n * (size_t)n * sizeof *B);
    double *v = malloc(2 * ((size_t)n + K) * sizeof *v), *ar = v, *ai = v + K, *lr = v + 2 * K,
           *li = lr + n;
    memcpy(B, A, (size_t)n * (size_t)n * sizeof *B);
    eigen_how how;
    gt_error e;
    int ok = eigen_top(A, n, K, 3 * K, 0, ar, ai, &how, &e) == GT_OK &&
             eigen_all(B, n, lr, li, &e) == GT_OK;
    const long most = 2 * EIGEN_NCV * (K + EIGEN_EXTRA);
    ok = ok && how.by == EIGEN_BY_LAPACK && how.products <= most;
    for (int i = 0; ok && i < K; i++)
        ok = ar[i] == lr[i] && ai[i] == li[i];
    tap_ok(ok, "%s: ARPACK given %d products gives up (%ld taken, at most %ld), LAPACK's first "
           "%d", what, 3 * K, how.products, most, K);
    free(B);
    free(v);
}

/* eigen_top on one thread and on two: the same bits (the squarings' blocks are fixed). */
static void same_threads(const double *A, int n, const char *what)
{
    double v[4 * K];
    eigen_how h1, h2;
    gt_error e;
    int ok = eigen_top(A, n, K, -1, 1, v, v + K, &h1, &e) == GT_OK &&
             eigen_top(A, n, K, -1, 2, v + 2 * K, v + 3 * K, &h2, &e) == GT_OK &&
             h1.by == EIGEN_BY_ARPACK && h2.by == EIGEN_BY_ARPACK &&
             h1.products == h2.products && !memcmp(v, v + 2 * K, 2 * K * sizeof *v);
    tap_ok(ok, "%s: the same %d values on one thread and on two (%ld products)", what, K,
           h1.products);
}

/* Matrices whose columns are partly sparse, as the LSTM's are (its cell's columns: dc/dc
 * and dh/dc diagonal), which the first squaring skips the zeros of: [X D1; Y D2] with D1,
 * D2 diagonal, then a few more columns of 1 to 4 nonzeros and one of none, its rows and
 * columns shuffled so that the sparse ones stand anywhere; by ARPACK (a sparse column's
 * product left out makes its values miss the span's check: LAPACK then, which fails), on
 * one thread and on two. */
static void sparse_cases(void)
{
    const int m = 150, n = 2 * m;
    const size_t N = (size_t)n;
    double *B = calloc(N * N, sizeof *B), *A = malloc(N * N * sizeof *A);
    int *perm = malloc(N * sizeof *perm);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++)
            B[(size_t)i * N + (size_t)j] = 1.5 * gauss() / sqrt((double)n);
    for (int i = 0; i < m; i++) {
        const double f = 0.5 + 0.5 * uniform();
        B[(size_t)i * N + (size_t)(m + i)] = 0.3 * f;           /* dh/dc */
        B[(size_t)(m + i) * N + (size_t)(m + i)] = f;           /* dc/dc */
    }
    for (int j = 0; j < 12; j++) { /* dense columns made sparse: 1 to 4 nonzeros, or none */
        const int c = 7 * j + 3, keep = j % 5;
        for (int i = 0; i < n; i++)
            B[(size_t)i * N + (size_t)c] = 0;
        for (int t = 0; t < keep; t++)
            B[(size_t)((37 * (j + 1) + 61 * t) % n) * N + (size_t)c] = gauss();
    }
    for (int i = 0; i < n; i++)
        perm[i] = i;
    for (int i = n - 1; i > 0; i--) { /* Fisher-Yates */
        const int j = (int)(uniform() * (i + 1)), t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }
    for (size_t i = 0; i < N; i++)
        for (size_t j = 0; j < N; j++)
            A[i * N + j] = B[(size_t)perm[i] * N + (size_t)perm[j]];
    check(A, n, K, NULL, NULL, 0, 0, "columns partly sparse, shuffled");
    same_threads(A, n, "columns partly sparse, shuffled");
    free(perm);
    free(B);
    free(A);
}

static const char *sample(const char *name)
{
    static char buf[1024];
    const char *top = getenv("top_srcdir");
    snprintf(buf, sizeof buf, "%s/samples/%s", top ? top : ".", name);
    return buf;
}

/* J_T of each sample at steps through the whole text, from its float32 run as the trace
 * keeps it, and spectrum_top_from against spectrum_from at the last. */
static void sample_cases(const char *name)
{
    gt_model m;
    gt_text t;
    gt_error e;
    if (model_load(&m, sample(name), NULL, &e) || text_load(&t, sample("kjv-valid.txt"), &m, &e)) {
        tap_ok(0, "%s: %s", name, e.msg);
        return;
    }
    gt_run r;
    run_init(&r, &m, &e);
    const size_t steps[] = {300, 2000, 20000, t.steps - 1};
    size_t s = 0;
    for (int c = 0; c < 4; c++) {
        for (; s < steps[c]; s++)
            run_step(&r, t.tok[s]);
        dynrun d;
        if (dynrun_open(&d, &m, 0, &e)) {
            tap_ok(0, "%s: %s", name, e.msg);
            break;
        }
        batch_set_state(&d.b, 0, r.h, r.c);
        dynrun_step(&d, t.tok[s], 1);
        char what[128];
        snprintf(what, sizeof what, "%s's J at step %zu", name, s);
        check(d.J, d.n, K, NULL, NULL, 0, 0, what);
        if (c == 0 && strcmp(name, "kjv-rnn.bin") != 0) /* the RNN's take one basis */
            short_budget(d.J, d.n, what);
        if (c == 1)
            same_threads(d.J, d.n, what);
        dynrun_close(&d);
    }
    gt_spectrum a, b;
    int ok = spectrum_top_from(&a, &m, 0, r.h, r.c, t.tok[s], s, K, 0, &e) == GT_OK &&
             spectrum_from(&b, &m, 0, r.h, r.c, t.tok[s], s, &e) == GT_OK;
    double d = ok ? worst(a.re, a.im, b.re, b.im, K) : INFINITY;
    for (int i = 0; ok && i < K; i++)
        d = fmax(d, fabs(a.abs[i] - b.abs[i]));
    tap_ok(ok && a.count == K && b.count == b.n && d <= TOL,
           "%s: spectrum_top_from's %d against spectrum_from's %d at step %zu (%.1e)", name,
           a.count, b.count, s, d);
    if (ok) {
        spectrum_free(&a);
        spectrum_free(&b);
    }
    run_free(&r);
    text_free(&t);
    model_free(&m);
}

int main(void)
{
    order_by_hand();
    made_cases();
    span_cases();
    random_cases();
    sparse_cases();
    sample_cases("kjv-lstm.bin");
    sample_cases("kjv-gru.bin");
    sample_cases("kjv-rnn.bin");
    printf("1..%d\n", tap_n);
    return tap_failed ? 1 : 0;
}
