/* The text before the last edit, run in float32 like the trace from the state before the
 * edited step, for the difference (d: edited - before): the shown layer's gates, c and h
 * at up to DATA_DIFF_SPAN steps from the edited one on (fewer for a model so wide that they
 * would take more than DATA_DIFF_BUDGET bytes). Before the edited step the two runs are the
 * same; beyond the span the difference is not known. Memory is taken at the first use. */
#ifndef GATETUI_DATA_DIFF_H
#define GATETUI_DATA_DIFF_H

#include <stddef.h>
#include <stdint.h>

#include "gatetui/error.h"
#include "gatetui/model.h"
#include "gatetui/run.h"
#include "gatetui/trace.h"

#define DATA_DIFF_SPAN 1024
#define DATA_DIFF_MIN_SPAN 64
#define DATA_DIFF_BUDGET ((size_t)16 << 20)

typedef struct gt_data_diff {
    int valid;          /* there is an edit and its run is computed */
    size_t step;        /* the edited step s */
    int layer;
    size_t n;           /* steps s .. s+n-1 are known */
    size_t span;        /* the most steps kept */
    /* private */
    const gt_model *m;
    float *g, *c, *h;   /* [span * G*H], [span * H], [span * H], H the layer's (room for the
                           widest) */
    float *h0, *c0;     /* [hidden_total] */
    uint16_t *tok;      /* [span] the tokens before the edit, from s on */
    int have_run;
    gt_run run;
} gt_data_diff;

int data_diff_init(gt_data_diff *d, const gt_model *m, gt_error *e);
void data_diff_free(gt_data_diff *d);
/* Runs the text before tr's last edit on layers 0..layer (nothing when there is none). */
int data_diff_update(gt_data_diff *d, gt_trace *tr, int layer, gt_error *e);
/* 1 when step st's values before the edit are known (st < s: those of the trace). */
int data_diff_known(const gt_data_diff *d, size_t st);
/* The run before the edit at step st (s <= st < s + n): gates [G*H], c [H], h [H]. */
const float *data_diff_gates(const gt_data_diff *d, size_t st);
const float *data_diff_c(const gt_data_diff *d, size_t st);
const float *data_diff_h(const gt_data_diff *d, size_t st);

#endif
