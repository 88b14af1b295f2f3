/* The whole derivative against the carry line (doc/measures.md, "The carry line against the
 * whole derivative"). For one layer, a step T and the lags k = 1..K:
 *
 *   J(T-k, k) = dc_T / dc_{T-k}   (LSTM; a GRU: dh_T / dh_{T-k})
 *
 * with the layer's inputs fixed, h_{T-k} = o_{T-k} tanh(c_{T-k}) moving with c_{T-k} (its o
 * fixed) and every later gate moving; against the carry line C(T-k, k) = diag(f_{T-k+1} ...
 * f_T) (a GRU: the product of z). Every lag comes from one backward sweep from T: the H
 * rows of J (one per unit of c_T) are carried back together as one matrix-matrix product
 * per step, split among threads by rows. The steps T-K..T are run in double precision from
 * the float32 state before T-K, like the perturbation. */
#ifndef GATETUI_JACOBIAN_H
#define GATETUI_JACOBIAN_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "gatetui/batch.h"
#include "gatetui/error.h"
#include "gatetui/model.h"
#include "gatetui/tangent.h"

typedef struct gt_jacobian_lag {
    int k;
    double frob;        /* ||J||_F */
    double carry_frob;  /* ||C||_F */
    double diag_share;  /* ||diag J||_2 / ||J||_F (NAN when J = 0) */
    double diag;        /* the unit's J_jj */
    double row;         /* ||J_j.||_2 */
    double carry;       /* C_jj */
} gt_jacobian_lag;

typedef struct gt_jacobian {
    const gt_model *m;
    int layer, kmax, H; /* H: the layer's width H_k */
    int K;              /* the last run's lags: 1..K (0: none yet) */
    int threads;
    const atomic_int *stop; /* set (by another thread): the run stops soon (NULL: never) */
    size_t part_macs;   /* the products' parts (JACOBIAN_STOP_MACS; the tests set less) */
    /* private */
    gt_batch fwd;       /* the steps T-K..T in double */
    gt_stepjac *sj;
    struct gt_pool *pool;
    struct jac_part *part; /* [threads] */
    double *tape;       /* [(kmax+1) * (G+3) * H] per step: h before, c before, gates, c after */
    double *carry;      /* [(kmax+1) * H] C_jj by lag */
    double *rowsq;      /* [kmax * H] sum_j J_ij^2 by lag, row i */
    double *diag;       /* [kmax * H] J_ii by lag */
    double *mat;        /* [H * H] J(T-K, K), row i = unit i of the state at T */
} gt_jacobian;

/* For lags up to kmax, on `threads` threads (< 1: one per online processor). */
int jacobian_init(gt_jacobian *j, const gt_model *m, int layer, int kmax, int threads,
                  gt_error *e);
void jacobian_free(gt_jacobian *j);

/* Runs steps T-K..T (tokens tok[0..K]) from the state before T-K (h0, c0 of every layer,
 * [hidden_total] as gt_run keeps them; NULL: the zero state) and computes J(T-k, k) for
 * k = 1..K, 1 <= K <= kmax. GT_EINPUT when K is out of range. When *j->stop becomes nonzero
 * while it runs, it returns GT_EFAIL ("stopped") soon after, what it computed incomplete: the
 * flag is read at every step and between parts of each step's product of at most
 * JACOBIAN_STOP_MACS multiply-adds per thread (a fifth of a second or so), whatever H. */
#define JACOBIAN_STOP_MACS (1u << 28)
int jacobian_run(gt_jacobian *j, const float *h0, const float *c0, const uint16_t *tok, int K,
                 gt_error *e);

/* Lag k (1..K) of the last run, seen from unit `unit`. */
void jacobian_lag(const gt_jacobian *j, int k, int unit, gt_jacobian_lag *out);

/* J(T-K, K) of the last run, row-major H x H: entry (i, q) = dc_T[i] / dc_{T-K}[q]. */
const double *jacobian_matrix(const gt_jacobian *j);

/* The floating-point operations (2 per multiply-add) of the last run's products. */
double jacobian_flops(const gt_jacobian *j);

/* The last run at step T seen from `unit` (doc/usage.md, "--jacobian"): a table of the
 * lags; the JSON object {"step", "layer", "unit", "lags": [{"k", "frob", "carry_frob",
 * "diag_share", "unit": {"diag", "row", "carry"}}, ...]}; J(T-K, K) as CSV, row i on line
 * i. GT_EFAIL when writing fails. */
int jacobian_print_text(FILE *f, const gt_jacobian *j, size_t T, int unit, gt_error *e);
int jacobian_print_json(FILE *f, const gt_jacobian *j, size_t T, int unit, gt_error *e);
int jacobian_print_matrix(FILE *f, const gt_jacobian *j, gt_error *e);

#endif
