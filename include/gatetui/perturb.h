/* Perturbation (doc/measures.md, "Perturbation"): the text before an edit and after it, run from the state
 * just before the first edited step s, compared on one layer for k = 0..K steps:
 *
 *   measured     D_c(k) = |c'_{s+k} - c_{s+k}|,  D_h(k) = |h'_{s+k} - h_{s+k}|
 *   forget-only  F(k) = |D0 * f_{s+1} * ... * f_{s+k}|,  D0 = c'_s - c_s,
 *                with the forget gates f of the text before the edit
 *
 *   linearized   L(k) = |dc_{s+k}| with (dc, dh)_s = (c'_s - c_s, h'_s - h_s) on every layer
 *                up to this one, carried by the exact tangent map along the text before the
 *                edit (tangent.h): what the edit would do if the cells were linear around it
 *
 * (Euclidean norms over the layer's units; for a GRU D0 = h'_s - h_s, the update gate z
 * takes f's place, L follows h, and there is no D_c; for a plain RNN likewise, with no
 * forget-only curve: nothing multiplies its state elementwise from one step to the next). An
 * edited text that differs again at a later step s + k (every edit at once) adds that step's
 * own difference, the original's state stepped with the edited token less the original's
 * step, to the linearized curve's tangent (every layer up to this one) and to the
 * forget-only one's vector (the carried state), so that all three curves follow every edit;
 * a unit's last_fo stays its carry gate's. Several edits of one text run together as one
 * batch. The runs are evaluated in double precision from the float32 state given, so that
 * differences far below float32's resolution of the states are still exact to 1e-10 or
 * so. Everything is allocated by perturb_init; perturb_run allocates nothing. */
#ifndef GATETUI_PERTURB_H
#define GATETUI_PERTURB_H

#include <stddef.h>
#include <stdint.h>

#include "gatetui/batch.h"
#include "gatetui/error.h"
#include "gatetui/model.h"
#include "gatetui/tangent.h"

/* A half-life that does not exist: the curve stays above half within K steps (or starts
 * at zero). */
#define PERTURB_NONE (-1.0)

typedef struct gt_perturb_result {
    int K;              /* the curves run k = 0..K */
    const double *dc;   /* [K+1] measured cell difference; NULL for a GRU */
    const double *dh;   /* [K+1] measured hidden difference */
    const double *fo;   /* [K+1] forget-only; NAN for an RNN (no carry gate) */
    const double *lin;  /* [K+1] linearized (c for an LSTM, h for a GRU); when
                           gt_perturb.linearized is set */
    double hl_c, hl_h, hl_fo; /* half-lives in steps of dc, dh, fo (see perturb_halflife) */
    double hl_lin;      /* of lin (PERTURB_NONE when off) */
    /* Per unit j, of the carried state (c for an LSTM, h for a GRU): */
    const double *d0;   /* [H] D0_j */
    const int *last;    /* [H] measured: the last k <= K at which |D_j(k)| >= |D0_j| / 2;
                           -1 when D0_j = 0. K may mean "at least K". */
    const int *last_fo; /* [H] forget-only: the last k at which f_{s+1}...f_{s+k} >= 1/2
                           (-1 when D0_j = 0) */
} gt_perturb_result;

typedef struct gt_perturb {
    const gt_model *m;
    int layer;          /* the layer compared */
    int kmax;           /* the longest horizon this perturbation can compute */
    int horizon;        /* the horizon of the next runs (kmax unless set) */
    int cap;            /* the most edits per run */
    int nres;           /* results of the last run */
    int units;          /* 1 (perturb_init's default): fill last and last_fo; 0: the curves,
                           half-lives and d0 alone */
    int linearized;     /* 1 (the default): the linearized curve too */
    /* NULL (the default), or [2 (kmax+1) H] that each run adds to, for every edit that
     * perturb_kept keeps: |D_j(k)| (c for an LSTM, h for a GRU) at [k H + j], a sum carried
     * with its rounding error at [(kmax+1) H + k H + j] (perturb_sum_add) */
    double *unit_abs;
    gt_perturb_result *res; /* [cap] */
    /* private */
    gt_batch b;         /* item 0: the original text; items 1..n: the edits; then a step's
                           later differences (perturb_run) */
    double *store;      /* the results' arrays */
    double *prod;       /* [H] f_{s+1}...f_{s+k} of the original run */
    int *ibuf;
    uint16_t *tok;      /* [2 cap + 1] this step's tokens: the original, the edits, then the
                           later differences' steps from the original's state */
    gt_tangent *tg;     /* the edits' first differences carried forward */
    double *prev;       /* [2 * (layer+1) * H] the original run's h and c before a step */
    gt_step_point *pts; /* [layer+1] */
    double *fo_acc;     /* [cap H] an edit's forget-only vector once a later step differs */
    int *later;         /* [cap] 1 once a later step of edit x differed (fo_acc in use) */
    int *inj;           /* [cap] this step's item for edit x's later difference, or -1 */
} gt_perturb;

/* A perturbation of layer `layer` for horizons up to kmax and up to max_edits edits per
 * run. */
int perturb_init(gt_perturb *p, const gt_model *m, int layer, int kmax, int max_edits,
                 gt_error *e);
void perturb_free(gt_perturb *p);

/* The edits' products in float32 through their differences from the original run
 * (batch_use_float32): several times faster, with the curves' relative error about 1e-6
 * instead of 1e-10. */
int perturb_use_float32(gt_perturb *p, gt_error *e);

/* Sets the horizon of the next runs: K = min(horizon, n - 1), 0 <= horizon <= kmax (clamped),
 * so that K can change without a new perturbation. */
void perturb_set_horizon(gt_perturb *p, int horizon);

/* Runs the original tokens orig[0..n) (the text from step s on) and each edited version
 * edited[x][0..n) (x < nedits; the same text with one or more tokens replaced, the first
 * at index 0) from the state just before s: h0, c0 hold every layer's state
 * ([hidden_total], as gt_run keeps them; NULL for the zero state at the start of a text; c0
 * is ignored for a GRU). K = min(horizon, n - 1): a text that ends sooner gives shorter curves.
 * Results in p->res[0..nedits). Returns 0, or -1 when n == 0 or nedits is not in
 * 1..cap. */
int perturb_run(gt_perturb *p, const float *h0, const float *c0, const uint16_t *orig,
                const uint16_t *const *edited, int nedits, size_t n);

/* The same for a single edit; NULL on bad arguments. The result lives until the next run. */
const gt_perturb_result *perturb_one(gt_perturb *p, const float *h0, const float *c0,
                                     const uint16_t *orig, const uint16_t *edited, size_t n);

/* Whether an edit's curves count in an average: its differences at k = 0 (c for an LSTM,
 * h, and the forget-only start) are not zero. */
int perturb_kept(const gt_perturb_result *r);

/* Adds x to the sum *hi with its accumulated rounding error *lo (a two-sum): the sum
 * hi + lo is then exact to about 1e-30 of its size, whatever the order of the terms. */
static inline void perturb_sum_add(double *hi, double *lo, double x)
{
    double s = *hi + x, bb = s - *hi;
    *lo += (*hi - (s - bb)) + (x - bb);
    *hi = s;
}

/* The half-life of curve[0..K] relative to curve[0]: the smallest k whose ratio
 * curve[k] / curve[0] is <= 0.5, interpolated log-linearly between k-1 and k
 * (k - 1 + ln(r_{k-1} / 0.5) / ln(r_{k-1} / r_k)). PERTURB_NONE when no ratio within K is
 * that small, or curve[0] is not positive. */
double perturb_halflife(const double *curve, int K);

/* Below this fraction of its k = 0 value a measured difference is rounding: the two runs are
 * taken in double, and far from the edit ||c' - c|| settles near 1e-15 of its start, where
 * the AVX-512, AVX2 and C kernels differ by a quarter, while down to 1e-13 they agree to
 * within half a percent (the sample LSTM, an edit at step 500, k up to 1024). */
#define PERTURB_FLOOR 1e-13

/* The ratio measured / forget-only at the last k <= K whose measured difference is at or
 * above PERTURB_FLOOR of its k = 0 value, that k in *k_at; NaN (and *k_at = -1) when there is
 * none or the forget-only value there is not positive. */
double perturb_ratio(const double *measured, const double *forget_only, int K, int *k_at);

#endif
