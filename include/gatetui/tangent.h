/* The exact tangent map of a layer's step (doc/measures.md, "The carry line against the
 * whole derivative"): the derivative of the state after one step with respect to the state
 * before it and the layer's input, along a reference run given in double precision, and
 * tangents carried forward by it.
 *
 * The derivative of a step is kept as a matrix M whose columns are the state before the step
 * (H columns: h) and, with the input, the layer's input (D more):
 *   LSTM: rows 0..H-1 are A, the part of dc'/d[h; x] through the gates i, f and g; rows
 *         H..2H-1 are B, the part of dh'/d[h; x] through the output gate, so that
 *             dc' = f * dc + A [dh; dx],    dh' = B [dh; dx] + u * dc',   u = o (1 - tanh^2 c')
 *         (* elementwise; f and u are vectors of the step).
 *   GRU:  rows 0..H-1: dh' = M [dh; dx], the update gate z on the diagonal of the h columns.
 *   RNN:  rows 0..H-1: dh' = M [dh; dx] = d (W_hh dh + W_ih dx), d the nonlinearity's slope.
 * So a step costs 2H x (H + D) (LSTM) or H x (H + D) (GRU) multiply-adds per tangent, once M
 * is formed (3 to 4 H (H + D); for a GRU with the reset before W_hn, a product of H x H by
 * H x (H + D) more). */
#ifndef GATETUI_TANGENT_H
#define GATETUI_TANGENT_H

#include <stddef.h>

#include "gatetui/error.h"
#include "gatetui/model.h"

/* The reference run's values around one step of one layer. */
typedef struct gt_step_point {
    const double *h_prev; /* [H] h before the step */
    const double *c_prev; /* [H] c before the step (LSTM) */
    const double *gates;  /* [G*H] the step's gates after their nonlinearity */
    const double *c;      /* [H] c after the step (LSTM) */
    const double *hn;     /* [H] W_hn h + b_hn when the run has it (a GRU, the reset after), or
                             NULL: computed */
} gt_step_point;

typedef struct gt_stepjac {
    const gt_model *m;
    int layer, H, D;
    int lstm, rnn, before; /* before: a GRU with the reset before W_hn */
    int with_input;     /* M has the input's D columns */
    int rows, cols;     /* 2H or H; H or H + D */
    /* private */
    struct gt_mat64 *whn; /* GRU, reset after: W_hn (hn = W_hn h + b_hn) */
    struct gt_mat64 *wrT; /* GRU, reset before: [W_hr | W_ir]^T */
    double *b_hn;         /* [H] */
} gt_stepjac;

/* The step's coefficients in gt_stepjac_work.v, H values each (s' = s (1 - s)):
 *   LSTM  di = g i', df = c f', dg = i (1 - g^2), do = tanh(c') o', f, u = o (1 - tanh^2 c')
 *   GRU   dr = e hn r' (reset after) or r (before), dz = (h - n) z', dn = e r (after),
 *         e = (1 - z)(1 - n^2), z, hn = W_hn h + b_hn (after) or w = h r' (before)
 *   RNN   d = 1 - h'^2 (tanh) or [a > 0] (relu) */
enum { SJ_D };
enum { SJ_DI, SJ_DF, SJ_DG, SJ_DO, SJ_F, SJ_U };
enum { SJ_DR, SJ_DZ, SJ_DN, SJ_E, SJ_Z, SJ_HN };
#define SJ_R SJ_DR
#define SJ_W SJ_HN

/* What one user (one thread) of a gt_stepjac keeps for the step at hand. */
typedef struct gt_stepjac_work {
    double *v;          /* [8H] the step's coefficients */
    double *G;          /* GRU, reset before: [H * cols] W_hn diag(h r (1 - r)) [W_hr | W_ir] */
    double *X;          /* GRU, reset before: [H * H] */
    const double *f, *u; /* LSTM: the step's f and u, within v */
} gt_stepjac_work;

int stepjac_init(gt_stepjac *s, const gt_model *m, int layer, int with_input, gt_error *e);
void stepjac_free(gt_stepjac *s);
/* w serves s and any gt_stepjac of the same model with no more columns. */
int stepjac_work_init(gt_stepjac_work *w, const gt_stepjac *s, gt_error *e);
void stepjac_work_free(gt_stepjac_work *w);

/* Sets w's coefficients for the step at pt; then stepjac_rows for the rows wanted, and
 * stepjac_row gives them. */
void stepjac_prepare(const gt_stepjac *s, gt_stepjac_work *w, const gt_step_point *pt);
/* Makes M's rows r0..r1-1 ready (a GRU with the reset before W_hn: their part of a product
 * of H x H by H x (H + D); nothing otherwise). */
void stepjac_rows(const gt_stepjac *s, gt_stepjac_work *w, int r0, int r1);
/* Row r (< s->rows) of M: row[0..s->cols), once stepjac_rows has made it ready. */
void stepjac_row(const gt_stepjac *s, const gt_stepjac_work *w, int r, double *row);

/* n tangents (d h, d c of layers 0..upto) carried forward along a reference run of those
 * layers, the same tokens read: layer 0's input does not move; layer k > 0's moves with
 * layer k - 1's h. */
typedef struct gt_tangent {
    const gt_model *m;
    int upto, cap, H;
    double *dh, *dc;    /* [(upto+1) * cap * H]: layer k, tangent x at (k*cap + x)*H */
    /* private */
    gt_stepjac *sj;     /* [upto+1] */
    gt_stepjac_work w;
    double *M;          /* [2H * 2H] the step's derivative, row-major */
    float *M32;         /* the same in float32 with tangent_use_float32, or NULL */
    struct gt_mat64 *Xp; /* the tangents' [dh; dx] packed as a matrix (cap rows) */
    struct gt_mat32 *Xp32; /* the same in float32 with tangent_use_float32 */
    double *row, *Y;    /* [2H], [2H * cap]: M's row r times tangent x at Y[r * n + x] */
    float *Yf;
    struct gt_mat32 *whh, *whn, *wih; /* [upto+1]: W_hh (a GRU with the reset before W_hn:
                                         its r and z rows, and W_hn), W_ih above layer 0 */
    double *P, *Q, *R;  /* [cap * G*H] twice, [cap * 2H] */
    double *Z;          /* [G*H] zeros: layer 0's input does not move */
} gt_tangent;

int tangent_init(gt_tangent *t, const gt_model *m, int upto, int cap, gt_error *e);
void tangent_free(gt_tangent *t);
/* From now on the products M [dh; dx] are taken in float32 (M and the tangents rounded,
 * everything else double): their relative error, about 1e-6, is relative to the tangent,
 * which is not a difference of large numbers; several times faster. */
int tangent_use_float32(gt_tangent *t, gt_error *e);

static inline double *tangent_h(const gt_tangent *t, int k, int x)
{
    return t->dh + ((size_t)k * t->cap + x) * t->H;
}
static inline double *tangent_c(const gt_tangent *t, int k, int x)
{
    return t->dc + ((size_t)k * t->cap + x) * t->H;
}

/* Carries tangents 0..n-1 over one step whose points on layers 0..upto are pt[0..upto]. */
void tangent_step(gt_tangent *t, int n, const gt_step_point *pt);

#endif
