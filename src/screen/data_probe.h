/* Meaning carried by many units, on the screen (doc/screen.md, "Finding units"): the
 * hypothesis's linear probe, and the signal's first principal components.
 *
 * The probe: once `m`'s
 * correlations are known, a child process (bgjob.h) fits the probe of --probe on the same
 * matches, steps, layer and signal (cross-validated over contiguous folds, doc/measures.md,
 * "Probes and components") and sends its held-out AUC, the best single unit's,
 * units_for_95 and the fit's probability at each step, which the strip's title shows beside
 * the hypothesis and P colours the text by. A new hypothesis, an
 * edit, another layer or signal asks again (the running child, stale, is ended); no
 * hypothesis, none.
 *
 * The components: asked for when P colours the text by one, a child computes the first
 * DATA_COMP_K principal components of the signal over the first steps of the text as
 * edited (--components's) and sends each step's score on each, which P colours the text
 * by (the score over twice its deviation over the steps); asked again in the same way. */
#ifndef GATETUI_DATA_PROBE_H
#define GATETUI_DATA_PROBE_H

#include <stddef.h>

#include "gatetui/model.h"
#include "gatetui/trace.h"
#include "screen/bgjob.h"

enum { PROBE_NONE, PROBE_COMPUTING, PROBE_KNOWN, PROBE_FAILED };

#define DATA_COMP_K 3 /* the components P goes through */

typedef struct gt_data_comp {
    int state;              /* PROBE_* for what was last asked */
    int layer, signal;
    size_t steps;
    double explained[DATA_COMP_K]; /* each one's share of the variance */
    double sd[DATA_COMP_K];        /* the deviation of its scores over the steps */
    float *score;           /* [DATA_COMP_K * steps] when known */
    char error[256];
    gt_bgjob job;
} gt_data_comp;

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
    gt_data_comp comp;      /* the components */
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
/* The components of signal over the first steps on layer: nothing when known or on their
 * way. */
void data_comp_want(gt_data_probe *p, int layer, int signal, size_t steps);
/* Component j's score at step s over twice its deviation, in [-1, 1] (clipped), when known
 * for layer; NAN otherwise. */
float data_comp_at(const gt_data_probe *p, int j, int layer, size_t s);

#endif
