/* The stats view's data: the report (report.h, doc/measures.md) for the text as loaded, one
 * per layer, kept once computed. The tables are the same text `gatetui --report` prints.
 * A report takes a while (seconds on a 256-unit model, minutes on a very wide one), so it
 * is computed by a child process (bgjob.h): the keys keep working meanwhile, and closing
 * the view, asking for another layer or quitting ends the computation at once. */
#ifndef GATETUI_STATSVIEW_H
#define GATETUI_STATSVIEW_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "gatetui/error.h"
#include "gatetui/model.h"
#include "gatetui/trace.h"
#include "screen/bgjob.h"

typedef struct gt_statsview {
    int scroll;         /* its first line shown */
    char **text;        /* [layers] each layer's tables, NULL until computed */
    int *lines;         /* [layers] their number of lines */
    int *width;         /* [layers] the widest line's columns */
    char error[256];    /* why the last computation failed, or "" */
    /* several models: every model's tables of layer joined_layer side by side, one column
     * per model (models.c), or NULL */
    char *joined;
    int joined_layer, joined_lines, joined_width;
    /* private */
    const gt_model *m;
    gt_trace *tr;       /* its text, as loaded (the edits are beside it) */
    char text_name[256];
    int layers;
    gt_bgjob job;       /* the computation; its tag is the layer */
} gt_statsview;

int statsview_init(gt_statsview *sv, const gt_model *m, gt_trace *tr, const char *text_name,
                   gt_error *e);
/* Ends a computation that is running. */
void statsview_free(gt_statsview *sv);

/* Asks for layer's tables: starts computing them unless they are known or on their way
 * (a computation for another layer is ended). */
void statsview_want(gt_statsview *sv, int layer);
/* The model changed (its interventions): the tables known are dropped, a computation
 * ended. */
void statsview_forget(gt_statsview *sv);
/* The tables to show for layer: every model's side by side when they are joined, else
 * this model's (NULL until computed); their lines and widest line's columns. */
const char *statsview_tables(const gt_statsview *sv, int layer, int *lines, int *width);
/* Joins the n models' tables of layer side by side (columns.h) as this view's; GT_EFAIL
 * when out of memory (nothing changes). */
int statsview_join(gt_statsview *sv, const char *const *tables, int n, int layer);
/* Ends the computation that runs, if any. */
void statsview_cancel(gt_statsview *sv);
/* Reads what the child sent; collects the tables when it is done. 1 when the view should
 * be redrawn. */
int statsview_tick(gt_statsview *sv);
/* 1 while a computation runs. */
int statsview_busy(const gt_statsview *sv);
/* The running computation: its layer and progress from 0 to 1. */
double statsview_progress(const gt_statsview *sv, int *layer);

#endif
