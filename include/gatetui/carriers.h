/* Which units carry an edit (doc/measures.md, "The carriers"): for an edit at step s (token
 * `to` in place of the text's), the run of the text as it is (clean) and edited, from the
 * zero state at the text's start; at each step t = s .. s+K the KL divergence of the
 * edited run's next-character distribution from the clean one's, summed: the edit's effect
 * E (nats). For each unit j of the layer: alone, the clean run with j's state after step s
 * (c_j and h_j of an LSTM, h_j otherwise) taken from the edited run, A_j = sum of KL from
 * the clean run; removed, the edited run with j's state after s put back to the clean
 * run's, R_j = 1 - (sum of KL) / E. The 2H runs are stepped as batches (batch.h) over
 * threads, each batch with the clean run as its item 0. */
#ifndef GATETUI_CARRIERS_H
#define GATETUI_CARRIERS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "gatetui/error.h"
#include "gatetui/model.h"
#include "gatetui/report.h"

/* An edit made before the one measured: its step, the token there before it and the one
 * put there. */
typedef struct gt_carriers_edit {
    size_t step;
    int from, to;
} gt_carriers_edit;

typedef struct gt_carriers {
    const gt_model *m;
    size_t step;        /* s */
    int from, to;       /* the tokens at s: the text's and the edit's */
    int layer, hidden;
    size_t horizon;     /* K */
    double effect;      /* E, nats */
    double *alone;      /* [H] A_j, nats */
    double *removed;    /* [H] R_j; NAN when E is 0 */
    int *order;         /* [H] the units by A_j, largest first (then by unit) */
    int threads;
    double seconds;
    const gt_carriers_edit *before; /* [nbefore] the edits made first, in order (the caller's;
                                       NULL: none), so that the output names them */
    size_t nbefore;
} gt_carriers;

/* o gives the layer, the horizon asked for (0: REPORT_HORIZON; K is at most the steps left
 * after s), the threads and the progress. GT_EINPUT for a model without a readout, an LSTM
 * with projections, s past the text. */
int carriers_compute(gt_carriers *r, const gt_model *m, const uint16_t *tok, size_t steps,
                     size_t s, int to, const gt_report_options *o, gt_error *e);
void carriers_free(gt_carriers *r);

/* The first `top` units (0: all) as a table, then the units whose removal takes most; or
 * JSON {"edit": {"step", "from", "to"}, "edits_before": [{"step", "from", "to"}...] (when
 * there are any), "layer", "horizon", "effect", "units": [{"unit", "alone",
 * "alone_share", "removed"}...]} ranked by alone; interventions (or NULL) names what the
 * model has changed. */
int carriers_print_text(FILE *f, const gt_carriers *r, const char *interventions, int top,
                        gt_error *e);
int carriers_print_json(FILE *f, const gt_carriers *r, const char *interventions,
                        gt_error *e);

#endif
