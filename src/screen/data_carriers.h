/* Which units carry the screen's last edit (carriers.h; doc/measures.md, "The carriers"):
 * for the last edit, the run of the text as edited before it (clean) against the run with
 * it, on the layer shown, over the perturbation's horizon K; for every unit of the layer
 * what it carries alone (A_j, and A_j / E) and the share of the effect that needs it. The
 * perturbation panel names the first units ("carried by #71 38% ..."), the carriers' sheet
 * (B) lists them all. 2H runs of the text to the edit and past it take a second or more,
 * so a child process computes them (bgjob.h): the keys keep working, another edit, an undo,
 * another layer or K, or an intervention ends the computation at once and starts the next;
 * Esc stops it. */
#ifndef GATETUI_DATA_CARRIERS_H
#define GATETUI_DATA_CARRIERS_H

#include <stddef.h>

#include "gatetui/error.h"
#include "gatetui/model.h"
#include "gatetui/trace.h"
#include "screen/bgjob.h"

/* The state of the result (as data_find.h's). */
enum {
    CARRY_NONE = BG_NONE, CARRY_COMPUTING = BG_COMPUTING, CARRY_KNOWN = BG_KNOWN,
    CARRY_FAILED = BG_FAILED, CARRY_STOPPED = BG_STOPPED
};

typedef struct gt_data_carriers {
    int state;           /* CARRY_* */
    /* what is known or computing: the edits' generation, the layer, K */
    unsigned gen;
    int layer, K;
    /* the result, when known */
    size_t step;         /* the edit's step */
    int from, to;        /* the tokens at it: before, after */
    int hidden, horizon; /* H of the layer; K as the text's end allows */
    double effect;       /* E, nats */
    double *alone;       /* [H] A_j, nats */
    double *removed;     /* [H] R_j (NAN when E is 0) */
    int *order;          /* [H] by A_j, largest first */
    char *text;          /* the table of every unit (carriers_print_text) */
    int lines;
    char error[256];     /* why it failed */
    /* private */
    const gt_model *m;
    gt_trace *tr;
    char what[512];      /* the model's interventions, for the table's title */
    gt_bgjob job;
} gt_data_carriers;

void data_carriers_init(gt_data_carriers *c, const gt_model *m, gt_trace *tr);
void data_carriers_free(gt_data_carriers *c);

/* The carriers of tr's last edit on layer for horizon K, the edits being at generation gen
 * (what changes with every edit, undo or redo): nothing when they are known, computing or
 * stopped for these; else computed, by a child (now 0) or at once (now 1: --export). what:
 * the model's interventions ("" none). With no edit the result is forgotten. */
void data_carriers_want(gt_data_carriers *c, unsigned gen, int layer, int K, const char *what,
                        int now);
/* The model changed (an intervention): what is known forgotten, a computation ended. */
void data_carriers_forget(gt_data_carriers *c);
/* Esc: a computation ended and not started again until what it is for changes (or
 * data_carriers_again). 1 when one was running. */
int data_carriers_stop(gt_data_carriers *c);
/* Computed again after a stop or a failure (the next want starts it). */
void data_carriers_again(gt_data_carriers *c);
/* Reads what the child sent; 1 when the screen should be redrawn. */
int data_carriers_tick(gt_data_carriers *c);
int data_carriers_busy(const gt_data_carriers *c);
double data_carriers_progress(const gt_data_carriers *c);

#endif
