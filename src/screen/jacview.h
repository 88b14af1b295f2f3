/* The Jacobian view's data (doc/screen.md, "The derivative against the carry line"): at the
 * cursor's step T, for the layer shown, J(T-k, k) = dc_T / dc_(T-k) (a GRU: h) for k = 1..K
 * against the carry line, from the Jacobian of jacobian.h; computed when the view is up and
 * the step, the layer, K or the edits changed (before a frame is drawn, never while
 * drawing), in some tens of milliseconds for K = 32 on a model of 256 units. The lags as
 * seen from the selected unit are taken from what was computed, without computing again. */
#ifndef GATETUI_JACVIEW_H
#define GATETUI_JACVIEW_H

#include <stddef.h>

#include "gatetui/error.h"
#include "gatetui/jacobian.h"
#include "gatetui/model.h"
#include "gatetui/trace.h"

#define JACVIEW_KMIN 1
#define JACVIEW_KMAX 256
#define JACVIEW_KDEFAULT 32

typedef struct gt_jacview {
    int horizon;        /* K asked for at the last update */
    /* what was computed */
    int valid;
    size_t step;        /* T */
    int layer;
    int K;              /* lags 1..K: the horizon, or fewer near the text's start (0 at T = 0) */
    double ms;          /* how long it took */
    char error[512];    /* why it failed, or "" */
    /* the lags seen from `unit` (jacview_update) */
    int unit;
    gt_jacobian_lag *lag; /* [JACVIEW_KMAX]: lag[k - 1] */
    /* private */
    const gt_model *m;
    int threads;        /* the Jacobian's (0: one per processor, at most 16) */
    gt_jacobian j;
    int j_layer;        /* the layer j is for, -1: none */
    float *h0, *c0;     /* [L*H] */
    uint16_t *tok;      /* [JACVIEW_KMAX + 1]: the steps T - K .. T as edited */
} gt_jacview;

int jacview_init(gt_jacview *jv, const gt_model *m, gt_error *e);
void jacview_free(gt_jacview *jv);
/* The model's weights changed (its interventions): made again at the next update. */
void jacview_model_changed(gt_jacview *jv);
/* The edits changed: compute again before the next frame. */
void jacview_invalidate(gt_jacview *jv);
/* Computes J at step t of `layer` with K lags asked for (horizon) unless that is what it
 * holds, then the lags seen from unit; a failure is kept in jv->error. */
void jacview_update(gt_jacview *jv, gt_trace *tr, int layer, size_t t, int unit, int horizon);

#endif
