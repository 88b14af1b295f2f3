/* The derivative of one layer's step (doc/measures.md, "The carry line against the whole
 * derivative"), formed row by row from a reference run's gates in double precision and the
 * model's weights: the cells' own parts are their descriptors' (gatetui/cell.h,
 * src/engine/cell_NAME.c), the rest is here.
 *
 * The derivative of a step is kept as a matrix M whose columns are the state before the step
 * (H columns: h) and, with the input, the layer's input (D more):
 *   a cell with a cell state (an LSTM): rows 0..H-1 are A, the part of dc'/d[h; x] through
 *         the gates i, f and g; rows H..2H-1 are B, the part of dh'/d[h; x] through the output
 *         gate, so that
 *             dc' = f * dc + A [dh; dx],    dh' = B [dh; dx] + u * dc',   u = o (1 - tanh^2 c')
 *         (* elementwise; f and u are vectors of the step, gt_stepjac_work.f and .u).
 *   GRU:  rows 0..H-1: dh' = M [dh; dx], the update gate z on the diagonal of the h columns.
 *   RNN:  rows 0..H-1: dh' = M [dh; dx] = d (W_hh dh + W_ih dx), d the nonlinearity's slope.
 * So a step costs 2H x (H + D) (LSTM) or H x (H + D) (GRU) multiply-adds per tangent, once M
 * is formed (3 to 4 H (H + D); for a GRU with the reset before W_hn, a product of H x H by
 * H x (H + D) more). */
#ifndef GATETUI_STEPJAC_H
#define GATETUI_STEPJAC_H

#include <stddef.h>

#include "gatetui/error.h"
#include "gatetui/model.h"

/* The reference run's values around one step of one layer. */
typedef struct gt_step_point {
    const double *h_prev; /* [H] h before the step */
    const double *c_prev; /* [H] c before the step (a cell state's) */
    const double *gates;  /* [G*H] the step's gates after their nonlinearity */
    const double *c;      /* [H] c after the step (a cell state's) */
    const double *hn;     /* [H] W_hn h + b_hn when the run has it (a GRU, the reset after), or
                             NULL: computed */
} gt_step_point;

/* Layer `layer`'s derivative, with the input's D columns (with_input) or not; its body is
 * the engine's (src/engine/stepjac_impl.h, which the cells read). On failure *out is
 * NULL. */
typedef struct gt_stepjac gt_stepjac;
int stepjac_new(gt_stepjac **out, const gt_model *m, int layer, int with_input, gt_error *e);
void stepjac_free(gt_stepjac *s);
/* M's rows, 2H (a cell state) or H, and its columns, H or H + D. */
int stepjac_nrows(const gt_stepjac *s);
int stepjac_ncols(const gt_stepjac *s);

/* The step's coefficients: STEPJAC_COEFS vectors of H values, what each is the cell's
 * (src/engine/cell_NAME.c). */
#define STEPJAC_COEFS 8

/* What one user (one thread) of a gt_stepjac keeps for the step at hand. */
typedef struct gt_stepjac_work {
    double *v;          /* [STEPJAC_COEFS H] the step's coefficients */
    double *G;          /* a second product's rows (GRU, reset before: [H * cols]
                           W_hn diag(h r (1 - r)) [W_hr | W_ir]) */
    double *X;          /* [H * H] its room */
    const double *f, *u; /* a cell state's: the step's f and u, within v */
} gt_stepjac_work;

/* w serves s and any gt_stepjac of the same model with no more columns than s's or twice
 * its widest layer's. */
int stepjac_work_init(gt_stepjac_work *w, const gt_stepjac *s, gt_error *e);
void stepjac_work_free(gt_stepjac_work *w);
/* Points w at the coefficients v ([STEPJAC_COEFS H], kept elsewhere), f and u within them. */
void stepjac_work_at(gt_stepjac_work *w, const gt_stepjac *s, double *v);

/* Sets w's coefficients for the step at pt; then stepjac_rows for the rows wanted, and
 * stepjac_row gives them. The rows of the model's ablated units (gt_model.ablated) are 0:
 * their c and h are set to 0 after every step. */
void stepjac_prepare(const gt_stepjac *s, gt_stepjac_work *w, const gt_step_point *pt);
/* The carry line's step (doc/measures.md, "The carry line against the whole derivative"):
 * out[j] = unit j's carry gate (f, z) among the step's gates ([G*H], after their
 * nonlinearity), 0 for an ablated unit (its rows are 0: stepjac_prepare), NAN for a cell
 * without a carry gate (a plain RNN). */
void stepjac_carry(const gt_stepjac *s, const double *gates, double *out);
/* Makes M's rows r0..r1-1 ready (a GRU with the reset before W_hn: their part of a product
 * of H x H by H x (H + D); nothing otherwise). */
void stepjac_rows(const gt_stepjac *s, gt_stepjac_work *w, int r0, int r1);
/* Row r (< stepjac_nrows) of M: row[0..stepjac_ncols), once stepjac_rows has made it ready. */
void stepjac_row(const gt_stepjac *s, const gt_stepjac_work *w, int r, double *row);

/* The cells' shared piece of a row: out[j] = a W1[j] + b W2[j] + c W3[j] for j < n (a
 * weight row of each; W3 may be NULL), the same numbers on every instruction set. */
void stepjac_comb3(size_t n, double *out, double a, const float *W1, double b,
                   const float *W2, double c, const float *W3);

#endif
