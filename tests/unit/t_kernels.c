/* Every kernel of every kernel set this processor runs, against plain double-precision
 * loops written here: the products (float32 for one stream, double over a batch, float32
 * over a batch), sigmoid and tanh in float32 and double, and the LSTM and GRU cells in
 * float32 and double (with and without the float32 difference terms, the gates kept or
 * not, the GRU's reset after and before W_hn). The sizes leave every kind of tail: blocks
 * of 16, 8 and 4, masked loads, libm. Each line says the worst error found against its
 * bound.
 *
 * The bounds, u = 2^-24 (float32) or 2^-53 (double), S = the sum of the magnitudes of a
 * product's terms (bias included), C the terms; in brackets the worst achieved here:
 *   float32 products: 4 u sqrt(C) S from the double sum (sums of C terms in an order of the
 *     kernel's, their rounding errors adding up like a random walk) [1.1];
 *   double products: 4 u C S from the double sum in the order of j (each within C u S of
 *     the exact sum, fused multiply-adds or not) [1.9];
 *   float32 sigmoid and tanh: 3e-7 absolute (a polynomial exp, then the float32 result's
 *     own rounding) [1.1e-7]; double: 1e-15 absolute [2.2e-16], the sigmoid 6e-16
 *     relative down to e^-700 [4.3e-16];
 *   float32 cells: 1e-6 max(1, |exact|) for the gates, c and h, c up to 20 [2.5e-7];
 *   double cells: 2e-15 max(1, |exact|) [4.7e-16]. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compute/kernels.h"
#include "compute/threads.h"
#include "../lib/tap.h"

static unsigned long long seed = 7;

/* uniform in [lo, hi), with every bit of a double's significand (xorshift64*) */
static double urand(double lo, double hi)
{
    seed ^= seed >> 12, seed ^= seed << 25, seed ^= seed >> 27;
    return lo + (hi - lo) * (double)((seed * 2685821657736338717ull) >> 11) / 9007199254740992.0;
}

static float *frand_vec(size_t n, double lo, double hi)
{
    float *v = malloc((n ? n : 1) * sizeof *v);
    for (size_t i = 0; i < n; i++)
        v[i] = (float)urand(lo, hi);
    return v;
}

static double *drand_vec(size_t n, double lo, double hi)
{
    double *v = malloc((n ? n : 1) * sizeof *v);
    for (size_t i = 0; i < n; i++)
        v[i] = urand(lo, hi);
    return v;
}

static double sig(double x)
{
    return 1.0 / (1.0 + exp(-x));
}

/* |got - want| / max(1, |want|) */
static double rel1(double got, double want)
{
    return fabs(got - want) / fmax(1.0, fabs(want));
}

#define U32 (1.0 / 16777216.0)
#define U64 (1.0 / 9007199254740992.0)

static const size_t shapes[][2] = {{1, 1}, {3, 5}, {4, 8}, {5, 15}, {7, 16}, {8, 17}, {12, 31},
                                   {16, 3}, {64, 64}, {129, 33}, {1024, 256}, {1300, 325},
                                   {3, 1000}};
#define NSHAPES (sizeof shapes / sizeof shapes[0])

/* y = b + W x for one stream, forward and backward. */
static void check_gemv(const kern_set *ks)
{
    for (size_t k = 0; k < NSHAPES; k++) {
        const size_t R = shapes[k][0], C = shapes[k][1];
        float *W = frand_vec(R * C, -1, 1), *x = frand_vec(C, -1, 1), *b = frand_vec(R, -1, 1);
        float *y = malloc(R * sizeof *y), *z = malloc(R * sizeof *z);
        double worst = 0;
        for (int withb = 0; withb < 2; withb++) {
            ks->gemv(R, C, W, x, withb ? b : NULL, y, 0);
            for (size_t r = 0; r < R; r++) {
                double s = withb ? b[r] : 0.0, S = fabs(s);
                for (size_t j = 0; j < C; j++) {
                    s += (double)W[r * C + j] * x[j];
                    S += fabs((double)W[r * C + j] * x[j]);
                }
                worst = fmax(worst, fabs(y[r] - s) / (U32 * sqrt((double)C) * S));
            }
        }
        tap_ok(worst <= 4, "gemv %zux%zu: within %.2g u sqrt(C) S of the double sum (bound 4)",
               R, C, worst);
        ks->gemv(R, C, W, x, b, y, 0);
        ks->gemv(R, C, W, x, b, z, 1);
        tap_ok(memcmp(y, z, R * sizeof *y) == 0, "gemv %zux%zu: backward equals forward", R, C);
        free(W), free(x), free(b), free(y), free(z);
    }
}

/* A(r, j) X[b*ldx + j] summed in double, with its magnitude. */
static double dot64(const float *W, size_t C, size_t r, const double *x, double *S)
{
    double s = 0;
    for (size_t j = 0; j < C; j++) {
        s += (double)W[r * C + j] * x[j];
        *S += fabs((double)W[r * C + j] * x[j]);
    }
    return s;
}

/* The double product over a batch: Y = bias or 0 or Y, + A X, rows past A's untouched. */
static void check_gemm64(const kern_set *ks)
{
    static const size_t nbs[] = {1, 2, 6, 7, 13};
    for (size_t k = 0; k < NSHAPES; k++) {
        const size_t R = shapes[k][0], C = shapes[k][1], ldy = R + 3;
        float *W = frand_vec(R * C, -1, 1);
        gt_mat64 A;
        if (mat64_pack(&A, W, R, C)) {
            tap_ok(0, "gemm64 %zux%zu: packed", R, C);
            free(W);
            continue;
        }
        double worst = 0;
        int untouched = 1;
        for (size_t q = 0; q < sizeof nbs / sizeof nbs[0]; q++) {
            const size_t B = nbs[q];
            double *X = drand_vec(B * C, -1, 1), *bias = drand_vec(R, -1, 1);
            double *Y = drand_vec(B * ldy, -1, 1), *Y0 = malloc(B * ldy * sizeof *Y0);
            for (int mode = 0; mode < 3; mode++) { /* no bias, bias, accumulate */
                memcpy(Y0, Y, B * ldy * sizeof *Y);
                ks->gemm64(&A, B, X, C, mode == 1 ? bias : NULL, Y, ldy, mode == 2);
                for (size_t b = 0; b < B; b++) {
                    for (size_t r = 0; r < R; r++) {
                        double s0 = mode == 0 ? 0.0 : mode == 1 ? bias[r] : Y0[b * ldy + r];
                        double S = fabs(s0), s = s0 + dot64(W, C, r, X + b * C, &S);
                        worst = fmax(worst, fabs(Y[b * ldy + r] - s) / (U64 * (double)C * S));
                    }
                    for (size_t r = R; r < ldy; r++)
                        untouched &= Y[b * ldy + r] == Y0[b * ldy + r];
                }
            }
            free(X), free(bias), free(Y), free(Y0);
        }
        tap_ok(worst <= 4 && untouched,
               "gemm64 %zux%zu, 1-13 items, bias, none, accumulated: within %.2g u C S of the "
               "double sum (bound 4), the rows past the matrix untouched", R, C, worst);
        mat64_free(&A);
        free(W);
    }
}

/* The float32 products over a batch: row layout, interleaved (with y0 = A x0 in double
 * and without), and A x0 alone. */
static void check_gemm32(const kern_set *ks)
{
    static const size_t nbs[] = {1, 5, 12, 13, 25};
    for (size_t k = 0; k < NSHAPES; k++) {
        const size_t R = shapes[k][0], C = shapes[k][1];
        float *W = frand_vec(R * C, -1, 1);
        gt_mat32 A;
        if (mat32_pack(&A, W, R, C)) {
            tap_ok(0, "gemm32 %zux%zu: packed", R, C);
            free(W);
            continue;
        }
        double worst = 0, worst64 = 0;
        for (size_t q = 0; q < sizeof nbs / sizeof nbs[0]; q++) {
            const size_t nb = nbs[q];
            float *X = frand_vec(nb * C, -1, 1), *XT = malloc(nb * C * sizeof *XT);
            float *Y = malloc(nb * R * sizeof *Y), *YT = malloc(nb * R * sizeof *YT);
            double *x0 = drand_vec(C, -1, 1), *y0 = malloc(R * sizeof *y0), *xd = malloc(C * sizeof *xd);
            for (size_t i = 0; i < nb; i++)
                for (size_t j = 0; j < C; j++)
                    XT[j * nb + i] = X[i * C + j];
            ks->gemm32(&A, nb, X, C, Y, R);
            for (int with0 = 0; with0 < 2; with0++) {
                ks->gemm32_t(&A, nb, XT, YT, R, with0 ? x0 : NULL, with0 ? y0 : NULL);
                for (size_t i = 0; i < nb; i++) {
                    for (size_t j = 0; j < C; j++)
                        xd[j] = X[i * C + j];
                    for (size_t r = 0; r < R; r++) {
                        double S = 0, s = dot64(W, C, r, xd, &S), e = U32 * sqrt((double)C) * S;
                        worst = fmax(worst, fabs(Y[i * R + r] - s) / e);
                        worst = fmax(worst, fabs(YT[i * R + r] - s) / e);
                    }
                }
            }
            for (size_t r = 0; r < R; r++) { /* y0 from gemm32_t, then from gemv64 */
                double S = 0, s = dot64(W, C, r, x0, &S);
                worst64 = fmax(worst64, fabs(y0[r] - s) / (U64 * (double)C * S));
            }
            ks->gemv64(&A, x0, y0);
            for (size_t r = 0; r < R; r++) {
                double S = 0, s = dot64(W, C, r, x0, &S);
                worst64 = fmax(worst64, fabs(y0[r] - s) / (U64 * (double)C * S));
            }
            free(X), free(XT), free(Y), free(YT), free(x0), free(y0), free(xd);
        }
        tap_ok(worst <= 4 && worst64 <= 4,
               "gemm32 %zux%zu, 1-25 items, both layouts: within %.2g u sqrt(C) S of the double "
               "sum (bound 4); A x0 in double within %.2g u C S (bound 4)", R, C, worst,
               worst64);
        mat32_free(&A);
        free(W);
    }
}

/* The plain C set's float32 product and the plain C and AVX2 sets' A x in double take each
 * row's sum in the order of j, each product rounded, as the scalar loop does: the same
 * numbers bit for bit, whatever the number of items. */
static void check_order(const kern_set *ks)
{
    const int c = strcmp(ks->name, "c") == 0;
    if (!c && strcmp(ks->name, "avx2") != 0)
        return;
    const size_t R = 37, C = 45, nb = 7;
    float *W = frand_vec(R * C, -1, 1), *X = frand_vec(nb * C, -1, 1);
    float *Y = malloc(nb * R * sizeof *Y);
    double *x0 = drand_vec(C, -1, 1), *y0 = malloc(R * sizeof *y0);
    gt_mat32 A;
    int same32 = 1, same64 = 1;
    if (mat32_pack(&A, W, R, C) == 0) {
        ks->gemm32(&A, nb, X, C, Y, R);
        ks->gemv64(&A, x0, y0);
        for (size_t r = 0; r < R; r++) {
            double s64 = 0.0;
            for (size_t j = 0; j < C; j++)
                s64 += (double)W[r * C + j] * x0[j];
            same64 &= y0[r] == s64;
            for (size_t i = 0; i < nb; i++) {
                float s = 0.0f;
                for (size_t j = 0; j < C; j++)
                    s += W[r * C + j] * X[i * C + j];
                same32 &= Y[i * R + r] == s;
            }
        }
        mat32_free(&A);
    } else {
        same32 = same64 = 0;
    }
    if (c) { /* the double product, from a bias and accumulated */
        gt_mat64 B;
        double *X64 = drand_vec(nb * C, -1, 1), *bias = drand_vec(R, -1, 1);
        double *Y64 = malloc(nb * R * sizeof *Y64);
        if (mat64_pack(&B, W, R, C) == 0) {
            for (int acc = 0; acc < 2; acc++) {
                ks->gemm64(&B, nb, X64, C, bias, Y64, R, acc);
                for (size_t i = 0; i < nb; i++)
                    for (size_t r = 0; r < R; r++) { /* from the bias; then on that sum */
                        double s = bias[r];
                        for (int pass = 0; pass <= acc; pass++)
                            for (size_t j = 0; j < C; j++)
                                s += (double)W[r * C + j] * X64[i * C + j];
                        same64 &= Y64[i * R + r] == s;
                    }
            }
            mat64_free(&B);
        } else {
            same64 = 0;
        }
        free(X64), free(bias), free(Y64);
    }
    tap_ok(same64 && (same32 || !c), "A x in double%s: the scalar loop's numbers exactly",
           c ? ", the float32 and the double products" : "");
    free(W), free(X), free(Y), free(x0), free(y0);
}

/* Sigmoid and tanh in float32 over [-100, 100], and the sign of tanh. */
static void check_act(const kern_set *ks)
{
    enum { N = 200003 };
    float *v = malloc(N * sizeof *v);
    for (int f = 0; f < 2; f++) {
        for (int i = 0; i < N; i++)
            v[i] = (float)(-100.0 + 200.0 * i / (N - 1));
        v[N / 2] = 0.0f;
        v[7] = 1e-30f;
        v[8] = -1e-6f;
        float *x = malloc(N * sizeof *x);
        memcpy(x, v, N * sizeof *x);
        ks->act(N, v, f);
        double worst = 0, at = 0;
        int sign = 1;
        for (int i = 0; i < N; i++) {
            double want = f ? tanh((double)x[i]) : sig(x[i]), d = fabs(v[i] - want);
            if (d > worst)
                worst = d, at = x[i];
            if (f)
                sign &= (v[i] < 0) == (x[i] < 0) || v[i] == 0;
        }
        tap_ok(worst <= 3e-7 && sign, "float32 %s over [-100, 100]: within %.3g of the double "
               "value (at %g; bound 3e-7)%s", f ? "tanh" : "sigmoid", worst, at,
               f ? ", the sign kept" : "");
        free(x);
    }
    free(v);
}

/* Sigmoid and tanh in double: within 1e-15 of libm over [-800, 800] in every tail of the
 * vector blocks, the limits and signs exact, the sigmoid within 6e-16 relative down to
 * e^-700 (where it is the exponential alone). */
static void check_act64(const kern_set *ks)
{
    enum { N = 20011 };
    double *x = malloc(N * sizeof *x), *s = malloc(N * sizeof *s), *t = malloc(N * sizeof *t);
    for (int i = 0; i < N; i++)
        x[i] = -40.0 + 80.0 * i / (N - 1);
    x[0] = -800, x[1] = 800, x[2] = 0, x[3] = -0.0, x[4] = 1e-300, x[5] = -3e-9;
    double ws = 0, wt = 0, wr = 0;
    for (size_t n = 1; n <= 20; n++) { /* every tail: n mod 8 and mod 4 */
        memcpy(s, x, N * sizeof *x);
        memcpy(t, x, N * sizeof *x);
        ks->act64(n == 20 ? N : n, s, 0);
        ks->act64(n == 20 ? N : n, t, 1);
        for (size_t i = 0; i < (n == 20 ? N : n); i++) {
            ws = fmax(ws, fabs(s[i] - sig(x[i])));
            wt = fmax(wt, fabs(t[i] - tanh(x[i])));
        }
    }
    int exact = t[1] == 1 && t[0] == -1 && s[1] == 1 && !signbit(t[2]) && signbit(t[3]) &&
                t[4] >= 0 && t[5] < 0;
    tap_ok(ws <= 1e-15 && wt <= 1e-15 && exact,
           "double sigmoid and tanh within 1e-15 of libm over [-800, 800] (%.2g, %.2g), the "
           "limits and signs exact", ws, wt);
    for (int i = 0; i < N; i++)
        s[i] = x[i] = -700.0 + 740.0 * i / (N - 1) + 1e-3 * urand(-1, 1);
    ks->act64(N, s, 0);
    for (int i = 0; i < N; i++)
        wr = fmax(wr, fabs(s[i] - sig(x[i])) / sig(x[i]));
    tap_ok(wr <= 6e-16, "double sigmoid within 6e-16 relative over [-700, 40] (%.2g)", wr);
    if (strcmp(ks->name, "c") == 0) { /* the reference set: a small tanh keeps its digits */
        double wt2 = 0;
        for (int i = 0; i < N; i++)
            t[i] = x[i] = (i % 2 ? -1 : 1) * pow(10.0, -300.0 + 301.6 * i / (N - 1));
        ks->act64(N, t, 1);
        for (int i = 0; i < N; i++)
            wt2 = fmax(wt2, fabs(t[i] - tanh(x[i])) / fabs(tanh(x[i])));
        tap_ok(wt2 <= 8e-16, "double tanh within 8e-16 relative over +-[1e-300, 40] (%.2g)",
               wt2);
    }
    free(x), free(s), free(t);
}

static const size_t units[] = {1, 3, 5, 8, 13, 16, 17, 36, 64, 300};
#define NUNITS (sizeof units / sizeof units[0])

/* The float32 LSTM cell: a = W_hh h + b_hh given, xp added. */
static void check_lstm32(const kern_set *ks)
{
    for (size_t q = 0; q < NUNITS; q++) {
        const size_t H = units[q];
        float *a = frand_vec(4 * H, -6, 6), *xp = frand_vec(4 * H, -3, 3), *c = frand_vec(H, -20, 20);
        float *g = malloc(4 * H * sizeof *g), *cn = malloc(H * sizeof *cn), *h = frand_vec(H, -1, 1);
        memcpy(g, a, 4 * H * sizeof *g);
        memcpy(cn, c, H * sizeof *c);
        ks->lstm(ks, H, xp, g, cn, h);
        double worst = 0;
        for (size_t j = 0; j < H; j++) {
            double i = sig((double)a[j] + xp[j]), f = sig((double)a[H + j] + xp[H + j]);
            double gg = tanh((double)a[2 * H + j] + xp[2 * H + j]);
            double o = sig((double)a[3 * H + j] + xp[3 * H + j]);
            double cc = f * c[j] + i * gg, hh = o * tanh(cc);
            worst = fmax(worst, fmax(rel1(g[j], i), rel1(g[H + j], f)));
            worst = fmax(worst, fmax(rel1(g[2 * H + j], gg), rel1(g[3 * H + j], o)));
            worst = fmax(worst, fmax(rel1(cn[j], cc), rel1(h[j], hh)));
        }
        tap_ok(worst <= 1e-6, "float32 LSTM cell, H = %zu: gates, c and h within %.2g of the "
               "double cell (relative above 1; bound 1e-6)", H, worst);
        /* a one-pass cell rounds as the plain one does on the same nonlinearities */
        float *g2 = malloc(4 * H * sizeof *g2), *c2 = malloc(H * sizeof *c2), *h2 = malloc(H * sizeof *h2);
        memcpy(g2, a, 4 * H * sizeof *g2);
        memcpy(c2, c, H * sizeof *c2);
        cell32_lstm(ks, H, xp, g2, c2, h2);
        tap_ok(!memcmp(g, g2, 4 * H * sizeof *g) && !memcmp(cn, c2, H * sizeof *c2) &&
                   !memcmp(h, h2, H * sizeof *h),
               "float32 LSTM cell, H = %zu: the same bits as cell32_lstm on the set's sigmoid "
               "and tanh", H);
        free(a), free(xp), free(c), free(g), free(cn), free(h), free(g2), free(c2), free(h2);
    }
}

/* The float32 GRU cell, the reset after W_hn and before (gh_n then given as W_hn (r h)
 * + b_hn). */
static void check_gru32(const kern_set *ks)
{
    for (int before = 0; before < 2; before++)
        for (size_t q = 0; q < NUNITS; q++) {
            const size_t H = units[q];
            float *xp = frand_vec(3 * H, -4, 4), *gh = frand_vec(3 * H, -4, 4);
            float *h0 = frand_vec(H, -1, 1), *h = malloc(H * sizeof *h), *g = malloc(3 * H * sizeof *g);
            memcpy(h, h0, H * sizeof *h);
            cell32_gru_gates(ks, H, xp, gh, g);
            cell32_gru_state(ks, H, xp, gh, before, g, h);
            double worst = 0;
            for (size_t j = 0; j < H; j++) {
                double r = sig((double)xp[j] + gh[j]), z = sig((double)xp[H + j] + gh[H + j]);
                double n = tanh(xp[2 * H + j] + (before ? 1.0 : r) * gh[2 * H + j]);
                double hh = (1 - z) * n + z * h0[j];
                worst = fmax(worst, fmax(rel1(g[j], r), rel1(g[H + j], z)));
                worst = fmax(worst, fmax(rel1(g[2 * H + j], n), rel1(h[j], hh)));
            }
            tap_ok(worst <= 1e-6, "float32 GRU cell (reset %s), H = %zu: gates and h within "
                   "%.2g of the double cell (bound 1e-6)", before ? "before" : "after", H, worst);
            free(xp), free(gh), free(h0), free(h), free(g);
        }
}

/* A double cell's inputs: pre-activations a + y (+ da) (+ dy), state. */
typedef struct cell_in {
    size_t H, G;
    double *a, *y, *c, *h;
    float *da, *dy;
} cell_in;

static void cell_in_make(cell_in *in, size_t H, size_t G)
{
    in->H = H, in->G = G;
    in->a = drand_vec(G * H, -4, 4), in->y = drand_vec(G * H, -3, 3);
    in->da = frand_vec(G * H, -1, 1), in->dy = frand_vec(G * H, -1, 1);
    in->c = drand_vec(H, -20, 20), in->h = drand_vec(H, -1, 1);
}

static void cell_in_free(cell_in *in)
{
    free(in->a), free(in->y), free(in->da), free(in->dy), free(in->c), free(in->h);
}

static double pre(const cell_in *in, const kern64_pre *p, size_t r)
{
    return in->a[r] + in->y[r] + (p->da ? (double)in->da[r] : 0) + (p->dy ? (double)in->dy[r] : 0);
}

/* The double LSTM cell with each combination of difference terms, the gates kept or not. */
static double lstm64_case(const kern_set *ks, const cell_in *in, int da, int dy, int keep)
{
    const size_t H = in->H;
    const kern64_pre p = {in->a, da ? in->da : NULL, in->y, dy ? in->dy : NULL};
    double *g = keep ? malloc(4 * H * sizeof *g) : NULL, *t = malloc(5 * H * sizeof *t);
    double *c = malloc(H * sizeof *c), *h = malloc(H * sizeof *h), worst = 0;
    memcpy(c, in->c, H * sizeof *c);
    memcpy(h, in->h, H * sizeof *h);
    ks->lstm64(ks, H, &p, g, t, c, h);
    for (size_t j = 0; j < H; j++) {
        double i = sig(pre(in, &p, j)), f = sig(pre(in, &p, H + j));
        double gg = tanh(pre(in, &p, 2 * H + j)), o = sig(pre(in, &p, 3 * H + j));
        double cc = f * in->c[j] + i * gg;
        worst = fmax(worst, fmax(rel1(c[j], cc), rel1(h[j], o * tanh(cc))));
        if (g) {
            worst = fmax(worst, fmax(rel1(g[j], i), rel1(g[H + j], f)));
            worst = fmax(worst, fmax(rel1(g[2 * H + j], gg), rel1(g[3 * H + j], o)));
        }
    }
    free(g), free(t), free(c), free(h);
    return worst;
}

/* The double GRU cell: the reset after W_hn in one call (the gates kept or not), or
 * before it in two (gates, state; y's n rows standing for W_hn (r h) + b_hn). */
static double gru64_case(const kern_set *ks, const cell_in *in, int da, int dy, int keep,
                         int before)
{
    const size_t H = in->H;
    const kern64_pre p = {in->a, da ? in->da : NULL, in->y, dy ? in->dy : NULL};
    double *g = keep || before ? malloc(3 * H * sizeof *g) : NULL, *t = malloc(3 * H * sizeof *t);
    double *h = malloc(H * sizeof *h), worst = 0;
    memcpy(h, in->h, H * sizeof *h);
    if (before) {
        cell64_gru_gates(ks, H, &p, g);
        cell64_gru_state(ks, H, &p, 1, g, h);
    } else {
        ks->gru64(ks, H, &p, g, t, h);
    }
    for (size_t j = 0; j < H; j++) {
        const size_t q = 2 * H + j;
        double r = sig(pre(in, &p, j)), z = sig(pre(in, &p, H + j));
        double an = in->a[q] + (p.da ? (double)in->da[q] : 0);
        double yn = in->y[q] + (p.dy ? (double)in->dy[q] : 0);
        double n = tanh(an + (before ? 1.0 : r) * yn);
        worst = fmax(worst, rel1(h[j], (1 - z) * n + z * in->h[j]));
        if (g) {
            worst = fmax(worst, fmax(rel1(g[j], r), rel1(g[H + j], z)));
            worst = fmax(worst, rel1(g[q], n));
        }
    }
    free(g), free(t), free(h);
    return worst;
}

/* The double plain RNN cell: a kept or not, tanh or relu. */
static double rnn64_case(const kern_set *ks, const cell_in *in, int da, int dy, int keep,
                         int relu)
{
    const size_t H = in->H;
    const kern64_pre p = {in->a, da ? in->da : NULL, in->y, dy ? in->dy : NULL};
    double *g = keep ? malloc(H * sizeof *g) : NULL, *h = malloc(H * sizeof *h), worst = 0;
    cell64_rnn(ks, H, relu, &p, g, h);
    for (size_t j = 0; j < H; j++) {
        const double a = pre(in, &p, j);
        worst = fmax(worst, rel1(h[j], relu ? (a > 0 ? a : 0) : tanh(a)));
        if (g)
            worst = fmax(worst, rel1(g[j], a));
    }
    free(g), free(h);
    return worst;
}

/* Whether the set's one-pass LSTM and GRU cells give the numbers of the plain ones
 * (cell64_lstm, cell64_gru) on the set's own nonlinearities, bit for bit. */
static int same_cells(const kern_set *ks, const cell_in *l, const cell_in *gr)
{
    const size_t H = l->H;
    const kern64_pre p = {l->a, l->da, l->y, l->dy}, q = {gr->a, gr->da, gr->y, gr->dy};
    double *g[2], *c[2], *h[2], *t = malloc(5 * H * sizeof *t);
    for (int k = 0; k < 2; k++) {
        g[k] = malloc(4 * H * sizeof *g[k]), c[k] = malloc(H * sizeof *c[k]);
        h[k] = malloc(H * sizeof *h[k]);
        memcpy(c[k], l->c, H * sizeof *c[k]), memcpy(h[k], l->h, H * sizeof *h[k]);
    }
    ks->lstm64(ks, H, &p, g[0], t, c[0], h[0]);
    cell64_lstm(ks, H, &p, g[1], t, c[1], h[1]);
    int same = !memcmp(g[0], g[1], 4 * H * sizeof *g[0]) && !memcmp(c[0], c[1], H * sizeof *c[0]) &&
               !memcmp(h[0], h[1], H * sizeof *h[0]);
    for (int k = 0; k < 2; k++)
        memcpy(h[k], gr->h, H * sizeof *h[k]);
    ks->gru64(ks, H, &q, g[0], t, h[0]);
    cell64_gru(ks, H, &q, g[1], t, h[1]);
    same = same && !memcmp(g[0], g[1], 3 * H * sizeof *g[0]) &&
           !memcmp(h[0], h[1], H * sizeof *h[0]);
    for (int k = 0; k < 2; k++)
        free(g[k]), free(c[k]), free(h[k]);
    free(t);
    return same;
}

static void check_cells64(const kern_set *ks)
{
    static const int cases[][3] = {{0, 0, 1}, {1, 1, 1}, {1, 1, 0}, {0, 1, 0}}; /* da dy keep */
    for (size_t q = 0; q < NUNITS; q++) {
        const size_t H = units[q];
        cell_in l, gr;
        cell_in_make(&l, H, 4);
        cell_in_make(&gr, H, 3);
        double wl = 0, wg = 0, wb = 0, wr = 0;
        for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
            wl = fmax(wl, lstm64_case(ks, &l, cases[k][0], cases[k][1], cases[k][2]));
            wg = fmax(wg, gru64_case(ks, &gr, cases[k][0], cases[k][1], cases[k][2], 0));
            wb = fmax(wb, gru64_case(ks, &gr, cases[k][0], cases[k][1], 1, 1));
            for (int relu = 0; relu < 2; relu++)
                wr = fmax(wr, rnn64_case(ks, &gr, cases[k][0], cases[k][1], cases[k][2], relu));
        }
        tap_ok(wr <= 2e-15, "double plain RNN cell, H = %zu, tanh and relu, a kept or not: "
               "within %.2g of the plain loop (bound 2e-15)", H, wr);
        if (strcmp(ks->name, "avx2") == 0)
            tap_ok(same_cells(ks, &l, &gr),
                   "double LSTM and GRU cells, H = %zu: the one-pass cells compute the plain "
                   "cells' numbers on this set's nonlinearities exactly", H);
        tap_ok(wl <= 2e-15, "double LSTM cell, H = %zu, with and without the float32 terms, "
               "the gates kept or not: within %.2g of the plain loop (bound 2e-15)", H, wl);
        tap_ok(wg <= 2e-15 && wb <= 2e-15, "double GRU cell, H = %zu, reset after and before: "
               "within %.2g and %.2g of the plain loop (bound 2e-15)", H, wg, wb);
        cell_in_free(&l);
        cell_in_free(&gr);
    }
}

/* The one rule for the threads a computation uses (threads.h). */
static void check_threads(void)
{
    long cpu = sysconf(_SC_NPROCESSORS_ONLN);
    int own = cpu < 1 ? 1 : cpu > THREADS_MAX ? THREADS_MAX : (int)cpu;
    tap_ok(threads_choose(3, 0) == 3 && threads_choose(0, 0) == own &&
               threads_choose(-1, 0) == own && threads_choose(500, 0) == THREADS_MAX &&
               threads_choose(5, 2) == 2 && threads_choose(0, 1) == 1 &&
               threads_choose(0, 1000) == own,
           "threads: as asked, else one per processor (%d here), at most %d and the parts",
           own, THREADS_MAX);
}

int main(void)
{
    check_threads();
    const kern_set *sets[8];
    const size_t n = kern_sets(sets, 8);
    tap_ok(n >= 1 && strcmp(sets[n - 1]->name, "c") == 0, "%zu kernel sets, the plain C one last",
           n);
    for (size_t i = 0; i < n; i++) {
        tap_prefix = sets[i]->name;
        check_gemv(sets[i]);
        check_gemm64(sets[i]);
        check_gemm32(sets[i]);
        check_order(sets[i]);
        check_act(sets[i]);
        check_act64(sets[i]);
        check_lstm32(sets[i]);
        check_gru32(sets[i]);
        check_cells64(sets[i]);
    }
    return tap_done();
}
