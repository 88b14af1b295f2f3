/* The text before the last edit, run in float32 like the trace from the state before the
 * edited step, for the difference view (edited - before): the shown layer's gates, c and h
 * at up to DIFFRUN_SPAN steps from the edited one on (fewer for a model so wide that they
 * would take more than DIFFRUN_BUDGET bytes). Before the edited step the two runs are the
 * same; beyond the span the difference is not known. Memory is taken at the first use. */
#ifndef GATETUI_DIFFRUN_H
#define GATETUI_DIFFRUN_H

#include <stddef.h>
#include <stdint.h>

#include "gatetui/error.h"
#include "gatetui/model.h"
#include "gatetui/run.h"
#include "gatetui/trace.h"

#define DIFFRUN_SPAN 1024
#define DIFFRUN_MIN_SPAN 64
#define DIFFRUN_BUDGET ((size_t)16 << 20)

typedef struct gt_diffrun {
    int valid;          /* there is an edit and its run is computed */
    size_t step;        /* the edited step s */
    int layer;
    size_t n;           /* steps s .. s+n-1 are known */
    size_t span;        /* the most steps kept */
    /* private */
    const gt_model *m;
    float *g, *c, *h;   /* [span * G*H], [span * H], [span * H] */
    float *h0, *c0;     /* [L*H] */
    uint16_t *tok;      /* [span] the tokens before the edit, from s on */
    int have_run;
    gt_run run;
} gt_diffrun;

int diffrun_init(gt_diffrun *d, const gt_model *m, gt_error *e);
void diffrun_free(gt_diffrun *d);
/* Runs the text before tr's last edit on layers 0..layer (nothing when there is none). */
int diffrun_update(gt_diffrun *d, gt_trace *tr, int layer, gt_error *e);
/* 1 when step st's values before the edit are known (st < s: those of the trace). */
int diffrun_known(const gt_diffrun *d, size_t st);
/* The run before the edit at step st (s <= st < s + n): gates [G*H], c [H], h [H]. */
const float *diffrun_gates(const gt_diffrun *d, size_t st);
const float *diffrun_c(const gt_diffrun *d, size_t st);
const float *diffrun_h(const gt_diffrun *d, size_t st);

#endif
