/* The perturbation of the last edit as the screen keeps it (doc/measures.md, "Perturbation"): the edited text
 * against the text before that edit, on the layer shown, for k = 0..K; or, with `all`, the
 * text with every edit against the text as loaded, from the first edited step. Computed as
 * the frame is prepared after an edit is made or undone, the layer changes or K does (never
 * while drawing, nor key by key: view.c), from the edited step on and only K + 1 steps
 * far. */
#ifndef GATETUI_DATA_PERT_H
#define GATETUI_DATA_PERT_H

#include <stddef.h>
#include <stdint.h>

#include "gatetui/error.h"
#include "gatetui/model.h"
#include "gatetui/perturb.h"
#include "gatetui/trace.h"

#define DATA_PERT_KMIN 4
#define DATA_PERT_KMAX 1024
#define DATA_PERT_KDEFAULT 64
#define DATA_PERT_TOP 6 /* the units that carry the edit furthest */

typedef struct gt_data_pert {
    int horizon;         /* the K the curves are for (the screen's: gt_shared) */
    int all;             /* every edit against the text as loaded (the screen's A) */
    /* the last edit's curves (valid), as computed */
    int valid;
    size_t step;         /* the edited step s (with all: the first edited step) */
    int old_tok, new_tok; /* at s */
    size_t nedits;       /* with all: the edited steps from s to s + K */
    int layer;
    int lstm;
    /* the curves as perturb_one gave them, k = 0..r.K (K less than horizon near the text's
     * end), in this view's own arrays (dc, dh, fo, lin: never NULL), and their half-lives
     * (PERTURB_NONE beyond K); the per-unit values (d0, last, last_fo) are NULL: the
     * lasting units are below */
    gt_perturb_result r;
    int ntop;            /* units (with a difference at k = 0) by how long it lasts */
    int top[DATA_PERT_TOP], top_last[DATA_PERT_TOP], top_last_fo[DATA_PERT_TOP];
    double top_d0[DATA_PERT_TOP];
    /* private */
    const gt_model *m;
    gt_perturb p;
    int p_layer;         /* the layer p is for, -1: none */
    float *h0, *c0;      /* [hidden_total] */
    uint16_t *orig, *now; /* [DATA_PERT_KMAX+1] the tokens from the edited step on, before
                           * the edit and as edited */
    int *idx;            /* [H] */
    double *curves;      /* [4 * (DATA_PERT_KMAX+1)]: r's dc, dh, fo, lin */
} gt_data_pert;

/* An edit's curves kept (B, pinned): the perturbation panel draws them beside the next
 * edit's, with their half-lives (doc/screen.md, "Two edits compared"). */
typedef struct gt_pert_pin {
    int valid;
    size_t step;          /* as gt_data_pert's */
    int old_tok, new_tok, all, layer, lstm, horizon;
    size_t nedits;
    gt_perturb_result r;  /* K and the half-lives; the curves in curves, the per-unit values
                           * NULL */
    double *curves;       /* [4 (r.K + 1)]: dc, dh, fo, lin */
    char what[512];       /* the model's interventions they were computed under (iv_describe;
                           * "" none): said beside them when those in force differ */
} gt_pert_pin;

/* Room for the curves of k = 0..K in p (emptied first), r's curves pointed at it. */
int data_pert_pin_alloc(gt_pert_pin *p, int K, gt_error *e);
/* pv's curves (valid) kept in p, computed under the interventions `what` ("" none). */
int data_pert_pin(gt_pert_pin *p, const gt_data_pert *pv, const char *what, gt_error *e);
void data_pert_unpin(gt_pert_pin *p);
/* 1 when p and pv are the same edit's curves (nothing to draw beside them). */
int data_pert_pin_same(const gt_pert_pin *p, const gt_data_pert *pv);
/* 1 when p's curves are drawn beside pv's: another edit's (or the same edit's against
 * other edits before it, or under other interventions), on the same layer and K. */
int data_pert_pin_shown(const gt_pert_pin *p, const gt_data_pert *pv);

int data_pert_init(gt_data_pert *pv, const gt_model *m, gt_error *e);
void data_pert_free(gt_data_pert *pv);

/* The model's weights changed (its interventions): the products made for them are made
 * again at the next update. */
void data_pert_model_changed(gt_data_pert *pv);
/* Computes the curves of tr's last edit on layer `layer` for horizon K (DATA_PERT_KMIN..
 * DATA_PERT_KMAX; the curves stop at the text's end); with no edit left, empties them. */
int data_pert_update(gt_data_pert *pv, gt_trace *tr, int layer, int K, gt_error *e);

/* The ratio measured / forget-only (c for an LSTM, h for a GRU) at the last k up to kmax
 * (K when kmax < 1 or above it) whose measured difference is at or above rounding's floor
 * (perturb_ratio), that k in *k_at; NAN when there is none. */
double data_pert_ratio(const gt_data_pert *pv, int kmax, int *k_at);

#endif
