/* What each unit is worth (doc/measures.md, "Importance"): over the report's windows (each
 * from the zero state; the prediction after step t of the token at t + 1, t = 0 .. len - 2),
 * the readout's mean loss with unit j of the layer ablated (its c and h set to 0 after
 * every step) less the mean loss without. A window's ablations run as one batch with the
 * text as it is (item 0): one matrix-matrix product per weight matrix and step, each
 * ablation's products taken in float32 through its difference from item 0
 * (batch_use_float32), the losses in double. */
#ifndef GATETUI_IMPORTANCE_H
#define GATETUI_IMPORTANCE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "gatetui/error.h"
#include "gatetui/loss.h"
#include "gatetui/model.h"
#include "gatetui/report.h"

typedef struct gt_importance {
    int layer, hidden;
    const char *step_noun; /* "character", or a word model's "token" (model_step_noun) */
    int lstm;            /* 1: an ablated unit's c and h are held at 0; 0 (GRU, RNN): its h */
    size_t windows, window_len;
    gt_loss loss;        /* without ablation */
    double *unit_loss;   /* [H]: mean loss in nats with unit j ablated */
    double *delta_hw;    /* [H]: the half-width of unit j's increase's 95% interval, nats:
                            1.96 SE by the jackknife over windows (NAN under two windows) */
    int *order;          /* [H]: the units, largest increase first (then by unit) */
    double seconds;
    int threads;
} gt_importance;

/* o gives the layer, the windows, their length, the threads and the progress (the horizon
 * is not used). A model without a readout: GT_EINPUT. */
int importance_compute(gt_importance *r, const gt_model *m, const uint16_t *tok, size_t steps,
                       const gt_report_options *o, gt_error *e);
void importance_free(gt_importance *r);

/* As a table (the first `top` units, 0 for all; each increase with its interval, "[lo, hi]"
 * in bits), or as JSON {"layer", "windows", "window_len", "loss": {"nats", "bits", "count"},
 * "units": [{"unit", "loss", "delta", "delta_ci": [lo, hi]}...]} in nats (the interval
 * [null, null] under two windows), largest delta first; `interventions` (or NULL) names what the model has
 * changed. */
int importance_print_text(FILE *f, const gt_importance *r, const char *interventions,
                          int top, gt_error *e);
int importance_print_json(FILE *f, const gt_importance *r, const char *interventions,
                          gt_error *e);

#endif
