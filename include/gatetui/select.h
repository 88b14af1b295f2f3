/* A hypothesis as a stretch of text (doc/measures.md, "Select and match", after LSTMVis):
 * with signal s and threshold theta, the selected units are those with s_j(t) >= theta at
 * every step of [a, b] and s_j < theta at a - 1 and b + 1 (where those are among the steps
 * searched), ranked by their minimum over [a, b] (largest first, ties by unit). The
 * matches are the maximal runs of steps where every selected unit is >= theta, in order.
 * Two runs from the zero state: one up to b + 1 finds the units, one over every step
 * finds the matches. */
#ifndef GATETUI_SELECT_H
#define GATETUI_SELECT_H

#include <stddef.h>
#include <stdint.h>

#include "gatetui/error.h"
#include "gatetui/model.h"
#include "gatetui/signals.h"

#define SELECT_DEFAULT_THRESHOLD 0.3

typedef struct gt_selection {
    const gt_model *m;
    size_t a, b, steps;
    int layer, signal;
    double threshold;
    int nunits;
    int *units;         /* [nunits] ranked */
    double *minimum;    /* [nunits] each one's minimum over [a, b] */
    size_t nmatches;
    size_t *from, *to;  /* [nmatches] first and last step of each match */
} gt_selection;

/* Over tok[0..n) (a <= b < n): GT_EINPUT for a span outside those steps. */
int select_compute(gt_selection *sel, const gt_model *m, const uint16_t *tok, size_t n,
                   size_t a, size_t b, int signal, double threshold, const gt_pass_options *o,
                   gt_error *e);
void select_free(gt_selection *sel);

#endif
