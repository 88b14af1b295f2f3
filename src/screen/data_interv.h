/* The screen's interventions (intervene.h; doc/screen.md, "Interventions"): what the keys
 * < > { } a C Z change, the model changed by them (at one address for the whole session,
 * so that the trace and the panels keep their pointer to it), and two computations in
 * child processes (bgjob.h): the readout's loss with and without the interventions for
 * the header, over the windows the header's loss uses; and each unit's importance on a
 * layer, for the sort by importance. Both read the text as loaded. */
#ifndef GATETUI_DATA_INTERV_H
#define GATETUI_DATA_INTERV_H

#include <stddef.h>

#include "gatetui/error.h"
#include "gatetui/intervene.h"
#include "gatetui/model.h"
#include "gatetui/text.h"
#include "screen/bgjob.h"

typedef struct gt_data_interv {
    const gt_model *base;    /* the model as loaded */
    gt_intervention iv;
    gt_model m;              /* base with iv */
    char what[512];          /* iv_describe, "" when none */
    /* the header's loss: known for the interventions as they are now */
    int loss_known;
    double loss_nats, base_nats;
    size_t loss_count;
    /* the importance (increase of the loss in nats) of imp_layer's units */
    int imp_layer;           /* -1: none asked for */
    int imp_known;
    double *imp;             /* [H] of imp_layer */
    char imp_error[256];
    /* private */
    const gt_text *text;
    const uint16_t *map;     /* the text's tokens -> this model's (several models), or NULL */
    gt_bgjob loss_job, imp_job;
} gt_data_interv;

/* iv (or NULL for none) is copied. The loss of t measured for the model with iv, when the
 * caller has it (t->loss_count > 0), is the header's until the interventions change. */
int data_interv_init(gt_data_interv *s, const gt_model *base, const gt_intervention *iv, const gt_text *t,
                gt_error *e);
void data_interv_free(gt_data_interv *s);
/* The text's tokens are another model's: map takes them to this model's (it must outlive
 * s; NULL: the same order). */
void data_interv_set_map(gt_data_interv *s, const uint16_t *map);
/* The text's tokens (as loaded) in this model's order: the text's own, or a copy through
 * the map, freed by data_interv_tokens_done (for a child process; NULL when out of
 * memory). */
const uint16_t *data_interv_tokens(const gt_data_interv *s);
void data_interv_tokens_done(const gt_data_interv *s, const uint16_t *t);
/* s->iv changed: the model made again in place (whatever reads it must be stopped first),
 * the loss and the importance asked for again. */
int data_interv_apply(gt_data_interv *s, gt_error *e);
/* The header's loss with and without the interventions, now (--export draws at once). */
int data_interv_measure_now(gt_data_interv *s, gt_error *e);
/* Starts computing the importance of layer's units unless it is known or on its way. */
void data_interv_want_importance(gt_data_interv *s, int layer);
/* Reads what the children sent; 1 when something arrived. */
int data_interv_tick(gt_data_interv *s);
/* 1 while a child computes; while the importance's does. */
int data_interv_busy(const gt_data_interv *s);
int data_interv_importance_busy(const gt_data_interv *s);

#endif
