/* The hypothesis's linear probe on the screen (doc/screen.md, "Finding units"): once `m`'s
 * correlations are known, a child process (bgjob.h) fits the probe of --probe on the same
 * matches, steps, layer and signal (cross-validated over contiguous folds, doc/measures.md,
 * "Probes and components") and sends its held-out AUC, the best single unit's,
 * units_for_95 and the fit's probability at each step, which the strip's title shows beside
 * the hypothesis and P colours the text by. A new hypothesis, an
 * edit, another layer or signal asks again (the running child, stale, is ended). */
#ifndef GATETUI_DATA_PROBE_H
#define GATETUI_DATA_PROBE_H

#include <stddef.h>

#include "gatetui/model.h"
#include "gatetui/trace.h"
#include "screen/bgjob.h"

enum { PROBE_NONE, PROBE_COMPUTING, PROBE_KNOWN, PROBE_FAILED };

typedef struct gt_data_probe {
    int state;              /* PROBE_* for what was last asked */
    double auc, best_auc;   /* the means over the folds (NAN: not defined) */
    int units_for_95;
    float *prob;            /* [nprob]: the fit on every step's probability at each step */
    size_t nprob;
    char error[256];        /* when it failed: why */
    /* what was asked */
    char regex[256];
    int layer, signal;
    size_t steps;
    /* private */
    const gt_model *m;
    gt_trace *tr;
    gt_bgjob job;
} gt_data_probe;

void data_probe_init(gt_data_probe *p, const gt_model *m, gt_trace *tr);
void data_probe_free(gt_data_probe *p);
/* The probe of regex over the first steps of the text as edited, on layer and signal:
 * nothing when it is what is known or on its way; regex "" forgets it. */
void data_probe_want(gt_data_probe *p, const char *regex, int layer, int signal, size_t steps);
/* The edits changed: asked again at the next want. */
void data_probe_invalidate(gt_data_probe *p);
/* Reads what the child sent; 1 when the view should be redrawn. */
int data_probe_tick(gt_data_probe *p);
int data_probe_busy(const gt_data_probe *p);
/* The probability at step s, when the probe is known for layer and s is among its steps;
 * else -1. */
float data_probe_at(const gt_data_probe *p, int layer, size_t s);

#endif
