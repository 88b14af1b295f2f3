/* The derivative sheet's data (doc/screen.md, "The derivative against the carry line"): at the
 * cursor's step T, for the layer shown, J(T-k, k) = dc_T / dc_(T-k) (a GRU: h) for k = 1..K
 * against the carry line, from the Jacobian of jacobian.h; computed when the sheet is up and
 * the step, the layer, K or the edits changed, by a thread of its own (some tens of
 * milliseconds for K = 32 on a model of 256 units), the last result shown meanwhile: the
 * state at T - K and the tokens are read from the trace first, on the caller's thread, and
 * a step asked for while a computation runs is computed after it (the latest asked for). The
 * lags as seen from the selected unit are taken from what was computed, without computing
 * again. A computation no longer wanted (the model changed, the screen ends, on a signal or
 * when the terminal goes away) is stopped within a fraction of a second, whatever H
 * (jacobian.h's stop flag), never waited for. */
#ifndef GATETUI_DATA_JAC_H
#define GATETUI_DATA_JAC_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

#include "gatetui/error.h"
#include "gatetui/jacobian.h"
#include "gatetui/model.h"
#include "gatetui/trace.h"

#define DATA_JAC_KMIN 1
#define DATA_JAC_KMAX 256
#define DATA_JAC_KDEFAULT 32

typedef struct gt_data_jac {
    int horizon;        /* K asked for at the last update */
    /* what was computed last (shown while the next is computed) */
    int valid;
    size_t step;        /* T */
    int layer;
    int K;              /* lags 1..K: the horizon, or fewer near the text's start (0 at T = 0) */
    double ms;          /* how long it took */
    char error[512];    /* why it failed, or "" */
    /* the lags seen from `unit` (data_jac_update) */
    int unit;
    int lag_unit;       /* the unit lag[] was taken for */
    gt_jacobian_lag *lag; /* [DATA_JAC_KMAX]: lag[k - 1] */
    int computing;      /* a thread computes step run_step (data_jac_tick collects it) */
    size_t run_step;
    /* private */
    const gt_model *m;
    int threads;        /* the Jacobian's (0: one per processor, at most 16) */
    gt_jacobian j;
    int j_layer;        /* the layer j is for, -1: none */
    float *h0, *c0;     /* [hidden_total] */
    uint16_t *tok;      /* [DATA_JAC_KMAX + 1]: the steps T - K .. T as edited */
    int stale;          /* the edits changed since what is shown was computed */
    unsigned gen, run_gen; /* the edits' generation, and the running computation's */
    int run_layer, run_K, run_rc;
    double run_t0;
    gt_error run_e;
    pthread_t th;
    atomic_int done;
    atomic_int started; /* the thread is past its start (and holds the fork fence when it
                           makes buffers): start() waits for it */
    atomic_int stop;    /* the Jacobian's stop flag: a computation no longer wanted ends soon */
} gt_data_jac;

int data_jac_init(gt_data_jac *jv, const gt_model *m, gt_error *e);
void data_jac_free(gt_data_jac *jv);
/* The model's weights changed (its interventions): a computation running is stopped, and J
 * made again at the next update. */
void data_jac_model_changed(gt_data_jac *jv);
/* The edits changed: compute again before the next frame. */
void data_jac_invalidate(gt_data_jac *jv);
/* Starts computing J at step t of `layer` with K lags asked for (horizon) unless that is
 * what it holds or computes (a computation running: once it is collected), and takes the
 * lags seen from unit when nothing runs; a failure is kept in jv->error. */
void data_jac_update(gt_data_jac *jv, gt_trace *tr, int layer, size_t t, int unit, int horizon);
/* Collects a computation that ended: 1 when it did (the frame is to be prepared again). */
int data_jac_tick(gt_data_jac *jv);
/* 1 while a computation runs; 1 too when what is shown is not what the last update asked. */
int data_jac_busy(const gt_data_jac *jv);

#endif
