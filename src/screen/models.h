/* Several models on the screen: one view and one trace per model over the same text, one
 * shown at a time. Switching keeps the step, the layer, the unit and the panels open; every
 * model has the same edits, so the perturbation panel can put each model's curve for the
 * same edit side by side (doc/screen.md, "Several models"). */
#ifndef GATETUI_MODELS_H
#define GATETUI_MODELS_H
#include <stdint.h>
#include "gatetui/error.h"
#include "gatetui/model.h"
#include "gatetui/text.h"
#include "gatetui/intervene.h"
#include "gatetui/session.h"
#include "gatetui/sha256.h"
#include "screen/data_interv.h"
#include "screen/view.h"

typedef struct gt_models {
    int n, cur;
    gt_shared ui;    /* what every model's view shares */
    gt_view *v;      /* [n] */
    gt_trace **tr;   /* [n] */
    gt_data_interv *ivs;  /* [n]: each model's interventions and the model they make */
    const gt_session *session; /* the models as read (whose files are watched), their
                                * interventions, texts and tables */
    unsigned char *changed; /* [n]: 1 once the model's file was seen changed on disk */
    int *missed;          /* [n]: how many of the shown model's interventions the model could
                           * not take at the last key (iv_follow) */
    long long checked_s;  /* the monotonic second the files were last looked at */
    const char *own_file; /* the session file it was opened from (W writes it again), or
                           * NULL (W writes a new one) */
    char own_sha256[SHA256_HEX]; /* what own_file held when read or last written ("": not
                                  * read), so that a file changed since is not written over */
} gt_models;

/* Opens a trace and a view for each model of the session s (which must outlive ms), with
 * the session's interventions to start from; threads: GATETUI_THREADS (N >= 0) for the
 * background pass and the Jacobian, or -1: their own choice; layer < 0: 0. ms must stay
 * where it is while open (the views point to ms->ui). */
int models_open(gt_models *ms, const gt_session *s, int threads, int layer, int utf8,
                gt_error *e);
void models_close(gt_models *ms);
/* The view shown. */
gt_view *models_view(gt_models *ms);
/* Shows the next (dir > 0) or previous model at the same step; what the views share
 * (ms->ui: the layer, the unit, the sort, the prompts, the open view...) stays as it is,
 * clamped to the model's size where it is smaller. */
void models_switch(gt_models *ms, int dir);
/* After a key changed the view shown: every other model's data follows the shared state
 * (view_follow: its layer's curves, the horizon, the report's tables), and gets, with the
 * same shape, the interventions of the model shown (the edits are every model's at once:
 * view_apply_edit). */
void models_sync(gt_models *ms);
/* view_tick for every model; 1 when the screen should be redrawn. */
int models_tick(gt_models *ms);
/* 1 while any model computes in the background. */
int models_busy(const gt_models *ms);

#endif
