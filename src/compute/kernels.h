/* The engine's arithmetic, in kernel sets (doc/speed.md, "Kernel sets"): "c", plain C,
 * runs anywhere and is the reference; "avx2" (AVX2 and FMA) and "avx512" (AVX-512F, with
 * AVX2 for the double products) where the processor has them. A set is one row of a
 * table of functions: the products, the nonlinearities, and a cell where the set computes
 * one in a single pass. The cells themselves are defined once, in plain C (cell.c), on top
 * of a set's nonlinearities; a set's one-pass cell computes the same equations.
 *
 * The process uses one set, chosen once, the first time a kernel runs or by kern_init
 * before that, and never changed: any thread may be the first. */
#ifndef GATETUI_KERNELS_H
#define GATETUI_KERNELS_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "compute/gemm32.h"
#include "compute/kernels64.h"

typedef struct kern_set kern_set;

/* A double cell's pre-activations, row r: a[r] + y[r], plus da[r] and dy[r] where given
 * (float32 terms; NULL for none), summed in that order: the input part a (+ da) and the
 * recurrent part y (+ dy). A GRU's candidate rows (2H to 3H) are a + da + r (y + dy) with
 * the reset after W_hn, and a + da + (y + dy) with it before (y is then W_hn (r h) + b_hn). */
typedef struct kern64_pre {
    const double *a;
    const float *da;
    const double *y;
    const float *dy;
} kern64_pre;

struct kern_set {
    const char *name;
    int (*runs)(void); /* 1 when this processor has the set's instructions */

    /* float32, one stream. y[r] = (bias ? bias[r] : 0) + sum_j W[r*cols + j] x[j], the
     * blocks of rows taken from the last to the first when backward is set (the same
     * numbers either way: a caller reading one matrix at every step alternates, so that
     * the rows read last, still in the cache, are read first next time). */
    void (*gemv)(size_t rows, size_t cols, const float *W, const float *x, const float *bias,
                 float *y, int backward);
    /* v[j] = sigmoid(v[j]) (tanh_ = 0) or tanh(v[j]) for j < n */
    void (*act)(size_t n, float *v, int tanh_);
    /* the LSTM cell: cell32_lstm, or the same in one pass */
    void (*lstm)(const kern_set *k, size_t H, const float *xp, float *a, float *c, float *h);

    /* double, a batch of streams. For b < nb and r < A->rows:
     *   Y[b*ldy + r] = (accumulate ? Y[b*ldy + r] : bias ? bias[r] : 0)
     *                  + sum_{j < cols} A(r, j) X[b*ldx + j]   (each sum in the order of j) */
    void (*gemm64)(const gt_mat64 *A, size_t nb, const double *X, size_t ldx,
                   const double *bias, double *Y, size_t ldy, int accumulate);
    void (*act64)(size_t n, double *v, int tanh_);
    /* the cells: cell64_lstm and cell64_gru (reset after W_hn), or the same in one pass */
    void (*lstm64)(const kern_set *k, size_t H, const kern64_pre *p, double *g, double *t,
                   double *c, double *h);
    void (*gru64)(const kern_set *k, size_t H, const kern64_pre *p, double *g, double *t,
                  double *h);

    /* float32 products over a batch (no bias): Y[b*ldy + r] = sum_j A(r, j) X[b*ldx + j]
     * for b < nb, r < A->rows; gemm32_t the same with the inputs interleaved (item b's
     * input j at XT[j*nb + b]) and, when x0 is given, y0 = A x0 in double as gemv64
     * computes it, in the same pass over A where the set allows. */
    void (*gemm32)(const gt_mat32 *A, size_t nb, const float *X, size_t ldx, float *Y,
                   size_t ldy);
    void (*gemm32_t)(const gt_mat32 *A, size_t nb, const float *XT, float *Y, size_t ldy,
                     const double *x0, double *y0);
    void (*gemv64)(const gt_mat32 *A, const double *x, double *y);
    /* running sums (moments.h): for j < n, d = x[j] - base[j]; s[j] += d; q[j] += d * d,
     * d * d rounded before the sum in every set, so that all agree bit for bit */
    void (*moments)(size_t n, const float *x, const double *base, double *s, double *q);
    int interleave; /* the batch's float32 inputs are best interleaved (gemm32_t) */
};

/* The set in use. */
const kern_set *kern(void);
/* Chooses the set in use by name (NULL: the best this processor runs). -1 when this
 * processor runs no set of that name, or another set was chosen before. */
int kern_init(const char *name);
/* The sets this processor runs, best first, into sets[0 ..]; returns how many (at most
 * max). */
size_t kern_sets(const kern_set **sets, size_t max);

/* The cells (doc/measures.md, "The cells"), defined once here on a set's nonlinearities.
 *
 * float32 LSTM for H units: a holds W_hh h + b_hh (4H, blocks i f g o); xp (4H) is added
 * and the sums become the gates after their nonlinearities; c and h [H] are updated. */
void cell32_lstm(const kern_set *k, size_t H, const float *xp, float *a, float *c, float *h);
/* float32 GRU in two halves, since with the reset before W_hn the product W_hn (r h)
 * comes between them. The gates: g[0 .. 2H) = sigmoid(xp + gh) (r, z). The state: the
 * candidate g[2H ..] = n = tanh(xp_n + r gh_n), or tanh(xp_n + gh_n) with the reset before
 * (gh_n = W_hn (r h) + b_hn), and h = (1 - z) n + z h. xp, gh: 3H. */
void cell32_gru_gates(const kern_set *k, size_t H, const float *xp, const float *gh, float *g);
void cell32_gru_state(const kern_set *k, size_t H, const float *xp, const float *gh,
                      int before, float *g, float *h);

/* float32 plain RNN for H units: a holds W_hh h + b_hh; xp (H) is added, a keeps the
 * pre-activation and h = tanh(a) (relu = 0) or relu(a). */
void cell32_rnn(const kern_set *k, size_t H, int relu, const float *xp, float *a, float *h);

/* double cells for H units from their pre-activations p, on units j0 .. H-1 (the
 * _from forms, for a one-pass cell that leaves the last units) or all. The gates after
 * their nonlinearities go to g (G*H), or only to the scratch t when g is NULL. t holds
 * 5H doubles for an LSTM and 3H for a GRU when g is NULL, H for an LSTM and none for a GRU
 * (t may be NULL) otherwise. LSTM: blocks i f g o, c and h updated. GRU, reset after W_hn:
 * r z n, h updated; with the reset before, the gates (r, z into g) and then, once
 * W_hn (r h) is known, the state (n into g, h). */
void cell64_lstm(const kern_set *k, size_t H, const kern64_pre *p, double *g, double *t,
                 double *c, double *h);
void cell64_lstm_from(const kern_set *k, size_t H, size_t j0, const kern64_pre *p, double *g,
                      double *t, double *c, double *h);
void cell64_gru(const kern_set *k, size_t H, const kern64_pre *p, double *g, double *t,
                double *h);
void cell64_gru_from(const kern_set *k, size_t H, size_t j0, const kern64_pre *p, double *g,
                     double *t, double *h);
void cell64_gru_gates(const kern_set *k, size_t H, const kern64_pre *p, double *g);
void cell64_gru_state(const kern_set *k, size_t H, const kern64_pre *p, int before, double *g,
                      double *h);

/* double plain RNN: the pre-activation a into g (H, or nowhere when g is NULL) and
 * h = tanh(a) or relu(a). */
void cell64_rnn(const kern_set *k, size_t H, int relu, const kern64_pre *p, double *g,
                double *h);

/* The set in use, function by function. */
static inline void kern_gemv(size_t rows, size_t cols, const float *W, const float *x,
                             const float *bias, float *y)
{
    kern()->gemv(rows, cols, W, x, bias, y, 0);
}
static inline void kern_gemv_dir(size_t rows, size_t cols, const float *W, const float *x,
                                 const float *bias, float *y, int backward)
{
    kern()->gemv(rows, cols, W, x, bias, y, backward);
}
static inline void kern_lstm(size_t H, const float *xp, float *a, float *c, float *h)
{
    const kern_set *k = kern();
    k->lstm(k, H, xp, a, c, h);
}
static inline void kern_gru_gates(size_t H, const float *xp, const float *gh, float *g)
{
    cell32_gru_gates(kern(), H, xp, gh, g);
}
static inline void kern_gru_state(size_t H, const float *xp, const float *gh, int before,
                                  float *g, float *h)
{
    cell32_gru_state(kern(), H, xp, gh, before, g, h);
}
static inline void kern_rnn(size_t H, int relu, const float *xp, float *a, float *h)
{
    cell32_rnn(kern(), H, relu, xp, a, h);
}
static inline void kern64_rnn(size_t H, int relu, const kern64_pre *p, double *g, double *h)
{
    cell64_rnn(kern(), H, relu, p, g, h);
}
/* The first i < n where x[i] + y[i] (y NULL: x[i]) is not finite in float32 (a product or
 * a sum that overflowed), or n. The cells' vector nonlinearities clamp such a value into
 * range, so a cell's float32 step looks for it before them. */
static inline size_t kern_overflow_at(const float *x, const float *y, size_t n)
{
    unsigned bad = 0;
    for (size_t i = 0; i < n; i++) {
        const float s = y ? x[i] + y[i] : x[i];
        uint32_t u;
        memcpy(&u, &s, sizeof u);
        bad |= (u & 0x7f800000u) == 0x7f800000u;
    }
    if (!bad)
        return n;
    size_t i = 0;
    while (i < n && isfinite(y ? x[i] + y[i] : x[i]))
        i++;
    return i;
}
static inline void kern64_gemm(const gt_mat64 *A, size_t nb, const double *X, size_t ldx,
                               const double *bias, double *Y, size_t ldy, int accumulate)
{
    kern()->gemm64(A, nb, X, ldx, bias, Y, ldy, accumulate);
}
static inline void kern64_tanh(size_t n, double *v)
{
    kern()->act64(n, v, 1);
}
static inline void kern64_lstm(size_t H, const kern64_pre *p, double *g, double *t, double *c,
                               double *h)
{
    const kern_set *k = kern();
    k->lstm64(k, H, p, g, t, c, h);
}
static inline void kern64_gru(size_t H, const kern64_pre *p, double *g, double *t, double *h)
{
    const kern_set *k = kern();
    k->gru64(k, H, p, g, t, h);
}
static inline void kern64_gru_gates(size_t H, const kern64_pre *p, double *g)
{
    cell64_gru_gates(kern(), H, p, g);
}
static inline void kern64_gru_state(size_t H, const kern64_pre *p, int before, double *g,
                                    double *h)
{
    cell64_gru_state(kern(), H, p, before, g, h);
}
static inline void kern32_gemm(const gt_mat32 *A, size_t nb, const float *X, size_t ldx,
                               float *Y, size_t ldy)
{
    kern()->gemm32(A, nb, X, ldx, Y, ldy);
}
static inline void kern32_gemm_t(const gt_mat32 *A, size_t nb, const float *XT, float *Y,
                                 size_t ldy, const double *x0, double *y0)
{
    kern()->gemm32_t(A, nb, XT, Y, ldy, x0, y0);
}
static inline void kern32_gemv64(const gt_mat32 *A, const double *x, double *y)
{
    kern()->gemv64(A, x, y);
}

#endif
