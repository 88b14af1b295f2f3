/* Which units follow a hypothesis (doc/measures.md, "A hypothesis as a regular
 * expression"): for every unit j and signal s of a layer, the Pearson correlation r of
 * s_j(t) with a mask m_t over the steps of one run from the zero state, and the means
 * inside (m = 1) and outside. The sums ride along the run (units_add after each step):
 * nothing of size steps x units is kept. */
#ifndef GATETUI_UNITS_H
#define GATETUI_UNITS_H

#include <stddef.h>

#include "gatetui/error.h"
#include "gatetui/mask.h"
#include "gatetui/model.h"
#include "gatetui/run.h"
#include "gatetui/signals.h"

typedef struct gt_unit_r {
    int unit;
    double r;              /* NAN where s_j or m is constant */
    double mean_inside, mean_outside;
} gt_unit_r;

/* The sums: for each signal and unit, of d = s_j(t) - s_j(0) (shifted by the first value,
 * so that the variance does not cancel) inside and outside the mask, and of d^2 (NULL and
 * a message when out of memory). */
typedef struct gt_units_acc gt_units_acc;
gt_units_acc *units_acc_new(const gt_model *m, int layer, const gt_mask *mask, gt_error *e);
void units_acc_free(gt_units_acc *a);
/* Adds step t (the run after it); a gt_signals_fn for signals_pass. */
int units_add(void *acc, size_t t, const gt_run *r);

typedef struct gt_units {
    const gt_model *m;
    int layer, nsig;
    size_t steps, inside, matches;
    gt_unit_r *by_signal[SIGNALS_MAX]; /* [H] each, ranked: |r| largest first, ties by unit,
                                          a NAN r last */
} gt_units;

/* The ranked results from the sums. */
int units_finish(gt_units *u, const gt_units_acc *a, size_t matches, gt_error *e);
void units_free(gt_units *u);

/* The whole computation: the mask of regex over tok[0..n), one pass, the ranking. */
int units_compute(gt_units *u, const gt_model *m, const uint16_t *tok, size_t n,
                  const char *regex, double seconds, const gt_pass_options *o, gt_error *e);

#endif
