/* Interventions on a model (doc/measures.md, "Interventions"): the carry gate's bias
 * shifted, the constant error carousel (an LSTM's f = 1), units ablated (their c and h held
 * at 0). Each is made once as a change to a copy of the model's weights, so that every
 * mode and every path (float32, double, every kernel set) computes the model changed:
 *   - a shift D of unit j's carry gate adds D to b_hh's row of f (LSTM) or z (GRU);
 *   - the carousel sets b_hh's f rows of the layer above any pre-activation the rest of
 *     the row can reach, by 64 (so f rounds to exactly 1 in float32 and double);
 *   - ablating unit j zeroes its candidate rows (g of an LSTM, n of a GRU) in W_ih, W_hh
 *     and both biases: from the zero state its candidate is tanh(0) = 0 at every step, so
 *     c_j and h_j stay exactly 0, as if set to 0 after every step.
 * The copy shares everything else with the model it was made from. */
#ifndef GATETUI_INTERVENE_H
#define GATETUI_INTERVENE_H

#include <stddef.h>

#include "gatetui/error.h"
#include "gatetui/model.h"

typedef struct gt_intervention {
    int layers, units;       /* units: every layer's, hidden_total (gatetui/model.h) */
    size_t *off;             /* [L+1]: layer k's units at off[k] .. off[k+1]-1, as the
                                model's */
    const gt_celltype *cell; /* a cell without a carry gate has no bias to shift, one
                                without a cell state no carousel */
    double *shift;           /* [units]: the carry gate's bias shift of each unit */
    unsigned char *ablate;   /* [units]: 1 where the unit is ablated */
    unsigned char *carousel; /* [L]: 1 where the layer's f is 1 */
} gt_intervention;

/* Whether unit `unit` of layer `layer` is ablated; the carry gate's shift of it. */
static inline int iv_ablated(const gt_intervention *iv, int layer, int unit)
{
    return iv->ablate[iv->off[layer] + (size_t)unit];
}
static inline double iv_shift_of(const gt_intervention *iv, int layer, int unit)
{
    return iv->shift[iv->off[layer] + (size_t)unit];
}

/* None, for model m's layers and units. */
int iv_init(gt_intervention *iv, const gt_model *m, gt_error *e);
void iv_free(gt_intervention *iv);
void iv_clear(gt_intervention *iv);
int iv_copy(gt_intervention *dst, const gt_intervention *src, gt_error *e);
/* Gives b a's interventions where they apply to b's model: the same layer and unit numbers,
 * a bias shift where both cells have a carry gate (a layer's whole, every unit's the same,
 * is the whole layer's in b however wide), the carousel where both have a cell
 * state; what b has beyond a's layers or units, or of a kind a cannot hold, stays (doc/
 * screen.md, "Several models"). 1 when b changed; *missed (may be NULL): a's interventions
 * b cannot take (a unit or a layer it lacks, a shift without a carry gate, a carousel
 * without a cell state). */
int iv_follow(gt_intervention *b, const gt_intervention *a, int *missed);
/* 1 when something is changed. */
int iv_any(const gt_intervention *iv);

/* The command line's forms (GT_EINPUT with one line for a bad one):
 *   --forget-bias D[@L[:UNITS]]  (shifts add; every layer when @L is not given; |D| at
 *                                 most IV_SHIFT_MAX)
 *   --carousel[@L]               (arg NULL or "" for every layer; LSTM only)
 *   --ablate L:UNITS
 * UNITS is a list like 3,17,200-210. */
#define IV_SHIFT_MAX 1000 /* a shift's size at most: at 40 a gate is 0 or 1 in float32 */
int iv_parse_forget_bias(gt_intervention *iv, const char *arg, gt_error *e);
int iv_parse_carousel(gt_intervention *iv, const char *arg, gt_error *e);
int iv_parse_ablate(gt_intervention *iv, const char *arg, gt_error *e);

/* The screen's edits: shift one unit (unit < 0: the whole layer) by d; flip an ablation or
 * a layer's carousel (returns 0 and changes nothing for a GRU's carousel). */
void iv_shift(gt_intervention *iv, int layer, int unit, double d);
void iv_toggle_ablate(gt_intervention *iv, int layer, int unit);
int iv_toggle_carousel(gt_intervention *iv, int layer);

/* What is changed, in the command line's words ("forget bias +1.5@0, ablated 0:3,17,
 * carousel@1"), or "" when nothing is. */
void iv_describe(const gt_intervention *iv, char *buf, size_t n);

/* The command line's arguments that make iv from none, in order: fn(ctx, kind, arg) for
 * each, kind 'f' (--forget-bias "D@L:UNITS", D with every digit a double needs), 'a'
 * (--ablate "L:UNITS") or 'c' (--carousel@L: "L"), layer by layer; a nonzero return of fn
 * stops them and is returned. A session file keeps a model's interventions so. */
int iv_args(const gt_intervention *iv, int (*fn)(void *ctx, char kind, const char *arg),
            void *ctx, gt_error *e);

/* out = m changed by iv (a copy sharing m's unchanged parts; m must outlive it). Free it
 * with iv_model_free, never model_free. */
int iv_apply(gt_model *out, const gt_model *m, const gt_intervention *iv, gt_error *e);
void iv_model_free(gt_model *out);

#endif
