/* The whole state's dynamics of one layer (doc/measures.md, "The whole state's dynamics"):
 * the state s = (c, h) of an LSTM layer (2H numbers), h of a GRU (H), its step's exact
 * Jacobian J_t = ds_t / ds_(t-1) with the layer's input fixed (formed from the tangent map's
 * rows, tangent.h), and from it the Lyapunov spectrum along a text (the QR method) and the
 * eigenvalues at one step. The steps are run in double precision from the zero state. */
#ifndef GATETUI_DYNAMICS_H
#define GATETUI_DYNAMICS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "gatetui/error.h"
#include "gatetui/model.h"

/* The Lyapunov spectrum: M exponents per character, largest first, and their half-lives
 * ln 1/2 / lambda (NAN when lambda >= 0). */
typedef struct gt_lyapunov {
    int layer, modes;
    size_t steps, warmup;
    double *exponent, *halflife; /* [modes] */
} gt_lyapunov;

/* The step's state size of model m's layers: 2H (LSTM) or H (GRU). */
int dyn_state_size(const gt_model *m);

/* Steps 0..steps-1 of tok through layers 0..layer, M tangents carried by the exact tangent
 * map as one product per step, each step's QR by LAPACK; the exponents are the means of
 * ln R_ii over the steps after the first `warmup`. GT_EINPUT when M is not in 1..state size
 * or warmup >= steps. */
int lyapunov_compute(gt_lyapunov *l, const gt_model *m, int layer, int M, const uint16_t *tok,
                     size_t steps, size_t warmup, gt_error *e);
void lyapunov_free(gt_lyapunov *l);

/* The eigenvalues of J_T (the step reading tok[T]), by modulus, largest first, and the
 * carry gates at T (f of an LSTM, z of a GRU), largest first. */
typedef struct gt_spectrum {
    int layer, n, H;
    size_t step;
    double *re, *im, *abs, *halflife; /* [n]; half-life ln 1/2 / ln |lambda|, NAN at >= 1 */
    double *carry;                    /* [H] */
} gt_spectrum;

int spectrum_compute(gt_spectrum *s, const gt_model *m, int layer, const uint16_t *tok,
                     size_t T, gt_error *e);
void spectrum_free(gt_spectrum *s);

/* As text (the slowest half-life beside others given by the caller: the report's measured,
 * linearized and forget-only, NAN when unknown) or as JSON {"layer", "steps", "warmup",
 * "modes", "exponents", "halflives"} and {"step", "layer", "eigenvalues": [{"re", "im",
 * "abs", "halflife"}, ...], "carry_sorted"}. GT_EFAIL when writing fails. */
int lyapunov_print_text(FILE *f, const gt_lyapunov *l, const double report_hl[3],
                        gt_error *e);
int lyapunov_print_json(FILE *f, const gt_lyapunov *l, gt_error *e);
int spectrum_print_text(FILE *f, const gt_spectrum *s, gt_error *e);
int spectrum_print_json(FILE *f, const gt_spectrum *s, gt_error *e);

#endif
